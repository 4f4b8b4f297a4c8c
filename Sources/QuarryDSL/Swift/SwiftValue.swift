import QueryBuilder

/// A Swift value while Quarry evaluates Swift: in a `@DatabaseFunction` body, in app code, or a
/// Swift computation inside a query (`ids.dropFirst()`).
///
/// Optionals are kept as Swift keeps them, so `"\(x)"` of an `Int?` reads `Optional(5)`, and
/// a Dictionary's order, which Swift does not fix, is never shown.
///
/// ```swift
/// let x: Int? = 5
/// "\(x)"        // .string("Optional(5)")
/// x ?? 0 > 4    // .bool(true): `??` binds tighter than `>`
/// ```
indirect enum SwiftValue: Sendable {
  /// `nil`: an optional with no value.
  case none
  /// An optional holding a value.
  case some(SwiftValue)
  case bool(Bool)
  case int(Int64)
  /// A fixed-width integer narrower than Int (`UInt8`, `Int16`, …): its value and its type, which
  /// it keeps wherever it flows (an array's element, a closure's parameter, an optional), so
  /// `[UInt8(200), 100][0] &+ 100` wraps at 8 bits. Equal to an Int of the same value (a
  /// collection of one type never mixes them; a literal key finds it).
  case fixedWidth(Int64, IntegerWidth)
  case double(Double)
  /// A Swift `Float`: its arithmetic rounds to 24 bits and it prints the shortest digits that
  /// read back as that Float (`Float(0.1) * 3` prints 0.3); bound as the Double it converts to
  /// (0.10000000149011612), as StructuredQueries binds it.
  case float(Float)
  /// A String, or a Character (a string of one character).
  case string(String)
  case array([SwiftValue])
  /// An ArraySlice (`dropFirst()`, `prefix(2)`): its indices start at `start`, as its base's did.
  case slice([SwiftValue], start: Int)
  /// A lazy wrapper Swift prints by its internals (`reversed()`, `enumerated()`, `zip`):
  /// iterated like an array, never printed.
  case lazySequence(type: String, elements: [SwiftValue])
  /// A Dictionary: looked up by key; its order is Swift's own and unspecified, so nothing
  /// that depends on it is computed.
  case dictionary([SwiftValue: SwiftValue])
  /// A Set, or a Dictionary's `keys`/`values`: elements in an order Swift does not fix.
  case unordered([SwiftValue])
  /// A tuple, with its labels (nil where unlabeled).
  case tuple([SwiftValue], labels: [String?])
  /// `a..<b` or `a...b` over Int, iterated without being built.
  case range(lower: Int64, upper: Int64, closed: Bool)
  /// A case of an enum the input declares, with its raw value when it has one.
  case enumCase(type: String, name: String, raw: SwiftValue?)
  /// A Foundation `Date`: seconds since 1970 (UTC).
  case date(Double)
  /// A Foundation `UUID`, as its `uuidString` spells it (upper case); bound in lower case, as
  /// StructuredQueries binds it.
  case uuid(String)
  /// Foundation's `Data`: bytes, bound as a blob.
  case data([UInt8])
  /// Foundation's `URL`, as its `absoluteString` spells it; bound as that text.
  case url(String)
  /// A `String.Index`: the UTF-8 offset of a character boundary, as Swift's index of a native
  /// string encodes it (`"héllo".index(after: "héllo".startIndex)` is offset 1, the next 3).
  case stringIndex(Int64)
  /// `i..<j` or `i...j` of two `String.Index` values (UTF-8 offsets).
  case stringIndexRange(lower: Int64, upper: Int64, closed: Bool)
  /// An instance of a struct the input declares (``ValueTypeModel``): its stored properties in
  /// declaration order; `encodable` when the type is `Codable`.
  case structure(type: String, names: [String], values: [SwiftValue], encodable: Bool)

  /// The value without its optional wrapper(s); nil for `nil`.
  var unwrapped: SwiftValue? {
    switch self {
    case .none: return nil
    case .some(let inner): return inner.unwrapped
    default: return self
    }
  }

  /// A value the query holds exactly as it is: a scalar, an enum case, a date, an optional of
  /// one, or an array of them.
  var isPlain: Bool {
    switch self {
    case .none, .bool, .int, .fixedWidth, .double, .float, .string, .enumCase, .date, .uuid, .data, .url: return true
    case .some(let inner): return !inner.isOptional && inner.isPlain
    case .array(let elements): return elements.allSatisfy(\.isPlain)
    case .slice, .lazySequence, .dictionary, .unordered, .tuple, .range, .structure, .stringIndex, .stringIndexRange: return false
    }
  }

  /// An integer of any width (`Int`, `UInt8`, …).
  var integer: Int64? {
    switch self {
    case .int(let number), .fixedWidth(let number, _): number
    default: nil
    }
  }

  var isStructure: Bool {
    if case .structure = self { return true }
    return false
  }

  var isOptional: Bool {
    switch self {
    case .none, .some: return true
    default: return false
    }
  }

  /// The type's name as Swift spells it, for messages.
  var typeName: String {
    switch self {
    case .none: return "nil"
    case .some(let inner): return inner.typeName + "?"
    case .bool: return "Bool"
    case .int: return "Int"
    case .fixedWidth(_, let width): return width.name
    case .double: return "Double"
    case .float: return "Float"
    case .string: return "String"
    case .array(let elements): return "[" + (elements.first?.typeName ?? "Element") + "]"
    case .slice(let elements, _): return "ArraySlice<" + (elements.first?.typeName ?? "Element") + ">"
    case .lazySequence(let type, _): return type
    case .dictionary: return "Dictionary"
    case .unordered: return "Set"
    case .tuple(let parts, _): return "(" + parts.map(\.typeName).joined(separator: ", ") + ")"
    case .range(_, _, let closed): return closed ? "ClosedRange<Int>" : "Range<Int>"
    case .enumCase(let type, _, _): return type
    case .date: return "Date"
    case .uuid: return "UUID"
    case .data: return "Data"
    case .url: return "URL"
    case .stringIndex: return "String.Index"
    case .stringIndexRange(_, _, let closed): return closed ? "ClosedRange<String.Index>" : "Range<String.Index>"
    case .structure(let type, _, _, _): return type
    }
  }

  /// Whether a struct of the input is this value or inside it (an array of them, an optional one):
  /// such a value is stored as JSON, never element by element.
  var holdsStructure: Bool {
    switch self {
    case .structure: true
    case .some(let inner): inner.holdsStructure
    case .array(let elements), .slice(let elements, _), .lazySequence(_, let elements): elements.contains(where: \.holdsStructure)
    case .tuple(let parts, _): parts.contains(where: \.holdsStructure)
    case .dictionary(let entries): entries.values.contains(where: \.holdsStructure)
    default: false
    }
  }

  /// The elements of an ordered collection (an array, a range, a String's characters).
  func orderedElements(limit: Int) -> [SwiftValue]? {
    switch self {
    case .array(let elements), .slice(let elements, _), .lazySequence(_, let elements): return elements
    case .string(let text): return text.map { .string(String($0)) }
    case .range(let lower, let upper, let closed):
      guard let count = SwiftValue.rangeCount(lower, upper, closed), count <= limit else { return nil }
      return (0..<count).map { .int(lower + Int64($0)) }
    default: return nil
    }
  }

  /// How many numbers a range holds, if it is small enough to count in an Int.
  static func rangeCount(_ lower: Int64, _ upper: Int64, _ closed: Bool) -> Int? {
    let (span, overflow) = upper.subtractingReportingOverflow(lower)
    guard !overflow, span >= 0 else { return span < 0 && !overflow ? 0 : nil }
    let (count, overflow2) = span.addingReportingOverflow(closed ? 1 : 0)
    guard !overflow2 else { return nil }
    return Int(exactly: count)
  }

  /// An approximate size in bytes, for the evaluation budget.
  var size: Int {
    switch self {
    case .string(let text): return text.utf8.count
    case .array(let elements), .unordered(let elements), .slice(let elements, _), .lazySequence(_, let elements): return elements.count * 16
    case .dictionary(let entries): return entries.count * 32
    case .tuple(let parts, _): return parts.count * 16
    case .data(let bytes): return bytes.count
    case .structure(_, _, let values, _): return values.reduce(16) { $0 + $1.size }
    case .some(let inner): return inner.size
    default: return 8
    }
  }
}

