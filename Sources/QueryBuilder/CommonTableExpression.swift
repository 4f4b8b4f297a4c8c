/// One named query of a `WITH` clause.
///
/// ```swift
/// CommonTableExpression(name: "incompleteReminders", statement: .select(select))
/// // "incompleteReminders" AS (
/// //   SELECT …
/// // )
/// ```
public struct CommonTableExpression: Sendable, Hashable {
  public var name: String
  public var statement: Statement
  public init(name: String, statement: Statement) {
    self.name = name
    self.statement = statement
  }
  public var fragment: QueryFragment {
    var out = QueryFragment(quoteIdentifier(name) + " AS (" + QueryLayout.openBlock)
    out.append(statement.fragment.indented())
    out.append(QueryLayout.closeBlock + ")")
    return out
  }
}

/// `WITH cte, … statement`.
public struct With: Sendable, Hashable {
  public var expressions: [CommonTableExpression]
  public var body: Statement
  public init(_ expressions: [CommonTableExpression], body: Statement) {
    self.expressions = expressions
    self.body = body
  }
  /// Empty (nothing runs) when the body is empty or every expression is (`Reminder.none`);
  /// empty expressions are left out.
  public var fragment: QueryFragment {
    let body = body.fragment
    let expressions = expressions.filter { !$0.statement.fragment.isEmpty }
    guard !body.isEmpty, !expressions.isEmpty else { return QueryFragment() }
    var out: QueryFragment = "WITH "
    out.append(expressions.map(\.fragment).joined(separator: ", "))
    out.append(QueryLayout.newlineOrSpace)
    out.append(body)
    return out
  }
}
