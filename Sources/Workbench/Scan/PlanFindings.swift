import FoundationEssentials
import QuarryEngine
import QueryBuilder

/// What SQLite's own plan for a query (`EXPLAIN QUERY PLAN`) says is slow, with the index that
/// answers it where there is one.
///
/// ```
/// SCAN reminders                       → full-scan: CREATE INDEX "idx_reminders_remindersListID" …
/// USE TEMP B-TREE FOR ORDER BY         → temp-b-tree
/// CORRELATED SCALAR SUBQUERY 1         → correlated-subquery
/// SEARCH t USING AUTOMATIC COVERING INDEX (tagID=?)  → automatic-index
/// ```
struct PlanFindings {
  let sql: String
  let details: [String]
  let indexes: IndexedColumns

  var findings: [ScanReport.Finding] {
    var out: [ScanReport.Finding] = []
    let aliases = tableAliases()
    for detail in details {
      if detail.hasPrefix("SCAN "), !detail.dropFirst(5).contains(" ") {
        // A whole table read row by row: a finding when the query filters or joins it on a
        // column no index leads with.
        let name = String(detail.dropFirst(5))
        let table = aliases[name] ?? name
        let filtered = filteredColumns(of: name)
        guard !filtered.isEmpty else { continue }
        let indexed = indexes.leading(table)
        let missing = filtered.filter { !indexed.contains($0.lowercased()) }
        guard let column = missing.first else { continue }
        out.append(
          .init(
            id: "full-scan",
            message:
              "SQLite reads every row of \(quoteIdentifier(table)) to find those matching \(quoteIdentifier(column)) (\(detail)); an index on it lets SQLite go straight to them",
            fix: "CREATE INDEX \(quoteIdentifier("idx_\(table)_\(column)")) ON \(quoteIdentifier(table))(\(quoteIdentifier(column)))"))
      } else if detail.hasPrefix("SEARCH "), detail.contains(" USING AUTOMATIC "), let open = detail.firstIndex(of: "(") {
        // SQLite builds an index for this one query, every time it runs.
        let name = String(detail.dropFirst(7).prefix { $0 != " " })
        let table = aliases[name] ?? name
        let column = String(detail[detail.index(after: open)...].prefix { $0.isLetter || $0.isNumber || $0 == "_" })
        let why =
          indexes.leading(table).contains(column.lowercased())
          ? "its index on that column cannot serve this comparison (the other side has another collation or type affinity)"
          : "the table has no index on that column"
        out.append(
          .init(
            id: "automatic-index",
            message:
              "SQLite builds a temporary index on \(quoteIdentifier(table)).\(quoteIdentifier(column)) each time this query runs (\(detail)): \(why)",
            fix: "CREATE INDEX \(quoteIdentifier("idx_\(table)_\(column)")) ON \(quoteIdentifier(table))(\(quoteIdentifier(column)))"))
      } else if detail.hasPrefix("USE TEMP B-TREE FOR ") {
        out.append(
          .init(
            id: "temp-b-tree",
            message:
              "SQLite sorts the rows in a temporary B-tree for \(detail.dropFirst(20)) (\(detail)): fine for a few rows; for many, an index in that order avoids the sort"
          ))
      } else if detail.hasPrefix("CORRELATED ") {
        out.append(
          .init(
            id: "correlated-subquery",
            message:
              "a subquery runs once for each row of the outer query (\(detail)): for many rows, a join or a grouped subquery runs once"))
      }
    }
    return out
  }

  /// `FROM "reminders" AS "r"`: aliases to the tables they stand for.
  private func tableAliases() -> [String: String] {
    var out: [String: String] = [:]
    guard sql.contains(" AS ") || sql.contains(" as "),
      let pattern = TextPattern(#"(?:FROM|JOIN)\s+"([^"]+)"\s+AS\s+"([^"]+)""#, ignoringCase: true)
    else { return out }
    for match in pattern.matches(in: sql) {
      guard let table = match[1], let alias = match[2] else { continue }
      out[String(alias)] = String(table)
    }
    return out
  }

  /// Columns of `name` (a table or its alias) the query compares with something: in WHERE,
  /// ON, or a subquery's conditions.
  private func filteredColumns(of name: String) -> [String] {
    let escaped = TextPattern.escaped(name)
    let column = "(?:\"\(escaped)\"|\\b\(escaped))\\.\"?(\\w+)\"?\\)?"
    // Comparisons an index on the column answers (not `LIKE`, `GLOB` or `<>`, which it cannot in
    // general: a pattern may start with a wildcard).
    let comparison = "(?:=|==|<=|>=|<|>|\\bIN\\b|\\bIS\\b|\\bBETWEEN\\b)(?!=)"
    var found: [String] = []
    for pattern in ["\(column)\\s*\(comparison)", "\(comparison)\\s*\\(?\(column)"] {
      guard let regex = TextPattern(pattern, ignoringCase: true) else { continue }
      for match in regex.matches(in: sql) {
        guard let group = match[1] else { continue }
        let name = String(group)
        if !found.contains(name) { found.append(name) }
      }
    }
    return found
  }

  /// Columns an index of `table` starts with (the rowid's alias included): a lookup by one of
  /// them needs no scan.
  static func indexedLeadingColumns(of table: String, in database: Database) -> Set<String> {
    var out: Set<String> = ["rowid"]
    if let columns = try? database.rows("SELECT name, type, pk FROM pragma_table_info(?)", bindings: [.text(table)]) {
      let keys = columns.filter { if case .integer(let pk) = $0[2] { return pk > 0 } else { return false } }
      if keys.count == 1, case .text(let name) = keys[0][0], case .text(let type) = keys[0][1], type.uppercased() == "INTEGER" {
        out.insert(name.lowercased())
      }
    }
    if let indexes = try? database.rows("SELECT name FROM pragma_index_list(?)", bindings: [.text(table)]) {
      for index in indexes {
        guard case .text(let name) = index[0],
          let first = try? database.rows("SELECT name FROM pragma_index_info(?) WHERE seqno = 0", bindings: [.text(name)]),
          case .text(let column)? = first.first?.first
        else { continue }
        out.insert(column.lowercased())
      }
    }
    return out
  }
}

/// The columns each table's indexes start with, read once per table for a whole scan (the
/// schema does not change once the set-up has run).
final class IndexedColumns {
  private let database: Database
  private var tables: [String: Set<String>] = [:]

  init(_ database: Database) { self.database = database }

  func leading(_ table: String) -> Set<String> {
    if let known = tables[table] { return known }
    let columns = PlanFindings.indexedLeadingColumns(of: table, in: database)
    tables[table] = columns
    return columns
  }
}
