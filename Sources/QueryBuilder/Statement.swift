/// Any statement Quarry can render: reads, compound reads, writes, and `WITH` around them.
///
/// ```swift
/// Statement.select(Select(from: TableReference("tags", columns: ["id", "title"])))
/// // SELECT "tags"."id", "tags"."title"
/// // FROM "tags"
/// ```
public indirect enum Statement: Sendable, Hashable {
  case select(Select)
  case compound(CompoundSelect)
  case values([[Expression]])
  case with(With)
  case insert(Insert)
  case update(Update)
  case delete(Delete)
  case createView(CreateView)
  case createTrigger(CreateTrigger)
  case drop(DropObject)
  /// Explicit raw SQL (`#sql` as a statement, `.raw`).
  case raw(QueryFragment)

  public var fragment: QueryFragment {
    switch self {
    case .select(let select): return select.fragment
    case .compound(let compound): return compound.fragment
    case .values(let rows):
      var out = QueryFragment("VALUES" + QueryLayout.newlineOrSpace)
      out.append(rows.map { Expression(.row($0)).fragment }.joined(separator: ", "))
      return out
    case .with(let with): return with.fragment
    case .insert(let insert): return insert.fragment
    case .update(let update): return update.fragment
    case .delete(let delete): return delete.fragment
    case .createView(let view): return view.fragment
    case .createTrigger(let trigger): return trigger.fragment
    case .drop(let drop): return drop.fragment
    case .raw(let fragment): return fragment
    }
  }

  /// Whether the statement may add tables or views (so models are read again afterwards).
  public var changesSchema: Bool {
    switch self {
    case .createView, .createTrigger, .drop: return true
    case .raw: return !isRead
    default: return false
    }
  }

  /// Whether the statement only reads (so it needs no transaction).
  public var isRead: Bool {
    switch self {
    case .select, .compound, .values: return true
    case .with(let with): return with.body.isRead
    case .insert, .update, .delete, .createView, .createTrigger, .drop: return false
    case .raw(let fragment):
      let text = fragment.sql(inlining: false).drop(while: { $0 == " " || $0 == "\n" || $0 == "(" })
        .prefix(7).uppercased()
      return text.hasPrefix("SELECT") || text.hasPrefix("VALUES") || text.hasPrefix("WITH")
        || text.hasPrefix("EXPLAIN") || text.hasPrefix("PRAGMA")
    }
  }
}

/// A table named in `FROM` or `JOIN`, with the columns `SELECT *`-style selections expand to.
///
/// ```swift
/// TableReference("reminders", alias: "r1s", columns: ["id"]).fragment
/// // "reminders" AS "r1s"
/// ```
public struct TableReference: Sendable, Hashable {
  public var name: String
  public var alias: String?
  /// A table-valued source that replaces the quoted name (`pragma_table_info('reminders')`).
  public var source: QueryFragment?
  public var columns: [String]

  public init(_ name: String, alias: String? = nil, source: QueryFragment? = nil, columns: [String]) {
    self.name = name
    self.alias = alias
    self.source = source
    self.columns = columns
  }

  /// The name columns are qualified with.
  public var qualifier: String { alias ?? name }

  public var fragment: QueryFragment {
    var out = source ?? QueryFragment(quoteQualified(name))
    if let alias { out.append(" AS " + quoteIdentifier(alias)) }
    return out
  }

  /// Columns stored as JSONB, selected as JSON text: `json("t"."notes")`.
  public var jsonbColumns: Set<String> = []

  /// Every column of the table, qualified: `"t"."a", "t"."b"` (`json("t"."c")` for JSONB).
  public var allColumns: [Expression] {
    columns.map { jsonbColumns.contains($0) ? .function("json", [.column(qualifier, $0)]) : .column(qualifier, $0) }
  }
}

/// `[INNER|LEFT|RIGHT|FULL|CROSS] JOIN table [ON condition]`.
public struct Join: Sendable, Hashable {
  public enum Kind: String, Sendable, Hashable {
    case inner = "JOIN"
    case left = "LEFT JOIN"
    case right = "RIGHT JOIN"
    case full = "FULL JOIN"
    case
      cross = "CROSS JOIN"
  }
  public var kind: Kind
  public var table: TableReference
  public var condition: Expression?

  public init(_ kind: Kind, _ table: TableReference, on condition: Expression?) {
    self.kind = kind
    self.table = table
    self.condition = condition
  }

  public var fragment: QueryFragment {
    var out = QueryFragment(kind.rawValue + " ")
    out.append(table.fragment)
    if let condition {
      out.append(" ON ")
      out.append(condition.fragment)
    }
    return out
  }
}

/// A selected column, optionally named: `expr AS "name"`.
public struct ResultColumn: Sendable, Hashable {
  public var expression: Expression
  public var alias: String?
  public init(_ expression: Expression, as alias: String? = nil) {
    self.expression = expression
    self.alias = alias
  }
  public var fragment: QueryFragment {
    var out = expression.fragment
    if let alias { out.append(" AS " + quoteIdentifier(alias)) }
    return out
  }
}
