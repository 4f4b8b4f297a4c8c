import FoundationEssentials
import QuarryDSL
import QuarryEngine
import QueryBuilder

/// Turns what the front end compiled into report entries: runs the set-up, prepares each
/// query against the app's schema, reads its plan, and collects findings.
struct EntryBuilder {
  let sources: ScanSources
  let session: Session
  /// The app's set-up built no table at all: `opensDatabase` when the app opens a database
  /// (`DatabaseQueue(path:)`) it does not build — one shipped with it or made elsewhere — so a
  /// query of a missing table is not run rather than an error; `scannedPart` when the scanned
  /// files open none (a part of an app: its set-up is elsewhere).
  enum MissingSchema: Equatable {
    case none, opensDatabase, scannedPart
    /// The schema is that of a database the app ships (the file, and the line of the scanned
    /// text that names it); a table it lacks is in another database the app opens.
    case shipped(String, line: Int)
  }
  var missingSchema = MissingSchema.none
  /// Each file's lines, for `// quarry:ignore` comments.
  private var fileLines: [String: [Substring]] = [:]
  private var fileOrder: [String: Int] = [:]
  /// The columns the tables' indexes start with, read once per table.
  private let indexes: IndexedColumns
  /// Where each table was created (for findings about the table itself).
  private var tableCreatedAt: [String: (path: String, line: Int, column: Int)] = [:]
  /// Where a column was added to a table later (`ALTER TABLE t ADD COLUMN c … REFERENCES …`):
  /// the migration that declares its foreign key. Keyed `table.column`, lower-cased.
  private var columnAddedAt: [String: (path: String, line: Int, column: Int)] = [:]
  /// Tables a migration creates that Quarry could not follow, lower-cased, with the migration.
  private var notBuilt: [String: (path: String, line: Int, migration: String)] = [:]

  init(sources: ScanSources, session: Session) {
    self.sources = sources
    self.session = session
    indexes = IndexedColumns(session.database)
    for (index, file) in sources.files.enumerated() { fileOrder[file.path] = index }
    var lines = sources.text.split(separator: "\n", omittingEmptySubsequences: false)[...]
    for file in sources.files {
      fileLines[file.path] = Array(lines.prefix(file.lines))
      lines = lines.dropFirst(file.lines)
    }
  }

  private func located(_ line: Int, _ column: Int) -> (path: String, line: Int, column: Int, order: Int) {
    let place = sources.locate(line: line)
    return (place.path, place.line, column, fileOrder[place.path] ?? 0)
  }

  private func newEntry(line: Int, column: Int, kind: String, source: String) -> ScanReport.Entry {
    let place = located(line, column)
    return ScanReport.Entry(
      path: place.path, fileOrder: place.order, line: place.line, column: place.column, kind: kind,
      source: Self.abridged(source))
  }

  /// The first lines of a query's source, at most 6, without their common indentation.
  static func abridged(_ source: String) -> String {
    let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
    let indent = lines.dropFirst().filter { !$0.allSatisfy(\.isWhitespace) }.map { $0.prefix { $0 == " " }.count }.min() ?? 0
    var out = lines.prefix(6).enumerated().map {
      $0.offset == 0 ? String($0.element) : String($0.element.dropFirst(min(indent, $0.element.prefix { $0 == " " }.count)))
    }
    if lines.count > 6 { out.append("…") }
    return out.joined(separator: "\n")
  }

  // MARK: Set-up

