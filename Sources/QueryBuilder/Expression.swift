/// An SQL expression: a closed tree of columns, values, operators and function calls.
///
/// Values are built here and rendered separately (see `Expression+SQL.swift`):
///
/// ```swift
/// Expression.column("reminders", "id").binary(.equal, .value(.integer(1)))
/// // ("reminders"."id") = (1)
/// ```
public struct Expression: Sendable, Hashable {
  /// The tree itself: open to the package's own stages (rendering, the DSL front end), closed
  /// to everyone else, who build expressions with the constructors and operators below.
  package indirect enum Node: Sendable, Hashable {
    /// `"table"."column"`, or `"column"` without a qualifier.
    case column(qualifier: String?, name: String)
    /// A bound value (`?` when executed, a literal when shown).
    case value(QueryBinding)
    /// SQL text spliced as is (`*`, `NULL`, `#sql` text, `\(raw:)`).
    case raw(String)
    /// A constant written into the SQL text, never bound: what SQLite needs as a literal (a
    /// JSON path `'$[0]'`, a date modifier `'subsec'`, likelihood's probability).
    case literal(QueryBinding)
    /// `NOT (x)`, `-(x)`.
    case unary(op: UnaryOperator, operand: Expression)
    /// `(lhs) op (rhs)`.
    case binary(lhs: Expression, op: BinaryOperator, rhs: Expression)
    /// `name(a, b)`.
    case function(name: String, arguments: [Expression])
    /// `count(DISTINCT x ORDER BY y) FILTER (WHERE z)`.
    case aggregate(Aggregate)
    /// `(x LIKE pattern ESCAPE e)`.
    case like(string: Expression, pattern: Expression, escape: Expression?)
    /// `x COLLATE NOCASE`.
    case collate(Expression, collation: String)
    /// `x BETWEEN a AND b`.
    case between(Expression, lower: Expression, upper: Expression)
    /// `(a), (b), (c)`: the right-hand side of `IN` with a list.
    case list([Expression])
    /// `(a, b)`: a row value.
    case row([Expression])
    /// `(\n  SELECT …\n)`: a scalar subquery.
    case subquery(Statement)
    /// `SELECT …` with no parentheses of its own (the right-hand side of `IN`).
    case statement(Statement)
    /// `EXISTS (\n  SELECT …\n)`.
    case exists(Statement)
    /// `#sql("…")`: raw text with interpolated expressions.
    case sql([SQLPart])
    /// `CAST(x AS TYPE)`.
    case cast(Expression, type: String)
    /// `CASE [base] WHEN … THEN … [ELSE …] END`.
    case caseWhen(CaseExpression)
    /// `expr AS "alias"` inside a window or selection list is modelled by `ResultColumn`;
    /// this is a window function call: `f(…) OVER (…)`.
    case window(function: Expression, window: WindowSpecification)
  }

  package var node: Node

  package init(_ node: Node) { self.node = node }

  // MARK: Constructors

  public static func column(_ qualifier: String?, _ name: String) -> Expression {
    Expression(.column(qualifier: qualifier, name: name))
  }
  public static func value(_ binding: QueryBinding) -> Expression { Expression(.value(binding)) }
  public static func raw(_ sql: String) -> Expression { Expression(.raw(sql)) }
  public static let null = Expression.value(.null)

  /// Text spliced into the SQL as a quoted literal: `Expression.literal("now")` → `'now'`.
  public static func literal(_ text: String) -> Expression { Expression(.literal(.text(text))) }
  public static let star = Expression.raw("*")

  public static func function(_ name: String, _ arguments: [Expression]) -> Expression {
    Expression(.function(name: name, arguments: arguments))
  }

  public func binary(_ op: BinaryOperator, _ rhs: Expression) -> Expression {
    Expression(.binary(lhs: self, op: op, rhs: rhs))
  }

  public func unary(_ op: UnaryOperator) -> Expression {
    Expression(.unary(op: op, operand: self))
  }

  public func not() -> Expression { unary(.not) }
  public func and(_ other: Expression) -> Expression { binary(.and, other) }
  public func or(_ other: Expression) -> Expression { binary(.or, other) }
}

/// One piece of an `#sql` expression.
public enum SQLPart: Sendable, Hashable {
  case text(String)
  case expression(Expression)
}