// MARK: Descriptions

extension SwiftValue {
  /// What `String(describing:)` (and `description`) prints, as Swift prints it. `"\(value)"`
  /// is the same but for a NaN: interpolation writes its sign and kind (`-nan`, `snan`),
  /// `description` never does (`nan`).
  func describe(interpolated: Bool = false) throws(SwiftValueProblem) -> String {
    switch self {
    case .double(let number) where interpolated: return Self.printed(number)
    case .float(let number) where interpolated && number.isNaN:
      return (number.sign == .minus ? "-" : "") + (number.isSignalingNaN ? "snan" : "nan")
    case .float(let number): return String(number)
    case .none: return "nil"
    case .some(let inner): return "Optional(" + (try inner.debugDescribe()) + ")"
    case .bool(let flag): return flag ? "true" : "false"
    case .int(let number), .fixedWidth(let number, _): return String(number)
    case .double(let number): return String(number)
    case .string(let text): return text
    case .array(let elements), .slice(let elements, _):
      return "[" + (try elements.map { v throws(SwiftValueProblem) in try v.debugDescribe() }.joined(separator: ", ")) + "]"
    case .lazySequence(let type, _):
      throw SwiftValueProblem("prints a \(type), which Swift shows by its internals; wrap it in Array(…)")
    case .tuple(let parts, let labels):
      var pieces: [String] = []
      for (index, part) in parts.enumerated() {
        let label = index < labels.count ? labels[index].map { $0 + ": " } ?? "" : ""
        pieces.append(label + (try part.debugDescribe()))
      }
      return "(" + pieces.joined(separator: ", ") + ")"
    case .range(let lower, let upper, let closed): return "\(lower)\(closed ? "..." : "..<")\(upper)"
    case .enumCase(_, let name, _): return name
    case .uuid(let text), .url(let text): return text
    case .data(let bytes): return "\(bytes.count) bytes"
    case .stringIndex, .stringIndexRange:
      throw SwiftValueProblem("prints a \(typeName), which Swift shows by its internals; print a distance or a substring instead")
    case .structure(let type, let names, let values, _):
      // `Criteria(target: 3, note: nil)`: the type's own name, each property's debug form.
      guard !type.contains(".") else { throw SwiftValueProblem(Self.qualifiedByModule) }
      var pieces: [String] = []
      for (name, value) in zip(names, values) { pieces.append(name + ": " + (try value.debugDescribe())) }
      return type + "(" + pieces.joined(separator: ", ") + ")"
    case .date(let seconds):
      // Foundation prints a Date as `2026-01-01 00:00:00 +0000`.
      guard let text = DateFormatting.iso8601(secondsSince1970: seconds.rounded(.down)) else {
        throw SwiftValueProblem("prints a date outside the years 0000–9999")
      }
      return String(text.prefix(19)) + " +0000"
    case .dictionary(let entries):
      guard entries.count <= 1 else { throw SwiftValueProblem("prints a Dictionary, whose order Swift does not fix; sort its keys first") }
      guard let (key, value) = entries.first else { return "[:]" }
      return "[" + (try key.debugDescribe()) + ": " + (try value.debugDescribe()) + "]"
    case .unordered(let elements):
      guard elements.count <= 1 else { throw SwiftValueProblem("prints a Set, whose order Swift does not fix; sort it first") }
      return "[" + (try elements.map { v throws(SwiftValueProblem) in try v.debugDescribe() }.joined()) + "]"
    }
  }

