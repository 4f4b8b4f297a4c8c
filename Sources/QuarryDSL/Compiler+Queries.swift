import QueryBuilder
import SwiftSyntax

/// Query methods: `where`, `select`, `join`, `group`, `having`, `order`, `limit`, and friends.
extension Compiler {
  func tableMember(_ name: String, of table: TableInstance, at node: some SyntaxProtocol) throws -> Value {
    switch name {
    case "Selection" where table.model.isEnumTable, "Columns" where table.model.isEnumTable:
      return .table(table)
    case "Draft", "self", "columns", "TableColumns":
      if name == "columns" || name == "TableColumns" { return .columns(table) }
      return .table(table)
    case "all":
      // `.all` is the default scope, even after `unscoped` (except inside that scope itself).
      var scoped = table
      if !evaluatingDefaultScope.contains(table.model.typeName) { scoped.unscoped = false }
      return .query(try baseQuery(scoped))
    case "unscoped":
      var unscoped = table
      unscoped.unscoped = true
      return .table(unscoped)
    case "none":
      var query = Query(table)
      query.select.isEmpty = true
      return .query(query)
    case "tableName":
      return .expression(TypedExpression(.value(.text(table.model.tableName)), type: .string))
    default:
      if let scope = table.model.scopes[name] {
        return try callScope(scope, on: table, arguments: [], at: node)
      }
      // `Employee.id` (as in `#sql("SELECT \(Employee.id) …")`): the column, like `$0.id`.
      if !table.model.columns(under: [name]).isEmpty || table.model.computedColumns[name] != nil {
        return try member(name, of: .columns(table), at: node)
      }
      return try queryMember(name, of: try baseQuery(table), at: node)
    }
  }

  /// The query a table type starts from: its default scope (`static let all = …`) unless
  /// `unscoped`.
  func baseQuery(_ table: TableInstance) throws -> Query {
    guard !table.unscoped, let scope = table.model.scopes["all"] else { return Query(table) }
    var unscoped = table
    unscoped.unscoped = true
    evaluatingDefaultScope.insert(table.model.typeName)
    defer { evaluatingDefaultScope.remove(table.model.typeName) }
    let value = try callScope(scope, on: unscoped, arguments: [], at: scope.body.syntax)
    switch value {
    case .query(var query):
      query.tables[0].unscoped = false
      return query
    case .table(let inner): return Query(inner)
    default: return Query(table)
    }
  }

  func queryMember(_ name: String, of query: Query, at node: some SyntaxProtocol) throws -> Value {
    if name == "all" { return .query(query) }
    // `let list = RemindersList(id: 1, title: "Personal")` then `list.id`: a field of a record
    // value is that value (bound like any other).
    if query.select.from == nil, query.select.wheres.isEmpty, let typeName = query.resultModel,
      let model = catalog.table(forType: typeName.hasSuffix(".Draft") ? String(typeName.dropLast(6)) : typeName),
      let column = model.column(named: name) ?? (name == "id" && model.column(named: "id") == nil && model.primaryKeyColumns.count == 1
        ? model.primaryKeyColumns.first : nil),
      let index = query.select.columns.firstIndex(where: { $0.alias == column.sqlName })
    {
      let type = query.columnTypes.indices.contains(index) ? query.columnTypes[index] : column.type
      return .expression(TypedExpression(query.select.columns[index].expression, type: type ?? column.type))
    }
    // `Attachment.Kind`: a type nested in the table's type.
    if let table = query.tables.first, let nested = catalog.table(forType: table.model.typeName + "." + name) {
      return .table(TableInstance(model: nested))
    }
    // `Reminder.Status`: an enum nested in the table's type.
    if let table = query.tables.first, let nested = catalog.enums[table.model.typeName + "." + name] {
      return .enumType(nested)
    }
    // A scope reached through a query (`RemindersList.limit(1).withReminderCount`) merges.
    if let table = query.tables.first, let scope = table.model.scopes[name] {
      let scoped = try callScope(scope, on: TableInstance(model: table.model, alias: table.alias), arguments: [], at: node)
      guard case .query(let other) = scoped else { return scoped }
      return .query(merge(query, other))
    }
    let candidates = Vocabulary.names(for: .query) + (query.tables.first.map { Array($0.model.scopes.keys) } ?? [])
    throw source.diagnostic(
      "a query of '\(query.tables.first?.model.typeName ?? "?")' has no member '\(name)'", at: node,
      suggestion: closestMatch(to: name, in: candidates))
  }

