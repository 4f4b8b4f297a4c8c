// The models the Double and Int64 cases of Tests/RealCode/swift-values.jsonl were rendered with.
import Foundation
import StructuredQueries

@Table("dprobes") struct DProbe {
  let id: Int
  var r: Double
}
@Table("i64probes") struct I64Probe {
  let id: Int
  var n: Int64
}
