import QueryBuilder
import SwiftSyntax

/// What members and methods of a table type do (`Reminder.all`, `Tag.Draft(…)`, `Reminder.as(R.self)`,
/// views and triggers): the handlers of the table vocabulary.
///
/// ```swift
/// Reminder.unscoped
/// // SELECT … FROM "reminders"
/// ```
struct TableMethods {
  unowned let compiler: Compiler
}

extension Compiler {
  /// Table methods, working in this compiler's context.
  var tableMethods: TableMethods { TableMethods(compiler: self) }
}

/// Members and methods of a table type.
extension TableMethods {
  /// A method called on a table type: a member the model declares (an enum case, a scope, a
  /// nested type) as Swift finds a type's own static members first, then the vocabulary's
  /// table entries and query methods (a table is the query of all its rows).
  func tableMethod(_ name: String, on table: TableInstance, arguments: Arguments, member: MemberAccessExprSyntax?) throws -> Value {
    let model = table.model
    if model.columns.contains(where: { $0.enumGroup == [] && $0.path.first == name }) {
      return try compiler.rowMethods.enumCaseSelection(model, call: arguments.call)
    }
    // The model's own static function, when it fits the call or the library has no method by
    // that name (then its own message says what does not fit).
    if let scope = compiler.ownScope(name, of: model, fitting: arguments)
      ?? model.scopes[name].flatMap({
        Vocabulary.methods(named: name, on: .table).isEmpty && Vocabulary.methods(named: name, on: .query).isEmpty ? $0 : nil
      })
    {
      let values = try compiler.scopeArguments(of: scope, arguments)
      return try compiler.callScope(scope, on: table, arguments: values, at: arguments.call)
    }
    if name == "init" {
      // `self.init(…)` in the model's static function, `Card.init(…)`: its initializer.
      return try compiler.tableMethods.initializer(of: model, arguments: arguments)
    }
    if let nested = compiler.catalog.table(forType: model.typeName + "." + name) {
      // `Reminder.Draft(…)` where the app declares its own `Draft`: that type's initializer.
      return try compiler.tableMethods.initializer(of: nested, arguments: arguments)
    }
    if let value = try compiler.dispatch(name, on: .table, receiver: .table(table), CallSite(arguments, member: member)) {
      return value
    }
    return try compiler.queryMethods.scopeOrUnknown(name, on: try compiler.baseQuery(table), arguments: arguments)
  }

  /// `as(_:)`: the table under an alias (`enum R1: AliasName {}`), for self-joins.
  func aliased(_ table: TableInstance, _ arguments: Arguments) throws -> Value {
    guard let argument = arguments.first(), case .aliasType(let alias) = try compiler.evaluate(argument) else {
      throw compiler.source.diagnostic("'as' needs an alias type: .as(R1.self) with enum R1: AliasName {}", at: arguments.call)
    }
    var aliased = table
    aliased.alias = alias.aliasName
    return .table(aliased)
  }

  /// `Row.Columns(…)`: a row of a @Selection type built from named columns.
  func columns(_ table: TableInstance, _ arguments: Arguments) throws -> Value {
    try compiler.tableMethods.selection(for: table.model, arguments: arguments)
  }

  /// The record `Reminder.Draft(reminder)` copies: a record of the table (or its draft). In a
  /// scanned app, a value the app has when it runs whose type Quarry does not know
  /// (`Draft(response)`, `response` from the app's API) is that record: the draft's only
  /// unlabelled initializer takes one, so the compiler accepted nothing else there.
  func copiedRecord(_ expr: ExprSyntax, of model: TableModel) throws -> Query {
    let value = try compiler.evaluate(expr)
    if case .query(let record) = value, record.select.from == nil,
      record.resultModel == model.typeName || record.resultModel == model.typeName + ".Draft"
    {
      return record
    }
    if compiler.scanning, case .expression(let typed) = value, typed.type == nil, case .value(.parameter(let name)) = typed.expression.node,
      case .query(let record) = compiler.runTimeRecord(name, model: model, isDraft: false)
    {
      return record
    }
    throw compiler.source.diagnostic(
      "'\(model.typeName).Draft(_:)' copies a '\(model.typeName)' record; give it one, or labelled values", at: expr)
  }

  /// `Reminder.Draft(title: …)`: a record to insert later (no id yet); `Reminder.Draft(reminder)`:
  /// a draft of a record, every field copied (its id too, so an upsert of the draft updates that
  /// row), as the @Table macro's `init(_:)` does.
  func draft(_ table: TableInstance, _ arguments: Arguments) throws -> Value {
    let model = table.model
    if arguments.list.count == 1, let only = arguments.list.first, only.label == nil {
      var record = try copiedRecord(only.expression, of: model)
      record.resultModel = model.typeName + ".Draft"
      return .query(record)
    }
    guard case .query(var record) = try compiler.tableMethods.initializer(of: model, arguments: arguments, isDraft: true) else {
      throw compiler.source.diagnostic("'\(model.typeName).Draft(…)' needs labelled values", at: arguments.call)
    }
    record.resultModel = model.typeName + ".Draft"
    return .query(record)
  }

