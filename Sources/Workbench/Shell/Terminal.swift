import FoundationEssentials

/// What the shell knows about where it prints: size, and whether colour is wanted.
public struct Terminal: Sendable {
  public var width: Int
  public var height: Int
  public var isInteractive: Bool
  public var usesColor: Bool

  public init(width: Int = 80, height: Int = 24, isInteractive: Bool = false, usesColor: Bool = false) {
    self.width = width
    self.height = height
    self.isInteractive = isInteractive
    self.usesColor = usesColor
  }
}

/// ANSI colouring of SQL for the terminal: keywords, strings, numbers, identifiers.
public enum SQLHighlighter {
  static let keywords: Set<String> = [
    "SELECT", "DISTINCT", "FROM", "WHERE", "GROUP", "BY", "HAVING", "ORDER", "LIMIT", "OFFSET", "JOIN",
    "LEFT", "RIGHT", "FULL", "CROSS", "ON", "AS", "AND", "OR", "NOT", "IN", "IS", "NULL", "LIKE", "GLOB",
    "BETWEEN", "CASE", "WHEN", "THEN", "ELSE", "END", "WITH", "UNION", "ALL", "INTERSECT", "EXCEPT",
    "INSERT", "INTO", "VALUES", "UPDATE", "SET", "DELETE", "RETURNING", "CONFLICT", "DO", "NOTHING",
    "CREATE", "TEMPORARY", "VIEW", "TRIGGER", "BEFORE", "AFTER", "INSTEAD", "OF", "FOR", "EACH", "ROW",
    "BEGIN", "DROP", "ASC", "DESC", "NULLS", "FIRST", "LAST", "COLLATE", "CAST", "EXISTS", "FILTER",
    "DEFAULT", "REPLACE", "IGNORE", "OVER", "PARTITION",
  ]

  /// SQL coloured for output, by the scanner that colours the line being typed
  /// (`InputHighlighter`), with this list of keywords (upper case, as Quarry renders them).
  public static func highlight(_ sql: String) -> String {
    let bytes = Array(sql.utf8)
    return InputHighlighter.paint(bytes, from: 0, spans: InputHighlighter.sqlSpans(bytes) { keywords.contains($0) })
  }

  /// Visible width of text that may contain ANSI escapes.
  public static func visibleWidth(_ text: String) -> Int {
    var width = 0
    var inEscape = false
    for scalar in text.unicodeScalars {
      if inEscape {
        if scalar == "m" { inEscape = false }
        continue
      }
      if scalar == "\u{1B}" {
        inEscape = true
        continue
      }
      width += TerminalWidth.of(scalar)
    }
    return width
  }
}
