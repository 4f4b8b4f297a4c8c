import SwiftSyntax

/// One member of a Swift standard type the evaluator runs, declared once: its signature as
/// Swift writes it, an example, and the handler. Dispatch, the check of what a body may call,
/// `.help`-style listings and the expected-values test all read this one table.
///
/// ```swift
/// SwiftBuiltin("String", "hasPrefix(_ prefix: String) -> Bool", example: #""quarry".hasPrefix("qu")"#) {
///   .bool(try $0.baseString().hasPrefix($0.string(0)))
/// }
/// ```
struct SwiftBuiltin: @unchecked Sendable {
  /// `String`, `Int`, `Double`, `Bool`, `Array`, `Dictionary`, `Set`, `Sequence` (any ordered
  /// or unordered collection), `Optional`, or `""` for a free function or initializer.
  let receiver: String
  let signature: String
  let name: String
  let parameters: [Parameter]
  let returnType: String?
  let isProperty: Bool
  let isStatic: Bool
  /// For `Sequence` members: whether the result depends on the elements' order (refused on a
  /// Set or a Dictionary's keys, whose order Swift does not fix).
  let needsOrder: Bool
  /// A Swift expression using the member, run by the expected-values test.
  let example: String
  let handler: @Sendable (inout BuiltinCall) throws -> SwiftValue
  /// For a mutating method: the receiver's new value.
  let mutation: (@Sendable (SwiftEvaluator, SwiftValue, [SwiftValue], FunctionCallExprSyntax) throws -> SwiftValue)?

  struct Parameter {
    var label: String?
    var type: String
    var hasDefault: Bool
  }

  init(
    _ receiver: String, _ signature: String, isStatic: Bool = false, needsOrder: Bool = true, example: String,
    _ handler: @escaping @Sendable (inout BuiltinCall) throws -> SwiftValue
  ) {
    self.receiver = receiver
    self.signature = signature
    self.isStatic = isStatic
    self.needsOrder = needsOrder
    self.example = example
    self.handler = handler
    self.mutation = nil
    (name, parameters, returnType, isProperty) = Self.parse(signature)
  }

  /// A mutating method (`append(_:)`): `mutate` gives the receiver's new value.
  init(
    _ receiver: String, mutating signature: String, example: String,
    _ mutate: @escaping @Sendable (SwiftEvaluator, SwiftValue, [SwiftValue], FunctionCallExprSyntax) throws -> SwiftValue
  ) {
    self.receiver = receiver
    self.signature = "mutating " + signature
    self.isStatic = false
    self.needsOrder = true
    self.example = example
    self.handler = { call in throw call.evaluator.failure("'\(call.name)' changes its receiver; call it on a 'var' as a statement", at: call.node) }
    self.mutation = mutate
    (name, parameters, returnType, isProperty) = Self.parse(signature)
  }

  /// `name(_ a: T, label b: U = 1) -> R` or `name: T`.
  static func parse(_ signature: String) -> (String, [Parameter], String?, Bool) {
    guard let open = signature.firstIndex(of: "(") else {
      let parts = signature.split(separator: ":", maxSplits: 1)
      return (String(parts[0]).trimmingCharacters(in: .whitespaces), [], parts.count > 1 ? String(parts[1]).trimmingCharacters(in: .whitespaces) : nil, true)
    }
    var name = String(signature[..<open])
    if let generic = name.firstIndex(of: "<") { name = String(name[..<generic]) }
    var depth = 0
    var close = signature.endIndex
    for index in signature[open...].indices {
      switch signature[index] {
      case "(", "[", "<": depth += 1
      case ")", "]", ">" where !(index > signature.startIndex && signature[signature.index(before: index)] == "-"):
        depth -= 1
        if depth == 0 { close = index }
      default: break
      }
      if close != signature.endIndex { break }
    }
    let inside = close == signature.endIndex ? "" : String(signature[signature.index(after: open)..<close])
    var parameters: [Parameter] = []
    var current = ""
    depth = 0
    func flush() {
      let text = current.trimmingCharacters(in: .whitespaces)
      current = ""
      guard !text.isEmpty, let colon = text.firstIndex(of: ":") else { return }
      let names = text[..<colon].split(separator: " ")
      var type = text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces)
      var hasDefault = false
      if let equals = type.range(of: " = ") { type = String(type[..<equals.lowerBound]); hasDefault = true }
      let label = names.first.map(String.init)
      parameters.append(Parameter(label: label == "_" ? nil : label, type: type, hasDefault: hasDefault))
    }
    for character in inside {
      switch character {
      case "(", "[", "<": depth += 1
      case ")", "]", ">": depth -= 1
      case "," where depth == 0:
        flush()
        continue
      default: break
      }
      current.append(character)
    }
    flush()
    let rest = close == signature.endIndex ? "" : signature[signature.index(after: close)...]
    let returnType = rest.range(of: "->").map { rest[$0.upperBound...].trimmingCharacters(in: .whitespaces) }
    return (name, parameters, returnType, false)
  }

  /// The label a trailing closure is given while matching: it fits a closure parameter
  /// whatever that parameter's label (`sorted { … }` is `sorted(by:)`).
  static let trailingClosureLabel = "{trailing}"

  /// Whether the labels a call gives fit the parameters (defaults may be left out).
  func accepts(labels: [String?]) -> Bool {
    var index = 0
    for parameter in parameters {
      if index < labels.count, labels[index] == Self.trailingClosureLabel, parameter.type.contains("->") {
        index += 1
        continue
      }
      if parameter.type.hasSuffix("...") {
        // Variadic: any number of arguments, the first with the label.
        if index < labels.count, labels[index] == parameter.label {
          index += 1
          while index < labels.count, labels[index] == nil { index += 1 }
        }
        continue
      }
      if index < labels.count, labels[index] == parameter.label {
        index += 1
      } else if !parameter.hasDefault {
        return false
      }
    }
    return index == labels.count
  }

  /// `name(label:_:)`, as Swift names a method.
  var selector: String {
    isProperty ? name : name + "(" + parameters.map { ($0.label ?? "_") + ":" }.joined() + ")"
  }
}

