import Foundation
import XCTest

/// `quarry lessons --lint` and a scripted walk through a lesson at the prompt.
final class LearnTests: XCTestCase {
  func testLintReportsProblemsWithLocations() throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("broken-\(UUID()).md")
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
    XCTAssertTrue(result.stderr.contains("\(file.path):6: example fails: 1:1: unknown table or type 'Remindr'; did you mean 'Reminder'?"), result.stderr)
    XCTAssertTrue(result.stderr.contains("\(file.path):17: the wrong answer passes the check"), result.stderr)
    let good = try QuarryProcess.run(["lessons", "--lint", QuarryProcess.packageRoot.appendingPathComponent("lessons/01-basics.md").path])
    XCTAssertEqual(good.status, 0, good.stderr)
  }

  func testScriptedWalkThroughALessonInATerminal() throws {
    let terminal = try TerminalSession(arguments: ["learn", "5"])
    XCTAssertTrue(terminal.waitFor("Self-joins via table aliases · step 1/5"), terminal.screen())
    terminal.enter(".next")
    XCTAssertTrue(terminal.waitFor("Exercise: Who reports to whom"), terminal.screen())
    terminal.enter(".hint")
    XCTAssertTrue(terminal.waitFor("Hint: Join"), terminal.screen())
    terminal.enter("Employee.join(Employee.all.as(Manager.self)) { $0.managerID.eq($1.id) }.select { ($0.name, $0.title) }")
    terminal.enter(".check")
    XCTAssertTrue(terminal.waitFor("✗ Not yet: row 1 (sorted), column 2"), terminal.screen())
    terminal.enter("Employee.join(Employee.all.as(Manager.self)) { $0.managerID.eq($1.id) }.select { ($0.name, $1.name) }")
    terminal.enter(".check")
    XCTAssertTrue(terminal.waitFor("✓ Correct"), terminal.screen())
    terminal.press("C-d")
    let progress = try String(contentsOf: terminal.stateDirectory.appendingPathComponent("quarry/progress.json"), encoding: .utf8)
    XCTAssertTrue(progress.contains("Exercise: Who reports to whom"), progress)
  }
}
