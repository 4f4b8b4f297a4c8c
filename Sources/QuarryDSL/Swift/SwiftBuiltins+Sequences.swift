import SwiftSyntax

/// Members every sequence has (Array, String's characters, ranges, Set), and Array's,
/// Dictionary's, Set's and Optional's own.
extension SwiftBuiltins {
  static let sequences: [SwiftBuiltin] = [
    SwiftBuiltin(
      "Sequence", "reduce<Result>(into initialResult: Result, _ updateAccumulatingResult: (inout Result, Element) -> ()) -> Result",
      example: "[3, 1, 3].reduce(into: [Int: Int]()) { $0[$1, default: 0] += 1 }[3]"
    ) { call in
      var result = try call.value(0)
      guard let closure = call.arguments.dropFirst().first?.as(ClosureExprSyntax.self) else {
        throw call.evaluator.unsupported(call.node, "reduce(into:) given no closure")
      }
      for element in try call.elements() { result = try call.evaluator.applyUpdating(closure, result, element) }
      return result
    },
    SwiftBuiltin(
      "Sequence", "max(by areInIncreasingOrder: (Element, Element) -> Bool) -> Element?", needsOrder: false,
      example: "[3, 9, 4, 6].max { $0 % 3 < $1 % 3 }"
    ) { call in try extreme(call, by: call.function(0), largest: true) },
    SwiftBuiltin(
      "Sequence", "min(by areInIncreasingOrder: (Element, Element) -> Bool) -> Element?", needsOrder: false,
      example: #"["bb", "a", "cc", "d"].min { $0.count < $1.count }"#
    ) { call in try extreme(call, by: call.function(0), largest: false) },
    SwiftBuiltin("Sequence", "elementsEqual(_ other: some Sequence) -> Bool", example: "[1, 2].elementsEqual(1...2)") { call in
      var call = call
      let other = try call.value(0)
      switch other {
      case .unordered, .dictionary:
        throw call.evaluator.failure("compares with a \(other.typeName), whose order Swift does not fix", at: call.node)
      default: break
      }
      let theirs = try call.elements(of: other)
      let mine = try call.elements()
      guard mine.count == theirs.count else { return .bool(false) }
      for (a, b) in zip(mine, theirs) where !(try call.evaluator.equal(a, b, at: call.node)) { return .bool(false) }
      return .bool(true)
    },
    SwiftBuiltin("Sequence", "prefix(while predicate: (Element) -> Bool) -> ArraySlice<Element>", example: "[1, 2, 5, 1].prefix { $0 < 3 }")
    {
      call in
      let keep = try call.predicate(0)
      var kept: [SwiftValue] = []
      for element in try call.elements() {
        guard try keep(element) else { break }
        kept.append(element)
      }
      if case .string = call.base { return .string(kept.map { if case .string(let c) = $0 { c } else { "" } }.joined()) }
      return .slice(kept, start: sliceStart(call.base))
    },
    SwiftBuiltin("Sequence", "drop(while predicate: (Element) -> Bool) -> ArraySlice<Element>", example: "[1, 2, 5, 1].drop { $0 < 3 }") {
      call in
      let skip = try call.predicate(0)
      let elements = try call.elements()
      var dropped = 0
      while dropped < elements.count, try skip(elements[dropped]) { dropped += 1 }
      let kept = Array(elements[dropped...])
      if case .string = call.base { return .string(kept.map { if case .string(let c) = $0 { c } else { "" } }.joined()) }
      return .slice(kept, start: sliceStart(call.base) + dropped)
    },
    SwiftBuiltin("Sequence", "count: Int", needsOrder: false, example: "(1...10).count") { .int(Int64(try $0.elements().count)) },
    SwiftBuiltin("Sequence", "description: String", example: #"[3, 1].description + ["a"].description"#) { call in
      do throws(SwiftValueProblem) {
        return .string(try call.base.describe())
      } catch {
        throw call.evaluator.failure(error.message, at: call.node)
      }
    },
    SwiftBuiltin("Sequence", "isEmpty: Bool", needsOrder: false, example: "[Int]().isEmpty") { .bool(try $0.elements().isEmpty) },
    SwiftBuiltin("Sequence", "first: Element?", example: "[3, 1, 2].first") { try $0.elements().first.map { .some($0) } ?? .none },
    SwiftBuiltin("Sequence", "last: Element?", example: "[3, 1, 2].last") { try $0.elements().last.map { .some($0) } ?? .none },
    SwiftBuiltin("Sequence", "map<T>(_ transform: (Element) -> T) -> [T]", example: "[1, 2, 3].map { $0 * 2 }") { call in
      let transform = try call.function(0)
      let mapped = try call.elements().map { try transform([$0]) }
      return isUnorderedBase(call) ? .unordered(mapped) : .array(mapped)
    },
    SwiftBuiltin("Sequence", "compactMap<T>(_ transform: (Element) -> T?) -> [T]", example: #"["1", "x", "3"].compactMap { Int($0) }"#) {
      call in
      let transform = try call.function(0)
      let mapped = try call.elements().compactMap { SwiftEvaluator.unwrapOnce(try transform([$0])) }
      return isUnorderedBase(call) ? .unordered(mapped) : .array(mapped)
    },
    SwiftBuiltin("Sequence", "flatMap<T>(_ transform: (Element) -> [T]) -> [T]", example: "[1, 2].flatMap { [$0, $0 * 10] }") { call in
      let transform = try call.function(0)
      var out: [SwiftValue] = []
      for element in try call.elements() {
        let part = try transform([element])
        guard let items = part.orderedElements(limit: 1_000_000) else {
          throw call.evaluator.failure("'flatMap' needs a closure returning an array", at: call.node)
        }
        out += items
        try call.evaluator.budget.allocate(elements: out.count)
      }
      return .array(out)
    },
    SwiftBuiltin(
      "Sequence", "filter(_ isIncluded: (Element) -> Bool) -> [Element]", needsOrder: false, example: "(1...10).filter { $0 % 3 == 0 }"
    ) { call in
      let keep = try call.predicate(0)
      let kept = try call.elements().filter(keep)
      return isUnorderedBase(call) ? .unordered(kept) : .array(kept)
    },
    SwiftBuiltin(
      "Sequence", "reduce<Result>(_ initialResult: Result, _ nextPartialResult: (Result, Element) -> Result) -> Result",
      example: "[1, 2, 3, 4].reduce(0, +)"
    ) { call in
      if call.expected == nil, let initial = call.arguments.first, SwiftEvaluator.isLiteralOnly(initial) {
        // `[Double]().reduce(0, +)` is 0.0: the literal takes the element's type, as `+` needs.
        if let element = call.evaluator.staticElementType(ofReceiverOf: call.node), element.isNumeric {
          call.expected = element
        } else if try call.elements().isEmpty, !call.evaluator.receiverIsArrayLiteral(call.node) {
          // (`[].reduce(0, +)` is an Int's: an empty literal's elements default to Int.)
          throw call.evaluator.unsupported(
            call.node, "a reduce of no elements whose type the code does not state here, so neither is its result's")
        }
      }
      var result = try call.value(0)
      let combine = try call.function(1)
      for element in try call.elements() { result = try combine([result, element]) }
      return result
    },
    SwiftBuiltin("Sequence", "contains(_ element: Element) -> Bool", needsOrder: false, example: "[1, 2, 3].contains(2)") { call in
      let needle = try call.value(0)
      for element in try call.elements() where try call.evaluator.equal(element, needle, at: call.node) { return .bool(true) }
      return .bool(false)
    },
    SwiftBuiltin(
      "Sequence", "contains(where predicate: (Element) -> Bool) -> Bool", needsOrder: false, example: "[1, 2, 3].contains { $0 > 2 }"
    ) { call in
      let test = try call.predicate(0)
      return .bool(try call.elements().contains(where: test))
    },
    SwiftBuiltin(
      "Sequence", "allSatisfy(_ predicate: (Element) -> Bool) -> Bool", needsOrder: false, example: "[2, 4].allSatisfy { $0 % 2 == 0 }"
    ) { call in
      let test = try call.predicate(0)
      return .bool(try call.elements().allSatisfy(test))
    },
    SwiftBuiltin("Sequence", "first(where predicate: (Element) -> Bool) -> Element?", example: "[1, 5, 7].first { $0 > 4 }") { call in
      let test = try call.predicate(0)
      return try call.elements().first(where: test).map { .some($0) } ?? .none
    },
    SwiftBuiltin("Sequence", "firstIndex(of element: Element) -> Int?", example: #"["a", "b"].firstIndex(of: "b")"#) { call in
      var call = call
      let needle = try call.value(0)
      return try index(in: call, fromEnd: false) { try call.evaluator.equal($0, needle, at: call.node) }
    },
    SwiftBuiltin("Sequence", "firstIndex(where predicate: (Element) -> Bool) -> Int?", example: "[1, 5, 7].firstIndex { $0 > 4 }") {
      call in
      try index(in: call, fromEnd: false, where: call.predicate(0))
    },
    SwiftBuiltin("Sequence", "lastIndex(of element: Element) -> Int?", example: "[1, 2, 3, 2].lastIndex(of: 2)") { call in
      var call = call
      let needle = try call.value(0)
      return try index(in: call, fromEnd: true) { try call.evaluator.equal($0, needle, at: call.node) }
    },
    SwiftBuiltin(
      "Sequence", "lastIndex(where predicate: (Element) -> Bool) -> Int?", example: "[10, 20, 30].dropFirst().lastIndex { $0 < 25 }"
    ) {
      call in
      try index(in: call, fromEnd: true, where: call.predicate(0))
    },
    SwiftBuiltin(
      "Sequence", "starts(with possiblePrefix: some Sequence) -> Bool", example: "[1, 2, 3].starts(with: [1, 2])"
    ) { call in
      var call = call
      let prefix = try call.value(0)
      guard let wanted = prefix.orderedElements(limit: 0) else {
        throw call.evaluator.failure("'starts(with:)' needs a sequence, not \(prefix.typeName)", at: call.node)
      }
      let elements = try call.elements()
      guard wanted.count <= elements.count else { return .bool(false) }
      for (element, other) in zip(elements, wanted) where !(try call.evaluator.equal(element, other, at: call.node)) {
        return .bool(false)
      }
      return .bool(true)
    },
    SwiftBuiltin("Sequence", "min() -> Element?", needsOrder: false, example: "[3, 1, 2].min()") { call in try extreme(call, largest: false)
    },
    SwiftBuiltin("Sequence", "max() -> Element?", needsOrder: false, example: #"["b", "c", "a"].max()"#) { call in
      try extreme(call, largest: true)
    },
    SwiftBuiltin("Sequence", "sorted() -> [Element]", needsOrder: false, example: "[3, 1, 2].sorted()") { call in
      .array(try sort(call.elements(), call) { try call.evaluator.ordering($0, $1, at: call.node) ?? 0 < 0 })
    },
    SwiftBuiltin(
      "Sequence", "sorted(by areInIncreasingOrder: (Element, Element) -> Bool) -> [Element]", needsOrder: false,
      example: "[3, 1, 2].sorted(by: >)"
    ) { call in
      let before = try call.function(0)
      return .array(try sort(call.elements(), call) { try call.evaluator.truth(before([$0, $1]), at: call.node) })
    },
    SwiftBuiltin("Sequence", "reversed() -> ReversedCollection<Self>", example: "Array([1, 2, 3].reversed())") { call in
      .lazySequence(type: "ReversedCollection", elements: try call.elements().reversed())
    },
    SwiftBuiltin("Sequence", "enumerated() -> EnumeratedSequence<Self>", example: #"Array(["a", "b"].enumerated()).last"#) { call in
      .lazySequence(
        type: "EnumeratedSequence",
        elements: try call.elements().enumerated().map {
          .tuple([.int(Int64($0.offset)), $0.element], labels: ["offset", "element"])
        })
    },
    SwiftBuiltin("Sequence", "dropFirst(_ k: Int = 1) -> ArraySlice<Element>", example: "[1, 2, 3].dropFirst()") { call in
      let k = try call.count(0)
      return .slice(Array(try call.elements().dropFirst(k)), start: sliceStart(call.base) + min(k, try call.elements().count))
    },
    SwiftBuiltin("Sequence", "dropLast(_ k: Int = 1) -> ArraySlice<Element>", example: "[1, 2, 3].dropLast(2)") { call in
      .slice(Array(try call.elements().dropLast(call.count(0))), start: sliceStart(call.base))
    },
    SwiftBuiltin("Sequence", "prefix(_ maxLength: Int) -> ArraySlice<Element>", example: "[1, 2, 3].prefix(5)") { call in
      .slice(Array(try call.elements().prefix(call.count(0))), start: sliceStart(call.base))
    },
    SwiftBuiltin("Sequence", "suffix(_ maxLength: Int) -> ArraySlice<Element>", example: "[1, 2, 3, 4].suffix(2)") { call in
      let elements = try call.elements()
      let kept = Array(elements.suffix(try call.count(0)))
      return .slice(kept, start: sliceStart(call.base) + elements.count - kept.count)
    },
    SwiftBuiltin("Sequence", "joined(separator: String = \"\") -> String", example: #"["a", "b"].joined(separator: ", ")"#) { call in
      let separator = call.count > 0 ? try call.string(0) : ""
      var parts: [String] = []
      for element in try call.elements() {
        guard case .string(let text) = element else {
          throw call.evaluator.failure("'joined' needs strings, not \(element.typeName)", at: call.node)
        }
        parts.append(text)
      }
      let size = parts.reduce(separator.utf8.count * max(0, parts.count - 1)) { $0 &+ $1.utf8.count }
      try call.evaluator.budget.allocate(size)
      return .string(parts.joined(separator: separator))
    },
    SwiftBuiltin("Sequence", "split(separator: Element) -> [ArraySlice<Element>]", example: "[1, 0, 2, 3].split(separator: 0)") { call in
      let separator = try call.value(0)
      var parts: [SwiftValue] = []
      var current: [SwiftValue] = []
      var start = sliceStart(call.base)
      for (offset, element) in try call.elements().enumerated() {
        if try call.evaluator.equal(element, separator, at: call.node) {
          if !current.isEmpty { parts.append(.slice(current, start: start)) }
          current = []
          start = sliceStart(call.base) + offset + 1
        } else {
          current.append(element)
        }
      }
      if !current.isEmpty { parts.append(.slice(current, start: start)) }
      return .array(parts)
    },
    SwiftBuiltin("Sequence", "indices: Range<Int>", example: "[5, 6, 7].indices") { call in
      .range(lower: 0, upper: Int64(try call.elements().count), closed: false)
    },
  ]

