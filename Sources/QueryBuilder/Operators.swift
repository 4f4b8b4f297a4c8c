/// A binary SQL operator: the closed set the query builder renders.
///
/// ```swift
/// Expression.column("reminders", "id").binary(.equal, .value(.integer(1)))
/// // ("reminders"."id") = (1)
/// ```
public enum BinaryOperator: String, Sendable, Hashable, CaseIterable {
  case equal = "="
  case notEqual = "<>"
  case lessThan = "<"
  case greaterThan = ">"
  case lessThanOrEqual = "<="
  case greaterThanOrEqual = ">="
  case `is` = "IS"
  case isNot = "IS NOT"
  case `in` = "IN"
  case notIn = "NOT IN"
  case glob = "GLOB"
  case and = "AND"
  case or = "OR"
  case plus = "+"
  case minus = "-"
  case times = "*"
  case dividedBy = "/"
  case remainder = "%"
  case concatenate = "||"
  case bitwiseAnd = "&"
  case bitwiseOr = "|"
  case shiftLeft = "<<"
  case shiftRight = ">>"

  /// The SQL spelling.
  public var sql: String { rawValue }

  /// The operator a Swift operator means between SQL values (`==` is `=`, `&&` is `AND`);
  /// nil for one with no SQL counterpart.
  ///
  /// ```swift
  /// BinaryOperator(swift: "&&")  // .and
  /// ```
  public init?(swift op: String) {
    switch op {
    case "==": self = .equal
    case "!=": self = .notEqual
    case "&&": self = .and
    case "||": self = .or
    default: self.init(rawValue: op)
    }
  }
}

/// A prefix SQL operator.
///
/// ```swift
/// Expression.column("reminders", "isCompleted").not()  // NOT ("reminders"."isCompleted")
/// ```
public enum UnaryOperator: String, Sendable, Hashable, CaseIterable {
  case not = "NOT"
  case negate = "-"
  case plus = "+"
  case bitwiseNot = "~"

  /// The SQL spelling, with the space that follows a keyword.
  public var sql: String { self == .not ? "NOT " : rawValue }
}