  /// Compiles a scope (static let or static func) with `Self` bound to the table.
  func callScope(_ scope: Scope, on table: TableInstance, arguments: [Value], at node: some SyntaxProtocol) throws -> Value {
    guard arguments.count == scope.parameters.count else {
      throw source.diagnostic(
        "'\(scope.ownerType)' scope takes \(scope.parameters.count) argument\(scope.parameters.count == 1 ? "" : "s"), not \(arguments.count)",
        at: node)
    }
    var bindings: [String: Value] = [:]
    for (name, value) in zip(scope.parameters, arguments) { bindings[name] = value }
    return try withSource(scope.body) {
      try withContext(selfTable: table, bareColumns: nil) {
        try withLocals(bindings) { try evaluateBody(scope.body.syntax) }
      }
    }
  }

  /// Compiles with `Self` (and bare column names, inside a computed column) bound to a table.
  func withContext<T>(selfTable table: TableInstance?, bareColumns: TableInstance?, _ body: () throws -> T) rethrows -> T {
    let saved = (selfTable, bareColumnsTable)
    selfTable = table
    bareColumnsTable = bareColumns
    defer { (selfTable, bareColumnsTable) = saved }
    return try body()
  }

  /// Adds another select's clauses to a query, the way StructuredQueries chains selects:
  /// columns, filters, groups and orderings append; a later limit wins.
  func absorbClauses(of other: Query, into query: inout Query) {
    query.select.distinct = query.select.distinct || other.select.distinct
    query.select.columns += other.select.columns
    query.columnTypes += other.columnTypes
    query.select.wheres += other.select.wheres
    query.select.groups += other.select.groups
    query.select.havings += other.select.havings
    query.select.orders += other.select.orders
    query.select.limit = other.select.limit ?? query.select.limit
    query.select.offset = other.select.offset ?? query.select.offset
    query.select.isEmpty = query.select.isEmpty || other.select.isEmpty
  }

  /// Two selects over the same table combined clause by clause, the way StructuredQueries
  /// chains a scope onto a query.
  func merge(_ lhs: Query, _ rhs: Query) -> Query {
    var out = lhs
    out.select.joins += rhs.select.joins
    out.tables += rhs.tables.dropFirst()
    absorbClauses(of: rhs, into: &out)
    return out
  }

  func asQuery(_ value: Value, at node: some SyntaxProtocol) throws -> Query {
    switch value {
    case .query(let query): return query
    case .table(let table):
      if table.model.isSelection {
        throw source.diagnostic("'\(table.model.typeName)' is a @Selection type, not a table", at: node)
      }
      return try baseQuery(table)
    default:
      throw source.diagnostic("expected a query here, but this is \(describe(value))", at: node)
    }
  }

  /// Values a closure is called with: one `TableColumns` per table of the query.
  func columnArguments(_ query: Query) -> [Value] { query.tables.map { .columns($0) } }

  /// Evaluates a closure or key path argument against the query's tables.
  func evaluateProjection(_ expr: ExprSyntax, on query: Query) throws -> Value {
    if let closure = expr.as(ClosureExprSyntax.self) {
      return try invoke(closure, with: columnArguments(query))
    }
    let value = try evaluate(expr)
    if case .keyPath(let names) = value {
      return try keyPathValue(names, on: query.tables[0], at: expr)
    }
    return value
  }

  /// The conditions a `where`/`having` argument builds: one for a key path or a one-line closure,
  /// several for a closure whose result builder makes several (a `for` loop, several lines).
  func evaluateConditions(_ expr: ExprSyntax, on query: Query) throws -> [Value] {
    if let closure = expr.as(ClosureExprSyntax.self) {
      return try invokeAll(closure, with: columnArguments(query))
    }
    return [try evaluateProjection(expr, on: query)]
  }

  func keyPathValue(_ names: [String], on table: TableInstance, at node: some SyntaxProtocol) throws -> Value {
    var value: Value = .columns(table)
    for name in names where name != "self" {
      value = try member(name, of: value, at: node)
    }
    return value
  }

