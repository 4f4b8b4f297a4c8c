import QuarryDSL
import QueryBuilder

/// Spells a statement read by ``SQLTreeParser`` in the StructuredQueries DSL, in the style of the
/// library's docs, naming each table by its model and each column by its property. It only
/// writes text: ``SQLToDSL`` compiles that text back and shows it only when it renders the
/// same statement (or gives the same rows).
///
/// ```swift
/// try DSLSpelling(catalog: catalog).spell(SQLTreeParser.parse("SELECT title FROM reminders WHERE priority >= 2 ORDER BY title"))
/// // Reminder.where { $0.priority >= 2 }.order(by: \.title).select(\.title)
/// ```
final class DSLSpelling {
  let catalog: Catalog
  /// Declarations the spelling needs before the statement: the alias of a table read twice
  /// (`enum M: AliasName { static let aliasName = "m" }`).
  private(set) var declarations: [String] = []

  init(catalog: Catalog) { self.catalog = catalog }

  /// A table the statement reads: its place among the closure's parameters (`$0`), the token
  /// its own clauses write for it, and the mark a subquery writes where it names this table from
  /// inside. ``closure(_:_:)`` turns both into `$0` or a parameter's name.
  struct Source {
    var reference: String
    var model: TableModel
    var index: Int
    var parameter: String
    var mark: String
    /// The closure parameter's name when the table is read twice: its SQL alias.
    var name: String?
    var dollar: String { "$\(index)" }
  }

  private var marks = 0
  /// Each parameter's Swift name, and the value declared for it, by index.
  private var parameterNames: [Int: String] = [:]
  private(set) var parameterValues: [Int: SQLExpr] = [:]
  private var parameterDeclarations: [Int: String] = [:]
  /// The declarations the spelling needs before its statement: types, aliases, then the
  /// parameters in their order.
  var allDeclarations: [String] { declarations + parameterDeclarations.sorted { $0.key < $1.key }.map(\.value) }
  /// The type of each common table of the statement, by its name (lower-cased).
  private var commonTableModels: [String: TableModel] = [:]
  /// Types this spelling declared in the catalog for its common tables: the caller removes them
  /// once the round trip has compiled (``Catalog/unregister(typeName:)``).
  private(set) var declaredTypes: [String] = []
  /// The selection the next select spells as its common table's `Columns(…)`, and the one the
  /// next core does.
  private var selection: (model: TableModel, labels: [String])?
  private var coreSelection: (model: TableModel, labels: [String])?
  /// The next select's one column is wrapped in `Optional(…)`.
  private var optionalSelection = false

  /// The Swift type of a select's one result column, when it is a column of its tables.
  func resultType(of select: SQLSelect) -> SwiftType? {
    guard select.columns.count == 1, let from = select.from, let fromModel = try? model(named: from.name) else { return nil }
    var sources = [self.source(from.reference, fromModel, 0)]
    for join in select.joins {
      guard let model = try? model(named: join.table.name) else { return nil }
      sources.append(self.source(join.table.reference, model, sources.count))
    }
    return type(of: select.columns[0].expr, sources)
  }
  /// The tables of the statements a subquery sits in, innermost last: a column the subquery's
  /// own tables lack is looked up there (a correlated subquery).
  private var enclosing: [[Source]] = []

  func source(_ reference: String, _ model: TableModel, _ index: Int) -> Source {
    marks += 1
    return Source(reference: reference, model: model, index: index, parameter: "\u{2}\(marks)\u{2}", mark: "\u{1}\(marks)\u{1}")
  }

  /// `select` spelled as a subquery of a statement over `sources`.
  private func subquery(_ select: SQLSelect, within sources: [Source]) throws(SQLTreeError) -> String {
    enclosing.append(sources)
    defer { enclosing.removeLast() }
    return try spell(select)
  }

  /// A piece of Swift and how tightly it binds (higher binds tighter): operands of an operator
  /// are parenthesized when they bind less tightly.
  struct Spelled {
    var text: String
    var precedence: Int
    /// A Swift literal (`3`, `"a"`, `nil`): never the receiver of a method.
    var isLiteral = false

    static let member = 100
  }

  // Swift's precedence groups, lowest first.
  static let disjunction = 10
  static let conjunction = 20
  static let comparison = 30
  static let nilCoalescing = 40
  static let addition = 50
  static let multiplication = 60
  static let prefix = 90

  func model(named name: String) throws(SQLTreeError) -> TableModel {
    if let model = commonTableModels[name.lowercased()] { return model }
    if let model = catalog.table(forTableName: name) { return model }
    if let model = catalog.tables.values.first(where: { !$0.isSelection && $0.tableName.lowercased() == name.lowercased() }) {
      return model
    }
    if name.lowercased().hasPrefix("sqlite_") {
      throw SQLTreeError(message: "'\(name)' is SQLite's own table: the library declares no type for it", offset: -1)
    }
    throw SQLTreeError(message: "no table '\(name)' in this session", offset: -1)
  }

  // MARK: Statements

  func spell(_ statement: SQLStatement) throws(SQLTreeError) -> String {
    switch statement {
    case .select(let select): return try spell(select)
    case .insert(let conflict, let table, let columns, let rows, let select, let upsert, let returning):
      return try spellInsert(
        conflict: conflict, table: table, columns: columns, rows: rows, select: select, upsert: upsert, returning: returning)
    case .update(let conflict, let table, let assignments, let whereClause, let returning):
      let model = try model(named: table.name)
      let sources = [source(table.reference, model, 0)]
      var text = model.typeName
      if let whereClause { text += ".where " + closure(try expr(whereClause, sources).text, sources) }
      let sets = try assignments.map { (assignment) throws(SQLTreeError) -> String in
        let column = try column(named: assignment.column, of: sources[0])
        let type = sources[0].model.columns.first { $0.sqlName.lowercased() == assignment.column.lowercased() }?.type
        return "\(sources[0].parameter).\(column) = \(try value(assignment.value, sources, as: type, named: column).text)"
      }
      text += conflict.map { ".update(or: .\($0.lowercased()))" } ?? ".update"
      text += " " + closure(sets.joined(separator: "; "), sources)
      return text + (try spellReturning(returning, sources))
    case .delete(let table, let whereClause, let returning):
      let model = try model(named: table.name)
      let sources = [source(table.reference, model, 0)]
      var text = model.typeName
      if let whereClause { text += ".where " + closure(try expr(whereClause, sources).text, sources) }
      text += ".delete()"
      return text + (try spellReturning(returning, sources))
    }
  }

  private func spellReturning(_ columns: [SQLResultColumn], _ sources: [Source]) throws(SQLTreeError) -> String {
    guard !columns.isEmpty else { return "" }
    if columns.count == 1, case .star = columns[0].expr { return ".returning(\\.self)" }
    let parts = try columns.map { (column) throws(SQLTreeError) -> String in try expr(column.expr, sources).text }
    return ".returning " + closure(parts.count == 1 ? parts[0] : "(" + parts.joined(separator: ", ") + ")", sources)
  }

