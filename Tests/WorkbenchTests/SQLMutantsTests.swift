import QuarryEngine
import XCTest

@testable import Workbench

/// The SQL mutation space of the dataset search: each mutant one change, written in the
/// solution's SQL; an expression written twice changes in both places; constants read off the
/// fixture; and what the checker compares fairly (JSON objects, CTEs that do the work, schema
/// objects by behaviour).
final class SQLMutantsTests: XCTestCase {
  func testEachMutantIsOneChange() {
    let mutants = SQLMutants.of([#"SELECT "name" FROM "products" WHERE ("price" < 20) AND "category" LIKE 'desk%' ORDER BY "name""#])
    let byKind = Dictionary(mutants.map { ($0.kind, $0.code) }, uniquingKeysWith: { first, _ in first })
    XCTAssertEqual(
      byKind["sql: '<' → '<='"], #"SELECT "name" FROM "products" WHERE ("price" <= 20) AND "category" LIKE 'desk%' ORDER BY "name";"#)
    XCTAssertEqual(
      byKind["sql: 20 → 21"], #"SELECT "name" FROM "products" WHERE ("price" < 21) AND "category" LIKE 'desk%' ORDER BY "name";"#)
    XCTAssertEqual(
      byKind["sql: LIKE → GLOB"], #"SELECT "name" FROM "products" WHERE ("price" < 20) AND "category" GLOB 'desk*' ORDER BY "name";"#)
    XCTAssertEqual(byKind["sql: drop a condition (AND …)"], #"SELECT "name" FROM "products" WHERE ("price" < 20)     ORDER BY "name";"#)
    XCTAssertEqual(
      byKind["sql: add DISTINCT"],
      #"SELECT DISTINCT  "name" FROM "products" WHERE ("price" < 20) AND "category" LIKE 'desk%' ORDER BY "name";"#)
    XCTAssertNotNil(byKind["sql: AND → OR"])
    XCTAssertNotNil(byKind["sql: drop the WHERE"])
    // A string's contents are never a place to change: 'desk%' keeps its letters.
    XCTAssertTrue(mutants.allSatisfy { $0.code.contains("'desk%'") || $0.kind == "sql: LIKE → GLOB" || $0.kind.hasPrefix("sql: drop") })
  }

  func testTextMeasuredInBytesAndSwiftCountsInUTF8() {
    let byKind = Dictionary(
      SQLMutants.of([#"SELECT "title" FROM "reminders" ORDER BY length("notes")"#]).map { ($0.kind, $0.code) },
      uniquingKeysWith: { first, _ in first })
    XCTAssertEqual(
      byKind["sql: length(x) → length(CAST(x AS BLOB))"], #"SELECT "title" FROM "reminders" ORDER BY length(CAST("notes" AS BLOB));"#)
    let swift = SolutionMutants.of(
      "@DatabaseFunction func n(_ t: String) -> Int { t.count }\nReminder.select { $n($0.title) }", ordered: false)
    XCTAssertEqual(
      swift.filter { $0.kind.hasPrefix("characters counted") }.map(\.code),
      ["@DatabaseFunction func n(_ t: String) -> Int { t.utf8.count }\nReminder.select { $n($0.title) }"])
  }

  func testAnExpressionWrittenTwiceChangesInBoth() {
    let sql =
      #"SELECT CASE WHEN "price" < 20 THEN 'budget' ELSE 'other' END, count(*) FROM "products" GROUP BY CASE WHEN "price" < 20 THEN 'budget' ELSE 'other' END"#
    let flips = SQLMutants.of([sql]).filter { $0.kind.hasPrefix("sql: '<' → '<='") }
    XCTAssertEqual(flips.map(\.code), [sql.replacing(#""price" < 20"#, with: #""price" <= 20"#) + ";"])
  }

  func testAggregatesAndJoins() {
    let kinds = Set(
      SQLMutants.of([
        #"SELECT "l"."title", count("r"."id"), max("r"."priority") FROM "lists" AS "l" LEFT JOIN "reminders" AS "r" ON "r"."listID" = "l"."id" GROUP BY "l"."id""#
      ]).map(\.kind))
    for kind in [
      "sql: count(DISTINCT …)", "sql: count(x) → count(*)", "sql: max() → coalesce(max(), 0)", "sql: max() → min()",
      "sql: LEFT JOIN → JOIN",
    ] {
      XCTAssertTrue(kinds.contains(kind), kind)
    }
  }

  func testMistakesOfPaddingEmptinessAndNone() throws {
    let session = try Session.fixture("reminders")
    let data = SQLMutants.FixtureData(database: session.database)
    let sql =
      #"SELECT "reminders"."title", coalesce("reminders"."assignedUserID", 0), length("reminders"."notes") FROM "reminders" WHERE ("reminders"."dueDate") IS NOT (NULL) ORDER BY "reminders"."title""#
    let byKind = Dictionary(SQLMutants.of([sql], data: data).map { ($0.kind, $0.code) }, uniquingKeysWith: { first, _ in first })
    XCTAssertEqual(
      byKind["sql: length(x) → length(trim(x))"],
      #"SELECT "reminders"."title", coalesce("reminders"."assignedUserID", 0), length(trim("reminders"."notes")) FROM "reminders" WHERE ("reminders"."dueDate") IS NOT (NULL) ORDER BY "reminders"."title";"#
    )
    XCTAssertEqual(
      byKind["sql: coalesce(x, 0) → CASE WHEN x > 0 THEN x ELSE 0 END"],
      #"SELECT "reminders"."title", CASE WHEN "reminders"."assignedUserID" > 0 THEN "reminders"."assignedUserID" ELSE 0 END , length("reminders"."notes") FROM "reminders" WHERE ("reminders"."dueDate") IS NOT (NULL) ORDER BY "reminders"."title";"#
    )
    XCTAssertEqual(
      byKind["sql: IS NOT NULL → > 0"],
      #"SELECT "reminders"."title", coalesce("reminders"."assignedUserID", 0), length("reminders"."notes") FROM "reminders" WHERE ("reminders"."dueDate") >  (0) ORDER BY "reminders"."title";"#
    )
    // A title that is never empty on the fixture: an answer that leaves out empty ones passes there.
    XCTAssertEqual(
      byKind["sql: empty title excluded (<> '')"],
      #"SELECT "reminders"."title", coalesce("reminders"."assignedUserID", 0), length("reminders"."notes") FROM "reminders" WHERE "reminders"."title" <> '' AND ( ("reminders"."dueDate") IS NOT (NULL)) ORDER BY "reminders"."title";"#
    )
    // `IS (NULL)`, as the DSL writes it, is a place for IS NOT NULL too.
    XCTAssertNotNil(
      Set(SQLMutants.of([#"SELECT "id" FROM "reminders" WHERE ("dueDate") IS (NULL)"#]).map(\.kind)).first {
        $0 == "sql: IS NULL → IS NOT NULL"
      })
  }

  func testAnOrderWithoutLetterCaseAndAGroupByNameThroughAnAlias() throws {
    let reminders = SQLMutants.FixtureData(database: try Session.fixture("reminders").database)
    let ordered = Dictionary(
      SQLMutants.of([#"SELECT "title" FROM "reminders" ORDER BY "reminders"."title" DESC, "id""#], data: reminders).map {
        ($0.kind, $0.code)
      }, uniquingKeysWith: { first, _ in first })
    XCTAssertEqual(
      ordered["sql: ORDER BY x → ORDER BY lower(x)"], #"SELECT "title" FROM "reminders" ORDER BY lower("reminders"."title") DESC, "id";"#)
    // Not on a key of numbers or dates: lower() of those is a mutant no one writes.
    let byDate = SQLMutants.of([#"SELECT "title" FROM "reminders" ORDER BY "reminders"."updatedAt""#], data: reminders).map(\.kind)
    XCTAssertFalse(byDate.contains("sql: ORDER BY x → ORDER BY lower(x)"))
    let session = try Session.fixture("organisation")
    let grouped = SQLMutants.of(
      [
        #"SELECT "managers"."name", count(*) FROM "employees" JOIN "employees" AS "managers" ON "employees"."managerID" = "managers"."id" GROUP BY "managers"."id""#
      ],
      data: SQLMutants.FixtureData(database: session.database))
    XCTAssertEqual(
      grouped.first { $0.kind == "sql: group by name instead of id" }?.code,
      #"SELECT "managers"."name", count(*) FROM "employees" JOIN "employees" AS "managers" ON "employees"."managerID" = "managers"."id" GROUP BY "managers"."name";"#
    )
  }

  func testAConditionEveryFixtureRowMeetsIsAMutant() throws {
    let shop = SQLMutants.FixtureData(database: try Session.fixture("shop").database)
    let mutants = SQLMutants.of(
      [#"SELECT "products"."name" FROM "products" WHERE "products"."id" NOT IN (SELECT "productID" FROM "orderItems")"#], data: shop)
    XCTAssertEqual(
      mutants.first { $0.kind == "sql: only positive price kept (> 0)" }?.code,
      #"SELECT "products"."name" FROM "products" WHERE "products"."price" > 0 AND ( "products"."id" NOT IN (SELECT "productID" FROM "orderItems"));"#
    )
    // A subquery's rows too: a learner's `NOT IN (SELECT … WHERE quantity > 0)` passes while no
    // item has quantity 0.
    XCTAssertEqual(
      mutants.first { $0.kind == "sql: only positive quantity kept (> 0)" }?.code,
      #"SELECT "products"."name" FROM "products" WHERE "products"."id" NOT IN (SELECT "productID" FROM "orderItems" WHERE "orderItems"."quantity" > 0);"#
    )
  }

  /// A NULL excluded that the query never asks about: `e.departmentID IS NOT NULL` added to a
  /// self-join whose conditions never name the column; none for a column they name.
  func testANullExcludedIsAMutant() throws {
    let organisation = SQLMutants.FixtureData(database: try Session.fixture("organisation").database)
    let kinds = Set(
      SQLMutants.of(
        [
          #"SELECT "employees"."name", "managers"."name" FROM "employees" JOIN "employees" AS "managers" ON ("employees"."managerID") = ("managers"."id")"#
        ],
        data: organisation
      ).map(\.kind))
    XCTAssertTrue(kinds.contains("sql: NULL departmentID excluded (IS NOT NULL)"), kinds.sorted().joined(separator: "\n"))
    XCTAssertTrue(kinds.contains("sql: NULL email excluded (IS NOT NULL)"))
    XCTAssertFalse(kinds.contains("sql: NULL managerID excluded (IS NOT NULL)"))
  }

  /// A walk bounded at a depth: the recursive member that counts one keeps to rows below it.
  func testAWalkStoppedAtADepth() {
    let walk =
      #"WITH "chains" AS (SELECT "id", 1 AS "depth" FROM "employees" WHERE "managerID" = 2 UNION ALL SELECT "employees"."id", ("chains"."depth") + (1) FROM "employees" JOIN "chains" ON ("employees"."managerID") = ("chains"."id")) SELECT "id" FROM "chains""#
    XCTAssertEqual(
      WalkDepth.bounded(walk, below: 3),
      #"WITH "chains" AS (SELECT "id", 1 AS "depth" FROM "employees" WHERE "managerID" = 2 UNION ALL SELECT "employees"."id", ("chains"."depth") + (1) FROM "employees" JOIN "chains" ON ("employees"."managerID") = ("chains"."id") WHERE ("chains"."depth") < 3) SELECT "id" FROM "chains""#
    )
    // A learner's spelling: a column list, a WHERE of its own (kept whole, in brackets).
    let learner =
      "WITH RECURSIVE t(id, d) AS (SELECT id, 0 FROM e WHERE m IS NULL UNION SELECT e.id, t.d + 1 FROM e, t WHERE e.m = t.id OR e.x = t.id) SELECT * FROM t"
    XCTAssertEqual(
      WalkDepth.bounded(learner, below: 2),
      "WITH RECURSIVE t(id, d) AS (SELECT id, 0 FROM e WHERE m IS NULL UNION SELECT e.id, t.d + 1 FROM e, t WHERE t.d < 2 AND ( e.m = t.id OR e.x = t.id)) SELECT * FROM t"
    )
    // No depth counted: nothing to bound.
    XCTAssertNil(WalkDepth.bounded("WITH RECURSIVE t(id) AS (SELECT 1 UNION SELECT id + 1 FROM t WHERE id < 5) SELECT * FROM t", below: 2))
  }

  /// The group of equal sort keys of each row, as one more column of a plain select; none for a
  /// compound, a DISTINCT (the column would change it) or an ORDER BY by position.
  func testTieGroupsOfTheRows() {
    XCTAssertEqual(
      TieOrder.grouped(
        #"SELECT "orders"."id" FROM "orders" WHERE "status" <> 'x' ORDER BY CASE WHEN "status" = 'placed' THEN 0 ELSE 1 END, "orderedAt" DESC"#
      ),
      #"SELECT "orders"."id", quarry_tie_group(CASE WHEN "status" = 'placed' THEN 0 ELSE 1 END, "orderedAt") FROM "orders" WHERE "status" <> 'x' ORDER BY CASE WHEN "status" = 'placed' THEN 0 ELSE 1 END, "orderedAt" DESC"#
    )
    XCTAssertNil(TieOrder.grouped(#"SELECT "city" FROM "a" UNION SELECT "city" FROM "b" ORDER BY "city""#))
    XCTAssertNil(TieOrder.grouped(#"SELECT DISTINCT "city" FROM "a" ORDER BY "name""#))
    XCTAssertNil(TieOrder.grouped(#"SELECT "city", "name" FROM "a" ORDER BY 2"#))
  }

  /// The rows' own columns as the last sort keys of the top-level ORDER BY, before its LIMIT:
  /// ties come smallest or largest row first (a copy read next to its original hides a tie from
  /// the moved tie order).
  func testTiesOrderedByTheRowsThemselves() {
    XCTAssertEqual(
      TieOrder.byOutput(#"SELECT "title" FROM "reminders" ORDER BY "updatedAt" LIMIT 2"#, columns: 1, descending: true),
      #"SELECT "title" FROM "reminders" ORDER BY "updatedAt", 1 DESC LIMIT 2"#)
    XCTAssertEqual(
      TieOrder.byOutput(
        #"SELECT "a", "b" FROM "t" WHERE "a" IN (SELECT "x" FROM "u" ORDER BY "y" LIMIT 1) ORDER BY "c" DESC"#, columns: 2,
        descending: false),
      #"SELECT "a", "b" FROM "t" WHERE "a" IN (SELECT "x" FROM "u" ORDER BY "y" LIMIT 1) ORDER BY "c" DESC, 1, 2"#)
    XCTAssertNil(TieOrder.byOutput(#"SELECT "a" FROM "t" LIMIT 1"#, columns: 1, descending: false))
  }

  /// Ties an ORDER BY leaves open, moved: a select's ORDER BY (before its LIMIT), a window's
  /// where peers are told apart; never rank() or an aggregate over the default frame.
  func testTiesMoved() {
    XCTAssertEqual(
      TieOrder.movingTies(#"DELETE FROM "users" WHERE "id" = (SELECT "id" FROM "users" ORDER BY "name" LIMIT 1)"#),
      #"DELETE FROM "users" WHERE "id" = (SELECT "id" FROM "users" ORDER BY "name", quarry_tie_order(1, "name") LIMIT 1)"#)
    XCTAssertEqual(
      TieOrder.movingTies(#"SELECT "name", lag("name") OVER (ORDER BY "hiredAt") FROM "employees""#),
      #"SELECT "name", lag("name") OVER (ORDER BY "hiredAt", quarry_tie_order(1, "hiredAt")) FROM "employees""#)
    XCTAssertEqual(
      TieOrder.movingTies(
        #"SELECT sum("salary") OVER (ORDER BY "hiredAt" ROWS UNBOUNDED PRECEDING) FROM "employees" ORDER BY "hiredAt""#),
      #"SELECT sum("salary") OVER (ORDER BY "hiredAt", quarry_tie_order(1, "hiredAt") ROWS UNBOUNDED PRECEDING) FROM "employees" ORDER BY "hiredAt", quarry_tie_order(2, "hiredAt")"#
    )
    XCTAssertNil(
      TieOrder.movingTies(#"SELECT rank() OVER (ORDER BY "salary"), sum("salary") OVER (ORDER BY "hiredAt") FROM "employees""#))
    XCTAssertNil(TieOrder.movingTies(#"SELECT "name" FROM "employees""#))
    // The keys without direction, NULLS or COLLATE (the function is told them, to see ties);
    // none for an ordinal, which would name a constant.
    XCTAssertEqual(
      TieOrder.movingTies(#"SELECT "name" FROM "t" ORDER BY lower("name") COLLATE NOCASE DESC, "email" ASC NULLS LAST"#),
      #"SELECT "name" FROM "t" ORDER BY lower("name") COLLATE NOCASE DESC, "email" ASC NULLS LAST, quarry_tie_order(1, lower("name"), "email")"#
    )
    XCTAssertEqual(
      TieOrder.movingTies(#"SELECT "name", "email" FROM "t" ORDER BY 2 DESC"#),
      #"SELECT "name", "email" FROM "t" ORDER BY 2 DESC, quarry_tie_order(1)"#)
  }

  /// Every prefix of statements that use each construct the mutation space reads (cut at any
  /// token: a statement ending in `ORDER BY`, `GROUP BY "t".`, `JOIN`, `(SELECT`) yields mutants
  /// without a crash, with the fixture's data and without.
  func testAnyPrefixOfAStatementIsSafe() throws {
    let data = SQLMutants.FixtureData(database: try Session.fixture("reminders").database)
    let statements = [
      #"SELECT DISTINCT "l"."title", count("r"."id") FROM "remindersLists" AS "l" LEFT JOIN "reminders" AS "r" ON ("r"."remindersListID") = ("l"."id") WHERE "r"."isFlagged" IS NOT (NULL) GROUP BY "l"."id" HAVING count(*) > 2 ORDER BY "l"."title" DESC LIMIT 3"#,
      #"SELECT "title" FROM "reminders" WHERE "id" IN (SELECT "reminderID" FROM "remindersTags") AND coalesce("priority", 0) BETWEEN 1 AND 3 UNION ALL SELECT "name" FROM "users" EXCEPT SELECT 'x' ORDER BY 1"#,
      #"WITH "t" AS (SELECT CASE "status" WHEN 'a' THEN 1 ELSE 2 END AS "k" FROM "orders") SELECT length(trim("k")), rank() OVER (ORDER BY "k") FROM "t" WHERE EXISTS (SELECT 1 FROM "t" LIMIT 1)"#,
    ]
    var count = 0
    for statement in statements {
      let tokens = SQLMutants.tokens(statement)
      for end in 1...tokens.count {
        let prefix = tokens.prefix(end).map(\.text).joined()
        count += SQLMutants.of([prefix], data: data).count + SQLMutants.of([prefix]).count
      }
    }
    XCTAssertGreaterThan(count, 100)
  }

  /// An ```equivalent line names the mutant's kind, `sql: ` and all, then its reason.
  func testEquivalenceLinesNameTheWholeKind() {
    XCTAssertEqual(
      Lesson.equivalences([
        "sql: add DISTINCT #2: the CTE holds one row per order: distinct already\njoin → leftJoin: every reminder has a list"
      ]),
      ["sql: add DISTINCT #2": "the CTE holds one row per order: distinct already", "join → leftJoin": "every reminder has a list"])
  }

  func testConstantsReadOffTheFixture() throws {
    let session = try Session.fixture("shop")
    let data = SQLMutants.FixtureData(database: session.database)
    let mutants = SQLMutants.of(
      [
        #"SELECT "orders"."id", CASE "orders"."status" WHEN 'delivered' THEN 'done' ELSE 'open' END FROM "orders" WHERE ("orders"."status") <> ('cancelled')"#
      ], data: data)
    let byKind = Dictionary(mutants.map { ($0.kind, $0.code) }, uniquingKeysWith: { first, _ in first })
    XCTAssertEqual(
      byKind["sql: ELSE listed by hand"],
      #"SELECT "orders"."id", CASE "orders"."status" WHEN 'delivered' THEN 'done' WHEN 'cancelled' THEN 'open' WHEN 'placed' THEN 'open' WHEN 'shipped' THEN 'open'  END FROM "orders" WHERE ("orders"."status") <> ('cancelled');"#
    )
    XCTAssertEqual(
      byKind["sql: listed by hand (status <> 'cancelled')"],
      #"SELECT "orders"."id", CASE "orders"."status" WHEN 'delivered' THEN 'done' ELSE 'open' END FROM "orders" WHERE "orders"."status" IN ('delivered', 'placed', 'shipped');"#
    )
    let grouped = SQLMutants.of([#"SELECT "customers"."name", count(*) FROM "customers" GROUP BY "customers"."id""#], data: data)
    XCTAssertTrue(grouped.contains { $0.kind == "sql: group by name instead of id" && $0.code.hasSuffix(#"GROUP BY "customers"."name";"#) })
  }

  func testACTEDoesTheWorkOnlyWhenRead() {
    XCTAssertFalse(CommonTableExpressions(sql: "WITH t AS (SELECT 1) SELECT * FROM orders").doTheWork)
    XCTAssertTrue(CommonTableExpressions(sql: #"WITH "t" AS (SELECT 1 AS x) SELECT x FROM "t""#).doTheWork)
    // Two CTEs: the first read by the second, the second by the query.
    XCTAssertTrue(CommonTableExpressions(sql: "WITH a(x) AS (SELECT 1), b AS (SELECT x FROM a) SELECT * FROM b").doTheWork)
    // A CTE no one reads, beside one that is read.
    XCTAssertFalse(CommonTableExpressions(sql: "WITH a AS (SELECT 1), b AS (SELECT 2) SELECT * FROM b").doTheWork)
    // Recursive: read by itself and by the query; a name inside a string is no read.
    XCTAssertTrue(
      CommonTableExpressions(sql: "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 3) SELECT n FROM c").doTheWork)
    XCTAssertFalse(CommonTableExpressions(sql: "WITH c AS (SELECT 1) SELECT 'c'").doTheWork)
  }

  func testJSONObjectsCompareAsObjects() {
    XCTAssertEqual(
      AnswerChecker.valueKey(.text(#"{"id":1,"title":"errand"}"#)), AnswerChecker.valueKey(.text(#"{"title":"errand","id":1}"#)))
    XCTAssertNotEqual(
      AnswerChecker.valueKey(.text(#"{"id":1,"title":"errand"}"#)), AnswerChecker.valueKey(.text(#"{"id":2,"title":"errand"}"#)))
    XCTAssertEqual(AnswerChecker.valueKey(.text(#"{"a":{"x":1,"y":[1,2]}}"#)), AnswerChecker.valueKey(.text(#"{"a":{"y":[1,2],"x":1}}"#)))
  }

  func testSchemaObjectsCompareByBehaviour() throws {
    func schema(_ sql: String) throws -> [SchemaObjects.Object] {
      let session = try Session.fixture("reminders")
      let before = SchemaObjects.read(session.database)
      try session.database.execute(sql)
      return before.changes(to: SchemaObjects.read(session.database))
    }
    let declared = try schema(
      "CREATE TABLE notes (id INTEGER PRIMARY KEY, reminderID INTEGER REFERENCES reminders(id), body TEXT NOT NULL DEFAULT '', n INTEGER DEFAULT 0)"
    )
    let written = try schema(
      "CREATE TABLE notes (id INTEGER NOT NULL PRIMARY KEY, reminderID INT REFERENCES reminders, body VARCHAR(200) NOT NULL DEFAULT (''), n BIGINT DEFAULT (0))"
    )
    XCTAssertEqual(declared, written)
    // INT PRIMARY KEY is not the rowid: another behaviour.
    XCTAssertNotEqual(
      declared,
      try schema(
        "CREATE TABLE notes (id INT PRIMARY KEY, reminderID INTEGER REFERENCES reminders(id), body TEXT NOT NULL DEFAULT '', n INTEGER DEFAULT 0)"
      ))
  }
}
