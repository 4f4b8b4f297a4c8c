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
extension Diagnostic {
  /// Swift computed before the query exists failed (it traps, or uses what Quarry does not run).
  init(computedBeforeTheQuery error: SwiftEvaluationError) {
    self.init("this Swift is computed before the query runs, but it " + error.text, line: error.line, column: error.column)
  }
}

extension Compiler {
  /// The value of `expr`, computed in Swift, when it uses only values known now.
  func swiftValue(of expr: ExprSyntax, expected: SwiftType? = nil) throws -> Value {
    if let runTime = runTimeComputation(expr) { return runTime }
    switch try computeSwift(expr, expected: expected.flatMap(evaluatorType)) {
    case .success(let computed):
      // A dictionary or a set: held as Swift's value (its `count` is the dictionary's, not its
      // JSON text's), made a query value only where a query uses it.
      let result: Value
      switch computed {
      case .dictionary, .unordered: result = .swiftValue(computed)
      default: result = try value(of: computed, at: expr)
      }
      return declaredIntegerType(of: expr).map { Self.retyped(result, as: SwiftType($0)) } ?? result
    case .failure(let error):
      if let runTime = appRunTimeValue(error, of: expr, type: nil) { return runTime }
      throw Diagnostic(computedBeforeTheQuery: error)
    }
  }

  /// In a scanned app, a static value of the app's own that Swift Quarry does not run makes
  /// (`static let mock1 = Self(id: ID(), …)`): a value it has when it runs, bound, named by its
  /// source. Nil where Swift itself refuses or traps (that is the answer), or outside a scan.
  private func appRunTimeValue(_ error: SwiftEvaluationError, of expr: ExprSyntax, type: SwiftType?) -> Value? {
    guard scanning, error.appStaticValue != nil, !error.isSwiftsVerdict else { return nil }
    return .runTime(text(of: expr), type: type)
  }

  /// What Swift computes on its own in this compiler's scope, and how it resolves operators.
  var swiftComputationRules: SwiftComputation {
    SwiftComputation(
      classify: swiftName, fold: { [source] in source.folded($0) },
      prefixIsTheQuerys: { [unowned self] in self.prefixIsTheQuerys($0, inOperation: $1) },
      operationIsSwifts: { [unowned self] in self.operationIsSwifts($0) })
  }

  /// Whether the compiler resolves a prefix operator of the input to StructuredQueries' (as
  /// the library's `prefix func -(any QueryExpression)` wins overload resolution) rather than
  /// to the standard library's. Observed with StructuredQueries 7cdc5c4 (the cases in
  /// `Tests/RealCode/swift-values.jsonl`): `-x` of an `Int` is the query's, alone (`-(5)`) and as
  /// an operand (`(-(5)) + (1)`); of a `Double` it is Swift's (`-d` is -2.5) unless its operand is
  /// a query expression, but `+d` is the query's (`+(2.5)`); `~x` is the query's; of a literal,
  /// or of literals and operators inside an operation, none is (`-(2 * 3)` alone is `-(6)`).
  func prefixIsTheQuerys(_ prefix: PrefixOperatorExprSyntax, inOperation: Bool) -> Bool {
    let op = prefix.operator.text
    guard ["-", "+", "~"].contains(op), !SwiftComputation.isLiteral(prefix.expression) else { return false }
    if inOperation, SwiftComputation.isLiteralOnly(prefix.expression) { return false }
    // Only the query's operator takes a query expression.
    if swiftComputationRules.isQueryOperand(prefix.expression) { return true }
    guard op == "-" else { return true }
    var typeName: String?
    if case .expression(let typed)? = try? evaluate(prefix.expression) { typeName = typed.type?.wrapped.name }
    switch typeName {
    case "Double", "Float", "CGFloat": return false
    default: return true
    }
  }

  /// Whether an operation over a prefixed value is Swift's all the same: one on values of a
  /// fixed-width integer type with a literal for an operand (`-n + 1` of an `Int64` is Swift's
  /// -6; `-(-n + n) & n` and `(2 - n) - +n` are the query's), as StructuredQueries 7cdc5c4
  /// showed.
  func operationIsSwifts(_ infix: InfixOperatorExprSyntax) -> Bool {
    guard heldIntegerType(of: ExprSyntax(infix)) != nil else { return false }
    return SwiftComputation.isLiteral(infix.leftOperand) || SwiftComputation.isLiteral(infix.rightOperand)
  }