/// One call of a built-in, its arguments evaluated on demand (closures are applied, not
/// evaluated).
struct BuiltinCall {
  let evaluator: SwiftEvaluator
  let name: String
  let base: SwiftValue
  let arguments: [ExprSyntax]
  let parameters: [SwiftBuiltin.Parameter]
  let node: Syntax
  private var cache: [Int: SwiftValue] = [:]

  init(evaluator: SwiftEvaluator, name: String, base: SwiftValue, arguments: [ExprSyntax], parameters: [SwiftBuiltin.Parameter], node: Syntax) {
    self.evaluator = evaluator
    self.name = name
    self.base = base
    self.arguments = arguments
    self.parameters = parameters
    self.node = node
  }

  var count: Int { arguments.count }

  /// Argument `index`'s value (literals typed by the parameter's type).
  mutating func value(_ index: Int) throws -> SwiftValue {
    if let cached = cache[index] { return cached }
    guard index < arguments.count else { throw evaluator.failure("'\(name)' is missing an argument", at: node) }
    let type = index < parameters.count ? SwiftEvaluator.parse(parameters[index].type) : nil
    let known: Set<String> = ["Int", "Double", "String", "Bool", "Int?", "Double?", "String?"]
    let value = try evaluator.evaluate(arguments[index], expected: type.flatMap { known.contains($0.description) ? $0 : nil })
    cache[index] = value
    return value
  }

  mutating func int(_ index: Int) throws -> Int64 {
    let value = try value(index)
    guard case .int(let number) = value else { throw evaluator.failure("needs an Int here, not \(value.typeName)", at: arguments[index]) }
    return number
  }

  mutating func double(_ index: Int) throws -> Double {
    let value = try value(index)
    guard let number = value.number else { throw evaluator.failure("needs a Double here, not \(value.typeName)", at: arguments[index]) }
    return number
  }

  mutating func string(_ index: Int) throws -> String {
    let value = try value(index)
    guard case .string(let text) = value else { throw evaluator.failure("needs a String here, not \(value.typeName)", at: arguments[index]) }
    return text
  }

  /// A count argument: negative counts trap in Swift (`dropFirst(-1)`).
  mutating func count(_ index: Int, default fallback: Int64 = 1) throws -> Int {
    let number = index < arguments.count ? try int(index) : fallback
    guard number >= 0 else { throw evaluator.crash("'\(name)' with a negative count (\(number))", at: node) }
    return Int(clamping: number)
  }

  func baseString() throws -> String {
    guard case .string(let text) = base else { throw evaluator.failure("needs a String, not \(base.typeName)", at: node) }
    return text
  }

  func baseInt() throws -> Int64 {
    guard case .int(let number) = base else { throw evaluator.failure("needs an Int, not \(base.typeName)", at: node) }
    return number
  }

  func baseDouble() throws -> Double {
    guard let number = base.number else { throw evaluator.failure("needs a Double, not \(base.typeName)", at: node) }
    return number
  }

  /// The elements of the receiver (a collection or a range, bounded by the budget).
  func elements() throws -> [SwiftValue] {
    switch base {
    case .unordered(let values): return values
    case .dictionary(let entries): return entries.map { .tuple([$0.key, $0.value], labels: ["key", "value"]) }
    case .range(let lower, let upper, let closed):
      guard let count = SwiftValue.rangeCount(lower, upper, closed) else {
        throw evaluator.failure("'\(name)' over a range of more numbers than the evaluation budget allows", at: node)
      }
      try evaluator.budget.allocate(count * 16)
      return (0..<count).map { .int(lower + Int64($0)) }
    default:
      guard let values = base.orderedElements(limit: 0) else { throw evaluator.failure("'\(name)' needs a collection, not \(base.typeName)", at: node) }
      return values
    }
  }

