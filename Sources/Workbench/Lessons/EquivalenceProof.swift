import QuarryEngine
import QueryBuilder

/// Why a mutant means the same as its solution on every database the schema allows, read off the
/// statement and the fixture's schema: a proof, not a guess from data. A mutant with a proof is
/// set aside as equivalent (the lint checks that no dataset tells it apart, so a wrong proof shows).
///
/// ```swift
/// // SELECT "remindersListID", count(*) FROM "reminders" GROUP BY "remindersListID"
/// prover.distinctAdded(selectAt: 0)
/// // "one row per group, and every GROUP BY key is among the columns"
/// // SELECT count("reminders"."id") FROM "reminders"
/// prover.countStar(argument: 3...7)
/// // "\"reminders\".\"id\" is never NULL (…): count(x) counts every row"
/// ```
struct EquivalenceProof {
  let tokens: [SQLMutants.Token]
  /// Indices of the tokens that are not spaces.
  let code: [Int]
  /// Each code token's bracket depth.
  let depth: [Int]
  let database: Database?
  /// Table names by alias, and the optional (LEFT JOIN) ones: read once, asked for by every rule.
  private var aliases: (tables: [String: String], optional: Set<String>) = ([:], [])

  init(tokens: [SQLMutants.Token], database: Database?) {
    self.tokens = tokens
    code = tokens.indices.filter { tokens[$0].kind != .space }
    var depth: [Int] = []
    var level = 0
    for index in code {
      if tokens[index].text == ")" { level -= 1 }
      depth.append(level)
      if tokens[index].text == "(" { level += 1 }
    }
    self.depth = depth
    self.database = database
    aliases = readAliases()
  }

  func word(_ at: Int) -> String { at >= 0 && at < code.count ? tokens[code[at]].upper : "" }
  func name(_ at: Int) -> String? { at >= 0 && at < code.count ? tokens[code[at]].name : nil }

  static let aggregates: Set<String> = [
    "COUNT", "SUM", "AVG", "MIN", "MAX", "TOTAL", "GROUP_CONCAT", "JSON_GROUP_ARRAY",
    "JSON_GROUP_OBJECT", "STRING_AGG",
  ]
  static let coreEnds: Set<String> = ["UNION", "INTERSECT", "EXCEPT", ";"]

  /// The end (exclusive) of the select core starting at `select`: a compound operator, the closing
  /// bracket, or the statement's end.
  func coreEnd(from select: Int) -> Int {
    var at = select + 1
    while at < code.count, depth[at] >= depth[select] {
      if depth[at] == depth[select], Self.coreEnds.contains(word(at)) { break }
      at += 1
    }
    return at
  }

  /// The same-depth positions in `range` where `words` occurs.
  func positions(of words: Set<String>, in range: Range<Int>, depth level: Int) -> [Int] {
    range.filter { depth[$0] == level && words.contains(word($0)) }
  }

  /// The expressions of a comma list in `range` (same depth), as normalised text without a
  /// trailing `AS alias`.
  func items(in range: Range<Int>, depth level: Int) -> [String] {
    var items: [String] = []
    var current: [String] = []
    for at in range {
      if depth[at] == level, word(at) == "," {
        items.append(current.joined(separator: " "))
        current = []
      } else {
        current.append(tokens[code[at]].name ?? tokens[code[at]].text)
      }
    }
    items.append(current.joined(separator: " "))
    return items.map { item in
      let parts = item.split(separator: " ")
      if parts.count > 2, parts[parts.count - 2].uppercased() == "AS" {
        return parts.dropLast(2).joined(separator: " ")
      }
      return item
    }
  }

