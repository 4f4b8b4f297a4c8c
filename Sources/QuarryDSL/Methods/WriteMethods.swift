import QueryBuilder
import SwiftSyntax

/// What inserts, updates and deletes are built from (`insert`, `upsert`, `update`, `delete`,
/// `returning`, assignments, rows of records): the handlers of the write vocabulary.
///
/// ```swift
/// Tag.where { $0.id.eq(1) }.update { $0.title = "home" }
/// // UPDATE "tags" SET "title" = 'home' WHERE ("tags"."id" = 1)
/// ```
struct WriteMethods {
  unowned let compiler: Compiler
  /// Rows of records are read for their primary key alone (`delete(record)`): what their other
  /// fields hold binds nothing, so it is no note of the statement's.
  var readsOnlyKeys = false
}

extension Compiler {
  /// Write methods, working in this compiler's context.
  var writeMethods: WriteMethods { WriteMethods(compiler: self) }
}

/// `delete()`, `update { … }`, `insert { … }`, `returning`, and compound selects.
extension WriteMethods {
  /// `delete()`, `delete(record)`: a DELETE of the rows the query matches (or of the record's row).
  ///
  /// ```swift
  /// Reminder.where(\.isCompleted).delete()
  /// // DELETE FROM "reminders" WHERE "reminders"."isCompleted"
  /// ```
  func delete(_ query: Query, _ arguments: Arguments) throws -> Value {
    let table = query.tables[0]
    var delete = Delete(table: table.model.qualifiedName, alias: table.alias, wheres: query.select.wheres)
    delete.isEmpty = query.select.isEmpty
    // `Reminder.delete(reminder)`: the row with that record's primary key.
    if let record = arguments.first() {
      var keysOnly = self
      keysOnly.readsOnlyKeys = true
      let (match, _) = try keysOnly.primaryKeyMatch(record, table: table, verb: "delete")
      delete.wheres.append(match)
    }
    return .write(WriteQuery(table: table, statement: .delete(delete)))
  }

  /// `update { … }`, `update(record)`: an UPDATE of the rows the query matches, from a closure of
  /// assignments (or of the record's row, every column).
  func update(_ query: Query, _ arguments: Arguments) throws -> Value {
    let table = query.tables[0]
    if let record = arguments.first(), !record.is(ClosureExprSyntax.self) {
      return try updateRecord(record, table: table, query: query)
    }
    guard let closure = arguments.first()?.as(ClosureExprSyntax.self) else {
      throw compiler.source.diagnostic("'update' needs a closure of assignments: .update { $0.title = \"…\" }", at: arguments.call)
    }
    var update = Update(table: table.model.qualifiedName, alias: table.alias, assignments: try assignments(closure, table: table))
    update.wheres = query.select.wheres
    update.isEmpty = query.select.isEmpty
    return .write(WriteQuery(table: table, statement: .update(update)))
  }

  /// `Reminder.update(reminder)`: every column set from a record, for the row with its primary key.
  ///
  /// ```swift
  /// Tag.update(Tag(id: 1, title: "car"))
  /// // UPDATE "tags" SET "title" = 'car' WHERE (("tags"."id") = (1))
  /// ```
  func updateRecord(_ syntax: ExprSyntax, table: TableInstance, query: Query) throws -> Value {
    let (match, assignments) = try primaryKeyMatch(syntax, table: table, verb: "update")
    var update = Update(table: table.model.qualifiedName, alias: table.alias, assignments: assignments)
    update.wheres = query.select.wheres + [match]
    return .write(WriteQuery(table: table, statement: .update(update)))
  }

  /// A record's row: its primary key compared with the record's key values, and its other
  /// columns as assignments (for `update(_:)`).
  ///
  /// ```swift
  /// Reminder.delete(Reminder(id: 1, remindersListID: 1))
  /// // DELETE FROM "reminders" WHERE (("reminders"."id") = (1))
  /// ```
  func primaryKeyMatch(_ syntax: ExprSyntax, table: TableInstance, verb: String) throws -> (Expression, [Assignment]) {
    let keys = table.model.primaryKeyColumns
    guard !keys.isEmpty else {
      throw compiler.source.diagnostic("'\(verb)(_:)' with a record needs a table with a primary key", at: syntax)
    }
    guard let values = try evaluateRecords(syntax, model: table.model).first else {
      throw compiler.source.diagnostic("'\(verb)(_:)' needs a '\(table.model.typeName)(…)' record", at: syntax)
    }
    let columns = table.model.columns.filter { !$0.isGenerated }
    var assignments: [Assignment] = []
    var keyValues: [Expression] = []
    for (column, value) in zip(columns, values) {
      if keys.contains(column) { keyValues.append(value) } else { assignments.append(Assignment(column.sqlName, value)) }
    }
    let keyColumns = keys.map { table.column($0).expression }
    let match =
      keys.count == 1
      ? keyColumns[0].binary(.equal, keyValues.first ?? .null)
      : Expression(.sql(RowMethods.row(keyColumns) + [.text(" = ")] + RowMethods.row(keyValues)))
    return (match, assignments)
  }

