import SwiftSyntax

/// Which expressions Swift computes on its own, before any query exists: those built only from
/// literals, values the input holds (`let limit = 5`), the standard library's types and
/// functions, and the input's enum cases. The app's compiler picks Swift's own operators and
/// members for them (they win over the query operators in overload resolution), so the one
/// ``SwiftEvaluator`` computes them, with the type the context expects, and the result is bound.
///
/// ```swift
/// let ratio: Double = 7 / 2      // 3.5, as Swift computes it
/// Reminder.where { $0.title.eq("\(true)") }
/// // … WHERE ("reminders"."title") = ('true')
/// ```
struct SwiftComputation {
  /// What a name written in the input means, for this question.
  enum Name {
    /// A value Swift holds (a prompt constant, a local computed before the query).
    case value
    /// A type or function of the standard library, or an enum the input declares.
    case standard
    /// Anything the query builds (a table, a column, a scope) or that Quarry does not know.
    case other
  }

  /// Classifies a name as the scope of the expression resolves it.
  let classify: (String) -> Name
  /// An operator sequence of the input as the one fold of the input grouped it.
  var fold: (ExprSyntax) -> ExprSyntax? = { _ in nil }
  /// Whether a prefix operator is StructuredQueries' (the compiler reads its operand's type:
  /// ``Compiler/prefixIsTheQuerys(_:inOperation:)``), alone or as an operand of arithmetic.
  var prefixIsTheQuerys: (PrefixOperatorExprSyntax, _ inOperation: Bool) -> Bool = { prefix, _ in
    !SwiftComputation.isLiteral(prefix.expression)
  }
  /// Whether an operation over a query operand is still Swift's (the compiler reads the types
  /// of its values: ``Compiler/operationIsSwifts(_:)``).
  var operationIsSwifts: (InfixOperatorExprSyntax) -> Bool = { _ in false }

  /// Types whose static members and initializers the evaluator runs.
  static let standardTypes: Set<String> = [
    "Int", "Double", "String", "Bool", "Character", "Float", "CGFloat", "Int64", "Optional", "Array",
    "Int32", "Int16", "Int8", "UInt8", "UInt16", "UInt32",
  ]

  /// Free functions the evaluator runs (the built-in table's), less `Date`, which stays a date
  /// the query stores in its column's representation. (`Set(…)` where a list goes is the
  /// query's list: see `isComputation`.)
  static let standardFunctions: Set<String> = Set(SwiftBuiltins.all.filter { $0.receiver.isEmpty }.map(\.name))
    .subtracting(["Date"])

  /// Whether `expr` is worth handing to the evaluator as a whole: Swift's alone, and more than
  /// a literal or a name, whose value the compiler already reads as Swift does.
  func isComputation(_ expr: ExprSyntax) -> Bool {
    switch expr.as(ExprSyntaxEnum.self) {
    case .integerLiteralExpr, .floatLiteralExpr, .booleanLiteralExpr, .nilLiteralExpr, .declReferenceExpr:
      return false
    case .stringLiteralExpr(let literal):
      guard literal.segments.contains(where: { $0.is(ExpressionSegmentSyntax.self) }) else { return false }
    case .memberAccessExpr(let member) where member.base == nil:
      return false
    case .prefixOperatorExpr(let prefix):
      // `-x` where a query value goes is the query's negation (StructuredQueries renders
      // `-(5)`); of a literal, or of a Double, it is Swift's (`-(-5)` is 5, `-d` is -2.5). `!`
      // is the query compiler's to read (`!$0.isCompleted`; of a Swift Bool it computes it).
      guard ["-", "+", "~"].contains(prefix.operator.text) else { return false }
      return !prefixIsTheQuerys(prefix, false)
    case .dictionaryExpr:
      // A dictionary literal where a query value goes is the query's JSON object.
      return false
    case .infixOperatorExpr(let infix) where takesQueryOperators(infix):
      return false
    case .sequenceExpr(let sequence):
      if let infix = fold(ExprSyntax(sequence))?.as(InfixOperatorExprSyntax.self), takesQueryOperators(infix) { return false }
    case .functionCallExpr(let call)
    where ["Optional", "Set"].contains(call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text):
      // `Optional(0)` beside a query value: the same value, of whatever optional the query's
      // types make it (the compiler reads it so); `Set(ids)` where a list goes: the list the
      // query binds (`Set(ids).count` is Swift's).
      return false
    case .tupleExpr(let tuple) where tuple.elements.count == 1:
      return tuple.elements.first.map { $0.label == nil && isComputation($0.expression) } ?? false
    default:
      break
    }
    // A query chain (`Reminder.where { … }.order(…)`, asked again at every link as the compiler
    // reads it) is told by its first name, without walking the chain.
    switch Self.leadingName(of: expr) {
    case .name(let first) where classify(first) == .other: return false
    case .tooDeep: return false
    default: return isSwift(expr, bound: [])
    }
  }

