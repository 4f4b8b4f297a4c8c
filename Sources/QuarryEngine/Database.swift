import CSQLite
import FoundationEssentials
import QueryBuilder

/// A value read from or bound to SQLite: the same five storage classes as a query binding.
public typealias DatabaseValue = QueryBinding

/// A connection to a SQLite database: a file (read-write or read-only) or memory.
///
/// ```swift
/// let db = try Database(path: ":memory:")
/// try db.execute("CREATE TABLE t (x)")
/// let rows = try db.rows("SELECT ?", bindings: [.integer(1)])  // [[.integer(1)]]
/// ```
public final class Database: @unchecked Sendable {
  public enum Mode: Sendable { case readWrite, readOnly }

  let handle: OpaquePointer
  public let path: String
  /// The limit the progress handler reads (kept alive here; see `limitWork(seconds:)`).
  var workLimit: WorkLimit?
  /// The authorizer's state (an access log, a confinement), kept alive here; see
  /// `recordAccess()` and `confine(_:)`.
  var authorizerIfAny: Authorizer?
  var authorizer: Authorizer {
    if let existing = authorizerIfAny { return existing }
    let created = Authorizer()
    authorizerIfAny = created
    return created
  }

  /// The functions registered on this connection beyond SQLite's own (``addFunction(_:argumentCount:deterministic:_:)``,
  /// ``addAggregate(_:argumentCount:deterministic:_:)``, `uuid`), lower-cased.
  public internal(set) var functionNames: Set<String> = []

  /// Whether new connections enforce foreign keys, as SQLiteData and GRDB connections do
  /// (`quarry --no-foreign-keys` turns it off for the whole process).
  nonisolated(unsafe) public static var enforcesForeignKeys = true

  /// Opens `path` (`":memory:"` for a private in-memory database).
  public convenience init(path: String, mode: Mode = .readWrite, create: Bool = true) throws {
    try self.init(path: path, mode: mode, create: create, checksFile: true)
  }

