import FoundationEssentials
import QueryBuilder

/// The findings (and query errors) a project has accepted, so CI fails only on new ones (`--write-baseline FILE`
/// records them; `--baseline FILE` leaves them out of the report and of `--fail-on`). A finding is
/// known by its file, its rule and the query's own text (white space aside), not its line: code
/// moving up or down keeps it known.
///
/// ```
/// {"file":"Sources/App/Lists.swift","rule":"full-scan","source":"Reminder.where { $0.isFlagged }"}
/// ```
public struct ScanBaseline: Sendable {
  struct Key: Hashable, Sendable, Decodable {
    var file: String
    var rule: String
    var source: String
  }

  private(set) var keys: Set<Key> = []

  /// Reads a baseline file's lines; a line that is not one of its objects is an error naming it.
  public init(text: String) throws {
    for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
    where !line.allSatisfy(\.isWhitespace) {
      guard let key = try? JSONDecoder().decode(Key.self, from: Data(line.utf8)) else {
        throw WorkbenchError("baseline line \(number + 1) is not a {\"file\", \"rule\", \"source\"} object: \(line.prefix(80))")
      }
      keys.insert(Key(file: key.file, rule: key.rule, source: Self.normalized(key.source)))
    }
  }

  init(keys: Set<Key>) { self.keys = keys }

  static func normalized(_ source: String) -> String {
    source.split(whereSeparator: \.isWhitespace).joined(separator: " ")
  }

  static func key(_ entry: ScanReport.Entry, _ rule: String) -> Key {
    Key(file: entry.path, rule: rule, source: normalized(entry.source))
  }
}

extension ScanReport {
  /// The report's findings as a baseline file: one object per line, sorted, each once.
  public func baselineText() -> String {
    var keys: Set<ScanBaseline.Key> = []
    for entry in entries {
      if entry.error != nil { keys.insert(ScanBaseline.key(entry, "error")) }
      for finding in entry.findings { keys.insert(ScanBaseline.key(entry, finding.id)) }
    }
    return keys.sorted { ($0.file, $0.rule, $0.source) < ($1.file, $1.rule, $1.source) }.map { key in
      "{\"file\":\(JSONFormatter.string(key.file)),\"rule\":\(JSONFormatter.string(key.rule)),\"source\":\(JSONFormatter.string(key.source))}"
    }.joined(separator: "\n") + (keys.isEmpty ? "" : "\n")
  }

  /// Leaves out the findings and query errors a baseline knows (each listed as silenced,
  /// `full-scan (baseline)`); the number left out.
  @discardableResult
  public mutating func subtract(_ baseline: ScanBaseline) -> Int {
    var removed = 0
    for index in entries.indices {
      let entry = entries[index]
      if entry.error != nil, baseline.keys.contains(ScanBaseline.key(entry, "error")) {
        entries[index].errorInBaseline = true
        entries[index].silenced.append("error (baseline)")
        removed += 1
      }
      let known = entry.findings.filter { baseline.keys.contains(ScanBaseline.key(entry, $0.id)) }
      guard !known.isEmpty else { continue }
      removed += known.count
      entries[index].findings.removeAll { baseline.keys.contains(ScanBaseline.key(entry, $0.id)) }
      entries[index].silenced += known.map { $0.id + " (baseline)" }
    }
    return removed
  }
}
