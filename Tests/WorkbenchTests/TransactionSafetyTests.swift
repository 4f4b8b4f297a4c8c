import Foundation
import QuarryEngine
import Workbench
import XCTest

/// An input's changes are saved or undone as a whole, and the user hears which: a commit that
/// another connection blocks is an error (never "done"), and an input that fails part-way says
/// how many rows it undid.
final class TransactionSafetyTests: XCTestCase {
  private func temporaryDatabase() throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-lock-\(UUID()).db").path
    let setUp = try Database(path: path)
    try setUp.execute("CREATE TABLE t (x INTEGER PRIMARY KEY)")
    try setUp.execute("INSERT INTO t VALUES (1)")
    return path
  }

  private func run(_ session: Session, _ input: String) -> (ok: Bool, text: String) {
    let output = OutputStream.capturing()
    let sink = OutputFormat.box.sink(output: output, session: session, errors: output)
    let ok = input.hasPrefix("INSERT") ? session.runSQL(input, sink: sink) : session.run(input, sink: sink)
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
    XCTAssertTrue(result.text.contains("the changes were not saved: another connection holds the database (waited 50 ms; .timeout MS waits longer); this input's changes (2 rows) were undone"), result.text)
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
    let result = run(session, """
      Tag.insert { Tag.Draft(title: "new") }
      Tag.insert { Tag(id: 1, title: "taken") }
      """)
    XCTAssertFalse(result.ok)
    XCTAssertTrue(result.text.contains("this input's changes were undone (1 row); the database is as it was before it"), result.text)
    XCTAssertEqual(try session.database.rows("SELECT count(*) FROM tags"), [[.integer(5)]])
  }
}
