/// The methods of tables, queries and statements, as StructuredQueries declares them
/// (`Table`, `Select`, `Where`, `Insert`, `Update`, `Delete`, compound selects).
extension Vocabulary {
  typealias M = MethodSignature

  /// A table's own members (it also has every query method).
  static let tableEntries: [MethodSignature] = [
    M("all -> Select", "Every row of the table", example: "Reminder.all", handler: .tableProperty("all") { $0.all }),
    M("none -> Where", "A query that matches no row", example: "Reminder.none", handler: .tableProperty("none") { $0.none }),
    M("unscoped -> Select", "Every row, ignoring a default scope", example: "Reminder.unscoped", handler: .tableProperty("unscoped") { $0.unscoped }),
    M("tableName -> String", "The table's name in SQL", example: "Reminder.tableName", handler: .tableProperty("tableName") { $0.tableName }),
    M("columns -> TableColumns", "The table's columns, as $0 in a closure", example: "Reminder.select { _ in Reminder.columns.title }", handler: .tableProperty("columns") { $0.columnsProperty }),
    M("as(_ alias: AliasName.Type) -> Self", "The table under another name (a self-join, a second copy)",
      example: "enum Other: AliasName {}\nReminder.as(Other.self).select(\\.title)", handler: .table("as") { $0.aliased }),
    M("Draft(fields: Field...) -> Draft", "A row to insert, its primary key left to the database",
      example: "Tag.insert { Tag.Draft(title: \"home\") }", handler: .table("Draft") { $0.draft }),
    M("ID(_ rawValue: PrimaryKey) -> ID", "A primary key's value (a Tagged ID is its raw value)",
      example: "Reminder.find(Reminder.ID(1))", handler: .table("ID") { $0.id }),
    M("ID(rawValue: PrimaryKey) -> ID", "A Tagged primary key from its raw value",
      example: "Reminder.find(Reminder.ID(rawValue: 1))", handler: .table("ID") { $0.id }),
    M("Columns(fields: Field...) -> Selection", "A row of a @Selection type built from named columns",
      example: "@Selection struct Row { var title: String }\nReminder.select { Row.Columns(title: $0.title) }", handler: .table("Columns") { $0.columns }),
  ]
    + insertForms(source: "_ values: () -> [Draft]", summary: "Inserts rows (records or drafts)",
                  example: "Tag.insert { Tag.Draft(title: \"home\") }")
    + insertForms(source: "_ columns: (TableColumns) -> Columns, values: () -> [Values]", summary: "Inserts values into the given columns",
                  example: "Tag.insert { $0.title } values: { \"home\" }")
    + insertForms(source: "_ columns: (TableColumns) -> Columns, select selection: () -> Select", summary: "Inserts the rows of a query",
                  example: "Tag.insert { $0.title } select: { RemindersList.select(\\.title) }")
    + [
    M("upsert(or conflictResolution: ConflictResolution? = nil, _ values: () -> [Draft]) -> Insert", "Inserts rows, updating the existing row with the same primary key",
      example: "Tag.upsert { Tag(id: 1, title: \"home\") }", handler: .table("upsert") { $0.upsert }),
    M("createTemporaryView(ifNotExists: Bool = false, as select: Select) -> CreateView",
      "Creates a temporary view of this @Table type from a query",
      example: "@Table struct Open { let title: String }\nOpen.createTemporaryView(as: Reminder.where { !$0.isCompleted }.select { Open.Columns(title: $0.title) })\nOpen.all", handler: .table("createTemporaryView") { $0.createView }),
    M("createTemporaryTrigger(_ name: String? = nil, ifNotExists: Bool = false, after operation: Trigger, fileID: String = #fileID, line: UInt = #line, column: UInt = #column) -> CreateTrigger",
      "Creates a temporary trigger that runs after an insert, update or delete",
      example: "Reminder.createTemporaryTrigger(after: .insert { new in Tag.insert { Tag.Draft(title: new.title) } })", handler: .table("createTemporaryTrigger") { m in { try m.trigger(on: $0, arguments: $1) } }),
    M("createTemporaryTrigger(_ name: String? = nil, ifNotExists: Bool = false, afterInsertTouch touch: (inout Updates) -> Void, date: Date? = nil) -> CreateTrigger",
      "After each insert, updates the new row again (a closure of assignments, or a date column's key path)",
      example: "Reminder.createTemporaryTrigger(afterInsertTouch: \\.updatedAt)", handler: .table("createTemporaryTrigger") { m in { try m.trigger(on: $0, arguments: $1) } }),
    M("createTemporaryTrigger(_ name: String? = nil, ifNotExists: Bool = false, afterUpdateTouch touch: (inout Updates) -> Void, date: Date? = nil) -> CreateTrigger",
      "After each update, updates the row again: a timestamp column (key path, optional date:) or a closure of assignments",
      example: "Reminder.createTemporaryTrigger(afterUpdateTouch: \\.updatedAt)", handler: .table("createTemporaryTrigger") { m in { try m.trigger(on: $0, arguments: $1) } }),
    M("createTemporaryTrigger(_ name: String? = nil, ifNotExists: Bool = false, before operation: Trigger, fileID: String = #fileID, line: UInt = #line, column: UInt = #column) -> CreateTrigger",
      "Creates a temporary trigger that runs before an insert, update or delete",
      example: "Reminder.createTemporaryTrigger(before: .delete { old in Tag.where { $0.title.eq(old.title) }.delete() })", handler: .table("createTemporaryTrigger") { m in { try m.trigger(on: $0, arguments: $1) } }),
    M("createTemporaryTrigger(_ name: String? = nil, ifNotExists: Bool = false, insteadOf operation: Trigger, fileID: String = #fileID, line: UInt = #line, column: UInt = #column) -> CreateTrigger",
      "Creates a temporary trigger that runs instead of a write to a view",
      example: "@Table struct Open { let title: String }\nOpen.createTemporaryView(as: Reminder.select { Open.Columns(title: $0.title) })\nOpen.createTemporaryTrigger(insteadOf: .insert { new in Tag.insert { Tag.Draft(title: new.title) } })\nOpen.insert { Open(title: \"via the view\") }", handler: .table("createTemporaryTrigger") { m in { try m.trigger(on: $0, arguments: $1) } }),
  ]

