import SwiftSyntax

/// Members, calls, subscripts and closures, dispatched through ``SwiftBuiltins``.
extension SwiftEvaluator {
  static let standardTypes: Set<String> = [
    "Int", "Double", "String", "Bool", "Array", "Set", "Dictionary", "Character", "Float", "CGFloat", "Date", "TimeInterval",
    "Int64", "Int32", "Int16", "Int8", "UInt8", "UInt16", "UInt32",
  ]

  /// The enum a type expression names (`Priority`, `Reminder.Priority`), if the input declares it.
  func enumModel(named expr: ExprSyntax) -> EnumModel? {
    if let reference = expr.as(DeclReferenceExprSyntax.self), lookup(reference.baseName.text) != nil { return nil }
    // `Kind` inside `extension Font`: the type's own nested enum first.
    if let reference = expr.as(DeclReferenceExprSyntax.self),
      let model = EnumModel.nested(reference.baseName.text, inScopes: enclosingTypeNames + (selfTypeName.map { [$0] } ?? []), of: enums)
    {
      return model
    }
    // `Library.Book.Kind`: the longest qualified name the input declares it under (`Book.Kind`),
    // never another type's `Kind`.
    var parts = expr.trimmedDescription.split(separator: ".").map(String.init)
    while !parts.isEmpty {
      if let model = enums[parts.joined(separator: ".")] { return model }
      parts.removeFirst()
      // A bare last name stands for the enum only when no other type nests one so named.
      if parts.count == 1, enums.keys.contains(where: { $0.hasSuffix("." + parts[0]) && enums[$0]?.name != enums[parts[0]]?.name }) {
        return nil
      }
    }
    return nil
  }

  /// A standard type named as a value's base (`Int.max`, `Double.pi`), if `expr` is one.
  func standardType(named expr: ExprSyntax) -> String? {
    guard let reference = expr.as(DeclReferenceExprSyntax.self), lookup(reference.baseName.text) == nil else { return nil }
    let name = reference.baseName.text
    return Self.standardTypes.contains(name) ? (["CGFloat", "TimeInterval"].contains(name) ? "Double" : name) : nil
  }

  /// Swift's `Float` rounds every value to 24 bits and prints the shortest digits that round
  /// back to it; Quarry computes Double's (64-bit) values, so a Float is refused, never given
  /// Double's value (`Double(Float(0.1))` is 0.10000000149011612).
  func floatRefusal(at node: some SyntaxProtocol) -> SwiftEvaluationError {
    failure(
      "uses Float, whose values Swift rounds to 24 bits; Quarry computes only Double's (Double(Float(0.1)) is 0.10000000149011612, not 0.1): write Double, or have the app compute it, \(Self.outsideSubset)",
      at: node)
  }

  func enumCase(_ model: EnumModel, _ name: String, at node: some SyntaxProtocol) throws -> SwiftValue {
    guard let match = model.cases.first(where: { $0.name == name }) else {
      throw failure("'\(model.name)' has no case '\(name)'", at: node)
    }
    let raw = SwiftValue(match.value, as: model.rawType)
    return .enumCase(type: model.name, name: name, raw: raw)
  }

