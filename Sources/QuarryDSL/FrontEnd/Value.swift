import QueryBuilder

/// A table as it appears in one query: its model and, for self-joins, its alias.
struct TableInstance: Sendable {
  var model: TableModel
  var alias: String?
  /// Generic argument of a table like `PragmaTableInfo<Reminder>`.
  var genericArgument: TableModel?
  /// `T.unscoped`: ignore the table's default scope (`static let all = …`).
  var unscoped = false
  /// On the outer side of a join (`leftJoin`'s table, tables before a `rightJoin`): its row may
  /// be missing.
  var isOptional = false
  /// The FROM source of a table-valued function over an expression (`json_each("trips"."geofence")`).
  var sourceFragment: QueryFragment?

  var qualifier: String { alias ?? model.qualifiedName }

  var reference: TableReference {
    var reference = TableReference(
      model.qualifiedName, alias: alias, source: source,
      columns: model.columns.map(\.sqlName))
    if model.columns.contains(where: { $0.type.representation != nil }) {
      reference.jsonbColumns = Set(model.columns.filter { $0.type.representation?.contains("JSONB") == true }.map(\.sqlName))
    }
    return reference
  }

  private var source: QueryFragment? {
    if let sourceFragment { return sourceFragment }
    guard let template = model.sourceTemplate else { return nil }
    return QueryFragment(render(template))
  }

  func render(_ template: [TemplatePart]) -> String {
    var out = ""
    let base = genericArgument?.tableName ?? ""
    for part in template {
      switch part {
      case .text(let text): out += text
      case .baseTableName: out += base
      case .quotedBaseTableName: out += quoteText(base)
      }
    }
    return out
  }

  /// A column of this table; on the outer side of a join its value is optional, as the
  /// library's `Optional.TableColumns` makes it (`$1.name ?? "nobody"`).
  func column(_ column: ColumnModel) -> TypedExpression {
    TypedExpression(.column(qualifier, column.sqlName), type: isOptional ? column.type.optional : column.type)
  }

  var allColumns: [TypedExpression] { model.columns.map(column) }
}

/// An expression with the Swift type the DSL believes it has (nil when unknown).
struct TypedExpression: Sendable {
  var expression: Expression
  var type: SwiftType?
  init(_ expression: Expression, type: SwiftType?) {
    self.expression = expression
    self.type = type
  }
}

/// A query being built: a statement plus the tables its closures' parameters bind to.
struct Query: Sendable {
  var select: Select
  var tables: [TableInstance]
  /// Types of the selected columns (for display), parallel to `select.columns`.
  var columnTypes: [SwiftType?] = []
  /// The type the rows are selected into (`X.Columns(…)`, `X(…)`): a CTE's name comes from it.
  var resultModel: String?
  /// What `select` was given, one value per selected item (a whole table is one item), for `map`.
  var selectedValues: [Value] = []

  init(_ table: TableInstance) {
    select = Select(from: table.reference)
    tables = [table]
  }

  init(select: Select, tables: [TableInstance]) {
    self.select = select
    self.tables = tables
  }

  /// Result column types, with whole-row selections expanded.
  var resultTypes: [SwiftType?] {
    if !select.columns.isEmpty { return columnTypes }
    return tables.flatMap { $0.model.columns.map { Optional($0.type) } }
  }

  /// The predicate of all `where`s as one expression (for `and`/`or` of whole queries).
  var combinedWhere: Expression? {
    guard let first = select.wheres.first else { return nil }
    if select.wheres.count == 1 { return first }
    return select.wheres.dropFirst().reduce(first) { $0.and($1) }
  }
}

/// What a piece of DSL evaluates to while compiling.
indirect enum Value: Sendable {
  /// A table type (`Reminder`), possibly aliased (`Reminder.as(R1.self)`).
  case table(TableInstance)
  case query(Query)
  case expression(TypedExpression)
  /// The columns of one table in a closure (`$0`).
  case columns(TableInstance)
  /// A nested group of a table's columns (`$0.kind`, `$0.kind.video`).
  case group(TableInstance, path: [String])
  case tuple([Value])
  /// `\.title` or `\.self`.
  case keyPath([String])
  case ordering(Ordering)
  /// `Row.Columns(a: x)`: named result columns of a selection type.
  case selection([(String, TypedExpression)], model: String)
  case enumType(EnumModel)
  case aliasType(AliasModel)
  /// A write or compound statement (not composable as a select).
  case statement(Statement, returningTypes: [SwiftType?])
  /// A Swift metatype used as an argument (`Int.self`).
  case metatype(String)
  /// An array literal of values (`[1, 2]`).
  case array([Value])
  /// A slice of an array the compiler holds (`rows.dropFirst()`): its elements and the index of
  /// the first, which Swift keeps (`rows.dropFirst()[1]` is the second row).
  case slice([Value], startIndex: Int)
  /// `nil`.
  case null
  /// A name with no meaning yet (`.nocase`, `.high` before its context is known).
  case implicitMember(String)
  /// A date-time modifier chain (`.days(1).startOfMonth`).
  case dateModifiers([String])
  /// An INSERT, UPDATE or DELETE being built (`.where`, `.returning` still apply).
  case write(WriteQuery)
  /// A `Case()` expression being built with `.when(…, then: …)`.
  /// `Case(base)` being built: the result type so far, and the base's type (for `.when(.low, …)`).
  case caseBuilder(CaseExpression, type: SwiftType?, baseType: SwiftType? = nil)
  /// The window being described inside `.over { $0.partition(by: …).order(by: …) }`.
  case window(WindowSpecification)
  /// A Swift value a name holds exactly as Swift holds it, where the query's own values would
  /// lose something: a slice keeps its indices, a Dictionary or a Set its elements, a range its
  /// bounds (`let s = [10, 20, 30].dropFirst()`; `s[1]` is 20). Read where the name is used:
  /// Swift computes with it as it is, a query binds its SQL form.
  case swiftValue(SwiftValue)
  /// A function the input declares, named without a call (`migrate_001` in
  /// `registerMigration("v1", migrate: migrate_001)`, or an element of a list of them).
  case function(String)
}

/// A write statement plus the table its closures bind to.
struct WriteQuery: Sendable {
  var table: TableInstance
  var statement: Statement
  var returningTypes: [SwiftType?] = []
}

/// A Swift computation met a value the app supplies only when it runs (`quarry scan`: a
/// function's parameter, a view's property): the computation's result is a run-time value too,
/// named by its source.
struct RunTimeValue: Error {
  var name: String
}

extension Value {
  /// A value the app has only when it runs, bound as the parameter `name` (the code that
  /// computes it), of `type` when that is known.
  ///
  /// ```swift
  /// Reminder.where { $0.title.eq(searchText) }  // in a scanned app
  /// // … WHERE ("reminders"."title" = ?)  -- ?1 = searchText
  /// ```
  static func runTime(_ name: String, type: SwiftType? = nil) -> Value {
    .expression(TypedExpression(.value(.parameter(name)), type: type))
  }
}