  /// `SELECT` → `SELECT DISTINCT`: equivalent when the core's rows are unique by its shape.
  func distinctAdded(selectAt select: Int) -> String? {
    if select >= 2, word(select - 1) == "(", ["IN", "EXISTS"].contains(word(select - 2)) {
      return "an IN or EXISTS subquery is read as a set: duplicates in it change nothing"
    }
    if let one = oneRow(selectAt: select) { return one + ": nothing to make distinct" }
    let level = depth[select]
    if let compound = compoundRemovesDuplicates(atDepth: level, around: select) { return compound }
    let end = coreEnd(from: select)
    let from = self.from(select, end: end)
    let windows = ((select + 1)..<from).contains { word($0) == "OVER" }
    let group = positions(of: ["GROUP"], in: from..<end, depth: level).first.flatMap {
      word($0 + 1) == "BY" ? $0 : nil
    }
    if let group {
      let keysEnd =
        positions(of: ["HAVING", "WINDOW", "ORDER", "LIMIT"], in: (group + 2)..<end, depth: level)
        .first ?? end
      let keys = items(in: (group + 2)..<keysEnd, depth: level)
      let columns = Set(items(in: (select + 1)..<from, depth: level))
      let count = columns.count
      let allSelected = keys.allSatisfy { key in
        columns.contains(key) || Int(key).map { $0 >= 1 && $0 <= count } == true
      }
      if allSelected, !windows {
        return
          "one row per group, and every GROUP BY key is among the columns: the rows are already distinct"
      }
      // Grouped by a table's key, with a UNIQUE NOT NULL column of that table among the columns
      // (a list's title): one row per group, and no two groups share that column.
      if !windows, keys.count == 1, let key = columnReference(group + 2...keysEnd - 1) {
        let (tables, _) = tablesByAlias()
        if let table = tables[key.alias], column(key.column, of: table)?.isKey == true {
          for item in itemRanges(select: select, from: from) {
            if let reference = columnReference(item), reference.alias == key.alias, uniqueNotNull(reference.column, of: table) {
              return
                "one row per \(key.alias), and \(reference.alias).\(reference.column) is UNIQUE and NOT NULL: the rows are already distinct"
            }
          }
        }
      }
    } else if !windows {
      // A column that is the key of a table the core never repeats: one row per row of it.
      for item in itemRanges(select: select, from: from) {
        if let reference = columnReference(item), let read = rowsNeverRepeated(of: reference, selectAt: select) {
          return "the columns hold \(reference.alias).\(reference.column), the key of \(read): the rows are already distinct"
        }
      }
    }
    return nil
  }

  /// The ranges of a select list's items, each without a trailing `AS alias`.
  func itemRanges(select: Int, from: Int) -> [ClosedRange<Int>] {
    var ranges: [ClosedRange<Int>] = []
    var start = select + 1
    for at in (select + 1)...from where at == from || (depth[at] == depth[select] && word(at) == ",") {
      if at > start {
        var end = at - 1
        if end - 1 > start, word(end - 1) == "AS" { end -= 2 }
        ranges.append(start...end)
      }
      start = at + 1
    }
    return ranges
  }

  /// Why a DISTINCT in a core of a compound select changes nothing: every compound operator at
  /// that depth removes duplicates (UNION, INTERSECT, EXCEPT; no UNION ALL).
  func compoundRemovesDuplicates(atDepth level: Int, around select: Int) -> String? {
    // The compound's extent: from the bracket that opens this depth to the one that closes it.
    var start = select
    while start > 0, depth[start - 1] >= level { start -= 1 }
    var end = select
    while end + 1 < code.count, depth[end + 1] >= level { end += 1 }
    let operators = (start...end).filter { depth[$0] == level && ["UNION", "INTERSECT", "EXCEPT"].contains(word($0)) }
    guard !operators.isEmpty, !operators.contains(where: { word($0 + 1) == "ALL" }) else { return nil }
    return "\(operators.map { word($0) }.joined(separator: "/")) removes duplicates itself"
  }

  /// Whether a column is UNIQUE on its own (an index or a constraint) and NOT NULL.
  func uniqueNotNull(_ column: String, of table: String) -> Bool {
    guard let database, self.column(column, of: table)?.notNull == true else { return false }
    let indexes = (try? database.rows("SELECT name FROM pragma_index_list(?) WHERE \"unique\" = 1", bindings: [.text(table)])) ?? []
    return indexes.contains { index in
      guard let name = index.first?.textValue,
        let columns = try? database.rows("SELECT name FROM pragma_index_info(?)", bindings: [.text(name)])
      else { return false }
      return columns.count == 1 && columns.first?.first?.textValue?.lowercased() == column
    }
  }

  /// Where the select list of the core at `select` ends (its FROM, or the next clause).
  func from(_ select: Int, end: Int) -> Int {
    positions(
      of: ["FROM", "WHERE", "GROUP", "HAVING", "WINDOW", "ORDER", "LIMIT"], in: (select + 1)..<end,
      depth: depth[select]
    ).first ?? end
  }

