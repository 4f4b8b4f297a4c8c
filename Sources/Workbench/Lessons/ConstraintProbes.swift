import QuarryEngine
import QueryBuilder

/// How the tables an exercise creates behave: which rows they refuse, and why. Each column of
/// each new table is given, in turn, a value from a fixed list (NULL, numbers around small
/// bounds, text) in an otherwise ordinary row, inserted and rolled back at once. Two tables
/// whose CHECK, NOT NULL, UNIQUE or foreign key constraints differ refuse different rows —
/// whatever their CREATE statements' text.
///
/// ```
/// CREATE TABLE ratings (stars INTEGER NOT NULL CHECK (stars BETWEEN 1 AND 3))
/// // stars = NULL: NOT NULL constraint failed; stars = 0: CHECK constraint failed; stars = 1: accepted; …
/// ```
struct ConstraintProbes: Equatable {
  struct Probe: Equatable {
    var table: String
    var column: String
    var value: DatabaseValue
    /// Nil when the row was accepted; else the kind of failure (`CHECK constraint failed`).
    var refusal: String?
  }

  var probes: [Probe] = []

  static let values: [DatabaseValue] = [
    .null, .integer(0), .integer(1), .integer(2), .integer(3), .integer(4), .integer(5), .integer(-1), .integer(10),
    .integer(100), .text(""), .text("x"),
  ]

  /// Probes every ordinary table among `tables` (names as SQLite spells them).
  static func run(on tables: [String], in database: Database) -> ConstraintProbes {
    var out = ConstraintProbes()
    let ordinary = Set(
      ((try? database.rows("SELECT name FROM pragma_table_list WHERE type = 'table'")) ?? []).compactMap { $0.first?.textValue })
    for table in tables where ordinary.contains(table) {
      let info = (try? database.rows("SELECT name, type FROM pragma_table_info(?) ORDER BY cid", bindings: [.text(table)])) ?? []
      let columns = info.compactMap { $0.first?.textValue }
      guard !columns.isEmpty, columns.count <= 32 else { continue }
      let existing = (try? database.rows("SELECT * FROM \(quoteIdentifier(table)) ORDER BY rowid LIMIT 1"))?.first
      // A foreign key refers to a row that exists.
      var parents: [String: DatabaseValue] = [:]
      for key in (try? database.rows("SELECT \"from\", \"table\", \"to\" FROM pragma_foreign_key_list(?)", bindings: [.text(table)])) ?? []
      {
        guard let from = key[0].textValue, let parent = key[1].textValue else { continue }
        let target = key[2].textValue.map(quoteIdentifier) ?? "rowid"
        if let value =
          (try? database.rows("SELECT \(target) FROM \(quoteIdentifier(parent)) WHERE \(target) IS NOT NULL ORDER BY 1 LIMIT 1"))?.first?
          .first
        {
          parents[from] = value
        }
      }
      // An ordinary row: the table's first, or a plain value of each column's type.
      let base: [DatabaseValue] = info.enumerated().map { index, column in
        if let existing, index < existing.count, existing[index] != .null { return existing[index] }
        if let name = column.first?.textValue, let parent = parents[name] { return parent }
        let type = (column.count > 1 ? column[1].textValue : nil)?.uppercased() ?? ""
        if type.contains("INT") { return .integer(1) }
        if type.contains("CHAR") || type.contains("TEXT") || type.contains("CLOB") { return .text("a") }
        if type.contains("REAL") || type.contains("FLOA") || type.contains("DOUB") { return .double(1) }
        return .integer(1)
      }
      let sql =
        "INSERT INTO \(quoteIdentifier(table)) (\(columns.map(quoteIdentifier).joined(separator: ", "))) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))"
      for (index, column) in columns.enumerated() {
        for value in values {
          var row = base
          row[index] = value
          out.probes.append(Probe(table: table, column: column, value: value, refusal: attempt(sql, row, in: database)))
        }
      }
    }
    return out
  }

  /// Inserts one row and takes it back; the kind of failure, or nil.
  private static func attempt(_ sql: String, _ row: [DatabaseValue], in database: Database) -> String? {
    guard (try? database.execute("SAVEPOINT quarry_probe")) != nil else { return "not tried" }
    defer { _ = try? database.execute("ROLLBACK TO quarry_probe; RELEASE quarry_probe") }
    do {
      let statement = try database.prepare(sql)
      try statement.bind(row)
      _ = try statement.step()
      return nil
    } catch {
      let message = "\(error)"
      for kind in [
        "CHECK constraint failed", "NOT NULL constraint failed", "UNIQUE constraint failed", "FOREIGN KEY constraint failed",
        "datatype mismatch",
      ]
      where message.contains(kind) {
        return kind
      }
      return "refused"
    }
  }

  /// The first row one table set refuses and the other accepts (or refuses for another reason),
  /// said for a learner; nil when they behave alike.
  static func difference(expected: ConstraintProbes, actual: ConstraintProbes) -> String? {
    let got = Dictionary(
      actual.probes.map { ("\($0.table.lowercased()).\($0.column.lowercased()).\($0.value.inlineSQL)", $0) },
      uniquingKeysWith: { first, _ in first })
    for want in expected.probes {
      // Refused is refused: which constraint SQLite checks first is not the answer's business.
      guard let probe = got["\(want.table.lowercased()).\(want.column.lowercased()).\(want.value.inlineSQL)"],
        (probe.refusal == nil) != (want.refusal == nil)
      else { continue }
      let row = "a row with \(want.column) = \(want.value.inlineSQL)"
      switch (want.refusal, probe.refusal) {
      case (let reason?, nil):
        return "your table '\(want.table)' accepts \(row), which this exercise's table refuses (\(reason))"
      case (nil, let reason?):
        return "your table '\(want.table)' refuses \(row) (\(reason)), which this exercise's table accepts"
      case (_?, _?), (nil, nil):
        continue
      }
    }
    return nil
  }

  /// Whether some table refused a row with a CHECK constraint.
  var refusesByCheck: Bool { probes.contains { $0.refusal == "CHECK constraint failed" } }
}
