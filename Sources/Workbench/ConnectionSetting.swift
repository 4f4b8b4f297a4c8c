import FoundationEssentials
import QuarryEngine
import QueryBuilder

/// A connection setting a `PRAGMA` assigns (`PRAGMA foreign_keys = OFF`), with its value before:
/// such pragmas are not part of any transaction, so a failed input sets them back by hand.
///
/// ```
/// quarry> PRAGMA foreign_keys = OFF; INSERT INTO reminders (remindersListID, title) VALUES (99, 'x')
/// note: set back: PRAGMA foreign_keys = 1
/// ```
struct ConnectionSetting {
  let name: String
  let before: QueryBinding

  /// The setting `text` assigns, read before it is compiled (SQLite applies a flag pragma as it
  /// compiles it); nil when it assigns nothing or its value cannot be read.
  init?(assignedIn text: String, database: Database) {
    guard let name = Self.assignedName(in: text),
      let rows = try? database.rows("PRAGMA \(name)"), rows.count == 1, let row = rows.first, row.count == 1,
      let value = row.first
    else { return nil }
    self.name = name
    before = value
  }

  /// `PRAGMA main.foreign_keys = OFF` and `PRAGMA foreign_keys(0)` assign `main.foreign_keys`
  /// and `foreign_keys`.
  static func assignedName(in text: String) -> String? {
    var rest = Substring(text).drop { $0.isWhitespace }
    guard rest.prefix(6).uppercased() == "PRAGMA" else { return nil }
    rest = rest.dropFirst(6).drop { $0.isWhitespace }
    let name = rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }
    guard !name.isEmpty else { return nil }
    let after = rest.dropFirst(name.count).drop { $0.isWhitespace }
    guard after.first == "=" || after.first == "(" else { return nil }
    return String(name)
  }

  /// Pragmas SQLite ignores or refuses inside a transaction: they never open Quarry's savepoint.
  static func runsOutsideTransactions(_ text: String) -> Bool {
    let isPragma = Substring(text).drop { $0.isWhitespace }.prefix(6).uppercased() == "PRAGMA"
    // One that assigns nothing (`PRAGMA wal_checkpoint`, `PRAGMA optimize`) runs as written.
    guard isPragma else { return false }
    guard let name = assignedName(in: text)?.split(separator: ".").last?.lowercased() else { return true }
    return ["journal_mode", "foreign_keys", "wal_checkpoint", "locking_mode", "page_size", "auto_vacuum"].contains(name)
  }

  /// Assigns the value it had before; false if SQLite refused.
  func restore(in database: Database) -> Bool {
    (try? database.execute("PRAGMA \(name) = \(before.inlineSQL)")) != nil
  }
}
