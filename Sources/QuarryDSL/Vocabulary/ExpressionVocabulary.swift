/// The methods of expressions, as StructuredQueries declares them on `QueryExpression` and its
/// relatives.
extension Vocabulary {
  private static func scalar(_ declaration: String, _ sql: String, _ summary: String, example: String) -> MethodSignature {
    MethodSignature(
      declaration, summary, example: example, function: .scalar(sql),
      handler: .expression(String(declaration.prefix { $0 != "(" })) { $0.sqlFunctionCall })
  }

  private static func aggregate(_ declaration: String, _ sql: String, _ summary: String, example: String) -> MethodSignature {
    MethodSignature(
      declaration, summary, example: example, function: .aggregate(sql),
      handler: .expression(String(declaration.prefix { $0 != "(" })) { $0.sqlFunctionCall })
  }

  /// A table with a JSON-stored column, for the JSON examples.
  private static let json =
    "CREATE TABLE docs (id INTEGER PRIMARY KEY, tags TEXT NOT NULL DEFAULT '[]');\nINSERT INTO docs (tags) VALUES ('[\"a\",\"b\"]');\n@Table struct Doc { let id: Int\n @Column(as: [String].JSONRepresentation.self)\n var tags: [String] = [] }\n"

  static let expressionEntries: [MethodSignature] = [
    // A `#sql` statement, run by app code
    M(
      "execute(_ db: Database) -> Void", "SQLiteData: runs a #sql statement now (app code)",
      example: "try #sql(\"DELETE FROM \\(Tag.self) WHERE \\(Tag.id) = 1\").execute(db)", handler: .databaseCall("execute")),
    M(
      "fetchAll(_ db: Database) -> [Row]", "SQLiteData: runs a #sql query and returns every row",
      example: "try #sql(\"SELECT \\(Tag.title) FROM \\(Tag.self)\", as: String.self).fetchAll(db)", handler: .databaseCall("fetchAll")),
    M(
      "fetchOne(_ db: Database) -> Row?", "SQLiteData: runs a #sql query for its first row",
      example: "try #sql(\"SELECT count(*) FROM \\(Tag.self)\", as: Int.self).fetchOne(db)", handler: .databaseCall("fetchOne")),
    M(
      "fetchCursor(_ db: Database) -> Cursor", "SQLiteData: runs a #sql query, rows read one at a time",
      example: "try #sql(\"SELECT \\(Tag.title) FROM \\(Tag.self)\", as: String.self).fetchCursor(db)",
      handler: .databaseCall("fetchCursor")),
    // Comparisons
    M(
      "eq(_ other: Value) -> Bool", "Equal (=)", example: "Reminder.where { $0.title.eq(\"Groceries\") }",
      handler: .expression("eq") { $0.compare }),
    M(
      "neq(_ other: Value) -> Bool", "Not equal (<>)", example: "Reminder.where { $0.title.neq(\"Groceries\") }",
      handler: .expression("neq") { $0.compare }),
    M("lt(_ other: Value) -> Bool", "Less than (<)", example: "Reminder.where { $0.id.lt(3) }", handler: .expression("lt") { $0.compare }),
    M(
      "gt(_ other: Value) -> Bool", "Greater than (>)", example: "Reminder.where { $0.id.gt(3) }", handler: .expression("gt") { $0.compare }
    ),
    M(
      "lte(_ other: Value) -> Bool", "Less than or equal (<=)", example: "Reminder.where { $0.id.lte(3) }",
      handler: .expression("lte") { $0.compare }),
    M(
      "gte(_ other: Value) -> Bool", "Greater than or equal (>=)", example: "Reminder.where { $0.id.gte(3) }",
      handler: .expression("gte") { $0.compare }),
    M(
      "is(_ other: Value?) -> Bool", "Equal, NULL included (IS)", example: "Reminder.where { $0.dueDate.is(nil) }",
      handler: .expression("is") { $0.compare }),
    M(
      "isNot(_ other: Value?) -> Bool", "Not equal, NULL included (IS NOT)", example: "Reminder.where { $0.dueDate.isNot(nil) }",
      handler: .expression("isNot") { $0.compare }),
    M(
      "in(_ values: [Value]) -> Bool", "Among a list or a subquery's rows (IN)", example: "Reminder.where { $0.id.in([1, 2, 3]) }",
      handler: .expression("in") { $0.membership }),
    M(
      "notIn(_ values: [Value]) -> Bool", "Not among a list or a subquery's rows (NOT IN)",
      example: "Reminder.where { $0.id.notIn([1, 2]) }", handler: .expression("notIn") { $0.membership }),
    M(
      "between(_ lowerBound: Value, and upperBound: Value) -> Bool", "Within a range, both ends included (BETWEEN)",
      example: "Reminder.where { $0.id.between(2, and: 4) }", handler: .expression("between") { $0.between }),
    // Booleans
    M(
      "and(_ other: Bool) -> Bool where QueryValue == Bool", "Both conditions (AND)",
      example: "Reminder.where { $0.isFlagged.and($0.isCompleted) }", handler: .expression("and") { $0.logical }),
    M(
      "or(_ other: Bool) -> Bool where QueryValue == Bool", "Either condition (OR)",
      example: "Reminder.where { $0.isFlagged.or($0.isCompleted) }", handler: .expression("or") { $0.logical }),
    M(
      "not() -> Bool where QueryValue == Bool", "The opposite condition (NOT)", example: "Reminder.where { $0.isFlagged.not() }",
      handler: .expression("not") { $0.negation }),
    // Text
    M(
      "like(_ pattern: String, escape: Character? = nil) -> Bool where QueryValue == String",
      "Matches a pattern: % any text, _ one character (LIKE)",
      example: "Reminder.where { $0.title.like(\"%milk%\") }", handler: .expression("like") { $0.like }),
    M(
      "glob(_ pattern: String) -> Bool where QueryValue == String", "Matches a case-sensitive pattern: * any text, ? one character (GLOB)",
      example: "Reminder.where { $0.title.glob(\"G*\") }", handler: .expression("glob") { $0.glob }),
    M(
      "hasPrefix(_ other: String) -> Bool where QueryValue == String", "Starts with (LIKE 'text%')",
      example: "Reminder.where { $0.title.hasPrefix(\"Buy\") }",
      availability: .deprecated(message: #"Prefer 'like("\(other)%")' instead"#, since: "0.33.2"),
      handler: .expression("hasPrefix") { $0.substring }),
    M(
      "hasSuffix(_ other: String) -> Bool where QueryValue == String", "Ends with (LIKE '%text')",
      example: "Reminder.where { $0.title.hasSuffix(\"s\") }",
      availability: .deprecated(message: #"Prefer 'like("%\(other)")' instead"#, since: "0.33.2"),
      handler: .expression("hasSuffix") { $0.substring }),
    M(
      "contains(_ other: String) -> Bool where QueryValue == String", "Contains (LIKE '%text%')",
      example: "Reminder.where { $0.title.contains(\"milk\") }",
      availability: .deprecated(message: #"Prefer 'like("%\(other)%")' instead"#, since: "0.33.2"),
      handler: .expression("contains") { $0.substring }),
    M(
      "collate(_ collation: Collation) -> Self where QueryValue == String", "Compares with a collation: .nocase, .binary, .rtrim",
      example: "Reminder.order { $0.title.collate(.nocase) }", handler: .expression("collate") { $0.collate }),
    M(
      "match(_ pattern: String) -> Bool", "Full-text search of an FTS5 column (MATCH)",
      example:
        "CREATE VIRTUAL TABLE notes USING fts5(body);\n@Table struct Note: FTS5 { let body: String }\nNote.where { $0.body.match(\"milk\") }",
      handler: .expression("match") { $0.columnMatch }),
    M(
      "highlight(_ open: String, _ close: String) -> String", "The FTS5 column with the matches marked",
      example:
        "CREATE VIRTUAL TABLE notes USING fts5(body);\n@Table struct Note: FTS5 { let body: String }\nNote.select { $0.body.highlight(\"[\", \"]\") }",
      handler: .expression("highlight") { $0.columnAuxiliary }),
    M(
      "snippet(_ open: String, _ close: String, _ ellipsis: String, _ tokens: Int) -> String", "A short FTS5 excerpt around the matches",
      example:
        "CREATE VIRTUAL TABLE notes USING fts5(body);\n@Table struct Note: FTS5 { let body: String }\nNote.select { $0.body.snippet(\"[\", \"]\", \"…\", 8) }",
      handler: .expression("snippet") { $0.columnAuxiliary }),
    // Ordering
    M(
      "asc(nulls: NullOrdering? = nil) -> Ordering", "Ascending order; nulls: .first or .last",
      example: "Reminder.order { $0.dueDate.asc(nulls: .last) }", handler: .expression("asc") { $0.ordering }),
    M(
      "desc(nulls: NullOrdering? = nil) -> Ordering", "Descending order; nulls: .first or .last",
      example: "Reminder.order { $0.dueDate.desc() }", handler: .expression("desc") { $0.ordering }),
    // Conversions
    M(
      "cast(as type: Type = Self) -> Other", "Converts to another SQL type (CAST)",
      example: "Reminder.select { $0.id.cast(as: String.self) }", handler: .expression("cast") { $0.cast }),
    M(
      "strftime(_ format: String) -> String", "A date formatted (strftime)", example: "Reminder.select { $0.dueDate.strftime(\"%Y\") }",
      handler: .expression("strftime") { $0.strftime }),
    M(
      "map(_ transform: (Wrapped) -> Value) -> Value?", "Applies to the value unless it is NULL",
      example: "Reminder.select { $0.dueDate.map { $0.strftime(\"%Y\") } }", handler: .expression("map") { $0.mapped }),
    M(
      "flatMap(_ transform: (Wrapped) -> Value?) -> Value?", "Applies to the value unless it is NULL; may give NULL",
      example: "Reminder.select { $0.priority.flatMap { $0.nullif(Priority.low) } }", handler: .expression("flatMap") { $0.mapped }),
    // Aggregates
    aggregate(
      "count(distinct: Bool = false, filter: ((TableColumns) -> Bool)? = nil) -> Int", "count",
      "The number of non-NULL values in each group", example: "Reminder.select { $0.priority.count(distinct: true) }"),
    aggregate(
      "sum(distinct: Bool = false, filter: ((TableColumns) -> Bool)? = nil) -> Self? where QueryValue.Wrapped: Numeric", "sum",
      "The sum in each group (NULL when there are no values)", example: "Reminder.select { $0.id.sum() }"),
    aggregate(
      "avg(distinct: Bool = false, filter: ((TableColumns) -> Bool)? = nil) -> Double? where QueryValue.Wrapped: Numeric", "avg",
      "The average in each group", example: "Reminder.select { $0.id.avg() }"),
    aggregate(
      "total(distinct: Bool = false, filter: ((TableColumns) -> Bool)? = nil) -> Double where QueryValue.Wrapped: Numeric", "total",
      "The sum in each group (0.0 when there are no values)", example: "Reminder.select { $0.id.total() }"),
    aggregate(
      "min(filter: ((TableColumns) -> Bool)? = nil) -> Self?", "min", "The smallest value in each group",
      example: "Reminder.select { $0.dueDate.min() }"),
    aggregate(
      "max(filter: ((TableColumns) -> Bool)? = nil) -> Self?", "max", "The largest value in each group",
      example: "Reminder.select { $0.dueDate.max() }"),
    aggregate(
      "groupConcat(_ separator: String? = nil, order: ((TableColumns) -> Orderings)? = nil, filter: ((TableColumns) -> Bool)? = nil) -> String? where QueryValue.Wrapped == String",
      "group_concat", "The values of each group joined into one text (order: needs SQLite 3.44)",
      example: "Reminder.select { $0.title.groupConcat(\", \") }"),
    aggregate(
      "groupConcat(distinct: Bool, order: ((TableColumns) -> Orderings)? = nil, filter: ((TableColumns) -> Bool)? = nil) -> String? where QueryValue.Wrapped == String",
      "group_concat", "The distinct values of each group joined by commas",
      example: "Reminder.select { $0.title.groupConcat(distinct: true) }"),
    aggregate(
      "jsonGroupArray(distinct: Bool = false, order: ((TableColumns) -> Orderings)? = nil, filter: ((TableColumns) -> Bool)? = nil) -> String",
      "json_group_array", "The values of each group as a JSON array",
      example: "Reminder.select { $0.title.jsonGroupArray() }"),
    // Scalar functions
    scalar(
      "length() -> Int where QueryValue: Collection", "length", "The number of characters", example: "Reminder.select { $0.title.length() }"
    ),
    scalar("lower() -> Self where QueryValue.Wrapped == String", "lower", "In lower case", example: "Reminder.select { $0.title.lower() }"),
    scalar("upper() -> Self where QueryValue.Wrapped == String", "upper", "In upper case", example: "Reminder.select { $0.title.upper() }"),
    scalar(
      "trim(_ characters: String? = nil) -> String where QueryValue == String", "trim",
      "Without spaces (or the given characters) at both ends",
      example: "Reminder.select { $0.title.trim() }"),
    scalar(
      "ltrim(_ characters: String? = nil) -> String where QueryValue == String", "ltrim", "Without spaces at the start",
      example: "Reminder.select { $0.title.ltrim() }"),
    scalar(
      "rtrim(_ characters: String? = nil) -> String where QueryValue == String", "rtrim", "Without spaces at the end",
      example: "Reminder.select { $0.title.rtrim() }"),
    scalar(
      "substr(_ offset: Int, _ length: Int? = nil) -> String where QueryValue == String", "substr",
      "Part of the text, from offset (1 is the first character)",
      example: "Reminder.select { $0.title.substr(1, 3) }"),
    scalar(
      "replace(_ pattern: String, _ replacement: String) -> String where QueryValue == String", "replace",
      "Every occurrence of pattern replaced",
      example: "Reminder.select { $0.title.replace(\"a\", \"A\") }"),
    scalar(
      "instr(_ occurrence: String) -> Int where QueryValue == String", "instr", "Where the text first occurs (1-based; 0 when it does not)",
      example: "Reminder.select { $0.title.instr(\"e\") }"),
    scalar("abs() -> Self where QueryValue.Wrapped: Numeric", "abs", "The absolute value", example: "Reminder.select { $0.id.abs() }"),
    scalar(
      "round(_ precision: Int? = nil) -> Double where QueryValue: FloatingPoint", "round", "Rounded to precision decimal places",
      example: "Reminder.select { $0.id.total().round(2) }"),
    scalar("sign() -> Int where QueryValue.Wrapped: Numeric", "sign", "-1, 0 or 1", example: "Reminder.select { $0.id.sign() }"),
    scalar(
      "quote() -> Self where QueryValue.Wrapped == String", "quote", "The value as an SQL literal",
      example: "Reminder.select { $0.title.quote() }"),
    scalar(
      "hex() -> String where QueryValue == [UInt8]", "hex", "The value's bytes in hexadecimal",
      example: "Reminder.select { $0.title.octetLength().randomblob().hex() }"),
    scalar(
      "unhex(_ characters: String? = nil) -> [UInt8] where QueryValue.Wrapped == String", "unhex", "Bytes from hexadecimal text",
      example: "Reminder.select { $0.title.octetLength().randomblob().hex().unhex() }"),
    scalar(
      "octetLength() -> Int where QueryValue == String", "octet_length", "The number of bytes",
      example: "Reminder.select { $0.title.octetLength() }"),
    scalar(
      "unicode() -> Int where QueryValue.Wrapped == String", "unicode", "The code point of the first character",
      example: "Reminder.select { $0.title.unicode() }"),
    scalar(
      "likelihood(_ probability: Double) -> Bool where QueryValue == Bool", "likelihood",
      "A hint to the query planner of how often it is true",
      example: "Reminder.where { $0.isFlagged.likelihood(0.1) }"),
    scalar(
      "likely() -> Bool where QueryValue == Bool", "likely", "A hint that the condition is usually true",
      example: "Reminder.where { $0.isFlagged.likely() }"),
    scalar(
      "unlikely() -> Bool where QueryValue == Bool", "unlikely", "A hint that the condition is usually false",
      example: "Reminder.where { $0.isFlagged.unlikely() }"),
    scalar(
      "randomblob() -> [UInt8] where QueryValue: BinaryInteger", "randomblob", "That many random bytes",
      example: "Reminder.select { $0.id.randomblob() }"),
    scalar(
      "zeroblob() -> [UInt8] where QueryValue: BinaryInteger", "zeroblob", "That many zero bytes",
      example: "Reminder.select { $0.id.zeroblob() }"),
    scalar(
      "typeof() -> String", "typeof", "SQLite's type of the value: integer, real, text, blob or null",
      example: "Reminder.select { $0.dueDate.typeof() }"),
    scalar(
      "ifnull(_ other: Wrapped) -> Wrapped", "ifnull", "The value, or other when it is NULL",
      example: "Reminder.select { $0.dueDate.ifnull(Date()) }"),
    scalar(
      "nullif(_ other: Self) -> Self?", "nullif", "NULL when equal to other, else the value",
      example: "Reminder.select { $0.title.nullif(\"\") }"),
    // JSON paths into JSON-stored columns
    M(
      "jsonEach() -> Select", "The elements of a JSON array as rows of key and value (json_each), to filter, count or select",
      example: json + "Doc.select { ($0.id, $0.tags.jsonEach().count()) }", handler: .expression("jsonEach") { $0.jsonEach }),
    M(
      "jsonExtract(_ path: KeyPath) -> Member", "The value at a path inside JSON (json_extract)",
      example: json + "Doc.select { $0.tags.jsonExtract(\\.[0]) }", handler: .expression("jsonExtract") { $0.jsonPathMethod }),
    M(
      "jsonSet(_ path: KeyPath, _ value: Member) -> Self",
      "The JSON with the value at the path set, created if missing (json_set); calls chain",
      example: json + "Doc.update { $0.tags = $0.tags.jsonSet(\\.[0], \"z\").jsonSet(\\.[1], \"y\") }",
      handler: .expression("jsonSet") { $0.jsonPathMethod }),
    M(
      "jsonInsert(_ path: KeyPath, _ value: Member) -> Self", "The JSON with the value inserted where the path is missing (json_insert)",
      example: json + "Doc.update { $0.tags = $0.tags.jsonInsert(\\.[5], \"z\") }", handler: .expression("jsonInsert") { $0.jsonPathMethod }
    ),
    M(
      "jsonReplace(_ path: KeyPath, _ value: Member) -> Self", "The JSON with the value at an existing path replaced (json_replace)",
      example: json + "Doc.update { $0.tags = $0.tags.jsonReplace(\\.[0], \"z\") }",
      handler: .expression("jsonReplace") { $0.jsonPathMethod }),
    M(
      "jsonRemove(_ path: KeyPath) -> Self", "The JSON without the value at the path (json_remove)",
      example: json + "Doc.update { $0.tags = $0.tags.jsonRemove(\\.[0]) }", handler: .expression("jsonRemove") { $0.jsonPathMethod }),
    M(
      "jsonAppend(_ value: Element) -> Self", "The JSON array with a value added at the end (json_insert at '$[#]')",
      example: json + "Doc.update { $0.tags = $0.tags.jsonAppend(\"c\").jsonAppend(\"d\") }",
      handler: .expression("jsonAppend") { $0.jsonPathMethod }),
    M(
      "jsonAppend(_ path: KeyPath, _ value: Element) -> Self", "An array inside the JSON with a value added at its end",
      example: json + "Doc.update { $0.tags = $0.tags.jsonAppend(\\.self, \"c\") }",
      handler: .expression("jsonAppend") { $0.jsonPathMethod }),
    M(
      "jsonArrayInsert(_ path: KeyPath, _ value: Element) -> Self",
      "The JSON array with a value inserted before the path (json_array_insert, SQLite 3.51+)",
      example: json + "Doc.select { $0.tags.jsonArrayInsert(\\.[0], \"a\") }", handler: .expression("jsonArrayInsert") { $0.jsonPathMethod }
    ),
    scalar(
      "jsonArrayLength() -> Int", "json_array_length", "The number of elements of a JSON array",
      example: "Reminder.select { $0.title.jsonGroupArray().jsonArrayLength() }"),
    scalar("json() -> String", "json", "The text as minified JSON", example: "Reminder.select { $0.title.jsonGroupArray().json() }"),
    scalar(
      "jsonType() -> String", "json_type", "The JSON type of the value", example: "Reminder.select { $0.title.jsonGroupArray().jsonType() }"
    ),
    scalar("jsonQuote() -> String", "json_quote", "The value as a JSON literal", example: "Reminder.select { $0.title.jsonQuote() }"),
    scalar(
      "jsonPatch(_ patch: String) -> String", "json_patch", "A JSON object merged with a patch (RFC 7396)",
      example: "Reminder.select { $0.title.jsonGroupArray().jsonPatch(\"{}\") }"),
  ]
}
