import QueryBuilder
import SwiftSyntax

/// Swift computed before the query is built: `ids.dropFirst()`, `[1, 2, 3].map { $0 * 2 }`,
/// `names.map { "\"\($0)\"" }.joined(separator: ", ")` in a query argument or a `\(raw:)`
/// interpolation. The app computes these in Swift and binds the results; so does Quarry, with
/// the interpreter of `@DatabaseFunction` bodies.
///
/// ```swift
/// let ids = [1, 2, 3]
/// Reminder.where { $0.id.in(ids.dropFirst()) }
/// // … WHERE ("reminders"."id") IN ((2), (3))
/// ```
extension Compiler {
  /// The value of `expr`, computed in Swift, when it uses only values known now.
  func swiftValue(of expr: ExprSyntax) throws -> Value {
    var names: [String: SwiftValue] = [:]
    for token in expr.tokens(viewMode: .sourceAccurate) {
      guard case .identifier(let name) = token.tokenKind, names[name] == nil else { continue }
      let known = lookupLocal(name) ?? catalog.bindings[name]
      if scanning, case .expression(let typed)? = known ?? runTimeValues[name], Self.runTimeName(in: typed.expression) != nil,
        token.parent?.is(DeclReferenceExprSyntax.self) == true, token.parent?.parent?.is(MemberAccessExprSyntax.self) != true
          || token.parent?.parent?.as(MemberAccessExprSyntax.self)?.base?.id == token.parent?.id
      {
        // `facts.wrappedValue[indexPath.row]` in a scan: computed from a value the app has when
        // it runs, so the result is one too, bound as the app binds it.
        return .expression(TypedExpression(.value(.parameter(text(of: expr))), type: nil))
      }
      guard let value = known, let swift = swiftValue(value) else { continue }
      names[name] = swift
    }
    let evaluator = SwiftEvaluator(source: source, enums: catalog.enums, budget: budget)
    evaluator.extensions = catalog.swiftExtensions
    let computed: SwiftValue
    do {
      computed = try evaluator.value(of: expr, names: names)
    } catch {
      throw Diagnostic("this Swift is computed before the query runs, but it " + error.text, line: error.line, column: error.column)
    }
    return try value(of: computed, at: expr)
  }

  /// A constant of the DSL as a Swift value (nil for a column or any SQL computation).
  func swiftValue(_ value: Value) -> SwiftValue? {
    switch value {
    case .null: return .none
    case .expression(let typed):
      guard case .value(let binding) = typed.expression.node else { return nil }
      if case .parameter = binding { return nil }  // a value the app has only when it runs
      if let type = typed.type, let model = catalog.enums[type.name] {
        guard let match = model.cases.first(where: { $0.value == binding }) else { return nil }
        return .enumCase(type: model.name, name: match.name, raw: SwiftValue(binding, as: model.rawType))
      }
      return SwiftValue(binding, as: typed.type)
    case .array(let elements):
      var values: [SwiftValue] = []
      for element in elements {
        guard let swift = swiftValue(element) else { return nil }
        values.append(swift)
      }
      return .array(values)
    case .tuple(let elements):
      var values: [SwiftValue] = []
      for element in elements {
        guard let swift = swiftValue(element) else { return nil }
        values.append(swift)
      }
      return .tuple(values, labels: Array(repeating: nil, count: values.count))
    default:
      return nil
    }
  }

  /// A Swift value as a constant of the DSL (bound when the query runs).
  func value(of swift: SwiftValue, at node: some SyntaxProtocol) throws -> Value {
    switch swift {
    case .none: return .null
    case .some(let inner):
      // An optional keeps its type: `Int?` is not `Int` to the library's generic parameters.
      let wrapped = try value(of: inner, at: node)
      guard case .expression(var typed) = wrapped else { return wrapped }
      typed.type = typed.type?.optional
      return .expression(typed)
    case .bool(let flag): return .expression(TypedExpression(.value(.integer(flag ? 1 : 0)), type: .bool))
    case .int(let number): return .expression(TypedExpression(.value(.integer(number)), type: .int))
    case .double(let number): return .expression(TypedExpression(.value(.double(number)), type: .double))
    case .string(let text): return .expression(TypedExpression(.value(.text(text)), type: .string))
    case .array(let values), .slice(let values, _), .lazySequence(_, let values): return .array(try values.map { try value(of: $0, at: node) })
    case .tuple(let values, _): return .tuple(try values.map { try value(of: $0, at: node) })
    case .enumCase(let type, let name, let raw):
      guard let raw, let binding = try? raw.binding(as: nil) else {
        throw source.diagnostic("the case '\(name)' has no raw value to bind", at: node)
      }
      return .expression(TypedExpression(.value(binding), type: SwiftType(type)))
    case .date(let seconds):
      guard let text = DateFormatting.iso8601(secondsSince1970: seconds) else {
        throw source.diagnostic("this date falls outside the years 0000–9999, which SQLite's date functions handle", at: node)
      }
      return .expression(TypedExpression(.value(.text(text)), type: .date))
    case .range:
      guard let elements = swift.orderedElements(limit: 100_000) else {
        throw source.diagnostic("this range has too many numbers to bind one by one", at: node)
      }
      return .array(try elements.map { try value(of: $0, at: node) })
    case .dictionary, .unordered:
      throw source.diagnostic("a \(swift.typeName) has no order Swift fixes; sort it into an array first", at: node)
    }
  }
}
