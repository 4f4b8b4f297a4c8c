@Selection struct ReminderRow {
  let title: String
  let isFlagged: Bool
  let dueDate: Date?
  let count: Int
}
