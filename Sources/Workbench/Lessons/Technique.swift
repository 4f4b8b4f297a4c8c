import QuarryDSL

/// What an exercise teaches, declared on its solution (` ```solution teaches=view `), and how the
/// checker sees that an answer used it: on the statements SQLite compiled, the query plans, what
/// the authorizer saw, the Swift features the compiler resolved — never the answer's text.
/// One table: the lesson format, the lint, the checker's messages and `lessons/README.md` read it.
///
/// ```
/// ```solution teaches=window
/// Employee.select { ($0.name, $0.salary.sum().over { $0.order(by: $0.hiredOn) }) }
/// ```
/// // An answer with a correlated subquery gets the same rows, and is told:
/// // "right rows, but this exercise is about a window function (OVER): none of your statements computes one"
/// ```
struct Technique: Sendable {
  /// The name an exercise declares (`window`, `function:group_concat`).
  var name: String
  /// What the exercise is about, for the message: "a window function (OVER)".
  var about: String
  /// What an answer without it lacks: "none of your statements computes one".
  var missing: String
  /// Whether it is seen on the Swift side only (a scope, a @Selection): the same SQL, run
  /// plainly, then skips it.
  var swiftSide = false
  var isUsed: @Sendable (AnswerEvidence, _ argument: String?) -> Bool

