/// A recursive walk stopped at a depth: what a learner writes who bounds the walk by the tree they
/// see (`WHERE depth < 3`, or three self-joins). The mutant the dataset search needs a deeper tree
/// to kill.
///
/// The walk's depth is the column its recursive member counts up, `"cte"."col" + 1`:
///
/// ```swift
/// WalkDepth.bounded(#"WITH "chains" AS (SELECT "id", 1 AS "depth" FROM "employees" WHERE …"#
///   + #" UNION ALL SELECT "employees"."id", ("chains"."depth") + (1) FROM "employees" JOIN "chains" ON …)"#
///   + #" SELECT "name" FROM "chains""#, below: 3)
/// // … JOIN "chains" ON … WHERE ("chains"."depth") < 3) SELECT "name" FROM "chains"
/// ```
enum WalkDepth {
  /// The statement with each recursive member that counts a depth kept to rows below `bound`;
  /// nil when no member counts one.
  static func bounded(_ sql: String, below bound: Int) -> String? {
    var sql = SQLCode(sql)
    let (code, depth) = (sql.code, sql.depth)
    func word(_ at: Int) -> String { sql.word(at) }
    /// `name AS (` of each common table: the name and the index of its opening bracket.
    var tables: [(name: String, open: Int)] = []
    for at in code.indices where word(at) == "AS" && word(at + 1) == "(" && (word(at + 2) == "SELECT" || word(at + 2) == "VALUES") {
      // `name (columns) AS (` or `name AS (`.
      var nameAt = at - 1
      if word(nameAt) == ")" {
        nameAt -= 1
        while nameAt >= 0, word(nameAt) != "(" { nameAt -= 1 }
        nameAt -= 1
      }
      guard nameAt >= 0, let name = sql.tokens[code[nameAt]].name else { continue }
      tables.append((name, at + 1))
    }
    var edits: [Int: String] = [:]
    for table in tables {
      let body = depth[table.open] + 1
      guard let close = (table.open + 1..<code.count).first(where: { depth[$0] < body }) else { continue }
      // The members after the first UNION at the body's depth are the recursive ones.
      guard let union = (table.open + 1..<close).first(where: { depth[$0] == body && word($0) == "UNION" }) else { continue }
      var memberStart = union + 1
      if word(memberStart) == "ALL" { memberStart += 1 }
      guard word(memberStart) == "SELECT" else { continue }
      let memberEnd =
        (memberStart..<close).first { depth[$0] == body && ["UNION", "ORDER", "LIMIT"].contains(word($0)) } ?? close
      // `"cte"."col" + 1`, each side maybe in brackets.
      var counted: (start: Int, end: Int)?
      for at in memberStart..<memberEnd where word(at) == "+" {
        var right = at + 1
        if word(right) == "(" { right += 1 }
        guard word(right) == "1" else { continue }
        var end = at - 1
        var start = end
        if word(end) == ")" { start -= 1 }
        guard start >= 2, word(start - 1) == ".", sql.tokens[code[start - 2]].name == table.name else { continue }
        start -= 2
        if word(end) == ")" {
          guard word(start - 1) == "(" else { continue }
          start -= 1
        } else {
          end = at - 1
        }
        counted = (start, end)
        break
      }
      guard let counted else { continue }
      let column = (counted.start...counted.end).map { sql.tokens[code[$0]].text }.joined()
      let condition = "\(column) < \(bound)"
      if let whereAt = (memberStart..<memberEnd).first(where: { depth[$0] == body && word($0) == "WHERE" }) {
        edits[code[whereAt]] = "WHERE \(condition) AND ("
        edits[code[memberEnd - 1], default: sql.tokens[code[memberEnd - 1]].text] += ")"
      } else {
        edits[code[memberEnd - 1], default: sql.tokens[code[memberEnd - 1]].text] += " WHERE \(condition)"
      }
    }
    guard !edits.isEmpty else { return nil }
    for (index, text) in edits { sql.tokens[index].text = text }
    return sql.text
  }
}
