// The model the generated cases of Tests/RealCode/generated-values.jsonl were rendered with.
import Foundation
import StructuredQueries
@Table("gens") struct G { let id: Int; var i: Int; var d: Double; var s: String; var b: Bool; var oi: Int?; var od: Double?; var os: String?; var ob: Bool? }