  init(path: String, mode: Mode, create: Bool, checksFile: Bool) throws {
    var flags = SQLITE_OPEN_URI | SQLITE_OPEN_FULLMUTEX
    switch mode {
    case .readOnly: flags |= SQLITE_OPEN_READONLY
    case .readWrite: flags |= SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0)
    }
    var db: OpaquePointer?
    let code = sqlite3_open_v2(path, &db, flags, nil)
    guard code == SQLITE_OK, let db else {
      let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open database"
      if let db { sqlite3_close_v2(db) }
      throw SQLiteError(code: code, message: "\(message): \(path)")
    }
    handle = db
    self.path = path
    _ = quarry_sqlite_disable_extension_loading(db)
    sqlite3_busy_timeout(db, Int32(Self.defaultBusyTimeout))
    sqlite3_extended_result_codes(db, 1)
    registerFunctions()
    if Self.enforcesForeignKeys { sqlite3_exec(db, "PRAGMA foreign_keys = ON", nil, nil, nil) }
    // Fail early on a file that is not a database ("file is not a database"); straight through
    // the C API, as this runs before the first prompt.
    if checksFile && path != ":memory:" {
      let code = sqlite3_exec(db, "SELECT count(*) FROM sqlite_schema", nil, nil, nil)
      if code != SQLITE_OK {
        let error = SQLiteError(code: code, message: String(cString: sqlite3_errmsg(db)))
        sqlite3_close_v2(db)
        throw error
      }
    }
  }

  deinit {
    for statement in reused.values { sqlite3_finalize(statement) }
    sqlite3_progress_handler(handle, 0, nil, nil)
    sqlite3_close_v2(handle)
  }

  /// Statements ``rowsReusing(_:bindings:)`` compiled, by their SQL: finalized with the connection.
  private var reused: [String: OpaquePointer] = [:]

  /// All rows of one statement, compiled the first time it is asked for and kept for the
  /// connection's life: for a statement run again and again, other values bound each time (a
  /// dataset's recipe checks the foreign keys after each of its hundreds of changes). Values go
  /// in `bindings`, so that one text compiles once.
  ///
  /// ```swift
  /// for rowid in rowids { try db.rowsReusing("SELECT title FROM reminders WHERE rowid = ?", bindings: [.integer(rowid)]) }
  /// // compiled once
  /// ```
  public func rowsReusing(_ sql: String, bindings: [DatabaseValue] = []) throws -> [[DatabaseValue]] {
    let pointer: OpaquePointer
    if let kept = reused[sql] {
      pointer = kept
    } else {
      // Kept within bounds: a caller that builds many texts compiles them again, no more.
      if reused.count >= 256 {
        for statement in reused.values { sqlite3_finalize(statement) }
        reused.removeAll()
      }
      var made: OpaquePointer?
      let code = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &made, nil)
      guard code == SQLITE_OK else { throw lastError(code) }
      guard let made else { throw SQLiteError(code: SQLITE_MISUSE, message: "empty statement") }
      reused[sql] = made
      pointer = made
    }
    let statement = PreparedStatement(statement: pointer, database: self, finalizes: false)
    // Reset whatever happened: a kept statement holds no lock between runs.
    defer { sqlite3_reset(pointer) }
    return try statement.rows(bindings: bindings)
  }

  /// A handle that stops whatever statement runs on this connection: safe to keep in a global
  /// and call from a signal handler or another thread (it only calls `sqlite3_interrupt`).
  public var interruptHandle: InterruptHandle { InterruptHandle(connection: handle) }

  /// The most values one statement may bind (`SQLITE_LIMIT_VARIABLE_NUMBER`).
  public var variableLimit: Int { Int(sqlite3_limit(handle, SQLITE_LIMIT_VARIABLE_NUMBER, -1)) }

  /// Lowers (or raises, up to SQLite's build limit) how many values one statement may bind.
  public func setVariableLimit(_ limit: Int) {
    sqlite3_limit(handle, SQLITE_LIMIT_VARIABLE_NUMBER, Int32(clamping: limit))
  }

  /// Cancels the statement running on this connection (safe from any thread or a signal source).
  public func interrupt() { sqlite3_interrupt(handle) }

  /// The SQLite library's version as a number (3.40.1 is 3040001).
  public static var sqliteVersionNumber: Int { Int(sqlite3_libversion_number()) }

  public var isReadOnly: Bool { sqlite3_db_readonly(handle, "main") == 1 }

  /// Rows changed by the last INSERT, UPDATE or DELETE.
  public var changes: Int { Int(sqlite3_changes(handle)) }

  /// How long a statement waits for another connection to let go of the database before it
  /// fails with "database is locked" (sqlite3's `.timeout`), in milliseconds.
  public static let defaultBusyTimeout = 5_000
  public private(set) var busyTimeout = Database.defaultBusyTimeout

  public func setBusyTimeout(milliseconds: Int) {
    busyTimeout = max(0, min(milliseconds, Int(Int32.max)))
    sqlite3_busy_timeout(handle, Int32(busyTimeout))
  }

  /// Rows changed by every INSERT, UPDATE and DELETE since the connection opened (a statement's
  /// own count is the difference before and after it: triggers' changes are not in `changes`).
  public var totalChanges: Int { Int(sqlite3_total_changes(handle)) }

  /// The rowid of the last row inserted on this connection.
  /// The rowid of the last row inserted; set to a mark before an INSERT, to tell whether it
  /// inserted one (an id equal to the last one, after a delete, is still new).
  public var lastInsertRowID: Int64 {
    get { sqlite3_last_insert_rowid(handle) }
    set { sqlite3_set_last_insert_rowid(handle, newValue) }
  }

  /// Copies this whole database (the in-memory one too) into a file, as sqlite3's `.backup`
  /// and `.save` do, with SQLite's online backup API. An existing file is replaced.
  public func backup(to path: String) throws {
    try copy(into: Database(path: path, mode: .readWrite, create: true, checksFile: false))
  }

  /// A new in-memory connection holding this database's pages: the same schema and rows, and
  /// none of this connection's state (`changes()`, `total_changes()`, `last_insert_rowid()` are 0).
  public func freshCopy() throws -> Database {
    let target = try Database(path: ":memory:")
    try copy(into: target)
    return target
  }

  /// Replaces this database's pages with those of `source` (SQLite's online backup API).
  public func restore(from source: Database) throws {
    try source.copy(into: self)
  }

  private func copy(into target: Database) throws {
    guard let backup = sqlite3_backup_init(target.handle, "main", handle, "main") else {
      throw target.lastError(sqlite3_errcode(target.handle))
    }
    let code = sqlite3_backup_step(backup, -1)
    sqlite3_backup_finish(backup)
    guard code == SQLITE_DONE else { throw SQLiteError(code: code, message: String(cString: sqlite3_errstr(code))) }
  }

  public var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

  /// Compiles one statement.
  public func prepare(_ sql: String) throws -> PreparedStatement {
    var statement: OpaquePointer?
    let code = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
    guard code == SQLITE_OK else { throw lastError(code) }
    guard let statement else {
      throw SQLiteError(code: SQLITE_MISUSE, message: "empty statement")
    }
    return PreparedStatement(statement: statement, database: self)
  }

  /// Runs a script of statements with no results (schema and data set-up).
  public func execute(_ sql: String) throws {
    var message: UnsafeMutablePointer<CChar>?
    let code = sqlite3_exec(handle, sql, nil, nil, &message)
    if code != SQLITE_OK {
      let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(code))
      sqlite3_free(message)
      throw SQLiteError(code: code, message: explainedRefusal(text))
    }
  }

  /// All rows of one statement (small results: introspection and tests).
  public func rows(_ sql: String, bindings: [DatabaseValue] = []) throws -> [[DatabaseValue]] {
    try prepare(sql).rows(bindings: bindings)
  }

  func lastError(_ code: Int32) -> SQLiteError {
    let offset = sqlite3_error_offset(handle)
    return SQLiteError(
      code: code, message: explainedRefusal(String(cString: sqlite3_errmsg(handle))),
      offset: offset >= 0 ? Int(offset) : nil)
  }

  private func registerFunctions() {
    functionNames.insert("uuid")
    // uuid(): a random (version 4) UUID as lowercase text, as StructuredQueries' schemas expect.
    sqlite3_create_function_v2(
      handle, "uuid", 0, SQLITE_UTF8, nil,
      { context, _, _ in
        let text = UUID().uuidString.lowercased()
        sqlite3_result_text(context, text, -1, quarry_sqlite_transient())
      }, nil, nil, nil)
  }
}