  /// An expression Swift computes on its own (``SwiftComputation``), computed by the evaluator
  /// with the type the context expects; nil when the expression is the query's, or uses Swift
  /// the evaluator does not run (the query compiler reads it then). Where Swift traps, an error.
  func swiftComputation(_ expr: ExprSyntax, expected: SwiftType?) throws -> Value? {
    let computation = swiftComputationRules
    let typedMember = isStandardImplicitMember(expr, of: expected)
    guard typedMember || computation.isComputation(expr) else { return nil }
    switch try computeSwift(expr, expected: evaluatorType(expected)) {
    case .success(let computed):
      // A tuple, a Set, a Dictionary, a slice: the query's own reading of them stands (a
      // tuple's parts, a JSON object, a list to bind).
      // A struct of the input: the JSON its `JSONRepresentation` binds.
      if case .structure = computed { return try value(of: computed, at: expr) }
      guard computed.isPlain else { return nil }
      // `Int64(3)`, `Int64(n) + 1`: Quarry holds every integer as one 64-bit kind; the type the
      // code names is the one the library's generic parameters see.
      // Literals alone take the type the context asks for (`eq(2 / 2)` of an `Int64` column).
      let contextWidth = expected.flatMap { $0.wrapped.isFixedWidthInteger && SwiftComputation.isLiteralOnly(expr) ? $0.wrapped.name : nil }
      if let width = Self.fixedWidthType(of: expr) ?? declaredIntegerType(of: expr) ?? heldIntegerType(of: expr) ?? contextWidth {
        return Self.retyped(try value(of: computed, at: expr), as: SwiftType(width))
      }
      return try value(of: computed, at: expr)
    case .failure(let error) where error.isSwiftsVerdict || startsWithValueType(expr):
      // A struct of the input is the evaluator's alone: its message is the one to give.
      if let runTime = appRunTimeValue(error, of: expr, type: expected) { return runTime }
      throw Diagnostic(computedBeforeTheQuery: error)
    case .failure:
      return nil
    }
  }

  /// The fixed-width integer type (`Int64`, `Int32`…) an expression converts to, directly or as
  /// an operand of its arithmetic (`Int64(n) + 1`); nil for any other.
  static func fixedWidthType(of expr: ExprSyntax) -> String? {
    if let call = expr.as(FunctionCallExprSyntax.self), let name = call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text,
      SwiftType(name).isFixedWidthInteger
    {
      return name
    }
    if let tuple = expr.as(TupleExprSyntax.self), tuple.elements.count == 1, let only = tuple.elements.first {
      return fixedWidthType(of: only.expression)
    }
    if let sequence = expr.as(SequenceExprSyntax.self) {
      return sequence.elements.lazy.compactMap { fixedWidthType(of: $0) }.first
    }
    if let infix = expr.as(InfixOperatorExprSyntax.self) {
      return fixedWidthType(of: infix.leftOperand) ?? fixedWidthType(of: infix.rightOperand)
    }
    // `[Int64(1), 2]`: an array literal's elements share one type.
    if let array = expr.as(ArrayExprSyntax.self) { return array.elements.lazy.compactMap { fixedWidthType(of: $0.expression) }.first }
    return nil
  }

  /// The fixed-width integer type of a property the input declares, read at the end of `expr`
  /// (`FontTag.Ubiquitous.all.id`, where `var id: ID` and `FontTag.ID` is `Tagged<Self, Int64>`):
  /// `Int64`. Nil unless every declared property of that name agrees on one such type.
  func declaredIntegerType(of expr: ExprSyntax) -> String? {
    guard let access = expr.as(MemberAccessExprSyntax.self), access.base != nil,
      let members = catalog.swiftExtensions[access.declName.baseName.text], !members.isEmpty
    else { return nil }
    let evaluator = SwiftEvaluator(source: source, catalog: catalog)
    // The property of the base's own type (`FontTag.Ubiquitous.all` is a `Ubiquitous`), when
    // the base is a value of a type the input declares.
    var candidates = members
    if let base = access.base, case .success(let value)? = try? computeSwift(base, expected: nil) {
      var owner: String?
      switch value {
      case .enumCase(let type, _, _), .structure(let type, _, _, _): owner = type
      default: break
      }
      if let owner {
        candidates = members.filter { $0.typeName == owner || owner.hasSuffix("." + $0.typeName) || $0.typeName.hasSuffix("." + owner) }
      }
    }
    guard !candidates.isEmpty else { return nil }
    var found: Set<String> = []
    for member in candidates {
      guard let annotation = member.declaration.syntax.as(PatternBindingSyntax.self)?.typeAnnotation?.type else { return nil }
      let type = evaluator.resolvedType(SwiftEvaluator.swiftType(annotation), inside: member.typeName)
      let key = evaluator.identifiers[type.name]?.key ?? type
      guard key.isFixedWidthInteger, !type.isOptional else { return nil }
      found.insert(key.name)
    }
    return found.count == 1 ? found.first : nil
  }

