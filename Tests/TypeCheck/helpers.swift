extension Reminder {
  static func atLeast(_ p: Priority?) -> Where<Reminder> {
    Self.where { $0.priority.gte(p) }
  }
  static func dueBy(_ d: Date?) -> Where<Reminder> {
    Self.where { $0.dueDate.lt(d) }
  }
  static func titled(_ t: String) -> Where<Reminder> {
    Self.where { $0.title.eq(t) }
  }
  static func inList(_ id: Int) -> Where<Reminder> {
    Self.where { $0.remindersListID.eq(id) }
  }
  static func assigned(to id: Int?) -> Where<Reminder> {
    Self.where { $0.assignedUserID.is(id) }
  }
}
func doubled(_ x: Int) -> Int { x * 2 }
func shouted(_ s: String) -> String { s.uppercased() }
func twice(_ x: some QueryExpression<Int>) -> some QueryExpression<Int> { x * 2 }
