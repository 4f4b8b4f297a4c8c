import SwiftSyntax

/// Why Swift could not be evaluated: a located message (the place is in the input).
struct SwiftEvaluationError: Error {
  var text: String
  var line: Int
  var column: Int
  /// The app's static stored property whose initializer runs Swift outside the subset
  /// (`static let mock1 = Self(id: ID(), …)`): in a scanned app, a value it has when it runs.
  var appStaticValue: String?
  /// Swift's type checker would refuse the code: an optional used where its value is needed
  /// (`Int(x)` for an `Int16?`, `a < b` on optionals). Where Quarry tries each overload swiftc
  /// could pick (``OpenDefault``), a pick that fails so is one swiftc never makes.
  var misusesAnOptional = false
  /// `line:column: text`, as `@DatabaseFunction` failures print it.
  var message: String { "\(line):\(column): \(text)" }
}

/// The one evaluator of Swift: a `@DatabaseFunction` body, or a Swift computation inside a
/// query. It walks the syntax tree with operators folded by `SwiftOperators`, literals decoded
/// by ``SwiftLiterals`` and members looked up in ``SwiftBuiltins`` — the same table that decides
/// what can run. Where Swift traps (overflow, a bad range, `!` on nil) it says "the app would
/// crash here" at the expression; anything outside the subset is a located error naming it.
///
/// ```swift
/// @DatabaseFunction func grade(_ score: Int?) -> String {
///   switch score ?? 0 { case 90...: "A"; case 50..<90: "B"; default: "C" }
/// }
/// // SELECT "grade"(95)  →  'A'
/// ```
final class SwiftEvaluator {
  let source: SourceUnit
  /// Enum cases the code may name (`Priority.high`, `.high` where the type is known).
  let enums: [String: EnumModel]
  let budget: EvaluationBudget

  /// A name in scope.
  struct Variable {
    var value: SwiftValue
    var mutable: Bool
    /// The declared type, when written (`var total: Double = 0`).
    var type: SwiftType?
  }

  final class Scope {
    var names: [String: Variable] = [:]
    /// Functions declared in this block (`func twice(_ x: inout Int) { … }` inside a body).
    var functions: [String: FunctionDeclSyntax] = [:]
    /// Closures this block names (`let next = { (x: Int) -> Int in x + 1 }`).
    var closures: [String: ClosureExprSyntax] = [:]
    /// `defer` bodies met in this block, run in reverse when it ends.
    var deferred: [CodeBlockSyntax] = []
    init(_ names: [String: Variable] = [:]) { self.names = names }
  }

  var scopes: [Scope] = []
  /// A function the input declares at its top level, with the input it is written in.
  struct DeclaredFunction {
    var declaration: FunctionDeclSyntax
    var source: SourceUnit
  }
  /// Functions the input (or an earlier one) declares that code may call (by name).
  var functions: [String: DeclaredFunction] = [:]
  /// Members the input declares in extensions of standard types, by name.
  var extensions: [String: [SwiftExtensionMember]] = [:]
  /// Structs the input declares that are not tables, by qualified name.
  var valueTypes: [String: ValueTypeModel] = [:]
  /// Each table's `ID` (`FontTag.ID`): the type of its key, and whether it is `Tagged` (then
  /// `.init(rawValue:)` makes one; its value is the raw value, as the library binds it).
  var identifiers: [String: (key: SwiftType, isTagged: Bool)] = [:]
  /// The type `Self` names inside the member being run (`static let mock1 = Self(…)` in
  /// `extension Mountain.PlannedClimb`).
  var selfTypeName: String?
  /// The types the code being run is written inside, innermost first (`Font` in `extension
  /// Font`): a type name is looked up in them before the input's top level, as Swift does.
  var enclosingTypeNames: [String] = []
  /// The return type of the function running (literals in `return` take it).
  var returnType: SwiftType?
  /// How deeply expressions and closures nest right now (a guard for the stack).
  var depth = 0
  /// Runs an `init`'s body, where `self`'s `let` properties are set.
  var initializing = false
  static let maximumDepth = 200
  /// The pick of each open `??` (true: the overload returning `T?`) while an outermost
  /// expression is evaluated; nil between them (see ``OpenDefault``).
  var openDefaultPicks: [SyntaxIdentifier: Bool]?

  /// Evaluating a scanned app's Swift: `UUID()` is a value the app makes when it runs (see
  /// ``SwiftEvaluationError/appStaticValue``), bound by its code, never a made-up one.
  var valuesTheAppMakesWhenItRuns = false

  init(source: SourceUnit, enums: [String: EnumModel], budget: EvaluationBudget = EvaluationBudget()) {
    self.source = source
    self.enums = enums
    self.budget = budget
  }

