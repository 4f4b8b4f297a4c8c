@testable import Workbench
import XCTest

/// Colour for the line being typed: read as Quarry will read it, and never a visible character
/// moved, added or lost.
final class InputHighlighterTests: XCTestCase {
  /// Escapes shown as `‹style›text‹›`, so the expected values read.
  private func shown(_ text: String) -> String {
    text.replacing("\u{1B}[0m", with: "‹›").replacing("\u{1B}[1;34m", with: "‹kw›").replacing("\u{1B}[32m", with: "‹str›")
      .replacing("\u{1B}[33m", with: "‹num›").replacing("\u{1B}[36m", with: "‹id›").replacing("\u{1B}[2m", with: "‹comment›")
      .replacing("\u{1B}[35m", with: "‹var›").replacing("\u{1B}[1m", with: "‹cmd›")
  }

  private func withoutEscapes(_ text: String) -> String {
    var out = ""
    var inEscape = false
    for character in text {
      if inEscape { if character == "m" { inEscape = false }; continue }
      if character == "\u{1B}" { inEscape = true; continue }
      out.append(character)
    }
    return out
  }

  func testSQLKeywordsAreSQLitesOwn() {
    XCTAssertEqual(
      shown(InputHighlighter.highlight("select title, [order] from \"reminders\" where id = 3 and note = 'it''s' -- why")),
      "‹kw›select‹› title, ‹id›[order]‹› ‹kw›from‹› ‹id›\"reminders\"‹› ‹kw›where‹› id = ‹num›3‹› ‹kw›and‹› note = ‹str›'it''s'‹› ‹comment›-- why‹›")
    XCTAssertEqual(shown(InputHighlighter.highlight("SELECT x'00ff', :name /* c */")),
                   "‹kw›SELECT‹› x‹str›'00ff'‹›, ‹var›:name‹› ‹comment›/* c */‹›")
  }

  func testTheDSLIsReadBySwiftSyntax() {
    XCTAssertEqual(
      shown(InputHighlighter.highlight(#"Reminder.where { $0.title == "a \(1)" && !$0.isCompleted }.limit(3) // first"#)),
      #"‹id›Reminder‹›.where { ‹var›$0‹›.title == ‹str›"a ‹›\(‹num›1‹›)‹str›"‹› && !‹var›$0‹›.isCompleted }.limit(‹num›3‹›) ‹comment›// first‹›"#)
    XCTAssertEqual(shown(InputHighlighter.highlight(#"let n = #sql("1", as: Int.self)"#)),
                   #"‹kw›let‹› n = ‹kw›#sql‹›(‹str›"1"‹›, as: ‹id›Int‹›.‹kw›self‹›)"#)  // `as:` is a label here
  }

  func testAContinuationLineIsReadAfterTheLinesBeforeIt() {
    // Inside a multi-line string begun on an earlier line, and in SQL begun on an earlier line.
    XCTAssertEqual(shown(InputHighlighter.highlight("still text", after: "let s = \"\"\"\n")), "‹str›still text‹›")
    XCTAssertEqual(shown(InputHighlighter.highlight("where id = 1", after: "SELECT *\nFROM t\n")), "‹kw›where‹› id = ‹num›1‹›")
    XCTAssertEqual(shown(InputHighlighter.highlight(".order(by: \\.title)", after: "Reminder\n")), ".order(by: \\.title)")
  }

  func testAMetaCommandShowsItsName() {
    XCTAssertEqual(shown(InputHighlighter.highlight(".mode csv")), "‹cmd›.mode‹› csv")
  }

  func testNoVisibleCharacterChanges() {
    for line in ["SELECT 'unterminated", "Reminder.where { $0.title == \"é ü", "/* open", "x'", "\"", "[", "-", "$", "🙂 'a'", ""] {
      XCTAssertEqual(withoutEscapes(InputHighlighter.highlight(line)), line)
      XCTAssertEqual(withoutEscapes(InputHighlighter.highlight(line, after: "SELECT\n")), line)
    }
  }
}
