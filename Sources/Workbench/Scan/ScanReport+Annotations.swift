import FoundationEssentials
import QueryBuilder

/// The scan report for the tools a project already runs: compiler-style lines that Xcode shows
/// inline (as a build phase, like SwiftLint), GitHub Actions workflow commands, and SARIF 2.1.0
/// for code-scanning services.
///
/// ```
/// Sources/App/Lists.swift:12:5: warning: SQLite reads every row of "reminders" … [full-scan]
/// ::warning file=Sources/App/Lists.swift,line=12,col=5,title=quarry full-scan::SQLite reads …
/// ```
extension ScanReport {
  /// Each error, unreadable file and finding, one located message apiece: what is wrong, where.
  public struct Annotation: Equatable, Sendable {
    public var path: String
    public var line: Int
    public var column: Int
    public var isError: Bool
    /// The finding's id (`full-scan`), or `error` for a query that does not compile or prepare.
    public var rule: String
    public var message: String
    public var fix: String?
  }

  /// Variants of one query (`when showAll is true`, `… false`) that share a finding are one
  /// annotation: the place and the message are the same.
  public var annotations: [Annotation] {
    var out = problems.map {
      Annotation(path: $0.path, line: $0.line, column: $0.column, isError: true, rule: "error", message: $0.message)
    }
    for entry in entries {
      if let error = entry.error, !entry.errorInBaseline {
        out.append(Annotation(path: entry.path, line: entry.line, column: entry.column, isError: true, rule: "error", message: error))
      }
      for finding in entry.findings {
        out.append(
          Annotation(
            path: entry.path, line: entry.line, column: entry.column, isError: false, rule: finding.id,
            message: finding.message, fix: finding.fix))
      }
    }
    var seen: Set<String> = []
    return out.filter { seen.insert("\($0.path):\($0.line):\($0.column) \($0.rule) \($0.message)").inserted }
  }

  /// `FILE:LINE:COL: warning: MESSAGE [rule]`, the form compilers and SwiftLint print: Xcode
  /// shows each at its line when `quarry scan` runs in a build phase.
  func compilerLines() -> String {
    annotations.map { note in
      let text = (note.message + (note.fix.map { "; fix: \($0)" } ?? "")).replacing("\n", with: " ")
      return "\(note.path):\(note.line):\(note.column): \(note.isError ? "error" : "warning"): \(text) [\(note.rule)]\n"
    }.joined() + summary + "\n"
  }

  /// GitHub Actions workflow commands (`::warning file=…,line=…::message`): each is shown on the
  /// pull request's diff at its line.
  func githubAnnotations() -> String {
    func escapedData(_ text: String) -> String {
      text.replacing("%", with: "%25").replacing("\r", with: "%0D").replacing("\n", with: "%0A")
    }
    func escapedProperty(_ text: String) -> String {
      escapedData(text).replacing(":", with: "%3A").replacing(",", with: "%2C")
    }
    var out = ""
    for note in annotations {
      let title = note.isError ? "quarry error" : "quarry \(note.rule)"
      out +=
        "::\(note.isError ? "error" : "warning") file=\(escapedProperty(note.path)),line=\(note.line),col=\(note.column),title=\(escapedProperty(title))::"
      out += escapedData(note.message + (note.fix.map { "\nfix: \($0)" } ?? "")) + "\n"
    }
    return out + summary + "\n"
  }

  /// SARIF 2.1.0: one run of the `quarry` tool, a rule per finding kind, a result per annotation
  /// (level `error` or `warning`), each located by a relative URI, line and column.
  func sarif() -> String {
    func string(_ text: String) -> String { JSONFormatter.string(text) }
    let notes = annotations
    var rules: [String] = []
    for note in notes where !rules.contains(note.rule) { rules.append(note.rule) }
    let ruleObjects = rules.map { rule in
      "{\"id\":\(string(rule)),\"shortDescription\":{\"text\":\(string(Self.ruleDescriptions[rule] ?? rule))}}"
    }
    let results = notes.map { note -> String in
      let index = rules.firstIndex(of: note.rule) ?? 0
      let location =
        "{\"physicalLocation\":{\"artifactLocation\":{\"uri\":\(string(Self.uriReference(note.path)))},"
        + "\"region\":{\"startLine\":\(max(1, note.line)),\"startColumn\":\(max(1, note.column))}}}"
      let properties = note.fix.map { ",\"properties\":{\"fix\":\(string($0))}" } ?? ""
      return "{\"ruleId\":\(string(note.rule)),\"ruleIndex\":\(index),\"level\":\"\(note.isError ? "error" : "warning")\","
        + "\"message\":{\"text\":\(string(note.message))},\"locations\":[\(location)]\(properties)}"
    }
    return "{\"$schema\":\"https://json.schemastore.org/sarif-2.1.0.json\",\"version\":\"2.1.0\",\"runs\":[{"
      + "\"tool\":{\"driver\":{\"name\":\"quarry\",\"rules\":["
      + ruleObjects.joined(separator: ",") + "]}},\"results\":[" + results.joined(separator: ",") + "]}]}\n"
  }

  /// What each rule is about, for SARIF's rule list.
  static let ruleDescriptions: [String: String] = [
    "error": "A query that does not compile or prepare, or a file that cannot be read",
    "full-scan": "SQLite reads every row of a table to find a few",
    "automatic-index": "SQLite builds a temporary index each time the query runs",
    "temp-b-tree": "SQLite sorts or groups the rows in a temporary B-tree",
    "correlated-subquery": "A subquery runs once for each row of the outer query",
    "unindexed-foreign-key": "A foreign key column without an index",
    "query-in-loop": "A statement runs once per row of a loop (N+1)",
    "raw-splice": "A value spliced into SQL text with \\(raw:)",
    "deprecated": "A spelling StructuredQueries deprecates",
    "app-value": "SQL built with a fallback where the app has a value Quarry does not compute",
  ]

  /// A path as a relative URI reference: `/` kept, everything a URI does not allow as it is
  /// (a space, `%`, `#`, `?`, non-ASCII) percent-encoded.
  static func uriReference(_ path: String) -> String {
    var out = ""
    for byte in path.utf8 {
      let scalar = Unicode.Scalar(byte)
      if byte < 0x80, scalar.properties.isAlphabetic || ("0"..."9").contains(Character(scalar)) || "/-._~".unicodeScalars.contains(scalar) {
        out.unicodeScalars.append(scalar)
      } else {
        out += "%" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 0x0F, radix: 16, uppercase: true)
      }
    }
    return out
  }
}
