import QueryBuilder
import SwiftSyntax

/// SQLite's JSON path functions on JSON-stored columns (`@Column(as: [String].JSONRepresentation.self)`),
/// as StructuredQueries renders them: a key path is a JSON path (`\.[0]` → `'$[0]'`,
/// `\.address.city` → `'$."address"."city"'`), and calls of the same function chain into one.
///
/// ```swift
/// Doc.update { $0.tags = $0.tags.jsonSet(\.[0], "z").jsonSet(\.[1], "y") }
/// // UPDATE "docs" SET "tags" = json_set("docs"."tags", '$[0]', 'z', '$[1]', 'y')
/// ```
extension ExpressionMethods {
  /// What a JSON path method is: its SQL function, and the arguments it takes.
  struct JSONPathFunction {
    var sql: String
    /// Whether a value to put at the path follows the path (not for `jsonExtract`, `jsonRemove`).
    var takesValue = true
    /// `jsonAppend`: the path is optional and means the end of that array (`$[#]`).
    var appends = false
    /// `jsonExtract`: the result is the member's value, not the JSON document.
    var extracts = false
  }

  /// The JSON path methods, by name.
  static let jsonPathFunctions: [String: JSONPathFunction] = [
    "jsonExtract": JSONPathFunction(sql: "json_extract", takesValue: false, extracts: true),
    "jsonSet": JSONPathFunction(sql: "json_set"), "jsonInsert": JSONPathFunction(sql: "json_insert"),
    "jsonReplace": JSONPathFunction(sql: "json_replace"),
    "jsonRemove": JSONPathFunction(sql: "json_remove", takesValue: false),
    "jsonAppend": JSONPathFunction(sql: "json_insert", appends: true),
    "jsonArrayInsert": JSONPathFunction(sql: "json_array_insert"),
  ]

  /// `jsonExtract`, `jsonSet`, `jsonInsert`, `jsonReplace`, `jsonRemove`, `jsonAppend`,
  /// `jsonArrayInsert` on a JSON-stored value: SQLite's JSON function at a key path.
  func jsonPathMethod(_ name: String, _ receiver: TypedExpression, _ arguments: Arguments) throws -> Value {
    let node = CallSite(arguments)
    guard let method = Self.jsonPathFunctions[name] else {
      throw compiler.unknownMethod(name, on: .expression, described: "an expression", at: node.nameNode)
    }
    let function = method.sql
    guard receiver.type?.representation?.contains("JSON") == true || receiver.type?.name.hasPrefix("[") == true else {
      throw compiler.source.diagnostic(
        "'\(name)' works on a JSON-stored value (a column declared with @Column(as: ….JSONRepresentation.self)), not on \(receiver.type.map { "a value of type \($0)" } ?? "this expression")",
        at: node.nameNode)
    }
    var pathSyntax: ExprSyntax?
    var valueSyntax: ExprSyntax?
    let positional = arguments.positional
    if !method.takesValue {
      pathSyntax = positional.first
    } else if positional.count >= 2 {
      pathSyntax = positional[0]
      valueSyntax = positional[1]
    } else if method.appends {
      // `jsonAppend(value)` appends to the array itself; `jsonAppend(\.path, value)` to one inside.
      valueSyntax = positional.first
    }
    if !method.appends && pathSyntax == nil {
      throw compiler.source.diagnostic(
        "'\(name)' needs a key path into the JSON value: .\(name)(\\.[0]\(method.takesValue ? ", value" : ""))", at: arguments.call)
    }
    var path = "$"
    if let pathSyntax { path = try jsonPath(pathSyntax) }
    if method.appends { path += "[#]" }
    var newArguments: [Expression] = [.literal(path)]
    if method.takesValue {
      guard let valueSyntax else {
        throw compiler.source.diagnostic("'\(name)' needs a value to put at the path", at: arguments.call)
      }
      let value = try compiler.typedExpression(try compiler.evaluate(valueSyntax), at: valueSyntax)
      newArguments.append(jsonEncoded(value))
    }
    if method.extracts {
      return .expression(TypedExpression(.function(function, [receiver.expression] + newArguments), type: nil))
    }
    // `.jsonSet(a).jsonSet(b)`: one call with both paths, as StructuredQueries chains them.
    if case .function(let existing, let existingArguments) = receiver.expression.node, existing == function {
      return .expression(TypedExpression(.function(function, existingArguments + newArguments), type: receiver.type))
    }
    return .expression(TypedExpression(.function(function, [receiver.expression] + newArguments), type: receiver.type))
  }

