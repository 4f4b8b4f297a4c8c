// The models the record-field, prefix and negation cases of Tests/RealCode/swift-values.jsonl were
// rendered with.
import Foundation
import StructuredQueries

@Table("probes") struct Probe {
  let id: Int
  var v: Int
}
@Table("tprobes") struct TProbe {
  let id: Int
  var t: String
}
@Table("oprobes") struct OProbe {
  let id: Int
  var o: Int?
}
@Table("dateprobes") struct DateProbe {
  let id: Int
  var at: Date
}
@Table("dprobes") struct DProbe {
  let id: Int
  var v: Double
}
