import QuarryEngine
import XCTest

@testable import Workbench

/// Datasets whose values change as the schema allows: over a few seeds every kind of change
/// appears (NULLs, boundaries, letter case, new labels, dates moved by a day or a month), a value
/// the task gives is never touched, and no change the schema refuses is kept.
final class ValueVariationTests: XCTestCase {
  func varied(_ fixture: String, seed: UInt64, keeping: Set<String> = [], bounds: [String] = []) throws -> Database {
    try Session.fixture(fixture, variant: true, shiftingIDs: 0) { database in
      try ValueVariation(seed: seed).apply(to: database, keeping: keeping, bounds: bounds)
    }.database
  }

  func testEveryKindOfChangeAppearsOverTwentyFourSeeds() throws {
    var seen: Set<String> = []
    for seed in UInt64(1)...24 {
      let database = try varied("shop", seed: seed, keeping: ["gaspar lobo"], bounds: ["20"])
      XCTAssertEqual(try database.rows("PRAGMA foreign_key_check"), [], "seed \(seed)")
      let checks = [
        "quantity 0 or less": "SELECT 1 FROM orderItems WHERE quantity <= 0",
        "a price on the bound": "SELECT 1 FROM products WHERE price = 20",
        "a fractional price": "SELECT 1 FROM products WHERE price * 4 = round(price * 4) AND price * 2 <> round(price * 2)",
        "a new status": "SELECT 1 FROM orders WHERE status = 'other'",
        "an e-mail in capitals": "SELECT 1 FROM customers WHERE email <> lower(email)",
        "a NULL supplier": "SELECT 1 FROM products WHERE supplierID IS NULL AND name <> 'Gift card'",
        "an order moved by a day or a month":
          "SELECT 1 FROM orders WHERE substr(orderedAt, 9, 2) NOT IN ('04', '09', '11', '15', '20', '01')",
        "an empty or long name": "SELECT 1 FROM customers WHERE name = '' OR length(name) > 100",
        "no price above 0": "SELECT 1 FROM (SELECT count(*) AS n, max(price) AS top FROM products) WHERE n > 0 AND top <= 0",
        "letters beyond ASCII": "SELECT 1 FROM products WHERE length(CAST(name AS BLOB)) > length(name)",
        "a copied parent with a child":
          "SELECT 1 FROM orders o WHERE o.id > 6 AND EXISTS (SELECT 1 FROM orderItems i WHERE i.orderID = o.id)",
      ]
      for (name, sql) in checks where try !database.rows(sql).isEmpty { seen.insert(name) }
      // The given name is never changed, nor copied, nor emptied with its table (the task asks
      // about that row).
      XCTAssertEqual(try database.rows("SELECT count(*) FROM customers WHERE lower(name) = 'gaspar lobo'"), [[.integer(1)]], "seed \(seed)")
    }
    XCTAssertEqual(
      seen.sorted(),
      [
        "a NULL supplier", "a copied parent with a child", "a fractional price", "a new status", "a price on the bound",
        "an e-mail in capitals", "an empty or long name", "an order moved by a day or a month", "letters beyond ASCII",
        "no price above 0", "quantity 0 or less",
      ])
  }

  func testAParentWithAUniqueNameIsCopiedUnderAnother() throws {
    // remindersLists.title is UNIQUE: over a few seeds a list is copied as '… 2' with reminders.
    var copied = false
    for seed in UInt64(1)...12 {
      let database = try varied("reminders", seed: seed)
      XCTAssertEqual(try database.rows("PRAGMA foreign_key_check"), [], "seed \(seed)")
      let found =
        !(try database.rows(
          "SELECT 1 FROM remindersLists l WHERE l.title LIKE '% 2' AND EXISTS (SELECT 1 FROM reminders r WHERE r.remindersListID = l.id)"))
        .isEmpty
      copied = copied || found
    }
    XCTAssertTrue(copied)
  }

  func testTheColumnsTheSolutionReadsChangeMost() throws {
    // Focused on notes: more of the notes change than without a focus, over the same seeds.
    let original = try Session.fixture("reminders", variant: true).database.rows("SELECT id, notes FROM reminders ORDER BY id")
    func changedNotes(_ database: Database) throws -> Int {
      try zip(original, database.rows("SELECT id, notes FROM reminders ORDER BY id")).filter { $0 != $1 }.count
    }
    var focusedChanges = 0
    var otherChanges = 0
    for seed in UInt64(1)...8 {
      let focused = try Session.fixture("reminders", variant: true, shiftingIDs: 0) { database in
        try ValueVariation(seed: seed, focus: ValueVariation.focus(of: "SELECT title, length(notes) FROM reminders")).apply(
          to: database, keeping: [])
      }.database
      focusedChanges += try changedNotes(focused)
      otherChanges += try changedNotes(varied("reminders", seed: seed))
    }
    XCTAssertGreaterThanOrEqual(focusedChanges * 2, otherChanges * 3, "at least half as many again")
  }

  func testTheSameSeedMakesTheSameRows() throws {
    let dump = { (database: Database) in
      try database.rows("SELECT * FROM products ORDER BY id") + database.rows("SELECT * FROM orders ORDER BY id")
    }
    XCTAssertEqual(try dump(varied("shop", seed: 5)), try dump(varied("shop", seed: 5)))
    XCTAssertNotEqual(try dump(varied("shop", seed: 5)), try dump(varied("shop", seed: 6)))
  }

  func testATreeGrowsDeeperWithoutACycle() throws {
    for seed in UInt64(1)...8 {
      let database = try varied("organisation", seed: seed)
      // Every chain of managers ends: the recursive walk up from every employee stops.
      let depth = try database.rows(
        """
        WITH RECURSIVE up(id, managerID, depth) AS (SELECT id, managerID, 0 FROM employees UNION ALL SELECT e.id, e.managerID, up.depth + 1 FROM up JOIN employees e ON e.id = up.managerID WHERE up.depth < 100) SELECT max(depth) FROM up
        """)
      // NULL: the table was left empty (a change the recipe makes now and then).
      guard case .integer(let deepest)? = depth.first?.first else { continue }
      XCTAssertLessThan(deepest, 100, "seed \(seed)")
    }
  }
}
