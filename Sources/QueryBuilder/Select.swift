/// A `SELECT` statement as a value.
///
/// An empty column list selects every column of the `FROM` table and each joined table, the way
/// StructuredQueries selects whole rows:
///
/// ```swift
/// var select = Select(from: TableReference("reminders", columns: ["id", "title"]))
/// select.wheres.append(.column("reminders", "id").binary(.equal, .value(.integer(1))))
/// // SELECT "reminders"."id", "reminders"."title"
/// // FROM "reminders"
/// // WHERE (("reminders"."id") = (1))
/// ```
public struct Select: Sendable, Hashable {
  public var from: TableReference?
  public var distinct = false
  public var columns: [ResultColumn] = []
  public var joins: [Join] = []
  public var wheres: [Expression] = []
  public var groups: [Expression] = []
  public var havings: [Expression] = []
  public var orders: [Ordering] = []
  public var limit: Expression?
  public var offset: Expression?
  /// `Table.none`: a query that renders nothing and runs nothing.
  public var isEmpty = false

  public init(from: TableReference?) {
    self.from = from
  }

  /// The selected columns with the whole-row default expanded.
  public var resultColumns: [ResultColumn] {
    if !columns.isEmpty { return columns }
    var all: [ResultColumn] = []
    if let from { all += from.allColumns.map { ResultColumn($0) } }
    for join in joins { all += join.table.allColumns.map { ResultColumn($0) } }
    return all
  }

  public var fragment: QueryFragment {
    guard !isEmpty else { return QueryFragment() }
    var out: QueryFragment = distinct ? "SELECT DISTINCT " : "SELECT "
    out.append(resultColumns.map(\.fragment).joined(separator: ", "))
    if let from {
      out.append(QueryLayout.newlineOrSpace + "FROM ")
      out.append(from.fragment)
    }
    for join in joins {
      out.append(QueryLayout.newlineOrSpace)
      out.append(join.fragment)
    }
    if !wheres.isEmpty {
      out.append(QueryLayout.newlineOrSpace + "WHERE ")
      out.append(Self.conjunction(wheres))
    }
    if !groups.isEmpty {
      out.append(QueryLayout.newlineOrSpace + "GROUP BY ")
      out.append(groups.map(\.fragment).joined(separator: ", "))
    }
    if !havings.isEmpty {
      out.append(QueryLayout.newlineOrSpace + "HAVING ")
      out.append(Self.conjunction(havings))
    }
    if !orders.isEmpty {
      out.append(QueryLayout.newlineOrSpace + "ORDER BY ")
      out.append(orders.map(\.fragment).joined(separator: ", "))
    }
    if limit != nil || offset != nil {
      out.append(QueryLayout.newlineOrSpace + "LIMIT ")
      out.append((limit ?? .value(.integer(-1))).fragment)
      if let offset {
        out.append(" OFFSET ")
        out.append(offset.fragment)
      }
    }
    return out
  }

  /// Predicates joined the way StructuredQueries joins chained `where`s: `(a) AND (b)`.
  public static func conjunction(_ predicates: [Expression]) -> QueryFragment {
    predicates.map { QueryFragment("(") + $0.fragment + QueryFragment(")") }
      .joined(separator: " AND ")
  }
}
