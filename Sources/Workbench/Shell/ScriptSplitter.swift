import QuarryDSL
import QuarryEngine

/// Splits a script into inputs. An input ends where it is complete, unless the next line
/// continues it with a leading-dot method call (`.where { … }`); meta-commands stand alone, and
/// plain SQL runs to its `;`.
///
/// ```swift
/// ScriptSplitter.chunks(of: "Tag\n  .order(by: \\.title)\n.tables\n")
/// // ["Tag\n  .order(by: \\.title)", ".tables"]
/// ```
public enum ScriptSplitter {
  /// One input of a script and the line it starts on (1-based), for locating its errors.
  public struct Input: Equatable, Sendable {
    public var text: String
    public var line: Int
  }

  /// Whether a script is a Swift source file: its first line of code is an `import`.
  public static func isSwiftSourceFile(_ script: String) -> Bool {
    // Line by line from the top, only as far as the first line of code (a 100 MB script is
    // not split whole).
    for line in Lines(script) {
      let trimmed = Lines.withoutIndent(line)
      if trimmed.isEmpty || trimmed.hasPrefix("//") { continue }
      return trimmed.hasPrefix("import ") || trimmed.hasPrefix("@preconcurrency import ")
    }
    return false
  }

  /// The lines of a text, without their `\n`, found with `memchr` and never copied: a script
  /// of 100 MB is read at memory speed.
  struct Lines: Sequence, IteratorProtocol {
    let text: String
    var rest: String.Index?

    init(_ text: String) {
      self.text = text
      rest = text.startIndex
    }

