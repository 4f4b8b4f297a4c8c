import CSQLite
import Synchronization

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
    public enum Kind: String, Sendable {
      case table, view
      case virtual = "virtual table"
    }
    public var name: String
    public var kind: Kind
    public var sql: String
    public var columns: [Column]
    public var foreignKeys: [ForeignKey]
    public var isTemporary: Bool
  }
  public var tables: [Table]

  public func table(named name: String) -> Table? { tables.first { $0.name == name } }

  /// The names of a table's columns, in their order (none for a table not in the schema).
  public func columnNames(of table: String) -> [String] { self.table(named: table)?.columns.map(\.name) ?? [] }

  /// The foreign keys of the main schema's tables that refer to `table`: each child table and
  /// its column, in the schema's order.
  ///
  /// ```swift
  /// schema.references(to: "users")  // [(table: "reminders", column: "assignedUserID")]
  /// ```
  public func references(to table: String) -> [(table: String, column: String)] {
    tables.filter { !$0.isTemporary }.flatMap { child in
      child.foreignKeys.filter { $0.table == table }.map { (table: child.name, column: $0.fromColumn) }
    }
  }
}

extension Database {
  /// Reads tables, views, columns and foreign keys (temporary objects included) with three
  /// statements prepared once, whatever the number of tables: the objects, then each table's
  /// columns and foreign keys from the same two statements bound again.
  public func schema() throws -> DatabaseSchema {
    let objects = try rows(
      """
      SELECT 0, rowid, name, type, coalesce(sql, '') FROM main.sqlite_schema
      WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite!_%' ESCAPE '!'
      UNION ALL
      SELECT 1, rowid, name, type, coalesce(sql, '') FROM temp.sqlite_schema
      WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite!_%' ESCAPE '!'
      ORDER BY 1, 2
      """)
    // Columns and foreign keys follow from the objects' SQL alone, unless a temp view reads an
    // attached database: copies of one database read the same schema once.
    let cached = sqlite3_db_name(handle, 2) == nil
    if cached, let known = Self.schemasRead.withLock({ $0[objects] }) { return known }
    let schema = try schema(of: objects)
    if cached {
      Self.schemasRead.withLock { read in
        if read.count >= 64 { read.removeAll() }
        read[objects] = schema
      }
    }
    return schema
  }

  /// Schemas read by ``schema()``, by the rows of their objects.
  private static let schemasRead = Mutex<[[[DatabaseValue]]: DatabaseSchema]>([:])

  private func schema(of objects: [[DatabaseValue]]) throws -> DatabaseSchema {
    let columns = try prepare("SELECT name, type, \"notnull\", dflt_value, pk FROM pragma_table_info(?, ?)")
    let foreignKeys = try prepare("SELECT \"from\", \"table\", \"to\" FROM pragma_foreign_key_list(?, ?)")
    var tables: [DatabaseSchema.Table] = []
    for object in objects {
      guard case .integer(let schemaIndex) = object[0], case .text(let name) = object[2],
        case .text(let type) = object[3], case .text(let sql) = object[4]
      else { continue }
      // FTS5 shadow tables are implementation details of their virtual table.
      if tables.contains(where: { name.hasPrefix($0.name + "_") && $0.kind == .virtual }) {
        continue
      }
      let schema = schemaIndex == 1 ? "temp" : "main"
      let kind: DatabaseSchema.Table.Kind =
        type == "view" ? .view : sql.uppercased().hasPrefix("CREATE VIRTUAL") ? .virtual : .table
      tables.append(
        DatabaseSchema.Table(
          name: name, kind: kind, sql: sql,
          columns: try columns.rows(bindings: [.text(name), .text(schema)]).map { row in
            DatabaseSchema.Column(
              name: row[0].textValue ?? "", declaredType: row[1].textValue ?? "",
              isNotNull: row[2] == .integer(1), defaultValue: row[3].textValue,
              primaryKeyIndex: Int(row[4].integerValue ?? 0))
          },
          foreignKeys: try foreignKeys.rows(bindings: [.text(name), .text(schema)]).map { row in
            DatabaseSchema.ForeignKey(
              fromColumn: row[0].textValue ?? "", table: row[1].textValue ?? "", toColumn: row[2].textValue)
          },
          isTemporary: schemaIndex == 1))
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
