import SwiftSyntax

/// Expressions: literals, names, members, calls, subscripts, closures, `if`/`switch`
/// expressions, ternaries, optional chains, `try`, tuples and collections.
extension SwiftEvaluator {
  /// The value of `expr`; `expected` is the type its context gives literals (`let x: Double = 1`).
  func evaluate(_ expr: ExprSyntax, expected: SwiftType? = nil) throws -> SwiftValue {
    // The outermost expression settles the open `??`s inside it (`OpenDefault`).
    if openDefaultPicks == nil { return try settlingOpenDefaults { try evaluate(expr, expected: expected) } }
    try budget.charge()
    depth += 1
    defer { depth -= 1 }
    guard depth <= Self.maximumDepth else { throw failure("nests more than \(Self.maximumDepth) levels deep; split it up", at: expr) }
    if Self.endsOptionalChain(expr) {
      do {
        let value = try evaluateNode(expr, expected: expected?.wrapped)
        return value.isOptional ? value : .some(value)
      } catch is OptionalChainEnded {
        return .none
      }
    }
    return try evaluateNode(expr, expected: expected)
  }

  private func evaluateNode(_ expr: ExprSyntax, expected: SwiftType?) throws -> SwiftValue {
    switch expr.as(ExprSyntaxEnum.self) {
    case .integerLiteralExpr, .floatLiteralExpr, .arrayExpr, .dictionaryExpr:
      // Out of line: this function's frame is on the stack once per level of nesting.
      return try literalValue(expr, expected: expected)
    case .booleanLiteralExpr(let literal):
      return .bool(literal.literal.tokenKind == .keyword(.true))
    case .nilLiteralExpr:
      return .none
    case .stringLiteralExpr(let literal):
      return try string(literal)
    case .tupleExpr(let tuple):
      if tuple.elements.count == 1, let only = tuple.elements.first, only.label == nil {
        return try evaluate(only.expression, expected: expected)
      }
      return .tuple(try tuple.elements.map { try evaluate($0.expression) }, labels: tuple.elements.map { $0.label?.text })
    case .declReferenceExpr(let reference):
      let name = reference.baseName.text
      if let variable = lookup(name) { return variable.value }
      // Inside an extension member, a bare member name is `self`'s.
      if let receiver = lookup("self")?.value, let type = Self.extensionType(of: receiver),
        storedProperty(name, of: receiver) != nil || extensionMember(name, isStatic: false, of: type) != nil
          || SwiftBuiltins.member(of: receiver, name: name, labels: nil) != nil
          || (name == "rawValue" && { if case .enumCase = receiver { true } else { false } }())
      {
        return try property(name, of: receiver, at: reference)
      }
      throw failure("uses '\(name)', which is not a parameter or a local value here", at: expr)
    case .memberAccessExpr(let member):
      return try memberValue(member, expected: expected)
    case .functionCallExpr(let call):
      return try self.call(call, expected: expected)
    case .subscriptCallExpr(let subscriptCall):
      return try subscriptValue(subscriptCall)
    case .prefixOperatorExpr(let prefix):
      return try prefixOperation(prefix, expected: expected)
    case .postfixOperatorExpr(let postfix):
      throw unsupported(postfix, "a partial range outside a 'case' pattern")
    case .infixOperatorExpr(let infix):
      return try infixOperation(infix, expected: expected)
    case .ternaryExpr(let ternary):
      let taken = try truth(evaluate(ternary.condition, expected: .bool), at: ternary.condition)
      let value = try evaluate(taken ? ternary.thenExpression : ternary.elseExpression, expected: expected)
      // `c ? 215 : nil` is an `Int?`: the branch taken is wrapped as the other's type makes it.
      let other = taken ? ternary.elseExpression : ternary.thenExpression
      // `c ? 0 : 2.5` is a Double: an integer literal branch takes the other's floating type.
      if case .int = value, Self.isLiteralOnly(taken ? ternary.thenExpression : ternary.elseExpression), Self.isFloatLiteral(other) {
        return try evaluate(taken ? ternary.thenExpression : ternary.elseExpression, expected: .double)
      }
      // `c ? 5 : UInt8(3)`: the literal is of the other branch's fixed-width type.
      if case .int = value, Self.isLiteralOnly(taken ? ternary.thenExpression : ternary.elseExpression),
        let width = staticType(of: other).flatMap({ IntegerWidth(named: $0.wrapped.name) })
      {
        let narrowed = try coerce(value, to: SwiftType(width.name), at: taken ? ternary.thenExpression : ternary.elseExpression)
        return Self.isOptionalTyped(other) ? .some(narrowed) : narrowed
      }
      return !value.isOptional && Self.isOptionalTyped(other) ? .some(value) : value
    case .forceUnwrapExpr(let unwrap):
      let value = try evaluate(unwrap.expression)
      guard let inner = Self.unwrapOnce(value) else { throw crash("unwraps nil with '!'", at: unwrap) }
      return inner
    case .optionalChainingExpr(let chaining):
      let value = try evaluate(chaining.expression)
      guard let inner = Self.unwrapOnce(value) else { throw OptionalChainEnded() }
      return inner
    case .tryExpr(let tryExpr):
      let value = try evaluate(tryExpr.expression, expected: expected)
      if tryExpr.questionOrExclamationMark?.tokenKind == .postfixQuestionMark, !value.isOptional { return .some(value) }
      return value
    case .ifExpr(let conditional):
      return try ifValue(conditional, expected: expected)
    case .switchExpr(let switchExpr):
      guard let (statements, names, _) = try matchingCase(switchExpr) else {
        throw crash("matches no case of this 'switch'", at: switchExpr.subject)
      }
      return try scoped(names) { try branchValue(statements, expected: expected, at: switchExpr) }
    case .asExpr(let cast):
      guard cast.questionOrExclamationMark == nil else { throw unsupported(cast, "a dynamic cast") }
      let type = Self.swiftType(cast.type)
      return try coerce(evaluate(cast.expression, expected: type), to: type, at: cast)
    case .closureExpr(let closure):
      throw unsupported(closure, "a closure kept as a value; pass it to 'map', 'filter', … directly")
    default:
      throw unsupported(expr, kindName(expr))
    }
  }

