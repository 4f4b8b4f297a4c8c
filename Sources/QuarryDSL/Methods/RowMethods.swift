import QueryBuilder
import SwiftSyntax

/// What methods of a whole row (`$0.`) and of a column group (`$0.timestamps.`) do: the handlers
/// of the row and column-group vocabulary.
///
/// ```swift
/// Tag.where { $0.eq(Tag(id: 1, title: "car")) }
/// // … WHERE (("tags"."id", "tags"."title") = (1, 'car'))
/// ```
struct RowMethods {
  unowned let compiler: Compiler
}

extension Compiler {
  /// Row methods, working in this compiler's context.
  var rowMethods: RowMethods { RowMethods(compiler: self) }
}

/// Column groups: nested `@Selection` structs and `@Selection`/`@Table` enums whose cases map to
/// nullable columns.
///
/// ```swift
/// // Attachment.where { $0.kind.is(\.video) }
/// // WHERE (("attachments"."videoURL", "attachments"."videoKind") IS NOT (NULL, NULL))
/// ```
extension RowMethods {
  /// `$0.kind` or `$0.kind.note`: one column, or a group of them.
  func groupMember(_ name: String, of table: TableInstance, prefix: [String], at node: some SyntaxProtocol) throws -> Value? {
    let path = prefix + [name]
    if let column = table.model.columns.first(where: { $0.path == path }) {
      if column.enumGroup != nil { compiler.features.insert(.enumCase(path.joined(separator: "."))) }
      return .expression(table.column(column))
    }
    if table.model.columns.contains(where: { $0.path.starts(with: path) }) {
      return .group(table, path: path)
    }
    return nil
  }

  func groupColumns(_ table: TableInstance, _ path: [String]) -> [TypedExpression] {
    table.model.columns(under: path).map(table.column)
  }

  /// A column group against a value of its type, as row values (SQLite compares them column by
  /// column, in order).
  ///
  /// ```swift
  /// Slot.where { $0.span <= Span(start: 1, end: 2) }
  /// // … WHERE (("slots"."start", "slots"."end") <= (1, 2))
  /// ```
  func compareGroup(_ table: TableInstance, path: [String], _ op: BinaryOperator, with syntax: ExprSyntax) throws -> Value {
    guard case .query(let record) = try compiler.evaluate(syntax), record.select.from == nil else {
      throw compiler.source.diagnostic("compare a column group with a value of its type (Status(…))", at: syntax)
    }
    let columns = groupColumns(table, path)
    guard columns.count == record.select.columns.count else {
      throw compiler.source.diagnostic(
        "this value has \(record.select.columns.count) columns, but the group has \(columns.count)", at: syntax)
    }
    let row = Expression(.row(columns.map(\.expression)))
    let given = Expression(.row(record.select.columns.map(\.expression)))
    return compiler.boolean(Expression(.sql([.expression(row), .text(" \(op.sql) "), .expression(given)])))
  }

  /// A method of a column group, run by its vocabulary entry's handler.
  func groupMethod(_ name: String, on table: TableInstance, path: [String], arguments: Arguments, at node: MemberAccessExprSyntax) throws
    -> Value
  {
    guard let value = try compiler.dispatch(name, on: .columnGroup, receiver: .group(table, path: path), CallSite(arguments, member: node))
    else {
      throw compiler.source.diagnostic(
        "a column group has no method '\(name)'; select it, or compare it with is(\\.case)", at: arguments.call.calledExpression)
    }
    return value
  }

  /// `$0.status.eq(Status())`: the group's columns against a value's, as row values.
  func compareGroupMethod(
    _ op: BinaryOperator, _ table: TableInstance, _ path: [String], _ arguments: Arguments, _ node: MemberAccessExprSyntax
  ) throws -> Value {
    let name = node.declName.baseName.text
    guard let syntax = arguments.first() else {
      throw compiler.source.diagnostic("compare a column group with a value of its type: .\(name)(Status(…))", at: arguments.call)
    }
    return try compareGroup(table, path: path, op, with: syntax)
  }