  /// Whether an arithmetic operator has a query operand — a prefix `-`, `+` or `~` of anything
  /// but a literal, or an operation that has one — and so is the query's operator where no
  /// concrete type is asked for: Swift resolves the prefix to StructuredQueries' (whose operand
  /// is `any QueryExpression`), and only the query's operators take its result.
  ///
  /// ```swift
  /// Probe.where { $0.v.eq(-x + 1) }        // … = ((-(5)) + (1))
  /// Probe.where { $0.v.eq(x * 2 + 1) }     // … = (11): Swift's own
  /// Probe.insert { Probe.Draft(v: -x + 1) }  // (NULL, -4): a concrete Int
  /// ```
  ///
  /// `%` is not among them: the query's `%` gives an optional, so the compiler picks Swift's.
  func takesQueryOperators(_ infix: InfixOperatorExprSyntax) -> Bool {
    guard let op = infix.operator.as(BinaryOperatorExprSyntax.self)?.operator.text, Self.queryArithmetic.contains(op) else {
      return false
    }
    return (isQueryOperand(infix.leftOperand) || isQueryOperand(infix.rightOperand)) && !operationIsSwifts(infix)
  }

  static let queryArithmetic: Set<String> = ["+", "-", "*", "/", "&", "|", "<<", ">>"]

  /// Whether `expr` (in parentheses or not) is a query expression by its operators: a prefix the
  /// query's, or an operation that takes the query's operators.
  func isQueryOperand(_ expr: ExprSyntax) -> Bool {
    var inner = expr.withoutParentheses
    if let prefix = inner.as(PrefixOperatorExprSyntax.self) { return prefixIsTheQuerys(prefix, true) }
    if let sequence = inner.as(SequenceExprSyntax.self), let folded = fold(ExprSyntax(sequence)) { inner = folded }
    if let infix = inner.as(InfixOperatorExprSyntax.self) { return takesQueryOperators(infix) }
    return false
  }

  /// Whether `expr` is built of number literals and operators only (`(2 * 3)`, `-(1 + 2)`).
  static func isLiteralOnly(_ expr: ExprSyntax) -> Bool {
    switch expr.as(ExprSyntaxEnum.self) {
    case .integerLiteralExpr, .floatLiteralExpr, .binaryOperatorExpr: return true
    case .tupleExpr(let tuple):
      return tuple.elements.count == 1 && tuple.elements.allSatisfy { $0.label == nil && isLiteralOnly($0.expression) }
    case .prefixOperatorExpr(let prefix): return isLiteralOnly(prefix.expression)
    case .infixOperatorExpr(let infix): return isLiteralOnly(infix.leftOperand) && isLiteralOnly(infix.rightOperand)
    case .sequenceExpr(let sequence): return sequence.elements.allSatisfy { isLiteralOnly($0) }
    default: return false
    }
  }

