import Foundation
import XCTest

/// The interactive prompt, driven in a pseudo-terminal.
final class ReplTests: XCTestCase {
  /// A terminal that draws no escape codes (`TERM=dumb`) is sent none: no colour, no bracketed
  /// paste mode — the raw bytes of a session on a real pseudo-terminal (`script`), beside the
  /// same session on an xterm, which gets them.
  func testADumbTerminalGetsNoEscapeCodes() throws {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else { throw XCTSkip("script (bsdutils) is not installed") }
    func bytes(term: String) throws -> String {
      let binary = try QuarryProcess.binary.path
      let fixtures = QuarryProcess.packageRoot.appendingPathComponent("fixtures").path
      let state = "/tmp/quarry-dumb-\(UUID().uuidString)"
      defer { try? FileManager.default.removeItem(atPath: state) }
      let result = try QuarryProcess.runCommand(
        [
          "/usr/bin/script", "-qec",
          "env -u NO_COLOR TERM=\(term) QUARRY_FIXTURES='\(fixtures)' XDG_STATE_HOME=\(state) '\(binary)'",
          "/dev/null",
        ],
        stdin: "Tag.count()\n.quit\n")
      return result.stdout
    }
    let dumb = try bytes(term: "dumb")
    XCTAssertTrue(dumb.contains("count(*)"), dumb)
    XCTAssertFalse(dumb.contains("\u{1B}"), dumb.debugDescription)
    XCTAssertTrue(try bytes(term: "xterm").contains("\u{1B}[?2004h"))
  }

  func testTypingWithArrowKeyEditsAndHistoryRecall() throws {
    let terminal = try TerminalSession()
    terminal.type("Tag.count)")
    terminal.press("Left")
    terminal.enter("(")
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
    let mode =
      try FileManager.default.attributesOfItem(atPath: terminal.stateDirectory.appendingPathComponent("quarry/history").path)[
        .posixPermissions] as? Int
    XCTAssertEqual(mode, 0o600)
  }

  func testTabCompletesAColumnAfterDollarZero() throws {
    let terminal = try TerminalSession()
    terminal.type("Reminder.where { $0.isFl")
    terminal.press("Tab")
    XCTAssertTrue(terminal.waitFor("$0.isFlagged"), terminal.screen())
    terminal.enter(" }.select(\\.title).limit(1)")
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
    XCTAssertTrue(terminal.waitFor(".save     .schema   .shell    .solution .sql      .system"), terminal.screen())
  }

  /// Typed plain SQL without its `;` is told, once, why the prompt waits; the `;` runs it.
  func testSQLWithoutItsSemicolonSaysWhyItWaits() throws {
    let terminal = try TerminalSession()
    terminal.enter("SELECT title FROM tags WHERE id = 1")
    XCTAssertTrue(terminal.waitFor("plain SQL runs at its ';'"), terminal.screen())
    XCTAssertTrue(terminal.waitFor("...>"), terminal.screen())
    terminal.enter("AND title <> ''")
    terminal.enter(";")
    XCTAssertTrue(terminal.waitFor("1 row"), terminal.screen())
    XCTAssertEqual(terminal.screen().components(separatedBy: "plain SQL runs at").count, 2, terminal.screen())
  }

  func testMultiLineQuery() throws {
    let terminal = try TerminalSession()
    terminal.enter("Tag")
    XCTAssertTrue(terminal.waitFor("FROM \"tags\""), terminal.screen())
    terminal.enter("Tag.where {")
    XCTAssertTrue(terminal.waitFor("...>"), terminal.screen())
    terminal.enter("  $0.id.gt(4)")
    terminal.enter("}")
    XCTAssertTrue(terminal.waitFor("paperwork"), terminal.screen())
  }

