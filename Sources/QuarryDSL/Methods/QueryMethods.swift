import QueryBuilder
import SwiftSyntax

/// What methods of a query do (`where`, `select`, `join`, `group`, `order`, `limit`, …): the handlers
/// of the query vocabulary.
///
/// ```swift
/// Reminder.where { !$0.isCompleted }.limit(2)
/// // SELECT … FROM "reminders" WHERE (NOT ("reminders"."isCompleted")) LIMIT 2
/// ```
struct QueryMethods {
  unowned let compiler: Compiler
}

extension Compiler {
  /// Query methods, working in this compiler's context.
  var queryMethods: QueryMethods { QueryMethods(compiler: self) }
}

/// Query methods: `where`, `select`, `join`, `group`, `having`, `order`, `limit`, and friends.
extension QueryMethods {
  /// Runs query method `name` on `query`: its vocabulary entry's handler, or a scope of the
  /// query's table, or a located error naming the closest method.
  func queryMethod(_ name: String, on query: Query, arguments: Arguments) throws -> Value {
    // The model's own static function wins where it fits the call, as in Swift.
    if let table = query.tables.first, compiler.ownScope(name, of: table.model, fitting: arguments) != nil {
      return try scopeOrUnknown(name, on: query, arguments: arguments)
    }
    if let value = try compiler.dispatch(name, on: .query, receiver: .query(query), CallSite(arguments)) { return value }
    return try scopeOrUnknown(name, on: query, arguments: arguments)
  }

  /// A query method the vocabulary does not declare: a scope of the query's table, or an
  /// unknown name (with the closest declared one).
  func scopeOrUnknown(_ name: String, on query: Query, arguments: Arguments) throws -> Value {
    let call = arguments.call
    if let table = query.tables.first, let scope = table.model.scopes[name] {
      let values = try compiler.scopeArguments(of: scope, arguments)
      let scoped = try compiler.callScope(scope, on: TableInstance(model: table.model, alias: table.alias), arguments: values, at: call)
      if case .query(let other) = scoped { return .query(compiler.merge(query, other)) }
      return scoped
    }
    throw compiler.unknownMethod(
      name, on: .query, described: "a query of '\(query.tables.first?.model.typeName ?? "?")'",
      extra: query.tables.first.map { Array($0.model.scopes.keys) } ?? [],
      at: call.calledExpression.as(MemberAccessExprSyntax.self).map { Syntax($0.declName) } ?? Syntax(call.calledExpression))
  }

  /// `where { … }` (and its other name, `filter`): the rows where a condition holds, each condition
  /// a closure builds ANDed (SQL WHERE).
  func filter(_ base: Query, _ arguments: Arguments) throws -> Value {
    var query = base
    let call = arguments.call
    guard let argument = arguments.first() else {
      throw compiler.source.diagnostic("'where' needs a condition: .where { $0.… }", at: call)
    }
    if let closure = argument.as(ClosureExprSyntax.self), let table = query.tables.first {
      try warnAboutSelfCorrelation(in: closure, reading: table)
    }
    // A closure may build several conditions (`for term in terms { … }`); each is ANDed.
    for value in try compiler.evaluateConditions(argument, on: query) {
      if let condition = try compiler.predicate(value, at: argument) { query.select.wheres.append(condition) }
    }
    return .query(query)
  }

  /// `not()`: the query's condition negated.
  func negation(_ base: Query, _ arguments: Arguments) throws -> Value {
    let query = base
    return .query(compiler.negated(query))
  }

  /// `and(_:)`, `or(_:)`: this query's condition combined with another query's.
  func combination(_ name: String, _ base: Query, _ arguments: Arguments) throws -> Value {
    var query = base
    let call = arguments.call
    guard let argument = arguments.first() else {
      throw compiler.source.diagnostic("'\(name)' needs another query: .\(name)(.where { … })", at: call)
    }
    let other = try compiler.asQuery(try compiler.evaluateImplicit(argument, table: query.tables[0]), at: argument)
    query.select.wheres = compiler.combine(query.combinedWhere, other.combinedWhere, name == "and" ? .and : .or)
    return .query(query)
  }

  /// `select { … }`, `select(\\.title)`: the columns or expressions to return.
  func select(_ base: Query, _ arguments: Arguments) throws -> Value {
    var query = base
    let call = arguments.call
    guard !arguments.isEmpty else {
      throw compiler.source.diagnostic("'select' needs columns: .select { $0.title } or .select(\\.title)", at: call)
    }
    for argument in arguments.list {
      let value = try compiler.evaluateProjection(argument.expression, on: query)
      try compiler.appendColumns(value, to: &query, at: argument.expression)
      if case .tuple(let values) = value { query.selectedValues += values } else { query.selectedValues.append(value) }
    }
    return .query(query)
  }

