import CSQLite

/// The words SQLite's parser reserves or treats as keywords, asked of SQLite itself
/// (`sqlite3_keyword_check`), so the list is the one of the library that runs the SQL.
///
/// ```swift
/// SQLiteKeywords.contains("select")  // true
/// SQLiteKeywords.contains("title")   // false
/// ```
public enum SQLiteKeywords {
  /// Every keyword of the SQLite that runs, upper case (`sqlite3_keyword_name`).
  public static var all: [String] {
    (0..<sqlite3_keyword_count()).compactMap { index in
      var name: UnsafePointer<CChar>?
      var length: Int32 = 0
      guard sqlite3_keyword_name(index, &name, &length) == SQLITE_OK, let name else { return nil }
      return String(decoding: UnsafeRawBufferPointer(start: name, count: Int(length)), as: UTF8.self).uppercased()
    }
  }

  public static func contains(_ word: String) -> Bool {
    var word = word
    return word.withUTF8 { bytes in
      bytes.withMemoryRebound(to: CChar.self) { sqlite3_keyword_check($0.baseAddress, Int32($0.count)) != 0 }
    }
  }
}

extension SQLiteKeywords {
  /// The keywords SQLite's parser also reads as a name where a keyword cannot stand (its grammar's
  /// fallback to an identifier), so a table may have a column called `key`, `action` or `first`:
  /// each of these was created as a column and selected by SQLite 3.40 (`CREATE TABLE t(key int);
  /// SELECT key FROM t WHERE key = 1 ORDER BY key`); every other keyword was refused there.
  ///
  /// ```swift
  /// SQLiteKeywords.usableAsNames.contains("KEY")     // true
  /// SQLiteKeywords.usableAsNames.contains("SELECT")  // false
  /// ```
  public static let usableAsNames: Set<String> = [
    "ABORT", "ACTION", "AFTER", "ALWAYS", "ANALYZE", "ASC", "ATTACH", "BEFORE", "BEGIN", "BY", "CASCADE",
    "COLUMN", "CONFLICT", "CROSS", "CURRENT", "CURRENT_DATE", "CURRENT_TIME", "CURRENT_TIMESTAMP", "DATABASE",
    "DEFERRED", "DESC", "DETACH", "DO", "EACH", "END", "EXCLUDE", "EXCLUSIVE", "EXPLAIN", "FAIL", "FILTER",
    "FIRST", "FOLLOWING", "FOR", "FULL", "GENERATED", "GLOB", "GROUPS", "IF", "IGNORE", "IMMEDIATE", "INDEXED",
    "INITIALLY", "INNER", "INSTEAD", "KEY", "LAST", "LEFT", "LIKE", "MATCH", "MATERIALIZED", "NATURAL", "NO",
    "NULLS", "OF", "OFFSET", "OTHERS", "OUTER", "OVER", "PARTITION", "PLAN", "PRAGMA", "PRECEDING", "QUERY",
    "RANGE", "RECURSIVE", "REGEXP", "REINDEX", "RELEASE", "RENAME", "REPLACE", "RESTRICT", "RIGHT", "ROLLBACK",
    "ROW", "ROWS", "SAVEPOINT", "TEMP", "TEMPORARY", "TIES", "TRIGGER", "UNBOUNDED", "VACUUM", "VIEW", "VIRTUAL",
    "WINDOW", "WITH", "WITHOUT",
  ]
}