  /// A number, array or dictionary literal, its type from `expected` or from its other elements
  /// (`[x, 100]` of a UInt8 `x` is a `[UInt8]`).
  @inline(never)
  private func literalValue(_ expr: ExprSyntax, expected: SwiftType?) throws -> SwiftValue {
    switch expr.as(ExprSyntaxEnum.self) {
    case .integerLiteralExpr(let literal):
      let value = try integer(literal, negated: false)
      if let width = expected.flatMap({ IntegerWidth(named: $0.wrapped.name) }) {
        return try width.literal(value, evaluator: self, at: literal)
      }
      if expected?.wrapped.name == "Float" { return .float(Float(value)) }
      return expected?.wrapped.isReal == true ? .double(Double(value)) : .int(value)
    case .floatLiteralExpr(let literal):
      if expected?.wrapped.name == "Float" {
        // The literal's own digits rounded once to 24 bits, as swiftc converts it.
        guard let number = Float(String(literal.literal.text.filter { $0 != "_" })) else { throw unsupported(literal) }
        return .float(number)
      }
      do { return .double(try SwiftLiterals.float(literal)) } catch { throw unsupported(literal) }
    case .arrayExpr(let array):
      var element = expected.flatMap(Self.elementType)
      var values: [SwiftValue?] = []
      for item in array.elements {
        // A literal waits for the element type the others give it (`[x, 100]` of a UInt8 `x`).
        if element == nil, Self.isLiteralOnly(item.expression) || Self.isFloatLiteral(item.expression) {
          values.append(nil)
          continue
        }
        let value = try coerce(evaluate(item.expression, expected: element), to: element, at: item.expression)
        if element == nil, value.unwrapped.map(Self.isFloatOrFixedWidth) == true { element = Self.type(of: value) }
        values.append(value)
      }
      for (index, item) in array.elements.enumerated() where values[index] == nil {
        values[index] = try coerce(evaluate(item.expression, expected: element), to: element, at: item.expression)
      }
      var elements = values.compactMap { $0 }
      if let width = elements.lazy.compactMap({ if case .fixedWidth(_, let width) = $0.unwrapped { width } else { nil } }).first,
        let other = elements.first(where: { $0.unwrapped?.integer != nil && Self.type(of: $0)?.wrapped.name != width.name })
      {
        throw failure("mixes \(width.name) and \(other.typeName) in one array; convert one of them", at: array)
      }
      // One element type for all: `[nil, 2]` is an `[Int?]`, its 2 an `Optional(2)`.
      if elements.contains(where: \.isOptional) { elements = elements.map { $0.isOptional ? $0 : .some($0) } }
      if elements.contains(where: { if case .double = $0 { true } else { false } }) {
        elements = elements.map { if case .int(let number) = $0 { .double(Double(number)) } else { $0 } }
      }
      try budget.allocate(elements: elements.count)
      return .array(elements)
    case .dictionaryExpr(let dictionary):
      guard case .elements(let elements) = dictionary.content else { return .dictionary([:]) }
      var entries: [SwiftValue: SwiftValue] = [:]
      // Keys and values of one type each: a literal takes a fixed-width type another gives.
      let keyType = elements.lazy.filter { !Self.isLiteralOnly($0.key) }.first.flatMap { staticType(of: $0.key) }
      let valueType = elements.lazy.filter { !Self.isLiteralOnly($0.value) }.first.flatMap { staticType(of: $0.value) }
      let narrow: (SwiftType?) -> SwiftType? = { type in type.flatMap { IntegerWidth(named: $0.name) != nil ? $0 : nil } }
      for element in elements {
        let key = try evaluate(element.key, expected: narrow(keyType))
        guard entries[key] == nil else { throw crash("builds a Dictionary literal with the same key twice", at: element.key) }
        entries[key] = try evaluate(element.value, expected: narrow(valueType))
      }
      return .dictionary(entries)
    default:
      throw unsupported(expr, kindName(expr))
    }
  }

