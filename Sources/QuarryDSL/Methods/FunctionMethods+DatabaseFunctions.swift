import FoundationEssentials
import QueryBuilder
import SwiftSyntax

/// `@DatabaseFunction`s of the input: declared into the catalog, called as `$name(…)`.
extension FunctionMethods {
  /// Reads `@DatabaseFunction func name(…) -> T { … }` into the catalog: callable as `$name(…)`.
  func declareDatabaseFunction(_ function: FunctionDeclSyntax) throws {
    guard let body = function.body else { return }
    let reader = DeclarationReader(
      catalog: compiler.catalog, source: compiler.source, warn: { [unowned compiler] message, node in try compiler.warn(message, at: node) }
    )
    var isAggregate = false
    var parameters: [DatabaseFunction.Parameter] = []
    for parameter in function.signature.parameterClause.parameters {
      var type = parameter.type
      // `some Sequence<T>` / `any Sequence<T>`: an aggregate over T.
      if let opaque = type.as(SomeOrAnyTypeSyntax.self), let sequence = opaque.constraint.as(IdentifierTypeSyntax.self),
        sequence.name.text == "Sequence", let element = sequence.genericArgumentClause?.arguments.first?.argument.as(TypeSyntax.self)
      {
        isAggregate = true
        type = element
      }
      let label = parameter.firstName.tokenKind == .wildcard ? nil : parameter.firstName.text
      parameters.append(
        .init(
          label: label, name: (parameter.secondName ?? parameter.firstName).text, type: reader.swiftType(type),
          defaultValue: parameter.defaultValue?.value))
    }
    if isAggregate, parameters.count != 1 {
      throw compiler.source.diagnostic("an aggregate @DatabaseFunction takes one sequence (of a value or a tuple)", at: function.signature)
    }
    let returnType = function.signature.returnClause.map { reader.swiftType($0.type) }
    var deterministic = false
    for element in function.attributes {
      guard let attribute = element.as(AttributeSyntax.self), attribute.attributeName.trimmedDescription == "DatabaseFunction",
        case .argumentList(let list)? = attribute.arguments
      else { continue }
      for argument in list where argument.label?.text == "isDeterministic" {
        deterministic = argument.expression.trimmedDescription == "true"
      }
    }
    let name = function.name.text.trimmingScalars(in: ["`"])
    let declarations = SwiftDeclarations(compiler.catalog)
    compiler.catalog.databaseFunctions[name] = DatabaseFunction(
      name: name, parameters: parameters, returnType: returnType, isAggregate: isAggregate, isDeterministic: deterministic,
      body: body.statements, source: compiler.source, declarations: declarations,
      cannotRun: SubsetCheck.firstProblem(in: body, source: compiler.source, declarations: declarations))
  }

  /// `$name(…)`: a call of a `@DatabaseFunction`, its arguments matched to the parameters by
  /// label or position, defaults filled in.
  ///
  /// ```swift
  /// $concat(first: "a")   // "concat"('a', '')   (second: defaults to "")
  /// ```
  func callDatabaseFunction(_ function: DatabaseFunction, arguments: Arguments, at node: some SyntaxProtocol) throws -> Value {
    compiler.features.insert(.databaseFunction(function.name))
    var given = arguments.list[...]
    var values: [QueryBuilder.Expression] = []
    for parameter in function.parameters {
      let type = parameter.type
      if let next = given.first, next.label == parameter.label || next.label == nil {
        given = given.dropFirst()
        values.append(
          try compiler.typedExpression(try compiler.evaluate(next.expression, expected: type), expected: type, at: next.expression)
            .expression)
      } else if let fallback = parameter.defaultValue {
        values.append(
          try compiler.typedExpression(try compiler.evaluate(fallback, expected: type), expected: type, at: fallback).expression)
      } else {
        throw compiler.source.diagnostic(
          "'$\(function.name)' needs its argument '\(parameter.label ?? parameter.name)'", at: node)
      }
    }
    if let extra = given.first {
      throw compiler.source.diagnostic("'$\(function.name)' has no argument '\(extra.label ?? "_")' here", at: extra.labelNode)
    }
    let quoted = "\"" + function.name.replacing("\"", with: "\"\"") + "\""
    return .expression(TypedExpression(.function(quoted, values), type: function.returnType ?? SwiftType("Void", optional: true)))
  }
}
