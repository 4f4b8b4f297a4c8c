import FoundationEssentials
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
  private let bytes: [UInt8]
  private let separator: UInt8
  private var index = 0
  private var line = 1

  struct Record {
    var fields: [String]
    var line: Int
  }

  /// A field whose quotes are not closed, at the line it starts on.
  struct UnclosedQuote: Error { var line: Int }
  private(set) var unclosedQuote: UnclosedQuote?

  init(_ text: String, separator: UInt8 = UInt8(ascii: ",")) {
    // A byte-order mark (spreadsheets write one in "CSV UTF-8") is not part of the first field.
    bytes = text.hasPrefix("\u{FEFF}") ? Array(text.dropFirst().utf8) : Array(text.utf8)
    self.separator = separator
  }

  mutating func next() -> Record? {
    guard index < bytes.count, unclosedQuote == nil else { return nil }
    let start = line
    var fields: [String] = []
    var field: [UInt8] = []
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\""), field.isEmpty {
        // A quoted field: up to the quote not doubled.
        index += 1
        var closed = false
        while index < bytes.count {
          let inner = bytes[index]
          index += 1
          if inner == UInt8(ascii: "\"") {
            if index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
              field.append(inner)
              index += 1
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
      index += 1
      if byte == separator {
        fields.append(String(decoding: field, as: UTF8.self))
        field = []
      } else if byte == UInt8(ascii: "\n") {
        line += 1
        break
      } else if byte == UInt8(ascii: "\r"), index < bytes.count, bytes[index] == UInt8(ascii: "\n") {
        continue
      } else {
        field.append(byte)
      }
    }
    fields.append(String(decoding: field, as: UTF8.self))
    return Record(fields: fields, line: start)
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

  /// Imports; what was done, in one line.
  func run(path: String, table: String, text: String) throws -> String {
    let separator = path.lowercased().hasSuffix(".tsv") || path.lowercased().hasSuffix(".tab") ? UInt8(ascii: "\t") : UInt8(ascii: ",")
    var records = CSVRecords(text, separator: separator)
    // `temp.tt`, `aux.t`: a table of that schema, when the prefix names one (as SQL reads it).
    var schema: String?
    var table = table
    if let dot = table.firstIndex(of: "."),
      try database.rows("SELECT 1 FROM pragma_database_list WHERE name = ? COLLATE NOCASE", bindings: [.text(String(table[..<dot]))]).isEmpty == false
    {
      schema = String(table[..<dot])
      table = String(table[table.index(after: dot)...])
    }
    let target = (schema.map { quoteIdentifier($0) + "." } ?? "") + quoteIdentifier(table)
    let existing = try database.rows(
      "SELECT name FROM pragma_table_xinfo(?, ?) WHERE hidden = 0", bindings: [.text(table), schema.map { .text($0) } ?? .null])
      .compactMap { row -> String? in if case .text(let name)? = row.first { return name } else { return nil } }
    func unclosed(_ quote: CSVRecords.UnclosedQuote) -> Failure {
      Failure(description: "\(path):\(quote.line): a quoted field is never closed; nothing was imported")
    }
    guard let first = records.next() else {
      if let quote = records.unclosedQuote { throw unclosed(quote) }
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
          throw Failure(description: "\(path):\(record.line): \(record.fields.count) field\(record.fields.count == 1 ? "" : "s") where '\(table)' has \(columns.count) column\(columns.count == 1 ? "" : "s"); nothing was imported")
        }
        do {
          try insert.reset()
          try insert.bind(record.fields.map { QueryBinding.text($0) })
          while try insert.step() {}
        } catch let error as SQLiteError {
          throw Failure(description: "\(path):\(record.line): \(error.description); nothing was imported")
        }
        count += 1
      }
      if !skippedHeader { try add(first) }
      while let record = records.next() { try add(record) }
      if let quote = records.unclosedQuote { throw unclosed(quote) }
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
