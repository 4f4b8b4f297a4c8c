import QueryBuilder
import SwiftSyntax

/// Queries as values: the query a table starts from, scopes, closures over a query's tables, and
/// the columns, groups and orderings a projection gives.
extension Compiler {
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
      let column = model.column(named: name)
        ?? (name == "id" && model.column(named: "id") == nil && model.primaryKeyColumns.count == 1
          ? model.primaryKeyColumns.first : nil),
      let index = query.select.columns.firstIndex(where: { $0.alias == column.sqlName })
    {
      var type = (query.columnTypes.indices.contains(index) ? query.columnTypes[index] : nil) ?? column.type
      // The field has its declared type (`priority: Priority?` holds `.high` as an optional).
      if column.type.isOptional || (column.isPrimaryKey && typeName.hasSuffix(".Draft")) { type = type.optional }
      return .expression(TypedExpression(query.select.columns[index].expression, type: type))
    }
    // `Reminder.Draft(title: "x").priority`: a field the initializer was not given holds its
    // default (nil for an optional; a draft's id is nil until the row is inserted).
    if query.select.from == nil, query.select.wheres.isEmpty, let typeName = query.resultModel,
      let model = catalog.table(forType: typeName.hasSuffix(".Draft") ? String(typeName.dropLast(6)) : typeName),
      let column = model.column(named: name), column.path.count <= 1
    {
      let isDraft = typeName.hasSuffix(".Draft")
      let type = isDraft && column.isPrimaryKey ? column.type.optional : column.type
      if isDraft && column.isPrimaryKey { return .expression(TypedExpression(.null, type: type)) }
      if column.volatileDefault != nil {
        // Swift made that value once, when the draft was; this record does not hold it.
        throw source.diagnostic(
          "'\(name)' was not given, and its default (\(column.unknownDefault ?? "a new value")) is made afresh for each value: Quarry cannot tell which one this draft holds; pass '\(name):' explicitly",
          at: node)
      }
      if let value = try defaultValue(of: column, at: node) { return .expression(TypedExpression(value, type: type)) }
      if column.type.isOptional { return .expression(TypedExpression(.null, type: type)) }
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
    let bindings = parameterBindings(of: scope, arguments)
    features.insert(.scope(scope.ownerType))
    declarationsUsed[.scope, default: []].insert(ObjectIdentifier(scope.body.source))
    return try withSource(scope.body) {
      try withContext(selfTable: table, bareColumns: nil) {
        try withLocals(bindings) { try evaluateBody(scope.body.syntax) }
      }
    }
  }

  /// The values a call passes to a scope or static function, its labels checked: a database
  /// handle (`_ db: Database`, `StructuredQueriesSQLite.Database`) is the app's plumbing, passed
  /// on as nothing (the statements given to it run), never evaluated.
  func scopeArguments(of scope: Scope, _ arguments: Arguments) throws -> [Value] {
    try checkCall(of: scope, arguments)
    guard let function = scope.body.syntax.parent?.as(FunctionDeclSyntax.self), let matched = scope.matching(arguments) else {
      return try arguments.list.map { try evaluate($0.expression) }
    }
    // One value per parameter, as Swift binds them: the argument given for it, else its default
    // value (evaluated where the function is declared, with the parameter's type).
    return try zip(function.signature.parameterClause.parameters, matched).map { parameter, argument in
      if AppCodeRunner.isDatabaseHandle(parameter.type.trimmedDescription) { return .null }
      if let argument { return try evaluate(arguments.list[argument].expression) }
      guard let defaultValue = parameter.defaultValue?.value else { return .null }
      return try withSource(scope.body) { try evaluate(defaultValue, expected: SwiftEvaluator.swiftType(parameter.type)) }
    }
  }

  /// The model's own static function `name` when it takes these arguments, as Swift prefers a
  /// type's own member over the library's: `Tag.insert(db, title: "x")` is the app's
  /// `static func insert(_ db: Database, title: String)`, `Tag.insert { … }` inside it the
  /// library's. Nil when the model has none by that name or it does not fit the call.
  func ownScope(_ name: String, of model: TableModel, fitting arguments: Arguments) -> Scope? {
    guard let scope = model.scopes[name], scope.accepts(arguments) else { return nil }
    return scope
  }

  /// A call of a static function the input declares (`Reminder.assigned(to: 1)`): its labels as
  /// declared, each argument converted to its parameter's type as Swift converts it.
  func checkCall(of scope: Scope, _ arguments: Arguments) throws {
    guard let labels = scope.parameterLabels, labels.count == arguments.list.count else { return }
    for (argument, label) in zip(arguments.list, labels) where argument.label != label {
      let message =
        label.map {
          argument.label == nil
            ? "missing argument label '\($0):' in call"
            : "incorrect argument label in call (have '\(argument.label ?? "_"):', expected '\($0):')"
        }
        ?? "extraneous argument label '\(argument.label ?? ""):' in call"
      throw source.diagnostic(message, at: argument.label == nil ? Syntax(argument.expression) : argument.labelNode)
    }
    for (argument, type) in zip(arguments.list, scope.parameterTypes) {
      if let type { try checkConcreteArgument(argument.expression, parameter: type) }
    }
  }