  /// `kind.is(\.note)`, `pair.isNot(nil)`, `kind.is(Attachment.Kind.note("x"))`.
  func groupIs(_ table: TableInstance, _ path: [String], _ arguments: Arguments, _ node: MemberAccessExprSyntax) throws -> Value {
    let name = node.declName.baseName.text
    let call = arguments.call
    guard let syntax = arguments.first() else { throw compiler.source.diagnostic("'\(name)' needs an argument", at: call) }
    var targetPath = path
    var op: BinaryOperator = name == "is" ? .is : .isNot
    let enumColumns = table.model.columns(under: path)
    if let caseCall = syntax.as(FunctionCallExprSyntax.self), caseCall.calledExpression.is(MemberAccessExprSyntax.self),
      !enumColumns.isEmpty, enumColumns.allSatisfy({ $0.enumGroup == path })
    {
      // `kind.is(Attachment.Kind.note("x"))`: the whole enum's columns against that case's row.
      let (caseName, payload) = try enumCase(syntax)
      let values = try caseValues(table.model, casePath: path + [caseName], payload: payload, at: syntax)
      let row = Expression(.row(enumColumns.map { table.column($0).expression }))
      let given = Expression(.row(enumColumns.map { values[$0.sqlName] ?? .null }))
      return compiler.boolean(Expression(.sql([.expression(row), .text(" \(op.sql) "), .expression(given)])))
    }
    switch try compiler.evaluate(syntax) {
    case .keyPath(let names):
      // `kind.is(\.note)`: the row holds that case.
      targetPath = path + names
      op = name == "is" ? .isNot : .is
    case .null:
      break
    default:
      throw compiler.source.diagnostic("compare a column group with a case key path (\\.note) or nil", at: syntax)
    }
    let columns = groupColumns(table, targetPath)
    guard !columns.isEmpty else {
      throw compiler.source.diagnostic("'\(path.joined(separator: "."))' has no case '\(targetPath.last ?? "")'", at: syntax)
    }
    if columns.count == 1 {
      return compiler.boolean(columns[0].expression.binary(op, .null))
    }
    // Row values compare without the extra parentheses of a binary operator.
    let row = Expression(.row(columns.map(\.expression)))
    let nulls = Expression(.row(columns.map { _ in Expression.null }))
    return compiler.boolean(Expression(.sql([.expression(row), .text(" \(op.sql) "), .expression(nulls)])))
  }

  /// Assignments for `$0.group = …` in an update, with the other cases of an enum set to NULL.
  func groupAssignments(_ target: Value, value syntax: ExprSyntax, table: TableInstance) throws -> [Assignment]? {
    let model = table.model
    switch target {
    case .group(_, let path):
      if model.columns(under: path).allSatisfy({ $0.enumGroup == path }) {
        // `$0.kind = .note("…")`: every column of the enum, in order.
        let (caseName, payload) = try enumCase(syntax)
        let values = try caseValues(model, casePath: path + [caseName], payload: payload, at: syntax)
        return model.columns(under: path).map { column in
          Assignment(column.sqlName, values[column.sqlName] ?? .null)
        }
      }
      // `$0.kind.image = Image.Selection(…)`: that case's columns, then the rest of the enum NULL.
      let values = try caseValues(model, casePath: path, payload: syntax, at: syntax)
      var result = model.columns(under: path).map { Assignment($0.sqlName, values[$0.sqlName] ?? .null) }
      if let enumPath = model.columns(under: path).first?.enumGroup {
        result += model.columns(under: enumPath).filter { !$0.path.starts(with: path) }.map { Assignment($0.sqlName, .null) }
      }
      return result
    case .expression(let expression):
      guard case .column(_, let sqlName) = expression.expression.node,
        let column = model.columns.first(where: { $0.sqlName == sqlName && $0.path.count > 1 }),
        let enumPath = column.enumGroup
      else { return nil }
      let value = try compiler.typedExpression(try compiler.evaluate(syntax, expected: column.type), expected: column.type, at: syntax)
      let casePath = Array(column.path.prefix(enumPath.count + 1))
      return [Assignment(column.sqlName, value.expression)]
        + model.columns(under: enumPath).filter { !$0.path.starts(with: casePath) }.map { Assignment($0.sqlName, .null) }
    default:
      return nil
    }
  }

  /// `.note("x")` / `Post.note("x")`: a case name and its payload syntax.
  func enumCase(_ syntax: ExprSyntax) throws -> (String, ExprSyntax?) {
    if let call = syntax.as(FunctionCallExprSyntax.self), let member = call.calledExpression.as(MemberAccessExprSyntax.self) {
      return (member.declName.baseName.text, call.arguments.first?.expression)
    }
    if let member = syntax.as(MemberAccessExprSyntax.self) {
      return (member.declName.baseName.text, nil)
    }
    throw compiler.source.diagnostic("expected an enum case like .note(\"…\")", at: syntax)
  }