  func queryMethod(_ name: String, on base: Query, arguments: Arguments) throws -> Value {
    var query = base
    let call = arguments.call
    switch name {
    case "where", "filter":
      guard let argument = arguments.first() else {
        throw source.diagnostic("'where' needs a condition: .where { $0.… }", at: call)
      }
      if let closure = argument.as(ClosureExprSyntax.self), let table = query.tables.first {
        try warnAboutSelfCorrelation(in: closure, reading: table)
      }
      // A closure may build several conditions (`for term in terms { … }`); each is ANDed.
      for value in try evaluateConditions(argument, on: query) {
        if let condition = try predicate(value, at: argument) { query.select.wheres.append(condition) }
      }
      return .query(query)

    case "not":
      return .query(negated(query))

    case "and", "or":
      guard let argument = arguments.first() else {
        throw source.diagnostic("'\(name)' needs another query: .\(name)(.where { … })", at: call)
      }
      let other = try asQuery(try evaluateImplicit(argument, table: query.tables[0]), at: argument)
      query.select.wheres = combine(query.combinedWhere, other.combinedWhere, name == "and" ? .and : .or)
      return .query(query)

    case "select":
      guard !arguments.isEmpty else {
        throw source.diagnostic("'select' needs columns: .select { $0.title } or .select(\\.title)", at: call)
      }
      for argument in arguments.list {
        let value = try evaluateProjection(argument.expression, on: query)
        try appendColumns(value, to: &query, at: argument.expression)
        if case .tuple(let values) = value { query.selectedValues += values } else { query.selectedValues.append(value) }
      }
      return .query(query)

    case "map":
      // `.select(\.id).select(\.title).map { _, title in title }`: the closure is handed the
      // columns selected so far, and what it returns becomes the selection.
      guard let argument = arguments.first(), let closure = argument.as(ClosureExprSyntax.self) else {
        throw source.diagnostic("'map' needs a closure over the selected columns: .map { id, title in … }", at: call)
      }
      guard !query.select.columns.isEmpty else {
        throw source.diagnostic("'map' works on selected columns; select some first: .select { ($0.id, $0.title) }", at: call)
      }
      let selected = query.selectedValues.isEmpty
        ? zip(query.select.columns, query.columnTypes).map { Value.expression(TypedExpression($0.expression, type: $1)) }
        : query.selectedValues
      let mapped = try invoke(closure, with: selected)
      query.select.columns = []
      query.columnTypes = []
      query.resultModel = nil
      query.selectedValues = []
      if case .selection(let pairs, _) = mapped {
        // Mapped into a selection type: its columns, in its order, without names.
        for (_, expression) in pairs {
          query.select.columns.append(ResultColumn(expression.expression))
          query.columnTypes.append(expression.type)
        }
      } else {
        try appendColumns(mapped, to: &query, at: closure)
        if case .tuple(let values) = mapped { query.selectedValues = values } else { query.selectedValues = [mapped] }
      }
      return .query(query)

    case "distinct":
      query.select.distinct = try arguments.first().map { try booleanConstant($0, for: "distinct") } ?? true
      return .query(query)

    case "join", "leftJoin", "rightJoin", "fullJoin", "crossJoin":
      let kind: Join.Kind =
        ["join": .inner, "leftJoin": .left, "rightJoin": .right, "fullJoin": .full, "crossJoin": .cross][name]!
      guard let target = arguments.positional.first else {
        throw source.diagnostic("'\(name)' needs a table to join: .\(name)(Other.all) { $0.id.eq($1.otherID) }", at: call)
      }
      var other = try asQuery(try evaluate(target), at: target)
      var combined = query
      if kind == .left || kind == .full {
        for index in other.tables.indices { other.tables[index].isOptional = true }
      }
      if kind == .right || kind == .full {
        for index in combined.tables.indices { combined.tables[index].isOptional = true }
      }
      combined.tables += other.tables
      var condition: Expression?
      if kind != .cross {
        guard let on = arguments.labelled("on") ?? (arguments.positional.count > 1 ? arguments.positional.last : nil) else {
          throw source.diagnostic("'\(name)' needs a join condition in a trailing closure: { $0.id.eq($1.otherID) }", at: call)
        }
        condition = try predicate(try evaluateProjection(on, on: combined), at: on) ?? .value(.integer(1))
      }
      combined.select.joins.append(Join(kind, other.tables[0].reference, on: condition))
      combined.select.joins += other.select.joins
      absorbClauses(of: other, into: &combined)
      return .query(combined)

    case "group":
      guard let argument = arguments.labelled("by") ?? arguments.first() else {
        throw source.diagnostic("'group' needs columns: .group(by: \\.id)", at: call)
      }
      for expression in try flattenExpressions(try evaluateProjection(argument, on: query), at: argument) {
        query.select.groups.append(expression.expression)
      }
      return .query(query)

    case "having":
      guard let argument = arguments.first() else {
        throw source.diagnostic("'having' needs a condition: .having { $0.id.count() > 1 }", at: call)
      }
      for value in try evaluateConditions(argument, on: query) {
        if let condition = try predicate(value, at: argument) { query.select.havings.append(condition) }
      }
      return .query(query)

    case "order":
      guard let argument = arguments.labelled("by") ?? arguments.first() else {
        throw source.diagnostic("'order' needs terms: .order(by: \\.title) or .order { $0.title.desc() }", at: call)
      }
      query.select.orders += try orderings(try evaluateProjection(argument, on: query), at: argument)
      return .query(query)

    case "limit":
      if let argument = arguments.positional.first {
        if let limit = try limitValue(argument, on: query) { query.select.limit = limit }
      }
      if let argument = arguments.labelled("offset") {
        if let offset = try limitValue(argument, on: query) { query.select.offset = offset }
      }
      return .query(query)

    case "offset":
      if let argument = arguments.first(), let offset = try limitValue(argument, on: query) {
        if query.select.limit == nil { query.select.limit = .value(.integer(-1)) }
        query.select.offset = offset
      }
      return .query(query)

    case "count":
      // `Reminder.count { !$0.isCompleted }`: count(*) FILTER (WHERE …).
      var filter: Expression?
      if let argument = arguments.labelled("filter") ?? arguments.first() {
        filter = try predicate(try evaluateProjection(argument, on: query), at: argument)
      }
      query.select.columns = [ResultColumn(Expression(.aggregate(Aggregate(name: "count", arguments: [.star], filter: filter))))]
      query.columnTypes = [.int]
      return .query(query)

    case "find":
      if let argument = arguments.first(), query.tables[0].model.primaryKeyColumns.count > 1 {
        return .query(try findComposite(argument, in: query))
      }
      guard let argument = arguments.first(), let key = query.tables[0].model.primaryKey else {
        throw source.diagnostic("'find' needs a primary key value, and the table a primary key", at: call)
      }
      let column = query.tables[0].column(key)
      let value = try evaluate(argument, expected: key.type)
      let values: [Value]
      if case .array(let elements) = value { values = elements } else { values = [value] }
      let list = try values.map { try typedExpression($0, expected: key.type, at: argument).expression }
      query.select.wheres.append(column.expression.binary(.in, Expression(.list(list))))
      return .query(query)

    case "exists":
      return .expression(TypedExpression(Expression(.exists(.select(query.select))), type: .bool))

    case "contains":
      // `Tag.select(\.id).contains($0.tagID)`: deprecated in StructuredQueries in favour of
      // `$0.tagID.in(…)`, and the same SQL.
      guard let argument = arguments.first() else {
        throw source.diagnostic("'contains' needs an element: query.contains($0.id)", at: call)
      }
      let element = try typedExpression(try evaluate(argument), at: argument)
      return boolean(element.expression.binary(.in, Expression(.statement(.select(query.select)))))

    case "as":
      // `Employee.all.as(Manager.self)`: the same table under an alias.
      guard let argument = arguments.first(), case .aliasType(let alias) = try evaluate(argument) else {
        throw source.diagnostic("'as' needs an alias type: .as(Manager.self)", at: call)
      }
      var table = query.tables[0]
      let oldQualifier = table.qualifier
      table.alias = alias.aliasName
      if query.tables.count == 1, query.select.wheres.isEmpty, query.select.columns.isEmpty,
        query.select.joins.isEmpty, query.select.orders.isEmpty
      {
        return .query(Query(table))
      }
      // `Reminder.as(R1.self).find(1).as(R2.self)`: the whole query under the new name, when
      // its clauses are plain expressions of the one table.
      var moved = Query(table)
      moved.select.limit = query.select.limit
      moved.select.offset = query.select.offset
      moved.select.distinct = query.select.distinct
      moved.resultModel = query.resultModel
      guard query.tables.count == 1, query.select.joins.isEmpty, query.select.columns.isEmpty,
        query.select.groups.isEmpty, query.select.havings.isEmpty,
        let wheres = Optional(query.select.wheres.compactMap { $0.requalified(from: oldQualifier, to: table.qualifier) }),
        wheres.count == query.select.wheres.count
      else {
        throw source.diagnostic("apply .as(…) to the table before adding joins or selections: Table.as(Alias.self).where { … }", at: call)
      }
      moved.select.wheres = wheres
      for ordering in query.select.orders {
        guard let expression = ordering.expression.requalified(from: oldQualifier, to: table.qualifier) else {
          throw source.diagnostic("apply .as(…) to the table before ordering by this: Table.as(Alias.self).order { … }", at: call)
        }
        var copy = ordering
        copy.expression = expression
        moved.select.orders.append(copy)
      }
      return .query(moved)

    default:
      if let table = query.tables.first, let scope = table.model.scopes[name] {
        let values = try arguments.list.map { try evaluate($0.expression) }
        let scoped = try callScope(scope, on: TableInstance(model: table.model, alias: table.alias), arguments: values, at: call)
        if case .query(let other) = scoped { return .query(merge(query, other)) }
        return scoped
      }
      if let write = try writeMethod(name, on: query, arguments: arguments) { return write }
      throw unknownMethod(
        name, on: .query, described: "a query of '\(query.tables.first?.model.typeName ?? "?")'",
        extra: query.tables.first.map { Array($0.model.scopes.keys) } ?? [],
        at: call.calledExpression.as(MemberAccessExprSyntax.self).map { Syntax($0.declName) } ?? Syntax(call.calledExpression))
    }
  }

