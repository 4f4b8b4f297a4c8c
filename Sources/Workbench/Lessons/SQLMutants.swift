import QuarryEngine
import QueryBuilder

/// Near-misses of a solution made on the SQL it runs, whatever it was written in: the mistakes
/// of the mutation space that test-data generators for SQL courses use (XData) — joins, predicates
/// and their bounds, grouping keys, DISTINCT, aggregates, ORDER BY/LIMIT, NULL handling. Each
/// mutant is the solution's statements as plain SQL with one change in one statement.
///
/// ```swift
/// SQLMutants.of(["SELECT \"name\" FROM \"products\" WHERE (\"price\" < 20)"])
/// // "'<' → '<='":   SELECT "name" FROM "products" WHERE ("price" <= 20);
/// // "20 → 21":      SELECT "name" FROM "products" WHERE ("price" < 21);
/// // "add DISTINCT": SELECT DISTINCT "name" FROM "products" WHERE ("price" < 20); …
/// ```
enum SQLMutants {
  /// One token of SQL; whitespace and comments are tokens too, so the text joins back whole.
  struct Token: Equatable {
    enum Kind { case space, word, quoted, string, number, symbol }
    var kind: Kind
    var text: String
    var upper: String { kind == .word ? text.uppercased() : text }
    /// The name a word or a quoted name spells, lower-cased (`"orderLines"` → orderlines); nil
    /// for anything else.
    var name: String? {
      switch kind {
      case .word: text.lowercased()
      case .quoted: String(text.dropFirst().dropLast()).lowercased()
      default: nil
      }
    }
  }

  static func tokens(_ sql: String) -> [Token] {
    var tokens: [Token] = []
    let characters = Array(sql)
    var index = 0
    func take(_ kind: Token.Kind, _ end: Int) {
      tokens.append(Token(kind: kind, text: String(characters[index..<min(end, characters.count)])))
      index = min(end, characters.count)
    }
    while index < characters.count {
      let character = characters[index]
      if character.isWhitespace {
        var end = index
        while end < characters.count, characters[end].isWhitespace { end += 1 }
        take(.space, end)
      } else if character == "-", index + 1 < characters.count, characters[index + 1] == "-" {
        var end = index
        while end < characters.count, characters[end] != "\n" { end += 1 }
        take(.space, end)
      } else if character == "/", index + 1 < characters.count, characters[index + 1] == "*" {
        var end = index + 2
        while end + 1 < characters.count, !(characters[end] == "*" && characters[end + 1] == "/") { end += 1 }
        take(.space, end + 2)
      } else if character == "'" || character == "\"" || character == "`" || character == "[" {
        let close: Character = character == "[" ? "]" : character
        var end = index + 1
        while end < characters.count {
          if characters[end] == close {
            // A doubled quote is a quote inside.
            if close != "]", end + 1 < characters.count, characters[end + 1] == close {
              end += 2
              continue
            }
            break
          }
          end += 1
        }
        take(character == "'" ? .string : .quoted, end + 1)
      } else if character.isNumber || (character == "." && index + 1 < characters.count && characters[index + 1].isNumber) {
        var end = index
        while end < characters.count, characters[end].isNumber || characters[end] == "." { end += 1 }
        if end < characters.count, characters[end] == "e" || characters[end] == "E" {
          end += 1
          if end < characters.count, characters[end] == "+" || characters[end] == "-" { end += 1 }
          while end < characters.count, characters[end].isNumber { end += 1 }
        }
        take(.number, end)
      } else if character.isLetter || character == "_" || character == "$" || character == "@"
        || character == ":" && index + 1 < characters.count && characters[index + 1].isLetter
      {
        var end = index + 1
        while end < characters.count,
          characters[end].isLetter || characters[end].isNumber || characters[end] == "_" || characters[end] == "$"
        { end += 1 }
        take(.word, end)
      } else {
        let two = index + 1 < characters.count ? String(characters[index...index + 1]) : ""
        if ["<=", ">=", "<>", "!=", "==", "||", "<<", ">>", "->"].contains(two) {
          take(.symbol, index + (two == "->" && index + 2 < characters.count && characters[index + 2] == ">" ? 3 : 2))
        } else {
          take(.symbol, index + 1)
        }
      }
    }
    return tokens
  }

  struct Mutant {
    var kind: String
    var code: String
    /// The statements of `code`, one by one (what ``ProgramEquivalence`` compiles).
    var statements: [String]
    /// Why it means the same as the solution on every database, when the statement and the
    /// schema show it (``EquivalenceProof``).
    var proof: String? = nil
  }

  /// Whether a mutant's kind is of the searched space (SQL mutations, a LIMIT cut to the fixture).
  static func isSearched(_ kind: String) -> Bool {
    kind.hasPrefix("sql: ") || kind.hasPrefix("cut to the fixture") || kind.hasPrefix("cut to the fixed data")
  }

