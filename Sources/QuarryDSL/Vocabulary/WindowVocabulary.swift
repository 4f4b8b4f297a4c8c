/// Window functions: Quarry's own spelling, in StructuredQueries' style, for what the library
/// does not have. Ranking functions are free functions (`rank()`), value functions are methods
/// of the value (`$0.salary.lag()`), and every one — aggregates too — takes its window with
/// `.over(…)`.
///
/// ```swift
/// Employee.select { e in (e.name, rank().over { $0.partition(by: e.departmentID).order(by: e.salary.desc()) }) }
/// // SELECT "employees"."name", rank() OVER (PARTITION BY "employees"."departmentID" ORDER BY "employees"."salary" DESC)
/// // FROM "employees"
/// ```
extension Vocabulary {
  /// Methods of an expression that make or use a window.
  static let windowExpressionEntries: [MethodSignature] = [
    M(
      "over(partitionBy: Values? = nil, orderBy: Orderings? = nil) -> Self",
      "As a window function (OVER): an aggregate or ranking over the rows of the partition, in its order (beyond StructuredQueries)",
      example: "Reminder.select { ($0.title, $0.id.count().over(partitionBy: $0.remindersListID)) }",
      handler: .expression("over") { $0.compiler.windowMethods.over }),
    M(
      "over(_ window: (Window) -> Window) -> Self",
      "As a window function, the window built in the closure: $0.partition(by:), .order(by:), .rows(…) (beyond StructuredQueries)",
      example: "Reminder.select { r in (r.title, r.id.sum().over { $0.order(by: r.id).rows(.preceding(1), .currentRow) }) }",
      handler: .expression("over") { $0.compiler.windowMethods.over }),
    M(
      "lag(offset: Int = 1, default: Self? = nil) -> Self?", "The value offset rows before in the window (lag); needs .over",
      example: "Reminder.select { ($0.title, $0.title.lag().over(orderBy: $0.id)) }",
      handler: .expression("lag") { $0.compiler.windowMethods.lagOrLead }),
    M(
      "lead(offset: Int = 1, default: Self? = nil) -> Self?", "The value offset rows after in the window (lead); needs .over",
      example: "Reminder.select { ($0.title, $0.title.lead().over(orderBy: $0.id)) }",
      handler: .expression("lead") { $0.compiler.windowMethods.lagOrLead }),
    M(
      "firstValue() -> Self", "The value on the window frame's first row (first_value); needs .over",
      example: "Reminder.select { ($0.title, $0.title.firstValue().over(partitionBy: $0.remindersListID, orderBy: $0.id)) }",
      handler: .expression("firstValue") { $0.compiler.windowMethods.frameEndValue }),
    M(
      "lastValue() -> Self", "The value on the window frame's last row (last_value); needs .over",
      example: "Reminder.select { ($0.title, $0.title.lastValue().over(orderBy: $0.id)) }",
      handler: .expression("lastValue") { $0.compiler.windowMethods.frameEndValue }),
    M(
      "nthValue(_ n: Int) -> Self?", "The value on the frame's nth row (nth_value); needs .over",
      example: "Reminder.select { ($0.title, $0.title.nthValue(2).over(orderBy: $0.id)) }",
      handler: .expression("nthValue") { $0.compiler.windowMethods.nthValue }),
  ]

  /// Ranking functions, written as free functions.
  static let windowFunctionEntries: [MethodSignature] = [
    M(
      "rowNumber() -> Int", "The row's number in its partition, from 1 (row_number); needs .over",
      example: "Reminder.select { ($0.title, rowNumber().over(orderBy: $0.title)) }",
      handler: .function("rowNumber") { $0.compiler.windowMethods.rankingFunction }),
    M(
      "rank() -> Int", "The row's rank, with gaps after ties (rank); needs .over",
      example: "Reminder.select { ($0.title, rank().over(orderBy: $0.priority.desc())) }",
      handler: .function("rank") { $0.compiler.windowMethods.rankingFunction }),
    M(
      "denseRank() -> Int", "The row's rank, without gaps after ties (dense_rank); needs .over",
      example: "Reminder.select { ($0.title, denseRank().over(orderBy: $0.priority.desc())) }",
      handler: .function("denseRank") { $0.compiler.windowMethods.rankingFunction }),
    M(
      "percentRank() -> Double", "(rank - 1) / (rows in the partition - 1) (percent_rank); needs .over",
      example: "Reminder.select { ($0.title, percentRank().over(orderBy: $0.priority)) }",
      handler: .function("percentRank") { $0.compiler.windowMethods.rankingFunction }),
    M(
      "cumeDist() -> Double", "The fraction of the partition's rows up to this one's peers (cume_dist); needs .over",
      example: "Reminder.select { ($0.title, cumeDist().over(orderBy: $0.priority)) }",
      handler: .function("cumeDist") { $0.compiler.windowMethods.rankingFunction }),
    M(
      "ntile(_ buckets: Int) -> Int", "Which of buckets near-equal groups the row falls in (ntile); needs .over",
      example: "Reminder.select { ($0.title, ntile(2).over(orderBy: $0.id)) }",
      handler: .function("ntile") { $0.compiler.windowMethods.rankingFunction }),
  ]

  /// `$0` inside `.over { … }`: each entry owns what it does.
  static let windowEntries: [MethodSignature] = [
    M(
      "partition(by: Value...) -> Window", "Rows with equal values form one partition (PARTITION BY)",
      example: "Reminder.select { r in (r.title, r.id.count().over { $0.partition(by: r.remindersListID) }) }",
      handler: .window("partition", { $0.partitionWindow })),
    M(
      "order(by: Orderings) -> Window", "The order of rows within each partition (ORDER BY)",
      example: "Reminder.select { r in (r.title, rowNumber().over { $0.order(by: r.title.desc()) }) }",
      handler: .window("order", { $0.orderWindow })),
    M(
      "rows(_ start: FrameBound, _ end: FrameBound = .currentRow) -> Window",
      "The frame: which rows around the current one an aggregate sees, counted in rows (ROWS BETWEEN)",
      example: "Reminder.select { r in (r.title, r.id.sum().over { $0.order(by: r.id).rows(.unboundedPreceding) }) }",
      handler: .window("rows") { methods in { try methods.frameWindow(.rows, $0, $1, $2) } }),
    M(
      "range(_ start: FrameBound, _ end: FrameBound = .currentRow) -> Window",
      "The frame counted by the ORDER BY value, peers together (RANGE BETWEEN)",
      example: "Reminder.select { r in (r.title, r.id.sum().over { $0.order(by: r.id).range(.unboundedPreceding, .unboundedFollowing) }) }",
      handler: .window("range") { methods in { try methods.frameWindow(.range, $0, $1, $2) } }),
    M(
      "groups(_ start: FrameBound, _ end: FrameBound = .currentRow) -> Window",
      "The frame counted in groups of peers (GROUPS BETWEEN)",
      example: "Reminder.select { r in (r.title, r.id.sum().over { $0.order(by: r.priority).groups(.preceding(1)) }) }",
      handler: .window("groups") { methods in { try methods.frameWindow(.groups, $0, $1, $2) } }),
  ]
}