  /// A number literal, maybe negated or in parentheses (`5`, `(-5)`, `2.5`).
  static func isLiteral(_ expr: ExprSyntax) -> Bool {
    var inner = expr.withoutParentheses
    if let prefix = inner.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "-" { inner = prefix.expression }
    return inner.is(IntegerLiteralExprSyntax.self) || inner.is(FloatLiteralExprSyntax.self)
  }

  enum LeadingName {
    case name(String)
    case none
    /// More links than the compiler reads (it refuses the expression itself).
    case tooDeep
  }

  /// The name an expression starts with, through member accesses, calls, subscripts, unwraps
  /// and the first operand of an operator sequence (`Reminder` in `Reminder.where { … }.count()`).
  static func leadingName(of expr: ExprSyntax) -> LeadingName {
    var current = expr
    for _ in 0...(2 * Compiler.maximumEvaluationDepth) {
      if let reference = current.as(DeclReferenceExprSyntax.self) { return .name(reference.baseName.text) }
      if let member = current.as(MemberAccessExprSyntax.self), let base = member.base {
        current = base
        continue
      }
      if let call = current.as(FunctionCallExprSyntax.self) {
        current = call.calledExpression
        continue
      }
      if let subscriptCall = current.as(SubscriptCallExprSyntax.self) {
        current = subscriptCall.calledExpression
        continue
      }
      if let unwrap = current.as(ForceUnwrapExprSyntax.self) {
        current = unwrap.expression
        continue
      }
      if let chain = current.as(OptionalChainingExprSyntax.self) {
        current = chain.expression
        continue
      }
      if let sequence = current.as(SequenceExprSyntax.self), let first = sequence.elements.first {
        current = first
        continue
      }
      if let infix = current.as(InfixOperatorExprSyntax.self) {
        current = infix.leftOperand
        continue
      }
      return .none
    }
    return .tooDeep
  }

  /// Whether a statement changes only Swift values: an assignment (`=`, `+=`, …) to a name
  /// that holds one (or an element or property of it) from Swift's values, or a call of a
  /// member of such a name (`ids.append(4)`, `flag.toggle()`).
  func isSwiftStatement(_ expr: ExprSyntax) -> Bool {
    var inner = expr
    if let tryExpr = inner.as(TryExprSyntax.self) { inner = tryExpr.expression }
    if let sequence = inner.as(SequenceExprSyntax.self) {
      let elements = Array(sequence.elements)
      guard elements.count >= 3, isAssignment(elements[1]), let root = Self.rootName(of: elements[0]), classify(root) == .value,
        isSwiftTarget(elements[0])
      else { return false }
      return elements.dropFirst(2).allSatisfy { element in
        if let ternary = element.as(UnresolvedTernaryExprSyntax.self) { return isSwift(ternary.thenExpression, bound: []) }
        return !isAssignment(element) && (isSwift(element, bound: []) || isImplicitMember(element))
      }
    }
    // (A call that changes nothing, `names.map(\.count)`, is a value to show, not a statement.)
    if let call = inner.as(FunctionCallExprSyntax.self), let member = call.calledExpression.as(MemberAccessExprSyntax.self),
      let base = member.base, let root = Self.rootName(of: base), classify(root) == .value,
      SwiftBuiltins.mutatingNames.contains(member.declName.baseName.text)
        || !SwiftBuiltins.memberNames.contains(member.declName.baseName.text)
    {
      return isSwift(inner, bound: [])
    }
    return false
  }

  private func isAssignment(_ element: ExprSyntax) -> Bool {
    if element.is(AssignmentExprSyntax.self) { return true }
    return element.as(BinaryOperatorExprSyntax.self).map { Operation.assignments.contains($0.operator.text) } ?? false
  }