  /// The values of one case's columns, by SQL name, from its payload.
  func caseValues(_ model: TableModel, casePath: [String], payload: ExprSyntax?, at node: some SyntaxProtocol) throws -> [String:
    Expression]
  {
    let columns = model.columns(under: casePath)
    guard !columns.isEmpty else {
      throw compiler.source.diagnostic(
        "'\(model.typeName)' has no case '\(casePath.last ?? "")'", at: node,
        suggestion: closestMatch(to: casePath.last ?? "", in: Set(model.columns.compactMap { $0.path.dropFirst(casePath.count - 1).first }))
      )
    }
    var values: [String: Expression] = [:]
    if columns.count == 1, columns[0].path == casePath {
      let column = columns[0]
      if let payload {
        values[column.sqlName] = try compiler.typedExpression(
          try compiler.evaluate(payload, expected: column.type), expected: column.type, at: payload
        ).expression
      } else {
        values[column.sqlName] = column.defaultValue ?? .value(.integer(1))
      }
      return values
    }
    // A struct payload: `Photo(url: …)` or `Image.Selection(caption: …, url: …)`.
    guard let call = payload?.as(FunctionCallExprSyntax.self) else {
      throw compiler.source.diagnostic("this case holds several columns; give them as Type(label: value, …)", at: node)
    }
    for argument in call.arguments {
      guard let label = argument.label?.text,
        let column = columns.first(where: { $0.path == casePath + [label] })
      else {
        throw compiler.source.diagnostic(
          "no column '\(argument.label?.text ?? "?")' in this case", at: argument,
          suggestion: closestMatch(to: argument.label?.text ?? "", in: columns.compactMap(\.path.last)))
      }
      values[column.sqlName] = try compiler.typedExpression(
        try compiler.evaluate(argument.expression, expected: column.type), expected: column.type, at: argument.expression
      ).expression
    }
    return values
  }

  /// One row of an enum table (`Post.note("x")`): every column, NULL outside the case.
  func enumRow(_ model: TableModel, call syntax: ExprSyntax) throws -> [(ColumnModel, Expression)] {
    let (caseName, payload) = try enumCase(syntax)
    let values = try caseValues(model, casePath: [caseName], payload: payload, at: syntax)
    return model.columns.map { ($0, values[$0.sqlName] ?? .null) }
  }

  /// `Notes.list([…])`, `Post.Selection.note("x")`: a one-row select of the case's columns.
  func enumCaseSelection(_ model: TableModel, call: FunctionCallExprSyntax) throws -> Value {
    let row = try enumRow(model, call: ExprSyntax(call))
    return .selection(row.map { ($0.0.sqlName, TypedExpression($0.1, type: $0.0.type)) }, model: model.typeName)
  }
}

extension RowMethods {
  /// Methods on a whole table's columns (`$1.count()`, `$1.jsonGroupArray()`).
  /// A method of a whole row (`$0.` of a table), run by its vocabulary entry's handler.
  func columnsMethod(_ name: String, on table: TableInstance, arguments: Arguments, at node: MemberAccessExprSyntax) throws -> Value {
    if let value = try compiler.dispatch(name, on: .row, receiver: .columns(table), CallSite(arguments, member: node)) {
      return value
    }
    let value = try compiler.columnMember(name, of: table, at: node)
    _ = value
    throw compiler.source.diagnostic("'\(name)' is a column, not a method", at: node.declName)
  }

  /// `$0.eq(Tag(…))`, `$0.is(row)`: every column against a row value's.
  func compareRowMethod(_ op: BinaryOperator, _ table: TableInstance, _ arguments: Arguments, _ node: MemberAccessExprSyntax) throws
    -> Value
  {
    guard let syntax = arguments.first() else {
      throw compiler.source.diagnostic("'\(node.declName.baseName.text)' needs a '\(table.model.typeName)(…)' value", at: arguments.call)
    }
    return try compareRow(table, op, with: syntax)
  }

