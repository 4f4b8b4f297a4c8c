import CSQLite
import Dispatch
import FoundationEssentials
import Synchronization

/// A bound on the work statements may do on one connection: a time limit, and a process-wide
/// stop (`WorkLimit.stopAll()`, which Ctrl-C calls) that reaches connections no prompt knows
/// about — the private databases an answer is checked on.
///
/// ```swift
/// let limit = database.limitWork(seconds: 5)
/// _ = try? database.rows("WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) SELECT count(*) FROM n")
/// limit.reason  // .timeLimit: the statement threw SQLITE_INTERRUPT after 5 s
/// ```
public final class WorkLimit: @unchecked Sendable {
  public enum Reason: Sendable, Equatable {
    /// The statement ran longer than the limit.
    case timeLimit
    /// `WorkLimit.stopAll()` was called (Ctrl-C) while it ran.
    case stopped
  }

  private static let generation = Atomic<Int>(0)

  /// Stops every statement running under a limit made before this call. Safe from a signal
  /// handler: it is one lock-free atomic increment.
  public static func stopAll() { generation.add(1, ordering: .relaxed) }

  /// Whether `stopAll()` was called since it was made: work that runs no statement long enough
  /// to be interrupted (an import of many short inserts) asks it between steps.
  /// A limit made with one (`limitWork(seconds:stoppedBy:)`) counts a Ctrl-C from when the
  /// request was made, so a stop pressed before the statement began still stops it.
  public struct StopRequest: Sendable {
    fileprivate let startGeneration = WorkLimit.generation.load(ordering: .relaxed)
    public init() {}
    public var isRequested: Bool { WorkLimit.generation.load(ordering: .relaxed) != startGeneration }
  }

  public let seconds: Double
  private let deadline: UInt64
  private let startGeneration: Int
  /// Why the last statement was stopped, if it was.
  public private(set) var reason: Reason?

  init(seconds: Double, stoppedBy request: StopRequest? = nil) {
    self.seconds = seconds
    let nanoseconds = seconds.isFinite && seconds > 0 ? min(seconds, 1e6) * 1e9 : 0
    deadline = DispatchTime.now().uptimeNanoseconds &+ UInt64(nanoseconds)
    startGeneration = request?.startGeneration ?? Self.generation.load(ordering: .relaxed)
  }

  /// Whether the running statement must stop (SQLite's progress handler asks every few
  /// thousand virtual-machine steps).
  func shouldStop() -> Bool {
    if Self.generation.load(ordering: .relaxed) != startGeneration {
      reason = .stopped
      return true
    }
    if DispatchTime.now().uptimeNanoseconds > deadline {
      reason = .timeLimit
      return true
    }
    return false
  }
}

extension Database {
  /// Limits statements on this connection, from now on, to `seconds` in all, and lets
  /// `WorkLimit.stopAll()` stop them — any call since `request` was made, when one is given (a
  /// Ctrl-C while a lesson check was still preparing its databases); replaces any earlier limit.
  @discardableResult
  public func limitWork(seconds: Double, stoppedBy request: WorkLimit.StopRequest? = nil) -> WorkLimit {
    let limit = WorkLimit(seconds: seconds, stoppedBy: request)
    workLimit = limit
    sqlite3_progress_handler(
      handle, 4_000,
      { context in
        guard let context else { return 0 }
        return Unmanaged<WorkLimit>.fromOpaque(context).takeUnretainedValue().shouldStop() ? 1 : 0
      },
      Unmanaged.passUnretained(limit).toOpaque())
    return limit
  }

  /// Lifts the limit `limitWork(seconds:)` set.
  public func removeWorkLimit() {
    sqlite3_progress_handler(handle, 0, nil, nil)
    workLimit = nil
  }
}
