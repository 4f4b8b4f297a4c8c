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
  /// The declaration, read by the vocabulary's own signature parser (labels, defaults,
  /// variadics, closure parameters a trailing closure fills).
  let signature: MethodSignature
  /// The name without generic parameters (`map`, not `map<T>`).
  let name: String
  let isStatic: Bool
  /// For `Sequence` members: whether the result depends on the elements' order (refused on a
  /// Set or a Dictionary's keys, whose order Swift does not fix).
  let needsOrder: Bool
  /// A Swift expression using the member, run by the expected-values test.
  let example: String
  let handler: @Sendable (inout BuiltinCall) throws -> SwiftValue
  /// For a mutating method: the receiver's new value.
  let mutation: (@Sendable (SwiftEvaluator, SwiftValue, [SwiftValue], FunctionCallExprSyntax) throws -> SwiftValue)?
  /// For a mutating method that also returns a value (`popLast()`): that value, from the
  /// receiver before the change.
  var result: (@Sendable (SwiftValue, [SwiftValue]) -> SwiftValue)?

  typealias Parameter = MethodSignature.Parameter

  var parameters: [Parameter] { signature.parameters ?? [] }
  var isProperty: Bool { signature.parameters == nil }

  /// `name(_ a: T) -> R`, or `name: T` for a property (the vocabulary writes `name -> T`).
  private static func read(_ declaration: String, example: String) -> (MethodSignature, String) {
    var text = declaration
    if !text.contains("("), let colon = text.firstIndex(of: ":") {
      text = String(text[..<colon]) + " ->" + text[text.index(after: colon)...]
    }
    let signature = MethodSignature(text, "", example: example)
    let name = signature.name.split(separator: "<", maxSplits: 1).first.map(String.init) ?? signature.name
    return (signature, name)
  }

  init(
    _ receiver: String, _ signature: String, isStatic: Bool = false, needsOrder: Bool = true, example: String,
    _ handler: @escaping @Sendable (inout BuiltinCall) throws -> SwiftValue
  ) {
    self.receiver = receiver
    self.isStatic = isStatic
    self.needsOrder = needsOrder
    self.example = example
    self.handler = handler
    self.mutation = nil
    (self.signature, self.name) = Self.read(signature, example: example)
  }

  /// A mutating method (`append(_:)`): `mutate` gives the receiver's new value.
  init(
    _ receiver: String, mutating signature: String, example: String,
    _ mutate: @escaping @Sendable (SwiftEvaluator, SwiftValue, [SwiftValue], FunctionCallExprSyntax) throws -> SwiftValue
  ) {
    self.receiver = receiver
    self.isStatic = false
    self.needsOrder = true
    self.example = example
    self.handler = { call in
      throw call.evaluator.failure("'\(call.name)' changes its receiver; call it on a 'var' as a statement", at: call.node)
    }
    self.mutation = mutate
    (self.signature, self.name) = Self.read(signature, example: example)
  }

  /// This mutating method, also returning a value computed from the receiver before the change.
  func returning(_ result: @escaping @Sendable (SwiftValue, [SwiftValue]) -> SwiftValue) -> SwiftBuiltin {
    var copy = self
    copy.result = result
    return copy
  }

  /// Whether a call's arguments fit, Swift's way (the vocabulary's matching: defaults left
  /// out, variadics, a trailing closure filling a closure parameter whatever its label).
  func accepts(_ arguments: CallLabels) -> Bool { signature.accepts(arguments) }

  /// `name(label:_:)`, as Swift names a method.
  var selector: String {
    isProperty ? name : name + "(" + parameters.map { ($0.label ?? "_") + ":" }.joined() + ")"
  }
}

/// A call's argument labels, each marked when it is a trailing closure.
typealias CallLabels = [(label: String?, isTrailingClosure: Bool)]

