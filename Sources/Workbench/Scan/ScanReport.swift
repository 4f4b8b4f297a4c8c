import FoundationEssentials
import QuarryDSL

/// What `quarry scan` found: one entry per query (and per set-up statement), the files it could
/// not read, and the counts of the summary line.
public struct ScanReport {
  /// Something the plan or the code says about a query, with an id a project can silence with
  /// a `// quarry:ignore ID` comment on the query's line or the line above it.
  public struct Finding: Equatable {
    public var id: String
    public var message: String
    /// The change that answers it (`CREATE INDEX …`), when there is one.
    public var fix: String?
  }

  public struct Entry {
    public var path: String
    /// The file's place in the scan (entries sort by file, then line).
    public var fileOrder: Int
    public var line: Int
    public var column: Int
    /// `query`, `migration 'Create tables'`, `set-up`.
    public var kind: String
    public var source: String
    public var executedBy: String?
    /// The branches of run-time conditions this variant of the query takes (`!showAll is true`).
    public var variant: String?
    /// The SQL the app prepares (on one line, as StructuredQueries renders it outside tests).
    public var sql: String?
    /// The same, a clause per line (as StructuredQueries' tests and Quarry show it).
    public var prettySQL: String?
    public var bindings: [String] = []
    public var plan: [String] = []
    public var findings: [Finding] = []
    public var silenced: [String] = []
    public var error: String?
    /// The error is one a baseline lists (`--baseline`): shown, not counted.
    public var errorInBaseline = false
    public var skipped: String?
    /// Why a set-up statement whose SQL is shown (and prepared against the schema) was not run
    /// on the scan's database: it binds a value the app has only when it runs (`Date.now`), or
    /// GRDB would not run it (its migration already applied, or rolled back).
    public var notRun: String?
    /// How many times the set-up ran this statement with the same SQL and outcome (a loop over
    /// the app's values, `for tag in Tag.Kind.allCases { … }`): listed once.
    public var runs = 1

    /// ` · execute · run 4 times · when showAll is true`: how the entry runs, for its heading.
    public var how: String {
      (executedBy.map { " · \($0)" } ?? "") + (runs > 1 ? " · run \(runs) times" : "") + (variant.map { " · when \($0)" } ?? "")
    }
  }

  public var entries: [Entry] = []
  public var problems: [ScanSources.Problem] = []
  public var files = 0
  /// The database file the app ships and opens, whose schema the scan used (``BundledDatabase``).
  public var bundledDatabase: String?
  /// The swift-structured-queries version the app pins (its `Package.resolved`), nil: none.
  public var pinnedLibrary: String?
  /// What that version renders otherwise than the library Quarry renders, where Quarry knows
  /// it and does not render that version's text itself (its operators before 0.22).
  public var libraryNote: String?
  /// Swift files in the scanned folders that no target of their Xcode project compiles.
  public var leftOut: [String] = []
  public var lines = 0
  public var seconds = 0.0

  public var queries: [Entry] { entries.filter { $0.kind != "schema" } }
  public var rendered: Int { queries.filter { $0.sql != nil && $0.error == nil && $0.skipped == nil }.count }
  public var errors: Int { queries.filter { $0.error != nil && !$0.errorInBaseline }.count + problems.count }
  public var skipped: Int { queries.filter { $0.skipped != nil }.count }
  public var findingCounts: [(id: String, count: Int)] {
    var counts: [String: Int] = [:]
    for entry in entries { for finding in entry.findings { counts[finding.id, default: 0] += 1 } }
    return counts.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map { ($0.key, $0.value) }
  }
  public var findingTotal: Int { entries.reduce(0) { $0 + $1.findings.count } }

  /// `scan: 14 files, 2,732 lines · 61 queries, 58 rendered, 1 error, 2 skipped · findings: 3 full-scan, 1 query-in-loop`
  public var summary: String {
    var parts = ["scan: \(files) file\(files == 1 ? "" : "s"), \(ReplFormatter.grouped(lines)) lines"]
    if !leftOut.isEmpty { parts[0] += " (\(leftOut.count) in no target, left out)" }
    parts.append(
      "\(queries.count) quer\(queries.count == 1 ? "y" : "ies"), \(rendered) rendered, \(errors) error\(errors == 1 ? "" : "s"), \(skipped) skipped"
    )
    let counts = findingCounts
    parts.append(counts.isEmpty ? "no findings" : "findings: " + counts.map { "\($0.count) \($0.id)" }.joined(separator: ", "))
    return parts.joined(separator: " · ")
  }
}
