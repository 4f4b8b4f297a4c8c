import QueryBuilder
import SwiftSyntax

/// The memberwise initializers the `@Table` macro gives a model (`Tag(id:title:)`) and its
/// `Draft` (the primary key optional): labels in declaration order, each argument converted to
/// its field's type as Swift converts a concrete parameter (a literal or a value may become an
/// optional; nothing else changes type).
///
/// ```swift
/// Reminder.insert { Reminder.Draft(title: "Milk", remindersListID: 1) }
/// // error: argument 'remindersListID' must precede argument 'title'
/// ```
extension Compiler {
  func checkMemberwiseArguments(of model: TableModel, _ arguments: LabeledExprListSyntax, isDraft: Bool) throws {
    try checkArgumentOrder(of: model, arguments)
    for argument in arguments {
      guard let label = argument.label?.text, let column = model.column(named: label), column.path.count <= 1 else { continue }
      var parameter = column.type
      if isDraft && column.isPrimaryKey { parameter = parameter.optional }
      try checkConcreteArgument(argument.expression, parameter: parameter)
    }
    // A field with no default, not optional (nor a draft's id), must be given, as the compiler
    // says of the memberwise initializer; a column group is one field (`counts:`).
    let given = Set(arguments.compactMap { $0.label?.text })
    for column in model.columns where !column.isGenerated {
      let field = column.path.first ?? column.name
      guard !given.contains(field) else { continue }
      let required =
        column.path.count > 1
        ? model.groupsWithoutDefault.contains(field) && !(isDraft && column.isPrimaryKey)
        : column.defaultValue == nil && column.unknownDefault == nil && column.volatileDefault == nil && !column.type.isOptional
          && !(isDraft && column.isPrimaryKey)
      if required { throw missingArgument(field, of: model, in: arguments) }
    }
  }

  /// "missing argument for parameter 'title' in call", where the argument belongs: before the
  /// first given field declared after it, or at `)`.
  func missingArgument(_ field: String, of model: TableModel, in arguments: LabeledExprListSyntax) -> Diagnostic {
    let position = model.columns.firstIndex { $0.path.first == field } ?? model.columns.count
    let next = arguments.first { argument in
      (argument.label.flatMap { label in model.columns.firstIndex { $0.path.first == label.text } } ?? -1) > position
    }
    let call = arguments.parent?.as(FunctionCallExprSyntax.self)
    return source.diagnostic(
      "missing argument for parameter '\(field)' in call",
      at: next.map { Syntax($0) } ?? call?.rightParen.map(Syntax.init) ?? Syntax(arguments))
  }

  /// Labels in the order the fields are declared: "argument 'title' must precede argument 'id'".
  func checkArgumentOrder(of model: TableModel, _ arguments: LabeledExprListSyntax) throws {
    // Fields by their position in the declaration (a group's columns share their group's).
    func position(_ label: String) -> Int? {
      model.columns.firstIndex { $0.path.first == label }
    }
    var earlier: [(label: String, position: Int)] = []
    for argument in arguments {
      guard let labelToken = argument.label, let index = position(labelToken.text) else { continue }
      if let later = earlier.first(where: { $0.position > index }) {
        throw source.diagnostic("argument '\(labelToken.text)' must precede argument '\(later.label)'", at: labelToken)
      }
      earlier.append((labelToken.text, index))
    }
  }

  /// `Row.Columns(title: $0.title, …)`: each field takes a `some QueryExpression` of exactly its
  /// type (no optional promotion), and the compiler names the initializer.
  func checkSelectionArgument(_ syntax: ExprSyntax, _ value: Value, field: SwiftType, model: TableModel, call: FunctionCallExprSyntax)
    throws
  {
    let argument = argumentType(syntax, value)
    guard fits(argument, field) == false else { return }
    let labels = model.columns.filter { $0.path.count <= 1 }.map { $0.name + ":" }.joined()
    throw source.diagnostic(
      "initializer 'init(\(labels))' requires the types '\(argument.typeName ?? "?")' and '\(field)' be equivalent",
      at: call.calledExpression)
  }

  /// A value given for a concrete parameter of type `parameter` (an initializer's field, an
  /// inserted row's column): literals of the wrapped type, nil for an optional, a Swift value of
  /// the type or its wrapped type. Columns and other SQL expressions are left to the caller.
  func checkConcreteArgument(_ syntax: ExprSyntax, parameter: SwiftType, value: Value? = nil) throws {
    guard isKnown(parameter) else { return }
    let argument = argumentType(syntax, value ?? (try? evaluate(syntax, expected: parameter.wrapped)) ?? .null)
    let fitsParameter: Bool?
    switch argument {
    case .unknown, .implicitMember: return
    case .literal(.null):
      guard !parameter.isOptional else { return }
      throw source.diagnostic("'nil' is not compatible with expected argument type '\(parameter)'", at: pointOf(syntax))
    case .literal:
      fitsParameter = fits(argument, parameter.wrapped, concrete: true)
    case .optionalLiteral(let literal):
      // `Optional(3)` for a concrete parameter: an optional one takes it.
      fitsParameter = parameter.isOptional && fits(.literal(literal), parameter.wrapped, concrete: true) == true
      if !parameter.isOptional, fits(.literal(literal), parameter, concrete: true) == true {
        throw source.diagnostic(
          "value of optional type '\(parameter.optional)' must be unwrapped to a value of type '\(parameter)'", at: pointOf(syntax))
      }
    case .typed(let type):
      fitsParameter = type == parameter || (parameter.isOptional && type == parameter.wrapped)
      if fitsParameter == false, type.isOptional, type.wrapped == parameter {
        throw source.diagnostic("value of optional type '\(type)' must be unwrapped to a value of type '\(parameter)'", at: pointOf(syntax))
      }
    }
    guard fitsParameter == false else { return }
    throw source.diagnostic(
      "cannot convert value of type '\(argument.typeName ?? "?")' to expected argument type '\(parameter.wrapped)'", at: pointOf(syntax))
  }
}
