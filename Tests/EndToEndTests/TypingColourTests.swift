import Foundation
import XCTest

/// Colour while typing, in a real terminal (tmux): the line is coloured when the typist pauses,
/// as it will be read; editing, history and the session go on as before; no colour without a
/// colour terminal.
final class TypingColourTests: XCTestCase {
  private func colourTerminal(width: Int = 120) throws -> TerminalSession {
    try TerminalSession(width: width, environment: ["NO_COLOR": ""])
  }

  /// The prompt's row, colours included.
  private func promptRow(_ terminal: TerminalSession, _ prompt: String = "quarry> ") -> String {
    terminal.colouredScreen().components(separatedBy: "\n").last { $0.contains(prompt) } ?? ""
  }

  private func waitForColour(_ terminal: TerminalSession, _ fragment: String) -> Bool {
    for _ in 0..<100 {
      if promptRow(terminal).contains(fragment) { return true }
      usleep(50_000)
    }
    return false
  }

  func testTheDSLIsColouredWhenTheTypistPauses() throws {
    let terminal = try colourTerminal()
    terminal.type(#"Tag.where { $0.title.eq("errand") }.limit(2)"#)
    XCTAssertTrue(waitForColour(terminal, "\u{1B}[32m\"errand\""), promptRow(terminal).debugDescription)
    XCTAssertTrue(promptRow(terminal).contains("\u{1B}[36mTag"), promptRow(terminal).debugDescription)
    XCTAssertTrue(promptRow(terminal).contains("\u{1B}[35m$0"), promptRow(terminal).debugDescription)
    // The characters on the screen are the ones typed, and the cursor is where it was: typing
    // goes on at the end of the line.
    XCTAssertTrue(terminal.screen().contains(#"quarry> Tag.where { $0.title.eq("errand") }.limit(2)"#), terminal.screen())
    terminal.press("BSpace")
    terminal.press("BSpace")
    terminal.type("1)")
    XCTAssertTrue(terminal.waitFor(#"quarry> Tag.where { $0.title.eq("errand") }.limit(1)"#), terminal.screen())
    terminal.press("Enter")
    XCTAssertTrue(terminal.waitFor("1 row"), terminal.screen())
  }

  func testSQLIsColouredAsSQLAndEditingInTheMiddleKeepsTheCursor() throws {
    let terminal = try colourTerminal()
    terminal.type("select title from tags where id = 2;")
    XCTAssertTrue(waitForColour(terminal, "\u{1B}[33m2"), promptRow(terminal).debugDescription)
    XCTAssertTrue(promptRow(terminal).contains("select"), promptRow(terminal).debugDescription)
    XCTAssertFalse(promptRow(terminal).contains("\u{1B}[36mtitle"), "a column name is not a keyword")
    // Into the middle of the line: the redraw puts the cursor back where the edit was.
    terminal.press("C-a")
    for _ in 0..<6 { terminal.press("Right") }
    terminal.type(" id,")
    XCTAssertTrue(terminal.waitFor("quarry> select id, title from tags where id = 2;"), terminal.screen())
    terminal.press("Enter")
    XCTAssertTrue(terminal.waitFor("1 row"), terminal.screen())
  }

  func testALineThatWrapsIsColouredInPlace() throws {
    let terminal = try colourTerminal(width: 40)
    let query = #"Tag.where { $0.title.eq("errand") || $0.title.eq("urgent") }.order(by: \.title)"#
    terminal.type(query)
    XCTAssertTrue(waitForColour(terminal, "\u{1B}[32m\"errand\""), terminal.colouredScreen().debugDescription)
    let rows = terminal.screen().components(separatedBy: "\n")
    XCTAssertTrue(rows.contains { $0.hasPrefix(#"quarry> Tag.where { $0.title.eq("errand""#) }, terminal.screen())
    terminal.type(".limit(1)")
    terminal.press("Enter")
    XCTAssertTrue(terminal.waitFor("1 row"), terminal.screen())
  }

  func testUpStillSearchesByWhatWasTypedAndTabStillCompletes() throws {
    let terminal = try colourTerminal()
    terminal.enter("Tag.count()")
    XCTAssertTrue(terminal.waitFor("1 row"), terminal.screen())
    terminal.enter("Reminder.count()")
    XCTAssertTrue(terminal.waitFor("1 row", count: 2), terminal.screen())
    terminal.type("Ta")
    usleep(200_000)  // a pause: the line is coloured before Up
    terminal.press("Up")
    XCTAssertTrue(terminal.waitFor("quarry> Tag.count()", count: 2), terminal.screen())
    terminal.press("C-u")
    terminal.type(".mo")
    usleep(200_000)
    terminal.press("Tab")
    XCTAssertTrue(terminal.waitFor("quarry> .mode"), terminal.screen())
  }

  func testAContinuationLineIsColouredAsPartOfItsInput() throws {
    let terminal = try colourTerminal()
    terminal.enter("SELECT title")
    XCTAssertTrue(terminal.waitFor("...>"), terminal.screen())
    terminal.type("FROM tags WHERE id = 1")
    var row = ""
    for _ in 0..<100 {
      row = terminal.colouredScreen().components(separatedBy: "\n").last { $0.contains("...>") } ?? ""
      if row.contains("\u{1B}[33m1") { break }
      usleep(50_000)
    }
    // SQL keywords on the second line: it is read after `SELECT title`, not as Swift.
    XCTAssertTrue(row.contains("FROM") && row.contains("\u{1B}[33m1") && row.contains("\u{1B}[34m"), row.debugDescription)
    terminal.enter(";")
    XCTAssertTrue(terminal.waitFor("errand"), terminal.screen())
  }

  /// The rows of the screen that hold `fragment`, colours included, once it is coloured.
  private func waitForColouredRows(_ terminal: TerminalSession, _ fragments: [String]) -> Bool {
    for _ in 0..<100 {
      let screen = terminal.colouredScreen()
      if fragments.allSatisfy(screen.contains) { return true }
      usleep(50_000)
    }
    return false
  }

  /// A multi-line input pasted (with the terminal's paste markers) is coloured once it is in the
  /// buffer, every line of it, read as one input; recalled with Up, it is coloured again.
  func testAPastedOrRecalledMultiLineInputIsColoured() throws {
    let terminal = try colourTerminal()
    terminal.type("\u{1B}[200~SELECT id AS key, title\n  FROM tags\nWHERE id = 2;\u{1B}[201~")
    let keyword = "\u{1B}[1m\u{1B}[34m"
    XCTAssertTrue(
      waitForColouredRows(terminal, ["quarry> \(keyword)SELECT", "  \(keyword)FROM", "\(keyword)WHERE", "\u{1B}[33m2"]),
      terminal.colouredScreen().debugDescription)
    // `key` is a name here (SQLite reads it so after AS), not a keyword.
    XCTAssertFalse(terminal.colouredScreen().contains("\(keyword)key"), terminal.colouredScreen().debugDescription)
    terminal.press("Enter")
    XCTAssertTrue(terminal.waitFor("1 row"), terminal.screen())
    terminal.press("C-l")
    terminal.press("Up")
    XCTAssertTrue(
      waitForColouredRows(terminal, ["quarry> \(keyword)SELECT", "  \(keyword)FROM", "\(keyword)WHERE"]),
      terminal.colouredScreen().debugDescription)
    XCTAssertTrue(terminal.screen().contains("quarry> SELECT id AS key, title\n  FROM tags\nWHERE id = 2;"), terminal.screen())
    // Down gives back the empty line that was typed; the screen holds no trace of the recalled rows.
    terminal.press("Down")
    XCTAssertTrue(terminal.waitFor("quarry>\n"), terminal.screen())
    XCTAssertFalse(terminal.screen().contains("FROM tags"), terminal.screen())
  }

  /// Lines that arrive without paste markers (a terminal that has none, keys typed without a
  /// pause) are coloured once entered.
  func testLinesPastedWithoutMarkersAreColouredOnceEntered() throws {
    let terminal = try colourTerminal()
    terminal.type("SELECT title\nFROM tags WHERE id = 1;\n")
    XCTAssertTrue(terminal.waitFor("errand"), terminal.screen())
    let keyword = "\u{1B}[1m\u{1B}[34m"
    XCTAssertTrue(
      waitForColouredRows(terminal, ["quarry> \(keyword)SELECT", "   ...> \(keyword)FROM"]),
      terminal.colouredScreen().debugDescription)
  }

  /// Ctrl-\ sends SIGQUIT, which would end the session with a crash report: at the prompt it does
  /// nothing, and the line is still there to edit.
  func testCtrlBackslashEndsNothing() throws {
    let terminal = try colourTerminal()
    terminal.type("Tag.cou")
    terminal.press("C-\\")
    terminal.type("nt()")
    terminal.press("Enter")
    XCTAssertTrue(terminal.waitFor("1 row"), terminal.screen())
    XCTAssertTrue(terminal.isRunning)
    XCTAssertFalse(terminal.screen().contains("crashed"), terminal.screen())
  }

  func testNoColourWithNO_COLOR() throws {
    let terminal = try TerminalSession()
    terminal.type(#"Tag.where { $0.title.eq("errand") }"#)
    usleep(400_000)
    XCTAssertFalse(promptRow(terminal).contains("\u{1B}["), promptRow(terminal).debugDescription)
  }
}
