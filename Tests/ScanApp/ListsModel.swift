import SQLiteData
import SwiftUI

@Observable
final class ListsModel {
  @ObservationIgnored @FetchAll(RemindersList.order(by: \.title)) var lists
  @ObservationIgnored @FetchAll var tags: [Tag]
  @ObservationIgnored @Dependency(\.defaultDatabase) var database

  func reminders(in list: RemindersList) throws -> [Reminder] {
    try database.read { db in
      try Reminder.inList(list.id).order(by: \.title).fetchAll(db)
    }
  }

  func tagCounts() throws -> [Int] {
    try database.read { db in
      var counts: [Int] = []
      for tag in try Tag.fetchAll(db) {
        counts.append(try ReminderTag.where { $0.tagID.eq(tag.id) }.fetchCount(db))
      }
      return counts
    }
  }

  func search(_ text: String, sortedBy column: String) throws -> [Reminder] {
    try database.read { db in
      try #sql("SELECT * FROM reminders WHERE title LIKE \(text) ORDER BY \(raw: column)", as: Reminder.self)
        .fetchAll(db)
    }
  }

  func complete(priority: Int) throws {
    try database.write { db in
      // quarry:ignore full-scan
      try Reminder.where { $0.priority.eq(priority) }.update { $0.isCompleted = true }.execute(db)
    }
  }

  func pending(showAll: Bool) -> some Statement<Reminder> {
    Reminder.where {
      if !showAll {
        !$0.isCompleted
      }
    }
  }

  enum Sort { case title, priority }

  func sorted(by sort: Sort) -> some Statement<Reminder> {
    Reminder.order {
      switch sort {
      case .title: $0.title
      case .priority: $0.priority.desc()
      }
    }
  }

  func purgeCompleted() throws {
    try database.write { db in
      try db.execute(sql: "DELETE FROM reminders WHERE isCompleted = 1")
    }
  }
}
