import QuarryEngine
import QueryBuilder

/// The database as SQL text that recreates it byte for byte, in sqlite3's `.dump` form: the
/// schema in the order it was created, each table followed by its rows, then indexes, triggers
/// and views, in one transaction. Rows are read one at a time and written as they come.
///
/// ```
/// PRAGMA foreign_keys=OFF;
/// BEGIN TRANSACTION;
/// CREATE TABLE tags (id INTEGER PRIMARY KEY, title TEXT NOT NULL);
/// INSERT INTO "tags" VALUES(1,'car');
/// INSERT INTO "tags" VALUES(2,CAST(X'6F6E650D0A74776F' AS TEXT));
/// COMMIT;
/// ```
///
/// Nothing is lost on the way back through `sqlite3 new.db < dump.sql`: text holding a carriage
/// return, a NUL or bytes that are not UTF-8 is written as its bytes (`CAST(X'…' AS TEXT)`); a
/// table whose rowid is not a column keeps its rowids; a virtual table (FTS5, with its content
/// inside, external or none) comes back as its schema entry and its shadow tables, as sqlite3
/// writes it; `sqlite_stat1` comes back after `ANALYZE sqlite_schema`.
struct DatabaseDump {
  let database: Database

  struct SchemaObject {
    var type: String
    var name: String
    var table: String
    var sql: String
    var isVirtual: Bool { type == "table" && sql.uppercased().hasPrefix("CREATE VIRTUAL TABLE") }
  }

  /// Writes the dump (of the tables named in `only`, when given) to `output`.
  func write(to output: OutputStream, only: Set<String>? = nil) throws {
    output.write("PRAGMA foreign_keys=OFF;\nBEGIN TRANSACTION;\n")
    let objects = try database.rows("SELECT type, name, tbl_name, sql FROM sqlite_schema WHERE sql IS NOT NULL ORDER BY rowid")
      .compactMap { row -> SchemaObject? in
        guard row.count == 4, case .text(let type) = row[0], case .text(let name) = row[1], case .text(let table) = row[2],
          case .text(let sql) = row[3]
        else { return nil }
        return SchemaObject(type: type, name: name, table: table, sql: sql)
      }
    let virtualTables = objects.filter(\.isVirtual).map(\.name)
    /// The virtual table a shadow table (`texts_data` of fts5 `texts`) belongs to.
    func owner(of name: String) -> String? { virtualTables.first { name.hasPrefix($0 + "_") } }
    func wanted(_ table: String) -> Bool { only.map { $0.contains((owner(of: table) ?? table).lowercased()) } ?? true }
    var sequences = false
    var writableSchema = false
    for object in objects where object.type == "table" && wanted(object.name) {
      switch object.name {
      case "sqlite_sequence":
        sequences = true
        continue
      case "sqlite_stat1":
        // sqlite3's way: ANALYZE makes the table, the rows follow.
        output.write("ANALYZE sqlite_schema;\n")
        try writeRows(of: object.name, to: output)
        continue
      case let name where name.hasPrefix("sqlite_"):
        continue
      default:
        break
      }
      if object.isVirtual {
        // The schema entry alone: its shadow tables follow with their rows, so the index comes
        // back exactly (an external-content or contentless table has no rows of its own to insert).
        if !writableSchema { output.write("PRAGMA writable_schema=ON;\n") }
        writableSchema = true
        output.write(
          "INSERT INTO sqlite_schema(type,name,tbl_name,rootpage,sql) VALUES('table',\(Self.literal(object.name)),\(Self.literal(object.name)),0,\(Self.literal(object.sql)));\n"
        )
        continue
      }
      output.write(object.sql + ";\n")
      try writeRows(of: object.name, to: output)
    }
    if writableSchema { output.write("PRAGMA writable_schema=OFF;\n") }
    if sequences, only == nil {
      output.write("DELETE FROM sqlite_sequence;\n")
      try writeRows(of: "sqlite_sequence", to: output)
    }
    for object in objects where object.type != "table" && wanted(object.table) && owner(of: object.table) == nil {
      output.write(object.sql + ";\n")
    }
    output.write("COMMIT;\n")
  }

  /// `INSERT INTO "t" VALUES(…);` for each row. Generated columns are left out (with a column
  /// list), as SQLite computes them; a rowid that no column holds is written first.
  private func writeRows(of table: String, to output: OutputStream) throws {
    let quoted = quoteIdentifier(table)
    let columns = try database.rows("SELECT name, hidden, pk, upper(type) FROM pragma_table_xinfo(?)", bindings: [.text(table)])
    let stored = columns.compactMap { row -> String? in
      guard row.count == 4, case .text(let name) = row[0], case .integer(let hidden) = row[1] else { return nil }
      return hidden == 0 ? name : nil
    }
    var listed = stored.map(quoteIdentifier)
    var selected = listed
    if let rowid = try hiddenRowid(of: table, columns: columns) {
      listed.insert(rowid, at: 0)
      selected.insert(rowid, at: 0)
    }
    let plain = listed.count == columns.count && listed == columns.compactMap { $0.first?.textValue.map(quoteIdentifier) }
    let list = plain ? "" : "(" + listed.joined(separator: ",") + ")"
    let statement = try database.prepare("SELECT \(plain ? "*" : selected.joined(separator: ", ")) FROM \(quoted)")
    while try statement.step() {
      output.write("INSERT INTO \(quoted)\(list) VALUES(")
      for index in 0..<statement.columnCount {
        if index > 0 { output.write(",") }
        output.write(Self.literal(of: statement, at: index))
      }
      output.write(");\n")
    }
  }

  /// The name to read and write a table's rowid by, when no column holds it (no INTEGER PRIMARY
  /// KEY, not WITHOUT ROWID, not virtual): `rowid`, or `_rowid_`/`oid` when a column is named so.
  private func hiddenRowid(of table: String, columns: [[DatabaseValue]]) throws -> String? {
    let kind = try database.rows("SELECT type, wr FROM pragma_table_list WHERE schema = 'main' AND name = ?", bindings: [.text(table)])
      .first
    guard kind?.first?.textValue == "table", kind?.last == .integer(0) else { return nil }
    let keys = columns.filter { ($0[2].integerValue ?? 0) > 0 }
    if keys.count == 1, keys[0][3].textValue == "INTEGER" { return nil }
    let names = Set(columns.compactMap { $0.first?.textValue?.lowercased() })
    return ["rowid", "_rowid_", "oid"].first { !names.contains($0) }
  }

  /// A value as a literal that reads back the same: reals exactly (infinity as 9e999), blobs as
  /// X'…', text as a quoted string — or as its bytes, when it holds a carriage return (sqlite3
  /// drops one before a line feed when it reads), a NUL (which would end the statement) or bytes
  /// that are not UTF-8 (which a string would change).
  static func literal(of statement: PreparedStatement, at index: Int) -> String {
    guard statement.type(at: index) == .text else { return statement.value(at: index).inlineSQL }
    let bytes = Array(statement.bytes(at: index))
    let exact = !bytes.contains(0) && !bytes.contains(13) && String(validating: bytes, as: UTF8.self) != nil
    guard exact else { return "CAST(" + QueryBinding.blob(bytes).inlineSQL + " AS TEXT)" }
    return QueryBinding.text(String(decoding: bytes, as: UTF8.self)).inlineSQL
  }

  static func literal(_ text: String) -> String { QueryBinding.text(text).inlineSQL }
}
