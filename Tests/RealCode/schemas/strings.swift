// The model the generated String, Bool and optional cases of Tests/RealCode/generated-operators.jsonl were rendered with.
import Foundation
import StructuredQueries
@Table("ss") struct S { let id: Int; var title: String; var n: Int; var done: Bool }
