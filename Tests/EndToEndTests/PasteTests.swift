import Foundation
import XCTest

/// What people paste at the prompt, sent as the terminal sends it: with bracketed-paste markers
/// and without (lines arriving all at once).
final class PasteTests: XCTestCase {
  static let query = "Reminder\r  .where { !$0.isCompleted }\r  .order(by: \\.title)\r  .select(\\.title)"

  func testABracketedPasteIsOneInputRunOnEnter() throws {
    let terminal = try TerminalSession()
    terminal.type("\u{1B}[200~" + Self.query + "\u{1B}[201~")
    XCTAssertTrue(terminal.waitFor("  .select(\\.title)"), terminal.screen())
    XCTAssertFalse(terminal.screen().contains("SELECT"), "a paste waits for Enter:\n" + terminal.screen())
    terminal.press("Enter")
    XCTAssertTrue(terminal.waitFor("8 rows"), terminal.screen())
    XCTAssertTrue(terminal.screen().contains("ORDER BY \"reminders\".\"title\""), terminal.screen())
    XCTAssertFalse(terminal.screen().contains("unknown command"), terminal.screen())
  }

  func testPastedTabsAreTextNotCompletion() throws {
    let terminal = try TerminalSession()
    terminal.type("\u{1B}[200~SELECT 'a\tb' AS t;\u{1B}[201~")
    terminal.press("Enter")
    XCTAssertTrue(terminal.waitFor("│ a→b │"), terminal.screen())
  }

  func testLinesPastedWithoutMarkersJoinTheQueryTheyContinue() throws {
    let terminal = try TerminalSession()
    terminal.type(Self.query + "\r")
    XCTAssertTrue(terminal.waitFor("8 rows"), terminal.screen())
    XCTAssertFalse(terminal.screen().contains("unknown command"), terminal.screen())
    XCTAssertFalse(terminal.screen().contains("12 rows"), "Reminder alone must not run:\n" + terminal.screen())
  }

  /// Comment lines between the steps of a chain pasted without markers never end it; the same
  /// paste with markers gives the same result.
  func testCommentLinesInsideAPastedChainKeepItWhole() throws {
    let chain =
      "Reminder\r  // open ones only\r  .where { !$0.isCompleted }\r  /* by title */\r  .order(by: \\.title)\r  /* the\r  title alone */\r  .select(\\.title)"
    let plain = try TerminalSession()
    plain.type(chain + "\r")
    XCTAssertTrue(plain.waitFor("8 rows"), plain.screen())
    XCTAssertFalse(plain.screen().contains("12 rows"), "Reminder alone must not run:\n" + plain.screen())
    XCTAssertFalse(plain.screen().contains("error"), plain.screen())
    let marked = try TerminalSession()
    marked.type("\u{1B}[200~" + chain + "\u{1B}[201~")
    marked.press("Enter")
    XCTAssertTrue(marked.waitFor("8 rows"), marked.screen())
    XCTAssertFalse(marked.screen().contains("error"), marked.screen())
  }

  /// Statements pasted without markers, one per line, each run under its own `quarry>` prompt:
  /// `...>` is shown only where the lines do run as one input.
  func testSeparateStatementsPastedWithoutMarkersGetTheirOwnPrompt() throws {
    let terminal = try TerminalSession()
    terminal.type("Tag.count()\rRemindersList.count()\rReminder\r  .where { $0.isFlagged }\r  .count()\r")
    XCTAssertTrue(terminal.waitFor("quarry> Reminder\n"), terminal.screen())
    XCTAssertTrue(terminal.waitFor("...>   .count()"), terminal.screen())
    let screen = terminal.screen()
    XCTAssertTrue(screen.contains("quarry> RemindersList.count()"), screen)
    XCTAssertFalse(screen.contains("...> RemindersList"), screen)
    XCTAssertFalse(screen.contains("...> Reminder\n"), screen)
  }

