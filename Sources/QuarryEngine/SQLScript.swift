import CSQLite

/// The statements of an SQL text, compiled one at a time in order by SQLite itself
/// (`sqlite3_prepare_v2` and its tail), so comments, strings, quoted identifiers and
/// `CREATE TRIGGER … BEGIN … END` decide where a statement ends, exactly as in the sqlite3 shell.
///
/// Each statement is compiled only after the previous one ran, so a script may create a table
/// and then use it.
///
/// ```swift
/// let script = SQLScript("CREATE TABLE t(x); -- a comment; still a comment\nINSERT INTO t VALUES (1);", database: db)
/// while let statement = try script.next() { while try statement.step() {} }
/// // two statements: the `;` inside the comment ends nothing
/// ```
public final class SQLScript {
  /// The text as NUL-terminated UTF-8.
  private let bytes: [CChar]
  private let database: Database
  /// Where the next statement starts (a byte offset into the text).
  public private(set) var offset = 0
  /// The byte range of the statement `next()` returned last, comments before it excluded.
  public private(set) var lastRange: Range<Int> = 0..<0

  public init(_ sql: String, database: Database) {
    var bytes = Array(sql.utf8CString)
    if bytes.isEmpty { bytes = [0] }
    self.bytes = bytes
    self.database = database
  }

  /// The text of the statement `next()` returned last.
  public var lastText: String {
    text(lastRange)
  }

  /// The text of a byte range, decoded in place (no copy of the bytes first).
  private func text(_ range: Range<Int>) -> String {
    bytes.withUnsafeBufferPointer { buffer in
      UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(buffer)[range]).withMemoryRebound(to: UInt8.self) {
        String(decoding: $0, as: UTF8.self)
      }
    }
  }

  /// Whether anything but white space, comments and `;` is left after the last statement.
  public var hasMore: Bool { nextStart < bytes.count - 1 }

  /// Where the next statement's text starts: past white space, comments and `;`.
  private var nextStart: Int {
    let end = bytes.count - 1
    var index = offset
    while index < end {
      index = Self.skippingLeadingTrivia(bytes, from: index, to: end).lowerBound
      guard index < end, bytes[index] == CChar(UInt8(ascii: ";")) else { break }
      index += 1
    }
    return index
  }

  /// The start of the text `next()` compiles next (comments and white space skipped): SQLite
  /// applies some pragmas as it compiles them, so what they change is read before.
  public func upcoming(_ length: Int = 256) -> String {
    let end = bytes.count - 1
    let index = nextStart
    let stop = min(end, index + length)
    guard index < stop else { return "" }
    return text(index..<stop)
  }

  /// Compiles the next statement; nil when only white space and comments are left. An error's
  /// `offset` counts bytes from the start of the whole text.
  public func next() throws -> PreparedStatement? {
    let end = bytes.count - 1
    while offset < end {
      var statement: OpaquePointer?
      var tail: UnsafePointer<CChar>?
      let start = offset
      let code = bytes.withUnsafeBufferPointer { buffer -> Int32 in
        guard let base = buffer.baseAddress else { return SQLITE_MISUSE }
        let code = sqlite3_prepare_v2(database.handle, base + start, Int32(end - start), &statement, &tail)
        if let tail { offset = base.distance(to: tail) } else { offset = end }
        return code
      }
      guard code == SQLITE_OK else {
        var error = database.lastError(code)
        if let relative = error.offset { error.offset = start + relative }
        // Nothing after a failed statement runs; point past the text so `next()` ends.
        offset = end
        throw error
      }
      guard let statement else {
        // Only white space, comments or a lone `;` — or SQLite stopped at a NUL byte, which
        // would end the text silently: that is an error, not the end.
        if offset < end, bytes[offset] == 0 || offset == start {
          let at = offset
          offset = end
          throw SQLiteError(code: SQLITE_ERROR, message: "unexpected NUL character in the SQL text", offset: at)
        }
        continue
      }
      lastRange = Self.skippingLeadingTrivia(bytes, from: start, to: offset)
      return PreparedStatement(statement: statement, database: database)
    }
    return nil
  }

  /// The range without the white space and comments before the statement.
  static func skippingLeadingTrivia<Bytes: RandomAccessCollection<CChar>>(
    _ bytes: Bytes, from start: Int, to end: Int
  ) -> Range<Int> where Bytes.Index == Int {
    var index = start
    while index < end {
      let byte = UInt8(bitPattern: bytes[index])
      if byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D || byte == 0x0C {
        index += 1
      } else if byte == UInt8(ascii: "-"), index + 1 < end, bytes[index + 1] == CChar(UInt8(ascii: "-")) {
        while index < end, bytes[index] != 0x0A { index += 1 }
      } else if byte == UInt8(ascii: "/"), index + 1 < end, bytes[index + 1] == CChar(UInt8(ascii: "*")) {
        index += 2
        while index + 1 < end, !(bytes[index] == CChar(UInt8(ascii: "*")) && bytes[index + 1] == CChar(UInt8(ascii: "/"))) {
          index += 1
        }
        index = min(end, index + 2)
      } else {
        break
      }
    }
    return index..<end
  }

  /// Whether `sql` is complete: it ends with a `;` that closes a statement (not one inside a
  /// comment, a string or a trigger body), by SQLite's own `sqlite3_complete`.
  ///
  /// ```swift
  /// SQLScript.isComplete("DELETE FROM t -- only some;")  // false
  /// SQLScript.isComplete("DELETE FROM t; -- done")       // true
  /// ```
  public static func isComplete(_ sql: String) -> Bool {
    sqlite3_complete(sql) != 0
  }
}

/// The first keyword of an SQL statement, upper-cased (`"BEGIN"`, `"WITH"`), comments and white
/// space before it skipped.
///
/// ```swift
/// leadingKeyword(of: "/* note */ begin immediate;")  // "BEGIN"
/// ```
public func leadingKeyword(of sql: String) -> String {
  // Read in place: the statement may be 100 MB, its first word a few bytes.
  var sql = sql
  return sql.withUTF8 { utf8 in
    utf8.withMemoryRebound(to: CChar.self) { bytes in
      var word = ""
      for index in SQLScript.skippingLeadingTrivia(bytes, from: 0, to: bytes.count) {
        let scalar = Unicode.Scalar(UInt8(bitPattern: bytes[index]))
        guard scalar.properties.isAlphabetic, scalar.isASCII else { break }
        word.unicodeScalars.append(scalar)
      }
      return word.uppercased()
    }
  }
}
