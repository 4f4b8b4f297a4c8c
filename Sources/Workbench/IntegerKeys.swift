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

  /// Each table's foreign keys, as the schema lists them.
  let foreignKeys: [String: [DatabaseSchema.ForeignKey]]

  init(_ database: Database) throws { self.init(try database.schema()) }

  /// From a schema already read: the ordinary tables of the main schema (not views, virtual or
  /// temporary tables).
  init(_ schema: DatabaseSchema) {
    let tables = schema.tables.filter { !$0.isTemporary && $0.kind == .table }
    self.tables = tables.map(\.name).sorted()
    var keys: [String: String] = [:]
    for table in tables {
      let primary = table.columns.filter { $0.primaryKeyIndex > 0 }
      if primary.count == 1, primary[0].declaredType.uppercased() == "INTEGER" { keys[table.name] = primary[0].name }
    }
    self.keys = keys
    foreignKeys = Dictionary(tables.map { ($0.name, $0.foreignKeys) }, uniquingKeysWith: { first, _ in first })
  }

  /// The ids of a table, in order.
  func ids(of table: String, in database: Database) throws -> [Int64] {
    guard let key = keys[table] else { return [] }
    return try database.rowsReusing("SELECT \(quoteIdentifier(key)) FROM \(quoteIdentifier(table)) ORDER BY 1").compactMap { row in
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
      for foreignKey in foreignKeys[table] ?? [] {
        let (column, parent) = (foreignKey.fromColumn, foreignKey.table)
        guard let parentKey = keys[parent], (foreignKey.toColumn ?? parentKey) == parentKey else { continue }
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
