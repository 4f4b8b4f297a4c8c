import QueryBuilder
import SwiftSyntax

/// Foundation initializers a query uses: `Date(…)`, `UUID(…)`, `URL(…)`.
extension FunctionMethods {
  /// `Date()` (now), `Date(timeIntervalSince1970: 0)`, `Date(timeIntervalSinceReferenceDate: 0)`:
  /// a fixed date is a value in StructuredQueries' default text form.
  ///
  /// ```swift
  /// Date(timeIntervalSinceReferenceDate: 0)  // '2001-01-01 00:00:00.000'
  /// ```
  func dateInitializer(_ arguments: Arguments) throws -> Value? {
    if arguments.list.isEmpty { return compiler.currentDate() }
    guard arguments.list.count == 1, let argument = arguments.list.first,
      let label = argument.label, ["timeIntervalSince1970", "timeIntervalSinceReferenceDate"].contains(label)
    else { return nil }
    let seconds: Double
    if let value = compiler.knownNumber(argument.expression) {
      seconds = value
    } else {
      throw compiler.source.diagnostic("'Date(\(label):)' needs a number of seconds", at: argument.expression)
    }
    let since1970 = seconds + (label == "timeIntervalSinceReferenceDate" ? 978_307_200 : 0)
    guard let text = DateFormatting.iso8601(secondsSince1970: since1970) else {
      throw compiler.source.diagnostic("this date is outside the years 0000–9999 that SQLite's dates can hold", at: argument.expression)
    }
    return .expression(TypedExpression(.value(.text(text)), type: .date))
  }

  /// `UUID(1)` (StructuredQueries' test shorthand), `UUID(uuidString: "…")!`, `UUID()`: a UUID as
  /// lowercase text.
  ///
  /// ```swift
  /// UUID(1)  // '00000000-0000-0000-0000-000000000001'
  /// ```
  func uuidInitializer(_ arguments: Arguments) throws -> Value? {
    func text(_ uuid: String) -> Value { .expression(TypedExpression(.value(.text(uuid.lowercased())), type: SwiftType("UUID"))) }
    if arguments.list.isEmpty {
      // In a scan, the UUID the app makes when it runs, bound as StructuredQueries binds it.
      if compiler.scanning { return .runTime("UUID()", type: SwiftType("UUID")) }
      return text(Self.randomUUIDText())
    }
    guard arguments.list.count == 1, let argument = arguments.list.first else { return nil }
    if argument.label == nil, let number = compiler.knownInteger(argument.expression), number >= 0 {
      let hex = String(number, radix: 16)
      return text(Self.hyphenatedUUID(String(repeating: "0", count: max(0, 32 - hex.count)) + hex))
    }
    if argument.label == "uuidString", let literal = argument.expression.as(StringLiteralExprSyntax.self) {
      let given = literal.segments.trimmedDescription
      let digits = given.filter { $0 != "-" }
      guard given.count == 36, digits.count == 32, digits.allSatisfy(\.isHexDigit),
        Self.hyphenatedUUID(digits).lowercased() == given.lowercased()
      else {
        throw compiler.source.diagnostic("not a UUID: \(literal.trimmedDescription)", at: literal)
      }
      return text(given)
    }
    return nil
  }

  /// 32 hex digits as 8-4-4-4-12.
  /// A random (version 4) UUID, as `UUID()` makes one each time it runs, as text in lower case.
  static func randomUUIDText() -> String {
    var bytes = (0..<16).map { _ in UInt8.random(in: 0...255) }
    bytes[6] = (bytes[6] & 0x0F) | 0x40
    bytes[8] = (bytes[8] & 0x3F) | 0x80
    let hex = bytes.map { String($0 >> 4, radix: 16) + String($0 & 0x0F, radix: 16) }.joined()
    return hyphenatedUUID(hex).lowercased()
  }

  static func hyphenatedUUID(_ digits: String) -> String {
    var out = ""
    for (index, character) in digits.suffix(32).enumerated() {
      if [8, 12, 16, 20].contains(index) { out.append("-") }
      out.append(character)
    }
    return out
  }
}