/// Stops the statement running on one connection (Ctrl-C at the prompt).
///
/// ```swift
/// let handle = database.interruptHandle
/// handle.interrupt()  // the running step() throws SQLITE_INTERRUPT
/// ```
public struct InterruptHandle: @unchecked Sendable {
  let connection: OpaquePointer
  public func interrupt() { sqlite3_interrupt(connection) }
}

/// A compiled statement: bind, step, read columns.
public final class PreparedStatement {
  let statement: OpaquePointer
  let database: Database
  /// Whether the statement is this object's own (not one its connection keeps for reuse).
  let finalizes: Bool

  init(statement: OpaquePointer, database: Database, finalizes: Bool = true) {
    self.statement = statement
    self.database = database
    self.finalizes = finalizes
  }

  deinit { if finalizes { sqlite3_finalize(statement) } }

  public var columnCount: Int { Int(sqlite3_column_count(statement)) }

  public var columnNames: [String] {
    (0..<Int32(columnCount)).map { String(cString: sqlite3_column_name(statement, $0)) }
  }

  /// Declared types of result columns that come straight from a table column.
  public var declaredTypes: [String?] {
    (0..<Int32(columnCount)).map { sqlite3_column_decltype(statement, $0).map { String(cString: $0) } }
  }

  public var isReadOnly: Bool { sqlite3_stmt_readonly(statement) != 0 }

  /// How many values the statement takes (`?`, `?NNN`, `:name`, `$name`, `@name`).
  public var parameterCount: Int { Int(sqlite3_bind_parameter_count(statement)) }

  /// The 1-based index of a named parameter (`$1`, `:name`), if the statement has it.
  public func parameterIndex(named name: String) -> Int? {
    let index = sqlite3_bind_parameter_index(statement, name)
    return index > 0 ? Int(index) : nil
  }

