import QueryBuilder
import SwiftSyntax

/// Rows app code fetches and then uses as Swift values: `let lists = try RemindersList.fetchAll(db)`
/// binds `lists` to the rows themselves (records of the model), so `for list in lists { … }`,
/// `lists.count` and `Reminder.Draft(lists[0])` are followed as the app runs them.
///
/// ```swift
/// let lists = try RemindersList.order(by: \.title).fetchAll(db)
/// for list in lists {
///   try Reminder.where { $0.remindersListID.eq(list.id) }.fetchCount(db)
/// }
/// // SELECT … FROM "remindersLists" ORDER BY "remindersLists"."title"
/// // SELECT count(*) FROM "reminders" WHERE ("reminders"."remindersListID" = 1)
/// // SELECT count(*) FROM "reminders" WHERE ("reminders"."remindersListID" = 2)  …
/// ```
extension AppCodeRunner {
  /// How many rows one fetch may bring into app code's Swift values.
  static let maximumFetchedRows = 10_000

  /// The value app code holds after running `fetch` (`fetchAll`, `fetchOne`, `fetchCount`, …)
  /// of `query`: the rows as Swift values, read from the database now, after the changes the
  /// input makes before the fetch. Nil when there is no database to read.
  func fetchedValue(of query: Value, statement: CompiledStatement, call: ExprSyntax, before items: [CompiledItem]) throws -> Value? {
    guard let readRows = compiler.rowReader, let (_, method) = Self.call(call), statement.statement.isRead else { return nil }
    let earlierChanges = items.compactMap { item -> Statement? in
      if case .statement(let compiled) = item, !compiled.statement.isRead { return compiled.statement }
      return nil
    }
    let rows: [[QueryBinding]]
    do {
      rows = try readRows(statement.statement, earlierChanges)
    } catch {
      // The statement itself reports the failure where it runs.
      return nil
    }
    guard rows.count <= Self.maximumFetchedRows else {
      throw compiler.source.diagnostic(
        "the app fetches \(rows.count) rows here; Quarry follows at most \(Self.maximumFetchedRows) as Swift values", at: call)
    }
    let values = rows.map { row(of: query, $0, types: statement.columnTypes) }
    switch method {
    case "fetchOne", "find": return values.first ?? .null
    case "fetchCount": return rows.first?.first.map { .expression(TypedExpression(.value($0), type: .int)) } ?? .null
    default: return .array(values)
    }
  }

  /// One row as the app's Swift value: a record of the model a whole-row query fetches (or of
  /// the @Selection type it selects into), the value of a single column, a tuple of several.
  private func row(of query: Value, _ bindings: [QueryBinding], types: [SwiftType?]) -> Value {
    func value(_ index: Int) -> Value {
      let type = types.indices.contains(index) ? types[index] : nil
      return .expression(TypedExpression(.value(bindings[index]), type: type))
    }
    if case .query(let fetched) = query,
      let typeName = fetched.resultModel ?? (fetched.select.columns.isEmpty ? fetched.tables.first?.model.typeName : nil),
      let model = compiler.catalog.table(forType: typeName)
    {
      let columns = fetched.select.columns.isEmpty ? model.columns : []
      let names = columns.isEmpty ? fetched.select.columns.map { $0.alias ?? "" } : columns.map(\.sqlName)
      if names.count == bindings.count, !names.contains("") {
        var select = Select(from: nil)
        select.columns = names.indices.map { ResultColumn(.value(bindings[$0]), as: names[$0]) }
        var record = Query(select: select, tables: [TableInstance(model: model)])
        record.columnTypes = names.indices.map { types.indices.contains($0) ? types[$0] : nil }
        record.resultModel = model.typeName
        return .query(record)
      }
    }
    if bindings.count == 1 { return value(0) }
    return .tuple(bindings.indices.map(value))
  }
}