  /// Whether a value is of a type a literal does not default to (`Float`, `UInt8`, …).
  static func isFloatOrFixedWidth(_ value: SwiftValue) -> Bool {
    switch value {
    case .float, .fixedWidth: true
    default: false
    }
  }

  /// `2.5`, `-2.5`, `(2.5)`: a floating-point literal.
  static func isFloatLiteral(_ expr: ExprSyntax) -> Bool {
    if expr.is(FloatLiteralExprSyntax.self) { return true }
    if let prefix = expr.as(PrefixOperatorExprSyntax.self) { return prefix.operator.text == "-" && isFloatLiteral(prefix.expression) }
    if let tuple = expr.as(TupleExprSyntax.self), tuple.elements.count == 1, let only = tuple.elements.first {
      return isFloatLiteral(only.expression)
    }
    return false
  }

  /// Whether an expression is an optional by its form alone (`nil`, `Optional(x)`, `T?.none`).
  static func isOptionalTyped(_ expr: ExprSyntax) -> Bool {
    var inner = expr
    while let tuple = inner.as(TupleExprSyntax.self), tuple.elements.count == 1, let only = tuple.elements.first { inner = only.expression }
    if inner.is(NilLiteralExprSyntax.self) { return true }
    if let call = inner.as(FunctionCallExprSyntax.self), call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text == "Optional"
    {
      return true
    }
    return false
  }

  /// An integer literal, or a Swift compile error for one that does not fit.
  func integer(_ literal: IntegerLiteralExprSyntax, negated: Bool) throws -> Int64 {
    do {
      return try SwiftLiterals.integer(literal, negated: negated)
    } catch .overflow(let message) {
      throw failure(message, at: literal)
    } catch {
      throw unsupported(literal)
    }
  }

  /// A string literal, interpolations included (`"\(n) items"`).
  func string(_ literal: StringLiteralExprSyntax) throws -> SwiftValue {
    var text = ""
    for segment in literal.segments {
      switch segment {
      case .stringSegment(let part):
        do { text += try SwiftLiterals.text(of: part, in: literal) } catch { throw unsupported(part) }
      case .expressionSegment(let interpolation):
        guard interpolation.expressions.count == 1, let only = interpolation.expressions.first, only.label == nil else {
          throw unsupported(interpolation, "an interpolation with arguments")
        }
        let value = try evaluate(only.expression)
        text += try describe(value, interpolated: true, at: only.expression)
      }
      try budget.allocate(text.utf8.count)
    }
    return .string(text)
  }

  /// What `"\(value)"` prints, or why Swift would print something Quarry cannot know.
  func describe(_ value: SwiftValue, interpolated: Bool = false, at node: some SyntaxProtocol) throws -> String {
    do {
      return try value.describe(interpolated: interpolated)
    } catch let problem as SwiftValueProblem {
      throw failure(problem.message, at: node)
    }
  }

