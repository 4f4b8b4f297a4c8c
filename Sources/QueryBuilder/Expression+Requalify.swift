/// Moving an expression to another table name: what re-aliasing a finished query needs.
extension Expression {
  /// The expression with columns of `old` qualified by `new` instead; nil when it holds a part
  /// that cannot be rewritten safely (a subquery, raw `#sql` text, a window).
  ///
  /// ```swift
  /// Expression.column("r1s", "id").binary(.in, Expression(.list([.value(.integer(1))])))
  ///   .requalified(from: "r1s", to: "r2s")
  /// // ("r2s"."id") IN ((1))
  /// ```
  public func requalified(from old: String, to new: String) -> Expression? {
    func each(_ expressions: [Expression]) -> [Expression]? {
      var out: [Expression] = []
      for expression in expressions {
        guard let moved = expression.requalified(from: old, to: new) else { return nil }
        out.append(moved)
      }
      return out
    }
    switch node {
    case .column(let qualifier, let name):
      return .column(qualifier == old ? new : qualifier, name)
    case .value, .literal:
      return self
    case .raw(let text):
      return text == "NULL" || text == "*" ? self : nil
    case .unary(let op, let operand):
      return operand.requalified(from: old, to: new).map { Expression(.unary(op: op, operand: $0)) }
    case .binary(let lhs, let op, let rhs):
      guard let l = lhs.requalified(from: old, to: new), let r = rhs.requalified(from: old, to: new) else { return nil }
      return Expression(.binary(lhs: l, op: op, rhs: r))
    case .function(let name, let arguments):
      return each(arguments).map { .function(name, $0) }
    case .list(let elements):
      return each(elements).map { Expression(.list($0)) }
    case .row(let elements):
      return each(elements).map { Expression(.row($0)) }
    case .like(let string, let pattern, let escape):
      guard let s = string.requalified(from: old, to: new), let p = pattern.requalified(from: old, to: new) else { return nil }
      let e = escape.flatMap { $0.requalified(from: old, to: new) }
      if escape != nil && e == nil { return nil }
      return Expression(.like(string: s, pattern: p, escape: e))
    case .collate(let expression, let collation):
      return expression.requalified(from: old, to: new).map { Expression(.collate($0, collation: collation)) }
    case .between(let value, let lower, let upper):
      guard let v = value.requalified(from: old, to: new), let l = lower.requalified(from: old, to: new),
        let u = upper.requalified(from: old, to: new)
      else { return nil }
      return Expression(.between(v, lower: l, upper: u))
    case .cast(let expression, let type):
      return expression.requalified(from: old, to: new).map { Expression(.cast($0, type: type)) }
    default:
      return nil
    }
  }
}