  /// Argument `index` as a function: a closure, a key path (`\.count`) or an operator (`+`, `<`).
  func function(_ index: Int) throws -> ([SwiftValue]) throws -> SwiftValue {
    guard index < arguments.count else { throw evaluator.failure("'\(name)' needs a closure", at: node) }
    let argument = arguments[index]
    let evaluator = self.evaluator
    if let closure = argument.as(ClosureExprSyntax.self) {
      return { values in try evaluator.apply(closure, values) }
    }
    if let keyPath = argument.as(KeyPathExprSyntax.self) {
      return { values in
        guard let first = values.first else { return .none }
        return try evaluator.keyPathValue(keyPath, of: first)
      }
    }
    if let op = argument.as(DeclReferenceExprSyntax.self)?.baseName.text {
      switch op {
      case "+", "-", "*", "/", "%", "<", ">", "<=", ">=", "==", "!=":
        return { values in
          guard values.count == 2 else { throw evaluator.failure("'\(op)' takes two values", at: argument) }
          return try evaluator.binary(op, values[0], values[1], at: argument)
        }
      case "max", "min":
        return { values in
          guard values.count == 2 else { throw evaluator.failure("'\(op)' takes two values", at: argument) }
          let order = try evaluator.ordering(values[0], values[1], at: argument) ?? 0
          return op == "max" ? (order < 0 ? values[1] : values[0]) : (order > 0 ? values[1] : values[0])
        }
      default: break
      }
    }
    throw evaluator.unsupported(argument, "a function argument other than a closure, a key path or an operator")
  }

  /// Argument `index` as a predicate.
  func predicate(_ index: Int) throws -> (SwiftValue) throws -> Bool {
    let function = try function(index)
    let evaluator = self.evaluator
    let node = arguments[index]
    return { value in try evaluator.truth(function([value]), at: node) }
  }
}

/// The table of built-ins, by receiver and name.
enum SwiftBuiltins {
  static let all: [SwiftBuiltin] = strings + numbers + sequences + collections + globals + dates

  private static let byName: [String: [SwiftBuiltin]] = Dictionary(grouping: all, by: { $0.receiver + "." + $0.name })

  /// Every name a body may call or read as a member (the check before a body runs).
  static let memberNames: Set<String> = Set(all.filter { !$0.receiver.isEmpty }.map(\.name))
  static let functionNames: Set<String> = Set(all.filter { $0.receiver.isEmpty || $0.isStatic }.map(\.name))

  /// The receiver kinds a value's members are looked up in, most specific first.
  static func receivers(of value: SwiftValue) -> [String] {
    switch value {
    case .string: return ["String", "Sequence"]
    case .int: return ["Int"]
    case .double: return ["Double"]
    case .bool: return ["Bool"]
    case .array: return ["Array", "Sequence"]
    case .slice, .lazySequence: return ["Sequence"]
    case .dictionary: return ["Dictionary", "Sequence"]
    case .unordered: return ["Set", "Sequence"]
    case .range: return ["Range", "Sequence"]
    case .some, .none: return ["Optional"]
    case .tuple: return []
    case .enumCase: return ["Enum"]
    case .date: return ["Date"]
    }
  }

  /// The member `name` of `value` accepting `labels` (nil when none fits).
  static func member(of value: SwiftValue, name: String, labels: [String?]?, isStatic: Bool = false) -> SwiftBuiltin? {
    for receiver in receivers(of: value) {
      for entry in byName[receiver + "." + name] ?? [] where entry.mutation == nil && entry.isStatic == isStatic {
        if let labels { if !entry.isProperty && entry.accepts(labels: labels) { return entry } }
        else if entry.isProperty { return entry }
      }
    }
    return nil
  }

  /// A static member or initializer of a standard type (`Int.max`, `String(repeating:count:)`).
  static func global(_ receiver: String, _ name: String, labels: [String?]?) -> SwiftBuiltin? {
    for entry in byName[receiver + "." + name] ?? [] where entry.mutation == nil {
      if let labels { if !entry.isProperty && entry.accepts(labels: labels) { return entry } }
      else if entry.isProperty { return entry }
    }
    return nil
  }

  static func mutating(on value: SwiftValue, name: String, labels: [String?]) -> (mutate: (SwiftEvaluator, SwiftValue, [SwiftValue], FunctionCallExprSyntax) throws -> SwiftValue, entry: SwiftBuiltin)? {
    for receiver in receivers(of: value) {
      for entry in byName[receiver + "." + name] ?? [] {
        if let mutate = entry.mutation, entry.accepts(labels: labels) { return (mutate, entry) }
      }
    }
    return nil
  }

  /// Other spellings of the same name on the receiver, for a message.
  static func forms(of value: SwiftValue, name: String) -> [String] {
    receivers(of: value).flatMap { byName[$0 + "." + name] ?? [] }.map(\.selector)
  }
}
