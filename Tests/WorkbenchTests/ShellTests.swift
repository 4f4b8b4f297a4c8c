import Foundation
import InlineSnapshotTesting
import QuarryDSL
import Workbench
import XCTest

/// Exact output of meta-commands and of each output mode.
final class ShellTests: SnapshotTestCase {
  var state: URL!

  override func setUpWithError() throws {
    state = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-shell-\(UUID())")
    setenv("XDG_STATE_HOME", state.path, 1)
  }

  override func tearDown() {
    try? FileManager.default.removeItem(at: state)
  }

  func shell(_ inputs: String..., fixture: String = "reminders") throws -> String {
    let output = OutputStream.capturing()
    let shell = Shell(session: try Session.fixture(fixture), fixtureName: fixture, output: output)
    for input in inputs { shell.handle(input) }
    return output.text.trimmingCharacters(in: .newlines)
  }

  /// A paste of plain SQL statements and DSL runs part by part, each located at its own line.
  func testAnInputMixingSQLAndTheDSLRunsPartByPart() throws {
    assertInlineSnapshot(
      of: try shell(
        """
        CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL);
        Note.insert { $0.body } values: { "x" }
        Note.where { $0.bdy.eq("x") }
        SELECT count(*) FROM notes;
        """), as: .lines
    ) {
      """
      CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL);
      INSERT INTO "notes"
      ("body")
      VALUES
      ('x')
      error: 3:17: table 'Note' has no column 'bdy'; did you mean 'body'?
      Note.where { $0.bdy.eq("x") }
                      ^~~
      SELECT count(*) FROM notes;
      ┌──────────┐
      │ count(*) │
      ├──────────┤
      │ 1        │
      └──────────┘
      """
    }
  }

  /// SQL that opens with comments is SQL; comments alone run nothing.
  func testSQLCommentsBeforeAStatementOrAlone() throws {
    XCTAssertEqual(
      try shell(".sql off", "-- how many?\n/* tags */ SELECT count(*) AS n FROM tags;", "-- nothing else"),
      """
      ┌───┐
      │ n │
      ├───┤
      │ 5 │
      └───┘
      """)
  }

