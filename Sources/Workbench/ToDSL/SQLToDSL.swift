import QuarryDSL
import QuarryEngine

/// "How do I write this in the DSL?": the StructuredQueries spelling of a SQL statement over
/// the session's tables, proven by the round trip. The spelling is compiled back by Quarry's
/// own front end; it is shown only when the SQL it renders reads as the same tree as the input
/// (`identical`), or, where the spelling cannot be identical, when both statements give the same
/// rows on the session's data and the same plan (`same-rows`). Otherwise the answer is an error
/// naming the part with no spelling, with the `#sql` form.
///
/// ```swift
/// SQLToDSL(session: session).answer("SELECT title FROM reminders WHERE priority >= 2 ORDER BY title")
/// // dsl: Reminder.where { $0.priority >= 2 }.order(by: \.title).select(\.title)   roundTrip: identical
/// ```
public struct SQLToDSL {
  public let session: Session

  public init(session: Session) { self.session = session }

  public struct Answer: Equatable {
    public var sql: String
    public var dsl: String?
    /// Declarations of the models the spelling uses that the session has no declaration of
    /// (inferred from the schema, as `.schema` prints them).
    public var models: String?
    /// `identical` or `same-rows`; nil with an error.
    public var roundTrip: String?
    public var error: String?
    /// The `#sql` form offered where there is no spelling.
    public var rawForm: String?

    /// One JSON object: `{"sql", "dsl", "models", "roundTrip", "error"}`.
    public var json: String {
      func string(_ text: String?) -> String { text.map(JSONFormatter.string) ?? "null" }
      return
        "{\"sql\":\(string(sql)),\"dsl\":\(string(dsl)),\"models\":\(string(models)),\"roundTrip\":\(string(roundTrip)),\"error\":\(string(error))}"
    }

    /// The answer as the prompt shows it.
    public var text: String {
      guard let dsl, let roundTrip else {
        return "error: " + (error ?? "no spelling") + (rawForm.map { "\nas raw SQL: " + $0 } ?? "") + "\n"
      }
      var out = ""
      if let models { out += models + "\n" }
      out += dsl + "\n"
      out += roundTrip == "identical" ? "-- renders the same SQL\n" : "-- renders other SQL that gives the same rows on this database\n"
      return out
    }
  }

  public func answer(_ input: String) -> Answer {
    var sql = input.trimmingScalars(in: .whitespacesAndNewlines)
    while sql.hasSuffix(";") { sql = String(sql.dropLast()).trimmingScalars(in: .whitespacesAndNewlines) }
    var answer = Answer(sql: sql)
    answer.rawForm = "#sql(" + DSLSpelling.swiftString(sql) + ")"
    let tree: SQLStatement
    do {
      tree = try SQLTreeParser.parse(sql)
    } catch {
      answer.error = located(error, in: sql)
      return answer
    }
    let spelling = DSLSpelling(catalog: session.catalog)
    // Types declared for common tables are the answer's, not the session's.
    defer { for name in spelling.declaredTypes { session.catalog.unregister(typeName: name) } }
    let dsl: String
    do {
      let statement = try spelling.spell(tree)
      dsl = (spelling.allDeclarations + [statement]).joined(separator: "\n")
    } catch {
      answer.error = located(error, in: sql)
      return answer
    }
    // Compiled back by Quarry's own front end; the aliases it declares are the answer's, not
    // the session's.
    let aliasesBefore = session.catalog.aliases
    defer { session.catalog.aliases = aliasesBefore }
    let compiled: CompiledStatement
    do {
      guard case .statement(let statement)? = try Compiler(catalog: session.catalog).compile(dsl).last else {
        answer.error = "the spelling Quarry found, \(dsl), is no statement"
        return answer
      }
      compiled = statement
    } catch {
      answer.error = "the spelling Quarry found does not compile (\(error.fullMessage)): \(dsl)"
      return answer
    }
    let rendered = compiled.displaySQL
    guard let back = try? SQLTreeParser.parse(rendered) else {
      answer.error = "Quarry cannot read back the SQL its spelling renders: \(rendered)"
      return answer
    }
    var normal = SQLTreeNormal(catalog: session.catalog)
    for table in (try? session.database.schema().tables) ?? [] {
      normal.tableColumns[table.name.lowercased()] = table.columns.map { $0.name.lowercased() }
    }
    normal.parameterValues = spelling.parameterValues
    if normal.normal(back) == normal.normal(tree) {
      answer.roundTrip = "identical"
    } else if !spelling.parameterValues.isEmpty {
      // Parameters have no values here to run the input with: only the same statement proves it.
      answer.error = "the spelling \(dsl) renders \(rendered.replacing("\n", with: " ")), not the same statement"
      return answer
    } else if let difference = sameEffect(sql, rendered, tree: tree, back: back) {
      answer.error = "the spelling \(dsl) renders \(rendered.replacing("\n", with: " ")), which \(difference)"
      return answer
    } else {
      answer.roundTrip = "same-rows"
    }
    answer.dsl = dsl
    answer.models = undeclaredModels(in: tree)
    return answer
  }

  private func located(_ error: SQLTreeError, in sql: String) -> String {
    // A part with no spelling is named by its text; the reader's errors have a place.
    guard error.offset >= 0 else { return error.message }
    let prefix = sql.prefix(error.offset)
    let line = prefix.filter { $0 == "\n" }.count + 1
    let column = prefix.count - (prefix.lastIndex(of: "\n").map { prefix.distance(from: prefix.startIndex, to: $0) + 1 } ?? 0) + 1
    return "\(line):\(column): \(error.message)"
  }

