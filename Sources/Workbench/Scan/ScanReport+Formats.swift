import FoundationEssentials
import QueryBuilder

/// The scan report as people read it (grouped by file), as JSON lines for tools, and as
/// Markdown for a pull request.
extension ScanReport {
  public enum Format: String, CaseIterable, Sendable {
    case text, json, markdown
    /// `FILE:LINE:COL: warning: … [rule]` lines (Xcode build phases, editors).
    case xcode
    /// GitHub Actions workflow commands (annotations on a pull request).
    case github
    /// SARIF 2.1.0 (code-scanning services).
    case sarif
  }

  public func rendered(as format: Format, color: Bool = false) -> String {
    switch format {
    case .text: return text(color: color)
    case .json: return json()
    case .markdown: return markdown()
    case .xcode: return compilerLines()
    case .github: return githubAnnotations()
    case .sarif: return sarif()
    }
  }

  // MARK: Text

  func text(color: Bool) -> String {
    var out = ""
    func paint(_ code: String, _ text: String) -> String { color ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }
    for problem in problems {
      out += paint("1;31", "\(problem.path):\(problem.line):\(problem.column): error: ") + problem.message + "\n\n"
    }
    if let bundledDatabase {
      out += paint("2", "schema from the database the app ships and opens: \(bundledDatabase) (read, never written)") + "\n\n"
    }
    if let libraryNote { out += paint("2", libraryNote) + "\n\n" }
    if !leftOut.isEmpty {
      out += paint("2", "left out, as no target of the Xcode project compiles them: " + leftOut.joined(separator: ", ")) + "\n\n"
    }
    var currentPath: String?
    for entry in entries {
      if entry.path != currentPath {
        currentPath = entry.path
        out += paint("1", "── \(entry.path)") + "\n"
      }
      out += paint("1", "\(entry.path):\(entry.line):\(entry.column)") + paint("2", "  \(entry.kind)\(entry.how)") + "\n"
      if !entry.source.isEmpty {
        out += entry.source.split(separator: "\n", omittingEmptySubsequences: false).map { "  │ " + $0 }.joined(separator: "\n") + "\n"
      }
      if let sql = entry.prettySQL ?? entry.sql {
        let shown = sql.isEmpty ? "(no SQL: the query selects no rows and never runs)" : sql
        out +=
          shown.split(separator: "\n", omittingEmptySubsequences: false)
          .map { "    " + (color ? SQLHighlighter.highlight(String($0)) : String($0)) }.joined(separator: "\n") + "\n"
        if !entry.bindings.isEmpty {
          out +=
            paint("2", "    -- " + entry.bindings.enumerated().map { "?\($0.offset + 1) = \($0.element)" }.joined(separator: ", ")) + "\n"
        }
      }
      if !entry.plan.isEmpty {
        out += paint("2", "    plan: " + entry.plan.map { $0.trimmingScalars(in: .whitespaces) }.joined(separator: " · ")) + "\n"
      }
      if let error = entry.error { out += paint("1;31", "  error: ") + error + "\n" }
      if let skipped = entry.skipped { out += paint("33", "  skipped: ") + skipped + "\n" }
      if let notRun = entry.notRun { out += paint("2", "  not run: ") + notRun + "\n" }
      for finding in entry.findings {
        out += paint("35", "  [\(finding.id)] ") + finding.message + "\n"
        if let fix = finding.fix { out += "    fix: " + fix + ";\n" }
      }
      if !entry.silenced.isEmpty { out += paint("2", "  silenced: " + entry.silenced.joined(separator: ", ")) + "\n" }
      out += "\n"
    }
    out += summary + cFormat(" · %.2f s", seconds) + "\n"
    return out
  }

  // MARK: JSON

