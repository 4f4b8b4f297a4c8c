/// The methods of a query, as StructuredQueries declares them on `Select` and `Where`.
extension Vocabulary {
  /// `Select` and `Where`: the clauses of a query.
  static let queryEntries: [MethodSignature] = [
    M(
      "where(_ predicate: (TableColumns) -> Bool) -> Where", "Keeps the rows where the condition holds (SQL WHERE)",
      example: "Reminder.where { !$0.isCompleted }", handler: .query("where") { $0.filter }),
    M(
      "filter(_ predicate: (TableColumns) -> Bool) -> Where", "Another name for where",
      example: "Reminder.filter { $0.isFlagged }", handler: .query("filter") { $0.filter }),
    M(
      "find(_ primaryKey: PrimaryKey) -> Where", "The row (or rows, given a list) with this primary key",
      example: "Reminder.find(1)", handler: .query("find") { $0.find }),
    M(
      "find(_ db: Database, key primaryKey: PrimaryKey) -> Row", "SQLiteData: fetches the row with this primary key now (LIMIT 1)",
      example: "try Reminder.find(db, key: 1)", handler: .query("find") { $0.findNow }),
    M(
      "fetchAll(_ db: Database) -> [Row]", "SQLiteData: runs the query and returns every row",
      example: "try Reminder.where(\\.isFlagged).fetchAll(db)", handler: .databaseCall("fetchAll")),
    M(
      "fetchOne(_ db: Database) -> Row?", "SQLiteData: runs the query for one row (a whole-row query gets LIMIT 1)",
      example: "try Reminder.order(by: \\.title).fetchOne(db)", handler: .databaseCall("fetchOne")),
    M(
      "fetchCount(_ db: Database) -> Int", "SQLiteData: counts the query's rows (SELECT count(*))",
      example: "try Reminder.where(\\.isFlagged).fetchCount(db)", handler: .databaseCall("fetchCount")),
    M(
      "fetchCursor(_ db: Database) -> Cursor", "SQLiteData: runs the query, rows read one at a time",
      example: "try Reminder.all.fetchCursor(db)", handler: .databaseCall("fetchCursor")),
    M(
      "and(_ other: Where) -> Where", "Both this query's condition and another's",
      example: "Reminder.where(\\.isFlagged).and(Reminder.where(\\.isCompleted))",
      handler: .query("and") { m in { try m.combination("and", $0, $1) } }),
    M(
      "or(_ other: Where) -> Where", "This query's condition or another's",
      example: "Reminder.where(\\.isFlagged).or(Reminder.where(\\.isCompleted))",
      handler: .query("or") { m in { try m.combination("or", $0, $1) } }),
    M("not() -> Where", "The opposite condition", example: "Reminder.where(\\.isFlagged).not()", handler: .query("not") { $0.negation }),
    M(
      "select(_ selection: (TableColumns) -> Columns) -> Select", "The columns or expressions to return (a key path or a closure)",
      example: "Reminder.select { ($0.id, $0.title) }", handler: .query("select") { $0.select }),
    M(
      "map(_ transform: (Columns) -> Columns) -> Select", "Changes the selected columns of a query",
      example: "Reminder.select(\\.title).map { $0.upper() }", handler: .query("map") { $0.map }),
    M(
      "distinct(_ isDistinct: Bool = true) -> Select", "Leaves out repeated rows (SELECT DISTINCT)",
      example: "Reminder.distinct().select(\\.priority)", handler: .query("distinct") { $0.distinct }),
    M(
      "join(_ other: Select, on constraint: (TableColumns, Other) -> Bool) -> Select",
      "Pairs each row with the matching rows of another table (INNER JOIN)",
      example: "RemindersList.join(Reminder.all) { $0.id.eq($1.remindersListID) }",
      handler: .query("join") { m in { try m.join("join", $0, $1) } }),
    M(
      "leftJoin(_ other: Select, on constraint: (TableColumns, Other) -> Bool) -> Select",
      "Like join, keeping rows without a match (their other columns are NULL)",
      example: "RemindersList.leftJoin(Reminder.all) { $0.id.eq($1.remindersListID) }",
      handler: .query("leftJoin") { m in { try m.join("leftJoin", $0, $1) } }),
    M(
      "rightJoin(_ other: Select, on constraint: (TableColumns, Other) -> Bool) -> Select",
      "Like join, keeping the other table's rows without a match",
      example: "RemindersList.rightJoin(Reminder.all) { $0.id.eq($1.remindersListID) }",
      handler: .query("rightJoin") { m in { try m.join("rightJoin", $0, $1) } }),
    M(
      "fullJoin(_ other: Select, on constraint: (TableColumns, Other) -> Bool) -> Select",
      "Like join, keeping unmatched rows of both tables",
      example: "RemindersList.fullJoin(Reminder.all) { $0.id.eq($1.remindersListID) }",
      handler: .query("fullJoin") { m in { try m.join("fullJoin", $0, $1) } }),
    M(
      "crossJoin(_ other: Select) -> Select", "Pairs every row with every row of another table",
      example: "Tag.crossJoin(User.all)", handler: .query("crossJoin") { m in { try m.join("crossJoin", $0, $1) } }),
    M(
      "group(by grouping: (TableColumns) -> Columns) -> Select", "One result row per group of equal values (GROUP BY)",
      example: "Reminder.group(by: \\.remindersListID).select { ($0.remindersListID, $0.id.count()) }",
      handler: .query("group") { $0.group }),
    M(
      "having(_ predicate: (TableColumns) -> Bool) -> Select", "Keeps the groups where the condition holds (HAVING)",
      example: "Reminder.group(by: \\.remindersListID).having { $0.id.count() > 2 }.select(\\.remindersListID)",
      handler: .query("having") { $0.having }),
    M(
      "order(by ordering: (TableColumns) -> Orderings) -> Select", "Sorts the rows (ORDER BY); .desc() for descending",
      example: "Reminder.order { ($0.priority.desc(), $0.title) }", handler: .query("order") { $0.order }),
    M(
      "limit(_ maxLength: (TableColumns) -> Int) -> Select", "At most maxLength rows (LIMIT)",
      example: "Reminder.order(by: \\.title).limit(3)", handler: .query("limit") { $0.limit }),
    M(
      "limit(_ maxLength: (TableColumns) -> Int, offset: (TableColumns) -> Int) -> Select",
      "At most maxLength rows, after skipping offset rows",
      example: "Reminder.order(by: \\.title).limit(3, offset: 1)",
      availability: .deprecated(message: "Use 'limit(_:)' and 'offset(_:)', instead.", since: "0.35.0"),
      handler: .query("limit") { $0.limit }),
    M(
      "offset(_ offset: (TableColumns) -> Int) -> Select", "Skips the first rows (OFFSET)",
      example: "Reminder.order(by: \\.title).limit(2).offset(1)", handler: .query("offset") { $0.offset }),
    M(
      "count(filter: ((TableColumns) -> Bool)? = nil) -> Select", "The number of rows (SELECT count(*))",
      example: "Reminder.count(filter: \\.isCompleted)", handler: .query("count") { $0.count }),
    M(
      "exists() -> Bool", "Whether the query has any row (EXISTS)",
      example: "RemindersList.where { list in Reminder.where { $0.remindersListID.eq(list.id) }.exists() }",
      handler: .query("exists") { $0.exists }),
    M(
      "contains(_ element: Expression) -> Bool", "Whether a value is among the query's rows (IN a subquery)",
      example: "Reminder.where { Tag.select(\\.id).contains($0.id) }",
      availability: .deprecated(message: "Prefer 'element.in(self)' instead", since: "0.33.2"), handler: .query("contains") { $0.contains }),
    M(
      "as(_ alias: AliasName.Type) -> Select", "The query's table under another name",
      example: "enum Other: AliasName {}\nReminder.all.as(Other.self)", handler: .query("as") { $0.aliased }),
    M(
      "delete() -> Delete", "Deletes the rows the query matches", example: "Reminder.where(\\.isCompleted).delete()",
      handler: .query("delete") { $0.compiler.writeMethods.delete }),
    M(
      "delete(_ row: Self) -> Delete", "Deletes this row (by its primary key)",
      example: "Tag.delete(Tag(id: 1, title: \"errand\"))", handler: .query("delete") { $0.compiler.writeMethods.delete }),
    M(
      "update(set updates: (inout Updates) -> Void) -> Update", "Changes columns of the rows the query matches",
      example: "Reminder.where { $0.id.eq(1) }.update { $0.isFlagged.toggle() }",
      handler: .query("update") { $0.compiler.writeMethods.update }),
    M(
      "update(_ row: Self) -> Update", "Writes every column of this row (found by its primary key)",
      example: "Tag.update(Tag(id: 1, title: \"chore\"))", handler: .query("update") { $0.compiler.writeMethods.update }),
    M(
      "union(all: Bool = false, _ other: Select) -> CompoundSelect", "The rows of both queries (UNION, or UNION ALL to keep repeats)",
      example: "Tag.select(\\.title).union(RemindersList.select(\\.title))",
      handler: .query("union") { m in { try m.compiler.statementMethods.compoundOfQuery("union", $0, $1) } }),
    M(
      "intersect(_ other: Select) -> CompoundSelect", "The rows in both queries (INTERSECT)",
      example: "Tag.select(\\.title).intersect(RemindersList.select(\\.title))",
      handler: .query("intersect") { m in { try m.compiler.statementMethods.compoundOfQuery("intersect", $0, $1) } }),
    M(
      "except(_ other: Select) -> CompoundSelect", "The rows of this query that are not in the other (EXCEPT)",
      example: "Tag.select(\\.title).except(RemindersList.select(\\.title))",
      handler: .query("except") { m in { try m.compiler.statementMethods.compoundOfQuery("except", $0, $1) } }),
  ]
}
