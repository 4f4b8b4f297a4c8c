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
    // Fields by their position in the declaration (a group's columns share their group's).
    func position(_ label: String) -> Int? {
      model.columns.firstIndex { $0.path.first == label }
    }
    var earlier: [(label: String, position: Int)] = []
    for argument in arguments {
      guard let label = argument.label?.text, let index = position(label) else { continue }
      if let later = earlier.first(where: { $0.position > index }) {
        throw source.diagnostic("argument '\(label)' must precede argument '\(later.label)'", at: argument.label ?? Syntax(argument).firstToken(viewMode: .sourceAccurate)!)
      }
      earlier.append((label, index))
    }
    for argument in arguments {
      guard let label = argument.label?.text, let column = model.column(named: label), column.path.count <= 1 else { continue }
      var parameter = column.type
      if isDraft && column.isPrimaryKey { parameter = parameter.optional }
      try checkConcreteArgument(argument.expression, parameter: parameter)
    }
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
      fitsParameter = fits(argument, parameter.wrapped)
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
