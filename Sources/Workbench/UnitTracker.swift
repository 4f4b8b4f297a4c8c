import QuarryDSL
import QuarryEngine

/// The migrations and write blocks of a models file as they run, each in its own savepoint: a
/// statement that fails marks the open unit failed, and leaving it rolls it back whole. After a
/// migration fails, later migrations are skipped, as GRDB's migrator stops at the first error.
///
/// ```
/// migrator.registerMigration("Seed") { db in
///   try Project.insert { Project.Draft(name: "A") }.execute(db)
///   try Project.insert { Project.Draft(name: "A") }.execute(db)   // UNIQUE constraint failed
/// }
/// // error: Schema.swift:6:3: migration 'Seed' was rolled back (1 row undone); none of its changes stay
/// ```
struct UnitTracker {
  private struct Open {
    var unit: TransactionUnit
    var transaction: InputTransaction?
    var failed = false
  }

  private var open: Open?
  /// Units nested in the open one (a write block inside a migration): part of it.
  private var depth = 0
  /// A unit skipped whole (a migration after one that failed).
  private var skipping = 0
  /// The first migration that failed.
  private(set) var failedMigration: TransactionUnit?

  var isOpen: Bool { open != nil }
  /// Whether the statements now read belong to a skipped unit.
  var isSkipping: Bool { skipping > 0 }

  /// Starts a unit; false when it is skipped (a migration after a failed one).
  mutating func enter(_ unit: TransactionUnit, database: Database) -> Bool {
    if skipping > 0 || open != nil {
      if skipping > 0 { skipping += 1 } else { depth += 1 }
      return skipping == 0
    }
    if case .migration = unit.kind, failedMigration != nil {
      skipping = 1
      return false
    }
    open = Open(unit: unit, transaction: try? InputTransaction(database, name: "quarry_unit"))
    return true
  }

  /// A statement of the open unit failed.
  mutating func fail() {
    open?.failed = true
  }

  /// Ends a unit: what its transaction did (nil for a nested or skipped one).
  mutating func leave() -> (TransactionUnit, InputTransaction.Outcome, InputTransaction)? {
    if skipping > 0 {
      skipping -= 1
      return nil
    }
    if depth > 0 {
      depth -= 1
      return nil
    }
    guard let ending = open else { return nil }
    open = nil
    if ending.failed, case .migration = ending.unit.kind, failedMigration == nil { failedMigration = ending.unit }
    guard let transaction = ending.transaction else { return nil }
    let outcome = transaction.end(rollingBack: ending.failed)
    if case .undone = outcome, !ending.failed { return nil }
    return (ending.unit, outcome, transaction)
  }
}
