/// Reads one SQL statement into an ``SQLStatement``: SELECT (joins, grouping, ordering, limits),
/// INSERT, UPDATE and DELETE, with SQLite's operator precedence. What it does not read yet (a
/// `WITH`, a compound select, a window) is an ``SQLTreeError`` naming that construct.
///
/// ```swift
/// try SQLTreeParser.parse("SELECT count(*) FROM reminders WHERE priority >= 2")
/// // .select(… columns: [count(*)], where: .binary(">=", priority, 2))
/// ```
struct SQLTreeParser {
  private struct Located {
    var token: SQLMutants.Token
    var offset: Int
  }

  private let tokens: [Located]
  private var index = 0
  /// The numbers SQLite gives the statement's parameters: `?` the next, `?3` three, a named one
  /// (`:id`) the next on its first use and the same after.
  private var parameterNumbers: [String: Int] = [:]
  private var highestParameter = 0
  private let length: Int

  private init(_ sql: String) {
    var located: [Located] = []
    var offset = 0
    for token in SQLMutants.tokens(sql) {
      if token.kind != .space { located.append(Located(token: token, offset: offset)) }
      offset += token.text.count
    }
    tokens = located
    length = offset
  }

  static func parse(_ sql: String) throws(SQLTreeError) -> SQLStatement {
    var parser = SQLTreeParser(sql)
    let statement = try parser.statement()
    while parser.isSymbol(";") { parser.index += 1 }
    if parser.index < parser.tokens.count {
      throw parser.error("only one statement is read here; this is more: '\(parser.tokens[parser.index].token.text)'")
    }
    return statement
  }

  // MARK: Tokens

  private var offset: Int { index < tokens.count ? tokens[index].offset : length }

  private func error(_ message: String) -> SQLTreeError { SQLTreeError(message: message, offset: offset) }

  private func unsupported(_ construct: String) -> SQLTreeError {
    SQLTreeError(message: "\(construct) has no DSL spelling here yet", offset: offset)
  }

  private func word(_ ahead: Int = 0) -> String? {
    let at = index + ahead
    guard at < tokens.count, tokens[at].token.kind == .word else { return nil }
    return tokens[at].token.upper
  }

  private func isWord(_ text: String, _ ahead: Int = 0) -> Bool { word(ahead) == text }

  private func isSymbol(_ text: String, _ ahead: Int = 0) -> Bool {
    let at = index + ahead
    return at < tokens.count && tokens[at].token.kind == .symbol && tokens[at].token.text == text
  }

  private mutating func take(_ text: String) -> Bool {
    if isWord(text) || isSymbol(text) {
      index += 1
      return true
    }
    return false
  }

  private mutating func expect(_ text: String) throws(SQLTreeError) {
    guard take(text) else {
      throw error("expected \(text) here" + (index < tokens.count ? ", not '\(tokens[index].token.text)'" : ", at the end"))
    }
  }

  /// Words that end a clause (never an alias).
  private static let clauseWords: Set<String> = [
    "FROM", "WHERE", "GROUP", "HAVING", "ORDER", "LIMIT", "OFFSET", "UNION", "INTERSECT", "EXCEPT", "WINDOW", "JOIN", "LEFT",
    "RIGHT", "FULL", "INNER", "CROSS", "NATURAL", "OUTER", "ON", "USING", "RETURNING", "SET", "VALUES", "AS", "ASC", "DESC",
    "NULLS", "COLLATE", "AND", "OR", "NOT", "IS", "IN", "LIKE", "GLOB", "MATCH", "REGEXP", "BETWEEN", "ESCAPE", "THEN", "ELSE",
    "END", "WHEN", "DEFAULT", "SELECT", "INDEXED", "FILTER", "OVER",
  ]

  /// A name: a word that is no clause keyword, or a quoted name.
  private mutating func name(_ what: String) throws(SQLTreeError) -> String {
    guard index < tokens.count else { throw error("expected \(what), at the end") }
    let token = tokens[index].token
    switch token.kind {
    case .word where !Self.clauseWords.contains(token.upper):
      index += 1
      return token.text
    case .quoted:
      index += 1
      return Self.unquoted(token.text)
    default:
      throw error("expected \(what), not '\(token.text)'")
    }
  }

