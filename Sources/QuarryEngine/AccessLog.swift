import CSQLite

/// What statements compiled on a connection touch, as SQLite's authorizer reports it while it
/// prepares them: the tables and columns read, through which view or trigger, the functions
/// called, the writes, transactions and savepoints, the objects created.
///
/// ```swift
/// let log = database.recordAccess()
/// _ = try database.rows("SELECT upper(title) FROM titledReminders")  // a view on reminders
/// database.stopRecordingAccess()
/// log.accesses.contains { $0.action == .read && $0.context == "titledReminders" }  // true
/// log.accesses.contains { $0.action == .function && $0.object == "upper" }         // true
/// ```
public final class AccessLog: @unchecked Sendable {
  public enum Action: Sendable, Equatable {
    case read, insert, update, delete, select, function, transaction, savepoint, recursive, pragma
    case createTable, createView, createTrigger, createIndex, createVirtualTable
    case other(Int32)

    init(code: Int32) {
      switch code {
      case SQLITE_READ: self = .read
      case SQLITE_INSERT: self = .insert
      case SQLITE_UPDATE: self = .update
      case SQLITE_DELETE: self = .delete
      case SQLITE_SELECT: self = .select
      case SQLITE_FUNCTION: self = .function
      case SQLITE_TRANSACTION: self = .transaction
      case SQLITE_SAVEPOINT: self = .savepoint
      case SQLITE_RECURSIVE: self = .recursive
      case SQLITE_PRAGMA: self = .pragma
      case SQLITE_CREATE_TABLE, SQLITE_CREATE_TEMP_TABLE: self = .createTable
      case SQLITE_CREATE_VIEW, SQLITE_CREATE_TEMP_VIEW: self = .createView
      case SQLITE_CREATE_TRIGGER, SQLITE_CREATE_TEMP_TRIGGER: self = .createTrigger
      case SQLITE_CREATE_INDEX, SQLITE_CREATE_TEMP_INDEX: self = .createIndex
      case SQLITE_CREATE_VTABLE: self = .createVirtualTable
      default: self = .other(code)
      }
    }
  }

  /// One authorizer call. `object` is the table, index, view, trigger or function it is about
  /// (for a transaction: BEGIN, COMMIT or ROLLBACK; for a savepoint: BEGIN, RELEASE or
  /// ROLLBACK); `detail` the column, or the savepoint's name, or a virtual table's module;
  /// `context` the innermost trigger or view whose code is being compiled (nil at the top level).
  public struct Access: Sendable, Equatable {
    public var action: Action
    public var object: String?
    public var detail: String?
    public var context: String?
  }

  public private(set) var accesses: [Access] = []
  /// Set while the caller's own statements run (``Database/withoutRecordingAccess(_:)``).
  var isPaused = false

  func record(code: Int32, _ first: UnsafePointer<CChar>?, _ second: UnsafePointer<CChar>?, _ context: UnsafePointer<CChar>?) {
    // A long input may compile many statements; the log keeps what a check needs at most.
    guard accesses.count < 200_000, !isPaused else { return }
    var object = first.map { String(cString: $0) }
    var detail = second.map { String(cString: $0) }
    switch code {
    case SQLITE_FUNCTION:
      object = detail
      detail = nil  // (NULL, function name)
    case SQLITE_CREATE_VTABLE: break  // (table, module)
    case SQLITE_CREATE_INDEX, SQLITE_CREATE_TEMP_INDEX, SQLITE_CREATE_TRIGGER, SQLITE_CREATE_TEMP_TRIGGER:
      break  // (index or trigger, table)
    default: break
    }
    if object?.isEmpty == true { object = nil }
    accesses.append(Access(action: Action(code: code), object: object, detail: detail, context: context.map { String(cString: $0) }))
  }
}

extension Database {
  /// Records what every statement prepared from now on touches, until `stopRecordingAccess()`;
  /// nothing is refused.
  public func recordAccess() -> AccessLog {
    let log = AccessLog()
    authorizer.log = log
    installAuthorizer()
    return log
  }

  public func stopRecordingAccess() {
    authorizerIfAny?.log = nil
    installAuthorizer()
  }

  /// Runs `body` with the access log, if one records, paused: what the caller reads to look at
  /// the database (its tables' rows, the schema) is not what the statements it records did.
  ///
  /// ```swift
  /// let log = database.recordAccess()
  /// let rows = try database.withoutRecordingAccess { try database.rows("SELECT * FROM orderLines") }
  /// log.accesses  // []
  /// ```
  public func withoutRecordingAccess<T>(_ body: () throws -> T) rethrows -> T {
    guard let log = authorizerIfAny?.log, !log.isPaused else { return try body() }
    log.isPaused = true
    defer { log.isPaused = false }
    return try body()
  }

  /// The opcodes of a statement's program and the tables its cursors open (`EXPLAIN`), with
  /// how many cursors open each: a table read under two aliases is opened twice.
  public func program(of sql: String) -> (opcodes: Set<String>, openedTables: [String: Int])? {
    guard let explained = try? rows("EXPLAIN " + sql) else { return nil }
    let roots =
      (try? rows(
        "SELECT rootpage, tbl_name FROM sqlite_schema WHERE rootpage > 0 UNION ALL SELECT rootpage, tbl_name FROM sqlite_temp_schema WHERE rootpage > 0"
      )) ?? []
    var table: [Int64: String] = [:]
    for root in roots {
      if case .integer(let page)? = root.first, let name = root.last?.textValue, table[page] == nil { table[page] = name }
    }
    var opcodes: Set<String> = []
    var opened: [String: Int] = [:]
    for instruction in explained where instruction.count > 3 {
      guard let opcode = instruction[1].textValue else { continue }
      opcodes.insert(opcode)
      if opcode == "OpenRead" || opcode == "OpenWrite", case .integer(let page) = instruction[3], let name = table[page] {
        opened[name, default: 0] += 1
      }
    }
    return (opcodes, opened)
  }
}
