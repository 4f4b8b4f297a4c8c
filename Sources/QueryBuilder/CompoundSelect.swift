/// Selects combined with `UNION`, `UNION ALL`, `INTERSECT` or `EXCEPT`.
///
/// ```swift
/// CompoundSelect(first: .select(a), rest: [(.union, .select(b))])
/// // SELECT …
/// //   UNION
/// // SELECT …
/// ```
public struct CompoundSelect: Sendable, Hashable {
  public enum Operator: String, Sendable, Hashable {
    case union = "UNION"
    case unionAll = "UNION ALL"
    case intersect = "INTERSECT"
    case except = "EXCEPT"
  }
  public struct Term: Sendable, Hashable {
    public var op: Operator
    public var statement: Statement
    public init(_ op: Operator, _ statement: Statement) {
      self.op = op
      self.statement = statement
    }
  }

  public var first: Statement
  public var rest: [Term]
  public var orders: [Ordering] = []
  public var limit: Expression?
  public var offset: Expression?

  public init(first: Statement, rest: [Term]) {
    self.first = first
    self.rest = rest
  }

  public var fragment: QueryFragment {
    var out = first.fragment
    for term in rest {
      out.append(QueryLayout.current == .pretty ? "\n  " + term.op.rawValue + "\n" : " " + term.op.rawValue + " ")
      out.append(term.statement.fragment)
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
}