  private static func unquoted(_ text: String) -> String {
    guard let first = text.first else { return text }
    let close: Character = first == "[" ? "]" : first
    let inner = String(text.dropFirst().dropLast())
    return close == "]" ? inner : inner.replacing(String([close, close]), with: String(close))
  }

  /// An alias after `AS`, or a bare name that is no keyword.
  private mutating func alias() throws(SQLTreeError) -> String? {
    if take("AS") { return try name("an alias") }
    guard index < tokens.count else { return nil }
    let token = tokens[index].token
    if token.kind == .quoted || (token.kind == .word && !Self.clauseWords.contains(token.upper)) {
      index += 1
      return token.kind == .quoted ? Self.unquoted(token.text) : token.text
    }
    return nil
  }

  // MARK: Statements

  private mutating func statement() throws(SQLTreeError) -> SQLStatement {
    if take("WITH") {
      _ = take("RECURSIVE")
      var tables: [SQLCommonTable] = []
      repeat {
        let name = try self.name("a common table's name")
        var columns: [String] = []
        if take("(") {
          repeat { columns.append(try self.name("a column")) } while take(",")
          try expect(")")
        }
        try expect("AS")
        if isWord("NOT") || isWord("MATERIALIZED") { throw unsupported("MATERIALIZED") }
        try expect("(")
        let select = try self.select()
        try expect(")")
        tables.append(SQLCommonTable(name: name, columns: columns, select: select))
      } while take(",")
      guard isWord("SELECT") else { throw unsupported("WITH before an INSERT, UPDATE or DELETE") }
      var select = try self.select()
      select.commonTables = tables
      return .select(select)
    }
    if isWord("SELECT") { return .select(try select()) }
    if isWord("VALUES") { throw unsupported("a bare VALUES statement") }
    if isWord("INSERT") || isWord("REPLACE") { return try insert() }
    if isWord("UPDATE") { return try update() }
    if isWord("DELETE") { return try delete() }
    throw error("not a statement .dsl reads: it reads SELECT, INSERT, UPDATE and DELETE")
  }

  /// A select, with the selects compounded after it and the ORDER BY and LIMIT of the whole.
  private mutating func select() throws(SQLTreeError) -> SQLSelect {
    var select = try selectCore()
    while let op = word(), ["UNION", "INTERSECT", "EXCEPT"].contains(op) {
      index += 1
      let all = op == "UNION" && take("ALL")
      select.compounds.append(SQLCompound(op: all ? "UNION ALL" : op, select: try selectCore()))
    }
    if isWord("ORDER") {
      index += 1
      try expect("BY")
      repeat {
        let value = try expr()
        let descending = take("DESC")
        if !descending { _ = take("ASC") }
        var nulls: String?
        if take("NULLS") {
          if take("FIRST") {
            nulls = "FIRST"
          } else if take("LAST") {
            nulls = "LAST"
          } else {
            throw error("expected FIRST or LAST after NULLS")
          }
        }
        select.orderBy.append(SQLOrdering(expr: value, descending: descending, nulls: nulls))
      } while take(",")
    }
    if take("LIMIT") {
      let first = try expr()
      if take("OFFSET") {
        select.limit = first
        select.offset = try expr()
      } else if take(",") {
        // `LIMIT 5, 10` is an offset of 5 and a limit of 10.
        select.offset = first
        select.limit = try expr()
      } else {
        select.limit = first
      }
    }
    return select
  }