  func memberValue(_ member: MemberAccessExprSyntax, expected: SwiftType?) throws -> SwiftValue {
    let name = member.declName.baseName.text
    guard let baseExpr = member.base else {
      // `.high` takes its type from the context.
      if let type = expected?.wrapped, let model = enums[type.name] { return try enumCase(model, name, at: member) }
      if let type = expected?.wrapped, let entry = SwiftBuiltins.global(type.name, name, labels: nil), entry.isStatic {
        var call = BuiltinCall(evaluator: self, name: name, base: .none, arguments: [], parameters: [], node: Syntax(member))
        return try entry.handler(&call)
      }
      if let declared = extensionMember(name, isStatic: true, of: expected?.wrapped.name) {
        return try runExtension(declared, on: nil, at: member)
      }
      throw failure("uses '.\(name)', whose type Quarry cannot tell here; write the type's name (Type.\(name))", at: member)
    }
    if let model = enumModel(named: baseExpr) {
      if name == "allCases", model.isCaseIterable, model.value(of: name) == nil {
        return .array(try model.cases.map { try enumCase(model, $0.name, at: member.declName) })
      }
      if model.value(of: name) == nil, let declared = extensionMember(name, isStatic: true, of: model.name) {
        return try runExtension(declared, on: nil, at: member)
      }
      return try enumCase(model, name, at: member.declName)
    }
    if let model = valueType(named: baseExpr) {
      // `Criteria.standard`: a static member the struct declares.
      // Declared in `extension Mountain.PlannedClimb { … }` for the struct nested in `Mountain`.
      let declared = (extensions[name] ?? []).first { $0.isStatic && ValueTypeModel.sameType($0.typeName, model.name) }
      guard let declared else {
        throw failure(
          "uses '\(model.name).\(name)': '\(model.name)' is a struct of Swift values with no static '\(name)' (add @Table to query it as a table)",
          at: member.declName)
      }
      return try runExtension(declared, on: nil, at: member)
    }
    if name == "none", baseExpr.is(OptionalChainingExprSyntax.self) || baseExpr.trimmedDescription.hasPrefix("Optional") { return .none }
    if let type = standardType(named: baseExpr) {
      if type == "Float" { throw floatRefusal(at: member) }
      if let declared = extensionMember(name, isStatic: true, of: type) { return try runExtension(declared, on: nil, at: member) }
      guard let entry = SwiftBuiltins.global(type, name, labels: nil), entry.isStatic else {
        throw failure("uses '\(type).\(name)', \(Self.outsideSubset)", at: member)
      }
      var call = BuiltinCall(evaluator: self, name: name, base: .none, arguments: [], parameters: [], node: Syntax(member))
      return try entry.handler(&call)
    }
    let base = try receiver(baseExpr, member: name, labels: nil, expected: expected)
    return try property(name, of: base, at: member.declName)
  }

  /// The value of a member's base; integer literals take the type their member needs, as Swift
  /// types them (`8.rounded()`, `(2 * 100).rounded()` and `0.truncatingRemainder(dividingBy:
  /// 0.1)` are Double's).
  func receiver(_ baseExpr: ExprSyntax, member name: String, labels: CallLabels?, expected: SwiftType? = nil) throws -> SwiftValue {
    let base = try evaluate(baseExpr)
    guard case .int(let number) = base, Self.isLiteralOnly(baseExpr),
      SwiftBuiltins.member(of: .double(Double(number)), name: name, labels: labels) != nil
    else { return base }
    // Only Double has the member, or the context wants a Double of it (`let d: Double =
    // 7.magnitude` is 7.0).
    guard SwiftBuiltins.member(of: base, name: name, labels: labels) == nil || expected?.wrapped.isReal == true else { return base }
    return try evaluate(baseExpr, expected: .double)
  }

  /// `value.name` for a property.
  func property(_ name: String, of base: SwiftValue, at node: some SyntaxProtocol) throws -> SwiftValue {
    switch base {
    case .tuple(let parts, let labels):
      if let index = Int(name), parts.indices.contains(index) { return parts[index] }
      if let index = labels.firstIndex(of: name) { return parts[index] }
      throw failure("the tuple has no element '\(name)'", at: node)
    case .enumCase(_, _, let raw) where name == "rawValue":
      guard let raw else { throw failure("this enum has no raw values", at: node) }
      return raw
    case .structure:
      if let stored = storedProperty(name, of: base) { return stored }
    default:
      break
    }
    if let entry = SwiftBuiltins.member(of: base, name: name, labels: nil) {
      if !entry.needsOrder || !Self.isUnordered(base) || entry.receiver != "Sequence" {
        var call = BuiltinCall(evaluator: self, name: name, base: base, arguments: [], parameters: [], node: Syntax(node))
        return try entry.handler(&call)
      }
      throw failure("'\(name)' of a \(base.typeName) depends on an order Swift does not fix; sort it first", at: node)
    }
    if let type = Self.extensionType(of: base), let declared = extensionMember(name, isStatic: false, of: type) {
      return try runExtension(declared, on: base, at: node)
    }
    if base.isOptional {
      throw failure("value of optional type '\(base.typeName)' must be unwrapped to read '\(name)'; use '?.', 'if let' or '??'", at: node)
    }
    throw failure("uses '.\(name)' on \(base.typeName), \(Self.outsideSubset)", at: node)
  }