  /// A value as JSON path functions take it: Booleans as JSON `true`/`false`, JSON-stored values
  /// through `json(…)`, everything else as it is.
  private func jsonEncoded(_ value: TypedExpression) -> Expression {
    if value.type?.isBool == true {
      return .function(
        "json",
        [
          Expression(
            .caseWhen(
              CaseExpression(
                base: value.expression,
                whens: [
                  .init(Expression(.literal(.integer(0))), then: .literal("false")),
                  .init(Expression(.literal(.integer(1))), then: .literal("true")),
                ],
                otherwise: nil)))
        ])
    }
    if value.type?.representation?.contains("JSON") == true { return .function("json", [value.expression]) }
    return value.expression
  }

  /// A JSON path from a key path: `\.[0]` → `$[0]`, `\.[-1]` → `$[#-1]`, `\.name` → `$."name"`,
  /// `\.self` → `$`.
  func jsonPath(_ syntax: ExprSyntax) throws -> String {
    guard let keyPath = syntax.as(KeyPathExprSyntax.self) else {
      throw compiler.source.diagnostic("a JSON path is written as a key path: \\.[0], \\.name, \\.address.city", at: syntax)
    }
    var path = "$"
    for component in keyPath.components {
      switch component.component {
      case .property(let property):
        let name = property.declName.baseName.text
        if name == "self" { continue }
        let escaped = name.replacingOccurrences("\\", "\\\\").replacingOccurrences("\"", "\\\"")
        path += ".\"\(escaped)\""
      case .subscript(let subscriptComponent):
        guard subscriptComponent.arguments.count == 1, let argument = subscriptComponent.arguments.first,
          let index = compiler.knownInteger(argument.expression)
        else {
          throw compiler.source.diagnostic("a JSON path subscript is an integer index: \\.[0], \\.[-1]", at: subscriptComponent)
        }
        path += index < 0 ? "[#\(index)]" : "[\(index)]"
      case .optional:
        continue
      default:
        throw compiler.source.diagnostic("not supported in Quarry yet: this key path component in a JSON path", at: component)
      }
    }
    return path
  }
}

extension ExpressionMethods {
  /// A row of constant values (`Address(city: "Oslo", zip: "0150")`) as the JSON text
  /// StructuredQueries' encoder writes: pretty-printed, keys sorted; nil when a value is not
  /// known before the query runs.
  func jsonObject(_ query: Query) -> String? {
    guard query.select.from == nil else { return nil }
    var members: [(String, String)] = []
    for (index, column) in query.select.columns.enumerated() {
      guard case .value(let binding) = column.expression.node else { return nil }
      let type = index < query.columnTypes.count ? query.columnTypes[index] : nil
      let text: String
      switch binding {
      case .text(let value): text = jsonStringLiteral(value, escapingSlashes: true)
      case .integer(let number): text = type?.isBool == true ? (number == 0 ? "false" : "true") : String(number)
      case .double(let number): text = "\(number)"
      case .null, .blob: continue  // nil members are left out, as JSONEncoder does
      case .parameter: return nil
      }
      members.append((column.alias ?? "value", text))
    }
    if members.isEmpty { return "{\n\n}" }
    return "{\n"
      + members.sorted { $0.0 < $1.0 }.map { "  \(jsonStringLiteral($0.0, escapingSlashes: true)) : \($0.1)" }
      .joined(separator: ",\n") + "\n}"
  }
}

extension ExpressionMethods {
  /// `$0.geofence.jsonEach()`: the elements of a JSON array as rows (`key`, `value`) of SQLite's
  /// `json_each`, a query like any other (`where`, `select`, `count`, `exists`).
  ///
  /// ```swift
  /// Trip.select { ($0.title, $0.geofence.jsonEach().count()) }
  /// // SELECT "trips"."title", (SELECT count(*) FROM json_each("trips"."geofence")) FROM "trips"
  /// ```
  func jsonEach(_ name: String, _ receiver: TypedExpression, _ arguments: Arguments) throws -> Value {
    let node = CallSite(arguments)
    guard let type = receiver.type, type.representation?.contains("JSON") == true || type.name.hasPrefix("[") else {
      throw compiler.source.diagnostic(
        "'jsonEach' works on a JSON-stored array (a column declared with @Column(as: [T].JSONRepresentation.self))", at: node.nameNode)
    }
    // The element: `[Coordinate]` holds `Coordinate`s, themselves JSON inside the array.
    var elementName = type.name
    if elementName.hasPrefix("["), elementName.hasSuffix("]") { elementName = String(elementName.dropFirst().dropLast()) }
    let element = SwiftType(
      elementName, representation: compiler.catalog.table(forType: elementName) != nil ? elementName + ".JSONRepresentation" : nil)
    let model = TableModel(
      typeName: "json_each", tableName: "json_each",
      columns: [ColumnModel(name: "key", type: .int), ColumnModel(name: "value", type: element)], isDeclared: false)
    var table = TableInstance(model: model)
    var fragment = QueryFragment("json_each(")
    fragment.append(receiver.expression.fragment)
    fragment.append(")")
    table.sourceFragment = fragment
    return .query(Query(table))
  }
}
