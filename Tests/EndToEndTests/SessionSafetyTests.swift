import Foundation
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
    terminal.enter("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 20000) SELECT x, printf('%050d', x) AS padding FROM c;")
    XCTAssertTrue(terminal.waitFor("00000000000000000001"), terminal.screen())
    terminal.press("q")
    XCTAssertTrue(terminal.waitFor("quarry>"), terminal.screen())
    terminal.enter("Tag.count()")
    XCTAssertTrue(terminal.waitFor("│ 4        │"), terminal.screen())
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
    XCTAssertTrue(screen.contains("│ 8      │"), screen)
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
