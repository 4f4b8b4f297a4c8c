import CSQLite
import FoundationEssentials
import QueryBuilder

/// An error a Swift-defined SQL function reports: SQLite fails the statement with its message.
public struct DatabaseFunctionError: Error, Sendable {
  public var message: String
  public init(_ message: String) { self.message = message }
}

/// SQL functions whose bodies run in Swift (`@DatabaseFunction` in pasted app code).
///
/// ```swift
/// try database.addFunction("shout", argumentCount: 1) { args in
///   if case .text(let text) = args[0] { return .text(text.uppercased()) }
///   return .null
/// }
/// // SELECT "shout"('hi')  →  'HI'
/// ```
extension Database {
  /// Registers (or replaces) a scalar function of `argumentCount` arguments.
  public func addFunction(
    _ name: String, argumentCount: Int, deterministic: Bool = false,
    _ body: @escaping ([DatabaseValue]) throws -> DatabaseValue
  ) throws {
    let box = Unmanaged.passRetained(ScalarBox(body)).toOpaque()
    let code = sqlite3_create_function_v2(
      handle, name, Int32(argumentCount), SQLITE_UTF8 | (deterministic ? SQLITE_DETERMINISTIC : 0), box,
      { context, count, values in
        guard let context, let pointer = sqlite3_user_data(context) else { return }
        let box = Unmanaged<ScalarBox>.fromOpaque(pointer).takeUnretainedValue()
        let arguments = readArguments(count, values)
        do {
          setResult(context, try box.body(arguments))
        } catch let error as DatabaseFunctionError {
          sqlite3_result_error(context, error.message, -1)
        } catch {
          sqlite3_result_error(context, "\(error)", -1)
        }
      }, nil, nil,
      { pointer in
        if let pointer { Unmanaged<ScalarBox>.fromOpaque(pointer).release() }
      })
    guard code == SQLITE_OK else { throw lastError(code) }
    functionNames.insert(name.lowercased())
  }

  /// Registers (or replaces) an aggregate: every row's arguments are collected, then `body`
  /// makes the group's result from them.
  public func addAggregate(
    _ name: String, argumentCount: Int, deterministic: Bool = false,
    _ body: @escaping ([[DatabaseValue]]) throws -> DatabaseValue
  ) throws {
    let box = Unmanaged.passRetained(AggregateBox(body)).toOpaque()
    let code = sqlite3_create_function_v2(
      handle, name, Int32(argumentCount), SQLITE_UTF8 | (deterministic ? SQLITE_DETERMINISTIC : 0), box, nil,
      { context, count, values in
        guard let context, let slot = sqlite3_aggregate_context(context, Int32(MemoryLayout<UnsafeRawPointer?>.size))
        else { return }
        let pointer = slot.assumingMemoryBound(to: UnsafeRawPointer?.self)
        let rows: Rows
        if let existing = pointer.pointee {
          rows = Unmanaged<Rows>.fromOpaque(existing).takeUnretainedValue()
        } else {
          rows = Rows()
          pointer.pointee = UnsafeRawPointer(Unmanaged.passRetained(rows).toOpaque())
        }
        rows.values.append(readArguments(count, values))
      },
      { context in
        guard let context, let user = sqlite3_user_data(context) else { return }
        let box = Unmanaged<AggregateBox>.fromOpaque(user).takeUnretainedValue()
        var rows: [[DatabaseValue]] = []
        // A group with no rows has no context yet (asking with size 0 does not make one).
        if let slot = sqlite3_aggregate_context(context, 0) {
          let pointer = slot.assumingMemoryBound(to: UnsafeRawPointer?.self)
          if let existing = pointer.pointee {
            let collected = Unmanaged<Rows>.fromOpaque(existing)
            rows = collected.takeUnretainedValue().values
            collected.release()
            pointer.pointee = nil
          }
        }
        do {
          setResult(context, try box.body(rows))
        } catch let error as DatabaseFunctionError {
          sqlite3_result_error(context, error.message, -1)
        } catch {
          sqlite3_result_error(context, "\(error)", -1)
        }
      },
      { pointer in
        if let pointer { Unmanaged<AggregateBox>.fromOpaque(pointer).release() }
      })
    guard code == SQLITE_OK else { throw lastError(code) }
    functionNames.insert(name.lowercased())
  }
}

private final class ScalarBox {
  let body: ([DatabaseValue]) throws -> DatabaseValue
  init(_ body: @escaping ([DatabaseValue]) throws -> DatabaseValue) { self.body = body }
}

private final class AggregateBox {
  let body: ([[DatabaseValue]]) throws -> DatabaseValue
  init(_ body: @escaping ([[DatabaseValue]]) throws -> DatabaseValue) { self.body = body }
}

private final class Rows {
  var values: [[DatabaseValue]] = []
}

private func readArguments(_ count: Int32, _ values: UnsafeMutablePointer<OpaquePointer?>?) -> [DatabaseValue] {
  (0..<Int(count)).map { index in
    guard let value = values?[index] else { return .null }
    switch sqlite3_value_type(value) {
    case SQLITE_INTEGER: return .integer(sqlite3_value_int64(value))
    case SQLITE_FLOAT: return .double(sqlite3_value_double(value))
    case SQLITE_TEXT:
      guard let text = sqlite3_value_text(value) else { return .text("") }
      let length = Int(sqlite3_value_bytes(value))
      return .text(String(decoding: UnsafeBufferPointer(start: text, count: length), as: UTF8.self))
    case SQLITE_BLOB:
      let length = Int(sqlite3_value_bytes(value))
      guard let bytes = sqlite3_value_blob(value), length > 0 else { return .blob([]) }
      return .blob(Array(UnsafeRawBufferPointer(start: bytes, count: length)))
    default: return .null
    }
  }
}

private func setResult(_ context: OpaquePointer, _ value: DatabaseValue) {
  switch value {
  case .null, .parameter: sqlite3_result_null(context)
  case .integer(let number): sqlite3_result_int64(context, number)
  case .double(let number): sqlite3_result_double(context, number)
  case .text(let text):
    // By byte length: a NUL inside the string is part of the value, as when it is bound.
    var text = text
    text.withUTF8 { buffer in
      guard let base = buffer.baseAddress else { return sqlite3_result_text(context, "", 0, quarry_sqlite_transient()) }
      UnsafeRawPointer(base).withMemoryRebound(to: CChar.self, capacity: buffer.count) {
        sqlite3_result_text(context, $0, Int32(clamping: buffer.count), quarry_sqlite_transient())
      }
    }
  case .blob(let bytes):
    bytes.withUnsafeBytes { buffer in
      sqlite3_result_blob(context, buffer.baseAddress, Int32(clamping: buffer.count), quarry_sqlite_transient())
    }
  }
}
