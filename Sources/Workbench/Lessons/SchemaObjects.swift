import QuarryEngine

/// The schema objects an input creates or changes, read from SQLite (`sqlite_schema` and the
/// pragmas), not from the text: what an exercise that defines something is checked by.
///
/// ```
/// CREATE TABLE notes (id INTEGER PRIMARY KEY, listID INTEGER REFERENCES lists(id) ON DELETE CASCADE)
/// // table notes: id INTEGER pk; listID INTEGER; → lists(id) on delete CASCADE
/// ```
struct SchemaObjects: Equatable {
  struct Object: Equatable {
    var type: String
    var name: String
    /// Each fact about it, one line each: columns (type, NOT NULL, default, key), foreign keys
    /// with their actions, an index's table and columns, a trigger's table.
    var facts: [String]
  }

  var objects: [String: Object] = [:]

  /// What ``read(_:cache:)`` made, by the schema's text: a check reads the same schema before and
  /// after each of its runs, and what the pragmas say follows from that text alone.
  final class Cache {
    fileprivate var made: [[[DatabaseValue]]: SchemaObjects] = [:]
  }

  /// Every object of the main and temp schemas but SQLite's own and FTS5's shadow tables.
  static func read(_ database: Database, cache: Cache? = nil) -> SchemaObjects {
    guard
      let rows = try? database.rows(
        "SELECT type, name, tbl_name, sql FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%' UNION ALL SELECT type, name, tbl_name, sql FROM sqlite_temp_schema WHERE name NOT LIKE 'sqlite_%' ORDER BY name"
      )
    else { return SchemaObjects() }
    if let known = cache?.made[rows] { return known }
    let out = read(database, objects: rows)
    cache?.made[rows] = out
    return out
  }

  private static func read(_ database: Database, objects rows: [[DatabaseValue]]) -> SchemaObjects {
    var out = SchemaObjects()
    let shadows = Set(
      ((try? database.rows("SELECT name FROM pragma_table_list WHERE type = 'shadow'")) ?? []).compactMap { $0.first?.textValue })
    for row in rows {
      guard row.count == 4, case .text(let type) = row[0], case .text(let name) = row[1], !shadows.contains(name) else { continue }
      let table = row[2].textValue ?? name
      var facts: [String] = []
      switch type {
      case "table", "view":
        // By behaviour, not by the words declared: a column's type affinity (INT and INTEGER
        // alike), the rowid alias (whose NOT NULL changes nothing), a default's value.
        let columns =
          (try? database.rows("SELECT name, type, \"notnull\", dflt_value, pk FROM pragma_table_info(?)", bindings: [.text(name)])) ?? []
        let keyCount = columns.filter { if case .integer(let key) = $0[4] { key > 0 } else { false } }.count
        for column in columns {
          let columnName = column[0].textValue ?? "?"
          let declared = column[1].textValue?.uppercased() ?? ""
          let isKey = { if case .integer(let key) = column[4] { key > 0 } else { false } }()
          let isRowID = type == "table" && isKey && keyCount == 1 && declared == "INTEGER"
          var fact = "column \(columnName) " + (isRowID ? "INTEGER PRIMARY KEY (the rowid)" : "of \(affinity(declared)) affinity")
          if case .integer(1) = column[2], !isRowID { fact += " NOT NULL" }
          if let value = column[3].textValue { fact += " DEFAULT \(defaultValue(value, in: database))" }
          if isKey, !isRowID { fact += " PRIMARY KEY" }
          facts.append(fact)
        }
        for key
          in (try? database.rows(
            "SELECT \"from\", \"table\", \"to\", on_delete, on_update FROM pragma_foreign_key_list(?)", bindings: [.text(name)])) ?? []
        {
          let values = key.map { $0.textValue ?? "" }
          // `REFERENCES lists` refers to the parent's primary key: the same as `REFERENCES lists(id)`.
          let parentKey = values[2].isEmpty ? primaryKey(of: values[1], in: database) ?? "its key" : values[2]
          facts.append("foreign key \(values[0]) → \(values[1])(\(parentKey)) on delete \(values[3]) on update \(values[4])")
        }
      case "index":
        let columns = ((try? database.rows("SELECT name FROM pragma_index_info(?) ORDER BY seqno", bindings: [.text(name)])) ?? []).map {
          $0.first?.textValue ?? "expression"
        }
        let unique =
          ((try? database.rows("SELECT \"unique\" FROM pragma_index_list(?) WHERE name = ?", bindings: [.text(table), .text(name)])) ?? [])
          .first?.first
        facts.append("on \(table)(\(columns.joined(separator: ", ")))" + (unique == .integer(1) ? " UNIQUE" : ""))
      case "trigger":
        facts.append("on \(table)")
      default:
        break
      }
      out.objects[name.lowercased()] = Object(type: type, name: name, facts: facts)
    }
    return out
  }