  /// `(a) AND (b)` of two optional predicates, the way `Where.and` combines them.
  func combine(_ lhs: Expression?, _ rhs: Expression?, _ op: BinaryOperator) -> [Expression] {
    switch (lhs, rhs) {
    case (nil, nil): return []
    case (let l?, nil): return [l]
    case (nil, let r?): return [r]
    case (let l?, let r?): return [l.binary(op, r)]
    }
  }

  /// Evaluates an argument where a leading-dot call means a query of `table` (`.where { … }`).
  func evaluateImplicit(_ expr: ExprSyntax, table: TableInstance) throws -> Value {
    if let call = expr.as(FunctionCallExprSyntax.self),
      let member = call.calledExpression.as(MemberAccessExprSyntax.self), member.base == nil
    {
      return try queryMethod(member.declName.baseName.text, on: Query(table), arguments: Arguments(call))
    }
    return try evaluate(expr)
  }

  func limitValue(_ expr: ExprSyntax, on query: Query) throws -> Expression? {
    let value = try evaluateProjection(expr, on: query)
    if case .null = value { return nil }
    return try typedExpression(value, expected: .int, at: expr).expression
  }

  func appendColumns(_ value: Value, to query: inout Query, at node: some SyntaxProtocol) throws {
    switch value {
    case .group(let table, let path):
      for column in rowMethods.groupColumns(table, path) {
        query.select.columns.append(ResultColumn(column.expression))
        query.columnTypes.append(column.type)
      }
    case .columns(let table):
      for column in table.allColumns {
        query.select.columns.append(ResultColumn(Self.decodedJSONB(column)))
        query.columnTypes.append(column.type)
      }
    case .tuple(let values):
      for value in values { try appendColumns(value, to: &query, at: node) }
    case .selection(let pairs, let model):
      query.resultModel = model
      for (name, expression) in pairs {
        query.select.columns.append(ResultColumn(expression.expression, as: name))
        query.columnTypes.append(expression.type)
      }
    case .table(let table):
      let query2 = Query(table)
      query.select.columns.append(ResultColumn(Expression(.subquery(.select(query2.select)))))
      query.columnTypes.append(nil)
    default:
      let expression = try typedExpression(value, at: node)
      query.select.columns.append(ResultColumn(Self.decodedJSONB(expression)))
      query.columnTypes.append(expression.type)
    }
  }