  /// The fixed-width integer type of the values an arithmetic expression computes with (`n + 1`
  /// where `let n: Int64 = 7`): Swift's result has that type. Nil for `Int` and anything else.
  func heldIntegerType(of expr: ExprSyntax) -> String? {
    var inner = expr.withoutParentheses
    if let sequence = inner.as(SequenceExprSyntax.self), let folded = source.folded(ExprSyntax(sequence)),
      !folded.is(SequenceExprSyntax.self)
    {
      inner = folded
    }
    if let reference = inner.as(DeclReferenceExprSyntax.self) {
      let name = reference.baseName.text
      guard case .expression(let typed)? = lookupLocal(name) ?? catalog.bindings[name], let type = typed.type, !type.isOptional,
        type.isFixedWidthInteger
      else { return nil }
      return type.name
    }
    if let prefix = inner.as(PrefixOperatorExprSyntax.self) { return heldIntegerType(of: prefix.expression) }
    if let infix = inner.as(InfixOperatorExprSyntax.self), let op = infix.operator.as(BinaryOperatorExprSyntax.self)?.operator.text,
      ["+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>", "&+", "&-", "&*"].contains(op)
    {
      return heldIntegerType(of: infix.leftOperand) ?? heldIntegerType(of: infix.rightOperand)
    }
    return nil
  }

  /// `value` with its integers (or an array's) given the type `width`.
  static func retyped(_ value: Value, as width: SwiftType) -> Value {
    switch value {
    case .expression(var typed) where typed.type == .int && width.isFixedWidthInteger:
      typed.type = width
      return .expression(typed)
    case .array(let elements): return .array(elements.map { retyped($0, as: width) })
    default: return value
    }
  }

  /// Whether `expr` starts with a struct of the input (`Criteria(…)`, `Criteria.defaults`).
  func startsWithValueType(_ expr: ExprSyntax) -> Bool {
    guard !catalog.valueTypes.isEmpty, case .name(let first) = SwiftComputation.leadingName(of: expr) else { return false }
    guard catalog.valueTypes[first] != nil, lookupLocal(first) == nil else { return false }
    // `Seeds.tags`, a static array of drafts: the query compiler reads it (records are its).
    let links = QuerySiteFinder.links(of: expr)
    if links.count > 1, let member = links[1].as(MemberAccessExprSyntax.self),
      catalog.staticProperties[first + "." + member.declName.baseName.text] != nil
    {
      return false
    }
    return true
  }

  /// The value a `let`/`var` holds when its initializer is Swift's alone: exactly as Swift holds
  /// it (``Value/swiftValue(_:)`` where the query's values would lose something), with its
  /// written type. Nil when the initializer is the query's.
  func swiftBinding(_ expr: ExprSyntax, type: SwiftType?, written: TypeSyntax? = nil) throws -> Value? {
    var refusal: SwiftEvaluationError?
    return try swiftBinding(expr, type: type, written: written, refusal: &refusal)
  }

  /// `refusal`: why the evaluator did not run an expression that is Swift's alone.
  func swiftBinding(_ expr: ExprSyntax, type: SwiftType?, written: TypeSyntax?, refusal: inout SwiftEvaluationError?) throws -> Value? {
    let computation = swiftComputationRules
    let typedMember = isStandardImplicitMember(expr, of: type)
    // `let s: Int = -x`: the written type makes the prefix and the operators over it Swift's
    // own (without it, `-x` is the query's negation, as the compiler types it).
    let concrete = evaluatorType(type) != nil
    guard typedMember || computation.isSwift(expr, bound: []),
      typedMember || concrete || computation.isComputation(expr) || expr.is(DeclReferenceExprSyntax.self)
        || expr.is(DictionaryExprSyntax.self)
    else { return nil }
    switch try computeSwift(expr, expected: evaluatorType(type)) {
    case .success(let computed):
      // `let m = n + 2` of an `Int64` is an `Int64`.
      let held = type ?? heldIntegerType(of: expr).map { SwiftType($0) }
      return try heldValue(written.map { Self.labelled(computed, as: $0) } ?? computed, type: held, at: expr)
    case .failure(let error) where error.isSwiftsVerdict:
      throw Diagnostic(computedBeforeTheQuery: error)
    case .failure(let error):
      if computation.isSwift(expr, bound: []) { refusal = error }
      return nil
    }
  }

