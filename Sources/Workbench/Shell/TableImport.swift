import FoundationEssentials
import Glibc
import QuarryEngine
import QueryBuilder

/// Records of a CSV or TSV text, as RFC 4180 reads them: fields separated by commas (or tabs),
/// quoted fields may hold the separator, newlines and doubled quotes. Each record knows the line
/// it starts on, for messages.
///
/// ```swift
/// CSVRecords("a,\"b,\"\"c\"\"\"\n1,2\n").map(\.fields)  // [["a", "b,\"c\""], ["1", "2"]]
/// ```
struct CSVRecords: Sequence, IteratorProtocol {
  private let reader: ByteReader
  private let separator: UInt8
  private var line = 1
  /// Bytes read so far (for messages about invalid UTF-8).
  private var offset = 0

  struct Record {
    var fields: [String]
    var line: Int
  }

  /// A field whose quotes are not closed, at the line it starts on.
  struct UnclosedQuote: Error { var line: Int }
  private(set) var unclosedQuote: UnclosedQuote?
  /// A field that is not UTF-8 text, at its line.
  private(set) var invalidText: InvalidUTF8?

  init(_ text: String, separator: UInt8 = UInt8(ascii: ",")) {
    self.init(reader: ByteReader(bytes: Array(text.utf8)), separator: separator)
  }

  /// Records read from a file as they are needed: memory holds one chunk, not the file.
  init(reader: ByteReader, separator: UInt8 = UInt8(ascii: ",")) {
    self.reader = reader
    self.separator = separator
    // A byte-order mark (spreadsheets write one in "CSV UTF-8") is not part of the first field.
    if reader.starts(with: [0xEF, 0xBB, 0xBF]) {
      for _ in 0..<3 { reader.advance() }
      offset = 3
    }
  }

  /// The next byte, taken.
  private mutating func take() -> UInt8? {
    guard let byte = reader.peek() else { return nil }
    reader.advance()
    offset += 1
    return byte
  }

  private mutating func text(_ field: [UInt8]) -> String {
    if let text = String(validating: field, as: UTF8.self) { return text }
    if invalidText == nil { invalidText = InvalidUTF8(byteOffset: offset, line: line) }
    return ""
  }

  mutating func next() -> Record? {
    guard reader.peek() != nil, unclosedQuote == nil, invalidText == nil else { return nil }
    let start = line
    var fields: [String] = []
    var field: [UInt8] = []
    while let byte = reader.peek() {
      if byte == UInt8(ascii: "\""), field.isEmpty {
        // A quoted field: up to the quote not doubled.
        _ = take()
        var closed = false
        while let inner = take() {
          if inner == UInt8(ascii: "\"") {
            if reader.peek() == UInt8(ascii: "\"") {
              field.append(inner)
              _ = take()
              continue
            }
            closed = true
            break
          }
          if inner == UInt8(ascii: "\n") { line += 1 }
          field.append(inner)
        }
        if !closed {
          unclosedQuote = UnclosedQuote(line: start)
          return nil
        }
        continue
      }
      _ = take()
      if byte == separator {
        fields.append(text(field))
        field = []
      } else if byte == UInt8(ascii: "\n") {
        line += 1
        break
      } else if byte == UInt8(ascii: "\r"), reader.peek() == UInt8(ascii: "\n") {
        continue
      } else {
        field.append(byte)
      }
    }
    fields.append(text(field))
    return invalidText == nil ? Record(fields: fields, line: start) : nil
  }
}

/// Bytes of a file read a chunk at a time (or of an array held whole).
final class ByteReader {
  private var buffer: [UInt8]
  private var position = 0
  private let descriptor: Int32?
  private var exhausted: Bool

  init(bytes: [UInt8]) {
    buffer = bytes
    descriptor = nil
    exhausted = true
  }

  /// Nil when the file cannot be opened for reading, or is a folder.
  init?(path: String) {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    var info = stat()
    guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT != S_IFDIR else {
      close(descriptor)
      return nil
    }
    self.descriptor = descriptor
    buffer = []
    exhausted = false
  }

  deinit { if let descriptor { close(descriptor) } }

  /// Whether the bytes from the read position on start with `prefix` (within the first chunk).
  func starts(with prefix: [UInt8]) -> Bool {
    if position >= buffer.count { refill() }
    return buffer[position...].starts(with: prefix)
  }

  /// The byte at the read position; nil at the end.
  func peek() -> UInt8? {
    if position >= buffer.count { refill() }
    return position < buffer.count ? buffer[position] : nil
  }

  func advance() { position += 1 }

  private func refill() {
    guard !exhausted, let descriptor else { return }
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count < 0, errno == EINTR { continue }
      if count <= 0 {
        exhausted = true
        buffer = []
      } else {
        buffer = Array(chunk[..<count])
      }
      position = 0
      return
    }
  }
}

