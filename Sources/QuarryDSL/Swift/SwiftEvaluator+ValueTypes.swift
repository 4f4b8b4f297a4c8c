import SwiftSyntax

/// Structs the input declares (``ValueTypeModel``): built by their memberwise initializer,
/// read and set by property, as Swift does.
///
/// ```swift
/// struct Criteria: Codable { var target: Int; var note: String? = nil; let version = 1 }
/// var c = Criteria(target: 3)   // .structure(Criteria, [target: 3, note: nil, version: 1])
/// c.target += 1                 // target: 4
/// ```
extension SwiftEvaluator {
  /// The value type a type expression names (`Criteria`, `Library.Criteria`), unless a local
  /// name shadows it.
  func valueType(named expr: ExprSyntax) -> ValueTypeModel? {
    guard !valueTypes.isEmpty else { return nil }
    if let reference = expr.as(DeclReferenceExprSyntax.self), lookup(reference.baseName.text) != nil {
      return nil
    }
    guard expr.is(DeclReferenceExprSyntax.self) || expr.is(MemberAccessExprSyntax.self) else {
      return nil
    }
    if let selfTypeName, expr.as(DeclReferenceExprSyntax.self)?.baseName.text == "Self" {
      return ValueTypeModel.named(selfTypeName, in: valueTypes)
    }
    return valueTypes[expr.trimmedDescription]
  }

  /// `Criteria(target: 3)`: the memberwise initializer. Arguments go to the stored properties
  /// in order, each by its label; a `var` with a default (or an optional `var`, which starts
  /// as `nil`) may be left out; a `let` with a value is not a parameter.
  func construct(
    _ model: ValueTypeModel, arguments: [ExprSyntax], labels: CallLabels,
    at call: FunctionCallExprSyntax
  ) throws -> SwiftValue {
    if model.hasExplicitInitializer {
      return try runInitializer(of: model, arguments: arguments, labels: labels, at: call)
    }
    var names: [String] = []
    var values: [SwiftValue] = []
    var index = 0
    for property in model.properties {
      names.append(property.name)
      let takesArgument = !property.isFixed
      if takesArgument, index < arguments.count, labels.indices.contains(index),
        labels[index].label == property.name
      {
        let argument = arguments[index]
        values.append(
          try coerce(evaluate(argument, expected: property.type), to: property.type, at: argument))
        index += 1
      } else if let initializer = property.initializer {
        values.append(try defaultValue(of: property, initializer, in: model, at: call))
      } else if property.type?.isOptional == true && !property.isFixed {
        values.append(.none)
      } else {
        throw failure(
          "calls \(model.name)(\(Self.labelList(labels))) without '\(property.name):', which its memberwise initializer \(Self.memberwiseSignature(model)) needs",
          at: call)
      }
    }
    if index < arguments.count {
      let label =
        labels.indices.contains(index)
        ? labels[index].label.map { "'\($0):'" } ?? "an unlabelled argument" : "an argument"
      throw failure(
        "passes \(label), which its memberwise initializer \(Self.memberwiseSignature(model)) does not take there", at: arguments[index])
    }
    return .structure(type: model.name, names: names, values: values, encodable: model.isEncodable)
  }