  /// `value` with the tuple labels its declared type gives (`let d: [(name: String, order: Int)]
  /// = [("Work", 1)]` holds `(name: "Work", order: 1)`), as Swift converts it.
  static func labelled(_ value: SwiftValue, as type: TypeSyntax) -> SwiftValue {
    switch value {
    case .array(let elements):
      guard let element = type.as(ArrayTypeSyntax.self)?.element else { return value }
      return .array(elements.map { labelled($0, as: element) })
    case .tuple(let parts, _):
      guard let tuple = type.as(TupleTypeSyntax.self), tuple.elements.count == parts.count else { return value }
      let types = Array(tuple.elements)
      return .tuple(
        parts.indices.map { labelled(parts[$0], as: types[$0].type) }, labels: types.map { $0.firstName?.declaredName })
    default:
      return value
    }
  }

  /// A row would take a property's default that Quarry cannot compute: refused, with the way
  /// out; in a scanned app, the value the app computes when it runs (bound, named by its code).
  func defaultValue(of column: ColumnModel, at node: some SyntaxProtocol) throws -> Expression? {
    if let volatile = column.volatileDefault,
      let fresh = freshValue(volatile, written: column.unknownDefault ?? "", type: column.type)
    {
      return fresh
    }
    if let value = column.defaultValue { return value }
    guard let written = column.unknownDefault else { return nil }
    if scanning { return .value(.parameter(written)) }
    throw source.diagnostic(
      "the default of '\(column.path.first ?? column.name)' (\(written)) uses Swift Quarry does not run, so its value is unknown here; pass '\(column.path.first ?? column.name):' explicitly",
      at: node)
  }

  /// A default Swift computes at each use (`UUID()`, `Date()`): in a scan, the value the app makes
  /// when it runs (bound, named by its code); at the prompt, a new one now — two rows never share it.
  func freshValue(_ volatile: VolatileDefault, written: String, type: SwiftType) -> Expression? {
    if scanning { return .value(.parameter(written)) }
    switch volatile {
    case .computed:
      return nil
    case .uuid:
      return .value(.text(FunctionMethods.randomUUIDText()))
    case .date:
      return DateFormatting.stored(secondsSince1970: DateFormatting.now(), representation: type.wrapped.representation).map {
        .value($0)
      } ?? .function("datetime", [.literal("now")])
    }
  }

  /// A Swift value as a name holds it: exactly (``Value/swiftValue(_:)``) where the query's
  /// values would lose something, else as the query binds it, with its declared type.
  func heldValue(_ computed: SwiftValue, type: SwiftType?, at node: some SyntaxProtocol) throws -> Value {
    switch computed {
    case .structure where recordValues.isRecord(computed): return try value(of: computed, at: node)
    case .slice, .dictionary, .unordered, .range, .lazySequence, .structure: return .swiftValue(computed)
    case .tuple(_, let labels) where labels.contains(where: { $0 != nil }): return .swiftValue(computed)
    case .some(.none), .some(.some): return .swiftValue(computed)
    // `[(name: "Work", order: 1)]`: its elements keep their labels (`for d in defaults { d.name }`).
    case .array(let elements) where elements.contains(where: Self.hasLabels): return .swiftValue(computed)
    // `[P(t: "x")]` of structs: Swift's array (bound as JSON, or refused, only where a query uses it).
    case .array(let elements) where elements.contains(where: \.holdsStructure) && !elements.allSatisfy(recordValues.isRecord):
      return .swiftValue(computed)
    default:
      let value = try value(of: computed, at: node)
      guard case .expression(var typed) = value, let type else { return value }
      typed.type = type
      return .expression(typed)
    }
  }

