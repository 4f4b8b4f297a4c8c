/// The methods of compound selects and other finished statements.
extension Vocabulary {
  /// Compound selects and other finished statements.
  static let statementEntries: [MethodSignature] = [
    M(
      "fetchAll(_ db: Database) -> [Row]", "SQLiteData: runs the statement and returns every row",
      example: "try Tag.select(\\.title).union(RemindersList.select(\\.title)).fetchAll(db)", handler: .databaseCall("fetchAll")),
    M(
      "fetchOne(_ db: Database) -> Row?", "SQLiteData: runs the statement for its first row",
      example: "try Tag.select(\\.title).union(RemindersList.select(\\.title)).fetchOne(db)", handler: .databaseCall("fetchOne")),
    M(
      "fetchCursor(_ db: Database) -> Cursor", "SQLiteData: runs the statement, rows read one at a time",
      example: "try Tag.select(\\.title).union(RemindersList.select(\\.title)).fetchCursor(db)", handler: .databaseCall("fetchCursor")),
    M(
      "execute(_ db: Database) -> Void", "SQLiteData: runs the statement now (app code)",
      example:
        "@Table struct Open { let title: String }\nOpen.createTemporaryView(as: Reminder.select { Open.Columns(title: $0.title) }).execute(db)",
      handler: .databaseCall("execute")),
    M(
      "union(all: Bool = false, _ other: Select) -> CompoundSelect", "Adds the rows of another query (UNION)",
      example: "Tag.select(\\.title).union(User.select(\\.name)).union(RemindersList.select(\\.title))",
      handler: .statement("union") { $0.compoundOfStatement }),
    M(
      "intersect(_ other: Select) -> CompoundSelect", "Keeps the rows also in another query (INTERSECT)",
      example: "Tag.select(\\.title).union(User.select(\\.name)).intersect(RemindersList.select(\\.title))",
      handler: .statement("intersect") { $0.compoundOfStatement }),
    M(
      "except(_ other: Select) -> CompoundSelect", "Leaves out the rows of another query (EXCEPT)",
      example: "Tag.select(\\.title).union(User.select(\\.name)).except(RemindersList.select(\\.title))",
      handler: .statement("except") { $0.compoundOfStatement }),
    M(
      "order(by ordering: (TableColumns) -> Orderings) -> CompoundSelect", "Sorts the rows of a compound select",
      example: "Tag.all.union(Tag.all).order(by: \\.title)",
      handler: .statement("order") { $0.orderOrLimitCompound }),
    M(
      "limit(_ maxLength: (TableColumns) -> Int, offset: ((TableColumns) -> Int)? = nil) -> CompoundSelect",
      "At most maxLength rows of a compound select",
      example: "Tag.all.union(Tag.all).limit(2)",
      handler: .statement("limit") { $0.orderOrLimitCompound }),
    M(
      "drop(ifExists: Bool = false) -> DropStatement", "Drops the view or trigger this statement created",
      example:
        "@Table struct Open { let title: String }\nOpen.createTemporaryView(as: Reminder.select { Open.Columns(title: $0.title) })\nOpen.createTemporaryView(as: Reminder.select { Open.Columns(title: $0.title) }).drop()",
      handler: .statement("drop") { $0.dropCreated }),
  ]
}