  /// A JSONB-stored value is selected as JSON text (`json("reminders"."notes")`), as
  /// StructuredQueries decodes it.
  static func decodedJSONB(_ expression: TypedExpression) -> Expression {
    guard expression.type?.representation?.contains("JSONB") == true else { return expression.expression }
    if case .function("json", _) = expression.expression.node { return expression.expression }
    return .function("json", [expression.expression])
  }

  func flattenExpressions(_ value: Value, at node: some SyntaxProtocol) throws -> [TypedExpression] {
    switch value {
    case .tuple(let values): return try values.flatMap { try flattenExpressions($0, at: node) }
    case .columns(let table): return table.allColumns
    case .group(let table, let path): return rowMethods.groupColumns(table, path)
    default: return [try typedExpression(value, at: node)]
    }
  }

  func orderings(_ value: Value, at node: some SyntaxProtocol) throws -> [Ordering] {
    switch value {
    case .ordering(let ordering): return [ordering]
    case .tuple(let values): return try values.flatMap { try orderings($0, at: node) }
    case .array(let values): return try values.flatMap { try orderings($0, at: node) }
    case .null: return []
    default: return try flattenExpressions(value, at: node).map { Ordering($0.expression) }
    }
  }
}

extension Compiler {
  /// `Product.where { p in p.price > Product.where { $0.category.eq(p.category) }… }`: the outer
  /// row and the subquery read the same table under the same name, so in SQL `"products"."category"`
  /// is the subquery's own column and the condition compares a row with itself. StructuredQueries
  /// renders it so too; a warning names the fix (an alias).
  func warnAboutSelfCorrelation(in closure: ClosureExprSyntax, reading table: TableInstance) throws {
    guard table.alias == nil else { return }
    var warned: Set<String> = []
    for token in closure.statements.tokens(viewMode: .sourceAccurate) {
      guard case .identifier(let name) = token.tokenKind, !warned.contains(name),
        let reference = token.parent?.as(DeclReferenceExprSyntax.self),
        reference.parent?.as(MemberAccessExprSyntax.self)?.base?.id == ExprSyntax(reference).id,
        case .columns(let outer)? = lookupLocal(name), outer.alias == nil,
        outer.qualifier == table.qualifier
      else { continue }
      warned.insert(name)
      try warn(
        "'\(name)' is the outer row of '\(table.model.tableName)', but this query reads '\(table.model.tableName)' too, under the same name: in SQL its columns mean this query's own row, so the condition compares each row with itself; give one side an alias (enum Other: AliasName {} and \(table.model.typeName).as(Other.self))",
        at: reference)
    }
  }
}