  /// The forms of `insert` for one source of rows: plain, with an ON CONFLICT target and its
  /// DO UPDATE (each with an optional `where:`), or with `onConflictDoUpdate:`.
  private static func insertForms(source: String, summary: String, example: String) -> [MethodSignature] {
    let head = "insert(or conflictResolution: ConflictResolution? = nil, \(source)"
    let filter = "((TableColumns) -> Bool)? = nil"
    let update = "((inout Updates, Excluded) -> Void)? = nil"
    let insert = MethodHandler.table("insert") { $0.insert }
    return [
      M(head + ", onConflict: ((TableColumns) -> Target)? = nil, where targetFilter: \(filter), doUpdate: \(update), where updateFilter: \(filter)) -> Insert",
        summary + "; onConflict: names the conflict target, doUpdate: what to change instead (upsert)",
        example: example.hasPrefix("Tag.insert { Tag.Draft")
          ? "Tag.insert { Tag(id: 1, title: \"home\") } onConflict: { $0.id } doUpdate: { $0.title = $1.title }" : example, handler: insert),
      M(head + ", onConflictDoUpdate: ((inout Updates, Excluded) -> Void), where updateFilter: \(filter)) -> Insert",
        summary + "; on any conflict, changes the existing row instead",
        example: example.hasPrefix("Tag.insert { Tag.Draft")
          ? "Tag.insert { Tag(id: 1, title: \"home\") } onConflictDoUpdate: { $0.title = $1.title }"
          : example + " onConflictDoUpdate: { $0.title += \"!\" }", handler: insert),
    ]
  }

