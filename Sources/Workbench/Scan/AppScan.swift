import FoundationEssentials
import QuarryDSL
import QuarryEngine
import QueryBuilder
import SwiftSyntax

/// `quarry scan`: every query of an app, from its own sources, with the SQL StructuredQueries
/// renders for it, SQLite's plan for it, and what the plan and the code say about it.
///
/// ```swift
/// let report = try AppScan(paths: ["Sources/App"]).run()
/// report.entries.first?.sql  // SELECT … FROM "remindersLists" ORDER BY "remindersLists"."title"
/// ```
/// The schema is the app's: its migrations run in order on an in-memory database (or `--db`
/// names a real one, opened read-only), and every query is prepared against it.
public struct AppScan {
  public var paths: [String]
  public var databasePath: String?
  /// Told how far the scan is (for a large tree): a line for standard error.
  public var progress: ((String) -> Void)?

  public init(paths: [String], databasePath: String? = nil) {
    self.paths = paths
    self.databasePath = databasePath
  }

  /// The `.swift` files under the paths, in a stable order, as the compiler reads them: one
  /// module per target of the Xcode project there (``XcodeProject``), and the files no target
  /// compiles left out (the compiler never reads them). A file named on its own is always read.
  public func modules() throws -> (modules: [ScanModule], leftOut: [String]) {
    var named: [String] = []
    var found: [String] = []
    for path in paths {
      guard let kind = FileKind(path: path) else {
        throw WorkbenchError("\(path): no such file or folder")
      }
      guard kind == .folder else {
        if !named.contains(path) { named.append(path) }
        continue
      }
      found += FileKind.files(under: path, endingWith: ".swift").sorted().map { PathText.join(path, $0) }
    }
    let namedSet = Set(named)
    return XcodeProject.modules(of: found.filter { !namedSet.contains($0) }, named: named, scanning: paths)
  }

  public func run() throws -> ScanReport {
    let started = Date()
    let (modules, leftOut) = try modules()
    var report = ScanReport()
    report.leftOut = leftOut
    var order: [String: Int] = [:]
    var counted: Set<String> = []
    // Read once for all modules: it walks the scanned folders for `Package.resolved`.
    let pinnedLibrary = PinnedLibrary.version(in: paths)
    report.pinnedLibrary = pinnedLibrary
    if let pinned = pinnedLibrary, LibraryVersion(pinned) < .operandsParenthesized {
      // 0.22.0 put each operand of a binary operator in its own parentheses (`BinaryOperator`).
      report.libraryNote =
        "this app pins swift-structured-queries \(pinned): before 0.22 it wrote a binary operator as (\"a\" = ?) where Quarry's SQL, as 0.22 and later write it, has ((\"a\") = (?)) — the same statements in other text; other spellings of that version may differ too"
    }
    for module in modules {
      if modules.count > 1, let name = module.name { progress?("target \(name):") }
      let part = try scan(module, pinnedLibrary: pinnedLibrary)
      for path in module.files where order[path] == nil { order[path] = order.count }
      for (path, lines) in part.lines where counted.insert(path).inserted {
        report.files += 1
        report.lines += lines
      }
      report.problems += part.report.problems.filter { module.reported.contains($0.path) }
      report.entries += part.report.entries.filter { module.reported.contains($0.path) }
      if report.bundledDatabase == nil { report.bundledDatabase = part.report.bundledDatabase }
    }
    // In file order, then by place; entries at one place keep the order they were found in.
    report.entries = report.entries.enumerated().sorted {
      (order[$0.element.path] ?? Int.max, $0.element.line, $0.element.column, $0.offset) < (
        order[$1.element.path] ?? Int.max, $1.element.line, $1.element.column, $1.offset
      )
    }.map(\.element)
    Self.listFindingsOnce(&report.entries)
    report.seconds = Date().timeIntervalSince(started)
    return report
  }

  /// A finding listed again at the same place (each variant of a query, the same loop) is one
  /// finding: it stays on the first entry there that has it.
  static func listFindingsOnce(_ entries: inout [ScanReport.Entry]) {
    var seen: Set<String> = []
    for index in entries.indices {
      let entry = entries[index]
      let place = "\(entry.path):\(entry.line):\(entry.column)"
      entries[index].findings = entry.findings.filter { finding in
        seen.insert(place + "\u{0}" + finding.id + "\u{0}" + finding.message + "\u{0}" + (finding.fix ?? "")).inserted
      }
    }
  }

