import Foundation
import XCTest

/// Input runs only where it was asked to: the lesson checker runs an answer on in-memory copies
/// and never reaches a file, `--safe` keeps a session to its own database, and output is never
/// written over the database a session has open (read-only or not).
final class SandboxTests: XCTestCase {
  private var directory: URL!

  override func setUpWithError() throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "quarry-sandbox-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(at: directory)
  }

  /// A database file with two rows in `reminders`, and its bytes.
  private func victim() throws -> (path: String, bytes: Data) {
    let path = directory.appendingPathComponent("victim.db").path
    _ = try QuarryProcess.run(
      [path],
      stdin:
        "CREATE TABLE reminders (id INTEGER PRIMARY KEY, title TEXT);\nINSERT INTO reminders (title) VALUES ('a'), ('b');\n"
    )
    return (path, try Data(contentsOf: URL(fileURLWithPath: path)))
  }

  func testTheCheckerRefusesWhatReachesOutsideItsCopies() throws {
    let (path, before) = try victim()
    let copy = directory.appendingPathComponent("copy.db").path
    for answer in [
      "ATTACH '\(path)' AS v; DELETE FROM v.reminders; SELECT title FROM remindersLists;",
      "VACUUM INTO '\(copy)'; SELECT title FROM remindersLists;",
      "PRAGMA writable_schema = 1; SELECT title FROM remindersLists;",
      "try #sql(\"ATTACH '\(path)' AS v\").execute(db)",
    ] {
      let result = try QuarryProcess.run(["lessons", "--check", "1.1", "--", answer])
      XCTAssertNotEqual(result.status, 0, answer)
      XCTAssertTrue(result.stdout.contains("✗ 1.1"), result.stdout)
      XCTAssertTrue(
        result.stdout.contains(
          "the checker runs each answer on in-memory copies of the fixture and never touches a file"
        ), result.stdout)
    }
    XCTAssertEqual(
      try Data(contentsOf: URL(fileURLWithPath: path)), before, "the checker changed a file")
    XCTAssertFalse(FileManager.default.fileExists(atPath: copy), "VACUUM INTO wrote a file")
  }

  func testSafeModeKeepsTheSessionToItsDatabase() throws {
    let (path, before) = try victim()
    let copy = directory.appendingPathComponent("copy.db").path
    let out = directory.appendingPathComponent("out.txt").path
    let result = try QuarryProcess.run([
      "--safe", "-e", "ATTACH '\(path)' AS v", "-e", "VACUUM INTO '\(copy)'", "-e",
      ".output \(out)", "-e", ".read \(path)",
      "-e", ".save \(copy)", "-e", ".import \(path) t", "-e", ".open \(path)", "-e", "Tag.count()",
    ])
    XCTAssertTrue(
      result.stderr.contains(
        "not authorized: ATTACH '\(path)' (or VACUUM INTO it) reaches a database file outside this one (--safe keeps SQL to the session's own database)"
      ), result.stderr)
    XCTAssertTrue(result.stderr.contains("authorization denied: ATTACH '\(copy)'"), result.stderr)
    for command in [".output", ".read", ".save", ".import", ".open"] {
      XCTAssertTrue(
        result.stderr.contains("\(command) is refused in --safe mode: it reaches the file system"),
        command + "\n" + result.stderr)
    }
    XCTAssertTrue(result.stdout.contains("│ 5        │"), "the session goes on: " + result.stdout)
    XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before)
    for file in [copy, out] { XCTAssertFalse(FileManager.default.fileExists(atPath: file), file) }
  }

  /// `.output ro.db` with `ro.db` open used to truncate it to the query's text, `--readonly` or
  /// not; a link to it is the same file.
  func testOutputIsNeverWrittenOverTheOpenDatabase() throws {
    let (path, before) = try victim()
    let link = directory.appendingPathComponent("link.db").path
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: path)
    for arguments in [[path, "--readonly"], [path]] {
      let result = try QuarryProcess.run(
        arguments + [
          "-e", ".output \(path)", "-e", ".once \(link)", "-e", ".save \(path)", "-e",
          "SELECT count(*) AS n FROM reminders",
        ])
      XCTAssertTrue(
        result.stderr.contains(
          "refused: .output '\(path)' would overwrite the database '\(path)', which this session has open"
        ), result.stderr)
      XCTAssertTrue(
        result.stderr.contains("refused: .once '\(link)' would overwrite the database '\(path)'"),
        result.stderr)
      XCTAssertTrue(
        result.stderr.contains("refused: .save '\(path)' would write over the database '\(path)'"),
        result.stderr)
      XCTAssertTrue(result.stdout.contains("│ 2 │"), result.stdout)
      XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before)
    }
  }
}
