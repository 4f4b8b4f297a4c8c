import InlineSnapshotTesting
import XCTest

/// DSL in, SQL and results out, against the reminders fixture.
final class SelectSnapshotTests: SnapshotTestCase {
  func testWhereOrderLimit() throws {
    assertInlineSnapshot(
      of: try run(#"Reminder.where { !$0.isCompleted }.order(by: \.title).limit(3).select { ($0.title, $0.priority) }"#), as: .lines
    ) {
      """
      SELECT "reminders"."title", "reminders"."priority"
      FROM "reminders"
      WHERE (NOT ("reminders"."isCompleted"))
      ORDER BY "reminders"."title"
      LIMIT 3
      ┌──────────────────────┬──────────┐
      │ title                │ priority │
      ├──────────────────────┼──────────┤
      │ Archive old invoices │ .low     │
      │ Book train to Lyon   │ .high    │
      │ Buy groceries        │ .medium  │
      └──────────────────────┴──────────┘
      """
    }
  }

  func testJoinSelectingFromBothTables() throws {
    assertInlineSnapshot(
      of: try run("Reminder.join(RemindersList.all) { $0.remindersListID.eq($1.id) }.select { ($0.title, $1.title) }.limit(4)"), as: .lines
    ) {
      """
      SELECT "reminders"."title", "remindersLists"."title"
      FROM "reminders"
      JOIN "remindersLists" ON ("reminders"."remindersListID") = ("remindersLists"."id")
      LIMIT 4
      ┌──────────────────────┬───────┐
      │ title                │ title │
      ├──────────────────────┼───────┤
      │ Buy groceries        │ Home  │
      │ Fix the leaking tap  │ Home  │
      │ Call the accountant  │ Work  │
      │ Archive old invoices │ Work  │
      └──────────────────────┴───────┘
      """
    }
  }

  func testGroupHavingCount() throws {
    assertInlineSnapshot(
      of: try run(
        "RemindersList.group(by: \\.id).join(Reminder.all) { $0.id.eq($1.remindersListID) }.having { $1.count() > 2 }.select { ($0.title, $1.count()) }"
      ), as: .lines
    ) {
      """
      SELECT "remindersLists"."title", count("reminders"."id")
      FROM "remindersLists"
      JOIN "reminders" ON ("remindersLists"."id") = ("reminders"."remindersListID")
      GROUP BY "remindersLists"."id"
      HAVING ((count("reminders"."id")) > (2))
      ┌────────┬─────────────────────────┐
      │ title  │ count("reminders"."id") │
      ├────────┼─────────────────────────┤
      │ Home   │ 3                       │
      │ Work   │ 3                       │
      │ Garden │ 3                       │
      │ Travel │ 3                       │
      └────────┴─────────────────────────┘
      """
    }
  }

  func testLeftJoinWithCoalesce() throws {
    assertInlineSnapshot(
      of: try run(
        #"Reminder.leftJoin(User.all) { $0.assignedUserID.eq($1.id) }.select { ($0.title, $1.name ?? "nobody") }.order { reminder, _ in reminder.id.desc() }.limit(3)"#
      ), as: .lines
    ) {
      """
      SELECT "reminders"."title", coalesce("users"."name", 'nobody')
      FROM "reminders"
      LEFT JOIN "users" ON ("reminders"."assignedUserID") = ("users"."id")
      ORDER BY "reminders"."id" DESC
      LIMIT 3
      ┌──────────────────────┬────────────────────────────────────┐
      │ title                │ coalesce("users"."name", 'nobody') │
      ├──────────────────────┼────────────────────────────────────┤
      │ Pay electricity bill │ Linus                              │
      │ Pack travel bag      │ Margaret                           │
      │ Renew passport       │ nobody                             │
      └──────────────────────┴────────────────────────────────────┘
      """
    }
  }

  func testRightAndFullJoins() throws {
    assertInlineSnapshot(
      of: try run("User.all.rightJoin(Reminder.all) { $0.id.is($1.assignedUserID) }.select { ($1.id, $0.name) }.where { $1.id.lte(2) }"),
      as: .lines
    ) {
      """
      SELECT "reminders"."id", "users"."name"
      FROM "users"
      RIGHT JOIN "reminders" ON ("users"."id") IS ("reminders"."assignedUserID")
      WHERE (("reminders"."id") <= (2))
      ┌────┬──────┐
      │ id │ name │
      ├────┼──────┤
      │ 1  │ Ada  │
      │ 2  │ NULL │
      └────┴──────┘
      """
    }
    assertInlineSnapshot(
      of: try run(
        "Reminder.all.fullJoin(User.all) { $0.assignedUserID.is($1.id) }.select { $1.name }.where { reminder, _ in reminder.id.is(nil) }"),
      as: .lines
    ) {
      """
      SELECT "users"."name"
      FROM "reminders"
      FULL JOIN "users" ON ("reminders"."assignedUserID") IS ("users"."id")
      WHERE (("reminders"."id") IS (NULL))
      ┌──────┐
      │ name │
      ├──────┤
      │ Noor │
      └──────┘
      """
    }
  }

  func testOperatorsAndStringFunctions() throws {
    assertInlineSnapshot(
      of: try run(
        #"Reminder.where { $0.title.hasPrefix("P") && $0.id.between(2, and: 11) }.select { ($0.id, $0.title.upper(), $0.title.length(), $0.title + "!") }"#
      ), as: .lines
    ) {
      #"""
      warning: 1:27: 'hasPrefix(_:)' is deprecated: Prefer 'like("\(other)%")' instead
      Reminder.where { $0.title.hasPrefix("P") && $0.id.between(2, and: 11) }.select { ($0.id, $0.title.upper(), $0.title.length(), $0.title + "!") }
                                ^~~~~~~~~
      SELECT "reminders"."id", upper("reminders"."title"), length("reminders"."title"), ("reminders"."title") || ('!')
      FROM "reminders"
      WHERE ((("reminders"."title" LIKE 'P%')) AND ("reminders"."id" BETWEEN 2 AND 11))
      ┌────┬────────────────────────────┬─────────────────────────────┬────────────────────────────────┐
      │ id │ upper("reminders"."title") │ length("reminders"."title") │ ("reminders"."title") || ('!') │
      ├────┼────────────────────────────┼─────────────────────────────┼────────────────────────────────┤
      │ 5  │ PREPARE QUARTERLY REVIEW   │ 24                          │ Prepare quarterly review!      │
      │ 6  │ PLANT SEEDLINGS            │ 15                          │ Plant seedlings!               │
      │ 11 │ PACK TRAVEL BAG            │ 15                          │ Pack travel bag!               │
      └────┴────────────────────────────┴─────────────────────────────┴────────────────────────────────┘
      """#
    }
  }

  func testInListAndSubquery() throws {
    assertInlineSnapshot(
      of: try run(
        "Reminder.where { $0.id.in([1, 3]) || $0.remindersListID.in(RemindersList.where { $0.title.eq(\"Travel\") }.select(\\.id)) }.select(\\.title)"
      ), as: .lines
    ) {
      """
      SELECT "reminders"."title"
      FROM "reminders"
      WHERE ((("reminders"."id") IN ((1), (3))) OR (("reminders"."remindersListID") IN (SELECT "remindersLists"."id"
      FROM "remindersLists"
      WHERE (("remindersLists"."title") = ('Travel')))))
      ┌─────────────────────┐
      │ title               │
      ├─────────────────────┤
      │ Buy groceries       │
      │ Call the accountant │
      │ Book train to Lyon  │
      │ Renew passport      │
      │ Pack travel bag     │
      └─────────────────────┘
      """
    }
  }

  func testAggregatesWithDistinctAndFilter() throws {
    assertInlineSnapshot(
      of: try run(
        "Reminder.select { ($0.priority.count(distinct: true), $0.id.count(filter: $0.isFlagged), $0.title.groupConcat(\", \"), $0.id.avg()) }"
      ), as: .lines
    ) {
      """
      SELECT count(DISTINCT "reminders"."priority"), count("reminders"."id") FILTER (WHERE "reminders"."isFlagged"), group_concat("reminders"."title", ', '), avg("reminders"."id")
      FROM "reminders"
      ┌────────────────────────────────────────┬──────────────────────────────────────────────────────────────┬──────────────────────────────────────────────────────────────┬───────────────────────┐
      │ count(DISTINCT "reminders"."priority") │ count("reminders"."id") FILTER (WHERE "reminders"."isFlagge… │ group_concat("reminders"."title", ', ')                      │ avg("reminders"."id") │
      ├────────────────────────────────────────┼──────────────────────────────────────────────────────────────┼──────────────────────────────────────────────────────────────┼───────────────────────┤
      │ 3                                      │ 3                                                            │ Buy groceries, Fix the leaking tap, Call the accountant, Ar… │ 6.5                   │
      └────────────────────────────────────────┴──────────────────────────────────────────────────────────────┴──────────────────────────────────────────────────────────────┴───────────────────────┘
      """
    }
  }

  func testScopesAndComputedColumns() throws {
    assertInlineSnapshot(of: try run("Reminder.incomplete.where(\\.isHighPriority).select(\\.title)"), as: .lines) {
      """
      SELECT "reminders"."title"
      FROM "reminders"
      WHERE (NOT ("reminders"."isCompleted")) AND (("reminders"."priority") IS (3))
      ┌─────────────────────┐
      │ title               │
      ├─────────────────────┤
      │ Call the accountant │
      │ Book train to Lyon  │
      └─────────────────────┘
      """
    }
    assertInlineSnapshot(of: try run(#"Reminder.searching("bag").select { ($0.id, $0.title) }"#), as: .lines) {
      """
      SELECT "reminders"."id", "reminders"."title"
      FROM "reminders"
      WHERE ((("reminders"."title" COLLATE "NOCASE" LIKE '%bag%')) OR (("reminders"."notes" COLLATE "NOCASE" LIKE '%bag%')))
      ┌────┬─────────────────┐
      │ id │ title           │
      ├────┼─────────────────┤
      │ 11 │ Pack travel bag │
      └────┴─────────────────┘
      """
    }
  }

  func testDistinctCountFindAndNone() throws {
    assertInlineSnapshot(of: try run("Reminder.select(\\.remindersListID).distinct().order(by: \\.remindersListID)"), as: .lines) {
      """
      SELECT DISTINCT "reminders"."remindersListID"
      FROM "reminders"
      ORDER BY "reminders"."remindersListID"
      ┌─────────────────┐
      │ remindersListID │
      ├─────────────────┤
      │ 1               │
      │ 2               │
      │ 3               │
      │ 4               │
      └─────────────────┘
      """
    }
    assertInlineSnapshot(of: try run("Reminder.where(\\.isFlagged).count()"), as: .lines) {
      """
      SELECT count(*)
      FROM "reminders"
      WHERE ("reminders"."isFlagged")
      ┌──────────┐
      │ count(*) │
      ├──────────┤
      │ 3        │
      └──────────┘
      """
    }
    assertInlineSnapshot(of: try run("Tag.find(3)"), as: .lines) {
      """
      SELECT "tags"."id", "tags"."title"
      FROM "tags"
      WHERE (("tags"."id") IN ((3)))
      ┌────┬────────┐
      │ id │ title  │
      ├────┼────────┤
      │ 3  │ urgent │
      └────┴────────┘
      """
    }
    assertInlineSnapshot(of: try run("Tag.none"), as: .lines) {
      """
      -- (empty query: nothing to run)
      """
    }
  }

  func testSelfJoinThroughAliases() throws {
    assertInlineSnapshot(
      of: try run(
        """
        enum Other: AliasName {}
        Reminder.join(Reminder.as(Other.self).all) { $0.remindersListID.eq($1.remindersListID) && $0.id.lt($1.id) }
          .where { reminder, _ in reminder.remindersListID.eq(1) }
          .select { ($0.title, $1.title) }
        """), as: .lines
    ) {
      """
      SELECT "reminders"."title", "others"."title"
      FROM "reminders"
      JOIN "reminders" AS "others" ON (("reminders"."remindersListID") = ("others"."remindersListID")) AND (("reminders"."id") < ("others"."id"))
      WHERE (("reminders"."remindersListID") = (1))
      ┌─────────────────────┬──────────────────────┐
      │ title               │ title                │
      ├─────────────────────┼──────────────────────┤
      │ Buy groceries       │ Fix the leaking tap  │
      │ Buy groceries       │ Pay electricity bill │
      │ Fix the leaking tap │ Pay electricity bill │
      └─────────────────────┴──────────────────────┘
      """
    }
  }

  func testErrorsAreShownWithALocationAndACaret() throws {
    assertInlineSnapshot(of: try run("Reminder.where { $0.isComplete }"), as: .lines) {
      """
      error: 1:21: table 'Reminder' has no column 'isComplete'; did you mean 'isCompleted'?
      Reminder.where { $0.isComplete }
                          ^~~~~~~~~~
      """
    }
  }

  func testTableOnlyInTheDatabaseIsUsableByItsTypeName() throws {
    assertInlineSnapshot(
      of: try run(
        "Category.where { $0.name.like(\"%a%\") }",
        setup: [
          ".raw CREATE TABLE categories (id INTEGER PRIMARY KEY, name TEXT NOT NULL)"
        ]), as: .lines
    ) {
      """
      SELECT "categories"."id", "categories"."name"
      FROM "categories"
      WHERE (("categories"."name" LIKE '%a%'))
      ┌────┬──────┐
      │ id │ name │
      ├────┼──────┤
      └────┴──────┘
      """
    }
  }

  /// `query.contains(element)` (deprecated in StructuredQueries) is `element.in(query)`.
  func testSubqueryContainsIsElementIn() throws {
    assertInlineSnapshot(
      of: try run(
        #"Reminder.where { Reminder.select(\.id).where { $0.isFlagged }.contains($0.id) }.select(\.title)"#
      ), as: .lines
    ) {
      #"""
      warning: 1:63: 'contains(_:)' is deprecated: Prefer 'element.in(self)' instead
      Reminder.where { Reminder.select(\.id).where { $0.isFlagged }.contains($0.id) }.select(\.title)
                                                                    ^~~~~~~~
      SELECT "reminders"."title"
      FROM "reminders"
      WHERE (("reminders"."id") IN (SELECT "reminders"."id"
      FROM "reminders"
      WHERE ("reminders"."isFlagged")))
      ┌──────────────────────────┐
      │ title                    │
      ├──────────────────────────┤
      │ Buy groceries            │
      │ Prepare quarterly review │
      │ Order compost            │
      └──────────────────────────┘
      """#
    }
  }

  /// `Date()` and `Date.now` are the time the statement runs, as SQLite computes it.
  func testDateInitializerIsNow() throws {
    assertInlineSnapshot(
      of: try run(
        "Reminder.where { $0.id.eq(1) && $0.dueDate < Optional(Date()) && $0.updatedAt < Date.now }.count()"
      ), as: .lines
    ) {
      """
      SELECT count(*)
      FROM "reminders"
      WHERE (((("reminders"."id") = (1)) AND (("reminders"."dueDate") < (datetime('now')))) AND (("reminders"."updatedAt") < (datetime('now'))))
      ┌──────────┐
      │ count(*) │
      ├──────────┤
      │ 1        │
      └──────────┘
      """
    }
  }

  /// A result builder's `if` keeps the clause only when its Swift condition holds.
  func testResultBuilderIfOnASwiftBool() throws {
    assertInlineSnapshot(
      of: try run(
        #"""
        let showCompleted = false
        Reminder.where { if !showCompleted { !$0.isCompleted } }.count()
        Reminder.where { if showCompleted { !$0.isCompleted } }.count()
        Reminder.order { if showCompleted { $0.title } else { ($0.isFlagged.desc(), $0.title) } }.select(\.title).limit(2)
        """#), as: .lines
    ) {
      """
      SELECT count(*)
      FROM "reminders"
      WHERE (NOT ("reminders"."isCompleted"))
      ┌──────────┐
      │ count(*) │
      ├──────────┤
      │ 8        │
      └──────────┘
      SELECT count(*)
      FROM "reminders"
      ┌──────────┐
      │ count(*) │
      ├──────────┤
      │ 12       │
      └──────────┘
      SELECT "reminders"."title"
      FROM "reminders"
      ORDER BY "reminders"."isFlagged" DESC, "reminders"."title"
      LIMIT 2
      ┌───────────────┐
      │ title         │
      ├───────────────┤
      │ Buy groceries │
      │ Order compost │
      └───────────────┘
      """
    }
  }

  /// `map` is handed the columns selected so far; what it returns is the new selection.
  func testMapReshapesTheSelection() throws {
    assertInlineSnapshot(
      of: try run(
        #"Reminder.select(\.id).select(\.title).map { _, title in title.upper() }.order(by: \.id).limit(2)"#
      ), as: .lines
    ) {
      """
      SELECT upper("reminders"."title")
      FROM "reminders"
      ORDER BY "reminders"."id"
      LIMIT 2
      ┌────────────────────────────┐
      │ upper("reminders"."title") │
      ├────────────────────────────┤
      │ BUY GROCERIES              │
      │ FIX THE LEAKING TAP        │
      └────────────────────────────┘
      """
    }
  }

  /// More of StructuredQueries' spellings: whole-row comparison, a query's negation, ranges,
  /// loops in a where builder, count with a filter, fixed UUIDs.
  func testMoreStructuredQueriesSpellings() throws {
    assertInlineSnapshot(
      of: try run(
        #"""
        Tag.where { $0 > Tag(id: 3, title: "someday") }.select(\.title)
        (!Reminder.where(\.isCompleted)).count()
        Reminder.where { (2...4).contains($0.id) }.select(\.id)
        let words = ["o", "e"]
        Tag.where { for word in words { $0.title.contains(word) } }.select(\.title)
        Reminder.count { $0.isFlagged }
        Values(UUID(1))
        """#), as: .lines
    ) {
      #"""
      warning: 5:42: 'contains(_:)' is deprecated: Prefer 'like("%\(other)%")' instead
      Tag.where { for word in words { $0.title.contains(word) } }.select(\.title)
                                               ^~~~~~~~
      SELECT "tags"."title"
      FROM "tags"
      WHERE (("tags"."id", "tags"."title") > (3, 'someday'))
      ┌───────────┐
      │ title     │
      ├───────────┤
      │ urgent    │
      │ outdoors  │
      │ paperwork │
      └───────────┘
      SELECT count(*)
      FROM "reminders"
      WHERE (NOT ("reminders"."isCompleted"))
      ┌──────────┐
      │ count(*) │
      ├──────────┤
      │ 8        │
      └──────────┘
      SELECT "reminders"."id"
      FROM "reminders"
      WHERE ("reminders"."id" BETWEEN 2 AND 4)
      ┌────┐
      │ id │
      ├────┤
      │ 2  │
      │ 3  │
      │ 4  │
      └────┘
      SELECT "tags"."title"
      FROM "tags"
      WHERE (("tags"."title" LIKE '%o%')) AND (("tags"."title" LIKE '%e%'))
      ┌───────────┐
      │ title     │
      ├───────────┤
      │ someday   │
      │ paperwork │
      └───────────┘
      SELECT count(*) FILTER (WHERE "reminders"."isFlagged")
      FROM "reminders"
      ┌─────────────────────────────────────────────────┐
      │ count(*) FILTER (WHERE "reminders"."isFlagged") │
      ├─────────────────────────────────────────────────┤
      │ 3                                               │
      └─────────────────────────────────────────────────┘
      SELECT '00000000-0000-0000-0000-000000000001'
      ┌────────────────────────────────────────┐
      │ '00000000-0000-0000-0000-000000000001' │
      ├────────────────────────────────────────┤
      │ 00000000-0000-0000-0000-000000000001   │
      └────────────────────────────────────────┘
      """#
    }
  }
}
