enum Priority: Int, QueryBindable { case low = 1, medium, high }
enum Status: String, QueryBindable { case todo, done }
@Table struct Item {
  let id: Int
  var int: Int
  var optInt: Int?
  var double: Double
  var optDouble: Double?
  var text: String
  var optText: String?
  var flag: Bool
  var optFlag: Bool?
  var date: Date
  var optDate: Date?
  var uuid: UUID
  var optUUID: UUID?
  var priority: Priority
  var optPriority: Priority?
  var status: Status
  var bytes: [UInt8]
}
let intValue = 5
let optIntValue: Int? = 5
let doubleValue = 2.5
let textValue = "a"
let dateValue = Date(timeIntervalSince1970: 0)
let uuidValue = UUID()