  /// Why the core at `select` gives at most one row, if its shape says so: `LIMIT 1`, or an
  /// aggregate without GROUP BY (and no window, no compound).
  func oneRow(selectAt select: Int) -> String? {
    let level = depth[select]
    let end = coreEnd(from: select)
    if end < code.count, Self.coreEnds.contains(word(end)), word(end) != ";" { return nil }
    let from = self.from(select, end: end)
    if let limit = positions(of: ["LIMIT"], in: from..<end, depth: level).first,
      word(limit + 1) == "1",
      !["OFFSET", ","].contains(word(limit + 2))
    {
      return "LIMIT 1 leaves one row"
    }
    let windows = ((select + 1)..<from).contains { word($0) == "OVER" }
    let group = positions(of: ["GROUP"], in: from..<end, depth: level).contains {
      word($0 + 1) == "BY"
    }
    let aggregate = ((select + 1)..<from).contains {
      depth[$0] == level && Self.aggregates.contains(word($0)) && word($0 + 1) == "("
    }
    return !group && aggregate && !windows ? "an aggregate without GROUP BY gives one row" : nil
  }

  /// The SELECT whose core holds position `at`, at any depth inside it (`HAVING (count(x) > 2)`).
  func selectHolding(_ at: Int) -> Int? {
    var back = at
    while back >= 0 {
      if word(back) == "SELECT", depth[back] <= depth[at], coreEnd(from: back) > at { return back }
      back -= 1
    }
    return nil
  }

  /// Why an aggregate in the select at `select` never meets an empty set of rows: its select
  /// groups them (`GROUP BY`: each group holds one row at least). Nil when it may (no rows at all).
  func grouped(selectAt select: Int) -> String? {
    let end = coreEnd(from: select)
    let from = self.from(select, end: end)
    let group = positions(of: ["GROUP"], in: from..<end, depth: depth[select]).contains { word($0 + 1) == "BY" }
    return group ? "a group holds one row at least, so the sum is never over no rows" : nil
  }

  /// The statement's main query gives at most one row (for `LIMIT n`, n ≥ 1, added to it).
  func mainQueryOneRow() -> String? {
    guard let select = code.indices.first(where: { depth[$0] == 0 && word($0) == "SELECT" }) else {
      return nil
    }
    return oneRow(selectAt: select)
  }

  /// `count(DISTINCT x)` for `count(x)` (x spans `argument`): equivalent when x is the key of a
  /// table whose rows the core never repeats (every other table joined to it to-one).
  func countDistinct(argument: ClosedRange<Int>, selectAt select: Int?) -> String? {
    guard let select, let reference = columnReference(argument), let read = rowsNeverRepeated(of: reference, selectAt: select) else {
      return nil
    }
    return "\(reference.alias).\(reference.column) is the key of \(read): its values are distinct already"
  }

  /// Whether `reference` is the key of a table whose rows the core at `select` reads at most once
  /// each: the only table, or one every other table joins to through that table's own key (a
  /// reminder and its list: one list per reminder). Says which, for the proof.
  func rowsNeverRepeated(of reference: (alias: String, column: String), selectAt select: Int) -> String? {
    let (tables, _) = tablesByAlias()
    guard let table = tables[reference.alias], column(reference.column, of: table)?.isKey == true,
      let graph = joinGraph(selectAt: select), graph.aliases.contains(reference.alias)
    else { return nil }
    if graph.aliases.count == 1 { return "the only table read" }
    // Every alias reached from this one by to-one joins.
    var reached: Set<String> = [reference.alias]
    var frontier = [reference.alias]
    while let next = frontier.popLast() {
      for edge in graph.toOne where edge.from == next && reached.insert(edge.to).inserted { frontier.append(edge.to) }
    }
    return reached == graph.aliases
      ? "\(reference.alias), and every other table is joined to it through its own key (one match per row)" : nil
  }

