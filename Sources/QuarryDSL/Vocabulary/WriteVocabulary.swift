/// The methods of `Insert`, `Update` and `Delete` statements.
extension Vocabulary {
  /// `Insert`, `Update` and `Delete` statements.
  static let writeEntries: [MethodSignature] = [
    M(
      "fetchAll(_ db: Database) -> [Returning]", "SQLiteData: runs the statement and returns the rows of its RETURNING",
      example: "try Tag.insert { Tag.Draft(title: \"home\") }.returning(\\.id).fetchAll(db)", handler: .databaseCall("fetchAll")),
    M(
      "fetchOne(_ db: Database) -> Returning?", "SQLiteData: runs the statement and returns the first row of its RETURNING",
      example: "try Tag.insert { Tag.Draft(title: \"home\") }.returning(\\.id).fetchOne(db)", handler: .databaseCall("fetchOne")),
    M(
      "fetchCursor(_ db: Database) -> Cursor", "SQLiteData: runs the statement, its RETURNING rows read one at a time",
      example: "try Tag.delete().returning(\\.title).fetchCursor(db)", handler: .databaseCall("fetchCursor")),
    M(
      "execute(_ db: Database) -> Void", "SQLiteData: runs the statement now (app code)",
      example: "try Reminder.where(\\.isCompleted).delete().execute(db)", handler: .databaseCall("execute")),
    M(
      "where(_ predicate: (TableColumns) -> Bool) -> Self", "Limits an update or delete to the rows where the condition holds",
      example: "Reminder.delete().where(\\.isCompleted)", handler: .write("where") { m in { try m.filtered("where", $0, $1) } }),
    M(
      "find(_ primaryKey: PrimaryKey) -> Self", "Limits an update or delete to the row with this primary key",
      example: "Reminder.delete().find(1)", handler: .write("find") { m in { try m.filtered("find", $0, $1) } }),
    M(
      "returning(_ selection: (TableColumns) -> Columns) -> Self", "Returns columns of the written rows (RETURNING)",
      example: "Tag.insert { Tag.Draft(title: \"home\") }.returning(\\.id)", handler: .write("returning") { $0.returning }),
  ]
}
