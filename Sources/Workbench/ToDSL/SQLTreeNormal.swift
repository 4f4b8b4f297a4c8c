import QuarryDSL

/// A statement's tree in the form two spellings of one statement share: each column named by
/// its table (not an alias, not left implicit), table aliases dropped, `x NOT LIKE p` as
/// `NOT (x LIKE p)`, a literal compared with a column written after it (`3 < x` as `x > 3`), and
/// numbers by value. Equal normal trees are the same statement to SQLite.
///
/// ```swift
/// normal(parse("SELECT r.title FROM reminders AS r WHERE 2 <= r.priority"))
///   == normal(parse(#"SELECT "reminders"."title" FROM "reminders" WHERE ("reminders"."priority" >= 2)"#))  // true
/// ```
struct SQLTreeNormal {
  let catalog: Catalog
  /// Each table's columns in the database's order, lower-cased by table name: `*` is them all.
  var tableColumns: [String: [String]] = [:]
  /// The value a spelling declared for each parameter (by index): what its SQL renders there.
  var parameterValues: [Int: SQLExpr] = [:]

  private struct Scope {
    /// Reference (alias or name) → table name, lower-cased.
    var tables: [(reference: String, name: String)]
  }

  func normal(_ statement: SQLStatement) -> SQLStatement {
    switch statement {
    case .select(let select):
      guard !select.commonTables.isEmpty else { return .select(normal(select, outer: [])) }
      // A common table is a table of its own columns for every select of the statement.
      var inner = self
      for table in select.commonTables {
        inner.tableColumns[table.name.lowercased()] = (table.columnNames ?? []).map { $0.lowercased() }
      }
      var main = select
      main.commonTables = []
      var out = inner.normal(main, outer: [])
      out.commonTables = select.commonTables.map { table in
        SQLCommonTable(
          name: table.name.lowercased(), columns: (table.columnNames ?? []).map { $0.lowercased() },
          select: Self.droppingAliases(inner.normal(table.select, outer: [])))
      }
      return .select(out)
    case .insert(let conflict, let table, let columns, let rows, let select, let upsert, let returning):
      let scope = [Scope(tables: [(table.reference, table.name.lowercased())])]
      // `excluded.title` in DO UPDATE: the row that was to be inserted.
      let updateScope = [Scope(tables: [(table.reference, table.name.lowercased()), ("excluded", "excluded")])]
      return .insert(
        conflict: conflict, table: SQLTableReference(name: table.name.lowercased()), columns: columns.map { $0.lowercased() },
        rows: rows.map { $0.map { normal($0, scope) } }, select: select.map { normal($0, outer: []) },
        upsert: upsert.map { upsert in
          SQLUpsert(
            target: upsert.target.map { $0.lowercased() }, targetWhere: upsert.targetWhere.map { normal($0, scope) },
            assignments: upsert.assignments?.map { SQLAssignment(column: $0.column.lowercased(), value: normal($0.value, updateScope)) },
            updateWhere: upsert.updateWhere.map { normal($0, updateScope) })
        },
        returning: returning.map { SQLResultColumn(expr: normal($0.expr, scope), alias: $0.alias) })
    case .update(let conflict, let table, let assignments, let whereClause, let returning):
      let scope = [Scope(tables: [(table.reference, table.name.lowercased())])]
      return .update(
        conflict: conflict, table: SQLTableReference(name: table.name.lowercased()),
        assignments: assignments.map { SQLAssignment(column: $0.column.lowercased(), value: normal($0.value, scope)) },
        whereClause: whereClause.map { normal($0, scope) },
        returning: returning.map { SQLResultColumn(expr: normal($0.expr, scope), alias: $0.alias) })
    case .delete(let table, let whereClause, let returning):
      let scope = [Scope(tables: [(table.reference, table.name.lowercased())])]
      return .delete(
        table: SQLTableReference(name: table.name.lowercased()), whereClause: whereClause.map { normal($0, scope) },
        returning: returning.map { SQLResultColumn(expr: normal($0.expr, scope), alias: $0.alias) })
    }
  }

