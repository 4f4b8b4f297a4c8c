import Foundation
import InlineSnapshotTesting
import QuarryEngine
import Workbench
import XCTest

/// `.dump`, `.import`, `.indexes` and `.help NAME`: what sqlite3 users reach for.
final class DataCommandsTests: SnapshotTestCase {
  var directory: URL!

  override func setUpWithError() throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-data-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    setenv("XDG_STATE_HOME", directory.path, 1)
  }

  override func tearDown() {
    try? FileManager.default.removeItem(at: directory)
  }

  private func shell(_ session: Session) -> (Shell, Workbench.OutputStream) {
    let output = OutputStream.capturing()
    let shell = Shell(session: session, output: output)
    shell.errorOutput = output
    return (shell, output)
  }

  /// The dump of a database with awkward values (quotes, newlines, blobs, reals, infinity,
  /// NULL, a generated column, a view, a trigger, an index), loaded by sqlite3 into a new file,
  /// gives the same rows and schema.
  func testADumpLoadedBySqlite3ReproducesTheDatabase() throws {
    let path = directory.appendingPathComponent("source.sqlite").path
    let database = try Database(path: path)
    try database.execute(
      """
      CREATE TABLE notes (id INTEGER PRIMARY KEY AUTOINCREMENT, body TEXT NOT NULL, score REAL, data BLOB,
        length INTEGER GENERATED ALWAYS AS (length(body)) VIRTUAL);
      CREATE INDEX notes_score ON notes (score);
      CREATE VIEW longNotes AS SELECT id, body FROM notes WHERE length > 5;
      CREATE TABLE log (noteID INTEGER REFERENCES notes (id) ON DELETE CASCADE, at TEXT);
      CREATE TRIGGER notes_log AFTER INSERT ON notes BEGIN INSERT INTO log VALUES (new.id, 'x'); END;
      INSERT INTO notes (body, score, data) VALUES ('it''s "quoted"', 0.1, X'00FF'), ('two
      lines, and a comma', 1e999, NULL), ('', -0.0, X'');
      """)
    let (shell, output) = self.shell(try Session(database: database))
    shell.handle(".dump")
    let dump = output.text
    XCTAssertTrue(dump.hasPrefix("PRAGMA foreign_keys=OFF;\nBEGIN TRANSACTION;\nCREATE TABLE notes"), dump)
    XCTAssertTrue(dump.contains(#"INSERT INTO "notes"("id","body","score","data") VALUES(1,'it''s "quoted"',0.1,X'00FF');"#), dump)
    XCTAssertTrue(dump.hasSuffix("COMMIT;\n"), dump)
    let copy = directory.appendingPathComponent("copy.sqlite").path
    XCTAssertEqual(try loadWithSqlite3(dump, into: copy), 0)
    let loaded = try Database(path: copy)
    for query in [
      "SELECT id, body, score, quote(data), length FROM notes ORDER BY id", "SELECT * FROM log ORDER BY noteID",
      "SELECT * FROM longNotes", "SELECT type, name, sql FROM sqlite_schema ORDER BY name", "SELECT * FROM sqlite_sequence",
    ] {
      XCTAssertEqual(try loaded.rows(query), try database.rows(query), query)
    }
  }

  /// Loads a dump into a new file with sqlite3, as a user restores one.
  private func loadWithSqlite3(_ dump: String, into path: String) throws -> Int32 {
    let load = Process()
    load.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
    load.arguments = [path]
    let input = Pipe()
    load.standardInput = input
    try load.run()
    input.fileHandleForWriting.write(Data(dump.utf8))
    try input.fileHandleForWriting.close()
    load.waitUntilExit()
    return load.terminationStatus
  }

  /// What a dump loses nowhere: text with CR LF, a NUL or bytes that are not UTF-8; the rowids of
  /// a table without an INTEGER PRIMARY KEY (gaps included); FTS5 tables with their content inside,
  /// external and none; `sqlite_stat1`.
  func testADumpIsLossless() throws {
    let path = directory.appendingPathComponent("awkward.sqlite").path
    let database = try Database(path: path)
    try database.execute(
      """
      CREATE TABLE texts (body TEXT, label TEXT);
      INSERT INTO texts VALUES ('one' || char(13, 10) || 'two', 'crlf'), (CAST(X'610062' AS TEXT), 'nul'),
        (CAST(X'61FF62' AS TEXT), 'not utf-8'), ('tab' || char(9) || 'and' || char(10) || 'lf', 'plain');
      DELETE FROM texts WHERE label = 'plain';
      INSERT INTO texts (rowid, body, label) VALUES (40, 'far', 'gap');
      CREATE TABLE docs (id INTEGER PRIMARY KEY, title TEXT, body TEXT);
      INSERT INTO docs VALUES (3, 'oak desk', 'solid oak'), (7, 'lamp', 'brass lamp with shade');
      CREATE VIRTUAL TABLE inside USING fts5(title, body);
      INSERT INTO inside (rowid, title, body) SELECT id, title, body FROM docs;
      CREATE VIRTUAL TABLE outside USING fts5(title, body, content='docs', content_rowid='id');
      INSERT INTO outside (outside) VALUES ('rebuild');
      CREATE VIRTUAL TABLE blank USING fts5(title, body, content='');
      INSERT INTO blank (rowid, title, body) SELECT id, title, body FROM docs;
      CREATE INDEX docs_title ON docs (title);
      ANALYZE;
      """)
    let (shell, output) = self.shell(try Session(database: database))
    shell.handle(".dump")
    let copy = directory.appendingPathComponent("awkward-copy.sqlite").path
    XCTAssertEqual(try loadWithSqlite3(output.text, into: copy), 0, output.text)
    let loaded = try Database(path: copy)
    for query in [
      "SELECT rowid, hex(body), label, typeof(body) FROM texts ORDER BY rowid",
      "SELECT rowid, title FROM inside WHERE inside MATCH 'oak OR lamp' ORDER BY rowid",
      "SELECT rowid, title FROM outside WHERE outside MATCH 'brass' ORDER BY rowid",
      "SELECT rowid FROM blank WHERE blank MATCH 'solid' ORDER BY rowid",
      "SELECT tbl, idx, stat FROM sqlite_stat1 ORDER BY tbl, idx",
      "SELECT type, name, sql FROM sqlite_schema ORDER BY name",
    ] {
      XCTAssertEqual(try loaded.rows(query), try database.rows(query), query)
    }
    XCTAssertEqual(try loaded.rows("PRAGMA integrity_check"), [[.text("ok")]])
  }

  /// What `.mode csv` writes (quotes, commas, newlines in cells) imports back, all or none.
  func testImportRoundTripsWhatModeCSVWrites() throws {
    let session = try Session.fixture("reminders")
    let (shell, output) = self.shell(session)
    try session.database.execute("INSERT INTO tags (title) VALUES ('with, comma'), ('with \"quotes\"'), ('two\nlines')")
    let csvPath = directory.appendingPathComponent("tags.csv").path
    shell.handle(".mode csv")
    shell.handle(".output \(csvPath)")
    shell.handle("Tag.order(by: \\.id)")
    shell.handle(".output")
    let original = try session.database.rows("SELECT id, title FROM tags ORDER BY id")
    // Into a new table: columns from the first line.
    shell.handle(".import \(csvPath) tagCopies")
    XCTAssertTrue(output.text.contains("imported 8 rows into tagCopies (a new table; its columns from the first line)"), output.text)
    XCTAssertEqual(try session.database.rows("SELECT CAST(id AS INTEGER), title FROM tagCopies ORDER BY CAST(id AS INTEGER)"), original)
    // Into the existing table, emptied: the header line is recognised and left out.
    try session.database.execute("DELETE FROM remindersTags; DELETE FROM tags")
    shell.handle(".import \(csvPath) tags")
    XCTAssertTrue(output.text.contains("imported 8 rows into tags (the first line names the columns)"), output.text)
    XCTAssertEqual(try session.database.rows("SELECT id, title FROM tags ORDER BY id"), original)
    // A bad line: located, and nothing of the file stays.
    let bad = directory.appendingPathComponent("bad.csv").path
    try "id,title\n100,fine\n101\n".write(toFile: bad, atomically: true, encoding: .utf8)
    shell.handle(".import \(bad) tags")
    XCTAssertTrue(
      output.text.contains("error: bad.csv:3: 1 field where 'tags' has 2 columns; nothing was imported")
        || output.text.contains("bad.csv:3: 1 field where 'tags' has 2 columns; nothing was imported"), output.text)
    XCTAssertEqual(try session.database.rows("SELECT count(*) FROM tags WHERE id >= 100"), [[.integer(0)]])
    // A spreadsheet's "CSV UTF-8": a byte-order mark and CRLF line ends.
    let spreadsheet = directory.appendingPathComponent("spreadsheet.csv").path
    try "\u{FEFF}id,title\r\n300,\"from, a spreadsheet\"\r\n".write(toFile: spreadsheet, atomically: true, encoding: .utf8)
    shell.handle(".import \(spreadsheet) tags")
    XCTAssertTrue(output.text.contains("imported 1 row into tags (the first line names the columns)"), output.text)
    XCTAssertEqual(try session.database.rows("SELECT title FROM tags WHERE id = 300"), [[.text("from, a spreadsheet")]])
    let duplicate = directory.appendingPathComponent("duplicate.csv").path
    try "200,new\n1,taken\n".write(toFile: duplicate, atomically: true, encoding: .utf8)
    shell.handle(".import \(duplicate) tags")
    XCTAssertTrue(
      output.text.contains("duplicate.csv:2: SQLite error 1555: UNIQUE constraint failed: tags.id; nothing was imported"), output.text)
    XCTAssertEqual(try session.database.rows("SELECT count(*) FROM tags WHERE id = 200"), [[.integer(0)]])
  }

  /// `.import FILE temp.tt` makes `tt` in the temp schema (not a main table named "temp.tt"),
  /// and a named pipe is read to its end like a file.
  func testImportIntoASchemaAndFromAPipe() throws {
    let (shell, output) = self.shell(try Session.fixture("reminders"))
    let csv = directory.appendingPathComponent("rows.csv").path
    try "a,b\n1,2\n3,4\n".write(toFile: csv, atomically: true, encoding: .utf8)
    shell.handle(".import \(csv) temp.tt")
    shell.handle("SELECT count(*) AS n, (SELECT count(*) FROM sqlite_schema WHERE name LIKE '%tt') AS inMain FROM temp.tt")
    let pipe = directory.appendingPathComponent("pipe").path
    XCTAssertEqual(mkfifo(pipe, 0o600), 0)
    let writer = Thread { try? "x,y\n5,6\n".write(toFile: pipe, atomically: false, encoding: .utf8) }
    writer.start()
    shell.handle(".import \(pipe) piped")
    shell.handle("SELECT * FROM piped")
    let text = output.text.replacingOccurrences(of: directory.path, with: "DIR")
    XCTAssertTrue(text.contains("imported 2 rows into temp.tt"), text)
    XCTAssertTrue(text.contains("│ 2 │ 0      │"), text)
    XCTAssertTrue(text.contains("imported 1 row into piped"), text)
    XCTAssertTrue(text.contains("│ 5 │ 6 │"), text)
  }

  func testIndexesAndHelpForACommand() throws {
    let (shell, output) = self.shell(try Session.fixture("reminders"))
    try shell.session.database.execute("CREATE INDEX reminders_list ON reminders (remindersListID, isCompleted)")
    shell.handle(".indexes reminders")
    shell.handle(".help mode")
    shell.handle(".help .import")
    assertInlineSnapshot(of: output.text.trimmingCharacters(in: .newlines), as: .lines) {
      """
      index_reminders_on_remindersListID  on reminders(remindersListID)
      reminders_list  on reminders(remindersListID, isCompleted)
      .mode MODE
        box, table, csv, json, markdown, line or swift

        box       boxes drawn with lines (the default at the prompt)
        table     the same in ASCII (+ - |)
        csv       comma-separated values, a header line first (.headers off leaves it out)
        json      one JSON object per statement, one per line
        markdown  a Markdown table
        line      one `column = value` line per value, a blank line between rows
        swift     results as Swift values (records of the model)
      .import FILE TABLE
        Import a CSV (or .tsv) file into TABLE, all rows or none

        Fields are separated by commas (tabs in a .tsv file); quoted fields may hold commas, quotes
        ("" for one) and newlines, as .mode csv writes them. A new TABLE takes its column names from
        the first line (every column TEXT). An existing table takes every line, except a first
        line that names its columns. A line with the wrong number of fields, or a row the table
        refuses (a constraint), is an error at its line, and nothing is imported.
      """
    }
  }
}