  /// `where { … }`, `find(_:)` on an update or delete: its rows limited, as on a query.
  func filtered(_ name: String, _ write: WriteQuery, _ arguments: Arguments) throws -> Value {
    var write = write
    let call = arguments.call
    let query = Query(write.table)
    guard case .query(let filtered) = try compiler.queryMethods.queryMethod(name, on: query, arguments: arguments) else {
      throw compiler.source.diagnostic("'\(name)' needs a condition", at: call)
    }
    switch write.statement {
    case .delete(var delete):
      delete.wheres += filtered.select.wheres
      write.statement = .delete(delete)
    case .update(var update):
      update.wheres += filtered.select.wheres
      write.statement = .update(update)
    default:
      throw compiler.source.diagnostic("'\(name)' does not apply to an insert", at: call)
    }
    return .write(write)
  }

  /// `returning(\.id)`: columns of the written rows (RETURNING), named without their table.
  func returning(_ write: WriteQuery, _ arguments: Arguments) throws -> Value {
    var write = write
    guard let argument = arguments.first() else {
      throw compiler.source.diagnostic("'returning' needs columns: .returning(\\.id)", at: arguments.call)
    }
    var value = try compiler.evaluateProjection(argument, on: Query(write.table))
    if case .keyPath(let names) = try? compiler.evaluate(argument), names == ["self"] || names.isEmpty {
      value = .columns(write.table)
    }
    let expressions = try compiler.flattenExpressions(value, at: argument)
    let returning = expressions.map { unqualified($0.expression) }
    write.returningTypes = expressions.map(\.type)
    switch write.statement {
    case .delete(var delete):
      delete.returning = returning
      write.statement = .delete(delete)
    case .update(var update):
      update.returning = returning
      write.statement = .update(update)
    case .insert(var insert):
      insert.returning = returning
      write.statement = .insert(insert)
    default: break
    }
    return .write(write)
  }

  /// Columns in RETURNING are named without their table: `RETURNING "id"`.
  func unqualified(_ expression: Expression) -> Expression {
    if case .column(_, let name) = expression.node { return .column(nil, name) }
    return expression
  }

  /// The assignments of an `update { … }` / `doUpdate: { … }` closure.
  func assignments(_ closure: ClosureExprSyntax, table: TableInstance, excluded: TableInstance? = nil) throws -> [Assignment] {
    var bindings: [String: Value] = ["$0": .columns(table)]
    if let excluded { bindings["$1"] = .columns(excluded) }
    if let parameterClause = closure.signature?.parameterClause {
      let names: [String]
      switch parameterClause {
      case .simpleInput(let list): names = list.map(\.name.text)
      case .parameterClause(let clause): names = clause.parameters.map { ($0.secondName ?? $0.firstName).text }
      }
      let values: [Value] = [.columns(table)] + (excluded.map { [.columns($0)] } ?? [])
      for (name, value) in zip(names, values) where name != "_" { bindings[name] = value }
    }
    return try compiler.withLocals(bindings) { try assignments(in: closure.statements, table: table) }
  }

  /// The assignments an update closure's statements make, in order (repeats included:
  /// `$0.title += "!"; $0.title += "?"` sets it twice); an `if` adds those of the branch Swift
  /// takes (`if !isFavorite { $0.kind = … }`: in a scan, each branch is a variant).
  private func assignments(in statements: CodeBlockItemListSyntax, table: TableInstance) throws -> [Assignment] {
    var result: [Assignment] = []
    for item in statements {
      // `let (first, rest) = (ids.first!, ids.dropFirst())`: values the assignments use.
      if case .decl(let decl) = item.item, let variable = decl.as(VariableDeclSyntax.self) {
        for binding in variable.bindings {
          guard let initializer = binding.initializer?.value else {
            throw compiler.source.diagnostic("a local binding needs a value", at: binding)
          }
          var bound: [String: Value] = [:]
          try compiler.appCode.bindPattern(binding.pattern, to: try compiler.evaluate(initializer), into: &bound)
          for (name, value) in bound { compiler.locals[compiler.locals.count - 1][name] = value }
        }
        continue
      }
      let expr: ExprSyntax
      switch item.item {
      case .expr(let written): expr = written
      case .stmt(let stmt) where stmt.is(ExpressionStmtSyntax.self):
        expr = stmt.as(ExpressionStmtSyntax.self)?.expression ?? ExprSyntax(MissingExprSyntax())
      default:
        throw compiler.source.diagnostic("an update closure holds assignments like $0.title = \"…\"", at: item)
      }
      if let conditional = expr.as(IfExprSyntax.self) {
        if let (branch, bound) = try compiler.builderBranchBinding(conditional) {
          result += try compiler.withLocals(bound) { try assignments(in: branch, table: table) }
        }
        continue
      }
      if let helped = try updateHelperAssignments(expr, table: table) {
        result += helped
        continue
      }
      result += try assignment(expr, table: table)
    }
    return result
  }

