import Foundation
import XCTest

/// The `quarry` command's contract, driven through the real binary.
final class CommandLineTests: XCTestCase {
  func json(_ line: Substring) throws -> [String: Any] {
    try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
  }

  /// A long result written to a file streams: its widths come from the first thousand rows, and
  /// rows wider than those come under a header drawn again, so every line of each table lines up
  /// (and memory stays flat: the rows are not all held to measure them).
  func testALongTableOffTheTerminalStreamsAligned() throws {
    let result = try QuarryProcess.run([
      "-e", "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 30000) SELECT x, 'row ' || x AS label FROM c",
    ])
    XCTAssertEqual(result.status, 0, result.stderr)
    let lines = result.stdout.split(separator: "\n").map(String.init)
    // Two tables: rows 1…9999 four digits wide at most, then from 10000 on.
    XCTAssertEqual(lines.filter { $0.hasPrefix("┌") }.count, 2, result.stdout.prefix(400) + "")
    let second = try XCTUnwrap(lines.lastIndex { $0.hasPrefix("┌") })
    XCTAssertEqual(lines[second + 1], "│ x     │ label     │")
    XCTAssertEqual(Set(lines[second...].map(\.count)).count, 1, "every line of the second table is as wide")
    XCTAssertEqual(lines.last, "└───────┴───────────┘")
    XCTAssertEqual(lines.filter { $0.hasPrefix("│ ") && !$0.contains("label") }.count, 30000)
  }