  /// Runs the set-up's statements in order (each migration in a transaction of its own, as
  /// GRDB runs it) and records an entry for each; with `--db`, nothing runs.
  mutating func runSetUp(_ items: [CompiledItem], into report: inout ScanReport, locations: inout [(line: Int, column: Int)]) {
    let database = session.database
    var unit: TransactionUnit?
    var unitFailed = false
    // GRDB records each migration it applies by name; a migrator that registers a name the
    // database already has skips it (several set-ups of one database, as in a demo app).
    var applied: [String: (path: String, line: Int)] = [:]
    var alreadyApplied: (path: String, line: Int)?
    // Statements listed once already: a set-up reached a second way (a file database and an
    // in-memory one made by the same helper) registers the same migrations again.
    var listed: Set<String> = []
    for item in items {
      switch item {
      case .unitStart(let started):
        unit = started
        unitFailed = false
        alreadyApplied = nil
        if case .migration(let name) = started.kind, let earlier = applied[name] {
          alreadyApplied = earlier
        } else if !session.sqlOnly {
          try? database.execute("SAVEPOINT quarry_scan_unit")
        }
      case .unitEnd:
        if !session.sqlOnly, alreadyApplied == nil {
          if unitFailed { try? database.execute("ROLLBACK TO quarry_scan_unit") }
          try? database.execute("RELEASE quarry_scan_unit")
        }
        if case .migration(let name)? = unit?.kind, !unitFailed, alreadyApplied == nil {
          let place = located(unit?.line ?? 1, unit?.column ?? 1)
          applied[name] = (place.path, place.line)
        }
        alreadyApplied = nil
        unit = nil
      case .unitThrew(let diagnostic):
        unitFailed = true
        var entry = newEntry(line: diagnostic.line, column: diagnostic.column, kind: "set-up", source: "")
        entry.error = diagnostic.fullMessage + " thrown: the transaction is rolled back"
        report.entries.append(entry)
      case .failure(let diagnostic):
        // A migration Quarry cannot follow is rolled back whole, as GRDB rolls back one that fails.
        if let unit {
          unitFailed = true
          let place = located(unit.line, unit.column)
          for table in unit.creates where notBuilt[table.lowercased()] == nil {
            notBuilt[table.lowercased()] = (place.path, place.line, unit.description)
          }
        }
        var entry = newEntry(line: diagnostic.line, column: diagnostic.column, kind: "set-up", source: "")
        entry.error = diagnostic.fullMessage
        report.entries.append(entry)
      case .statement(let compiled):
        locations.append((compiled.line, compiled.column))
        var kind = "set-up"
        if case .migration(let name)? = unit?.kind { kind = "migration '\(name)'" }
        var entry = newEntry(line: compiled.line, column: compiled.column, kind: kind, source: compiled.input)
        let place = "\(entry.path):\(entry.line):\(entry.column)"
        if alreadyApplied != nil, listed.contains(place) { continue }
        listed.insert(place)
        entry.executedBy = "execute"
        entry.findings += Self.assumed(compiled)
        entry.sql = Self.sql(of: compiled.statement)
        entry.prettySQL = Self.sql(of: compiled.statement, layout: .pretty)
        entry.bindings = Self.bindings(of: compiled.statement)
        if let earlier = alreadyApplied {
          entry.notRun =
            "GRDB has already applied a migration named this to the database (\(earlier.path):\(earlier.line)), so it skips this one"
        } else if unitFailed {
          entry.notRun = "an earlier statement of this migration failed, so GRDB rolls the migration back"
        } else if let runTime = compiled.statement.fragment.bindings.first(where: { if case .parameter = $0 { true } else { false } }),
          case .parameter(let name) = runTime
        {
          // Data the app computes when it runs (`String(localized:)`, `Date()`): the schema does
          // not depend on it. Its SQL is shown, and prepared against the schema so far.
          entry.notRun = Self.runTimeNotRun + " (\(name))"
          if !session.sqlOnly, let sql = entry.sql {
            do {
              _ = try database.prepare(sql)
            } catch let error as SQLiteError {
              // SQLite refuses it whatever the value: the app's statement throws there.
              entry.notRun = nil
              entry.error = "SQLite: " + error.message
              if let unit {
                unitFailed = true
                entry.error =
                  (entry.error ?? "") + " (GRDB rolls back \(unit.description) whole; the scan goes on with the schema before it)"
              }
            } catch {}
          }
        } else if !session.sqlOnly {
          let sink = CollectingSink()
          if !session.execute(compiled, sink: sink) || !sink.errors.isEmpty {
            entry.error = sink.errors.first?.message ?? "this statement failed"
            if let unit {
              unitFailed = true
              entry.error = (entry.error ?? "") + " (GRDB rolls back \(unit.description) whole; the scan goes on with the schema before it)"
            }
          }
        }
        if let table = Self.createdTable(compiled.statement) {
          tableCreatedAt[table.lowercased()] = (entry.path, entry.line, entry.column)
        }
        if let added = Self.addedColumn(compiled.statement) {
          columnAddedAt[(added.table + "." + added.column).lowercased()] = (entry.path, entry.line, entry.column)
        }
        // A renamed table keeps the statements that declared it and its columns.
        if entry.error == nil, entry.notRun == nil, let renamed = Self.renamedTable(compiled.statement) {
          let (old, new) = (renamed.from.lowercased(), renamed.to.lowercased())
          if let created = tableCreatedAt[old] { tableCreatedAt[new] = created }
          for (key, place) in columnAddedAt where key.hasPrefix(old + ".") {
            columnAddedAt[new + key.dropFirst(old.count)] = place
          }
        }
        // The same statement again, from a loop of the set-up: one entry, run that many times.
        if var last = report.entries.last, last.path == entry.path, last.line == entry.line, last.column == entry.column,
          last.kind == entry.kind, last.sql == entry.sql, last.error == entry.error,
          last.skipped == entry.skipped,
          last.notRun == entry.notRun
            || (last.notRun?.hasPrefix(Self.runTimeNotRun) == true && entry.notRun?.hasPrefix(Self.runTimeNotRun) == true)
        {
          last.runs += 1
          report.entries[report.entries.count - 1] = last
          continue
        }
        report.entries.append(entry)
      case .declaration, .note:
        continue
      }
    }
  }

