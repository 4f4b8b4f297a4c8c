import FoundationEssentials

/// Int, Double and Bool members, and their static members.
extension SwiftBuiltins {
  static let numbers: [SwiftBuiltin] =
    fixedWidthMembers + [
      SwiftBuiltin("Int", "max: Int", isStatic: true, example: "Int.max") { _ in .int(.max) },
      SwiftBuiltin("Int", "min: Int", isStatic: true, example: "Int.min") { _ in .int(.min) },
      SwiftBuiltin("Int64", "max: Int64", isStatic: true, example: "Int64.max") { _ in .int(.max) },
      SwiftBuiltin("Int64", "min: Int64", isStatic: true, example: "Int64.min") { _ in .int(.min) },
      SwiftBuiltin("Int", "description: String", example: "(-42).description") { .string(String(try $0.baseInt())) },
      SwiftBuiltin("Int", "isMultiple(of other: Int) -> Bool", example: "Int.min.isMultiple(of: -1)") { call in
        let value = try call.baseInt()
        let other = try call.int(0)
        // Swift: nothing but zero is a multiple of zero; `-1` divides everything (no overflow).
        if other == 0 { return .bool(value == 0) }
        if other == -1 { return .bool(true) }
        return .bool(value % other == 0)
      },
      SwiftBuiltin("Int", "signum() -> Int", example: "(-7).signum()") { .int(try $0.baseInt().signum()) },
      SwiftBuiltin(
        "Int", "quotientAndRemainder(dividingBy rhs: Int) -> (quotient: Int, remainder: Int)",
        example: "17.quotientAndRemainder(dividingBy: 5)"
      ) { call in
        let value = try call.baseInt()
        let divisor = try call.int(0)
        guard divisor != 0 else { throw call.evaluator.crash("divides by zero", at: call.node) }
        guard !(value == .min && divisor == -1) else { throw call.evaluator.crash("overflows Int (Int.min / -1)", at: call.node) }
        return .tuple([.int(value / divisor), .int(value % divisor)], labels: ["quotient", "remainder"])
      },
      SwiftBuiltin("Int", "magnitude: UInt", example: "(-5).magnitude") { call in
        let value = try call.baseInt()
        guard value != .min else { throw call.evaluator.unsupported(call.node, "Int.min.magnitude, a UInt beyond Int") }
        return .int(abs(value))
      },
      SwiftBuiltin("Int", "bitWidth: Int", example: "(7).bitWidth") { _ in .int(64) },
      SwiftBuiltin("Int", "nonzeroBitCount: Int", example: "[(-1).nonzeroBitCount, 255.nonzeroBitCount, 0.nonzeroBitCount]") {
        .int(Int64(try $0.baseInt().nonzeroBitCount))
      },
      SwiftBuiltin("Int", "leadingZeroBitCount: Int", example: "[1.leadingZeroBitCount, (-1).leadingZeroBitCount, 0.leadingZeroBitCount]") {
        .int(Int64(try $0.baseInt().leadingZeroBitCount))
      },
      SwiftBuiltin(
        "Int", "trailingZeroBitCount: Int", example: "[8.trailingZeroBitCount, 0.trailingZeroBitCount, Int.min.trailingZeroBitCount]"
      ) {
        .int(Int64(try $0.baseInt().trailingZeroBitCount))
      },

      SwiftBuiltin("Double", "pi: Double", isStatic: true, example: "Double.pi") { _ in .double(.pi) },
      SwiftBuiltin("Double", "infinity: Double", isStatic: true, example: "-Double.infinity") { _ in .double(.infinity) },
      SwiftBuiltin("Double", "nan: Double", isStatic: true, example: "Double.nan") { _ in .double(.nan) },
      SwiftBuiltin("Double", "signalingNaN: Double", isStatic: true, example: #""\(Double.signalingNaN)""#) { _ in .double(.signalingNaN) },
      SwiftBuiltin("Double", "greatestFiniteMagnitude: Double", isStatic: true, example: "Double.greatestFiniteMagnitude") { _ in
        .double(.greatestFiniteMagnitude)
      },
      SwiftBuiltin("Double", "ulpOfOne: Double", isStatic: true, example: "Double.ulpOfOne") { _ in .double(.ulpOfOne) },
      SwiftBuiltin("Double", "leastNonzeroMagnitude: Double", isStatic: true, example: "Double.leastNonzeroMagnitude / 2") { _ in
        .double(.leastNonzeroMagnitude)
      },
      SwiftBuiltin("Double", "leastNormalMagnitude: Double", isStatic: true, example: "Double.leastNormalMagnitude") { _ in
        .double(.leastNormalMagnitude)
      },
      SwiftBuiltin("Double", "description: String", example: "(0.1 + 0.2).description") { .string(String(try $0.baseDouble())) },
      SwiftBuiltin("Double", "isNaN: Bool", example: "(0.0 / 0.0).isNaN") { .bool(try $0.baseDouble().isNaN) },
      SwiftBuiltin("Double", "isInfinite: Bool", example: "(1.0 / 0.0).isInfinite") { .bool(try $0.baseDouble().isInfinite) },
      SwiftBuiltin("Double", "isFinite: Bool", example: "2.5.isFinite") { .bool(try $0.baseDouble().isFinite) },
      SwiftBuiltin("Double", "isZero: Bool", example: "(-0.0).isZero") { .bool(try $0.baseDouble().isZero) },
      SwiftBuiltin("Double", "magnitude: Double", example: "(-2.5).magnitude") { .double(try $0.baseDouble().magnitude) },
      SwiftBuiltin("Double", "rounded() -> Double", example: "2.5.rounded()") { .double(try $0.baseDouble().rounded()) },
      SwiftBuiltin("Double", "rounded(_ rule: FloatingPointRoundingRule) -> Double", example: "(-2.5).rounded(.towardZero)") { call in
        let rule: FloatingPointRoundingRule
        switch call.arguments.first?.trimmedDescription {
        case ".up": rule = .up
        case ".down": rule = .down
        case ".towardZero": rule = .towardZero
        case ".awayFromZero": rule = .awayFromZero
        case ".toNearestOrEven": rule = .toNearestOrEven
        case ".toNearestOrAwayFromZero": rule = .toNearestOrAwayFromZero
        default: throw call.evaluator.failure("needs a rounding rule written as '.up', '.down', '.towardZero', …", at: call.node)
        }
        return .double(try call.baseDouble().rounded(rule))
      },
      SwiftBuiltin("Double", "squareRoot() -> Double", example: "2.0.squareRoot()") { .double(try $0.baseDouble().squareRoot()) },
      SwiftBuiltin(
        "Double", "remainder(dividingBy other: Double) -> Double",
        example: "[(7.5).remainder(dividingBy: 2), (-7.5).remainder(dividingBy: 2), (5.0).remainder(dividingBy: 0.3)]"
      ) { call in
        var call = call
        return .double(try call.baseDouble().remainder(dividingBy: call.double(0)))
      },
      SwiftBuiltin("Double", "nextUp: Double", example: "[(1.0).nextUp, (-0.0).nextUp]") { .double(try $0.baseDouble().nextUp) },
      SwiftBuiltin("Double", "nextDown: Double", example: "(1.0).nextDown") { .double(try $0.baseDouble().nextDown) },
      SwiftBuiltin("Double", "ulp: Double", example: "[(1.0).ulp, (1e300).ulp]") { .double(try $0.baseDouble().ulp) },
      SwiftBuiltin("Double", "truncatingRemainder(dividingBy other: Double) -> Double", example: "7.5.truncatingRemainder(dividingBy: 2)") {
        call in
        .double(try call.baseDouble().truncatingRemainder(dividingBy: call.double(0)))
      },

      SwiftBuiltin("Bool", "description: String", example: "true.description") { call in
        guard case .bool(let flag) = call.base else { return .none }
        return .string(flag ? "true" : "false")
      },
      SwiftBuiltin("Bool", mutating: "toggle()", example: "{ var b = false; b.toggle(); return b }") { evaluator, base, _, call in
        guard case .bool(let flag) = base else { throw evaluator.failure("'toggle' needs a Bool", at: call) }
        return .bool(!flag)
      },
    ]
}

/// The members of the fixed-width integers narrower than Int, each in its own width.
extension SwiftBuiltins {
  static let fixedWidthMembers: [SwiftBuiltin] =
    [
      (type: "Int8", example: "(Int8.max, Int8.min, Int8.zero, Int8.bitWidth)"),
      (type: "Int16", example: "(Int16.max, Int16.min, Int16.zero, Int16.bitWidth)"),
      (type: "Int32", example: "(Int32.max, Int32.min, Int32.zero, Int32.bitWidth)"),
      (type: "UInt8", example: "(UInt8.max, UInt8.min, UInt8.zero, UInt8.bitWidth)"),
      (type: "UInt16", example: "(UInt16.max, UInt16.min, UInt16.zero, UInt16.bitWidth)"),
      (type: "UInt32", example: "(UInt32.max, UInt32.min, UInt32.zero, UInt32.bitWidth)"),
    ].flatMap { row -> [SwiftBuiltin] in
      guard let width = IntegerWidth(named: row.type) else { return [] }
      return [
        SwiftBuiltin(row.type, "max: \(row.type)", isStatic: true, example: row.example) { _ in .fixedWidth(width.maximum, width) },
        SwiftBuiltin(row.type, "min: \(row.type)", isStatic: true, example: row.example) { _ in .fixedWidth(width.minimum, width) },
        SwiftBuiltin(row.type, "zero: \(row.type)", isStatic: true, example: row.example) { _ in .fixedWidth(0, width) },
        SwiftBuiltin(row.type, "bitWidth: Int", isStatic: true, example: row.example) { _ in .int(width.bits) },
      ]
    } + [
      SwiftBuiltin("FixedWidthInteger", "description: String", example: "UInt8(7).description") { call in
        .string(String(try call.baseFixedWidth().value))
      },
      SwiftBuiltin("FixedWidthInteger", "bitWidth: Int", example: "Int16(1).bitWidth") { .int(try $0.baseFixedWidth().width.bits) },
      SwiftBuiltin("FixedWidthInteger", "nonzeroBitCount: Int", example: "Int8(-1).nonzeroBitCount") { call in
        let (value, width) = try call.baseFixedWidth()
        return .int(Int64(UInt64(bitPattern: value & width.mask).nonzeroBitCount))
      },
      SwiftBuiltin("FixedWidthInteger", "leadingZeroBitCount: Int", example: "UInt16(255).leadingZeroBitCount") { call in
        let (value, width) = try call.baseFixedWidth()
        return .int(Int64(UInt64(bitPattern: value & width.mask).leadingZeroBitCount) - (64 - width.bits))
      },
      SwiftBuiltin(
        "FixedWidthInteger", "trailingZeroBitCount: Int", example: "[UInt8(8).trailingZeroBitCount, Int8(0).trailingZeroBitCount]"
      ) {
        call in
        let (value, width) = try call.baseFixedWidth()
        return .int(min(Int64(UInt64(bitPattern: value & width.mask).trailingZeroBitCount), width.bits))
      },
      SwiftBuiltin("FixedWidthInteger", "isMultiple(of other: Self) -> Bool", example: "Int8(-128).isMultiple(of: -1)") { call in
        let (value, width) = try call.baseFixedWidth()
        let argument = try call.value(0)
        guard let other = try width.holding(argument, evaluator: call.evaluator, at: call.node).integer else {
          throw call.evaluator.failure("needs a \(width.name) here, not \(argument.typeName)", at: call.node)
        }
        if other == 0 { return .bool(value == 0) }
        return .bool(value % other == 0)
      },
      SwiftBuiltin("FixedWidthInteger", "signum() -> Self", example: "Int8(-7).signum()") { call in
        let (value, width) = try call.baseFixedWidth()
        return .fixedWidth(value.signum(), width)
      },
    ]
}
