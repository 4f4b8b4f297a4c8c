import FoundationEssentials
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

/// Keeps the errors of statements run where no one watches (a models file's migrations).
final class CollectingSink: ResultSink {
  var errors: [StatementError] = []
  func begin(input: String, sql: String, bindings: [QueryBinding], columns: [String], types: [SwiftType?]) {}
  func row(_ statement: PreparedStatement) {}
  func end(error: StatementError?) { if let error { errors.append(error) } }
  func failure(input: String, error: StatementError) { errors.append(error) }
  func note(_ text: String) {}
  func declared(_ text: @autoclosure () -> String) {}
  func changed(rows: Int, insertedIDs: ClosedRange<Int64>?) {}
  func warning(_ warning: StatementError) {}
}

/// Receives each statement of an input as it runs; formats implement it to print results,
/// streaming rows where they can.
public protocol ResultSink: AnyObject {
  /// The SQL a statement runs, `?` where its bindings go: told just before `begin`, whose `sql`
  /// is the statement as shown (values written in).
  func executing(_ sql: String)
  /// A statement compiled and is about to run (or, with `--sql-only`, only to be shown).
  func begin(input: String, sql: String, bindings: [QueryBinding], columns: [String], types: [SwiftType?])
  func row(_ statement: PreparedStatement)
  /// The statement finished; `error` if it failed part-way.
  func end(error: StatementError?)
  /// The input failed before any SQL existed (a diagnostic).
  func failure(input: String, error: StatementError)
  /// A remark about the statement just shown (how its SQL compares with a pasted test's).
  func note(_ text: String)
  /// An input declared something (a model, an enum, a binding): what, in a few words (worked
  /// out only by a sink that shows it).
  func declared(_ text: @autoclosure () -> String)
  /// A statement that writes rows finished: how many it changed, and the new rows' ids when it
  /// inserted into a rowid table. Called before `end`.
  func changed(rows: Int, insertedIDs: ClosedRange<Int64>?)
  /// Rows a write changed besides its own, by foreign-key actions and triggers (a delete that
  /// cascades): told before `changed`, so the two counts add up to what a COMMIT keeps.
  func changedBesides(rows: Int)
  /// The input compiled with a warning (it still runs).
  func warning(_ warning: StatementError)
  /// Everything of one input was reported.
  func inputFinished(input: String)
}

extension ResultSink {
  public func executing(_ sql: String) {}
  public func changedBesides(rows: Int) {}
  public func note(_ text: String) {}
  public func declared(_ text: @autoclosure () -> String) {}
  public func changed(rows: Int, insertedIDs: ClosedRange<Int64>?) {}
  public func warning(_ warning: StatementError) {}
  public func inputFinished(input: String) {}
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
  public let compiler: Compiler
  public var sqlOnly = false
  /// Whether the last `run` declared anything (a model, an enum, a binding, a function).
  public private(set) var lastInputDeclared = false
  /// The `@DatabaseFunction`s registered with the connection, by name.
  private var installedFunctions: [String: ObjectIdentifier] = [:]
  /// The SQL and bindings of the last statement that ran (`.binds`, `.explain`).
  public private(set) var lastSQL: String?
  public private(set) var lastBindings: [QueryBinding] = []

  public convenience init(database: Database) throws {
    try self.init(database: database, catalog: Catalog())
  }

  /// A session whose models are `catalog`'s (a copy of models loaded once, ``Catalog/copy()``),
  /// its `@DatabaseFunction`s installed on `database`.
  init(database: Database, catalog: Catalog) throws {
    self.database = database
    self.catalog = catalog
    compiler = Compiler(catalog: catalog)
    try refreshSchema()
    compiler.rowReader = { [unowned self] statement, earlier in try self.previewRows(of: statement, after: earlier) }
    installDatabaseFunctions()
  }

  /// The rows `statement` reads once the input's `earlier` changes have run: those run first in
  /// a savepoint that is rolled back, so the database is as before (the input then runs for
  /// real, in order). App code that fetches rows and uses them as Swift values reads them here.
  func previewRows(of statement: Statement, after earlier: [Statement]) throws -> [[QueryBinding]] {
    func run(_ statement: Statement) throws -> [[QueryBinding]] {
      let fragment = statement.fragment
      switch statement {
      case .createView, .createTrigger: return try database.rows(fragment.sql(inlining: true))
      default: return try database.rows(fragment.sql(inlining: false), bindings: fragment.bindings)
      }
    }
    guard !earlier.isEmpty else { return try run(statement) }
    try database.execute("SAVEPOINT quarry_preview")
    defer {
      try? database.execute("ROLLBACK TO quarry_preview")
      try? database.execute("RELEASE quarry_preview")
    }
    for change in earlier { _ = try run(change) }
    return try run(statement)
  }

