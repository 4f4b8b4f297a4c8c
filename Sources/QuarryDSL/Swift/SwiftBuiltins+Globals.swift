import FoundationEssentials
import Glibc
import SwiftSyntax

/// Free functions and initializers: `String(…)`, `Int(…)`, `Double(…)`, `abs`, `min`, `max`,
/// `zip`, `stride`, and Foundation's `floor`, `ceil`, `round`, `sqrt`, `pow`.
extension SwiftBuiltins {
  static let globals: [SwiftBuiltin] =
    [
      SwiftBuiltin("", "String(_ value: Any) -> String", example: #"String("ok".map { $0.isLowercase ? Character($0.uppercased()) : $0 })"#)
      {
        call in
        let value = try call.value(0)
        // No `String(_:)` takes an optional (swiftc: "no exact matches in call to initializer"):
        // `String(x ?? 3)` is the pick of `??` that returns the wrapped type.
        if value.isOptional {
          throw call.evaluator.failure("cannot convert \(value.typeName) to String: unwrap it, or use String(describing:)", at: call.node)
            .misusing(optional: true)
        }
        // `String(chars)` of an array of Characters (`s.map { … Character(…) }`) is the sequence's
        // initializer, their concatenation; Swift has no `String(_:)` of any other array.
        switch value {
        case .array(let elements), .slice(let elements, _):
          var text = ""
          for element in elements {
            guard case .string(let character) = element, character.count == 1 else {
              return .string(try call.evaluator.describe(value, at: call.node))
            }
            text += character
          }
          return .string(text)
        default:
          return .string(try call.evaluator.describe(value, at: call.node))
        }
      },
      SwiftBuiltin("", "String(describing instance: Any) -> String", example: #"String(describing: Int("x"))"#) { call in
        let value = try call.value(0)
        return .string(try call.evaluator.describe(value, at: call.node))
      },
      SwiftBuiltin("", "String(repeating repeatedValue: String, count: Int) -> String", example: #"String(repeating: "ab", count: 3)"#) {
        call in
        let text = try call.string(0)
        let count = try call.int(1)
        guard count >= 0 else { throw call.evaluator.crash("repeats a string a negative number of times (\(count))", at: call.node) }
        let (size, overflow) = Int64(text.utf8.count).multipliedReportingOverflow(by: count)
        guard !overflow else { throw call.evaluator.crash("repeats a string to a length beyond Int", at: call.node) }
        // Swift repeats even an empty string `count` times: the work counts too.
        try call.evaluator.budget.allocate(Int(clamping: max(size, count)))
        return .string(String(repeating: text, count: Int(count)))
      },
      SwiftBuiltin("", "String() -> String", example: "String()") { _ in .string("") },
      SwiftBuiltin("", "Character(_ text: String) -> Character", example: #"Character("é")"#) { call in
        let text = try call.string(0)
        guard text.count == 1 else { throw call.evaluator.crash("makes a Character of \(text.count) characters", at: call.node) }
        return .string(text)
      },
      SwiftBuiltin("", "Int(_ value: Any) -> Int", example: "Int(-2.9)") { call in
        var argument = try call.value(0)
        if case .float(let number) = argument { argument = .double(Double(number)) }
        switch argument {
        case .int(let number), .fixedWidth(let number, _): return .int(number)
        case .double(let number):
          guard number.isFinite else { throw call.evaluator.crash("converts \(number) to Int", at: call.node) }
          guard number > -9_223_372_036_854_777_856.0, number < 9_223_372_036_854_775_808.0 else {
            throw call.evaluator.crash("converts \(number), beyond Int, to Int", at: call.node)
          }
          return .int(Int64(number))
        case .string(let text): return Int64(text).map { .some(.int($0)) } ?? .none
        case let other:
          throw call.evaluator.failure("cannot convert \(other.typeName) to Int", at: call.node).misusing(optional: other.isOptional)
        }
      },
      SwiftBuiltin("", "Int(exactly source: Any) -> Int?", example: "[Int(exactly: 2.0), Int(exactly: 2.5), Int(exactly: -0.0)]") { call in
        switch try call.value(0) {
        case .int(let number), .fixedWidth(let number, _): return .some(.int(number))
        case .double(let number):
          // Exactly an integer within Int, or nothing (NaN, infinities, fractions, 2^63).
          guard number.isFinite, number.rounded(.towardZero) == number, number >= -9_223_372_036_854_775_808.0,
            number < 9_223_372_036_854_775_808.0
          else { return .none }
          return .some(.int(Int64(number)))
        case let other:
          throw call.evaluator.failure("cannot convert \(other.typeName) to Int", at: call.node).misusing(optional: other.isOptional)
        }
      },
      SwiftBuiltin(
        "", "String(_ value: Int, radix: Int, uppercase: Bool = false) -> String",
        example: "[String(255, radix: 16), String(-16, radix: 2), String(255, radix: 16, uppercase: true), String(35, radix: 36)]"
      ) { call in
        let argument = try call.value(0)
        guard let value = argument.integer else {
          throw call.evaluator.failure("needs an integer here, not \(argument.typeName)", at: call.node)
        }
        let radix = try call.int(1)
        let uppercase = call.count > 2 ? try call.evaluator.truth(call.value(2), at: call.node) : false
        guard (2...36).contains(radix) else { throw call.evaluator.crash("makes a String in radix \(radix) (2 to 36 only)", at: call.node) }
        return .string(String(value, radix: Int(radix), uppercase: uppercase))
      },
      fixedWidthConversion("Int64", Int64.min, Int64.max, example: "Int64(-2.9)"),
      fixedWidthConversion("Int32", Int64(Int32.min), Int64(Int32.max), example: #"Int32("70000")"#),
      fixedWidthConversion("Int16", Int64(Int16.min), Int64(Int16.max), example: "Int16(Double(-300.5))"),
      fixedWidthConversion("Int8", Int64(Int8.min), Int64(Int8.max), example: #"Int8("-128")"#),
      fixedWidthConversion("UInt8", 0, Int64(UInt8.max), example: #"UInt8(Int("200")!)"#),
      fixedWidthConversion("UInt16", 0, Int64(UInt16.max), example: "UInt16(65535.9)"),
      fixedWidthConversion("UInt32", 0, Int64(UInt32.max), example: #"UInt32("-1")"#),
    ]
    + [
      (type: "Int8", label: "truncatingIfNeeded", example: "[Int8(truncatingIfNeeded: 200), Int8(truncatingIfNeeded: -129)]"),
      (type: "UInt8", label: "truncatingIfNeeded", example: "UInt8(truncatingIfNeeded: -1)"),
      (type: "Int16", label: "truncatingIfNeeded", example: "Int16(truncatingIfNeeded: 40000)"),
      (type: "UInt16", label: "truncatingIfNeeded", example: "UInt16(truncatingIfNeeded: -2)"),
      (type: "Int32", label: "truncatingIfNeeded", example: "Int32(truncatingIfNeeded: 3_000_000_000)"),
      (type: "UInt32", label: "truncatingIfNeeded", example: "UInt32(truncatingIfNeeded: -1)"),
      (type: "Int8", label: "clamping", example: "[Int8(clamping: 300), Int8(clamping: -300), Int8(clamping: 5)]"),
      (type: "UInt8", label: "clamping", example: "[UInt8(clamping: 300), UInt8(clamping: -3)]"),
      (type: "Int16", label: "clamping", example: "Int16(clamping: 99_999)"),
      (type: "UInt16", label: "clamping", example: "UInt16(clamping: -1)"),
      (type: "Int32", label: "clamping", example: "Int32(clamping: Int.max)"),
      (type: "UInt32", label: "clamping", example: "UInt32(clamping: Int.min)"),
      (type: "Int8", label: "exactly", example: "[Int8(exactly: 127), Int8(exactly: 128), Int8(exactly: -2.0), Int8(exactly: 2.5)]"),
      (type: "UInt8", label: "exactly", example: "[UInt8(exactly: 255), UInt8(exactly: -1)]"),
      (type: "Int16", label: "exactly", example: "Int16(exactly: 40000)"),
      (type: "UInt16", label: "exactly", example: "UInt16(exactly: 65535.0)"),
      (type: "Int32", label: "exactly", example: "Int32(exactly: 2_147_483_648)"),
      (type: "UInt32", label: "exactly", example: "UInt32(exactly: 7)"),
    ].map { widthInitializer($0.type, $0.label, example: $0.example) } + [
      SwiftBuiltin("", "Double(_ value: Any) -> Double", example: #"Double("2.5e3")"#) { call in
        switch try call.value(0) {
        case .int(let number), .fixedWidth(let number, _): return .double(Double(number))
        case .float(let number): return .double(Double(number))
        case .double(let number): return .double(number)
        case .string(let text): return Double(text).map { .some(.double($0)) } ?? .none
        case let other:
          throw call.evaluator.failure("cannot convert \(other.typeName) to Double", at: call.node).misusing(optional: other.isOptional)
        }
      },
      SwiftBuiltin("", "Float(_ value: Any) -> Float", example: #"[Float(0.1), Float(1) / 3, Float(2.5e-45), Float("0.1")!]"#) { call in
        // `Float(0.1)` is the literal as a Float (rounded once from its digits), as Swift reads it.
        if let argument = call.arguments.first, SwiftEvaluator.isLiteralOnly(argument) || SwiftEvaluator.isFloatLiteral(argument) {
          return try call.evaluator.coerce(
            call.evaluator.evaluate(argument, expected: SwiftType("Float")), to: SwiftType("Float"), at: argument)
        }
        switch try call.value(0) {
        case .int(let number), .fixedWidth(let number, _): return .float(Float(number))
        case .double(let number): return .float(Float(number))
        case .float: return try call.value(0)
        case .string(let text): return Float(text).map { .some(.float($0)) } ?? .none
        case let other:
          throw call.evaluator.failure("cannot convert \(other.typeName) to Float", at: call.node).misusing(optional: other.isOptional)
        }
      },
      SwiftBuiltin("", "Bool(_ text: String) -> Bool?", example: #"Bool("true")"#) { call in
        Bool(try call.string(0)).map { .some(.bool($0)) } ?? .none
      },
      SwiftBuiltin("", "Array(_ elements: some Sequence) -> [Element]", example: #"Array("abc")"#) { call in
        let inner = BuiltinCall(
          evaluator: call.evaluator, name: "Array", base: try call.value(0), arguments: [], parameters: [], node: call.node)
        if SwiftEvaluator.isUnordered(inner.base) {
          throw call.evaluator.failure(
            "makes an Array of a \(inner.base.typeName), whose order Swift does not fix; use .sorted()", at: call.node)
        }
        return .array(try inner.elements())
      },
      SwiftBuiltin("", "Array(repeating repeatedValue: Element, count: Int) -> [Element]", example: #"Array(repeating: "x", count: 2)"#) {
        call in
        let value = try call.value(0)
        let count = try call.int(1)
        guard count >= 0 else { throw call.evaluator.crash("repeats an element a negative number of times", at: call.node) }
        let (size, overflow) = count.multipliedReportingOverflow(by: 16)
        try call.evaluator.budget.allocate(overflow ? .max : Int(clamping: size))
        return .array(Array(repeating: value, count: Int(count)))
      },
      SwiftBuiltin("", "Set(_ elements: some Sequence) -> Set<Element>", example: "Set([1, 2, 2]).count") { call in
        let inner = BuiltinCall(
          evaluator: call.evaluator, name: "Set", base: try call.value(0), arguments: [], parameters: [], node: call.node)
        var seen: Set<SwiftValue> = []
        var out: [SwiftValue] = []
        for element in try inner.elements() where seen.insert(element).inserted { out.append(element) }
        return .unordered(out)
      },
      SwiftBuiltin(
        "", "Dictionary(grouping values: some Sequence, by keyForValue: (Element) -> Key) -> [Key: [Element]]",
        example: "Dictionary(grouping: [1, 2, 3, 4, 5], by: { $0 % 2 })[1]"
      ) { call in
        let values = try call.elements(of: try call.value(0))
        let key = try call.function(1)
        var groups: [SwiftValue: [SwiftValue]] = [:]
        for value in values { groups[try key([value]), default: []].append(value) }
        return .dictionary(groups.mapValues { .array($0) })
      },
      SwiftBuiltin(
        "", "Dictionary(uniqueKeysWithValues keysAndValues: some Sequence<(Key, Value)>) -> [Key: Value]",
        example: #"Dictionary(uniqueKeysWithValues: [("a", 1), ("b", 2)])["b"]"#
      ) { call in
        var dictionary: [SwiftValue: SwiftValue] = [:]
        for pair in try call.elements(of: try call.value(0)) {
          guard case .tuple(let parts, _) = pair, parts.count == 2 else {
            throw call.evaluator.failure("needs (key, value) pairs, not \(pair.typeName)", at: call.node)
          }
          guard dictionary.updateValue(parts[1], forKey: parts[0]) == nil else {
            throw call.evaluator.crash("makes a Dictionary with a key given twice", at: call.node)
          }
        }
        return .dictionary(dictionary)
      },
      SwiftBuiltin("", "Optional(_ some: T) -> T?", example: "Optional(3)") { call in .some(try call.value(0)) },
      SwiftBuiltin("", "abs(_ x: T) -> T", example: "abs(-3)") { call in
        switch try call.value(0) {
        case .int(let number):
          guard number != .min else { throw call.evaluator.crash("takes abs(Int.min), which overflows Int", at: call.node) }
          return .int(abs(number))
        case .fixedWidth(let number, let width):
          guard number != width.minimum || !width.signed else {
            throw call.evaluator.crash("takes abs(\(width.name).min), which overflows \(width.name)", at: call.node)
          }
          return .fixedWidth(abs(number), width)
        case .double(let number): return .double(abs(number))
        case let other: throw call.evaluator.failure("cannot take abs of \(other.typeName)", at: call.node)
        }
      },
      SwiftBuiltin("", "min(_ x: T, _ y: T, _ rest: T...) -> T", example: "min(3, 1, 2)") { call in try pick(&call, largest: false) },
      SwiftBuiltin("", "max(_ x: T, _ y: T, _ rest: T...) -> T", example: "max(2.5, 1)") { call in try pick(&call, largest: true) },
      SwiftBuiltin("", "zip(_ a: some Sequence, _ b: some Sequence) -> Zip2Sequence", example: #"Array(zip([1, 2, 3], ["a", "b"]))"#) {
        call in
        let first = BuiltinCall(
          evaluator: call.evaluator, name: "zip", base: try call.value(0), arguments: [], parameters: [], node: call.node)
        let second = BuiltinCall(
          evaluator: call.evaluator, name: "zip", base: try call.value(1), arguments: [], parameters: [], node: call.node)
        return .lazySequence(
          type: "Zip2Sequence", elements: zip(try first.elements(), try second.elements()).map { .tuple([$0, $1], labels: [nil, nil]) })
      },
      SwiftBuiltin(
        "", "stride(from start: Int, to end: Int, by stride: Int) -> StrideTo<Int>", example: "Array(stride(from: 0, to: 10, by: 3))"
      ) { call in
        try strideValues(&call, through: false)
      },
      SwiftBuiltin(
        "", "stride(from start: Int, through end: Int, by stride: Int) -> StrideThrough<Int>",
        example: "Array(stride(from: 10, through: 0, by: -5))"
      ) { call in
        try strideValues(&call, through: true)
      },
      SwiftBuiltin("", "floor(_ x: Double) -> Double", example: "floor(-2.5)") { .double(Glibc.floor(try $0.double(0))) },
      SwiftBuiltin("", "ceil(_ x: Double) -> Double", example: "ceil(2.1)") { .double(Glibc.ceil(try $0.double(0))) },
      SwiftBuiltin("", "round(_ x: Double) -> Double", example: "round(2.5)") { .double(Glibc.round(try $0.double(0))) },
      SwiftBuiltin("", "sqrt(_ x: Double) -> Double", example: "sqrt(2.0)") { .double(Glibc.sqrt(try $0.double(0))) },
      SwiftBuiltin("", "pow(_ x: Double, _ y: Double) -> Double", example: "pow(2.0, 10.0)") { call in
        .double(Glibc.pow(try call.double(0), try call.double(1)))
      },
    ]

  /// Swift's `max` keeps the later of equal values and `min` the earlier; a NaN compares false.
  private static func pick(_ call: inout BuiltinCall, largest: Bool) throws -> SwiftValue {
    var values: [SwiftValue] = []
    for index in 0..<call.count { values.append(try call.value(index)) }
    if values.contains(where: { if case .double = $0 { true } else { false } }) {
      values = values.map { $0.number.map(SwiftValue.double) ?? $0 }
    }
    // `max(x, 5)` of a UInt8 `x`: the literal is a UInt8 too.
    if let width = values.lazy.compactMap({ if case .fixedWidth(_, let width) = $0 { width } else { nil } }).first {
      values = try values.map { try width.holding($0, evaluator: call.evaluator, at: call.node) }
    }
    guard var best = values.first else { throw call.evaluator.failure("'\(call.name)' needs values", at: call.node) }
    for value in values.dropFirst() where try call.evaluator.compare(largest ? ">=" : "<", value, best, at: call.node) {
      best = value
    }
    return best
  }

  private static func strideValues(_ call: inout BuiltinCall, through: Bool) throws -> SwiftValue {
    let bounds = [try call.value(0), try call.value(1), try call.value(2)]
    if bounds.contains(where: { if case .double = $0 { true } else { false } }) {
      return try doubleStride(&call, bounds.map(\.number), through: through)
    }
    let start = try call.int(0)
    let end = try call.int(1)
    let step = try call.int(2)
    guard step != 0 else { throw call.evaluator.crash("strides by zero", at: call.node) }
    var out: [SwiftValue] = []
    var current = start
    while step > 0 ? (through ? current <= end : current < end) : (through ? current >= end : current > end) {
      try call.evaluator.budget.charge()
      out.append(.int(current))
      let (next, overflow) = current.addingReportingOverflow(step)
      if overflow { break }
      current = next
    }
    return .lazySequence(type: through ? "StrideThrough<Int>" : "StrideTo<Int>", elements: out)
  }

  /// A stride over Doubles, as the standard library steps one: the k-th value is `start + k *
  /// stride` in one fused multiply-add (no error accumulates from repeated addition; measured with
  /// swiftc: `stride(from: 1.0, to: 0.0, by: -0.3)` ends at 0.10000000000000003), and `through:`
  /// ends with `end` only when a step lands on it exactly.
  private static func doubleStride(_ call: inout BuiltinCall, _ bounds: [Double?], through: Bool) throws -> SwiftValue {
    guard let start = bounds[0], let end = bounds[1], let step = bounds[2] else {
      throw call.evaluator.failure("'stride' needs numbers of one type", at: call.node)
    }
    guard step != 0 else { throw call.evaluator.crash("strides by zero", at: call.node) }
    guard !step.isNaN else { throw call.evaluator.unsupported(call.node, "a stride by NaN") }
    var out: [SwiftValue] = []
    var index = 0.0
    var current = start
    while true {
      try call.evaluator.budget.charge()
      let beyond = step > 0 ? current >= end : current <= end
      if beyond {
        if through && current == end { out.append(.double(current)) }
        break
      }
      out.append(.double(current))
      index += 1
      current = start.addingProduct(index, step)
    }
    try call.evaluator.budget.allocate(elements: out.count)
    return .lazySequence(type: through ? "StrideThrough<Double>" : "StrideTo<Double>", elements: out)
  }
}

/// `Int32(x)`, `UInt8(x)`…: the standard library's conversion to a fixed-width integer (Quarry
/// holds every integer as a 64-bit one, checked against the type's range): from an integer or a
/// Double (truncated toward zero) it traps outside the range, from a String it is nil there.
private func fixedWidthConversion(_ type: String, _ minimum: Int64, _ maximum: Int64, example: String) -> SwiftBuiltin {
  SwiftBuiltin("", "\(type)(_ value: Any) -> \(type)", example: example) { call in
    // The result in its own width (an Int64 is an Int).
    let made: (Int64) -> SwiftValue = { number in IntegerWidth(named: type).map { .fixedWidth(number, $0) } ?? .int(number) }
    switch try call.value(0) {
    case .int(let number), .fixedWidth(let number, _):
      guard number >= minimum, number <= maximum else {
        throw call.evaluator.crash("converts \(number), beyond \(type), to \(type)", at: call.node)
      }
      return made(number)
    case .double(let number):
      guard number.isFinite else { throw call.evaluator.crash("converts \(number) to \(type)", at: call.node) }
      let truncated = number.rounded(.towardZero)
      guard truncated >= Double(minimum), truncated < Double(maximum) + 1 else {
        throw call.evaluator.crash("converts \(number), beyond \(type), to \(type)", at: call.node)
      }
      return made(Int64(truncated))
    case .string(let text):
      guard let number = Int64(text), number >= minimum, number <= maximum else { return .none }
      return .some(made(number))
    case let other:
      throw call.evaluator.failure("cannot convert \(other.typeName) to \(type)", at: call.node).misusing(optional: other.isOptional)
    }
  }
}

/// `Int8(truncatingIfNeeded:)`, `UInt8(clamping:)`, `Int16(exactly:)`: a fixed-width type made
/// from an Int (or, for `exactly:`, a Double that is exactly an integer; otherwise nil).
private func widthInitializer(_ type: String, _ label: String, example: String) -> SwiftBuiltin {
  SwiftBuiltin("", "\(type)(\(label) source: Any) -> \(type)\(label == "exactly" ? "?" : "")", example: example) { call in
    guard let width = IntegerWidth(named: type) else { throw call.evaluator.failure("no such type \(type)", at: call.node) }
    let number: Int64
    switch try call.value(0) {
    case .int(let given), .fixedWidth(let given, _): number = given
    case .double(let given) where label == "exactly":
      guard given.isFinite, given.rounded(.towardZero) == given, given >= Double(width.minimum), given <= Double(width.maximum) else {
        return .none
      }
      number = Int64(given)
    case let other: throw call.evaluator.failure("cannot make a \(type) \(label) a \(other.typeName)", at: call.node)
    }
    switch label {
    case "truncatingIfNeeded": return .fixedWidth(width.truncated(number), width)
    case "clamping": return .fixedWidth(min(max(number, width.minimum), width.maximum), width)
    default: return number >= width.minimum && number <= width.maximum ? .some(.fixedWidth(number, width)) : .none
    }
  }
}