  /// Whether a value is, or holds, a tuple with labels, which only the Swift value keeps.
  static func hasLabels(_ value: SwiftValue) -> Bool {
    switch value {
    case .tuple(let parts, let labels): labels.contains { $0 != nil } || parts.contains(where: hasLabels)
    case .array(let elements): elements.contains(where: hasLabels)
    default: false
    }
  }

  /// A statement of app code that changes Swift values the input holds (`s += "x"`,
  /// `ids.append(4)`, `flag.toggle()`, `counts[0] = 2`): run by the evaluator, and the names
  /// it changed hold their new values for the statements after it. False when the statement
  /// is not Swift's alone (a query, a record, a value Quarry does not hold).
  func runSwiftStatement(_ expr: ExprSyntax, constants: Set<String>) throws -> Bool {
    guard swiftComputationRules.isSwiftStatement(expr) else { return false }
    // Swift's verdict here (a trap, the budget, a `let` assigned) is the answer, whatever it is.
    return try runSwiftCode(Syntax(expr), constants: constants, functions: [:], stopsAt: \.isSwiftsVerdict)
  }

  /// The names `nodes` use that hold Swift values, as the evaluator's variables (`let` ones
  /// constant), each with its declared type where one was written.
  func heldSwiftVariables(namedIn nodes: [Syntax], constants: Set<String>) -> [String: SwiftEvaluator.Variable] {
    var variables: [String: SwiftEvaluator.Variable] = [:]
    for node in nodes {
      for token in node.tokens(viewMode: .sourceAccurate) {
        guard case .identifier(let name) = token.tokenKind, variables[name] == nil,
          let held = lookupLocal(name) ?? catalog.bindings[name], let swift = swiftValue(held)
        else { continue }
        var type = SwiftEvaluator.type(of: swift)
        if case .expression(let typed) = held, let declared = typed.type, evaluatorType(declared) != nil { type = declared }
        if case .array = swift, let declared = declaredArrayTypes[name] { type = declared }
        variables[name] = SwiftEvaluator.Variable(value: swift, mutable: !constants.contains(name), type: type)
      }
    }
    return variables
  }

  /// A statement of app code that is Swift's alone — an `if`, a `switch`, a loop, a call of a
  /// function the app declares (`twice(&count)`) — over values the input holds: run whole by
  /// the evaluator, as Swift runs it (`break`, `continue`, `inout`, local functions), and the
  /// names it changed hold their new values after it. False when it is not Swift's alone (it
  /// reaches a query, the database or a value Quarry does not hold: nothing it did is kept),
  /// or when it leaves the code around it; a trap on the way is the app's.
  /// `stopsAt`: the failures that are the app's (thrown); any other leaves the code to the runner.
  func runSwiftCode(
    _ code: Syntax, constants: Set<String>, functions: [String: SwiftEvaluator.DeclaredFunction],
    stopsAt isTheApps: (SwiftEvaluationError) -> Bool = { $0.text.contains("the app would crash here") }
  ) throws -> Bool {
    // A function declared inside app code's own block sees the names around it; one declared at
    // the top level of an input sees only its parameters and the input's globals. `Self(…)` in
    // a static property of an app struct is that struct.
    let nested = functions.filter { $0.value.source === source && !Self.isTopLevel($0.value.declaration) }.mapValues(\.declaration)
    let closures = appClosuresOfThisInput
    let bodies = nested.values.compactMap { $0.body.map(Syntax.init) } + closures.values.map { Syntax($0) }
    let variables = heldSwiftVariables(namedIn: [code] + bodies, constants: constants)
    let evaluator = SwiftEvaluator(source: source, catalog: catalog, budget: budget)
    evaluator.appClosures = closures
    evaluator.selfTypeName = enclosingType
    evaluator.functions = functions.filter { Self.isTopLevel($0.value.declaration) }
    let after: [String: SwiftValue]
    do {
      guard let values = try evaluator.runCode(code, variables: variables, functions: nested) else { return false }
      after = values
    } catch  where isTheApps(error) {
      throw Diagnostic(error.text, line: error.line, column: error.column)
    } catch {
      return false
    }
    for (name, value) in after where variables[name]?.value != value {
      rebind(name, to: try heldValue(value, type: variables[name]?.type, at: code))
    }
    return true
  }

  /// The closures app code of this input names with a `let` (one of an earlier input is not
  /// followed: its text is another input's).
  var appClosuresOfThisInput: [String: ClosureExprSyntax] {
    appCode.declaredClosures.filter { $0.value.source === source }.mapValues(\.closure)
  }