extension Compiler {
  /// `find` on a table whose primary key is a column group: its columns as a row value.
  ///
  /// ```swift
  /// Metadata.find(MetadataID(recordID: UUID(0), recordType: "reminders"))
  /// // … WHERE (("metadatas"."recordID", "metadatas"."recordType") IN (('00000000-…', 'reminders')))
  /// ```
  func findComposite(_ argument: ExprSyntax, in query: Query) throws -> Query {
    var query = query
    let table = query.tables[0]
    let keys = table.model.primaryKeyColumns
    let value = try evaluate(argument)
    var records: [Value] = []
    if case .array(let elements) = value { records = elements } else { records = [value] }
    let keyName = keys.first?.path.first ?? "id"
    var rows: [SQLPart] = []
    for record in records {
      guard case .query(let row) = record, row.select.columns.count == keys.count else {
        throw source.diagnostic(
          "'find' on '\(table.model.typeName)' needs whole '\(keyName)' values, each with \(keys.map(\.name).joined(separator: " and "))",
          at: argument)
      }
      if !rows.isEmpty { rows.append(.text(", ")) }
      rows += RowMethods.row(row.select.columns.map(\.expression))
    }
    let parts = RowMethods.row(keys.map { table.column($0).expression }) + [.text(" IN (")] + rows + [.text(")")]
    query.select.wheres.append(Expression(.sql(parts)))
    return query
  }

}
