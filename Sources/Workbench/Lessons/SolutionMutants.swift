import FoundationEssentials
import QuarryEngine
import QueryBuilder

/// Near-misses of a solution, made mechanically: the mistakes a learner makes. A lesson's data
/// must tell each of them from the solution (on the fixture or on its variant rows), or the
/// check would accept a wrong answer.
///
/// ```swift
/// SolutionMutants.of("Reminder.where { $0.priority > 1 }.order(by: \\.title).limit(3)", ordered: true)
/// // drop the where: Reminder.order(by: \.title).limit(3)
/// // flip '>' to '>=': Reminder.where { $0.priority >= 1 }…
/// // drop the order: Reminder.where { $0.priority > 1 }.limit(3)
/// // change the limit: ….limit(4)
/// ```
enum SolutionMutants {
  struct Mutant {
    var kind: String
    var code: String
    /// For a mutant of the SQL a solution runs: its statements (nil for one written in the DSL).
    var statements: [String]? = nil
    /// Why it is equivalent to the solution, when that is proven (``EquivalenceProof``).
    var proof: String? = nil
  }

  static func of(_ solution: String, ordered: Bool) -> [Mutant] {
    var mutants: [Mutant] = []
    for range in calls(named: "where", in: solution) + calls(named: "filter", in: solution) {
      mutants.append(Mutant(kind: "drop the where", code: solution.replacingSubrange(range, with: "")))
    }
    if ordered {
      for range in calls(named: "order", in: solution) {
        mutants.append(Mutant(kind: "drop the order", code: solution.replacingSubrange(range, with: "")))
      }
    }
    for (from, to) in [(".join(", ".leftJoin("), (".leftJoin(", ".join(")] {
      for range in occurrences(of: from, in: solution) {
        mutants.append(
          Mutant(kind: "\(from.dropFirst().dropLast()) → \(to.dropFirst().dropLast())", code: solution.replacingSubrange(range, with: to)))
      }
    }
    let flips = [
      (" < ", " <= "), (" <= ", " < "), (" > ", " >= "), (" >= ", " > "), (" < ", " > "), (" > ", " < "),
      (".lt(", ".lte("), (".lte(", ".lt("), (".gt(", ".gte("), (".gte(", ".gt("),
    ]
    for (from, to) in flips {
      var seen: Set<String> = []
      for range in occurrences(of: from, in: solution) {
        // A learner who gets a comparison wrong gets it wrong everywhere it is written: the
        // same comparison repeated (a CASE in both `group` and `select`) flips together.
        let comparison = comparisonText(around: range, in: solution)
        let flipped = comparison.replacing(from, with: to)
        let code = solution.replacing(comparison, with: flipped)
        guard seen.insert(code).inserted else { continue }
        mutants.append(
          Mutant(
            kind: "flip '\(from.trimmingScalars(in: .whitespaces))' to '\(to.trimmingScalars(in: .whitespaces))'",
            code: code))
      }
    }
    // Swift's characters counted as UTF-8 bytes: the same for ASCII text only.
    for range in occurrences(of: ".count", in: solution) {
      let next = solution[range.upperBound...].first
      guard next.map({ !($0.isLetter || $0.isNumber || $0 == "_" || $0 == "(") }) ?? true else { continue }
      mutants.append(
        Mutant(
          kind: "characters counted as UTF-8 bytes (.count → .utf8.count)", code: solution.replacingSubrange(range, with: ".utf8.count")))
    }
    for range in occurrences(of: ".limit(", in: solution) {
      let digits = solution[range.upperBound...].prefix { $0.isNumber }
      guard let value = Int(digits) else { continue }
      let end = solution.index(range.upperBound, offsetBy: digits.count)
      mutants.append(Mutant(kind: "change the limit", code: solution.replacingSubrange(range.upperBound..<end, with: String(value + 1))))
    }
    return mutants
  }

  /// The technique skipped: the SQL of the solution's last statement, its values written in,
  /// alone — the same rows without the view, scope, @Selection or bound value the exercise is
  /// about (for a solution that uses more than plain SQL).
  static func plainSQL(of outcome: AnswerChecker.Outcome, solution: String) -> Mutant? {
    guard let last = outcome.evidence.statements.last(where: \.returnsRows),
      last.sql.trimmingScalars(in: .whitespacesAndNewlines) != solution.trimmingScalars(in: .whitespacesAndNewlines)
    else { return nil }
    return Mutant(kind: "the technique skipped (plain SQL)", code: ".raw " + last.inlinedSQL)
  }

