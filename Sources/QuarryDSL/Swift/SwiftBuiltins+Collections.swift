import SwiftSyntax

/// Array's mutating methods, Dictionary, Set, Range and Optional members.
extension SwiftBuiltins {
  static let collections: [SwiftBuiltin] = [
    setOperation("union", example: "Set([1, 2]).union([2, 3]).sorted()") { mine, theirs in mine + theirs.filter { !mine.contains($0) } },
    setOperation("intersection", example: "Set([1, 2, 3]).intersection([2, 3, 4]).sorted()") { mine, theirs in mine.filter(theirs.contains)
    },
    setOperation("subtracting", example: "Set([1, 2, 3]).subtracting([2]).sorted()") { mine, theirs in mine.filter { !theirs.contains($0) }
    },
    setOperation("symmetricDifference", example: "Set([1, 2]).symmetricDifference([2, 3]).sorted()") { mine, theirs in
      mine.filter { !theirs.contains($0) } + theirs.filter { !mine.contains($0) }
    },
    setTest("isSubset(of", example: "Set([1, 2]).isSubset(of: [1, 2, 3])") { mine, theirs in mine.allSatisfy(theirs.contains) },
    setTest("isSuperset(of", example: "Set([1, 2]).isSuperset(of: [2])") { mine, theirs in theirs.allSatisfy(mine.contains) },
    setTest("isDisjoint(with", example: "Set([1, 2]).isDisjoint(with: [3, 4])") { mine, theirs in !mine.contains(where: theirs.contains) },
    SwiftBuiltin("Array", mutating: "append(_ newElement: Element)", example: "{ var a = [1]; a.append(2); return a }") {
      evaluator, base, arguments, call in
      guard case .array(let elements) = base, let element = arguments.first else {
        throw evaluator.failure("'append' needs an array", at: call)
      }
      return .array(elements + [element])
    },
    SwiftBuiltin(
      "Array", mutating: "append(contentsOf newElements: [Element])", example: "{ var a = [1]; a.append(contentsOf: [2, 3]); return a }"
    ) { evaluator, base, arguments, call in
      guard case .array(let elements) = base, let more = arguments.first?.orderedElements(limit: 1_000_000) else {
        throw evaluator.failure("'append(contentsOf:)' needs arrays", at: call)
      }
      return .array(elements + more)
    },
    SwiftBuiltin("Array", mutating: "insert(_ newElement: Element, at i: Int)", example: "{ var a = [1, 3]; a.insert(2, at: 1); return a }")
    { evaluator, base, arguments, call in
      guard case .array(var elements) = base, arguments.count == 2, case .int(let index) = arguments[1] else {
        throw evaluator.failure("'insert(_:at:)' needs an array and an Int", at: call)
      }
      guard index >= 0, index <= elements.count else {
        throw evaluator.crash("inserts at index \(index) of an array of \(elements.count)", at: call)
      }
      elements.insert(arguments[0], at: Int(index))
      return .array(elements)
    },
    SwiftBuiltin("Array", mutating: "remove(at index: Int)", example: "{ var a = [1, 2, 3]; a.remove(at: 0); return a }") {
      evaluator, base, arguments, call in
      guard case .array(var elements) = base, case .int(let index)? = arguments.first else {
        throw evaluator.failure("'remove(at:)' needs an array and an Int", at: call)
      }
      guard index >= 0, index < elements.count else {
        throw evaluator.crash("removes index \(index) of an array of \(elements.count)", at: call)
      }
      elements.remove(at: Int(index))
      return .array(elements)
    }.returning { base, arguments in
      guard case .array(let elements) = base, case .int(let index)? = arguments.first, elements.indices.contains(Int(index)) else {
        return .none
      }
      return elements[Int(index)]
    },
    SwiftBuiltin("Array", mutating: "removeLast()", example: "{ var a = [1, 2]; a.removeLast(); return a }") { evaluator, base, _, call in
      guard case .array(let elements) = base else { throw evaluator.failure("'removeLast' needs an array", at: call) }
      guard !elements.isEmpty else { throw evaluator.crash("removes the last element of an empty array", at: call) }
      return .array(Array(elements.dropLast()))
    }.returning { base, _ in base.orderedElements(limit: 0)?.last ?? .none },
    SwiftBuiltin("Array", mutating: "popLast()", example: "{ var a = [1, 2]; let x = a.popLast(); return [x, a.popLast(), a.popLast()] }") {
      _, base, _, _ in
      guard case .array(let elements) = base else { return base }
      return .array(Array(elements.dropLast()))
    }.returning { base, _ in base.orderedElements(limit: 0)?.last.map { .some($0) } ?? .none },
    SwiftBuiltin("Array", mutating: "removeFirst()", example: "{ var a = [1, 2]; a.removeFirst(); return a }") { evaluator, base, _, call in
      guard case .array(let elements) = base else { throw evaluator.failure("'removeFirst' needs an array", at: call) }
      guard !elements.isEmpty else { throw evaluator.crash("removes the first element of an empty array", at: call) }
      return .array(Array(elements.dropFirst()))
    }.returning { base, _ in base.orderedElements(limit: 0)?.first ?? .none },
    SwiftBuiltin("Array", mutating: "removeAll()", example: "{ var a = [1, 2]; a.removeAll(); return a }") { _, base, _, _ in
      if case .dictionary = base { return .dictionary([:]) }
      if case .unordered = base { return .unordered([]) }
      return .array([])
    },
    SwiftBuiltin("Array", mutating: "sort()", example: "{ var a = [3, 1, 2]; a.sort(); return a }") { evaluator, base, _, call in
      guard case .array(let elements) = base else { throw evaluator.failure("'sort' needs an array", at: call) }
      let node = Syntax(call)
      return .array(
        try SwiftBuiltins.sort(
          elements, BuiltinCall(evaluator: evaluator, name: "sort", base: base, arguments: [], parameters: [], node: node)
        ) {
          try evaluator.ordering($0, $1, at: node) ?? 0 < 0
        })
    },
    SwiftBuiltin("Array", mutating: "reverse()", example: "{ var a = [1, 2]; a.reverse(); return a }") { evaluator, base, _, call in
      guard case .array(let elements) = base else { throw evaluator.failure("'reverse' needs an array", at: call) }
      return .array(elements.reversed())
    },

    SwiftBuiltin("Dictionary", "count: Int", example: #"["a": 1, "b": 2].count"#) { call in
      guard case .dictionary(let entries) = call.base else { return .none }
      return .int(Int64(entries.count))
    },
    SwiftBuiltin("Dictionary", "isEmpty: Bool", example: #"[String: Int]().isEmpty"#) { call in
      guard case .dictionary(let entries) = call.base else { return .none }
      return .bool(entries.isEmpty)
    },
    SwiftBuiltin("Dictionary", "keys: Keys", example: #"["b": 1, "a": 2].keys.sorted()"#) { call in
      guard case .dictionary(let entries) = call.base else { return .none }
      return .unordered(Array(entries.keys))
    },
    SwiftBuiltin("Dictionary", "values: Values", example: #"["b": 1, "a": 2].values.sorted()"#) { call in
      guard case .dictionary(let entries) = call.base else { return .none }
      return .unordered(Array(entries.values))
    },
    SwiftBuiltin(
      "Dictionary", mutating: "removeValue(forKey key: Key)", example: #"{ var d = ["a": 1]; d.removeValue(forKey: "a"); return d.count }"#
    ) { evaluator, base, arguments, call in
      guard case .dictionary(var entries) = base, let key = arguments.first else {
        throw evaluator.failure("'removeValue' needs a Dictionary", at: call)
      }
      entries[key] = nil
      return .dictionary(entries)
    },

    SwiftBuiltin(
      "Set", mutating: "insert(_ newMember: Element)", example: "{ var s: Set<Int> = [1]; s.insert(1); s.insert(2); return s.count }"
    ) { evaluator, base, arguments, call in
      guard case .unordered(var elements) = base, let element = arguments.first else {
        throw evaluator.failure("'insert' needs a Set", at: call)
      }
      if !elements.contains(element) { elements.append(element) }
      return .unordered(elements)
    },
    SwiftBuiltin("Set", mutating: "remove(_ member: Element)", example: "{ var s: Set<Int> = [1, 2]; s.remove(1); return s.count }") {
      evaluator, base, arguments, call in
      guard case .unordered(let elements) = base, let element = arguments.first else {
        throw evaluator.failure("'remove' needs a Set", at: call)
      }
      return .unordered(elements.filter { $0 != element })
    },

    SwiftBuiltin("Range", "lowerBound: Int", example: "(2..<5).lowerBound") { call in
      guard case .range(let lower, _, _) = call.base else { return .none }
      return .int(lower)
    },
    SwiftBuiltin("Range", "upperBound: Int", example: "(2...5).upperBound") { call in
      guard case .range(_, let upper, _) = call.base else { return .none }
      return .int(upper)
    },
    SwiftBuiltin("Range", "contains(_ element: Int) -> Bool", example: "(1..<5).contains(5)") { call in
      guard case .range(let lower, let upper, let closed) = call.base, case .int(let value) = try call.value(0) else {
        throw call.evaluator.failure("'contains' on a range needs an Int", at: call.node)
      }
      return .bool(value >= lower && (closed ? value <= upper : value < upper))
    },
    SwiftBuiltin("Range", "count: Int", example: "(0...Int.max - 1).count") { call in
      guard case .range(let lower, let upper, let closed) = call.base else { return .none }
      guard let count = SwiftValue.rangeCount(lower, upper, closed) else {
        throw call.evaluator.crash("counts a range of more than Int.max numbers", at: call.node)
      }
      return .int(Int64(count))
    },

    SwiftBuiltin("Optional", "map<U>(_ transform: (Wrapped) -> U) -> U?", example: "Int(\"4\").map { $0 * 2 }") { call in
      guard let inner = SwiftEvaluator.unwrapOnce(call.base) else { return .none }
      let value = try call.function(0)([inner])
      return .some(value)
    },
    SwiftBuiltin("Optional", "flatMap<U>(_ transform: (Wrapped) -> U?) -> U?", example: "Int(\"4\").flatMap { $0 > 3 ? $0 : nil }") {
      call in
      guard let inner = SwiftEvaluator.unwrapOnce(call.base) else { return .none }
      let value = try call.function(0)([inner])
      return value.isOptional ? value : .some(value)
    },
  ]
}

