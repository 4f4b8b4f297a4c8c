import Foundation
import QuarryDSL
import QuarryEngine
import QueryBuilder

/// Where and why a statement failed, for every output format.
public struct StatementError: Sendable, Equatable {
  public var message: String
  public var line: Int
  public var column: Int
  /// The input line with a caret under the offending text.
  public var excerpt: String?
}

/// Receives each statement of an input as it runs; formats implement it to print results,
/// streaming rows where they can.
public protocol ResultSink: AnyObject {
  /// A statement compiled and is about to run (or, with `--sql-only`, only to be shown).
  func begin(input: String, sql: String, bindings: [QueryBinding], columns: [String], types: [SwiftType?])
  func row(_ statement: PreparedStatement)
  /// The statement finished; `error` if it failed part-way.
  func end(error: StatementError?)
  /// The input failed before any SQL existed (a diagnostic).
  func failure(input: String, error: StatementError)
  /// A remark about the statement just shown (how its SQL compares with a pasted test's).
  func note(_ text: String)
}

extension ResultSink {
  public func note(_ text: String) {}
}

/// One interactive or scripted session: a database, the catalog of models, and the compiler.
///
/// ```swift
/// let session = try Session.fixture("reminders")
/// session.run("Tag.order(by: \\.title)", sink: BoxFormatter(output: .standardOutput))
/// ```
public final class Session {
  public private(set) var database: Database
  public let catalog: Catalog
  let compiler: Compiler
  public var sqlOnly = false
  /// The SQL and bindings of the last statement that ran (`.binds`, `.explain`).
  public private(set) var lastSQL: String?
  public private(set) var lastBindings: [QueryBinding] = []

  public init(database: Database) throws {
    self.database = database
    catalog = Catalog()
    compiler = Compiler(catalog: catalog)
    try refreshSchema()
  }

  /// An in-memory copy of a fixture's schema, rows and models.
  public static func fixture(_ name: String, variant: Bool = false) throws -> Session {
    let fixture = try Fixture.named(name)
    let database = try Database(path: ":memory:")
    try database.execute(try fixture.schemaSQL)
    if variant {
      try database.execute(try String(contentsOf: fixture.variantURL, encoding: .utf8))
    }
    let session = try Session(database: database)
    if let models = fixture.modelsSource { try session.loadModels(models, path: fixture.modelsURL.path) }
    return session
  }

  /// Models inferred from the database for tables no declaration covers.
  public func refreshSchema() throws {
    for table in try database.schema().tables {
      if catalog.table(forTableName: table.name) != nil { continue }
      let columns = table.columns.map { column in
        // A column's own SQL DEFAULT stands in for a Swift default: drafts may leave it out.
        ColumnModel(
          name: column.name, type: Self.swiftType(declared: column.declaredType, notNull: column.isNotNull || column.primaryKeyIndex > 0),
          isPrimaryKey: column.primaryKeyIndex == 1,
          defaultValue: column.defaultValue.map { Expression(.sql([.text($0)])) })
      }
      catalog.register(TableModel(
        typeName: Inflection.typeName(forTable: table.name), tableName: table.name, columns: columns,
        isDeclared: false))
    }
  }

  /// The Swift type a declared SQLite column type reads as.
  static func swiftType(declared: String, notNull: Bool) -> SwiftType {
    let upper = declared.uppercased()
    let name: String
    if upper.contains("BOOL") { name = "Bool" }
    else if upper.contains("INT") { name = "Int" }
    else if upper.contains("REAL") || upper.contains("FLOA") || upper.contains("DOUB") || upper.contains("NUMERIC") || upper.contains("DECIMAL") { name = "Double" }
    else if upper.contains("DATE") || upper.contains("TIME") { name = "Date" }
    else if upper.contains("BLOB") { name = "[UInt8]" }
    else { name = "String" }
    return SwiftType(name, optional: !notNull)
  }

  /// Loads Swift model declarations (a `--models` file).
  public func loadModels(_ source: String, path: String) throws {
    do {
      _ = try compiler.compile(source)
    } catch {
      throw WorkbenchError("\(path):\(error.line):\(error.column): \(error.fullMessage)")
    }
  }

  /// Compiles and runs every statement of an input, reporting each to the sink.
  /// Returns false if anything failed.
  @discardableResult
  public func run(_ input: String, sink: ResultSink) -> Bool {
    let items: [CompiledItem]
    do {
      items = try compiler.compile(input)
    } catch {
      sink.failure(input: input, error: StatementError(
        message: error.fullMessage, line: error.line, column: error.column, excerpt: error.excerpt(in: input)))
      return false
    }
    // An input that writes runs as one transaction: if any statement fails, none of its
    // changes stay, and the rest of the input does not run.
    let writes = items.contains { item in
      if case .statement(let compiled) = item { return !compiled.statement.isRead }
      return false
    }
    if writes { try? database.execute("SAVEPOINT quarry_whole_input") }
    var succeeded = true
    for case .statement(let compiled) in items {
      if !execute(compiled, sink: sink) {
        succeeded = false
        if writes { break }
      }
    }
    if writes {
      if !succeeded { try? database.execute("ROLLBACK TO quarry_whole_input") }
      try? database.execute("RELEASE quarry_whole_input")
    }
    return succeeded
  }

