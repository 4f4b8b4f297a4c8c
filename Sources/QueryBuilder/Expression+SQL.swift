/// SQL generation for expressions, kept apart from the expression model.
///
/// ```swift
/// Expression.column("tags", "title").binary(.concatenate, .value(.text("!"))).fragment
/// // ("tags"."title") || ('!')
/// ```
extension Expression {
  public var fragment: QueryFragment {
    var out = QueryFragment()
    render(into: &out)
    return out
  }

  func render(into out: inout QueryFragment) {
    switch node {
    case .column(let qualifier, let name):
      if let qualifier {
        out.append(quoteQualified(qualifier))
        out.append(".")
        out.append(quoteIdentifier(name))
      } else {
        out.append(quoteIdentifier(name))
      }
    case .value(.null):
      // As StructuredQueries writes a nil value: the keyword, not a bound NULL.
      out.append("NULL")
    case .value(let binding):
      out.append(binding)
    case .raw(let sql):
      out.append(sql)
    case .literal(let value):
      out.append(value.inlineSQL)
    case .unary(let op, let operand):
      out.append(op.sql + "(")
      operand.render(into: &out)
      out.append(")")
    case .binary(let lhs, let op, let rhs):
      // Each side in parentheses; a row of values (a column group) is a list inside them, as
      // StructuredQueries writes a group: `("a", "b") = ("c", "d")`.
      func side(_ expression: Expression) {
        out.append("(")
        if case .row(let elements) = expression.node { renderList(elements, into: &out) } else { expression.render(into: &out) }
        out.append(")")
      }
      side(lhs)
      out.append(" " + op.sql + " ")
      side(rhs)
    case .function(let name, let arguments):
      out.append(name + "(")
      renderList(arguments, into: &out)
      out.append(")")
    case .aggregate(let aggregate):
      out.append(aggregate.name + "(")
      if aggregate.distinct { out.append("DISTINCT ") }
      renderList(aggregate.arguments, into: &out)
      if !aggregate.order.isEmpty {
        out.append(" ORDER BY ")
        out.append(aggregate.order.map(\.fragment).joined(separator: ", "))
      }
      out.append(")")
      if let filter = aggregate.filter {
        out.append(" FILTER (WHERE ")
        filter.render(into: &out)
        out.append(")")
      }
    case .like(let string, let pattern, let escape):
      out.append("(")
      string.render(into: &out)
      out.append(" LIKE ")
      pattern.render(into: &out)
      if let escape {
        out.append(" ESCAPE ")
        escape.render(into: &out)
      }
      out.append(")")
    case .collate(let base, let collation):
      base.render(into: &out)
      out.append(" COLLATE " + collation)
    case .between(let base, let lower, let upper):
      base.render(into: &out)
      out.append(" BETWEEN ")
      lower.render(into: &out)
      out.append(" AND ")
      upper.render(into: &out)
    case .list(let elements):
      for (index, element) in elements.enumerated() {
        out.append(index == 0 ? "(" : ", (")
        element.render(into: &out)
        out.append(")")
      }
    case .row(let elements):
      out.append("(")
      renderList(elements, into: &out)
      out.append(")")
    case .subquery(let statement):
      out.append("(" + QueryLayout.openBlock)
      out.append(statement.fragment.indented())
      out.append(QueryLayout.closeBlock + ")")
    case .statement(let statement):
      out.append(statement.fragment)
    case .exists(let statement):
      out.append("EXISTS (" + QueryLayout.openBlock)
      out.append(statement.fragment.indented())
      out.append(QueryLayout.closeBlock + ")")
    case .sql(let parts):
      for part in parts {
        switch part {
        case .text(let text): out.append(text)
        case .expression(let expression): expression.render(into: &out)
        }
      }
    case .cast(let base, let type):
      out.append("CAST(")
      base.render(into: &out)
      out.append(" AS " + type + ")")
    case .caseWhen(let expression):
      out.append("CASE")
      if let base = expression.base {
        out.append(" ")
        base.render(into: &out)
      }
      for when in expression.whens {
        out.append(" WHEN ")
        when.condition.render(into: &out)
        out.append(" THEN ")
        when.result.render(into: &out)
      }
      if let otherwise = expression.otherwise {
        out.append(" ELSE ")
        otherwise.render(into: &out)
      }
      out.append(" END")
    case .window(let function, let window):
      function.render(into: &out)
      out.append(" OVER (")
      var parts: [QueryFragment] = []
      if !window.partitionBy.isEmpty {
        parts.append("PARTITION BY " + window.partitionBy.map(\.fragment).joined(separator: ", "))
      }
      if !window.orderBy.isEmpty {
        parts.append("ORDER BY " + window.orderBy.map(\.fragment).joined(separator: ", "))
      }
      if let frame = window.frame { parts.append(QueryFragment(frame.sql)) }
      out.append(parts.joined(separator: " "))
      out.append(")")
    }
  }

  private func renderList(_ expressions: [Expression], into out: inout QueryFragment) {
    for (index, expression) in expressions.enumerated() {
      if index > 0 { out.append(", ") }
      expression.render(into: &out)
    }
  }
}

extension Ordering {
  public var fragment: QueryFragment {
    var out = expression.fragment
    if let collation { out.append(" COLLATE " + collation) }
    if let direction { out.append(" " + direction.rawValue) }
    if let nulls { out.append(" " + nulls.rawValue) }
    return out
  }
}