/// `.import FILE TABLE`: the records of a CSV (or TSV) file into a table, all or none. A new
/// table takes its columns from the first line; an existing one takes every line, except a
/// first line that names its columns. A record with the wrong number of fields, or one the
/// table refuses, is an error at its line, and nothing is imported.
///
/// ```
/// quarry> .import tags.csv tags
/// imported 2 rows into tags (the first line names the columns)
/// ```
struct TableImport {
  let database: Database

  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  /// Imports the text of a file; what was done, in one line.
  func run(path: String, table: String, text: String) throws -> String {
    try run(path: path, table: table, reader: ByteReader(bytes: Array(text.utf8)))
  }

  /// Imports records as they are read (a file of any size in flat memory). `progress` hears the
  /// count now and then; Ctrl-C (`WorkLimit.stopAll()`) stops the import and nothing is kept.
  func run(path: String, table: String, reader: ByteReader, progress: ((Int) -> Void)? = nil) throws -> String {
    let separator = path.lowercased().hasSuffix(".tsv") || path.lowercased().hasSuffix(".tab") ? UInt8(ascii: "\t") : UInt8(ascii: ",")
    var records = CSVRecords(reader: reader, separator: separator)
    let stop = WorkLimit.StopRequest()
    // `temp.tt`, `aux.t`: a table of that schema, when the prefix names one (as SQL reads it).
    var schema: String?
    var table = table
    if let dot = table.firstIndex(of: "."),
      try database.rows("SELECT 1 FROM pragma_database_list WHERE name = ? COLLATE NOCASE", bindings: [.text(String(table[..<dot]))])
        .isEmpty == false
    {
      schema = String(table[..<dot])
      table = String(table[table.index(after: dot)...])
    }
    let target = (schema.map { quoteIdentifier($0) + "." } ?? "") + quoteIdentifier(table)
    let existing = try database.rows(
      "SELECT name FROM pragma_table_xinfo(?, ?) WHERE hidden = 0", bindings: [.text(table), schema.map { .text($0) } ?? .null]
    )
    .compactMap { row -> String? in if case .text(let name)? = row.first { return name } else { return nil } }
    func unclosed(_ quote: CSVRecords.UnclosedQuote) -> Failure {
      Failure(description: "\(path):\(quote.line): a quoted field is never closed; nothing was imported")
    }
    func invalid(_ problem: InvalidUTF8) -> Failure {
      Failure(description: "\(path):\(problem.line): \(problem); nothing was imported")
    }
    guard let first = records.next() else {
      if let quote = records.unclosedQuote { throw unclosed(quote) }
      if let problem = records.invalidText { throw invalid(problem) }
      throw Failure(description: "\(path) is empty: nothing to import")
    }
    var columns = existing
    var skippedHeader = false
    var count = 0
    // All rows or none: the import's own transaction, its commit checked.
    let transaction = try InputTransaction(database, name: "quarry_import")
    do {
      if existing.isEmpty {
        // A new table: the first line names its columns (as sqlite3 makes it, every column TEXT).
        guard Set(first.fields.map { $0.lowercased() }).count == first.fields.count, !first.fields.contains(where: \.isEmpty) else {
          throw Failure(description: "\(path):\(first.line): the first line must name each column once, to create table '\(table)'")
        }
        columns = first.fields
        try database.execute("CREATE TABLE \(target) (" + columns.map { quoteIdentifier($0) + " TEXT" }.joined(separator: ", ") + ")")
        skippedHeader = true
      } else if first.fields.map({ $0.lowercased() }) == existing.map({ $0.lowercased() }) {
        skippedHeader = true
      }
      let insert = try database.prepare(
        "INSERT INTO \(target) (" + columns.map(quoteIdentifier).joined(separator: ", ") + ") VALUES ("
          + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")")
      func add(_ record: CSVRecords.Record) throws {
        guard record.fields.count == columns.count else {
          throw Failure(
            description:
              "\(path):\(record.line): \(record.fields.count) field\(record.fields.count == 1 ? "" : "s") where '\(table)' has \(columns.count) column\(columns.count == 1 ? "" : "s"); nothing was imported"
          )
        }
        do {
          try insert.reset()
          try insert.bind(record.fields.map { QueryBinding.text($0) })
          while try insert.step() {}
        } catch let error as SQLiteError {
          throw Failure(description: "\(path):\(record.line): \(error.description); nothing was imported")
        }
        count += 1
        if count & 1023 == 0 {
          if stop.isRequested {
            throw Failure(description: "\(path):\(record.line): stopped (Ctrl-C); nothing was imported")
          }
          if count & 65535 == 0 { progress?(count) }
        }
      }
      if !skippedHeader { try add(first) }
      while let record = records.next() { try add(record) }
      if let quote = records.unclosedQuote { throw unclosed(quote) }
      if let problem = records.invalidText { throw invalid(problem) }
    } catch {
      _ = transaction.end(rollingBack: true)
      throw error
    }
    if let (problem, _) = transaction.message(for: transaction.end(rollingBack: false)) {
      throw Failure(description: "\(path): \(problem)")
    }
    return "imported \(count) row\(count == 1 ? "" : "s") into \(schema.map { $0 + "." } ?? "")\(table)"
      + (existing.isEmpty ? " (a new table; its columns from the first line)" : skippedHeader ? " (the first line names the columns)" : "")
  }
}
