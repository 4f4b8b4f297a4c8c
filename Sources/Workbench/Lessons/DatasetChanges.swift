import QuarryEngine
import QueryBuilder

/// What a searched dataset changed from the rows it was made from, in the tables an exercise
/// reads or writes: the rows a ✗ message on that dataset is about, shown with it, since the
/// learner never saw them.
///
/// ```
/// the rows that differ there from the variant's: "products" id 1: price -9.0 (was 9.0);
/// "products": a row (14, 'Desk lamp', 'office', 25.0, 2) not in the others; "orders": no rows
/// ```
struct DatasetChanges {
  /// A changed, added or removed row, or a table left empty.
  enum Change: Equatable {
    case changed(
      table: String, key: String, cells: [(column: String, now: DatabaseValue, was: DatabaseValue)])
    case added(table: String, row: [DatabaseValue])
    case removed(table: String, key: String)
    case emptied(table: String)

    static func == (lhs: Change, rhs: Change) -> Bool { lhs.text == rhs.text }

    var text: String {
      switch self {
      case .changed(let table, let key, let cells):
        let shown = cells.map { "\($0.column) \($0.now.inlineSQL) (was \($0.was.inlineSQL))" }
        return "\(quoteIdentifier(table)) \(key): " + shown.joined(separator: ", ")
      case .added(let table, let row):
        return "\(quoteIdentifier(table)): a row (" + row.map(\.inlineSQL).joined(separator: ", ")
          + ") not in the others"
      case .removed(let table, let key): return "\(quoteIdentifier(table)) \(key): gone"
      case .emptied(let table): return "\(quoteIdentifier(table)): no rows"
      }
    }
  }

  var changes: [Change] = []

  /// The changes `dataset` makes to the rows it starts from (the fixture's, or the variant's),
  /// in the tables the statements `sql` name, in table order then row order.
  init(dataset: AnswerChecker.Dataset, fixture: String, namedIn sql: [String]) throws {
    let before = try Session.fixture(
      fixture, variant: dataset.variant, shiftingIDs: dataset.idShift)
    let after = try Session.fixture(fixture, variant: dataset.variant, shiftingIDs: dataset.idShift) { database in
      try dataset.generated?.apply(
        to: database, permutingIDs: dataset.permutesIDs, keeping: dataset.keeping,
        bounds: dataset.bounds)
    }
    let statements = sql.map { $0.lowercased() }
    for table in try AnswerChecker.userTables(of: before) where Self.isNamed(table, in: statements) {
      let select =
        "SELECT rowid AS \"quarry_rowid\", * FROM \(quoteIdentifier(table)) ORDER BY rowid"
      guard let old = try? before.database.prepare(select),
        let new = try? after.database.prepare(select)
      else { continue }
      let columns = Array(old.columnNames.dropFirst())
      let oldRows = try old.rows()
      let newRows = try new.rows()
      if newRows.isEmpty, !oldRows.isEmpty {
        changes.append(.emptied(table: table))
        continue
      }
      if dataset.permutesIDs {
        // Ids moved: rows are matched by their other values (keys and references left out).
        let links = Set(
          try before.database.rows(
            "SELECT \"from\" FROM pragma_foreign_key_list(?)", bindings: [.text(table)]
          ).compactMap { $0.first?.textValue })
        let kept = columns.indices.filter {
          columns[$0].lowercased() != "id" && !links.contains(columns[$0])
        }
        func shape(_ row: [DatabaseValue]) -> [DatabaseValue] { kept.map { row[$0 + 1] } }
        var remaining = oldRows.map(shape)
        for row in newRows {
          if let match = remaining.firstIndex(of: shape(row)) {
            remaining.remove(at: match)
          } else {
            changes.append(.added(table: table, row: Array(row.dropFirst())))
          }
        }
        for row in remaining {
          changes.append(
            .removed(
              table: table, key: "a row (" + row.map(\.inlineSQL).joined(separator: ", ") + ")"))
        }
        continue
      }
      var oldByRowid: [Int64: [DatabaseValue]] = [:]
      for row in oldRows {
        if case .integer(let id)? = row.first { oldByRowid[id] = Array(row.dropFirst()) }
      }
      var seen: Set<Int64> = []
      for row in newRows {
        guard case .integer(let id)? = row.first else { continue }
        let values = Array(row.dropFirst())
        seen.insert(id)
        let key = Self.key(columns: columns, values: values, rowid: id)
        guard let was = oldByRowid[id] else {
          changes.append(.added(table: table, row: values))
          continue
        }
        let cells = zip(columns, zip(values, was)).filter { $0.1.0 != $0.1.1 }.map {
          (column: $0.0, now: $0.1.0, was: $0.1.1)
        }
        if !cells.isEmpty { changes.append(.changed(table: table, key: key, cells: cells)) }
      }
      for (id, values) in oldByRowid.sorted(by: { $0.key < $1.key }) where !seen.contains(id) {
        changes.append(
          .removed(table: table, key: Self.key(columns: columns, values: values, rowid: id)))
      }
    }
  }

  /// Whether a statement names `table` (quoted, or as a word): the checker's own reads of every
  /// table are not the answer's.
  static func isNamed(_ table: String, in statements: [String]) -> Bool {
    let name = table.lowercased()
    return statements.contains {
      $0.contains("\"" + name + "\"") || $0.contains(" " + name + " ") || $0.hasSuffix(" " + name)
        || $0.contains(" " + name + "\n")
    }
  }

  /// How a row is named: by its `id` column where it has one, else by its rowid.
  static func key(columns: [String], values: [DatabaseValue], rowid: Int64) -> String {
    if let index = columns.firstIndex(where: { $0.lowercased() == "id" }), index < values.count {
      return "id \(values[index].inlineSQL)"
    }
    return "rowid \(rowid)"
  }

  /// The first `limit` changes, with how many more there are: the text a message appends.
  func summary(limit: Int = 6) -> String? {
    guard !changes.isEmpty else { return nil }
    var text = changes.prefix(limit).map(\.text).joined(separator: "; ")
    if changes.count > limit { text += "; and \(changes.count - limit) more" }
    return text
  }
}
