import InlineSnapshotTesting
import QuarryEngine
import Workbench
import XCTest

/// Results as the prompt draws them (an interactive terminal, without colour): counts, capped
/// rows, NULL against 'NULL', drawn control characters, `.mode line` beside the SQL.
final class PromptResultTests: SnapshotTestCase {
  func prompt(_ inputs: String..., width: Int = 100, height: Int = 30) throws -> String {
    let output = OutputStream.capturing()
    let shell = Shell(
      session: try Session.fixture("reminders"), fixtureName: "reminders", output: output,
      terminal: Terminal(width: width, height: height, isInteractive: true, usesColor: false))
    for input in inputs { shell.handle(input) }
    return output.text.trimmingCharacters(in: .newlines)
  }

  func testAResultEndsWithItsCountAndAWriteSaysWhatItChanged() throws {
    assertInlineSnapshot(
      of: try prompt(
        ".sql off", "Tag.where { $0.id > 3 }", "Tag.where { $0.id > 9 }",
        "DELETE FROM tags WHERE id > 3;", #"Tag.insert { Tag.Draft(title: "new") }"#), as: .lines
    ) {
      """
      ┌────┬───────────┐
      │ id │ title     │
      ├────┼───────────┤
      │ 4  │ outdoors  │
      │ 5  │ paperwork │
      └────┴───────────┘
      2 rows
      ┌────┬───────┐
      │ id │ title │
      ├────┼───────┤
      └────┴───────┘
      no rows
      2 rows changed, and 7 more by foreign keys or triggers
      1 row changed (new row id 6)
      """
    }
  }

  /// A delete that cascades says the rows its foreign keys changed too: the two counts add up to
  /// what the transaction holds.
  func testAWriteCountsWhatItsForeignKeysChanged() throws {
    assertInlineSnapshot(of: try prompt(".sql off", "BEGIN;", "DELETE FROM remindersLists WHERE id = 1;"), as: .lines) {
      """
      1 row changed, and 6 more by foreign keys or triggers
      """
    }
  }

  func testALongResultShowsItsFirstAndLastRows() throws {
    assertInlineSnapshot(
      of: try prompt(
        ".sql off", ".maxrows 4", "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1234) SELECT x FROM c;"),
      as: .lines
    ) {
      """
      ┌──────┐
      │ x    │
      ├──────┤
      │ 1    │
      │ 2    │
      │ …    │
      │ 1233 │
      │ 1234 │
      └──────┘
      1,234 rows (4 shown) · .maxrows 0 to show all
      """
    }
  }

  func testNullDiffersFromTheTextNullAndControlCharactersAreDrawn() throws {
    assertInlineSnapshot(
      of: try prompt(
        ".sql off", "SELECT NULL AS a, 'NULL' AS b, 'x' || char(9) || 'y' || char(0) || 'z' AS c;",
        ".nullvalue (none)", "SELECT NULL AS a;"), as: .lines
    ) {
      """
      ┌───┬──────┬───────┐
      │ a │ b    │ c     │
      ├───┼──────┼───────┤
      │ ∅ │ NULL │ x→y␀z │
      └───┴──────┴───────┘
      1 row
      ┌────────┐
      │ a      │
      ├────────┤
      │ (none) │
      └────────┘
      1 row
      """
    }
  }

  /// A value of megabytes is drawn from its first columns: made visible and measured only as
  /// far as the cell shows it (a newline, a wide character, a NUL at its start count as drawn).
  func testAHugeValueIsDrawnFromItsFirstColumns() throws {
    assertInlineSnapshot(
      of: try prompt(".sql off", "SELECT 'a' || char(10) || '界' || char(0) || printf('%.*c', 2000000, 'x') AS v;"), as: .lines
    ) {
      """
      ┌──────────────────────────────────────────────────────────────┐
      │ v                                                            │
      ├──────────────────────────────────────────────────────────────┤
      │ a↵界␀xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx… │
      └──────────────────────────────────────────────────────────────┘
      1 row
      """
    }
  }

  func testLineModeBesideTheSQLKeepsTheBlankLineBetweenRecords() throws {
    assertInlineSnapshot(of: try prompt(".mode line", "Tag.select(\\.title).limit(2)"), as: .lines) {
      """
      SELECT "tags"."title" │ title = errand
      FROM "tags"           │ 
      LIMIT 2               │ title = someday
                            │ 2 rows
      """
    }
  }

  func testSchemaPrintsSwift() throws {
    let output = OutputStream.capturing()
    let database = try Database(path: ":memory:")
    try database.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, done BOOLEAN NOT NULL DEFAULT 0, pinned BOOLEAN NOT NULL DEFAULT 1)")
    let shell = Shell(session: try Session(database: database), output: output)
    shell.handle(".schema Note")
    XCTAssertTrue(output.text.contains("  var done: Bool = false\n  var pinned: Bool = true\n"), output.text)
  }

  func testErrorsStayOnTheScreenWhileOutputGoesToAFile() throws {
    let file = NSTemporaryDirectory() + "quarry-output-\(UUID()).txt"
    defer { unlink(file) }
    let screen = try prompt(".output \(file)", "Tag.titel", "Tag.count()", ".output")
    XCTAssertTrue(screen.contains("error: 1:1: a query of 'Tag' has no member 'titel'"), screen)
    let written = try String(contentsOfFile: file, encoding: .utf8)
    XCTAssertFalse(written.contains("error"), written)
    XCTAssertTrue(written.contains("│ 5        │"), written)
  }
}

extension PromptResultTests {
  func testADeclarationSaysWhatItDeclared() throws {
    assertInlineSnapshot(
      of: try prompt(
        #"@Table struct Note { let id: Int; var body = ""; var pinned = false }"#,
        "enum Mood: Int, QueryBindable { case low = 1, high }", ".schema Note"), as: .lines
    ) {
      """
      declared table Note (3 columns); no table 'notes' in the database yet
      declared enum Mood (2 cases)
      -- no table "notes" in the database yet: create it (CREATE TABLE, or a migration)
      @Table
      struct Note {
        let id: Int
        var body: String = ""
        var pinned: Bool = false
      }
      """
    }
  }
}