  static func isUnordered(_ value: SwiftValue) -> Bool {
    switch value {
    case .unordered, .dictionary: return true
    default: return false
    }
  }

  // MARK: Calls

  func call(_ call: FunctionCallExprSyntax, expected: SwiftType?) throws -> SwiftValue {
    var arguments = call.arguments.map(\.expression)
    if let trailing = call.trailingClosure { arguments.append(ExprSyntax(trailing)) }
    arguments += call.additionalTrailingClosures.map { ExprSyntax($0.closure) }
    let labels = CallLabels(call)
    let callee = call.calledExpression
    // `[Int]()`, `[String: Int]()`
    if callee.is(ArrayExprSyntax.self), arguments.isEmpty { return .array([]) }
    if callee.is(DictionaryExprSyntax.self), arguments.isEmpty { return .dictionary([:]) }
    // `Int?(9)`, `String?("a")`: the wrapped type's value, optional.
    if let optional = callee.as(OptionalChainingExprSyntax.self), let reference = optional.expression.as(DeclReferenceExprSyntax.self),
      lookup(reference.baseName.text) == nil, let argument = arguments.first, arguments.count == 1, labels.first?.label == nil
    {
      let wrapped = SwiftType(reference.baseName.text)
      let value = try coerce(evaluate(argument, expected: wrapped), to: wrapped, at: argument)
      return value.isOptional ? value : .some(value)
    }
    if let reference = callee.as(DeclReferenceExprSyntax.self) {
      let name = reference.baseName.text
      if let (closure, depth) = localClosure(name) {
        let types: [SwiftType?]
        if case .parameterClause(let clause)? = closure.signature?.parameterClause {
          types = clause.parameters.map { $0.type.map(Self.swiftType) }
        } else {
          types = []
        }
        var values: [SwiftValue] = []
        for (index, argument) in arguments.enumerated() {
          let type = index < types.count ? types[index] : nil
          values.append(try coerce(evaluate(argument, expected: type), to: type, at: argument))
        }
        let outer = scopes
        scopes = Array(scopes.prefix(depth))
        defer { scopes = outer }
        return try apply(closure, values)
      }
      if lookup(name) == nil, let (function, depth) = localFunction(name) {
        return try invoke(function, arguments: arguments, labels: labels, at: call, captured: depth)
      }
      if let function = functions[name] {
        guard function.source !== source else {
          return try invoke(function.declaration, arguments: arguments, labels: labels, at: call)
        }
        return try invokeDeclaredElsewhere(function, arguments: arguments, labels: labels, at: call)
      }
      if let model = valueType(named: callee) { return try construct(model, arguments: arguments, labels: labels, at: call) }
      if let model = enums[name], labels.count == 1, labels[0].label == "rawValue", let argument = arguments.first {
        let raw = try evaluate(argument, expected: model.rawType)
        for match in model.cases where try equal(SwiftValue(match.value, as: model.rawType), raw, at: argument) {
          return .some(try enumCase(model, match.name, at: call))
        }
        return .none
      }
      let typeName = name == "CGFloat" ? "Double" : name
      // Inside an extension member: `addingTimeInterval(…)` is `self.addingTimeInterval(…)`.
      if SwiftBuiltins.global("", typeName, labels: labels) == nil, let receiver = lookup("self")?.value {
        return try memberCall(name, on: receiver, arguments: arguments, labels: labels, call: call, nameNode: Syntax(reference))
      }
      guard let entry = SwiftBuiltins.global("", typeName, labels: labels) else {
        let known = SwiftBuiltins.all.filter { $0.receiver.isEmpty && $0.name == typeName }.map(\.selector)
        let hint = known.isEmpty ? "" : " (Quarry runs \(known.joined(separator: ", ")))"
        throw failure("calls '\(name)(\(labels.map { ($0.label ?? "_") + ":" }.joined()))'\(hint), \(Self.outsideSubset)", at: callee)
      }
      var builtin = BuiltinCall(
        evaluator: self, name: name, base: .none, arguments: arguments, parameters: entry.parameters, node: Syntax(call), expected: expected
      )
      return try entry.handler(&builtin)
    }
    guard let member = callee.as(MemberAccessExprSyntax.self) else { throw unsupported(callee, "this kind of call") }
    let name = member.declName.baseName.text
    // `FontTag.ID(rawValue: 3)`: a table's Tagged identifier is its raw value.
    if member.base != nil, let identifier = identifiers[callee.trimmedDescription], identifier.isTagged {
      return try taggedIdentifier(of: callee.trimmedDescription, key: identifier.key, arguments: arguments, labels: labels, at: call)
    }
    // `Library.Criteria(…)`, `.init(…)` where a struct of the input is expected.
    if let model = valueType(named: callee)
      ?? (member.base == nil && name == "init" ? expected.flatMap({ valueTypes[$0.wrapped.name] }) : nil)
    {
      return try construct(model, arguments: arguments, labels: labels, at: call)
    }
    if let baseExpr = member.base, let type = standardType(named: baseExpr) {
      if type == "Float" { throw floatRefusal(at: member) }
      if let declared = extensionMember(name, isStatic: true, of: type) {
        return try runExtension(declared, on: nil, arguments: arguments, labels: labels, at: call)
      }
      guard let entry = SwiftBuiltins.global(type, name, labels: labels), entry.isStatic else {
        throw failure("calls '\(type).\(name)(…)', \(Self.outsideSubset)", at: member)
      }
      var builtin = BuiltinCall(
        evaluator: self, name: name, base: .none, arguments: arguments, parameters: entry.parameters, node: Syntax(call))
      return try entry.handler(&builtin)
    }
    guard let baseExpr = member.base else {
      // `.init(rawValue: 3)` where a table's `ID` is expected: a `Tagged` key is its raw value;
      // a plain one (`UUID`) is made by its own type's initializer.
      if name == "init", let type = expected?.wrapped, let identifier = identifiers[type.name] {
        if identifier.isTagged {
          return try taggedIdentifier(of: type.name, key: identifier.key, arguments: arguments, labels: labels, at: call)
        }
        return try evaluate(ExprSyntax(call), expected: expected?.isOptional == true ? identifier.key.optional : identifier.key)
      }
      // `.init(…)` where the context gives the type: that type's initializer.
      if name == "init", let type = expected?.wrapped, let entry = SwiftBuiltins.global("", type.name, labels: labels) {
        var builtin = BuiltinCall(
          evaluator: self, name: type.name, base: .none, arguments: arguments, parameters: entry.parameters, node: Syntax(call),
          expected: expected)
        return try entry.handler(&builtin)
      }
      if let declared = extensionMember(name, isStatic: true, of: expected?.wrapped.name) {
        return try runExtension(declared, on: nil, arguments: arguments, labels: labels, at: call)
      }
      throw failure("uses '.\(name)(…)', whose type Quarry cannot tell here; write the type's name", at: member)
    }
    // `stack.popLast()`, `list.removeFirst()` as a value: the variable changes, the call gives
    // what the method returns.
    if let reference = baseExpr.as(DeclReferenceExprSyntax.self), let variable = lookup(reference.baseName.text),
      let (mutate, entry) = SwiftBuiltins.mutating(on: variable.value, name: name, labels: labels), let result = entry.result
    {
      let values = try arguments.map { try evaluate($0) }
      let updated = try mutate(self, variable.value, values, call)
      let returned = result(variable.value, values)
      try budget.allocate(updated.size)
      try assign(reference.baseName.text, updated, at: call)
      return returned
    }
    let base = try receiver(baseExpr, member: name, labels: labels, expected: expected)
    return try memberCall(
      name, on: base, arguments: arguments, labels: labels, call: call, nameNode: Syntax(member.declName), expected: expected)
  }

