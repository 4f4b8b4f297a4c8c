import QuarryEngine
import QueryBuilder

/// The database as SQL text that recreates it, in sqlite3's `.dump` form: the schema in the
/// order it was created, each table followed by its rows, then indexes, triggers and views, in
/// one transaction. Rows are read one at a time and written as they come.
///
/// ```
/// PRAGMA foreign_keys=OFF;
/// BEGIN TRANSACTION;
/// CREATE TABLE tags (id INTEGER PRIMARY KEY, title TEXT NOT NULL);
/// INSERT INTO "tags" VALUES(1,'car');
/// COMMIT;
/// ```
struct DatabaseDump {
  let database: Database

  /// Writes the dump (of the tables named in `only`, when given) to `output`.
  func write(to output: OutputStream, only: Set<String>? = nil) throws {
    output.write("PRAGMA foreign_keys=OFF;\nBEGIN TRANSACTION;\n")
    let objects = try database.rows("SELECT type, name, tbl_name, sql FROM sqlite_schema WHERE sql IS NOT NULL ORDER BY rowid")
      .compactMap { row -> (type: String, name: String, table: String, sql: String)? in
        guard row.count == 4, case .text(let type) = row[0], case .text(let name) = row[1], case .text(let table) = row[2],
          case .text(let sql) = row[3]
        else { return nil }
        return (type, name, table, sql)
      }
    // Shadow tables of a virtual table (`texts_data` of fts5 `texts`) come back with it.
    let virtualTables = objects.filter { $0.type == "table" && $0.sql.uppercased().hasPrefix("CREATE VIRTUAL TABLE") }.map(\.name)
    func isShadow(_ name: String) -> Bool { virtualTables.contains { name.hasPrefix($0 + "_") } }
    func wanted(_ table: String) -> Bool { only.map { $0.contains(table.lowercased()) } ?? true }
    var sequences = false
    for object in objects where object.type == "table" && wanted(object.name) && !isShadow(object.name) {
      if object.name == "sqlite_sequence" { sequences = true; continue }
      if object.name.hasPrefix("sqlite_") { continue }
      output.write(object.sql + ";\n")
      try writeRows(of: object.name, to: output)
    }
    if sequences, only == nil {
      output.write("DELETE FROM sqlite_sequence;\n")
      try writeRows(of: "sqlite_sequence", to: output)
    }
    for object in objects where object.type != "table" && wanted(object.table) && !isShadow(object.table) {
      output.write(object.sql + ";\n")
    }
    output.write("COMMIT;\n")
  }

  /// `INSERT INTO "t" VALUES(…);` for each row; generated columns are left out (with a column
  /// list), as SQLite computes them.
  private func writeRows(of table: String, to output: OutputStream) throws {
    let quoted = quoteIdentifier(table)
    let columns = try database.rows("SELECT name, hidden FROM pragma_table_xinfo(?)", bindings: [.text(table)])
    let stored = columns.compactMap { row -> String? in
      guard row.count == 2, case .text(let name) = row[0], case .integer(let hidden) = row[1] else { return nil }
      return hidden == 0 ? name : nil
    }
    let everyColumn = stored.count == columns.count
    let list = everyColumn ? "" : "(" + stored.map(quoteIdentifier).joined(separator: ",") + ")"
    let selected = everyColumn ? "*" : stored.map(quoteIdentifier).joined(separator: ", ")
    let statement = try database.prepare("SELECT \(selected) FROM \(quoted)")
    while try statement.step() {
      output.write("INSERT INTO \(quoted)\(list) VALUES(")
      for index in 0..<statement.columnCount {
        if index > 0 { output.write(",") }
        // Literals that read back the same: reals exactly (infinity as 9e999), blobs as X'…'.
        output.write(statement.value(at: index).inlineSQL)
      }
      output.write(");\n")
    }
  }
}
