/// The members of a table type, as StructuredQueries declares them on `Table` (and the
/// macro-generated `Draft`, `ID` and `Columns`).
extension Vocabulary {
  typealias M = MethodSignature

  /// A table's own members (it also has every query method).
  static let tableEntries: [MethodSignature] =
    [
      M("all -> Select", "Every row of the table", example: "Reminder.all", handler: .tableProperty("all") { $0.all }),
      M("none -> Where", "A query that matches no row", example: "Reminder.none", handler: .tableProperty("none") { $0.none }),
      M(
        "unscoped -> Select", "Every row, ignoring a default scope", example: "Reminder.unscoped",
        handler: .tableProperty("unscoped") { $0.unscoped }),
      M(
        "tableName -> String", "The table's name in SQL", example: "Reminder.tableName",
        handler: .tableProperty("tableName") { $0.tableName }),
      M(
        "columns -> TableColumns", "The table's columns, as $0 in a closure", example: "Reminder.select { _ in Reminder.columns.title }",
        handler: .tableProperty("columns") { $0.columnsProperty }),
      M(
        "as(_ alias: AliasName.Type) -> Self", "The table under another name (a self-join, a second copy)",
        example: "enum Other: AliasName {}\nReminder.as(Other.self).select(\\.title)", handler: .table("as") { $0.aliased }),
      M(
        "Draft(fields: Field...) -> Draft", "A row to insert, its primary key left to the database",
        example: "Tag.insert { Tag.Draft(title: \"home\") }", handler: .table("Draft") { $0.draft }),
      M(
        "ID(_ rawValue: PrimaryKey) -> ID", "A primary key's value (a Tagged ID is its raw value)",
        example: "Reminder.find(Reminder.ID(1))", handler: .table("ID") { $0.id }),
      M(
        "ID(rawValue: PrimaryKey) -> ID", "A Tagged primary key from its raw value",
        example: "Reminder.find(Reminder.ID(rawValue: 1))", handler: .table("ID") { $0.id }),
      M(
        "ID(uuidString: String) -> ID?", "A UUID primary key from its text (the key's type is UUID)",
        example:
          "CREATE TABLE visits (id TEXT PRIMARY KEY);\n@Table struct Visit: Identifiable { let id: UUID }\nVisit.find(Visit.ID(uuidString: \"deadbeef-0000-4000-8000-000000000000\")!)",
        handler: .table("ID") { $0.id }),
      M(
        "Columns(fields: Field...) -> Selection", "A row of a @Selection type built from named columns",
        example: "@Selection struct Row { var title: String }\nReminder.select { Row.Columns(title: $0.title) }",
        handler: .table("Columns") { $0.columns }),
    ]
    + insertForms(
      source: "_ values: () -> [Draft]", summary: "Inserts rows (records or drafts)",
      example: "Tag.insert { Tag.Draft(title: \"home\") }")
    + insertForms(
      source: "_ columns: (TableColumns) -> Columns, values: () -> [Values]", summary: "Inserts values into the given columns",
      example: "Tag.insert { $0.title } values: { \"home\" }")
    + insertForms(
      source: "_ columns: (TableColumns) -> Columns, select selection: () -> Select", summary: "Inserts the rows of a query",
      example: "Tag.insert { $0.title } select: { RemindersList.select(\\.title) }")
    + [
      M(
        "upsert(or conflictResolution: ConflictResolution? = nil, _ values: () -> [Draft]) -> Insert",
        "Inserts rows, updating the existing row with the same primary key",
        example: "Tag.upsert { Tag(id: 1, title: \"home\") }", handler: .table("upsert") { $0.upsert }),
      M(
        "createTemporaryView(ifNotExists: Bool = false, as select: Select) -> CreateView",
        "Creates a temporary view of this @Table type from a query",
        example:
          "@Table struct Open { let title: String }\nOpen.createTemporaryView(as: Reminder.where { !$0.isCompleted }.select { Open.Columns(title: $0.title) })\nOpen.all",
        handler: .table("createTemporaryView") { $0.createView }),
      M(
        "createTemporaryTrigger(_ name: String? = nil, ifNotExists: Bool = false, after operation: Trigger, fileID: String = #fileID, line: UInt = #line, column: UInt = #column) -> CreateTrigger",
        "Creates a temporary trigger that runs after an insert, update or delete",
        example: "Reminder.createTemporaryTrigger(after: .insert { new in Tag.insert { Tag.Draft(title: new.title) } })",
        handler: .table("createTemporaryTrigger") { m in { try m.trigger(on: $0, arguments: $1) } }),
      M(
        "createTemporaryTrigger(_ name: String? = nil, ifNotExists: Bool = false, afterInsertTouch touch: (inout Updates) -> Void, date: Date? = nil) -> CreateTrigger",
        "After each insert, updates the new row again (a closure of assignments, or a date column's key path)",
        example: "Reminder.createTemporaryTrigger(afterInsertTouch: \\.updatedAt)",
        handler: .table("createTemporaryTrigger") { m in { try m.trigger(on: $0, arguments: $1) } }),
      M(
        "createTemporaryTrigger(_ name: String? = nil, ifNotExists: Bool = false, afterUpdateTouch touch: (inout Updates) -> Void, date: Date? = nil) -> CreateTrigger",
        "After each update, updates the row again: a timestamp column (key path, optional date:) or a closure of assignments",
        example: "Reminder.createTemporaryTrigger(afterUpdateTouch: \\.updatedAt)",
        handler: .table("createTemporaryTrigger") { m in { try m.trigger(on: $0, arguments: $1) } }),
      M(
        "createTemporaryTrigger(_ name: String? = nil, ifNotExists: Bool = false, before operation: Trigger, fileID: String = #fileID, line: UInt = #line, column: UInt = #column) -> CreateTrigger",
        "Creates a temporary trigger that runs before an insert, update or delete",
        example: "Reminder.createTemporaryTrigger(before: .delete { old in Tag.where { $0.title.eq(old.title) }.delete() })",
        handler: .table("createTemporaryTrigger") { m in { try m.trigger(on: $0, arguments: $1) } }),
      M(
        "createTemporaryTrigger(_ name: String? = nil, ifNotExists: Bool = false, insteadOf operation: Trigger, fileID: String = #fileID, line: UInt = #line, column: UInt = #column) -> CreateTrigger",
        "Creates a temporary trigger that runs instead of a write to a view",
        example:
          "@Table struct Open { let title: String }\nOpen.createTemporaryView(as: Reminder.select { Open.Columns(title: $0.title) })\nOpen.createTemporaryTrigger(insteadOf: .insert { new in Tag.insert { Tag.Draft(title: new.title) } })\nOpen.insert { Open(title: \"via the view\") }",
        handler: .table("createTemporaryTrigger") { m in { try m.trigger(on: $0, arguments: $1) } }),
    ]