  /// `$0.flag()` in an update, where `extension Updates<Reminder> { mutating func flag() { … } }`:
  /// that function's assignments, `self` (and bare names) meaning the row being updated.
  ///
  /// ```swift
  /// extension Updates<Reminder> { mutating func flag() { self.isFlagged = true } }
  /// Reminder.find(1).update { $0.flag() }
  /// // UPDATE "reminders" SET "isFlagged" = 1 WHERE …
  /// ```
  func updateHelperAssignments(_ expr: ExprSyntax, table: TableInstance) throws -> [Assignment]? {
    guard let call = expr.as(FunctionCallExprSyntax.self), let member = call.calledExpression.as(MemberAccessExprSyntax.self),
      let base = member.base, case .columns(let row)? = try? compiler.evaluate(base),
      let helper = compiler.catalog.updateHelpers[row.model.typeName]?[member.declName.baseName.text]
    else { return nil }
    let values = try Arguments(call).list.map { try compiler.evaluate($0.expression) }
    guard values.count == helper.parameters.count else {
      throw compiler.source.diagnostic(
        "'\(member.declName.baseName.text)' takes \(helper.parameters.count) argument\(helper.parameters.count == 1 ? "" : "s"), not \(values.count)",
        at: call)
    }
    guard let body = helper.body.syntax.as(CodeBlockSyntax.self) else { return [] }
    let saved = compiler.bareColumnsTable
    compiler.bareColumnsTable = row
    defer { compiler.bareColumnsTable = saved }
    return try compiler.withSource(helper.body) {
      try compiler.withLocals(compiler.parameterBindings(of: helper, values)) {
        var result: [Assignment] = []
        for item in body.statements {
          guard case .expr(let inner) = item.item else {
            throw compiler.source.diagnostic("an Updates helper holds assignments like self.title = \"…\"", at: item)
          }
          if let nested = try updateHelperAssignments(inner, table: table) {
            result += nested
            continue
          }
          result += try assignment(inner, table: table)
        }
        return result
      }
    }
  }

  private func assignment(_ expr: ExprSyntax, table: TableInstance) throws -> [Assignment] {
    if let operation = try compiler.operation(expr), operation.op == "=", case .syntax(let target) = operation.left,
      case .syntax(let value) = operation.right,
      let assignments = try compiler.rowMethods.groupAssignments(try compiler.evaluate(target), value: value, table: table)
    {
      return assignments
    }
    return [try singleAssignment(expr, table: table)]
  }

  private func singleAssignment(_ expr: ExprSyntax, table: TableInstance) throws -> Assignment {
    func target(_ syntax: ExprSyntax) throws -> (ColumnModel, TypedExpression) {
      guard let member = syntax.as(MemberAccessExprSyntax.self), let base = member.base else {
        throw compiler.source.diagnostic("the left side of an assignment must be a column, like $0.title", at: syntax)
      }
      let name = member.declName.baseName.text
      let baseValue = try compiler.evaluate(base)
      // `$0.fields.honestCount = 1`: a column inside a column group.
      if case .group(let group, let path) = baseValue,
        let column = group.model.columns.first(where: { $0.path == path + [name] })
      {
        return (column, group.column(column))
      }
      guard case .columns(let columns) = baseValue else {
        throw compiler.source.diagnostic("the left side of an assignment must be a column, like $0.title", at: syntax)
      }
      guard let column = columns.model.column(named: name) else {
        throw compiler.source.diagnostic(
          "table '\(columns.model.typeName)' has no column '\(name)'", at: member.declName,
          suggestion: closestMatch(to: name, in: columns.model.columns.map(\.name)))
      }
      return (column, columns.column(column))
    }
    if let operation = try compiler.operation(expr) {
      guard case .syntax(let targetSyntax) = operation.left, operation.isAssignment else {
        throw compiler.source.diagnostic(
          "an update closure holds assignments like $0.title = \"…\" or $0.flag.toggle()", at: expr)
      }
      let (column, current) = try target(targetSyntax)
      let rightValue = try compiler.evaluateOperand(operation.right, expected: column.type)
      if operation.op == "=" {
        let valueSyntax: ExprSyntax? =
          switch operation.right {
          case .syntax(let syntax): syntax
          case .operation(let inner): inner.node
          case .type: nil
          }
        try compiler.checkAssignment(
          to: current.type ?? column.type, target: targetSyntax, value: rightValue, valueSyntax: valueSyntax,
          operator: operation.opNode)
      }
      let value = try compiler.typedExpression(rightValue, expected: column.type, at: operation.right.anchor)
      if operation.op == "=" {
        return Assignment(column.sqlName, value.expression)
      }
      // `$0.count += 1` on an `Int64` column: the literal is an `Int` to the library's operator,
      // so only the unavailable setter fits it.
      let type = current.type ?? column.type
      // A `Float` column's `+= 0.5` too: the literal is a Double there.
      if case .syntax(let right) = operation.right, case .literal(let literal) = compiler.argumentType(right, rightValue),
        (type.isFixedWidthInteger && literal == .integer) || (type.wrapped.name == "Float" && (literal == .integer || literal == .float))
      {
        throw compiler.source.diagnostic(
          Compiler.bindRequired,
          at: Syntax(targetSyntax.as(MemberAccessExprSyntax.self)?.base ?? targetSyntax))
      }
      let sqlOp: BinaryOperator
      switch operation.op {
      case "+=": sqlOp = column.type.isText ? .concatenate : .plus
      case "-=": sqlOp = .minus
      case "*=": sqlOp = .times
      case "/=": sqlOp = .dividedBy
      case "%=": sqlOp = .remainder
      case "&=": sqlOp = .bitwiseAnd
      case "|=": sqlOp = .bitwiseOr
      case "<<=": sqlOp = .shiftLeft
      case ">>=": sqlOp = .shiftRight
      default:
        throw compiler.source.diagnostic(
          "use = or a compound assignment (+=, -=, *=, /=, %=, &=, |=, <<=, >>=) to assign a column",
          at: operation.opNode)
      }
      return Assignment(column.sqlName, current.expression.binary(sqlOp, value.expression))
    }
    if let call = expr.as(FunctionCallExprSyntax.self),
      let member = call.calledExpression.as(MemberAccessExprSyntax.self), let base = member.base
    {
      let (column, current) = try target(base)
      if let mutation = ColumnMutation(rawValue: member.declName.baseName.text) {
        switch mutation {
        case .toggle: return Assignment(column.sqlName, current.expression.not())
        case .negate: return Assignment(column.sqlName, current.expression.unary(.negate))
        case .append:
          guard let argument = call.arguments.first?.expression else {
            throw compiler.source.diagnostic("'append' needs the text to append", at: call)
          }
          let value = try compiler.typedExpression(try compiler.evaluate(argument, expected: .string), at: argument)
          return Assignment(column.sqlName, current.expression.binary(.concatenate, value.expression))
        }
      }
    }
    throw compiler.source.diagnostic("an update closure holds assignments like $0.title = \"…\" or $0.flag.toggle()", at: expr)
  }

