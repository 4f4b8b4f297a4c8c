import Foundation
import SQLiteData

@Table
struct RemindersList: Identifiable {
  let id: Int
  var title = ""
}

@Table
struct Reminder: Identifiable {
  let id: Int
  var title = ""
  var isCompleted = false
  var priority: Int?
  var remindersListID: RemindersList.ID
}

@Table
struct Tag: Identifiable {
  let id: Int
  var title = ""
}

@Table("remindersTags")
struct ReminderTag {
  let reminderID: Reminder.ID
  let tagID: Tag.ID
}

extension Reminder {
  static let incomplete = Self.where { !$0.isCompleted }

  static func inList(_ id: RemindersList.ID) -> Where<Reminder> {
    Self.where { $0.remindersListID.eq(id) }
  }
}
