// Models typed only by their defaults, each declared before the types it uses
// (Tests/RealCode/swift-values.jsonl, schema "inferred").
import StructuredQueries

@Table struct Job {
  let id: Int
  var title = ""
  var status = Status.todo
  var progress = Progress()
  var score = -1
  var ratio = 0.5
}
@Table struct Task {
  let id: Int
  var level = Kinds.Level.high
}
enum Status: Int, QueryBindable { case todo, done }
@Selection struct Progress { var done = 0; var total = 10 }
enum Kinds { enum Level: String, QueryBindable { case low, high } }
