import QuarryEngine
import XCTest

@testable import Workbench

/// Mutants proven equivalent to their solution — by the statement's shape and the schema, or by
/// SQLite compiling both to one program — and the near-misses that look alike but are not.
final class EquivalenceProofTests: XCTestCase {
  func proof(_ kind: String, in sql: String, fixture: String = "reminders") throws -> String? {
    let session = try Session.fixture(fixture)
    let mutants = SQLMutants.of([sql], data: SQLMutants.FixtureData(database: session.database))
    let found = try XCTUnwrap(
      mutants.first { $0.kind == "sql: " + kind }, "no mutant \(kind): \(mutants.map(\.kind))")
    return found.proof
  }

  func testDistinctOnRowsUniqueByShape() throws {
    // One row per group, every key among the columns.
    XCTAssertEqual(
      try proof(
        "add DISTINCT",
        in:
          #"SELECT "reminders"."remindersListID", count(*) FROM "reminders" GROUP BY "reminders"."remindersListID""#
      ),
      "one row per group, and every GROUP BY key is among the columns: the rows are already distinct"
    )
    // One row.
    XCTAssertEqual(
      try proof("add DISTINCT", in: #"SELECT count(*) FROM "reminders""#),
      "an aggregate without GROUP BY gives one row: nothing to make distinct")
    XCTAssertNotNil(
      try proof("add DISTINCT", in: #"SELECT "title" FROM "reminders" ORDER BY "id" LIMIT 1"#))
    // A set: IN (SELECT …).
    XCTAssertNotNil(
      try proof(
        "add DISTINCT #2",
        in:
          #"SELECT "title" FROM "remindersLists" WHERE "id" IN (SELECT "remindersListID" FROM "reminders")"#
      ))
    // Not proven: a key that is not selected, a title that may repeat, a window over the rows.
    XCTAssertNil(
      try proof(
        "add DISTINCT",
        in: #"SELECT count(*) FROM "reminders" GROUP BY "reminders"."remindersListID""#))
    XCTAssertNil(try proof("add DISTINCT", in: #"SELECT "reminders"."title" FROM "reminders""#))
    XCTAssertNil(try proof("add DISTINCT", in: #"SELECT count(*) OVER () FROM "reminders""#))
  }

  func testCountOfAColumnNeverNull() throws {
    XCTAssertNotNil(
      try proof(
        "count(x) → count(*)", in: #"SELECT count("reminders"."remindersListID") FROM "reminders""#)
    )
    // Nullable, or on the optional side of a LEFT JOIN: count(x) skips NULLs.
    XCTAssertNil(
      try proof(
        "count(x) → count(*)", in: #"SELECT count("reminders"."assignedUserID") FROM "reminders""#))
    XCTAssertNil(
      try proof(
        "count(x) → count(*)",
        in:
          #"SELECT "l"."title", count("r"."id") FROM "remindersLists" AS "l" LEFT JOIN "reminders" AS "r" ON "r"."remindersListID" = "l"."id" GROUP BY "l"."id""#
      ))
    // count(DISTINCT key) over one table: the keys are distinct already; over a join they repeat.
    XCTAssertNotNil(
      try proof(
        "count(DISTINCT …)",
        in: #"SELECT count("reminders"."id") FROM "reminders" WHERE "reminders"."isFlagged""#))
    XCTAssertNil(
      try proof(
        "count(DISTINCT …)",
        in:
          #"SELECT count("reminders"."id") FROM "reminders" JOIN "remindersTags" ON "remindersTags"."reminderID" = "reminders"."id""#
      ))
  }

  func testRowsAJoinNeverRepeats() throws {
    // A reminder joins one user (users.id is the key): reminders.id stays distinct.
    XCTAssertEqual(
      try proof(
        "count(DISTINCT …)",
        in:
          #"SELECT "users"."name", count("reminders"."id") FROM "users" JOIN "reminders" ON ("reminders"."assignedUserID") = ("users"."id") GROUP BY "users"."id""#
      ),
      "reminders.id is the key of reminders, and every other table is joined to it through its own key (one match per row): its values are distinct already"
    )
    XCTAssertNotNil(
      try proof(
        "add DISTINCT",
        in:
          #"SELECT "reminders"."id", "remindersLists"."title" FROM "reminders" JOIN "remindersLists" ON "remindersLists"."id" = "reminders"."remindersListID""#
      ))
    // A list joins many reminders: its id repeats.
    XCTAssertNil(
      try proof(
        "count(DISTINCT …)",
        in:
          #"SELECT count("remindersLists"."id") FROM "remindersLists" JOIN "reminders" ON ("reminders"."remindersListID") = ("remindersLists"."id")"#
      ))
    XCTAssertNil(
      try proof(
        "add DISTINCT",
        in:
          #"SELECT "remindersLists"."id" FROM "remindersLists" JOIN "reminders" ON ("reminders"."remindersListID") = ("remindersLists"."id")"#
      ))
    // A scalar subquery of an aggregate is one row: LIMIT 1 changes nothing.
    XCTAssertNotNil(
      try proof(
        "subquery cut to one row (LIMIT 1)",
        in: #"SELECT "title" FROM "reminders" WHERE "priority" > (SELECT avg("priority") FROM "reminders")"#))
  }

  func testAJoinThroughANotNullForeignKeyAlwaysMatches() throws {
    XCTAssertEqual(
      try proof(
        "JOIN → LEFT JOIN",
        in:
          #"SELECT "reminders"."title", "remindersLists"."title" FROM "reminders" JOIN "remindersLists" ON ("reminders"."remindersListID") = ("remindersLists"."id")"#
      ),
      "every reminders row has its reminderslists: reminderslistid is a NOT NULL foreign key to reminderslists, so no row lacks a match"
    )
    // The other way round (a list may have no reminders), or through a nullable key: not proven.
    XCTAssertNil(
      try proof(
        "JOIN → LEFT JOIN",
        in:
          #"SELECT "remindersLists"."title" FROM "remindersLists" JOIN "reminders" ON ("reminders"."remindersListID") = ("remindersLists"."id")"#
      ))
    XCTAssertNil(
      try proof(
        "JOIN → LEFT JOIN",
        in:
          #"SELECT "reminders"."title" FROM "reminders" JOIN "users" ON "reminders"."assignedUserID" = "users"."id""#
      ))
  }

  func testSQLiteCompilesAnEliminatedDistinctToTheSameProgram() {
    // The title of a list is UNIQUE and NOT NULL: SQLite drops the DISTINCT.
    XCTAssertTrue(
      ProgramEquivalence.same(
        [#"SELECT "title" FROM "remindersLists""#],
        [#"SELECT DISTINCT "title" FROM "remindersLists""#], fixture: "reminders"))
    // A LEFT JOIN whose WHERE rejects the NULL row is a JOIN.
    XCTAssertTrue(
      ProgramEquivalence.same(
        [
          #"SELECT "r"."title" FROM "reminders" AS "r" JOIN "users" AS "u" ON "u"."id" = "r"."assignedUserID" WHERE "u"."name" = 'Noor'"#
        ],
        [
          #"SELECT "r"."title" FROM "reminders" AS "r" LEFT JOIN "users" AS "u" ON "u"."id" = "r"."assignedUserID" WHERE "u"."name" = 'Noor'"#
        ],
        fixture: "reminders"))
    // Reminders' titles may repeat: a different program.
    XCTAssertFalse(
      ProgramEquivalence.same(
        [#"SELECT "title" FROM "reminders""#], [#"SELECT DISTINCT "title" FROM "reminders""#],
        fixture: "reminders"))
  }
}