  /// `init(type: T = .x, …) { self.type = type; … }`: the `init` whose labels the call gives,
  /// its default arguments filled in, run on a value whose properties start at their defaults;
  /// every stored property must be set by then, as Swift requires.
  private func runInitializer(of model: ValueTypeModel, arguments: [ExprSyntax], labels: CallLabels, at call: FunctionCallExprSyntax) throws
    -> SwiftValue
  {
    let given = labels.map(\.label)
    let candidate = model.initializers.first { initializer in
      var index = 0
      for parameter in initializer.signature.parameterClause.parameters {
        let label = parameter.firstName.tokenKind == .wildcard ? nil : parameter.firstName.text
        if index < given.count, given[index] == label { index += 1 } else if parameter.defaultValue == nil { return false }
      }
      return index == given.count
    }
    guard let initializer = candidate, let body = initializer.body else {
      throw failure(
        "no initializer of '\(model.name)' takes these arguments (\(given.map { ($0 ?? "_") + ":" }.joined()))", at: call.calledExpression)
    }
    let inner = try nested(in: model.source, at: call)
    let names = try boundArguments(
      initializer.signature.parameterClause.parameters, arguments: arguments, labels: labels, defaultsIn: inner, callee: model.name,
      at: call)
    // `self` starts with the defaults the declaration gives (nil for an optional `var`).
    var values: [SwiftValue?] = []
    for property in model.properties {
      if let fallback = property.initializer {
        values.append(try inner.coerce(inner.value(of: fallback, names: [:], expected: property.type), to: property.type, at: fallback))
      } else {
        values.append(property.type?.isOptional == true && !property.isFixed ? SwiftValue.none : nil)
      }
    }
    let start = SwiftValue.structure(
      type: model.name, names: model.properties.map(\.name), values: values.map { $0 ?? .none }, encodable: model.isEncodable)
    let built = try inner.runInitializerBody(body.statements, self: start, arguments: names)
    guard case .structure(_, _, let final, _) = built else { return built }
    for (property, (before, after)) in zip(model.properties, zip(values, final))
    where before == nil && after == .none && property.type?.isOptional != true {
      throw failure(
        "the initializer of '\(model.name)' does not set '\(property.name)' (Swift refuses it: 'self' used before all stored properties are initialized)",
        at: call)
    }
    return built
  }

  /// `Criteria(target:frame:label:)`: the memberwise initializer's labels, for messages.
  static func memberwiseSignature(_ model: ValueTypeModel) -> String {
    model.name + "(" + model.properties.filter { !$0.isFixed }.map { $0.name + ":" }.joined() + ")"
  }

  /// `y:_:` for a call's labels.
  static func labelList(_ labels: CallLabels) -> String { labels.map { ($0.label ?? "_") + ":" }.joined() }

  /// A stored property's default, computed in the input that declared the type.
  private func defaultValue(
    of property: ValueTypeModel.Property, _ initializer: ExprSyntax, in model: ValueTypeModel,
    at call: FunctionCallExprSyntax
  ) throws -> SwiftValue {
    let inner = try nested(in: model.source, at: call)
    do {
      return try inner.coerce(
        inner.value(of: initializer, names: [:], expected: property.type), to: property.type,
        at: initializer)
    } catch let error as SwiftEvaluationError where model.source !== source {
      throw failure(
        "uses the default of '\(model.name).\(property.name)', which \(error.text)", at: call)
    }
  }

  /// `value.name` of a struct: its stored property (nil when it has none of that name).
  func storedProperty(_ name: String, of value: SwiftValue) -> SwiftValue? {
    guard case .structure(_, let names, let values, _) = value,
      let index = names.firstIndex(of: name)
    else { return nil }
    return values[index]
  }

  /// `c.target = 4`, `c.inner.note = "x"`: the struct held in a variable, with one stored
  /// property (at any depth) replaced.
  func assignProperty(
    _ access: MemberAccessExprSyntax, _ newValue: (SwiftValue?) throws -> SwiftValue
  ) throws -> Bool {
    var path: [MemberAccessExprSyntax] = [access]
    var current = access.base
    while let member = current?.as(MemberAccessExprSyntax.self) {
      path.insert(member, at: 0)
      current = member.base
    }
    guard let reference = current?.as(DeclReferenceExprSyntax.self),
      let variable = lookup(reference.baseName.text),
      case .structure = variable.value
    else { return false }
    func replaced(_ value: SwiftValue, _ rest: ArraySlice<MemberAccessExprSyntax>) throws
      -> SwiftValue
    {
      guard let step = rest.first else { return try newValue(value) }
      let name = step.declName.baseName.text
      guard case .structure(let type, let names, var values, let encodable) = value,
        let index = names.firstIndex(of: name)
      else {
        throw failure(
          "assigns to '\(name)', which is not a stored property of \(value.typeName)",
          at: step.declName)
      }
      try checkAssignable(name, of: type, root: reference.baseName.text, at: step.declName)
      values[index] = try replaced(values[index], rest.dropFirst())
      return .structure(type: type, names: names, values: values, encodable: encodable)
    }
    try assign(reference.baseName.text, try replaced(variable.value, path[...]), at: access)
    return true
  }
}

