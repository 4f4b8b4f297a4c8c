import SwiftSyntax

/// App code's own Swift between its queries: run by the one evaluator where it is Swift's alone,
/// and, where Quarry cannot run it, the names it may change are no longer known after it.
///
/// ```swift
/// var count = 3
/// func twice(_ x: inout Int) { x *= 2 }
/// twice(&count)
/// for k in 0..<3 { if k == 1 { continue }; count += k }
/// try Reminder.find(count).delete().execute(db)   // DELETE … WHERE "id" = 8
/// ```
extension AppCodeRunner {
  /// `continue` or `break` met while the runner goes through a loop's body itself.
  struct LoopLeftInApp: Error {
    var broke: Bool
    var node: Syntax
  }

  /// Runs a statement or an expression of the input in the evaluator when it is Swift's alone;
  /// false (nothing kept) otherwise.
  func runAsSwift(_ code: some SyntaxProtocol) throws -> Bool {
    try compiler.runSwiftCode(Syntax(code), constants: constants, functions: declaredFunctions)
  }

  /// Whether an expression statement may be Swift's alone and worth the evaluator's try: an
  /// `if` or `switch`, or a call of a function the app declares or with an `inout` argument.
  static func mayBeSwiftsAlone(_ expr: ExprSyntax, declared: [String: SwiftEvaluator.DeclaredFunction]) -> Bool {
    if expr.is(IfExprSyntax.self) || expr.is(SwitchExprSyntax.self) { return true }
    guard let call = expr.as(FunctionCallExprSyntax.self) else { return false }
    if call.arguments.contains(where: { $0.expression.is(InOutExprSyntax.self) }) { return true }
    guard let name = call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text else { return false }
    return declared[name] != nil
  }

  /// `a = Habit(id: 2, title: a.title + "!")`, `list = list.map { … }`, `list.append(Habit(id: 3))`:
  /// an assignment to, or a method called on, a record the input holds, an array of records, or a
  /// part of one, which the evaluator runs with the records as Swift's structs.
  func changesRecords(_ expr: ExprSyntax) -> Bool {
    // (A method that only reads, `items.map(\.title)`, is a value, not a change.)
    let mutatingCall = Self.unwrapped(expr).as(FunctionCallExprSyntax.self)?.calledExpression.as(MemberAccessExprSyntax.self)
      .flatMap { member in SwiftBuiltins.all.contains { $0.name == member.declName.baseName.text && $0.mutation != nil } ? member : nil }
    let target = Self.assignment(expr)?.target ?? mutatingCall?.base
    guard let target, let root = SwiftComputation.rootName(of: target),
      let held = compiler.lookupLocal(root) ?? compiler.catalog.bindings[root]
    else { return false }
    let records = compiler.recordValues
    switch held {
    case .query: return records.isRecord(held)
    case .array(let elements) where !elements.isEmpty: return elements.allSatisfy(records.isRecord)
    // `var items: [Item] = []`: its declared type says.
    case .array: return compiler.declaredArrayTypes[root]?.arrayElement.map { compiler.catalog.recordTypes[$0.name] != nil } == true
    default: return false
    }
  }

  /// `let (total, label) = (a + b, "\(a)")`: each name of the pattern bound to its part of the
  /// value Swift computes; false when the value is not Swift's alone.
  func bindTuple(_ tuple: TuplePatternSyntax, to initializer: ExprSyntax, constant: Bool) throws -> Bool {
    guard case .success(let computed) = try Self.trapsAreTheApps(compiler.computeSwift(initializer, expected: nil)),
      case .tuple(let parts, _) = computed, parts.count == tuple.elements.count
    else { return false }
    for (element, part) in zip(tuple.elements, parts) {
      if element.pattern.is(WildcardPatternSyntax.self) { continue }
      guard let name = element.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { return false }
      if constant { constants.insert(name) } else { constants.remove(name) }
      bind(name, to: try compiler.heldValue(part, type: nil, at: initializer))
    }
    return true
  }

  /// Whether `expr` calls a function the app declares at the top level of an input (or, with
  /// `nested`, inside a block of this input), or a closure it names in this input (and no local
  /// value of the same name hides it).
  func callsAppSwift(_ expr: ExprSyntax, nested: Bool = false) -> Bool {
    let closures = compiler.appClosuresOfThisInput
    for token in expr.tokens(viewMode: .sourceAccurate) {
      guard case .identifier(let name) = token.tokenKind, compiler.lookupLocal(name) == nil,
        token.parent?.parent?.as(FunctionCallExprSyntax.self)?.calledExpression.id == token.parent?.id
      else { continue }
      if closures[name] != nil { return true }
      if let declared = declaredFunctions[name],
        Compiler.isTopLevel(declared.declaration) || (nested && declared.source === compiler.source)
      {
        return true
      }
    }
    return false
  }

  /// A computation's result, where Swift trapping is the app's crash (thrown), not a reason to
  /// try another reading.
  static func trapsAreTheApps(_ result: Result<SwiftValue, SwiftEvaluationError>) throws -> Result<SwiftValue, SwiftEvaluationError> {
    if case .failure(let error) = result, error.text.contains("the app would crash here") {
      throw Diagnostic(error.text, line: error.line, column: error.column)
    }
    return result
  }

  /// Forgets every name `node` may change (an assignment's target, an `inout` argument, the
  /// receiver of a method that may mutate it): code Quarry skips leaves them unknown, so a later
  /// statement that reads one says so rather than binding a stale value.
  func forgetChanges(in node: some SyntaxProtocol) {
    let finder = ChangedNameFinder(viewMode: .sourceAccurate)
    finder.walk(node)
    for name in finder.names.sorted() {
      // (A database handle, held as nothing, is the app's plumbing: `db.execute(…)` changes no value.)
      if case .null? = compiler.lookupLocal(name) ?? compiler.catalog.bindings[name] { continue }
      forget(name, changedBy: node)
    }
  }
}

/// The names a piece of code may change, read from its syntax.
private final class ChangedNameFinder: SyntaxVisitor {
  var names: Set<String> = []

  /// Members of standard values known not to change their receiver.
  private static let readOnly: Set<String> = SwiftBuiltins.memberNames

  override func visit(_ node: SequenceExprSyntax) -> SyntaxVisitorContinueKind {
    let elements = Array(node.elements)
    for index in elements.indices.dropFirst() where SwiftEvaluator.assignmentOperator(elements[index]) != nil {
      if let root = SwiftComputation.rootName(of: elements[index - 1]) { names.insert(root) }
    }
    return .visitChildren
  }

  override func visit(_ node: InfixOperatorExprSyntax) -> SyntaxVisitorContinueKind {
    if SwiftEvaluator.assignmentOperator(node.operator) != nil, let root = SwiftComputation.rootName(of: node.leftOperand) {
      names.insert(root)
    }
    return .visitChildren
  }

  override func visit(_ node: InOutExprSyntax) -> SyntaxVisitorContinueKind {
    if let root = SwiftComputation.rootName(of: node.expression) { names.insert(root) }
    return .visitChildren
  }

  override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
    if let member = node.calledExpression.as(MemberAccessExprSyntax.self), let base = member.base,
      let root = SwiftComputation.rootName(of: base)
    {
      let name = member.declName.baseName.text
      let mutates = SwiftBuiltins.all.contains { $0.name == name && $0.mutation != nil }
      if mutates || !Self.readOnly.contains(name) { names.insert(root) }
    }
    return .visitChildren
  }
}