  /// `$0.count(distinct:filter:)`: the rows of each group, by their primary key (StructuredQueries
  /// declares it for primary-keyed tables only: without a key the compiler refuses it).
  func countRows(_ table: TableInstance, _ arguments: Arguments, _ node: MemberAccessExprSyntax) throws -> Value {
    guard !table.model.primaryKeyColumns.isEmpty else {
      throw compiler.source.diagnostic(
        "referencing instance method 'count(distinct:filter:)' on 'QueryExpression' requires that '\(table.model.typeName)' conform to 'QueryBindable' (a table counts its rows by its primary key, and '\(table.model.typeName)' has none); count rows with '.count()' (count(*)) or a column with '$0.column.count()'",
        at: node.declName)
    }
    let key = table.model.primaryKey.map { table.column($0).expression } ?? .star
    var distinct = false
    if let syntax = arguments.labelled("distinct") { distinct = try compiler.booleanConstant(syntax, for: "distinct") }
    var filter: Expression?
    if let syntax = arguments.labelled("filter") { filter = try compiler.predicate(try compiler.evaluate(syntax), at: syntax) }
    return .expression(
      TypedExpression(
        Expression(.aggregate(Aggregate(name: "count", arguments: [key], distinct: distinct, filter: filter))), type: .int))
  }

  /// `$0.jsonObject()` and `$0.jsonGroupArray(…)`: the row as JSON.
  func rowJSON(_ table: TableInstance, _ arguments: Arguments, _ node: MemberAccessExprSyntax) throws -> Value {
    let name = node.declName.baseName.text
    let rowid = Expression.column(table.qualifier, "rowid")
    let present = rowid.binary(.isNot, .null)
    var objectArguments: [Expression] = []
    for column in table.model.columns {
      objectArguments.append(.literal(column.sqlName))
      let value = Expression.column(table.qualifier, column.sqlName)
      if column.type.isBool {
        objectArguments.append(
          .function(
            "json",
            [
              Expression(
                .caseWhen(
                  CaseExpression(
                    base: value,
                    whens: [
                      .init(Expression(.literal(.integer(0))), then: .literal("false")),
                      .init(Expression(.literal(.integer(1))), then: .literal("true")),
                    ],
                    otherwise: nil)))
            ]))
      } else {
        objectArguments.append(value)
      }
    }
    let object = Expression.function("json_object", objectArguments)
    if name == "jsonObject" {
      // The row as a JSON object (NULL when an outer join found no row).
      let value =
        table.isOptional
        ? Expression(.caseWhen(CaseExpression(base: nil, whens: [.init(present, then: object)], otherwise: nil))) : object
      return .expression(TypedExpression(value, type: .string))
    }
    var distinct = false
    if let syntax = arguments.labelled("distinct") { distinct = try compiler.booleanConstant(syntax, for: "distinct") }
    let extra = try arguments.labelled("filter").flatMap { try compiler.predicate(try compiler.evaluate($0), at: $0) }
    // A table whose row may be missing (outer join) skips the missing rows; others do not need to.
    let element =
      table.isOptional
      ? Expression(.caseWhen(CaseExpression(base: nil, whens: [.init(present, then: object)], otherwise: nil))) : object
    let filter = table.isOptional ? (extra.map { present.and($0) } ?? present) : extra
    return .expression(
      TypedExpression(
        Expression(.aggregate(Aggregate(name: "json_group_array", arguments: [element], distinct: distinct, filter: filter))),
        type: .string))
  }

}

extension RowMethods {
  /// `$0.eq(Tag(id: 1, title: "car"))`, `$0 > Tag(…)`: the whole row compared as a row value.
  ///
  /// ```swift
  /// Tag.where { $0 > Tag(id: 1, title: "car") }
  /// // … WHERE (("tags"."id", "tags"."title") > (1, 'car'))
  /// ```
  func compareRow(_ table: TableInstance, _ op: BinaryOperator, with syntax: ExprSyntax) throws -> Value {
    guard case .query(let record) = try compiler.evaluate(syntax), record.resultModel == table.model.typeName,
      record.select.columns.count == table.allColumns.count
    else {
      throw compiler.source.diagnostic(
        "a whole '\(table.model.typeName)' row compares with a '\(table.model.typeName)(…)' value that has every column", at: syntax)
    }
    let parts =
      Self.row(table.allColumns.map(\.expression)) + [.text(" \(op.sql) ")]
      + Self.row(record.select.columns.map(\.expression))
    return compiler.boolean(Expression(.sql(parts)))
  }

  /// A row value: `("a", "b")`.
  static func row(_ expressions: [Expression]) -> [SQLPart] {
    var parts: [SQLPart] = [.text("(")]
    for (index, expression) in expressions.enumerated() {
      if index > 0 { parts.append(.text(", ")) }
      parts.append(.expression(expression))
    }
    return parts + [.text(")")]
  }

}