  /// Whether a function is declared at the top level of its input (not inside a block).
  static func isTopLevel(_ function: FunctionDeclSyntax) -> Bool {
    function.parent?.parent?.parent?.is(SourceFileSyntax.self) == true
  }

  /// Gives `name` a new value where it is held (the innermost scope that has it, else the
  /// input's top level); nil forgets it.
  func rebind(_ name: String, to value: Value?) {
    if let scope = locals.lastIndex(where: { $0[name] != nil }) {
      locals[scope][name] = value
    } else {
      catalog.bindings[name] = value
    }
  }

  /// An integer the code fixes before the query runs (`3`, `-1`, `60 * 5`, a constant), as
  /// Swift computes it; nil for anything else (a column, a string, code Quarry cannot read).
  func knownInteger(_ expr: ExprSyntax) -> Int64? {
    guard case .expression(let typed)? = try? evaluate(expr, expected: .int), typed.type?.isBool != true,
      case .value(.integer(let number)) = typed.expression.node
    else { return nil }
    return number
  }

  /// A number the code fixes before the query runs (`2.5`, `86_400 * 7`), as Swift computes it.
  func knownNumber(_ expr: ExprSyntax) -> Double? {
    guard case .expression(let typed)? = try? evaluate(expr, expected: .double), typed.type?.isBool != true else { return nil }
    switch typed.expression.node {
    case .value(.integer(let number)): return Double(number)
    case .value(.double(let number)): return number
    default: return nil
    }
  }

  /// The elements of a Swift sequence a `for` loops over (`1...3`, `ids.enumerated()`,
  /// `zip(a, b)`), each as a name holds it; nil when the sequence is not Swift's alone. A range
  /// of more than `limit` rounds, or a Set or Dictionary (whose order Swift does not fix), is
  /// refused with the reason.
  func swiftLoopElements(_ sequence: ExprSyntax, limit: Int) throws -> [Value]? {
    // A loop's `Set(…)` is Swift's Set (its order unknown), not a list the query binds.
    guard SwiftComputation(classify: swiftName).isSwift(sequence, bound: []) else { return nil }
    let computed: SwiftValue
    switch try computeSwift(sequence, expected: nil) {
    case .success(let value): computed = value
    case .failure(let error) where error.isSwiftsVerdict:
      throw Diagnostic(error.text, line: error.line, column: error.column)
    case .failure:
      return nil
    }
    switch computed {
    case .dictionary, .unordered:
      throw source.diagnostic(
        "this loop goes over a \(computed.typeName), whose order Swift does not fix, so the order of the statements it runs is unknown; loop over a sorted array",
        at: sequence)
    case .range(let lower, let upper, let closed):
      guard let count = SwiftValue.rangeCount(lower, upper, closed), count <= limit else {
        throw source.diagnostic(
          "this loop runs more than \(limit) rounds, more than Quarry runs (the app would run them all)", at: sequence)
      }
    default:
      break
    }
    guard let elements = computed.orderedElements(limit: limit) else { return nil }
    guard elements.count <= limit else {
      throw source.diagnostic(
        "this loop runs \(elements.count) rounds, more than the \(limit) Quarry runs (the app would run them all)", at: sequence)
    }
    return try elements.map { try heldValue($0, type: nil, at: sequence) }
  }

  /// A name's value as the query reads it: an exact Swift value becomes what the query binds.
  func sqlForm(_ value: Value, at node: some SyntaxProtocol) throws -> Value {
    guard case .swiftValue(let swift) = value else { return value }
    return try self.value(of: swift, at: node)
  }

  func evaluatorType(_ type: SwiftType?) -> SwiftType? { catalog.evaluatorType(type) }

  /// `.pi` where a Double is expected: a member of a standard type, Swift's (an enum's `.high`
  /// stays the compiler's, which reads it against its column).
  func isStandardImplicitMember(_ expr: ExprSyntax, of type: SwiftType?) -> Bool {
    // `.init(…)`, `.standard` where a struct of the input is expected: that struct's.
    if let known = evaluatorType(type), catalog.valueTypes[known.name] != nil {
      let callee = expr.as(FunctionCallExprSyntax.self)?.calledExpression ?? expr
      if let member = callee.as(MemberAccessExprSyntax.self), member.base == nil { return true }
    }
    guard let member = expr.as(MemberAccessExprSyntax.self), member.base == nil, member.declName.argumentNames == nil,
      let known = evaluatorType(type)
    else { return false }
    return catalog.enums[known.name] == nil
  }

