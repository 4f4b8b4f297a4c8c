import Foundation
import XCTest

/// Plain SQL runs exactly what was written: SQLite decides where a statement ends, every
/// statement of a text runs, one input is atomic, and values are stored as written. Each test
/// works on a database file and checks it with the `sqlite3` command afterwards.
final class PlainSQLSafetyTests: XCTestCase {
  var directory: URL!
  var database: String!

  override func setUpWithError() throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-sql-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    database = directory.appendingPathComponent("reminders.sqlite").path
    let schema = QuarryProcess.packageRoot.appendingPathComponent("fixtures/reminders/schema.sql").path
    XCTAssertEqual(try Self.shell("sqlite3 '\(database!)' < '\(schema)'").status, 0)
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(at: directory)
  }

  /// Runs a shell command line; stdout and the exit status.
  static func shell(_ line: String) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bash")
    process.arguments = ["-c", line]
    let out = Pipe()
    process.standardOutput = out
    try process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }

  /// What the sqlite3 command reads from the database file.
  func sqlite3(_ sql: String) throws -> String {
    try Self.shell("sqlite3 '\(database!)' \"\(sql)\"").output.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  func quarry(_ stdin: String, _ arguments: [String] = []) throws -> QuarryProcess.Result {
    try QuarryProcess.run([database] + arguments, stdin: stdin)
  }

  func testASemicolonInACommentEndsNoStatement() throws {
    let result = try quarry("DELETE FROM reminders -- only the completed ones;\nWHERE isCompleted;\n")
    XCTAssertEqual(result.status, 0, result.stderr)
    XCTAssertEqual(try sqlite3("SELECT count(*) FROM reminders"), "8")
    let update = try quarry("UPDATE reminders SET title = 'x' /* note; */ WHERE id = 1;\n")
    XCTAssertEqual(update.status, 0, update.stderr)
    XCTAssertEqual(try sqlite3("SELECT count(*) FROM reminders WHERE title = 'x'"), "1")
    let string = try quarry("UPDATE tags SET title = 'a;\nb' WHERE id = 2;\n")
    XCTAssertEqual(string.status, 0, string.stderr + string.stdout)
    XCTAssertEqual(try sqlite3("SELECT count(*) FROM tags WHERE title = 'a;' || char(10) || 'b'"), "1")
  }

  func testATriggerBodyIsOneStatement() throws {
    let result = try quarry(
      """
      CREATE TRIGGER stamp AFTER UPDATE ON tags BEGIN
        UPDATE tags SET title = upper(title) WHERE id = new.id;
      END;
      UPDATE tags SET title = 'loud' WHERE id = 1;
      """)
    XCTAssertEqual(result.status, 0, result.stderr)
    XCTAssertEqual(try sqlite3("SELECT title FROM tags WHERE id = 1"), "LOUD")
  }

  func testEveryStatementOfATextRunsEachWithItsResults() throws {
    let result = try quarry("SELECT 1 AS a; SELECT 2 AS b;\n", ["--format", "csv"])
    XCTAssertEqual(result.status, 0, result.stderr)
    XCTAssertEqual(result.stdout, "a\n1\nb\n2\n")
    let raw = try quarry(".raw CREATE TABLE a(x); CREATE TABLE b(y)\n")
    XCTAssertEqual(raw.status, 0, raw.stderr)
    let macro = try quarry(#"#sql("CREATE TABLE c(x); CREATE TABLE d(y)").execute(db)"# + "\n")
    XCTAssertEqual(macro.status, 0, macro.stderr)
    let migration = try quarry(
      """
      try database.write { db in
        try db.execute(sql: "CREATE TABLE e(x); CREATE TABLE f(y)")
      }

      """)
    XCTAssertEqual(migration.status, 0, migration.stderr)
    XCTAssertEqual(
      try sqlite3("SELECT group_concat(name, ' ') FROM (SELECT name FROM sqlite_schema WHERE length(name) = 1 ORDER BY name)"),
      "a b c d e f")
  }

  func testAFailureUndoesTheWholeInput() throws {
    for input in [
      "DELETE FROM tags; INSERT INTO nowhere VALUES (1);",
      "WITH doomed AS (SELECT 1) DELETE FROM tags; SELECT nothing FROM tags;",
      "PRAGMA user_version; DELETE FROM tags; INSERT INTO nowhere VALUES (1);",
      "DELETE FROM tags WHERE id > 2; UPDATE tags SET id = 1;",
      "INSERT INTO tags (title) VALUES ('new'); SELECT * FROM nowhere;",
    ] {
      let result = try quarry(input + "\n")
      XCTAssertEqual(result.status, 1, input)
      XCTAssertEqual(try sqlite3("SELECT count(*) FROM tags"), "5", input)
    }
  }

  func testTransactionControlWorksAsInSQLite3() throws {
    let rolledBack = try quarry("BEGIN;\nDELETE FROM reminders;\nROLLBACK;\n")
    XCTAssertEqual(rolledBack.status, 0, rolledBack.stderr)
    XCTAssertEqual(try sqlite3("SELECT count(*) FROM reminders"), "12")
    let committed = try quarry("BEGIN; DELETE FROM tags WHERE id = 1;\nSAVEPOINT s; DELETE FROM tags; ROLLBACK TO s; RELEASE s;\nCOMMIT;\n")
    XCTAssertEqual(committed.status, 0, committed.stderr)
    XCTAssertEqual(try sqlite3("SELECT count(*) FROM tags"), "4")
    let copy = directory.appendingPathComponent("copy.sqlite").path
    let vacuum = try quarry("VACUUM;\nVACUUM INTO '\(copy)';\n")
    XCTAssertEqual(vacuum.status, 0, vacuum.stderr)
    XCTAssertEqual(try Self.shell("sqlite3 '\(copy)' 'SELECT count(*) FROM tags'").output, "4\n")
  }

  func testValuesAreStoredAsWritten() throws {
    let result = try quarry(
      #"""
      Tag.insert { Tag.Draft(title: "abc\0def") }
      Tag.insert { Tag.Draft(title: "\u{41}\u{1F600}\t\"q\"\\") }
      Tag.insert { Tag.Draft(title: #"raw \n stays"#) }

      """#)
    XCTAssertEqual(result.status, 0, result.stderr)
    XCTAssertEqual(try sqlite3("SELECT hex(CAST(title AS BLOB)) FROM tags WHERE id = 6"), "61626300646566")
    XCTAssertEqual(try sqlite3("SELECT title FROM tags WHERE id = 7"), "A😀\t\"q\"\\")
    XCTAssertEqual(try sqlite3("SELECT title FROM tags WHERE id = 8"), #"raw \n stays"#)
    let badEscape = try quarry(#"Tag.where { $0.title.eq("\q") }"# + "\n")
    XCTAssertEqual(badEscape.status, 1)
    XCTAssertTrue(badEscape.stderr.contains("1:26: invalid escape sequence"), badEscape.stderr)
  }

  func testInvalidUTF8IsAnErrorNamingTheByte() throws {
    let process = try QuarryProcess.runData(
      [database], stdin: Data("Tag.all\nTag.where { $0.title.eq(\"".utf8) + Data([0xFF]) + Data("\") }\n".utf8))
    XCTAssertEqual(process.status, 1)
    XCTAssertTrue(process.stderr.contains("invalid UTF-8 at byte 33 (line 2)"), process.stderr)
    let file = directory.appendingPathComponent("bad.sql").path
    FileManager.default.createFile(atPath: file, contents: Data([0x53, 0x45, 0x4C, 0xC3]))
    let read = try quarry(".read \(file)\n")
    XCTAssertTrue(read.stderr.contains("invalid UTF-8 at byte 3"), read.stderr)
    let binary = try QuarryProcess.binary.path
    let argument = try Self.shell("'\(binary)' '\(database!)' -e \"$(printf 'Tag.where { $0.title.eq(\\\"\\xff\\\") }')\" 2>&1; echo $?")
    XCTAssertEqual(argument.output, "quarry: error: argument 3: invalid UTF-8 at byte 25 (line 1); save the text as UTF-8\n1\n")
  }

  func testNamedQueryArgumentsAreBoundNotPasted() throws {
    let state = directory.path
    let environment = ["XDG_STATE_HOME": state]
    let attack = #"'x' OR 1=1"#
    let sql = try QuarryProcess.run(
      [database, "--format", "csv"],
      stdin: ".keep byTitle SELECT id FROM tags WHERE title = $1;\n.run byTitle \"\(attack)\"\n.run byTitle urgent\n",
      environment: environment)
    XCTAssertEqual(sql.status, 0, sql.stderr)
    XCTAssertEqual(sql.stdout, "kept 'byTitle' (.run byTitle runs it)\nid\nid\n3\n")
    let dsl = try QuarryProcess.run(
      [database, "--format", "csv"],
      stdin: #".keep tagged Tag.where { $0.title.eq($1) }.select(\.id)"# + "\n" + #".run tagged "\") || true || (\"""#
        + "\n.run tagged someday\n",
      environment: environment)
    XCTAssertEqual(dsl.status, 0, dsl.stderr)
    XCTAssertEqual(dsl.stdout, "kept 'tagged' (.run tagged runs it)\nid\nid\n2\n")
  }

  func testSelfReferenceStopsAtADepthLimit() throws {
    let file = directory.appendingPathComponent("self.quarry").path
    try ".read \(file)\n".write(toFile: file, atomically: true, encoding: .utf8)
    let read = try quarry(".read \(file)\n")
    XCTAssertEqual(read.status, 1)
    XCTAssertTrue(read.stderr.contains("is nested 25 deep (does it read itself?)"), read.stderr)
    let run = try QuarryProcess.run(
      [database], stdin: ".keep loop .run loop\n.run loop\n", environment: ["XDG_STATE_HOME": directory.path])
    XCTAssertEqual(run.status, 1)
    XCTAssertTrue(run.stderr.contains("is nested 25 deep (does it run itself?)"), run.stderr)
  }

  func testEditUsesAPrivateUnpredictableFile() throws {
    let editor = directory.appendingPathComponent("editor.sh").path
    let log = directory.appendingPathComponent("editor.log").path
    try "#!/bin/sh\nstat -c '%a %n' \"$1\" > '\(log)'\necho 'Tag.count()' > \"$1\"\n".write(
      toFile: editor, atomically: true, encoding: .utf8)
    chmod(editor, 0o755)
    let result = try QuarryProcess.run(
      [database, "--format", "csv"], stdin: "Tag.all\n.edit\n", environment: ["EDITOR": editor, "VISUAL": editor])
    XCTAssertEqual(result.status, 0, result.stderr)
    XCTAssertTrue(result.stdout.hasSuffix("Tag.count()\ncount(*)\n5\n"), result.stdout)
    let line = try String(contentsOfFile: log, encoding: .utf8)
    XCTAssertTrue(line.hasPrefix("600 "), line)
    XCTAssertFalse(line.contains("quarry-edit-\(getpid())"), line)
    let name = try XCTUnwrap(line.split(separator: " ").last).trimmingCharacters(in: .newlines)
    XCTAssertFalse(FileManager.default.fileExists(atPath: name), "the edit file is removed afterwards")
  }

  func testErrorColumnsCountCharacters() throws {
    let result = try quarry("SELECT 'é😀', nope FROM tags;\n")
    XCTAssertEqual(
      result.stderr,
      """
      error: 1:14: SQLite error 1: no such column: nope; did you mean 'notes'?
      SELECT 'é😀', nope FROM tags;
                   ^

      """)
    let dsl = try quarry("Tag.where { $0.title.eq(\"é😀\") && $0.titel }\n")
    XCTAssertTrue(dsl.stderr.contains("error: 1:37: table 'Tag' has no column 'titel'"), dsl.stderr)
    let script = try quarry("SELECT 1;\n\n-- a comment\nSELECT nope;\n", ["--format", "csv"])
    XCTAssertTrue(script.stderr.hasPrefix("error: 4:8: SQLite error 1: no such column: nope"), script.stderr)
    let table = try quarry("SELECT *\n  FROM tgs;\n")
    XCTAssertTrue(
      table.stderr.hasPrefix("error: 2:8: SQLite error 1: no such table: tgs; did you mean 'tags'?\n  FROM tgs;\n       ^"), table.stderr)
  }

  func testJSONOutputIsJSONForCommandsAndErrorsToo() throws {
    let result = try quarry(".tables\n.frobnicate\nTag.count()\n", ["--format", "json"])
    XCTAssertEqual(result.status, 1)
    XCTAssertEqual(result.stderr, "")
    let lines = result.stdout.split(separator: "\n")
    XCTAssertEqual(lines.count, 3)
    for line in lines {
      XCTAssertNotNil(try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], String(line))
    }
    XCTAssertTrue(lines[0].hasPrefix(#"{"command":".tables","output":"remindersLists  RemindersList\n"#), String(lines[0]))
    XCTAssertEqual(
      lines[1],
      #"{"command":null,"output":"","error":{"message":"unknown command '.frobnicate'; .help lists the commands","line":2,"column":1}}"#)
  }

  /// With `--format json` every line stays one JSON object: `.timer` adds a `runTime` object,
  /// `.mode csv` is refused, notes are objects, and an infinite REAL is a number, not NULL.
  func testAJSONStreamStaysJSONWhateverTheCommands() throws {
    let result = try quarry(
      """
      .timer on
      SELECT 1e999 AS big, -1e999 AS small, NULL AS absent;
      .mode csv
      .timer off
      INSERT INTO tags (title) VALUES ('one'), ('errand');
      SELECT 2;

      """, ["--format", "json"])
    let lines = result.stdout.split(separator: "\n").map(String.init)
    XCTAssertEqual(lines.count, 7, result.stdout)
    for line in lines {
      // Foundation's reader refuses a number out of Double's range; Python's and JavaScript's
      // read 1e999 as infinity. The line is JSON either way.
      let readable = line.replacingOccurrences(of: "1e999", with: "1")
      XCTAssertNotNil(try? JSONSerialization.jsonObject(with: Data(readable.utf8)) as? [String: Any], line)
    }
    XCTAssertTrue(lines[1].contains(#""rows":[[1e999,-1e999,null]]"#), lines[1])
    XCTAssertTrue(lines[2].hasPrefix(#"{"input":"SELECT 1e999 AS big, -1e999 AS small, NULL AS absent;","runTime":"#), lines[2])
    XCTAssertTrue(lines[3].contains("every line stays one JSON object, so .mode cannot change it"), lines[3])
    XCTAssertEqual(
      lines[6],
      #"{"input":"SELECT 2;","sql":"SELECT 2;","statement":"SELECT 2;","bindings":[],"columns":["2"],"rows":[[2]],"error":null,"warnings":[]}"#
    )
    // `.mode json` typed at a session that began in box format changes results, not replies.
    let prompt = try quarry(".mode json\n.tables\nSELECT 3;\n")
    XCTAssertTrue(prompt.stdout.hasPrefix("remindersLists  RemindersList\n"), prompt.stdout)
    XCTAssertTrue(prompt.stdout.hasSuffix(#""rows":[[3]],"error":null,"warnings":[]}"# + "\n"), prompt.stdout)
  }

  func testExitStatusAndDashLedSources() throws {
    XCTAssertEqual(try QuarryProcess.run(["--no-such-flag"]).status, 1)
    XCTAssertEqual(try QuarryProcess.run(["/nonexistent/dir/x.sqlite", "-e", "Tag.all"]).status, 1)
    XCTAssertEqual(try QuarryProcess.run(["--help"]).status, 0)
    for arguments in [["-e", "-1"], ["query", "-e", "-1"]] {
      let result = try QuarryProcess.run(arguments + ["--format", "csv"])
      XCTAssertEqual(result.status, 0, result.stderr)
      XCTAssertEqual(result.stdout, "-1\n-1\n")
    }
  }

  func testOutputThatCannotBeWrittenIsAnError() throws {
    let binary = try QuarryProcess.binary.path
    let fixtures = QuarryProcess.packageRoot.appendingPathComponent("fixtures").path
    let full = try Self.shell("QUARRY_FIXTURES='\(fixtures)' '\(binary)' -e 'Tag.all' > /dev/full 2> '\(directory.path)/err'; echo $?")
    XCTAssertEqual(full.output, "1\n")
    XCTAssertEqual(
      try String(contentsOfFile: directory.path + "/err", encoding: .utf8),
      "quarry: error: cannot write the results: No space left on device\n")
    let pipe = try Self.shell(
      """
      set -o pipefail
      QUARRY_FIXTURES='\(fixtures)' '\(binary)' --format csv -e 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 200000) SELECT x FROM c;' 2> '\(directory.path)/err2' | head -c 10 > /dev/null; echo $?
      """)
    XCTAssertEqual(pipe.output, "1\n")
    XCTAssertEqual(
      try String(contentsOfFile: directory.path + "/err2", encoding: .utf8),
      "quarry: error: cannot write the results: Broken pipe\n")
  }
}

/// The session's data: `.save` writes the database, foreign keys are enforced.
final class SessionDataTests: XCTestCase {
  func testSaveAndBackupWriteTheDatabaseTheFixtureIncluded() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-save-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let saved = directory.appendingPathComponent("saved.sqlite").path
    let backup = directory.appendingPathComponent("backup.sqlite").path
    let result = try QuarryProcess.run([], stdin: "DELETE FROM tags WHERE id = 1;\n.save \(saved)\n.backup \(backup)\n")
    XCTAssertEqual(result.status, 0, result.stderr)
    XCTAssertTrue(result.stdout.contains("saved the database to \(saved)"), result.stdout)
    for path in [saved, backup] {
      XCTAssertEqual(try PlainSQLSafetyTests.shell("sqlite3 '\(path)' 'SELECT count(*) FROM tags'").output, "4\n")
    }
  }

  func testForeignKeysAreEnforcedUnlessTurnedOff() throws {
    let insert = "INSERT INTO reminders (title, remindersListID) VALUES ('orphan', 999);\n"
    let enforced = try QuarryProcess.run([], stdin: insert)
    XCTAssertEqual(enforced.status, 1)
    XCTAssertTrue(enforced.stderr.contains("FOREIGN KEY constraint failed"), enforced.stderr)
    let off = try QuarryProcess.run(["--no-foreign-keys"], stdin: insert)
    XCTAssertEqual(off.status, 0, off.stderr)
  }
}
