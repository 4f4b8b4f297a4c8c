import QueryBuilder
import SwiftSyntax

/// What methods of a finished statement do (compound selects, `order`/`limit` of a compound, `drop`):
/// the handlers of the statement vocabulary.
///
/// ```swift
/// Tag.select(\.title).union(RemindersList.select(\.title))
/// // SELECT "tags"."title" FROM "tags" UNION SELECT "remindersLists"."title" FROM "remindersLists"
/// ```
struct StatementMethods {
  unowned let compiler: Compiler
}

extension Compiler {
  /// Statement methods, working in this compiler's context.
  var statementMethods: StatementMethods { StatementMethods(compiler: self) }
}

/// Methods of finished statements: compound selects and what they are ordered, limited or dropped by.
extension StatementMethods {
  func evaluateClosureOrExpression(_ syntax: ExprSyntax) throws -> Value {
    if let closure = syntax.as(ClosureExprSyntax.self) { return try compiler.invoke(closure, with: []) }
    return try compiler.evaluate(syntax)
  }

  /// A value usable as a whole statement (a CTE body, an insert's select).
  func statementValue(_ value: Value, at node: some SyntaxProtocol) throws -> Statement {
    switch value {
    case .query(let query): return .select(query.select)
    case .table(let table): return .select(try compiler.baseQuery(table).select)
    case .statement(let statement, _): return statement
    case .write(let write): return write.statement
    default: throw compiler.source.diagnostic("expected a query here, but this is \(compiler.describe(value))", at: node)
    }
  }

  // MARK: Compound selects

  /// `union`, `intersect`, `except` on a query: a compound select of its rows and another query's.
  /// A whole table's rows (`Tag.all.union(…)`) are rows of that table's type.
  func compoundOfQuery(_ name: String, _ query: Query, _ arguments: Arguments) throws -> Value {
    let model = query.resultModel ?? (query.select.columns.isEmpty && query.select.joins.isEmpty ? query.tables.first?.model.typeName : nil)
    return try compound(name, lhs: .select(query.select), lhsModel: model, types: query.resultTypes, arguments: arguments)
  }

  func compound(_ name: String, lhs: Statement, lhsModel: String?, types: [SwiftType?], arguments: Arguments) throws -> Value {
    guard let argument = arguments.positional.first else {
      throw compiler.source.diagnostic("'\(name)' needs another query", at: arguments.call)
    }
    let all = try arguments.labelled("all").map { try compiler.booleanConstant($0, for: "all") } ?? false
    let op: CompoundSelect.Operator =
      name == "union" ? (all ? .unionAll : .union) : name == "intersect" ? .intersect : .except
    let rhs = try statementValue(try compiler.evaluate(argument), at: argument)
    var terms: [(CompoundSelect.Operator, Statement)] = []
    var first: Statement? = lhs
    if case .compound(let existing) = lhs {
      first = existing.first
      terms = existing.rest.map { ($0.op, $0.statement) }
    }
    terms.append((op, rhs))
    // Empty selects (`T.none`) drop out, as in StructuredQueries.
    func isEmpty(_ statement: Statement) -> Bool {
      if case .select(let s) = statement { return s.isEmpty }
      return false
    }
    var kept: [(CompoundSelect.Operator, Statement)] = []
    if let first, !isEmpty(first) { kept.append((.union, first)) }
    kept += terms.filter { !isEmpty($0.1) }
    guard let head = kept.first else {
      var empty = Select(from: nil)
      empty.isEmpty = true
      return .statement(.select(empty), returningTypes: types)
    }
    if kept.count == 1 {
      return .statement(head.1, returningTypes: types)
    }
    let compound = CompoundSelect(
      first: head.1, rest: kept.dropFirst().map { CompoundSelect.Term($0.0, $0.1) })
    compiler.compoundModels[compoundKey(compound)] = lhsModel
    return .statement(.compound(compound), returningTypes: types)
  }

  func compoundKey(_ compound: CompoundSelect) -> Int { compound.hashValue }

  /// A method of a finished statement (a compound select, a created view or trigger), run by
  /// its vocabulary entry's handler.
  func statementMethod(_ name: String, on statement: Statement, types: [SwiftType?], arguments: Arguments, at node: MemberAccessExprSyntax)
    throws -> Value
  {
    guard
      let value = try compiler.dispatch(
        name, on: .statement, receiver: .statement(statement, returningTypes: types), CallSite(arguments, member: node))
    else {
      throw compiler.source.diagnostic("not supported in Quarry yet: '.\(name)' on this statement", at: arguments.call.calledExpression)
    }
    return value
  }

  /// `drop()` of the view or trigger a statement created.
  func dropCreated(_ statement: Statement, _ types: [SwiftType?], _ arguments: Arguments, _ node: MemberAccessExprSyntax) throws -> Value {
    guard let drop = try compiler.tableMethods.dropStatement(statement, arguments: arguments) else {
      throw compiler.source.diagnostic("not supported in Quarry yet: '.drop' on this statement", at: arguments.call.calledExpression)
    }
    return drop
  }

  /// `union`, `intersect`, `except` on a statement already compound.
  func compoundOfStatement(_ statement: Statement, _ types: [SwiftType?], _ arguments: Arguments, _ node: MemberAccessExprSyntax) throws
    -> Value
  {
    var model: String?
    if case .compound(let c) = statement { model = compiler.compoundModels[compoundKey(c)] }
    return try compound(node.declName.baseName.text, lhs: statement, lhsModel: model, types: types, arguments: arguments)
  }

  /// `order(by:)` and `limit(_:)` of a compound select: on its rows, selected into a @Table type.
  func orderOrLimitCompound(_ statement: Statement, _ types: [SwiftType?], _ arguments: Arguments, _ node: MemberAccessExprSyntax) throws
    -> Value
  {
    let name = node.declName.baseName.text
    guard case .compound(var compound) = statement else {
      throw compiler.source.diagnostic("not supported in Quarry yet: '.\(name)' on this statement", at: arguments.call.calledExpression)
    }
    let model = compiler.compoundModels[compoundKey(compound)]
    var query = Query(select: Select(from: nil), tables: [])
    if let modelName = model, let tableModel = compiler.catalog.table(forType: modelName) {
      query = Query(TableInstance(model: tableModel))
    }
    guard !query.tables.isEmpty, case .query(let ordered) = try compiler.queryMethods.queryMethod(name, on: query, arguments: arguments)
    else {
      throw compiler.source.diagnostic("'\(name)' on a compound select needs its rows selected into a @Table type", at: arguments.call)
    }
    compound.orders += ordered.select.orders.map { ordering in
      var o = ordering
      o.expression = compiler.writeMethods.unqualified(o.expression)
      return o
    }
    compound.limit = ordered.select.limit ?? compound.limit
    compound.offset = ordered.select.offset ?? compound.offset
    compiler.compoundModels[compoundKey(compound)] = model
    return .statement(.compound(compound), returningTypes: types)
  }
}