  /// `Select` and `Where`: the clauses of a query.
  static let queryEntries: [MethodSignature] = [
    M("where(_ predicate: (TableColumns) -> Bool) -> Where", "Keeps the rows where the condition holds (SQL WHERE)",
      example: "Reminder.where { !$0.isCompleted }", handler: .query("where") { $0.filter }),
    M("filter(_ predicate: (TableColumns) -> Bool) -> Where", "Another name for where",
      example: "Reminder.filter { $0.isFlagged }", handler: .query("filter") { $0.filter }),
    M("find(_ primaryKey: PrimaryKey) -> Where", "The row (or rows, given a list) with this primary key",
      example: "Reminder.find(1)", handler: .query("find") { $0.find }),
    M("find(_ db: Database, key primaryKey: PrimaryKey) -> Row", "SQLiteData: fetches the row with this primary key now (LIMIT 1)",
      example: "try Reminder.find(db, key: 1)", handler: .query("find") { $0.findNow }),
    M("fetchAll(_ db: Database) -> [Row]", "SQLiteData: runs the query and returns every row",
      example: "try Reminder.where(\\.isFlagged).fetchAll(db)", handler: .databaseCall("fetchAll")),
    M("fetchOne(_ db: Database) -> Row?", "SQLiteData: runs the query for one row (a whole-row query gets LIMIT 1)",
      example: "try Reminder.order(by: \\.title).fetchOne(db)", handler: .databaseCall("fetchOne")),
    M("fetchCount(_ db: Database) -> Int", "SQLiteData: counts the query's rows (SELECT count(*))",
      example: "try Reminder.where(\\.isFlagged).fetchCount(db)", handler: .databaseCall("fetchCount")),
    M("fetchCursor(_ db: Database) -> Cursor", "SQLiteData: runs the query, rows read one at a time",
      example: "try Reminder.all.fetchCursor(db)", handler: .databaseCall("fetchCursor")),
    M("and(_ other: Where) -> Where", "Both this query's condition and another's", example: "Reminder.where(\\.isFlagged).and(Reminder.where(\\.isCompleted))", handler: .query("and") { m in { try m.combination("and", $0, $1) } }),
    M("or(_ other: Where) -> Where", "This query's condition or another's", example: "Reminder.where(\\.isFlagged).or(Reminder.where(\\.isCompleted))", handler: .query("or") { m in { try m.combination("or", $0, $1) } }),
    M("not() -> Where", "The opposite condition", example: "Reminder.where(\\.isFlagged).not()", handler: .query("not") { $0.negation }),
    M("select(_ selection: (TableColumns) -> Columns) -> Select", "The columns or expressions to return (a key path or a closure)",
      example: "Reminder.select { ($0.id, $0.title) }", handler: .query("select") { $0.select }),
    M("map(_ transform: (Columns) -> Columns) -> Select", "Changes the selected columns of a query",
      example: "Reminder.select(\\.title).map { $0.upper() }", handler: .query("map") { $0.map }),
    M("distinct(_ isDistinct: Bool = true) -> Select", "Leaves out repeated rows (SELECT DISTINCT)",
      example: "Reminder.distinct().select(\\.priority)", handler: .query("distinct") { $0.distinct }),
    M("join(_ other: Select, on constraint: (TableColumns, Other) -> Bool) -> Select", "Pairs each row with the matching rows of another table (INNER JOIN)",
      example: "RemindersList.join(Reminder.all) { $0.id.eq($1.remindersListID) }", handler: .query("join") { m in { try m.join("join", $0, $1) } }),
    M("leftJoin(_ other: Select, on constraint: (TableColumns, Other) -> Bool) -> Select", "Like join, keeping rows without a match (their other columns are NULL)",
      example: "RemindersList.leftJoin(Reminder.all) { $0.id.eq($1.remindersListID) }", handler: .query("leftJoin") { m in { try m.join("leftJoin", $0, $1) } }),
    M("rightJoin(_ other: Select, on constraint: (TableColumns, Other) -> Bool) -> Select", "Like join, keeping the other table's rows without a match",
      example: "RemindersList.rightJoin(Reminder.all) { $0.id.eq($1.remindersListID) }", handler: .query("rightJoin") { m in { try m.join("rightJoin", $0, $1) } }),
    M("fullJoin(_ other: Select, on constraint: (TableColumns, Other) -> Bool) -> Select", "Like join, keeping unmatched rows of both tables",
      example: "RemindersList.fullJoin(Reminder.all) { $0.id.eq($1.remindersListID) }", handler: .query("fullJoin") { m in { try m.join("fullJoin", $0, $1) } }),
    M("crossJoin(_ other: Select) -> Select", "Pairs every row with every row of another table",
      example: "Tag.crossJoin(User.all)", handler: .query("crossJoin") { m in { try m.join("crossJoin", $0, $1) } }),
    M("group(by grouping: (TableColumns) -> Columns) -> Select", "One result row per group of equal values (GROUP BY)",
      example: "Reminder.group(by: \\.remindersListID).select { ($0.remindersListID, $0.id.count()) }", handler: .query("group") { $0.group }),
    M("having(_ predicate: (TableColumns) -> Bool) -> Select", "Keeps the groups where the condition holds (HAVING)",
      example: "Reminder.group(by: \\.remindersListID).having { $0.id.count() > 2 }.select(\\.remindersListID)", handler: .query("having") { $0.having }),
    M("order(by ordering: (TableColumns) -> Orderings) -> Select", "Sorts the rows (ORDER BY); .desc() for descending",
      example: "Reminder.order { ($0.priority.desc(), $0.title) }", handler: .query("order") { $0.order }),
    M("limit(_ maxLength: (TableColumns) -> Int) -> Select", "At most maxLength rows (LIMIT)",
      example: "Reminder.order(by: \\.title).limit(3)", handler: .query("limit") { $0.limit }),
    M("limit(_ maxLength: (TableColumns) -> Int, offset: (TableColumns) -> Int) -> Select", "At most maxLength rows, after skipping offset rows",
      example: "Reminder.order(by: \\.title).limit(3, offset: 1)",
      availability: .deprecated(message: "Use 'limit(_:)' and 'offset(_:)', instead."), handler: .query("limit") { $0.limit }),
    M("offset(_ offset: (TableColumns) -> Int) -> Select", "Skips the first rows (OFFSET)",
      example: "Reminder.order(by: \\.title).limit(2).offset(1)", handler: .query("offset") { $0.offset }),
    M("count(filter: ((TableColumns) -> Bool)? = nil) -> Select", "The number of rows (SELECT count(*))",
      example: "Reminder.count(filter: \\.isCompleted)", handler: .query("count") { $0.count }),
    M("exists() -> Bool", "Whether the query has any row (EXISTS)",
      example: "RemindersList.where { list in Reminder.where { $0.remindersListID.eq(list.id) }.exists() }", handler: .query("exists") { $0.exists }),
    M("contains(_ element: Expression) -> Bool", "Whether a value is among the query's rows (IN a subquery)",
      example: "Reminder.where { Tag.select(\\.id).contains($0.id) }",
      availability: .deprecated(message: "Prefer 'element.in(self)' instead"), handler: .query("contains") { $0.contains }),
    M("as(_ alias: AliasName.Type) -> Select", "The query's table under another name",
      example: "enum Other: AliasName {}\nReminder.all.as(Other.self)", handler: .query("as") { $0.aliased }),
    M("delete() -> Delete", "Deletes the rows the query matches", example: "Reminder.where(\\.isCompleted).delete()", handler: .query("delete") { $0.compiler.writeMethods.delete }),
    M("delete(_ row: Self) -> Delete", "Deletes this row (by its primary key)",
      example: "Tag.delete(Tag(id: 1, title: \"errand\"))", handler: .query("delete") { $0.compiler.writeMethods.delete }),
    M("update(set updates: (inout Updates) -> Void) -> Update", "Changes columns of the rows the query matches",
      example: "Reminder.where { $0.id.eq(1) }.update { $0.isFlagged.toggle() }", handler: .query("update") { $0.compiler.writeMethods.update }),
    M("update(_ row: Self) -> Update", "Writes every column of this row (found by its primary key)",
      example: "Tag.update(Tag(id: 1, title: \"chore\"))", handler: .query("update") { $0.compiler.writeMethods.update }),
    M("union(all: Bool = false, _ other: Select) -> CompoundSelect", "The rows of both queries (UNION, or UNION ALL to keep repeats)",
      example: "Tag.select(\\.title).union(RemindersList.select(\\.title))", handler: .query("union") { m in { try m.compiler.statementMethods.compoundOfQuery("union", $0, $1) } }),
    M("intersect(_ other: Select) -> CompoundSelect", "The rows in both queries (INTERSECT)",
      example: "Tag.select(\\.title).intersect(RemindersList.select(\\.title))", handler: .query("intersect") { m in { try m.compiler.statementMethods.compoundOfQuery("intersect", $0, $1) } }),
    M("except(_ other: Select) -> CompoundSelect", "The rows of this query that are not in the other (EXCEPT)",
      example: "Tag.select(\\.title).except(RemindersList.select(\\.title))", handler: .query("except") { m in { try m.compiler.statementMethods.compoundOfQuery("except", $0, $1) } }),
  ]

