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
    var tokens = SQLMutants.tokens(sql)
    let code = tokens.indices.filter { tokens[$0].kind != .space }
    func word(_ at: Int) -> String { at >= 0 && at < code.count ? tokens[code[at]].upper : "" }
    // Each code token's bracket depth, and the opening bracket around it.
    var depth: [Int] = []
    var opener: [Int?] = []
    /// The opening bracket a closing one matches.
    var matching: [Int: Int] = [:]
    var open: [Int] = []
    for at in code.indices {
      if word(at) == ")" { matching[at] = open.popLast() }
      depth.append(open.count)
      opener.append(open.last)
      if word(at) == "(" { open.append(at) }
    }
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
    /// The sort keys of the ORDER BY at `order` ending before `end`, as text (each term without
    /// its direction, NULLS or COLLATE); empty when one is an ordinal (`ORDER BY 2`).
    func keys(ofOrderAt order: Int, end: Int) -> [String] {
      var terms: [[Int]] = [[]]
      for at in (order + 2)..<end {
        if depth[at] == depth[order], word(at) == "," { terms.append([]) } else { terms[terms.count - 1].append(at) }
      }
      var keys: [String] = []
      for var term in terms {
        // `expr [COLLATE name] [ASC | DESC] [NULLS FIRST | LAST]`, from the end.
        if term.count >= 2, word(term[term.count - 2]) == "NULLS", ["FIRST", "LAST"].contains(word(term[term.count - 1])) {
          term.removeLast(2)
        }
        if let last = term.last, ["ASC", "DESC"].contains(word(last)) { term.removeLast() }
        if term.count >= 2, depth[term[term.count - 2]] == depth[order], word(term[term.count - 2]) == "COLLATE" { term.removeLast(2) }
        guard let first = term.first, let last = term.last else { return [] }
        if term.count == 1, tokens[code[first]].kind == .number { return [] }
        keys.append(tokens[code[first]...code[last]].map(\.text).joined())
      }
      return keys
    }
    var inserts: [(at: Int, keys: [String])] = []
    for at in code.indices where word(at) == "ORDER" && word(at + 1) == "BY" {
      if let bracket = opener[at], word(bracket - 1) == "OVER" {
        // A window: `name(…) OVER (… ORDER BY …)`.
        let frame = end(ofOrderAt: at, stops: ["ROWS", "RANGE", "GROUPS"])
        var call = bracket - 2
        if word(call) == ")", let opening = matching[call] { call = opening - 1 } else { continue }
        guard orderSensitive.contains(word(call)) || word(frame) == "ROWS" else { continue }
        inserts.append((frame, keys(ofOrderAt: at, end: frame)))
      } else {
        // A select's own ORDER BY: a SELECT or VALUES at its depth, in its brackets.
        let sameGroup = code.indices.filter { $0 < at && depth[$0] == depth[at] && opener[$0] == opener[at] }
        guard sameGroup.contains(where: { ["SELECT", "VALUES"].contains(word($0)) }) else { continue }
        let end = end(ofOrderAt: at, stops: ["LIMIT", ";", "UNION", "INTERSECT", "EXCEPT", "RETURNING", "WINDOW"])
        inserts.append((end, keys(ofOrderAt: at, end: end)))
      }
    }
    guard !inserts.isEmpty else { return nil }
    // After the clause's last token, from the end, so earlier positions stay valid.
    for (site, insert) in inserts.enumerated().sorted(by: { $0.element.at > $1.element.at }) {
      let last = code[insert.at - 1]
      tokens[last].text += ", \(functionName)(\(([String(site + 1)] + insert.keys).joined(separator: ", ")))"
    }
    return tokens.map(\.text).joined()
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
    var tokens = SQLMutants.tokens(sql)
    let code = tokens.indices.filter { tokens[$0].kind != .space }
    func word(_ at: Int) -> String { at >= 0 && at < code.count ? tokens[code[at]].upper : "" }
    var depth: [Int] = []
    var level = 0
    for at in code.indices {
      if word(at) == ")" { level -= 1 }
      depth.append(level)
      if word(at) == "(" { level += 1 }
    }
    let top = code.indices.filter { depth[$0] == 0 }
    guard let order = top.last(where: { word($0) == "ORDER" && word($0 + 1) == "BY" }),
      let select = top.last(where: { $0 < order && word($0) == "SELECT" }),
      !top.contains(where: { $0 < order && ["UNION", "INTERSECT", "EXCEPT"].contains(word($0)) }),
      !["DISTINCT", "ALL"].contains(word(select + 1)),
      let from = top.first(where: { $0 > select && word($0) == "FROM" }), from < order
    else { return nil }
    let end = top.first { $0 > order && ["LIMIT", ";"].contains(word($0)) } ?? code.count
    var terms: [[Int]] = [[]]
    for at in (order + 2)..<end {
      if depth[at] == 0, word(at) == "," { terms.append([]) } else { terms[terms.count - 1].append(at) }
    }
    var keys: [String] = []
    for var term in terms {
      if term.count >= 2, word(term[term.count - 2]) == "NULLS", ["FIRST", "LAST"].contains(word(term[term.count - 1])) {
        term.removeLast(2)
      }
      if let last = term.last, ["ASC", "DESC"].contains(word(last)) { term.removeLast() }
      if term.count >= 2, depth[term[term.count - 2]] == 0, word(term[term.count - 2]) == "COLLATE" { term.removeLast(2) }
      guard let first = term.first, let last = term.last, !(term.count == 1 && tokens[code[first]].kind == .number) else { return nil }
      keys.append(tokens[code[first]...code[last]].map(\.text).joined())
    }
    tokens[code[from - 1]].text += ", \(groupFunctionName)(\(keys.joined(separator: ", ")))"
    return tokens.map(\.text).joined()
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