  /// Nil when both statements give the same rows (reads) or leave the same data (writes) on a
  /// copy of the session's database, with the same plan; else what differs.
  private func sameEffect(_ input: String, _ rendered: String, tree: SQLStatement, back: SQLStatement) -> String? {
    guard let left = try? session.database.freshCopy(), let right = try? session.database.freshCopy() else {
      return "could not be compared on this database"
    }
    if case .select(let select) = tree {
      guard let expected = try? left.rows(input) else { return "could not be run on this database" }
      guard let got = try? right.rows(rendered) else { return "does not run on this database" }
      let same = select.orderBy.isEmpty ? Self.sorted(expected) == Self.sorted(got) : expected == got
      guard same else { return "gives other rows on this database" }
      // A plan names a table by its alias (`SCAN o`): by its name here, in each statement, read
      // off every select of it (its common tables', compound parts', subqueries'); and the names
      // of its common tables and of the selects it reads in FROM (`derived`).
      func tableNames(_ statement: SQLStatement) -> (names: [String: String], derived: Set<String>) {
        guard case .select(let select) = statement else { return ([:], []) }
        var names: [String: String] = [:]
        var derived: Set<String> = []
        func collect(_ select: SQLSelect) {
          for table in [select.from].compactMap({ $0 }) + select.joins.map(\.table) {
            names[table.reference] = table.name.lowercased()
            if let subquery = table.subquery {
              derived.insert(table.reference)
              collect(subquery.select)
            }
          }
          for common in select.commonTables {
            derived.insert(common.name.lowercased())
            collect(common.select)
          }
          for compound in select.compounds { collect(compound.select) }
          var expressions = select.columns.map(\.expr) + select.joins.compactMap(\.on) + select.groupBy
          expressions += [select.whereClause, select.having].compactMap { $0 }
          for expression in expressions { collect(in: expression) }
        }
        func collect(in expression: SQLExpr) {
          switch expression {
          case .exists(let inner, _), .subquery(let inner): collect(inner)
          case .inSelect(let value, let inner, _):
            collect(in: value)
            collect(inner)
          default:
            for child in expression.children { collect(in: child) }
          }
        }
        collect(select)
        return (names, derived)
      }
      // Reads of a common table or a select in FROM are left out: the library spells a select
      // in FROM as a common table, which SQLite may materialise where it read the select inline.
      let (inputNames, inputDerived) = tableNames(tree)
      let (renderedNames, renderedDerived) = tableNames(back)
      let derived = inputDerived.union(renderedDerived)
      let plans = [(input, inputNames), (rendered, renderedNames)].map { sql, names in
        ((try? left.rows("EXPLAIN QUERY PLAN " + sql)) ?? []).compactMap { row -> String? in
          guard case .text(let detail)? = row.last, let shape = Self.planShape(detail) else { return nil }
          let words = shape.split(separator: " ").map(String.init)
          let table = names[words[1].lowercased()] ?? words[1].lowercased()
          return derived.contains(table) || table.hasPrefix("(subquery") ? nil : words[0] + " " + table
        }
      }
      return plans[0] == plans[1] ? nil : "has another plan on this database"
    }
    do {
      try left.execute(input)
    } catch {
      return "could not be run on this database"
    }
    do {
      try right.execute(rendered)
    } catch {
      return "does not run on this database"
    }
    return Self.contents(of: left) == Self.contents(of: right) ? nil : "leaves other data on this database"
  }

  /// How a plan step reaches a table (`SCAN reminders`, `SEARCH remindersLists`), or nil for a
  /// step that sorts or groups: the plan's shape is the tables it reads and how. A lookup in
  /// the schema (`SCAN pragma_table_info`: the library finds an FTS5 column's position so) reads
  /// no rows of the data.
  static func planShape(_ detail: String) -> String? {
    let words = detail.split(separator: " ")
    guard let first = words.first, first == "SCAN" || first == "SEARCH", words.count >= 2, !words[1].hasPrefix("pragma_") else {
      return nil
    }
    return words.prefix(2).joined(separator: " ")
  }

  static func sorted(_ rows: [[DatabaseValue]]) -> [String] { rows.map { "\($0)" }.sorted() }

  static func contents(of database: Database) -> [String] {
    let tables = ((try? database.rows("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name")) ?? []).compactMap {
      $0.first.flatMap { if case .text(let name) = $0 { name } else { nil } }
    }
    return tables.map { table in
      let rows = (try? database.rows("SELECT * FROM \"\(table.replacing("\"", with: "\"\""))\"")) ?? []
      return table + ":" + sorted(rows).joined(separator: ";")
    }
  }

  /// The declarations of the models the statement names that the session only inferred.
  private func undeclaredModels(in tree: SQLStatement) -> String? {
    var names: [String] = []
    switch tree {
    case .select(let select): names = Self.tables(of: select)
    case .insert(_, let table, _, _, let select, _, _): names = [table.name] + (select.map(Self.tables) ?? [])
    case .update(_, let table, _, _, _), .delete(let table, _, _): names = [table.name]
    }
    var seen: Set<String> = []
    let spelling = DSLSpelling(catalog: session.catalog)
    let declarations = names.compactMap { name -> String? in
      guard let model = try? spelling.model(named: name), !model.isDeclared, seen.insert(model.typeName).inserted else { return nil }
      return ModelPrinter.declaration(of: model, enums: session.catalog.enums)
    }
    return declarations.isEmpty ? nil : declarations.joined(separator: "\n")
  }

  static func tables(of select: SQLSelect) -> [String] {
    (select.from.map { [$0.name] } ?? []) + select.joins.map(\.table.name)
  }
}
