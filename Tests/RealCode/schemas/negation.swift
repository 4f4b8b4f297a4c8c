// The models the negation cases of Tests/RealCode/swift-values.jsonl were rendered with.
import Foundation
import StructuredQueries

@Table("probes") struct Probe {
  let id: Int
  var v: Int
}
@Table("dprobes") struct DProbe {
  let id: Int
  var v: Double
}