  /// Every technique, by name. `none` declares that the rows alone decide.
  static let all: [Technique] = [
    Technique(name: "none", about: "", missing: "") { _, _ in true },
    Technique(name: "view", about: "a view", missing: "no query read its rows through a view") { evidence, _ in
      evidence.accesses.contains { access in
        access.action == .read && [access.object, access.context].contains { $0.map { evidence.views.contains($0.lowercased()) } == true }
      } && evidence.statements.contains { AnswerEvidence.readsView($0.sql, views: evidence.views) }
    },
    Technique(name: "trigger", about: "a trigger", missing: "no statement fired a trigger") { evidence, _ in
      evidence.accesses.contains { $0.context.map { evidence.triggers.contains($0.lowercased()) } == true }
    },
    Technique(name: "fts", about: "full-text search (MATCH)", missing: "no query searched a full-text index with MATCH") { evidence, _ in
      evidence.statements.contains { $0.plan.contains { TextPattern(#"VIRTUAL TABLE INDEX \d+:[^ ]*M"#)?.contains(in: $0) == true } }
        || evidence.functions.contains("match")
    },
    Technique(name: "window", about: "a window function (OVER)", missing: "none of your statements computes one") { evidence, _ in
      evidence.statements.contains { $0.opcodes.contains("AggValue") }
    },
    Technique(name: "distinct", about: "DISTINCT", missing: "none of your queries removes duplicates with DISTINCT (distinct())") {
      evidence, _ in
      evidence.hasKeyword("DISTINCT")
    },
    Technique(
      name: "cte", about: "a common table expression (WITH)",
      missing: "none of your statements starts with WITH (With { … } query: { … }) and reads what its CTEs compute"
    ) { evidence, _ in
      evidence.statements.contains { $0.keywords.first == "WITH" && CommonTableExpressions(sql: $0.sql).doTheWork }
    },
    Technique(name: "recursive-cte", about: "a recursive CTE", missing: "no CTE of yours refers to itself (WITH RECURSIVE)") {
      evidence, _ in
      evidence.accesses.contains { $0.action == .recursive }
    },
    Technique(name: "compound", about: "a compound select (UNION, INTERSECT, EXCEPT)", missing: "none of your queries combines two selects")
    { evidence, _ in
      ["UNION", "INTERSECT", "EXCEPT"].contains { evidence.hasKeyword($0) }
    },
    Technique(name: "case", about: "CASE", missing: "none of your queries has a CASE expression (Case(…))") { evidence, _ in
      evidence.hasKeyword("CASE") || evidence.functions.contains("iif")
    },
    Technique(name: "subquery", about: "a subquery", missing: "none of your queries has a query inside it") { evidence, _ in
      evidence.hasKeywords(["(", "SELECT"]) || evidence.hasKeywords(["(", "WITH"])
    },
    Technique(
      name: "join", about: "a join",
      missing: "none of your queries joins two tables (a subquery reads another table without joining it: use join(…) or JOIN … ON)"
    ) { evidence, _ in
      evidence.statements.contains { !$0.joins.isEmpty }
    },
    Technique(
      name: "self-join", about: "a table joined to itself",
      missing:
        "none of your queries joins a table to itself (an alias: Employee.all.as(Manager.self), or FROM employees AS e JOIN employees AS m)"
    ) { evidence, _ in
      evidence.statements.contains { $0.joins.contains { Set($0).count < $0.count } }
    },
    Technique(name: "outer-join", about: "an outer join", missing: "none of your queries keeps unmatched rows with a LEFT JOIN (leftJoin)")
    { evidence, _ in
      ["LEFT", "RIGHT", "FULL"].contains { evidence.hasKeywords([$0, "JOIN"]) || evidence.hasKeywords([$0, "OUTER"]) }
    },
    Technique(name: "exists", about: "EXISTS", missing: "none of your queries asks EXISTS (…)") { evidence, _ in
      evidence.hasKeyword("EXISTS")
    },
    Technique(name: "aggregate", about: "an aggregate (count, sum, max…)", missing: "none of your queries aggregates rows") { evidence, _ in
      evidence.statements.contains { !$0.opcodes.isDisjoint(with: ["AggStep", "AggStep1", "Count"]) }
    },
    Technique(name: "group-by", about: "grouping (GROUP BY)", missing: "none of your queries groups its rows (group(by:))") { evidence, _ in
      evidence.hasKeywords(["GROUP", "BY"])
    },
    Technique(name: "having", about: "HAVING", missing: "none of your queries filters groups with HAVING (having)") { evidence, _ in
      evidence.hasKeyword("HAVING")
    },
    Technique(name: "function", about: "the SQL function", missing: "none of your queries calls it") { evidence, argument in
      guard let argument else { return false }
      return argument.lowercased().split(separator: "|").contains { evidence.functions.contains(String($0)) }
    },
    Technique(
      name: "upsert", about: "an upsert (ON CONFLICT … DO UPDATE)",
      missing: "no insert of yours updates the row it conflicts with (onConflict: … doUpdate:)"
    ) { evidence, _ in
      evidence.hasKeywords(["DO", "UPDATE"])
    },
    Technique(name: "transaction", about: "a transaction", missing: "you opened no transaction (BEGIN, SAVEPOINT, or database.write { … })")
    { evidence, _ in
      evidence.opensTransaction
    },
    Technique(
      name: "rollback", about: "undoing a transaction",
      missing: "no transaction of yours undid a change (BEGIN, then a write, then ROLLBACK)"
    ) { evidence, _ in
      evidence.opensTransaction && evidence.rollsBack
    },
    Technique(name: "check-constraint", about: "a CHECK constraint", missing: "no table you created refuses a row by a CHECK constraint") {
      evidence, _ in
      evidence.refusesByCheck
    },
    Technique(name: "index-used", about: "an index the query plan uses", missing: "no query plan of yours uses an index you created") {
      evidence, _ in
      evidence.statements.contains { statement in
        statement.plan.contains { line in
          evidence.createdIndexes.contains { line.lowercased().contains("index \($0)") }
        }
      }
    },
    Technique(
      name: "migration", about: "a migration",
      missing: "no migration of yours ran (migrator.registerMigration(…) { db in … }, then migrator.migrate(database))", swiftSide: true
    ) { evidence, _ in
      evidence.features.contains { if case .migration = $0 { return true } else { return false } }
    },
    Technique(
      name: "scope", about: "a scope of your own",
      missing:
        "no query of yours used a scope or Where extension you declared (the fixture's own, such as Reminder.incomplete, are not yours)",
      swiftSide: true
    ) { evidence, _ in
      evidence.ownDeclarations.contains(.scope)
    },
    Technique(
      name: "computed-column", about: "a computed column (extension …TableColumns)",
      missing: "no query of yours used one you declared (the fixture's own, such as isHighPriority, are not yours)", swiftSide: true
    ) { evidence, _ in
      evidence.ownDeclarations.contains(.computedColumn)
    },
    Technique(
      name: "selection", about: "a @Selection type", missing: "no query of yours selected into a @Selection's Columns", swiftSide: true
    ) { evidence, _ in
      evidence.features.contains { if case .selection = $0 { return true } else { return false } }
    },
    Technique(
      name: "enum-case", about: "a @CasePathable enum column", missing: "no query of yours read a case of one ($0.kind.link)",
      swiftSide: true
    ) { evidence, _ in
      evidence.features.contains { if case .enumCase = $0 { return true } else { return false } }
    },
    Technique(
      name: "fetch-wrapper", about: "a fetch property wrapper (@FetchAll, @FetchOne)", missing: "your answer declares none", swiftSide: true
    ) { evidence, argument in
      evidence.features.contains { feature in
        guard case .fetchWrapper(let name) = feature else { return false }
        return argument.map { $0.split(separator: "|").contains(Substring(name)) } ?? true
      }
    },
    Technique(name: "database-function", about: "a @DatabaseFunction of your own", missing: "no query of yours calls one") { evidence, _ in
      evidence.features.contains { if case .databaseFunction = $0 { return true } else { return false } }
        || !evidence.functions.isDisjoint(with: evidence.userFunctions)
    },
    Technique(
      name: "bound-sql", about: "#sql with a bound value",
      missing: "no #sql of yours binds an interpolated value (\\(value), not \\(raw: value) or a literal in the text)", swiftSide: true
    ) { evidence, _ in
      evidence.features.contains(.boundInterpolation) && !evidence.features.contains(.rawSplice)
        && evidence.statements.contains { $0.returnsRows && $0.bindings > 0 }
    },
  ]

  /// Techniques seen in one statement: checked on the statement that answers.
  static let statementLevel: Set<String> = [
    "view", "window", "distinct", "cte", "recursive-cte", "compound", "case", "subquery", "join", "self-join", "outer-join", "exists",
    "aggregate", "group-by", "having",
  ]

  static let byName: [String: Technique] = Dictionary(all.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })

  /// A declaration split into its alternatives (`exists/outer-join`: either one), each a
  /// technique and its argument (`function:group_concat|string_agg`); nil when a name is unknown.
  static func alternatives(_ declaration: String) -> [(technique: Technique, argument: String?)]? {
    var out: [(technique: Technique, argument: String?)] = []
    for alternative in declaration.split(separator: "/") {
      let parts = alternative.split(separator: ":", maxSplits: 1).map(String.init)
      guard let name = parts.first, let technique = byName[name] else { return nil }
      let argument = parts.count > 1 ? parts[1] : nil
      if name == "function", argument == nil { return nil }
      out.append((technique, argument))
    }
    return out.isEmpty ? nil : out
  }

  /// Why an answer whose rows are right does not pass, or nil when it uses what the exercise
  /// teaches: "right rows, but this exercise is about a view: no query read its rows through a view".
  ///
  /// For an answer whose rows are compared (not a write), a technique of one statement (a CTE, a
  /// window, a join…) must be in the statement whose rows those are: an unused CTE in another
  /// statement, a view made and not read, does not count.
  static func shortfall(of evidence: AnswerEvidence, declared: [String], comparesRows: Bool = false) -> String? {
    let answering = comparesRows ? evidence.answering : evidence
    for declaration in declared {
      guard let alternatives = alternatives(declaration), let (technique, argument) = alternatives.first,
        !alternatives.contains(where: {
          $0.technique.isUsed(statementLevel.contains($0.technique.name) ? answering : evidence, $0.argument)
        })
      else { continue }
      let about = technique.name == "function" ? "the SQL function \((argument ?? "").replacing("|", with: " or "))" : technique.about
      return "right result, but this exercise is about \(about): \(technique.missing)"
    }
    return nil
  }
}

extension Exercise {
  /// Whether what the exercise teaches is seen on the Swift side only (a scope, a @Selection, a
  /// bound `#sql` value): its answer in plain SQL then gets the right rows without it.
  public var teachesSwiftSide: Bool {
    taught.contains { $0.swiftSide }
  }

  /// Every technique the exercise names, alternatives included.
  var taught: [Technique] {
    techniques.flatMap { Technique.alternatives($0)?.map(\.technique) ?? [] }
  }
}

/// The CTEs of one `WITH` statement, and whether they do the work: each is read after it is
/// defined (by a later CTE or the main query), and the main query reads one.
///
/// ```swift
/// CommonTableExpressions(sql: "WITH t AS (SELECT 1) SELECT * FROM orders").doTheWork  // false: t is never read
/// ```
struct CommonTableExpressions {
  var names: [String] = []
  /// Whether each CTE is read after its definition, and the main query reads at least one.
  var doTheWork = false

  init(sql: String) {
    let tokens = SQLMutants.tokens(sql).filter { $0.kind != .space }
    var index = 0
    guard index < tokens.count, tokens[index].upper == "WITH" else { return }
    index += 1
    if index < tokens.count, tokens[index].upper == "RECURSIVE" { index += 1 }
    // name [(columns)] AS [NOT] [MATERIALIZED] ( body ) [, …]
    var bodies: [Range<Int>] = []
    while index < tokens.count, let cte = tokens[index].name {
      names.append(cte)
      index += 1
      if index < tokens.count, tokens[index].text == "(" { index = Self.after(index, in: tokens) }
      while index < tokens.count, ["AS", "NOT", "MATERIALIZED"].contains(tokens[index].upper) { index += 1 }
      guard index < tokens.count, tokens[index].text == "(" else { return }
      let end = Self.after(index, in: tokens)
      bodies.append(index..<end)
      index = end
      guard index < tokens.count, tokens[index].text == "," else { break }
      index += 1
    }
    let main = index..<tokens.count
    func reads(_ cte: String, in range: Range<Int>) -> Bool {
      range.contains { tokens[$0].name == cte }
    }
    let everyOneRead = names.enumerated().allSatisfy { position, cte in
      // Read by itself (recursive), a later CTE, or the main query.
      bodies[position...].contains { reads(cte, in: $0) } || reads(cte, in: main)
    }
    doTheWork = !names.isEmpty && everyOneRead && names.contains { reads($0, in: main) }
  }

  /// The index after the bracket that opens at `open`.
  static func after(_ open: Int, in tokens: [SQLMutants.Token]) -> Int {
    var depth = 0
    var index = open
    while index < tokens.count {
      if tokens[index].text == "(" { depth += 1 }
      if tokens[index].text == ")" {
        depth -= 1
        if depth == 0 { return index + 1 }
      }
      index += 1
    }
    return tokens.count
  }
}