    /// A line without the spaces and tabs it starts with, read as bytes (a line of 100 MB of
    /// spaces is skipped at memory speed, not a Character at a time).
    static func withoutIndent(_ line: Substring) -> Substring {
      let indent = line.utf8.withContiguousStorageIfAvailable { bytes in
        bytes.firstIndex { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") } ?? bytes.count
      }
      guard let indent else {
        return line[(line.utf8.firstIndex { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") } ?? line.endIndex)...]
      }
      return line[line.utf8.index(line.startIndex, offsetBy: indent)...]
    }

    mutating func next() -> Substring? {
      guard let start = rest else { return nil }
      guard let newline = text.firstUTF8Index(of: UInt8(ascii: "\n"), from: start) else {
        rest = nil
        return text[start...]
      }
      rest = text.utf8.index(after: newline)
      return text[start..<newline]
    }
  }

  /// The parts of one input that mixes plain SQL statements and DSL (a `CREATE TABLE …;` then
  /// a `@Table` for it and a query), each to run in turn; nil when the input is all one or the
  /// other, and runs whole.
  ///
  /// ```swift
  /// ScriptSplitter.mixedParts(of: "CREATE TABLE notes (id INTEGER PRIMARY KEY);\nNote.all")
  /// // [Input(text: "CREATE TABLE notes (id INTEGER PRIMARY KEY);", line: 1), Input(text: "Note.all", line: 2)]
  /// ```
  public static func mixedParts(of input: String) -> [Input]? {
    // Splitting reads the input with the Swift scanner: only when some line starts like SQL.
    guard input.containsUTF8(UInt8(ascii: "\n")) else { return nil }
    let lines = Lines(input).filter { !$0.isEmpty }
    guard lines.count > 1, lines.contains(where: { SQLDetector.startsWithSQLKeyword($0) }) else { return nil }
    let parts = inputs(of: input, isMetaCommand: { _ in false })
    let sql = parts.filter { SQLDetector.startsWithSQLKeyword($0.text) }.count
    return parts.count > 1 && sql > 0 && sql < parts.count ? parts : nil
  }

  public static func chunks(of script: String, isMetaCommand: (String) -> Bool) -> [String] {
    inputs(of: script, isMetaCommand: isMetaCommand).map(\.text)
  }

  /// The inputs of a script. Plain SQL ends where SQLite says a statement is complete
  /// (`sqlite3_complete`: a `;` in a comment, a string or a trigger body ends nothing).
  public static func inputs(of script: String, isMetaCommand: (String) -> Bool) -> [Input] {
    var inputs: [Input] = []
    var current = ""
    var currentLine = 1
    /// `current` as read so far, kept line by line: a long input is never scanned again.
    var scanner = SourceScanner()
    func flush() {
      if !current.allSatisfy(\.isWhitespace) { inputs.append(Input(text: current, line: currentLine)) }
      current = ""
      scanner = SourceScanner()
    }
    func isIncomplete() -> Bool { InputCompleteness.isIncomplete(current, scanned: scanner) }
    var lineNumber = 0
    for line in Lines(script) {
      lineNumber += 1
      let trimmed = Lines.withoutIndent(line)
      let isSQL = SQLDetector.startsWithSQLKeyword(current)
      // Comment lines between inputs (Swift's `//`, SQL's `--`) belong to neither.
      if current.isEmpty && (trimmed.isEmpty || trimmed.hasPrefix("//") || trimmed.hasPrefix("--")) { continue }
      if trimmed.hasPrefix(".") && isMetaCommand(String(trimmed)) && (current.isEmpty || !isIncomplete()) {
        flush()
        inputs.append(Input(text: String(trimmed), line: lineNumber))
        continue
      }
      // A `//` comment line never ends the DSL input it stands in (a chain goes on after it).
      let continues = (trimmed.hasPrefix(".") || trimmed.hasPrefix("//")) && !current.isEmpty && !isSQL
      if !continues && !current.isEmpty && !isSQL && !isIncomplete() { flush() }
      if current.isEmpty && trimmed.isEmpty { continue }
      if current.isEmpty { currentLine = lineNumber }
      let startsInput = current.isEmpty
      if !startsInput { current.append("\n") }
      current.append(contentsOf: line)
      // Plain SQL is SQLite's to complete: the Swift scanner reads only the DSL.
      if !SQLDetector.startsWithSQLKeyword(current) {
        scanner.append((startsInput ? "" : "\n") + line)
      } else if trimmed.containsUTF8(UInt8(ascii: ";")) && SQLScript.isComplete(current) {
        flush()
      }
    }
    flush()
    return inputs
  }
}

/// Plain SQL typed at the prompt: a keyword in one case (`SELECT`, `select`) followed by a space
/// or the end. `Values(1)` is the DSL.
public enum SQLDetector {
  static let keywords: Set<String> = [
    "SELECT", "INSERT", "UPDATE", "DELETE", "CREATE", "DROP", "ALTER", "PRAGMA", "EXPLAIN", "VALUES",
    "REPLACE", "BEGIN", "COMMIT", "END", "ROLLBACK", "SAVEPOINT", "RELEASE", "WITH", "ATTACH", "DETACH",
    "VACUUM", "ANALYZE", "REINDEX",
  ]

  public static func startsWithSQLKeyword(_ text: some StringProtocol) -> Bool {
    let trimmed = withoutLeadingSQLComments(Substring(text).drop { $0.isWhitespace })
    let letters = trimmed.prefix { $0.isLetter }
    let rest = trimmed.dropFirst(letters.count)
    guard !letters.isEmpty, letters == letters.uppercased() || letters == letters.lowercased(),
      rest.first.map({ $0.isWhitespace || $0 == ";" }) ?? true
    else { return false }
    return keywords.contains(letters.uppercased())
  }

  /// Swift's own words, never taken for a misspelled SQL keyword (`let` is not `END`).
  static let swiftKeywords: Set<String> = [
    "let", "var", "func", "struct", "enum", "class", "extension", "import", "return", "try", "for", "if", "guard",
    "while", "switch", "case", "do", "await", "some", "any", "self", "nil", "true", "false", "static", "actor",
  ]

  /// A first word that is one or two letters from an SQL keyword (`SELEC 1;`, `delet from t`)
  /// and not followed by Swift (`.`, `(`, `=`): the keyword it was meant to be, and where the
  /// word stands (a UTF-8 offset). Nil for anything else.
  ///
  /// ```swift
  /// SQLDetector.misspelledKeyword(in: "SELEC 1;")  // ("SELEC", 0, "SELECT")
  /// ```
  public static func misspelledKeyword(in text: String) -> (word: String, offset: Int, keyword: String)? {
    let trimmed = withoutLeadingSQLComments(text.drop { $0.isWhitespace })
    let word = trimmed.prefix { $0.isLetter }
    let after = trimmed.dropFirst(word.count)
    guard word.count >= 3, word == word.uppercased() || word == word.lowercased(),
      !keywords.contains(word.uppercased()), !swiftKeywords.contains(word.lowercased()),
      after.first.map({ $0.isWhitespace || $0 == ";" || $0 == "*" }) ?? true,
      !(after.drop { $0.isWhitespace }.first.map { ".(=:{[".contains($0) } ?? false)
    else { return nil }
    let limit = word.count >= 5 ? 2 : 1
    let ranked = keywords.map { (keyword: $0, distance: editDistance(word.uppercased(), $0)) }
      .filter { $0.distance <= limit }
      .sorted { ($0.distance, $0.keyword) < ($1.distance, $1.keyword) }
    guard let best = ranked.first else { return nil }
    return (String(word), text.utf8.distance(from: text.startIndex, to: word.startIndex), best.keyword)
  }

  /// Text after any leading SQL comments (`-- …` lines, `/* … */`) and the space around them:
  /// `-- titles\nSELECT …` is plain SQL. (The DSL's comments are Swift's `//`.)
  static func withoutLeadingSQLComments(_ text: Substring) -> Substring {
    var rest = text
    while true {
      if rest.hasPrefix("--") {
        guard let newline = rest.firstIndex(of: "\n") else { return "" }
        rest = rest[rest.index(after: newline)...].drop { $0.isWhitespace }
      } else if rest.hasPrefix("/*") {
        guard let end = rest.firstRange(of: "*/") else { return "" }
        rest = rest[end.upperBound...].drop { $0.isWhitespace }
      } else {
        return rest
      }
    }
  }
}

/// Whether input needs more lines: plain SQL until SQLite says it is complete; DSL with open
/// brackets, an unterminated string or a trailing operator.
public enum InputCompleteness {
  public static func isIncomplete(_ text: String) -> Bool {
    if SQLDetector.startsWithSQLKeyword(text) {
      // SQL then the DSL (`.schema` output pasted back): complete when its last part is.
      if !SQLScript.isComplete(text), let last = ScriptSplitter.mixedParts(of: text)?.last {
        return isIncomplete(last.text)
      }
      return !SQLScript.isComplete(text)
    }
    return SwiftInputCompleteness.isIncomplete(text)
  }

  /// The same for text a scanner has read already.
  public static func isIncomplete(_ text: String, scanned scanner: SourceScanner) -> Bool {
    if SQLDetector.startsWithSQLKeyword(text) { return !SQLScript.isComplete(text) }
    return SwiftInputCompleteness.isIncomplete(text, scanned: scanner)
  }
}