  /// `SELECT … [FROM …] [WHERE …] [GROUP BY … [HAVING …]]`.
  private mutating func selectCore() throws(SQLTreeError) -> SQLSelect {
    if isWord("VALUES") { throw unsupported("VALUES in a compound select") }
    try expect("SELECT")
    var select = SQLSelect()
    if take("DISTINCT") { select.distinct = true } else { _ = take("ALL") }
    repeat {
      select.columns.append(try resultColumn())
    } while take(",")
    if take("FROM") {
      select.from = try tableReference(inFrom: true)
      while true {
        if take(",") {
          select.joins.append(SQLJoin(kind: ",", table: try tableReference(inFrom: true), on: nil))
          continue
        }
        if isWord("NATURAL") { throw unsupported("a NATURAL join") }
        var kind: String
        if take("JOIN") {
          kind = "JOIN"
        } else if isWord("INNER"), isWord("JOIN", 1) {
          index += 2
          kind = "JOIN"
        } else if let side = word(), ["LEFT", "RIGHT", "FULL"].contains(side) {
          index += 1
          _ = take("OUTER")
          try expect("JOIN")
          kind = side + " JOIN"
        } else if isWord("CROSS") {
          index += 1
          try expect("JOIN")
          kind = "CROSS JOIN"
        } else {
          break
        }
        let table = try tableReference(inFrom: true)
        if isWord("USING") { throw unsupported("a join with USING") }
        let on = take("ON") ? try expr() : nil
        select.joins.append(SQLJoin(kind: kind, table: table, on: on))
      }
    }
    if take("WHERE") { select.whereClause = try expr() }
    if isWord("GROUP") {
      index += 1
      try expect("BY")
      repeat { select.groupBy.append(try expr()) } while take(",")
      if take("HAVING") { select.having = try expr() }
    }
    if isWord("WINDOW") { throw unsupported("a WINDOW clause") }
    return select
  }

  private mutating func resultColumn() throws(SQLTreeError) -> SQLResultColumn {
    if take("*") { return SQLResultColumn(expr: .star(table: nil), alias: nil) }
    if index + 2 < tokens.count, isSymbol(".", 1), isSymbol("*", 2), tokens[index].token.kind != .symbol {
      let table = try name("a table")
      index += 2
      return SQLResultColumn(expr: .star(table: table.lowercased()), alias: nil)
    }
    let value = try expr()
    return SQLResultColumn(expr: value, alias: try alias())
  }

  private mutating func tableReference(inFrom: Bool = false) throws(SQLTreeError) -> SQLTableReference {
    if inFrom, isSymbol("("), isWord("SELECT", 1) || isWord("WITH", 1) {
      index += 1
      let inner = try select()
      try expect(")")
      let alias = try alias()
      return SQLTableReference(name: alias ?? "subquery", alias: nil, subquery: SQLSubquery(inner))
    }
    if inFrom, isSymbol("(") { throw unsupported("a parenthesised join in FROM") }
    var table = try name("a table")
    if take(".") { table = try name("a table") }  // `main.reminders`
    // A table-valued function (`pragma_table_info('reminderTexts')`): read, for what reads it
    // (a full-text column's position); a statement that selects from one has no spelling.
    var arguments: [SQLExpr]?
    if inFrom, take("(") {
      var list: [SQLExpr] = []
      if !take(")") {
        repeat { list.append(try expr()) } while take(",")
        try expect(")")
      }
      arguments = list
    }
    if isWord("INDEXED") || (isWord("NOT") && isWord("INDEXED", 1)) { throw unsupported("INDEXED BY") }
    return SQLTableReference(name: table, alias: try alias(), arguments: arguments)
  }

  private mutating func conflictClause() throws(SQLTreeError) -> String? {
    guard take("OR") else { return nil }
    guard let action = word(), ["ROLLBACK", "ABORT", "REPLACE", "FAIL", "IGNORE"].contains(action) else {
      throw error("expected ROLLBACK, ABORT, REPLACE, FAIL or IGNORE after OR")
    }
    index += 1
    return action
  }

  private mutating func returning() throws(SQLTreeError) -> [SQLResultColumn] {
    guard take("RETURNING") else { return [] }
    var columns: [SQLResultColumn] = []
    repeat { columns.append(try resultColumn()) } while take(",")
    return columns
  }