  /// What a name means to ``SwiftComputation``, looked up as ``resolve(_:)`` looks it up.
  func swiftName(_ name: String) -> SwiftComputation.Name {
    if let local = lookupLocal(name) { return swiftValue(local) != nil ? .value : .other }
    if name == "self" || name == "Self" || name.hasPrefix("$") { return .other }
    if let bare = bareColumnsTable, bare.model.column(named: name) != nil || bare.model.computedColumns[name] != nil { return .other }
    if let selfTable, name == "unscoped" || selfTable.model.scopes[name] != nil { return .other }
    if runTimeValues[name] != nil || appCode.skippedValues[name] != nil { return .other }
    if let binding = catalog.bindings[name] { return swiftValue(binding) != nil ? .value : .other }
    if globalVariable(name) != nil { return heldGlobal(name).flatMap(swiftValue) != nil ? .value : .other }
    if catalog.table(forType: name) != nil || catalog.aliases[name] != nil || catalog.functions[name] != nil { return .other }
    // A closure app code names (`let next = { … }`): Swift's own function.
    if appClosuresOfThisInput[name] != nil { return .standard }
    if catalog.enums[name] != nil || catalog.valueTypes[name] != nil { return .standard }
    if SwiftComputation.standardTypes.contains(name) || SwiftComputation.standardFunctions.contains(name) { return .standard }
    return .other
  }

  /// `facts.wrappedValue[indexPath.row]` in a scan: computed from a value the app has when it
  /// runs, so the result is one too, bound as the app binds it.
  func runTimeComputation(_ expr: ExprSyntax) -> Value? {
    guard scanning else { return nil }
    for token in expr.tokens(viewMode: .sourceAccurate) {
      guard case .identifier(let name) = token.tokenKind else { continue }
      if case .expression(let typed)? = lookupLocal(name) ?? catalog.bindings[name] ?? runTimeValues[name] ?? heldGlobal(name),
        Self.runTimeName(in: typed.expression) != nil,
        token.parent?.is(DeclReferenceExprSyntax.self) == true,
        token.parent?.parent?.is(MemberAccessExprSyntax.self) != true
          || token.parent?.parent?.as(MemberAccessExprSyntax.self)?.base?.id == token.parent?.id
      {
        return .runTime(text(of: expr))
      }
    }
    return nil
  }

  /// The Swift values the names in `parts` hold (locals and the input's constants), for the
  /// evaluator's scope.
  func swiftValues(namedIn parts: [Syntax]) -> [String: SwiftValue] {
    var names: [String: SwiftValue] = [:]
    for part in parts {
      for token in part.tokens(viewMode: .sourceAccurate) {
        // `$0` in a closure the query compiler runs (`kinds.enumerated().map { $0.1.title }`).
        let name: String
        switch token.tokenKind {
        case .identifier(let text), .dollarIdentifier(let text): name = text
        default: continue
        }
        guard names[name] == nil,
          let value = lookupLocal(name) ?? catalog.bindings[name] ?? heldGlobal(name), let swift = swiftValue(value)
        else { continue }
        names[name] = swift
      }
    }
    return names
  }

  /// Runs the evaluator on `expr` with the names it uses that hold Swift values.
  /// `receiver`: the value of `expr`'s base, where `expr` is a member or a member call whose
  /// base the query compiler has read already.
  func computeSwift(_ expr: ExprSyntax, expected: SwiftType?, receiver: SwiftValue? = nil) throws -> Result<
    SwiftValue, SwiftEvaluationError
  > {
    let closures = appClosuresOfThisInput
    let names = swiftValues(namedIn: [Syntax(expr)] + closures.values.map { Syntax($0) })
    let evaluator = SwiftEvaluator(source: source, catalog: catalog, budget: budget)
    evaluator.appClosures = closures
    evaluator.enclosingTypeNames = [enclosingType, selfTable?.model.typeName].compactMap { $0 }
    // The input's own top-level functions, Swift's alone (`func threshold() -> Int { … }`).
    evaluator.functions = appCode.declaredFunctions.filter { Self.isTopLevel($0.value.declaration) }
    do {
      if let receiver { return .success(try evaluator.member(of: expr, on: receiver, names: names)) }
      var types: [String: SwiftType] = [:]
      for (name, value) in names { if case .array = value, let declared = declaredArrayTypes[name] { types[name] = declared } }
      return .success(try evaluator.value(of: expr, names: names, expected: expected, types: types))
    } catch {
      return .failure(error)
    }
  }

