import QuarryDSL
import Workbench
import XCTest

/// Each test marks where the diagnostic must point with 1️⃣ (swift-syntax's marker style).
final class DiagnosticTests: XCTestCase {
  /// A very long line (a pasted 5 MB statement) is not echoed whole under an error: a window of
  /// it around the place, cut with … on the sides, the caret still under the place.
  func testAnExcerptOfAVeryLongLineIsAWindowAroundThePlace() {
    let line = "SELECT '" + String(repeating: "a", count: 5000) + "' FRM t"
    let place = SourceLocation(byteOffset: line.utf8.count - 5, in: line)
    XCTAssertEqual(place.column, 5011)
    let lines = place.excerpt.split(separator: "\n", omittingEmptySubsequences: false)
    XCTAssertEqual(lines.count, 2)
    XCTAssertEqual(lines[0], "…" + String(repeating: "a", count: 233) + "' FRM t")
    XCTAssertEqual(lines[1], String(repeating: " ", count: 236) + "^")
    // A line of ordinary length is shown whole.
    XCTAssertEqual(SourceLocation(byteOffset: 9, in: "SELECT 1 FRM t").excerpt, "SELECT 1 FRM t\n         ^")
  }

  func assertDiagnostic(
    _ markedSource: String, _ message: String, file: StaticString = #filePath, line: UInt = #line
  ) throws {
    let marker = "1️⃣"
    guard let range = markedSource.range(of: marker) else {
      return XCTFail("no 1️⃣ marker in the source", file: file, line: line)
    }
    let before = markedSource[..<range.lowerBound]
    let expectedLine = before.filter { $0 == "\n" }.count + 1
    // Columns count characters, as people (and their editors) do.
    let expectedColumn = before.split(separator: "\n", omittingEmptySubsequences: false).last.map { $0.count + 1 } ?? 1
    let source = markedSource.replacingOccurrences(of: marker, with: "")
    let session = try Session.fixture("reminders")
    let compiler = Compiler(catalog: session.catalog)
    do {
      _ = try compiler.compile(source)
      XCTFail("expected a diagnostic, but the input compiled", file: file, line: line)
    } catch {
      XCTAssertEqual(error.fullMessage, message, file: file, line: line)
      XCTAssertEqual(error.line, expectedLine, "line", file: file, line: line)
      XCTAssertEqual(error.column, expectedColumn, "column", file: file, line: line)
    }
  }

