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
  /// A method called on a table type (`Reminder.as(R.self)`, `Tag.Draft(…)`, a scope, or any
  /// query method, since a table is the query of all its rows).
  func tableMethod(_ name: String, on table: TableInstance, arguments: Arguments) throws -> Value {
    switch name {
    case "as":
      guard let argument = arguments.first(), case .aliasType(let alias) = try compiler.evaluate(argument) else {
        throw compiler.source.diagnostic("'as' needs an alias type: .as(R1.self) with enum R1: AliasName {}", at: arguments.call)
      }
      var aliased = table
      aliased.alias = alias.aliasName
      return .table(aliased)
    case "Columns":
      return try compiler.selection(for: table.model, arguments: arguments)
    case "Draft" where compiler.catalog.table(forType: table.model.typeName + ".Draft") == nil:
      // `Reminder.Draft(reminder)`: a draft of a record, every field copied (its id too, so
      // an upsert of the draft updates that row), as the @Table macro's `init(_:)` does.
      if arguments.list.count == 1, let only = arguments.list.first, only.label == nil {
        guard case .query(var record) = try compiler.evaluate(only.expression), record.select.from == nil,
          record.resultModel == table.model.typeName || record.resultModel == table.model.typeName + ".Draft"
        else {
          throw compiler.source.diagnostic("'\(table.model.typeName).Draft(_:)' copies a '\(table.model.typeName)' record; give it one, or labelled values", at: only.expression)
        }
        record.resultModel = table.model.typeName + ".Draft"
        return .query(record)
      }
      // `let draft = Reminder.Draft(title: "…")`: a record to insert later (no id yet).
      guard case .query(var record) = try compiler.initializer(of: table.model, arguments: arguments) else {
        throw compiler.source.diagnostic("'\(table.model.typeName).Draft(…)' needs labelled values", at: arguments.call)
      }
      record.resultModel = table.model.typeName + ".Draft"
      return .query(record)
    case "ID" where table.model.scopes["ID"] == nil && compiler.catalog.table(forType: table.model.typeName + ".ID") == nil:
      // `Reminder.ID(1)`, `Team.ID(rawValue: 1)`: a (Tagged) primary key is its value.
      guard arguments.list.count == 1, let argument = arguments.list.first, argument.label == nil || argument.label == "rawValue" else {
        throw compiler.source.diagnostic("'\(table.model.typeName).ID(…)' takes the key's value: \(table.model.typeName).ID(1)", at: arguments.call)
      }
      return try compiler.evaluate(argument.expression, expected: table.model.primaryKeyColumns.first?.type)
    case _ where table.model.columns.contains(where: { $0.enumGroup == [] && $0.path.first == name }):
      return try compiler.rowMethods.enumCaseSelection(table.model, call: arguments.call)
    default:
      if let scope = table.model.scopes[name] {
        let values = try arguments.list.map { try compiler.evaluate($0.expression) }
        return try compiler.callScope(scope, on: table, arguments: values, at: arguments.call)
      }
      if let write = try tableWriteMethod(name, on: table, arguments: arguments) { return write }
      return try compiler.queryMethods.queryMethod(name, on: try compiler.baseQuery(table), arguments: arguments)
    }
  }

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
      if !compiler.evaluatingDefaultScope.contains(table.model.typeName) { scoped.unscoped = false }
      return .query(try compiler.baseQuery(scoped))
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
        return try compiler.callScope(scope, on: table, arguments: [], at: node)
      }
      // `Employee.id` (as in `#sql("SELECT \(Employee.id) …")`): the column, like `$0.id`.
      if !table.model.columns(under: [name]).isEmpty || table.model.computedColumns[name] != nil {
        return try compiler.member(name, of: .columns(table), at: node)
      }
      return try compiler.queryMember(name, of: try compiler.baseQuery(table), at: node)
    }
  }

  /// `T.insert { … }` and `T.upsert { … }`, which start from the table, not a query.
  func tableWriteMethod(_ name: String, on table: TableInstance, arguments: Arguments) throws -> Value? {
    switch name {
    case "insert", "upsert": return try compiler.writeMethods.insert(into: table, upsert: name == "upsert", arguments: arguments)
    default: return try schemaMethod(name, on: table, arguments: arguments)
    }
  }
}
