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
        guard let table = aliases[name.lowercased()] else { continue }
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
        let column = String(detail[detail.index(after: open)...].prefix { $0.isLetter || $0.isNumber || $0 == "_" })
        guard let table = aliases[name.lowercased()] else {
          // A common table expression or a subquery: no index of the schema can serve it.
          out.append(
            .init(
              id: "automatic-index",
              message:
                "SQLite builds a temporary index on \(quoteIdentifier(name)).\(quoteIdentifier(column)) each time this query runs (\(detail)): \(quoteIdentifier(name)) is computed by the query, so no index of a table serves it; for many rows, join the table itself"
            ))
          continue
        }
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
        // The terms sorted on, where the SQL has one such clause: each variant of a query that
        // sorts on other terms has its own finding.
        let purpose = detail.dropFirst(20)
        let clause = ["ORDER BY", "GROUP BY"].first { purpose.hasSuffix($0) }
        let written = clause.flatMap { Self.terms(of: $0, in: sql) }
        let terms = written.map { " \($0)" } ?? ""
        out.append(
          .init(
            id: "temp-b-tree",
            message:
              "SQLite sorts the rows in a temporary B-tree for \(purpose)\(terms) (\(detail)): fine for a few rows; for many, an index in that order avoids the sort",
            fix: clause == "ORDER BY" ? written.flatMap { sortingIndex(for: $0, aliases: aliases) } : nil
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

  /// `FROM "reminders" AS "r"`, `JOIN segmentCoordinate sc`: the names the plan may give a
  /// table (SQLite's plan says `SCAN sc`), lower-cased, to the tables of the schema they stand
  /// for. A name that is neither (a common table expression, a subquery) stands for no table, and
  /// gets no index.
  private func tableAliases() -> [String: String] {
    var out: [String: String] = [:]
    let tokens = SQLMutants.tokens(sql).filter { $0.kind != .space }
    let tables = indexes.tableNames()
    for (index, token) in tokens.enumerated() {
      guard let name = token.name, let table = tables[name] else { continue }
      out[name] = table
      let previous = index > 0 ? tokens[index - 1].upper : ""
      guard ["FROM", "JOIN", ","].contains(previous) else { continue }
      var next = index + 1
      if next < tokens.count, tokens[next].upper == "AS" { next += 1 }
      guard next < tokens.count, let alias = tokens[next].name, !Self.clauseWords.contains(alias.uppercased()) else { continue }
      out[alias] = table
    }
    return out
  }

  /// The terms of the one `ORDER BY` (or `GROUP BY`) clause of `sql`: nil when it has none or
  /// several (a subquery's), or they are long.
  static func terms(of clause: String, in sql: String) -> String? {
    let upper = sql.uppercased()
    let found = upper.ranges(of: clause)
    guard found.count == 1, let range = found.first else { return nil }
    var depth = 0
    var end = sql.endIndex
    var index = range.upperBound
    while index < sql.endIndex {
      let character = sql[index]
      if character == "(" { depth += 1 }
      if character == ")" {
        if depth == 0 {
          end = index
          break
        }
        depth -= 1
      }
      if depth == 0, [" LIMIT ", " OFFSET ", " HAVING ", " WINDOW ", " ORDER BY "].contains(where: { upper[index...].hasPrefix($0) }) {
        end = index
        break
      }
      index = sql.index(after: index)
    }
    let terms = String(sql[range.upperBound..<end].drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    return terms.isEmpty || terms.count > 120 ? nil : terms
  }

  /// `ORDER BY "logEntries"."date" DESC` on one table, filtered by `"metricId" = ?`: the index
  /// that gives the rows in that order, its equality-filtered columns first
  /// (`CREATE INDEX "idx_logEntries_metricId_date" ON "logEntries"("metricId", "date" DESC)`); nil
  /// when the terms are not plain columns of one table. The scan keeps it only when SQLite's plan
  /// with it sorts no more.
  private func sortingIndex(for terms: String, aliases: [String: String]) -> String? {
    var table: String?
    var columns: [(name: String, descending: Bool)] = []
    for term in terms.split(separator: ",") {
      guard
        let match = String(term).firstMatch(
          of: /^\s*(?:"([^"]+)"|(\w+))\.(?:"([^"]+)"|(\w+))(?:\s+(ASC|DESC))?\s*$/.ignoresCase())
      else { return nil }
      guard let owner = aliases[String(match.1 ?? match.2 ?? "").lowercased()], table == nil || table == owner else { return nil }
      table = owner
      columns.append((String(match.3 ?? match.4 ?? ""), match.5?.uppercased() == "DESC"))
    }
    guard let table, !columns.isEmpty else { return nil }
    let filtered = equalityFilteredColumns(of: table, aliases: aliases).filter { name in !columns.contains { $0.name == name } }
    let parts = filtered.map(quoteIdentifier) + columns.map { quoteIdentifier($0.name) + ($0.descending ? " DESC" : "") }
    let name = "idx_\(table)_" + (filtered + columns.map(\.name)).joined(separator: "_")
    return "CREATE INDEX \(quoteIdentifier(name)) ON \(quoteIdentifier(table))(\(parts.joined(separator: ", ")))"
  }

  /// Columns of `table` (or an alias of it) the query compares with `=` to something.
  private func equalityFilteredColumns(of table: String, aliases: [String: String]) -> [String] {
    var found: [String] = []
    for (name, owner) in aliases where owner == table {
      let escaped = TextPattern.escaped(name)
      guard let pattern = TextPattern("(?:\"\(escaped)\"|\\b\(escaped))\\.\"?(\\w+)\"?\\)?\\s*(?:=|==)(?!=)", ignoringCase: true) else {
        continue
      }
      for match in pattern.matches(in: sql) {
        guard let group = match[1], !found.contains(String(group)) else { continue }
        found.append(String(group))
      }
    }
    return found
  }

  /// Words that may follow a table in FROM and are no alias.
  private static let clauseWords: Set<String> = [
    "AS", "ON", "USING", "WHERE", "JOIN", "LEFT", "RIGHT", "FULL", "INNER", "OUTER", "CROSS", "NATURAL", "GROUP",
    "ORDER", "LIMIT", "HAVING", "WINDOW", "UNION", "EXCEPT", "INTERSECT", "INDEXED", "NOT", "RETURNING", "SET",
    "VALUES", "SELECT", "DEFAULT", "WITH", "OFFSET",
  ]

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

  /// The schema's tables by lower-cased name (SQLite compares names without case), read now:
  /// a test's body may have created some since the set-up.
  func tableNames() -> [String: String] {
    var out: [String: String] = [:]
    for row in (try? database.rows("SELECT name FROM sqlite_schema WHERE type = 'table'")) ?? [] {
      if case .text(let name)? = row.first { out[name.lowercased()] = name }
    }
    return out
  }

  func leading(_ table: String) -> Set<String> {
    if let known = tables[table] { return known }
    let columns = PlanFindings.indexedLeadingColumns(of: table, in: database)
    tables[table] = columns
    return columns
  }
}
