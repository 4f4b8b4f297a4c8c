import QuarryDSL
import QuarryEngine
import QueryBuilder

/// How results are printed: `--format` and `.mode`.
public enum OutputFormat: String, CaseIterable, Sendable {
  case box, table, csv, json, markdown, line

  /// Formats that print data only (no SQL echo), so their output can be piped.
  public var isDataOnly: Bool { self == .csv || self == .json }

  /// A sink that prints in this format.
  public func sink(output: OutputStream, session: Session, showSQL: Bool = true, errors: OutputStream = .standardError) -> ResultSink {
    switch self {
    case .csv: return CSVFormatter(output: output, errors: errors)
    case .json: return JSONFormatter(output: output)
    default:
      return TextTableFormatter(style: self, output: output, session: session, showSQL: showSQL, errors: errors)
    }
  }
}

/// Records whether any statement (or command) failed, for the exit status.
public final class FailureTracker {
  public var failed = false
  public init() {}
}

/// Passes everything through to another sink; subclasses adjust what they need.
class ForwardingSink: ResultSink {
  let base: ResultSink
  init(_ base: ResultSink) { self.base = base }
  func executing(_ sql: String) { base.executing(sql) }
  func changedBesides(rows: Int) { base.changedBesides(rows: rows) }
  func begin(input: String, sql: String, bindings: [QueryBinding], columns: [String], types: [SwiftType?]) {
    base.begin(input: input, sql: sql, bindings: bindings, columns: columns, types: types)
  }
  func row(_ statement: PreparedStatement) { base.row(statement) }
  func end(error: StatementError?) { base.end(error: error) }
  func failure(input: String, error: StatementError) { base.failure(input: input, error: error) }
  func note(_ text: String) { base.note(text) }
  func declared(_ text: @autoclosure () -> String) { base.declared(text()) }
  func changed(rows: Int, insertedIDs: ClosedRange<Int64>?) { base.changed(rows: rows, insertedIDs: insertedIDs) }
  func warning(_ warning: StatementError) { base.warning(warning) }
  func inputFinished(input: String) { base.inputFinished(input: input) }
}

/// Passes results through, noting failures in a tracker.
final class TrackingSink: ForwardingSink {
  let tracker: FailureTracker
  init(_ base: ResultSink, tracker: FailureTracker) {
    self.tracker = tracker
    super.init(base)
  }
  override func end(error: StatementError?) {
    if error != nil { tracker.failed = true }
    super.end(error: error)
  }
  override func failure(input: String, error: StatementError) {
    tracker.failed = true
    super.failure(input: input, error: error)
  }
}

/// Passes results through, counting error lines from the start of the script the input is in.
final class LineOffsetSink: ForwardingSink {
  let lines: Int
  init(_ base: ResultSink, lines: Int) {
    self.lines = lines
    super.init(base)
  }
  private func shifted(_ error: StatementError) -> StatementError {
    var error = error
    error.line += lines
    return error
  }
  override func end(error: StatementError?) { super.end(error: error.map(shifted)) }
  override func failure(input: String, error: StatementError) { super.failure(input: input, error: shifted(error)) }
  override func warning(_ warning: StatementError) { super.warning(shifted(warning)) }
  /// Notes name places as `L:C: …` (at the start) and `(L:C)` (in a list): both are shifted.
  override func note(_ text: String) { super.note(Self.shiftingLocations(in: text, by: lines)) }

  static func shiftingLocations(in text: String, by lines: Int) -> String {
    guard lines != 0 else { return text }
    var result = ""
    var rest = Substring(text)
    func number(_ s: Substring) -> (Int, Substring)? {
      let digits = s.prefix { $0.isASCII && $0.isNumber }
      guard !digits.isEmpty, let value = Int(digits) else { return nil }
      return (value, s.dropFirst(digits.count))
    }
    // A leading `L:C: `.
    if let (line, after) = number(rest), after.first == ":", let (_, tail) = number(after.dropFirst()), tail.hasPrefix(": ") {
      result += "\(line + lines)"
      rest = after
    }
    while let open = rest.firstIndex(of: "(") {
      result += rest[...open]
      rest = rest[rest.index(after: open)...]
      if let (line, after) = number(rest), after.first == ":", let (_, tail) = number(after.dropFirst()), tail.first == ")" {
        result += "\(line + lines)"
        rest = after
      }
    }
    return result + rest
  }
}