/// An aggregate function call.
///
/// ```swift
/// Aggregate(name: "count", arguments: [.column("reminders", "id")], distinct: true)
/// // count(DISTINCT "reminders"."id")
/// ```
public struct Aggregate: Sendable, Hashable {
  public var name: String
  public var arguments: [Expression]
  public var distinct: Bool
  public var order: [Ordering]
  public var filter: Expression?

  public init(
    name: String, arguments: [Expression], distinct: Bool = false, order: [Ordering] = [],
    filter: Expression? = nil
  ) {
    self.name = name
    self.arguments = arguments
    self.distinct = distinct
    self.order = order
    self.filter = filter
  }
}

/// A `CASE` expression.
///
/// ```swift
/// CaseExpression(base: nil, whens: [(cond, .value(.text("yes")))], otherwise: .value(.text("no")))
/// // CASE WHEN cond THEN 'yes' ELSE 'no' END
/// ```
public struct CaseExpression: Sendable, Hashable {
  public struct When: Sendable, Hashable {
    public var condition: Expression
    public var result: Expression
    public init(_ condition: Expression, then result: Expression) {
      self.condition = condition
      self.result = result
    }
  }
  public var base: Expression?
  public var whens: [When]
  public var otherwise: Expression?

  public init(base: Expression?, whens: [When], otherwise: Expression?) {
    self.base = base
    self.whens = whens
    self.otherwise = otherwise
  }
}

/// The `OVER (…)` part of a window function call: the partition, the order within it, and the
/// frame of rows an aggregate sees.
///
/// ```swift
/// WindowSpecification(partitionBy: [.column("employees", "departmentID")],
///                     orderBy: [Ordering(.column("employees", "hiredAt"))],
///                     frame: WindowFrame(unit: .rows, start: .preceding(2), end: .currentRow))
/// // OVER (PARTITION BY "employees"."departmentID" ORDER BY "employees"."hiredAt"
/// //       ROWS BETWEEN 2 PRECEDING AND CURRENT ROW)
/// ```
public struct WindowSpecification: Sendable, Hashable {
  public var partitionBy: [Expression]
  public var orderBy: [Ordering]
  public var frame: WindowFrame?
  public init(partitionBy: [Expression] = [], orderBy: [Ordering] = [], frame: WindowFrame? = nil) {
    self.partitionBy = partitionBy
    self.orderBy = orderBy
    self.frame = frame
  }
}

/// The rows around the current one that a window aggregate sees (`ROWS BETWEEN … AND …`).
public struct WindowFrame: Sendable, Hashable {
  public enum Unit: String, Sendable, Hashable {
    case rows = "ROWS"
    case range = "RANGE"
    case groups = "GROUPS"
  }
  public enum Bound: Sendable, Hashable {
    case unboundedPreceding
    case preceding(Int)
    case currentRow
    case following(Int)
    case unboundedFollowing

    public var sql: String {
      switch self {
      case .unboundedPreceding: "UNBOUNDED PRECEDING"
      case .preceding(let n): "\(n) PRECEDING"
      case .currentRow: "CURRENT ROW"
      case .following(let n): "\(n) FOLLOWING"
      case .unboundedFollowing: "UNBOUNDED FOLLOWING"
      }
    }
  }

  public var unit: Unit
  public var start: Bound
  public var end: Bound
  public init(unit: Unit, start: Bound, end: Bound = .currentRow) {
    self.unit = unit
    self.start = start
    self.end = end
  }

  public var sql: String { "\(unit.rawValue) BETWEEN \(start.sql) AND \(end.sql)" }
}

/// A term of `ORDER BY`.
///
/// ```swift
/// Ordering(.column("reminders", "title"), direction: .descending, nulls: .last)
/// // "reminders"."title" DESC NULLS LAST
/// ```
public struct Ordering: Sendable, Hashable {
  public enum Direction: String, Sendable, Hashable {
    case ascending = "ASC"
    case descending = "DESC"
  }
  public enum Nulls: String, Sendable, Hashable {
    case first = "NULLS FIRST"
    case last = "NULLS LAST"
  }

  public var expression: Expression
  public var direction: Direction?
  public var nulls: Nulls?
  public var collation: String?

  public init(
    _ expression: Expression, direction: Direction? = nil, nulls: Nulls? = nil,
    collation: String? = nil
  ) {
    self.expression = expression
    self.direction = direction
    self.nulls = nulls
    self.collation = collation
  }
}
