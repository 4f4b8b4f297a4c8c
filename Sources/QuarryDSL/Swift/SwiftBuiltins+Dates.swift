/// Foundation's `Date`: made from an interval, moved by seconds, compared; bound as its column
/// stores it. The clock (`Date()`, `Date.now`) is read when the input runs, as the app reads it.
///
/// ```swift
/// let weekAgo = Date(timeIntervalSince1970: 1_767_225_600) - 604800
/// #sql("\($0.completedAt) < \(weekAgo)")   // … < '2025-12-25 00:00:00.000' (bound)
/// ```
extension SwiftBuiltins {
  static let dates: [SwiftBuiltin] = [
    SwiftBuiltin("", "Date(timeIntervalSince1970 interval: Double) -> Date", example: "Date(timeIntervalSince1970: 86400)") { call in
      .date(try call.double(0))
    },
    SwiftBuiltin("", "Date(timeIntervalSinceReferenceDate interval: Double) -> Date", example: "Date(timeIntervalSinceReferenceDate: 0)") { call in
      .date(try call.double(0) + 978_307_200)
    },
    SwiftBuiltin("Date", "timeIntervalSince1970: Double", example: "Date(timeIntervalSince1970: 90).timeIntervalSince1970") { call in
      guard case .date(let seconds) = call.base else { return .none }
      return .double(seconds)
    },
    SwiftBuiltin("Date", "timeIntervalSinceReferenceDate: Double", example: "Date(timeIntervalSince1970: 978307200).timeIntervalSinceReferenceDate") { call in
      guard case .date(let seconds) = call.base else { return .none }
      return .double(seconds - 978_307_200)
    },
    SwiftBuiltin("Date", "addingTimeInterval(_ interval: Double) -> Date", example: "Date(timeIntervalSince1970: 0).addingTimeInterval(-3600)") { call in
      guard case .date(let seconds) = call.base else { return .none }
      return .date(seconds + (try call.double(0)))
    },
    SwiftBuiltin("Date", "timeIntervalSince(_ date: Date) -> Double", example: "Date(timeIntervalSince1970: 100).timeIntervalSince(Date(timeIntervalSince1970: 40))") { call in
      guard case .date(let seconds) = call.base, case .date(let other) = try call.value(0) else {
        throw call.evaluator.failure("'timeIntervalSince' needs a Date", at: call.node)
      }
      return .double(seconds - other)
    },
    SwiftBuiltin("Date", "distantPast: Date", isStatic: true, example: "Date.distantPast.timeIntervalSince1970") { _ in .date(-62_135_769_600) },
    SwiftBuiltin("Date", "distantFuture: Date", isStatic: true, example: "Date.distantFuture.timeIntervalSince1970") { _ in .date(64_092_211_200) },
  ]
}
