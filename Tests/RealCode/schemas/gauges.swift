@Table
struct Gauge: Identifiable {
  let id: Int
  var f: Float = 0
  var i32: Int32 = 0
  var i64: Int64 = 0
  var u8: UInt8 = 0
  var i16: Int16 = 0
  var d: Double = 0
  var i: Int = 0
}
