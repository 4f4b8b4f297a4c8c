import XCTest

@testable import Workbench

/// Lesson text at the prompt: Markdown tables drawn to fit the terminal, never cut mid-word.
final class LessonTextTests: XCTestCase {
  let table = """
    Some prose before.

    | DSL | SQL | With a NULL |
    | --- | --- | --- |
    | `$0.email.is(nil)` | `email IS NULL` | true |
    | `$0.count()` | `count(id)` | every row counted (the library counts the primary key, never NULL) |

    After.
    """

  func testATableThatFitsIsBoxed() {
    let small = """
      | DSL | SQL |
      | :-- | --: |
      | `$0.count()` | `count(id)` |
      | `$0.title + "!"` | `"title" \\|\\| '!'` |
      """
    XCTAssertEqual(
      TerminalMarkdown.render(small, color: false, width: 80),
      """
      ┌────────────────┬────────────────┐
      │ DSL            │ SQL            │
      ├────────────────┼────────────────┤
      │ $0.count()     │ count(id)      │
      │ $0.title + "!" │ "title" || '!' │
      └────────────────┴────────────────┘

      """)
  }

  func testATableTooWideIsABlockPerRowWrappedAtSpaces() {
    let rendered = TerminalMarkdown.render(table, color: false, width: 40)
    XCTAssertEqual(
      rendered,
      """
      Some prose before.

      DSL: $0.email.is(nil)
      SQL: email IS NULL
      With a NULL: true

      DSL: $0.count()
      SQL: count(id)
      With a NULL: every row counted (the
                   library counts the primary
                   key, never NULL)

      After.

      """)
    for line in rendered.split(separator: "\n") { XCTAssertLessThanOrEqual(TerminalWidth.of(String(line)), 40, String(line)) }
  }

  /// Lists a solution builds compare as sets of their elements, split on the separator the
  /// solution uses (a comma by default), or as JSON arrays.
  func testListsCompareAsSetsOnTheSolutionsSeparator() {
    XCTAssertEqual(AnswerChecker.listSeparator(in: #"Tag.select { $0.title.groupConcat(" | ") }"#), " | ")
    XCTAssertEqual(AnswerChecker.listSeparator(in: "SELECT group_concat(title, '; ') FROM tags"), "; ")
    XCTAssertEqual(AnswerChecker.listSeparator(in: "SELECT group_concat(upper(title), '-') FROM tags"), "-")
    XCTAssertEqual(AnswerChecker.listSeparator(in: "Tag.select { $0.title.groupConcat() }"), ",")
    XCTAssertEqual(AnswerChecker.listSeparator(in: "Tag.select { $0.title.jsonGroupArray() }"), ",")
    XCTAssertNil(AnswerChecker.listSeparator(in: "Tag.select(\\.title)"))
    let key = { (text: String, separator: String?) in AnswerChecker.valueKey(.text(text), listSeparator: separator) }
    XCTAssertEqual(key("car | kids", " | "), key("kids|car", " | "))
    XCTAssertNotEqual(key("car | kids", " | "), key("car | kid", " | "))
    XCTAssertEqual(key(#"["a","b"]"#, ","), key(#"["b","a"]"#, ","))
    XCTAssertNotEqual(key("a,b", nil), key("b,a", nil))
  }

  /// After the written hints, `.hint` gives the solution's outline: its calls or clauses, with
  /// what goes inside left out.
  func testTheOutlineHintShowsTheShapeNotTheAnswer() {
    XCTAssertEqual(
      Tutor.outline(of: #"Employee.join(Employee.all.as(Manager.self)) { $0.managerID.eq($1.id) }.select { ($0.name, $1.name) }"#),
      "Employee · join(…) { … } · select { … }")
    XCTAssertEqual(
      Tutor.outline(of: "Reminder\n  .where { !$0.isCompleted }\n  .order(by: \\.title)"),
      "Reminder · where { … } · order(…)")
    XCTAssertEqual(
      Tutor.outline(of: "SELECT name, count(*) FROM employees WHERE salary > 100 GROUP BY departmentID;"),
      "SELECT … FROM … WHERE … GROUP BY …")
    XCTAssertEqual(
      Tutor.outline(
        of:
          "CREATE INDEX reminders_dueDate ON reminders(dueDate);\nEXPLAIN QUERY PLAN SELECT title FROM reminders WHERE dueDate < '2026-03-01';"
      ),
      "CREATE INDEX … ON …; EXPLAIN QUERY PLAN SELECT … FROM … WHERE …")
  }
}