  private mutating func insert() throws(SQLTreeError) -> SQLStatement {
    var conflict: String?
    if take("REPLACE") {
      conflict = "REPLACE"
    } else {
      try expect("INSERT")
      conflict = try conflictClause()
    }
    try expect("INTO")
    let table = try tableReference()
    var columns: [String] = []
    if take("(") {
      repeat { columns.append(try name("a column")) } while take(",")
      try expect(")")
    }
    var rows: [[SQLExpr]] = []
    var select: SQLSelect?
    if take("VALUES") {
      repeat {
        try expect("(")
        var row: [SQLExpr] = []
        repeat { row.append(try expr()) } while take(",")
        try expect(")")
        rows.append(row)
      } while take(",")
    } else if isWord("SELECT") {
      select = try self.select()
    } else if isWord("DEFAULT") {
      throw unsupported("DEFAULT VALUES")
    } else {
      throw error("expected VALUES or SELECT")
    }
    var upsert: SQLUpsert?
    if isWord("ON"), isWord("CONFLICT", 1) {
      index += 2
      var target: [String] = []
      var targetWhere: SQLExpr?
      if take("(") {
        repeat { target.append(try name("a column")) } while take(",")
        try expect(")")
        if take("WHERE") { targetWhere = try expr() }
      }
      try expect("DO")
      if take("NOTHING") {
        upsert = SQLUpsert(target: target, targetWhere: targetWhere, assignments: nil, updateWhere: nil)
      } else {
        try expect("UPDATE")
        try expect("SET")
        var assignments: [SQLAssignment] = []
        repeat {
          let column = try name("a column")
          try expect("=")
          assignments.append(SQLAssignment(column: column, value: try expr()))
        } while take(",")
        let updateWhere = take("WHERE") ? try expr() : nil
        upsert = SQLUpsert(target: target, targetWhere: targetWhere, assignments: assignments, updateWhere: updateWhere)
      }
      if isWord("ON") { throw unsupported("a second ON CONFLICT clause") }
    }
    return .insert(
      conflict: conflict, table: table, columns: columns, rows: rows, select: select, upsert: upsert, returning: try returning())
  }

  private mutating func update() throws(SQLTreeError) -> SQLStatement {
    try expect("UPDATE")
    let conflict = try conflictClause()
    let table = try tableReference()
    try expect("SET")
    var assignments: [SQLAssignment] = []
    repeat {
      if isSymbol("(") { throw unsupported("a row assignment (SET (a, b) = …)") }
      let column = try name("a column")
      try expect("=")
      assignments.append(SQLAssignment(column: column, value: try expr()))
    } while take(",")
    if isWord("FROM") { throw unsupported("UPDATE … FROM") }
    let whereClause = take("WHERE") ? try expr() : nil
    return .update(conflict: conflict, table: table, assignments: assignments, whereClause: whereClause, returning: try returning())
  }

  private mutating func delete() throws(SQLTreeError) -> SQLStatement {
    try expect("DELETE")
    try expect("FROM")
    let table = try tableReference()
    let whereClause = take("WHERE") ? try expr() : nil
    return .delete(table: table, whereClause: whereClause, returning: try returning())
  }

  // MARK: Expressions, by SQLite's precedence (lowest first)

  private mutating func expr() throws(SQLTreeError) -> SQLExpr { try disjunction() }

  private mutating func disjunction() throws(SQLTreeError) -> SQLExpr {
    var left = try conjunction()
    while take("OR") { left = .binary("OR", left, try conjunction()) }
    return left
  }

  private mutating func conjunction() throws(SQLTreeError) -> SQLExpr {
    var left = try negation()
    while take("AND") { left = .binary("AND", left, try negation()) }
    return left
  }

  private mutating func negation() throws(SQLTreeError) -> SQLExpr {
    if isWord("NOT"), !isWord("EXISTS", 1) {
      index += 1
      return .unary("NOT", try negation())
    }
    return try equality()
  }

  private mutating func equality() throws(SQLTreeError) -> SQLExpr {
    var left = try comparison()
    while true {
      if take("=") || take("==") {
        left = .binary("=", left, try comparison())
      } else if take("<>") || take("!=") {
        left = .binary("<>", left, try comparison())
      } else if isWord("IS") {
        index += 1
        var negated = take("NOT")
        if take("DISTINCT") {
          try expect("FROM")
          negated.toggle()
        }
        left = .binary(negated ? "IS NOT" : "IS", left, try comparison())
      } else if take("ISNULL") {
        left = .binary("IS", left, .null)
      } else if take("NOTNULL") {
        left = .binary("IS NOT", left, .null)
      } else if isWord("NOT"), isWord("NULL", 1) {
        index += 2
        left = .binary("IS NOT", left, .null)
      } else if let negated = negatable("IN") {
        // `x IN sub`: a table's (a common table's) rows, as `x IN (SELECT * FROM sub)`.
        if !isSymbol("(") {
          left = .inSelect(
            left,
            SQLSelect(columns: [SQLResultColumn(expr: .star(table: nil), alias: nil)], from: SQLTableReference(name: try name("a table"))),
            negated: negated)
          continue
        }
        try expect("(")
        if isWord("SELECT") {
          let select = try self.select()
          try expect(")")
          left = .inSelect(left, select, negated: negated)
        } else {
          var items: [SQLExpr] = []
          if !isSymbol(")") {
            repeat { items.append(try expr()) } while take(",")
          }
          try expect(")")
          left = .inList(left, items, negated: negated)
        }
      } else if let negated = negatable("BETWEEN") {
        let low = try comparison()
        try expect("AND")
        left = .between(left, low, try comparison(), negated: negated)
      } else if let (operator_, negated) = matchOperator() {
        let pattern = try comparison()
        let escape = take("ESCAPE") ? try comparison() : nil
        left = .match(operator: operator_, left, pattern, escape: escape, negated: negated)
      } else {
        return left
      }
    }
  }