  /// `Tagged(rawValue: 3)`, `.init(3)` where `FontTag.ID` is expected: the raw value, of the
  /// key's type.
  func taggedIdentifier(
    of type: String, key: SwiftType, arguments: [ExprSyntax], labels: CallLabels, at call: FunctionCallExprSyntax
  ) throws -> SwiftValue {
    guard arguments.count == 1, let argument = arguments.first, labels.first?.label == nil || labels.first?.label == "rawValue" else {
      throw failure("'\(type)' is made with init(rawValue:) or init(_:)", at: call)
    }
    return try coerce(evaluate(argument, expected: key), to: key, at: argument)
  }

  /// `base.name(…)`: a member of the standard library, or one the input declares in an
  /// extension of the base's type.
  func memberCall(
    _ name: String, on base: SwiftValue, arguments: [ExprSyntax], labels: CallLabels, call: FunctionCallExprSyntax, nameNode: Syntax,
    expected: SwiftType? = nil
  ) throws -> SwiftValue {
    guard let entry = SwiftBuiltins.member(of: base, name: name, labels: labels) else {
      if let type = Self.extensionType(of: base), let declared = extensionMember(name, isStatic: false, of: type) {
        return try runExtension(declared, on: base, arguments: arguments, labels: labels, at: call)
      }
      if SwiftBuiltins.mutating(on: base, name: name, labels: labels) != nil {
        throw failure("'\(name)' changes its receiver; call it on a 'var' as a statement", at: nameNode)
      }
      if base.isOptional {
        throw failure(
          "value of optional type '\(base.typeName)' must be unwrapped to call '\(name)'; use '?.', 'if let' or '??'", at: nameNode)
      }
      let forms = SwiftBuiltins.forms(of: base, name: name)
      let hint = forms.isEmpty ? "" : " with these labels (Quarry runs \(forms.joined(separator: ", ")))"
      throw failure("calls '.\(name)(…)' on \(base.typeName)\(hint), \(Self.outsideSubset)", at: nameNode)
    }
    if entry.needsOrder, entry.receiver == "Sequence", Self.isUnordered(base) {
      throw failure("'\(name)' on a \(base.typeName) depends on an order Swift does not fix; sort it first", at: nameNode)
    }
    // The context's type reaches a generic result (`let d: Double = [Double]().reduce(0, +)`).
    var builtin = BuiltinCall(
      evaluator: self, name: name, base: base, arguments: arguments, parameters: entry.parameters, node: Syntax(call), expected: expected)
    let result = try entry.handler(&builtin)
    try budget.allocate(result.size)
    return result
  }