  /// The mutating methods of a column inside `update { … }`: `$0.isFlagged.toggle()`,
  /// `$0.score.negate()`, `$0.title.append("!")`.
  enum ColumnMutation: String, CaseIterable {
    case toggle, negate, append
  }

  // MARK: Insert

  func insert(into table: TableInstance, upsert: Bool, arguments: Arguments) throws -> Value {
    let model = table.model
    var columns: [String] = []
    var source: Insert.Source = .values([])
    let call = arguments.call
    let first = arguments.list.first { $0.label == nil }?.expression
    let valuesClosure = arguments.labelled("values")
    let selectClosure = arguments.labelled("select")

    if let valuesClosure = valuesClosure ?? selectClosure, let first {
      // insert { columns } values: { rows } / select: { query }
      let columnsValue = try compiler.evaluateProjection(first, on: Query(table))
      let targets = try compiler.flattenExpressions(columnsValue, at: first)
      columns = try targets.map { target in
        guard case .column(_, let name) = target.expression.node else {
          throw compiler.source.diagnostic("insert columns must be columns of '\(model.typeName)'", at: first)
        }
        return name
      }
      if selectClosure == nil, case .columns = columnsValue {
        // insert { $0 } values: { Reminder(…) }: whole records, as in insert { Reminder(…) }.
        source = .values(try evaluateRecords(valuesClosure, model: model))
        columns = model.columns.filter { !$0.isGenerated }.map(\.sqlName)
      } else if selectClosure != nil {
        let statement = try compiler.statementMethods.statementValue(
          try compiler.statementMethods.evaluateClosureOrExpression(valuesClosure), at: valuesClosure)
        source = .select(statement)
      } else {
        let singleJSONColumn =
          targets.count == 1
          && (targets[0].type?.name.hasPrefix("[") == true || targets[0].type?.representation?.contains("JSON") == true)
        // Each row's values convert to their columns' types (`values: { ("Milk", 1) }`).
        if let closure = valuesClosure.as(ClosureExprSyntax.self), !singleJSONColumn {
          for item in closure.statements {
            guard let row = item.item.as(ExprSyntax.self) else { continue }
            let values = row.as(TupleExprSyntax.self).map { $0.elements.map(\.expression) } ?? [row]
            guard values.count == targets.count, targets.count > 1 || !row.is(TupleExprSyntax.self) else { continue }
            do {
              for (value, target) in zip(values, targets) {
                if let type = target.type { try compiler.checkConcreteArgument(value, parameter: type) }
              }
            } catch let mismatch as Diagnostic where row.is(TupleExprSyntax.self) {
              // A tuple is one argument of the values builder: the compiler names the builder.
              throw compiler.source.diagnostic(
                "no exact matches in call to static method 'buildExpression' (\(mismatch.message))", at: row)
            }
          }
        }
        // A record for a column group (`Status(isOutOfStock: true, …)`) gives its columns.
        let rows = try evaluateRows(valuesClosure, arraysAreValues: singleJSONColumn).map { row in
          row.flatMap { value -> [Value] in
            guard targets.count > 1, case .query(let record) = value, record.select.from == nil, record.resultModel != nil else {
              return [value]
            }
            return zip(record.select.columns, record.columnTypes).map { .expression(TypedExpression($0.expression, type: $1)) }
          }
        }
        source = .values(
          try rows.map { row in
            guard row.count == columns.count else {
              throw compiler.source.diagnostic(
                "each row needs \(columns.count) value\(columns.count == 1 ? "" : "s"), one per column", at: valuesClosure)
            }
            return try zip(row, targets).map { value, target in
              try compiler.typedExpression(value, expected: target.type, at: valuesClosure).expression
            }
          })
      }
    } else if let first {
      // insert { Draft(…) … } or insert(\.title) { "value" }
      if case .keyPath = try? compiler.evaluate(first),
        let rowsSyntax = arguments.list.dropFirst().first(where: { $0.label == nil })?.expression
      {
        let targets = try compiler.flattenExpressions(try compiler.evaluateProjection(first, on: Query(table)), at: first)
        columns = targets.compactMap { if case .column(_, let name) = $0.expression.node { return name } else { return nil } }
        let rows = try evaluateRows(rowsSyntax)
        source = .values(
          try rows.map { row in
            try zip(row, targets).map { try compiler.typedExpression($0, expected: $1.type, at: rowsSyntax).expression }
          })
      } else {
        let records = try evaluateRecords(first, model: model)
        columns = model.columns.filter { !$0.isGenerated }.map(\.sqlName)
        source = .values(records)
      }
    } else {
      source = .defaultValues
    }

    var insert = Insert(table: model.qualifiedName, alias: table.alias, columns: columns, source: source)
    if case .values(let rows) = source, rows.isEmpty { insert.source = .values([]) }
    let excluded = TableInstance(model: model, alias: "excluded")

    if upsert {
      let keys = model.primaryKeyColumns.map(\.sqlName)
      let target = keys.isEmpty ? ["rowid"] : keys
      let updates = columns.filter { !target.contains($0) }.map { Assignment($0, .column("excluded", $0)) }
      insert.upsert = Insert.Upsert(target: target, action: updates.isEmpty ? .doNothing : .doUpdate(updates, where: []))
    }
    if let conflict = arguments.labelled("onConflict") {
      let targets = try compiler.flattenExpressions(try compiler.evaluateProjection(conflict, on: Query(table)), at: conflict)
      let names = targets.compactMap { if case .column(_, let name) = $0.expression.node { return name } else { return nil } }
      var targetWhere: [Expression] = []
      var updateWhere: [Expression] = []
      let wheres = arguments.list.filter { $0.label == "where" }.map(\.expression)
      let doUpdateIndex = arguments.list.firstIndex { $0.label == "doUpdate" }
      for whereSyntax in wheres {
        let index = arguments.list.firstIndex { $0.expression.id == whereSyntax.id } ?? 0
        // The conflict target's filter sees the table; the update's filter, the table and `excluded`.
        let isUpdateFilter = doUpdateIndex.map { index > $0 } ?? false
        let tables = isUpdateFilter ? [table, excluded] : [table]
        guard
          let condition = try compiler.predicate(
            try compiler.evaluateProjection(whereSyntax, on: Query(table).withTables(tables)), at: whereSyntax)
        else { continue }
        if let doUpdateIndex, index > doUpdateIndex { updateWhere.append(condition) } else { targetWhere.append(condition) }
      }
      var action: Insert.ConflictAction = .doNothing
      if let update = arguments.labelled("doUpdate")?.as(ClosureExprSyntax.self) {
        // No assignments: StructuredQueries renders DO NOTHING.
        let changes = try assignments(update, table: table, excluded: excluded)
        if !changes.isEmpty { action = .doUpdate(changes, where: updateWhere) }
      }
      insert.upsert = Insert.Upsert(target: names, targetWhere: targetWhere, action: action)
    }
    if let update = arguments.labelled("onConflictDoUpdate")?.as(ClosureExprSyntax.self) {
      // `onConflictDoUpdate: { … } where: { columns, excluded in … }`: the update's filter.
      var updateWhere: [Expression] = []
      if let updateIndex = arguments.list.firstIndex(where: { $0.label == "onConflictDoUpdate" }) {
        for argument in arguments.list[(updateIndex + 1)...] where argument.label == "where" {
          let value = try compiler.evaluateProjection(argument.expression, on: Query(table).withTables([table, excluded]))
          if let condition = try compiler.predicate(value, at: argument.expression) { updateWhere.append(condition) }
        }
      }
      let changes = try assignments(update, table: table, excluded: excluded)
      insert.upsert = Insert.Upsert(target: [], action: changes.isEmpty ? .doNothing : .doUpdate(changes, where: updateWhere))
    }
    if let resolution = arguments.labelled("or") {
      guard case .implicitMember(let name) = try compiler.evaluate(resolution),
        let value = ConflictResolution(rawValue: name.uppercased())
      else {
        throw compiler.source.diagnostic("'or:' is one of .abort, .fail, .ignore, .replace, .rollback", at: resolution)
      }
      insert.conflictResolution = value
    }
    // An upsert after `INSERT … SELECT … FROM t` needs `WHERE 1` so SQLite does not read
    // `ON CONFLICT` as a join constraint.
    if insert.upsert != nil, case .select(let statement) = insert.source, Self.endsWithFrom(statement) {
      insert.source = .select(Self.appendingWhereTrue(statement))
    }
    _ = call
    return .write(WriteQuery(table: table, statement: .insert(insert)))
  }