  /// `IN`, `NOT IN` (the word given): whether it was negated; nil when it is not there.
  private mutating func negatable(_ keyword: String) -> Bool? {
    if take(keyword) { return false }
    if isWord("NOT"), isWord(keyword, 1) {
      index += 2
      return true
    }
    return nil
  }

  private mutating func matchOperator() -> (String, Bool)? {
    for keyword in ["LIKE", "GLOB", "MATCH", "REGEXP"] {
      if let negated = negatable(keyword) { return (keyword, negated) }
    }
    return nil
  }

  /// SQLite's binary operators above the equality group, by precedence (lowest first):
  /// comparisons, bitwise, additive, multiplicative, concatenation and JSON access.
  private static let binaryLevels: [[String]] = [
    ["<=", ">=", "<", ">"], ["&", "|", "<<", ">>"], ["+", "-"], ["*", "/", "%"], ["||", "->>", "->"],
  ]

  private mutating func comparison() throws(SQLTreeError) -> SQLExpr { try binaryLevel(0) }

  /// Operators of one level, left-associative, over operands of the next level up.
  private mutating func binaryLevel(_ level: Int) throws(SQLTreeError) -> SQLExpr {
    guard level < Self.binaryLevels.count else { return try unary() }
    var left = try binaryLevel(level + 1)
    while let symbol = Self.binaryLevels[level].first(where: { isSymbol($0) }) {
      index += 1
      left = .binary(symbol, left, try binaryLevel(level + 1))
    }
    return left
  }

  private mutating func unary() throws(SQLTreeError) -> SQLExpr {
    for symbol in ["-", "+", "~"] where isSymbol(symbol) {
      index += 1
      let operand = try unary()
      // `-3` is a negative literal, as SQLite folds it.
      if symbol == "-", case .integer(let digits) = operand { return .integer("-" + digits) }
      if symbol == "-", case .real(let digits) = operand { return .real("-" + digits) }
      return .unary(symbol, operand)
    }
    var value = try primary()
    while take("COLLATE") { value = .collate(value, try name("a collation").uppercased()) }
    return value
  }

