import SwiftSyntax

/// `switch` and `case` patterns: values, enum cases (`.high`), ranges (`90...`, `..<50`),
/// tuples with `_`, `let` bindings, `nil`, `.some(let x)`, `where` clauses.
///
/// ```swift
/// switch (score ?? 0, flagged) {
/// case (90..., _): "A"
/// case (let s, true) where s > 50: "B!"
/// default: "C"
/// }
/// ```
extension SwiftEvaluator {
  /// The statements of the case that matches, with its bindings (nil: none matched).
  func matchingCase(_ switchExpr: SwitchExprSyntax) throws -> (CodeBlockItemListSyntax, [String: Variable], index: Int)? {
    guard let (index, names) = try matchingCaseIndex(switchExpr) else { return nil }
    return (switchExpr.cases.activeCases[index].statements, names, index)
  }

  /// Which of a `switch`'s cases (its active cases, in order) Swift runs for the subject
  /// computed from `names`, with what the case's patterns bind: the query compiler asks this
  /// of a `switch` over a value known before the query runs, then compiles that case's body.
  func switchCase(_ switchExpr: SwitchExprSyntax, names: [String: SwiftValue]) throws(SwiftEvaluationError) -> (
    index: Int, names: [String: Variable]
  )? {
    guard let folded = source.folded(switchExpr) else { throw failure("cannot be read here", at: switchExpr) }
    scopes = [Scope(names.mapValues { Variable(value: $0, mutable: false, type: nil) })]
    var found: (index: Int, names: [String: Variable])?
    _ = try guarded(at: folded) {
      found = try matchingCaseIndex(folded)
      return .none
    }
    return found
  }

  /// `if case PATTERN = subject` where the query compiler holds `subject`: what the pattern
  /// binds when it matches (nil when it does not).
  func bindings(of pattern: PatternSyntax, matching subject: SwiftValue, names: [String: SwiftValue]) throws(SwiftEvaluationError)
    -> [String: Variable]?
  {
    guard let folded = source.folded(pattern) else { throw failure("cannot be read here", at: pattern) }
    scopes = [Scope(names.mapValues { Variable(value: $0, mutable: false, type: nil) })]
    var bound: [String: Variable]?
    _ = try guarded(at: folded) {
      var names: [String: Variable] = [:]
      if try matches(folded, subject, binding: &names) { bound = names }
      return .none
    }
    return bound
  }

  private func matchingCaseIndex(_ switchExpr: SwitchExprSyntax) throws -> (index: Int, names: [String: Variable])? {
    let subject = try evaluate(switchExpr.subject)
    for (index, switchCase) in switchExpr.cases.activeCases.enumerated() {
      switch switchCase.label {
      case .default:
        return (index, [:])
      case .case(let label):
        for item in label.caseItems {
          var names: [String: Variable] = [:]
          guard try matches(item.pattern, subject, binding: &names) else { continue }
          if let condition = item.whereClause?.condition {
            let keep = try scoped(names) { try truth(evaluate(condition, expected: .bool), at: condition) }
            guard keep else { continue }
          }
          return (index, names)
        }
      }
    }
    return nil
  }

  /// Whether `subject` matches `pattern`, binding its names.
  func matches(_ pattern: PatternSyntax, _ subject: SwiftValue, binding names: inout [String: Variable], bindsNames: Bool = false) throws
    -> Bool
  {
    try budget.charge()
    if let identifier = pattern.as(IdentifierPatternSyntax.self) {
      names[identifier.identifier.text] = Variable(value: subject, mutable: false, type: nil)
      return true
    }
    if pattern.is(WildcardPatternSyntax.self) { return true }
    if let binding = pattern.as(ValueBindingPatternSyntax.self) {
      return try matches(binding.pattern, subject, binding: &names, bindsNames: true)
    }
    if let tuple = pattern.as(TuplePatternSyntax.self) {
      guard case .tuple(let parts, _) = subject, parts.count == tuple.elements.count else { return false }
      for (element, part) in zip(tuple.elements, parts) where try !matches(element.pattern, part, binding: &names, bindsNames: bindsNames) {
        return false
      }
      return true
    }
    if let expression = pattern.as(ExpressionPatternSyntax.self) {
      return try matches(expression: expression.expression, subject, binding: &names, bindsNames: bindsNames)
    }
    throw unsupported(pattern, "this pattern")
  }