  /// `.cd`, `.shell`/`.system` as sqlite3 has them; an editor that fails says so; a first line
  /// that looks like a meta-command is one (refused at once when unknown, never `...>`).
  func testCommandsThatReachOutside() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-cd-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let result = try QuarryProcess.run(
      ["--fixture", "reminders"],
      stdin: ".cd \(folder.path)\n.once tags.txt\nTag.count()\n.shell cat tags.txt | grep -c 5\n.system exit 3\n.cd /no/such/folder\n")
    XCTAssertEqual(result.stdout, "1\n", result.stderr)
    XCTAssertTrue(result.stderr.contains("error: .system: the command exited with status 3"), result.stderr)
    XCTAssertTrue(result.stderr.contains("error: cannot change to '/no/such/folder': no such file"), result.stderr)
    let editor = try QuarryProcess.run(
      ["--fixture", "reminders", "-e", "Tag.count()", "-e", ".edit"], environment: ["EDITOR": "false", "VISUAL": "false"])
    XCTAssertTrue(editor.stderr.contains("error: the editor 'false' exited with status 1; nothing was run"), editor.stderr)
  }

  func testJSONFormatOneObjectPerStatement() throws {
    let result = try QuarryProcess.run([
      "--format", "json", "-e", #"Tag.where { $0.title.eq("urgent") }"#, "-e", "Tag.count()",
    ])
    XCTAssertEqual(result.status, 0, result.stderr)
    let lines = result.stdout.split(separator: "\n")
    XCTAssertEqual(lines.count, 2)
    let first = try json(lines[0])
    XCTAssertEqual(first["input"] as? String, #"Tag.where { $0.title.eq("urgent") }"#)
    XCTAssertEqual(
      first["sql"] as? String, "SELECT \"tags\".\"id\", \"tags\".\"title\"\nFROM \"tags\"\nWHERE ((\"tags\".\"title\") = ('urgent'))")
    XCTAssertEqual(first["bindings"] as? [String], ["urgent"])
    XCTAssertEqual(first["columns"] as? [String], ["id", "title"])
    XCTAssertEqual((first["rows"] as? [[Any]])?.first?.first as? Int, 3)
    XCTAssertTrue(first["error"] is NSNull)
    XCTAssertEqual(((try json(lines[1]))["rows"] as? [[Int]]), [[5]])
  }

  /// Every character JSON must escape is escaped, in the input, the SQL and the rows, for a
  /// value of any size (written to the output in pieces, never assembled): what a JSON reader
  /// gets back is the text SQLite returned, byte for byte.
  func testJSONStringsRoundTripAtAnySize() throws {
    let text = "q\"b\\s/t\tn\nr\r\u{1}\u{1F}\u{7F}é界😀"
    let big = String(repeating: text, count: 200_000)
    let sql = "SELECT '\(big.replacingOccurrences(of: "'", with: "''"))' AS v;"
    let result = try QuarryProcess.run(["--format", "json"], stdin: sql + "\n")
    XCTAssertEqual(result.status, 0, result.stderr)
    let object = try json(Substring(result.stdout.trimmingCharacters(in: .newlines)))
    XCTAssertEqual(object["input"] as? String, sql)
    XCTAssertEqual(object["sql"] as? String, sql)
    XCTAssertEqual((object["rows"] as? [[String]])?.first?.first, big)
    let small = try QuarryProcess.run(["--format", "json", "-e", "SELECT '\(text)' AS v;"])
    XCTAssertTrue(small.stdout.contains(#"[["q\"b\\s/t\tn\nr\r\u0001\u001f\#u{7F}é界😀"]]"#), small.stdout)
  }

  /// Warnings travel with the results: in the object of the statement they are about, and in
  /// an object of their own for an input that only declares.
  func testJSONCarriesWarnings() throws {
    let result = try QuarryProcess.run([
      "--format", "json", "-e", #"Tag.where { $0.title.hasPrefix("urgent") }"#,
      "-e", "@Table struct Old { let id: Int; @Columns var x = 0 }", "-e", "Tag.count()",
    ])
    XCTAssertEqual(result.status, 0, result.stderr)
    XCTAssertEqual(result.stderr, "")
    let lines = result.stdout.split(separator: "\n")
    XCTAssertEqual(lines.count, 3)
    let first = try XCTUnwrap((try json(lines[0]))["warnings"] as? [[String: Any]])
    XCTAssertEqual(first.first?["message"] as? String, #"'hasPrefix(_:)' is deprecated: Prefer 'like("\(other)%")' instead"#)
    XCTAssertEqual(first.first?["line"] as? Int, 1)
    XCTAssertEqual(first.first?["column"] as? Int, 22)
    let second = try json(lines[1])
    XCTAssertTrue(second["sql"] is NSNull)
    XCTAssertEqual((second["warnings"] as? [[String: Any]])?.first?["message"] as? String, "'Columns' is deprecated: renamed to 'Column'")
    XCTAssertEqual((try json(lines[2]))["warnings"] as? [String], [])
  }

  func testJSONErrorCarriesLineAndColumnAndExitStatusIsOne() throws {
    let result = try QuarryProcess.run(["--format", "json", "-e", "Tag.where {\n  $0.titel.eq(\"x\") }"])
    XCTAssertEqual(result.status, 1)
    let object = try json(try XCTUnwrap(result.stdout.split(separator: "\n").first))
    XCTAssertTrue(object["sql"] is NSNull)
    let error = try XCTUnwrap(object["error"] as? [String: Any])
    XCTAssertEqual(error["message"] as? String, "table 'Tag' has no column 'titel'; did you mean 'title'?")
    XCTAssertEqual(error["line"] as? Int, 2)
    XCTAssertEqual(error["column"] as? Int, 6)
  }

  /// Under `--format json` every line is JSON, a command that runs another (`.lesson 1` loads
  /// its fixture) included: one object with both outputs.
  func testALessonOpenedUnderJSONIsOneObject() throws {
    let result = try QuarryProcess.run(["--format", "json", "-e", ".lesson 1"])
    let lines = result.stdout.split(separator: "\n")
    XCTAssertEqual(lines.count, 1, result.stdout)
    let object = try json(try XCTUnwrap(lines.first))
    XCTAssertEqual(object["command"] as? String, ".lesson 1")
    let output = try XCTUnwrap(object["output"] as? String)
    XCTAssertTrue(output.hasPrefix("loaded fixture 'reminders' (in memory)\n"), output)
    XCTAssertTrue(output.contains("Reminder.all"), output)
  }

  func testCSVIsDataOnly() throws {
    let result = try QuarryProcess.run(["--format", "csv", "-e", "Tag.order(by: \\.id).limit(2)"])
    XCTAssertEqual(result.status, 0, result.stderr)
    XCTAssertEqual(result.stdout, "id,title\n1,errand\n2,someday\n")
  }

  func testBoxFormatShowsSQLThenResults() throws {
    let result = try QuarryProcess.run(["-e", "User.select(\\.name).order(by: \\.name).limit(2)"])
    XCTAssertEqual(result.status, 0, result.stderr)
    XCTAssertEqual(
      result.stdout,
      """
      SELECT "users"."name"
      FROM "users"
      ORDER BY "users"."name"
      LIMIT 2
      ┌───────┐
      │ name  │
      ├───────┤
      │ Ada   │
      │ Grace │
      └───────┘

      """)
  }

  func testSQLOnlyDoesNotRun() throws {
    let result = try QuarryProcess.run(["--sql-only", "-e", "Reminder.where(\\.isFlagged).count()"])
    XCTAssertEqual(result.stdout, "SELECT count(*)\nFROM \"reminders\"\nWHERE (\"reminders\".\"isFlagged\")\n")
  }

  func testStdinIsTheScriptWhenNotATerminal() throws {
    let script = """
      enum Boss: AliasName {}
      Tag
        .where { $0.id.gt(3) }
        .select(\\.title)
      .raw SELECT 40 + 2 AS answer
      """
    let result = try QuarryProcess.run(["--format", "csv"], stdin: script)
    XCTAssertEqual(result.status, 0, result.stderr)
    XCTAssertEqual(result.stdout, "title\noutdoors\npaperwork\nanswer\n42\n")
  }

  func testDatabaseFileModelsAndReadonly() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-e2e-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let database = directory.appendingPathComponent("shop.sqlite").path
    XCTAssertEqual(
      try QuarryProcess.run(
        [database, "-e", ".raw CREATE TABLE items (id INTEGER PRIMARY KEY, label TEXT NOT NULL, price REAL)"], stdin: nil
      ).status, 0)
    let created = try QuarryProcess.run([database], stdin: ".raw INSERT INTO items (label, price) VALUES ('pen', 1.5), ('ink', NULL);\n")
    XCTAssertEqual(created.status, 0, created.stderr)
    let models = directory.appendingPathComponent("models.swift").path
    try "@Table struct Item { let id: Int\n  @Column(\"label\") var name = \"\"\n  var price: Double? }".write(
      toFile: models, atomically: true, encoding: .utf8)
    let read = try QuarryProcess.run([
      database, "--models", models, "--readonly", "--format", "csv", "-e",
      "Item.where { $0.price.isNot(nil) }.select { ($0.name, $0.price) }",
    ])
    XCTAssertEqual(read.status, 0, read.stderr)
    XCTAssertEqual(read.stdout, "label,price\npen,1.5\n")
    let write = try QuarryProcess.run([database, "--readonly"], stdin: ".raw DELETE FROM items;\n")
    XCTAssertEqual(write.status, 1)
    XCTAssertTrue(write.stderr.contains("readonly"), write.stderr)
    // `.open` of a file that does not exist says why nothing is created.
    let missing = directory.appendingPathComponent("new.db").path
    let open = try QuarryProcess.run([database, "--readonly"], stdin: ".open \(missing)\n")
    XCTAssertTrue(open.stderr.contains("no such file, and this session is read-only (--readonly), so .open creates none"), open.stderr)
    XCTAssertFalse(FileManager.default.fileExists(atPath: missing))
  }

  /// `--models Schema.swift` of a SQLiteData app: the models, and the tables its set-up
  /// function's migrations create, with one note of what was skipped.
  func testAnAppsSchemaFileDeclaresModelsAndCreatesItsTables() throws {
    let schema = QuarryProcess.packageRoot.appendingPathComponent("Tests/RealCode/schemas/reminders.swift").path
    let result = try QuarryProcess.run([":memory:", "--models", schema, "-e", ".tables", "-e", "Reminder.incomplete.count()"])
    XCTAssertEqual(result.status, 0, result.stderr)
    for table in ["remindersLists", "reminders", "tags", "remindersTags", "remindersListAssets"] {
      XCTAssertTrue(result.stdout.contains(table), result.stdout)
    }
    XCTAssertTrue(
      result.stderr.contains("note: \(schema): ran appDatabase()'s migrations and set-up as the app does at launch (6 statements)"),
      result.stderr)
    XCTAssertTrue(result.stderr.contains("skipped app code with no SQL to run: configuration.foreignKeysEnabled = true"), result.stderr)
    XCTAssertTrue(result.stdout.contains("count(*)"), result.stdout)
  }

  func testBadInputsGiveClearErrors() throws {
    let badFlag = try QuarryProcess.run(["--format", "xml", "-e", "Tag.all"])
    XCTAssertNotEqual(badFlag.status, 0)
    XCTAssertTrue(badFlag.stderr.contains("xml"), badFlag.stderr)
    let missing = try QuarryProcess.run(["/nonexistent/dir/x.sqlite", "--readonly", "-e", "Tag.all"])
    XCTAssertNotEqual(missing.status, 0)
    XCTAssertTrue(missing.stderr.contains("no such database file"), missing.stderr)
    let fixture = try QuarryProcess.run(["--fixture", "remindrs", "-e", "Tag.all"])
    XCTAssertTrue(fixture.stderr.contains("no fixture named 'remindrs'; did you mean 'reminders'?"), fixture.stderr)
    let sqlite = try QuarryProcess.run(["-e", #"Tag.where { _ in #sql("nosuchfunction(1)") }"#])
    XCTAssertEqual(sqlite.status, 1)
    XCTAssertTrue(sqlite.stderr.contains("no such function: nosuchfunction"), sqlite.stderr)
    let models = try QuarryProcess.run(["--models", "/nonexistent/models.swift", "-e", "Tag.all"])
    XCTAssertEqual(models.stderr, "quarry: error: cannot read models file '/nonexistent/models.swift': no such file\n")
    let fresh = NSTemporaryDirectory() + "quarry-new-\(getpid()).sqlite"
    defer { unlink(fresh) }
    let empty = try QuarryProcess.run([fresh, "-e", "Tag.all"])
    XCTAssertTrue(empty.stderr.contains("unknown table or type 'Tag'; the database has no tables yet"), empty.stderr)
  }

  /// Everyday arguments are read without ArgumentParser (for start-up time); `quarry query …`
  /// always goes through it. Both readings must behave the same, mistakes included.
  func testEverydayArgumentsReadAsArgumentParserReadsThem() throws {
    let cases: [[String]] = [
      ["-e", #"Tag.order(by: \.title)"#, "--format", "csv"],
      ["--fixture=shop", "-e", "Customer.count()", "--format=json"],
      ["--fixture", "organisation", "--sql-only", "-e", "Employee.limit(1)"],
      ["-e", "Tag.count()", "-e", "Reminder.count()", "--format", "csv"],
      ["--format", "xml", "-e", "Tag.all"],
      ["-e"],
      ["--fixture", "shop", "--fixture", "reminders", "-e", "Tag.count()"],
      ["-e", "Tag.count()", "--format", "csv", "extra.sqlite", "more.sqlite"],
    ]
    for arguments in cases {
      let everyday = try QuarryProcess.run(arguments)
      let parsed = try QuarryProcess.run(["query"] + arguments)
      XCTAssertEqual(everyday.status, parsed.status, "\(arguments)")
      XCTAssertEqual(everyday.stdout, parsed.stdout, "\(arguments)")
      XCTAssertEqual(everyday.stderr, parsed.stderr, "\(arguments)")
    }
  }

  func testLessonCommandsWorkInScripts() throws {
    let result = try QuarryProcess.run(["-e", ".lesson 2", "-e", ".next", "-e", ".hint"])
    XCTAssertEqual(result.status, 0, result.stderr)
    XCTAssertTrue(result.stdout.contains("step 2/6: Exercise: Reminders without a due date"), result.stdout)
    XCTAssertTrue(result.stdout.contains("Hint: `$0.dueDate.is(nil)` becomes `IS NULL`."), result.stdout)
  }
}
