import QuarryEngine

/// The rows a capped result shows: the first half of `limit` as they arrive and the last half in
/// a ring, while counting them all — so a result of any size takes memory for `limit` rows only.
///
/// ```swift
/// var window = ResultWindow(limit: 4)
/// for n in 1...10 { window.add(.integer(n)) }  // (one value a row here)
/// window.head   // rows 1, 2
/// window.tail   // rows 9, 10
/// window.count  // 10; window.omitted == 6
/// ```
struct ResultWindow {
  /// How many rows to keep; nil keeps them all.
  let limit: Int?
  private(set) var head: [[DatabaseValue]] = []
  private var ring: [[DatabaseValue]] = []
  private var ringStart = 0
  private(set) var count = 0

  init(limit: Int?) {
    self.limit = limit.map { max(2, $0) }
  }

  private var headCapacity: Int { limit.map { ($0 + 1) / 2 } ?? .max }
  private var tailCapacity: Int { limit.map { $0 - ($0 + 1) / 2 } ?? 0 }

  mutating func add(_ row: [DatabaseValue]) {
    count += 1
    if head.count < headCapacity {
      head.append(row)
    } else if ring.count < tailCapacity {
      ring.append(row)
    } else if tailCapacity > 0 {
      ring[ringStart] = row
      ringStart = (ringStart + 1) % tailCapacity
    }
  }

  /// The last rows kept, in order.
  var tail: [[DatabaseValue]] { Array(ring[ringStart...] + ring[..<ringStart]) }

  /// Rows neither in the head nor the tail.
  var omitted: Int { count - head.count - ring.count }
}