  private func spellInsert(
    conflict: String?, table: SQLTableReference, columns: [String], rows: [[SQLExpr]], select: SQLSelect?, upsert: SQLUpsert?,
    returning: [SQLResultColumn]
  ) throws(SQLTreeError) -> String {
    let model = try model(named: table.name)
    let source = self.source(table.reference, model, 0)
    let names =
      try columns.isEmpty
      ? model.columns.map(\.name) : columns.map { (name) throws(SQLTreeError) -> String in try column(named: name, of: source) }
    var text = model.typeName + ".insert"
    if let conflict { text += "(or: .\(conflict.lowercased()))" }
    let target = names.map { source.parameter + "." + $0 }
    let columnList = closure(target.count == 1 ? target[0] : "(" + target.joined(separator: ", ") + ")", [source])
    let keyPosition = model.primaryKey.flatMap { key in names.firstIndex(of: key.path.joined(separator: ".")) }
    if select == nil, let keyPosition, model.primaryKey?.type.isOptional == false, !rows.isEmpty,
      rows.allSatisfy({ $0.count == names.count && $0[keyPosition] == .null })
    {
      // `INSERT … (id, title) VALUES (NULL, 'home')`: a draft, its key left to the database.
      let drafts = try rows.map { (row) throws(SQLTreeError) -> String in
        var arguments: [String] = []
        for column in model.columns where column.path.joined(separator: ".") != names[keyPosition] {
          guard let position = names.firstIndex(of: column.path.joined(separator: ".")) else { continue }
          let path = column.path.joined(separator: ".")
          arguments.append("\(path): \(try value(row[position], [], as: column.type, named: column.path.last).text)")
        }
        return "\(model.typeName).Draft(\(arguments.joined(separator: ", ")))"
      }
      text += " { \(drafts.joined(separator: "; ")) }"
    } else if let select {
      text += " \(columnList) select: { \(try spell(select)) }"
    } else {
      let values = try rows.map { (row) throws(SQLTreeError) -> String in
        guard row.count == names.count else {
          throw SQLTreeError(message: "a row of VALUES has \(row.count) values for \(names.count) columns", offset: -1)
        }
        let parts = try zip(row, names).map { (value, name) throws(SQLTreeError) -> String in
          let type = model.columns.first { $0.path.joined(separator: ".") == name }?.type
          return try self.value(value, [], as: type, named: name.split(separator: ".").last.map(String.init)).text
        }
        return parts.count == 1 ? parts[0] : "(" + parts.joined(separator: ", ") + ")"
      }
      text += " \(columnList) values: { \(values.joined(separator: "; ")) }"
    }
    if let upsert {
      // `excluded.title` is the row that was to be inserted: `$1` of `doUpdate`.
      let excluded = self.source("excluded", model, 1)
      if !upsert.target.isEmpty {
        let target = try upsert.target.map { (name) throws(SQLTreeError) -> String in
          source.parameter + "." + (try column(named: name, of: source))
        }
        text += " onConflict: " + closure(target.count == 1 ? target[0] : "(" + target.joined(separator: ", ") + ")", [source])
        if let filter = upsert.targetWhere { text += " where: " + closure(try expr(filter, [source]).text, [source]) }
      } else if upsert.assignments == nil {
        throw SQLTreeError(message: "ON CONFLICT DO NOTHING without a target has no DSL spelling here yet", offset: -1)
      }
      if let assignments = upsert.assignments {
        let sets = try assignments.map { (assignment) throws(SQLTreeError) -> String in
          let type = model.columns.first { $0.sqlName.lowercased() == assignment.column.lowercased() }?.type
          return
            "\(source.parameter).\(try column(named: assignment.column, of: source)) = \(try value(assignment.value, [source, excluded], as: type).text)"
        }
        text +=
          (upsert.target.isEmpty ? " onConflictDoUpdate: " : " doUpdate: ") + closure(sets.joined(separator: "; "), [source, excluded])
        if let filter = upsert.updateWhere { text += " where: " + closure(try expr(filter, [source, excluded]).text, [source, excluded]) }
      }
    }
    return text + (try spellReturning(returning, [source]))
  }

  /// The property that holds a column (`remindersListID` for `"remindersListID"`).
  func column(named name: String, of source: Source) throws(SQLTreeError) -> String {
    // A full-text table's hidden `rank` (its match's relevance), as FTS5 tables have it.
    if name.lowercased() == "rank", source.model.isFTS5, !source.model.columns.contains(where: { $0.sqlName.lowercased() == "rank" }) {
      return "rank"
    }
    guard let column = source.model.columns.first(where: { $0.sqlName.lowercased() == name.lowercased() }) else {
      throw SQLTreeError(message: "no column '\(name)' in '\(source.model.tableName)'", offset: -1)
    }
    return column.path.joined(separator: ".")
  }

  /// A closure over the sources: `{ $0.a.eq($1.b) }` when the body names every table, else
  /// with each parameter named (`_` for a table it does not use), as Swift needs every
  /// parameter of a multi-table closure accounted for.
  func closure(_ body: String, _ sources: [Source]) -> String {
    let used = sources.map { body.contains($0.parameter) || body.contains($0.mark) }
    let fromInside = sources.contains { body.contains($0.mark) }
    if !used.contains(true) { return "{ " + Array(repeating: "_", count: sources.count).joined(separator: ", ") + " in \(body) }" }
    if !fromInside, sources.count == 1 || used.allSatisfy({ $0 }) {
      return "{ " + sources.reduce(body) { $0.replacing($1.parameter, with: $1.dollar) } + " }"
    }
    var text = body
    var names: [String] = []
    for (index, source) in sources.enumerated().reversed() {
      guard used[index] else {
        names.insert("_", at: 0)
        continue
      }
      var name = source.model.typeName.split(separator: ".").last.map(String.init) ?? source.model.typeName
      name = (name.first.map { String($0).lowercased() } ?? "") + name.dropFirst()
      if sources.filter({ $0.model.typeName == source.model.typeName }).count > 1 {
        // Two copies of one table: each by its SQL alias, else by its place.
        name = source.name ?? name + "\(index)"
      }
      text = text.replacing(source.parameter, with: name).replacing(source.mark, with: name)
      names.insert(name, at: 0)
    }
    return "{ \(names.joined(separator: ", ")) in \(text) }"
  }

  /// `With { … } query: { … }`: each common table's select spelled as its type's rows, then the
  /// statement that reads them.
  private func spellWith(_ select: SQLSelect) throws(SQLTreeError) -> String {
    var bodies: [String] = []
    for table in select.commonTables {
      guard let labels = table.columnNames else {
        throw SQLTreeError(message: "every column of the common table '\(table.name)' needs a name (… AS name)", offset: -1)
      }
      let model = try commonTableModel(table, labels: labels)
      commonTableModels[table.name.lowercased()] = model
      selection = (model, labels)
      bodies.append(try spell(table.select))
    }
    var main = select
    main.commonTables = []
    return "With {\n  " + bodies.joined(separator: "\n  ") + "\n} query: {\n  " + (try spell(main)) + "\n}"
  }

