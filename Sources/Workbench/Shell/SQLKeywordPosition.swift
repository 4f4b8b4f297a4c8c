import QuarryEngine

/// Whether a keyword in SQL text is read as a keyword where it stands, or as a name: SQLite reads
/// many of its keywords (`key`, `action`, `first`, `replace`, `left`) as a column or table name
/// where its grammar expects one, so `SELECT key, first FROM settings` names two columns, while
/// `PRIMARY KEY` and `NULLS FIRST` are keywords. A reserved word is always a keyword (unless a
/// `.` joins it to a name); a word SQLite also takes as a name is a keyword at the start of a
/// statement, after another keyword that it continues, and in the phrases it belongs to.
///
/// ```swift
/// SQLKeywordPosition.keywords(in: ["SELECT", "KEY", ",", "FIRST", "FROM", "T"])
/// // [true, false, false, false, true, false]   (KEY and FIRST are names here)
/// SQLKeywordPosition.keywords(in: ["ORDER", "BY", "LAST", "NULLS", "FIRST"])
/// // [true, true, false, true, true]
/// ```
enum SQLKeywordPosition {
  /// One token of the text, as far as the position rules need: a word upper-cased, one character
  /// of punctuation, or a literal (string, number, quoted name, parameter) as `nil`.
  typealias Token = String?

  /// For each token, whether it is a keyword there (false for every token that is not a word SQLite
  /// knows as a keyword).
  static func keywords(in tokens: [Token], isKeyword: (String) -> Bool = SQLiteKeywords.contains)
    -> [Bool]
  {
    tokens.indices.map { index in
      guard let word = tokens[index], word.first.map(isWordStart) == true, isKeyword(word) else {
        return false
      }
      return readsAsKeyword(word, at: index, in: tokens)
    }
  }

  private static func isWordStart(_ character: Character) -> Bool {
    character.isLetter || character == "_"
  }

  private static func readsAsKeyword(_ word: String, at index: Int, in tokens: [Token]) -> Bool {
    func token(_ offset: Int) -> String? {
      let position = index + offset
      return tokens.indices.contains(position) ? tokens[position] ?? "" : nil
    }
    let previous = token(-1)
    let next = token(1)
    // `t.key`, `key.x`: a name, whatever the word.
    if previous == "." || next == "." { return false }
    guard SQLiteKeywords.usableAsNames.contains(word) else { return true }
    // CURRENT_DATE and its kin are values wherever an expression may stand.
    if word.hasPrefix("CURRENT_") { return true }
    if continuesPhrase(
      word, previous: previous, beforeThat: token(-2), next: next, afterThat: token(2))
    {
      return true
    }
    // A call: `replace(title, …)`, `like(…)`; only these keywords take parentheses after them.
    if next == "(" { return word == "OVER" || word == "FILTER" }
    guard let previous, previous != ";" else { return true }  // a statement's first word
    return !isNameSlot(previous, beforeThat: token(-2))
  }

  /// Tokens after which SQLite expects an expression or a name: a keyword there is read as a name
  /// (unless it continues a phrase, as `NULLS FIRST`).
  private static let nameSlots: Set<String> = [
    ",", "(", "=", "<", ">", "!", "+", "-", "*", "/", "%", "|", "&", "~",
    "SELECT", "DISTINCT", "ALL", "WHERE", "AND", "OR", "NOT", "SET", "FROM", "JOIN", "INTO",
    "TABLE", "VIEW",
    "TRIGGER", "INDEX", "WHEN", "THEN", "ELSE", "HAVING", "RETURNING", "IS", "BETWEEN", "IN", "ON",
    "BY", "AS",
    "CASE", "ESCAPE", "LIMIT", "UPDATE", "USING", "LIKE", "GLOB", "MATCH", "REGEXP", "COLUMN", "TO",
    "REFERENCES", "WINDOW", "OVER", "OF",
  ]

  private static func isNameSlot(_ previous: String?, beforeThat: String?) -> Bool {
    guard let previous, nameSlots.contains(previous) else { return false }
    // `ON UPDATE CASCADE`, `AFTER UPDATE OF`, `INSERT OR REPLACE`: UPDATE after these words, and OR
    // after INSERT or UPDATE, are followed by keywords.
    if previous == "UPDATE", let beforeThat,
      ["ON", "OF", "DO", "BEFORE", "AFTER", "OR"].contains(beforeThat)
    {
      return false
    }
    if previous == "OR", beforeThat == "INSERT" || beforeThat == "UPDATE" { return false }
    return true
  }

  /// The phrases in which a word SQLite also takes as a name is a keyword even after a token that
  /// is otherwise followed by a name.
  private static func continuesPhrase(
    _ word: String, previous: String?, beforeThat: String?, next: String?, afterThat: String?
  ) -> Bool {
    let joinWords: Set<String> = ["LEFT", "RIGHT", "FULL", "INNER", "OUTER", "CROSS", "NATURAL"]
    if joinWords.contains(word) { return next == "JOIN" || next.map(joinWords.contains) == true }
    switch (previous, word) {
    case ("PRIMARY", "KEY"), ("FOREIGN", "KEY"), ("ON", "CONFLICT"), ("NOT", "MATERIALIZED"),
      ("AS", "MATERIALIZED"),
      ("UPDATE", "OF"), ("NULLS", _), ("EXPLAIN", "QUERY"), ("QUERY", "PLAN"),
      ("WITH", "RECURSIVE"),
      ("INSTEAD", "OF"), ("FOR", "EACH"), ("EACH", "ROW"), ("NO", "ACTION"),
      ("GENERATED", "ALWAYS"),
      ("EXCLUDE", _), ("TO", "SAVEPOINT"):
      return true
    case ("NOT", "LIKE"), ("NOT", "GLOB"), ("NOT", "REGEXP"), ("NOT", "MATCH"):
      return true
    case ("OR", "REPLACE"), ("OR", "ABORT"), ("OR", "FAIL"), ("OR", "IGNORE"), ("OR", "ROLLBACK"):
      return beforeThat == "INSERT" || beforeThat == "UPDATE"
    case ("(", "ABORT"), ("(", "FAIL"), ("(", "IGNORE"), ("(", "ROLLBACK"):
      return beforeThat == "RAISE"
    default: break
    }
    switch word {
    case "IF": return next == "NOT" || next == "EXISTS"
    case "PARTITION": return next == "BY"
    case "ROWS", "RANGE", "GROUPS":
      return ["BETWEEN", "UNBOUNDED", "CURRENT"].contains(next ?? "")
        || (next == "" && previous != nil)
    case "UNBOUNDED": return next == "PRECEDING" || next == "FOLLOWING"
    case "CURRENT": return next == "ROW"
    case "NO": return next == "ACTION" || next == "OTHERS"
    case "WITH": return previous == "(" && next.map { $0.first.map(isWordStart) == true } == true
    default: return false
    }
  }
}
