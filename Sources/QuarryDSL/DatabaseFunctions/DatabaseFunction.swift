import Foundation
import QueryBuilder
import SwiftSyntax

/// A Swift function declared with `@DatabaseFunction`: called in queries as `$name(…)`, it
/// renders as StructuredQueries renders it (the quoted name, every argument, defaults filled
/// in), and Quarry registers it with SQLite, its body run by ``SwiftSubsetInterpreter``.
///
/// ```swift
/// @DatabaseFunction
/// func exclaim(_ text: String) -> String { text.uppercased() + "!" }
/// Reminder.select { $exclaim($0.title) }
/// // SELECT "exclaim"("reminders"."title") FROM "reminders"
/// ```
///
/// A function over `some Sequence<T>` is an aggregate: its body sees every row of a group.
public final class DatabaseFunction: @unchecked Sendable {
  public struct Parameter {
    /// The argument label (nil for `_`).
    var label: String?
    /// The name the body uses.
    var name: String
    var type: SwiftType
    var defaultValue: ExprSyntax?
  }

  public let name: String
  let parameters: [Parameter]
  let returnType: SwiftType?
  /// Over `some Sequence<…>`: one result per group of rows.
  public let isAggregate: Bool
  public let isDeterministic: Bool
  let body: CodeBlockItemListSyntax
  let source: SourceUnit
  let enums: [String: EnumModel]
  /// Why the body cannot run here (checked when declared), with its place; nil when it can.
  public let cannotRun: String?

  init(
    name: String, parameters: [Parameter], returnType: SwiftType?, isAggregate: Bool, isDeterministic: Bool,
    body: CodeBlockItemListSyntax, source: SourceUnit, enums: [String: EnumModel], cannotRun: String?
  ) {
    self.name = name
    self.parameters = parameters
    self.returnType = returnType
    self.isAggregate = isAggregate
    self.isDeterministic = isDeterministic
    self.body = body
    self.source = source
    self.enums = enums
    self.cannotRun = cannotRun
  }

  /// How many SQL arguments a call passes.
  public var argumentCount: Int { parameters.count }

  /// Runs the body for one row's arguments (a scalar function).
  public func call(_ arguments: [QueryBinding]) throws -> QueryBinding {
    if let cannotRun { throw DatabaseFunctionFailure("\(name): \(cannotRun)") }
    var names: [String: RuntimeValue] = [:]
    for (parameter, value) in zip(parameters, arguments) {
      names[parameter.name] = RuntimeValue(value, as: parameter.type)
    }
    return try result(names)
  }

  /// Runs the body once for a group: the sequence parameter holds every row's value.
  public func aggregate(_ rows: [[QueryBinding]]) throws -> QueryBinding {
    if let cannotRun { throw DatabaseFunctionFailure("\(name): \(cannotRun)") }
    guard let sequence = parameters.first else { return .null }
    let elements: [RuntimeValue] = rows.map { row in
      row.count == 1 ? RuntimeValue(row[0], as: sequence.type) : .array(row.map { RuntimeValue($0, as: sequence.type) })
    }
    return try result([sequence.name: .array(elements)])
  }

  private func result(_ names: [String: RuntimeValue]) throws -> QueryBinding {
    do {
      let value = try SwiftSubsetInterpreter(source: source, enums: enums).run(body, arguments: names)
      return value.binding(as: returnType)
    } catch let error as InterpreterError {
      throw DatabaseFunctionFailure("\(name): \(error.message)")
    }
  }
}

/// A `@DatabaseFunction` body stopped: the message says where and why.
public struct DatabaseFunctionFailure: Error, Sendable, CustomStringConvertible {
  public var description: String
  init(_ description: String) { self.description = description }
}

extension RuntimeValue {
  /// A SQLite value as the Swift parameter sees it (`Bool` from 0/1).
  init(_ binding: QueryBinding, as type: SwiftType? = nil) {
    switch binding {
    case .null: self = .null
    case .integer(let number): self = type?.name == "Bool" ? .bool(number != 0) : .int(number)
    case .double(let number): self = .double(number)
    case .text(let text): self = .string(text)
    case .blob(let bytes): self = .array(bytes.map { .int(Int64($0)) })
    }
  }

  /// The SQLite value of a result.
  func binding(as type: SwiftType?) -> QueryBinding {
    switch self {
    case .null: return .null
    case .bool(let flag): return .integer(flag ? 1 : 0)
    case .int(let number): return type?.name == "Double" ? .double(Double(number)) : .integer(number)
    case .double(let number): return .double(number)
    case .string(let text): return .text(text)
    case .array(let values):
      // An array result is stored as JSON text, as `[T].JSONRepresentation` stores it.
      return .text("[" + values.map { value in
        switch value {
        case .string(let text): return "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        case .null: return "null"
        default: return value.binding(as: nil).inlineSQL
        }
      }.joined(separator: ",") + "]")
    }
  }
}