/// Prints an error the way a compiler does: location, message, the line and a caret.
func writeError(_ error: StatementError, to output: OutputStream, color: Bool = false, label plain: String = "error") {
  let label = color ? "\u{1B}[1;\(plain == "error" ? 31 : 33)m\(plain):\u{1B}[0m" : plain + ":"
  output.write("\(label) \(error.line):\(error.column): \(error.message)\n")
  if let excerpt = error.excerpt, !excerpt.isEmpty { output.write(excerpt + "\n") }
  output.flush()
}

/// CSV (RFC 4180): a header row, then one line per row, streamed.
final class CSVFormatter: ResultSink {
  let output: OutputStream
  let errors: OutputStream
  let headers: Bool
  init(output: OutputStream, errors: OutputStream, headers: Bool = true) {
    self.output = output
    self.errors = errors
    self.headers = headers
  }

  func begin(input: String, sql: String, bindings: [QueryBinding], columns: [String], types: [SwiftType?]) {
    guard !columns.isEmpty, headers else { return }
    output.write(columns.map(Self.quoted).joined(separator: ",") + "\n")
  }

  func row(_ statement: PreparedStatement) {
    let count = statement.columnCount
    for index in 0..<count {
      if index > 0 { output.write(byte: UInt8(ascii: ",")) }
      switch statement.type(at: index) {
      case .null: break
      case .integer: writeInteger(statement.int64(at: index))
      case .double: output.write(displayText(statement.double(at: index)))
      case .text: writeText(statement.bytes(at: index))
      case .blob: output.write(hex(Array(statement.bytes(at: index))))
      }
    }
    output.write(byte: UInt8(ascii: "\n"))
  }

  private func writeInteger(_ value: Int64) {
    if value >= 0 && value < 10 {
      output.write(byte: UInt8(ascii: "0") + UInt8(value))
      return
    }
    var digits: [UInt8] = []
    var magnitude = value.magnitude
    repeat {
      digits.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
      magnitude /= 10
    } while magnitude > 0
    if value < 0 { output.write(byte: UInt8(ascii: "-")) }
    for digit in digits.reversed() { output.write(byte: digit) }
  }

  private func writeText(_ bytes: UnsafeBufferPointer<UInt8>) {
    var needsQuotes = false
    for byte in bytes where byte == 0x2C || byte == 0x22 || byte == 0x0A || byte == 0x0D {
      needsQuotes = true
      break
    }
    guard needsQuotes else {
      output.write(bytes: bytes)
      return
    }
    output.write(byte: 0x22)
    for byte in bytes {
      if byte == 0x22 { output.write(byte: 0x22) }
      output.write(byte: byte)
    }
    output.write(byte: 0x22)
  }

  func end(error: StatementError?) {
    output.flush()
    if let error { writeError(error, to: errors) }
  }

  func failure(input: String, error: StatementError) {
    output.flush()
    writeError(error, to: errors)
  }

  func warning(_ warning: StatementError) {
    output.flush()
    writeError(warning, to: errors, label: "warning")
  }

  static func quoted(_ text: String) -> String {
    if text.utf8.contains(where: { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }) {
      return "\"" + text.replacing("\"", with: "\"\"") + "\""
    }
    return text
  }
}

