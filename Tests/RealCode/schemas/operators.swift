// The model the generated operator cases of Tests/RealCode/generated-operators.jsonl were rendered with.
import Foundation
import StructuredQueries
@Table("ops") struct O { let id: Int; var i: Int; var n: Int64; var r: Double }
