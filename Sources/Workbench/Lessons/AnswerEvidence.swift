import QuarryDSL
import QuarryEngine
import QueryBuilder

/// What an answer did besides its rows, as the lesson checker sees it: each statement as SQLite
/// compiled it (its program, plan and keywords), what SQLite's authorizer saw while preparing
/// them (tables read through views and triggers, functions, transactions), the Swift features
/// the DSL compiler resolved, and the schema afterwards. A technique is checked on these, never
/// by searching the answer's text.
///
/// ```swift
/// // CREATE VIEW big AS SELECT * FROM orders WHERE total > 100; SELECT id FROM big
/// evidence.accesses.contains { $0.action == .read && $0.context == "big" }  // read through the view
/// ```
struct AnswerEvidence {
  /// One statement the answer ran, as compiled.
  struct StatementFacts {
    var sql: String
    var bindings: Int
    /// The SQL with its bound values written in as literals.
    var inlinedSQL: String
    var returnsRows: Bool
    /// `EXPLAIN QUERY PLAN` lines (of the query itself for an `EXPLAIN QUERY PLAN …` statement).
    var plan: [String] = []
    /// The opcodes of its program (`EXPLAIN`): `AggValue` computes a window function.
    var opcodes: Set<String> = []
    /// Each table its cursors open, with how many cursors: two for a table joined to itself.
    var openedTables: [String: Int] = [:]
    /// Its SQL's keywords, upper-cased, in order (strings, quoted names and comments left out).
    var keywords: [String] = []
    /// The tables each join of it reads, one list per join: the loops its plan nests in one
    /// query (siblings under one node), each named by its table, not its alias. A subquery's
    /// table is a loop of the subquery, not of a join: `SELECT e.name, (SELECT name FROM
    /// employees WHERE id = e.managerID) FROM employees e` reads `employees` twice and joins
    /// nothing.
    ///
    /// ```
    /// SELECT e.name, m.name FROM employees e JOIN employees m ON m.id = e.managerID
    /// // plan: SCAN e, SEARCH m USING INTEGER PRIMARY KEY — joins: [["employees", "employees"]]
    /// ```
    var joins: [[String]] = []
  }

  var statements: [StatementFacts] = []
  var accesses: [AccessLog.Access] = []
  var features: Set<LanguageFeature> = []
  /// What each fetch property wrapper holds until its query loads, in order (``Compiler/fetchStartValues``).
  var fetchStartValues: [String] = []
  /// The kinds of declaration (scope, computed column) the answer used one of its own of: declared
  /// in the answer or at the prompt before it, not by the fixture's models.
  var ownDeclarations: Set<Compiler.DeclarationKind> = []
  /// Views and triggers after the answer (main and temp schema), lower-cased.
  var views: Set<String> = []
  var triggers: Set<String> = []
  /// Indexes the answer created, lower-cased.
  var createdIndexes: Set<String> = []
  /// Functions the connection has that SQLite does not build in (`@DatabaseFunction`s), lower-cased.
  var userFunctions: Set<String> = []
  /// Whether a table the answer created refused a row by a CHECK constraint (``ConstraintProbes``).
  var refusesByCheck = false

  /// The facts of one statement, read from the connection it is about to run on; its plan and
  /// program only when `explaining` (they are the same on every dataset: one run reads them).
  static func facts(of sql: String, bindings: [QueryBinding], returnsRows: Bool, explaining: Bool, in database: Database) -> StatementFacts
  {
    var facts = StatementFacts(sql: sql, bindings: bindings.count, inlinedSQL: inlining(bindings, into: sql), returnsRows: returnsRows)
    facts.keywords = keywords(of: sql)
    let explained =
      facts.keywords.starts(with: ["EXPLAIN", "QUERY", "PLAN"]) ? planTarget(of: sql) : facts.keywords.first == "EXPLAIN" ? nil : sql
    guard explaining, let query = explained else { return facts }
    let plan = (try? database.rows("EXPLAIN QUERY PLAN " + query)) ?? []
    facts.plan = plan.compactMap { $0.last?.textValue }
    facts.joins = joins(in: plan, of: query, database: database)
    if let program = database.program(of: query) {
      facts.opcodes = program.opcodes
      facts.openedTables = program.openedTables
    }
    return facts
  }

  /// The joins of a plan (rows of `EXPLAIN QUERY PLAN`: id, parent, 0, detail): the `SCAN x` and
  /// `SEARCH x …` rows under one parent, when there are two or more, each `x` read as the table
  /// it names (an alias resolved through the SQL: `employees AS m`, `"employees" AS "managers"`).
  static func joins(in plan: [[DatabaseValue]], of sql: String, database: Database) -> [[String]] {
    let tables = Set(
      ((try? database.rows("SELECT lower(name) FROM sqlite_schema WHERE type IN ('table', 'view')")) ?? []).compactMap {
        $0.first?.textValue
      })
    var loops: [Int64: [String]] = [:]
    for row in plan where row.count == 4 {
      guard case .integer(let parent) = row[1], let detail = row[3].textValue else { continue }
      let words = detail.split(separator: " ", maxSplits: 2)
      guard words.count >= 2, words[0] == "SCAN" || words[0] == "SEARCH", words[1] != "CONSTANT" else { continue }
      loops[parent, default: []].append(table(named: String(words[1]), in: sql, tables: tables))
    }
    return loops.keys.sorted().compactMap { loops[$0] }.filter { $0.count >= 2 }
  }