/// A Set's algebra with any sequence (`union`, `intersection`, …): a Set, each element once.
private func setOperation(
  _ name: String, example: String, _ combine: @escaping @Sendable ([SwiftValue], [SwiftValue]) -> [SwiftValue]
) -> SwiftBuiltin {
  SwiftBuiltin("Set", "\(name)(_ other: some Sequence) -> Set<Element>", needsOrder: false, example: example) { call in
    var call = call
    let (mine, theirs) = try setOperands(&call)
    return .unordered(combine(mine, theirs))
  }
}

/// A Set's test against any sequence (`isSubset(of:)`, `isDisjoint(with:)`).
private func setTest(_ selector: String, example: String, _ test: @escaping @Sendable ([SwiftValue], [SwiftValue]) -> Bool) -> SwiftBuiltin
{
  SwiftBuiltin("Set", "\(selector) other: some Sequence) -> Bool", needsOrder: false, example: example) { call in
    var call = call
    let (mine, theirs) = try setOperands(&call)
    return .bool(test(mine, theirs))
  }
}

private func setOperands(_ call: inout BuiltinCall) throws -> ([SwiftValue], [SwiftValue]) {
  let theirs = try call.elements(of: call.value(0))
  // Each side's elements once (a Set's own are already; an array given may repeat them).
  var mine: Set<SwiftValue> = []
  var given: Set<SwiftValue> = []
  return (try call.elements().filter { mine.insert($0).inserted }, theirs.filter { given.insert($0).inserted })
}