  /// An in-memory copy of a fixture's schema, rows and models.
  public static func fixture(_ name: String, variant: Bool = false, shiftingIDs shift: Int64 = 0) throws -> Session {
    try fixture(name, variant: variant, shiftingIDs: shift) { _ in }
  }

  /// A fixture whose rows `prepare` changes before any model is loaded (generated rows).
  static func fixture(_ name: String, variant: Bool, shiftingIDs shift: Int64, prepare: (Database) throws -> Void) throws -> Session {
    try fixture(name, copying: fixtureRows(name, variant: variant, shiftingIDs: shift, prepare: prepare))
  }

  /// A fixture's schema and rows (its variant rows, ids moved by `shift`, then changed by
  /// `prepare`), with no models: what ``fixture(_:copying:)`` makes sessions of.
  static func fixtureRows(_ name: String, variant: Bool, shiftingIDs shift: Int64, prepare: (Database) throws -> Void) throws -> Database {
    let fixture = try Fixture.named(name)
    let database = try Database(path: ":memory:")
    try database.execute(try fixture.schemaSQL)
    if variant {
      try database.execute(try String(contentsOf: fixture.variantURL, encoding: .utf8))
    }
    if shift != 0 { try shiftIDs(in: database, by: shift) }
    try prepare(database)
    return database
  }

  /// A session on a copy of `rows` (``fixtureRows(_:variant:shiftingIDs:prepare:)``), with the
  /// fixture's models: `rows` itself is never changed, so one set of rows serves many sessions.
  static func fixture(_ name: String, copying rows: Database) throws -> Session {
    // The learner's connection starts clean: `changes()` and `last_insert_rowid()` say nothing
    // about the statements that loaded the rows.
    let session = try Session(database: rows.freshCopy())
    try session.loadFixtureModels(name)
    return session
  }

  /// Loads a fixture's models (its `models.swift`) into this session.
  func loadFixtureModels(_ name: String) throws {
    let fixture = try Fixture.named(name)
    if let models = fixture.modelsSource { _ = try loadModels(models, path: fixture.modelsURL.path) }
  }

  /// Every integer primary key moved by `shift`, and every foreign key that refers to one with
  /// it: the same rows under other ids, so an answer that writes an id read off the fixture
  /// (`find(4)`) no longer matches.
  static func shiftIDs(in database: Database, by shift: Int64) throws {
    try IntegerKeys(database).remap(in: database) { _, id in id + shift }
  }

