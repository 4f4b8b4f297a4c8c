// The model the Swift-values cases (Tests/RealCode/swift-values.jsonl) were rendered with.
import Foundation
import StructuredQueries

@Table struct Reminder {
  let id: Int
  var title = ""
  var dueDate: Date?
  var priority: Int?
}