  /// The table a plan's name stands for: itself when the schema has it, else what the SQL aliases
  /// by it (`FROM employees e`, `JOIN "employees" AS "managers"`), else the name (a CTE).
  private static func table(named name: String, in sql: String, tables: Set<String>) -> String {
    let lower = name.lowercased()
    if tables.contains(lower) { return lower }
    let keywords: Set<String> = [
      "join", "from", "on", "where", "select", "and", "or", "not", "by", "as", "cross", "inner", "outer", "left", "right",
    ]
    // `name alias` or `name AS alias`, read off the tokens (no pattern to compile per name).
    let words = SQLMutants.tokens(sql).filter { $0.kind != .space }
    var candidates: [String] = []
    for (index, token) in words.enumerated() where token.name == lower && index > 0 {
      var before = index - 1
      if words[before].upper == "AS", before > 0 { before -= 1 }
      if let table = words[before].name, !keywords.contains(table) { candidates.append(table) }
    }
    // A table of the schema first; then a CTE's name (`FROM chain AS a JOIN chain AS b`).
    return candidates.first(where: tables.contains) ?? candidates.first ?? lower
  }

  /// SQL with each `?` outside strings and quoted names replaced by its value, in order.
  static func inlining(_ bindings: [QueryBinding], into sql: String) -> String {
    guard !bindings.isEmpty else { return sql }
    var out = ""
    var next = bindings[...]
    var quote: Character?
    for character in sql {
      if let open = quote {
        if character == open { quote = nil }
      } else if "'\"`".contains(character) {
        quote = character
      } else if character == "?", let value = next.popFirst() {
        out += value.inlineSQL
        continue
      }
      out.append(character)
    }
    return out
  }

  /// The query after `EXPLAIN QUERY PLAN` (its three words, in any case and spacing).
  static func planTarget(of sql: String) -> String? {
    var rest = Substring(sql)
    for word in ["EXPLAIN", "QUERY", "PLAN"] {
      rest = rest.drop { $0.isWhitespace }
      guard rest.prefix(word.count).uppercased() == word else { return nil }
      rest = rest.dropFirst(word.count)
    }
    return String(rest)
  }

  /// The upper-cased words of SQL outside strings, quoted names and comments, and `(` and `)` as
  /// words of their own (so `( SELECT` shows a subquery, and nesting can be followed).
  static func keywords(of sql: String) -> [String] {
    var words: [String] = []
    var word = ""
    var index = sql.startIndex
    func flush() {
      if !word.isEmpty { words.append(word.uppercased()) }
      word = ""
    }
    while index < sql.endIndex {
      let character = sql[index]
      if character.isLetter || character == "_" || (!word.isEmpty && character.isNumber) {
        word.append(character)
        index = sql.index(after: index)
        continue
      }
      flush()
      switch character {
      case "'", "\"", "`", "[":
        let close: Character = character == "[" ? "]" : character
        index = sql[sql.index(after: index)...].firstIndex(of: close).map { sql.index(after: $0) } ?? sql.endIndex
        continue
      case "-" where sql[index...].hasPrefix("--"):
        index = sql[index...].firstIndex(of: "\n") ?? sql.endIndex
        continue
      case "/" where sql[index...].hasPrefix("/*"):
        index = sql[index...].firstRange(of: "*/")?.upperBound ?? sql.endIndex
        continue
      case "(", ")":
        words.append(String(character))
      default:
        break
      }
      index = sql.index(after: index)
    }
    flush()
    return words
  }

  /// The evidence of the statement whose rows are compared: the last that returned rows (all of
  /// them when none did).
  /// A view it reads counts with it: the statement that created the view is part of the answer.
  var answering: AnswerEvidence {
    guard let last = statements.last(where: \.returnsRows) else { return self }
    let names = Set(SQLMutants.tokens(last.sql).compactMap(\.name))
    let views = statements.filter { statement in
      guard statement.keywords.first == "CREATE", statement.keywords.contains("VIEW") else { return false }
      // CREATE [TEMP] VIEW [IF NOT EXISTS] name: the first name after VIEW.
      let tokens = SQLMutants.tokens(statement.sql).filter { $0.name != nil }
      guard let at = tokens.firstIndex(where: { $0.upper == "VIEW" }),
        let view = tokens.dropFirst(at + 1).first(where: { !["IF", "NOT", "EXISTS"].contains($0.upper) })
      else { return false }
      return view.name.map(names.contains) ?? false
    }
    var copy = self
    copy.statements = views + [last]
    return copy
  }

