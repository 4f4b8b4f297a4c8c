import SwiftSyntax

/// A member an input declares in an extension of one of Swift's own types, which the one
/// evaluator runs like the standard library's own: a static or instance function, a computed
/// property, a static constant.
///
/// ```swift
/// extension TimeInterval { static func days(_ n: Double) -> Self { n * 86_400 } }
/// extension Date { var dayBefore: Date { addingTimeInterval(-.days(1)) } }
/// #sql("\($0.dueDate) < \(someDate - .days(7))")  // the date computed in Swift, then bound
/// ```
struct SwiftExtensionMember {
  /// The extended type, as the evaluator names it (`TimeInterval` and `CGFloat` are `Double`).
  let typeName: String
  let name: String
  let isStatic: Bool
  /// The `func` or `var` declaration, with the input it came from.
  let declaration: AnySyntaxBox

  /// The evaluator's name for a standard type (nil for any other type: a model, an app type).
  static func canonicalType(_ written: String) -> String? {
    switch written {
    case "TimeInterval", "Double", "CGFloat": "Double"
    case "Int", "Int64", "Int32": "Int"
    case "Date", "String", "Bool", "Character": written
    case "Array", "Collection", "Sequence": "Array"
    default: nil
    }
  }

  /// The members of `extension` when it extends a standard type (none otherwise).
  static func members(of extensionDecl: ExtensionDeclSyntax, source: SourceUnit) -> [SwiftExtensionMember] {
    guard let typeName = canonicalType(extensionDecl.extendedType.trimmedDescription) else { return [] }
    return members(in: extensionDecl.memberBlock, of: typeName, source: source)
  }

  /// The functions and computed or static properties a type's body (or an extension of it)
  /// declares, as members of `typeName` (an enum's `var label: String { … }`).
  static func members(in block: MemberBlockSyntax, of typeName: String, source: SourceUnit) -> [SwiftExtensionMember] {
    var members: [SwiftExtensionMember] = []
    for member in block.activeMembers {
      if let function = member.decl.as(FunctionDeclSyntax.self), function.body != nil {
        let isStatic = function.modifiers.contains { $0.name.tokenKind == .keyword(.static) }
        members.append(
          SwiftExtensionMember(
            typeName: typeName, name: function.name.text, isStatic: isStatic,
            declaration: AnySyntaxBox(syntax: Syntax(function), source: source)))
      } else if let variable = member.decl.as(VariableDeclSyntax.self) {
        let isStatic = variable.modifiers.contains { $0.name.tokenKind == .keyword(.static) }
        for binding in variable.bindings {
          guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
            binding.initializer != nil || binding.accessorBlock != nil
          else { continue }
          members.append(
            SwiftExtensionMember(
              typeName: typeName, name: name, isStatic: isStatic,
              declaration: AnySyntaxBox(syntax: Syntax(binding), source: source)))
        }
      }
    }
    return members
  }
}

extension SwiftEvaluator {
  /// The extension member `name` a use means: of `type` when the context gives it, else the one
  /// member of that name the input declares (two of them with no context to choose: nil).
  func extensionMember(_ name: String, isStatic: Bool, of type: String?) -> SwiftExtensionMember? {
    let candidates = (extensions[name] ?? []).filter { $0.isStatic == isStatic }
    if let type {
      let wanted = SwiftExtensionMember.canonicalType(type) ?? type
      if let typed = candidates.first(where: { ValueTypeModel.sameType($0.typeName, wanted) }) { return typed }
    }
    // An operand's context is the operator's (`date + .days(1)` wants a TimeInterval): the one
    // member of that name is the one that type-checks.
    return candidates.count == 1 ? candidates.first : nil
  }

  /// The evaluator's type name of a value, for finding its extension members.
  static func extensionType(of value: SwiftValue) -> String? {
    switch value {
    case .array, .slice: "Array"
    // An enum or a struct the input declares: its own members (`Mood.happy.label`).
    case .enumCase(let type, _, _), .structure(let type, _, _, _): type
    default: type(of: value).flatMap { SwiftExtensionMember.canonicalType($0.name) }
    }
  }

