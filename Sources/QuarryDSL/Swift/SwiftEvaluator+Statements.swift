import SwiftSyntax

/// Statements: `let`/`var`, assignment, `if`, `guard`, `switch`, `for`, `while`,
/// `repeat`, `do`, `return`, `break`, `continue`.
extension SwiftEvaluator {
  enum Flow {
    case next
    case returned(SwiftValue)
    /// `break`, or `break outer` (the label).
    case broke(String?)
    /// `continue`, or `continue outer`.
    case continued(String?)
    /// `fallthrough`: the next case of the `switch` runs.
    case fellThrough
  }

  /// What a loop labelled `label` (or none) does with the flow of one round of its body:
  /// nil to go on to the next round, else the flow the loop ends with.
  static func loopEnd(_ flow: Flow, label: String?) -> Flow? {
    switch flow {
    case .next: return nil
    case .continued(let target) where target == nil || target == label: return nil
    case .broke(let target) where target == nil || target == label: return .next
    default: return flow
    }
  }

  func execute(_ items: CodeBlockItemListSyntax) throws -> Flow {
    for item in items {
      let flow = try execute(item)
      if case .next = flow { continue }
      return flow
    }
    return .next
  }

  func execute(_ item: CodeBlockItemSyntax) throws -> Flow {
    try budget.charge()
    switch item.item {
    case .decl(let decl):
      try declare(decl)
      return .next
    case .expr(let expr): return try executeExpression(expr)
    case .stmt(let stmt): return try execute(stmt)
    }
  }

  /// Runs a block in its own scope.
  func executeBlock(_ items: CodeBlockItemListSyntax, _ names: [String: Variable] = [:]) throws -> Flow {
    try scoped(names) { try execute(items) }
  }

  private func declare(_ decl: DeclSyntax) throws {
    if let variable = decl.as(VariableDeclSyntax.self) {
      let mutable = variable.bindingSpecifier.tokenKind == .keyword(.var)
      if !mutable, variable.bindings.count == 1, let binding = variable.bindings.first,
        let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
        let closure = binding.initializer?.value.as(ClosureExprSyntax.self)
      {
        // `let next = { (x: Int) -> Int in x + 1 }`: called by name, seeing the names around it.
        scopes.last?.closures[name] = closure
        return
      }
      for binding in variable.bindings {
        if binding.accessorBlock != nil { throw unsupported(binding, "a computed variable") }
        let type = binding.typeAnnotation.map { SwiftEvaluator.swiftType($0.type) }
        var value: SwiftValue
        if let initializer = binding.initializer {
          value = try coerce(evaluate(initializer.value, expected: type), to: type, at: initializer.value)
        } else {
          // `let x: Int` assigned later: Swift checks it is set before use; Quarry starts it as
          // nil, so a use before the assignment is refused where a value is needed.
          value = .none
        }
        try bind(binding.pattern, value, mutable: mutable, type: type)
      }
      return
    }
    if let function = decl.as(FunctionDeclSyntax.self) {
      // A nested function: callable from here on, seeing the names around it.
      scopes.last?.functions[function.name.text] = function
      return
    }
    if let conditional = decl.as(IfConfigDeclSyntax.self) {
      guard let clause = AppBuildConfiguration.activeClause(of: conditional) else { return }
      guard case .statements(let statements)? = clause.elements else { throw unsupported(conditional) }
      if case .next = try execute(statements) { return }
      throw unsupported(conditional, "a 'return' inside '#if'")
    }
    throw unsupported(decl, kindName(decl))
  }

  /// Binds a pattern (`x`, `(a, b)`, `_`) to a value in the current scope.
  func bind(_ pattern: PatternSyntax, _ value: SwiftValue, mutable: Bool, type: SwiftType? = nil) throws {
    if let identifier = pattern.as(IdentifierPatternSyntax.self) {
      declare(identifier.identifier.text, value, mutable: mutable, type: type)
    } else if pattern.is(WildcardPatternSyntax.self) {
      return
    } else if let tuple = pattern.as(TuplePatternSyntax.self) {
      guard case .tuple(let parts, _) = value, parts.count == tuple.elements.count else {
        throw failure("cannot take \(value.typeName) apart as a tuple of \(tuple.elements.count)", at: pattern)
      }
      for (element, part) in zip(tuple.elements, parts) { try bind(element.pattern, part, mutable: mutable) }
    } else if let binding = pattern.as(ValueBindingPatternSyntax.self) {
      try bind(binding.pattern, value, mutable: binding.bindingSpecifier.tokenKind == .keyword(.var), type: type)
    } else {
      throw unsupported(pattern, "this pattern")
    }
  }