  /// Whether the statement that answers names one of `objects` (a view, a table), quoted or not.
  /// Whether a statement reads one of `views` (lower-cased names) as a table: its name after
  /// FROM, JOIN or a comma (`main.` before it or not), and no common table or subquery of that
  /// name hiding it — SQLite reports what a subquery aliased `orderLines` reads as read through
  /// `orderLines`, as it does for the view.
  ///
  /// ```swift
  /// AnswerEvidence.readsView("SELECT product FROM orderLines", views: ["orderlines"])                  // true
  /// AnswerEvidence.readsView("SELECT product FROM (SELECT …) AS orderLines", views: ["orderlines"])    // false
  /// AnswerEvidence.readsView("WITH orderLines AS (SELECT …) SELECT * FROM orderLines", views: ["orderlines"])  // false
  /// ```
  static func readsView(_ sql: String, views: Set<String>) -> Bool {
    let tokens = SQLMutants.tokens(sql).filter { $0.kind != .space }
    func upper(_ index: Int) -> String { tokens.indices.contains(index) ? tokens[index].upper : "" }
    // A common table of a view's name: `name AS (`, or `name (columns) AS (` after WITH or a comma.
    let hidden = Set(
      tokens.indices.compactMap { index -> String? in
        guard let name = tokens[index].name, views.contains(name) else { return nil }
        if upper(index + 1) == "AS", upper(index + 2) == "(" { return name }
        if upper(index + 1) == "(", ["WITH", "RECURSIVE", ","].contains(upper(index - 1)) { return name }
        return nil
      })
    return tokens.indices.contains { index in
      guard let name = tokens[index].name, views.contains(name), !hidden.contains(name) else { return false }
      var before = index - 1
      if upper(before) == ".", tokens.indices.contains(before - 1), ["main", "temp"].contains(tokens[before - 1].name) { before -= 2 }
      return ["FROM", "JOIN", ","].contains(upper(before)) && upper(index + 1) != "("
    }
  }

  func answerReads(any objects: Set<String>) -> Bool {
    guard let last = statements.last(where: \.returnsRows) else { return false }
    return SQLMutants.tokens(last.sql).contains { $0.name.map(objects.contains) ?? false }
  }

  /// Whether two words follow each other in some statement (`DO UPDATE`, `LEFT JOIN`).
  func hasKeywords(_ sequence: [String]) -> Bool {
    statements.contains { statement in
      let words = statement.keywords
      guard words.count >= sequence.count else { return false }
      return (0...(words.count - sequence.count)).contains { Array(words[$0..<($0 + sequence.count)]) == sequence }
    }
  }

  func hasKeyword(_ word: String) -> Bool { statements.contains { $0.keywords.contains(word) } }

  /// Functions the answer's statements call, lower-cased.
  var functions: Set<String> {
    Set(accesses.filter { $0.action == .function }.compactMap { $0.object?.lowercased() })
  }

  /// Whether the answer opened a transaction or a savepoint of its own (not Quarry's, which are
  /// named `quarry_…`), or wrote a `database.write { … }` block.
  var opensTransaction: Bool {
    features.contains(.writeBlock)
      || accesses.contains { access in
        (access.action == .transaction && access.object == "BEGIN")
          || (access.action == .savepoint && access.object == "BEGIN" && !(access.detail ?? "").lowercased().hasPrefix("quarry_"))
      }
  }

  /// Whether a transaction of the answer's was rolled back after it changed something: a write
  /// between a BEGIN (or SAVEPOINT) and the ROLLBACK (`BEGIN; ROLLBACK;` undoes nothing).
  var rollsBack: Bool {
    if features.contains(.thrownInTransaction) { return true }
    guard
      accesses.contains(where: { access in
        (access.action == .transaction && access.object == "ROLLBACK")
          || (access.action == .savepoint && access.object == "ROLLBACK" && !(access.detail ?? "").lowercased().hasPrefix("quarry_"))
      })
    else { return false }
    var open = false
    var wrote = false
    for statement in statements {
      switch statement.keywords.first {
      case "BEGIN", "SAVEPOINT": open = true
      case "WITH" where statement.returnsRows: break  // a query
      case "INSERT", "UPDATE", "DELETE", "REPLACE", "WITH", "CREATE", "DROP", "ALTER": wrote = wrote || open
      case "ROLLBACK": if open, wrote { return true }
      case "COMMIT", "END":
        open = false
        wrote = false
      default: break
      }
    }
    // Statements a DSL unit ran without these words (a `database.write` block): trust the access log.
    return !statements.contains { $0.keywords.first == "ROLLBACK" }
  }

  /// Whether the rows the answer shows were read before a later ROLLBACK undid what they count.
  var rowsReadBeforeRollback: Bool {
    guard let last = statements.lastIndex(where: \.returnsRows) else { return false }
    return statements[(last + 1)...].contains { $0.keywords.first == "ROLLBACK" }
  }

  /// The names of schema objects of a type, main and temp, lower-cased.
  static func names(ofType type: String, in database: Database) -> Set<String> {
    let rows =
      (try? database.rows(
        "SELECT name FROM sqlite_schema WHERE type = ?1 UNION ALL SELECT name FROM sqlite_temp_schema WHERE type = ?1",
        bindings: [.text(type)])) ?? []
    return Set(rows.compactMap { $0.first?.textValue?.lowercased() })
  }

  static func userFunctions(in database: Database) -> Set<String> {
    database.functionNames
  }
}