  static func endsWithFrom(_ statement: Statement) -> Bool {
    switch statement {
    case .select(let s):
      return s.from != nil && s.wheres.isEmpty && s.groups.isEmpty && s.havings.isEmpty && s.orders.isEmpty
        && s.limit == nil && s.offset == nil
    case .compound(let c):
      return c.orders.isEmpty && c.limit == nil && endsWithFrom(c.rest.last?.statement ?? c.first)
    default: return false
    }
  }

  static func appendingWhereTrue(_ statement: Statement) -> Statement {
    switch statement {
    case .select(var s):
      s.wheres = []
      return .raw(s.fragment + QueryFragment("\nWHERE 1"))
    case .compound(let c):
      return .raw(c.fragment + QueryFragment("\nWHERE 1"))
    default: return statement
    }
  }

  /// The values of a `values:` closure or a row list: each statement or array element a row.
  func evaluateRows(_ syntax: ExprSyntax, arraysAreValues: Bool = false) throws -> [[Value]] {
    let values: [Value]
    if let closure = syntax.as(ClosureExprSyntax.self) {
      values = try compiler.invokeAll(closure, with: [])
    } else {
      values = [try compiler.evaluate(syntax)]
    }
    var rows: [[Value]] = []
    for value in values {
      switch value {
      case .tuple(let elements): rows.append(elements)
      case .array where arraysAreValues: rows.append([value])
      case .array(let elements):
        for element in elements {
          if case .tuple(let inner) = element { rows.append(inner) } else { rows.append([element]) }
        }
      default: rows.append([value])
      }
    }
    return rows
  }

