/// Free functions, initializers and macros, and the `Case` builder they start.
extension Vocabulary {
  /// `Case()` and `Case(value)`.
  static let caseEntries: [MethodSignature] = [
    M(
      "when(_ condition: Value, then result: Value) -> Case", "A branch: when the condition (or value) matches, the result",
      example: "Reminder.select { Case().when($0.isFlagged, then: \"!\").else(\"\") }",
      handler: .caseBuilder("when") { $0.caseWhen }),
    M(
      "else(_ result: Value) -> Value", "The result when no branch matches (ELSE)",
      example: "Reminder.select { Case($0.priority).when(Priority.high, then: \"high\").else(\"other\") }",
      handler: .caseBuilder("else") { $0.caseElse }),
  ]

  /// Free functions, initialisers and macros.
  static let functionEntries: [MethodSignature] = [
    M(
      "Case(_ base: Value? = nil) -> Case", "Starts a CASE expression, on a value (Case(x).when(1, then: …)) or on conditions",
      example: "Reminder.select { Case().when($0.isFlagged, then: \"!\").else(\"\") }", handler: .function("Case") { $0.caseStart }),
    M(
      "With(_ statements: () -> [Statement], query: () -> Statement) -> Select",
      "Common table expressions (WITH): name queries, then use them like tables",
      example:
        "@Selection struct Flagged { let id: Int }\nWith { Reminder.where(\\.isFlagged).select { Flagged.Columns(id: $0.id) } } query: { Reminder.where { $0.id.in(Flagged.select(\\.id)) } }",
      handler: .function("With") { $0.with }),
    M(
      "Values(_ values: Value...) -> Select", "A row of literal values (SELECT 1, 'a')", example: "Values(1, \"a\")",
      handler: .function("Values") { $0.values }),
    M(
      "Date(timeIntervalSince1970: Double) -> Date", "A fixed date, in the column's storage",
      example: "Reminder.where { $0.updatedAt > Date(timeIntervalSince1970: 0) }", handler: .function("Date") { $0.date }),
    M(
      "Date(timeIntervalSinceReferenceDate: Double) -> Date", "A fixed date counted from 2001-01-01",
      example: "Reminder.where { $0.updatedAt > Date(timeIntervalSinceReferenceDate: 0) }", handler: .function("Date") { $0.date }),
    M(
      "Date() -> Date", "Now, when the statement runs", example: "Reminder.where { $0.updatedAt < Date() }",
      handler: .function("Date") { $0.date }),
    M(
      "UUID(uuidString: String) -> UUID", "A UUID from its text",
      example: "Reminder.select { _ in UUID(uuidString: \"deadbeef-0000-4000-8000-000000000000\")! }",
      handler: .function("UUID") { $0.uuid }),
    M(
      "UUID(_ number: Int) -> UUID", "StructuredQueries' test shorthand: UUID(1) is 00000000-…-000000000001",
      example: "Reminder.select { _ in UUID(1) }", handler: .function("UUID") { $0.uuid }),
    M(
      "#sql(_ text: String, as: Type.Type = Self) -> Expression", "Raw SQL, with \\(…) interpolations bound or quoted safely",
      example: "Reminder.where { #sql(\"\\($0.title) LIKE 'B%'\") }", handler: .macro("sql") { $0.sql }),
    M(
      "#bind(_ value: Value, as: Representation.Type = Self) -> Expression", "A Swift value as a bound SQL value",
      example: "Reminder.update { $0.title = #bind(\"Buy milk\") }", handler: .macro("bind") { $0.bind }),
    M(
      "URL(string: String) -> URL?", "A URL, stored as its text", example: "Values(URL(string: \"https://example.com\")!)",
      handler: .function("URL") { $0.url }),
    M(
      "URL(fileURLWithPath: String) -> URL", "A file URL, stored as its text", example: "Values(URL(fileURLWithPath: \"/tmp/notes\"))",
      handler: .function("URL") { $0.url }),
    M(
      "Optional(_ value: Value) -> Value?", "A value made optional (the same SQL value)", example: "Values(Optional(1))",
      handler: .function("Optional") { $0.optional }),
    M(
      "Int(_ value: Value) -> Int", "Swift's conversion, computed in Swift for a Swift value (a column is cast with .cast(as:))",
      example: "Values(Int(\"42\")!)", handler: .function("Int") { $0.conversion }),
    M(
      "Int64(_ value: Value) -> Int64", "Swift's conversion, computed in Swift for a Swift value", example: "Values(Int64(7))",
      handler: .function("Int64") { $0.conversion }),
    M(
      "Double(_ value: Value) -> Double", "Swift's conversion, computed in Swift for a Swift value", example: "Values(Double(7))",
      handler: .function("Double") { $0.conversion }),
    M(
      "String(_ value: Value) -> String", "Swift's conversion, computed in Swift for a Swift value", example: "Values(String(7))",
      handler: .function("String") { $0.conversion }),
    M(
      "Bool(_ value: Value) -> Bool", "Swift's conversion, computed in Swift for a Swift value", example: "Values(Bool(\"true\")!)",
      handler: .function("Bool") { $0.conversion }),
    M(
      "Array(_ values: [Value]) -> [Value]", "A list of values, as written", example: "Reminder.where { $0.id.in(Array([1, 2])) }",
      handler: .function("Array") { $0.collection }),
    M(
      "Set(_ values: [Value]) -> Set<Value>", "A list of values (their order as written)",
      example: "Reminder.where { $0.id.in(Set([1, 2])) }", handler: .function("Set") { $0.collection }),
    M(
      "print(_ item: Statement) -> Void", "In pasted app code: the query printed is the query shown", example: "print(Reminder.all)",
      handler: .function("print") { $0.printed }),
    M(
      "dump(_ item: Statement) -> Void", "In pasted app code: the query dumped is the query shown", example: "dump(Reminder.all)",
      handler: .function("dump") { $0.printed }),
    M(
      "debugPrint(_ item: Statement) -> Void", "In pasted app code: the query printed is the query shown",
      example: "debugPrint(Reminder.all)", handler: .function("debugPrint") { $0.printed }),
    M(
      "assertQuery(_ query: Statement, sql: () -> String = { \"\" }, results: () -> String = { \"\" }) -> Void",
      "Pasted from a StructuredQueries test: the query it checks (its SQL snapshot compared)",
      example: "assertQuery(Tag.order(by: \\.title))", handler: .function("assertQuery") { $0.assertion }),
    M(
      "assertInlineSnapshot(of query: Statement, as snapshotting: Snapshotting, matches: () -> String = { \"\" }) -> Void",
      "Pasted from a StructuredQueries test: the query it snapshots", example: "assertInlineSnapshot(of: Tag.all, as: .sql)",
      handler: .function("assertInlineSnapshot") { $0.assertion }),
  ]
}
