import Foundation
import XCTest

/// The interactive prompt, driven in a pseudo-terminal.
final class ReplTests: XCTestCase {
  func testTypingWithArrowKeyEditsAndHistoryRecall() throws {
    let terminal = try TerminalSession()
    terminal.type("Tag.count)")
    terminal.press("Left")
    terminal.type("(")
    terminal.press("Enter")
    XCTAssertTrue(terminal.waitFor("│ 5        │"), terminal.screen())
    terminal.press("Up")
    XCTAssertTrue(terminal.waitFor("quarry> Tag.count()", count: 2), terminal.screen())
    terminal.press("C-a")
    terminal.type("User")
    terminal.press("Delete", "Delete", "Delete")
    terminal.press("Enter")
    XCTAssertTrue(terminal.waitFor("FROM \"users\""), terminal.screen())
    terminal.press("C-d")
    let history = try String(contentsOf: terminal.stateDirectory.appendingPathComponent("quarry/history"), encoding: .utf8)
    XCTAssertTrue(history.contains("Tag.count()"), history)
    let mode = try FileManager.default.attributesOfItem(atPath: terminal.stateDirectory.appendingPathComponent("quarry/history").path)[.posixPermissions] as? Int
    XCTAssertEqual(mode, 0o600)
  }

  func testTabCompletesAColumnAfterDollarZero() throws {
    let terminal = try TerminalSession()
    terminal.type("Reminder.where { $0.isFl")
    terminal.press("Tab")
    XCTAssertTrue(terminal.waitFor("$0.isFlagged"), terminal.screen())
    terminal.type(" }.select(\\.title).limit(1)")
    terminal.press("Enter")
    XCTAssertTrue(terminal.waitFor("Buy groceries"), terminal.screen())
  }

  func testTabListsCandidatesByTheirNames() throws {
    let terminal = try TerminalSession()
    terminal.type("Reminder.where { $0.is")
    terminal.press("Tab", "Tab")
    XCTAssertTrue(terminal.waitFor("isCompleted    isFlagged      isHighPriority"), terminal.screen())
    XCTAssertFalse(terminal.screen().contains("0.isFlagged"), terminal.screen())
    terminal.press("C-u")
    terminal.type("Reminder.order(by: \\.ti")
    terminal.press("Tab")
    XCTAssertTrue(terminal.waitFor("Reminder.order(by: \\.title"), terminal.screen())
    terminal.press("C-u")
    terminal.type(".s")
    terminal.press("Tab", "Tab")
    XCTAssertTrue(terminal.waitFor(".save     .schema   .solution .sql"), terminal.screen())
  }

  func testMultiLineQuery() throws {
    let terminal = try TerminalSession()
    terminal.type("Tag")
    terminal.press("Enter")
    XCTAssertTrue(terminal.waitFor("FROM \"tags\""), terminal.screen())
    terminal.type("Tag.where {")
    terminal.press("Enter")
    XCTAssertTrue(terminal.waitFor("...>"), terminal.screen())
    terminal.type("  $0.id.gt(4)")
    terminal.press("Enter")
    terminal.type("}")
    terminal.press("Enter")
    XCTAssertTrue(terminal.waitFor("paperwork"), terminal.screen())
  }

  func testCtrlCStopsAnEndlessRecursiveCTEAndTheSessionGoesOn() throws {
    let terminal = try TerminalSession()
    terminal.type("@Table struct Counter { let n: Int }")
    terminal.press("Enter")
    terminal.type("With { Counter(n: 1).union(all: true, Counter.select { Counter.Columns(n: $0.n + 1) }) } query: { Counter.select { $0.n.count() } }")
    terminal.press("Enter")
    usleep(500_000)
    let start = Date()
    terminal.press("C-c")
    XCTAssertTrue(terminal.waitFor("interrupted", timeout: 5), terminal.screen())
    XCTAssertLessThan(Date().timeIntervalSince(start), 1.5)
    terminal.type("Tag.count()")
    terminal.press("Enter")
    XCTAssertTrue(terminal.waitFor("│ 5        │"), terminal.screen())
    // Ctrl-C at the prompt drops the input, not the session.
    terminal.type("Tag.whe")
    terminal.press("C-c")
    terminal.type("User.count()")
    terminal.press("Enter")
    XCTAssertTrue(terminal.waitFor("│ 5        │", count: 2), terminal.screen())
  }

  func testTheBannerSaysWhatIsOpen() throws {
    let fixture = try TerminalSession()
    XCTAssertTrue(fixture.screen().contains("Fixture 'reminders', in memory: changes are not saved (.reset reloads it)."), fixture.screen())
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-banner-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let database = directory.appendingPathComponent("notes.sqlite").path
    XCTAssertEqual(try QuarryProcess.run([database, "-e", ".raw CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)"]).status, 0)
    let file = try TerminalSession(arguments: [database, "--readonly"])
    XCTAssertTrue(file.screen().contains("Database \(database) (read-only)."), file.screen())
    file.type("Note.count()")
    file.press("Enter")
    XCTAssertTrue(file.waitFor("│ 0        │"), file.screen())
  }

  func testAnErrorThenAGoodQuery() throws {
    let terminal = try TerminalSession()
    terminal.type("Reminder.where { $0.titel.eq(\"x\") }")
    terminal.press("Enter")
    XCTAssertTrue(terminal.waitFor("did you mean 'title'?"), terminal.screen())
    XCTAssertTrue(terminal.screen().contains("                 ^~~~~~~~"), terminal.screen())
    terminal.type("Reminder.where { $0.title.eq(\"Mow the lawn\") }.select(\\.id)")
    terminal.press("Enter")
    XCTAssertTrue(terminal.waitFor("│ 8  │"), terminal.screen())
  }

  func testSideBySideAt160ColumnsAndStackedAt80() throws {
    let wide = try TerminalSession(width: 160)
    wide.type("Tag.where { $0.id.lt(3) }")
    wide.press("Enter")
    XCTAssertTrue(wide.waitFor("│ 2  │ someday │"), wide.screen())
    XCTAssertTrue(wide.screen().contains("FROM \"tags\"                        │ │ id │ title   │"), wide.screen())

    let narrow = try TerminalSession(width: 80)
    narrow.type("Reminder.where { $0.id.lt(3) }.select { ($0.title, $0.notes, $0.dueDate) }")
    narrow.press("Enter")
    XCTAssertTrue(narrow.waitFor("Fix the leaking tap"), narrow.screen())
    let lines = narrow.screen().split(separator: "\n")
    XCTAssertTrue(lines.contains { $0.hasPrefix("FROM \"reminders\"") && !$0.contains("│") }, narrow.screen())
    XCTAssertTrue(lines.allSatisfy { $0.count <= 80 })
  }
}