  /// `x`, `x.count`, `a[0]`, `d["k"]`: a target whose subscripts are Swift's.
  private func isSwiftTarget(_ expr: ExprSyntax) -> Bool {
    if expr.is(DeclReferenceExprSyntax.self) { return true }
    if let member = expr.as(MemberAccessExprSyntax.self), let base = member.base { return isSwiftTarget(base) }
    if let subscriptCall = expr.as(SubscriptCallExprSyntax.self) {
      return isSwiftTarget(subscriptCall.calledExpression) && subscriptCall.arguments.allSatisfy { isSwift($0.expression, bound: []) }
    }
    if let unwrap = expr.as(ForceUnwrapExprSyntax.self) { return isSwiftTarget(unwrap.expression) }
    if let chain = expr.as(OptionalChainingExprSyntax.self) { return isSwiftTarget(chain.expression) }
    return false
  }

  /// The name a member, subscript or unwrap chain starts from (`a` in `a.b[0]!`).
  static func rootName(of expr: ExprSyntax) -> String? {
    var current = expr
    while true {
      if let reference = current.as(DeclReferenceExprSyntax.self) { return reference.baseName.text }
      if let member = current.as(MemberAccessExprSyntax.self), let base = member.base {
        current = base
        continue
      }
      if let subscriptCall = current.as(SubscriptCallExprSyntax.self) {
        current = subscriptCall.calledExpression
        continue
      }
      if let unwrap = current.as(ForceUnwrapExprSyntax.self) {
        current = unwrap.expression
        continue
      }
      if let chain = current.as(OptionalChainingExprSyntax.self) {
        current = chain.expression
        continue
      }
      return nil
    }
  }

  /// Whether every part of `expr` is Swift's; `bound` holds the names closures inside it bind.
  func isSwift(_ expr: ExprSyntax, bound: Set<String>) -> Bool { check(expr, bound: bound, depth: 0) }