  /// A scope's or function's parameters bound to the values passed, each with its declared type
  /// (`func atLeast(_ p: Int?)` called with `3`: inside, `p` is an `Int?`, as Swift has it).
  func parameterBindings(of scope: Scope, _ values: [Value]) -> [String: Value] {
    var bindings: [String: Value] = [:]
    for (index, (name, value)) in zip(scope.parameters, values).enumerated() {
      var bound = value
      if index < scope.parameterTypes.count, let declared = scope.parameterTypes[index], isKnown(declared),
        case .expression(var typed) = value, typed.expression.isConstant || typed.expression.isCurrentDate
      {
        typed.type = declared
        bound = .expression(typed)
      }
      bindings[name] = bound
    }
    return bindings
  }

  /// Swift's check of a call of the input's function: a parameter of a plain Swift type
  /// (`_ x: Int`) takes a Swift value, never a column or another query expression, which is
  /// SQL the function would need as `some QueryExpression<Int>`.
  ///
  /// ```swift
  /// func double(_ x: Int) -> Int { x * 2 }
  /// Reminder.where { $0.id.eq(double($0.id)) }
  /// // error: cannot convert value of type 'some QueryExpression<Int>' to expected argument type 'Int'
  /// ```
  func checkSwiftArguments(of function: Scope, _ values: [Value], at arguments: [ExprSyntax]) throws {
    for (index, (value, argument)) in zip(values, arguments).enumerated() {
      guard index < function.parameterTypes.count, let declared = function.parameterTypes[index], isKnown(declared),
        case .expression(let typed) = value, !typed.expression.isConstant, !typed.expression.isCurrentDate,
        Self.runTimeName(in: typed.expression) == nil
      else { continue }
      let given = typed.type.map { "some QueryExpression<\($0)>" } ?? "some QueryExpression"
      // swiftc points at the column itself: the first operand's, in `$0.id + 1`.
      var column = argument
      while true {
        if let infix = column.as(InfixOperatorExprSyntax.self) {
          column = infix.leftOperand
        } else if let sequence = column.as(SequenceExprSyntax.self), let first = sequence.elements.first {
          column = first
        } else {
          break
        }
      }
      throw source.diagnostic(
        "cannot convert value of type '\(given)' to expected argument type '\(declared)' (a column is SQL, not a Swift value: a parameter 'some QueryExpression<\(declared)>' takes it)",
        at: pointOf(column))
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
    // `.order(by: "title")`: a column is named by a key path or a closure, never by its name in text.
    if expr.is(StringLiteralExprSyntax.self), let table = query.tables.first {
      throw source.diagnostic(
        "cannot convert value of type 'String' to expected argument type '(\(table.model.typeName).TableColumns) -> …' (name a column with a key path, \\.title, or a closure, { $0.title })",
        at: expr)
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
      return try queryMethods.queryMethod(member.declName.baseName.text, on: Query(table), arguments: Arguments(call))
    }
    return try evaluate(expr)
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

extension Scope {
  /// Whether a call's arguments fit this scope's parameters as Swift matches them: in order,
  /// each with its declared label, a parameter with a default value left out, a trailing closure
  /// for a closure parameter. A scope that is a property takes no arguments.
  func accepts(_ arguments: Arguments) -> Bool {
    guard body.syntax.parent?.is(FunctionDeclSyntax.self) == true else { return arguments.list.isEmpty }
    return matching(arguments) != nil
  }

  /// For each parameter of the function, the index of the argument Swift binds to it (nil: its
  /// default value); nil when the arguments do not fit, or the scope is not a function.
  func matching(_ arguments: Arguments) -> [Int?]? {
    guard let function = body.syntax.parent?.as(FunctionDeclSyntax.self) else { return nil }
    let parameters = Array(function.signature.parameterClause.parameters)
    var matched: [Int?] = Array(repeating: nil, count: parameters.count)
    var index = 0
    for (position, argument) in arguments.list.enumerated() {
      while index < parameters.count {
        let parameter = parameters[index]
        let label = parameter.firstName.text == "_" ? nil : parameter.firstName.text
        let takesClosure = parameter.type.trimmedDescription.contains("->")
        if argument.isTrailingClosure ? takesClosure : label == argument.label { break }
        guard parameter.defaultValue != nil else { return nil }
        index += 1
      }
      guard index < parameters.count else { return nil }
      matched[index] = position
      index += 1
    }
    guard parameters[index...].allSatisfy({ $0.defaultValue != nil }) else { return nil }
    return matched
  }
}
