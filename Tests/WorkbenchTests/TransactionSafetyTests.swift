import Foundation
import QuarryEngine
import Workbench
import XCTest

/// An input's changes are saved or undone as a whole, and the user hears which: a commit that
/// another connection blocks is an error (never "done"), and an input that fails part-way says
/// how many rows it undid.
final class TransactionSafetyTests: XCTestCase {
  /// The database files the test made, removed when it ends.
  private var made: [String] = []

  override func tearDown() {
    for path in made {
      for suffix in ["", "-journal", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }
    made = []
  }

  private func temporaryDatabase() throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-lock-\(UUID()).db").path
    made.append(path)
    let setUp = try Database(path: path)
    try setUp.execute("CREATE TABLE t (x INTEGER PRIMARY KEY)")
    try setUp.execute("INSERT INTO t VALUES (1)")
    return path
  }

  private func run(_ session: Session, _ input: String) -> (ok: Bool, text: String) {
    let output = OutputStream.capturing()
    let sink = OutputFormat.box.sink(output: output, session: session, errors: output)
    let ok = input.hasPrefix("INSERT") || input.hasPrefix("PRAGMA") ? session.runSQL(input, sink: sink) : session.run(input, sink: sink)
    return (ok, output.text)
  }

  func testACommitAnotherConnectionBlocksIsAnErrorAndNothingStays() throws {
    let path = try temporaryDatabase()
    let reader = try Database(path: path)
    try reader.execute("BEGIN")
    _ = try reader.rows("SELECT count(*) FROM t")
    let session = try Session(database: try Database(path: path))
    session.database.setBusyTimeout(milliseconds: 50)
    let result = run(session, "INSERT INTO t VALUES (2); INSERT INTO t VALUES (3);")
    XCTAssertFalse(result.ok)
    XCTAssertTrue(
      result.text.contains(
        "the changes were not saved: another connection holds the database (waited 50 ms; .timeout MS waits longer); this input's changes (2 rows) were undone"
      ), result.text)
    // The session is not left inside a transaction nobody opened.
    XCTAssertFalse(session.database.isInTransaction)
    try reader.execute("COMMIT")
    XCTAssertEqual(try Database(path: path).rows("SELECT count(*) FROM t"), [[.integer(1)]])
    // Once the reader is gone, the same input is saved.
    XCTAssertTrue(run(session, "INSERT INTO t VALUES (2);").ok)
    XCTAssertEqual(try Database(path: path).rows("SELECT count(*) FROM t"), [[.integer(2)]])
  }

  func testAnInputThatFailsPartWaySaysWhatItUndid() throws {
    let session = try Session(database: try Database(path: try temporaryDatabase()))
    let result = run(session, "INSERT INTO t VALUES (5); INSERT INTO t VALUES (1);")
    XCTAssertFalse(result.ok)
    XCTAssertTrue(result.text.contains("UNIQUE constraint failed: t.x"), result.text)
    XCTAssertTrue(result.text.contains("this input's changes were undone (1 row); the database is as it was before it"), result.text)
    XCTAssertEqual(try session.database.rows("SELECT count(*) FROM t"), [[.integer(1)]])
  }

  func testADSLInputThatFailsPartWaySaysWhatItUndid() throws {
    let session = try Session.fixture("reminders")
    let result = run(
      session,
      """
      Tag.insert { Tag.Draft(title: "new") }
      Tag.insert { Tag(id: 1, title: "taken") }
      """)
    XCTAssertFalse(result.ok)
    XCTAssertTrue(result.text.contains("this input's changes were undone (1 row); the database is as it was before it"), result.text)
    XCTAssertEqual(try session.database.rows("SELECT count(*) FROM tags"), [[.integer(5)]])
  }

  // MARK: Migrations and write blocks

