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
    if let reference = expr.as(DeclReferenceExprSyntax.self), lookup(reference.baseName.text) != nil
    {
      return nil
    }
    guard expr.is(DeclReferenceExprSyntax.self) || expr.is(MemberAccessExprSyntax.self) else {
      return nil
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
    guard !model.hasExplicitInitializer else {
      throw failure(
        "calls the initializer '\(model.name)' declares, \(Self.outsideSubset)",
        at: call.calledExpression)
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
          "missing argument for parameter '\(property.name)' in the call of '\(model.name)'",
          at: call)
      }
    }
    if index < arguments.count {
      let label =
        labels.indices.contains(index)
        ? labels[index].label.map { "'\($0):'" } ?? "an unlabelled argument" : "an argument"
      throw failure(
        "passes \(label), which is not a parameter of '\(model.name)'s memberwise initializer (or not in its order)",
        at: arguments[index])
    }
    return .structure(type: model.name, names: names, values: values, encodable: model.isEncodable)
  }

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
      if valueTypes[type]?.properties.first(where: { $0.name == name })?.isFixed == true {
        throw failure("cannot assign to property: '\(name)' is a 'let' constant", at: step.declName)
      }
      values[index] = try replaced(values[index], rest.dropFirst())
      return .structure(type: type, names: names, values: values, encodable: encodable)
    }
    try assign(reference.baseName.text, try replaced(variable.value, path[...]), at: access)
    return true
  }
}
