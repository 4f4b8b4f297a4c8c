/// The methods of a whole row (`$0.`) and of a column group.
extension Vocabulary {
  /// A whole row (`$0` itself).
  static let rowEntries: [MethodSignature] = [
    M(
      "eq(_ other: Self) -> Bool", "Every column equal to a row value's", example: "Tag.where { $0.eq(Tag(id: 1, title: \"errand\")) }",
      handler: .rowComparison("eq", .equal)),
    M(
      "neq(_ other: Self) -> Bool", "Some column different", example: "Tag.where { $0.neq(Tag(id: 1, title: \"errand\")) }",
      handler: .rowComparison("neq", .notEqual)),
    M(
      "is(_ other: Self?) -> Bool", "Every column equal, NULL included", example: "Tag.where { $0.is(Tag(id: 1, title: \"errand\")) }",
      handler: .rowComparison("is", .is)),
    M(
      "isNot(_ other: Self?) -> Bool", "Some column different, NULL included",
      example: "Tag.where { $0.isNot(Tag(id: 1, title: \"errand\")) }", handler: .rowComparison("isNot", .isNot)),
    M(
      "count(distinct: Bool = false, filter: ((TableColumns) -> Bool)? = nil) -> Int", "The number of rows in each group (count(*))",
      example: "Reminder.select { $0.count() }", handler: .row("count") { $0.countRows }),
    M(
      "match(_ pattern: String) -> Bool", "Full-text search of a whole FTS5 table (MATCH)",
      example:
        "CREATE VIRTUAL TABLE notes USING fts5(body);\n@Table struct Note: FTS5 { let body: String }\nNote.where { $0.match(\"milk\") }",
      handler: .row("match") { $0.compiler.expressionMethods.rowMatch }),
    M(
      "bm25(_ weights: [KeyPath: Double] = [:]) -> Double", "The FTS5 relevance of the match (lower is better), columns weighted",
      example:
        "CREATE VIRTUAL TABLE notes USING fts5(body);\n@Table struct Note: FTS5 { let body: String }\nNote.where { $0.match(\"milk\") }.order { $0.bm25() }",
      handler: .row("bm25") { $0.compiler.expressionMethods.bm25 }),
    M(
      "jsonGroupArray(distinct: Bool = false, filter: ((TableColumns) -> Bool)? = nil) -> String",
      "Each group's rows as a JSON array of objects",
      example: "Tag.select { $0.jsonGroupArray() }", handler: .row("jsonGroupArray") { $0.rowJSON }),
    M(
      "jsonObject() -> String", "The row as a JSON object", example: "Tag.select { $0.jsonObject() }",
      handler: .row("jsonObject") { $0.rowJSON }),
  ]

  /// A group of columns (`@Selection` or a nested group).
  static let columnGroupEntries: [MethodSignature] = [
    M(
      "eq(_ other: Group) -> Bool", "Every column of the group equal",
      example:
        "@Selection struct Pair { var a = 0\n var b = 0 }\nCREATE TABLE things (id INTEGER PRIMARY KEY, a INTEGER, b INTEGER);\n@Table struct Thing { let id: Int\n var pair: Pair }\nThing.where { $0.pair.eq(Pair(a: 1, b: 2)) }",
      handler: .groupComparison("eq", .equal)),
    M(
      "neq(_ other: Group) -> Bool", "Some column of the group different",
      example:
        "@Selection struct Pair { var a = 0\n var b = 0 }\nCREATE TABLE things (id INTEGER PRIMARY KEY, a INTEGER, b INTEGER);\n@Table struct Thing { let id: Int\n var pair: Pair }\nThing.where { $0.pair.neq(Pair(a: 1, b: 2)) }",
      handler: .groupComparison("neq", .notEqual)),
    M(
      "lt(_ other: Group) -> Bool", "Before the value, comparing column by column (row value <)",
      example:
        "CREATE TABLE things (id INTEGER PRIMARY KEY, a INTEGER, b INTEGER);\n@Selection struct Pair { var a = 0\n var b = 0 }\n@Table struct Thing { let id: Int\n var pair: Pair }\nThing.where { $0.pair.lt(Pair(a: 1, b: 2)) }",
      handler: .groupComparison("lt", .lessThan)),
    M(
      "gt(_ other: Group) -> Bool", "After the value, column by column (row value >)",
      example:
        "CREATE TABLE things (id INTEGER PRIMARY KEY, a INTEGER, b INTEGER);\n@Selection struct Pair { var a = 0\n var b = 0 }\n@Table struct Thing { let id: Int\n var pair: Pair }\nThing.where { $0.pair.gt(Pair(a: 1, b: 2)) }",
      handler: .groupComparison("gt", .greaterThan)),
    M(
      "lte(_ other: Group) -> Bool", "Before or equal, column by column (row value <=)",
      example:
        "CREATE TABLE things (id INTEGER PRIMARY KEY, a INTEGER, b INTEGER);\n@Selection struct Pair { var a = 0\n var b = 0 }\n@Table struct Thing { let id: Int\n var pair: Pair }\nThing.where { $0.pair.lte(Pair(a: 1, b: 2)) }",
      handler: .groupComparison("lte", .lessThanOrEqual)),
    M(
      "gte(_ other: Group) -> Bool", "After or equal, column by column (row value >=)",
      example:
        "CREATE TABLE things (id INTEGER PRIMARY KEY, a INTEGER, b INTEGER);\n@Selection struct Pair { var a = 0\n var b = 0 }\n@Table struct Thing { let id: Int\n var pair: Pair }\nThing.where { $0.pair.gte(Pair(a: 1, b: 2)) }",
      handler: .groupComparison("gte", .greaterThanOrEqual)),
    M(
      "is(_ other: Group?) -> Bool", "Every column equal, NULL included",
      example:
        "@Selection struct Pair { var a = 0\n var b = 0 }\nCREATE TABLE things (id INTEGER PRIMARY KEY, a INTEGER, b INTEGER);\n@Table struct Thing { let id: Int\n var pair: Pair? }\nThing.where { $0.pair.is(nil) }",
      handler: .columnGroup("is") { $0.groupIs }),
    M(
      "isNot(_ other: Group?) -> Bool", "Some column different, NULL included",
      example:
        "@Selection struct Pair { var a = 0\n var b = 0 }\nCREATE TABLE things (id INTEGER PRIMARY KEY, a INTEGER, b INTEGER);\n@Table struct Thing { let id: Int\n var pair: Pair? }\nThing.where { $0.pair.isNot(nil) }",
      handler: .columnGroup("isNot") { $0.groupIs }),
  ]
}