  /// What `.schema` prints (the CREATE statement, then the model) pastes back as one input.
  func testSchemaOutputPastesBack() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-paste-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let schema = try QuarryProcess.run(["-e", ".schema Tag"]).stdout
    let terminal = try TerminalSession(arguments: [directory.appendingPathComponent("new.sqlite").path])
    terminal.type("\u{1B}[200~" + schema.replacingOccurrences(of: "\n", with: "\r") + "\u{1B}[201~")
    terminal.press("Enter")
    XCTAssertTrue(terminal.waitFor("declared table Tag (2 columns)"), terminal.screen())
    terminal.enter("Tag.insert { Tag.Draft(title: \"pasted\") }")
    XCTAssertTrue(terminal.waitFor("1 row changed"), terminal.screen())
  }

  /// In a script, too, a comment line inside a chain does not end it.
  func testCommentLinesInsideAChainInAScript() throws {
    let result = try QuarryProcess.run(
      ["--format", "csv"], stdin: "Reminder\n  // open ones\n  .where { !$0.isCompleted }\n  // counted\n  .count()\n")
    XCTAssertEqual(result.stdout, "count(*)\n8\n", result.stderr)
  }

  func testALeadingDotMethodTypedByHandSaysHowToContinue() throws {
    let terminal = try TerminalSession()
    terminal.enter("Tag.all")
    XCTAssertTrue(terminal.waitFor("5 rows"), terminal.screen())
    terminal.enter(".where { $0.id > 3 }")
    XCTAssertTrue(terminal.waitFor("'.where' is not a command: a query starts from a table"), terminal.screen())
  }

  func testCtrlDAtAContinuationCancelsTheInput() throws {
    let terminal = try TerminalSession()
    terminal.enter("Tag.where {")
    XCTAssertTrue(terminal.waitFor("...>"), terminal.screen())
    terminal.press("C-d")
    XCTAssertTrue(terminal.waitFor("(input cancelled; Ctrl-D at an empty prompt quits)"), terminal.screen())
    terminal.enter("Tag.count() // a comment with {")
    XCTAssertTrue(terminal.waitFor("│ 5        │"), terminal.screen())
    terminal.enter("help")
    XCTAssertTrue(terminal.waitFor("Type .help for the commands"), terminal.screen())
    terminal.enter("exit")
    XCTAssertTrue(terminal.waitFor("Type .quit or press Ctrl-D"), terminal.screen())
  }

  func testTwoSessionsAppendToOneHistory() throws {
    let state = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-history-\(UUID())")
    defer { try? FileManager.default.removeItem(at: state) }
    let first = try TerminalSession(stateDirectory: state)
    let second = try TerminalSession(stateDirectory: state)
    for round in 1...3 {
      first.enter("Tag.count() // a\(round)")
      XCTAssertTrue(first.waitFor("1 row", count: round), first.screen())
      second.enter("User.count() // b\(round) é\\")
      XCTAssertTrue(second.waitFor("1 row", count: round), second.screen())
    }
    first.press("C-d")
    second.press("C-d")
    usleep(300_000)
    let history = try String(contentsOf: state.appendingPathComponent("quarry/history"), encoding: .utf8)
    // Each input once, in the order typed, in libedit's encoding (a third session reads it).
    XCTAssertEqual(
      history,
      "_HiStOrY_V2_\n"
        + (1...3).map {
          "Tag.count()\\040//\\040a\($0)\nUser.count()\\040//\\040b\($0)\\040é\\134\n"
        }.joined(), history)
    let third = try TerminalSession(stateDirectory: state)
    third.press("Up")
    XCTAssertTrue(third.waitFor("quarry> User.count() // b3 é\\"), third.screen())
  }

  func testTabCompletesOnContinuationLinesAndMetaCommandArguments() throws {
    let terminal = try TerminalSession()
    terminal.enter("Reminder.where {")
    terminal.type("  $0.isFl")
    terminal.press("Tab")
    XCTAssertTrue(terminal.waitFor("$0.isFlagged"), terminal.screen())
    terminal.enter(" }.select(\\.title).limit(1)")
    XCTAssertTrue(terminal.waitFor("1 row"), terminal.screen())
    terminal.type(".mo")
    terminal.press("Tab")
    terminal.type("cs")
    terminal.press("Tab")
    XCTAssertTrue(terminal.waitFor("quarry> .mode csv"), terminal.screen())
  }

  func testUpSearchesHistoryByWhatIsTyped() throws {
    let terminal = try TerminalSession()
    for input in ["Tag.count()", "Reminder.count()", "User.count()"] {
      terminal.enter(input)
      XCTAssertTrue(
        terminal.waitFor("1 row", count: 1 + ["Tag.count()", "Reminder.count()", "User.count()"].firstIndex(of: input)!), terminal.screen())
    }
    terminal.type("Ta")
    terminal.press("Up")
    XCTAssertTrue(terminal.waitFor("quarry> Tag.count()", count: 2), terminal.screen())
  }

  func testCtrlRSearchesHistoryOnALineThatSaysWhatItIs() throws {
    let terminal = try TerminalSession()
    terminal.enter("Tag.order(by: \\.title)")
    XCTAssertTrue(terminal.waitFor("5 rows"), terminal.screen())
    terminal.enter("Reminder.count()")
    XCTAssertTrue(terminal.waitFor("1 row"), terminal.screen())
    terminal.press("C-r")
    terminal.type("Tag")
    XCTAssertTrue(terminal.waitFor("(reverse-i-search)'Tag': Tag.order(by: \\.title)"), terminal.screen())
    terminal.type("zzz")
    XCTAssertTrue(terminal.waitFor("(failed reverse-i-search)'Tagzzz'"), terminal.screen())
    // Ctrl-G gives back the (empty) line as it was.
    terminal.press("C-g")
    usleep(200_000)
    let lastLine = terminal.screen().split(separator: "\n").last.map(String.init) ?? ""
    XCTAssertEqual(lastLine, "quarry>", terminal.screen())
    // An arrow key keeps the match to edit; the key then moves the cursor.
    terminal.press("C-r")
    terminal.type("count")
    terminal.press("Left")
    terminal.type("5")
    XCTAssertTrue(terminal.waitFor("quarry> Reminder.count(5)"), terminal.screen())
    terminal.press("C-u")
    // Enter runs the match.
    terminal.press("C-r")
    terminal.type("Tag.o")
    terminal.press("Enter")
    XCTAssertTrue(terminal.waitFor("5 rows", count: 2), terminal.screen())
  }

  func testEditPutsTheEditedTextInTheEditBuffer() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-editor-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let editor = directory.appendingPathComponent("editor.sh").path
    try "#!/bin/sh\nsed -i s/Tag/User/ \"$1\"\n".write(toFile: editor, atomically: true, encoding: .utf8)
    chmod(editor, 0o755)
    let terminal = try TerminalSession(environment: ["EDITOR": editor, "VISUAL": editor])
    terminal.enter("Tag.count()")
    XCTAssertTrue(terminal.waitFor("1 row"), terminal.screen())
    terminal.enter(".edit")
    XCTAssertTrue(terminal.waitFor("quarry> User.count()"), terminal.screen())
    XCTAssertFalse(terminal.screen().contains("FROM \"users\""), "it waits for Enter:\n" + terminal.screen())
    terminal.press("Enter")
    XCTAssertTrue(terminal.waitFor("FROM \"users\""), terminal.screen())
  }

  func testErrorsAtThePromptAreLocatedWithACaret() throws {
    let terminal = try TerminalSession()
    terminal.enter("SELECT title")
    terminal.enter("  FROM tgs;")
    XCTAssertTrue(terminal.waitFor("error: 2:8: SQLite error 1: no such table: tgs; did you mean 'tags'?"), terminal.screen())
    XCTAssertTrue(terminal.screen().contains("  FROM tgs;\n       ^"), terminal.screen())
    terminal.enter("Tag.where { $0.id == }")
    XCTAssertTrue(terminal.waitFor("syntax error: expected an expression after '=='"), terminal.screen())
    XCTAssertFalse(terminal.screen().contains("<#"), terminal.screen())
    terminal.enter(#"@Table struct Note { let id: Int; var body = "" }"#)
    XCTAssertTrue(terminal.waitFor("declared table Note (2 columns); no table 'notes' in the database yet"), terminal.screen())
  }
}