  /// Calls a function the input declares: arguments matched to parameters by label, defaults
  /// filled in, the body run in a scope of its own.
  /// A function an earlier input declares: its arguments computed here, its body (and its
  /// defaults) run in the input that declared it; a failure inside says where.
  func invokeDeclaredElsewhere(
    _ function: DeclaredFunction, arguments: [ExprSyntax], labels: CallLabels, at call: FunctionCallExprSyntax
  ) throws -> SwiftValue {
    let declaration = function.declaration
    guard let body = declaration.body else { throw failure("'\(declaration.name.text)' has no body to run", at: call) }
    let inner = try nested(in: function.source, at: call)
    let parameters = declaration.signature.parameterClause.parameters
    if parameters.contains(where: { $0.type.is(AttributedTypeSyntax.self) }) {
      throw unsupported(call, "an 'inout' parameter of a function an earlier input declares")
    }
    let values = try boundArguments(
      parameters, arguments: arguments, labels: labels, defaultsIn: inner, callee: declaration.name.text, at: call)
    let returnType = declaration.signature.returnClause.map { Self.swiftType($0.type) }
    do {
      return try inner.run(body.statements, arguments: values, returnType: returnType)
    } catch {
      throw failure(
        "calls '\(declaration.name.text)', which \(error.text) (at \(error.line):\(error.column) of the input that declared it)", at: call)
    }
  }