  /// All rows of a run from the start with these values bound (a statement prepared once can
  /// be run again this way).
  public func rows(bindings: [DatabaseValue] = []) throws -> [[DatabaseValue]] {
    try reset()
    try bind(bindings)
    var rows: [[DatabaseValue]] = []
    while try step() { rows.append(row()) }
    return rows
  }

  /// Makes the statement ready to run again, with no values bound.
  public func reset() throws {
    currentRow = nil
    sqlite3_reset(statement)
    sqlite3_clear_bindings(statement)
  }

  /// Binds one value at a 1-based parameter index.
  public func bind(_ value: DatabaseValue, at index: Int) throws {
    try bind([value], startingAt: index)
  }

  public func bind(_ values: [DatabaseValue]) throws {
    try bind(values, startingAt: 1)
  }

  func bind(_ values: [DatabaseValue], startingAt first: Int) throws {
    for (offset, value) in values.enumerated() {
      let index = Int32(offset + first)
      let code: Int32
      switch value {
      case .null, .parameter: code = sqlite3_bind_null(statement, index)
      case .integer(let v): code = sqlite3_bind_int64(statement, index, v)
      case .double(let v): code = sqlite3_bind_double(statement, index, v)
      case .text(let v):
        // By byte length: a NUL inside the string is part of the value, not its end.
        var text = v
        code = text.withUTF8 { buffer -> Int32 in
          guard let base = buffer.baseAddress else {
            return sqlite3_bind_text(statement, index, "", 0, quarry_sqlite_transient())
          }
          return UnsafeRawPointer(base).withMemoryRebound(to: CChar.self, capacity: buffer.count) {
            sqlite3_bind_text(statement, index, $0, Int32(clamping: buffer.count), quarry_sqlite_transient())
          }
        }
      case .blob(let v):
        code = v.withUnsafeBytes {
          sqlite3_bind_blob(statement, index, $0.baseAddress, Int32($0.count), quarry_sqlite_transient())
        }
      }
      guard code == SQLITE_OK else { throw database.lastError(code) }
    }
  }

  /// Advances to the next row; false when done.
  public func step() throws -> Bool {
    currentRow = nil
    switch sqlite3_step(statement) {
    case SQLITE_ROW: return true
    case SQLITE_DONE: return false
    case let code: throw database.lastError(code)
    }
  }

  public enum ColumnType { case integer, double, text, blob, null }

  public func type(at index: Int) -> ColumnType {
    switch sqlite3_column_type(statement, Int32(index)) {
    case SQLITE_INTEGER: return .integer
    case SQLITE_FLOAT: return .double
    case SQLITE_TEXT: return .text
    case SQLITE_BLOB: return .blob
    default: return .null
    }
  }

  public func int64(at index: Int) -> Int64 { sqlite3_column_int64(statement, Int32(index)) }
  public func double(at index: Int) -> Double { sqlite3_column_double(statement, Int32(index)) }

  /// The column's text (or blob) bytes, valid until the next step.
  public func bytes(at index: Int) -> UnsafeBufferPointer<UInt8> {
    let i = Int32(index)
    let pointer =
      type(at: index) == .blob
      ? sqlite3_column_blob(statement, i).map { UnsafeRawPointer($0) }
      : sqlite3_column_text(statement, i).map { UnsafeRawPointer($0) }
    let count = Int(sqlite3_column_bytes(statement, i))
    guard let pointer, count > 0 else { return UnsafeBufferPointer(start: nil, count: 0) }
    return UnsafeBufferPointer(start: pointer.assumingMemoryBound(to: UInt8.self), count: count)
  }

  public func value(at index: Int) -> DatabaseValue {
    switch type(at: index) {
    case .integer: return .integer(int64(at: index))
    case .double: return .double(double(at: index))
    case .text: return .text(String(decoding: bytes(at: index), as: UTF8.self))
    case .blob: return .blob(Array(bytes(at: index)))
    case .null: return .null
    }
  }

  /// The values of the current row. Read from SQLite once per row, however many readers ask
  /// (the drawn result and the one `.tree` keeps share one copy of a 100 MB value).
  public func row() -> [DatabaseValue] {
    if let currentRow { return currentRow }
    let row = (0..<columnCount).map { value(at: $0) }
    currentRow = row
    return row
  }

  private var currentRow: [DatabaseValue]?
}