  /// A Double as `print` and interpolation write it: a NaN with its sign and kind (`0 * .infinity`
  /// is `-nan` on this machine's hardware, as in the app), anything else as `description`.
  static func printed(_ number: Double) -> String {
    guard number.isNaN else { return String(number) }
    return (number.sign == .minus ? "-" : "") + (number.isSignalingNaN ? "snan" : "nan")
  }

  /// `debugDescription`: strings quoted with their escapes (inside arrays and optionals).
  func debugDescribe() throws(SwiftValueProblem) -> String {
    switch self {
    case .double(let number): return Self.printed(number)
    case .float(let number) where number.isNaN: return (number.sign == .minus ? "-" : "") + (number.isSignalingNaN ? "snan" : "nan")
    case .slice: return "ArraySlice(" + (try describe()) + ")"
    case .range(_, _, let closed): return (closed ? "ClosedRange(" : "Range(") + (try describe()) + ")"
    case .enumCase, .structure:
      // Inside a collection or an optional Swift prints the type with the app's module
      // (`[MyApp.Mood.happy]`), a name Quarry does not know.
      throw SwiftValueProblem(Self.qualifiedByModule)
    default: break
    }
    guard case .string(let text) = self else { return try describe() }
    return SwiftLiterals.quoted(text)
  }
}

