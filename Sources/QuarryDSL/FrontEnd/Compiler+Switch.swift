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
      let choice = runTimeChoice(key, alternatives: cases.map { text(of: $0.label).replacing("case ", with: "").trimmingScalars(in: [":"]) })
      guard cases.indices.contains(choice) else { return nil }
      // `case .remindersList(let list)`: what the pattern binds is a run-time value too.
      var bindings: [String: Value] = [:]
      for token in cases[choice].label.tokens(viewMode: .sourceAccurate) {
        if case .identifier(let name) = token.tokenKind, token.parent?.is(IdentifierPatternSyntax.self) == true {
          bindings[name] = .expression(TypedExpression(.value(.parameter(name)), type: nil))
        }
      }
      return (cases[choice].statements, bindings)
    }
    guard let known = constantKey(subject) else {
      throw source.diagnostic(
        "a 'switch' here needs a value known before the query runs; to choose by a column's value use Case(…).when(…, then: …)",
        at: switchExpr.subject)
    }
    let subjectType: SwiftType? = if case .expression(let typed) = subject { typed.type?.wrapped } else { nil }
    for switchCase in switchExpr.cases.activeCases {
      switch switchCase.label {
      case .default:
        return (switchCase.statements, [:])
      case .case(let label):
        for item in label.caseItems {
          var bindings: [String: Value] = [:]
          guard try matches(item.pattern, subject: subject, key: known, type: subjectType, bindings: &bindings) else { continue }
          if let condition = item.whereClause?.condition {
            let keep = try withLocals(bindings) { try swiftValue(of: condition) }
            guard case .expression(let typed) = keep, Self.constantBool(typed.expression) == true else { continue }
          }
          return (switchCase.statements, bindings)
        }
      }
    }
    return nil
  }

  /// The values of the matching case's statements (a builder's conditions or a closure's result).
  func evaluateSwitch(_ switchExpr: SwitchExprSyntax) throws -> [Value] {
    guard let (statements, bindings) = try switchBranch(switchExpr) else { return [] }
    return try withLocals(bindings) { try evaluateStatementList(statements) }
  }

  private func matches(
    _ pattern: PatternSyntax, subject: Value, key: String, type: SwiftType?, bindings: inout [String: Value]
  ) throws -> Bool {
    if pattern.is(WildcardPatternSyntax.self) { return true }
    if let binding = pattern.as(ValueBindingPatternSyntax.self) {
      return try matches(binding.pattern, subject: subject, key: key, type: type, bindings: &bindings)
    }
    if let identifier = pattern.as(IdentifierPatternSyntax.self) {
      bindings[identifier.identifier.text] = subject
      return true
    }
    if let expression = pattern.as(ExpressionPatternSyntax.self) {
      let value = try evaluate(expression.expression, expected: type)
      if case .implicitMember(let name) = value {
        throw source.diagnostic("cannot tell which '.\(name)' this is: the switched value's type is not known here", at: expression)
      }
      guard let candidate = constantKey(value) else {
        throw source.diagnostic("a case of this 'switch' must be a value known before the query runs", at: expression)
      }
      return candidate == key
    }
    throw source.diagnostic("not supported in Quarry yet: this kind of pattern in a switch", at: pattern)
  }

  /// A comparable key of a constant value (nil for a column or any SQL computation).
  private func constantKey(_ value: Value) -> String? {
    switch value {
    case .null: return "NULL"
    case .expression(let typed):
      guard case .value(let binding) = typed.expression.node else { return nil }
      return binding.inlineSQL
    default: return nil
    }
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