  /// Scans one module: its files read together, its set-up run on its own database.
  private func scan(_ module: ScanModule, pinnedLibrary: String?) throws -> (report: ScanReport, lines: [(String, Int)]) {
    let files = module.files
    progress?("scanning \(files.count) Swift file\(files.count == 1 ? "" : "s")…")
    var inputs: [(path: String, bytes: [UInt8])] = []
    var report = ScanReport()
    for file in files {
      guard let data = FileManager.default.contents(atPath: file) else {
        report.problems.append(.init(path: file, line: 1, column: 1, message: "cannot read this file"))
        continue
      }
      inputs.append((file, [UInt8](data)))
    }
    let sources = ScanSources(files: inputs)
    report.problems += sources.problems

    let database: Database
    if let databasePath {
      database = try Database(path: databasePath, mode: .readOnly, create: false)
    } else {
      database = try Database(path: ":memory:")
    }
    // The app's set-up runs here to learn its schema: it reaches no other file.
    database.confine(Confinement(reason: "a scan runs the app's set-up on an in-memory database and touches no file"))
    let session = try Session(database: database)
    session.sqlOnly = databasePath != nil
    let compiler = session.compiler
    // Its `==` and `!=` on columns, `find` and deprecations are that version's.
    compiler.pinnedLibrary = pinnedLibrary.map(LibraryVersion.init)
    if pinnedLibrary == nil {
      compiler.unpinnedLibraryNote =
        "no Package.resolved beside the app pins swift-structured-queries, so Quarry takes the newest; before 0.31 '==' on columns was the library's operator: commit the app's Package.resolved to have it rendered as its version does"
    }
    var scanner = EntryBuilder(sources: sources, session: session)

    // The app's set-up, as at launch: its migrations, in order, each in a transaction.
    let setUp = compiler.scanSetUp(sources)
    session.installDatabaseFunctions()
    var setUpLocations: [(line: Int, column: Int)] = []
    scanner.runSetUp(setUp, into: &report, locations: &setUpLocations)
    try? session.refreshSchema()
    let tablesBuilt = (try? database.rows("SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")) ?? []
    if databasePath == nil, tablesBuilt.first?.first == .integer(0), let bundled = BundledDatabase.find(in: sources.text, under: paths),
      let file = try? Database(path: bundled.path, mode: .readOnly, create: false), (try? database.restore(from: file)) != nil
    {
      // The app opens a database it ships (`Bundle.main.path(forResource:ofType:)`): its schema.
      report.bundledDatabase = bundled.path
      scanner.missingSchema = .shipped(bundled.path, line: bundled.line)
      try? session.refreshSchema()
    } else if databasePath == nil, tablesBuilt.first?.first == .integer(0) {
      let opens = ["DatabaseQueue(", "DatabasePool(", "DatabaseQueue.init(", "DatabasePool.init("].contains { sources.text.contains($0) }
      scanner.missingSchema = opens ? .opensDatabase : .scannedPart
    }
    progress?("set-up ran: \(setUpLocations.count) statement\(setUpLocations.count == 1 ? "" : "s")")

    let sites = compiler.querySites()
    // A body that changes the schema as it runs (a test creating its own tables, then inserting
    // into them): its statements see the change, and the next body does not.
    var changingBody: AbsolutePosition?
    func leaveChangingBody() {
      guard changingBody != nil else { return }
      try? database.execute("ROLLBACK TO quarry_scan_body")
      try? database.execute("RELEASE quarry_scan_body")
      changingBody = nil
    }
    for (index, site) in sites.enumerated() {
      if index > 0, index % 200 == 0 { progress?("\(index) of \(sites.count) queries…") }
      if let body = changingBody, site.enclosingBody != body { leaveChangingBody() }
      let span = compiler.span(of: site)
      // A file another module reports (the app's, seen by its test bundle) is not compiled again.
      if !module.reported.contains(sources.locate(line: span.start.line).path) { continue }
      let ranAtSetUp = setUpLocations.contains { location in
        (location.line, location.column) >= (span.start.line, span.start.column)
          && (location.line, location.column) <= (span.end.line, span.end.column)
      }
      if ranAtSetUp { continue }
      for scanned in compiler.compile(site) {
        let entry = scanner.entry(for: scanned)
        report.entries.append(entry)
        if !session.sqlOnly, let body = site.enclosingBody, let sql = entry.sql, entry.error == nil, entry.bindings.isEmpty,
          EntryBuilder.changesSchema(sql)
        {
          if changingBody == nil, (try? database.execute("SAVEPOINT quarry_scan_body")) != nil { changingBody = body }
          if changingBody == body { try? database.execute(sql) }
        }
      }
    }
    leaveChangingBody()
    report.entries += scanner.foreignKeyFindings()
    return (report, sources.files.map { ($0.path, $0.lines) })
  }
}