  /// Where a slice's indices start (0 for an array).
  /// The index of the first (or last) element of an array or a slice that passes `test`; a
  /// slice's indices are its base's (`[10, 20, 30].dropFirst().firstIndex(of: 20)` is 1).
  private static func index(in call: BuiltinCall, fromEnd: Bool, where test: (SwiftValue) throws -> Bool) throws -> SwiftValue {
    let elements: [SwiftValue]
    switch call.base {
    case .array(let values), .slice(let values, _): elements = values
    default: throw call.evaluator.unsupported(call.node, "an index into a \(call.base.typeName)")
    }
    let offsets = fromEnd ? Array(elements.indices.reversed()) : Array(elements.indices)
    for offset in offsets where try test(elements[offset]) { return .some(.int(Int64(sliceStart(call.base) + offset))) }
    return .none
  }

  static func sliceStart(_ value: SwiftValue) -> Int {
    if case .slice(_, let start) = value { return start }
    return 0
  }

  private static func isUnorderedBase(_ call: BuiltinCall) -> Bool { SwiftEvaluator.isUnordered(call.base) }

  /// A stable sort whose comparison may fail (a type mismatch, a NaN): the first failure is
  /// thrown, never a half-sorted result.
  static func sort(_ values: [SwiftValue], _ call: BuiltinCall, by before: (SwiftValue, SwiftValue) throws -> Bool) throws -> [SwiftValue] {
    try call.evaluator.budget.charge(values.count * max(1, Int(Double(values.count).squareRoot())))
    var problem: Error?
    let sorted = values.enumerated().sorted { a, b in
      if problem != nil { return a.offset < b.offset }
      do {
        if try before(a.element, b.element) { return true }
        if try before(b.element, a.element) { return false }
        return a.offset < b.offset
      } catch {
        problem = error
        return a.offset < b.offset
      }
    }
    if let problem { throw problem }
    return sorted.map(\.element)
  }

  /// `max(by:)`, `min(by:)`: the first of the largest (or smallest), as Swift keeps it.
  private static func extreme(
    _ call: BuiltinCall, by areInIncreasingOrder: ([SwiftValue]) throws -> SwiftValue, largest: Bool
  ) throws -> SwiftValue {
    var best: SwiftValue?
    for element in try call.elements() {
      let pair = largest ? [best ?? element, element] : [element, best ?? element]
      if best != nil, !(try call.evaluator.truth(areInIncreasingOrder(pair), at: call.node)) { continue }
      best = element
    }
    return best.map { .some($0) } ?? .none
  }

  private static func extreme(_ call: BuiltinCall, largest: Bool) throws -> SwiftValue {
    var best: SwiftValue?
    for element in try call.elements() {
      guard let current = best else {
        best = element
        continue
      }
      let order = try call.evaluator.ordering(element, current, at: call.node) ?? 0
      if largest ? order > 0 : order < 0 { best = element }
    }
    return best.map { .some($0) } ?? .none
  }
}