  /// `T.Draft(title: "x")` / `T(id: 1, …)` records: every column, defaults filled in.
  func evaluateRecords(_ syntax: ExprSyntax, model: TableModel) throws -> [[Expression]] {
    var rows: [[Expression]] = []
    func collect(_ expr: ExprSyntax) throws {
      if let call = expr.as(FunctionCallExprSyntax.self), !isRecordValueCall(call, of: model) {
        rows.append(try recordRow(call, model: model))
        return
      }
      if let array = expr.as(ArrayExprSyntax.self) {
        for element in array.elements { try collect(element.expression) }
        return
      }
      if let conditional = expr.as(IfExprSyntax.self) {
        // `if includeCar { Tag(title: "car") }`: the rows of the branch taken.
        if let (branch, bindings) = try compiler.builderBranchBinding(conditional) {
          try compiler.withLocals(bindings) { try collectStatements(branch) }
        }
        return
      }
      // `insert { drafts.map { Tag.Draft(title: $0) } }` over an array the app supplies when
      // it runs (a scan): one row of the closure's values, as the app binds one per element.
      if let call = expr.as(FunctionCallExprSyntax.self), let access = call.calledExpression.as(MemberAccessExprSyntax.self),
        access.declName.baseName.text == "map", let base = access.base,
        let closure = call.trailingClosure ?? call.arguments.first?.expression.as(ClosureExprSyntax.self),
        case .expression(let typed) = try compiler.evaluate(base), let name = Compiler.runTimeName(in: typed.expression)
      {
        var parameter = "$0"
        if case .simpleInput(let list)? = closure.signature?.parameterClause, let first = list.first { parameter = first.name.text }
        if case .parameterClause(let clause)? = closure.signature?.parameterClause, let first = clause.parameters.first {
          parameter = (first.secondName ?? first.firstName).text
        }
        let element = Value.runTime(name + "[…]")
        try compiler.withLocals([parameter: element]) { try collectStatements(closure.statements) }
        return
      }
      // A record held in a name (`let draft = Reminder.Draft(…)` … `insert { draft }`), or a list of them.
      var value = try compiler.evaluate(expr)
      if case .expression(let typed) = value, case .value(.parameter(let name)) = typed.expression.node {
        // A record the app supplies when it runs (a scan): every column a run-time value. A list
        // of them (`posts: [Post]`, `let drafts = items.map { Post.Draft(…) }`): one row per
        // element, the one shown for a single element.
        if let element = typed.type?.arrayElement?.wrapped {
          value = compiler.runTimeRecord(name + "[…]", model: model, isDraft: element.name.hasSuffix(".Draft"))
        } else {
          value = compiler.runTimeRecord(name, model: model, isDraft: false)
        }
      }
      let records: [Value]
      if case .array(let elements) = value { records = elements } else { records = [value] }
      for record in records {
        guard case .query(let query) = record, query.select.from == nil,
          query.resultModel == model.typeName || query.resultModel == model.typeName + ".Draft"
        else {
          throw compiler.source.diagnostic("expected a record like \(model.typeName)(…) or \(model.typeName).Draft(…)", at: expr)
        }
        rows.append(try recordRow(query, model: model, at: expr))
      }
    }
    func collectStatements(_ statements: CodeBlockItemListSyntax) throws {
      for item in statements {
        switch item.item {
        case .expr(let expr): try collect(expr)
        case .stmt(let stmt):
          if let ret = stmt.as(ReturnStmtSyntax.self), let expr = ret.expression {
            try collect(expr)
            continue
          }
          if let expression = stmt.as(ExpressionStmtSyntax.self) {
            try collect(expression.expression)
            continue
          }
          if let loop = stmt.as(ForStmtSyntax.self) {
            // `for title in titles { Tag.Draft(title: title) }`: a row per element.
            let sequence = try compiler.evaluate(loop.sequence)
            if let name = loop.pattern.as(IdentifierPatternSyntax.self)?.identifier.text, loop.whereClause == nil,
              case .expression(let typed) = sequence, let list = Compiler.runTimeName(in: typed.expression)
            {
              // Over a list the app supplies when it runs (a scan): one row, as the app binds one per element.
              let element = Value.runTime(list + "[…]")
              try compiler.withLocals([name: element]) { try collectStatements(loop.body.statements) }
              continue
            }
            guard let name = loop.pattern.as(IdentifierPatternSyntax.self)?.identifier.text, loop.whereClause == nil,
              case .array(let elements) = sequence
            else {
              throw compiler.source.diagnostic(
                "a 'for' in an insert loops over an array known before the query runs: for name in [ … ]", at: loop.sequence)
            }
            for element in elements {
              try compiler.withLocals([name: element]) { try collectStatements(loop.body.statements) }
            }
            continue
          }
          throw compiler.source.diagnostic("not supported in Quarry yet: this statement in an insert's rows", at: stmt)
        default:
          throw compiler.source.diagnostic("not supported in Quarry yet: a declaration in an insert's rows", at: item)
        }
      }
    }
    if let closure = syntax.as(ClosureExprSyntax.self) {
      try collectStatements(closure.statements)
    } else {
      try collect(syntax)
    }
    return rows
  }