  func execute(_ stmt: StmtSyntax, label: String? = nil) throws -> Flow {
    if let returned = stmt.as(ReturnStmtSyntax.self) {
      guard let expr = returned.expression else { return .returned(.none) }
      return .returned(try coerce(evaluate(expr, expected: returnType), to: returnType, at: expr))
    }
    if let continued = stmt.as(ContinueStmtSyntax.self) { return .continued(continued.label?.text) }
    if let broke = stmt.as(BreakStmtSyntax.self) { return .broke(broke.label?.text) }
    if stmt.is(FallThroughStmtSyntax.self) { return .fellThrough }
    if let labeled = stmt.as(LabeledStmtSyntax.self) {
      // `outer: for …`: a `break outer` or `continue outer` inside reaches this statement.
      let flow = try execute(labeled.statement, label: labeled.label.text)
      if case .broke(labeled.label.text) = flow { return .next }
      return flow
    }
    if let deferred = stmt.as(DeferStmtSyntax.self) {
      // Runs when the block it is in ends, after a `return` has computed its value.
      scopes.last?.deferred.append(deferred.body)
      return .next
    }
    if let expression = stmt.as(ExpressionStmtSyntax.self) {
      if let switchExpr = expression.expression.as(SwitchExprSyntax.self) { return try executeSwitch(switchExpr, label: label) }
      return try executeExpression(expression.expression)
    }
    if let guardStmt = stmt.as(GuardStmtSyntax.self) {
      let scope = Scope()
      if try conditionsHold(guardStmt.conditions, into: scope) {
        for (name, variable) in scope.names { scopes.last?.names[name] = variable }
        return .next
      }
      let flow = try executeBlock(guardStmt.body.statements)
      if case .next = flow { throw failure("a 'guard … else' must leave the function or the loop", at: guardStmt.body) }
      return flow
    }
    if let loop = stmt.as(ForStmtSyntax.self) { return try executeFor(loop, label: label) }
    if let loop = stmt.as(WhileStmtSyntax.self) {
      while true {
        try budget.charge()
        let scope = Scope()
        guard try conditionsHold(loop.conditions, into: scope) else { return .next }
        if let end = Self.loopEnd(try executeBlock(loop.body.statements, scope.names), label: label) { return end }
      }
    }
    if let loop = stmt.as(RepeatStmtSyntax.self) {
      while true {
        try budget.charge()
        if let end = Self.loopEnd(try executeBlock(loop.body.statements), label: label) { return end }
        guard try truth(evaluate(loop.condition, expected: .bool), at: loop.condition) else { return .next }
      }
    }
    if let doStmt = stmt.as(DoStmtSyntax.self) {
      // Nothing the subset runs throws a Swift error: the body runs, the catches never do.
      return try executeBlock(doStmt.body.statements)
    }
    throw unsupported(stmt, kindName(stmt))
  }

  private func executeFor(_ loop: ForStmtSyntax, label: String? = nil) throws -> Flow {
    if loop.tryKeyword != nil || loop.awaitKeyword != nil { throw unsupported(loop, "an async loop") }
    let sequence = try evaluate(loop.sequence)
    func body(_ element: SwiftValue) throws -> Flow? {
      try budget.charge()
      return try scoped {
        try bind(loop.pattern, element, mutable: false)
        if let condition = loop.whereClause?.condition, try !truth(evaluate(condition, expected: .bool), at: condition) {
          return nil
        }
        return Self.loopEnd(try execute(loop.body.statements), label: label)
      }
    }
    switch sequence {
    case .range(let lower, let upper, let closed):
      // Counted without building the range: `0...Int.max` runs until the budget stops it.
      var current = lower
      while closed ? current <= upper : current < upper {
        if let flow = try body(.int(current)) { return flow }
        if current == upper { break }
        current += 1
      }
      return .next
    case .array(let elements):
      for element in elements { if let flow = try body(element) { return flow } }
      return .next
    case .string(let text):
      for character in text { if let flow = try body(.string(String(character))) { return flow } }
      return .next
    case .dictionary, .unordered:
      throw failure(
        "loops over a \(sequence.typeName), whose order Swift does not fix; sort it first (`.sorted()`, `.sorted { $0.key < $1.key }`)",
        at: loop.sequence)
    default:
      guard let elements = sequence.orderedElements(limit: 0) else {
        throw failure("cannot loop over \(sequence.typeName)", at: loop.sequence)
      }
      for element in elements { if let flow = try body(element) { return flow } }
      return .next
    }
  }