  private func normal(_ select: SQLSelect, outer: [Scope]) -> SQLSelect {
    // A table read twice (a self-join) is told apart by its place: `employees#1` is the second.
    let references = ([select.from].compactMap { $0 } + select.joins.map(\.table))
    var seen: [String: Int] = [:]
    var tables: [(String, String)] = []
    for table in references {
      let name = table.name.lowercased()
      let occurrence = seen[name, default: 0]
      seen[name] = occurrence + 1
      let repeated = references.filter { $0.name.lowercased() == name }.count > 1
      tables.append((table.reference, repeated ? "\(name)#\(occurrence)" : name))
    }
    let scopes = outer + [Scope(tables: tables)]
    var out = SQLSelect()
    out.distinct = select.distinct
    out.columns = select.columns.flatMap { column -> [SQLResultColumn] in
      // `*`, `t.*`: the tables' columns, each named by its table.
      if case .star(let table) = column.expr {
        let names = table.map { [resolve($0, scopes)] } ?? tables.map(\.1)
        let expanded = names.map { name in
          tableColumns[String(name.prefix { $0 != "#" })].map {
            $0.map { SQLResultColumn(expr: .column(table: name, name: $0), alias: nil) }
          }
        }
        if expanded.allSatisfy({ $0 != nil }) { return expanded.flatMap { $0 ?? [] } }
        return [SQLResultColumn(expr: .star(table: table.map { resolve($0, scopes) }), alias: nil)]
      }
      return [SQLResultColumn(expr: normal(column.expr, scopes), alias: column.alias)]
    }
    out.from = select.from.map { SQLTableReference(name: $0.name.lowercased(), arguments: $0.arguments) }
    out.joins = select.joins.map {
      SQLJoin(kind: $0.kind, table: SQLTableReference(name: $0.table.name.lowercased()), on: $0.on.map { normal($0, scopes) })
    }
    out.whereClause = select.whereClause.map { normal($0, scopes) }
    out.groupBy = select.groupBy.map { key in normal(select.orderingTarget(key) { name in owner(of: name, scopes) != nil }, scopes) }
    out.having = select.having.map { normal($0, scopes) }
    out.orderBy = select.orderBy.map { ordering in
      let target = select.orderingTarget(ordering.expr) { name in owner(of: name, scopes) != nil }
      return SQLOrdering(expr: normal(target, scopes), descending: ordering.descending, nulls: ordering.nulls)
    }
    out.limit = select.limit.map { normal($0, scopes) }
    out.offset = select.offset.map { normal($0, scopes) }
    out.compounds = select.compounds.map { SQLCompound(op: $0.op, select: normal($0.select, outer: outer)) }
    return out
  }

  /// A common table's select without its result aliases: its columns are named once, in the
  /// normal common table (`WITH t(a) AS (SELECT x …)` and `WITH t AS (SELECT x AS a …)` agree).
  static func droppingAliases(_ select: SQLSelect) -> SQLSelect {
    var out = select
    out.columns = select.columns.map { SQLResultColumn(expr: $0.expr, alias: nil) }
    out.compounds = select.compounds.map { SQLCompound(op: $0.op, select: droppingAliases($0.select)) }
    return out
  }

  private func resolve(_ reference: String, _ scopes: [Scope]) -> String {
    for scope in scopes.reversed() {
      if let match = scope.tables.first(where: { $0.reference == reference }) { return match.name }
    }
    return reference
  }

  /// The table an unqualified column belongs to: the innermost scope's one table that has it.
  private func owner(of column: String, _ scopes: [Scope]) -> String? {
    for scope in scopes.reversed() {
      let owners = scope.tables.filter { table in
        let name = String(table.name.prefix { $0 != "#" })
        let model =
          catalog.table(forTableName: name)
          ?? catalog.tables.values.first { $0.tableName.lowercased() == name }
        return model?.columns.contains { $0.sqlName.lowercased() == column.lowercased() }
          ?? tableColumns[name]?.contains(column.lowercased()) ?? false
      }
      if owners.count == 1 { return owners[0].name }
      if owners.count > 1 { return nil }
    }
    return nil
  }

  /// A number compared with a numeric column is compared by value: `price > 10` and
  /// `price > 10.0` are one comparison (a TEXT column would compare text, so it is left alone).
  private static func asReal(_ expr: SQLExpr) -> SQLExpr {
    switch expr {
    case .integer(let digits): return Double(digits).map { .real("\($0)") } ?? expr
    default: return expr
    }
  }