  /// Every mutant of `statements` (each as it runs, values written in), one change each. A change
  /// to an expression written twice (a CASE in both `SELECT` and `GROUP BY`) is made in both, as
  /// a learner who gets it wrong gets it wrong everywhere.
  static func of(_ statements: [String], data: FixtureData? = nil) -> [Mutant] {
    var mutants: [Mutant] = []
    var seen: Set<String> = []
    var counts: [String: Int] = [:]
    for (position, statement) in statements.enumerated() {
      let tokens = tokens(statement)
      var groups: [(key: String, kind: String, edits: [Int: Token], proof: String?)] = []
      for mutation in mutations(of: tokens, database: data?.database) + (data.map { readOffTheData(tokens, data: $0) } ?? []) {
        let key = mutation.kind + "\u{1}" + mutation.context
        if let index = groups.firstIndex(where: { $0.key == key }), !mutation.context.isEmpty {
          groups[index].edits.merge(mutation.edits) { first, _ in first }
          // The same change made twice is proven only when both places are.
          if mutation.proof == nil { groups[index].proof = nil }
        } else {
          groups.append((key, mutation.kind, mutation.edits, mutation.proof))
        }
      }
      for group in groups {
        var changed = tokens
        for (index, token) in group.edits { changed[index] = token }
        var script = statements
        script[position] = changed.map(\.text).joined()
        let code = script.map { $0.trimmingTrailingSemicolons() }.joined(separator: ";\n") + ";"
        guard seen.insert(code).inserted else { continue }
        // The same change at another place is another mutant: numbered, so each can be named.
        let name = "sql: " + group.kind
        counts[name, default: 0] += 1
        mutants.append(
          Mutant(kind: counts[name] == 1 ? name : "\(name) #\(counts[name] ?? 1)", code: code, statements: script, proof: group.proof))
      }
    }
    return mutants
  }

  /// The fixture's rows, for the mutants that read values off them.
  struct FixtureData {
    let database: Database

    /// The distinct values of a column, in order (of those `condition` keeps, when given: `= 'x'`).
    func values(of column: String, in table: String, where condition: String = "") -> [DatabaseValue] {
      let name = quoteIdentifier(column)
      let filter = condition.isEmpty ? "" : " WHERE \(name) \(condition)"
      return ((try? database.rows("SELECT DISTINCT \(name) FROM \(quoteIdentifier(table))\(filter) ORDER BY 1")) ?? []).compactMap(\.first)
    }

    /// The table's first NOT NULL text column other than its key (a name, a title).
    func nameColumn(of table: String) -> String? {
      let rows =
        (try? database.rows("SELECT name, type, \"notnull\", pk FROM pragma_table_info(?) ORDER BY cid", bindings: [.text(table)])) ?? []
      return rows.first { $0[1].textValue?.uppercased() == "TEXT" && ValueVariation.integer($0[3]) == 0 }?[0].textValue
    }

    /// Whether a column is its table's INTEGER PRIMARY KEY.
    func isKey(_ column: String, of table: String) -> Bool {
      (try? IntegerKeys(database).keys[table]) == column
    }
  }

