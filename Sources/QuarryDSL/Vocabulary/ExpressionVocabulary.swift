/// The methods of expressions, rows, column groups and `Case`, as StructuredQueries declares
/// them on `QueryExpression` and its relatives.
extension Vocabulary {
  private static func scalar(_ declaration: String, _ sql: String, _ summary: String, example: String) -> MethodSignature {
    MethodSignature(declaration, summary, example: example, function: .scalar(sql),
                    handler: .expression(String(declaration.prefix { $0 != "(" })) { $0.sqlFunctionCall })
  }

  private static func aggregate(_ declaration: String, _ sql: String, _ summary: String, example: String) -> MethodSignature {
    MethodSignature(declaration, summary, example: example, function: .aggregate(sql),
                    handler: .expression(String(declaration.prefix { $0 != "(" })) { $0.sqlFunctionCall })
  }

  /// A table with a JSON-stored column, for the JSON examples.
  private static let json = "CREATE TABLE docs (id INTEGER PRIMARY KEY, tags TEXT NOT NULL DEFAULT '[]');\nINSERT INTO docs (tags) VALUES ('[\"a\",\"b\"]');\n@Table struct Doc { let id: Int\n @Column(as: [String].JSONRepresentation.self)\n var tags: [String] = [] }\n"

  static let expressionEntries: [MethodSignature] = [
    // A `#sql` statement, run by app code
    M("execute(_ db: Database) -> Void", "SQLiteData: runs a #sql statement now (app code)",
      example: "try #sql(\"DELETE FROM \\(Tag.self) WHERE \\(Tag.id) = 1\").execute(db)", handler: .databaseCall("execute")),
    M("fetchAll(_ db: Database) -> [Row]", "SQLiteData: runs a #sql query and returns every row",
      example: "try #sql(\"SELECT \\(Tag.title) FROM \\(Tag.self)\", as: String.self).fetchAll(db)", handler: .databaseCall("fetchAll")),
    M("fetchOne(_ db: Database) -> Row?", "SQLiteData: runs a #sql query for its first row",
      example: "try #sql(\"SELECT count(*) FROM \\(Tag.self)\", as: Int.self).fetchOne(db)", handler: .databaseCall("fetchOne")),
    M("fetchCursor(_ db: Database) -> Cursor", "SQLiteData: runs a #sql query, rows read one at a time",
      example: "try #sql(\"SELECT \\(Tag.title) FROM \\(Tag.self)\", as: String.self).fetchCursor(db)", handler: .databaseCall("fetchCursor")),
    // Comparisons
    M("eq(_ other: Value) -> Bool", "Equal (=)", example: "Reminder.where { $0.title.eq(\"Groceries\") }", handler: .expression("eq") { $0.compare }),
    M("neq(_ other: Value) -> Bool", "Not equal (<>)", example: "Reminder.where { $0.title.neq(\"Groceries\") }", handler: .expression("neq") { $0.compare }),
    M("lt(_ other: Value) -> Bool", "Less than (<)", example: "Reminder.where { $0.id.lt(3) }", handler: .expression("lt") { $0.compare }),
    M("gt(_ other: Value) -> Bool", "Greater than (>)", example: "Reminder.where { $0.id.gt(3) }", handler: .expression("gt") { $0.compare }),
    M("lte(_ other: Value) -> Bool", "Less than or equal (<=)", example: "Reminder.where { $0.id.lte(3) }", handler: .expression("lte") { $0.compare }),
    M("gte(_ other: Value) -> Bool", "Greater than or equal (>=)", example: "Reminder.where { $0.id.gte(3) }", handler: .expression("gte") { $0.compare }),
    M("is(_ other: Value?) -> Bool", "Equal, NULL included (IS)", example: "Reminder.where { $0.dueDate.is(nil) }", handler: .expression("is") { $0.compare }),
    M("isNot(_ other: Value?) -> Bool", "Not equal, NULL included (IS NOT)", example: "Reminder.where { $0.dueDate.isNot(nil) }", handler: .expression("isNot") { $0.compare }),
    M("in(_ values: [Value]) -> Bool", "Among a list or a subquery's rows (IN)", example: "Reminder.where { $0.id.in([1, 2, 3]) }", handler: .expression("in") { $0.membership }),
    M("notIn(_ values: [Value]) -> Bool", "Not among a list or a subquery's rows (NOT IN)", example: "Reminder.where { $0.id.notIn([1, 2]) }", handler: .expression("notIn") { $0.membership }),
    M("between(_ lowerBound: Value, and upperBound: Value) -> Bool", "Within a range, both ends included (BETWEEN)",
      example: "Reminder.where { $0.id.between(2, and: 4) }", handler: .expression("between") { $0.between }),
    // Booleans
    M("and(_ other: Bool) -> Bool", "Both conditions (AND)", example: "Reminder.where { $0.isFlagged.and($0.isCompleted) }", handler: .expression("and") { $0.logical }),
    M("or(_ other: Bool) -> Bool", "Either condition (OR)", example: "Reminder.where { $0.isFlagged.or($0.isCompleted) }", handler: .expression("or") { $0.logical }),
    M("not() -> Bool", "The opposite condition (NOT)", example: "Reminder.where { $0.isFlagged.not() }", handler: .expression("not") { $0.negation }),
    // Text
    M("like(_ pattern: String, escape: Character? = nil) -> Bool", "Matches a pattern: % any text, _ one character (LIKE)",
      example: "Reminder.where { $0.title.like(\"%milk%\") }", handler: .expression("like") { $0.like }),
    M("glob(_ pattern: String) -> Bool", "Matches a case-sensitive pattern: * any text, ? one character (GLOB)",
      example: "Reminder.where { $0.title.glob(\"G*\") }", handler: .expression("glob") { $0.glob }),
    M("hasPrefix(_ other: String) -> Bool", "Starts with (LIKE 'text%')", example: "Reminder.where { $0.title.hasPrefix(\"Buy\") }",
      availability: .deprecated(message: #"Prefer 'like("\(other)%")' instead"#), handler: .expression("hasPrefix") { $0.substring }),
    M("hasSuffix(_ other: String) -> Bool", "Ends with (LIKE '%text')", example: "Reminder.where { $0.title.hasSuffix(\"s\") }",
      availability: .deprecated(message: #"Prefer 'like("%\(other)")' instead"#), handler: .expression("hasSuffix") { $0.substring }),
    M("contains(_ other: String) -> Bool", "Contains (LIKE '%text%')", example: "Reminder.where { $0.title.contains(\"milk\") }",
      availability: .deprecated(message: #"Prefer 'like("%\(other)%")' instead"#), handler: .expression("contains") { $0.substring }),
    M("collate(_ collation: Collation) -> Self", "Compares with a collation: .nocase, .binary, .rtrim",
      example: "Reminder.order { $0.title.collate(.nocase) }", handler: .expression("collate") { $0.collate }),
    M("match(_ pattern: String) -> Bool", "Full-text search of an FTS5 column (MATCH)",
      example: "CREATE VIRTUAL TABLE notes USING fts5(body);\n@Table struct Note: FTS5 { let body: String }\nNote.where { $0.body.match(\"milk\") }", handler: .expression("match") { $0.fullTextSearch }),
    M("highlight(_ open: String, _ close: String) -> String", "The FTS5 column with the matches marked",
      example: "CREATE VIRTUAL TABLE notes USING fts5(body);\n@Table struct Note: FTS5 { let body: String }\nNote.select { $0.body.highlight(\"[\", \"]\") }", handler: .expression("highlight") { $0.fullTextSearch }),
    M("snippet(_ open: String, _ close: String, _ ellipsis: String, _ tokens: Int) -> String", "A short FTS5 excerpt around the matches",
      example: "CREATE VIRTUAL TABLE notes USING fts5(body);\n@Table struct Note: FTS5 { let body: String }\nNote.select { $0.body.snippet(\"[\", \"]\", \"…\", 8) }", handler: .expression("snippet") { $0.fullTextSearch }),
    // Ordering
    M("asc(nulls: NullOrdering? = nil) -> Ordering", "Ascending order; nulls: .first or .last", example: "Reminder.order { $0.dueDate.asc(nulls: .last) }", handler: .expression("asc") { $0.ordering }),
    M("desc(nulls: NullOrdering? = nil) -> Ordering", "Descending order; nulls: .first or .last", example: "Reminder.order { $0.dueDate.desc() }", handler: .expression("desc") { $0.ordering }),
    // Conversions
    M("cast(as type: Type = Self) -> Other", "Converts to another SQL type (CAST)", example: "Reminder.select { $0.id.cast(as: String.self) }", handler: .expression("cast") { $0.cast }),
    M("strftime(_ format: String) -> String", "A date formatted (strftime)", example: "Reminder.select { $0.dueDate.strftime(\"%Y\") }", handler: .expression("strftime") { $0.strftime }),
    M("map(_ transform: (Wrapped) -> Value) -> Value?", "Applies to the value unless it is NULL",
      example: "Reminder.select { $0.dueDate.map { $0.strftime(\"%Y\") } }", handler: .expression("map") { $0.mapped }),
    M("flatMap(_ transform: (Wrapped) -> Value?) -> Value?", "Applies to the value unless it is NULL; may give NULL",
      example: "Reminder.select { $0.priority.flatMap { $0.nullif(Priority.low) } }", handler: .expression("flatMap") { $0.mapped }),
    // Aggregates
    aggregate("count(distinct: Bool = false, filter: ((TableColumns) -> Bool)? = nil) -> Int", "count",
      "The number of non-NULL values in each group", example: "Reminder.select { $0.priority.count(distinct: true) }"),
    aggregate("sum(distinct: Bool = false, filter: ((TableColumns) -> Bool)? = nil) -> Self?", "sum",
      "The sum in each group (NULL when there are no values)", example: "Reminder.select { $0.id.sum() }"),
    aggregate("avg(distinct: Bool = false, filter: ((TableColumns) -> Bool)? = nil) -> Double", "avg",
      "The average in each group", example: "Reminder.select { $0.id.avg() }"),
    aggregate("total(distinct: Bool = false, filter: ((TableColumns) -> Bool)? = nil) -> Double", "total",
      "The sum in each group (0.0 when there are no values)", example: "Reminder.select { $0.id.total() }"),
    aggregate("min(filter: ((TableColumns) -> Bool)? = nil) -> Self?", "min", "The smallest value in each group",
      example: "Reminder.select { $0.dueDate.min() }"),
    aggregate("max(filter: ((TableColumns) -> Bool)? = nil) -> Self?", "max", "The largest value in each group",
      example: "Reminder.select { $0.dueDate.max() }"),
    aggregate("groupConcat(_ separator: String? = nil, distinct: Bool = false, order: ((TableColumns) -> Orderings)? = nil, filter: ((TableColumns) -> Bool)? = nil) -> String?",
      "group_concat", "The values of each group joined into one text",
      example: "Reminder.select { $0.title.groupConcat(\", \") }"),
    aggregate("groupConcat(separator: String, distinct: Bool = false, order: ((TableColumns) -> Orderings)? = nil, filter: ((TableColumns) -> Bool)? = nil) -> String?",
      "group_concat", "The values of each group joined by a separator",
      example: "Reminder.select { $0.title.groupConcat(separator: \"; \") }"),
    aggregate("jsonGroupArray(distinct: Bool = false, order: ((TableColumns) -> Orderings)? = nil, filter: ((TableColumns) -> Bool)? = nil) -> String",
      "json_group_array", "The values of each group as a JSON array",
      example: "Reminder.select { $0.title.jsonGroupArray() }"),
    // Scalar functions
    scalar("length() -> Int", "length", "The number of characters", example: "Reminder.select { $0.title.length() }"),
    scalar("lower() -> String", "lower", "In lower case", example: "Reminder.select { $0.title.lower() }"),
    scalar("upper() -> String", "upper", "In upper case", example: "Reminder.select { $0.title.upper() }"),
    scalar("trim(_ characters: String? = nil) -> String", "trim", "Without spaces (or the given characters) at both ends",
      example: "Reminder.select { $0.title.trim() }"),
    scalar("ltrim(_ characters: String? = nil) -> String", "ltrim", "Without spaces at the start", example: "Reminder.select { $0.title.ltrim() }"),
    scalar("rtrim(_ characters: String? = nil) -> String", "rtrim", "Without spaces at the end", example: "Reminder.select { $0.title.rtrim() }"),
    scalar("substr(_ offset: Int, _ length: Int? = nil) -> String", "substr", "Part of the text, from offset (1 is the first character)",
      example: "Reminder.select { $0.title.substr(1, 3) }"),
    scalar("replace(_ pattern: String, _ replacement: String) -> String", "replace", "Every occurrence of pattern replaced",
      example: "Reminder.select { $0.title.replace(\"a\", \"A\") }"),
    scalar("instr(_ occurrence: String) -> Int", "instr", "Where the text first occurs (1-based; 0 when it does not)",
      example: "Reminder.select { $0.title.instr(\"e\") }"),
    scalar("abs() -> Self", "abs", "The absolute value", example: "Reminder.select { $0.id.abs() }"),
    scalar("round(_ precision: Int? = nil) -> Double", "round", "Rounded to precision decimal places", example: "Reminder.select { $0.id.avg().round(2) }"),
    scalar("sign() -> Int", "sign", "-1, 0 or 1", example: "Reminder.select { $0.id.sign() }"),
    scalar("quote() -> String", "quote", "The value as an SQL literal", example: "Reminder.select { $0.title.quote() }"),
    scalar("hex() -> String", "hex", "The value's bytes in hexadecimal", example: "Reminder.select { $0.title.hex() }"),
    scalar("unhex(_ characters: String? = nil) -> [UInt8]", "unhex", "Bytes from hexadecimal text", example: "Reminder.select { $0.title.hex().unhex() }"),
    scalar("octetLength() -> Int", "octet_length", "The number of bytes", example: "Reminder.select { $0.title.octetLength() }"),
    scalar("unicode() -> Int", "unicode", "The code point of the first character", example: "Reminder.select { $0.title.unicode() }"),
    scalar("likelihood(_ probability: Double) -> Bool", "likelihood", "A hint to the query planner of how often it is true",
      example: "Reminder.where { $0.isFlagged.likelihood(0.1) }"),
    scalar("likely() -> Bool", "likely", "A hint that the condition is usually true", example: "Reminder.where { $0.isFlagged.likely() }"),
    scalar("unlikely() -> Bool", "unlikely", "A hint that the condition is usually false", example: "Reminder.where { $0.isFlagged.unlikely() }"),
    scalar("randomblob() -> [UInt8]", "randomblob", "That many random bytes", example: "Reminder.select { $0.id.randomblob() }"),
    scalar("zeroblob() -> [UInt8]", "zeroblob", "That many zero bytes", example: "Reminder.select { $0.id.zeroblob() }"),
    scalar("typeof() -> String", "typeof", "SQLite's type of the value: integer, real, text, blob or null",
      example: "Reminder.select { $0.dueDate.typeof() }"),
    scalar("ifnull(_ other: Wrapped) -> Wrapped", "ifnull", "The value, or other when it is NULL", example: "Reminder.select { $0.dueDate.ifnull(Date()) }"),
    scalar("nullif(_ other: Self) -> Self?", "nullif", "NULL when equal to other, else the value", example: "Reminder.select { $0.title.nullif(\"\") }"),
    // JSON paths into JSON-stored columns
    M("jsonEach() -> Select", "The elements of a JSON array as rows of key and value (json_each), to filter, count or select",
      example: json + "Doc.select { ($0.id, $0.tags.jsonEach().count()) }", handler: .expression("jsonEach") { $0.jsonEach }),
    M("jsonExtract(_ path: KeyPath) -> Member", "The value at a path inside JSON (json_extract)",
      example: json + "Doc.select { $0.tags.jsonExtract(\\.[0]) }", handler: .expression("jsonExtract") { $0.jsonPathMethod }),
    M("jsonSet(_ path: KeyPath, _ value: Member) -> Self", "The JSON with the value at the path set, created if missing (json_set); calls chain",
      example: json + "Doc.update { $0.tags = $0.tags.jsonSet(\\.[0], \"z\").jsonSet(\\.[1], \"y\") }", handler: .expression("jsonSet") { $0.jsonPathMethod }),
    M("jsonInsert(_ path: KeyPath, _ value: Member) -> Self", "The JSON with the value inserted where the path is missing (json_insert)",
      example: json + "Doc.update { $0.tags = $0.tags.jsonInsert(\\.[5], \"z\") }", handler: .expression("jsonInsert") { $0.jsonPathMethod }),
    M("jsonReplace(_ path: KeyPath, _ value: Member) -> Self", "The JSON with the value at an existing path replaced (json_replace)",
      example: json + "Doc.update { $0.tags = $0.tags.jsonReplace(\\.[0], \"z\") }", handler: .expression("jsonReplace") { $0.jsonPathMethod }),
    M("jsonRemove(_ path: KeyPath) -> Self", "The JSON without the value at the path (json_remove)",
      example: json + "Doc.update { $0.tags = $0.tags.jsonRemove(\\.[0]) }", handler: .expression("jsonRemove") { $0.jsonPathMethod }),
    M("jsonAppend(_ value: Element) -> Self", "The JSON array with a value added at the end (json_insert at '$[#]')",
      example: json + "Doc.update { $0.tags = $0.tags.jsonAppend(\"c\").jsonAppend(\"d\") }", handler: .expression("jsonAppend") { $0.jsonPathMethod }),
    M("jsonAppend(_ path: KeyPath, _ value: Element) -> Self", "An array inside the JSON with a value added at its end",
      example: json + "Doc.update { $0.tags = $0.tags.jsonAppend(\\.self, \"c\") }", handler: .expression("jsonAppend") { $0.jsonPathMethod }),
    M("jsonArrayInsert(_ path: KeyPath, _ value: Element) -> Self", "The JSON array with a value inserted before the path (json_array_insert, SQLite 3.51+)",
      example: json + "Doc.select { $0.tags.jsonArrayInsert(\\.[0], \"a\") }", handler: .expression("jsonArrayInsert") { $0.jsonPathMethod }),
    scalar("jsonArrayLength() -> Int", "json_array_length", "The number of elements of a JSON array",
      example: "Reminder.select { $0.title.jsonGroupArray().jsonArrayLength() }"),
    scalar("json() -> String", "json", "The text as minified JSON", example: "Reminder.select { $0.title.jsonGroupArray().json() }"),
    scalar("jsonType() -> String", "json_type", "The JSON type of the value", example: "Reminder.select { $0.title.jsonGroupArray().jsonType() }"),
    scalar("jsonQuote() -> String", "json_quote", "The value as a JSON literal", example: "Reminder.select { $0.title.jsonQuote() }"),
    scalar("jsonPatch(_ patch: String) -> String", "json_patch", "A JSON object merged with a patch (RFC 7396)",
      example: "Reminder.select { $0.title.jsonGroupArray().jsonPatch(\"{}\") }"),
  ]

  /// A whole row (`$0` itself).
  static let rowEntries: [MethodSignature] = [
    M("eq(_ other: Self) -> Bool", "Every column equal to a row value's", example: "Tag.where { $0.eq(Tag(id: 1, title: \"errand\")) }", handler: .rowComparison("eq", .equal)),
    M("neq(_ other: Self) -> Bool", "Some column different", example: "Tag.where { $0.neq(Tag(id: 1, title: \"errand\")) }", handler: .rowComparison("neq", .notEqual)),
    M("is(_ other: Self?) -> Bool", "Every column equal, NULL included", example: "Tag.where { $0.is(Tag(id: 1, title: \"errand\")) }", handler: .rowComparison("is", .is)),
    M("isNot(_ other: Self?) -> Bool", "Some column different, NULL included", example: "Tag.where { $0.isNot(Tag(id: 1, title: \"errand\")) }", handler: .rowComparison("isNot", .isNot)),
    M("count(distinct: Bool = false, filter: ((TableColumns) -> Bool)? = nil) -> Int", "The number of rows in each group (count(*))",
      example: "Reminder.select { $0.count() }", handler: .row("count") { $0.countRows }),
    M("match(_ pattern: String) -> Bool", "Full-text search of a whole FTS5 table (MATCH)",
      example: "CREATE VIRTUAL TABLE notes USING fts5(body);\n@Table struct Note: FTS5 { let body: String }\nNote.where { $0.match(\"milk\") }", handler: .row("match") { $0.ftsRowMethod }),
    M("bm25(_ weights: [KeyPath: Double] = [:]) -> Double", "The FTS5 relevance of the match (lower is better), columns weighted",
      example: "CREATE VIRTUAL TABLE notes USING fts5(body);\n@Table struct Note: FTS5 { let body: String }\nNote.where { $0.match(\"milk\") }.order { $0.bm25() }", handler: .row("bm25") { $0.ftsRowMethod }),
    M("jsonGroupArray(distinct: Bool = false, filter: ((TableColumns) -> Bool)? = nil) -> String", "Each group's rows as a JSON array of objects",
      example: "Tag.select { $0.jsonGroupArray() }", handler: .row("jsonGroupArray") { $0.rowJSON }),
    M("jsonObject() -> String", "The row as a JSON object", example: "Tag.select { $0.jsonObject() }", handler: .row("jsonObject") { $0.rowJSON }),
  ]

  /// A group of columns (`@Selection` or a nested group).
  static let columnGroupEntries: [MethodSignature] = [
    M("eq(_ other: Group) -> Bool", "Every column of the group equal", example: "@Selection struct Pair { var a = 0\n var b = 0 }\nCREATE TABLE things (id INTEGER PRIMARY KEY, a INTEGER, b INTEGER);\n@Table struct Thing { let id: Int\n var pair: Pair }\nThing.where { $0.pair.eq(Pair(a: 1, b: 2)) }", handler: .groupComparison("eq", .equal)),
    M("neq(_ other: Group) -> Bool", "Some column of the group different", example: "@Selection struct Pair { var a = 0\n var b = 0 }\nCREATE TABLE things (id INTEGER PRIMARY KEY, a INTEGER, b INTEGER);\n@Table struct Thing { let id: Int\n var pair: Pair }\nThing.where { $0.pair.neq(Pair(a: 1, b: 2)) }", handler: .groupComparison("neq", .notEqual)),
    M("lt(_ other: Group) -> Bool", "Before the value, comparing column by column (row value <)", example: "CREATE TABLE things (id INTEGER PRIMARY KEY, a INTEGER, b INTEGER);\n@Selection struct Pair { var a = 0\n var b = 0 }\n@Table struct Thing { let id: Int\n var pair: Pair }\nThing.where { $0.pair.lt(Pair(a: 1, b: 2)) }", handler: .groupComparison("lt", .lessThan)),
    M("gt(_ other: Group) -> Bool", "After the value, column by column (row value >)", example: "CREATE TABLE things (id INTEGER PRIMARY KEY, a INTEGER, b INTEGER);\n@Selection struct Pair { var a = 0\n var b = 0 }\n@Table struct Thing { let id: Int\n var pair: Pair }\nThing.where { $0.pair.gt(Pair(a: 1, b: 2)) }", handler: .groupComparison("gt", .greaterThan)),
    M("lte(_ other: Group) -> Bool", "Before or equal, column by column (row value <=)", example: "CREATE TABLE things (id INTEGER PRIMARY KEY, a INTEGER, b INTEGER);\n@Selection struct Pair { var a = 0\n var b = 0 }\n@Table struct Thing { let id: Int\n var pair: Pair }\nThing.where { $0.pair.lte(Pair(a: 1, b: 2)) }", handler: .groupComparison("lte", .lessThanOrEqual)),
    M("gte(_ other: Group) -> Bool", "After or equal, column by column (row value >=)", example: "CREATE TABLE things (id INTEGER PRIMARY KEY, a INTEGER, b INTEGER);\n@Selection struct Pair { var a = 0\n var b = 0 }\n@Table struct Thing { let id: Int\n var pair: Pair }\nThing.where { $0.pair.gte(Pair(a: 1, b: 2)) }", handler: .groupComparison("gte", .greaterThanOrEqual)),
    M("is(_ other: Group?) -> Bool", "Every column equal, NULL included", example: "@Selection struct Pair { var a = 0\n var b = 0 }\nCREATE TABLE things (id INTEGER PRIMARY KEY, a INTEGER, b INTEGER);\n@Table struct Thing { let id: Int\n var pair: Pair? }\nThing.where { $0.pair.is(nil) }", handler: .columnGroup("is") { $0.groupIs }),
    M("isNot(_ other: Group?) -> Bool", "Some column different, NULL included", example: "@Selection struct Pair { var a = 0\n var b = 0 }\nCREATE TABLE things (id INTEGER PRIMARY KEY, a INTEGER, b INTEGER);\n@Table struct Thing { let id: Int\n var pair: Pair? }\nThing.where { $0.pair.isNot(nil) }", handler: .columnGroup("isNot") { $0.groupIs }),
  ]

  /// `Case()` and `Case(value)`.
  static let caseEntries: [MethodSignature] = [
    M("when(_ condition: Value, then result: Value) -> Case", "A branch: when the condition (or value) matches, the result",
      example: "Reminder.select { Case().when($0.isFlagged, then: \"!\").else(\"\") }",
      handler: .caseBuilder("when") { $0.caseWhen }),
    M("else(_ result: Value) -> Value", "The result when no branch matches (ELSE)",
      example: "Reminder.select { Case($0.priority).when(Priority.high, then: \"high\").else(\"other\") }",
      handler: .caseBuilder("else") { $0.caseElse }),
  ]

  /// Free functions, initialisers and macros.
  static let functionEntries: [MethodSignature] = [
    M("Case(_ base: Value? = nil) -> Case", "Starts a CASE expression, on a value (Case(x).when(1, then: …)) or on conditions",
      example: "Reminder.select { Case().when($0.isFlagged, then: \"!\").else(\"\") }"),
    M("With(_ statements: () -> [Statement], query: () -> Statement) -> Select", "Common table expressions (WITH): name queries, then use them like tables",
      example: "@Selection struct Flagged { let id: Int }\nWith { Reminder.where(\\.isFlagged).select { Flagged.Columns(id: $0.id) } } query: { Reminder.where { $0.id.in(Flagged.select(\\.id)) } }"),
    M("Values(_ values: Value...) -> Select", "A row of literal values (SELECT 1, 'a')", example: "Values(1, \"a\")"),
    M("Date(timeIntervalSince1970: Double) -> Date", "A fixed date, in the column's storage", example: "Reminder.where { $0.dueDate > Date(timeIntervalSince1970: 0) }"),
    M("Date(timeIntervalSinceReferenceDate: Double) -> Date", "A fixed date counted from 2001-01-01", example: "Reminder.where { $0.dueDate > Date(timeIntervalSinceReferenceDate: 0) }"),
    M("Date() -> Date", "Now, when the statement runs", example: "Reminder.where { $0.dueDate < Date() }"),
    M("UUID(uuidString: String) -> UUID", "A UUID from its text", example: "Reminder.select { _ in UUID(uuidString: \"deadbeef-0000-4000-8000-000000000000\")! }"),
    M("UUID(_ number: Int) -> UUID", "StructuredQueries' test shorthand: UUID(1) is 00000000-…-000000000001", example: "Reminder.select { _ in UUID(1) }"),
    M("#sql(_ text: String, as: Type.Type = Self) -> Expression", "Raw SQL, with \\(…) interpolations bound or quoted safely",
      example: "Reminder.where { #sql(\"\\($0.title) LIKE 'B%'\") }"),
    M("#bind(_ value: Value, as: Representation.Type = Self) -> Expression", "A Swift value as a bound SQL value",
      example: "Reminder.update { $0.title = #bind(\"Buy milk\") }"),
  ]
}