  func testCtrlCStopsAnEndlessRecursiveCTEAndTheSessionGoesOn() throws {
    let terminal = try TerminalSession()
    terminal.enter("@Table struct Counter { let n: Int }")
    terminal.enter(
      "With { Counter(n: 1).union(all: true, Counter.select { Counter.Columns(n: $0.n + 1) }) } query: { Counter.select { $0.n.count() } }")
    usleep(500_000)
    let start = Date()
    terminal.press("C-c")
    XCTAssertTrue(terminal.waitFor("stopped after 0 rows (Ctrl-C)", timeout: 5), terminal.screen())
    XCTAssertLessThan(Date().timeIntervalSince(start), 1.5)
    // One message: no empty table, no error repeating it.
    XCTAssertFalse(terminal.screen().contains("interrupted"), terminal.screen())
    XCTAssertFalse(terminal.screen().contains("┌"), terminal.screen())
    terminal.enter("Tag.count()")
    XCTAssertTrue(terminal.waitFor("│ 5        │"), terminal.screen())
    // Ctrl-C at the prompt drops the input, not the session.
    terminal.type("Tag.whe")
    terminal.press("C-c")
    terminal.enter("User.count()")
    XCTAssertTrue(terminal.waitFor("│ 5        │", count: 2), terminal.screen())
  }

  /// A resize (SIGWINCH), Ctrl-Z (SIGTSTP) and `fg` (SIGCONT) interrupt the terminal read; none
  /// of them is the end of input. The session, its changes and the line being typed survive.
  func testResizeAndCtrlZKeepTheSessionAndTheInput() throws {
    let terminal = try TerminalSession(width: 100, height: 30)
    terminal.enter("Tag.insert { Tag.Draft(title: \"kept\") }")
    XCTAssertTrue(terminal.waitFor("1 row changed"), terminal.screen())
    terminal.enter("Tag.where {")
    XCTAssertTrue(terminal.waitFor("...>"), terminal.screen())
    terminal.type("$0.title.eq(")
    terminal.resize(width: 80, height: 24)
    terminal.resize(width: 110, height: 30)
    terminal.press("C-z")
    terminal.signal(SIGCONT)
    terminal.signal(SIGWINCH)
    XCTAssertTrue(terminal.isRunning, terminal.screen())
    terminal.enter("\"kept\")")
    terminal.enter("}")
    XCTAssertTrue(terminal.waitFor("│ kept"), terminal.screen())
    // The prompt is drawn again after each interruption, not once per signal on one row.
    XCTAssertFalse(terminal.screen().contains("eq(   ...>"), terminal.screen())
    terminal.enter("Tag.count()")
    XCTAssertTrue(terminal.waitFor("│ 6 "), terminal.screen())
  }