/// One JSON object per statement, one per line (the contract other tools parse).
///
/// Warnings (deprecations, StructuredQueries' availability messages) travel with the results:
/// each object carries the warnings of its input in `"warnings"`; an input that ran nothing
/// but warned gets an object of its own.
final class JSONFormatter: ResultSink {
  let output: OutputStream
  private var firstRow = true
  /// The input's warnings, given to every object of that input.
  private var warnings: [StatementError] = []
  /// Whether an object carried the current warnings yet.
  private var warningsShown = false
  init(output: OutputStream) { self.output = output }

  func warning(_ warning: StatementError) {
    if warningsShown {
      warnings = []
      warningsShown = false
    }
    warnings.append(warning)
  }

  func inputFinished(input: String) {
    if !warnings.isEmpty, !warningsShown {
      output.write(
        "{\"input\":" + Self.string(input) + ",\"sql\":null,\"statement\":null,\"bindings\":[],\"columns\":[],\"rows\":[],\"error\":null"
          + warningsField() + "}\n")
      output.flush()
    }
    warnings = []
    warningsShown = false
  }

  private func warningsField() -> String {
    warningsShown = true
    return ",\"warnings\":[" + warnings.map(Self.error).joined(separator: ",") + "]"
  }

  /// The statement as run (`?` for each binding), told before `begin`.
  private var statement: String?
  func executing(_ sql: String) { statement = sql }

  func begin(input: String, sql: String, bindings: [QueryBinding], columns: [String], types: [SwiftType?]) {
    // Piece by piece: the input and its SQL may each be 100 MB, never joined into one string.
    // "sql" as shown (values written in), "statement" as SQLite runs it, "bindings" its values.
    output.write("{\"input\":")
    output.writeJSONString(input)
    output.write(",\"sql\":")
    output.writeJSONString(sql)
    output.write(",\"statement\":")
    output.writeJSONString(statement ?? sql)
    statement = nil
    output.write(",\"bindings\":[")
    output.write(bindings.map(Self.value).joined(separator: ","))
    output.write("],\"columns\":[" + columns.map(Self.string).joined(separator: ",") + "],\"rows\":[")
    firstRow = true
  }

  func row(_ statement: PreparedStatement) {
    output.write(firstRow ? "[" : ",[")
    firstRow = false
    for (index, value) in statement.row().enumerated() {
      if index > 0 { output.write(",") }
      if case .text(let text) = value { output.writeJSONString(text) } else { output.write(Self.value(value)) }
    }
    output.write("]")
  }

  func end(error: StatementError?) {
    output.write("],\"error\":" + (error.map(Self.error) ?? "null") + warningsField() + "}\n")
    output.flush()
  }

  /// A remark (an input's changes undone, a test's SQL compared) as an object of its own.
  func note(_ text: String) {
    output.write("{\"note\":" + Self.string(text) + "}\n")
    output.flush()
  }

  func failure(input: String, error: StatementError) {
    output.write(
      "{\"input\":" + Self.string(input) + ",\"sql\":null,\"statement\":null,\"bindings\":[],\"columns\":[],\"rows\":[],\"error\":"
        + Self.error(error) + warningsField() + "}\n")
    output.flush()
  }

  static func error(_ error: StatementError) -> String {
    "{\"message\":" + string(error.message) + ",\"line\":\(error.line),\"column\":\(error.column)}"
  }

  static func value(_ value: DatabaseValue) -> String {
    switch value {
    case .null: return "null"
    case .parameter(let name): return string(name)
    case .integer(let number): return String(number)
    case .double(let number):
      // JSON has no infinity: 1e999 is a valid JSON number that Python and JavaScript read as
      // one, as sqlite3's `.mode json` writes it. SQLite turns NaN into NULL.
      if number.isInfinite { return number < 0 ? "-1e999" : "1e999" }
      if number.isNaN { return "null" }
      return "\(number)"
    case .text(let text): return string(text)
    case .blob(let bytes): return string(hex(bytes))
    }
  }

  static func string(_ text: String) -> String { jsonStringLiteral(text) }
}
