import QuarryEngine
import XCTest

@testable import Workbench

/// The generated datasets answers are checked on: reproducible from their seed, rows copied
/// (never one the task names), dates moved by whole years, ids permuted with foreign keys intact.
final class GeneratedRowsTests: XCTestCase {
  func employees(seed: UInt64, permuting: Bool = true) throws -> (rows: [[DatabaseValue]], database: Database) {
    let session = try Session.fixture("organisation", variant: true, shiftingIDs: 0) { database in
      try GeneratedRows(seed: seed).apply(to: database, permutingIDs: permuting, keeping: ["Rui Matos"])
    }
    let rows = try session.database.rows("SELECT id, name, managerID, hiredAt FROM employees ORDER BY id")
    return (rows, session.database)
  }

  func testTheSameSeedMakesTheSameRows() throws {
    let variant = try Session.fixture("organisation", variant: true).database.rows(
      "SELECT id, name, managerID, hiredAt FROM employees ORDER BY id")
    let (first, database) = try employees(seed: 2)
    XCTAssertEqual(try employees(seed: 2).rows, first)
    XCTAssertNotEqual(try employees(seed: 1).rows, first)
    // Two rows copied, never the one the task names.
    XCTAssertEqual(first.count, variant.count + 2)
    XCTAssertEqual(first.filter { $0[1] == .text("Rui Matos") }.count, 1)
    // Ids permuted into 302, 305, …; every manager still an employee; no foreign key broken.
    let ids = Set(first.compactMap { row -> Int64? in if case .integer(let id) = row[0] { return id } else { return nil } })
    XCTAssertEqual(ids, Set((0..<first.count).map { Int64(302 + 3 * $0) }))
    for row in first where row[2] != .null { XCTAssertTrue(ids.contains { .integer($0) == row[2] }, "\(row)") }
    XCTAssertEqual(try database.rows("PRAGMA foreign_key_check"), [])
    // Rui Matos still manages the same people, by name.
    let reports = { (database: Database) in
      try database.rows("SELECT e.name FROM employees e JOIN employees m ON e.managerID = m.id WHERE m.name = 'Rui Matos' ORDER BY 1")
    }
    XCTAssertEqual(try reports(database), try reports(Session.fixture("organisation", variant: true).database))
  }

  func testDatesMoveByWholeYearsInHalfTheRows() throws {
    let variant = try Session.fixture("organisation", variant: true).database.rows("SELECT name, hiredAt FROM employees ORDER BY id")
    let moved = try employees(seed: 2, permuting: false).rows.prefix(variant.count)
    var changed = 0
    for (before, after) in zip(variant, moved) {
      guard before[1] != after[3], let old = before[1].textValue, let new = after[3].textValue else { continue }
      changed += 1
      XCTAssertEqual(Int(new.prefix(4)), (Int(old.prefix(4)) ?? 0) - 1, "seed 2 moves dates a year back")
      XCTAssertEqual(new.dropFirst(4), old.dropFirst(4))
    }
    XCTAssertEqual(changed, (variant.count + 1) / 2)
  }
}
