import ArgumentParser
import FoundationEssentials
import Glibc
import Workbench

/// `quarry scan PATH… [--db FILE] [--format text|json|markdown|xcode|github|sarif]
/// [--fail-on error|finding] [--baseline FILE] [--write-baseline FILE]`
struct ScanCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "scan",
    abstract: "List every query of an app's Swift sources, with its SQL, its query plan and findings.",
    discussion: """
      Reads the .swift files under each PATH together, as the compiler reads a module: models, \
      extensions and migrations may live in any file. Where an Xcode project sits in or beside \
      the folders, each of its targets is read as its own module (a unit-test bundle with the app \
      it tests), and a file no target compiles is left out and named. The app's migrations run in order on an \
      in-memory database (or --db opens a real one, read-only, and nothing runs), and every query \
      is prepared against that schema and explained (EXPLAIN QUERY PLAN).

      Findings: full-scan, automatic-index, temp-b-tree, correlated-subquery, \
      unindexed-foreign-key, query-in-loop (N+1), raw-splice, deprecated. Silence one with a \
      `// quarry:ignore ID` comment on the query's line or the line above it.

      Exit status: 0, or 1 when --fail-on is met (error: a query that does not compile or \
      prepare, or a file that cannot be read; finding: that, or any finding).

      For CI and Xcode: --format xcode prints FILE:LINE:COL: warning: … [rule] lines (a Run \
      Script build phase shows them inline, as SwiftLint's do); --format github prints GitHub \
      Actions annotations; --format sarif writes SARIF 2.1.0 for code scanning. --write-baseline \
      FILE records today's findings; --baseline FILE then leaves those out, so --fail-on finding \
      fails only on new ones.
      """)

  @Argument(help: "Swift files or folders of them.")
  var paths: [String]

  @Option(name: .customLong("db"), help: "Use this database's schema (opened read-only; the app's migrations do not run).")
  var database: String?

  @Option(
    help:
      "Output format: text, json (one object per line), markdown, xcode (FILE:LINE:COL: warning: lines), github (Actions annotations), sarif (SARIF 2.1.0)."
  )
  var format: ScanReport.Format = .text

  @Option(name: .customLong("fail-on"), help: "Exit 1 on: error, finding.")
  var failOn: FailOn?

  enum FailOn: String, ExpressibleByArgument, CaseIterable { case error, finding }

  @Option(name: .customLong("baseline"), help: "Leave out the findings this file lists (written by --write-baseline).")
  var baseline: String?

  @Option(name: .customLong("write-baseline"), help: "Write the findings to this file, one JSON object per line, for --baseline.")
  var writeBaseline: String?

  mutating func run() throws {
    var scan = AppScan(paths: paths, databasePath: database)
    if isatty(2) == 1 {
      scan.progress = { line in StandardStreams.error("\u{1B}[2K\rquarry scan: \(line)") }
    }
    var report = try scan.run()
    if isatty(2) == 1 { StandardStreams.error("\u{1B}[2K\r") }
    if let writeBaseline {
      guard FileManager.default.createFile(atPath: writeBaseline, contents: Data(report.baselineText().utf8)) else {
        throw WorkbenchError("cannot write the baseline to '\(writeBaseline)': \(fileProblem(writeBaseline, writing: true))")
      }
    }
    if let baseline {
      guard let bytes = readWholeFile(baseline) else {
        throw WorkbenchError("cannot read the baseline '\(baseline)': \(fileProblem(baseline))")
      }
      do {
        report.subtract(try ScanBaseline(text: String(decoding: bytes, as: UTF8.self)))
      } catch let error as WorkbenchError {
        throw WorkbenchError("\(baseline): \(error.message)")
      }
    }
    let color = format == .text && isatty(1) == 1 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
    StandardStreams.output(report.rendered(as: format, color: color))
    switch failOn {
    case .error? where report.errors > 0: throw ExitCode(1)
    case .finding? where report.errors > 0 || report.findingTotal > 0: throw ExitCode(1)
    default: break
    }
  }
}

extension ScanReport.Format: ExpressibleByArgument {}
