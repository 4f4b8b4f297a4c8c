/// A SQL statement read into a tree, as SQLite's grammar reads it: what `.dsl` spells in the DSL,
/// and what two statements are compared on (their trees, not their text: parentheses, quoting,
/// letter case and spacing fall away).
///
/// ```swift
/// let tree = try SQLTree.parse(#"SELECT title FROM reminders WHERE NOT isCompleted ORDER BY title"#)
/// // .select(SQLSelect(columns: [title], from: reminders, where: NOT isCompleted, orderBy: [title]))
/// ```
indirect enum SQLExpr: Equatable {
  /// A column, with the table or alias that qualifies it (as written, lower-cased).
  case column(table: String?, name: String)
  case integer(String)
  case real(String)
  case text(String)
  case null
  case blob(String)
  /// `*` or `t.*`: in a result column or `count(*)`.
  case star(table: String?)
  /// `NOT x`, `-x`, `+x`, `~x`.
  case unary(String, SQLExpr)
  /// Operators by their canonical spelling: `=` (also `==`), `<>` (also `!=`), `<`, `<=`, `>`,
  /// `>=`, `AND`, `OR`, `+`, `-`, `*`, `/`, `%`, `||`, `IS`, `IS NOT`, `LIKE`, `GLOB`, `&`, `|`,
  /// `<<`, `>>`, `->`, `->>`.
  case binary(String, SQLExpr, SQLExpr)
  /// `x LIKE p ESCAPE e`, `x NOT GLOB p`.
  case match(operator: String, SQLExpr, SQLExpr, escape: SQLExpr?, negated: Bool)
  case inList(SQLExpr, [SQLExpr], negated: Bool)
  case inSelect(SQLExpr, SQLSelect, negated: Bool)
  case between(SQLExpr, SQLExpr, SQLExpr, negated: Bool)
  /// A function call, its name lower-cased; `count(*)` has one `.star` argument.
  case function(String, [SQLExpr], distinct: Bool)
  /// `count(x) FILTER (WHERE condition)`: an aggregate over the rows the condition keeps.
  case filtered(SQLExpr, where: SQLExpr)
  case caseWhen(SQLExpr?, [SQLWhen], otherwise: SQLExpr?)
  case exists(SQLSelect, negated: Bool)
  case subquery(SQLSelect)
  case cast(SQLExpr, type: String)
  case collate(SQLExpr, String)
  /// `(a, b)`: a row value.
  case row([SQLExpr])
  /// A parameter the app binds: `?`, `?2`, `:id`; `index` counts from 0 as SQLite numbers them.
  case parameter(index: Int, name: String?)
}

extension SQLExpr {
  /// The expressions directly inside this one (not a subquery's).
  var children: [SQLExpr] {
    switch self {
    case .unary(_, let value), .cast(let value, _), .collate(let value, _), .inSelect(let value, _, _): [value]
    case .binary(_, let left, let right): [left, right]
    case .match(_, let value, let pattern, let escape, _): [value, pattern] + (escape.map { [$0] } ?? [])
    case .inList(let value, let items, _): [value] + items
    case .between(let value, let low, let high, _): [value, low, high]
    case .function(_, let arguments, _): arguments
    case .filtered(let value, let condition): [value, condition]
    case .caseWhen(let subject, let whens, let otherwise):
      (subject.map { [$0] } ?? []) + whens.flatMap { [$0.condition, $0.result] } + (otherwise.map { [$0] } ?? [])
    case .row(let items): items
    case .column, .integer, .real, .text, .null, .blob, .star, .exists, .subquery, .parameter: []
    }
  }

  /// A literal value (`3`, `'a'`, `NULL`, a blob).
  var isLiteral: Bool {
    switch self {
    case .integer, .real, .text, .null, .blob: true
    default: false
    }
  }

  /// A comparison with its sides swapped: `3 < x` is `x > 3`.
  static let flippedComparisons: [String: String] = [
    "=": "=", "<>": "<>", "IS": "IS", "IS NOT": "IS NOT", "<": ">", ">": "<", "<=": ">=", ">=": "<=",
  ]
}

struct SQLWhen: Equatable {
  var condition: SQLExpr
  var result: SQLExpr
}

/// A table in `FROM` or a join, with its alias.
struct SQLTableReference: Equatable {
  var name: String
  var alias: String?
  /// A table-valued function's arguments (`pragma_table_info('t')`); nil for a table.
  var arguments: [SQLExpr]? = nil
  /// A subquery read as a table (`FROM (SELECT …) AS x`), named by its alias.
  var subquery: SQLSubquery? = nil
  /// The name the statement refers to it by (its alias, else its name), lower-cased.
  var reference: String { (alias ?? name).lowercased() }
}

