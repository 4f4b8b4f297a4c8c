import Foundation
import Glibc
import XCTest

/// Nothing done at the prompt loses the session: a pager closed early, Ctrl-C during a large
/// result, an open transaction. Results of any size show their first and last rows at once.
final class SessionSafetyTests: XCTestCase {
  /// `q` in `less` before the output is written used to end Quarry (SIGPIPE, exit 141) and
  /// take every in-memory change with it.
  func testQuittingThePagerEarlyKeepsTheSession() throws {
    let terminal = try TerminalSession(width: 100, height: 20, environment: ["PAGER": "less"])
    terminal.enter("DELETE FROM tags WHERE id = 1;")
    XCTAssertTrue(terminal.waitFor("1 row changed"), terminal.screen())
    terminal.enter(".maxrows 0")
    terminal.enter(
      "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 20000) SELECT x, printf('%050d', x) AS padding FROM c;")
    XCTAssertTrue(terminal.waitFor("00000000000000000001"), terminal.screen())
    terminal.press("q")
    XCTAssertTrue(terminal.waitFor("quarry>"), terminal.screen())
    terminal.enter("Tag.count()")
    XCTAssertTrue(terminal.waitFor("│ 4        │"), terminal.screen())
  }

  /// `--readonly` covers every database the session opens: `.open` (a URI asking for `mode=rw`
  /// included) cannot make it writable.
  func testAReadOnlySessionStaysReadOnlyAfterOpen() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-ro-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let first = directory.appendingPathComponent("first.db").path
    let second = directory.appendingPathComponent("second.db").path
    for path in [first, second] {
      _ = try QuarryProcess.run([path], stdin: "CREATE TABLE t (x INTEGER);\nINSERT INTO t VALUES (1);\n")
    }
    let result = try QuarryProcess.run(
      [first, "--readonly"], stdin: ".open \(second)\nDELETE FROM t;\n.open file:\(second)?mode=rw\nDELETE FROM t;\n")
    XCTAssertTrue(result.stderr.contains("attempt to write a readonly database"), result.stderr)
    XCTAssertTrue(result.stderr.contains("access mode not allowed"), result.stderr)
    XCTAssertFalse(result.stdout.contains("row changed"), result.stdout)
    let count = try QuarryProcess.run([second], stdin: "SELECT count(*) AS n FROM t;\n")
    XCTAssertTrue(count.stdout.contains("│ 1 │"), count.stdout)
  }

  /// A write that fails (a full disk) is an error with a non-zero exit, and the file is written
  /// through as sqlite3 writes it: `/dev/full` stays the device it is.
  func testOutputThatCannotBeWrittenIsAnError() throws {
    guard FileManager.default.fileExists(atPath: "/dev/full") else { throw XCTSkip("no /dev/full here") }
    let result = try QuarryProcess.run([], stdin: ".output /dev/full\nSELECT 1;\n.output stdout\nSELECT 2 AS two;\n")
    XCTAssertNotEqual(result.status, 0)
    XCTAssertTrue(
      result.stderr.contains("cannot write to '/dev/full': No space left on device; output goes to the screen again"), result.stderr)
    XCTAssertTrue(result.stdout.contains("│ two │"), result.stdout)
    var info = stat()
    XCTAssertEqual(lstat("/dev/full", &info), 0)
    XCTAssertEqual(info.st_mode & S_IFMT, S_IFCHR, "/dev/full must stay a character device")
    XCTAssertFalse(FileManager.default.fileExists(atPath: "stdout"))
  }

  /// A history file that is a symbolic link is never followed: its target is neither appended
  /// to nor made private.
  func testASymlinkedHistoryFileIsNotFollowed() throws {
    let state = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-history-\(UUID())")
    try FileManager.default.createDirectory(at: state.appendingPathComponent("quarry"), withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: state) }
    let target = state.appendingPathComponent("elsewhere.txt").path
    try "someone else's file\n".write(toFile: target, atomically: false, encoding: .utf8)
    chmod(target, 0o644)
    try FileManager.default.createSymbolicLink(atPath: state.appendingPathComponent("quarry/history").path, withDestinationPath: target)
    do {
      let terminal = try TerminalSession(stateDirectory: state)
      XCTAssertTrue(terminal.waitFor("history is not kept"), terminal.screen())
      terminal.enter("Tag.count()")
      XCTAssertTrue(terminal.waitFor("│ 5"), terminal.screen())
      terminal.press("C-d")
      usleep(300_000)
    }
    XCTAssertEqual(try String(contentsOfFile: target, encoding: .utf8), "someone else's file\n")
    var info = stat()
    XCTAssertEqual(stat(target, &info), 0)
    XCTAssertEqual(info.st_mode & 0o777, 0o644)
  }

  func testCtrlCStopsALargeResultAndThePromptComesBack() throws {
    let terminal = try TerminalSession()
    terminal.enter("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x FROM c;")
    usleep(800_000)
    terminal.press("C-c")
    XCTAssertTrue(terminal.waitFor("(Ctrl-C)", timeout: 3), terminal.screen())
    XCTAssertTrue(terminal.screen().contains("stopped after"), terminal.screen())
    terminal.enter("Tag.count()")
    XCTAssertTrue(terminal.waitFor("│ 5        │"), terminal.screen())
  }

  func testTheFirstAndLastRowsOfALargeResultWithItsCount() throws {
    let terminal = try TerminalSession(width: 100, height: 24)
    terminal.enter("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 300000) SELECT x FROM c;")
    XCTAssertTrue(terminal.waitFor("300,000 rows (16 shown) · .maxrows 0 to show all"), terminal.screen())
    let screen = terminal.screen()
    // Drawn whole, or (on a slow machine) its first rows shown early: both have these lines.
    XCTAssertTrue(screen.contains("│ 8 "), screen)
    XCTAssertTrue(screen.contains("│ …      │"), screen)
    XCTAssertTrue(screen.contains("│ 300000 │"), screen)
    terminal.enter(".maxrows 4")
    terminal.enter("Tag.order(by: \\.id)")
    XCTAssertTrue(terminal.waitFor("5 rows (4 shown)"), terminal.screen())
  }

  func testTransactionsShowAMarkerAndRollBack() throws {
    let terminal = try TerminalSession()
    terminal.enter("BEGIN;")
    XCTAssertTrue(terminal.waitFor("quarry*>"), terminal.screen())
    terminal.enter("DELETE FROM reminders;")
    XCTAssertTrue(terminal.waitFor("12 rows changed"), terminal.screen())
    terminal.enter("ROLLBACK;")
    terminal.enter("Reminder.count()")
    XCTAssertTrue(terminal.waitFor("│ 12       │"), terminal.screen())
    XCTAssertTrue(terminal.screen().hasSuffix("quarry> \n") || terminal.screen().contains("\nquarry> "), terminal.screen())
  }

  func testCountsAndNewRowIDs() throws {
    let terminal = try TerminalSession()
    terminal.enter("Tag.where { $0.id > 3 }")
    XCTAssertTrue(terminal.waitFor("2 rows"), terminal.screen())
    terminal.enter("Tag.where { $0.id > 99 }")
    XCTAssertTrue(terminal.waitFor("no rows"), terminal.screen())
    terminal.enter(#"Tag.insert { Tag.Draft(title: "a\tb"); Tag.Draft(title: "NULL") }"#)
    XCTAssertTrue(terminal.waitFor("2 rows changed (new row ids 6…7)"), terminal.screen())
    terminal.enter("SELECT title, NULL AS missing FROM tags WHERE id >= 6;")
    XCTAssertTrue(terminal.waitFor("│ a→b   │ ∅       │"), terminal.screen())
    XCTAssertTrue(terminal.waitFor("│ NULL  │ ∅       │"), terminal.screen())
  }
}
