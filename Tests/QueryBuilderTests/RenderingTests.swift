import QueryBuilder
import XCTest

final class RenderingTests: XCTestCase {
  let reminders = TableReference("reminders", columns: ["id", "title", "isCompleted"])

  func testSelectAllColumnsWithWhereAndOrder() {
    var select = Select(from: reminders)
    select.wheres = [Expression.column("reminders", "isCompleted").not()]
    select.orders = [Ordering(.column("reminders", "title"), direction: .descending, nulls: .last)]
    select.limit = .value(.integer(10))
    select.offset = .value(.integer(5))
    let fragment = select.fragment
    XCTAssertEqual(
      fragment.sql(inlining: true),
      """
      SELECT "reminders"."id", "reminders"."title", "reminders"."isCompleted"
      FROM "reminders"
      WHERE (NOT ("reminders"."isCompleted"))
      ORDER BY "reminders"."title" DESC NULLS LAST
      LIMIT 10 OFFSET 5
      """)
    XCTAssertEqual(fragment.bindings, [.integer(10), .integer(5)])
    XCTAssertTrue(fragment.sql(inlining: false).hasSuffix("LIMIT ? OFFSET ?"))
  }

  /// Outside its tests StructuredQueries writes a statement on one line: no breaks, no indents
  /// around a subquery; a nil value is the keyword NULL, never a bound parameter.
  func testCompactLayoutIsTheSQLAnAppPrepares() {
    var inner = Select(from: reminders)
    inner.columns = [ResultColumn(.column("reminders", "id"))]
    inner.wheres = [Expression.column("reminders", "title").binary(.equal, .value(.text("x")))]
    var outer = Select(from: reminders)
    outer.wheres = [Expression.column("reminders", "id").binary(.in, Expression(.statement(.select(inner))))]
    outer.wheres.append(Expression(.exists(.select(inner))))
    outer.orders = [Ordering(.column("reminders", "title"))]
    let compact = QueryLayout.$current.withValue(.compact) { Statement.select(outer).fragment.sql(inlining: false) }
    XCTAssertEqual(
      compact,
      """
      SELECT "reminders"."id", "reminders"."title", "reminders"."isCompleted" FROM "reminders" \
      WHERE (("reminders"."id") IN (SELECT "reminders"."id" FROM "reminders" WHERE (("reminders"."title") = (?)))) \
      AND (EXISTS (SELECT "reminders"."id" FROM "reminders" WHERE (("reminders"."title") = (?)))) \
      ORDER BY "reminders"."title"
      """)
    XCTAssertEqual(
      Expression.column("reminders", "title").binary(.equal, .null).fragment.sql(inlining: false), #"("reminders"."title") = (NULL)"#)
  }

  func testValuesAreBoundNotSplicedWhenExecuted() {
    let predicate = Expression.column("reminders", "title").binary(.equal, .value(.text("it's'; DROP TABLE x; --")))
    XCTAssertEqual(predicate.fragment.sql(inlining: false), #"("reminders"."title") = (?)"#)
    XCTAssertEqual(predicate.fragment.sql(inlining: true), #"("reminders"."title") = ('it''s''; DROP TABLE x; --')"#)
  }

  func testJoinsAliasesAndAggregates() {
    var select = Select(from: TableReference("reminders", alias: "r1s", columns: ["id"]))
    select.joins = [
      Join(
        .left, TableReference("reminders", alias: "r2s", columns: ["id"]),
        on: Expression.column("r1s", "id").binary(.equal, .column("r2s", "id")))
    ]
    select.columns = [
      ResultColumn(
        Expression(
          .aggregate(
            Aggregate(
              name: "count", arguments: [.column("r2s", "id")], distinct: true,
              filter: Expression.column("r2s", "id").binary(.greaterThan, .value(.integer(1)))))))
    ]
    select.groups = [.column("r1s", "id")]
    XCTAssertEqual(
      select.fragment.sql(inlining: true),
      """
      SELECT count(DISTINCT "r2s"."id") FILTER (WHERE ("r2s"."id") > (1))
      FROM "reminders" AS "r1s"
      LEFT JOIN "reminders" AS "r2s" ON ("r1s"."id") = ("r2s"."id")
      GROUP BY "r1s"."id"
      """)
  }

  func testSubqueriesInListsAndScalars() {
    var inner = Select(from: TableReference("tags", columns: ["id"]))
    inner.columns = [ResultColumn(.function("max", [.column("tags", "id")]))]
    let scalar = Expression.function("coalesce", [Expression(.subquery(.select(inner))), .value(.integer(0))])
    XCTAssertEqual(
      scalar.fragment.sql(inlining: true),
      "coalesce((\n  SELECT max(\"tags\".\"id\")\n  FROM \"tags\"\n), 0)")
    let list = Expression.column("t", "id").binary(.in, Expression(.list([.value(.integer(1)), .value(.integer(2))])))
    XCTAssertEqual(list.fragment.sql(inlining: true), #"("t"."id") IN ((1), (2))"#)
  }

  func testNoneRendersNothing() {
    var select = Select(from: reminders)
    select.isEmpty = true
    XCTAssertTrue(select.fragment.isEmpty)
  }

  func testQuotingOfIdentifiersAndText() {
    XCTAssertEqual(quoteIdentifier(#"we"ird"#), #""we""ird""#)
    XCTAssertEqual(QueryBinding.blob([0xde, 0xad]).inlineSQL, "X'DEAD'")
    XCTAssertEqual(QueryBinding.double(10).inlineSQL, "10.0")
  }

  func testOperatorsAreAClosedSetWithTheirSQLSpelling() {
    XCTAssertEqual(BinaryOperator(swift: "&&"), .and)
    XCTAssertEqual(BinaryOperator(swift: "=="), .equal)
    XCTAssertEqual(BinaryOperator(swift: "<="), .lessThanOrEqual)
    XCTAssertNil(BinaryOperator(swift: "??"))
    XCTAssertEqual(
      Expression.column("reminders", "id").binary(.equal, .value(.integer(1))).fragment.sql(inlining: true),
      #"("reminders"."id") = (1)"#)
    XCTAssertEqual(
      Expression.column("reminders", "isCompleted").not().fragment.sql(inlining: true),
      #"NOT ("reminders"."isCompleted")"#)
    XCTAssertEqual(Expression.column("t", "n").unary(.negate).fragment.sql(inlining: true), #"-("t"."n")"#)
  }

  func testRequalifyingMovesColumnsToTheNewNameAndRefusesSubqueries() {
    let moved = Expression.column("r1s", "id").binary(.in, Expression(.list([.value(.integer(1))])))
      .requalified(from: "r1s", to: "r2s")
    XCTAssertEqual(moved?.fragment.sql(inlining: true), #"("r2s"."id") IN ((1))"#)
    XCTAssertNil(Expression(.raw("random()")).requalified(from: "a", to: "b"))
  }
}