  /// Whether `call` is a function that returns records (`makeDrafts()`), not a record literal
  /// (`Tag(…)`, `Tag.Draft(…)`, `Post.note(…)` of an enum table, `.init(…)`).
  private func isRecordValueCall(_ call: FunctionCallExprSyntax, of model: TableModel) -> Bool {
    if let member = call.calledExpression.as(MemberAccessExprSyntax.self) {
      // `drafts.map { … }`, `tags.filter { … }`: a call on a value; `Tag.Draft(…)`, `.init(…)`,
      // `Post.note(…)` are record literals.
      guard !model.isEnumTable, let base = member.base else { return false }
      let root = base.as(DeclReferenceExprSyntax.self)?.baseName.text
      // `Card.from(card: c)`: the model's own static function, which returns a record.
      if root == model.typeName || root == "Self", model.scopes[member.declName.baseName.text] != nil { return true }
      let isType =
        root.map { $0 == model.typeName || $0 == "Self" || compiler.catalog.table(forType: $0) != nil }
        ?? base.is(MemberAccessExprSyntax.self)
      return !isType
    }
    guard !model.isEnumTable, let reference = call.calledExpression.as(DeclReferenceExprSyntax.self) else { return false }
    let name = reference.baseName.text
    return name != model.typeName && name != "Self" && compiler.catalog.table(forType: name) == nil
  }

  /// The row of a record value: its named columns, the rest from defaults as a draft's would be.
  private func recordRow(_ record: Query, model: TableModel, at node: ExprSyntax) throws -> [Expression] {
    let isDraft = record.resultModel == model.typeName + ".Draft"
    var provided: [String: Expression] = [:]
    var providedTypes: [String: SwiftType] = [:]
    for (index, column) in record.select.columns.enumerated() {
      guard let alias = column.alias else { continue }
      provided[alias] = column.expression
      if record.columnTypes.indices.contains(index), let type = record.columnTypes[index] { providedTypes[alias] = type }
    }
    var runTimeOptionals: [(column: String, value: String)] = []
    defer { noteRunTimeOptionals(runTimeOptionals, at: node) }
    return try model.columns.filter { !$0.isGenerated }.map { column in
      // (A value of a type that is never nil, `.init(stabilizedBy: name)`, is a set id.)
      if isDraft, column.isPrimaryKey, compiler.scanning, let value = provided[column.sqlName],
        case .value(.parameter(let name)) = value.node, providedTypes[column.sqlName]?.isOptional != false
      {
        // A draft the app holds when it runs: a new row's id is nil (NULL, SQLite picks one),
        // an edited row's is set; each is a variant of the statement.
        return compiler.runTimeChoice(name, alternatives: ["nil", "set"]) == 0 ? .null : value
      }
      if let value = provided[column.sqlName] {
        if compiler.scanning, column.type.isOptional, case .value(.parameter(let name)) = value.node,
          providedTypes[column.sqlName]?.isOptional == true
        {
          runTimeOptionals.append((column.name, name))
        }
        return value
      }
      if column.isPrimaryKey && isDraft { return .null }
      if let value = try compiler.defaultValue(of: column, at: node) { return value }
      if column.type.isOptional { return .null }
      throw compiler.source.diagnostic("missing a value for '\(column.name)'", at: node)
    }
  }