  private func matches(expression expr: ExprSyntax, _ subject: SwiftValue, binding names: inout [String: Variable], bindsNames: Bool) throws
    -> Bool
  {
    if expr.is(DiscardAssignmentExprSyntax.self) { return true }
    if let pattern = expr.as(PatternExprSyntax.self) {
      return try matches(pattern.pattern, subject, binding: &names, bindsNames: bindsNames)
    }
    if bindsNames, let reference = expr.as(DeclReferenceExprSyntax.self) {
      names[reference.baseName.text] = Variable(value: subject, mutable: false, type: nil)
      return true
    }
    if let tuple = expr.as(TupleExprSyntax.self) {
      if tuple.elements.count == 1, let only = tuple.elements.first {
        return try matches(expression: only.expression, subject, binding: &names, bindsNames: bindsNames)
      }
      guard case .tuple(let parts, _) = subject, parts.count == tuple.elements.count else { return false }
      for (element, part) in zip(tuple.elements, parts)
      where try !matches(expression: element.expression, part, binding: &names, bindsNames: bindsNames) {
        return false
      }
      return true
    }
    if expr.is(NilLiteralExprSyntax.self) { return subject == .none }
    // `.some(let x)`, `.none`
    if let call = expr.as(FunctionCallExprSyntax.self), let member = call.calledExpression.as(MemberAccessExprSyntax.self),
      member.base == nil || member.base?.trimmedDescription == "Optional", member.declName.baseName.text == "some",
      call.arguments.count == 1, let argument = call.arguments.first
    {
      guard let inner = Self.unwrapOnce(subject), subject.isOptional else { return false }
      return try matches(expression: argument.expression, inner, binding: &names, bindsNames: bindsNames)
    }
    if let optional = expr.as(OptionalChainingExprSyntax.self) {
      // `case let x?`
      guard let inner = Self.unwrapOnce(subject), subject.isOptional else { return false }
      return try matches(expression: optional.expression, inner, binding: &names, bindsNames: bindsNames)
    }
    // Ranges: `1...5`, `90...`, `..<50`, `"a"..."m"`.
    let value = subject.unwrapped ?? .none
    if let infix = expr.as(InfixOperatorExprSyntax.self), let op = infix.operator.as(BinaryOperatorExprSyntax.self)?.operator.text,
      op == "..." || op == "..<"
    {
      let lower = try evaluate(infix.leftOperand, expected: Self.type(of: value))
      let upper = try evaluate(infix.rightOperand, expected: Self.type(of: value))
      guard (try ordering(lower, upper, at: infix)) ?? 1 <= 0 else {
        throw crash("makes a range whose lower bound is above its upper bound", at: infix)
      }
      guard value != .none else { return false }
      return try compare(">=", value, lower, at: infix) && compare(op == "..." ? "<=" : "<", value, upper, at: infix)
    }
    if let postfix = expr.as(PostfixOperatorExprSyntax.self), postfix.operator.text == "..." {
      guard value != .none else { return false }
      return try compare(">=", value, evaluate(postfix.expression, expected: Self.type(of: value)), at: postfix)
    }
    if let prefix = expr.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "..<" || prefix.operator.text == "..." {
      guard value != .none else { return false }
      let bound = try evaluate(prefix.expression, expected: Self.type(of: value))
      return try compare(prefix.operator.text == "..." ? "<=" : "<", value, bound, at: prefix)
    }
    // An enum case by its name: `.high`, `Priority.high`.
    if let member = expr.as(MemberAccessExprSyntax.self), case .enumCase(let type, let name, _) = value {
      let base = member.base?.trimmedDescription
      if base == nil || base == type || type.hasSuffix("." + (base ?? "")) {
        guard enums[type]?.cases.contains(where: { $0.name == member.declName.baseName.text }) ?? true else {
          throw failure("'\(type)' has no case '\(member.declName.baseName.text)'", at: member.declName)
        }
        return name == member.declName.baseName.text
      }
    }
    if let member = expr.as(MemberAccessExprSyntax.self), member.base == nil, member.declName.baseName.text == "none" {
      return subject == .none
    }
    let expected = Self.type(of: value)
    let candidate = try evaluate(expr, expected: expected)
    return try equal(candidate, subject, at: expr)
  }
}
