/// `column = value` in `UPDATE … SET` and `DO UPDATE SET`.
public struct Assignment: Sendable, Hashable {
  public var column: String
  public var value: Expression
  public init(_ column: String, _ value: Expression) {
    self.column = column
    self.value = value
  }
  public var fragment: QueryFragment {
    QueryFragment(quoteIdentifier(column) + " = ") + value.fragment
  }
}

/// `OR IGNORE`, `OR REPLACE`, … of `INSERT` and `UPDATE`.
public enum ConflictResolution: String, Sendable, Hashable {
  case abort = "ABORT"
  case fail = "FAIL"
  case ignore = "IGNORE"
  case replace = "REPLACE"
  case
    rollback = "ROLLBACK"
}

/// An `INSERT` statement.
///
/// ```swift
/// Insert(table: "tags", columns: ["title"], source: .values([[.value(.text("car"))]]))
/// // INSERT INTO "tags"
/// // ("title")
/// // VALUES
/// // ('car')
/// ```
public struct Insert: Sendable, Hashable {
  public enum Source: Sendable, Hashable {
    case values([[Expression]])
    case select(Statement)
    case defaultValues
  }
  public enum ConflictAction: Sendable, Hashable {
    case doNothing
    case doUpdate([Assignment], where: [Expression])
  }
  public struct Upsert: Sendable, Hashable {
    public var target: [String]
    public var targetWhere: [Expression]
    public var action: ConflictAction
    public init(target: [String], targetWhere: [Expression] = [], action: ConflictAction) {
      self.target = target
      self.targetWhere = targetWhere
      self.action = action
    }
  }

  public var table: String
  public var alias: String?
  public var conflictResolution: ConflictResolution?
  public var columns: [String]
  public var source: Source
  public var upsert: Upsert?
  public var returning: [Expression] = []

  public init(
    table: String, alias: String? = nil, conflictResolution: ConflictResolution? = nil,
    columns: [String], source: Source, upsert: Upsert? = nil, returning: [Expression] = []
  ) {
    self.table = table
    self.alias = alias
    self.conflictResolution = conflictResolution
    self.columns = columns
    self.source = source
    self.upsert = upsert
    self.returning = returning
  }

  /// An insert of no rows renders nothing (and runs nothing), as in StructuredQueries.
  public var isEmpty: Bool {
    if case .values(let rows) = source { return rows.isEmpty }
    return false
  }

  public var fragment: QueryFragment {
    guard !isEmpty else { return QueryFragment() }
    var out: QueryFragment = "INSERT"
    if let conflictResolution { out.append(" OR " + conflictResolution.rawValue) }
    out.append(" INTO " + quoteQualified(table))
    if let alias { out.append(" AS " + quoteIdentifier(alias)) }
    switch source {
    case .defaultValues:
      out.append(" DEFAULT VALUES")
    case .values(let rows):
      let line = QueryLayout.newlineOrSpace
      out.append(line + "(" + columns.map(quoteIdentifier).joined(separator: ", ") + ")" + line + "VALUES" + line)
      out.append(rows.map { Expression(.row($0)).fragment }.joined(separator: ", "))
    case .select(let statement):
      let line = QueryLayout.newlineOrSpace
      out.append(line + "(" + columns.map(quoteIdentifier).joined(separator: ", ") + ")" + line)
      out.append(statement.fragment)
    }
    if let upsert {
      out.append(QueryLayout.newlineOrSpace + "ON CONFLICT")
      if !upsert.target.isEmpty {
        out.append(" (" + upsert.target.map(quoteIdentifier).joined(separator: ", ") + ")")
        if !upsert.targetWhere.isEmpty {
          out.append(QueryLayout.newlineOrSpace + "WHERE ")
          out.append(upsert.targetWhere.map(\.fragment).joined(separator: " AND "))
        }
        out.append(QueryLayout.newlineOrSpace)
      } else {
        out.append(" ")
      }
      switch upsert.action {
      case .doNothing:
        out.append("DO NOTHING")
      case .doUpdate(let assignments, let wheres):
        out.append("DO UPDATE SET ")
        out.append(assignments.map(\.fragment).joined(separator: ", "))
        if !wheres.isEmpty {
          out.append(QueryLayout.newlineOrSpace + "WHERE ")
          out.append(wheres.map(\.fragment).joined(separator: " AND "))
        }
      }
    }
    appendReturning(returning, to: &out)
    return out
  }
}

/// An `UPDATE` statement.
///
/// ```swift
/// Update(table: "reminders", assignments: [Assignment("isCompleted", .value(.integer(1)))])
/// // UPDATE "reminders"
/// // SET "isCompleted" = 1
/// ```
public struct Update: Sendable, Hashable {
  public var table: String
  public var alias: String?
  public var conflictResolution: ConflictResolution?
  public var assignments: [Assignment]
  public var wheres: [Expression] = []
  public var returning: [Expression] = []
  public var isEmpty = false

  public init(table: String, alias: String? = nil, assignments: [Assignment]) {
    self.table = table
    self.alias = alias
    self.assignments = assignments
  }

  public var fragment: QueryFragment {
    guard !isEmpty, !assignments.isEmpty else { return QueryFragment() }
    var out: QueryFragment = "UPDATE"
    if let conflictResolution { out.append(" OR " + conflictResolution.rawValue) }
    out.append(" " + quoteQualified(table))
    if let alias { out.append(" AS " + quoteIdentifier(alias)) }
    out.append(QueryLayout.newlineOrSpace + "SET ")
    out.append(assignments.map(\.fragment).joined(separator: ", "))
    if !wheres.isEmpty {
      out.append(QueryLayout.newlineOrSpace + "WHERE ")
      out.append(Select.conjunction(wheres))
    }
    appendReturning(returning, to: &out)
    return out
  }
}

/// A `DELETE` statement.
///
/// ```swift
/// Delete(table: "reminders", wheres: [.column("reminders", "isCompleted")])
/// // DELETE FROM "reminders"
/// // WHERE ("reminders"."isCompleted")
/// ```
public struct Delete: Sendable, Hashable {
  public var table: String
  public var alias: String?
  public var wheres: [Expression]
  public var returning: [Expression] = []
  public var isEmpty = false

  public init(table: String, alias: String? = nil, wheres: [Expression] = []) {
    self.table = table
    self.alias = alias
    self.wheres = wheres
  }

  public var fragment: QueryFragment {
    guard !isEmpty else { return QueryFragment() }
    var out = QueryFragment("DELETE FROM " + quoteQualified(table))
    if let alias { out.append(" AS " + quoteIdentifier(alias)) }
    if !wheres.isEmpty {
      out.append(QueryLayout.newlineOrSpace + "WHERE ")
      out.append(Select.conjunction(wheres))
    }
    appendReturning(returning, to: &out)
    return out
  }
}

private func appendReturning(_ returning: [Expression], to out: inout QueryFragment) {
  guard !returning.isEmpty else { return }
  out.append(QueryLayout.newlineOrSpace + "RETURNING ")
  out.append(returning.map(\.fragment).joined(separator: ", "))
}