extension SwiftValue {
  /// 8-4-4-4-12 hex digits, as `UUID(uuidString:)` accepts them (either case).
  static func isUUIDText(_ text: String) -> Bool {
    let utf8 = Array(text.utf8)
    guard utf8.count == 36 else { return false }
    for (index, byte) in utf8.enumerated() {
      if [8, 13, 18, 23].contains(index) {
        guard byte == UInt8(ascii: "-") else { return false }
      } else {
        guard (byte >= 48 && byte <= 57) || (byte >= 65 && byte <= 70) || (byte >= 97 && byte <= 102) else { return false }
      }
    }
    return true
  }

  static let qualifiedByModule =
    "prints a value of the input's own type inside a collection, an optional or a struct, which Swift names with the app's module (MyApp.Type.case); print its properties or rawValue instead"
}

/// A value that cannot be used as asked (the evaluator adds the place).
struct SwiftValueProblem: Error {
  var message: String
  init(_ message: String) { self.message = message }
}

// MARK: SQLite values

extension SwiftValue {
  /// A SQLite value as a Swift parameter of `type` sees it (`Bool` from 0/1, optionals wrapped).
  init(_ binding: QueryBinding, as type: SwiftType? = nil) {
    var value: SwiftValue
    switch binding {
    case .null, .parameter:
      self = .none
      return
    case .integer(let number):
      switch type?.name {
      case "Bool": value = .bool(number != 0)
      case "Double": value = .double(Double(number))
      case "Float": value = .float(Float(number))
      default:
        // A column or parameter of a narrower type holds its value in that type's width.
        if let width = type.flatMap({ IntegerWidth(named: $0.wrapped.name) }), number >= width.minimum, number <= width.maximum {
          value = .fixedWidth(number, width)
        } else {
          value = .int(number)
        }
      }
    case .double(let number): value = type?.wrapped.name == "Float" ? .float(Float(number)) : .double(number)
    case .text(let text) where type?.wrapped.name == "UUID" && SwiftValue.isUUIDText(text): value = .uuid(text.uppercased())
    case .text(let text):
      value = type?.isDate == true ? DateFormatting.seconds(fromISO8601: text).map(SwiftValue.date) ?? .string(text) : .string(text)
    case .blob(let bytes): value = type?.wrapped.name == "Data" ? .data(bytes) : .array(bytes.map { .fixedWidth(Int64($0), .uint8) })
    case .text(let text) where type?.wrapped.name == "URL": value = .url(text)
    }
    self = type?.isOptional == true ? .some(value) : value
  }

  /// Why this value cannot be the result of a function declared `-> type`, when the two are
  /// plainly different (nil for a non-optional `Int`, a `String` for an `Int`): swiftc refuses
  /// such a body, and SQLiteData would not decode what it stores. Nil when they fit, or when
  /// Quarry cannot tell (a type it does not model).
  func mismatch(with type: SwiftType) -> String? {
    if case .none = self {
      return type.isOptional ? nil : "is nil, but the function returns '\(type.name)', which is not optional"
    }
    if case .some(let inner) = self { return inner.mismatch(with: type.wrapped) }
    let integers: Set<String> = ["Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64"]
    let declared = type.wrapped.name
    let kind: String
    switch self {
    case .bool: kind = "Bool"
    case .int: kind = "Int"
    case .fixedWidth(_, let width):
      return declared == width.name ? nil : "is a \(width.name), but the function returns '\(declared)' (swiftc refuses this body)"
    case .double: kind = "Double"
    case .float: return declared == "Float" ? nil : "is a Float, but the function returns '\(declared)' (swiftc refuses this body)"
    case .string: kind = "String"
    default: return nil
    }
    let fits: Bool
    switch declared {
    case _ where integers.contains(declared): fits = kind == "Int"
    case "Double", "Float": fits = kind == "Double" || kind == "Int"
    case "Bool": fits = kind == "Bool"
    case "String": fits = kind == "String"
    default: return nil
    }
    return fits ? nil : "is a \(kind), but the function returns '\(declared)' (swiftc refuses this body)"
  }

