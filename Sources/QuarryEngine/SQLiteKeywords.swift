import CSQLite

/// The words SQLite's parser reserves or treats as keywords, asked of SQLite itself
/// (`sqlite3_keyword_check`), so the list is the one of the library that runs the SQL.
///
/// ```swift
/// SQLiteKeywords.contains("select")  // true
/// SQLiteKeywords.contains("title")   // false
/// ```
public enum SQLiteKeywords {
  public static func contains(_ word: String) -> Bool {
    var word = word
    return word.withUTF8 { bytes in
      bytes.withMemoryRebound(to: CChar.self) { sqlite3_keyword_check($0.baseAddress, Int32($0.count)) != 0 }
    }
  }
}
