import QuarryEngine

/// Ties an ORDER BY leaves open, moved: whether a solution's result depends on the order SQLite
/// happens to give rows whose sort keys are equal — the one `ORDER BY name LIMIT 1` keeps of two
/// users named 'Ines', the person `lag(name) OVER (ORDER BY hiredAt)` sees before one of two
/// people hired the same day. On such a dataset the task does not say which answer is right, so
/// the checker does not judge on it.
///
/// `PRAGMA reverse_unordered_selects` reverses only reads that no ORDER BY sorts; this appends a
/// last sort key, `quarry_tie_order(site, keys…)`, told each row's sort keys: the first row read
/// of each group of equal keys goes to the end of its group, the others keep the order they were
/// read in. A group comes out the same after that move only when all its rows are the same, so
/// the result changes exactly when a tie between different rows can change it (reversing them
/// would miss three tied rows A, B, A):
///
/// ```swift
/// TieOrder.movingTies(#"SELECT "id" FROM "users" ORDER BY "name" LIMIT 1"#)
/// // SELECT "id" FROM "users" ORDER BY "name", quarry_tie_order(1, "name") LIMIT 1
/// ```
///
/// An ORDER BY by position (`ORDER BY 2`) names no key the function can be told: there the
/// tie order counts down, reversing the rows of each tie.
///
/// A window's ORDER BY gets it only where peers are told apart: `lag`, `lead`, `row_number`,
/// `ntile`, `first_value`/`last_value`/`nth_value`, or a `ROWS` frame. `rank()` and an aggregate
/// over the default `RANGE` frame treat tied rows alike, so their result does not depend on it.
enum TieOrder {
  static let functionName = "quarry_tie_order"

  /// Window functions whose result for a row depends on which of its peers comes first.
  static let orderSensitive: Set<String> = ["LAG", "LEAD", "ROW_NUMBER", "NTILE", "FIRST_VALUE", "LAST_VALUE", "NTH_VALUE"]

  /// The statement with the tie order appended to each ORDER BY whose ties can change the
  /// result; nil when it has none.
  static func movingTies(_ sql: String) -> String? {
    var sql = SQLCode(sql)
    let (code, depth, opener, matching) = (sql.code, sql.depth, sql.opener, sql.matching)
    func word(_ at: Int) -> String { sql.word(at) }
    /// Where the ORDER BY that starts at `order` ends: the first same-depth word that ends it,
    /// or the closing bracket (the index of the token the tie order goes before).
    func end(ofOrderAt order: Int, stops: Set<String>) -> Int {
      var at = order + 2
      while at < code.count {
        if depth[at] < depth[order] || (depth[at] == depth[order] && stops.contains(word(at))) { return at }
        at += 1
      }
      return code.count
    }
    var inserts: [(at: Int, keys: [String])] = []
    for at in code.indices where word(at) == "ORDER" && word(at + 1) == "BY" {
      if let bracket = opener[at], word(bracket - 1) == "OVER" {
        // A window: `name(…) OVER (… ORDER BY …)`.
        let frame = end(ofOrderAt: at, stops: ["ROWS", "RANGE", "GROUPS"])
        var call = bracket - 2
        if word(call) == ")", let opening = matching[call] { call = opening - 1 } else { continue }
        guard orderSensitive.contains(word(call)) || word(frame) == "ROWS" else { continue }
        inserts.append((frame, sql.sortKeys(ofOrderAt: at, end: frame) ?? []))
      } else {
        // A select's own ORDER BY: a SELECT or VALUES at its depth, in its brackets.
        let sameGroup = code.indices.filter { $0 < at && depth[$0] == depth[at] && opener[$0] == opener[at] }
        guard sameGroup.contains(where: { ["SELECT", "VALUES"].contains(word($0)) }) else { continue }
        let end = end(ofOrderAt: at, stops: ["LIMIT", ";", "UNION", "INTERSECT", "EXCEPT", "RETURNING", "WINDOW"])
        inserts.append((end, sql.sortKeys(ofOrderAt: at, end: end) ?? []))
      }
    }
    guard !inserts.isEmpty else { return nil }
    // After the clause's last token, from the end, so earlier positions stay valid.
    for (site, insert) in inserts.enumerated() {
      sql.append(", \(functionName)(\(([String(site + 1)] + insert.keys).joined(separator: ", ")))", after: insert.at - 1)
    }
    return sql.text
  }