  /// An expression used as a statement: an assignment, an `if`/`switch`, a mutating call.
  func executeExpression(_ expr: ExprSyntax) throws -> Flow {
    if let conditional = expr.as(IfExprSyntax.self) { return try executeIf(conditional) }
    if let switchExpr = expr.as(SwitchExprSyntax.self) { return try executeSwitch(switchExpr) }
    if let infix = expr.as(InfixOperatorExprSyntax.self), let op = Self.assignmentOperator(infix.operator) {
      try executeAssignment(infix, op: op)
      return .next
    }
    if let call = expr.as(FunctionCallExprSyntax.self), try executeMutatingCall(call) { return .next }
    _ = try evaluate(expr)
    return .next
  }

  static func assignmentOperator(_ op: ExprSyntax) -> String? {
    if op.is(AssignmentExprSyntax.self) { return "=" }
    guard let text = op.as(BinaryOperatorExprSyntax.self)?.operator.text,
      ["+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=", "&+=", "&-=", "&*="].contains(text)
    else { return nil }
    return text
  }

  /// `x = v`, `x += v`, `a[i] = v`, `d[k] = v`, `d[k, default: 0] += 1`.
  private func executeAssignment(_ infix: InfixOperatorExprSyntax, op: String) throws {
    let target = infix.leftOperand
    func newValue(_ current: SwiftValue?) throws -> SwiftValue {
      let type = current.flatMap(Self.type(of:))
      let right = try evaluate(infix.rightOperand, expected: type)
      guard op != "=", let current else { return right }
      return try binary(String(op.dropLast()), current, right, at: infix.operator)
    }
    if let reference = target.as(DeclReferenceExprSyntax.self) {
      let name = reference.baseName.text
      if lookup(name) == nil, let receiver = lookup("self"), receiver.mutable,
        case .structure(let type, let names, var values, let encodable) = receiver.value, let index = names.firstIndex(of: name)
      {
        // `title = raw` inside an `init`: `self.title`.
        values[index] = try newValue(values[index])
        try assign("self", .structure(type: type, names: names, values: values, encodable: encodable), at: target)
        return
      }
      guard let variable = lookup(name) else { throw failure("assigns to '\(name)', which is not a variable here", at: target) }
      try assign(name, try newValue(op == "=" ? nil : variable.value), at: target)
      return
    }
    if let tuple = target.as(TupleExprSyntax.self), tuple.elements.count > 1, op == "=" {
      // `(a, b) = (b, a + b)`: the right side is computed whole, then each name set.
      guard case .tuple(let parts, _) = try evaluate(infix.rightOperand), parts.count == tuple.elements.count else {
        throw failure("assigns a value that is not a tuple of \(tuple.elements.count)", at: infix.rightOperand)
      }
      for (element, part) in zip(tuple.elements, parts) {
        if element.expression.is(DiscardAssignmentExprSyntax.self) { continue }
        guard let name = element.expression.as(DeclReferenceExprSyntax.self)?.baseName.text else {
          throw unsupported(element.expression, "an assignment to something other than a local variable")
        }
        try assign(name, part, at: element.expression)
      }
      return
    }
    if let access = target.as(MemberAccessExprSyntax.self), try assignProperty(access, newValue) { return }
    if target.is(DiscardAssignmentExprSyntax.self), op == "=" {
      _ = try evaluate(infix.rightOperand)
      return
    }
    if let subscriptCall = target.as(SubscriptCallExprSyntax.self),
      let reference = subscriptCall.calledExpression.as(DeclReferenceExprSyntax.self), lookup(reference.baseName.text) != nil
    {
      if try writeArrayElement(reference.baseName.text, subscriptCall, at: target, newValue) { return }
      guard let variable = lookup(reference.baseName.text) else { return }
      let updated = try assignSubscript(of: variable.value, subscriptCall, at: target, newValue)
      // A dictionary's write makes a copy here: charged as the copy it makes (as an `append` is).
      try budget.allocate(updated.size)
      try assign(reference.baseName.text, updated, at: target)
      return
    }
    if try assignThroughPath(target, newValue) { return }
    throw unsupported(target, "an assignment to something other than a local variable")
  }