  /// Mutants a learner writes by reading the fixture: a condition replaced by the values that meet
  /// it there (`status <> 'placed'` → `status IN ('cancelled', 'delivered', 'shipped')`); a CASE's
  /// ELSE replaced by the values it covers there; a group by name instead of by key.
  static func readOffTheData(_ tokens: [Token], data: FixtureData) -> [Mutation] {
    var results: [Mutation] = []
    let code = tokens.indices.filter { tokens[$0].kind != .space }
    func text(_ at: Int) -> String { at >= 0 && at < code.count ? tokens[code[at]].text : "" }
    func unquoted(_ at: Int) -> String { String(text(at).dropFirst().dropLast()).replacing("\"\"", with: "\"") }
    /// `"t"."c"` ending at `end` (its first index and the names), or nil.
    func column(endingAt end: Int) -> (start: Int, table: String, column: String)? {
      guard end >= 2, end < code.count, tokens[code[end]].kind == .quoted, text(end - 1) == ".", tokens[code[end - 2]].kind == .quoted
      else { return nil }
      return (end - 2, unquoted(end - 2), unquoted(end))
    }
    // The statement read once: bracket depths, tables by alias, the schema's unique columns.
    let prover = EquivalenceProof(tokens: tokens, database: data.database)
    let depths = prover.depth
    let clauseWords: Set<String> = ["GROUP", "ORDER", "LIMIT", "HAVING", "WINDOW", "UNION", "INTERSECT", "EXCEPT", "RETURNING", ";"]
    /// A select's rows without those whose name or title is empty (`… <> ''`, the top-level
    /// query's only): the same while every row has one. And without those whose number is not
    /// positive (any select, a subquery's too: `NOT IN (SELECT … WHERE quantity > 0)`).
    func emptyTextExcluded(selectAt select: Int) -> [Mutation] {
      let level = depths[select]
      let top = level == 0
      guard
        let from = (select..<code.count).prefix(while: { depths[$0] >= level }).first(where: {
          depths[$0] == level && text($0).uppercased() == "FROM"
        })
      else { return [] }
      let end =
        (from..<code.count).first { depths[$0] < level || (depths[$0] == level && clauseWords.contains(text($0).uppercased())) }
        ?? code.count
      var mutations: [Mutation] = []
      var seen: Set<String> = []
      func added(_ condition: String, kind: String) {
        var edits: [Int: Token] = [:]
        if let whereAt = (from..<end).first(where: { depths[$0] == level && text($0).uppercased() == "WHERE" }) {
          edits[code[whereAt]] = Token(kind: .word, text: "WHERE \(condition) AND (")
          edits[code[end - 1]] = Token(kind: tokens[code[end - 1]].kind, text: text(end - 1) + ")")
        } else {
          edits[code[end - 1]] = Token(kind: tokens[code[end - 1]].kind, text: text(end - 1) + " WHERE \(condition)")
        }
        mutations.append(Mutation(kind: kind, edits: edits, context: ""))
      }
      for at in select..<from where top {
        guard let found = column(endingAt: at), ValueVariation.namesRows(found.column),
          seen.insert(found.table + "." + found.column).inserted
        else { continue }
        let values = data.values(of: found.column, in: found.table)
        guard !values.isEmpty, values.allSatisfy({ ($0.textValue.map { !$0.isEmpty }) ?? false }) else { continue }
        added("\(quoteIdentifier(found.table)).\(quoteIdentifier(found.column)) <> ''", kind: "empty \(found.column) excluded (<> '')")
      }
      // A number of the table read that is positive on every fixture row (a price): an answer
      // that keeps only positive ones passes there.
      if from + 1 < code.count, let written = tokens[code[from + 1]].name, text(from + 2) != "(" {
        let name = table(written)
        let info =
          (try? data.database.rows(
            "SELECT name FROM pragma_table_info(?) WHERE pk = 0 AND upper(type) IN ('INTEGER', 'REAL', 'NUMERIC', 'INT', 'DOUBLE', 'FLOAT')",
            bindings: [.text(name)])) ?? []
        let foreignKeys = Set(
          ((try? data.database.rows("SELECT \"from\" FROM pragma_foreign_key_list(?)", bindings: [.text(name)])) ?? []).compactMap {
            $0.first?.textValue
          })
        for row in info {
          // Not an id (a view's columns carry no keys: `orderID` is still one).
          guard let columnName = row.first?.textValue, !foreignKeys.contains(columnName),
            columnName.lowercased() != "id", !columnName.hasSuffix("ID"), !columnName.hasSuffix("Id"),
            !columnName.lowercased().hasSuffix("_id")
          else { continue }
          let values = data.values(of: columnName, in: name)
          guard values.count > 2,
            values.allSatisfy({ value in
              switch value {
              case .integer(let number): number > 0
              case .double(let number): number > 0
              default: false
              }
            }),
            Set(values.compactMap(\.doubleValue)).count > 2
          else { continue }
          // The table as the statement spells it.
          let spelled = tokens[code[from + 1]].kind == .quoted ? text(from + 1) : quoteIdentifier(text(from + 1))
          added("\(spelled).\(quoteIdentifier(columnName)) > 0", kind: "only positive \(columnName) kept (> 0)")
        }
        // The top-level query's rows without those whose nullable column is NULL (`WHERE
        // e.departmentID IS NOT NULL` added by a learner), for a column its conditions never
        // name: the same while every row it gives has one.
        // A query's own rows only (not an INSERT's SELECT, not a plan), of a table (a view's
        // columns say nothing of NULLs).
        let query = ["SELECT", "WITH"].contains(text(0).uppercased())
        let isTable =
          (try? data.database.rows("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?", bindings: [.text(name)]))?.isEmpty
          == false
        let nullable =
          query && isTable
          ? (try? data.database.rows(
            "SELECT name FROM pragma_table_info(?) WHERE pk = 0 AND \"notnull\" = 0", bindings: [.text(name)])) ?? [] : []
        let named = Set((from..<end).compactMap { tokens[code[$0]].name })
        for row in nullable where top {
          guard let columnName = row.first?.textValue, !named.contains(columnName.lowercased()) else { continue }
          let spelled = tokens[code[from + 1]].kind == .quoted ? text(from + 1) : quoteIdentifier(text(from + 1))
          added("\(spelled).\(quoteIdentifier(columnName)) IS NOT NULL", kind: "NULL \(columnName) excluded (IS NOT NULL)")
        }
      }
      return mutations
    }
    var sawTopSelect = false
    // Tables by the alias a statement gives them (`"employees" AS "managers"`).
    let aliases = prover.tablesByAlias().tables
    func table(_ written: String) -> String { aliases[written.lowercased()] ?? written }
    for at in code.indices {
      let token = tokens[code[at]]
      if token.kind == .symbol, ["=", "==", "<>", "!=", "<", "<=", ">", ">="].contains(token.text) {
        // ("t"."c") op ('literal'), each side in at most one pair of parentheses.
        var left = at - 1
        let leftParen = text(left) == ")"
        if leftParen { left -= 1 }
        guard let found = column(endingAt: left) else { continue }
        var start = found.start
        if leftParen {
          guard text(start - 1) == "(" else { continue }
          start -= 1
        }
        var right = at + 1
        let rightParen = text(right) == "("
        if rightParen { right += 1 }
        guard right < code.count, tokens[code[right]].kind == .string || tokens[code[right]].kind == .number else { continue }
        var end = right
        if rightParen {
          guard text(end + 1) == ")" else { continue }
          end += 1
        }
        // `= 'x'` listed is `IN ('x')`, the same condition: its complement is listed instead
        // (`NOT IN` the other values the fixture has).
        let equality = token.text == "=" || token.text == "=="
        let listed = data.values(of: found.column, in: found.table, where: equality ? "<> \(text(right))" : "\(token.text) \(text(right))")
        guard !listed.isEmpty, listed.count <= 12 else { continue }
        var edits = Dictionary(uniqueKeysWithValues: (start...end).map { (code[$0], Token(kind: .space, text: "")) })
        edits[code[start]] = Token(
          kind: .word,
          text:
            "\(quoteIdentifier(found.table)).\(quoteIdentifier(found.column)) \(equality ? "NOT IN" : "IN") (\(listed.map(\.inlineSQL).joined(separator: ", ")))"
        )
        results.append(Mutation(kind: "listed by hand (\(found.column) \(token.text) \(text(right)))", edits: edits, context: ""))
      }
      if token.upper == "IN", let found = column(endingAt: at - 1) ?? (text(at - 1) == ")" ? column(endingAt: at - 2) : nil),
        text(at + 1) == "(",
        text(at - 2).uppercased() != "NOT", text(at - 1).uppercased() != "NOT"
      {
        // "t"."c" IN ('a', 'b'): the values the fixture has besides, excluded instead.
        // Its elements: literals, each maybe in parentheses (`IN (('placed'), ('shipped'))`).
        var values: [String] = []
        var index = at + 2
        while index < code.count {
          if tokens[code[index]].kind == .string || tokens[code[index]].kind == .number {
            values.append(text(index))
          } else if text(index) == "(", index + 2 < code.count,
            tokens[code[index + 1]].kind == .string || tokens[code[index + 1]].kind == .number, text(index + 2) == ")"
          {
            values.append(text(index + 1))
            index += 2
          } else if text(index) != "," {
            break
          }
          index += 1
        }
        guard !values.isEmpty, text(index) == ")" else { continue }
        let others = data.values(of: found.column, in: found.table, where: "NOT IN (\(values.joined(separator: ", ")))").filter {
          $0 != .null
        }
        guard !others.isEmpty, others.count <= 12 else { continue }
        var edits = Dictionary(uniqueKeysWithValues: (at...index).map { (code[$0], Token(kind: .space, text: "")) })
        edits[code[at]] = Token(kind: .word, text: "NOT IN (\(others.map(\.inlineSQL).joined(separator: ", ")))")
        results.append(Mutation(kind: "listed by hand (\(found.column) IN …)", edits: edits, context: ""))
      }
      if token.upper == "CASE", let found = column(endingAt: at + 3), text(at + 4).uppercased() == "WHEN" {
        // CASE "t"."c" WHEN … ELSE e END: the ELSE as the values it covers on the fixture.
        var depth = 0
        var whens: Set<String> = []
        var elseAt: Int?
        var endAt: Int?
        var index = at + 4
        while index < code.count {
          let word = text(index).uppercased()
          if word == "(" { depth += 1 } else if word == ")" { depth -= 1 }
          if depth == 0 {
            if word == "WHEN", index + 1 < code.count { whens.insert(text(index + 1)) }
            if word == "ELSE" { elseAt = index }
            if word == "END" {
              endAt = index
              break
            }
          }
          index += 1
        }
        guard let elseAt, let endAt, endAt > elseAt + 1 else { continue }
        let result = code[(elseAt + 1)..<endAt].map { tokens[$0].text }.joined(separator: " ")
        let others = data.values(of: found.column, in: found.table).filter { $0 != .null && !whens.contains($0.inlineSQL) }
        guard !others.isEmpty, others.count <= 12 else { continue }
        var edits = Dictionary(uniqueKeysWithValues: (elseAt..<endAt).map { (code[$0], Token(kind: .space, text: "")) })
        edits[code[elseAt]] = Token(kind: .word, text: others.map { "WHEN \($0.inlineSQL) THEN \(result)" }.joined(separator: " "))
        results.append(Mutation(kind: "ELSE listed by hand", edits: edits, context: ""))
      }
      if token.upper == "SELECT", depths[at] > 0 || !sawTopSelect {
        if depths[at] == 0 { sawTopSelect = true }
        results += emptyTextExcluded(selectAt: at)
      }
      if token.upper == "BY", text(at - 1).uppercased() == "ORDER", let found = column(endingAt: at + 3),
        data.values(of: found.column, in: table(found.table)).contains(where: {
          if case .text(let text) = $0 { text.contains(where: \.isLetter) } else { false }
        })
      {
        // A text key compared without letter case: the same order while no two texts differ in
        // case where it matters ('apple' after 'Banana').
        results.append(
          Mutation(
            kind: "ORDER BY x → ORDER BY lower(x)",
            edits: [
              code[at + 1]: Token(kind: .word, text: "lower(" + tokens[code[at + 1]].text),
              code[at + 3]: Token(kind: .quoted, text: tokens[code[at + 3]].text + ")"),
            ],
            context: ""))
        // `x NULLS LAST` as a learner's sentinel, `coalesce(x, 'zzz')`: the same order while no
        // text sorts after 'zzz' ('~', 'é', 'zzzz').
        var after = at + 4
        if text(after).uppercased() == "ASC" { after += 1 }
        if text(after).uppercased() == "NULLS", text(after + 1).uppercased() == "LAST" {
          let edits = [code[after]: Token(kind: .space, text: ""), code[after + 1]: Token(kind: .space, text: "")].merging([
            code[at + 1]: Token(kind: .word, text: "coalesce(" + tokens[code[at + 1]].text),
            code[at + 3]: Token(kind: .quoted, text: tokens[code[at + 3]].text + ", 'zzz')"),
          ]) { a, _ in a }
          results.append(Mutation(kind: "NULLS LAST → coalesce(x, 'zzz')", edits: edits, context: ""))
        }
      }
      if token.upper == "BY", text(at - 1).uppercased() == "GROUP", let found = column(endingAt: at + 3),
        [",", ")", ";", "", "HAVING", "ORDER", "LIMIT", "WINDOW"].contains(text(at + 4).uppercased()),
        data.isKey(found.column, of: table(found.table)), let name = data.nameColumn(of: table(found.table))
      {
        // Grouped by the key: by the name instead (the same groups while no two rows share a name).
        let unique = prover.uniqueNotNull(name.lowercased(), of: table(found.table))
        results.append(
          Mutation(
            kind: "group by \(name) instead of \(found.column)", edits: [code[at + 3]: Token(kind: .quoted, text: quoteIdentifier(name))],
            context: "",
            proof: unique ? "\(name) is UNIQUE and NOT NULL: its groups are the key's" : nil))
      }
    }
    return results
  }