  /// `captured`: for a nested function, how many of the caller's scopes are the ones around its
  /// declaration (it reads and changes their names, as a Swift closure captures them).
  func invoke(
    _ function: FunctionDeclSyntax, arguments: [ExprSyntax], labels: CallLabels, at call: FunctionCallExprSyntax, captured: Int = 0
  ) throws -> SwiftValue {
    guard let original = function.body, let body = source.folded(original) else {
      throw failure("'\(function.name.text)' has no body to run", at: call)
    }
    var names: [String: Variable] = [:]
    // `inout` parameters: each argument's variable, given its final value when the call ends.
    var inoutArguments: [(parameter: String, variable: String, node: InOutExprSyntax)] = []
    var index = 0
    for parameter in function.signature.parameterClause.parameters {
      let label = parameter.firstName.tokenKind == .wildcard ? nil : parameter.firstName.text
      let name = (parameter.secondName ?? parameter.firstName).text
      let attributed = parameter.type.as(AttributedTypeSyntax.self)
      let isInout = attributed?.specifiers.contains { $0.trimmedDescription == "inout" } == true
      let type = Self.swiftType(isInout ? (attributed?.baseType ?? parameter.type) : parameter.type)
      let value: SwiftValue
      if index < arguments.count, labels[index].label == label || labels[index].isTrailingClosure {
        let argument = arguments[index]
        if isInout {
          guard let reference = argument.as(InOutExprSyntax.self), let variable = reference.expression.as(DeclReferenceExprSyntax.self)
          else {
            throw unsupported(argument, "an 'inout' argument other than '&' and a variable's name")
          }
          guard let held = lookup(variable.baseName.text) else {
            throw failure("'\(variable.baseName.text)' is not a variable here", at: variable)
          }
          guard held.mutable else {
            throw failure("cannot pass '\(variable.baseName.text)' as inout: it is a 'let' constant", at: variable)
          }
          value = held.value
          inoutArguments.append((name, variable.baseName.text, reference))
        } else {
          value = try coerce(evaluate(argument, expected: type), to: type, at: argument)
        }
        index += 1
      } else if let fallback = parameter.defaultValue?.value {
        value = try coerce(evaluate(fallback, expected: type), to: type, at: fallback)
      } else {
        throw failure("missing argument for parameter '\(label ?? name)' of '\(function.name.text)'", at: call)
      }
      names[name] = Variable(value: value, mutable: isInout, type: type)
    }
    if index < arguments.count { throw failure("extra argument in the call of '\(function.name.text)'", at: arguments[index]) }
    let outerScopes = scopes
    let outerReturn = returnType
    let parameters = Scope(names)
    scopes = Array(outerScopes.prefix(captured)) + [parameters]
    returnType = function.signature.returnClause.map { Self.swiftType($0.type) }
    defer {
      scopes = outerScopes
      returnType = outerReturn
    }
    depth += 10
    defer { depth -= 10 }
    guard depth <= Self.maximumDepth else { throw failure("calls functions more than \(Self.maximumDepth / 10) deep", at: call) }
    let statements = body.statements
    let result: SwiftValue
    if statements.count == 1, returnType.map({ $0.name != "Void" }) == true, let only = statements.first,
      let expr = Self.implicitReturn(only, returning: returnType)
    {
      result = try coerce(evaluate(expr, expected: returnType), to: returnType, at: expr)
    } else {
      switch try execute(statements) {
      case .returned(let value): result = value
      case .next where returnType != nil && returnType?.name != "Void":
        throw failure("reaches the end of '\(function.name.text)' without returning a value", at: body.rightBrace)
      default: result = .none
      }
    }
    try runDeferred(of: parameters)
    // Copied out when the call returns, as Swift does (the caller's scopes are back).
    scopes = outerScopes
    for argument in inoutArguments {
      guard let final = parameters.names[argument.parameter]?.value else { continue }
      try assign(argument.variable, final, at: argument.node)
    }
    return result
  }