extension SwiftEvaluator {
  /// `a.id = 2` where `id` is a `let` of the struct: Swift refuses it, except `self`'s in an `init`.
  func checkAssignable(_ name: String, of type: String, root: String, at node: some SyntaxProtocol) throws {
    guard let property = valueTypes[type]?.properties.first(where: { $0.name == name }) else { return }
    if property.isFixed || (property.isLet && !(initializing && root == "self")) {
      throw failure("cannot assign to property: '\(name)' is a 'let' constant", at: node)
    }
  }

  /// `list[1].title = "z"`, `order.lines[0].quantity += 1`: a value reached from a variable
  /// through subscripts and stored properties, replaced, and the variable set to the result.
  /// False when the path does not start at a variable.
  func assignThroughPath(_ target: ExprSyntax, _ newValue: (SwiftValue?) throws -> SwiftValue) throws -> Bool {
    var steps: [ExprSyntax] = []
    var current = target
    while true {
      if let member = current.as(MemberAccessExprSyntax.self), let base = member.base {
        steps.insert(current, at: 0)
        current = base
      } else if let subscriptCall = current.as(SubscriptCallExprSyntax.self) {
        steps.insert(current, at: 0)
        current = subscriptCall.calledExpression
      } else {
        break
      }
    }
    guard let reference = current.as(DeclReferenceExprSyntax.self), let variable = lookup(reference.baseName.text) else {
      return false
    }
    let root = reference.baseName.text
    func replaced(_ value: SwiftValue, _ rest: ArraySlice<ExprSyntax>) throws -> SwiftValue {
      guard let step = rest.first else { return try newValue(value) }
      if let subscriptCall = step.as(SubscriptCallExprSyntax.self) {
        if case .dictionary = value, rest.count > 1 { throw unsupported(step, "an assignment through a dictionary's element") }
        return try assignSubscript(of: value, subscriptCall, at: step) { element in
          guard let element else { throw unsupported(step, "an assignment through a missing element") }
          return try replaced(element, rest.dropFirst())
        }
      }
      guard let member = step.as(MemberAccessExprSyntax.self) else { throw unsupported(step) }
      let name = member.declName.baseName.text
      guard case .structure(let type, let names, var values, let encodable) = value, let index = names.firstIndex(of: name) else {
        throw failure("assigns to '\(name)', which is not a stored property of \(value.typeName)", at: member.declName)
      }
      try checkAssignable(name, of: type, root: root, at: member.declName)
      values[index] = try replaced(values[index], rest.dropFirst())
      return .structure(type: type, names: names, values: values, encodable: encodable)
    }
    let updated = try replaced(variable.value, steps[...])
    try budget.allocate(updated.size)
    try assign(root, updated, at: target)
    return true
  }

  /// Runs an `init` body with `self` (mutable) and its parameters bound; `self` afterwards.
  func runInitializerBody(
    _ body: CodeBlockItemListSyntax, self start: SwiftValue, arguments: [(name: String, value: SwiftValue, type: SwiftType?)]
  ) throws -> SwiftValue {
    guard let folded = source.folded(body) else { throw failure("cannot be read here", at: body) }
    let scope = Scope(["self": Variable(value: start, mutable: true, type: nil)])
    initializing = true
    for argument in arguments { scope.names[argument.name] = Variable(value: argument.value, mutable: false, type: argument.type) }
    scopes = [scope]
    returnType = nil
    _ = try execute(folded)
    return scopes.first?.names["self"]?.value ?? start
  }
}