  /// `a[i] = x`, `a[i] += 1` on a local array: the element written in place, as Swift writes it
  /// (one step, not a copy of the array), after the new value is computed with the array as it
  /// was. False when the variable holds no array.
  private func writeArrayElement(
    _ name: String, _ subscriptCall: SubscriptCallExprSyntax, at target: ExprSyntax, _ newValue: (SwiftValue?) throws -> SwiftValue
  ) throws -> Bool {
    guard subscriptCall.arguments.count == 1, let first = subscriptCall.arguments.first, first.label == nil else { return false }
    let position: Int
    let value: SwiftValue
    let elementType: SwiftType?
    do {
      guard let variable = lookup(name), case .array(let elements) = variable.value else { return false }
      guard case .int(let index) = try evaluate(first.expression, expected: .int) else { throw unsupported(subscriptCall) }
      guard index >= 0, index < elements.count else {
        throw crash("writes index \(index) of an array of \(elements.count)", at: first.expression)
      }
      guard variable.mutable else { throw failure("cannot assign through subscript: '\(name)' is a 'let' constant", at: target) }
      position = Int(index)
      value = try newValue(elements[position])
      let declared = (variable.type ?? Self.type(of: variable.value))?.name ?? ""
      if declared.hasPrefix("["), declared.hasSuffix("]"), !declared.contains(":") {
        let inner = String(declared.dropFirst().dropLast())
        elementType = inner.hasSuffix("?") ? SwiftType(String(inner.dropLast()), optional: true) : SwiftType(inner)
      } else {
        elementType = nil
      }
    }
    let stored = try coerce(value, to: elementType, at: target)
    try budget.charge()
    for scope in scopes.reversed() where scope.names[name] != nil {
      // The array leaves the variable while it is written, so its storage is not shared.
      guard case .array(var elements)? = scope.names[name]?.value else { return false }
      scope.names[name]?.value = .none
      elements[position] = stored
      scope.names[name]?.value = .array(elements)
      return true
    }
    return false
  }

  /// `list.append(x)`, `set.insert(x)`, `flag.toggle()` on a local variable, or on a value
  /// reached from one (`item.done.toggle()`, `lists[0].items.append(x)`); `a.sort(by:)` and
  /// `a.removeAll(where:)`, which take a function.
  private func executeMutatingCall(_ call: FunctionCallExprSyntax) throws -> Bool {
    guard let member = call.calledExpression.as(MemberAccessExprSyntax.self), let base = member.base else { return false }
    let name = member.declName.baseName.text
    let labels = CallLabels(call)
    let isPath = base.is(MemberAccessExprSyntax.self) || base.is(SubscriptCallExprSyntax.self)
    guard let root = SwiftComputation.rootName(of: base), lookup(root) != nil, base.is(DeclReferenceExprSyntax.self) || isPath else {
      return false
    }
    let current = try evaluate(base)
    let updated: SwiftValue
    if let (mutate, _) = SwiftBuiltins.mutating(on: current, name: name, labels: labels) {
      let arguments = try call.arguments.map { try evaluate($0.expression) }
      updated = try mutate(self, current, arguments, call)
    } else if let changed = try mutationTakingFunction(name, of: current, call: call) {
      updated = changed
    } else {
      return false
    }
    try budget.allocate(updated.size)
    if let reference = base.as(DeclReferenceExprSyntax.self) {
      try assign(reference.baseName.text, updated, at: call)
    } else if try !assignThroughPath(base, { _ in updated }) {
      throw unsupported(base, "a change through this kind of path")
    }
    return true
  }