  /// `Insert`, `Update` and `Delete` statements.
  static let writeEntries: [MethodSignature] = [
    M("fetchAll(_ db: Database) -> [Returning]", "SQLiteData: runs the statement and returns the rows of its RETURNING",
      example: "try Tag.insert { Tag.Draft(title: \"home\") }.returning(\\.id).fetchAll(db)", handler: .databaseCall("fetchAll")),
    M("fetchOne(_ db: Database) -> Returning?", "SQLiteData: runs the statement and returns the first row of its RETURNING",
      example: "try Tag.insert { Tag.Draft(title: \"home\") }.returning(\\.id).fetchOne(db)", handler: .databaseCall("fetchOne")),
    M("fetchCursor(_ db: Database) -> Cursor", "SQLiteData: runs the statement, its RETURNING rows read one at a time",
      example: "try Tag.delete().returning(\\.title).fetchCursor(db)", handler: .databaseCall("fetchCursor")),
    M("execute(_ db: Database) -> Void", "SQLiteData: runs the statement now (app code)",
      example: "try Reminder.where(\\.isCompleted).delete().execute(db)", handler: .databaseCall("execute")),
    M("where(_ predicate: (TableColumns) -> Bool) -> Self", "Limits an update or delete to the rows where the condition holds",
      example: "Reminder.delete().where(\\.isCompleted)", handler: .write("where") { m in { try m.filtered("where", $0, $1) } }),
    M("find(_ primaryKey: PrimaryKey) -> Self", "Limits an update or delete to the row with this primary key",
      example: "Reminder.delete().find(1)", handler: .write("find") { m in { try m.filtered("find", $0, $1) } }),
    M("returning(_ selection: (TableColumns) -> Columns) -> Self", "Returns columns of the written rows (RETURNING)",
      example: "Tag.insert { Tag.Draft(title: \"home\") }.returning(\\.id)", handler: .write("returning") { $0.returning }),
  ]