  /// Runs one compiled statement; writes run in a savepoint so a failure leaves no trace.
  func execute(_ compiled: CompiledStatement, sink: ResultSink) -> Bool {
    let fragment = compiled.statement.fragment
    let display = fragment.sql(inlining: true)
    // Views and triggers are stored as SQL text, which cannot hold parameters: their values are
    // written as (quoted) literals.
    let isSchemaObject: Bool
    switch compiled.statement {
    case .createView, .createTrigger: isSchemaObject = true
    default: isSchemaObject = false
    }
    let bindings = isSchemaObject ? [] : fragment.bindings
    lastSQL = display
    lastBindings = bindings
    func located(_ error: SQLiteError) -> StatementError {
      let message = error.isInterrupt ? "interrupted (Ctrl-C): the statement stopped" : error.description
      return StatementError(message: message, line: compiled.line, column: compiled.column, excerpt: nil)
    }
    defer { if let expected = compiled.expectedSQL { sink.note(Self.comparison(display, expected: expected)) } }
    if sqlOnly || fragment.isEmpty {
      sink.begin(input: compiled.input, sql: display, bindings: bindings, columns: [], types: [])
      sink.end(error: nil)
      return true
    }
    let isWrite = !compiled.statement.isRead
    do {
      let statement = try database.prepare(isSchemaObject ? display : fragment.sql(inlining: false))
      try statement.bind(bindings)
      var types = compiled.columnTypes
      if types.count != statement.columnCount { types = Array(repeating: nil, count: statement.columnCount) }
      sink.begin(
        input: compiled.input, sql: display, bindings: bindings,
        columns: Self.columnNames(statement.columnNames, of: compiled.statement), types: types)
      if isWrite { try database.execute("SAVEPOINT quarry_input") }
      do {
        while try statement.step() { sink.row(statement) }
        if isWrite { try database.execute("RELEASE quarry_input") }
      } catch let error as SQLiteError {
        if isWrite {
          try? database.execute("ROLLBACK TO quarry_input")
          try? database.execute("RELEASE quarry_input")
        }
        sink.end(error: located(error))
        return false
      }
      sink.end(error: nil)
      if compiled.statement.changesSchema { try? refreshSchema() }
      return true
    } catch let error as SQLiteError {
      // The SQL compiled but SQLite refused it: show the SQL with SQLite's message.
      sink.begin(input: compiled.input, sql: display, bindings: bindings, columns: [], types: [])
      sink.end(error: located(error))
      return false
    } catch {
      sink.failure(input: compiled.input, error: StatementError(message: "\(error)", line: compiled.line, column: compiled.column))
      return false
    }
  }

  /// How compiled SQL compares with the SQL a pasted StructuredQueries test expects (white
  /// space aside).
  static func comparison(_ sql: String, expected: String) -> String {
    func collapsed(_ text: String) -> String {
      text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
    if collapsed(sql) == collapsed(expected) { return "✓ same SQL as the test expects" }
    let lines = expected.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let indent = lines.filter { !$0.allSatisfy(\.isWhitespace) }.map { $0.prefix { $0 == " " }.count }.min() ?? 0
    let shown = lines.map { String($0.dropFirst(min(indent, $0.prefix { $0 == " " }.count))) }
      .joined(separator: "\n").trimmingCharacters(in: .newlines)
    return "✗ the test expects other SQL:\n" + shown
  }

  /// SQLite names an unnamed result column by its text, which for executed SQL contains `?`
  /// placeholders; show the literal text instead.
  static func columnNames(_ names: [String], of statement: Statement) -> [String] {
    guard case .select(let select) = statement else { return names }
    let columns = select.resultColumns
    return names.enumerated().map { index, name in
      guard name.contains("?"), index < columns.count else { return name }
      return columns[index].expression.fragment.sql(inlining: true)
    }
  }

  /// Runs raw SQL (`.raw`, or input that starts with an SQL keyword).
  @discardableResult
  public func runSQL(_ sql: String, sink: ResultSink) -> Bool {
    let compiled = CompiledStatement(
      statement: .raw(QueryFragment(sql)), input: sql, columnTypes: [], line: 1, column: 1)
    return execute(compiled, sink: sink)
  }

  /// Replaces the database (`.open`, `.fixture`); models stay.
  public func replaceDatabase(_ database: Database) throws {
    self.database = database
    try refreshSchema()
  }

  /// How a value reads in Swift terms for display: `true`, `.high`, `NULL`.
  public func display(_ value: DatabaseValue, type: SwiftType?) -> String {
    switch value {
    case .null: return "NULL"
    case .integer(let number):
      if let type {
        if type.isBool, number == 0 || number == 1 { return number == 1 ? "true" : "false" }
        if let model = catalog.enums[type.name], let match = model.cases.first(where: { $0.value == value }) {
          return "." + match.name
        }
      }
      return String(number)
    case .double(let number): return displayText(number)
    case .text(let text):
      if let type, let model = catalog.enums[type.name], let match = model.cases.first(where: { $0.value == value }) {
        return "." + match.name
      }
      return text
    case .blob(let bytes): return "x'" + hex(bytes) + "'"
    }
  }
}

/// A double as results show it: Swift's shortest spelling, and `Inf`/`-Inf` as the sqlite3
/// shell writes infinities.
func displayText(_ value: Double) -> String {
  if value.isInfinite { return value > 0 ? "Inf" : "-Inf" }
  return "\(value)"
}