  /// The tables of a core and its to-one joins: `A JOIN B ON A.c = B.key` reads at most one B per
  /// A row. Nil when the core's FROM has a comma list or a subquery (not followed here).
  func joinGraph(selectAt select: Int) -> (aliases: Set<String>, toOne: [(from: String, to: String)])? {
    let level = depth[select]
    let end = coreEnd(from: select)
    guard let from = positions(of: ["FROM"], in: (select + 1)..<end, depth: level).first, name(from + 1) != nil, word(from + 2) != "("
    else { return nil }
    let clauseEnd = positions(of: ["WHERE", "GROUP", "HAVING", "WINDOW", "ORDER", "LIMIT"], in: from..<end, depth: level).first ?? end
    if ((from + 1)..<clauseEnd).contains(where: { depth[$0] == level && word($0) == "," }) { return nil }
    let (tables, _) = tablesByAlias()
    func alias(at index: Int) -> String? {
      guard let table = name(index) else { return nil }
      if word(index + 1) == "AS" { return name(index + 2) }
      if let given = name(index + 1),
        !["ON", "JOIN", "LEFT", "INNER", "CROSS", "WHERE", "GROUP", "ORDER", "LIMIT", "USING", "NATURAL"].contains(word(index + 1))
      {
        return given
      }
      return table
    }
    guard let first = alias(at: from + 1) else { return nil }
    var aliases: Set<String> = [first]
    var toOne: [(from: String, to: String)] = []
    for join in positions(of: ["JOIN"], in: from..<clauseEnd, depth: level) {
      guard let joined = alias(at: join + 1), word(join + 2) != "(" else { return nil }
      aliases.insert(joined)
      // The equalities of its ON (joined by AND), each `x.c = y.k`.
      guard let on = ((join + 1)..<clauseEnd).first(where: { depth[$0] == level && word($0) == "ON" }) else { continue }
      let onEnd = ((on + 1)..<clauseEnd).first { depth[$0] == level && ["JOIN", "LEFT", "INNER", "CROSS"].contains(word($0)) } ?? clauseEnd
      if ((on + 1)..<onEnd).contains(where: { word($0) == "OR" }) { continue }
      for sign in ((on + 1)..<onEnd) where word(sign) == "=" || word(sign) == "==" {
        guard let left = columnReference(operand(endingAt: sign - 1, from: on + 1)),
          let right = columnReference(operand(startingAt: sign + 1, before: onEnd))
        else { continue }
        for (a, b) in [(left, right), (right, left)] {
          if let table = tables[b.alias], column(b.column, of: table)?.isKey == true { toOne.append((a.alias, b.alias)) }
        }
      }
    }
    return (aliases, toOne)
  }

  /// The operand before a comparison sign: back to the AND (or the ON) before it, without the
  /// brackets that open before it and close after the sign.
  private func operand(endingAt end: Int, from start: Int) -> ClosedRange<Int> {
    var begin = end
    while begin > start, word(begin - 1) != "AND" { begin -= 1 }
    return balanced(begin...end)
  }

  /// The operand after a comparison sign: up to the AND (or the ON's end) after it.
  private func operand(startingAt start: Int, before end: Int) -> ClosedRange<Int> {
    var last = start
    while last + 1 < end, word(last + 1) != "AND" { last += 1 }
    return balanced(start...last)
  }

  /// A range without the brackets it does not close (or open) itself.
  private func balanced(_ range: ClosedRange<Int>) -> ClosedRange<Int> {
    var lower = range.lowerBound
    var upper = range.upperBound
    while lower < upper {
      let balance = (lower...upper).reduce(0) { $0 + (word($1) == "(" ? 1 : word($1) == ")" ? -1 : 0) }
      if balance > 0, word(lower) == "(" {
        lower += 1
      } else if balance < 0, word(upper) == ")" {
        upper -= 1
      } else {
        break
      }
    }
    return lower...upper
  }

  /// The SELECT whose core holds position `at` (same depth, before it).
  func enclosingSelect(_ at: Int) -> Int? {
    var back = at
    while back >= 0 {
      if depth[back] < depth[at] { return nil }
      if depth[back] == depth[at], word(back) == "SELECT" { return back }
      back -= 1
    }
    return nil
  }

  /// Table names by the name or alias a statement gives them (`"employees" AS "managers"`), and the
  /// names on the right of a LEFT JOIN (their columns may be NULL).
  func tablesByAlias() -> (tables: [String: String], optional: Set<String>) { aliases }

  private func readAliases() -> (tables: [String: String], optional: Set<String>) {
    var tables: [String: String] = [:]
    var optional: Set<String> = []
    let keywords: Set<String> = [
      "ON", "WHERE", "JOIN", "LEFT", "INNER", "CROSS", "NATURAL", "GROUP", "ORDER", "LIMIT",
      "USING", "AS", ",", ")", ";", "HAVING", "WINDOW", "UNION",
    ]
    for at in code.indices
    where ["FROM", "JOIN"].contains(word(at)) || (word(at) == "," && tablesList(at)) {
      guard let table = name(at + 1), word(at + 2) != "(" else { continue }
      var alias = table
      if word(at + 2) == "AS", let given = name(at + 3) {
        alias = given
      } else if let given = name(at + 2), !keywords.contains(word(at + 2)) {
        alias = given
      }
      tables[alias] = table
      if word(at) == "JOIN", ["LEFT", "OUTER", "RIGHT", "FULL"].contains(word(at - 1)) {
        optional.insert(alias)
      }
    }
    return (tables, optional)
  }

  /// Whether a comma at `at` separates tables of a FROM list.
  func tablesList(_ at: Int) -> Bool {
    var back = at - 1
    while back >= 0 {
      if depth[back] == depth[at] {
        if word(back) == "FROM" { return true }
        if ["SELECT", "WHERE", "ON", "GROUP", "ORDER", "SET", "VALUES", "BY"].contains(word(back)) {
          return false
        }
      }
      back -= 1
    }
    return false
  }