  /// The year ignored: the solution's statements as plain SQL, each comparison of a column with
  /// a date compared on month and day only.
  ///
  /// ```
  /// … WHERE ("reminders"."dueDate") < ('2026-03-06')  →  … WHERE strftime('%m-%d', "reminders"."dueDate") < '03-06'
  /// ```
  static func ignoringTheYear(_ outcome: AnswerChecker.Outcome) -> Mutant? {
    guard
      let regex = TextPattern(
        #"\(?("[^"]+"(?:\."[^"]+")?|\b[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)?)\)?\s*(<=|>=|<>|!=|<|>|=)\s*\(?'(\d{4})-(\d{2}-\d{2})[^']*'\)?"#)
    else { return nil }
    var changed = false
    let statements = outcome.evidence.statements.map { statement -> String in
      let sql = statement.inlinedSQL
      guard regex.contains(in: sql) else { return sql }
      changed = true
      return regex.replacing(in: sql) { "strftime('%m-%d', \($0[1] ?? "")) \($0[2] ?? "") '\($0[4] ?? "")'" }
    }
    guard changed else { return nil }
    return Mutant(kind: "the year ignored", code: statements.joined(separator: ";\n") + ";")
  }

  /// A write hard-coded: the rows the solution removed, added and changed on the fixture, each
  /// named by its id, as a learner who read them off the fixture writes them.
  static func hardCodedWrite(before: [(name: String, columns: [String], rows: [[DatabaseValue]])], after outcome: AnswerChecker.Outcome)
    -> Mutant?
  {
    var statements: [String] = []
    for (table, after) in zip(before, outcome.tables) where table.name == after.name {
      guard let key = table.columns.first, after.columns == table.columns else { continue }
      func byID(_ rows: [[DatabaseValue]]) -> [Int64: [DatabaseValue]]? {
        var out: [Int64: [DatabaseValue]] = [:]
        for row in rows {
          guard case .integer(let id)? = row.first, out[id] == nil else { return nil }
          out[id] = row
        }
        return out
      }
      guard let old = byID(table.rows), let new = byID(after.rows) else { continue }
      let name = quoteIdentifier(table.name)
      let keyName = quoteIdentifier(key)
      let removed = old.keys.filter { new[$0] == nil }.sorted()
      if !removed.isEmpty {
        statements.append("DELETE FROM \(name) WHERE \(keyName) IN (\(removed.map(String.init).joined(separator: ", ")))")
      }
      for id in new.keys.sorted() {
        guard let row = new[id] else { continue }
        if let was = old[id] {
          let sets = zip(table.columns, zip(was, row)).filter { AnswerChecker.valueKey($0.1.0) != AnswerChecker.valueKey($0.1.1) }
            .map { "\(quoteIdentifier($0.0)) = \($0.1.1.inlineSQL)" }
          if !sets.isEmpty { statements.append("UPDATE \(name) SET \(sets.joined(separator: ", ")) WHERE \(keyName) = \(id)") }
        } else {
          statements.append(
            "INSERT INTO \(name) (\(table.columns.map(quoteIdentifier).joined(separator: ", "))) VALUES (\(row.map(\.inlineSQL).joined(separator: ", ")))"
          )
        }
      }
    }
    guard !statements.isEmpty else { return nil }
    return Mutant(kind: "a hard-coded write", code: statements.joined(separator: ";\n") + ";")
  }

  /// The view skipped: the solution's query with each view of the fixture it reads written out
  /// as a subquery of the view's own SELECT — the same rows, no view.
  ///
  /// ```
  /// SELECT "product" FROM "orderLines" WHERE …  →  SELECT "product" FROM (SELECT … FROM "orderItems" JOIN …) AS "orderLines" WHERE …
  /// ```
  static func viewInlined(_ outcome: AnswerChecker.Outcome, views: [String: String]) -> Mutant? {
    guard let last = outcome.evidence.statements.last(where: \.returnsRows) else { return nil }
    let read = Set(outcome.evidence.accesses.compactMap { $0.action == .read ? $0.context?.lowercased() : nil })
    var sql = last.inlinedSQL
    var changed = false
    for (name, select) in views where read.contains(name.lowercased()) {
      let pattern = #"(?i)\b(FROM|JOIN)\s+"?"# + TextPattern.escaped(name) + #""?(?=[\s),;]|$)"#
      guard let regex = TextPattern(pattern), regex.contains(in: sql) else { continue }
      sql = regex.replacing(in: sql) { "\($0[1] ?? "") (" + select + ") AS " + quoteIdentifier(name) }
      changed = true
    }
    return changed ? Mutant(kind: "the view skipped", code: ".raw " + sql) : nil
  }

  /// DISTINCT skipped: `SELECT DISTINCT a, b FROM …` as `SELECT a, b FROM … GROUP BY 1, 2` — the
  /// same rows by grouping (for a query with no ORDER BY, LIMIT or GROUP BY of its own).
  static func distinctAsGrouping(_ outcome: AnswerChecker.Outcome) -> Mutant? {
    guard let last = outcome.evidence.statements.last(where: \.returnsRows), last.keywords.starts(with: ["SELECT", "DISTINCT"]),
      !last.keywords.contains("ORDER"), !last.keywords.contains("LIMIT"), !last.keywords.contains("GROUP"),
      let range = TextPattern("DISTINCT", ignoringCase: true)?.firstMatch(in: last.inlinedSQL)?.range
    else { return nil }
    let width = outcome.columns.count
    guard width > 0 else { return nil }
    var sql = last.inlinedSQL
    sql.replaceSubrange(range, with: "")
    sql = sql.trimmingScalars(in: ScalarSet(charactersIn: "; \n")) + " GROUP BY " + (1...width).map(String.init).joined(separator: ", ")
    return Mutant(kind: "DISTINCT as GROUP BY", code: ".raw " + sql)
  }

  /// A constant answer: the solution's rows on the fixture, written as `VALUES (…), (…)`.
  static func constant(rows: [[DatabaseValue]]) -> Mutant? {
    guard !rows.isEmpty, let width = rows.first?.count, width > 0 else { return nil }
    let values = rows.map { "(" + $0.map(\.inlineSQL).joined(separator: ", ") + ")" }.joined(separator: ", ")
    return Mutant(kind: "a constant result", code: "VALUES " + values)
  }

  /// The comparison an operator at `range` belongs to: its operands up to the nearest
  /// separator (`(`, `{`, `,`, `&&`, or the end of the bracket).
  private static func comparisonText(around range: Range<String.Index>, in text: String) -> String {
    var start = range.lowerBound
    while start > text.startIndex {
      let before = text[text.index(before: start)]
      if "({,".contains(before) || text[..<start].hasSuffix("&& ") || text[..<start].hasSuffix("|| ") { break }
      start = text.index(before: start)
    }
    var end = range.upperBound
    var depth = 0
    while end < text.endIndex {
      let character = text[end]
      if "([{".contains(character) { depth += 1 }
      if ")]}".contains(character) {
        if depth == 0 { break }
        depth -= 1
      }
      if depth == 0, character == "," || text[end...].hasPrefix(" &&") || text[end...].hasPrefix(" ||") { break }
      end = text.index(after: end)
    }
    return String(text[start..<end])
  }

  private static func occurrences(of needle: String, in text: String) -> [Range<String.Index>] {
    var found: [Range<String.Index>] = []
    var start = text.startIndex
    while let range = text[start...].firstRange(of: needle) {
      found.append(range)
      start = range.upperBound
    }
    return found
  }

  /// `.name(…)`, `.name { … }` or `.name(…) { … }`: the whole call, from its dot.
  private static func calls(named name: String, in text: String) -> [Range<String.Index>] {
    var found: [Range<String.Index>] = []
    for dot in occurrences(of: "." + name, in: text) {
      var index = dot.upperBound
      guard index < text.endIndex, text[index] == "(" || text[index] == "{" || text[index] == " " else { continue }
      while index < text.endIndex, text[index] == " " { index = text.index(after: index) }
      var consumed = false
      while index < text.endIndex, text[index] == "(" || text[index] == "{" {
        guard let end = closing(of: index, in: text) else { return found }
        index = end
        consumed = true
        var look = index
        while look < text.endIndex, text[look] == " " { look = text.index(after: look) }
        if look < text.endIndex, text[look] == "{" { index = look } else { break }
      }
      if consumed { found.append(dot.lowerBound..<index) }
    }
    return found
  }

  /// The index after the bracket that closes the one at `open` (strings skipped).
  private static func closing(of open: String.Index, in text: String) -> String.Index? {
    var depth = 0
    var index = open
    var inString = false
    while index < text.endIndex {
      let character = text[index]
      if inString {
        if character == "\\" { index = text.index(after: index) } else if character == "\"" { inString = false }
      } else if character == "\"" {
        inString = true
      } else if "({[".contains(character) {
        depth += 1
      } else if ")}]".contains(character) {
        depth -= 1
        if depth == 0 { return text.index(after: index) }
      }
      guard index < text.endIndex else { break }
      index = text.index(after: index)
    }
    return nil
  }
}
