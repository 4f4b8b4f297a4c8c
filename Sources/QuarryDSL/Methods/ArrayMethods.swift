import QueryBuilder
import SwiftSyntax

/// What members of a Swift array of query values do (`ids.enumerated()`, `rest.reduce(Case(…)) { … }`):
/// computed structurally, since the values are SQL, not Swift.
struct ArrayMethods {
  unowned let compiler: Compiler
}

extension Compiler {
  /// Array methods, working in this compiler's context.
  var arrayMethods: ArrayMethods { ArrayMethods(compiler: self) }
}

/// Swift arrays and tuples of DSL values in app code: `ids.enumerated()`, `ids.first!`,
/// `rest.reduce(Case($0.id).when(…)) { cases, id in cases.when(id.element, then: id.offset) }` —
/// the reordering idiom of SQLiteData's example apps, whose accumulator is a query value, not
/// a Swift one. Arrays of known constants are computed by the Swift interpreter instead.
///
/// ```swift
/// let ids = [3, 1, 2]
/// Reminder.where { $0.id.in(ids) }.update {
///   let ids = Array(ids.enumerated())
///   let (first, rest) = (ids.first!, ids.dropFirst())
///   $0.position = rest.reduce(Case($0.id).when(first.element, then: first.offset)) { cases, id in
///     cases.when(id.element, then: id.offset)
///   }.else($0.position)
/// }
/// // SET "position" = CASE "reminders"."id" WHEN 3 THEN 0 WHEN 1 THEN 1 WHEN 2 THEN 2 ELSE "reminders"."position" END
/// ```
extension ArrayMethods {
  /// The properties of an array of DSL values, each what it computes.
  static let arrayProperties: [String: @Sendable ([Value]) -> Value] = [
    "first": { $0.first ?? .null },
    "last": { $0.last ?? .null },
    "count": { .expression(TypedExpression(.value(.integer(Int64($0.count))), type: .int)) },
    "isEmpty": { .expression(TypedExpression(.value(.integer($0.isEmpty ? 1 : 0)), type: .bool)) },
  ]

  /// The names of a pair's parts (`enumerated()` gives `offset` and `element`; a dictionary's
  /// pairs `key` and `value`), by position.
  static let pairPartNames: [String: Int] = ["offset": 0, "key": 0, "element": 1, "value": 1]

  /// A property of an array or tuple value: `first`, `last`, `count`, `isEmpty`; `offset` and
  /// `element` (or `0`, `1`) of an `enumerated()` pair.
  func collectionMember(_ name: String, of base: Value, at node: some SyntaxProtocol) throws -> Value? {
    switch base {
    case .array(let elements):
      return Self.arrayProperties[name].map { $0(elements) }
    case .tuple(let parts):
      let index = parts.count == 2 ? Self.pairPartNames[name] ?? Int(name) : Int(name)
      guard let index, parts.indices.contains(index) else { return nil }
      return parts[index]
    default:
      return nil
    }
  }

  /// The methods of an array of DSL values, computed structurally (closures run in the query
  /// compiler, since their values are query values): each with what it computes.
  static let arrayMethods: [String: @Sendable (ArrayMethods, [Value], Arguments, _ expected: SwiftType?) throws -> Value?] = [
    "enumerated": { _, elements, _, _ in
      .array(
        elements.enumerated().map { .tuple([.expression(TypedExpression(.value(.integer(Int64($0.offset))), type: .int)), $0.element]) })
    },
    // Slices keep their indices (`rows.dropFirst()[1]` is the second row); those that start at
    // 0 index as the array does.
    "dropFirst": { methods, elements, arguments, _ in
      let count = try methods.arrayCount(arguments)
      return .slice(Array(elements.dropFirst(count)), startIndex: min(count, elements.count))
    },
    "dropLast": { methods, elements, arguments, _ in .array(Array(elements.dropLast(try methods.arrayCount(arguments)))) },
    "prefix": { methods, elements, arguments, _ in .array(Array(elements.prefix(try methods.arrayCount(arguments)))) },
    "suffix": { methods, elements, arguments, _ in
      let kept = Array(elements.suffix(try methods.arrayCount(arguments)))
      return .slice(kept, startIndex: elements.count - kept.count)
    },
    "reversed": { _, elements, _, _ in .array(elements.reversed()) },
    "map": { methods, elements, arguments, expected in
      // `rows.map(\.title)`: each element's member.
      if let syntax = arguments.first(), syntax.is(KeyPathExprSyntax.self), case .keyPath(let names) = try methods.compiler.evaluate(syntax)
      {
        return .array(
          try elements.map { element in
            try names.reduce(element) { value, name in try methods.compiler.member(name, of: value, at: syntax) }
          })
      }
      // `let drafts: [Tag.Draft] = kinds.map { .init(…) }`: each result is of the element type.
      let transform = try methods.arrayClosure(arguments)
      return .array(try elements.map { try methods.compiler.invoke(transform, with: [$0], expected: expected?.arrayElement) })
    },
    "reduce": { methods, elements, arguments, _ in
      // `reduce(into:)` updates its accumulator in place: Swift's, the evaluator runs it.
      guard let initial = arguments.first(), arguments.list.first?.label == nil else { return nil }
      let combine = try methods.arrayClosure(arguments)
      var result = try methods.compiler.evaluate(initial)
      for element in elements { result = try methods.compiler.invoke(combine, with: [result, element]) }
      return result
    },
  ]

  /// A method of an array of DSL values (nil: not one of `arrayMethods`).
  /// A method of a slice: `dropFirst` and `suffix` move its start on; the others see its
  /// elements (`Array(slice)`, `map`, `reduce` index nothing).
  func sliceMethod(_ name: String, on elements: [Value], startIndex: Int, arguments: Arguments, expected: SwiftType?) throws -> Value? {
    guard let result = try arrayMethod(name, on: elements, arguments: arguments, expected: expected) else { return nil }
    switch (name, result) {
    case ("dropFirst", .slice(let rest, let offset)), ("suffix", .slice(let rest, let offset)):
      return .slice(rest, startIndex: startIndex + offset)
    case ("dropLast", .array(let kept)), ("prefix", .array(let kept)):
      return .slice(kept, startIndex: startIndex)
    case ("enumerated", _), ("map", _), ("reduce", _), ("reversed", _):
      return result
    default:
      return nil
    }
  }

  func arrayMethod(_ name: String, on elements: [Value], arguments: Arguments, expected: SwiftType? = nil) throws -> Value? {
    guard let method = Self.arrayMethods[name] else { return nil }
    return try method(self, elements, arguments, expected)
  }

  /// The count argument of `dropFirst(_:)` and friends: a whole number known before the query
  /// runs (1 when left out).
  private func arrayCount(_ arguments: Arguments) throws -> Int {
    guard let syntax = arguments.first() else { return 1 }
    guard case .expression(let typed) = try compiler.evaluate(syntax), case .value(.integer(let number)) = typed.expression.node,
      let small = Int(exactly: number), small >= 0
    else {
      throw compiler.source.diagnostic(
        "'\(CallSite(arguments).nameNode.trimmedDescription)' needs a count known before the query runs", at: syntax)
    }
    return small
  }

  /// The closure argument of `map` and `reduce`.
  private func arrayClosure(_ arguments: Arguments) throws -> ClosureExprSyntax {
    guard let closure = arguments.list.last?.expression.as(ClosureExprSyntax.self) else {
      throw compiler.source.diagnostic("'\(CallSite(arguments).nameNode.trimmedDescription)' needs a closure here", at: arguments.call)
    }
    return closure
  }
}
