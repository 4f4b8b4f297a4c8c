/// An error SQLite reported, with its own message and result code.
///
/// ```swift
/// SQLiteError(code: 1, message: "no such table: remindrs").description
/// // SQLite error 1: no such table: remindrs
/// ```
public struct SQLiteError: Error, CustomStringConvertible, Sendable, Equatable {
  public var code: Int32
  public var message: String
  /// Byte offset of the error in the SQL text, when SQLite knows it.
  public var offset: Int?

  public init(code: Int32, message: String, offset: Int? = nil) {
    self.code = code
    self.message = message
    self.offset = offset
  }

  public var description: String { "SQLite error \(code): \(message)" }

  /// SQLITE_INTERRUPT: the statement was cancelled with `Database.interrupt()`.
  public var isInterrupt: Bool { code & 0xff == 9 }
}