  /// The SQL `.explain QUERY` shows the plan of: SQL as written, a DSL query compiled (values
  /// written as literals); nil when the DSL input is no query.
  public func explainedSQL(of query: String) throws(Diagnostic) -> String? {
    let text = query.trimmingScalars(in: .whitespaces)
    if SQLDetector.startsWithSQLKeyword(text) { return text }
    guard case .statement(let compiled)? = try Compiler(catalog: catalog).compile(text).last else { return nil }
    return compiled.displaySQL
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
      catalog.register(
        TableModel(
          typeName: Inflection.typeName(forTable: table.name), tableName: table.name, columns: columns,
          isDeclared: false))
    }
  }

  /// The Swift type a declared SQLite column type reads as.
  static func swiftType(declared: String, notNull: Bool) -> SwiftType {
    let upper = Array(declared.uppercased().utf8)
    func has(_ word: String) -> Bool { ByteSearch.firstIndex(of: Array(word.utf8), in: upper) != nil }
    let name: String
    if has("BOOL") {
      name = "Bool"
    } else if has("INT") {
      name = "Int"
    } else if has("REAL") || has("FLOA") || has("DOUB") || has("NUMERIC") || has("DECIMAL") {
      name = "Double"
    } else if has("DATE") || has("TIME") {
      name = "Date"
    } else if has("BLOB") {
      name = "[UInt8]"
    } else {
      name = "String"
    }
    return SwiftType(name, optional: !notNull)
  }

  /// Loads a Swift file of models (`--models Schema.swift`): its declarations, and the
  /// statements the app code in it runs (the migrations of a set-up function create its
  /// tables). Each piece stands alone: what does not compile or run is returned as a located
  /// message, and the rest is loaded. Throws only when nothing in the file could be read.
  @discardableResult
  public func loadModels(_ source: String, path: String) throws -> [String] {
    let items: [CompiledItem]
    do {
      items = try compiler.compile(source, recovering: true)
      installDatabaseFunctions()
    } catch {
      throw WorkbenchError("\(path):\(error.line):\(error.column): \(error.fullMessage)")
    }
    var messages = compiler.warnings.map { "warning: \(path):\($0.line):\($0.column): \($0.fullMessage)" }
    // Each migration (and write block) runs in its own transaction, as GRDB runs it: one that
    // fails is rolled back whole, and the migrator stops there (later migrations do not run).
    var units = UnitTracker()
    for item in items {
      switch item {
      case .unitStart(let unit):
        if !units.enter(unit, database: database), case .migration = unit.kind, let stopped = units.failedMigration {
          messages.append(
            "note: \(path):\(unit.line):\(unit.column): \(unit.description) did not run: \(stopped.description) failed, and the migrator stops there"
          )
        }
      case .unitEnd:
        if let (unit, outcome, transaction) = units.leave() {
          switch outcome {
          case .undone(let rows):
            messages.append(
              "error: \(path):\(unit.line):\(unit.column): \(unit.description) was rolled back (\(rows) row\(rows == 1 ? "" : "s") undone); none of its changes stay"
            )
          case .notSaved:
            if let (text, _) = transaction.message(for: outcome) { messages.append("error: \(path):\(unit.line):\(unit.column): \(text)") }
          case .saved:
            break
          }
        }
      case .unitThrew(let thrown):
        guard !units.isSkipping else { continue }
        units.fail()
        messages.append("error: \(path):\(thrown.line):\(thrown.column): \(thrown.message) thrown: the transaction is rolled back")
      case .failure(let error):
        guard !units.isSkipping else { continue }
        units.fail()
        messages.append("\(units.isOpen ? "error" : "warning"): \(path):\(error.line):\(error.column): \(error.fullMessage)")
      case .note(let text):
        messages.append("note: \(path): \(text)")
      case .statement(let compiled):
        guard !units.isSkipping else { continue }
        let sink = CollectingSink()
        if !execute(compiled, sink: sink), let error = sink.errors.first {
          units.fail()
          messages.append("error: \(path):\(compiled.line):\(compiled.column): \(error.message)")
        }
      case .declaration:
        break
      }
    }
    let loaded = items.contains { if case .failure = $0 { return false } else { return true } }
    if !loaded, case .failure(let error)? = items.first {
      throw WorkbenchError("\(path):\(error.line):\(error.column): \(error.fullMessage)")
    }
    return messages
  }

  /// Compiles and runs every statement of an input, reporting each to the sink.
  /// Returns false if anything failed.
  @discardableResult
  public func run(_ input: String, sink: ResultSink) -> Bool {
    defer { sink.inputFinished(input: input) }
    settingsChanged = []
    let items: [CompiledItem]
    do {
      items = try compiler.compile(input, recovering: true)
      installDatabaseFunctions()
      lastInputDeclared = items.contains { if case .declaration = $0 { return true } else { return false } }
    } catch {
      lastInputDeclared = false
      sink.failure(
        input: input,
        error: StatementError(
          message: error.fullMessage, line: error.line, column: error.column, excerpt: error.excerpt(in: input)))
      return false
    }
    for warning in compiler.warnings {
      sink.warning(
        StatementError(
          message: warning.fullMessage, line: warning.line, column: warning.column, excerpt: warning.excerpt(in: input)))
    }
    // An input that writes runs as one transaction: if any statement fails, none of its
    // changes stay, and the rest of the input does not run.
    let writes = items.contains { item in
      if case .statement(let compiled) = item { return self.writes(compiled.statement) }
      return false
    }
    let transaction = writes && !inInputTransaction ? try? InputTransaction(database, name: "quarry_whole_input") : nil
    if transaction != nil { inInputTransaction = true }
    defer { if transaction != nil { inInputTransaction = false } }
    var succeeded = true
    var runFailed = false
    // Each item in order; a declaration or statement that did not compile is reported where it
    // stands, and the others still run (a whole file pasted at once: each stands alone). A
    // statement that fails when it runs undoes the input's writes and stops the rest.
    var unit: TransactionUnit?
    // Each outermost unit in a savepoint of its own, so a unit whose code throws is rolled back
    // alone (the input's other changes stay, as GRDB rolls back only that transaction).
    var unitTransaction: InputTransaction?
    func failUnit() {
      guard let failed = unit else { return }
      runFailed = true
      sink.note("\(failed.description) at \(failed.line):\(failed.column) failed: it runs in one transaction, so none of its changes stay")
      unit = nil
    }
    /// Migrations this input applied, in order (GRDB keeps them when a later one fails).
    var migrationsApplied: [String] = []
    /// A migration failed as it ran: GRDB rolls back its transaction alone, keeps the ones
    /// before it, and the migrator throws, so nothing after it runs.
    var migratorStopped = false
    for item in items {
      if migratorStopped {
        if case .unitStart(let skipped) = item, case .migration(let name) = skipped.kind, unit == nil {
          sink.note("migration '\(name)' did not run: the migrator stopped at the failed one")
        }
        continue
      }
      switch item {
      case .unitStart(let started):
        if unit == nil {
          unit = started
          unitTransaction = sqlOnly ? nil : try? InputTransaction(database, name: "quarry_unit")
        }
      case .unitThrew(let thrown):
        _ = unitTransaction?.end(rollingBack: true)
        unitTransaction = nil
        if let started = unit {
          sink.note(
            "\(started.description) at \(started.line):\(started.column) threw \(thrown.message) at \(thrown.line):\(thrown.column): its transaction is rolled back, so none of its changes stay"
          )
        }
        unit = nil
      case .unitEnd:
        // A unit that failed fails the input, which is undone whole.
        _ = unitTransaction?.end(rollingBack: runFailed)
        if !runFailed, case .migration(let name)? = unit?.kind { migrationsApplied.append(name) }
        unitTransaction = nil
        unit = nil
      case .declaration(let name):
        sink.declared(describeDeclaration(name))
      case .note(let text):
        sink.note(text)
      case .failure(let error):
        succeeded = false
        sink.failure(
          input: input,
          error: StatementError(
            message: error.fullMessage, line: error.line, column: error.column, excerpt: error.excerpt(in: input)))
        failUnit()
      case .statement(let compiled):
        if runFailed, writes { continue }
        if !execute(compiled, sink: sink) {
          succeeded = false
          if let failed = unit, case .migration(let name) = failed.kind, let savepoint = unitTransaction {
            // As GRDB runs a migrator: this migration's transaction is rolled back alone.
            _ = savepoint.end(rollingBack: true)
            unitTransaction = nil
            unit = nil
            migratorStopped = true
            let kept =
              migrationsApplied.isEmpty
              ? "no migration before it ran in this input"
              : "the ones before it stay applied (" + migrationsApplied.map { "'\($0)'" }.joined(separator: ", ") + ")"
            sink.note(
              "migration '\(name)' at \(failed.line):\(failed.column) failed: its transaction is rolled back and the migrator stops there; \(kept); nothing after it runs"
            )
            continue
          }
          runFailed = true
          failUnit()
        }
      }
    }
    if let transaction, !report(transaction.end(rollingBack: runFailed), of: transaction, input: input, sink: sink) {
      succeeded = false
    }
    if runFailed { restoreSettings(sink: sink) }
    return succeeded
  }

  /// Whether a statement changes the database, as SQLite judges it (`sqlite3_stmt_readonly`) for
  /// raw SQL: a WITH-led `#sql` INSERT writes. SQL that does not prepare yet (a table an earlier
  /// statement of the input creates) is judged by its form.
  func writes(_ statement: Statement) -> Bool {
    guard case .raw(let fragment) = statement else { return !statement.isRead }
    let sql = fragment.sql(inlining: false)
    // Never compiled ahead: SQLite applies some pragmas as it compiles them.
    if sql.uppercased().contains("PRAGMA") { return !statement.isRead }
    let script = SQLScript(sql, database: database)
    do {
      while let prepared = try script.next() {
        if !prepared.isReadOnly { return true }
      }
      return false
    } catch {
      return !statement.isRead
    }
  }

  /// `totalChanges` when the user's open transaction began (`BEGIN`).
  private var changesBeforeTransaction = 0

  /// Rows changed inside the transaction the user began and has not ended (nil: none is open).
  public var changesInOpenTransaction: Int? {
    database.isInTransaction ? max(0, database.totalChanges - changesBeforeTransaction) : nil
  }

  /// Rolls back the transaction the user left open; how many rows it had changed (nil: none was
  /// open).
  public func rollBackOpenTransaction() -> Int? {
    guard let rows = changesInOpenTransaction else { return nil }
    try? database.execute("ROLLBACK")
    return rows
  }

  /// Connection settings the current input changed (`PRAGMA foreign_keys = OFF`), with their
  /// values before it: set back when the input fails, so a failed input leaves nothing behind.
  var settingsChanged: [ConnectionSetting] = []

  /// Sets back what the failed input's `PRAGMA`s changed, and says so.
  func restoreSettings(sink: ResultSink) {
    guard !settingsChanged.isEmpty else { return }
    let restored = settingsChanged.reversed().filter { $0.restore(in: database) }
    settingsChanged = []
    if !restored.isEmpty {
      sink.note("set back: " + restored.reversed().map { "PRAGMA \($0.name) = \($0.before.inlineSQL)" }.joined(separator: ", "))
    }
  }

  /// Whether an input's savepoint is open (a statement inside it runs in its own, quietly).
  var inInputTransaction = false

  /// Tells the user what ending an input's transaction did: an undo (how many rows), or a
  /// commit that failed. False when the changes were not saved.
  func report(_ outcome: InputTransaction.Outcome, of transaction: InputTransaction, input: String, sink: ResultSink) -> Bool {
    guard let (text, isError) = transaction.message(for: outcome) else { return true }
    if isError {
      sink.failure(input: input, error: StatementError(message: text, line: 1, column: 1))
      return false
    }
    sink.note(text)
    return true
  }

  /// Registers each `@DatabaseFunction` declared since the last call (again when redeclared),
  /// its body run by Quarry's interpreter; a body it cannot run fails the statement that calls
  /// it, with the place and the reason.
  func installDatabaseFunctions() {
    for (name, function) in catalog.databaseFunctions where installedFunctions[name] != ObjectIdentifier(function) {
      installedFunctions[name] = ObjectIdentifier(function)
      if function.isAggregate {
        try? database.addAggregate(name, argumentCount: function.argumentCount, deterministic: function.isDeterministic) { rows in
          do { return try function.aggregate(rows) } catch { throw DatabaseFunctionError("\(error)") }
        }
      } else {
        try? database.addFunction(name, argumentCount: function.argumentCount, deterministic: function.isDeterministic) { arguments in
          do { return try function.call(arguments) } catch { throw DatabaseFunctionError("\(error)") }
        }
      }
    }
  }

  /// What a declaration added: `declared table Note (3 columns)`, `declared enum Priority (3 cases)`.
  func describeDeclaration(_ name: String) -> String {
    if let model = catalog.table(forType: name) {
      let columns = model.columns.count == 1 ? "1 column" : "\(model.columns.count) columns"
      let exists = (try? database.schema().tables.contains { $0.name == model.tableName }) == true
      if model.isSelection { return "declared column group \(name) (\(columns))" }
      return "declared table \(name) (\(columns))" + (exists ? "" : "; no table '\(model.tableName)' in the database yet")
    }
    if let model = catalog.enums[name] {
      return "declared enum \(name) (\(model.cases.count) case\(model.cases.count == 1 ? "" : "s"))"
    }
    return "declared \(name)"
  }

  /// Runs one compiled statement (a raw one may hold several); writes run in a savepoint so a
  /// failure leaves no trace.
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
    defer { if let expected = compiled.expectedSQL { sink.note(Self.comparison(display, expected: expected)) } }
    if Database.sqliteVersionNumber < 3_042_000, ByteSearch.contains("'subsec'", in: display) {
      // StructuredQueries writes 'subsec' (SQLite 3.42+); an older SQLite answers NULL instead.
      sink.note(
        "this SQLite (\(Self.sqliteVersion)) predates the 'subsec' modifier (3.42): these date values read NULL here; your app's SQLite (3.42 or later) computes them"
      )
    }
    if sqlOnly || fragment.isEmpty {
      sink.executing(fragment.sql(inlining: isSchemaObject))
      sink.begin(input: compiled.input, sql: display, bindings: bindings, columns: [], types: [])
      sink.end(error: nil)
      return true
    }
    if bindings.count > database.variableLimit {
      // Said before SQLite is asked (it would only say "too many SQL variables").
      sink.failure(
        input: compiled.input,
        error: StatementError(
          message:
            "this statement binds \(ReplFormatter.grouped(bindings.count)) values; SQLite takes at most \(ReplFormatter.grouped(database.variableLimit)) in one statement (an app's SQLite often 32,766): pass a long list as one JSON array (`#sql(\"\\($0.id) IN (SELECT value FROM json_each(\\(jsonText)))\")`), or put it in a table and join it",
          line: compiled.line, column: compiled.column))
      return false
    }
    var isRaw = false
    if case .raw = compiled.statement { isRaw = true }
    let statement = compiled.statement
    return runStatements(
      of: isSchemaObject ? display : fragment.sql(inlining: false), bindings: bindings, input: compiled.input,
      sink: sink,
      display: { index, text, isWhole in isRaw && !(index == 0 && isWhole) ? text : display },
      columns: { names in Self.columnNames(names, of: statement) },
      types: compiled.columnTypes,
      // SQLite's offsets are into generated SQL, not the input: point at the statement.
      locate: { _ in (compiled.line, compiled.column, compiled.excerpt) },
      reportsCompileErrorsWithSQL: true)
  }

  /// Statements after which Quarry's own savepoint must not be open: transaction control, and
  /// statements SQLite refuses inside a transaction. From one of them on, the user is in charge.
  /// Where the name an error is about (`no such table: tgs`) stands in the SQL, for errors
  /// SQLite gives no offset for: a byte offset at or after `start`.
  static func offset(ofNameIn error: SQLiteError, in sql: String, from start: Int) -> Int? {
    guard let colon = error.message.ranges(of: ": ").last else { return nil }
    let name = String(error.message[colon.upperBound...])
    guard !name.isEmpty, !name.contains(" "), start <= sql.utf8.count else { return nil }
    let bytes = Array(sql.utf8)
    let target = Array(name.lowercased().utf8)
    var index = start
    while index + target.count <= bytes.count {
      if bytes[index..<(index + target.count)].map({ $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 }).elementsEqual(target) { return index }
      index += 1
    }
    return nil
  }

  /// "did you mean" for SQLite's `no such table: X` / `no such column: X`, from the names the
  /// database has.
  func suggestion(for error: SQLiteError) -> String {
    if error.message.hasPrefix("misuse of window function ") {
      // With its window and still misused: it stands in WHERE, GROUP BY or HAVING, which run
      // before windows are computed.
      if lastSQL?.contains(" OVER (") == true {
        return
          "; a window function cannot be used in where, group or having (they run before windows are computed): compute it in a CTE (With { … }) and filter that"
      }
      return "; a window function needs its window: add .over(…), e.g. rank().over(orderBy: $0.salary.desc())"
    }
    for (prefix, isTable) in [("no such table: ", true), ("no such column: ", false)] where error.message.hasPrefix(prefix) {
      let wanted = String(error.message.dropFirst(prefix.count))
      let name = wanted.split(separator: ".").last.map(String.init) ?? wanted
      guard let tables = try? database.schema().tables else { return "" }
      let names = isTable ? tables.map(\.name) : tables.flatMap { $0.columns.map(\.name) }
      if let match = closestMatch(to: name, in: Set(names)), match != name { return "; did you mean '\(match)'?" }
    }
    return ""
  }

  static var sqliteVersion: String {
    let number = Database.sqliteVersionNumber
    return "\(number / 1_000_000).\(number / 1_000 % 1_000).\(number % 1_000)"
  }

  /// Statements whose changed-row count SQLite reports (`sqlite3_changes`).
  static let dataChanging: Set<String> = ["INSERT", "REPLACE", "UPDATE", "DELETE", "WITH"]

  static let transactionControl: Set<String> = [
    "BEGIN", "COMMIT", "END", "ROLLBACK", "SAVEPOINT", "RELEASE", "VACUUM", "ATTACH", "DETACH",
  ]

  /// Runs every statement of an SQL text in order (SQLite decides where each ends), each
  /// reported to the sink with its own results.
  ///
  /// The first statement that changes data opens a savepoint; a failure rolls the text's changes
  /// back and stops the rest. `BEGIN`, `COMMIT`, `ROLLBACK`, `SAVEPOINT`, `VACUUM` … run exactly as
  /// written, as in sqlite3: Quarry's savepoint is released before them and not opened again.
  /// A `PRAGMA` never opens one (some pragmas do nothing inside a transaction).
  func runStatements(
    of sql: String, bindings: [QueryBinding], namedParameters: [QueryBinding] = [], input: String, sink: ResultSink,
    display: (_ index: Int, _ text: String, _ isWhole: Bool) -> String,
    columns: ([String]) -> [String], types: [SwiftType?],
    locate: (_ byteOffset: Int) -> (line: Int, column: Int, excerpt: String?),
    reportsCompileErrorsWithSQL: Bool
  ) -> Bool {
    let script = SQLScript(sql, database: database)
    var remaining = bindings[...]
    var transaction: InputTransaction?
    var userInCharge = false
    var changedSchema = false
    var index = 0
    // Quarry's savepoint for this input, unless one is open around it already (then that one
    // speaks for the whole input).
    let reports = !inInputTransaction
    func end(rollingBack: Bool) -> Bool {
      guard let open = transaction else { return true }
      transaction = nil
      if reports { inInputTransaction = false }
      let outcome = open.end(rollingBack: rollingBack)
      return reports ? report(outcome, of: open, input: input, sink: sink) : true
    }
    func undo() {
      _ = end(rollingBack: true)
      if reports { restoreSettings(sink: sink) }
    }
    func located(_ error: SQLiteError, at offset: Int) -> StatementError {
      let message = error.isInterrupt ? "interrupted (Ctrl-C): the statement stopped" : error.description + suggestion(for: error)
      let place = locate(error.offset ?? Self.offset(ofNameIn: error, in: sql, from: offset) ?? offset)
      return StatementError(message: message, line: place.line, column: place.column, excerpt: place.excerpt)
    }
    defer { if changedSchema { try? refreshSchema() } }
    while true {
      let statement: PreparedStatement
      let settingBefore =
        script.upcoming(6).uppercased() == "PRAGMA"
        ? ConnectionSetting(assignedIn: script.upcoming(), database: database) : nil
      do {
        guard let next = try script.next() else { break }
        statement = next
      } catch let error as SQLiteError {
        if reportsCompileErrorsWithSQL && index == 0 {
          // The SQL compiled from the DSL but SQLite refused it: show it with SQLite's message.
          sink.begin(input: input, sql: display(0, sql, true), bindings: bindings, columns: [], types: [])
          sink.end(error: located(error, at: 0))
        } else {
          sink.failure(input: input, error: located(error, at: script.lastRange.upperBound))
        }
        undo()
        return false
      } catch {
        sink.failure(input: input, error: StatementError(message: "\(error)", line: 1, column: 1))
        undo()
        return false
      }
      let text = script.lastText
      let start = script.lastRange.lowerBound
      let keyword = leadingKeyword(of: text)
      do {
        if Self.transactionControl.contains(keyword) {
          guard end(rollingBack: false) else { return false }
          userInCharge = true
        } else if !statement.isReadOnly && transaction == nil && !userInCharge && !ConnectionSetting.runsOutsideTransactions(text) {
          transaction = try InputTransaction(database, name: "quarry_input")
          if reports { inInputTransaction = true }
        }
        // A pragma that writes the file (`user_version`) is undone with the transaction; one
        // that only sets the connection is set back by hand if the input fails.
        if let setting = settingBefore, statement.isReadOnly, !settingsChanged.contains(where: { $0.name == setting.name }) {
          settingsChanged.append(setting)
        }
        if !statement.isReadOnly { changedSchema = changedSchema || ["CREATE", "DROP", "ALTER"].contains(keyword) }
        let count = statement.parameterCount
        let values = Array(remaining.prefix(count))
        remaining = remaining.dropFirst(count)
        try statement.bind(values)
        for (number, value) in namedParameters.enumerated() {
          if let index = statement.parameterIndex(named: "$\(number + 1)") { try statement.bind(value, at: index) }
        }
        var columnTypes = types
        if columnTypes.count != statement.columnCount { columnTypes = Array(repeating: nil, count: statement.columnCount) }
        sink.executing(text)
        sink.begin(
          input: input, sql: display(index, text, index == 0 && !script.hasMore), bindings: values,
          columns: columns(statement.columnNames), types: columnTypes)
        // A write may insert (WITH-led ones too): the last row id is set to a mark no insert
        // leaves, so any other value after it is the new rows' (even an id equal to the last
        // one, after a delete). Set back when nothing was inserted.
        let writes = !statement.isReadOnly && Self.dataChanging.contains(keyword)
        let rowIDBefore = database.lastInsertRowID
        if writes { database.lastInsertRowID = Int64.min }
        defer { if writes, database.lastInsertRowID == Int64.min { database.lastInsertRowID = rowIDBefore } }
        if Self.transactionControl.contains(keyword), !database.isInTransaction { changesBeforeTransaction = database.totalChanges }
        let totalBefore = database.totalChanges
        do {
          while try statement.step() { sink.row(statement) }
        } catch let error as SQLiteError {
          sink.end(error: located(error, at: start))
          undo()
          return false
        }
        if writes {
          let count = database.changes
          let last = database.lastInsertRowID
          let inserted = count > 0 && last != Int64.min ? (last - Int64(count) + 1)...last : nil
          let besides = database.totalChanges - totalBefore - count
          if besides > 0 { sink.changedBesides(rows: besides) }
          sink.changed(rows: count, insertedIDs: inserted)
        }
        sink.end(error: nil)
      } catch let error as SQLiteError {
        sink.failure(input: input, error: located(error, at: start))
        undo()
        return false
      } catch {
        sink.failure(input: input, error: StatementError(message: "\(error)", line: 1, column: 1))
        undo()
        return false
      }
      index += 1
    }
    return end(rollingBack: false)
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
      .joined(separator: "\n").trimmingScalars(in: .newlines)
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

  /// Runs plain SQL (`.raw`, or input that starts with an SQL keyword): every statement of it,
  /// in order, each with its own results. Errors are located in `sql` (line and column in
  /// characters, with a caret). `parameters` are bound to `$1`, `$2` … (`.run NAME ARGS`).
  @discardableResult
  public func runSQL(_ sql: String, sink: ResultSink, parameters: [QueryBinding] = []) -> Bool {
    settingsChanged = []
    lastSQL = sql
    lastBindings = []
    if sqlOnly {
      sink.begin(input: sql, sql: sql, bindings: [], columns: [], types: [])
      sink.end(error: nil)
      return true
    }
    return runStatements(
      of: sql, bindings: [], namedParameters: parameters, input: sql, sink: sink,
      display: { _, text, _ in text }, columns: { $0 }, types: [],
      locate: { offset in
        let place = SourceLocation(byteOffset: offset, in: sql)
        return (place.line, place.column, place.excerpt)
      },
      reportsCompileErrorsWithSQL: false)
  }

  /// Replaces the database (`.open`, `.fixture`); models stay.
  public func replaceDatabase(_ database: Database) throws {
    self.database = database
    try refreshSchema()
  }

  /// How a value reads in Swift terms for display: `true`, `.high`, `NULL`.
  public func display(_ value: DatabaseValue, type: SwiftType?) -> String {
    // A date stored as a number (`Date.UnixTimeRepresentation`, `JulianDayRepresentation`) shows
    // as the date it is.
    if let type, type.isDate, let representation = type.representation {
      var seconds: Double?
      switch value {
      case .integer(let number) where representation.contains("UnixTime"): seconds = Double(number)
      case .double(let number) where representation.contains("UnixTime"): seconds = number
      case .double(let number) where representation.contains("JulianDay"): seconds = (number - 2_440_587.5) * 86_400
      case .integer(let number) where representation.contains("JulianDay"): seconds = (Double(number) - 2_440_587.5) * 86_400
      default: break
      }
      if let seconds, let text = DateFormatting.iso8601(secondsSince1970: seconds) { return text }
    }
    switch value {
    case .null: return "NULL"
    case .parameter(let name): return name
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
    case .blob(let bytes):
      // `UUID.BytesRepresentation`: the UUID the 16 bytes are.
      if type?.name == "UUID", bytes.count == 16 {
        let digits = hex(bytes).lowercased()
        var text = ""
        for (index, digit) in digits.enumerated() {
          if [8, 12, 16, 20].contains(index) { text.append("-") }
          text.append(digit)
        }
        return text
      }
      return "x'" + hex(bytes) + "'"
    }
  }
}

/// A double as results show it: Swift's shortest spelling, and `Inf`/`-Inf` as the sqlite3
/// shell writes infinities.
func displayText(_ value: Double) -> String {
  if value.isInfinite { return value > 0 ? "Inf" : "-Inf" }
  return "\(value)"
}
