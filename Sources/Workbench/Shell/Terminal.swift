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

  public static func highlight(_ sql: String) -> String {
    var out = ""
    var index = sql.startIndex
    while index < sql.endIndex {
      let character = sql[index]
      if character == "'" || character == "\"" {
        var end = sql.index(after: index)
        while end < sql.endIndex {
          if sql[end] == character {
            let next = sql.index(after: end)
            if next < sql.endIndex, sql[next] == character { end = sql.index(after: next); continue }
            end = next
            break
          }
          end = sql.index(after: end)
        }
        let token = String(sql[index..<min(end, sql.endIndex)])
        out += (character == "'" ? "\u{1B}[32m" : "\u{1B}[36m") + token + "\u{1B}[0m"
        index = min(end, sql.endIndex)
      } else if character.isLetter {
        var end = index
        while end < sql.endIndex, sql[end].isLetter || sql[end] == "_" { end = sql.index(after: end) }
        let word = String(sql[index..<end])
        out += keywords.contains(word) ? "\u{1B}[1;34m" + word + "\u{1B}[0m" : word
        index = end
      } else if character.isNumber {
        var end = index
        while end < sql.endIndex, sql[end].isNumber || sql[end] == "." { end = sql.index(after: end) }
        out += "\u{1B}[33m" + String(sql[index..<end]) + "\u{1B}[0m"
        index = end
      } else {
        out.append(character)
        index = sql.index(after: index)
      }
    }
    return out
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
      if scalar == "\u{1B}" { inEscape = true; continue }
      width += TerminalWidth.of(scalar)
    }
    return width
  }
}
