import QuarryDSL

/// Tab completion inside plain SQL, by where the cursor is: table names after `FROM`, `JOIN`,
/// `INTO`, `UPDATE` and `TABLE`; after `alias.` (or `table.`) that table's columns; elsewhere the
/// columns of the tables the statement names (of every table while it names none), its aliases
/// and the table names.
///
/// ```swift
/// SQLCompletion(tables: models).candidates(before: "SELECT l.")  // with "FROM remindersLists l": its columns
/// ```
struct SQLCompletion {
  let tables: [TableModel]

  /// The words of the text, in order, without quotes (`"remindersLists"` → `remindersLists`).
  private static func words(_ text: String) -> [Substring] {
    text.split { !($0.isLetter || $0.isNumber || $0 == "_") }
  }

  /// Table names (as SQL spells them) by alias, and the tables named, from `FROM t [AS] a`,
  /// `JOIN t a`, `UPDATE t`, `INTO t`.
  private func named(in text: String) -> (aliases: [String: TableModel], tables: [TableModel]) {
    let words = Self.words(text)
    var aliases: [String: TableModel] = [:]
    var named: [TableModel] = []
    let introducers: Set<String> = ["FROM", "JOIN", "UPDATE", "INTO"]
    let notAliases: Set<String> = [
      "WHERE", "ON", "JOIN", "LEFT", "RIGHT", "INNER", "OUTER", "CROSS", "FULL", "GROUP",
      "ORDER", "LIMIT", "SET", "VALUES", "USING", "NATURAL", "UNION", "EXCEPT", "INTERSECT", "HAVING", "WINDOW",
    ]
    for (index, word) in words.enumerated() where introducers.contains(word.uppercased()) && index + 1 < words.count {
      guard let table = tables.first(where: { $0.tableName.lowercased() == words[index + 1].lowercased() }) else { continue }
      named.append(table)
      aliases[table.tableName] = table
      var next = index + 2
      if next < words.count, words[next].uppercased() == "AS" { next += 1 }
      if next < words.count, !notAliases.contains(words[next].uppercased()) { aliases[String(words[next])] = table }
    }
    return (aliases, named)
  }

  func candidates(before text: String) -> [String] {
    let (aliases, named) = self.named(in: text)
    let trimmed = text.reversed().drop { $0 == " " || $0 == "\t" || $0 == "\n" }
    if trimmed.first == "." {
      // `l.` or `"remindersLists".`: that table's columns.
      let qualifier = String(text.dropLast().reversed().prefix { $0.isLetter || $0.isNumber || $0 == "_" }.reversed())
      guard let table = aliases[qualifier] ?? tables.first(where: { $0.tableName == qualifier }) else { return [] }
      return table.columns.map(\.sqlName)
    }
    let previous = Self.words(text).last.map { $0.uppercased() }
    let afterComma = trimmed.first == ","
    let tableNames = tables.map(\.tableName)
    if let previous, ["FROM", "JOIN", "INTO", "UPDATE", "TABLE"].contains(previous), !afterComma || previous == "FROM" {
      return tableNames
    }
    let columns = (named.isEmpty ? tables : named).flatMap { $0.columns.map(\.sqlName) }
    return columns + Array(aliases.keys) + tableNames
  }
}
