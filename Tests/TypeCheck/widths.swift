// A model with columns of fixed-width integer types (Int64, Int32): through the library's
// `some QueryExpression<Int64>` an integer literal is an Int, so only Int64(…) values fit.
import Foundation
@Table
struct Counter: Identifiable {
  let id: Int
  var big: Int64
  var optBig: Int64?
  var small: Int32
}

