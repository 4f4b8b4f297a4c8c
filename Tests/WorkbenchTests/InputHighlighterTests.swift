import QuarryEngine
import XCTest

@testable import Workbench

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
      if inEscape {
        if character == "m" { inEscape = false }
        continue
      }
      if character == "\u{1B}" {
        inEscape = true
        continue
      }
      out.append(character)
    }
    return out
  }

  func testSQLKeywordsAreSQLitesOwn() {
    XCTAssertEqual(
      shown(InputHighlighter.highlight("select title, [order] from \"reminders\" where id = 3 and note = 'it''s' -- why")),
      "‹kw›select‹› title, ‹id›[order]‹› ‹kw›from‹› ‹id›\"reminders\"‹› ‹kw›where‹› id = ‹num›3‹› ‹kw›and‹› note = ‹str›'it''s'‹› ‹comment›-- why‹›"
    )
    XCTAssertEqual(
      shown(InputHighlighter.highlight("SELECT x'00ff', :name /* c */")),
      "‹kw›SELECT‹› x‹str›'00ff'‹›, ‹var›:name‹› ‹comment›/* c */‹›")
  }

  /// Words SQLite also reads as names (`key`, `first`, `replace`, `left`) are coloured only where
  /// they are keywords: a column called `key` is not, `PRIMARY KEY` is.
  func testAKeywordUsedAsANameIsNotColouredAsOne() {
    XCTAssertEqual(
      shown(InputHighlighter.highlight("SELECT key, first, action FROM settings WHERE key LIKE 'a%' ORDER BY last DESC NULLS FIRST")),
      "‹kw›SELECT‹› key, first, action ‹kw›FROM‹› settings ‹kw›WHERE‹› key ‹kw›LIKE‹› ‹str›'a%'‹› ‹kw›ORDER‹› ‹kw›BY‹› last ‹kw›DESC‹› ‹kw›NULLS‹› ‹kw›FIRST‹›"
    )
    XCTAssertEqual(
      shown(InputHighlighter.highlight("CREATE TABLE IF NOT EXISTS t (key TEXT PRIMARY KEY, left INT REFERENCES p ON UPDATE NO ACTION)")),
      "‹kw›CREATE‹› ‹kw›TABLE‹› ‹kw›IF‹› ‹kw›NOT‹› ‹kw›EXISTS‹› t (key TEXT ‹kw›PRIMARY‹› ‹kw›KEY‹›, left INT ‹kw›REFERENCES‹› p ‹kw›ON‹› ‹kw›UPDATE‹› ‹kw›NO‹› ‹kw›ACTION‹›)"
    )
    XCTAssertEqual(
      shown(InputHighlighter.highlight("INSERT OR REPLACE INTO s (key) SELECT replace(t.key, 'a', 'b') FROM t LEFT JOIN u")),
      "‹kw›INSERT‹› ‹kw›OR‹› ‹kw›REPLACE‹› ‹kw›INTO‹› s (key) ‹kw›SELECT‹› replace(t.key, ‹str›'a'‹›, ‹str›'b'‹›) ‹kw›FROM‹› t ‹kw›LEFT‹› ‹kw›JOIN‹› u"
    )
    XCTAssertEqual(
      shown(
        InputHighlighter.highlight(
          "SELECT sum(x) OVER (PARTITION BY g ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW), CURRENT_DATE FROM t")),
      "‹kw›SELECT‹› sum(x) ‹kw›OVER‹› (‹kw›PARTITION‹› ‹kw›BY‹› g ‹kw›ROWS‹› ‹kw›BETWEEN‹› ‹kw›UNBOUNDED‹› ‹kw›PRECEDING‹› ‹kw›AND‹› ‹kw›CURRENT‹› ‹kw›ROW‹›), ‹kw›CURRENT_DATE‹› ‹kw›FROM‹› t"
    )
    XCTAssertEqual(
      shown(InputHighlighter.highlight("CREATE TRIGGER tr AFTER UPDATE OF key ON t FOR EACH ROW BEGIN SELECT RAISE(ABORT, 'no'); END")),
      "‹kw›CREATE‹› ‹kw›TRIGGER‹› tr ‹kw›AFTER‹› ‹kw›UPDATE‹› ‹kw›OF‹› key ‹kw›ON‹› t ‹kw›FOR‹› ‹kw›EACH‹› ‹kw›ROW‹› ‹kw›BEGIN‹› ‹kw›SELECT‹› ‹kw›RAISE‹›(‹kw›ABORT‹›, ‹str›'no'‹›); ‹kw›END‹›"
    )
  }

  /// The list of keywords SQLite also takes as names is SQLite's own: each one is a column name
  /// there, and no other keyword is.
  func testTheWordsUsableAsNamesAreSQLitesOwn() throws {
    let database = try Database(path: ":memory:")
    XCTAssertEqual(SQLiteKeywords.all.count, 147)
    for word in SQLiteKeywords.all {
      let usable =
        (try? database.execute("CREATE TABLE t_\(word) (\(word) INT); SELECT \(word) FROM t_\(word) WHERE \(word) = 1 ORDER BY \(word)"))
        != nil
      XCTAssertEqual(SQLiteKeywords.usableAsNames.contains(word), usable, word)
    }
  }

  func testTheDSLIsReadBySwiftSyntax() {
    XCTAssertEqual(
      shown(InputHighlighter.highlight(#"Reminder.where { $0.title == "a \(1)" && !$0.isCompleted }.limit(3) // first"#)),
      #"‹id›Reminder‹›.where { ‹var›$0‹›.title == ‹str›"a ‹›\(‹num›1‹›)‹str›"‹› && !‹var›$0‹›.isCompleted }.limit(‹num›3‹›) ‹comment›// first‹›"#
    )
    XCTAssertEqual(
      shown(InputHighlighter.highlight(#"let n = #sql("1", as: Int.self)"#)),
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