  /// `#sql(…, as: Reminder.self)` reads its rows as the model says, as any query of it shows them.
  func testSQLMacroRowsAreShownAsTheirModel() throws {
    // Every column in order, as the library decodes them.
    let output = try shell(".sql off", #"#sql("SELECT * FROM reminders WHERE id = 1", as: Reminder.self)"#)
    XCTAssertTrue(output.contains("│ false       │ true      │ Oat milk, rye bread, lemons │ .medium  │"), output)
    let one = try shell(".sql off", #"#sql("SELECT isCompleted FROM reminders WHERE id = 2", as: Bool.self)"#)
    XCTAssertTrue(one.contains("│ true        │"), one)
  }

  /// Help at a narrow terminal breaks between words, under the column its text starts in.
  func testHelpWrapsBetweenWords() {
    let line = ".timeout MS         Wait up to MS milliseconds for another connection to let go of the database"
    XCTAssertEqual(
      Shell.wrapped(line, width: 60),
      """
      .timeout MS         Wait up to MS milliseconds for another
                          connection to let go of the database
      """)
    XCTAssertEqual(Shell.wrapped("short\n", width: 60), "short\n")
  }

  func testHelp() throws {
    assertInlineSnapshot(of: try shell(".help"), as: .lines) {
      """
      .help [NAME]        Show this help, or what the command or DSL method NAME does (.help mode)
      .methods [KIND]     List the DSL's methods (KIND: table, query, write, expression, …)
      .tables             List tables and views with their Swift type names
      .schema [Type]      Show CREATE statements and the @Table models
      .mode MODE          box, table, csv, json, markdown, line or swift
      .headers on|off     Column names in csv and table output
      .sql on|off         Show the SQL beside (or above) the results
      .binds              Show the bound parameters of the last statement
      .timer on|off       Show how long each input took
      .timeout MS         Wait up to MS milliseconds for another connection to let go of the database
      .wrap on|off        Wrap long text in table cells instead of cutting it with …
      .nullvalue TEXT     Show NULL as TEXT in results (default: dim NULL, or ∅ without colour)
      .maxrows N|auto     Rows a result shows at the prompt (the first and last); 0 shows all
      .explain [INPUT]    EXPLAIN QUERY PLAN of INPUT, or of the last query, as a tree
      .dsl [SQL]          The DSL spelling of a SQL statement, proven by compiling it back
      .open FILE          Open a database file
      .fixture NAME       Load a fixture in memory
      .reset              Reload the fixture, undoing every change
      .read FILE          Run the inputs in FILE
      .once FILE          Send the next input's output to FILE
      .output [FILE]      Send output to FILE, or back to the screen
      .edit               Edit the last input in $EDITOR, then run it
      .raw SQL            Run plain SQL (input starting with an SQL keyword also runs as SQL)
      .save FILE          Write the database (an in-memory fixture too) to FILE, as sqlite3 does
      .backup FILE        The same as .save
      .keep NAME [INPUT]  Keep INPUT (or the last input) as a named query; $1, $2… are parameters
      .run NAME [ARGS]    Run a named query with arguments
      .list               List named queries
      .dump [TABLE…]      SQL text that recreates the database (or the named tables)
      .import FILE TABLE  Import a CSV (or .tsv) file into TABLE, all rows or none
      .indexes [TABLE]    List the indexes (of TABLE), with their columns
      .cd DIR             Change the working folder (where relative file names point)
      .shell COMMAND      Run COMMAND with the shell (/bin/sh), on this terminal
      .system COMMAND     Run COMMAND with the shell (/bin/sh), on this terminal
      .quit               Leave (Ctrl-D also does)
      """
    }
  }

  func testSchemaShowsTheCreateStatementAndTheModel() throws {
    assertInlineSnapshot(of: try shell(".schema Tag"), as: .lines) {
      """
      CREATE TABLE "tags" (
        "id" INTEGER PRIMARY KEY AUTOINCREMENT,
        "title" TEXT NOT NULL UNIQUE COLLATE NOCASE
      );
      @Table
      struct Tag {
        let id: Int
        var title: String = ""
      }
      """
    }
    assertInlineSnapshot(of: try shell(".schema ReminderTag"), as: .lines) {
      """
      CREATE TABLE "remindersTags" (
        "reminderID" INTEGER NOT NULL REFERENCES "reminders"("id") ON DELETE CASCADE,
        "tagID" INTEGER NOT NULL REFERENCES "tags"("id") ON DELETE CASCADE,
        UNIQUE("reminderID", "tagID")
      );
      @Table("remindersTags")
      struct ReminderTag {
        var reminderID: Int
        var tagID: Int
      }
      """
    }
    assertInlineSnapshot(of: try shell(".schema Tagz"), as: .lines) {
      """
      error: no table or type named 'Tagz'; did you mean 'Tag'?
      """
    }
  }

  func testTables() throws {
    assertInlineSnapshot(of: try shell(".tables"), as: .lines) {
      """
      remindersLists  RemindersList
      users           User
      reminders       Reminder
      tags            Tag
      remindersTags   ReminderTag
      """
    }
  }

  func testEachMode() throws {
    let query = "Reminder.where { $0.id.lt(3) }.select { ($0.id, $0.title, $0.isFlagged, $0.priority) }"
    assertInlineSnapshot(of: try shell(".mode table", query), as: .lines) {
      """
      SELECT "reminders"."id", "reminders"."title", "reminders"."isFlagged", "reminders"."priority"
      FROM "reminders"
      WHERE (("reminders"."id") < (3))
      +----+---------------------+-----------+----------+
      | id | title               | isFlagged | priority |
      +----+---------------------+-----------+----------+
      | 1  | Buy groceries       | true      | .medium  |
      | 2  | Fix the leaking tap | false     | NULL     |
      +----+---------------------+-----------+----------+
      """
    }
    // `.mode` alone says the mode in use, as sqlite3 does.
    XCTAssertEqual(try shell(".mode", ".mode line", ".mode"), "current output mode: box\ncurrent output mode: line")
    assertInlineSnapshot(of: try shell(".mode csv", query), as: .lines) {
      """
      id,title,isFlagged,priority
      1,Buy groceries,1,2
      2,Fix the leaking tap,0,
      """
    }
    assertInlineSnapshot(of: try shell(".mode json", query), as: .lines) {
      #"""
      {"input":"Reminder.where { $0.id.lt(3) }.select { ($0.id, $0.title, $0.isFlagged, $0.priority) }","sql":"SELECT \"reminders\".\"id\", \"reminders\".\"title\", \"reminders\".\"isFlagged\", \"reminders\".\"priority\"\nFROM \"reminders\"\nWHERE ((\"reminders\".\"id\") < (3))","statement":"SELECT \"reminders\".\"id\", \"reminders\".\"title\", \"reminders\".\"isFlagged\", \"reminders\".\"priority\"\nFROM \"reminders\"\nWHERE ((\"reminders\".\"id\") < (?))","bindings":[3],"columns":["id","title","isFlagged","priority"],"rows":[[1,"Buy groceries",1,2],[2,"Fix the leaking tap",0,null]],"error":null,"warnings":[]}
      """#
    }
    assertInlineSnapshot(of: try shell(".mode markdown", ".sql off", query), as: .lines) {
      """
      | id  | title               | isFlagged | priority |
      |-----|---------------------|-----------|----------|
      | 1   | Buy groceries       | true      | .medium  |
      | 2   | Fix the leaking tap | false     | NULL     |
      """
    }
    assertInlineSnapshot(of: try shell(".mode line", ".sql off", query), as: .lines) {
      """
             id = 1
          title = Buy groceries
      isFlagged = true
       priority = .medium

             id = 2
          title = Fix the leaking tap
      isFlagged = false
       priority = NULL
      """
    }
    assertInlineSnapshot(of: try shell(".mode swift", ".sql off", query, "Tag.limit(2)"), as: .lines) {
      """
      (1, "Buy groceries", true, .medium)
      (2, "Fix the leaking tap", false, nil)
      Tag(id: 1, title: "errand")
      Tag(id: 2, title: "someday")
      """
    }
    assertInlineSnapshot(of: try shell(".mode box", ".sql off", query), as: .lines) {
      """
      ┌────┬─────────────────────┬───────────┬──────────┐
      │ id │ title               │ isFlagged │ priority │
      ├────┼─────────────────────┼───────────┼──────────┤
      │ 1  │ Buy groceries       │ true      │ .medium  │
      │ 2  │ Fix the leaking tap │ false     │ NULL     │
      └────┴─────────────────────┴───────────┴──────────┘
      """
    }
    assertInlineSnapshot(of: try shell(".mode xml"), as: .lines) {
      """
      error: unknown mode 'xml'; use one of: box, table, csv, json, markdown, line, swift
      """
    }
  }

  func testBindsExplainAndTimer() throws {
    assertInlineSnapshot(of: try shell(".sql off", #"Tag.where { $0.title.eq("urgent") }"#, ".binds"), as: .lines) {
      """
      ┌────┬────────┐
      │ id │ title  │
      ├────┼────────┤
      │ 3  │ urgent │
      └────┴────────┘
      ?1 = 'urgent'
      """
    }
    assertInlineSnapshot(of: try shell(".explain Reminder.where { $0.remindersListID.eq(1) }.order(by: \\.title)"), as: .lines) {
      """
      QUERY PLAN
      |--SEARCH reminders USING INDEX index_reminders_on_remindersListID (remindersListID=?)
      `--USE TEMP B-TREE FOR ORDER BY
      """
    }
    // Plain SQL too, as lesson 23 teaches it.
    assertInlineSnapshot(of: try shell(".explain SELECT title FROM reminders WHERE remindersListID = 1"), as: .lines) {
      """
      QUERY PLAN
      `--SEARCH reminders USING INDEX index_reminders_on_remindersListID (remindersListID=?)
      """
    }
  }

  /// Pasted Swift keeps its attributes with their declarations: `@Table` on a line of its own,
  /// `nonisolated struct …` on the next.
  func testScriptsKeepAttributesWithTheirDeclarations() {
    let script = """
      import SQLiteData

      @Table
      nonisolated struct Book: Identifiable {
        let id: Int
        @Column("name")
        var title = ""
      }
      @Table("x") @Selection
      private
      struct Pair { var a: Int }
      Book.all
      """
    XCTAssertEqual(
      ScriptSplitter.chunks(of: script, isMetaCommand: { _ in false }),
      [
        "import SQLiteData",
        "@Table\nnonisolated struct Book: Identifiable {\n  let id: Int\n  @Column(\"name\")\n  var title = \"\"\n}",
        "@Table(\"x\") @Selection\nprivate\nstruct Pair { var a: Int }",
        "Book.all",
      ])
    XCTAssertTrue(InputCompleteness.isIncomplete("@Table"))
    XCTAssertTrue(InputCompleteness.isIncomplete("@Column(as: [String].JSONRepresentation.self)"))
    XCTAssertFalse(InputCompleteness.isIncomplete("@Table struct T { let id: Int }"))
  }

  /// The Swift parser decides whether DSL input is finished: comments, strings, interpolations
  /// and raw strings never keep the prompt waiting; something missing at the end does.
  func testInputCompletenessFollowsTheSwiftParser() {
    for complete in [
      "Tag.count() // {", "/* ( */ Tag.all", #"Tag.where { $0.title.eq("(") }"#, ##"#sql(#"a ( "#)"##,
      #"Tag.where { $0.title.eq("\($0.id)") }"#, "Tag.all)", "@FetchAll(Tag.all)\nvar tags: [Tag]",
      "SELECT 1; -- done", "DELETE FROM t; /* ; */", ##"#sql(#"a \" ( "#)"##, "Tag.where { $0.title.eq(\"}\") } /* { */",
    ] {
      XCTAssertFalse(InputCompleteness.isIncomplete(complete), complete)
    }
    for incomplete in [
      "Tag.where {", #"Tag.where { $0.title.eq("a"#, "Tag.where { $0.id > 1 } &&", "Reminder.",
      "@FetchAll(\n  Reminder.where { $0.isFlagged }\n)",
      "\"\"\"\nmany lines", "DELETE FROM t -- not yet;", "CREATE TRIGGER t AFTER INSERT ON x BEGIN SELECT 1;",
    ] {
      XCTAssertTrue(InputCompleteness.isIncomplete(incomplete), incomplete)
    }
  }

  /// A table no model declares is inferred from the database, its SQL defaults included:
  /// drafts may leave those columns out.
  func testInferredModelsKeepTheirSQLDefaults() throws {
    assertInlineSnapshot(
      of: try shell(
        ".sql on",
        #".raw CREATE TABLE books (id INTEGER PRIMARY KEY, title TEXT NOT NULL DEFAULT '', isRead INTEGER NOT NULL DEFAULT 0, addedAt TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP)"#,
        ".schema Book",
        #"Book.insert { Book.Draft(title: "Dune") }.returning { ($0.title, $0.isRead) }"#), as: .lines
    ) {
      """
      CREATE TABLE books (id INTEGER PRIMARY KEY, title TEXT NOT NULL DEFAULT '', isRead INTEGER NOT NULL DEFAULT 0, addedAt TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP)
      CREATE TABLE books (id INTEGER PRIMARY KEY, title TEXT NOT NULL DEFAULT '', isRead INTEGER NOT NULL DEFAULT 0, addedAt TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP);
      @Table
      struct Book {
        let id: Int
        var title: String = ""
        var isRead: Int = 0
        var addedAt: String  // DEFAULT CURRENT_TIMESTAMP
      }
      INSERT INTO "books"
      ("id", "title", "isRead", "addedAt")
      VALUES
      (NULL, 'Dune', 0, CURRENT_TIMESTAMP)
      RETURNING "title", "isRead"
      ┌───────┬────────┐
      │ title │ isRead │
      ├───────┼────────┤
      │ Dune  │ 0      │
      └───────┴────────┘
      """
    }
  }

  func testUnknownCommandsAreNamedWithASuggestion() throws {
    assertInlineSnapshot(of: try shell(".hlep", ".frobnicate", ".schema Tgs", ".timer on", ".headers off"), as: .lines) {
      """
      error: unknown command '.hlep'; did you mean '.help'?
      error: unknown command '.frobnicate'; .help lists the commands
      error: no table or type named 'Tgs'; did you mean 'tags'?
      """
    }
  }

  func testNamedQueriesWithParameters() throws {
    assertInlineSnapshot(
      of: try shell(
        ".sql off", ".keep inList Reminder.where { $0.remindersListID.eq($1) }.select(\\.title)",
        ".list", ".run inList 3", ".run nothing"), as: .lines
    ) {
      #"""
      kept 'inList' (.run inList runs it)
      inList: Reminder.where { $0.remindersListID.eq($1) }.select(\.title)
      ┌─────────────────┐
      │ title           │
      ├─────────────────┤
      │ Plant seedlings │
      │ Order compost   │
      │ Mow the lawn    │
      └─────────────────┘
      error: no named query 'nothing'
      """#
    }
  }

  func testOnceOutputAndRead() throws {
    let file = state.appendingPathComponent("out.csv")
    let script = state.appendingPathComponent("script.quarry")
    try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
    try ".mode csv\nTag\n  .where { $0.id.lt(3) }\n  .select(\\.title)\n".write(to: script, atomically: true, encoding: .utf8)
    let shown = try shell(".once \(file.path)", "Tag.count()", ".sql off", "User.count()", ".read \(script.path)")
    assertInlineSnapshot(of: shown, as: .lines) {
      """
      ┌──────────┐
      │ count(*) │
      ├──────────┤
      │ 5        │
      └──────────┘
      title
      errand
      someday
      """
    }
    assertInlineSnapshot(of: try String(contentsOf: file, encoding: .utf8), as: .lines) {
      """
      SELECT count(*)
      FROM "tags"
      ┌──────────┐
      │ count(*) │
      ├──────────┤
      │ 5        │
      └──────────┘

      """
    }
  }

  func testResetRestoresTheFixture() throws {
    assertInlineSnapshot(of: try shell(".sql off", "Tag.delete()", "Tag.count()", ".reset", "Tag.count()"), as: .lines) {
      """
      ┌──────────┐
      │ count(*) │
      ├──────────┤
      │ 0        │
      └──────────┘
      loaded fixture 'reminders' (in memory)
      ┌──────────┐
      │ count(*) │
      ├──────────┤
      │ 5        │
      └──────────┘
      """
    }
  }

  func testWrapOnRequestFitsTheTerminalWidth() throws {
    let output = OutputStream.capturing()
    let shell = Shell(
      session: try Session.fixture("reminders"), output: output, terminal: Terminal(width: 40, height: 100, isInteractive: true))
    shell.handle(".sql off")
    shell.handle(".wrap on")
    shell.handle("Reminder.where { $0.id.eq(11) }.select { ($0.title, $0.notes) }")
    shell.handle(".wrap off")
    shell.handle("Reminder.where { $0.id.eq(5) }.select { ($0.title, $0.notes) }")
    assertInlineSnapshot(of: output.text, as: .lines) {
      """
      ┌─────────────────┬───────────────────┐
      │ title           │ notes             │
      ├─────────────────┼───────────────────┤
      │ Pack travel bag │ Adapters, charger │
      │                 │ Rain jacket       │
      └─────────────────┴───────────────────┘
      1 row
      ┌──────────────────┬───────────────────┐
      │ title            │ notes             │
      ├──────────────────┼───────────────────┤
      │ Prepare quarter… │ Slides are in th… │
      └──────────────────┴───────────────────┘
      1 row

      """
    }
  }

  func testSideBySideWhenWideStackedWhenNarrow() {
    let sql = "SELECT \"tags\".\"title\"\nFROM \"tags\""
    let table = "┌─────┐\n│ a   │\n└─────┘\n"
    assertInlineSnapshot(of: ReplFormatterLayout.layout(sql: sql, results: table, width: 160), as: .lines) {
      """
      SELECT "tags"."title" │ ┌─────┐
      FROM "tags"           │ │ a   │
                            │ └─────┘

      """
    }
    assertInlineSnapshot(of: ReplFormatterLayout.layout(sql: sql, results: table, width: 30), as: .lines) {
      """
      SELECT "tags"."title"
      FROM "tags"
      ┌─────┐
      │ a   │
      └─────┘

      """
    }
  }

  func testLongSQLWrapsAfterCommasToFitBesideOrAboveTheResults() {
    let sql =
      #"SELECT "reminders"."id", "reminders"."title", "reminders"."notes", 'a, b' AS "x, y", "reminders"."priority""#
      + "\nFROM \"reminders\""
    let table = "┌─────┐\n│ a   │\n└─────┘\n"
    assertInlineSnapshot(of: ReplFormatterLayout.layout(sql: sql, results: table, width: 45), as: .lines) {
      """
      SELECT "reminders"."id", "reminders"."title",
        "reminders"."notes", 'a, b' AS "x, y",
        "reminders"."priority"
      FROM "reminders"
      ┌─────┐
      │ a   │
      └─────┘

      """
    }
    assertInlineSnapshot(of: ReplFormatterLayout.layout(sql: sql, results: table, width: 100), as: .lines) {
      """
      SELECT "reminders"."id", "reminders"."title", "reminders"."notes", 'a, b' AS "x, y", │ ┌─────┐
        "reminders"."priority"                                                             │ │ a   │
      FROM "reminders"                                                                     │ └─────┘

      """
    }
  }

  func testCompletion() throws {
    let session = try Session.fixture("reminders")
    let completer = Completer(catalog: session.catalog, metaCommands: Shell(session: session).commandNames)
    XCTAssertEqual(completer.completions(for: "Reminder.where { $0.ti"), ["title"])
    XCTAssertEqual(completer.completions(for: "Reminder.join(User.all) { $0.assignedUserID.eq($1.na"), ["name"])
    XCTAssertEqual(completer.completions(for: "Reminder.wh"), ["where"])
    XCTAssertEqual(completer.completions(for: "Remi"), ["Reminder", "ReminderTag", "RemindersList"])
    XCTAssertEqual(completer.completions(for: ".sch"), ["schema "])
    _ = try Compiler(catalog: session.catalog).compile(
      "let flagged = Reminder.where(\\.isFlagged)\nfunc titled(_ t: String) -> Where<Tag> { Tag.where { $0.title.eq(t) } }")
    XCTAssertEqual(completer.completions(for: "fla"), ["flagged"])
    XCTAssertEqual(completer.completions(for: "tit"), ["titled"])
    XCTAssertEqual(completer.completions(for: "Reminder.inc"), ["incomplete"])
    XCTAssertEqual(completer.completions(for: "Priority.h"), ["high"])
    XCTAssertEqual(completer.completions(for: #"Reminder.order(by: \.ti"#), ["title"])
    XCTAssertEqual(
      completer.completions(for: #"Reminder.join(User.all) { $0.assignedUserID.eq($1.id) }.order(by: \.is"#),
      ["isCompleted", "isFlagged", "isHighPriority"])
  }

  /// A long pasted declaration is one input however its lines look (comments with braces, raw
  /// strings); the splitter reads it line by line without scanning it again for each line.
  func testALongDeclarationIsOneInput() {
    let fields = (0..<3_000).map { "  var c\($0): String = #\"(\"# // {" }.joined(separator: "\n")
    let script = "@Table struct Big {\n  let id: Int\n" + fields + "\n}\nBig.limit(0)\n"
    let inputs = ScriptSplitter.inputs(of: script, isMetaCommand: { _ in false })
    XCTAssertEqual(inputs.count, 2)
    XCTAssertEqual(inputs.last?.text, "Big.limit(0)")
    XCTAssertEqual(inputs.last?.line, 3_004)
  }

  /// Completion reads the whole input (continuation lines, bound queries), meta-command
  /// arguments and plain SQL, and keeps the exact match among the candidates.
  func testCompletionEverywhere() throws {
    let session = try Session.fixture("reminders")
    let shell = Shell(session: session)
    var completer = Completer(catalog: session.catalog, metaCommands: shell.commandNames)
    completer.argumentCandidates = shell.argumentCandidates
    XCTAssertEqual(completer.completions(for: "  $0.ti", context: "Reminder.where {"), ["title"])
    _ = try Compiler(catalog: session.catalog).compile("let q = Tag.order(by: \\.title)")
    XCTAssertEqual(completer.completions(for: "q.where { $0.ti"), ["title"])
    XCTAssertEqual(completer.completions(for: ".mode "), ["box", "csv", "json", "line", "markdown", "swift", "table"])
    XCTAssertEqual(completer.completions(for: ".mode b"), ["box"])
    // `.help m`: each name once, meta-commands (`mode`, `maxrows`) among the DSL's methods.
    XCTAssertEqual(completer.completions(for: ".help ma"), ["map", "match", "max", "maxrows"])
    XCTAssertTrue(completer.completions(for: ".help m").contains("mode"))
    XCTAssertEqual(completer.completions(for: ".timer o"), ["off", "on"])
    XCTAssertEqual(completer.completions(for: ".fixture s"), ["shop"])
    XCTAssertEqual(completer.completions(for: ".schema Ta"), ["Tag"])
    // Where a usage line names a TABLE: the database's tables, never Swift type names.
    XCTAssertEqual(completer.completions(for: ".indexes rem"), ["reminders", "remindersLists", "remindersTags"])
    XCTAssertEqual(completer.completions(for: ".dump tags t"), ["tags"])
    XCTAssertEqual(completer.completions(for: ".import data.csv ta"), ["tags"])
    XCTAssertFalse(completer.completions(for: ".dump ").contains("Reminder"))
    // A column offers what type-checks on it: no fetchAll or execute, no JSON paths on a String.
    let onTitle = completer.completions(for: "  $0.title.", context: "Reminder.where {")
    XCTAssertTrue(onTitle.contains("lower") && onTitle.contains("eq"), "\(onTitle)")
    XCTAssertFalse(onTitle.contains("fetchAll") || onTitle.contains("execute") || onTitle.contains("jsonExtract"), "\(onTitle)")
    XCTAssertEqual(completer.completions(for: ".mo"), ["mode "])
    XCTAssertEqual(completer.completions(for: "Reminder"), ["Reminder", "ReminderTag", "RemindersList"])
    XCTAssertEqual(completer.completions(for: "SELECT ti"), ["title"])
    // After FROM and JOIN: tables; after an alias's dot: that table's columns.
    XCTAssertEqual(completer.completions(for: "SELECT * FROM remindersL"), ["remindersLists"])
    XCTAssertEqual(completer.completions(for: "SELECT l.t"), [])
    let joined = "SELECT * FROM reminders AS r JOIN remindersLists l ON l."
    XCTAssertEqual(completer.completions(for: joined), ["color", "id", "position", "title"])
    XCTAssertEqual(completer.completions(for: "SELECT * FROM reminders r JOIN remindersLists l ON r.remindersListID = l.i"), ["id"])
    XCTAssertEqual(completer.completions(for: "SELECT * FROM reminders WHERE isF"), ["isFlagged"])
    XCTAssertEqual(completer.completions(for: "SELECT * FROM tags WHERE ti"), ["title"])
  }

  func testFileCompletionReplacesTheNameAfterTheLastSlash() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-files-\(UUID())")
    try FileManager.default.createDirectory(at: folder.appendingPathComponent("inner"), withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    for name in ["data.sqlite", "data.csv"] {
      FileManager.default.createFile(atPath: folder.appendingPathComponent(name).path, contents: nil)
    }
    let session = try Session.fixture("reminders")
    let completer = Completer(catalog: session.catalog, metaCommands: [])
    let line = ".open \(folder.path)/data."
    XCTAssertEqual(completer.completions(for: line), ["data.csv", "data.sqlite"])
    XCTAssertEqual(Completer.replacedText(line), "data.")
    XCTAssertEqual(completer.completions(for: ".read \(folder.path)/in"), ["inner/"])
    XCTAssertEqual(Completer.replacedText("Reminder.where { $0.ti"), "ti")
    // `~/` is the home folder; `.import`'s first argument is a file.
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-home-\(UUID())")
    try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: home) }
    FileManager.default.createFile(atPath: home.appendingPathComponent("tags.csv").path, contents: nil)
    let savedHome = ProcessInfo.processInfo.environment["HOME"]
    setenv("HOME", home.path, 1)
    defer { if let savedHome { setenv("HOME", savedHome, 1) } }
    XCTAssertEqual(completer.completions(for: ".import ~/ta"), ["tags.csv"])
    XCTAssertEqual(Completer.replacedText(".import ~/ta"), "ta")
    XCTAssertEqual(completer.completions(for: ".open ~/"), ["tags.csv"])
  }
}