  /// Runs an extension member: a function called with `arguments`, or a property read; `self`
  /// is the receiver of an instance member. It runs in the input that declared it.
  func runExtension(
    _ member: SwiftExtensionMember, on receiver: SwiftValue?, arguments: [ExprSyntax] = [], labels: CallLabels? = nil,
    at node: some SyntaxProtocol
  ) throws -> SwiftValue {
    guard member.declaration.source !== source else {
      return try runExtensionHere(member, on: receiver, arguments: arguments, labels: labels, at: node)
    }
    // Declared in an earlier input: a failure inside says where, and is located at this use.
    do {
      return try runExtensionHere(member, on: receiver, arguments: arguments, labels: labels, at: node)
    } catch let inner as SwiftEvaluationError where inner.line != failure("", at: node).line || inner.column != failure("", at: node).column
    {
      var outer = failure(
        "uses '\(member.name)', which \(inner.text) (at \(inner.line):\(inner.column) of the input that declared it)", at: node)
      outer.appStaticValue = inner.appStaticValue
      throw outer
    }
  }

  private func runExtensionHere(
    _ member: SwiftExtensionMember, on receiver: SwiftValue?, arguments: [ExprSyntax], labels: CallLabels?,
    at node: some SyntaxProtocol
  ) throws -> SwiftValue {
    let inner = try nested(in: member.declaration.source, at: node)
    inner.selfTypeName = member.typeName
    var names: [(name: String, value: SwiftValue, type: SwiftType?)] = []
    if let receiver { names.append(("self", receiver, nil)) }
    if let function = member.declaration.syntax.as(FunctionDeclSyntax.self), let body = function.body {
      names += try boundArguments(
        function.signature.parameterClause.parameters, arguments: arguments, labels: labels ?? CallLabels(), defaultsIn: inner,
        callee: member.name, at: node)
      let returnType = function.signature.returnClause.map { resolvedType(Self.swiftType($0.type), inside: member.typeName) }
      return try inner.run(body.statements, arguments: names, returnType: returnType)
    }
    guard let binding = member.declaration.syntax.as(PatternBindingSyntax.self) else {
      throw failure("'\(member.name)' cannot be run here", at: node)
    }
    let type = binding.typeAnnotation.map { resolvedType(Self.swiftType($0.type), inside: member.typeName) }
    if let initializer = binding.initializer {
      do {
        return try inner.coerce(
          inner.value(
            of: initializer.value, names: Dictionary(names.map { ($0.name, $0.value) }, uniquingKeysWith: { $1 }), expected: type),
          to: type, at: initializer.value)
      } catch var error as SwiftEvaluationError where member.isStatic && !error.isSwiftsVerdict {
        error.appStaticValue = error.appStaticValue ?? member.typeName + "." + member.name
        throw error
      }
    }
    if let accessor = binding.accessorBlock {
      switch accessor.accessors {
      case .getter(let statements):
        return try inner.run(statements, arguments: names, returnType: type)
      case .accessors(let list):
        guard let getter = list.first(where: { $0.accessorSpecifier.tokenKind == .keyword(.get) }), let body = getter.body else {
          throw failure("'\(member.name)' has no getter to run", at: node)
        }
        return try inner.run(body.statements, arguments: names, returnType: type)
      }
    }
    throw failure("'\(member.name)' has no value to read", at: node)
  }
}

extension SwiftEvaluator {
  /// A call's arguments bound to a declaration's parameters by label (a trailing closure to the
  /// next parameter), defaults computed by `inner`, the evaluator of the declaring input.
  func boundArguments(
    _ parameters: FunctionParameterListSyntax, arguments: [ExprSyntax], labels: CallLabels, defaultsIn inner: SwiftEvaluator,
    callee: String, at node: some SyntaxProtocol
  ) throws -> [(name: String, value: SwiftValue, type: SwiftType?)] {
    var names: [(name: String, value: SwiftValue, type: SwiftType?)] = []
    var index = 0
    for parameter in parameters {
      let label = parameter.firstName.tokenKind == .wildcard ? nil : parameter.firstName.text
      let name = (parameter.secondName ?? parameter.firstName).text
      let type = Self.swiftType(parameter.type)
      if index < arguments.count, labels.indices.contains(index), labels[index].label == label || labels[index].isTrailingClosure {
        names.append((name, try coerce(evaluate(arguments[index], expected: type), to: type, at: arguments[index]), type))
        index += 1
      } else if let fallback = parameter.defaultValue?.value {
        names.append((name, try inner.coerce(inner.value(of: fallback, names: [:], expected: type), to: type, at: fallback), type))
      } else {
        throw failure("missing argument for parameter '\(label ?? name)' of '\(callee)'", at: node)
      }
    }
    if index < arguments.count { throw failure("extra argument in the call of '\(callee)'", at: arguments[index]) }
    return names
  }
}