extension Array where Element == (label: String?, isTrailingClosure: Bool) {
  /// The labels of a call's arguments, its trailing closures included.
  init(_ call: FunctionCallExprSyntax) {
    self = call.arguments.map { (label: $0.label?.text, isTrailingClosure: false) }
    if call.trailingClosure != nil { append((label: nil, isTrailingClosure: true)) }
    for extra in call.additionalTrailingClosures.array { append((label: extra.label.text, isTrailingClosure: true)) }
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
  /// The type the call's context expects: a generic parameter `T` of the result's type takes
  /// it (`let d: Double = max(2, 3)` is 3.0).
  var expected: SwiftType?
  private var cache: [Int: SwiftValue] = [:]
  /// How many arguments were given as values (a function reference applied, `map(String.init)`).
  private var givenValues = 0

  init(
    evaluator: SwiftEvaluator, name: String, base: SwiftValue, arguments: [ExprSyntax], parameters: [SwiftBuiltin.Parameter], node: Syntax,
    expected: SwiftType? = nil
  ) {
    self.expected = expected
    self.evaluator = evaluator
    self.name = name
    self.base = base
    self.arguments = arguments
    self.parameters = parameters
    self.node = node
  }

  /// A call of an initializer named as a function (`String.init` in `map(String.init)`): its
  /// arguments are values already.
  init(evaluator: SwiftEvaluator, name: String, parameters: [SwiftBuiltin.Parameter], node: Syntax, values: [SwiftValue]) {
    self.init(evaluator: evaluator, name: name, base: .none, arguments: [], parameters: parameters, node: node)
    for (index, value) in values.enumerated() { cache[index] = value }
    givenValues = values.count
  }

  var count: Int { max(arguments.count, givenValues) }

  /// Where argument `index` is written (the call itself for a value given as a value).
  func location(_ index: Int) -> Syntax { index < arguments.count ? Syntax(arguments[index]) : node }

  /// Argument `index`'s value (literals typed by the parameter's type).
  mutating func value(_ index: Int) throws -> SwiftValue {
    if let cached = cache[index] { return cached }
    guard index < arguments.count else { throw evaluator.failure("'\(name)' is missing an argument", at: node) }
    var type = index < parameters.count ? SwiftEvaluator.parse(parameters[index].type) : nil
    if ["T", "T...", "Result"].contains(type?.name), let expected, expected.isNumeric { type = expected.wrapped }
    let known: Set<String> = ["Int", "Double", "String", "Bool", "Int?", "Double?", "String?"]
    let value = try evaluator.evaluate(arguments[index], expected: type.flatMap { known.contains($0.description) ? $0 : nil })
    cache[index] = value
    return value
  }

  mutating func int(_ index: Int) throws -> Int64 {
    let value = try value(index)
    guard case .int(let number) = value else { throw evaluator.failure("needs an Int here, not \(value.typeName)", at: location(index)) }
    return number
  }

  mutating func double(_ index: Int) throws -> Double {
    let value = try value(index)
    guard let number = value.number else { throw evaluator.failure("needs a Double here, not \(value.typeName)", at: location(index)) }
    return number
  }

  mutating func string(_ index: Int) throws -> String {
    let value = try value(index)
    guard case .string(let text) = value else {
      throw evaluator.failure("needs a String here, not \(value.typeName)", at: location(index))
    }
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

  func baseFixedWidth() throws -> (value: Int64, width: IntegerWidth) {
    guard case .fixedWidth(let number, let width) = base else {
      throw evaluator.failure("needs a fixed-width integer, not \(base.typeName)", at: node)
    }
    return (number, width)
  }

  func baseDouble() throws -> Double {
    guard let number = base.number else { throw evaluator.failure("needs a Double, not \(base.typeName)", at: node) }
    return number
  }

  /// The elements of the receiver (a collection or a range, bounded by the budget).
  func elements() throws -> [SwiftValue] { try elements(of: base) }

  /// The elements of a sequence given as an argument (`elementsEqual(1...3)`, `union([2, 3])`).
  func elements(of base: SwiftValue) throws -> [SwiftValue] {
    switch base {
    case .unordered(let values): return values
    case .dictionary(let entries): return entries.map { .tuple([$0.key, $0.value], labels: ["key", "value"]) }
    case .range(let lower, let upper, let closed):
      guard let count = SwiftValue.rangeCount(lower, upper, closed) else {
        throw evaluator.failure("'\(name)' over a range of more numbers than the evaluation budget allows", at: node)
      }
      try evaluator.budget.allocate(elements: count)
      return (0..<count).map { .int(lower + Int64($0)) }
    default:
      // `Array(s)` of a String: one element a character, charged before they are made.
      if case .string(let text) = base { try evaluator.budget.allocate(elements: text.utf8.count) }
      guard let values = base.orderedElements(limit: 0) else {
        throw evaluator.failure("'\(name)' needs a collection, not \(base.typeName)", at: node)
      }
      if case .string = base {} else { try evaluator.budget.allocate(elements: values.count) }
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
    if let (typeName, entry) = Self.initializerReference(argument) {
      // `map(String.init)`, `compactMap(Int.init)`: the initializer applied to each value.
      return { values in
        var call = BuiltinCall(evaluator: evaluator, name: typeName, parameters: entry.parameters, node: Syntax(argument), values: values)
        return try entry.handler(&call)
      }
    }
    if let op = argument.as(DeclReferenceExprSyntax.self)?.baseName.text {
      switch op {
      case "+", "-", "*", "/", "%", "<", ">", "<=", ">=", "==", "!=", "&+", "&-", "&*", "&", "|", "^":
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

  /// `String.init`, `Int.init`, `String.init(describing:)`: a standard initializer of one
  /// argument named as a function, and its entry in the table.
  static func initializerReference(_ argument: ExprSyntax) -> (String, SwiftBuiltin)? {
    guard let member = argument.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "init",
      let typeName = member.base?.as(DeclReferenceExprSyntax.self)?.baseName.text,
      ["String", "Int", "Double", "Bool"].contains(typeName)
    else { return nil }
    let labels: CallLabels =
      member.declName.argumentNames.map { names in
        names.arguments.map { (label: $0.name.text == "_" ? nil : $0.name.text, isTrailingClosure: false) }
      } ?? [(label: nil, isTrailingClosure: false)]
    guard labels.count == 1, let entry = SwiftBuiltins.global("", typeName, labels: labels), entry.parameters.count == 1 else {
      return nil
    }
    return (typeName, entry)
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
  static let all: [SwiftBuiltin] = strings + stringIndices + numbers + sequences + collections + globals + format + dates
  /// The names of the members that change their receiver (`append`, `toggle`, `removeAll`).
  static let mutatingNames: Set<String> = Set(all.filter { $0.mutation != nil }.map(\.name))

  private static let byName: [String: [SwiftBuiltin]] = Dictionary(grouping: all, by: { $0.receiver + "." + $0.name })

  /// Every name a body may call or read as a member (the check before a body runs).
  static let memberNames: Set<String> = Set(all.filter { !$0.receiver.isEmpty }.map(\.name))
  static let functionNames: Set<String> = Set(all.filter { $0.receiver.isEmpty || $0.isStatic }.map(\.name))

  /// The receiver kinds a value's members are looked up in, most specific first.
  static func receivers(of value: SwiftValue) -> [String] {
    switch value {
    case .string: return ["String", "Sequence"]
    case .int: return ["Int"]
    case .fixedWidth: return ["FixedWidthInteger"]
    case .double: return ["Double"]
    case .float: return ["Float"]
    case .bool: return ["Bool"]
    case .array: return ["Array", "Sequence"]
    case .slice, .lazySequence: return ["Sequence"]
    case .dictionary: return ["Dictionary", "Sequence"]
    case .unordered: return ["Set", "Sequence"]
    case .range: return ["Range", "Sequence"]
    case .some, .none: return ["Optional"]
    case .tuple, .structure: return []
    case .enumCase: return ["Enum"]
    case .date: return ["Date"]
    case .uuid: return ["UUID"]
    case .data: return ["Data"]
    case .url: return ["URL"]
    case .stringIndex: return ["String.Index"]
    case .stringIndexRange: return []
    }
  }

  /// The member `name` of `value` accepting `labels` (nil when none fits).
  static func member(of value: SwiftValue, name: String, labels: CallLabels?, isStatic: Bool = false) -> SwiftBuiltin? {
    for receiver in receivers(of: value) {
      for entry in byName[receiver + "." + name] ?? [] where entry.mutation == nil && entry.isStatic == isStatic {
        if let labels { if !entry.isProperty && entry.accepts(labels) { return entry } } else if entry.isProperty { return entry }
      }
    }
    return nil
  }

  /// A static member or initializer of a standard type (`Int.max`, `String(repeating:count:)`).
  static func global(_ receiver: String, _ name: String, labels: CallLabels?) -> SwiftBuiltin? {
    for entry in byName[receiver + "." + name] ?? [] where entry.mutation == nil {
      if let labels { if !entry.isProperty && entry.accepts(labels) { return entry } } else if entry.isProperty { return entry }
    }
    return nil
  }

  static func mutating(on value: SwiftValue, name: String, labels: CallLabels) -> (
    mutate: (SwiftEvaluator, SwiftValue, [SwiftValue], FunctionCallExprSyntax) throws -> SwiftValue, entry: SwiftBuiltin
  )? {
    for receiver in receivers(of: value) {
      for entry in byName[receiver + "." + name] ?? [] {
        if let mutate = entry.mutation, entry.accepts(labels) { return (mutate, entry) }
      }
    }
    return nil
  }

  /// Other spellings of the same name on the receiver, for a message.
  static func forms(of value: SwiftValue, name: String) -> [String] {
    receivers(of: value).flatMap { byName[$0 + "." + name] ?? [] }.map(\.selector)
  }
}