  /// The statement with one more column, `quarry_tie_group(keys…)`: which group of equal sort
  /// keys of its last ORDER BY each row is in (rows of one group may come in any order). Nil when
  /// that is not a plain select's own ORDER BY (a compound, a DISTINCT the column would change,
  /// an ORDER BY by position).
  ///
  /// ```swift
  /// TieOrder.grouped(#"SELECT "id" FROM "orders" ORDER BY "orderedAt" DESC"#)
  /// // SELECT "id", quarry_tie_group("orderedAt") FROM "orders" ORDER BY "orderedAt" DESC
  /// ```
  static func grouped(_ sql: String) -> String? {
    var sql = SQLCode(sql)
    let (code, depth) = (sql.code, sql.depth)
    func word(_ at: Int) -> String { sql.word(at) }
    let top = code.indices.filter { depth[$0] == 0 }
    guard let order = top.last(where: { word($0) == "ORDER" && word($0 + 1) == "BY" }),
      let select = top.last(where: { $0 < order && word($0) == "SELECT" }),
      !top.contains(where: { $0 < order && ["UNION", "INTERSECT", "EXCEPT"].contains(word($0)) }),
      !["DISTINCT", "ALL"].contains(word(select + 1)),
      let from = top.first(where: { $0 > select && word($0) == "FROM" }), from < order
    else { return nil }
    let end = top.first { $0 > order && ["LIMIT", ";"].contains(word($0)) } ?? code.count
    guard let keys = sql.sortKeys(ofOrderAt: order, end: end) else { return nil }
    sql.append(", \(groupFunctionName)(\(keys.joined(separator: ", ")))", after: from - 1)
    return sql.text
  }

  /// The statement with its rows' own columns as the last sort keys of its top-level ORDER BY,
  /// ascending or descending: ties then come smallest or largest row first. Where a LIMIT cuts
  /// a group of equal keys, the rows kept depend on which come first; moving the first row read
  /// to the end does not show it when the next one is its copy (A, A, B keeps A, A either way),
  /// but the two orders by the rows' columns keep different rows whenever the group's rows are
  /// not all the same. Nil without a top-level ORDER BY.
  ///
  /// ```swift
  /// TieOrder.byOutput(#"SELECT "title" FROM "reminders" ORDER BY "updatedAt" LIMIT 2"#, columns: 1, descending: true)
  /// // SELECT "title" FROM "reminders" ORDER BY "updatedAt", 1 DESC LIMIT 2
  /// ```
  static func byOutput(_ sql: String, columns: Int, descending: Bool) -> String? {
    guard columns > 0 else { return nil }
    var sql = SQLCode(sql)
    let (code, depth) = (sql.code, sql.depth)
    let top = code.indices.filter { depth[$0] == 0 }
    guard let order = top.last(where: { sql.word($0) == "ORDER" && sql.word($0 + 1) == "BY" }) else { return nil }
    let end = top.first { $0 > order && ["LIMIT", ";", "RETURNING"].contains(sql.word($0)) } ?? code.count
    let keys = (1...columns).map { "\($0)\(descending ? " DESC" : "")" }
    sql.append(", " + keys.joined(separator: ", "), after: end - 1)
    return sql.text
  }

  static let groupFunctionName = "quarry_tie_group"

  /// The groups of equal keys the tie order has seen, per ORDER BY.
  final class Ties: @unchecked Sendable {
    fileprivate var count: Int64 = 0
    fileprivate var keys: Set<[String]> = []
  }

  /// Registers the tie order on a connection: for a row whose keys (after the site) no earlier
  /// row had, a number above every other (last of its group); for the others, one more than the
  /// last (the order they were read in); with no keys, one less than the last.
  static func register(on database: Database) throws {
    let ties = Ties()
    var groups: [[String]: Int64] = [:]
    try database.addFunction(groupFunctionName, argumentCount: -1) { arguments in
      let key = arguments.map { AnswerChecker.valueKey($0) }
      if let group = groups[key] { return .integer(group) }
      groups[key] = Int64(groups.count)
      return .integer(Int64(groups.count - 1))
    }
    try database.addFunction(functionName, argumentCount: -1) { arguments in
      ties.count += 1
      guard arguments.count > 1 else { return .integer(-ties.count) }
      let first = ties.keys.insert(arguments.map { AnswerChecker.valueKey($0) }).inserted
      return .integer(first ? Int64.max : ties.count)
    }
  }
}