  /// `Reminder.ID(1)`, `Team.ID(rawValue: 1)`: a (Tagged) primary key is its value.
  func id(_ table: TableInstance, _ arguments: Arguments) throws -> Value {
    // `Session.ID(uuidString: "…")!`: `ID` is the type of `id`, here `UUID`.
    if arguments.list.first?.label == "uuidString" {
      guard table.model.primaryKeyColumns.first?.type.wrapped.name == "UUID",
        let uuid = try compiler.functionMethods.uuidInitializer(arguments)
      else {
        throw compiler.source.diagnostic(
          "'\(table.model.typeName).ID(uuidString:)' makes a UUID, but the key of '\(table.model.typeName)' is not one", at: arguments.call)
      }
      return uuid
    }
    // `PlannedClimbAlarmRecord.ID()` in a scanned app: a new key made by an initializer of a module
    // it imports (UUIDV7's for `Tagged<…, UUIDV7>`), a value only the running app has.
    if arguments.list.isEmpty, compiler.scanning, let key = table.model.primaryKeyColumns.first?.type, !key.isInteger {
      return .runTime(arguments.call.trimmedDescription, type: key.wrapped)
    }
    guard arguments.list.count == 1, let argument = arguments.list.first, argument.label == nil || argument.label == "rawValue" else {
      throw compiler.source.diagnostic(
        "'\(table.model.typeName).ID(…)' takes the key's value: \(table.model.typeName).ID(1)", at: arguments.call)
    }
    let key = table.model.primaryKeyColumns.first?.type
    let value = try compiler.evaluate(argument.expression, expected: key)
    // `FontTag.ID(rawValue: 7)` where the key is `Int64`: the literal takes the key's type (a
    // variable keeps its own, as Swift types it).
    guard let key, argument.expression.is(IntegerLiteralExprSyntax.self) else { return value }
    return Compiler.retyped(value, as: key.wrapped)
  }

  /// `insert { … }` and `upsert { … }`, which start from the table, not a query.
  func insert(_ table: TableInstance, _ arguments: Arguments) throws -> Value {
    try compiler.writeMethods.insert(into: table, upsert: false, arguments: arguments)
  }

  func upsert(_ table: TableInstance, _ arguments: Arguments) throws -> Value {
    try compiler.writeMethods.insert(into: table, upsert: true, arguments: arguments)
  }

  /// A member of a table type read as a property: the type itself under another name (`Draft`,
  /// `Selection` of an enum table), a vocabulary property (`all`, `none`, `tableName`), a scope,
  /// a column (`Employee.id` in `#sql`), or a member of the query of all rows.
  func tableMember(_ name: String, of table: TableInstance, at node: some SyntaxProtocol) throws -> Value {
    let model = table.model
    if name == "self" || name == "Draft" || (model.isEnumTable && (name == "Selection" || name == "Columns")) {
      return .table(table)
    }
    if name == "TableColumns" { return .columns(table) }
    if let value = try compiler.dispatch(name, on: .table, receiver: .table(table), CallSite(property: node)) {
      return value
    }
    if let scope = model.scopes[name] {
      do {
        return try compiler.callScope(scope, on: table, arguments: [], at: node)
      } catch is Diagnostic where compiler.scanning {
        // `RemindersList.defaultColor` (a `Color`) in a scan: a value of the app's own, bound
        // when the query runs.
        return .runTime(model.typeName + "." + name)
      }
    }
    // `Employee.id` (as in `#sql("SELECT \(Employee.id) …")`): the column, like `$0.id`.
    if !model.columns(under: [name]).isEmpty || model.computedColumns[name] != nil {
      return try compiler.member(name, of: .columns(table), at: node)
    }
    return try compiler.queryMember(name, of: try compiler.baseQuery(table), at: node)
  }

  /// `all`: the default scope, even after `unscoped` (except inside that scope itself).
  func all(_ table: TableInstance, _ site: CallSite) throws -> Value {
    var scoped = table
    if !compiler.evaluatingDefaultScope.contains(table.model.typeName) { scoped.unscoped = false }
    return .query(try compiler.baseQuery(scoped))
  }

  /// `unscoped`: every row, the default scope left out.
  func unscoped(_ table: TableInstance, _ site: CallSite) throws -> Value {
    var unscoped = table
    unscoped.unscoped = true
    return .table(unscoped)
  }

  /// `none`: a query that matches no row (and runs no SQL).
  func none(_ table: TableInstance, _ site: CallSite) throws -> Value {
    var query = Query(table)
    query.select.isEmpty = true
    return .query(query)
  }

  /// `tableName`: the table's name in SQL, as a String.
  func tableName(_ table: TableInstance, _ site: CallSite) throws -> Value {
    .expression(TypedExpression(.value(.text(table.model.tableName)), type: .string))
  }

  /// `columns`: the table's columns, as `$0` in a closure.
  func columnsProperty(_ table: TableInstance, _ site: CallSite) throws -> Value {
    .columns(table)
  }
}