  private func isNumericColumn(_ expr: SQLExpr, _ scopes: [Scope]) -> Bool {
    guard case .column(let table, let name) = expr else { return false }
    guard let tableName = table.map({ resolve($0, scopes) }) ?? owner(of: name, scopes) else { return false }
    let real = String(tableName.prefix { $0 != "#" })
    let model = catalog.table(forTableName: real) ?? catalog.tables.values.first { $0.tableName.lowercased() == real }
    guard let type = model?.columns.first(where: { $0.sqlName.lowercased() == name.lowercased() })?.type.wrapped else { return false }
    return type.isNumeric && catalog.enums[type.name] == nil
  }

  private func normal(_ expr: SQLExpr, _ scopes: [Scope]) -> SQLExpr {
    switch expr {
    case .column(let table, let name):
      let resolved = table.map { resolve($0, scopes) } ?? owner(of: name, scopes)
      return .column(table: resolved, name: name.lowercased())
    case .integer(let digits):
      return .integer(Int64(digits).map(String.init) ?? digits)
    case .real(let digits):
      return .real(Double(digits).map { "\($0)" } ?? digits)
    case .unary(let op, let operand):
      return .unary(op, normal(operand, scopes))
    case .binary(let op, let left, let right):
      if let other = SQLExpr.flippedComparisons[op], left.isLiteral, !right.isLiteral {
        return normal(.binary(other, right, left), scopes)
      }
      if SQLExpr.flippedComparisons[op] != nil, isNumericColumn(left, scopes) {
        return .binary(op, normal(left, scopes), Self.asReal(normal(right, scopes)))
      }
      return .binary(op, normal(left, scopes), normal(right, scopes))
    case .match(let op, let value, let pattern, let escape, let negated):
      let plain = SQLExpr.match(
        operator: op, normal(value, scopes), normal(pattern, scopes), escape: escape.map { normal($0, scopes) }, negated: false)
      return negated ? .unary("NOT", plain) : plain
    case .inList(let value, let items, let negated):
      let numeric = isNumericColumn(value, scopes)
      let plain = SQLExpr.inList(
        normal(value, scopes), items.map { numeric ? Self.asReal(normal($0, scopes)) : normal($0, scopes) }, negated: false)
      return negated ? .unary("NOT", plain) : plain
    case .inSelect(let value, let select, let negated):
      let plain = SQLExpr.inSelect(normal(value, scopes), normal(select, outer: scopes), negated: false)
      return negated ? .unary("NOT", plain) : plain
    case .between(let value, let low, let high, let negated):
      let numeric = isNumericColumn(value, scopes)
      let bound = { (bound: SQLExpr) -> SQLExpr in numeric ? Self.asReal(normal(bound, scopes)) : normal(bound, scopes) }
      let plain = SQLExpr.between(normal(value, scopes), bound(low), bound(high), negated: false)
      return negated ? .unary("NOT", plain) : plain
    case .function(let name, let arguments, let distinct):
      return .function(name, arguments.map { normal($0, scopes) }, distinct: distinct)
    case .filtered(let call, let condition):
      return .filtered(normal(call, scopes), where: normal(condition, scopes))
    case .caseWhen(let base, let whens, let otherwise):
      return .caseWhen(
        base.map { normal($0, scopes) },
        whens.map { SQLWhen(condition: normal($0.condition, scopes), result: normal($0.result, scopes)) },
        otherwise: otherwise.map { normal($0, scopes) })
    case .exists(let select, let negated):
      let plain = SQLExpr.exists(normal(select, outer: scopes), negated: false)
      return negated ? .unary("NOT", plain) : plain
    case .subquery(let select):
      return .subquery(normal(select, outer: scopes))
    case .cast(let value, let type):
      return .cast(normal(value, scopes), type: type)
    case .collate(let value, let collation):
      return .collate(normal(value, scopes), collation)
    case .row(let items):
      return .row(items.map { normal($0, scopes) })
    case .star(let table):
      return .star(table: table.map { resolve($0, scopes) })
    case .text, .null, .blob:
      return expr
    case .parameter(let index, _):
      // The value the spelling declared for it, as its SQL renders it.
      return parameterValues[index].map { normal($0, scopes) } ?? expr
    }
  }
}