  /// `isSwift` at `depth` nodes down: deeper than the compiler reads, the answer is no (and the
  /// compiler's own depth guard says where), so the walk never outgrows the stack.
  private func check(_ expr: ExprSyntax, bound: Set<String>, depth: Int) -> Bool {
    guard depth <= Compiler.maximumEvaluationDepth else { return false }
    switch expr.as(ExprSyntaxEnum.self) {
    case .integerLiteralExpr, .floatLiteralExpr, .booleanLiteralExpr, .nilLiteralExpr:
      return true
    case .binaryOperatorExpr(let op):
      return !Operation.assignments.contains(op.operator.text)
    case .stringLiteralExpr(let literal):
      return literal.segments.allSatisfy { segment in
        guard let interpolation = segment.as(ExpressionSegmentSyntax.self) else { return true }
        return interpolation.expressions.allSatisfy { $0.label == nil && check($0.expression, bound: bound, depth: depth + 1) }
      }
    case .declReferenceExpr(let reference):
      let name = reference.baseName.text
      // `+` in `reduce(0, +)`, `>` in `sorted(by: >)`: the standard library's operator.
      if let first = name.unicodeScalars.first, !(first == "_" || first == "$" || first == "`" || first.properties.isXIDStart) {
        return true
      }
      return bound.contains(name) || classify(name) == .value
    case .memberAccessExpr(let member):
      // `.whitespaces`, `.high`: only where a call's parameter gives its type.
      guard let base = member.base else { return false }
      // `Int?.none`, `String?.none`.
      if member.declName.baseName.text == "none",
        let wrapped = base.as(OptionalChainingExprSyntax.self)?.expression.as(DeclReferenceExprSyntax.self),
        classify(wrapped.baseName.text) == .standard
      {
        return true
      }
      if let reference = base.as(DeclReferenceExprSyntax.self), !bound.contains(reference.baseName.text),
        classify(reference.baseName.text) == .standard
      {
        return true
      }
      return check(base, bound: bound, depth: depth + 1)
    case .functionCallExpr(let call):
      // `[String]()`, `[String: Int]()`: an empty collection of a standard type.
      if call.arguments.isEmpty, call.trailingClosure == nil, isCollectionType(call.calledExpression) { return true }
      let callee: Bool
      if let reference = call.calledExpression.as(DeclReferenceExprSyntax.self), !bound.contains(reference.baseName.text) {
        callee = classify(reference.baseName.text) != .other
      } else if let wrapped = call.calledExpression.as(OptionalChainingExprSyntax.self)?.expression.as(DeclReferenceExprSyntax.self),
        !bound.contains(wrapped.baseName.text)
      {
        // `UInt8?(255)`: Optional's initializer of a standard type.
        callee = classify(wrapped.baseName.text) == .standard
      } else {
        callee = check(call.calledExpression, bound: bound, depth: depth + 1)
      }
      return callee
        && call.arguments.allSatisfy { argument in
          if let member = argument.expression.as(MemberAccessExprSyntax.self), member.base == nil, member.declName.argumentNames == nil {
            return true
          }
          return check(argument.expression, bound: bound, depth: depth + 1)
        }
        && (call.trailingClosure.map { check(ExprSyntax($0), bound: bound, depth: depth + 1) } ?? true)
        && call.additionalTrailingClosures.allSatisfy { check(ExprSyntax($0.closure), bound: bound, depth: depth + 1) }
    case .subscriptCallExpr(let subscriptCall):
      return check(subscriptCall.calledExpression, bound: bound, depth: depth + 1)
        && subscriptCall.arguments.allSatisfy { check($0.expression, bound: bound, depth: depth + 1) }
    case .sequenceExpr(let sequence):
      return sequence.elements.allSatisfy { element in
        if element.is(AssignmentExprSyntax.self) { return false }
        if let ternary = element.as(UnresolvedTernaryExprSyntax.self) {
          return check(ternary.thenExpression, bound: bound, depth: depth + 1) || isImplicitMember(ternary.thenExpression)
        }
        if let cast = element.as(UnresolvedAsExprSyntax.self) { return cast.questionOrExclamationMark == nil }
        if element.is(TypeExprSyntax.self) || isImplicitMember(element) { return true }
        return check(element, bound: bound, depth: depth + 1)
      }
    case .infixOperatorExpr(let infix):
      return !infix.operator.is(AssignmentExprSyntax.self) && check(infix.operator, bound: bound, depth: depth + 1)
        && (check(infix.leftOperand, bound: bound, depth: depth + 1) || isImplicitMember(infix.leftOperand))
        && (check(infix.rightOperand, bound: bound, depth: depth + 1) || isImplicitMember(infix.rightOperand))
    case .prefixOperatorExpr(let prefix):
      return check(prefix.expression, bound: bound, depth: depth + 1)
    case .postfixOperatorExpr(let postfix):
      // `s[i...]`: a partial range of Swift's.
      return check(postfix.expression, bound: bound, depth: depth + 1)
    case .tupleExpr(let tuple):
      return tuple.elements.allSatisfy { check($0.expression, bound: bound, depth: depth + 1) }
    case .arrayExpr(let array):
      return array.elements.allSatisfy { check($0.expression, bound: bound, depth: depth + 1) }
    case .dictionaryExpr(let dictionary):
      guard case .elements(let elements) = dictionary.content else { return true }
      return elements.allSatisfy { check($0.key, bound: bound, depth: depth + 1) && check($0.value, bound: bound, depth: depth + 1) }
    case .forceUnwrapExpr(let unwrap):
      return check(unwrap.expression, bound: bound, depth: depth + 1)
    case .optionalChainingExpr(let chain):
      return check(chain.expression, bound: bound, depth: depth + 1)
    case .tryExpr(let tryExpr):
      return check(tryExpr.expression, bound: bound, depth: depth + 1)
    case .ternaryExpr(let ternary):
      return check(ternary.condition, bound: bound, depth: depth + 1)
        && (check(ternary.thenExpression, bound: bound, depth: depth + 1) || isImplicitMember(ternary.thenExpression))
        && (check(ternary.elseExpression, bound: bound, depth: depth + 1) || isImplicitMember(ternary.elseExpression))
    case .asExpr(let cast):
      return cast.questionOrExclamationMark == nil && check(cast.expression, bound: bound, depth: depth + 1)
    case .closureExpr(let closure):
      return check(closure, bound: bound, depth: depth + 1)
    case .keyPathExpr:
      // `\.count` in `names.map(\.count)`: a key path a Swift call applies (a query's own
      // methods are told by the chain's first name before this walk).
      return true
    case .ifExpr(let conditional):
      return check(conditional, bound: bound, depth: depth + 1)
    default:
      return false
    }
  }