  private mutating func primary() throws(SQLTreeError) -> SQLExpr {
    guard index < tokens.count else { throw error("expected an expression, at the end") }
    let token = tokens[index].token
    switch token.kind {
    case .number:
      index += 1
      let isReal = token.text.contains(".") || token.text.lowercased().contains("e")
      return isReal ? .real(token.text) : .integer(token.text)
    case .string:
      index += 1
      return .text(Self.unquoted(token.text))
    case .symbol:
      if token.text == "(" {
        index += 1
        if isWord("SELECT") {
          let select = try self.select()
          try expect(")")
          return .subquery(select)
        }
        var items = [try expr()]
        while take(",") { items.append(try expr()) }
        try expect(")")
        return items.count == 1 ? items[0] : .row(items)
      }
      if token.text == "?" {
        index += 1
        // `?3`: the number written against it.
        if index < tokens.count, tokens[index].offset == tokens[index - 1].offset + 1, tokens[index].token.kind == .number,
          let number = Int(tokens[index].token.text), number > 0
        {
          index += 1
          highestParameter = max(highestParameter, number)
          return .parameter(index: number - 1, name: nil)
        }
        highestParameter += 1
        return .parameter(index: highestParameter - 1, name: nil)
      }
      if token.text == ":" { throw unsupported("a parameter ('\(token.text)')") }
      throw error("expected an expression, not '\(token.text)'")
    case .quoted:
      return try columnOrCall()
    case .space:
      throw error("expected an expression")
    case .word:
      switch token.upper {
      case "NULL":
        index += 1
        return .null
      case "TRUE", "FALSE":
        index += 1
        return .integer(token.upper == "TRUE" ? "1" : "0")
      case "CURRENT_TIMESTAMP", "CURRENT_DATE", "CURRENT_TIME":
        index += 1
        return .function(token.upper.lowercased(), [], distinct: false)
      case "CASE":
        return try caseExpression()
      case "CAST":
        index += 1
        try expect("(")
        let value = try expr()
        try expect("AS")
        var type: [String] = []
        while !isSymbol(")"), index < tokens.count {
          type.append(tokens[index].token.text)
          index += 1
        }
        try expect(")")
        return .cast(value, type: type.joined(separator: " ").uppercased())
      case "EXISTS":
        index += 1
        return try existsExpression(negated: false)
      case "NOT" where isWord("EXISTS", 1):
        index += 2
        return try existsExpression(negated: true)
      case "RAISE": throw unsupported("RAISE")
      case "SELECT": throw error("a subquery needs parentheses")
      default:
        if token.kind == .word, token.text.hasPrefix("$") || token.text.hasPrefix("@") || token.text.hasPrefix(":") {
          index += 1
          if parameterNumbers[token.text] == nil {
            highestParameter += 1
            parameterNumbers[token.text] = highestParameter
          }
          return .parameter(index: (parameterNumbers[token.text] ?? 1) - 1, name: String(token.text.dropFirst()))
        }
        if Self.clauseWords.contains(token.upper) { throw error("expected an expression, not '\(token.text)'") }
        if token.upper == "X", index + 1 < tokens.count, tokens[index + 1].token.kind == .string {
          index += 2
          return .blob(Self.unquoted(tokens[index - 1].token.text).uppercased())
        }
        return try columnOrCall()
      }
    }
  }

  private mutating func existsExpression(negated: Bool) throws(SQLTreeError) -> SQLExpr {
    try expect("(")
    let select = try self.select()
    try expect(")")
    return .exists(select, negated: negated)
  }

  private mutating func caseExpression() throws(SQLTreeError) -> SQLExpr {
    try expect("CASE")
    let base = isWord("WHEN") ? nil : try expr()
    var whens: [SQLWhen] = []
    while take("WHEN") {
      let condition = try expr()
      try expect("THEN")
      whens.append(SQLWhen(condition: condition, result: try expr()))
    }
    guard !whens.isEmpty else { throw error("CASE needs a WHEN") }
    let otherwise = take("ELSE") ? try expr() : nil
    try expect("END")
    return .caseWhen(base, whens, otherwise: otherwise)
  }

  private mutating func columnOrCall() throws(SQLTreeError) -> SQLExpr {
    let first = tokens[index].token
    index += 1
    let firstName = first.kind == .quoted ? Self.unquoted(first.text) : first.text
    if first.kind == .word, isSymbol("(") {
      index += 1
      let function = firstName.lowercased()
      var arguments: [SQLExpr] = []
      var distinct = false
      if take("*") {
        arguments = [.star(table: nil)]
      } else if !isSymbol(")") {
        distinct = take("DISTINCT")
        repeat { arguments.append(try expr()) } while take(",")
      }
      try expect(")")
      var call = SQLExpr.function(function, arguments, distinct: distinct)
      if take("FILTER") {
        try expect("(")
        try expect("WHERE")
        call = .filtered(call, where: try expr())
        try expect(")")
      }
      if isWord("OVER") {
        throw SQLTreeError(message: "StructuredQueries has no window functions (OVER): the statement is #sql", offset: offset)
      }
      return call
    }
    if take(".") {
      let second = try name("a column")
      if take(".") {
        // `main.reminders.title`
        return .column(table: second.lowercased(), name: try name("a column"))
      }
      return .column(table: firstName.lowercased(), name: second)
    }
    return .column(table: nil, name: firstName)
  }
}