extension Compiler {
  /// Reads `@DatabaseFunction func name(…) -> T { … }` into the catalog: callable as `$name(…)`.
  func declareDatabaseFunction(_ function: FunctionDeclSyntax) throws {
    guard let body = function.body else { return }
    let reader = DeclarationReader(catalog: catalog, source: source, warn: { [unowned self] message, node in try self.warn(message, at: node) })
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
      parameters.append(.init(
        label: label, name: (parameter.secondName ?? parameter.firstName).text, type: reader.swiftType(type),
        defaultValue: parameter.defaultValue?.value))
    }
    if isAggregate, parameters.count != 1 {
      throw source.diagnostic("an aggregate @DatabaseFunction takes one sequence (of a value or a tuple)", at: function.signature)
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
    let name = function.name.text.trimmingCharacters(in: CharacterSet(charactersIn: "`"))
    catalog.databaseFunctions[name] = DatabaseFunction(
      name: name, parameters: parameters, returnType: returnType, isAggregate: isAggregate, isDeterministic: deterministic,
      body: body.statements, source: source, enums: catalog.enums,
      cannotRun: SubsetCheck.firstProblem(in: body, source: source))
  }

  /// `$name(…)`: a call of a `@DatabaseFunction`, its arguments matched to the parameters by
  /// label or position, defaults filled in.
  ///
  /// ```swift
  /// $concat(first: "a")   // "concat"('a', '')   (second: defaults to "")
  /// ```
  func callDatabaseFunction(_ function: DatabaseFunction, arguments: Arguments, at node: some SyntaxProtocol) throws -> Value {
    var given = arguments.list[...]
    var values: [QueryBuilder.Expression] = []
    for parameter in function.parameters {
      let type = parameter.type
      if let next = given.first, next.label == parameter.label || next.label == nil {
        given = given.dropFirst()
        values.append(try typedExpression(try evaluate(next.expression, expected: type), expected: type, at: next.expression).expression)
      } else if let fallback = parameter.defaultValue {
        values.append(try typedExpression(try evaluate(fallback, expected: type), expected: type, at: fallback).expression)
      } else {
        throw source.diagnostic(
          "'$\(function.name)' needs its argument '\(parameter.label ?? parameter.name)'", at: node)
      }
    }
    if let extra = given.first {
      throw source.diagnostic("'$\(function.name)' has no argument '\(extra.label ?? "_")' here", at: extra.labelNode)
    }
    let quoted = "\"" + function.name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    return .expression(TypedExpression(.function(quoted, values), type: function.returnType ?? SwiftType("Void", optional: true)))
  }
}

/// Finds the first thing in a `@DatabaseFunction` body outside the Swift Quarry runs, before
/// it is ever called, so a call fails with that message rather than half-way.
enum SubsetCheck {
  static let statements: Set<SyntaxKind> = [
    .codeBlockItemList, .codeBlockItem, .codeBlock, .returnStmt, .continueStmt, .breakStmt, .expressionStmt, .guardStmt,
    .forStmt, .variableDecl, .patternBindingList, .patternBinding, .identifierPattern, .wildcardPattern, .tuplePattern,
    .tuplePatternElementList, .tuplePatternElement, .initializerClause, .typeAnnotation, .conditionElementList,
    .conditionElement, .optionalBindingCondition, .ifExpr, .whereClause, .sequenceExpr, .exprList, .binaryOperatorExpr,
    .assignmentExpr, .integerLiteralExpr, .floatLiteralExpr, .booleanLiteralExpr, .nilLiteralExpr, .stringLiteralExpr,
    .stringLiteralSegmentList, .stringSegment, .expressionSegment, .labeledExprList, .labeledExpr, .arrayExpr,
    .arrayElementList, .arrayElement, .tupleExpr, .tryExpr, .declReferenceExpr, .prefixOperatorExpr, .forceUnwrapExpr,
    .ternaryExpr, .memberAccessExpr, .functionCallExpr, .closureExpr, .closureSignature, .closureShorthandParameterList,
    .closureShorthandParameter, .closureParameterClause, .closureParameterList, .closureParameter,
    .multipleTrailingClosureElementList, .declNameArgumentList, .token, .identifierType, .optionalType, .arrayType,
    .unexpectedNodes, .optionalChainingExpr, .genericArgumentClause, .genericArgumentList, .genericArgument,
    .attributeList, .declModifierList,
  ]

  static func firstProblem(in body: CodeBlockSyntax, source: SourceUnit) -> String? {
    for node in body.statements.children(viewMode: .sourceAccurate) {
      if let problem = visit(Syntax(node), source: source) { return problem }
    }
    return nil
  }

  private static func visit(_ node: Syntax, source: SourceUnit) -> String? {
    if !statements.contains(node.kind) {
      var text = node.trimmedDescription
      if let newline = text.firstIndex(of: "\n") { text = String(text[..<newline]) + " …" }
      if text.count > 40 { text = String(text.prefix(39)) + "…" }
      let location = source.lineAndColumn(of: node.positionAfterSkippingLeadingTrivia)
      return "\(location.line):\(location.column): its body uses '\(text)' (\(kindName(node))), which is outside the Swift Quarry runs"
    }
    for child in node.children(viewMode: .sourceAccurate) {
      if let problem = visit(child, source: source) { return problem }
    }
    return nil
  }
}
