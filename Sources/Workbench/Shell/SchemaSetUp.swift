import FoundationEssentials
import QueryBuilder

/// Plain SQL that sets up what later inputs use: a `CREATE …` (table, virtual table, view,
/// index, trigger) and the rows inserted into a table created at the same prompt. A lesson
/// check replays it before the learner's answer, as it replays declarations.
///
/// ```swift
/// var created: Set<String> = []
/// SchemaSetUp.record("CREATE VIRTUAL TABLE texts USING fts5(body)", createdTables: &created)  // true
/// SchemaSetUp.record("INSERT INTO texts SELECT notes FROM reminders", createdTables: &created)  // true
/// SchemaSetUp.record("DELETE FROM reminders", createdTables: &created)                        // false
/// ```
public enum SchemaSetUp {
  public static func record(_ sql: String, createdTables: inout Set<String>) -> Bool {
    // The first words are enough (a 100 MB INSERT is not read whole).
    let words = sql.prefix(4096).split(whereSeparator: { $0.isWhitespace || $0 == "(" }).prefix(8).map { $0.uppercased() }
    guard let first = words.first else { return false }
    func name(after index: Int) -> String? {
      var index = index
      if words.count > index + 2, words[index] == "IF", words[index + 1] == "NOT", words[index + 2] == "EXISTS" { index += 3 }
      guard index < words.count else { return nil }
      return words[index].trimmingScalars(in: ScalarSet(charactersIn: "\"`[];")).lowercased()
    }
    if first == "CREATE" {
      if let tableIndex = words.firstIndex(of: "TABLE"), let table = name(after: tableIndex + 1) { createdTables.insert(table) }
      return true
    }
    if first == "INSERT" || first == "REPLACE", let into = words.firstIndex(of: "INTO"), let table = name(after: into + 1) {
      return createdTables.contains(table)
    }
    return false
  }
}