  /// Optional columns given a value the app has only when it runs (`loc.course` of a
  /// `Double?`): StructuredQueries writes a nil one as NULL in the SQL text (an Optional's query
  /// fragment) and a set one as `?`, so the SQL shown, with `?`, says so beside it.
  private func noteRunTimeOptionals(_ columns: [(column: String, value: String)], at node: some SyntaxProtocol) {
    guard compiler.scanning, !readsOnlyKeys, !columns.isEmpty else { return }
    let names = columns.map { "\($0.value) (\($0.column))" }.joined(separator: ", ")
    let note = compiler.source.diagnostic(
      "the SQL shown has \(names) set (?); where the app's value is nil, its SQL has NULL there instead", at: node)
    if !compiler.assumptions.contains(note) { compiler.assumptions.append(note) }
  }

  /// The row a record literal writes: `Tag(title: "car")`, `Tag.Draft(title: "car")`.
  private func recordRow(_ call: FunctionCallExprSyntax, model: TableModel) throws -> [Expression] {
    if model.isEnumTable {
      return try compiler.rowMethods.enumRow(model, call: ExprSyntax(call)).map(\.1)
    }
    let isDraft = call.calledExpression.trimmedDescription.hasSuffix(".Draft")
    if !isDraft, case .query(let record)? = try compiler.tableMethods.explicitInitializerRow(of: model, arguments: Arguments(call)) {
      // `Entry(id: 5)` where Entry declares its own init.
      return try recordRow(record, model: model, at: ExprSyntax(call))
    }
    if isDraft, call.arguments.count == 1, let only = call.arguments.first, only.label == nil {
      // `Reminder.Draft(reminder)`: every field of the record, its id too.
      let record = try compiler.tableMethods.copiedRecord(only.expression, of: model)
      return try recordRow(record, model: model, at: only.expression)
    }
    try compiler.checkMemberwiseArguments(of: model, call.arguments, isDraft: isDraft)
    var provided: [String: Expression] = [:]
    var runTimeOptionals: [(column: String, value: String)] = []
    for argument in call.arguments {
      guard let label = argument.label?.text else {
        throw compiler.source.diagnostic("record fields need labels, like title: \"…\"", at: argument)
      }
      let group = model.columns.filter { $0.path.count > 1 && $0.path.first == label }
      if model.column(named: label) == nil, !group.isEmpty, group.allSatisfy({ $0.enumGroup == [label] }) {
        // `Attachment.Draft(kind: .note("x"))`: the case's columns, NULL for the other cases.
        let (caseName, payload) = try compiler.rowMethods.enumCase(argument.expression)
        let values = try compiler.rowMethods.caseValues(model, casePath: [label, caseName], payload: payload, at: argument.expression)
        for column in group { provided[column.sqlName] = values[column.sqlName] ?? .null }
        continue
      }
      if model.column(named: label) == nil, !group.isEmpty {
        // `Counter.Draft(counts: Counts(seen: 1))`: a column group given as a whole.
        let value = try compiler.evaluate(argument.expression)
        if case .null = value {
          for column in group { provided[column.sqlName] = .null }
          continue
        }
        guard case .query(let record) = value else {
          throw compiler.source.diagnostic(
            "'\(label)' is a group of columns; give it a value like \(label): Group(…)", at: argument.expression)
        }
        for column in group {
          let member = column.path.last ?? column.name
          if let given = record.select.columns.first(where: { $0.alias == column.sqlName || $0.alias == member }) {
            provided[column.sqlName] = given.expression
          }
        }
        continue
      }
      guard let column = model.column(named: label) else {
        throw compiler.source.diagnostic(
          "'\(model.typeName)' has no column '\(label)'", at: argument,
          suggestion: closestMatch(to: label, in: model.columns.map(\.name)))
      }
      let typed = try compiler.typedExpression(
        try compiler.evaluateArgument(argument.expression, parameterType: column.type), expected: column.type, at: argument.expression)
      provided[column.sqlName] = typed.expression
      if column.type.isOptional, typed.type?.isOptional == true, case .value(.parameter(let name)) = typed.expression.node {
        runTimeOptionals.append((column.name, name))
      }
    }
    noteRunTimeOptionals(runTimeOptionals, at: call)
    return try model.columns.filter { !$0.isGenerated }.map { column in
      if let value = provided[column.sqlName] { return value }
      if column.isPrimaryKey && isDraft { return .null }
      if let value = try compiler.defaultValue(of: column, at: call) { return value }
      if column.type.isOptional { return .null }
      throw compiler.missingArgument(column.path.first ?? column.name, of: model, in: call.arguments)
    }
  }

}

extension Query {
  func withTables(_ tables: [TableInstance]) -> Query {
    var copy = self
    copy.tables = tables
    return copy
  }
}
