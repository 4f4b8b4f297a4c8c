/// `CREATE TEMPORARY VIEW`.
///
/// ```swift
/// CreateView(name: "completedReminders", columns: ["reminderID", "title"], statement: .select(s))
/// // CREATE TEMPORARY VIEW
/// // "completedReminders"
/// // ("reminderID", "title")
/// // AS
/// // SELECT …
/// ```
public struct CreateView: Sendable, Hashable {
  public var name: String
  public var columns: [String]
  public var statement: Statement
  public var ifNotExists: Bool
  public init(name: String, columns: [String], statement: Statement, ifNotExists: Bool = false) {
    self.name = name
    self.columns = columns
    self.statement = statement
    self.ifNotExists = ifNotExists
  }
  public var fragment: QueryFragment {
    var out: QueryFragment = "CREATE TEMPORARY VIEW"
    if ifNotExists { out.append(" IF NOT EXISTS") }
    out.append("\n" + quoteIdentifier(name) + "\n")
    if !columns.isEmpty { out.append("(" + columns.map(quoteIdentifier).joined(separator: ", ") + ")\n") }
    out.append("AS\n")
    out.append(statement.fragment)
    return out
  }
}

/// `CREATE TEMPORARY TRIGGER`: timing, event, table, optional condition, and body statements.
///
/// ```swift
/// // CREATE TEMPORARY TRIGGER
/// //   "after_insert_on_reminders@quarry:1:10"
/// // AFTER INSERT ON "reminders"
/// // FOR EACH ROW BEGIN
/// //   UPDATE …;
/// // END
/// ```
public struct CreateTrigger: Sendable, Hashable {
  public enum Timing: String, Sendable, Hashable {
    case before = "BEFORE"
    case after = "AFTER"
    case insteadOf = "INSTEAD OF"
  }
  public enum Event: Sendable, Hashable {
    case insert
    case update(of: [String])
    case delete
    public var keyword: String {
      switch self {
      case .insert: return "INSERT"
      case .update: return "UPDATE"
      case .delete: return "DELETE"
      }
    }
  }
  public var name: String
  public var timing: Timing
  public var event: Event
  public var table: String
  public var condition: Expression?
  public var body: [Statement]
  public var ifNotExists: Bool

  public init(
    name: String, timing: Timing, event: Event, table: String, condition: Expression?, body: [Statement],
    ifNotExists: Bool = false
  ) {
    self.name = name
    self.timing = timing
    self.event = event
    self.table = table
    self.condition = condition
    self.body = body
    self.ifNotExists = ifNotExists
  }

  public var fragment: QueryFragment {
    var out: QueryFragment = "CREATE TEMPORARY TRIGGER"
    if ifNotExists { out.append(" IF NOT EXISTS") }
    out.append("\n  " + quoteIdentifier(name) + "\n" + timing.rawValue + " " + event.keyword)
    if case .update(let columns) = event, !columns.isEmpty {
      out.append(" OF " + columns.map(quoteIdentifier).joined(separator: ", "))
    }
    out.append(" ON " + quoteIdentifier(table) + "\nFOR EACH ROW")
    if let condition {
      out.append(" WHEN ")
      out.append(condition.fragment)
    }
    out.append(" BEGIN")
    for statement in body {
      out.append("\n  ")
      out.append(statement.fragment.indented())
      out.append(";")
    }
    out.append("\nEND")
    return out
  }
}

/// `DROP VIEW "name"` / `DROP TRIGGER "name"`.
public struct DropObject: Sendable, Hashable {
  public enum Kind: String, Sendable, Hashable {
    case view = "VIEW"
    case trigger = "TRIGGER"
  }
  public var kind: Kind
  public var name: String
  public var ifExists: Bool
  public init(_ kind: Kind, name: String, ifExists: Bool = false) {
    self.kind = kind
    self.name = name
    self.ifExists = ifExists
  }
  public var fragment: QueryFragment {
    QueryFragment("DROP " + kind.rawValue + (ifExists ? " IF EXISTS " : " ") + quoteIdentifier(name))
  }
}
