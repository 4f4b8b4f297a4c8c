import Synchronization

/// One budget of work for evaluating Swift: steps (each node evaluated, and one per 64 bytes a
/// value grows by) and the size of any one value. Ctrl-C stops it at once
/// (`SwiftEvaluation.stopAll()`, safe from a signal handler).
///
/// ```swift
/// var s = "ab"; for _ in 0..<64 { s += s }
/// // 1:35: error: … builds a value of over 16 MB (the evaluation budget); the app would use gigabytes here
/// ```
final class EvaluationBudget {
  /// Steps an input (or one call of a `@DatabaseFunction`) may take.
  static let defaultSteps = 1_000_000
  /// The largest string or collection one value may hold, in bytes.
  static let maximumValueSize = 16 << 20

  let maximumSteps: Int
  private(set) var steps = 0
  private let startGeneration: Int

  init(steps: Int = EvaluationBudget.defaultSteps) {
    maximumSteps = steps
    startGeneration = SwiftEvaluation.generation.load(ordering: .relaxed)
  }

  enum Exhausted: Error {
    case steps(Int)
    case size(Int)
    case stopped
  }

  /// Counts `cost` steps; throws when the budget is spent or Ctrl-C was pressed.
  func charge(_ cost: Int = 1) throws(Exhausted) {
    steps &+= max(1, cost)
    if steps > maximumSteps { throw .steps(maximumSteps) }
    if steps & 1023 == 0, SwiftEvaluation.generation.load(ordering: .relaxed) != startGeneration { throw .stopped }
  }

  /// Counts a value of `size` bytes being made; throws when it is too large.
  func allocate(_ size: Int) throws(Exhausted) {
    if size > Self.maximumValueSize { throw .size(Self.maximumValueSize) }
    try charge(1 + size / 64)
  }

  /// Counts a collection of `count` elements being made (16 bytes an element), however large
  /// the count (a range up to `Int.max` is refused, never multiplied past Int).
  func allocate(elements count: Int) throws(Exhausted) {
    let (size, overflow) = count.multipliedReportingOverflow(by: 16)
    try allocate(overflow || count < 0 ? .max : size)
  }
}

/// Process-wide control of Swift evaluation.
public enum SwiftEvaluation {
  static let generation = Atomic<Int>(0)

  /// Stops every evaluation running now (Ctrl-C). One lock-free atomic increment.
  public static func stopAll() { generation.add(1, ordering: .relaxed) }
}
