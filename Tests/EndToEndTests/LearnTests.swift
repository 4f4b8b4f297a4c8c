import Foundation
import XCTest

/// `quarry lessons --lint` and a scripted walk through a lesson at the prompt.
final class LearnTests: XCTestCase {
  func testLintReportsProblemsWithLocations() throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("broken-\(UUID()).md")
    defer { try? FileManager.default.removeItem(at: file) }
    try """
    ---
    title: Broken
    fixture: reminders
    ---
    ```example
    Remindr.all
    ```
    ## Exercise: One
    Prompt.
    ```hint
    h
    ```
    ```solution
    Tag.select(\\.title)
    ```
    ```wrong extra column
    Tag.select(\\.title)
    ```
    """.write(to: file, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: file) }
    let result = try QuarryProcess.run(["lessons", "--lint", file.path])
    XCTAssertEqual(result.status, 1)
    XCTAssertTrue(result.stderr.contains("\(file.path):1: a lesson needs at least 4 exercises"), result.stderr)
    XCTAssertTrue(
      result.stderr.contains("\(file.path):6: example fails: 1:1: unknown table or type 'Remindr'; did you mean 'Reminder'?"), result.stderr
    )
    XCTAssertTrue(result.stderr.contains("\(file.path):17: the wrong answer passes the check"), result.stderr)
    let good = try QuarryProcess.run(["lessons", "--lint", QuarryProcess.packageRoot.appendingPathComponent("lessons/01-basics.md").path])
    XCTAssertEqual(good.status, 0, good.stderr)
  }

  func testScriptedWalkThroughALessonInATerminal() throws {
    let terminal = try TerminalSession(arguments: ["learn", "5"])
    XCTAssertTrue(terminal.waitFor("Self-joins via table aliases · step 1/6"), terminal.screen())
    terminal.enter(".next")
    XCTAssertTrue(terminal.waitFor("Exercise: Who reports to whom"), terminal.screen())
    terminal.enter(".hint")
    XCTAssertTrue(terminal.waitFor("Hint: Join"), terminal.screen())
    terminal.enter(
      "Employee.join(Employee.all.as(Manager.self)) { $0.managerID.eq($1.id) }.select { employee, _ in (employee.name, employee.title) }")
    terminal.enter(".check")
    XCTAssertTrue(terminal.waitFor("✗ Not yet: in the row whose 'name' is 'Ana Ribeiro', column 2"), terminal.screen())
    terminal.enter("Employee.join(Employee.all.as(Manager.self)) { $0.managerID.eq($1.id) }.select { ($0.name, $1.name) }")
    terminal.enter(".check")
    XCTAssertTrue(terminal.waitFor("✓ Correct"), terminal.screen())
    terminal.press("C-d")
    let progress = try String(contentsOf: terminal.stateDirectory.appendingPathComponent("quarry/progress.json"), encoding: .utf8)
    XCTAssertTrue(progress.contains("Exercise: Who reports to whom"), progress)
  }

  /// A walk through a new lesson in a terminal: set-up typed at the prompt (a virtual table, its
  /// rows, its model) is the context of `.check`, and Ctrl-C stops a check that would not end.
  func testWalkThroughTheFullTextSearchLessonInATerminal() throws {
    let terminal = try TerminalSession(arguments: ["learn", "21"])
    XCTAssertTrue(terminal.waitFor("Full-text search with FTS5 · step 1/7"), terminal.screen())
    terminal.enter("CREATE VIRTUAL TABLE reminderTexts USING fts5(title, notes);")
    terminal.enter("INSERT INTO reminderTexts (rowid, title, notes) SELECT id, title, notes FROM reminders;")
    terminal.enter("@Table struct ReminderText: FTS5 { let title: String; let notes: String }")
    XCTAssertTrue(terminal.waitFor("declared"), terminal.screen())
    terminal.enter(".next")
    XCTAssertTrue(terminal.waitFor("Exercise: Build the index"), terminal.screen())
    terminal.enter(#"ReminderText.where { $0.match("ask") }.select(\.title)"#)
    XCTAssertTrue(terminal.waitFor("Call the accountant"), terminal.screen())
    terminal.enter(".check")
    XCTAssertTrue(terminal.waitFor("✓ Correct"), terminal.screen())
    // An endless query: Ctrl-C stops it at the prompt, and again inside the check.
    terminal.enter(".next")
    XCTAssertTrue(terminal.waitFor("Exercise: Words that start alike"), terminal.screen())
    terminal.enter("WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) SELECT count(*) FROM n;")
    Thread.sleep(forTimeInterval: 0.5)
    terminal.press("C-c")
    XCTAssertTrue(terminal.waitFor("stopped after 0 rows (Ctrl-C)"), terminal.screen())
    terminal.enter(".check")
    Thread.sleep(forTimeInterval: 0.5)
    terminal.press("C-c")
    XCTAssertTrue(terminal.waitFor("✗ Not yet: the check was stopped (Ctrl-C) before the query finished", timeout: 4), terminal.screen())
    terminal.enter(".prev")
    XCTAssertTrue(terminal.waitFor("Exercise: Build the index", count: 2), terminal.screen())
    terminal.press("C-d")
  }
}