  /// Ctrl-D (or `.quit`, `.open`) with a transaction the user began still open warns first and
  /// stays; the same key again rolls it back, says so, and leaves.
  func testLeavingWithAnOpenTransactionWarnsFirst() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-leave-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let database = directory.appendingPathComponent("t.sqlite").path
    XCTAssertEqual(try QuarryProcess.run([database, "-e", ".raw CREATE TABLE t (x INTEGER PRIMARY KEY)"]).status, 0)
    let terminal = try TerminalSession(arguments: [database], lingers: true)
    terminal.enter("BEGIN;")
    XCTAssertTrue(terminal.waitFor("quarry*>"), terminal.screen())
    terminal.enter("INSERT INTO t VALUES (1), (2);")
    XCTAssertTrue(terminal.waitFor("2 rows changed"), terminal.screen())
    terminal.press("C-d")
    XCTAssertTrue(
      terminal.waitFor("a transaction is open (2 rows changed since BEGIN): COMMIT or ROLLBACK it, or Ctrl-D again to roll it back"),
      terminal.screen())
    terminal.enter(".quit")
    XCTAssertTrue(terminal.waitFor(".quit again to roll it back"), terminal.screen())
    terminal.enter("SELECT count(*) FROM t;")
    XCTAssertTrue(terminal.waitFor("│ 2        │"), terminal.screen())
    terminal.press("C-d")
    terminal.press("C-d")
    XCTAssertTrue(terminal.waitFor("the open transaction was rolled back: 2 rows changed since BEGIN were not saved"), terminal.screen())
    XCTAssertEqual(try QuarryProcess.run([database, "-e", "SELECT count(*) FROM t", "--format", "csv"]).stdout, "count(*)\n0\n")
  }

  /// A misspelled first keyword is one located error, and nothing runs.
  func testAMisspelledSQLKeywordIsOneError() throws {
    let terminal = try TerminalSession()
    terminal.enter("SELEC 1;")
    XCTAssertTrue(terminal.waitFor("did you mean SELECT? (nothing ran)"), terminal.screen())
    XCTAssertFalse(terminal.screen().contains("syntax error"), terminal.screen())
    XCTAssertFalse(terminal.screen().contains("│ 1 │"), terminal.screen())
  }

  /// A long result shows its first rows at once and counts the rest on one line; Ctrl-C stops it
  /// with one line. With `.maxrows 0` every row is written as it comes (here without a pager).
  func testLongResultsStreamAndCountAsTheyRun() throws {
    let terminal = try TerminalSession(width: 100, height: 30)
    terminal.enter(
      "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 50000000) SELECT x, 'row ' || x AS label FROM c;")
    XCTAssertTrue(terminal.waitFor("│ 11 │ row 11 │"), terminal.screen())
    XCTAssertTrue(terminal.waitFor("rows so far · Ctrl-C stops"), terminal.screen())
    terminal.press("C-c")
    XCTAssertTrue(terminal.waitFor("(Ctrl-C)"), terminal.screen())
    XCTAssertTrue(terminal.screen().contains("└"), terminal.screen())
    XCTAssertFalse(terminal.screen().contains("rows so far"), terminal.screen())
    XCTAssertFalse(terminal.screen().contains("error"), terminal.screen())
    terminal.enter(".maxrows 0")
    terminal.enter("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 20000) SELECT x, 'row ' || x AS label FROM c;")
    XCTAssertTrue(terminal.waitFor("│ 20000 │ row 20000 │"), terminal.screen())
    XCTAssertTrue(terminal.waitFor("20,000 rows\n"), terminal.screen())
    // Rows wider than the first screen's (x grew from 2 digits to 5) come under a header drawn
    // again at their widths: every border of the last table lines up with its rules.
    let lines = terminal.screen().split(separator: "\n").map(String.init)
    let last = try XCTUnwrap(lines.lastIndex { $0.hasPrefix("│ 20000 │") }, terminal.screen())
    XCTAssertEqual(lines[last + 1].count, lines[last].count, terminal.screen())
    XCTAssertTrue(lines[last + 1].hasPrefix("└───────┴"), terminal.screen())
  }

  /// A long `.import` shows how far it is on one line, and Ctrl-C stops it with nothing kept.
  func testALongImportCountsAndCtrlCStopsIt() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-import-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let csv = folder.appendingPathComponent("big.csv")
    var text = "id,label\n"
    for index in 0..<3_000_000 { text += "\(index),row \(index)\n" }
    try text.write(to: csv, atomically: true, encoding: .utf8)
    let terminal = try TerminalSession(width: 200, height: 30)
    terminal.enter(".import \(csv.path) big")
    XCTAssertTrue(terminal.waitFor("rows so far · Ctrl-C stops", timeout: 60), terminal.screen())
    terminal.press("C-c")
    XCTAssertTrue(terminal.waitFor("stopped (Ctrl-C); nothing was imported", timeout: 30), terminal.screen())
    XCTAssertFalse(terminal.screen().contains("rows so far"), terminal.screen())
    terminal.enter("SELECT count(*) AS tables FROM sqlite_schema WHERE name = 'big';")
    XCTAssertTrue(terminal.waitFor("│ 0      │"), terminal.screen())
  }

  /// A terminal resized while a query runs gets the result drawn for its new width.
  func testAResizeDuringAQueryDrawsForTheNewWidth() throws {
    let terminal = try TerminalSession(width: 160, height: 30)
    terminal.enter("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 10000000) SELECT count(*) AS total FROM c;")
    terminal.resize(width: 60, height: 30)
    XCTAssertTrue(terminal.waitFor("│ 10000000 │", timeout: 60), terminal.screen())
    // Stacked (the SQL above the result) at 60 columns, not side by side as at 160.
    XCTAssertFalse(terminal.screen().contains("│ ┌"), terminal.screen())
  }

  /// Ctrl-R over a match wider than the terminal keeps one search line (no stale lines as it is
  /// redrawn).
  func testCtrlRStaysOnOneLine() throws {
    let terminal = try TerminalSession(width: 60, height: 20)
    terminal.enter("Tag.where { $0.title.eq(\"a very long title that does not fit this narrow terminal at all\") }.count()")
    XCTAssertTrue(terminal.waitFor("│ 0        │"), terminal.screen())
    terminal.press("C-r")
    for character in "very long" { terminal.type(String(character)) }
    XCTAssertTrue(terminal.waitFor("...", timeout: 3), terminal.screen())
    let searchLines = terminal.screen().split(separator: "\n").filter { $0.contains("reverse-i-search") }
    XCTAssertEqual(searchLines.count, 1, terminal.screen())
    terminal.press("C-g")
  }

  /// Ctrl-W deletes the shell word before the cursor: back to whitespace outside quotes, so a
  /// quoted string with spaces goes as one word (libedit's own binding stops inside it).
  func testCtrlWDeletesAShellWord() throws {
    let terminal = try TerminalSession(width: 100, height: 20)
    terminal.type(#"Tag.where { $0.title.eq("a b") }"#)
    XCTAssertTrue(terminal.waitFor(#"eq("a b") }"#), terminal.screen())
    terminal.press("C-w")
    terminal.press("C-w")
    usleep(300_000)
    // What is left is `Tag.where { `: the rest typed after it makes a query of its own.
    terminal.enter("$0.id.eq(1) }.count()")
    XCTAssertTrue(terminal.waitFor("│ 1        │"), terminal.screen())
    XCTAssertFalse(terminal.screen().contains("error"), terminal.screen())
  }

  func testTheBannerSaysWhatIsOpen() throws {
    let fixture = try TerminalSession()
    XCTAssertTrue(fixture.screen().contains("Fixture 'reminders', in memory: changes are not saved (.reset reloads it)."), fixture.screen())
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-banner-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let database = directory.appendingPathComponent("notes.sqlite").path
    XCTAssertEqual(
      try QuarryProcess.run([database, "-e", ".raw CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)"]).status, 0)
    let file = try TerminalSession(arguments: [database, "--readonly"])
    XCTAssertTrue(file.screen().contains("Database \(database) (read-only)."), file.screen())
    file.enter("Note.count()")
    XCTAssertTrue(file.waitFor("│ 0        │"), file.screen())
  }

  func testAnErrorThenAGoodQuery() throws {
    let terminal = try TerminalSession()
    terminal.enter("Reminder.where { $0.titel.eq(\"x\") }")
    XCTAssertTrue(terminal.waitFor("did you mean 'title'?"), terminal.screen())
    XCTAssertTrue(terminal.screen().contains("                    ^~~~~"), terminal.screen())
    terminal.enter("Reminder.where { $0.title.eq(\"Mow the lawn\") }.select(\\.id)")
    XCTAssertTrue(terminal.waitFor("│ 8  │"), terminal.screen())
  }

  func testSideBySideAt160ColumnsAndStackedAt80() throws {
    let wide = try TerminalSession(width: 160)
    wide.enter("Tag.where { $0.id.lt(3) }")
    XCTAssertTrue(wide.waitFor("│ 2  │ someday │"), wide.screen())
    XCTAssertTrue(wide.screen().contains("FROM \"tags\"                        │ │ id │ title   │"), wide.screen())

    let narrow = try TerminalSession(width: 80)
    narrow.enter("Reminder.where { $0.id.lt(3) }.select { ($0.title, $0.notes, $0.dueDate) }")
    XCTAssertTrue(narrow.waitFor("Fix the leaking tap"), narrow.screen())
    let lines = narrow.screen().split(separator: "\n")
    XCTAssertTrue(lines.contains { $0.hasPrefix("FROM \"reminders\"") && !$0.contains("│") }, narrow.screen())
    XCTAssertTrue(lines.allSatisfy { $0.count <= 80 })
  }
}