  /// `a.sort(by: >)`, `a.sort { $0.count < $1.count }`: `sorted(by:)`'s result;
  /// `a.removeAll { $0.done }`, `a.removeAll(where:)`: the elements it keeps. Nil for any other.
  private func mutationTakingFunction(_ name: String, of current: SwiftValue, call: FunctionCallExprSyntax) throws -> SwiftValue? {
    guard case .array = current else { return nil }
    var arguments = call.arguments.map(\.expression)
    if let trailing = call.trailingClosure { arguments.append(ExprSyntax(trailing)) }
    let labels = CallLabels(call)
    guard arguments.count == 1, let label = labels.first?.label ?? (call.trailingClosure != nil ? "" : nil) else { return nil }
    switch (name, label) {
    case ("sort", "by"), ("sort", ""):
      return try memberCall(
        "sorted", on: current, arguments: arguments, labels: labels, call: call, nameNode: Syntax(call.calledExpression))
    case ("removeAll", "where"), ("removeAll", ""):
      let builtin = BuiltinCall(evaluator: self, name: name, base: current, arguments: arguments, parameters: [], node: Syntax(call))
      let removes = try builtin.function(0)
      guard let elements = current.orderedElements(limit: Int.max) else { return nil }
      return .array(try elements.filter { try !truth(removes([$0]), at: call) })
    default:
      return nil
    }
  }

  func executeIf(_ conditional: IfExprSyntax) throws -> Flow {
    let scope = Scope()
    if try conditionsHold(conditional.conditions, into: scope) {
      return try executeBlock(conditional.body.statements, scope.names)
    }
    switch conditional.elseBody {
    case .ifExpr(let next)?: return try executeIf(next)
    case .codeBlock(let block)?: return try executeBlock(block.statements)
    case nil: return .next
    }
  }

  private func executeSwitch(_ switchExpr: SwitchExprSyntax, label: String? = nil) throws -> Flow {
    guard let (statements, names, index) = try matchingCase(switchExpr) else { return .next }
    var flow = try executeBlock(statements, names)
    // `fallthrough`: the next case's body runs, its patterns unchecked.
    let cases = switchExpr.cases.activeCases
    var next = index + 1
    while case .fellThrough = flow, next < cases.count {
      flow = try executeBlock(cases[next].statements)
      next += 1
    }
    switch flow {
    case .broke(let target) where target == nil || target == label: return .next
    case .fellThrough: return .next
    default: return flow
    }
  }

  /// `if a, let b = c, case .x = d`: every condition, binding into `scope`.
  func conditionsHold(_ conditions: ConditionElementListSyntax, into scope: Scope) throws -> Bool {
    for element in conditions {
      let holds: Bool = try scoped(scope.names) {
        switch element.condition {
        case .expression(let expr):
          return try truth(evaluate(expr, expected: .bool), at: expr)
        case .optionalBinding(let binding):
          guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else {
            throw unsupported(binding.pattern, "this pattern")
          }
          let value: SwiftValue
          if let initializer = binding.initializer {
            value = try evaluate(initializer.value)
          } else if let variable = lookup(name) {
            value = variable.value
          } else {
            throw failure("'if let \(name)' needs '\(name)' to be a value in scope", at: binding)
          }
          guard let unwrapped = Self.unwrapOnce(value) else { return false }
          let type = binding.typeAnnotation.map { Self.swiftType($0.type) }
          scope.names[name] = Variable(
            value: try coerce(unwrapped, to: type, at: binding), mutable: binding.bindingSpecifier.tokenKind == .keyword(.var), type: type)
          return true
        case .matchingPattern(let matching):
          let subject = try evaluate(matching.initializer.value)
          var names: [String: Variable] = [:]
          guard try matches(matching.pattern, subject, binding: &names) else { return false }
          for (name, variable) in names { scope.names[name] = variable }
          return true
        default:
          throw unsupported(element, "an availability condition")
        }
      }
      if !holds { return false }
    }
    return true
  }

  /// One level of optional removed (nil for `nil`); a non-optional value as it is.
  static func unwrapOnce(_ value: SwiftValue) -> SwiftValue? {
    switch value {
    case .none: return nil
    case .some(let inner): return inner
    default: return value
    }
  }
}
