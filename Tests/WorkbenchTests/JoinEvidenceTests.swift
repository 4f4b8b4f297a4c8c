import QuarryEngine
import XCTest

@testable import Workbench

/// A join is read off the plan SQLite makes: loops nested in one query, each named by its table.
/// A subquery that reads a table (correlated or not) joins nothing; an alias, a quoted alias and
/// a CTE read twice are resolved to what they name.
final class JoinEvidenceTests: XCTestCase {
  func testJoinsAreTheLoopsOfOneQueryByTable() throws {
    let database = try Database(path: ":memory:")
    try database.execute(
      """
      CREATE TABLE employees (id INTEGER PRIMARY KEY, name TEXT, managerID INTEGER, departmentID INTEGER);
      CREATE TABLE departments (id INTEGER PRIMARY KEY, name TEXT);
      """)
    func joins(_ sql: String) -> [[String]] {
      let plan = (try? database.rows("EXPLAIN QUERY PLAN " + sql)) ?? []
      return AnswerEvidence.joins(in: plan, of: sql, database: database).map { $0.sorted() }
    }
    XCTAssertEqual(joins("SELECT e.name, m.name FROM employees e JOIN employees m ON m.id = e.managerID"), [["employees", "employees"]])
    XCTAssertEqual(
      joins(#"SELECT "employees"."name" FROM "employees" JOIN "employees" AS "managers" ON "employees"."managerID" = "managers"."id""#),
      [["employees", "employees"]])
    XCTAssertEqual(
      joins("SELECT e.name, d.name FROM employees AS e, departments AS d WHERE d.id = e.departmentID"), [["departments", "employees"]])
    XCTAssertEqual(joins("SELECT e.name, (SELECT name FROM employees WHERE id = e.managerID) FROM employees e"), [])
    XCTAssertEqual(joins("SELECT name FROM employees WHERE departmentID IN (SELECT id FROM departments)"), [])
    XCTAssertEqual(joins("SELECT name FROM employees e WHERE EXISTS (SELECT 1 FROM employees x WHERE x.managerID = e.id)"), [])
    XCTAssertEqual(joins("SELECT name FROM employees UNION SELECT name FROM departments"), [])
    XCTAssertEqual(
      joins(
        "WITH c AS (SELECT * FROM employees) SELECT a.name, b.name FROM c AS a JOIN c AS b ON a.managerID = b.managerID AND a.id < b.id"),
      [["c", "c"]])
  }

  /// A view is read where a statement names it as a table, not where a subquery or a common
  /// table takes its name.
  func testAViewIsReadWhereItIsNamedAsATable() {
    let views: Set<String> = ["orderlines"]
    XCTAssertTrue(AnswerEvidence.readsView("SELECT product FROM orderLines WHERE orderID = 2", views: views))
    XCTAssertTrue(
      AnswerEvidence.readsView("SELECT o.product FROM orders JOIN main.\"orderLines\" AS o ON o.orderID = orders.id", views: views))
    XCTAssertTrue(AnswerEvidence.readsView("SELECT (SELECT count(*) FROM orders, orderLines)", views: views))
    XCTAssertFalse(AnswerEvidence.readsView("SELECT product FROM (SELECT * FROM orderItems) AS orderLines", views: views))
    XCTAssertFalse(AnswerEvidence.readsView("SELECT product FROM (SELECT * FROM orderItems) orderLines", views: views))
    XCTAssertFalse(AnswerEvidence.readsView("WITH orderLines AS (SELECT * FROM orderItems) SELECT * FROM orderLines", views: views))
    XCTAssertFalse(AnswerEvidence.readsView("WITH x AS (SELECT 1), orderLines(id) AS (SELECT 2) SELECT * FROM orderLines", views: views))
  }
}