  /// `[String]`, `[Int: String]`, `[Priority]` written as an expression (a type).
  private func isCollectionType(_ expr: ExprSyntax) -> Bool {
    func isType(_ element: ExprSyntax) -> Bool {
      if let reference = element.as(DeclReferenceExprSyntax.self) { return classify(reference.baseName.text) == .standard }
      return isCollectionType(element)
    }
    if let array = expr.as(ArrayExprSyntax.self), array.elements.count == 1, let only = array.elements.first {
      return isType(only.expression)
    }
    if let dictionary = expr.as(DictionaryExprSyntax.self), case .elements(let elements) = dictionary.content, elements.count == 1,
      let only = elements.first
    {
      return isType(only.key) && isType(only.value)
    }
    return false
  }

  /// `.pi` beside a Double: the other operand gives its type.
  func isImplicitMember(_ expr: ExprSyntax) -> Bool {
    guard let member = expr.as(MemberAccessExprSyntax.self) else { return false }
    return member.base == nil && member.declName.argumentNames == nil
  }

  /// A closure whose statements are expressions (or `return`s of them) over Swift's values
  /// and its own parameters (`{ $0 * 2 }`, `{ n in n > 2 }`).
  private func check(_ closure: ClosureExprSyntax, bound: Set<String>, depth: Int) -> Bool {
    var names = bound
    switch closure.signature?.parameterClause {
    case .simpleInput(let parameters)?: for parameter in parameters { names.insert(parameter.name.text) }
    case .parameterClause(let clause)?:
      for parameter in clause.parameters { names.insert((parameter.secondName ?? parameter.firstName).text) }
    case nil: for index in 0..<10 { names.insert("$\(index)") }
    }
    return check(closure.statements, bound: names, depth: depth + 1)
  }

  /// `if c { a } else { b }` as an expression: conditions and branches of one expression each.
  private func check(_ conditional: IfExprSyntax, bound: Set<String>, depth: Int) -> Bool {
    for condition in conditional.conditions {
      guard case .expression(let expr) = condition.condition, check(expr, bound: bound, depth: depth + 1) else { return false }
    }
    guard conditional.body.statements.count == 1, check(conditional.body.statements, bound: bound, depth: depth + 1) else { return false }
    switch conditional.elseBody {
    case .ifExpr(let next)?: return check(next, bound: bound, depth: depth + 1)
    case .codeBlock(let block)?: return block.statements.count == 1 && check(block.statements, bound: bound, depth: depth + 1)
    case nil: return false
    }
  }

  private func check(_ statements: CodeBlockItemListSyntax, bound: Set<String>, depth: Int) -> Bool {
    statements.allSatisfy { item in
      switch item.item {
      case .expr(let expr): return check(expr, bound: bound, depth: depth + 1)
      case .stmt(let stmt):
        if let returned = stmt.as(ReturnStmtSyntax.self) {
          return returned.expression.map { check($0, bound: bound, depth: depth + 1) } ?? true
        }
        if let expression = stmt.as(ExpressionStmtSyntax.self) { return check(expression.expression, bound: bound, depth: depth + 1) }
        return false
      case .decl: return false
      }
    }
  }
}

extension ExprSyntax {
  /// The expression inside any number of plain parentheses: `x` of `((x))` (a one-element
  /// tuple without a label is its element, as Swift reads it).
  var withoutParentheses: ExprSyntax {
    var inner = self
    while let tuple = inner.as(TupleExprSyntax.self), tuple.elements.count == 1, let only = tuple.elements.first, only.label == nil {
      inner = only.expression
    }
    return inner
  }
}