  /// Runs a closure with `values` as its parameters (`$0`, or the names it declares).
  func apply(_ closure: ClosureExprSyntax, _ values: [SwiftValue]) throws -> SwiftValue {
    try budget.charge()
    var names: [String: Variable] = [:]
    if let clause = closure.signature?.parameterClause {
      let declared: [String]
      switch clause {
      case .simpleInput(let list): declared = list.map(\.name.text)
      case .parameterClause(let parameters): declared = parameters.parameters.map { ($0.secondName ?? $0.firstName).text }
      }
      // `{ (a, b) in }` over tuple elements: the tuple's parts.
      var given = values
      if declared.count > 1, values.count == 1, case .tuple(let parts, _) = values[0], parts.count == declared.count { given = parts }
      for (name, value) in zip(declared, given) where name != "_" { names[name] = Variable(value: value, mutable: false, type: nil) }
    } else {
      // `{ "\($0)\($1)" }` over pairs: a closure naming `$1` takes a tuple apart.
      var given = values
      if values.count == 1, case .tuple(let parts, _) = values[0], Self.usesSecondAnonymousParameter(closure) { given = parts }
      for (index, value) in given.enumerated() { names["$\(index)"] = Variable(value: value, mutable: false, type: nil) }
    }
    let outerReturn = returnType
    returnType = closure.signature?.returnClause.map { Self.swiftType($0.type) }
    defer { returnType = outerReturn }
    return try scoped(names) {
      let statements = closure.statements
      if statements.count == 1, let only = statements.first, let expr = Self.implicitReturn(only, returning: returnType ?? .string) {
        return try evaluate(expr, expected: returnType)
      }
      switch try execute(statements) {
      case .returned(let value): return value
      default: return .none
      }
    }
  }

  /// Runs a closure whose first parameter is `inout` (`reduce(into:)`'s `{ $0 += $1 }`) with
  /// `accumulator` and `element`: the accumulator's value when it returns.
  func applyUpdating(_ closure: ClosureExprSyntax, _ accumulator: SwiftValue, _ element: SwiftValue) throws -> SwiftValue {
    try budget.charge()
    var names: [String: Variable] = [:]
    let first: String
    if let clause = closure.signature?.parameterClause {
      let declared: [String]
      switch clause {
      case .simpleInput(let list): declared = list.map(\.name.text)
      case .parameterClause(let parameters): declared = parameters.parameters.map { ($0.secondName ?? $0.firstName).text }
      }
      guard declared.count == 2 else { throw failure("the closure takes the result and an element", at: closure) }
      first = declared[0]
      if declared[1] != "_" { names[declared[1]] = Variable(value: element, mutable: false, type: nil) }
    } else {
      first = "$0"
      names["$1"] = Variable(value: element, mutable: false, type: nil)
    }
    names[first] = Variable(value: accumulator, mutable: true, type: Self.type(of: accumulator))
    let outerReturn = returnType
    returnType = nil
    defer { returnType = outerReturn }
    return try scoped(names) {
      _ = try execute(closure.statements)
      return lookup(first)?.value ?? accumulator
    }
  }

  static func usesSecondAnonymousParameter(_ closure: ClosureExprSyntax) -> Bool {
    closure.statements.tokens(viewMode: .sourceAccurate).contains { token in
      if case .dollarIdentifier(let name) = token.tokenKind { return name != "$0" }
      return false
    }
  }

  /// `\.count` applied to a value.
  func keyPathValue(_ keyPath: KeyPathExprSyntax, of value: SwiftValue) throws -> SwiftValue {
    var current = value
    for component in keyPath.components {
      switch component.component {
      case .property(let property):
        let name = property.declName.baseName.text
        if name == "self" { continue }
        current = try self.property(name, of: current, at: property)
      case .optional:
        guard let inner = Self.unwrapOnce(current) else { return .none }
        current = inner
      default:
        throw unsupported(component, "this key path")
      }
    }
    return current
  }

  // MARK: Subscripts