  /// An evaluator for Swift the input holds: the catalog's enums and the members the input
  /// declares on standard types and enums.
  convenience init(source: SourceUnit, catalog: Catalog, budget: EvaluationBudget = EvaluationBudget()) {
    self.init(source: source, declarations: SwiftDeclarations(catalog), budget: budget)
  }

  /// An evaluator for Swift with `declarations` (taken from a catalog earlier: a
  /// `@DatabaseFunction`'s body runs when SQLite calls it).
  convenience init(source: SourceUnit, declarations: SwiftDeclarations, budget: EvaluationBudget = EvaluationBudget()) {
    self.init(source: source, enums: declarations.enums, budget: budget)
    valuesTheAppMakesWhenItRuns = declarations.valuesTheAppMakesWhenItRuns
    extensions = declarations.extensions
    valueTypes = declarations.valueTypes
    identifiers = declarations.identifiers
  }

  /// A type as written inside `scope` (`ID` in a member of `FontTag.Ubiquitous`), looked up
  /// outward as Swift looks up names: `FontTag.ID`, the enclosing table's identifier.
  func resolvedType(_ type: SwiftType, inside scope: String) -> SwiftType {
    if type.name == "Self" { return type.isOptional ? SwiftType(scope).optional : SwiftType(scope) }
    guard type.name == "ID" || type.name == "Self.ID" else { return type }
    // A member of `Ubiquitous` is read in the type that nests it (`FontTag.Ubiquitous`).
    let nesting = (Array(enums.keys) + Array(valueTypes.keys)).filter { $0.hasSuffix("." + scope) }
    var parts = (nesting.count == 1 ? nesting[0] : scope).split(separator: ".").map(String.init)
    while !parts.isEmpty {
      let name = parts.joined(separator: ".") + ".ID"
      if identifiers[name] != nil { return type.isOptional ? SwiftType(name).optional : SwiftType(name) }
      parts.removeLast()
    }
    return type
  }

  /// An evaluator for code another input declared (a member, a default), one level deeper,
  /// sharing this one's types and budget.
  func nested(in source: SourceUnit, at node: some SyntaxProtocol) throws -> SwiftEvaluator {
    let inner = SwiftEvaluator(source: source, enums: enums, budget: budget)
    inner.valuesTheAppMakesWhenItRuns = valuesTheAppMakesWhenItRuns
    inner.extensions = extensions
    inner.valueTypes = valueTypes
    inner.identifiers = identifiers
    inner.functions = functions
    inner.depth = depth + 10
    guard inner.depth <= Self.maximumDepth else {
      throw failure("calls functions more than \(Self.maximumDepth / 10) deep", at: node)
    }
    return inner
  }

  // MARK: Entry points

  /// Runs a function body with its parameters bound; the value it returns (or its single
  /// expression).
  func run(
    _ body: CodeBlockItemListSyntax, arguments: [(name: String, value: SwiftValue, type: SwiftType?)],
    returnType: SwiftType?
  ) throws(SwiftEvaluationError) -> SwiftValue {
    let folded = try foldedNode(body)
    self.returnType = returnType
    let parameters = Scope()
    for argument in arguments {
      parameters.names[argument.name] = Variable(value: argument.value, mutable: false, type: argument.type)
    }
    scopes = [parameters]
    return try guarded(at: folded) {
      if folded.count == 1, let only = folded.first, let expr = Self.implicitReturn(only, returning: returnType) {
        return try coerce(evaluate(expr, expected: returnType), to: returnType, at: expr)
      }
      let flow = try execute(folded)
      try runDeferred(of: parameters)
      switch flow {
      case .returned(let value): return value
      case .next:
        guard returnType == nil || returnType?.name == "Void" else {
          throw failure("reaches the end of the function without returning a value", at: folded)
        }
        return .none
      case .broke, .continued, .fellThrough: return .none
      }
    }
  }

  /// The expression a one-item body returns without `return`: an expression, or an `if` /
  /// `switch` whose branches are each one expression (Swift 5.9's `if` and `switch`
  /// expressions).
  static func implicitReturn(_ item: CodeBlockItemSyntax, returning type: SwiftType?) -> ExprSyntax? {
    var expr: ExprSyntax
    switch item.item {
    case .expr(let value): expr = value
    case .stmt(let stmt):
      guard let expression = stmt.as(ExpressionStmtSyntax.self) else { return nil }
      expr = expression.expression
    case .decl: return nil
    }
    if expr.is(IfExprSyntax.self) || expr.is(SwitchExprSyntax.self) {
      guard type != nil, type?.name != "Void", isExpressionBranching(expr) else { return nil }
    }
    // `{ x = x * 2 + 1 }`, `{ total += $0 }`: an assignment is a statement, never a result.
    if let infix = expr.as(InfixOperatorExprSyntax.self), assignmentOperator(infix.operator) != nil {
      return nil
    }
    return expr
  }