  /// As StructuredQueries' `#sql` macro: a value interpolated inside quotes would be bound where
  /// SQLite reads the text '?', so the compiler refuses it (`\(raw:)` inside quotes is allowed).
  func testAValueBoundInsideQuotesInSQLIsRefused() throws {
    try assertDiagnostic(
      #"let search = "lamp"; Reminder.where { #sql("instr(\($0.title), '1️⃣\(search)') > 0") }"#,
      #"bind after opening "'" in SQL string, producing invalid fragment (the value would be bound as a parameter inside the quotes, where SQLite reads the text '?'): interpolate it outside the quotes (\(value), SQLite quotes a bound value itself), or, to splice raw SQL, use '\(raw:)'"#
    )
    let session = try Session.fixture("reminders")
    XCTAssertNoThrow(
      try Compiler(catalog: session.catalog).compile(
        #"let search = "lamp"; Reminder.where { #sql("instr(\($0.title), '\(raw: search)') > 0 -- it's \(search)") }"#))
  }

  /// `fetchAll`, `execute` run a whole query or a `#sql` statement; on a column inside a query
  /// the compiler refuses them (the call was dropped before).
  func testAColumnDoesNotRunItself() throws {
    try assertDiagnostic(
      "Reminder.select { $0.title.1️⃣execute() }",
      "'execute' runs a query or a #sql statement, not an expression inside one: call it on the whole query (Reminder.where { … }.execute(db))"
    )
    try assertDiagnostic(
      "Reminder.where { $0.isFlagged.1️⃣fetchAll() }",
      "'fetchAll' runs a query or a #sql statement, not an expression inside one: call it on the whole query (Reminder.where { … }.fetchAll(db))"
    )
    let session = try Session.fixture("reminders")
    XCTAssertNoThrow(try Compiler(catalog: session.catalog).compile(#"#sql("SELECT count(*) FROM reminders", as: Int.self).fetchOne(db)"#))
  }

  func testArgumentLabelsAreCheckedAgainstTheVocabulary() throws {
    try assertDiagnostic(
      "Reminder.limit(5, 1️⃣ofset: 2)",
      "'limit' has no argument 'ofset'; did you mean 'offset'?")
    try assertDiagnostic(
      "Reminder.order(1️⃣bye: \\.title)",
      "'order' has no argument 'bye'; did you mean 'by'?")
    try assertDiagnostic(
      "Reminder.select { $0.title.groupConcat(\", \", 1️⃣distinc: true) }",
      "'groupConcat' has no argument 'distinc'; did you mean 'distinct'?")
    try assertDiagnostic(
      "Reminder.where { $0.id.between(1, 1️⃣to: 3) }",
      "'between' has no argument 'to'; did you mean 'and'?")
    // Known labels in an order no form takes: the forms are listed.
    try assertDiagnostic(
      "Reminder.select { $0.id.1️⃣count(filter: $0.isFlagged, distinct: true) }",
      "'count' does not take these arguments; it is written 'count(distinct:filter:)'")
  }

  func testAnonymousArgumentsInsideAClosureWithNamedOnesAreRefused() throws {
    // swiftc: `$0` is not the outer closure's row once the inner closure names its parameter.
    try assertDiagnostic(
      "RemindersList.select { ($0.title, Reminder.where { r in r.remindersListID.eq(1️⃣$0.id) }.count()) }",
      "anonymous closure arguments cannot be used inside a closure that has explicit arguments; did you mean 'r'?")
    try assertDiagnostic(
      "Reminder.join(RemindersList.all) { _, _ in 1️⃣$1.id.eq(1) }.select { $0.title }",
      "anonymous closure arguments cannot be used inside a closure that has explicit arguments")
  }

  func testFreeFunctionsAndMacrosCheckTheirLabels() throws {
    try assertDiagnostic(
      "Reminder.where { $0.dueDate > Date(1️⃣timeIntervalSince197: 0) }",
      "'Date' has no argument 'timeIntervalSince197'; did you mean 'timeIntervalSince1970'?")
    try assertDiagnostic(
      "Reminder.where { _ in #sql(\"1\", 1️⃣ass: Bool.self) }",
      "'#sql' has no argument 'ass'; did you mean 'as'?")
    try assertDiagnostic(
      "With { Reminder.all } 1️⃣qery: { Reminder.all }",
      "'With' has no argument 'qery'; did you mean 'query'?")
  }

  func testDeprecatedDeclarationSpellingsWarn() throws {
    let session = try Session.fixture("reminders")
    let compiler = Compiler(catalog: session.catalog)
    _ = try compiler.compile(
      "@Table struct Doc {\n  let id: Int\n  @Columns(as: JSONRepresentation<[String]>.self)\n  var tags: [String] = []\n}")
    XCTAssertEqual(
      compiler.warnings.map { "\($0.line):\($0.column): \($0.fullMessage)" },
      [
        "3:3: 'Columns' is deprecated: renamed to 'Column'",
        "3:16: 'JSONRepresentation' is deprecated: Use 'MyCodableType.JSONRepresentation', instead.",
      ])
  }

  func testMisspeltMethodsSuggestFromTheVocabulary() throws {
    try assertDiagnostic(
      "Reminder.where { $0.title.1️⃣lenght() }",
      "an expression has no method 'lenght'; did you mean 'length'?")
    try assertDiagnostic(
      "Reminder.where { $0.isFlagged }.1️⃣ordr(by: \\.title)",
      "a query of 'Reminder' has no method 'ordr'; did you mean 'order'?")
    try assertDiagnostic(
      "Reminder.delete().1️⃣returnig(\\.id)",
      "a write statement has no method 'returnig'; did you mean 'returning'?")
  }

  func testDistinctNeedsAConstantNotAnythingReadAsFalse() throws {
    try assertDiagnostic(
      "Reminder.select { $0.priority.count(distinct: 1️⃣$0.isFlagged) }",
      "'distinct:' needs true or false, known before the query runs")
  }

  /// Mismatched types are refused where and as the compiler refuses them (swiftc against
  /// StructuredQueries: the method's name or the operator, naming both types).
  func testMismatchedTypesNameBothTypes() throws {
    try assertDiagnostic("Reminder.where { $0.title 1️⃣> 3 }", "operator function '>' requires the types 'String' and 'Int' be equivalent")
    try assertDiagnostic("Reminder.where { $0.id.1️⃣eq(\"1\") }", "instance method 'eq' requires the types 'Int' and 'String' be equivalent")
    try assertDiagnostic(
      "Reminder.select { $0.priority 1️⃣?? \"0\" }",
      "operator function '??' requires the types 'Priority?' and 'String' be equivalent")
    try assertDiagnostic(
      "Reminder.select { $0.title.1️⃣sum() }",
      "referencing instance method 'sum(distinct:filter:)' on 'QueryExpression' requires that 'String' conform to 'Numeric'")
    try assertDiagnostic(
      "Reminder.where { $0.priority.1️⃣gt(Priority.high) }",
      "instance method 'gt' requires the types 'Priority?' and 'Priority' be equivalent (the column is optional: compare with an optional on both sides, e.g. #bind(value) or Optional(value))"
    )
    try assertDiagnostic("Reminder.where { $0.priority.eq(.1️⃣high) }", "type 'QueryExpression' has no member 'high' (write 'Priority.high')")
    try assertDiagnostic(
      "Reminder.where { $0.id.1️⃣eq($0.assignedUserID) }", "instance method 'eq' requires the types 'Int' and 'Int?' be equivalent")
    try assertDiagnostic(
      "let id: Int? = 1\nReminder.where { $0.id.eq(1️⃣id) }", "value of optional type 'Int?' must be unwrapped to a value of type 'Int'")
    try assertDiagnostic(
      "Reminder.where { 1️⃣!$0.title }",
      "referencing operator function '!' on 'QueryExpression' requires the types 'String' and 'Bool' be equivalent")
    try assertDiagnostic("Reminder.select { $0.id 1️⃣+ 1.5 }", "operator function '+' requires the types 'Int' and 'Double' be equivalent")
    try assertDiagnostic(
      "Reminder.select { 1️⃣$0.isFlagged ? 1 : 0 }",
      "cannot convert value of type 'some QueryExpression<Bool>' to expected condition type 'Bool' (a condition on columns is SQL: write Case().when(condition, then: …).else(…))"
    )
  }

  func testOutOfRangeValuesAreLocatedErrorsNotCrashes() throws {
    try assertDiagnostic(
      "Reminder.where { $0.dueDate < Date(timeIntervalSince1970: 1️⃣1e300) }",
      "this date is outside the years 0000–9999 that SQLite's dates can hold")
    try assertDiagnostic(
      "enum Big: Int, QueryBindable {\n  case a = 9223372036854775807\n  case 1️⃣b\n}",
      "'b' would be one more than Int.max; give it a raw value")
  }

  /// `==` and `!=` on a column are unavailable in StructuredQueries (an error, as the compiler
  /// says); against nil they are deprecated (a warning, an error with --strict).
  func testUnavailableOperatorsAreErrorsAndDeprecatedOnesWarn() throws {
    try assertDiagnostic("Reminder.where { $0.title 1️⃣== \"x\" }", "'==' is unavailable: Use 'eq' (or 'is') instead.")
    let session = try Session.fixture("reminders")
    let compiler = Compiler(catalog: session.catalog)
    _ = try compiler.compile("Reminder.where { $0.title.eq(\"x\") || $0.dueDate != nil }")
    XCTAssertEqual(
      compiler.warnings.map { "\($0.line):\($0.column): \($0.fullMessage)" },
      [
        "1:49: '!=' is deprecated: Use 'isNot' instead."
      ])
    // Constants compared in Swift are not the library's operators.
    _ = try compiler.compile("Reminder.where { _ in 1 == 1 }")
    XCTAssertEqual(compiler.warnings, [])
    compiler.strict = true
    try assertDiagnosticStrict(compiler, "Reminder.where { $0.dueDate 1️⃣== nil }", "'==' is deprecated: Use 'is' instead.")
  }

  func assertDiagnosticStrict(_ compiler: Compiler, _ marked: String, _ message: String, line: UInt = #line) throws {
    let column = marked.components(separatedBy: "1️⃣")[0].count + 1
    do {
      _ = try compiler.compile(marked.replacingOccurrences(of: "1️⃣", with: ""))
      XCTFail("expected an error under --strict", line: line)
    } catch {
      XCTAssertEqual(error.fullMessage, message, line: line)
      XCTAssertEqual(error.column, column, line: line)
    }
  }

  func testUnknownColumnSuggestsTheClosestName() throws {
    try assertDiagnostic(
      "Reminder.where { $0.1️⃣titel.eq(\"x\") }",
      "table 'Reminder' has no column 'titel'; did you mean 'title'?")
  }

  func testBuilderIfOnAColumnSaysTheConditionMustBeKnownFirst() throws {
    try assertDiagnostic(
      "Reminder.where { if 1️⃣$0.isFlagged { !$0.isCompleted } }",
      "an 'if' in a query closure needs a condition known before the query runs (a Swift Bool); for a condition on columns use a predicate or Case"
    )
  }

  func testColumnsCountCharactersAfterNonASCIIText() throws {
    try assertDiagnostic(
      "Tag.where { $0.title.eq(\"é😀\") && $0.1️⃣titel }",
      "table 'Tag' has no column 'titel'; did you mean 'title'?")
  }

  func testDeeplyNestedSquareBracketsAreRefusedBeforeParsing() throws {
    // Swift's parser takes exponential time on nested `[`: 24 levels took 101 s.
    try assertDiagnostic(
      "Tag.where { $0.id.in([[[[[[[[[[[[1️⃣[1]]]]]]]]]]]]]) }",
      "'[' nests more than 12 levels deep here; Swift's parser would take minutes on it: flatten the literal or split the input")
    // Inside a string only an interpolation is code: its brackets count, the text's do not.
    try assertDiagnostic(
      #"Reminder.where { #sql("[[[[[[[[[[[[[[ \($0.dueDate[[[[[[[[[[[[1️⃣[Date) <= date('now')") }"#,
      "'[' nests more than 12 levels deep here; Swift's parser would take minutes on it: flatten the literal or split the input")
    try assertDiagnostic(
      "\"[[[[[[[[[[[[[[[[\" + " + String(repeating: "(", count: 200) + "1️⃣(",
      "brackets nest more than 200 levels deep here; split the input")
  }

  func testInvalidEscapesAreLocated() throws {
    try assertDiagnostic(#"Tag.where { $0.title.eq("ok1️⃣\u{D800}") }"#, "invalid escape sequence in this string")
  }

  func testAChainOfThousandsOfDeclarationsLoads() throws {
    // Each model names the next: reading them dependencies-first used to recurse once per link
    // (a stack overflow at 17,000) and compare every pair (quadratic).
    let count = 17_000
    let source = (0..<count).map { index in
      index + 1 < count
        ? "@Table struct T\(index) { let id: Int; var next: T\(index + 1).ID? }"
        : "@Table struct T\(index) { let id: Int }"
    }.joined(separator: "\n")
    let session = try Session.fixture("reminders")
    try session.loadModels(source, path: "chain.swift")
    XCTAssertEqual(session.catalog.table(forType: "T0")?.tableName, "t0s")
    XCTAssertEqual(session.catalog.table(forTableName: "t16999s")?.typeName, "T16999")
  }

  func testThousandsOfStatementsOnOneLineCompile() throws {
    let session = try Session.fixture("reminders")
    let items = try Compiler(catalog: session.catalog).compile(Array(repeating: "Tag.all", count: 8_000).joined(separator: "; "))
    XCTAssertEqual(items.count, 8_000)
    guard case .statement(let last)? = items.last else { return XCTFail("not a statement") }
    XCTAssertEqual(last.line, 1)
    XCTAssertEqual(last.column, 7_999 * 9 + 1)
  }

  func testUnknownTableSuggestsTheClosestType() throws {
    try assertDiagnostic("1️⃣Remnder.all", "unknown table or type 'Remnder'; did you mean 'Reminder'?")
  }

  func testUnknownQueryMethod() throws {
    try assertDiagnostic(
      "Reminder.all.1️⃣wher { $0.isCompleted }",
      "a query of 'Reminder' has no method 'wher'; did you mean 'where'?")
  }

  func testSyntaxErrorIsLocated() throws {
    try assertDiagnostic(
      "Reminder.where { $0.id.eq(1) 1️⃣",
      "syntax error: expected '}' to end closure expression; the '{' at 1:16 is not closed")
  }

  func testSyntaxErrorsNeverShowParserPlaceholders() throws {
    try assertDiagnostic("Tag.where { $0.id == 1️⃣}", "syntax error: expected an expression after '=='")
    try assertDiagnostic("@FetchAll(Reminder.all)1️⃣", "syntax error: expected a declaration after ')'")
  }

  func testComparingTextWithANumber() throws {
    try assertDiagnostic("Reminder.where { $0.title.1️⃣eq(42) }", "instance method 'eq' requires the types 'String' and 'Int' be equivalent")
  }

  func testChainedComparisonsNeedParentheses() throws {
    try assertDiagnostic(
      // swiftc: the same words, at the first operator.
      "Reminder.where { $0.id 1️⃣== 1 == $0.priority }",
      "adjacent operators are in non-associative precedence group 'ComparisonPrecedence'")
  }

  func testAnErrorInsideAnOperatorChainPointsAtItsOperand() throws {
    try assertDiagnostic(
      "Reminder.where { $0.id > 1 && $0.1️⃣titel == \"x\" || $0.isFlagged }",
      "table 'Reminder' has no column 'titel'; did you mean 'title'?")
  }

  func testAssignmentOutsideAnUpdate() throws {
    try assertDiagnostic("Reminder.where { $0.title 1️⃣= \"x\" }", "assignment is only allowed inside update { … }")
  }

  func testAbsurdlyLongInputIsRefusedNotACrash() throws {
    // 300 terms and a comparison: the message points at the 201st operator.
    let term = "$0.id + "
    try assertDiagnostic(
      "Reminder.where { " + String(repeating: term, count: 200) + "$0.id 1️⃣+ "
        + String(repeating: term, count: 98) + "$0.id > 1 }",
      "this expression has 300 operators; split it into smaller ones (at most 200)")
    try assertDiagnostic(
      "1️⃣Reminder" + String(repeating: ".limit(1)", count: 400),
      "this expression nests more than 256 levels deep (calls, closures and operators); split it into smaller ones")
    // Two million tokens: refused where the count runs out, before the parser spends seconds and
    // gigabytes on it.
    try assertDiagnostic(
      "let a = [" + String(repeating: "1,", count: 999_998) + "1️⃣1," + String(repeating: "1,", count: 10) + "1]",
      "this input has more than 2 million tokens (words, numbers, strings and symbols); Quarry reads at most that many at once: split it into smaller inputs"
    )
  }

  func testMultiLineInputPointsAtTheRightLine() throws {
    try assertDiagnostic(
      "Reminder\n  .where { !$0.isCompleted }\n  .order(by: 1️⃣\\.tittle)",
      "table 'Reminder' has no column 'tittle'; did you mean 'title'?")
  }

  func testUnsupportedSwiftSaysSo() throws {
    try assertDiagnostic("1️⃣while true { }", "not supported in Quarry yet: 'while statement' statements; write a query expression")
    try assertDiagnostic("for x in 1️⃣Reminder.all { }", "a 'for' loops over an array known before the query runs")
  }

  func testClosureWithTooManyParameters() throws {
    try assertDiagnostic(
      "Reminder.where { 1️⃣a, b in a.isCompleted }",
      "contextual closure type '(Reminder.TableColumns) -> …' expects 1 argument, but 2 were used in closure body")
    try assertDiagnostic(
      "Reminder.join(RemindersList.all) { $0.remindersListID.eq($1.id) }.1️⃣select { $0.title }",
      "contextual closure type '(Reminder.TableColumns, RemindersList.TableColumns) -> …' expects 2 arguments, but 1 was used in closure body (name every table: { _, _ in … }, or use $1)"
    )
    try assertDiagnostic(
      "Reminder.join(RemindersList.all) { $0.1️⃣remindersListID }",
      "value of tuple type '(Reminder.TableColumns, RemindersList.TableColumns)' has no member 'remindersListID'")
    try assertDiagnostic(
      "Reminder.select 1️⃣{ #sql(\"count(*)\", as: Int.self) }",
      "contextual type for closure argument list expects 1 argument, which cannot be implicitly ignored (write '_ in')")
  }

  func testNonBooleanCondition() throws {
    try assertDiagnostic(
      "Reminder.where 1️⃣{ $0.title }",
      "a condition must be a Bool expression, but this is String; compare it with .eq(…) or similar")
  }
}