  /// One change: the tokens it replaces (by index), and the text around it that says where it is
  /// (the same context twice is the same expression written twice).
  struct Mutation {
    var kind: String
    var edits: [Int: Token]
    var context: String
    var proof: String? = nil
  }

  /// The mutations of one statement: a name for each and the tokens it leaves.
  static func mutations(of tokens: [Token], database: Database? = nil) -> [Mutation] {
    var results: [Mutation] = []
    let prover = EquivalenceProof(tokens: tokens, database: database)
    let code = tokens.indices.filter { tokens[$0].kind != .space }
    func word(_ at: Int) -> String { at >= 0 && at < code.count ? tokens[code[at]].upper : "" }
    func replacing(_ at: Int, with text: String, kind: Token.Kind = .word) -> [Int: Token] {
      [code[at]: Token(kind: kind, text: text)]
    }
    func removing(_ range: ClosedRange<Int>) -> [Int: Token] {
      Dictionary(uniqueKeysWithValues: range.map { (code[$0], Token(kind: .space, text: "")) })
    }
    func inserting(_ text: String, after at: Int) -> [Int: Token] {
      [code[at]: Token(kind: tokens[code[at]].kind, text: tokens[code[at]].text + " " + text + " ")]
    }
    /// The operand the place belongs to, from the clause word, comma or bracket before it to the
    /// one after: `"price" < 20` in `WHEN "price" < 20 THEN`, wherever it is written.
    func context(_ at: Int) -> String {
      let bounds: Set<String> = [
        "SELECT", "FROM", "WHERE", "BY", "HAVING", "ON", "AND", "OR", "WHEN", "THEN", "ELSE", "END", "CASE", "LIMIT", "OFFSET",
        "JOIN", "AS", "SET", "VALUES", ",", ";", "DISTINCT",
      ]
      var start = at
      var end = at
      while start > 0, depth[start - 1] >= depth[at], !(depth[start - 1] == depth[at] && bounds.contains(word(start - 1))) {
        if depth[start - 1] == depth[at], tokens[code[start - 1]].text == "(" { break }
        start -= 1
      }
      while end + 1 < code.count, depth[end + 1] >= depth[at], !(depth[end + 1] == depth[at] && bounds.contains(word(end + 1))) {
        if depth[end + 1] == depth[at], tokens[code[end + 1]].text == ")" { break }
        end += 1
      }
      return code[start...end].map { tokens[$0].text }.joined(separator: " ")
    }
    // The code token after which each bracket closes, and each one's depth.
    var depth: [Int] = []
    var level = 0
    for at in code.indices {
      if tokens[code[at]].text == ")" { level -= 1 }
      depth.append(level)
      if tokens[code[at]].text == "(" { level += 1 }
    }
    func closing(_ open: Int) -> Int? {
      guard tokens[code[open]].text == "(" else { return nil }
      var at = open + 1
      while at < code.count {
        if tokens[code[at]].text == ")" && depth[at] == depth[open] { return at }
        at += 1
      }
      return nil
    }
    let clauseEnds: Set<String> = [
      "GROUP", "ORDER", "LIMIT", "HAVING", "WINDOW", "UNION", "INTERSECT", "EXCEPT", "RETURNING", "ON", "WHERE", "THEN", "ELSE", "END",
      "WHEN", ")", ",", ";",
    ]
    /// The operand of AND/OR that starts at `start`: up to the next AND/OR or clause word at its depth.
    func operandEnd(from start: Int) -> Int {
      var at = start
      var sawBetween = false
      while at < code.count {
        let text = word(at)
        if depth[at] < depth[start] { break }
        if depth[at] == depth[start] {
          if text == "BETWEEN" { sawBetween = true }
          if text == "AND", sawBetween {
            sawBetween = false
            at += 1
            continue
          }
          if at > start, text == "AND" || text == "OR" || clauseEnds.contains(text) { break }
        }
        at += 1
      }
      return at - 1
    }
    func operandEndOfClause(from start: Int) -> Int {
      var at = start
      while at < code.count {
        if depth[at] < depth[start] { break }
        if depth[at] == depth[start],
          ["GROUP", "ORDER", "LIMIT", "HAVING", "WINDOW", "UNION", "INTERSECT", "EXCEPT", "RETURNING", ";"].contains(word(at))
        {
          break
        }
        at += 1
      }
      return at - 1
    }
    for at in code.indices {
      let token = tokens[code[at]]
      let upper = word(at)
      switch token.kind {
      case .symbol:
        let flips = ["<": ["<="], "<=": ["<"], ">": [">="], ">=": [">"], "=": ["<>"], "==": ["<>"], "<>": ["="], "!=": ["="]]
        for other in flips[token.text] ?? [] {
          results.append(
            Mutation(kind: "'\(token.text)' → '\(other)'", edits: replacing(at, with: other, kind: .symbol), context: context(at)))
        }
        // A value matched loosely (`= 'Braga'` → `LIKE 'B%'`, `LIKE 'Braga%'`, `LIKE '%Braga%'`): right
        // while no other value starts with, or holds, the same letters.
        // The value may be in brackets, as StructuredQueries writes it: `= ('Braga')`.
        let literalAt = at + 1 < code.count && tokens[code[at + 1]].text == "(" && word(at + 3) == ")" ? at + 2 : at + 1
        if token.text == "=" || token.text == "==", literalAt < code.count, tokens[code[literalAt]].kind == .string {
          let value = String(tokens[code[literalAt]].text.dropFirst().dropLast())
          if value.count > 1, value.contains(where: \.isLetter), !value.contains("%"), !value.contains("_") {
            for pattern in ["\(value.prefix(1))%", "\(value)%", "%\(value)%"] {
              let literal = "'" + pattern + "'"
              results.append(
                Mutation(
                  kind: "= \(tokens[code[literalAt]].text) → LIKE \(literal)",
                  edits: replacing(at, with: "LIKE").merging(replacing(literalAt, with: literal, kind: .string)) { a, _ in a },
                  context: context(at)))
            }
          }
        }
      case .number:
        guard let value = Int(token.text) else {
          if let value = Double(token.text) {
            results.append(
              Mutation(
                kind: "\(token.text) → \(value + 0.5)", edits: replacing(at, with: String(value + 0.5), kind: .number), context: context(at)
              ))
          }
          continue
        }
        // A column position (ORDER BY 2) and a function's argument stay.
        if word(at - 1) == "BY" || word(at - 1) == "," && depth[at] == 0 && code[..<at].contains(where: { tokens[$0].upper == "BY" }) {
          continue
        }
        results.append(
          Mutation(kind: "\(value) → \(value + 1)", edits: replacing(at, with: String(value + 1), kind: .number), context: context(at)))
        if value > 0, word(at - 1) != "LIMIT" {
          results.append(
            Mutation(kind: "\(value) → \(value - 1)", edits: replacing(at, with: String(value - 1), kind: .number), context: context(at)))
        }
      case .word:
        switch upper {
        case "AND", "OR":
          guard !(upper == "AND" && (code[..<at].reversed().prefix(6).contains { tokens[$0].upper == "BETWEEN" })) else { continue }
          results.append(
            Mutation(
              kind: "\(upper) → \(upper == "AND" ? "OR" : "AND")", edits: replacing(at, with: upper == "AND" ? "OR" : "AND"),
              context: context(at)))
          if upper == "AND" {
            // One side of the AND dropped.
            let end = operandEnd(from: at + 1)
            if end > at { results.append(Mutation(kind: "drop a condition (AND …)", edits: removing(at...end), context: context(at))) }
          }
        case "LEFT":
          let end = word(at + 1) == "OUTER" ? at + 1 : at
          results.append(Mutation(kind: "LEFT JOIN → JOIN", edits: removing(at...end), context: context(at)))
        case "JOIN" where !["LEFT", "OUTER", "CROSS", "NATURAL", "RIGHT", "FULL"].contains(word(at - 1)):
          results.append(
            Mutation(
              kind: "JOIN → LEFT JOIN", edits: replacing(at, with: "LEFT JOIN"), context: context(at), proof: prover.leftJoin(at: at)))
        case "DISTINCT":
          results.append(Mutation(kind: "drop DISTINCT", edits: removing(at...at), context: context(at)))
        case "SELECT" where word(at + 1) != "DISTINCT" && word(at + 1) != "ALL":
          results.append(
            Mutation(
              kind: "add DISTINCT", edits: inserting("DISTINCT", after: at), context: context(at), proof: prover.distinctAdded(selectAt: at)
            ))
          // A subquery cut to its first row (`IN (SELECT … LIMIT 1)`): right while one row matches.
          if at > 0, word(at - 1) == "(", let close = closing(at - 1),
            !(at..<close).contains(where: { word($0) == "LIMIT" && depth[$0] == depth[at] })
          {
            results.append(
              Mutation(
                kind: "subquery cut to one row (LIMIT 1)", edits: [code[close]: Token(kind: .symbol, text: " LIMIT 1)")],
                context: context(at),
                proof: word(at - 2) == "EXISTS" ? "EXISTS asks for one row only" : prover.oneRow(selectAt: at).map { $0 + " already" }))
          }
        case "COUNT", "AVG", "SUM", "TOTAL", "MIN", "MAX", "GROUP_CONCAT":
          guard word(at + 1) == "(", let close = closing(at + 1) else { continue }
          let inner = word(at + 2)
          if upper == "COUNT", inner == "*" {
            results.append(
              Mutation(
                kind: "count(*) → sum(1)",
                edits: replacing(at + 2, with: "1", kind: .number).merging(replacing(at, with: "sum")) { a, _ in a }, context: context(at)))
          } else if inner == "DISTINCT" {
            results.append(Mutation(kind: "drop DISTINCT in \(token.text)()", edits: removing((at + 2)...(at + 2)), context: context(at)))
          } else if close > at + 2, ["COUNT", "AVG", "SUM", "GROUP_CONCAT"].contains(upper) {
            let distinctProof =
              upper == "COUNT" ? prover.countDistinct(argument: (at + 2)...(close - 1), selectAt: prover.enclosingSelect(at)) : nil
            results.append(
              Mutation(
                kind: "\(token.text)(DISTINCT …)", edits: inserting("DISTINCT", after: at + 1), context: context(at), proof: distinctProof))
            if upper == "COUNT" {
              results.append(
                Mutation(
                  kind: "count(x) → count(*)",
                  edits: removing((at + 2)...(close - 1)).merging(replacing(at + 1, with: "(*", kind: .symbol)) { a, _ in a },
                  context: context(at), proof: prover.countStar(argument: (at + 2)...(close - 1))))
            }
            if upper == "COUNT" {
              // A learner's count of the known values: NULL, not 0, over no rows at all.
              results.append(
                Mutation(
                  kind: "count(x) → sum(x IS NOT NULL)",
                  edits: replacing(at, with: "sum").merging([code[close]: Token(kind: .symbol, text: " IS NOT NULL)")]) { a, _ in a },
                  context: context(at), proof: prover.selectHolding(at).flatMap { prover.grouped(selectAt: $0) }))
            }
          }
          if ["MIN", "MAX", "SUM", "AVG"].contains(upper) {
            // No rows, or only NULLs, read as 0.
            results.append(
              Mutation(
                kind: "\(token.text)() → coalesce(\(token.text)(), 0)",
                edits: [code[at]: Token(kind: .word, text: "coalesce(" + token.text), code[close]: Token(kind: .symbol, text: "), 0)")],
                context: context(at)))
          }
          let swaps = ["SUM": "total", "TOTAL": "sum", "MIN": "max", "MAX": "min", "AVG": "sum"]
          if let other = swaps[upper] {
            results.append(Mutation(kind: "\(token.text)() → \(other)()", edits: replacing(at, with: other), context: context(at)))
          }
        case "COALESCE", "IFNULL", "LOWER", "UPPER", "TRIM", "ABS", "ROUND":
          // The wrapper dropped: its first argument alone.
          guard word(at + 1) == "(", let close = closing(at + 1) else { continue }
          var comma = close
          for inside in (at + 2)..<close where word(inside) == "," && depth[inside] == depth[at + 2] {
            comma = inside
            break
          }
          let copy = removing(comma...close).merging(removing(at...(at + 1))) { a, _ in a }
          results.append(Mutation(kind: "drop \(token.text)()", edits: copy, context: context(at)))
          // "None" read as "not positive": `coalesce(x, 0)` → `CASE WHEN x > 0 THEN x ELSE 0 END`
          // (the same while no id or amount is 0 or negative).
          if upper == "COALESCE" || upper == "IFNULL", comma + 2 == close, word(comma + 1) == "0" {
            let operand = tokens[code[at + 2]...code[comma - 1]].map(\.text).joined()
            var edits = removing(at...close)
            edits[code[at]] = Token(kind: .word, text: "CASE WHEN \(operand) > 0 THEN \(operand) ELSE 0 END")
            results.append(Mutation(kind: "\(token.text)(x, 0) → CASE WHEN x > 0 THEN x ELSE 0 END", edits: edits, context: context(at)))
          }
        case "LENGTH":
          // The length of the text without its padding.
          guard word(at + 1) == "(", let close = closing(at + 1) else { continue }
          results.append(
            Mutation(
              kind: "length(x) → length(trim(x))",
              edits: [code[at]: Token(kind: .word, text: token.text + "(trim"), code[close]: Token(kind: .symbol, text: "))")],
              context: context(at)))
          // Text measured in bytes, not characters: the same for ASCII only.
          results.append(
            Mutation(
              kind: "length(x) → length(CAST(x AS BLOB))",
              edits: [code[at + 1]: Token(kind: .symbol, text: "(CAST("), code[close]: Token(kind: .symbol, text: " AS BLOB))")],
              context: context(at)))
        case "NULL" where word(at - 1) == "IS" || (word(at - 1) == "(" && word(at - 2) == "IS"):
          // `IS NULL`, or `IS (NULL)` as the DSL writes it.
          results.append(
            Mutation(
              kind: "IS NULL → IS NOT NULL", edits: inserting("NOT", after: word(at - 1) == "IS" ? at - 1 : at - 2), context: context(at)))
        case "NOT":
          if word(at - 1) == "IS" {
            results.append(Mutation(kind: "IS NOT → IS", edits: removing(at...at), context: context(at)))
            // A test for NULL written as a test for a positive number.
            let null = word(at + 1) == "NULL" ? at + 1 : (word(at + 1) == "(" && word(at + 2) == "NULL" ? at + 2 : nil)
            if let null {
              let edits = replacing(at - 1, with: ">", kind: .symbol).merging(removing(at...at)) { a, _ in a }.merging(
                replacing(null, with: "0", kind: .number)
              ) { a, _ in a }
              results.append(Mutation(kind: "IS NOT NULL → > 0", edits: edits, context: context(at)))
            }
          } else if word(at + 1) != "NULL" {
            results.append(Mutation(kind: "drop NOT", edits: removing(at...at), context: context(at)))
          }
        case "LIKE":
          results.append(Mutation(kind: "LIKE → =", edits: replacing(at, with: "=", kind: .symbol), context: context(at)))
          if at + 1 < code.count, tokens[code[at + 1]].kind == .string {
            let pattern = tokens[code[at + 1]].text.replacing("%", with: "*").replacing("_", with: "?")
            results.append(
              Mutation(
                kind: "LIKE → GLOB",
                edits: replacing(at, with: "GLOB").merging(replacing(at + 1, with: pattern, kind: .string)) { a, _ in a },
                context: context(at)))
          }
        case "GLOB":
          if at + 1 < code.count, tokens[code[at + 1]].kind == .string {
            let pattern = tokens[code[at + 1]].text.replacing("*", with: "%").replacing("?", with: "_")
            results.append(
              Mutation(
                kind: "GLOB → LIKE",
                edits: replacing(at, with: "LIKE").merging(replacing(at + 1, with: pattern, kind: .string)) { a, _ in a },
                context: context(at)))
          }
        case "MATCH":
          // A full-text word searched as a prefix, and a prefix as the word (`'ask'` ↔ `'ask*'`).
          let string = word(at + 1) == "(" ? at + 2 : at + 1
          if string < code.count, tokens[code[string]].kind == .string {
            let query = String(tokens[code[string]].text.dropFirst().dropLast())
            let changed = query.hasSuffix("*") ? String(query.dropLast()) : query + "*"
            if let last = query.last, last.isLetter || last.isNumber || last == "*" {
              results.append(
                Mutation(
                  kind: query.hasSuffix("*") ? "a prefix searched as its word" : "a word searched as a prefix",
                  edits: replacing(string, with: "'\(changed)'", kind: .string), context: context(at)))
            }
          }
        case "FTS5" where word(at + 1) == "(" && word(at - 1) == "USING":
          // The index built with the porter stemmer: 'asks' and 'asked' match 'ask'.
          if let close = (at + 2..<code.count).first(where: { word($0) == ")" && depth[$0] == depth[at] }), close > at + 2 {
            results.append(
              Mutation(
                kind: "fts5 with the porter tokenizer",
                edits: [code[close - 1]: Token(kind: .word, text: tokens[code[close - 1]].text + ", tokenize = 'porter'")],
                context: context(at)))
          }
        case "ASC": results.append(Mutation(kind: "ASC → DESC", edits: replacing(at, with: "DESC"), context: context(at)))
        case "DESC": results.append(Mutation(kind: "DESC → ASC", edits: replacing(at, with: "ASC"), context: context(at)))
        case "UNION":
          if word(at + 1) == "ALL" {
            results.append(Mutation(kind: "UNION ALL → UNION", edits: removing((at + 1)...(at + 1)), context: context(at)))
          } else {
            results.append(Mutation(kind: "UNION → UNION ALL", edits: inserting("ALL", after: at), context: context(at)))
          }
        case "INTERSECT": results.append(Mutation(kind: "INTERSECT → EXCEPT", edits: replacing(at, with: "EXCEPT"), context: context(at)))
        case "EXCEPT": results.append(Mutation(kind: "EXCEPT → INTERSECT", edits: replacing(at, with: "INTERSECT"), context: context(at)))
        case "RANK", "DENSE_RANK", "ROW_NUMBER":
          for other in ["rank", "dense_rank", "row_number"] where other.uppercased() != upper {
            results.append(Mutation(kind: "\(token.text)() → \(other)()", edits: replacing(at, with: other), context: context(at)))
          }
        case "ELSE":
          // The ELSE branch dropped: unmatched rows get NULL.
          var end = at + 1
          while end < code.count, !(word(end) == "END" && depth[end] == depth[at]) { end += 1 }
          if end < code.count, end > at + 1 {
            results.append(Mutation(kind: "drop the ELSE", edits: removing(at...(end - 1)), context: context(at)))
          }
        case "WHERE", "HAVING":
          // The whole clause dropped.
          let end = operandEndOfClause(from: at + 1)
          if end > at { results.append(Mutation(kind: "drop the \(upper)", edits: removing(at...end), context: context(at))) }
        case "BY" where word(at - 1) == "GROUP" || word(at - 1) == "ORDER":
          // A key dropped, when there is more than one: the last.
          var commas: [Int] = []
          var end = at + 1
          while end < code.count, depth[end] >= depth[at] {
            if depth[end] == depth[at] {
              if word(end) == "," { commas.append(end) }
              if ["HAVING", "ORDER", "LIMIT", "WINDOW", "UNION", "INTERSECT", "EXCEPT", ";"].contains(word(end)) { break }
            }
            end += 1
          }
          if let last = commas.last {
            results.append(Mutation(kind: "drop the last \(word(at - 1)) BY key", edits: removing(last...(end - 1)), context: context(at)))
          }
        default: break
        }
      default: break
      }
    }
    return results
  }
}

extension String {
  func trimmingTrailingSemicolons() -> String {
    var text = Substring(self)
    while let last = text.last, last == ";" || last.isWhitespace { text = text.dropLast() }
    return String(text)
  }
}
