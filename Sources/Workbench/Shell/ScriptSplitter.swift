import QuarryDSL

/// Splits a script into inputs. An input ends where it is complete, unless the next line
/// continues it with a leading-dot method call (`.where { … }`); meta-commands stand alone, and
/// plain SQL runs to its `;`.
///
/// ```swift
/// ScriptSplitter.chunks(of: "Tag\n  .order(by: \\.title)\n.tables\n")
/// // ["Tag\n  .order(by: \\.title)", ".tables"]
/// ```
public enum ScriptSplitter {
  public static func chunks(of script: String, isMetaCommand: (String) -> Bool) -> [String] {
    var chunks: [String] = []
    var current = ""
    func flush() {
      if !current.allSatisfy(\.isWhitespace) { chunks.append(current) }
      current = ""
    }
    for line in script.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
      let trimmed = line.drop { $0 == " " || $0 == "\t" }
      let isSQL = SQLDetector.startsWithSQLKeyword(current)
      if current.isEmpty && (trimmed.isEmpty || trimmed.hasPrefix("//")) { continue }
      if trimmed.hasPrefix(".") && isMetaCommand(String(trimmed)) && (current.isEmpty || !InputCompleteness.isIncomplete(current)) {
        flush()
        chunks.append(String(trimmed))
        continue
      }
      let continues = trimmed.hasPrefix(".") && !current.isEmpty && !isSQL
      if !continues && !current.isEmpty && !isSQL && !InputCompleteness.isIncomplete(current) { flush() }
      if current.isEmpty && trimmed.isEmpty { continue }
      current += (current.isEmpty ? "" : "\n") + line
      if SQLDetector.startsWithSQLKeyword(current) && trimmed.hasSuffix(";") { flush() }
    }
    flush()
    return chunks
  }
}

/// Plain SQL typed at the prompt: a keyword in one case (`SELECT`, `select`) followed by a space
/// or the end. `Values(1)` is the DSL.
public enum SQLDetector {
  static let keywords: Set<String> = [
    "SELECT", "INSERT", "UPDATE", "DELETE", "CREATE", "DROP", "ALTER", "PRAGMA", "EXPLAIN", "VALUES",
    "REPLACE", "BEGIN", "COMMIT", "ROLLBACK", "WITH", "ATTACH", "DETACH", "VACUUM", "ANALYZE",
  ]

  public static func startsWithSQLKeyword(_ text: String) -> Bool {
    let trimmed = text.drop { $0.isWhitespace }
    let letters = trimmed.prefix { $0.isLetter }
    let rest = trimmed.dropFirst(letters.count)
    guard !letters.isEmpty, letters == letters.uppercased() || letters == letters.lowercased(),
      rest.first.map({ $0.isWhitespace || $0 == ";" }) ?? true
    else { return false }
    return keywords.contains(letters.uppercased())
  }
}

/// Whether DSL input needs more lines (open brackets, an unterminated string, a trailing operator).
public enum InputCompleteness {
  public static func isIncomplete(_ text: String) -> Bool { Compiler.isIncomplete(text) }
}
