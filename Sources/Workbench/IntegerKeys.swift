import QuarryEngine
import QueryBuilder

/// The integer primary keys of a database's tables, and moving them: every row's id mapped to a
/// new one, and every foreign key that refers to it mapped with it (foreign keys are off while
/// it runs).
///
/// ```swift
/// let keys = try IntegerKeys(database)   // ["employees": "id", "departments": "id"]
/// try keys.remap(in: database) { _, id in id + 1000 }
/// // employees.id 1 → 1001, and employees.managerID and departmentID follow
/// ```
struct IntegerKeys {
  /// The tables in name order, and each one's INTEGER PRIMARY KEY column (when it has one).
  let tables: [String]
  let keys: [String: String]

  init(_ database: Database) throws {
    tables = try database.rows(
      "SELECT name FROM pragma_table_list WHERE schema = 'main' AND type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"
    ).compactMap { $0.first?.textValue }
    var keys: [String: String] = [:]
    for table in tables {
      let columns = try database.rows("SELECT name, type, pk FROM pragma_table_info(?)", bindings: [.text(table)])
      let primary = columns.filter { if case .integer(let pk) = $0[2] { return pk > 0 } else { return false } }
      if primary.count == 1, primary[0][1].textValue?.uppercased() == "INTEGER", let name = primary[0][0].textValue { keys[table] = name }
    }
    self.keys = keys
  }

  /// The ids of a table, in order.
  func ids(of table: String, in database: Database) throws -> [Int64] {
    guard let key = keys[table] else { return [] }
    return try database.rows("SELECT \(quoteIdentifier(key)) FROM \(quoteIdentifier(table)) ORDER BY 1").compactMap { row in
      if case .integer(let id)? = row.first { return id } else { return nil }
    }
  }

  /// Gives every row the id `newID(table, id)` (a one-to-one map per table), and every foreign
  /// key that refers to an integer primary key the same.
  func remap(in database: Database, newID: (_ table: String, _ id: Int64) -> Int64) throws {
    try database.execute("PRAGMA foreign_keys = OFF")
    defer { try? database.execute("PRAGMA foreign_keys = \(Database.enforcesForeignKeys ? "ON" : "OFF")") }
    try database.execute("CREATE TEMP TABLE quarry_idmap (tableName TEXT, old INTEGER, new INTEGER, PRIMARY KEY (tableName, old))")
    defer { try? database.execute("DROP TABLE temp.quarry_idmap") }
    // One statement per table: the map as a JSON array of [old, new] pairs.
    for table in tables where keys[table] != nil {
      let pairs = try ids(of: table, in: database).map { "[\($0),\(newID(table, $0))]" }.joined(separator: ",")
      _ = try database.rows(
        "INSERT INTO temp.quarry_idmap SELECT ?, json_extract(value, '$[0]'), json_extract(value, '$[1]') FROM json_each(?)",
        bindings: [.text(table), .text("[" + pairs + "]")])
    }
    for table in tables {
      guard let key = keys[table] else { continue }
      let name = quoteIdentifier(key)
      // Through negative ids, so no new id meets an old one on the way.
      try database.execute(
        """
        UPDATE \(quoteIdentifier(table)) SET \(name) = -(SELECT new FROM temp.quarry_idmap WHERE tableName = \(quoteText(table)) AND old = \(name));
        UPDATE \(quoteIdentifier(table)) SET \(name) = -\(name);
        """)
    }
    for table in tables {
      for foreignKey in try database.rows("SELECT \"from\", \"table\", \"to\" FROM pragma_foreign_key_list(?)", bindings: [.text(table)]) {
        guard let column = foreignKey[0].textValue, let parent = foreignKey[1].textValue, let parentKey = keys[parent],
          (foreignKey[2].textValue ?? parentKey) == parentKey
        else { continue }
        let name = quoteIdentifier(column)
        // Through negative ids too: a UNIQUE over foreign keys (`UNIQUE(reminderID, tagID)`)
        // never meets a pair it is about to become (ids moved by one).
        try database.execute(
          """
          UPDATE \(quoteIdentifier(table)) SET \(name) = -coalesce((SELECT new FROM temp.quarry_idmap WHERE tableName = \(quoteText(parent)) AND old = \(name)), \(name)) WHERE \(name) IS NOT NULL;
          UPDATE \(quoteIdentifier(table)) SET \(name) = -\(name) WHERE \(name) IS NOT NULL;
          """)
      }
    }
  }
}
