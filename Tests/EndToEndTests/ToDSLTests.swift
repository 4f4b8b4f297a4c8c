import Foundation
import XCTest

/// `quarry --to-dsl` and `.dsl`, through the real binary: text, JSON lines, exit statuses, the
/// models a database without declarations needs, and the line a lesson shows after an SQL answer.
final class ToDSLTests: XCTestCase {
  func testScriptsGetTheSpellingOrTheReason() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-dsl-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let database = folder.appendingPathComponent("shop.sqlite").path
    let created = try QuarryProcess.run([
      database, "-e",
      "CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, vip INTEGER NOT NULL DEFAULT 0); INSERT INTO customers (name, vip) VALUES ('Ana', 1), ('Bo', 0);",
    ])
    XCTAssertEqual(created.status, 0, created.stderr)

    let text = try QuarryProcess.run([database, "--to-dsl", "SELECT name FROM customers WHERE vip = 1 ORDER BY name"])
    XCTAssertEqual(text.status, 0, text.stderr)
    XCTAssertEqual(
      text.stdout,
      """
      @Table
      struct Customer {
        let id: Int
        var name: String
        var vip: Int = 0
      }
      Customer.where { $0.vip.eq(1) }.order(by: \\.name).select(\\.name)
      -- renders the same SQL

      """)

    let json = try QuarryProcess.run([
      database, "--format", "json", "--to-dsl", "SELECT count(*) FROM customers", "--to-dsl", "SELECT name FROM customers LIMIT",
    ])
    XCTAssertEqual(json.status, 1)
    let lines = json.stdout.split(separator: "\n").map(String.init)
    XCTAssertEqual(lines.count, 2, json.stdout)
    XCTAssertEqual(
      lines.first,
      #"{"sql":"SELECT count(*) FROM customers","dsl":"Customer.count()","models":"@Table\nstruct Customer {\n  let id: Int\n  var name: String\n  var vip: Int = 0\n}","roundTrip":"identical","error":null}"#
    )
    XCTAssertEqual(
      lines.last,
      #"{"sql":"SELECT name FROM customers LIMIT","dsl":null,"models":null,"roundTrip":null,"error":"1:33: expected an expression, at the end"}"#
    )

    // Nothing is written: the database is as it was.
    let after = try QuarryProcess.run([database, "--to-dsl", "DELETE FROM customers WHERE vip = 0", "-e", "SELECT count(*) FROM customers"])
    XCTAssertTrue(after.stdout.contains("Customer.where { $0.vip.eq(0) }.delete()\n-- renders the same SQL\n"), after.stdout)
    let count = try QuarryProcess.run([database, "--format", "csv", "-e", "SELECT count(*) FROM customers"])
    XCTAssertEqual(count.stdout, "count(*)\n2\n")
  }

  func testALessonAnsweredInSQLOffersItsSpelling() throws {
    let state = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-dsl-state-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: state) }
    let result = try QuarryProcess.run(
      [], stdin: ".lesson 1\n.next\nSELECT title FROM remindersLists;\n.check\n.dsl\n.dsl SELECT nosuch FROM remindersLists\n",
      environment: ["XDG_STATE_HOME": state.path])
    XCTAssertTrue(
      result.stdout.contains(
        "✓ Correct — on the fixture, the variant rows and generated rows. .next to go on.\n  .dsl shows your SQL spelled in the StructuredQueries DSL.\nRemindersList.select(\\.title)\n-- renders the same SQL\n"
      ), result.stdout)
    XCTAssertTrue(
      result.stderr.contains("no column 'nosuch' in the tables of FROM\nas raw SQL: #sql(\"SELECT nosuch FROM remindersLists\")"),
      result.stderr)
  }
}