  /// SQLite's type affinity of a declared type (its rules, in order).
  static func affinity(_ declared: String) -> String {
    if declared.contains("INT") { return "INTEGER" }
    if declared.contains("CHAR") || declared.contains("CLOB") || declared.contains("TEXT") { return "TEXT" }
    if declared.isEmpty || declared.contains("BLOB") { return "BLOB" }
    if declared.contains("REAL") || declared.contains("FLOA") || declared.contains("DOUB") { return "REAL" }
    return "NUMERIC"
  }

  /// A default by its value (`0`, `(0)` and `'0' + 0` alike); one that reads the clock or
  /// anything else, by its text.
  static func defaultValue(_ text: String, in database: Database) -> String {
    let upper = text.uppercased()
    guard !upper.contains("CURRENT_") && !upper.contains("NOW") && !upper.contains("RANDOM"),
      let row = (try? database.rows("SELECT \(text)"))?.first, let value = row.first
    else { return text }
    return value.inlineSQL
  }

  static func primaryKey(of table: String, in database: Database) -> String? {
    let keys = ((try? database.rows("SELECT name FROM pragma_table_info(?) WHERE pk > 0 ORDER BY pk", bindings: [.text(table)])) ?? [])
      .compactMap { $0.first?.textValue }
    return keys.isEmpty ? nil : keys.joined(separator: ", ")
  }

  /// The objects that are new or different in `after`.
  func changes(to after: SchemaObjects) -> [Object] {
    after.objects.keys.sorted().compactMap { key in
      guard let object = after.objects[key], objects[key] != object else { return nil }
      return object
    }
  }

  /// How an answer's schema falls short of the solution's: a missing object, another kind, or
  /// the first fact that differs. Nil when every object the solution made is there as made.
  static func difference(expected: [Object], actual: SchemaObjects) -> String? {
    for want in expected {
      // A trigger or an index is known by what it is on, whatever its name (StructuredQueries
      // names a trigger by where it is written).
      if want.type == "trigger" || want.type == "index",
        actual.objects.values.contains(where: { $0.type == want.type && $0.facts == want.facts })
      {
        continue
      }
      if want.type == "trigger" || want.type == "index", actual.objects[want.name.lowercased()] == nil {
        return
          "this exercise creates \(want.type == "index" ? "an index" : "a trigger") \(want.facts.first ?? ""), and after your answer there is none"
      }
      guard let got = actual.objects[want.name.lowercased()] else {
        return "this exercise creates the \(want.type) '\(want.name)', and after your answer there is none"
      }
      if got.type != want.type { return "'\(want.name)' is a \(got.type) after your answer; this exercise makes it a \(want.type)" }
      if let missing = want.facts.first(where: { !got.facts.contains($0) }) {
        let extra = got.facts.first { !want.facts.contains($0) }
        return "the \(want.type) '\(want.name)' differs: it should have \(missing)" + (extra.map { ", not \($0)" } ?? "")
      }
      if let extra = got.facts.first(where: { !want.facts.contains($0) }) {
        return "the \(want.type) '\(want.name)' differs: it has \(extra), which this exercise does not make"
      }
    }
    return nil
  }
}