  /// Whether every branch of an `if`/`switch` is one expression (so it is a value).
  static func isExpressionBranching(_ expr: ExprSyntax) -> Bool {
    func single(_ items: CodeBlockItemListSyntax) -> Bool {
      guard items.count == 1, let only = items.first else { return false }
      switch only.item {
      case .expr(let inner): return !(inner.is(IfExprSyntax.self) || inner.is(SwitchExprSyntax.self)) || isExpressionBranching(inner)
      case .stmt(let stmt):
        guard let inner = stmt.as(ExpressionStmtSyntax.self)?.expression else { return false }
        return !(inner.is(IfExprSyntax.self) || inner.is(SwitchExprSyntax.self)) || isExpressionBranching(inner)
      case .decl: return false
      }
    }
    if let conditional = expr.as(IfExprSyntax.self) {
      guard single(conditional.body.statements) else { return false }
      switch conditional.elseBody {
      case .ifExpr(let next)?: return isExpressionBranching(ExprSyntax(next))
      case .codeBlock(let block)?: return single(block.statements)
      case nil: return false
      }
    }
    if let switchExpr = expr.as(SwitchExprSyntax.self) {
      return switchExpr.cases.allSatisfy { element in
        guard case .switchCase(let switchCase) = element else { return false }
        return single(switchCase.statements)
      }
    }
    return false
  }

  /// Runs one statement of app code (`if`, `switch`, a loop, `f(&x)`: a statement or an
  /// expression of the input's tree) with `variables` and the
  /// app's `functions` in scope: the names' values after it, or nil when it leaves the code
  /// around it (`return`, `break`, `continue`), which the caller follows instead.
  func runCode(
    _ node: Syntax, variables: [String: Variable], functions: [String: FunctionDeclSyntax]
  ) throws(SwiftEvaluationError) -> [String: SwiftValue]? {
    let folded = try foldedNode(node)
    let scope = Scope(variables)
    scope.functions = functions
    scopes = [scope]
    var leaves = false
    _ = try guarded(at: folded) {
      let flow: Flow
      if let stmt = folded.as(StmtSyntax.self) {
        flow = try execute(stmt)
      } else if let expr = folded.as(ExprSyntax.self) {
        flow = try executeExpression(expr)
      } else {
        throw unsupported(folded, "this kind of statement")
      }
      try runDeferred(of: scope)
      if case .next = flow {} else { leaves = true }
      return .none
    }
    return leaves ? nil : scope.names.mapValues(\.value)
  }

  /// `base.name` or `base.name(…)` (`expr`) on a base whose value is already known: the member
  /// runs on `receiver`, its arguments with `names` in scope.
  func member(of expr: ExprSyntax, on receiver: SwiftValue, names: [String: SwiftValue]) throws(SwiftEvaluationError) -> SwiftValue {
    let folded = try foldedNode(expr)
    scopes = [Scope(names.mapValues { Variable(value: $0, mutable: false, type: nil) })]
    return try guarded(at: folded) {
      if let call = folded.as(FunctionCallExprSyntax.self), let member = call.calledExpression.as(MemberAccessExprSyntax.self) {
        var arguments = call.arguments.map(\.expression)
        if let trailing = call.trailingClosure { arguments.append(ExprSyntax(trailing)) }
        arguments += call.additionalTrailingClosures.map { ExprSyntax($0.closure) }
        return try memberCall(
          member.declName.baseName.text, on: receiver, arguments: arguments, labels: CallLabels(call), call: call,
          nameNode: Syntax(member.declName))
      }
      if let member = folded.as(MemberAccessExprSyntax.self) {
        return try property(member.declName.baseName.text, of: receiver, at: member.declName)
      }
      return try evaluate(folded)
    }
  }

  /// The value of one expression with `names` in scope (a Swift computation in a query).
  func value(
    of expr: ExprSyntax, names: [String: SwiftValue], expected: SwiftType? = nil, types: [String: SwiftType] = [:]
  ) throws(SwiftEvaluationError) -> SwiftValue {
    let folded = try foldedNode(expr)
    scopes = [
      Scope(Dictionary(uniqueKeysWithValues: names.map { ($0.key, Variable(value: $0.value, mutable: false, type: types[$0.key])) }))
    ]
    return try guarded(at: folded) { try evaluate(folded, expected: expected) }
  }