  /// Why a set-up statement that binds a run-time value is listed and not run.
  static let runTimeNotRun = "it binds values the app has only when it runs"

  /// `ALTER TABLE "reminders" ADD COLUMN "listID" …`: the table and the column added.
  static func addedColumn(_ statement: Statement) -> (table: String, column: String)? {
    let sql = statement.fragment.sql(inlining: true)
    guard let match = sql.firstMatch(of: /(?i)^\s*ALTER\s+TABLE\s+"?([^"\s]+)"?\s+ADD\s+(?:COLUMN\s+)?"?([^"\s]+)"?/) else { return nil }
    return (String(match.1), String(match.2))
  }

  /// `ALTER TABLE "checkIns" RENAME TO "diaryEntries"`: the table's old and new names.
  static func renamedTable(_ statement: Statement) -> (from: String, to: String)? {
    let sql = statement.fragment.sql(inlining: true)
    guard let match = sql.firstMatch(of: /(?i)^\s*ALTER\s+TABLE\s+[`"\[]?([^`"\]\s]+)[`"\]]?\s+RENAME\s+TO\s+[`"\[]?([^`"\]\s;]+)/) else {
      return nil
    }
    return (String(match.1), String(match.2))
  }

  /// `CREATE TABLE "reminders" (…)`: the table's name.
  static func createdTable(_ statement: Statement) -> String? {
    let sql = statement.fragment.sql(inlining: true)
    guard let match = sql.firstMatch(of: /(?i)^\s*CREATE\s+(?:TEMP\s+|TEMPORARY\s+)?TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?"?([^"\s(]+)"?/) else {
      return nil
    }
    return String(match.1)
  }

  /// What a statement's SQL assumes of a value the app computes (a fallback after `??`).
  static func assumed(_ compiled: CompiledStatement) -> [ScanReport.Finding] {
    compiled.assumptions.map { .init(id: "app-value", message: $0.fullMessage) }
  }

  // MARK: Queries

  static func isSchemaObject(_ statement: Statement) -> Bool {
    switch statement {
    case .createView, .createTrigger: return true
    default: return false
    }
  }

  /// The SQL the app prepares: values as `?` (views and triggers hold literals), on one line
  /// as StructuredQueries renders it outside its tests (or `.pretty`, a clause per line).
  static func sql(of statement: Statement, layout: QueryLayout = .compact) -> String {
    QueryLayout.$current.withValue(layout) { statement.fragment.sql(inlining: isSchemaObject(statement)) }
  }

  /// Each `?`'s value: a literal the code writes, or the Swift name of a run-time value.
  static func bindings(of statement: Statement) -> [String] {
    guard !isSchemaObject(statement) else { return [] }
    return statement.fragment.bindings.map { binding in
      if case .parameter(let name) = binding { return name }
      return binding.inlineSQL
    }
  }

  /// ` (at 12:5)` when a message's place is not the entry's own, ` (at Operations.swift:89:27)`
  /// when it is in another file (the body of a function or property the query calls).
  private func elsewhere(_ place: (path: String, line: Int, column: Int, order: Int), than entry: ScanReport.Entry) -> String {
    if place.path != entry.path { return " (at \(PathText.lastComponent(place.path)):\(place.line):\(place.column))" }
    return place.line != entry.line || place.column != entry.column ? " (at \(place.line):\(place.column))" : ""
  }

  func entry(for scanned: ScannedQuery) -> ScanReport.Entry {
    var entry = newEntry(line: scanned.line, column: scanned.column, kind: "query", source: scanned.source)
    entry.variant = scanned.variant
    entry.executedBy = scanned.executedBy
    switch scanned.outcome {
    case .error(let diagnostic):
      entry.error = diagnostic.fullMessage + elsewhere(located(diagnostic.line, diagnostic.column), than: entry)
    case .skipped(let reason):
      entry.skipped = reason
      if let at = scanned.skippedAt { entry.skipped = reason + elsewhere(located(at.line, at.column), than: entry) }
    case .statement(let compiled):
      entry.sql = Self.sql(of: compiled.statement)
      entry.prettySQL = Self.sql(of: compiled.statement, layout: .pretty)
      entry.bindings = Self.bindings(of: compiled.statement)
      // `$0.id.in(ids)`: StructuredQueries writes one `(?)` per element of `ids` (an insert of
      // `posts` one row per element, `posts[…].id`); the SQL shown is the one for a single
      // element, and the heading says so.
      var lists: [String] = []
      for binding in entry.bindings {
        guard let mark = binding.indices.first(where: { binding[$0...].hasPrefix("[…]") }) else { continue }
        let list = String(binding[..<mark])
        if !lists.contains(list) { lists.append(list) }
      }
      if !lists.isEmpty {
        let each = lists.map { "\($0) has one element" }.joined(separator: ", ")
        entry.variant = entry.variant.map { $0 + ", " + each } ?? each
      }
      if let sql = entry.sql, !sql.isEmpty, !Self.isSchemaObject(compiled.statement), !Self.isDefinition(sql) {
        plan(sql, into: &entry)
      }
    }
    let writes = entry.sql.map(Self.isWrite) ?? false
    for loop in scanned.loops {
      let place = located(loop.line, loop.column)
      entry.findings.append(
        .init(
          id: "query-in-loop",
          message: writes
            ? "runs once for each element of the loop at \(place.line):\(place.column) (one statement per row): write them in one statement (an insert takes many rows, `.where { $0.….in(ids) }` updates or deletes them together)"
              + (loop.inTransaction
                ? "" : ", or at least run the loop inside one `database.write { … }` (one transaction, not one per row)")
            : "runs once for each row of the loop at \(place.line):\(place.column) (N+1 queries): fetch those rows together, with a join or `.where { $0.….in(ids) }`"
        ))
    }
    // A schema statement takes no bound values (SQLite refuses parameters in `DEFAULT`, `CHECK`,
    // a name): splicing is how it is written, so it is no finding there.
    // Where the SQL could not be computed, its literal's text tells (`#sql("CREATE TABLE …\(raw: x)")`).
    let statementText = entry.sql ?? String(entry.source.drop { $0 != "\"" }.drop { $0 == "\"" })
    for splice in scanned.rawSplices where !Self.isDefinition(statementText) {
      let place = located(splice.line, splice.column)
      let splicing = "`\\(\(splice.text))` at \(place.line):\(place.column) splices"
      let message: String
      switch splice.role {
      case .name:
        message =
          "\(splicing) a name into the SQL text (a name cannot be bound): interpolate the table or column itself (`\\(Reminder.self)`, `\\($0.title)`), which StructuredQueries writes quoted, or quote it"
      case .insideString:
        message =
          "\(splicing) a value inside an SQL string literal (a `?` there would be text, not a value): build the whole string in Swift and bind it, `date('now', \\(\"-\\(n) months\"))`"
      case .value:
        message =
          "\(splicing) a value into the SQL text: bind it with `\\(value)` instead (a value with a quote breaks the SQL, or changes it)"
      }
      entry.findings.append(.init(id: "raw-splice", message: message))
    }
    for warning in scanned.warnings {
      entry.findings.append(.init(id: "deprecated", message: warning.fullMessage))
    }
    if case .statement(let compiled) = scanned.outcome { entry.findings += Self.assumed(compiled) }
    silence(&entry)
    return entry
  }

  /// Whether SQL changes rows (`INSERT`, `UPDATE`, `DELETE`, `REPLACE`, or a `WITH` leading to one).
  static func isWrite(_ sql: String) -> Bool {
    let word = sql.drop { $0.isWhitespace }.prefix { $0.isLetter }.uppercased()
    if ["INSERT", "UPDATE", "DELETE", "REPLACE"].contains(word) { return true }
    guard word == "WITH" else { return false }
    // The statement after the common table expressions: the first of these words at depth 0.
    var depth = 0
    var word2 = ""
    for character in sql {
      if character == "(" { depth += 1 } else if character == ")" { depth -= 1 }
      if depth == 0, character.isLetter {
        word2.append(character)
      } else {
        if ["INSERT", "UPDATE", "DELETE", "REPLACE"].contains(word2.uppercased()) { return true }
        if word2.uppercased() == "SELECT" { return false }
        word2 = ""
      }
    }
    return false
  }

  /// Whether SQL creates, drops or alters a table, an index, a view or a trigger.
  static func changesSchema(_ sql: String) -> Bool {
    let word = sql.drop { $0.isWhitespace }.prefix { $0.isLetter }.uppercased()
    return ["CREATE", "DROP", "ALTER"].contains(word)
  }

  static func isDefinition(_ sql: String) -> Bool {
    let word = sql.drop { $0.isWhitespace }.prefix { $0.isLetter }.uppercased()
    return [
      "CREATE", "DROP", "ALTER", "PRAGMA", "BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE", "ATTACH", "DETACH", "VACUUM", "ANALYZE",
      "REINDEX",
    ].contains(word)
  }

  /// Prepares the statement against the app's schema and reads SQLite's plan for it.
  private func plan(_ sql: String, into entry: inout ScanReport.Entry) {
    let database = session.database
    do {
      _ = try database.prepare(sql)
    } catch let error as SQLiteError {
      if !session.sqlOnly, error.message.hasPrefix("no such table: ") {
        let table = error.message.dropFirst("no such table: ".count)
        if let migration = notBuilt[table.lowercased()] {
          entry.skipped =
            "not run: there is no table \"\(table)\": \(migration.migration) (\(migration.path):\(migration.line)) creates it, and Quarry could not follow that migration"
          return
        }
        switch missingSchema {
        case .none: break
        case .opensDatabase:
          entry.skipped =
            "not run: the app's set-up creates no tables (it opens a database it does not build), so there is no table \"\(table)\" to run it against; scan with --db FILE, a copy of that database, to run it"
          return
        case .shipped(let path, _):
          entry.skipped =
            "not run: there is no table \"\(table)\" in the database the app ships (\(path)) and its set-up creates none, so it is in another database the app opens; scan with --db FILE, a copy of that database, to run it"
          return
        case .scannedPart:
          entry.error =
            "SQLite: \(error.message) (the scanned files create no tables and open no database: scan the folder that holds the app's migrations too, or give --db FILE)"
          return
        }
      }
      entry.error = "SQLite: " + error.message
      return
    } catch {
      entry.error = "SQLite: \(error)"
      return
    }
    guard let rows = try? database.rows("EXPLAIN QUERY PLAN " + sql) else { return }
    var depth: [Int64: Int] = [:]
    var details: [String] = []
    for row in rows where row.count >= 4 {
      guard case .integer(let id) = row[0], case .integer(let parent) = row[1], case .text(let detail) = row[3] else { continue }
      let level = (depth[parent] ?? -1) + 1
      depth[id] = level
      entry.plan.append(String(repeating: "  ", count: level) + detail)
      details.append(detail)
    }
    // An index is proposed only when the plan would take it: a full scan it would not change is
    // no finding (nor one it only moves to another table: a join with no filter reads one of its
    // tables whole); an automatic index it would not replace (another collation or affinity)
    // keeps its finding, without the index.
    let scans = details.filter(Self.isFullScan).count
    for var finding in PlanFindings(sql: sql, details: details, indexes: indexes).findings {
      if let fix = finding.fix, fix.hasPrefix("CREATE INDEX ") {
        let replanned = plan(sql, with: fix)
        if finding.id == "full-scan", !(replanned.usesIndex && replanned.fullScans < scans) { continue }
        // An index for the order is proposed only when the plan with it sorts no more and reads
        // no more whole tables (one that turns a join around to read in order can be worse).
        if !replanned.usesIndex || (finding.id == "temp-b-tree" && (replanned.sorts || replanned.fullScans > scans)) {
          finding.fix = nil
        }
      }
      entry.findings.append(finding)
    }
  }

  /// `SCAN t`, `SCAN t USING INDEX i`: a plan step that reads a whole table or index.
  static func isFullScan(_ detail: String) -> Bool {
    detail.hasPrefix("SCAN ") && !detail.hasPrefix("SCAN CONSTANT ROW")
  }

  /// SQLite's plan for `sql` with the index `create` makes: whether it uses that index, and how
  /// many whole tables it still reads. The index is made and the query planned again inside a
  /// savepoint rolled back at once, so a finding proposes only an index the plan takes (the outer
  /// table of a LEFT JOIN is read whole with or without one).
  private func plan(_ sql: String, with create: String) -> (usesIndex: Bool, fullScans: Int, sorts: Bool) {
    let database = session.database
    guard let name = create.firstMatch(of: /^CREATE INDEX "((?:[^"]|"")+)"/).map({ String($0.1).replacing("\"\"", with: "\"") }),
      (try? database.execute("SAVEPOINT quarry_index_check")) != nil
    else { return (false, 0, true) }
    defer {
      try? database.execute("ROLLBACK TO quarry_index_check")
      try? database.execute("RELEASE quarry_index_check")
    }
    // An index that cannot be made (the plan's name is no table of the schema) is not proposed.
    guard (try? database.execute(create)) != nil, let rows = try? database.rows("EXPLAIN QUERY PLAN " + sql) else {
      return (false, 0, true)
    }
    let details = rows.compactMap { row -> String? in
      guard row.count >= 4, case .text(let detail) = row[3] else { return nil }
      return detail
    }
    let uses = details.contains { $0.contains("INDEX \(name)") || $0.contains("INDEX \"\(name)\"") }
    return (uses, details.filter(Self.isFullScan).count, details.contains { $0.hasPrefix("USE TEMP B-TREE FOR ORDER BY") })
  }

  // MARK: Tables

  /// A foreign key with no index on its column: deleting (or updating the key of) a parent row
  /// scans the child table for children, once per parent row.
  func foreignKeyFindings() -> [ScanReport.Entry] {
    let database = session.database
    guard
      let tables = try? database.rows(
        "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND sql NOT LIKE 'CREATE VIRTUAL%' ORDER BY name")
    else { return [] }
    var out: [ScanReport.Entry] = []
    for row in tables {
      guard case .text(let table)? = row.first else { continue }
      let indexed = indexes.leading(table)
      guard
        let keys = try? database.rows(
          "SELECT \"from\", \"table\" FROM pragma_foreign_key_list(?) ORDER BY \"id\" DESC, \"seq\"", bindings: [.text(table)])
      else { continue }
      var reported: Set<String> = []
      for key in keys {
        guard case .text(let column) = key[0], case .text(let parent) = key[1], !indexed.contains(column.lowercased()),
          reported.insert(column.lowercased()).inserted
        else { continue }
        // At the statement that declares the key: the column's `ALTER TABLE … ADD COLUMN`, else
        // the table's `CREATE TABLE`, else the line that opens the database the app ships.
        var shippedAt: (path: String, line: Int, column: Int)?
        if case .shipped(_, let line) = missingSchema {
          let place = located(line, 1)
          shippedAt = (place.path, place.line, place.column)
        }
        let place =
          columnAddedAt[(table + "." + column).lowercased()] ?? tableCreatedAt[table.lowercased()] ?? shippedAt
          ?? (path: sources.files.first?.path ?? "", line: 1, column: 1)
        var entry = ScanReport.Entry(
          path: place.path, fileOrder: fileOrder[place.path] ?? 0, line: place.line, column: place.column, kind: "schema",
          source: "table \(quoteIdentifier(table))")
        entry.findings.append(
          .init(
            id: "unindexed-foreign-key",
            message:
              "\(quoteIdentifier(table)).\(quoteIdentifier(column)) references \(quoteIdentifier(parent)) and has no index: each delete of a \(quoteIdentifier(parent)) row scans \(quoteIdentifier(table)) for its children",
            fix: "CREATE INDEX \(quoteIdentifier("idx_\(table)_\(column)")) ON \(quoteIdentifier(table))(\(quoteIdentifier(column)))"))
        silence(&entry)
        if !entry.findings.isEmpty || !entry.silenced.isEmpty { out.append(entry) }
      }
    }
    return out
  }

  // MARK: Silencing

  /// `// quarry:ignore full-scan` on the entry's line or the line above silences that finding;
  /// `// quarry:ignore` alone, all of them.
  private func silence(_ entry: inout ScanReport.Entry) {
    guard !entry.findings.isEmpty, let lines = fileLines[entry.path] else { return }
    var ignored: Set<String> = []
    var all = false
    for number in [entry.line - 1, entry.line] where number >= 1 && number <= lines.count {
      let text = lines[number - 1]
      guard let range = text.firstRange(of: "quarry:ignore") else { continue }
      let rest = text[range.upperBound...].split(whereSeparator: { $0 == "," || $0 == " " }).map(String.init).filter { !$0.isEmpty }
      if rest.isEmpty { all = true } else { ignored.formUnion(rest) }
    }
    guard all || !ignored.isEmpty else { return }
    let kept = entry.findings.filter { !all && !ignored.contains($0.id) }
    entry.silenced = entry.findings.filter { all || ignored.contains($0.id) }.map(\.id)
    entry.findings = kept
  }
}