  func subscriptValue(_ subscriptCall: SubscriptCallExprSyntax) throws -> SwiftValue {
    let base = try evaluate(subscriptCall.calledExpression)
    let arguments = Array(subscriptCall.arguments)
    switch base {
    case .array(let elements), .slice(let elements, _):
      guard arguments.count == 1, let argument = arguments.first, argument.label == nil else { throw unsupported(subscriptCall) }
      let start = SwiftBuiltins.sliceStart(base)
      let index = try evaluate(argument.expression, expected: .int)
      switch index {
      case .int(let position):
        // A slice keeps its base's indices: `a.dropFirst()[0]` traps.
        let (offset, overflow) = position.subtractingReportingOverflow(Int64(start))
        guard !overflow, offset >= 0, offset < elements.count else {
          throw crash(
            "reads index \(position) of \(base.typeName.hasPrefix("ArraySlice") ? "a slice whose indices are \(start)..<\(start + elements.count)" : "an array of \(elements.count)")",
            at: argument.expression)
        }
        return elements[Int(offset)]
      case .range(let lower, let upper, let closed):
        let end = closed ? upper.addingReportingOverflow(1) : (upper, false)
        guard !end.1, lower >= Int64(start), end.0 <= Int64(start + elements.count) else {
          throw crash(
            "takes the slice \(lower)\(closed ? "..." : "..<")\(upper) of indices \(start)..<\(start + elements.count)",
            at: argument.expression)
        }
        return .slice(Array(elements[Int(lower) - start..<Int(end.0) - start]), start: Int(lower))
      default:
        throw failure("cannot index an array with \(index.typeName)", at: argument.expression)
      }
    case .dictionary(let entries):
      guard let key = arguments.first else { throw unsupported(subscriptCall) }
      let keyValue = try evaluate(key.expression)
      if arguments.count == 2, arguments[1].label?.text == "default" {
        // The default is of the dictionary's value type (`d[k, default: 7]` of UInt32 values).
        let valueType = entries.values.first.flatMap(Self.type(of:))
        return try entries[keyValue]
          ?? coerce(evaluate(arguments[1].expression, expected: valueType), to: valueType, at: arguments[1].expression)
      }
      guard arguments.count == 1, key.label == nil else { throw unsupported(subscriptCall) }
      return entries[keyValue].map { .some($0) } ?? .none
    case .tuple, .some, .none:
      throw failure("cannot subscript \(base.typeName)\(base.isOptional ? "; unwrap it first" : "")", at: subscriptCall)
    case .string(let text):
      guard arguments.count == 1, let argument = arguments.first, argument.label == nil else { throw unsupported(subscriptCall) }
      return try StringIndices.subscripted(text, by: argument.expression, evaluator: self)
    default:
      throw unsupported(subscriptCall, "a subscript of \(base.typeName)")
    }
  }

  /// The receiver after `a[i] = v`, `d[k] = v`, `d[k, default: 0] += 1`.
  func assignSubscript(
    of base: SwiftValue, _ subscriptCall: SubscriptCallExprSyntax, at node: some SyntaxProtocol,
    _ newValue: (SwiftValue?) throws -> SwiftValue
  ) throws -> SwiftValue {
    let arguments = Array(subscriptCall.arguments)
    guard let first = arguments.first else { throw unsupported(subscriptCall) }
    switch base {
    case .array(var elements):
      guard case .int(let position) = try evaluate(first.expression, expected: .int), arguments.count == 1 else {
        throw unsupported(subscriptCall)
      }
      guard position >= 0, position < elements.count else {
        throw crash("writes index \(position) of an array of \(elements.count)", at: first.expression)
      }
      elements[Int(position)] = try newValue(elements[Int(position)])
      return .array(elements)
    case .dictionary(var entries):
      let key = try evaluate(first.expression)
      var current = entries[key]
      if arguments.count == 2, arguments[1].label?.text == "default" {
        let valueType = entries.values.first.flatMap(Self.type(of:))
        current = try current ?? coerce(evaluate(arguments[1].expression, expected: valueType), to: valueType, at: arguments[1].expression)
      }
      let value = try newValue(current)
      if value == .none { entries[key] = nil } else { entries[key] = value.isOptional ? Self.unwrapOnce(value) : value }
      return .dictionary(entries)
    default:
      throw unsupported(subscriptCall, "an assignment through a subscript of \(base.typeName)")
    }
  }
}