  /// The forms of `insert` for one source of rows: plain, with an ON CONFLICT target and its
  /// DO UPDATE (each with an optional `where:`), or with `onConflictDoUpdate:`.
  private static func insertForms(source: String, summary: String, example: String) -> [MethodSignature] {
    let head = "insert(or conflictResolution: ConflictResolution? = nil, \(source)"
    let filter = "((TableColumns) -> Bool)? = nil"
    let update = "((inout Updates, Excluded) -> Void)? = nil"
    let insert = MethodHandler.table("insert") { $0.insert }
    return [
      M(
        head
          + ", onConflict: ((TableColumns) -> Target)? = nil, where targetFilter: \(filter), doUpdate: \(update), where updateFilter: \(filter)) -> Insert",
        summary + "; onConflict: names the conflict target, doUpdate: what to change instead (upsert)",
        example: example.hasPrefix("Tag.insert { Tag.Draft")
          ? "Tag.insert { Tag(id: 1, title: \"home\") } onConflict: { $0.id } doUpdate: { $0.title = $1.title }" : example, handler: insert),
      M(
        head + ", onConflictDoUpdate: ((inout Updates, Excluded) -> Void), where updateFilter: \(filter)) -> Insert",
        summary + "; on any conflict, changes the existing row instead",
        example: example.hasPrefix("Tag.insert { Tag.Draft")
          ? "Tag.insert { Tag(id: 1, title: \"home\") } onConflictDoUpdate: { $0.title = $1.title }"
          : example + " onConflictDoUpdate: { $0.title += \"!\" }", handler: insert),
    ]
  }
}