  /// `if` as an expression: each branch is one expression.
  private func ifValue(_ conditional: IfExprSyntax, expected: SwiftType?) throws -> SwiftValue {
    let scope = Scope()
    if try conditionsHold(conditional.conditions, into: scope) {
      return try scoped(scope.names) { try branchValue(conditional.body.statements, expected: expected, at: conditional) }
    }
    switch conditional.elseBody {
    case .ifExpr(let next)?: return try ifValue(next, expected: expected)
    case .codeBlock(let block)?: return try branchValue(block.statements, expected: expected, at: block)
    case nil: throw failure("an 'if' used as a value needs an 'else'", at: conditional)
    }
  }

  /// The value of an `if`/`switch` expression's branch: its one expression.
  private func branchValue(_ items: CodeBlockItemListSyntax, expected: SwiftType?, at node: some SyntaxProtocol) throws -> SwiftValue {
    guard items.count == 1, let only = items.first else {
      throw failure("a branch of an 'if' or 'switch' used as a value must be one expression", at: node)
    }
    switch only.item {
    case .expr(let expr): return try evaluate(expr, expected: expected)
    case .stmt(let stmt):
      if let expression = stmt.as(ExpressionStmtSyntax.self) { return try evaluate(expression.expression, expected: expected) }
      throw unsupported(stmt, "a statement as a branch's value")
    case .decl(let decl): throw unsupported(decl)
    }
  }

  /// Whether `expr` is the last link of an optional chain (`a?.b.c`, but not `a?.b` inside it).
  static func endsOptionalChain(_ expr: ExprSyntax) -> Bool {
    guard containsOptionalChaining(expr) else { return false }
    guard let parent = expr.parent else { return true }
    if let member = parent.as(MemberAccessExprSyntax.self), member.base?.id == expr.id { return false }
    if let call = parent.as(FunctionCallExprSyntax.self), call.calledExpression.id == expr.id { return false }
    if let sub = parent.as(SubscriptCallExprSyntax.self), sub.calledExpression.id == expr.id { return false }
    if parent.is(ForceUnwrapExprSyntax.self) || parent.is(OptionalChainingExprSyntax.self) { return false }
    return true
  }

  private static func containsOptionalChaining(_ expr: ExprSyntax) -> Bool {
    var current: ExprSyntax? = expr
    while let node = current {
      if node.is(OptionalChainingExprSyntax.self) { return true }
      if let member = node.as(MemberAccessExprSyntax.self) {
        current = member.base
      } else if let call = node.as(FunctionCallExprSyntax.self) {
        current = call.calledExpression
      } else if let sub = node.as(SubscriptCallExprSyntax.self) {
        current = sub.calledExpression
      } else if let unwrap = node.as(ForceUnwrapExprSyntax.self) {
        current = unwrap.expression
      } else {
        return false
      }
    }
    return false
  }

  // MARK: Truth and types

  func truth(_ value: SwiftValue, at node: some SyntaxProtocol) throws -> Bool {
    guard case .bool(let flag) = value else { throw failure("needs a Bool here, not \(value.typeName)", at: node) }
    return flag
  }

  /// The element type of `[T]` (for the literals of an array literal).
  static func elementType(_ type: SwiftType) -> SwiftType? {
    let name = type.wrapped.name
    guard name.hasPrefix("["), name.hasSuffix("]"), !name.contains(":") else { return nil }
    return parse(String(name.dropFirst().dropLast()))
  }

  static func parse(_ text: String) -> SwiftType {
    text.hasSuffix("?") ? SwiftType(String(text.dropLast())).optional : SwiftType(text)
  }

  /// A written type (`Int?`, `[String]`, `Optional<Double>`).
  static func swiftType(_ type: TypeSyntax) -> SwiftType {
    if let optional = type.as(OptionalTypeSyntax.self) { return swiftType(optional.wrappedType).optional }
    if let implicit = type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) { return swiftType(implicit.wrappedType).optional }
    if let identifier = type.as(IdentifierTypeSyntax.self), identifier.name.text == "Optional",
      let argument = identifier.genericArgumentClause?.arguments.first?.argument.as(TypeSyntax.self)
    {
      return swiftType(argument).optional
    }
    return SwiftType(type.trimmedDescription)
  }
}