  private static let migrations = """
    var migrator = DatabaseMigrator()
    migrator.registerMigration("Create") { db in
      try #sql("CREATE TABLE projects (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE)").execute(db)
      try Project.insert { Project.Draft(name: "Seed") }.execute(db)
    }
    migrator.registerMigration("Seed") { db in
      try Project.insert { Project.Draft(name: "A") }.execute(db)
      try Project.insert { Project.Draft(name: "A") }.execute(db)
    }
    migrator.registerMigration("Later") { db in
      try Project.insert { Project.Draft(name: "B") }.execute(db)
    }
    @Table struct Project { let id: Int; var name = "" }
    """

  /// Each migration of a models file runs in its own transaction, as GRDB runs it: the one that
  /// fails is rolled back whole and named, the migrator stops there, and a model declared after
  /// the migrations is known inside them.
  func testAFailingMigrationIsRolledBackWholeAndTheMigratorStops() throws {
    let session = try Session(database: try Database(path: ":memory:"))
    let messages = try session.loadModels(Self.migrations, path: "Schema.swift")
    XCTAssertEqual(
      messages,
      [
        "error: Schema.swift:8:3: SQLite error 2067: UNIQUE constraint failed: projects.name",
        "error: Schema.swift:6:1: migration 'Seed' was rolled back (1 row undone); none of its changes stay",
        "note: Schema.swift:10:1: migration 'Later' did not run: migration 'Seed' failed, and the migrator stops there",
      ])
    XCTAssertEqual(try session.database.rows("SELECT name FROM projects ORDER BY id"), [[.text("Seed")]])
  }

  /// At the prompt the whole input is one transaction; the note names the unit that failed.
  func testAWriteBlockOfWithLedRawWritesIsAtomic() throws {
    let path = try temporaryDatabase()
    let session = try Session(database: try Database(path: path))
    let result = run(
      session,
      """
      try database.write { db in
        try #sql("WITH v(x) AS (SELECT 7) INSERT INTO t (x) SELECT x FROM v").execute(db)
        try #sql("WITH v(x) AS (SELECT 1) INSERT INTO t (x) SELECT x FROM v").execute(db)
      }
      """)
    XCTAssertFalse(result.ok)
    XCTAssertTrue(
      result.text.contains("the write block at 1:5 failed: it runs in one transaction, so none of its changes stay"), result.text)
    XCTAssertTrue(result.text.contains("this input's changes were undone (1 row)"), result.text)
    XCTAssertEqual(try Database(path: path).rows("SELECT x FROM t"), [[.integer(1)]])
  }

  /// A `throw` in a write block rolls back that block alone, as GRDB does; a `do … catch`
  /// around it goes on with its `catch`, and an uncaught one stops the rest of the input.
  func testAWriteBlockThatThrowsIsRolledBackAlone() throws {
    let path = try temporaryDatabase()
    let session = try Session(database: try Database(path: path))
    let caught = run(
      session,
      """
      try database.write { db in try #sql("INSERT INTO t (x) VALUES (5)").execute(db) }
      do {
        try database.write { db in
          try #sql("INSERT INTO t (x) VALUES (6)").execute(db)
          throw CancellationError()
          try #sql("INSERT INTO t (x) VALUES (7)").execute(db)
        }
      } catch {
        try database.write { db in try #sql("INSERT INTO t (x) VALUES (8)").execute(db) }
      }
      """)
    XCTAssertTrue(caught.ok, caught.text)
    XCTAssertTrue(
      caught.text.contains(
        "the write block at 3:7 threw CancellationError() at 5:5: its transaction is rolled back, so none of its changes stay"), caught.text
    )
    XCTAssertEqual(try Database(path: path).rows("SELECT x FROM t ORDER BY x"), [[.integer(1)], [.integer(5)], [.integer(8)]])

    let uncaught = run(
      session,
      """
      try database.write { db in
        try #sql("INSERT INTO t (x) VALUES (9)").execute(db)
        throw CancellationError()
      }
      try database.write { db in try #sql("INSERT INTO t (x) VALUES (10)").execute(db) }
      """)
    XCTAssertFalse(uncaught.ok)
    XCTAssertTrue(
      uncaught.text.contains("error: 3:3: uncaught error: CancellationError() thrown here; the rest of the input does not run"),
      uncaught.text)
    XCTAssertEqual(try Database(path: path).rows("SELECT x FROM t ORDER BY x"), [[.integer(1)], [.integer(5)], [.integer(8)]])
    XCTAssertEqual(try session.database.rows("SELECT count(*) FROM t"), [[.integer(3)]], "no transaction left open")
    XCTAssertFalse(session.database.isInTransaction)
  }

