import QuarryEngine
import XCTest

/// The schema is read with three statements whatever the number of tables; what it reads is
/// every table and view in creation order, their columns and foreign keys, temporary objects
/// last, and an FTS5 table without its shadow tables.
final class SchemaIntrospectionTests: XCTestCase {
  func testTablesViewsColumnsForeignKeysAndTemporaryObjects() throws {
    let database = try Database(path: ":memory:")
    for sql in [
      "CREATE TABLE lists (id INTEGER PRIMARY KEY, title TEXT NOT NULL DEFAULT 'Untitled')",
      """
      CREATE TABLE items (id INTEGER PRIMARY KEY, listID INT REFERENCES lists(id), ownerID INT REFERENCES lists,
        FOREIGN KEY (id, listID) REFERENCES lists(id, title))
      """,
      "CREATE VIEW titles AS SELECT title FROM lists",
      "CREATE VIRTUAL TABLE notes USING fts5(body)",
      "CREATE TEMP TABLE scratch (x)",
    ] {
      try database.execute(sql)
    }
    let schema = try database.schema()
    XCTAssertEqual(schema.tables.map(\.name), ["lists", "items", "titles", "notes", "scratch"])
    XCTAssertEqual(schema.tables.map(\.kind), [.table, .table, .view, .virtual, .table])
    XCTAssertEqual(schema.tables.map(\.isTemporary), [false, false, false, false, true])
    let lists = try XCTUnwrap(schema.table(named: "lists"))
    XCTAssertEqual(lists.columns.map(\.name), ["id", "title"])
    XCTAssertEqual(lists.columns.map(\.declaredType), ["INTEGER", "TEXT"])
    XCTAssertEqual(lists.columns.map(\.isNotNull), [false, true])
    XCTAssertEqual(lists.columns.map(\.defaultValue), [nil, "'Untitled'"])
    XCTAssertEqual(lists.columns.map(\.primaryKeyIndex), [1, 0])
    let items = try XCTUnwrap(schema.table(named: "items"))
    // As SQLite lists them (pragma_foreign_key_list: the last declared first, a composite key's columns in order).
    XCTAssertEqual(
      items.foreignKeys.map { "\($0.fromColumn)→\($0.table).\($0.toColumn ?? "PK")" },
      ["id→lists.id", "listID→lists.title", "ownerID→lists.PK", "listID→lists.id"])
    XCTAssertEqual(schema.table(named: "titles")?.columns.map(\.name), ["title"])
    XCTAssertEqual(schema.table(named: "notes")?.columns.map(\.name), ["body"])
    XCTAssertEqual(schema.table(named: "scratch")?.columns.map(\.name), ["x"])
  }

  /// A schema is read again when it changes, and copies of one database share the reading.
  func testASchemaReadAgainOnlyWhenItChanges() throws {
    let database = try Database(path: ":memory:")
    try database.execute("CREATE TABLE lists (id INTEGER PRIMARY KEY, title TEXT)")
    try database.execute("CREATE TABLE items (id INTEGER PRIMARY KEY, listID INTEGER REFERENCES lists(id))")
    let first = try database.schema()
    XCTAssertEqual(try database.freshCopy().schema(), first)
    try database.execute("ALTER TABLE lists ADD COLUMN position INTEGER")
    XCTAssertEqual(try database.schema().table(named: "lists")?.columns.map(\.name), ["id", "title", "position"])
    try database.execute("CREATE TEMP VIEW titles AS SELECT title FROM lists")
    XCTAssertEqual(try database.schema().tables.map(\.name), ["lists", "items", "titles"])
    XCTAssertEqual(first.references(to: "lists").map { "\($0.table).\($0.column)" }, ["items.listID"])
    XCTAssertEqual(first.columnNames(of: "items"), ["id", "listID"])
    XCTAssertEqual(first.columnNames(of: "nowhere"), [])
  }

  /// A statement run again and again compiles once, takes other values each time, holds no
  /// lock between runs, and sees the schema as it is when it runs.
  func testAStatementKeptForReuse() throws {
    let database = try Database(path: ":memory:")
    try database.execute("CREATE TABLE t (x INTEGER)")
    try database.execute("INSERT INTO t VALUES (1), (2), (3)")
    let sql = "SELECT * FROM t WHERE x >= ? ORDER BY x"
    XCTAssertEqual(try database.rowsReusing(sql, bindings: [.integer(2)]), [[.integer(2)], [.integer(3)]])
    XCTAssertEqual(try database.rowsReusing(sql, bindings: [.integer(3)]), [[.integer(3)]])
    try database.execute("ALTER TABLE t ADD COLUMN y TEXT DEFAULT 'a'")
    XCTAssertEqual(try database.rowsReusing(sql, bindings: [.integer(3)]), [[.integer(3), .text("a")]])
    // A savepoint kept for reuse opens and closes as the statement does each time.
    _ = try database.rowsReusing("SAVEPOINT s")
    try database.execute("DELETE FROM t")
    _ = try database.rowsReusing("ROLLBACK TO s")
    _ = try database.rowsReusing("RELEASE s")
    XCTAssertFalse(database.isInTransaction)
    XCTAssertEqual(try database.rows("SELECT count(*) FROM t"), [[.integer(3)]])
    // A statement that fails leaves nothing open either.
    XCTAssertThrowsError(try database.rowsReusing("INSERT INTO t (x) VALUES (json('{'))"))
    XCTAssertFalse(database.isInTransaction)
    try database.addFunction("Twice", argumentCount: 1) { $0[0] }
    XCTAssertEqual(database.functionNames, ["uuid", "twice"])
  }
}
