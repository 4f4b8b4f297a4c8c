/// What a database contains: tables and views, their columns and foreign keys.
///
/// ```swift
/// try Database(path: ":memory:").schema().tables  // []
/// ```
public struct DatabaseSchema: Sendable, Equatable {
  public struct Column: Sendable, Equatable {
    public var name: String
    public var declaredType: String
    public var isNotNull: Bool
    public var defaultValue: String?
    /// 1-based position in the primary key, 0 when not part of it.
    public var primaryKeyIndex: Int
  }
  public struct ForeignKey: Sendable, Equatable {
    public var fromColumn: String
    public var table: String
    public var toColumn: String?
  }
  public struct Table: Sendable, Equatable {
    public enum Kind: String, Sendable { case table, view, virtual = "virtual table" }
    public var name: String
    public var kind: Kind
    public var sql: String
    public var columns: [Column]
    public var foreignKeys: [ForeignKey]
    public var isTemporary: Bool
  }
  public var tables: [Table]

  public func table(named name: String) -> Table? { tables.first { $0.name == name } }
}

extension Database {
  /// Reads tables, views, columns and foreign keys (temporary objects included), in two
  /// statements whatever the number of tables: the objects with their columns, then every
  /// foreign key (a statement per table cost a prepare and a lock each).
  public func schema() throws -> DatabaseSchema {
    let objects = "m.type IN ('table', 'view') AND m.name NOT LIKE 'sqlite!_%' ESCAPE '!'"
    func bothSchemas(_ select: (_ schema: String, _ index: Int) -> String) -> String {
      select("main", 0) + " UNION ALL " + select("temp", 1)
    }
    let columnRows = try rows(
      bothSchemas { schema, index in
        """
        SELECT \(index), m.rowid, m.name, m.type, coalesce(m.sql, ''), p.cid, p.name, p.type, p."notnull",
          p.dflt_value, p.pk
        FROM "\(schema)".sqlite_schema AS m LEFT JOIN pragma_table_info(m.name, '\(schema)') AS p
        WHERE \(objects)
        """
      } + " ORDER BY 1, 2, 6")
    let foreignKeyRows = try rows(
      bothSchemas { schema, index in
        """
        SELECT \(index), m.rowid, m.name, f.id, f.seq, f."from", f."table", f."to"
        FROM "\(schema)".sqlite_schema AS m JOIN pragma_foreign_key_list(m.name, '\(schema)') AS f
        WHERE \(objects)
        """
      } + " ORDER BY 1, 2, 4, 5")
    var foreignKeys: [String: [DatabaseSchema.ForeignKey]] = [:]
    for row in foreignKeyRows {
      guard case .text(let name) = row[2] else { continue }
      foreignKeys["\(row[0].integerValue ?? 0) \(name)", default: []].append(
        DatabaseSchema.ForeignKey(
          fromColumn: row[5].textValue ?? "", table: row[6].textValue ?? "", toColumn: row[7].textValue))
    }
    var tables: [DatabaseSchema.Table] = []
    var current: (schema: Int64, rowid: Int64)?
    var skipping = false
    for row in columnRows {
      guard case .integer(let schema) = row[0], case .integer(let rowid) = row[1], case .text(let name) = row[2],
        case .text(let type) = row[3], case .text(let sql) = row[4]
      else { continue }
      if current.map({ $0 != (schema, rowid) }) ?? true {
        current = (schema, rowid)
        // FTS5 shadow tables are implementation details of their virtual table.
        skipping = tables.contains { name.hasPrefix($0.name + "_") && $0.kind == .virtual }
        if skipping { continue }
        let kind: DatabaseSchema.Table.Kind =
          type == "view" ? .view : sql.uppercased().hasPrefix("CREATE VIRTUAL") ? .virtual : .table
        tables.append(
          DatabaseSchema.Table(
            name: name, kind: kind, sql: sql, columns: [], foreignKeys: foreignKeys["\(schema) \(name)"] ?? [],
            isTemporary: schema == 1))
      }
      guard !skipping, row[5] != .null, let last = tables.indices.last else { continue }
      tables[last].columns.append(
        DatabaseSchema.Column(
          name: row[6].textValue ?? "", declaredType: row[7].textValue ?? "",
          isNotNull: row[8] == .integer(1), defaultValue: row[9].textValue,
          primaryKeyIndex: Int(row[10].integerValue ?? 0)))
    }
    return DatabaseSchema(tables: tables)
  }
}

extension DatabaseValue {
  public var textValue: String? {
    switch self {
    case .text(let text): return text
    case .integer(let value): return String(value)
    case .double(let value): return String(value)
    default: return nil
    }
  }
  public var integerValue: Int64? {
    switch self {
    case .integer(let value): return value
    case .double(let value): return Int64(exactly: value)
    default: return nil
    }
  }
  public var doubleValue: Double? {
    switch self {
    case .integer(let value): return Double(value)
    case .double(let value): return value
    default: return nil
    }
  }
}