struct SQLJoin: Equatable {
  /// `JOIN` (also `INNER JOIN`), `LEFT JOIN` (also `LEFT OUTER JOIN`), `RIGHT JOIN`, `FULL JOIN`, `CROSS JOIN`.
  var kind: String
  var table: SQLTableReference
  var on: SQLExpr?
}

struct SQLResultColumn: Equatable {
  var expr: SQLExpr
  var alias: String?
}

struct SQLOrdering: Equatable {
  var expr: SQLExpr
  var descending: Bool
  /// `NULLS FIRST` / `NULLS LAST`, when written.
  var nulls: String?
}

struct SQLSelect: Equatable {
  /// What an ORDER BY term names: `2` is the second result column, and a result column's alias
  /// is that column (when no column of the tables has that name).
  func orderingTarget(_ expr: SQLExpr, isTableColumn: (String) -> Bool) -> SQLExpr {
    switch expr {
    case .integer(let digits):
      guard let position = Int(digits), position >= 1, position <= columns.count else { return expr }
      if case .star = columns[position - 1].expr { return expr }
      return columns[position - 1].expr
    case .column(nil, let name) where !isTableColumn(name):
      return columns.first { $0.alias?.lowercased() == name.lowercased() }?.expr ?? expr
    default:
      return expr
    }
  }

  var distinct = false
  var columns: [SQLResultColumn] = []
  var from: SQLTableReference?
  var joins: [SQLJoin] = []
  var whereClause: SQLExpr?
  var groupBy: [SQLExpr] = []
  var having: SQLExpr?
  var orderBy: [SQLOrdering] = []
  var limit: SQLExpr?
  var offset: SQLExpr?
  /// `UNION [ALL]`, `INTERSECT`, `EXCEPT` and the selects after it; the ORDER BY and LIMIT
  /// above then order and cut the whole compound.
  var compounds: [SQLCompound] = []
  /// `WITH [RECURSIVE] name (columns) AS (select), …` before it.
  var commonTables: [SQLCommonTable] = []
}

struct SQLCommonTable: Equatable {
  var name: String
  /// The columns named after the CTE's name, if any; else its select's result names.
  var columns: [String]
  var select: SQLSelect

  /// The name of each result column: listed after the name, else the select's alias, else the
  /// column it reads.
  var columnNames: [String]? {
    if !columns.isEmpty { return columns }
    var names: [String] = []
    for column in select.columns {
      if let alias = column.alias {
        names.append(alias)
      } else if case .column(_, let name) = column.expr {
        names.append(name)
      } else {
        return nil
      }
    }
    return names
  }
}

/// A select inside a table reference (held apart: a select holds table references).
struct SQLSubquery: Equatable {
  private var held: [SQLSelect]
  init(_ select: SQLSelect) { held = [select] }
  var select: SQLSelect { held[0] }
}

struct SQLCompound: Equatable {
  /// `UNION`, `UNION ALL`, `INTERSECT`, `EXCEPT`.
  var op: String
  var select: SQLSelect
}

/// `ON CONFLICT (target) [WHERE …] DO NOTHING` or `DO UPDATE SET … [WHERE …]`.
struct SQLUpsert: Equatable {
  var target: [String]
  var targetWhere: SQLExpr?
  /// Nil for DO NOTHING.
  var assignments: [SQLAssignment]?
  var updateWhere: SQLExpr?
}

struct SQLAssignment: Equatable {
  var column: String
  var value: SQLExpr
}

enum SQLStatement: Equatable {
  case select(SQLSelect)
  /// `INSERT [OR …] INTO t (columns) VALUES (…), (…)` or `… SELECT …`.
  case insert(
    conflict: String?, table: SQLTableReference, columns: [String], rows: [[SQLExpr]], select: SQLSelect?, upsert: SQLUpsert?,
    returning: [SQLResultColumn])
  case update(
    conflict: String?, table: SQLTableReference, assignments: [SQLAssignment], whereClause: SQLExpr?, returning: [SQLResultColumn])
  case delete(table: SQLTableReference, whereClause: SQLExpr?, returning: [SQLResultColumn])
}

/// Why a statement could not be read, or has no DSL spelling here: the construct, and where it
/// starts in the SQL (a character offset).
struct SQLTreeError: Error, Equatable {
  var message: String
  var offset: Int
}