  /// The type of a common table: the session's model of that name (a fixture's `Tally`), else a
  /// `@Table` struct declared here, its columns typed by what the select gives them.
  private func commonTableModel(_ table: SQLCommonTable, labels: [String]) throws(SQLTreeError) -> TableModel {
    if let model = catalog.tables.values.first(where: { !$0.isSelection && $0.tableName.lowercased() == table.name.lowercased() }) {
      return model
    }
    var core = table.select
    core.compounds = []
    guard let from = core.from else {
      throw SQLTreeError(message: "the common table '\(table.name)' selects from no table: its column types cannot be told", offset: -1)
    }
    var sources = [source(from.reference, try model(named: from.name), 0)]
    for join in core.joins { sources.append(source(join.table.reference, try model(named: join.table.name), sources.count)) }
    var properties: [String] = []
    for (label, column) in zip(labels, core.columns) {
      let type: SwiftType?
      switch column.expr {
      case .integer: type = SwiftType("Int")
      case .real: type = SwiftType("Double")
      case .text: type = SwiftType("String")
      default: type = self.type(of: column.expr, sources)
      }
      guard let type, label.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }), label.first?.isNumber == false else {
        throw SQLTreeError(message: "the type of the common table's column '\(label)' cannot be told here", offset: -1)
      }
      properties.append("var \(label): \(type.name)\(type.isOptional ? "?" : "")")
    }
    var typeName = (table.name.first.map { String($0).uppercased() } ?? "") + table.name.dropFirst()
    if typeName.count > 3, typeName.hasSuffix("s") { typeName.removeLast() }
    // A name the session already gives a type (a fixture's `Chain` of another table) is not taken.
    for candidate in [typeName, typeName + "Row", typeName + "Rows"]
    where catalog.table(forType: candidate) == nil && catalog.enums[candidate] == nil {
      typeName = candidate
      break
    }
    guard catalog.table(forType: typeName) == nil, catalog.enums[typeName] == nil else {
      throw SQLTreeError(message: "the common table '\(table.name)' would need a type named \(typeName), which the session has", offset: -1)
    }
    let declaration = "@Table(\(Self.swiftString(table.name))) struct \(typeName) { \(properties.joined(separator: "; ")) }"
    do {
      _ = try Compiler(catalog: catalog).compile(declaration)
    } catch {
      throw SQLTreeError(message: "the common table '\(table.name)' has no type Quarry can declare (\(error.fullMessage))", offset: -1)
    }
    guard let model = catalog.table(forType: typeName) else {
      throw SQLTreeError(message: "the common table '\(table.name)' has no type Quarry can declare", offset: -1)
    }
    declaredTypes.append(typeName)
    declarations.append(declaration)
    return model
  }

  /// `title` when the one part is a column of the one table (`.select(\.title)`); nil otherwise.
  private func keyPath(_ parts: [String], _ sources: [Source]) -> String? {
    guard parts.count == 1, sources.count == 1, parts[0].hasPrefix(sources[0].parameter + ".") else { return nil }
    let path = parts[0].dropFirst(sources[0].parameter.count + 1)
    guard path.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }) else { return nil }
    return String(path)
  }

  /// The alias type of a second copy of a table: one the session declares under that SQL alias,
  /// else a new `enum` named after the alias, declared ahead of the statement.
  private func alias(of model: TableModel, as written: String?) throws(SQLTreeError) -> String {
    guard let written else {
      throw SQLTreeError(message: "a table read twice needs an alias for its second copy (JOIN \(model.tableName) AS other …)", offset: -1)
    }
    let sqlAlias = written
    if let known = catalog.aliases.values.first(where: {
      $0.aliasName == sqlAlias && ($0.tableType == nil || $0.tableType == model.typeName)
    }) {
      return known.typeName
    }
    var name = (sqlAlias.first.map { String($0).uppercased() } ?? "") + sqlAlias.dropFirst()
    if name.isEmpty || !name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) || name.first?.isNumber == true
      || catalog.table(forType: name) != nil || catalog.enums[name] != nil
    {
      name = model.typeName.replacing(".", with: "") + "Alias"
    }
    declarations.append("enum \(name): AliasName { static let aliasName = \(Self.swiftString(sqlAlias)) }")
    return name
  }

  // MARK: SELECT

  func spell(_ select: SQLSelect) throws(SQLTreeError) -> String {
    if let rewritten = Self.commonTablesForSubqueries(select) { return try spell(rewritten) }
    if !select.commonTables.isEmpty { return try spellWith(select) }
    let target = selection
    selection = nil
    guard !select.compounds.isEmpty else {
      coreSelection = target
      return try spellCore(select)
    }
    // `A.union(B)`: each select spelled alone (an ORDER BY or LIMIT of the whole was made a
    // common table's, above).
    var first = select
    first.compounds = []
    coreSelection = target
    var text = try spellCore(first)
    for compound in select.compounds {
      let method: String
      switch compound.op {
      case "UNION": method = "union("
      case "UNION ALL": method = "union(all: true, "
      case "INTERSECT": method = "intersect("
      default: method = "except("
      }
      coreSelection = target
      text += "." + method + (try spellCore(compound.select)) + ")"
    }
    return text
  }

  /// The library has no select in FROM and no order or limit on a compound select; it has
  /// common tables, which SQLite reads the same way. So `FROM (SELECT …) AS x` becomes
  /// `WITH x AS (SELECT …) … FROM x`, and `A UNION B ORDER BY k` becomes `WITH compound AS (A
  /// UNION B) SELECT * FROM compound ORDER BY k` — in the select and in its common tables'
  /// selects. Nil when there is nothing to move. The SQL is not the input's, so only the same
  /// rows can prove the spelling.
  static func commonTablesForSubqueries(_ select: SQLSelect) -> SQLSelect? {
    var select = select
    var added: [SQLCommonTable] = []
    var taken = Set(select.commonTables.map { $0.name.lowercased() })
    func unique(_ name: String) -> String {
      var candidate = name
      var number = 2
      while taken.contains(candidate.lowercased()) {
        candidate = name + String(number)
        number += 1
      }
      taken.insert(candidate.lowercased())
      return candidate
    }
    func hoist(_ core: inout SQLSelect) {
      func move(_ table: inout SQLTableReference) {
        guard let subquery = table.subquery else { return }
        var inner = subquery.select
        hoist(&inner)
        let name = unique(table.name)
        added.append(SQLCommonTable(name: name, columns: [], select: inner))
        table = SQLTableReference(name: name)
      }
      if var from = core.from {
        move(&from)
        core.from = from
      }
      for index in core.joins.indices { move(&core.joins[index].table) }
      for index in core.compounds.indices { hoist(&core.compounds[index].select) }
    }
    hoist(&select)
    for index in select.commonTables.indices { hoist(&select.commonTables[index].select) }
    if !select.compounds.isEmpty, !select.orderBy.isEmpty || select.limit != nil {
      var compound = select
      compound.commonTables = []
      compound.orderBy = []
      compound.limit = nil
      compound.offset = nil
      let name = unique("compound")
      added.append(SQLCommonTable(name: name, columns: [], select: compound))
      var outer = SQLSelect()
      outer.columns = [SQLResultColumn(expr: .star(table: nil), alias: nil)]
      outer.from = SQLTableReference(name: name)
      outer.orderBy = select.orderBy
      outer.limit = select.limit
      outer.offset = select.offset
      outer.commonTables = select.commonTables
      select = outer
    }
    guard !added.isEmpty else { return nil }
    select.commonTables = added + select.commonTables
    return select
  }

  private func spellCore(_ select: SQLSelect) throws(SQLTreeError) -> String {
    var select = select
    let wrapsSelection = optionalSelection
    optionalSelection = false
    let commonSelection = coreSelection
    coreSelection = nil
    guard let from = select.from else {
      // `SELECT 1, 'Hello'`: the library's select of values alone, `Values(1, "Hello")`.
      let valuesAlone =
        commonSelection == nil && select.joins.isEmpty && select.whereClause == nil && select.groupBy.isEmpty
        && select.having == nil && select.orderBy.isEmpty && select.limit == nil && !select.distinct && !select.columns.isEmpty
        && !select.columns.contains { if case .star = $0.expr { true } else { false } }
      guard valuesAlone else { throw SQLTreeError(message: "a SELECT without FROM has no DSL spelling here yet", offset: -1) }
      let parts = try select.columns.map { (column) throws(SQLTreeError) -> String in try expr(column.expr, []).text }
      return "Values(\(parts.joined(separator: ", ")))"
    }
    if from.arguments != nil {
      throw SQLTreeError(message: "a table-valued function in FROM (\(from.name)(…)) has no DSL spelling here yet", offset: -1)
    }
    var sources = [source(from.reference, try model(named: from.name), 0)]
    var text = sources[0].model.typeName
    var clauses: [String] = []
    for join in select.joins {
      let model = try model(named: join.table.name)
      var joined = model.typeName + ".all"
      if sources.contains(where: { $0.model.tableName == model.tableName }) {
        joined += ".as(\(try alias(of: model, as: join.table.alias)).self)"
      }
      sources.append(source(join.table.reference, model, sources.count))
      if sources.dropLast().contains(where: { $0.model.typeName == model.typeName }) {
        // A table read twice: its copies' parameters are named by their SQL aliases.
        for index in sources.indices where sources[index].name == nil && sources[index].model.typeName == model.typeName {
          let written = index == 0 ? from.alias : select.joins[index - 1].table.alias
          if let written, Self.isIdentifier(written) { sources[index].name = written }
        }
      }
      var on = join.on
      if on == nil, join.kind == "," || join.kind == "CROSS JOIN" {
        // `FROM a, b WHERE a.x = b.y`: the conditions of WHERE that join this table to the ones
        // before it are its ON (an inner join keeps the same rows either way).
        on = movedToOn(&select, joining: sources)
      }
      guard let on else { throw SQLTreeError(message: "a join without ON has no DSL spelling here yet", offset: -1) }
      let method: String
      switch join.kind {
      case "JOIN", ",", "CROSS JOIN": method = "join"
      case "LEFT JOIN": method = "leftJoin"
      case "RIGHT JOIN": method = "rightJoin"
      case "FULL JOIN": method = "fullJoin"
      default: throw SQLTreeError(message: "a \(join.kind) has no DSL spelling here yet", offset: -1)
      }
      clauses.append(".\(method)(\(joined)) \(closure(try expr(on, sources).text, sources))")
    }
    if let whereClause = select.whereClause { clauses.append(".where \(closure(try expr(whereClause, sources).text, sources))") }
    if !select.groupBy.isEmpty {
      let keys = try select.groupBy.map { (key) throws(SQLTreeError) -> String in
        try expr(select.orderingTarget(key) { name in type(of: .column(table: nil, name: name), sources) != nil }, sources).text
      }
      clauses.append(".group \(closure(keys.count == 1 ? keys[0] : "(" + keys.joined(separator: ", ") + ")", sources))")
    }
    if let having = select.having { clauses.append(".having \(closure(try expr(having, sources).text, sources))") }
    if !select.orderBy.isEmpty {
      let keys = try select.orderBy.map { (ordering) throws(SQLTreeError) -> String in
        let target = select.orderingTarget(ordering.expr) { name in type(of: .column(table: nil, name: name), sources) != nil }
        let key = try expr(target, sources)
        let receiver = key.precedence >= Spelled.member ? key.text : "(\(key.text))"
        switch (ordering.descending, ordering.nulls) {
        case (false, nil): return key.text
        case (true, nil): return receiver + ".desc()"
        case (let descending, let nulls?): return receiver + (descending ? ".desc" : ".asc") + "(nulls: .\(nulls.lowercased()))"
        }
      }
      if let path = keyPath(keys, sources) {
        clauses.append(".order(by: \\.\(path))")
      } else {
        clauses.append(".order \(closure(keys.count == 1 ? keys[0] : "(" + keys.joined(separator: ", ") + ")", sources))")
      }
    }
    if let limit = select.limit {
      let count = try value(limit, sources, as: SwiftType("Int"), named: "limit").text
      if let offset = select.offset {
        clauses.append(".limit(\(count), offset: \(try value(offset, sources, as: SwiftType("Int"), named: "offset").text))")
      } else {
        clauses.append(".limit(\(count))")
      }
    }
    // The result columns: all of the tables' (no `select`), `count()` alone, or a selection.
    let isAll = select.columns.count == 1 && select.columns[0].expr == .star(table: nil)
    if !isAll {
      if select.columns.count == 1, !select.distinct, select.groupBy.isEmpty,
        case .function("count", let arguments, false) = select.columns[0].expr, arguments == [.star(table: nil)]
      {
        return text + clauses.joined() + ".count()"
      }
      let parts = try select.columns.map { (column) throws(SQLTreeError) -> String in
        if case .star(let table?) = column.expr {
          guard let source = sources.first(where: { $0.reference == table }) else {
            throw SQLTreeError(message: "no table '\(table)' in FROM", offset: -1)
          }
          return source.parameter
        }
        return try expr(column.expr, sources).text
      }
      if let commonSelection {
        // A common table's rows: its type's `Columns(…)`, each part under its column's name.
        let (model, labels) = commonSelection
        guard labels.count == parts.count, parts.count == model.columns.count else {
          throw SQLTreeError(
            message: "the common table '\(model.tableName)' has \(model.columns.count) columns and this select gives \(parts.count)",
            offset: -1)
        }
        var arguments: [String] = []
        for column in model.columns {
          guard let position = labels.firstIndex(where: { $0.lowercased() == column.sqlName.lowercased() }) else {
            throw SQLTreeError(
              message: "the common table '\(model.tableName)' has no column '\(column.sqlName)' in this select", offset: -1)
          }
          // An optional value (an aggregate: NULL of no rows) for a column that is not: `?? 0`.
          var part = parts[position]
          if !column.type.isOptional, type(of: select.columns[position].expr, sources)?.isOptional == true,
            let zero = Self.zeroLiterals[column.type.name]
          {
            part = "(\(part)) ?? \(zero)"
          }
          arguments.append("\(column.path.joined(separator: ".")): \(part)")
        }
        clauses.append(".select " + closure("\(model.typeName).Columns(\(arguments.joined(separator: ", ")))", sources))
      } else if wrapsSelection, parts.count == 1 {
        clauses.append(".select " + closure("Optional(\(parts[0]))", sources))
      } else if let path = keyPath(parts, sources) {
        clauses.append(".select(\\.\(path))")
      } else {
        clauses.append(".select \(closure(parts.count == 1 ? parts[0] : "(" + parts.joined(separator: ", ") + ")", sources))")
      }
    }
    if select.distinct { clauses.append(".distinct()") }
    text += clauses.joined()
    return text
  }

  /// The conjuncts of `select`'s WHERE that read the last of `sources` and only `sources`, taken
  /// out of it and joined by AND; nil when there is none (a conjunct with a subquery stays).
  private func movedToOn(_ select: inout SQLSelect, joining sources: [Source]) -> SQLExpr? {
    guard let whereClause = select.whereClause, let last = sources.last else { return nil }
    func conjuncts(_ expr: SQLExpr) -> [SQLExpr] {
      if case .binary("AND", let left, let right) = expr { return conjuncts(left) + conjuncts(right) }
      return [expr]
    }
    /// The sources a conjunct reads; nil when it reads one that is not there, or a subquery.
    func reads(_ expr: SQLExpr) -> Set<Int>? {
      switch expr {
      case .column(let table, let name):
        let matching = sources.filter { source in
          table.map { $0 == source.reference } ?? source.model.columns.contains { $0.sqlName.lowercased() == name.lowercased() }
        }
        return matching.count == 1 ? [matching[0].index] : nil
      case .exists, .subquery, .inSelect, .star: return nil
      default:
        var found: Set<Int> = []
        for child in expr.children {
          guard let read = reads(child) else { return nil }
          found.formUnion(read)
        }
        return found
      }
    }
    var moved: [SQLExpr] = []
    var kept: [SQLExpr] = []
    for conjunct in conjuncts(whereClause) {
      if let read = reads(conjunct), read.contains(last.index) { moved.append(conjunct) } else { kept.append(conjunct) }
    }
    guard !moved.isEmpty else { return nil }
    select.whereClause = kept.isEmpty ? nil : kept.dropFirst().reduce(kept[0]) { .binary("AND", $0, $1) }
    return moved.dropFirst().reduce(moved[0]) { .binary("AND", $0, $1) }
  }

  // MARK: Expressions

  /// A value where Swift expects one (`limit`, a row of `VALUES`, an assignment): a literal
  /// spelled as a value of `type` when one is expected (`1` as `true` for a `Bool`, `2` as
  /// `Priority.medium` for an enum).
  func value(_ sql: SQLExpr, _ sources: [Source], as type: SwiftType? = nil, named hint: String? = nil) throws(SQLTreeError)
    -> Spelled
  {
    if case .parameter(let index, let name) = sql {
      guard let type else {
        throw SQLTreeError(message: "the type of parameter ?\(index + 1) cannot be told here (compare it with a column)", offset: -1)
      }
      return Spelled(text: try parameter(index, named: name ?? hint, type), precedence: Spelled.member)
    }
    guard let type, let literal = try typedLiteral(sql, as: type.wrapped) else { return try expr(sql, sources) }
    return Spelled(text: literal, precedence: Spelled.member, isLiteral: true)
  }

  /// A literal compared with an optional column, as an optional (`#bind(Priority.medium)`):
  /// the library's operators need both sides alike.
  func optionalBound(_ spelled: Spelled, _ type: SwiftType?) -> Spelled {
    guard type?.isOptional == true, spelled.isLiteral, spelled.text != "nil" else { return spelled }
    return Spelled(text: "#bind(\(spelled.text))", precedence: Spelled.member)
  }

  /// The Swift type of a column expression (`$0.priority` is `Priority?`); nil for any other.
  func type(of sql: SQLExpr, _ sources: [Source]) -> SwiftType? {
    switch sql {
    case .column(let table, let name):
      let candidates = table.map { table in sources.filter { $0.reference == table } } ?? sources
      let columns = candidates.compactMap { source in source.model.columns.first { $0.sqlName.lowercased() == name.lowercased() } }
      return columns.count == 1 ? columns[0].type : nil
    case .function(let name, let arguments, _):
      // The library's types: an aggregate of no rows is NULL, so most are optional.
      let argument = arguments.first.flatMap { type(of: $0, sources) }
      switch name {
      case "count": return SwiftType("Int")
      case "avg": return SwiftType("Double").optional
      case "total": return SwiftType("Double")
      case "sum", "min", "max": return argument.map { $0.wrapped.optional }
      case "length", "instr", "unicode", "octet_length":
        return argument.map { $0.isOptional ? SwiftType("Int").optional : SwiftType("Int") }
      case "lower", "upper", "trim", "ltrim", "rtrim", "replace", "substr": return argument
      case "abs", "round": return argument
      case "coalesce", "ifnull": return arguments.last.flatMap { type(of: $0, sources) } ?? argument?.wrapped
      default:
        // A function spelled as a typed `#sql` fragment has the type it is spelled with.
        guard let type = Self.fragmentTypes[name] else { return nil }
        return type.hasSuffix("?") ? SwiftType(String(type.dropLast()), optional: true) : SwiftType(type)
      }
    case .binary(let op, let left, let right) where ["+", "-", "*", "/", "%"].contains(op):
      // An integer with a real is real (as SQLite computes it); NULL on either side is NULL.
      guard let leftType = type(of: left, sources) else { return type(of: right, sources) }
      guard let rightType = type(of: right, sources) else { return leftType }
      let real = leftType.wrapped.isReal || rightType.wrapped.isReal
      let wrapped = real ? SwiftType("Double") : leftType.wrapped
      return leftType.isOptional || rightType.isOptional ? wrapped.optional : wrapped
    case .cast(let value, let type):
      let target: SwiftType
      switch type {
      case "REAL", "FLOAT", "DOUBLE": target = SwiftType("Double")
      case "INTEGER", "INT": target = SwiftType("Int")
      case "TEXT": target = SwiftType("String")
      default: return nil
      }
      return self.type(of: value, sources)?.isOptional == true ? target.optional : target
    case .real:
      return SwiftType("Double")
    case .caseWhen(_, let whens, let otherwise):
      // The type of its results (a literal's own), optional without an ELSE or with a NULL one.
      let results = whens.map(\.result) + [otherwise ?? .null]
      let types = results.compactMap { result -> SwiftType? in
        switch result {
        case .text: SwiftType("String")
        case .integer: SwiftType("Int")
        case .null: nil
        default: type(of: result, sources)
        }
      }
      guard let first = types.first, types.allSatisfy({ $0.wrapped.name == first.wrapped.name }) else { return nil }
      return results.contains(.null) || types.contains(where: \.isOptional) ? first.wrapped.optional : first.wrapped
    default:
      return nil
    }
  }

  /// A SQL literal as a Swift value of `type`: nil when the literal needs no change; an error
  /// when it is no value of that type.
  func typedLiteral(_ sql: SQLExpr, as type: SwiftType) throws(SQLTreeError) -> String? {
    switch sql {
    case .integer(let digits) where type.isBool:
      switch digits {
      case "0": return "false"
      case "1": return "true"
      default: throw SQLTreeError(message: "\(digits) is no Bool (a Bool column holds 0 or 1)", offset: -1)
      }
    case .text(let text) where type.name == "Date":
      // The text the library stores a Date as (`2040-02-14 23:31:30.000`, UTC): that instant.
      guard let seconds = Self.secondsSince1970(text) else { return nil }
      return "Date(timeIntervalSince1970: \(seconds))"
    case .integer, .text, .real:
      guard let model = catalog.enums[type.name] else { return nil }
      let binding: QueryBinding
      switch sql {
      case .integer(let digits): binding = Int64(digits).map(QueryBinding.integer) ?? .text(digits)
      case .real(let digits): binding = Double(digits).map(QueryBinding.double) ?? .text(digits)
      case .text(let text): binding = .text(text)
      default: return nil
      }
      guard let match = model.cases.first(where: { $0.value == binding }) else {
        throw SQLTreeError(message: "no case of \(model.name) has the raw value \(binding.inlineSQL)", offset: -1)
      }
      return "\(model.name).\(match.name)"
    default:
      return nil
    }
  }

  func expr(_ sql: SQLExpr, _ sources: [Source]) throws(SQLTreeError) -> Spelled {
    switch sql {
    case .column(let table, let name):
      // The innermost statement's tables first, then those of the statements around it.
      for (level, candidates) in ([sources] + enclosing.reversed()).enumerated() {
        let found: Source?
        if let table {
          found = candidates.first { $0.reference == table }
        } else {
          let owners = candidates.filter { owner in owner.model.columns.contains { $0.sqlName.lowercased() == name.lowercased() } }
          guard owners.count <= 1 else { throw SQLTreeError(message: "ambiguous column name: \(name)", offset: -1) }
          found = owners.first
        }
        guard let found else { continue }
        let reference = level == 0 ? found.parameter : found.mark
        return Spelled(text: reference + "." + (try column(named: name, of: found)), precedence: Spelled.member)
      }
      if let table { throw SQLTreeError(message: "no table '\(table)' in FROM for '\(table).\(name)'", offset: -1) }
      throw SQLTreeError(message: "no column '\(name)' in the tables of FROM", offset: -1)
    case .parameter(let index, _):
      // Typed where it was declared; else by where it stands (`value(_:_:as:)`).
      guard let name = parameterNames[index] else {
        throw SQLTreeError(message: "the type of parameter ?\(index + 1) cannot be told here (compare it with a column)", offset: -1)
      }
      return Spelled(text: name, precedence: Spelled.member)
    case .integer(let digits), .real(let digits):
      return Spelled(text: digits, precedence: digits.hasPrefix("-") ? Self.prefix : Spelled.member, isLiteral: true)
    case .text(let text):
      return Spelled(text: Self.swiftString(text), precedence: Spelled.member, isLiteral: true)
    case .null:
      return Spelled(text: "nil", precedence: Spelled.member, isLiteral: true)
    case .unary("NOT", let operand):
      return Spelled(text: "!" + (try operandText(operand, sources, above: Self.prefix)), precedence: Self.prefix)
    case .unary("-", let operand):
      return Spelled(text: "-" + (try operandText(operand, sources, above: Self.prefix)), precedence: Self.prefix)
    case .binary(let op, let left, let right):
      return try binary(op, left, right, sources)
    case .match(let op, let value, let pattern, let escape, let negated):
      let method: String
      switch op {
      case "LIKE": method = "like"
      case "GLOB": method = "glob"
      case "MATCH": method = "match"
      default: throw SQLTreeError(message: "\(op) has no DSL spelling here yet", offset: -1)
      }
      var arguments = try self.value(pattern, sources, as: SwiftType("String"), named: "pattern").text
      if let escape { arguments += ", escape: " + (try expr(escape, sources).text) }
      // `"reminderTexts" MATCH 'x'`: a full-text table matched as a whole.
      var base: String
      if case .column(nil, let name) = value, let table = sources.first(where: { $0.reference == name.lowercased() }) {
        base = table.parameter
      } else {
        base = try receiver(value, sources)
      }
      let call = base + ".\(method)(\(arguments))"
      return negated ? Spelled(text: "!" + call, precedence: Self.prefix) : Spelled(text: call, precedence: Spelled.member)
    case .inList(let value, let items, let negated):
      let itemType = type(of: value, sources)
      let list = try items.map { (item) throws(SQLTreeError) -> String in
        try optionalBound(self.value(item, sources, as: itemType), itemType).text
      }
      let call = try receiver(value, sources) + (negated ? ".notIn([" : ".in([") + list.joined(separator: ", ") + "])"
      return Spelled(text: call, precedence: Spelled.member)
    case .inSelect(let value, var select, let negated):
      // `IN sub`, a table of one column: the library's `in` takes a select of that column.
      if select.columns == [SQLResultColumn(expr: .star(table: nil), alias: nil)], select.joins.isEmpty, let from = select.from,
        let model = try? model(named: from.name)
      {
        guard model.columns.count == 1 else {
          throw SQLTreeError(message: "IN \(from.name): the table has \(model.columns.count) columns, and IN reads one", offset: -1)
        }
        select.columns = [SQLResultColumn(expr: .column(table: nil, name: model.columns[0].sqlName), alias: nil)]
      }
      // The column and the subquery's column must be alike: an optional one on either side makes
      // the other optional (`.select { Optional($0.id) }`, `Optional($0.id).notIn(…)`).
      let leftOptional = type(of: value, sources)?.isOptional
      let innerOptional = resultType(of: select)?.isOptional
      var left = try receiver(value, sources)
      if leftOptional == false, innerOptional == true { left = "Optional(\(left))" }
      optionalSelection = leftOptional == true && innerOptional == false
      let inner = try subquery(select, within: sources)
      let call = left + (negated ? ".notIn(" : ".in(") + inner + ")"
      return Spelled(text: call, precedence: Spelled.member)
    case .between(let value, let low, let high, let negated):
      let boundType = type(of: value, sources)
      let call =
        try receiver(value, sources)
        + ".between(\(try optionalBound(self.value(low, sources, as: boundType), boundType).text), and: \(try optionalBound(self.value(high, sources, as: boundType), boundType).text))"
      return negated ? Spelled(text: "!" + call, precedence: Self.prefix) : Spelled(text: call, precedence: Spelled.member)
    case .function(let name, let arguments, let distinct):
      return try function(name, arguments, distinct: distinct, sources)
    case .filtered(.function(let name, let arguments, let distinct), let condition) where Self.methods[name] != nil:
      return try function(name, arguments, distinct: distinct, filter: try expr(condition, sources).text, sources)
    case .caseWhen(let base, let whens, let otherwise):
      var text = try base.map { (base) throws(SQLTreeError) -> String in "Case(\(try expr(base, sources).text))" } ?? "Case()"
      for when in whens {
        text += ".when(\(try expr(when.condition, sources).text), then: \(try expr(when.result, sources).text))"
      }
      if let otherwise { text += ".else(\(try expr(otherwise, sources).text))" }
      return Spelled(text: text, precedence: Spelled.member)
    case .exists(let select, let negated):
      let call = "\(try subquery(select, within: sources)).exists()"
      return negated ? Spelled(text: "!" + call, precedence: Self.prefix) : Spelled(text: call, precedence: Spelled.member)
    case .row(let items) where items.count > 1:
      let parts = try items.map { (item) throws(SQLTreeError) -> String in try expr(item, sources).text }
      return Spelled(text: "(" + parts.joined(separator: ", ") + ")", precedence: Spelled.member)
    case .star: throw SQLTreeError(message: "'*' has no DSL spelling here", offset: -1)
    case .blob: throw SQLTreeError(message: "a blob literal has no DSL spelling here yet", offset: -1)
    case .cast(let value, let type):
      let swiftType: String
      switch type {
      case "REAL", "FLOAT", "DOUBLE": swiftType = "Double"
      case "INTEGER", "INT": swiftType = "Int"
      case "TEXT": swiftType = "String"
      default: throw SQLTreeError(message: "CAST to \(type) has no DSL spelling here yet", offset: -1)
      }
      return Spelled(text: try receiver(value, sources) + ".cast(as: \(swiftType).self)", precedence: Spelled.member)
    case .collate(let value, let collation):
      let name: String
      switch collation {
      case "NOCASE": name = ".nocase"
      case "BINARY": name = ".binary"
      case "RTRIM": name = ".rtrim"
      default: name = ".init(rawValue: \(Self.swiftString(collation)))"
      }
      return Spelled(text: try receiver(value, sources) + ".collate(\(name))", precedence: Spelled.member)
    case .subquery(let select):
      // `$0.price > Product.select { $0.price.avg() }`: a query is a value in an expression.
      return Spelled(text: try subquery(select, within: sources), precedence: Spelled.member)
    default: throw SQLTreeError(message: "this expression has no DSL spelling here yet", offset: -1)
    }
  }

  /// `value` as the receiver of a method: parenthesized unless it binds as tightly as a member.
  private func receiver(_ value: SQLExpr, _ sources: [Source]) throws(SQLTreeError) -> String {
    let spelled = try expr(value, sources)
    if spelled.isLiteral {
      throw SQLTreeError(message: "a literal as the left side of an operator has no DSL spelling here yet", offset: -1)
    }
    return spelled.precedence >= Spelled.member ? spelled.text : "(\(spelled.text))"
  }

  private func operandText(_ value: SQLExpr, _ sources: [Source], above precedence: Int) throws(SQLTreeError) -> String {
    let spelled = try expr(value, sources)
    return spelled.precedence > precedence || (spelled.precedence == precedence && precedence == Self.prefix)
      ? spelled.text : "(\(spelled.text))"
  }

  private func binary(_ op: String, _ left: SQLExpr, _ right: SQLExpr, _ sources: [Source]) throws(SQLTreeError) -> Spelled {
    // A literal on the left of a comparison reads as the column compared with it.
    // Read off the tree: spelling a side (a subquery's declarations) happens once, below.
    if let other = SQLExpr.flippedComparisons[op], left.isLiteral, !right.isLiteral {
      return try binary(other, right, left, sources)
    }
    let leftType = type(of: left, sources)
    // Arithmetic on a function the library has no method for (`julianday(a) - julianday(b)`):
    // its optional result takes no operator in Swift, so the whole is one fragment.
    if ["+", "-", "*", "/", "%"].contains(op),
      let type = [left, right].lazy.compactMap({ side -> String? in
        guard case .function(let name, _, false) = side, let type = Self.fragmentTypes[name], type.hasSuffix("?") else { return nil }
        return type
      }).first
    {
      return try fragment(of: .binary(op, left, right), type: type, sources)
    }
    if ["+", "-", "*", "/", "%"].contains(op), mixesIntegerAndReal(left, right, sources) {
      // Swift adds only like types: the integer side is cast to REAL, as SQLite would compute.
      let (leftText, rightText) = try castingIntegerSide(left, right, sources)
      let precedence = op == "+" || op == "-" ? Self.addition : Self.multiplication
      return Spelled(text: leftText + " \(op) " + rightText, precedence: precedence)
    }
    let rightType = type(of: right, sources)
    // A parameter compared with a column is named by it (`id = ?`: `let id: Int`).
    var hint: String?
    if case .parameter = right, case .column(_, let name) = left {
      hint = sources.lazy.compactMap { try? self.column(named: name, of: $0) }.first?.split(separator: ".").last.map(String.init)
    }
    // `users.id = reminders.assignedUserID`: the library's `eq` compares an optional with its
    // wrapped type from the optional side (`$0.assignedUserID.eq($1.id)`), not the other way
    // (`is` takes either). Numbers only: text compares by the left column's collation.
    if ["=", "<>"].contains(op), !left.isLiteral, !right.isLiteral, leftType?.isOptional == false,
      rightType?.isOptional == true, leftType?.wrapped.isNumeric == true, rightType?.wrapped.isNumeric == true
    {
      return try binary(op, right, left, sources)
    }
    // `isCompleted IS NOT 1` on a column that is never NULL is `<> 1`: `isNot` takes only nil there.
    if op == "IS" || op == "IS NOT", right.isLiteral, right != .null, leftType?.isOptional == false {
      return try binary(op == "IS" ? "=" : "<>", left, right, sources)
    }
    switch op {
    case "=", "<>", "IS", "IS NOT":
      if right == .null, op == "=" || op == "<>" {
        throw SQLTreeError(
          message: "'\(op) NULL' is never true (a comparison with NULL is NULL); IS NULL / IS NOT NULL is what tests for NULL", offset: -1)
      }
      let method = ["=": "eq", "<>": "neq", "IS": "is", "IS NOT": "isNot"][op] ?? "eq"
      let argument = try value(right, sources, as: leftType, named: hint).text
      return Spelled(text: try receiver(left, sources) + ".\(method)(\(argument))", precedence: Spelled.member)
    case "<", "<=", ">", ">=":
      let rightText = optionalBound(try value(right, sources, as: leftType, named: hint), leftType)
      let rightOperand = rightText.precedence > Self.comparison ? rightText.text : "(\(rightText.text))"
      let text = try operandText(left, sources, above: Self.comparison) + " \(op) " + rightOperand
      return Spelled(text: text, precedence: Self.comparison)
    case "AND", "OR":
      let (symbol, precedence) = op == "AND" ? ("&&", Self.conjunction) : ("||", Self.disjunction)
      let text =
        try operandText(left, sources, above: precedence - 1) + " \(symbol) " + (try operandText(right, sources, above: precedence))
      return Spelled(text: text, precedence: precedence)
    case "+", "-", "||":
      let symbol = op == "||" ? "+" : op
      let text =
        try operandText(left, sources, above: Self.addition - 1) + " \(symbol) " + (try operandText(right, sources, above: Self.addition))
      return Spelled(text: text, precedence: Self.addition)
    case "*", "/", "%":
      let text =
        try operandText(left, sources, above: Self.multiplication - 1) + " \(op) "
        + (try operandText(right, sources, above: Self.multiplication))
      return Spelled(text: text, precedence: Self.multiplication)
    default:
      throw SQLTreeError(message: "the operator \(op) has no DSL spelling here yet", offset: -1)
    }
  }

  private func mixesIntegerAndReal(_ left: SQLExpr, _ right: SQLExpr, _ sources: [Source]) -> Bool {
    guard let leftType = type(of: left, sources)?.wrapped, let rightType = type(of: right, sources)?.wrapped else { return false }
    return (leftType.isInteger && rightType.isReal) || (leftType.isReal && rightType.isInteger)
  }

  private func castingIntegerSide(_ left: SQLExpr, _ right: SQLExpr, _ sources: [Source]) throws(SQLTreeError) -> (String, String) {
    func side(_ operand: SQLExpr) throws(SQLTreeError) -> String {
      if type(of: operand, sources)?.wrapped.isInteger == true { return try receiver(operand, sources) + ".cast(as: Double.self)" }
      let spelled = try expr(operand, sources)
      return spelled.precedence > Self.multiplication ? spelled.text : "(\(spelled.text))"
    }
    return (try side(left), try side(right))
  }

  /// SQL functions by the DSL method that renders them, on their first argument.
  static let methods: [String: String] = [
    "lower": "lower", "upper": "upper", "length": "length", "abs": "abs", "trim": "trim", "ltrim": "ltrim", "rtrim": "rtrim",
    "sum": "sum", "avg": "avg", "total": "total", "min": "min", "max": "max", "count": "count", "group_concat": "groupConcat",
    "round": "round", "instr": "instr", "replace": "replace", "substr": "substr", "sign": "sign", "hex": "hex", "quote": "quote",
    "unicode": "unicode", "typeof": "typeof", "likely": "likely", "unlikely": "unlikely", "octet_length": "octetLength",
    "randomblob": "randomblob", "zeroblob": "zeroblob", "json_group_array": "jsonGroupArray", "nullif": "nullif",
    "unhex": "unhex", "json_array_length": "jsonArrayLength", "json_type": "jsonType", "likelihood": "likelihood",
  ]

  private func function(
    _ name: String, _ arguments: [SQLExpr], distinct: Bool, filter: String? = nil, _ sources: [Source]
  ) throws(SQLTreeError) -> Spelled {
    if name == "coalesce" || name == "ifnull", arguments.count >= 2 {
      var text = try operandText(arguments[0], sources, above: Self.nilCoalescing)
      let type = self.type(of: arguments[0], sources)?.wrapped
      for argument in arguments.dropFirst() {
        let spelled = try value(argument, sources, as: type)
        text += " ?? " + (spelled.precedence > Self.nilCoalescing ? spelled.text : "(\(spelled.text))")
      }
      return Spelled(text: text, precedence: Self.nilCoalescing)
    }
    if name == "count", arguments == [.star(table: nil)] {
      guard let first = sources.first else { throw SQLTreeError(message: "count(*) needs a table", offset: -1) }
      // A table counts its rows by its primary key; one without (a common table) in SQL.
      if first.model.primaryKey == nil, filter == nil {
        return Spelled(text: "#sql(\"count(*)\", as: Int.self)", precedence: Spelled.member)
      }
      return Spelled(text: first.parameter + ".count(\(filter.map { "filter: " + $0 } ?? ""))", precedence: Spelled.member)
    }
    if let spelled = try fullText(name, arguments, sources) { return spelled }
    guard let method = Self.methods[name], let first = arguments.first else {
      // A function the library has no method for: a `#sql` fragment of that call, its columns
      // interpolated, typed by what SQLite returns.
      if let type = Self.fragmentTypes[name], !distinct { return try fragment(name, arguments, type: type, sources) }
      throw SQLTreeError(message: "the function \(name)(…) has no DSL spelling here yet", offset: -1)
    }
    // `substr(dueDate, 6, 2)`: a text function of a Date, which SQLite stores as text; the
    // library's text methods take only strings, so the call is a fragment.
    if Self.textFunctions.contains(name), let receiverType = type(of: first, sources), receiverType.wrapped.name == "Date" {
      let result = ["length", "instr"].contains(name) ? "Int" : "String"
      return try fragment(name, arguments, type: result + (receiverType.isOptional ? "?" : ""), sources)
    }
    // `sum(isCompleted)`: a Bool adds up as the integer SQLite stores (the library sums numbers).
    if ["sum", "total", "avg"].contains(name), arguments.count == 1, type(of: first, sources)?.wrapped.isBool == true {
      var rest: [String] = distinct ? ["distinct: true"] : []
      if let filter { rest.append("filter: " + filter) }
      return Spelled(
        text: try receiver(first, sources)
          + ".cast(as: Int\(type(of: first, sources)?.isOptional == true ? "?" : "").self).\(method)(\(rest.joined(separator: ", ")))",
        precedence: Spelled.member)
    }
    // `nullif(priority, 3)`: the value is of the column's type (`Priority.high`).
    let sameType = name == "nullif" ? type(of: first, sources)?.wrapped : nil
    var rest = try arguments.dropFirst().map { (argument) throws(SQLTreeError) -> String in
      try value(argument, sources, as: sameType).text
    }
    if distinct { rest.insert("distinct: true", at: 0) }
    if let filter { rest.append("filter: " + filter) }
    return Spelled(text: try receiver(first, sources) + ".\(method)(\(rest.joined(separator: ", ")))", precedence: Spelled.member)
  }

  /// FTS5's auxiliary functions as the library spells them on a full-text table's columns:
  /// `bm25("t")` is `$0.bm25()`, `highlight("t", 1, '**', '**')` is `$0.title.highlight("**", "**")`
  /// (a column by its position, or by the `pragma_table_info` lookup the library renders), and
  /// bm25's weights a dictionary of columns (`$0.bm25([\.title: 10.0])`). Nil for another call.
  private func fullText(_ name: String, _ arguments: [SQLExpr], _ sources: [Source]) throws(SQLTreeError) -> Spelled? {
    guard ["bm25", "highlight", "snippet"].contains(name), case .column(nil, let table)? = arguments.first,
      let source = sources.first(where: { $0.reference == table.lowercased() })
        ?? sources.first(where: { $0.model.tableName.lowercased() == table.lowercased() })
    else { return nil }
    let model = source.model
    /// A column given by its position, or by name through `pragma_table_info`.
    func columnPath(_ argument: SQLExpr) throws(SQLTreeError) -> String {
      switch argument {
      case .integer(let digits):
        guard let position = Int(digits), model.columns.indices.contains(position) else {
          throw SQLTreeError(message: "\(name)(…): '\(model.tableName)' has no column \(digits)", offset: -1)
        }
        return model.columns[position].path.joined(separator: ".")
      case .subquery(let lookup):
        guard lookup.from?.name.lowercased() == "pragma_table_info", case .binary("=", let left, .text(let column))? = lookup.whereClause,
          case .column(_, let field) = left, field.lowercased() == "name"
        else { throw SQLTreeError(message: "this column argument of \(name)(…) has no DSL spelling here yet", offset: -1) }
        return try self.column(named: column, of: source)
      default:
        throw SQLTreeError(message: "this column argument of \(name)(…) has no DSL spelling here yet", offset: -1)
      }
    }
    func texts(_ rest: ArraySlice<SQLExpr>) throws(SQLTreeError) -> String {
      try rest.map { (argument) throws(SQLTreeError) -> String in try expr(argument, sources).text }.joined(separator: ", ")
    }
    switch name {
    case "bm25":
      var weights: [(String, String)] = []
      var readByName = false
      for (position, argument) in arguments.dropFirst().enumerated() {
        switch argument {
        case .integer(let digits), .real(let digits):
          let path = try columnPath(.integer(String(position)))
          if Double(digits) != 1 { weights.append((path, digits)) }
        case .subquery where position > 0 && readByName:
          continue
        case .subquery(let lookup):
          // The library's own rendering: each column's weight read by a CASE on its name.
          guard position == 0, lookup.columns.count == 1, case .caseWhen(let subject?, let whens, _) = lookup.columns[0].expr,
            case .column(_, let field) = subject, field.lowercased() == "name"
          else { throw SQLTreeError(message: "these weights of bm25(…) have no DSL spelling here yet", offset: -1) }
          readByName = true
          for when in whens {
            guard case .text(let column) = when.condition, case .real(let digits) = when.result else {
              throw SQLTreeError(message: "these weights of bm25(…) have no DSL spelling here yet", offset: -1)
            }
            weights.append((try self.column(named: column, of: source), digits))
          }
        default:
          throw SQLTreeError(message: "this weight of bm25(…) has no DSL spelling here yet", offset: -1)
        }
      }
      let list = weights.map { "\\.\($0.0): \($0.1)" }.joined(separator: ", ")
      return Spelled(text: source.parameter + ".bm25(\(weights.isEmpty ? "" : "[" + list + "]"))", precedence: Spelled.member)
    default:
      guard arguments.count >= 2 else { return nil }
      let column = try columnPath(arguments[1])
      return Spelled(
        text: source.parameter + ".\(column).\(name)(\(try texts(arguments.dropFirst(2))))", precedence: Spelled.member)
    }
  }

  /// A parameter the app binds, spelled as a Swift constant of the type where it stands
  /// (`let id: Int = 0 // ?1`), declared once: the app's value goes there. The value declared
  /// is what the round trip compares its SQL with (``parameterValues``).
  ///
  ///     SELECT title FROM reminders WHERE id = ?
  ///     // let id: Int = 0 // ?1: the value the app binds
  ///     // Reminder.where { $0.id.eq(id) }.select(\.title)
  private func parameter(_ index: Int, named written: String?, _ type: SwiftType) throws(SQLTreeError) -> String {
    if let declared = parameterNames[index] { return declared }
    let wrapped = type.wrapped
    let value: (swift: String, sql: SQLExpr)
    switch wrapped.name {
    case "Int", "Int64", "Int32", "Int16", "Int8", "UInt", "UInt32", "UInt16", "UInt8": value = ("0", .integer("0"))
    case "Double", "Float": value = ("0.0", .real("0.0"))
    case "String": value = ("\"\"", .text(""))
    case "Bool": value = ("false", .integer("0"))
    default:
      guard let model = catalog.enums[wrapped.name], let first = model.cases.first else {
        throw SQLTreeError(message: "parameter ?\(index + 1) stands for a \(wrapped.name), which has no spelling here yet", offset: -1)
      }
      let literal: SQLExpr
      switch first.value {
      case .integer(let number): literal = .integer(String(number))
      case .text(let text): literal = .text(text)
      default:
        throw SQLTreeError(message: "parameter ?\(index + 1) stands for a \(wrapped.name), which has no spelling here yet", offset: -1)
      }
      value = ("\(model.name).\(first.name)", literal)
    }
    var name = written.flatMap { Self.isIdentifier($0) ? $0 : nil } ?? "value\(index + 1)"
    if parameterNames.values.contains(name) { name += String(index + 1) }
    parameterNames[index] = name
    parameterValues[index] = value.sql
    parameterDeclarations[index] =
      "let \(name): \(wrapped.name)\(type.isOptional ? "?" : "") = \(value.swift)  // ?\(index + 1): the value the app binds"
    return name
  }

  /// SQL functions the library has as methods of strings only.
  static let textFunctions: Set<String> = ["substr", "lower", "upper", "length", "trim", "ltrim", "rtrim", "replace", "instr"]

  /// The value `??` gives an optional of each type where the common table's column is not optional.
  static let zeroLiterals: [String: String] = ["Int": "0", "Double": "0", "String": "\"\"", "Bool": "false"]

  /// SQL functions StructuredQueries has no method for, and the Swift type of their result
  /// (date functions give NULL for a date they cannot read).
  static let fragmentTypes: [String: String] = [
    "date": "String?", "time": "String?", "datetime": "String?", "strftime": "String?", "julianday": "Double?",
    "unixepoch": "Int?", "json_object": "String", "json_array": "String", "json_quote": "String", "printf": "String",
    "format": "String", "char": "String", "concat": "String", "concat_ws": "String", "random": "Int", "iif": "String?",
  ]

  /// `#sql("strftime('%Y', \($0.dueDate))", as: String?.self)`: the call as SQL text, literals
  /// written in it, every other argument interpolated as the DSL spells it.
  private func fragment(_ name: String, _ arguments: [SQLExpr], type: String, _ sources: [Source]) throws(SQLTreeError) -> Spelled {
    try fragment(of: .function(name, arguments, distinct: false), type: type, sources)
  }

  /// An expression as one `#sql` fragment of `type`: calls and operators written as SQL text,
  /// literals in it, every other part (a column, a subquery) interpolated as the DSL spells it.
  ///
  ///     julianday(dueDate) - julianday('2026-03-01')
  ///     // #sql("julianday(\($0.dueDate)) - julianday('2026-03-01')", as: Double?.self)
  private func fragment(of sql: SQLExpr, type: String, _ sources: [Source]) throws(SQLTreeError) -> Spelled {
    // The body of a Swift string literal: SQL text escaped for Swift, interpolations as written.
    var literal = ""
    func raw(_ sql: String) { literal += String(Self.swiftString(sql).dropFirst().dropLast()) }
    func write(_ part: SQLExpr, top: Bool) throws(SQLTreeError) {
      switch part {
      case .integer(let digits), .real(let digits): raw(digits)
      case .text(let text): raw("'" + text.replacing("'", with: "''") + "'")
      case .null: raw("NULL")
      case .function(let name, let arguments, false) where Self.fragmentTypes[name] != nil || top:
        raw(name + "(")
        for (index, argument) in arguments.enumerated() {
          if index > 0 { raw(", ") }
          try write(argument, top: false)
        }
        raw(")")
      case .binary(let op, let left, let right) where ["+", "-", "*", "/", "%", "||"].contains(op):
        if !top { raw("(") }
        try write(left, top: false)
        raw(" \(op) ")
        try write(right, top: false)
        if !top { raw(")") }
      default:
        let spelled = try expr(part, sources)
        if spelled.isLiteral { throw SQLTreeError(message: "this part of a #sql fragment has no DSL spelling here yet", offset: -1) }
        literal += "\\(" + spelled.text + ")"
      }
    }
    try write(sql, top: true)
    return Spelled(text: "#sql(\"\(literal)\", as: \(type).self)", precedence: Spelled.member)
  }

  /// The seconds since 1970 (UTC) of a `YYYY-MM-DD HH:MM:SS[.SSS]` text, as Swift writes them
  /// (`2212875090`, `2212875090.25`); nil for another text.
  ///
  ///     DSLSpelling.secondsSince1970("1970-01-02 00:00:01.500")  // "86401.5"
  static func secondsSince1970(_ text: String) -> String? {
    let bytes = Array(text.utf8)
    guard bytes.count == 19 || bytes.count == 23 else { return nil }
    func number(_ range: Range<Int>) -> Int? {
      var value = 0
      for index in range {
        guard bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") else { return nil }
        value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
      }
      return value
    }
    let separators: [(Int, Character)] = [(4, "-"), (7, "-"), (10, " "), (13, ":"), (16, ":")] + (bytes.count == 23 ? [(19, ".")] : [])
    guard separators.allSatisfy({ bytes[$0.0] == $0.1.asciiValue }), let year = number(0..<4), let month = number(5..<7),
      let day = number(8..<10), let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
      year >= 1, (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 60
    else { return nil }
    let milliseconds = bytes.count == 23 ? number(20..<23) : 0
    guard let milliseconds else { return nil }
    // Days from 1970-01-01 to the date, in the proleptic Gregorian calendar (years from March).
    let shifted = month <= 2 ? year - 1 : year
    let era = shifted / 400
    let yearOfEra = shifted - era * 400
    let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    let days = era * 146_097 + dayOfEra - 719_468
    let whole = days * 86_400 + hour * 3_600 + minute * 60 + second
    guard milliseconds > 0 else { return String(whole) }
    var fraction = String(milliseconds + 1000).dropFirst()
    while fraction.hasSuffix("0") { fraction = fraction.dropLast() }
    return "\(whole).\(fraction)"
  }

  /// Whether `text` can be a Swift name as written (`m`, `boss`), not a keyword Swift reserves.
  static func isIdentifier(_ text: String) -> Bool {
    guard let first = text.first, first.isLetter || first == "_" else { return false }
    let keywords: Set<String> = [
      "in", "is", "as", "do", "if", "for", "let", "var", "func", "case", "default", "self", "Self", "nil", "true", "false", "where",
      "while", "return", "switch", "class", "struct", "enum", "import", "try", "throw", "repeat", "guard", "else", "break", "continue",
      "static", "super", "init", "inout", "operator", "protocol", "extension", "subscript", "deinit", "fallthrough", "internal",
      "private", "public", "rethrows", "throws", "typealias", "associatedtype", "defer", "any", "some",
    ]
    return text.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" } && !keywords.contains(text)
  }

  /// A Swift string literal of `text`.
  static func swiftString(_ text: String) -> String { SwiftLiterals.quoted(text) }
}
