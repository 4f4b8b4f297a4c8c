import QueryBuilder
import SwiftSyntax

/// FTS5 full-text search: `match`, `bm25`, `highlight`, `snippet` (and `rank`, a column).
///
/// ```swift
/// // ReminderText.where { $0.match("take OR apple") }.order(by: \.rank)
/// // SELECT … FROM "reminderTexts"
/// // WHERE (("reminderTexts" MATCH 'take OR apple'))
/// // ORDER BY "reminderTexts"."rank"
/// ```
extension ExpressionMethods {
  /// The FTS5 table of a whole row (`$0.match(…)` on a table declared `FTS5`).
  private func ftsTable(_ name: String, _ table: TableInstance, _ arguments: Arguments) throws -> String {
    guard table.model.isFTS5 else {
      throw compiler.source.diagnostic(
        "'\(name)' needs an FTS5 table; '\(table.model.typeName)' is not declared as FTS5", at: arguments.call)
    }
    return quoteIdentifier(table.model.tableName)
  }

  /// `$0.match("pattern")` on a whole FTS5 row: `("table" MATCH 'pattern')`.
  func rowMatch(_ table: TableInstance, _ arguments: Arguments, _ node: MemberAccessExprSyntax) throws -> Value {
    let tableName = try ftsTable("match", table, arguments)
    guard let syntax = arguments.first() else { throw compiler.source.diagnostic("'match' needs a search pattern", at: arguments.call) }
    let pattern = try compiler.typedExpression(try compiler.evaluate(syntax, expected: .string), expected: .string, at: syntax)
    return compiler.boolean(Expression(.sql([.text("(" + tableName + " MATCH "), .expression(pattern.expression), .text(")")])))
  }

  /// `$0.bm25()`, `$0.bm25([\.title: 10, \.body: 1])`: the row's relevance (lower is better),
  /// with per-column weights found by column name, as StructuredQueries renders them.
  func bm25(_ table: TableInstance, _ arguments: Arguments, _ node: MemberAccessExprSyntax) throws -> Value {
    let tableName = try ftsTable("bm25", table, arguments)
    guard let syntax = arguments.first() else {
      return .expression(TypedExpression(.raw("bm25(" + tableName + ")"), type: .double))
    }
    guard let dictionary = syntax.as(DictionaryExprSyntax.self), case .elements(let elements) = dictionary.content else {
      throw compiler.source.diagnostic("'bm25' takes column weights like [\\.title: 10, \\.notes: 5]", at: syntax)
    }
    var weights: [(String, Double)] = []
    for element in elements {
      guard case .keyPath(let names) = try compiler.evaluate(element.key), let name = names.last,
        let column = table.model.column(named: name)
      else { throw compiler.source.diagnostic("a bm25 weight is keyed by a column key path", at: element.key) }
      guard let number = compiler.knownNumber(element.value) else {
        throw compiler.source.diagnostic("a bm25 weight is a number", at: element.value)
      }
      weights.append((column.sqlName, number))
    }
    let cases = weights.map { "WHEN \(quoteText($0.0)) THEN \(QueryBinding.double($0.1).inlineSQL)" }.joined(separator: " ")
    let perColumn = table.model.columns.indices.map { cid in
      "(SELECT CASE \"name\" \(cases) ELSE 1 END FROM pragma_table_info(\(quoteText(table.model.tableName))) WHERE \"cid\" = \(cid))"
    }
    return .expression(TypedExpression(.raw("bm25(" + ([tableName] + perColumn).joined(separator: ", ") + ")"), type: .double))
  }

  /// The FTS5 table and column of an expression that is a column of one (nil for anything else).
  private func ftsColumn(_ receiver: TypedExpression) -> (table: String, column: String)? {
    guard case .column(let qualifier?, let column) = receiver.expression.node,
      let table = tableInScope(qualifier: qualifier), table.model.isFTS5
    else { return nil }
    return (table.model.tableName, column)
  }

  /// `$0.title.match("milk")` on a column of an FTS5 table: the table matched with a
  /// column filter (`title:"milk"`).
  func columnMatch(_ name: String, _ receiver: TypedExpression, _ arguments: Arguments) throws -> Value {
    guard let (tableName, column) = ftsColumn(receiver) else { return try sqlFunctionCall(name, receiver, arguments) }
    guard let syntax = arguments.first(), case .expression(let e) = try compiler.evaluate(syntax) else {
      throw compiler.source.diagnostic("'match' on a column needs a string literal", at: arguments.call)
    }
    if case .value(.parameter(let runTime)) = e.expression.node {
      // A scan: the pattern the app builds from a value it has when it runs, bound as one.
      return compiler.boolean(
        Expression(
          .sql([
            .text("(" + quoteIdentifier(tableName) + " MATCH "), .expression(.value(.parameter(column + ":\"" + runTime + "\""))),
            .text(")"),
          ])))
    }
    guard case .value(.text(let text)) = e.expression.node else {
      throw compiler.source.diagnostic("'match' on a column needs a string literal", at: arguments.call)
    }
    let pattern = column + ":\"" + text.replacingOccurrences("\"", "\"\"") + "\""
    return compiler.boolean(
      Expression(
        .sql([
          .text("(" + quoteIdentifier(tableName) + " MATCH "), .expression(.value(.text(pattern))), .text(")"),
        ])))
  }

  /// `$0.body.highlight("<b>", "</b>")`, `$0.body.snippet(…)`: FTS5's auxiliary function of the
  /// table, at this column's index.
  func columnAuxiliary(_ name: String, _ receiver: TypedExpression, _ arguments: Arguments) throws -> Value {
    guard let (tableName, column) = ftsColumn(receiver) else { return try sqlFunctionCall(name, receiver, arguments) }
    let columnIndex = "(SELECT \"cid\" FROM pragma_table_info(\(quoteText(tableName))) WHERE \"name\" = \(quoteText(column)))"
    // As the library writes it: the column's index, a line break, then each argument quoted
    // into the SQL text (never bound): `highlight("t", (SELECT …),\n'**', '**')`.
    var parts: [SQLPart] = [.text(name + "(" + quoteIdentifier(tableName) + ", " + columnIndex + ",\n")]
    for (index, argument) in arguments.list.enumerated() {
      let value = try compiler.typedExpression(try compiler.evaluate(argument.expression), at: argument.expression)
      if index > 0 { parts.append(.text(", ")) }
      switch value.expression.node {
      case .value(.parameter(let runTime)): throw RunTimeValue(name: runTime)
      case .value(let binding): parts.append(.text(binding.inlineSQL))
      default: parts.append(.expression(value.expression))
      }
    }
    parts.append(.text(")"))
    return .expression(TypedExpression(Expression(.sql(parts)), type: .string))
  }

  /// The table a closure parameter with this qualifier stands for.
  func tableInScope(qualifier: String) -> TableInstance? {
    for scope in compiler.locals.reversed() {
      for value in scope.values {
        if case .columns(let table) = value, table.qualifier == qualifier { return table }
      }
    }
    return compiler.catalog.table(forTableName: qualifier).map { TableInstance(model: $0) }
  }
}
