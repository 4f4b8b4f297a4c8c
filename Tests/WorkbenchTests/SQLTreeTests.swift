import QuarryEngine
import XCTest

@testable import Workbench

/// SQL read into a tree with SQLite's precedence, and two spellings of one statement read as
/// one normal tree.
final class SQLTreeTests: XCTestCase {
  func whereClause(_ sql: String) throws -> SQLExpr? {
    guard case .select(let select) = try SQLTreeParser.parse(sql) else { return nil }
    return select.whereClause
  }

  func testPrecedenceIsSQLites() throws {
    let x = SQLExpr.column(table: nil, name: "x")
    let y = SQLExpr.column(table: nil, name: "y")
    // AND binds tighter than OR; * than +; NOT takes the comparison after it.
    XCTAssertEqual(
      try whereClause("SELECT * FROM t WHERE x = 1 OR y < 2 + 3 * 4 AND NOT x"),
      .binary(
        "OR", .binary("=", x, .integer("1")),
        .binary(
          "AND", .binary("<", y, .binary("+", .integer("2"), .binary("*", .integer("3"), .integer("4")))),
          .unary("NOT", x))))
    // BETWEEN's AND is its own; `||` binds tighter than `=`.
    XCTAssertEqual(
      try whereClause("SELECT * FROM t WHERE x BETWEEN 1 AND 2 AND y || 'a' = 'ba'"),
      .binary("AND", .between(x, .integer("1"), .integer("2"), negated: false), .binary("=", .binary("||", y, .text("a")), .text("ba"))))
    XCTAssertEqual(
      try whereClause("SELECT * FROM t WHERE x NOT LIKE 'a%' ESCAPE '!'"),
      .match(operator: "LIKE", x, .text("a%"), escape: .text("!"), negated: true))
    XCTAssertEqual(
      try whereClause("SELECT * FROM t WHERE x IS NOT NULL AND y ISNULL"),
      .binary("AND", .binary("IS NOT", x, .null), .binary("IS", y, .null)))
    XCTAssertEqual(try whereClause("SELECT * FROM t WHERE x = -3"), .binary("=", x, .integer("-3")))
    // Parameters by the numbers SQLite gives them: `?` the next, `?N` N, a name its first number.
    XCTAssertEqual(
      try whereClause("SELECT * FROM t WHERE x = ? AND y = :name AND x > ?5 AND y < :name AND x <> ?"),
      .binary(
        "AND",
        .binary(
          "AND",
          .binary(
            "AND", .binary("AND", .binary("=", x, .parameter(index: 0, name: nil)), .binary("=", y, .parameter(index: 1, name: "name"))),
            .binary(">", x, .parameter(index: 4, name: nil))), .binary("<", y, .parameter(index: 1, name: "name"))),
        .binary("<>", x, .parameter(index: 5, name: nil))))
    XCTAssertThrowsError(try SQLTreeParser.parse("SELECT 1; SELECT 2")) { error in
      XCTAssertEqual((error as? SQLTreeError)?.offset, 10)
    }
  }

  func testTwoSpellingsOfOneStatementReadAsOneTree() throws {
    let session = try Session.fixture("reminders")
    var normal = SQLTreeNormal(catalog: session.catalog)
    for table in try session.database.schema().tables {
      normal.tableColumns[table.name.lowercased()] = table.columns.map { $0.name.lowercased() }
    }
    func same(_ a: String, _ b: String) throws -> Bool {
      normal.normal(try SQLTreeParser.parse(a)) == normal.normal(try SQLTreeParser.parse(b))
    }
    XCTAssertTrue(
      try same(
        "SELECT r.title FROM reminders AS r WHERE 2 <= r.priority ORDER BY 1",
        #"SELECT "reminders"."title" FROM "reminders" WHERE ("reminders"."priority" >= 2) ORDER BY "reminders"."title""#))
    XCTAssertTrue(try same("SELECT * FROM tags", #"SELECT "tags"."id", "tags"."title" FROM "tags""#))
    XCTAssertTrue(try same("SELECT id FROM reminders WHERE id NOT IN (1, 2)", "SELECT id FROM reminders WHERE NOT (id IN (1.0, 2))"))
    // A text column compares text: 1 and 1.0 are other values there.
    XCTAssertFalse(try same("SELECT id FROM tags WHERE title = 1", "SELECT id FROM tags WHERE title = 1.0"))
    // A self-join keeps its two copies apart.
    XCTAssertFalse(
      try same(
        "SELECT a.title FROM reminders a JOIN reminders b ON a.id = b.id", "SELECT b.title FROM reminders a JOIN reminders b ON a.id = b.id"
      ))
    // `IN ((SELECT …))` is a list of one scalar subquery, not `IN (SELECT …)`.
    XCTAssertFalse(
      try same("SELECT id FROM tags WHERE id IN (SELECT id FROM tags)", "SELECT id FROM tags WHERE id IN ((SELECT id FROM tags))"))
  }
}
