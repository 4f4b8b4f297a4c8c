import QueryBuilder

/// The JSON text StructuredQueries' encoder writes for a value it stores as
/// `JSONRepresentation`: Foundation's `JSONEncoder` with `[.prettyPrinted, .sortedKeys]` (the
/// library's debug build, which Quarry models as it models `#if DEBUG`) and dates as the
/// library's ISO 8601 text. Synthesized `Codable` is followed: a struct is an object of its
/// stored properties (a `nil` optional left out), an enum case its raw value, a `Range` the pair
/// `[lower, upper]`; what Swift cannot encode in a fixed order (a Set) is refused.
///
/// ```swift
/// struct Criteria: Codable { var target: Int; var tags: [String] }
/// Criteria(target: 3, tags: ["a"])   // {⏎  "tags" : [⏎    "a"⏎  ],⏎  "target" : 3⏎}
/// ```
extension SwiftValue {
  func encodedJSON() throws(SwiftValueProblem) -> String {
    var out = ""
    try encodeJSON(into: &out, indent: 0)
    return out
  }

  private func encodeJSON(into out: inout String, indent: Int) throws(SwiftValueProblem) {
    switch self {
    case .none: out += "null"
    case .some(let inner): try inner.encodeJSON(into: &out, indent: indent)
    case .bool(let flag): out += flag ? "true" : "false"
    case .int(let number), .fixedWidth(let number, _): out += String(number)
    case .double(let number): out += try Self.jsonNumber(number)
    case .float: throw SwiftValueProblem("encodes a Float, whose JSON digits Quarry does not model; store a Double")
    case .string(let text), .uuid(let text), .url(let text): out += jsonStringLiteral(text, escapingSlashes: true)
    case .data(let bytes): out += "\"" + Self.base64(bytes) + "\""
    case .stringIndex, .stringIndexRange: throw SwiftValueProblem("encodes a \(typeName), which is not Codable")
    case .enumCase(let type, let name, let raw):
      guard let raw else {
        throw SwiftValueProblem(
          "encodes the case '\(type).\(name)', which has no raw value; Codable writes it as an object Quarry does not model"
        )
      }
      try raw.encodeJSON(into: &out, indent: indent)
    case .date(let seconds):
      guard let text = DateFormatting.iso8601(secondsSince1970: seconds) else {
        throw SwiftValueProblem("encodes a date outside the years 0000–9999")
      }
      out += jsonStringLiteral(text, escapingSlashes: true)
    case .array(let elements), .slice(let elements, _):
      try Self.encodeArray(elements, into: &out, indent: indent)
    case .range(let lower, let upper, _):
      // `Range` and `ClosedRange` are Codable as their bounds.
      try Self.encodeArray([.int(lower), .int(upper)], into: &out, indent: indent)
    case .dictionary(let entries):
      var members: [(key: String, value: SwiftValue)] = []
      for (key, value) in entries {
        switch key {
        case .string(let text): members.append((text, value))
        case .int(let number): members.append((String(number), value))
        default:
          throw SwiftValueProblem(
            "encodes a Dictionary with \(key.typeName) keys, which JSONEncoder writes as a list of pairs Quarry does not model"
          )
        }
      }
      try Self.encodeObject(
        members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }, into: &out,
        indent: indent)
    case .structure(let type, let names, let values, let encodable):
      guard encodable else { throw SwiftValueProblem("encodes a '\(type)', which is not Codable") }
      var members: [(key: String, value: SwiftValue)] = []
      for (name, value) in zip(names, values) where value != .none { members.append((name, value)) }
      try Self.encodeObject(
        members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }, into: &out,
        indent: indent)
    case .unordered:
      throw SwiftValueProblem(
        "encodes a Set, whose order Swift does not fix; sort it into an array first")
    case .tuple:
      throw SwiftValueProblem("encodes a tuple, which is not Codable")
    case .lazySequence(let type, _):
      throw SwiftValueProblem("encodes a \(type), which is not Codable; wrap it in Array(…)")
    }
  }

  /// A Double as Foundation's encoder writes it: Swift's shortest form, without a trailing
  /// `.0` (`1.0` → `1`, `1e20` → `1e+20`).
  static func jsonNumber(_ number: Double) throws(SwiftValueProblem) -> String {
    guard number.isFinite else {
      throw SwiftValueProblem(
        "encodes \(number) as JSON, which has no such number (the app's encoder throws)")
    }
    let text = number.description
    return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
  }

  /// Base64 with padding, as `Data`'s Codable conformance writes it.
  static func base64(_ bytes: [UInt8]) -> String {
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
    var out = ""
    var index = 0
    while index < bytes.count {
      let chunk = bytes[index..<min(index + 3, bytes.count)]
      let b0 = Int(chunk[chunk.startIndex])
      let b1 = chunk.count > 1 ? Int(chunk[chunk.startIndex + 1]) : 0
      let b2 = chunk.count > 2 ? Int(chunk[chunk.startIndex + 2]) : 0
      out.append(alphabet[b0 >> 2])
      out.append(alphabet[(b0 & 0x03) << 4 | b1 >> 4])
      out.append(chunk.count > 1 ? alphabet[(b1 & 0x0F) << 2 | b2 >> 6] : "=")
      out.append(chunk.count > 2 ? alphabet[b2 & 0x3F] : "=")
      index += 3
    }
    return out
  }

  private static func encodeArray(_ elements: [SwiftValue], into out: inout String, indent: Int)
    throws(SwiftValueProblem)
  {
    guard !elements.isEmpty else {
      out += "[\n\n" + String(repeating: " ", count: indent) + "]"
      return
    }
    out += "[\n"
    for (index, element) in elements.enumerated() {
      out += String(repeating: " ", count: indent + 2)
      try element.encodeJSON(into: &out, indent: indent + 2)
      out += index == elements.count - 1 ? "\n" : ",\n"
    }
    out += String(repeating: " ", count: indent) + "]"
  }

  private static func encodeObject(
    _ members: [(key: String, value: SwiftValue)], into out: inout String, indent: Int
  ) throws(SwiftValueProblem) {
    guard !members.isEmpty else {
      out += "{\n\n" + String(repeating: " ", count: indent) + "}"
      return
    }
    out += "{\n"
    for (index, member) in members.enumerated() {
      out +=
        String(repeating: " ", count: indent + 2)
        + jsonStringLiteral(member.key, escapingSlashes: true) + " : "
      try member.value.encodeJSON(into: &out, indent: indent + 2)
      out += index == members.count - 1 ? "\n" : ",\n"
    }
    out += String(repeating: " ", count: indent) + "}"
  }
}