  /// `"t"."c"` (or `("t"."c")`) spanning `range` exactly: the alias and the column.
  func columnReference(_ range: ClosedRange<Int>) -> (alias: String, column: String)? {
    var lower = range.lowerBound
    var upper = range.upperBound
    while word(lower) == "(", word(upper) == ")", upper - lower > 2 {
      lower += 1
      upper -= 1
    }
    guard upper - lower == 2, word(lower + 1) == ".", let alias = name(lower),
      let column = name(upper)
    else { return nil }
    return (alias, column)
  }

  /// Column facts of a table: NOT NULL (or the INTEGER PRIMARY KEY), and the parent it refers to.
  func column(_ column: String, of table: String) -> (notNull: Bool, isKey: Bool, parent: String?)? {
    guard let database,
      let info = try? database.rows(
        "SELECT name, \"notnull\", pk, type FROM pragma_table_info(?)", bindings: [.text(table)]),
      let row = info.first(where: { $0[0].textValue?.lowercased() == column })
    else { return nil }
    let isKey =
      ValueVariation.integer(row[2]) == 1
      && info.filter({ ValueVariation.integer($0[2]) ?? 0 > 0 }).count == 1
      && row[3].textValue?.uppercased() == "INTEGER"
    let keys =
      (try? database.rows(
        "SELECT \"from\", \"table\" FROM pragma_foreign_key_list(?)", bindings: [.text(table)]))
      ?? []
    let parent = keys.first { $0[0].textValue?.lowercased() == column }?[1].textValue?.lowercased()
    return (ValueVariation.integer(row[1]) == 1 || isKey, isKey, parent)
  }

  /// `count(x)` → `count(*)` (x spans `argument`): equivalent when x is a column that is never NULL.
  func countStar(argument: ClosedRange<Int>) -> String? {
    guard let reference = columnReference(argument) else { return nil }
    let (tables, optional) = tablesByAlias()
    guard let table = tables[reference.alias], !optional.contains(reference.alias),
      let facts = column(reference.column, of: table), facts.notNull
    else { return nil }
    return
      "\(reference.alias).\(reference.column) is never NULL (\(facts.isKey ? "the INTEGER PRIMARY KEY" : "NOT NULL")) and no outer join makes it optional: count(x) counts every row"
  }

  /// `JOIN` → `LEFT JOIN` at `join`: equivalent when every row on the left has its match: the
  /// join reads a parent through a NOT NULL foreign key of a table joined without an outer join.
  func leftJoin(at join: Int) -> String? {
    guard
      database.map({ (try? $0.rows("PRAGMA foreign_keys"))?.first?.first == .integer(1) }) == true,
      let parent = name(join + 1)
    else { return nil }
    var on = join + 2
    var alias = parent
    if word(on) == "AS", let given = name(on + 1) {
      alias = given
      on += 2
    } else if word(on) != "ON", let given = name(on) {
      alias = given
      on += 1
    }
    guard word(on) == "ON" else { return nil }
    let level = depth[join]
    let stops: Set<String> = [
      "JOIN", "LEFT", "INNER", "CROSS", "WHERE", "GROUP", "ORDER", "LIMIT", "HAVING", "WINDOW",
      "UNION", "INTERSECT", "EXCEPT", ";",
    ]
    var end = on + 1
    while end < code.count, depth[end] >= level, !(depth[end] == level && stops.contains(word(end))) { end += 1 }
    // One equality at the top of the condition.
    let equals = ((on + 1)..<end).filter { word($0) == "=" || word($0) == "==" }
    guard equals.count == 1, let sign = equals.first,
      !((on + 1)..<end).contains(where: { ["AND", "OR"].contains(word($0)) }),
      sign > on + 1, sign < end - 1,
      let left = columnReference((on + 1)...(sign - 1)),
      let right = columnReference((sign + 1)...(end - 1))
    else { return nil }
    let (tables, optional) = tablesByAlias()
    let (key, child) = left.alias == alias ? (left, right) : (right, left)
    guard key.alias == alias, child.alias != alias, !optional.contains(child.alias),
      let childTable = tables[child.alias],
      column(key.column, of: parent)?.isKey == true,
      let facts = column(child.column, of: childTable), facts.notNull,
      facts.parent == parent.lowercased()
    else { return nil }
    return
      "every \(child.alias) row has its \(alias): \(child.column) is a NOT NULL foreign key to \(parent), so no row lacks a match"
  }
}
