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
}