  /// The SQLite value of a result of Swift type `type`.
  func binding(as type: SwiftType?) throws(SwiftValueProblem) -> QueryBinding {
    switch self {
    case .none: return .null
    case .some(let inner): return try inner.binding(as: type)
    case .bool(let flag): return .integer(flag ? 1 : 0)
    case .int(let number), .fixedWidth(let number, _): return type?.name == "Double" ? .double(Double(number)) : .integer(number)
    case .double(let number): return .double(number)
    case .float(let number): return .double(Double(number))
    case .string(let text): return .text(text)
    case .uuid(let text): return .text(text.lowercased())
    case .url(let text): return .text(text)
    case .data(let bytes): return .blob(bytes)
    case .enumCase(_, let name, let raw):
      guard let raw else { throw SwiftValueProblem("returns the case '\(name)', which has no raw value to store") }
      return try raw.binding(as: nil)
    case .date(let seconds):
      guard let stored = DateFormatting.stored(secondsSince1970: seconds, representation: type?.representation) else {
        throw SwiftValueProblem("is a date outside the years 0000–9999, which SQLite's date functions cannot store")
      }
      return stored
    case .stringIndex, .stringIndexRange:
      throw SwiftValueProblem("is a \(typeName), which has no SQLite value")
    case .array, .tuple, .range, .dictionary, .unordered, .slice, .lazySequence, .structure:
      // A collection or a Codable struct is stored as JSON text, as `JSONRepresentation`
      // stores it.
      return .text(try encodedJSON())
    }
  }

}

// MARK: Equality

/// Swift's own equality of values of one type; an integer equals an integer of another width with
/// the same value (Swift compares integers across widths by value, and a literal key or needle
/// must find a `UInt8` element).
extension SwiftValue: Hashable {
  static func == (lhs: SwiftValue, rhs: SwiftValue) -> Bool {
    switch (lhs, rhs) {
    case (.none, .none): return true
    case (.some(let a), .some(let b)): return a == b
    case (.bool(let a), .bool(let b)): return a == b
    case (.int(let a), .int(let b)), (.fixedWidth(let a, _), .fixedWidth(let b, _)), (.int(let a), .fixedWidth(let b, _)),
      (.fixedWidth(let a, _), .int(let b)):
      return a == b
    case (.double(let a), .double(let b)), (.date(let a), .date(let b)): return a == b
    case (.float(let a), .float(let b)): return a == b
    case (.string(let a), .string(let b)), (.uuid(let a), .uuid(let b)), (.url(let a), .url(let b)): return a == b
    case (.array(let a), .array(let b)), (.unordered(let a), .unordered(let b)): return a == b
    case (.slice(let a, let i), .slice(let b, let j)): return i == j && a == b
    case (.lazySequence(let s, let a), .lazySequence(let t, let b)): return s == t && a == b
    case (.dictionary(let a), .dictionary(let b)): return a == b
    case (.tuple(let a, let l), .tuple(let b, let m)): return l == m && a == b
    case (.range(let a, let b, let c), .range(let x, let y, let z)),
      (.stringIndexRange(let a, let b, let c), .stringIndexRange(let x, let y, let z)):
      return a == x && b == y && c == z
    case (.enumCase(let t, let n, let r), .enumCase(let u, let m, let q)): return t == u && n == m && r == q
    case (.data(let a), .data(let b)): return a == b
    case (.stringIndex(let a), .stringIndex(let b)): return a == b
    case (.structure(let t, let n, let v, let e), .structure(let u, let m, let w, let f)): return t == u && n == m && v == w && e == f
    default: return false
    }
  }

  func hash(into hasher: inout Hasher) {
    switch self {
    case .none: hasher.combine(0)
    case .some(let inner):
      hasher.combine(1)
      hasher.combine(inner)
    case .bool(let flag): hasher.combine(flag)
    case .int(let number), .fixedWidth(let number, _):
      hasher.combine(2)
      hasher.combine(number)
    case .double(let number), .date(let number): hasher.combine(number)
    case .float(let number): hasher.combine(number)
    case .string(let text), .uuid(let text), .url(let text): hasher.combine(text)
    case .array(let elements), .unordered(let elements), .slice(let elements, _), .lazySequence(_, let elements):
      hasher.combine(3)
      hasher.combine(elements)
    case .dictionary(let entries): hasher.combine(entries)
    case .tuple(let parts, _):
      hasher.combine(4)
      hasher.combine(parts)
    case .range(let lower, let upper, let closed), .stringIndexRange(let lower, let upper, let closed):
      hasher.combine(lower)
      hasher.combine(upper)
      hasher.combine(closed)
    case .enumCase(let type, let name, _):
      hasher.combine(type)
      hasher.combine(name)
    case .data(let bytes): hasher.combine(bytes)
    case .stringIndex(let offset):
      hasher.combine(5)
      hasher.combine(offset)
    case .structure(let type, _, let values, _):
      hasher.combine(type)
      hasher.combine(values)
    }
  }
}