  /// One JSON object per line: each query (`file`, `line`, `column`, `kind`, `source`, `sql`,
  /// `bindings`, `plan`, `findings`, `error`, `skipped`, `notRun`), each unreadable file, then the summary.
  func json() -> String {
    func string(_ text: String?) -> String { text.map(JSONFormatter.string) ?? "null" }
    func strings(_ list: [String]) -> String { "[" + list.map(JSONFormatter.string).joined(separator: ",") + "]" }
    var lines: [String] = []
    for problem in problems {
      lines.append(
        "{\"file\":\(string(problem.path)),\"line\":\(problem.line),\"column\":\(problem.column),\"kind\":\"file\",\"error\":\(string(problem.message))}"
      )
    }
    for entry in entries {
      let findings =
        "["
        + entry.findings.map { finding in
          "{\"id\":\(string(finding.id)),\"message\":\(string(finding.message)),\"fix\":\(string(finding.fix))}"
        }.joined(separator: ",") + "]"
      lines.append(
        "{\"file\":\(string(entry.path)),\"line\":\(entry.line),\"column\":\(entry.column),\"kind\":\(string(entry.kind)),"
          + "\"executedBy\":\(string(entry.executedBy)),\"variant\":\(string(entry.variant)),\"source\":\(string(entry.source)),\"sql\":\(string(entry.sql)),\"prettySQL\":\(string(entry.prettySQL)),"
          + "\"bindings\":\(strings(entry.bindings)),\"plan\":\(strings(entry.plan.map { $0.trimmingScalars(in: .whitespaces) })),"
          + "\"findings\":\(findings),\"silenced\":\(strings(entry.silenced)),\"error\":\(string(entry.error)),\"skipped\":\(string(entry.skipped)),"
          + "\"notRun\":\(string(entry.notRun)),\"runs\":\(entry.runs)}"
      )
    }
    let counts = "{" + findingCounts.map { "\(JSONFormatter.string($0.id)):\($0.count)" }.joined(separator: ",") + "}"
    lines.append(
      "{\"summary\":{\"files\":\(files),\"lines\":\(lines.count >= 0 ? self.lines : 0),\"queries\":\(queries.count),\"rendered\":\(rendered),"
        + "\"errors\":\(errors),\"skipped\":\(skipped),\"leftOut\":\(strings(leftOut)),\"bundledDatabase\":\(string(bundledDatabase)),"
        + "\"pinnedLibrary\":\(string(pinnedLibrary)),\"libraryNote\":\(string(libraryNote)),\"findings\":\(counts),\"seconds\":\(cFormat("%.3f", seconds))}}"
    )
    return lines.joined(separator: "\n") + "\n"
  }

  // MARK: Markdown

  func markdown() -> String {
    var out = "## Quarry scan\n\n" + summary + "\n\n"
    func cell(_ text: String) -> String {
      text.replacing("|", with: "\\|").replacing("\n", with: " ")
    }
    if !problems.isEmpty {
      out += "### Files not scanned\n\n"
      for problem in problems { out += "- `\(problem.path):\(problem.line):\(problem.column)` \(cell(problem.message))\n" }
      out += "\n"
    }
    if !leftOut.isEmpty {
      out += "### Files no target compiles (left out)\n\n"
      for path in leftOut { out += "- `\(path)`\n" }
      out += "\n"
    }
    let flagged = entries.filter { !$0.findings.isEmpty || $0.error != nil }
    if !flagged.isEmpty {
      out += "### Errors and findings\n\n| Where | What | Fix |\n|---|---|---|\n"
      for entry in flagged {
        if let error = entry.error { out += "| `\(entry.path):\(entry.line):\(entry.column)` | **error**: \(cell(error)) | |\n" }
        for finding in entry.findings {
          out +=
            "| `\(entry.path):\(entry.line):\(entry.column)` | `\(finding.id)`: \(cell(finding.message)) | \(finding.fix.map { "`\(cell($0))`" } ?? "") |\n"
        }
      }
      out += "\n"
    }
    out += "<details><summary>Every query (\(queries.count))</summary>\n\n"
    for entry in entries where entry.kind != "schema" {
      out +=
        "#### `\(entry.path):\(entry.line):\(entry.column)` \(entry.kind)\(entry.how)\n\n"
      out += "```swift\n\(entry.source)\n```\n\n"
      if let sql = entry.prettySQL ?? entry.sql, !sql.isEmpty { out += "```sql\n\(sql)\n```\n\n" }
      if let skipped = entry.skipped { out += "Skipped: \(skipped)\n\n" }
      if let notRun = entry.notRun { out += "Not run: \(notRun)\n\n" }
    }
    out += "</details>\n"
    return out
  }
}