  /// The node's counterpart with operators folded, after checking they fold.
  private func foldedNode<Node: SyntaxProtocol>(_ node: Node) throws(SwiftEvaluationError) -> Node {
    if let problem = source.foldingProblem(in: node) {
      let location = source.lineAndColumn(of: problem.position)
      throw SwiftEvaluationError(text: problem.message, line: location.line, column: location.column)
    }
    guard let folded = source.folded(node) else { throw failure("cannot be read here", at: node) }
    return folded
  }

  /// Runs `work`, turning every failure into a located error.
  func guarded(at node: some SyntaxProtocol, _ work: () throws -> SwiftValue) throws(SwiftEvaluationError) -> SwiftValue {
    do {
      return try work()
    } catch let error as SwiftEvaluationError {
      throw error
    } catch let exhausted as EvaluationBudget.Exhausted {
      throw failure(exhausted.message, at: node)
    } catch is OptionalChainEnded {
      return .none
    } catch {
      throw failure("cannot be evaluated (\(error))", at: node)
    }
  }

  // MARK: Names

  /// A closure an enclosing block names, and how many scopes deep: called, it sees those scopes.
  /// (`appClosures`: those the app code around names, seen from the outermost scope.)
  func localClosure(_ name: String) -> (ClosureExprSyntax, depth: Int)? {
    for index in scopes.indices.reversed() {
      if scopes[index].names[name] != nil { return nil }
      if let closure = scopes[index].closures[name] { return (closure, index + 1) }
    }
    // (Read from the input as written: its operators are folded here.)
    return appClosures[name].flatMap { source.folded($0) }.map { ($0, min(1, scopes.count)) }
  }

  /// Closures app code around the code being run names with a `let`, written in this input.
  var appClosures: [String: ClosureExprSyntax] = [:]

  /// A function declared in an enclosing block, and how many scopes deep it was declared:
  /// called, it sees those scopes (the names it captures), not the caller's inner ones.
  func localFunction(_ name: String) -> (FunctionDeclSyntax, depth: Int)? {
    for index in scopes.indices.reversed() {
      if let function = scopes[index].functions[name] { return (function, index + 1) }
    }
    return nil
  }

  func lookup(_ name: String) -> Variable? {
    for scope in scopes.reversed() {
      if let variable = scope.names[name] { return variable }
    }
    return nil
  }

  /// Sets an existing variable (`x = 1`, `x += 1`).
  func assign(_ name: String, _ value: SwiftValue, at node: some SyntaxProtocol) throws {
    for scope in scopes.reversed() {
      guard let variable = scope.names[name] else { continue }
      guard variable.mutable else { throw failure("cannot assign to '\(name)': it is a 'let' constant", at: node) }
      scope.names[name]?.value = try coerce(value, to: variable.type ?? Self.type(of: variable.value), at: node)
      return
    }
    throw failure("assigns to '\(name)', which is not a variable here", at: node)
  }

  func declare(_ name: String, _ value: SwiftValue, mutable: Bool, type: SwiftType?) {
    scopes.last?.names[name] = Variable(value: value, mutable: mutable, type: type)
  }

  /// Runs `work` in a new scope.
  func scoped<T>(_ names: [String: Variable] = [:], _ work: () throws -> T) throws -> T {
    let scope = Scope(names)
    scopes.append(scope)
    defer { scopes.removeLast() }
    let result = try work()
    try runDeferred(of: scope)
    return result
  }

  /// The `defer` bodies of a block that ends, last first (the block's names still in scope).
  func runDeferred(of scope: Scope) throws {
    while let body = scope.deferred.popLast() {
      _ = try execute(body.statements)
    }
  }

  // MARK: Types

  /// The static type a value of this kind has (for literals that take their type from a
  /// variable, `total += 1` on a Double).
  static func type(of value: SwiftValue) -> SwiftType? {
    switch value {
    case .int: return .int
    case .fixedWidth(_, let width): return SwiftType(width.name)
    case .double: return .double
    case .float: return SwiftType("Float")
    case .string: return .string
    case .bool: return .bool
    case .some(let inner): return type(of: inner)?.optional
    case .enumCase(let name, _, _): return SwiftType(name)
    case .date: return .date
    case .uuid: return SwiftType("UUID")
    case .data: return SwiftType("Data")
    case .url: return SwiftType("URL")
    case .structure(let name, _, _, _): return SwiftType(name)
    default: return nil
    }
  }

