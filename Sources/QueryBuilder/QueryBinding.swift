/// A value bound to a statement parameter.
///
/// Executed statements carry values as bindings (`?`); the SQL Quarry *shows* inlines them the
/// way StructuredQueries' debug output does:
///
/// ```swift
/// QueryBinding.text("it's").inlineSQL  // 'it''s'
/// QueryBinding.integer(1).inlineSQL    // 1
/// ```
public enum QueryBinding: Hashable, Sendable {
  case null
  case integer(Int64)
  case double(Double)
  case text(String)
  case blob([UInt8])
  /// A value the app supplies when it runs, named by its Swift source (`listID`,
  /// `reminder.id`): what `quarry scan` binds where a query uses a parameter or a property.
  /// Shown as `?`; it binds NULL when the statement is prepared to read its plan.
  case parameter(String)

  /// The literal SQL text for this value.
  public var inlineSQL: String {
    switch self {
    case .parameter: return "?"
    case .null: return "NULL"
    case .integer(let value): return String(value)
    case .double(let value): return Self.format(value)
    case .text(let value): return quoteText(value)
    case .blob(let bytes): return "X'" + hex(bytes).uppercased() + "'"
    }
  }

  /// Swift's shortest round-tripping spelling (`10.0`, `0.5`), which is also valid SQL.
  static func format(_ value: Double) -> String {
    if value.isNaN { return "NULL" }
    if value.isInfinite { return value > 0 ? "9e999" : "-9e999" }
    return "\(value)"
  }
}

/// Quotes text as an SQL string literal: `'it''s'`.
public func quoteText(_ text: String) -> String {
  "'" + text.replacingAll("'", with: "''") + "'"
}

/// Quotes an identifier: `"reminders"`.
public func quoteIdentifier(_ name: String) -> String {
  guard name.utf8.contains(0x22) else { return "\"\(name)\"" }
  return "\"" + name.replacingAll("\"", with: "\"\"") + "\""
}

/// Separates a schema from a table name in one qualifier (`main` + `reminders`).
public let schemaSeparator: Character = "\u{1F}"

/// A table name with its schema, as one qualifier: `qualified("reminders", schema: "main")`.
public func qualified(_ name: String, schema: String?) -> String {
  guard let schema else { return name }
  return schema + String(schemaSeparator) + name
}

/// Quotes a possibly schema-qualified name: `"main"."reminders"`.
public func quoteQualified(_ name: String) -> String {
  guard name.utf8.contains(0x1F) else { return quoteIdentifier(name) }
  return name.split(separator: schemaSeparator, omittingEmptySubsequences: false)
    .map { quoteIdentifier(String($0)) }.joined(separator: ".")
}

/// A JSON string literal: quotes, backslashes and control characters escaped; with
/// `escapingSlashes`, `/` too, as Foundation's JSON encoder writes it.
///
/// ```swift
/// jsonStringLiteral("a\"b")  // "a\"b" (with its quotes)
/// ```
public func jsonStringLiteral(_ text: String, escapingSlashes: Bool = false) -> String {
  var length = 0
  writeJSONStringLiteral(text, escapingSlashes: escapingSlashes) { length += $0.count }
  return String(unsafeUninitializedCapacity: length) { out in
    var written = 0
    writeJSONStringLiteral(text, escapingSlashes: escapingSlashes) { piece in
      guard let base = piece.baseAddress, let target = out.baseAddress else { return }
      (target + written).update(from: base, count: piece.count)
      written += piece.count
    }
    return written
  }
}

/// The same literal given to `write` in pieces, in order, never assembled: a 100 MB value is
/// escaped straight into an output buffer. Only ASCII bytes are ever escaped, so the runs
/// between them are passed whole.
public func writeJSONStringLiteral(
  _ text: String, escapingSlashes: Bool = false, _ write: (UnsafeBufferPointer<UInt8>) -> Void
) {
  func put(_ literal: StaticString) {
    write(UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
  }
  var text = text
  text.withUTF8 { bytes in
    put("\"")
    var run = 0
    for index in 0..<bytes.count {
      let byte = bytes[index]
      guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || (escapingSlashes && byte == UInt8(ascii: "/"))
      else { continue }
      if run < index { write(UnsafeBufferPointer(rebasing: bytes[run..<index])) }
      run = index + 1
      switch byte {
      case UInt8(ascii: "\""): put("\\\"")
      case UInt8(ascii: "\\"): put("\\\\")
      case UInt8(ascii: "\n"): put("\\n")
      case UInt8(ascii: "\r"): put("\\r")
      case UInt8(ascii: "\t"): put("\\t")
      case UInt8(ascii: "/"): put("\\/")
      default:
        let digits: StaticString = "0123456789abcdef"
        let escape = [
          UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
          digits.utf8Start[Int(byte >> 4)], digits.utf8Start[Int(byte & 0x0F)],
        ]
        escape.withUnsafeBufferPointer { write($0) }
      }
    }
    if run < bytes.count { write(UnsafeBufferPointer(rebasing: bytes[run...])) }
    put("\"")
  }
}

/// Lowercase hexadecimal digits of some bytes.
public func hex(_ bytes: [UInt8]) -> String {
  let digits = Array("0123456789abcdef".utf8)
  var out = [UInt8]()
  out.reserveCapacity(bytes.count * 2)
  for byte in bytes {
    out.append(digits[Int(byte >> 4)])
    out.append(digits[Int(byte & 0x0f)])
  }
  return String(decoding: out, as: UTF8.self)
}

extension String {
  /// Replaces every occurrence of `target` (Foundation-free, for the pure builder module).
  func replacingAll(_ target: Character, with replacement: String) -> String {
    guard contains(target) else { return self }
    var out = ""
    out.reserveCapacity(count + 2)
    for character in self {
      if character == target { out += replacement } else { out.append(character) }
    }
    return out
  }
}