  /// `map { … }`: the selected columns handed to a closure, whose result becomes the selection.
  func map(_ base: Query, _ arguments: Arguments) throws -> Value {
    var query = base
    let call = arguments.call
    // `.select(\.id).select(\.title).map { _, title in title }`: the closure is handed the
    // columns selected so far, and what it returns becomes the selection.
    guard let argument = arguments.first(), let closure = argument.as(ClosureExprSyntax.self) else {
      throw compiler.source.diagnostic("'map' needs a closure over the selected columns: .map { id, title in … }", at: call)
    }
    guard !query.select.columns.isEmpty else {
      throw compiler.source.diagnostic("'map' works on selected columns; select some first: .select { ($0.id, $0.title) }", at: call)
    }
    let selected =
      query.selectedValues.isEmpty
      ? zip(query.select.columns, query.columnTypes).map { Value.expression(TypedExpression($0.expression, type: $1)) }
      : query.selectedValues
    let mapped = try compiler.invoke(closure, with: selected)
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
      try compiler.appendColumns(mapped, to: &query, at: closure)
      if case .tuple(let values) = mapped { query.selectedValues = values } else { query.selectedValues = [mapped] }
    }
    return .query(query)
  }

  /// `distinct(_:)`: SELECT DISTINCT (a Bool known before the query runs).
  func distinct(_ base: Query, _ arguments: Arguments) throws -> Value {
    var query = base
    query.select.distinct = try arguments.first().map { try compiler.booleanConstant($0, for: "distinct") } ?? true
    return .query(query)
  }

  /// `join`, `leftJoin`, `rightJoin`, `fullJoin`, `crossJoin`: another query's table joined, its
  /// clauses merged, and the `on:` closure over both tables.
  func join(_ name: String, _ base: Query, _ arguments: Arguments) throws -> Value {
    let query = base
    let call = arguments.call
    let kind: Join.Kind =
      ["join": .inner, "leftJoin": .left, "rightJoin": .right, "fullJoin": .full, "crossJoin": .cross][name]!
    guard let target = arguments.positional.first else {
      throw compiler.source.diagnostic("'\(name)' needs a table to join: .\(name)(Other.all) { $0.id.eq($1.otherID) }", at: call)
    }
    var other = try compiler.asQuery(try compiler.evaluate(target), at: target)
    var combined = query
    // The `on:` closure sees both tables as they are (the library passes `F.TableColumns`);
    // only the joined query's later closures see the outer side as optional.
    var onScope = query
    onScope.tables += other.tables
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
        throw compiler.source.diagnostic("'\(name)' needs a join condition in a trailing closure: { $0.id.eq($1.otherID) }", at: call)
      }
      condition = try compiler.predicate(try compiler.evaluateProjection(on, on: onScope), at: on) ?? .value(.integer(1))
    }
    combined.select.joins.append(Join(kind, other.tables[0].reference, on: condition))
    combined.select.joins += other.select.joins
    compiler.absorbClauses(of: other, into: &combined)
    return .query(combined)
  }

  /// `group(by:)`: GROUP BY the columns a key path or closure gives.
  func group(_ base: Query, _ arguments: Arguments) throws -> Value {
    var query = base
    let call = arguments.call
    guard let argument = arguments.labelled("by") ?? arguments.first() else {
      throw compiler.source.diagnostic("'group' needs columns: .group(by: \\.id)", at: call)
    }
    for expression in try compiler.flattenExpressions(try compiler.evaluateProjection(argument, on: query), at: argument) {
      query.select.groups.append(expression.expression)
    }
    return .query(query)
  }

  /// `having { … }`: the groups where a condition holds (HAVING).
  func having(_ base: Query, _ arguments: Arguments) throws -> Value {
    var query = base
    let call = arguments.call
    guard let argument = arguments.first() else {
      throw compiler.source.diagnostic("'having' needs a condition: .having { $0.id.count() > 1 }", at: call)
    }
    for value in try compiler.evaluateConditions(argument, on: query) {
      if let condition = try compiler.predicate(value, at: argument) { query.select.havings.append(condition) }
    }
    return .query(query)
  }

  /// `order(by:)`, `order { … }`: ORDER BY, with `.desc()` and `nulls:` terms.
  func order(_ base: Query, _ arguments: Arguments) throws -> Value {
    var query = base
    let call = arguments.call
    guard let argument = arguments.labelled("by") ?? arguments.first() else {
      throw compiler.source.diagnostic("'order' needs terms: .order(by: \\.title) or .order { $0.title.desc() }", at: call)
    }
    query.select.orders += try compiler.orderings(try compiler.evaluateProjection(argument, on: query), at: argument)
    return .query(query)
  }

  /// `limit(_:offset:)`: LIMIT (and OFFSET).
  func limit(_ base: Query, _ arguments: Arguments) throws -> Value {
    var query = base
    if let argument = arguments.positional.first {
      if let limit = try limitValue(argument, on: query) { query.select.limit = limit }
    }
    if let argument = arguments.labelled("offset") {
      if let offset = try limitValue(argument, on: query) { query.select.offset = offset }
    }
    return .query(query)
  }

  /// `offset(_:)`: OFFSET, with `LIMIT -1` when the query has no limit.
  func offset(_ base: Query, _ arguments: Arguments) throws -> Value {
    var query = base
    if let argument = arguments.first(), let offset = try limitValue(argument, on: query) {
      if query.select.limit == nil { query.select.limit = .value(.integer(-1)) }
      query.select.offset = offset
    }
    return .query(query)
  }

  /// `count(filter:)`: the number of rows, `count(*)` with an optional FILTER.
  func count(_ base: Query, _ arguments: Arguments) throws -> Value {
    var query = base
    // `Reminder.count { !$0.isCompleted }`: count(*) FILTER (WHERE …).
    var filter: Expression?
    if let argument = arguments.labelled("filter") ?? arguments.first() {
      filter = try compiler.predicate(try compiler.evaluateProjection(argument, on: query), at: argument)
    }
    query.select.columns = [ResultColumn(Expression(.aggregate(Aggregate(name: "count", arguments: [.star], filter: filter))))]
    query.columnTypes = [.int]
    return .query(query)
  }

  /// `find(_:)`: the row (or rows, given a list) with this primary key.
  func find(_ base: Query, _ arguments: Arguments) throws -> Value {
    var query = base
    let call = arguments.call
    if let argument = arguments.first(), query.tables[0].model.primaryKeyColumns.count > 1 {
      return .query(try findComposite(argument, in: query))
    }
    guard let argument = arguments.first(), let key = query.tables[0].model.primaryKey else {
      throw compiler.source.diagnostic("'find' needs a primary key value, and the table a primary key", at: call)
    }
    let column = query.tables[0].column(key)
    let value = try compiler.evaluate(argument, expected: key.type)
    let values: [Value]
    if case .array(let elements) = value { values = elements } else { values = [value] }
    // `find(_ primaryKey: some QueryExpression<PrimaryKey>)` (or a sequence of them).
    if let type = column.type {
      let syntaxes = argument.as(ArrayExprSyntax.self).map { $0.elements.map(\.expression) } ?? [argument]
      for (syntax, element) in zip(syntaxes, values) where syntaxes.count == values.count {
        try compiler.checkArgument(
          syntax, element, of: "static method 'find'", receiver: type, accepting: [type], at: CallSite(arguments).nameNode)
      }
    }
    let list = try values.map { try compiler.typedExpression($0, expected: key.type, at: argument).expression }
    // Before 0.21 (an app that pins such a version): `find` took one key, `primaryKey.eq(key)`.
    if let pinned = compiler.pinnedLibrary, pinned < .findTakesKeys {
      if case .array = value {
        throw compiler.source.diagnostic(
          "'find' takes one primary key with swift-structured-queries \(pinned), which this app pins (a sequence of keys came with 0.21.0)",
          at: argument)
      }
      query.select.wheres.append(column.expression.binary(.equal, list[0]))
      return .query(query)
    }
    query.select.wheres.append(column.expression.binary(.in, Expression(.list(list))))
    return .query(query)
  }

  /// `exists()`: EXISTS of the query, a Bool expression.
  func exists(_ base: Query, _ arguments: Arguments) throws -> Value {
    let query = base
    return .expression(TypedExpression(Expression(.exists(.select(query.select))), type: .bool))
  }

  /// `contains(_:)`: the deprecated spelling of `element.in(query)`.
  func contains(_ base: Query, _ arguments: Arguments) throws -> Value {
    let query = base
    let call = arguments.call
    // `Tag.select(\.id).contains($0.tagID)`: deprecated in StructuredQueries in favour of
    // `$0.tagID.in(…)`, and the same SQL.
    guard let argument = arguments.first() else {
      throw compiler.source.diagnostic("'contains' needs an element: query.contains($0.id)", at: call)
    }
    let element = try compiler.typedExpression(try compiler.evaluate(argument), at: argument)
    return compiler.boolean(element.expression.binary(.in, Expression(.statement(.select(query.select)))))
  }

  /// `as(_:)`: the query's table under an alias (`enum R: AliasName {}`).
  func aliased(_ base: Query, _ arguments: Arguments) throws -> Value {
    let query = base
    let call = arguments.call
    // `Employee.all.as(Manager.self)`: the same table under an alias.
    guard let argument = arguments.first(), case .aliasType(let alias) = try compiler.evaluate(argument) else {
      throw compiler.source.diagnostic("'as' needs an alias type: .as(Manager.self)", at: call)
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
      throw compiler.source.diagnostic(
        "apply .as(…) to the table before adding joins or selections: Table.as(Alias.self).where { … }", at: call)
    }
    moved.select.wheres = wheres
    for ordering in query.select.orders {
      guard let expression = ordering.expression.requalified(from: oldQualifier, to: table.qualifier) else {
        throw compiler.source.diagnostic("apply .as(…) to the table before ordering by this: Table.as(Alias.self).order { … }", at: call)
      }
      var copy = ordering
      copy.expression = expression
      moved.select.orders.append(copy)
    }
    return .query(moved)
  }

  /// SQLiteData's `Reminder.find(db, key: 1)` (and on a query): the row `find(1)` selects, with
  /// `LIMIT 1`, fetched at once.
  func findNow(_ query: Query, _ arguments: Arguments) throws -> Value {
    var key = arguments
    key.list = Array(arguments.list.dropFirst())
    if !key.list.isEmpty { key.list[0].label = nil }
    guard case .query(var found) = try find(query, key) else {
      throw compiler.source.diagnostic("'find(_:key:)' needs a primary key value", at: arguments.call)
    }
    found.select.limit = Expression(.value(.integer(1)))
    found.select.offset = nil
    return .query(found)
  }

  /// `fetchAll(db)`, `fetchOne(db)`, `fetchCursor(db)`, `fetchCount(db)`, `execute(db)` in app
  /// code: the statement itself runs (`fetchCount` counts the rows; SQLiteData fetches one whole
  /// row with `LIMIT 1`, while a selection of values runs as it is).
  ///
  /// ```swift
  /// try Reminder.order(by: \.title).fetchOne(db)
  /// // SELECT … FROM "reminders" ORDER BY "reminders"."title" LIMIT 1
  /// ```
  func databaseCall(_ name: String, on receiver: Value, _ site: CallSite) throws -> Value {
    let arguments = try site.call(of: name, in: compiler)
    var statement = receiver
    if case .table(let table) = receiver { statement = .query(try compiler.baseQuery(table)) }
    // An expression runs only when it is a `#sql` statement or query; a column or a value inside
    // a query has no `execute` or `fetchAll` (the compiler refuses `$0.title.fetchAll(db)`).
    if case .expression(let typed) = receiver {
      guard case .sql = typed.expression.node else {
        throw compiler.source.diagnostic(
          "'\(name)' runs a query or a #sql statement, not an expression inside one: call it on the whole query (Reminder.where { … }.\(name)(db))",
          at: site.nameNode)
      }
    }
    if name == "fetchCount" {
      guard case .query(let query) = statement else {
        throw compiler.source.diagnostic("'fetchCount' counts the rows of a query", at: site.nameNode)
      }
      return try count(query, .none(for: arguments.call))
    }
    if name == "fetchOne", case .query(var query) = statement, query.select.columns.isEmpty {
      query.select.limit = Expression(.value(.integer(1)))
      query.select.offset = nil
      return .query(query)
    }
    return statement
  }

  func limitValue(_ expr: ExprSyntax, on query: Query) throws -> Expression? {
    if !expr.is(ClosureExprSyntax.self), !expr.is(StringLiteralExprSyntax.self) {
      try compiler.checkConcreteArgument(expr, parameter: SwiftType.int.optional)
    }
    let value = try compiler.evaluateProjection(expr, on: query)
    if case .null = value { return nil }
    return try compiler.typedExpression(value, expected: .int, at: expr).expression
  }
}

extension QueryMethods {
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
        case .columns(let outer)? = compiler.lookupLocal(name), outer.alias == nil,
        outer.qualifier == table.qualifier
      else { continue }
      warned.insert(name)
      try compiler.warn(
        "'\(name)' is the outer row of '\(table.model.tableName)', but this query reads '\(table.model.tableName)' too, under the same name: in SQL its columns mean this query's own row, so the condition compares each row with itself; give one side an alias (enum Other: AliasName {} and \(table.model.typeName).as(Other.self))",
        at: reference)
    }
  }
}

extension QueryMethods {
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
    let value = try compiler.evaluate(argument)
    var records: [Value] = []
    if case .array(let elements) = value { records = elements } else { records = [value] }
    let keyName = keys.first?.path.first ?? "id"
    var rows: [SQLPart] = []
    for record in records {
      guard case .query(let row) = record, row.select.columns.count == keys.count else {
        throw compiler.source.diagnostic(
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
