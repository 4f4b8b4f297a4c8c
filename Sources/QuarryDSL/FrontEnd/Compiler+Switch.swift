import QueryBuilder
import SwiftSyntax

/// `switch` over a value known before the query runs, in a query closure or app code: the
/// statements of the case that matches (Swift picks one branch, so the SQL has only that one).
///
/// ```swift
/// enum Filter { case all, flagged }
/// let filter = Filter.flagged
/// Reminder.where {
///   switch filter {
///   case .all: true
///   case .flagged: $0.isFlagged
///   }
/// }
/// // … WHERE "reminders"."isFlagged"
/// ```
///
/// A switch over a column has no Swift value to match: that is SQL's `CASE`, written
/// `Case($0.priority).when(.high, then: …)`.
extension Compiler {
  /// The statements of the matching case, with its `let` patterns bound (nil: no case matched).
  func switchBranch(_ switchExpr: SwitchExprSyntax) throws -> (CodeBlockItemListSyntax, [String: Value])? {
    let subject = try evaluate(switchExpr.subject)
    if case .expression(let typed) = subject, Self.runTimeName(in: typed.expression) != nil {
      // `switch detailType { … }` in a scan: each case is a variant of the query.
      let cases = switchExpr.cases.activeCases
      let key = text(of: switchExpr.subject)
      let choice = runTimeChoice(
        key, alternatives: cases.map { text(of: $0.label).replacing("case ", with: "").trimmingScalars(in: [":"]) })
      guard cases.indices.contains(choice) else { return nil }
      // `case .remindersList(let list)`: what the pattern binds is a run-time value too.
      var bindings: [String: Value] = [:]
      for token in cases[choice].label.tokens(viewMode: .sourceAccurate) {
        if case .identifier(let name) = token.tokenKind, token.parent?.is(IdentifierPatternSyntax.self) == true {
          bindings[name] = .runTime(name)
        }
      }
      return (cases[choice].statements, bindings)
    }
    // A value Swift holds: Swift's own pattern matching picks the case (the one evaluator).
    guard swiftValue(subject) != nil else {
      throw source.diagnostic(
        "a 'switch' here needs a value known before the query runs; to choose by a column's value use Case(…).when(…, then: …)",
        at: switchExpr.subject)
    }
    let names = swiftValues(namedIn: [Syntax(switchExpr.subject)] + switchExpr.cases.activeCases.map { Syntax($0.label) })
    let evaluator = SwiftEvaluator(source: source, catalog: catalog, budget: budget)
    let matched: (index: Int, names: [String: SwiftEvaluator.Variable])?
    do {
      matched = try evaluator.switchCase(switchExpr, names: names)
    } catch {
      throw Diagnostic(computedBeforeTheQuery: error)
    }
    guard let matched else { return nil }
    var bindings: [String: Value] = [:]
    for (name, variable) in matched.names { bindings[name] = try heldValue(variable.value, type: variable.type, at: switchExpr) }
    return (switchExpr.cases.activeCases[matched.index].statements, bindings)
  }

  /// The values of the matching case's statements (a builder's conditions or a closure's result).
  func evaluateSwitch(_ switchExpr: SwitchExprSyntax) throws -> [Value] {
    guard let (statements, bindings) = try switchBranch(switchExpr) else { return [] }
    return try withLocals(bindings) { try evaluateStatementList(statements) }
  }
}

extension SwitchCaseListSyntax {
  /// The cases the app's build compiles: `#if` among them decided by ``AppBuildConfiguration``.
  var activeCases: [SwitchCaseSyntax] {
    var out: [SwitchCaseSyntax] = []
    func add(_ list: SwitchCaseListSyntax) {
      for element in list {
        switch element {
        case .switchCase(let switchCase): out.append(switchCase)
        case .ifConfigDecl(let conditional):
          if case .switchCases(let nested)? = AppBuildConfiguration.activeClause(of: conditional)?.elements { add(nested) }
        }
      }
    }
    add(self)
    return out
  }
}