  /// A pragma that writes the file is undone with the input; one that sets the connection is set
  /// back, and the note says to what.
  func testPragmasOfAFailedInputAreUndone() throws {
    let session = try Session(database: try Database(path: try temporaryDatabase()))
    XCTAssertFalse(run(session, "INSERT INTO t VALUES (9); PRAGMA user_version = 8; INSERT INTO t VALUES (1);").ok)
    XCTAssertFalse(run(session, "PRAGMA user_version = 8; INSERT INTO t VALUES (1);").ok)
    XCTAssertEqual(try session.database.rows("PRAGMA user_version"), [[.integer(0)]])
    let result = run(session, "INSERT INTO t VALUES (1); PRAGMA recursive_triggers = ON;")
    XCTAssertFalse(result.ok)
    XCTAssertEqual(try session.database.rows("PRAGMA recursive_triggers"), [[.integer(0)]])
    let fails = OutputStream.capturing()
    XCTAssertFalse(
      session.runSQL(
        "PRAGMA recursive_triggers = ON; SELECT nosuch;", sink: OutputFormat.box.sink(output: fails, session: session, errors: fails)))
    XCTAssertTrue(fails.text.contains("set back: PRAGMA recursive_triggers = 0"), fails.text)
    XCTAssertEqual(try session.database.rows("PRAGMA recursive_triggers"), [[.integer(0)]])
    XCTAssertTrue(run(session, "PRAGMA recursive_triggers = ON; INSERT INTO t VALUES (2);").ok)
    XCTAssertEqual(try session.database.rows("PRAGMA recursive_triggers"), [[.integer(1)]])
  }

  /// A list longer than SQLite binds is refused before SQLite is asked, with the numbers and a
  /// way that works.
  func testAListOfMoreValuesThanSQLiteBindsIsRefusedWithTheWayAround() throws {
    let session = try Session.fixture("reminders")
    session.database.setVariableLimit(100)
    let ids = (1...150).map(String.init).joined(separator: ", ")
    let result = run(session, "Reminder.where { $0.id.in([\(ids)]) }.count()")
    XCTAssertFalse(result.ok)
    XCTAssertTrue(
      result.text.contains("error: 1:1: this statement binds 150 values; SQLite takes at most 100 in one statement"), result.text)
    XCTAssertTrue(result.text.contains("json_each"), result.text)
  }

  /// The new row id is shown for every insert: one equal to the last (after a delete), and one
  /// made by a WITH-led insert; `last_insert_rowid()` is left as SQLite leaves it.
  func testEveryInsertShowsItsNewRowID() throws {
    let output = OutputStream.capturing()
    let shell = Shell(
      session: try Session(database: try Database(path: try temporaryDatabase())), output: output,
      terminal: Terminal(width: 100, height: 30, isInteractive: true))
    func said(_ input: String) -> String {
      let before = output.text.count
      shell.handle(input)
      return String(output.text.dropFirst(before))
    }
    XCTAssertTrue(said("INSERT INTO t VALUES (2);").contains("1 row changed (new row id 2)"), output.text)
    _ = said("DELETE FROM t WHERE x = 2;")
    XCTAssertTrue(said("INSERT INTO t VALUES (2);").contains("1 row changed (new row id 2)"), output.text)
    XCTAssertTrue(said("INSERT INTO t SELECT 7 WHERE 0;").contains("0 rows changed"), output.text)
    XCTAssertTrue(said("SELECT last_insert_rowid() AS last;").contains("│ 2    │"), output.text)
    XCTAssertTrue(said("WITH v(x) AS (SELECT 9) INSERT INTO t SELECT x FROM v;").contains("1 row changed (new row id 9)"), output.text)
  }
}