  /// A constant of the DSL as a Swift value (nil for a column or any SQL computation).
  func swiftValue(_ value: Value) -> SwiftValue? {
    switch value {
    case .swiftValue(let swift): return swift
    case .null: return SwiftValue.none
    case .expression(let typed):
      guard case .value(let binding) = typed.expression.node else { return nil }
      if case .parameter = binding { return nil }  // a value the app has only when it runs
      // `[String]`, a Codable struct, stored as JSON text: not a String to Swift (Quarry does not
      // decode it back).
      if case .text = binding, let type = typed.type,
        type.wrapped.name.hasPrefix("[") || type.representation?.contains("JSON") == true || catalog.valueTypes[type.wrapped.name] != nil
      {
        return nil
      }
      if let type = typed.type, let model = catalog.enums[type.name] {
        if case .null = binding { return type.isOptional ? SwiftValue.none : nil }
        guard let match = model.cases.first(where: { $0.value == binding }) else { return nil }
        let value = SwiftValue.enumCase(type: model.name, name: match.name, raw: SwiftValue(binding, as: model.rawType))
        return type.isOptional ? .some(value) : value
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
    case .query(let record):
      // `Habit(id: 1, title: "a")`: the struct Swift holds.
      return recordValues.swiftValue(of: record)
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
    case .fixedWidth(let number, let width): return .expression(TypedExpression(.value(.integer(number)), type: SwiftType(width.name)))
    case .double(let number): return .expression(TypedExpression(.value(.double(number)), type: .double))
    case .float(let number): return .expression(TypedExpression(.value(.double(Double(number))), type: SwiftType("Float")))
    case .string(let text): return .expression(TypedExpression(.value(.text(text)), type: .string))
    case .uuid(let text): return .expression(TypedExpression(.value(.text(text.lowercased())), type: SwiftType("UUID")))
    case .url(let text): return .expression(TypedExpression(.value(.text(text)), type: SwiftType("URL")))
    case .data(let bytes): return .expression(TypedExpression(.value(.blob(bytes)), type: SwiftType("Data")))
    case .array(let values), .slice(let values, _), .lazySequence(_, let values):
      // `[a, b]` of records: the records, each a row.
      if !values.isEmpty, values.allSatisfy(recordValues.isRecord) {
        return .array(try values.map { try value(of: $0, at: node) })
      }
      // `[Step(…)]` of Codable structs: one JSON array, as its `JSONRepresentation` binds it (each
      // element bound on its own would be JSON text inside JSON).
      if values.contains(where: \.holdsStructure) {
        return .expression(TypedExpression(.value(.text(try encodedJSON(swift, at: node))), type: SwiftType(swift.typeName)))
      }
      return .array(try values.map { try value(of: $0, at: node) })
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
    case .dictionary(let entries) where entries.keys.allSatisfy({ if case .string = $0 { true } else { false } }):
      // `[String: T]` where a query value goes: the JSON object StructuredQueries binds for it.
      return .expression(TypedExpression(.value(.text(try encodedJSON(swift, at: node))), type: .string))
    case .dictionary, .unordered:
      throw source.diagnostic("a \(swift.typeName) has no order Swift fixes; sort it into an array first", at: node)
    case .stringIndex, .stringIndexRange:
      throw source.diagnostic("a \(swift.typeName) has no SQLite value: bind a distance or a substring instead", at: node)
    case .structure(let type, _, _, let encodable):
      do {
        if let record = try recordValues.record(of: swift) { return .query(record) }
      } catch {
        throw source.diagnostic("this '\(type)' \(error.message)", at: node)
      }
      // A Codable struct where a query value goes: the JSON its `JSONRepresentation` binds.
      guard encodable else {
        throw source.diagnostic(
          "a '\(type)' is not a value SQLite can hold; bind its properties, or make it Codable and store it as JSON", at: node)
      }
      return .expression(TypedExpression(.value(.text(try encodedJSON(swift, at: node))), type: SwiftType(type)))
    }
  }
}
