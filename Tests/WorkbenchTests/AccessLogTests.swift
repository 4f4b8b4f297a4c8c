import QuarryEngine
import XCTest

/// What SQLite's authorizer reports while statements compile: the facts lesson techniques are
/// checked on (a read through a view, a function call, a recursive CTE, a trigger's statements).
final class AccessLogTests: XCTestCase {
  func testTheAuthorizerSeesViewsFunctionsTriggersAndTransactions() throws {
    let database = try Database(path: ":memory:")
    try database.execute(
      """
      CREATE TABLE reminders (id INTEGER PRIMARY KEY, title TEXT);
      CREATE VIEW titledReminders AS SELECT id, title FROM reminders;
      CREATE TRIGGER addThrough INSTEAD OF INSERT ON titledReminders BEGIN INSERT INTO reminders (title) VALUES (new.title); END;
      """)
    let log = database.recordAccess()
    _ = try database.rows("SELECT upper(title) FROM titledReminders")
    XCTAssertTrue(log.accesses.contains { $0.action == .read && $0.object == "reminders" && $0.context == "titledReminders" })
    XCTAssertTrue(log.accesses.contains { $0.action == .function && $0.object == "upper" && $0.context == nil })
    try database.execute("INSERT INTO titledReminders (title) VALUES ('Milk')")
    XCTAssertTrue(log.accesses.contains { $0.action == .insert && $0.object == "reminders" && $0.context == "addThrough" })
    _ = try database.rows("WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 3) SELECT x FROM n")
    XCTAssertTrue(log.accesses.contains { $0.action == .recursive })
    try database.execute("BEGIN; ROLLBACK")
    XCTAssertEqual(log.accesses.filter { $0.action == .transaction }.compactMap(\.object), ["BEGIN", "ROLLBACK"])
    database.stopRecordingAccess()
    let count = log.accesses.count
    _ = try database.rows("SELECT title FROM reminders")
    XCTAssertEqual(log.accesses.count, count, "nothing is recorded once stopped")
  }

  func testAProgramShowsWindowsAndSelfJoins() throws {
    let database = try Database(path: ":memory:")
    try database.execute("CREATE TABLE employees (id INTEGER PRIMARY KEY, managerID INTEGER, salary REAL)")
    let window = try XCTUnwrap(database.program(of: "SELECT sum(salary) OVER (ORDER BY id) FROM employees"))
    XCTAssertTrue(window.opcodes.contains("AggValue"))
    let plain = try XCTUnwrap(database.program(of: "SELECT sum(salary) FROM employees"))
    XCTAssertFalse(plain.opcodes.contains("AggValue"))
    let selfJoin = try XCTUnwrap(database.program(of: "SELECT e.id FROM employees e JOIN employees m ON m.id = e.managerID"))
    XCTAssertEqual(selfJoin.openedTables, ["employees": 2])
    XCTAssertNil(database.program(of: "SELECT * FROM nowhere"))
  }
}
