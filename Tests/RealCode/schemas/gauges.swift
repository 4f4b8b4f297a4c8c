// Columns of `Float`, `UInt8`, `Int16` beside `Double` and `Int` (also the models of
// Tests/TypeCheck/width-verdicts.jsonl): a float literal is a Double and an integer literal an
// Int (or a Double) through `some QueryExpression<…>`, so a Float column takes `Float(0.5)` or
// `#bind(0.5)`, bound as the Double the Float converts to.
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
