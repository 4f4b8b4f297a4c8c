import InlineSnapshotTesting
import Workbench
import XCTest

/// Declarations and expressions written the ways real app code writes them.
final class FidelitySnapshotTests: SnapshotTestCase {
  static let models = [
    ".raw CREATE TABLE slots (id INTEGER PRIMARY KEY, start INTEGER NOT NULL, \"end\" INTEGER NOT NULL, label TEXT NOT NULL)",
    ".raw INSERT INTO slots VALUES (1, 1, 5, 'a'), (2, 1, 2, 'b'), (3, 0, 9, 'c')",
    """
    @Selection struct Span {
      var start = 0
      var end = 0
    }
    @Table struct Slot {
      typealias ID = Tagged<Self, Int>
      let id: ID
      var span: Span
      var label = ""
    }
    @Selection struct Row {
      var label: String
      var note = "none"
      var size = 0
    }
    """,
  ]

  func testTaggedIDsAndAsCoercions() throws {
    assertInlineSnapshot(
      of: try run(
        #"""
        Slot.where { $0.id.in([Slot.ID(1), Slot.ID(rawValue: 2), 3 as Slot.ID]) }.select { ($0.label as String) }
        """#, setup: Self.models), as: .lines
    ) {
      """
      SELECT "slots"."label"
      FROM "slots"
      WHERE (("slots"."id") IN ((1), (2), (3)))
      ┌───────┐
      │ label │
      ├───────┤
      │ a     │
      │ b     │
      │ c     │
      └───────┘
      """
    }
  }

  func testColumnGroupsCompareAsRowValues() throws {
    assertInlineSnapshot(
      of: try run(
        #"""
        Slot.where { $0.span <= Span(start: 1, end: 2) || $0.span.gt(Span(start: 1, end: 4)) }.select(\.label)
        """#, setup: Self.models), as: .lines
    ) {
      """
      SELECT "slots"."label"
      FROM "slots"
      WHERE ((("slots"."start", "slots"."end") <= (1, 2)) OR (("slots"."start", "slots"."end") > (1, 4)))
      ┌───────┐
      │ label │
      ├───────┤
      │ a     │
      │ b     │
      │ c     │
      └───────┘
      """
    }
  }

  func testSelectionColumnsLeftOutTakeTheirDefaults() throws {
    assertInlineSnapshot(
      of: try run(
        #"""
        Slot.where { $0.id.eq(1) }.select { Row.Columns(label: $0.label, size: $0.span.end - $0.span.start) }
        """#, setup: Self.models), as: .lines
    ) {
      """
      SELECT "slots"."label" AS "label", 'none' AS "note", ("slots"."end") - ("slots"."start") AS "size"
      FROM "slots"
      WHERE (("slots"."id") = (1))
      ┌───────┬──────┬──────┐
      │ label │ note │ size │
      ├───────┼──────┼──────┤
      │ a     │ none │ 4    │
      └───────┴──────┴──────┘
      """
    }
  }

  func testQuoteDelimitersAndCustomCollations() throws {
    assertInlineSnapshot(
      of: try run(
        #"""
        Slot.select { _ in #sql("\(quote: "it's", delimiter: .text) || \(quote: "label")") }.order { $0.label.collate(.custom("NOCASE")) }.limit(1)
        """#, setup: Self.models), as: .lines
    ) {
      """
      SELECT 'it''s' || "label"
      FROM "slots"
      ORDER BY "slots"."label" COLLATE "NOCASE"
      LIMIT 1
      ┌────────────────────┐
      │ 'it''s' || "label" │
      ├────────────────────┤
      │ it'sa              │
      └────────────────────┘
      """
    }
  }

  func testRecordsHeldInNamesAndBuilderIfAndForInInserts() throws {
    assertInlineSnapshot(
      of: try runScript(
        #"""
        let draft = Tag.Draft(title: "car")
        let more = [Tag.Draft(title: "kids"), Tag.Draft(title: "garden")]
        let vehicleOwner = false
        Tag.insert {
          draft
          more
          if vehicleOwner { Tag.Draft(title: "garage") } else { Tag.Draft(title: "bus") }
          for title in ["a", "b"] { Tag.Draft(title: title) }
        }
        .returning(\.title)
        """#), as: .lines
    ) {
      """
      INSERT INTO "tags"
      ("id", "title")
      VALUES
      (NULL, 'car'), (NULL, 'kids'), (NULL, 'garden'), (NULL, 'bus'), (NULL, 'a'), (NULL, 'b')
      RETURNING "title"
      ┌────────┐
      │ title  │
      ├────────┤
      │ car    │
      │ kids   │
      │ garden │
      │ bus    │
      │ a      │
      │ b      │
      └────────┘
      """
    }
  }

  func testAQueryReAliasedAfterItsClauses() throws {
    assertInlineSnapshot(
      of: try runScript(
        #"""
        enum R1: AliasName {}
        enum R2: AliasName {}
        Reminder.as(R1.self).where { $0.title.like("%a%") }.order(by: \.title).limit(2).as(R2.self).select(\.title)
        """#), as: .lines
    ) {
      """
      SELECT "r2s"."title"
      FROM "reminders" AS "r2s"
      WHERE (("r2s"."title" LIKE '%a%'))
      ORDER BY "r2s"."title"
      LIMIT 2
      ┌──────────────────────┐
      │ title                │
      ├──────────────────────┤
      │ Archive old invoices │
      │ Book train to Lyon   │
      └──────────────────────┘
      """
    }
  }
}