  /// A value as a variable or result of `type` holds it: `5` as a `Double` is `5.0`, a value
  /// as an optional is wrapped (`"\(x)"` then prints `Optional(5)`).
  func coerce(_ value: SwiftValue, to type: SwiftType?, at node: some SyntaxProtocol) throws -> SwiftValue {
    guard let type else { return value }
    if type.isOptional {
      switch value {
      case .none, .some: return value
      default: return .some(try coerce(value, to: type.wrapped, at: node))
      }
    }
    if type.name.hasPrefix("Set<"), case .array(let elements) = value {
      var seen: Set<SwiftValue> = []
      return .unordered(elements.filter { seen.insert($0).inserted })
    }
    if type.name == "Float" {
      switch value {
      case .float: return value
      case .int(let number): return .float(Float(number))
      // A Double here is a literal Quarry read before it knew the type (`[0.1, x]`): Swift
      // makes the literal a Float.
      case .double(let number): return .float(Float(number))
      case .fixedWidth(_, let width):
        throw failure("uses a \(width.name) where Float is needed (swiftc refuses it); convert it with Float(…)", at: node)
      default: break
      }
    }
    if type.name.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).contains("Float"), type.arrayElement?.wrapped.name != "Float" {
      throw floatRefusal(at: node)
    }
    if let element = type.arrayElement, IntegerWidth(named: element.wrapped.name) != nil || element.wrapped.name == "Float",
      case .array(let elements) = value
    {
      return .array(try elements.map { try coerce($0, to: element, at: node) })
    }
    if let width = IntegerWidth(named: type.name) { return try width.holding(value, evaluator: self, at: node) }
    if case .float = value, ["Int", "Int64", "Double", "CGFloat", "String", "Bool"].contains(type.name) {
      throw failure("uses a Float where \(type.name) is needed (swiftc refuses it); convert it with \(type.name)(…)", at: node)
    }
    if case .fixedWidth(_, let width) = value, ["Int", "Int64", "Double", "CGFloat", "String", "Bool"].contains(type.name) {
      throw failure("uses a \(width.name) where \(type.name) is needed (swiftc refuses it); convert it with \(type.name)(…)", at: node)
    }
    switch (type.name, value) {
    case ("Double", .int(let number)), ("CGFloat", .int(let number)):
      return .double(Double(number))
    case (_, .some) where !["Any", "Optional"].contains(type.name):
      // A non-optional result from an optional: only `!` or `??` do that in Swift.
      throw failure("uses an optional \(value.typeName) where \(type.name) is needed; unwrap it with 'if let', '??' or '!'", at: node)
        .misusing(optional: true)
    default:
      return value
    }
  }

  // MARK: Errors

  func failure(_ message: String, at node: some SyntaxProtocol) -> SwiftEvaluationError {
    let location = source.lineAndColumn(of: node.positionAfterSkippingLeadingTrivia)
    return SwiftEvaluationError(text: message, line: location.line, column: location.column)
  }

  /// Swift would trap here: the message says so.
  func crash(_ reason: String, at node: some SyntaxProtocol) -> SwiftEvaluationError {
    failure("\(reason) (the app would crash here)", at: node)
  }

  /// How every message about Swift the evaluator does not run ends (the query compiler may still
  /// read such an expression as the query's).
  static let outsideSubset = "which is outside the Swift Quarry runs"

  func unsupported(_ node: some SyntaxProtocol, _ what: String? = nil) -> SwiftEvaluationError {
    let text = messageExcerpt(node.trimmedDescription)
    return failure("uses '\(text)'\(what.map { " (\($0))" } ?? ""), \(Self.outsideSubset)", at: node)
  }
}

extension SwiftEvaluationError {
  /// The error, marked as an optional misused where `optional` (see ``misusesAnOptional``).
  func misusing(optional: Bool) -> SwiftEvaluationError {
    var marked = self
    marked.misusesAnOptional = optional
    return marked
  }

  /// Whether the error is Swift's own verdict on the code (it traps there, or the work is over
  /// the budget) rather than a limit of what the evaluator reads.
  var isSwiftsVerdict: Bool {
    text.contains("the app would crash here") || text.contains("the evaluation budget") || text.contains("(Ctrl-C)")
      || text.contains("is a 'let' constant") || text.contains("swiftc ")
  }
}

/// `a?.b` met nil: the whole optional chain is nil.
struct OptionalChainEnded: Error {}

extension EvaluationBudget.Exhausted {
  var message: String {
    switch self {
    case .steps(let count): "runs too long (over \(count) steps of work; the evaluation budget)"
    case .size(let bytes): "builds a value of over \(bytes >> 20) MB (the evaluation budget); the app would use that much memory here"
    case .stopped: "was stopped (Ctrl-C)"
    }
  }
}