  /// Compound selects and other finished statements.
  static let statementEntries: [MethodSignature] = [
    M("fetchAll(_ db: Database) -> [Row]", "SQLiteData: runs the statement and returns every row",
      example: "try Tag.select(\\.title).union(RemindersList.select(\\.title)).fetchAll(db)", handler: .databaseCall("fetchAll")),
    M("fetchOne(_ db: Database) -> Row?", "SQLiteData: runs the statement for its first row",
      example: "try Tag.select(\\.title).union(RemindersList.select(\\.title)).fetchOne(db)", handler: .databaseCall("fetchOne")),
    M("fetchCursor(_ db: Database) -> Cursor", "SQLiteData: runs the statement, rows read one at a time",
      example: "try Tag.select(\\.title).union(RemindersList.select(\\.title)).fetchCursor(db)", handler: .databaseCall("fetchCursor")),
    M("execute(_ db: Database) -> Void", "SQLiteData: runs the statement now (app code)",
      example: "@Table struct Open { let title: String }\nOpen.createTemporaryView(as: Reminder.select { Open.Columns(title: $0.title) }).execute(db)", handler: .databaseCall("execute")),
    M("union(all: Bool = false, _ other: Select) -> CompoundSelect", "Adds the rows of another query (UNION)",
      example: "Tag.select(\\.title).union(User.select(\\.name)).union(RemindersList.select(\\.title))",
      handler: .statement("union") { $0.compoundOfStatement }),
    M("intersect(_ other: Select) -> CompoundSelect", "Keeps the rows also in another query (INTERSECT)",
      example: "Tag.select(\\.title).union(User.select(\\.name)).intersect(RemindersList.select(\\.title))",
      handler: .statement("intersect") { $0.compoundOfStatement }),
    M("except(_ other: Select) -> CompoundSelect", "Leaves out the rows of another query (EXCEPT)",
      example: "Tag.select(\\.title).union(User.select(\\.name)).except(RemindersList.select(\\.title))",
      handler: .statement("except") { $0.compoundOfStatement }),
    M("order(by ordering: (TableColumns) -> Orderings) -> CompoundSelect", "Sorts the rows of a compound select",
      example: "Tag.all.union(Tag.all).order(by: \\.title)",
      handler: .statement("order") { $0.orderOrLimitCompound }),
    M("limit(_ maxLength: (TableColumns) -> Int, offset: ((TableColumns) -> Int)? = nil) -> CompoundSelect", "At most maxLength rows of a compound select",
      example: "Tag.all.union(Tag.all).limit(2)",
      handler: .statement("limit") { $0.orderOrLimitCompound }),
    M("drop(ifExists: Bool = false) -> DropStatement", "Drops the view or trigger this statement created",
      example: "@Table struct Open { let title: String }\nOpen.createTemporaryView(as: Reminder.select { Open.Columns(title: $0.title) })\nOpen.createTemporaryView(as: Reminder.select { Open.Columns(title: $0.title) }).drop()",
      handler: .statement("drop") { $0.dropCreated }),
  ]
}

