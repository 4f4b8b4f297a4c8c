@_spi(Compiler) import SwiftParser
import SwiftSyntax

/// Swift's literals, decoded once for every reader (query closures, app code, function bodies):
/// integers in any radix with `_`, floats (hex too), and strings with every escape Swift has
/// (`\u{2713}`, `\0`, `\"`), raw strings and multi-line strings with their indentation removed.
///
/// ```swift
/// SwiftLiterals.string(of: "\"\\u{2713} done\"")   // "✓ done"
/// SwiftLiterals.integer(0xF_F)                     // 255
/// ```
public enum SwiftLiterals {
  /// `text` as Swift prints a string's `debugDescription`, which is also a Swift string literal
  /// of it: `quoted("a \"b\"\n")` is `"a \"b\"\n"`.
  public static func quoted(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case "\0": out += "\\0"
      default:
        if scalar.value < 0x20 || scalar.value == 0x7F {
          out += "\\u{" + String(scalar.value, radix: 16) + "}"
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    return out + "\""
  }

  enum Problem: Error {
    /// The literal does not fit the type (`9223372036854775808` as an Int).
    case overflow(String)
    /// The literal is malformed (the parser already reported it).
    case malformed
  }

  /// An integer literal's value; `negated` for `-9223372036854775808`, which Swift reads as one
  /// literal.
  static func integer(_ literal: IntegerLiteralExprSyntax, negated: Bool = false) throws(Problem) -> Int64 {
    guard !literal.hasError else { throw .malformed }
    let text = literal.literal.text
    let radix: Int
    var digits = Substring(text)
    if text.hasPrefix("0x") {
      radix = 16
      digits = digits.dropFirst(2)
    } else if text.hasPrefix("0o") {
      radix = 8
      digits = digits.dropFirst(2)
    } else if text.hasPrefix("0b") {
      radix = 2
      digits = digits.dropFirst(2)
    } else {
      radix = 10
    }
    let clean = String(digits.filter { $0 != "_" })
    guard let magnitude = UInt64(clean, radix: radix) else {
      if clean.allSatisfy({ $0.isHexDigit }) && !clean.isEmpty {
        throw .overflow("integer literal '\(negated ? "-" : "")\(text)' overflows when stored into 'Int'")
      }
      throw .malformed
    }
    if negated {
      guard magnitude <= UInt64(Int64.max) + 1 else {
        throw .overflow("integer literal '-\(text)' overflows when stored into 'Int'")
      }
      return magnitude == UInt64(Int64.max) + 1 ? .min : -Int64(magnitude)
    }
    guard magnitude <= UInt64(Int64.max) else {
      throw .overflow("integer literal '\(text)' overflows when stored into 'Int'")
    }
    return Int64(magnitude)
  }

  /// A float literal's value (`1_000.5`, `1e-3`, `0x1p4`).
  static func float(_ literal: FloatLiteralExprSyntax) throws(Problem) -> Double {
    guard !literal.hasError, let value = Double(literal.literal.text.filter({ $0 != "_" })) else { throw .malformed }
    return value
  }

  /// The text of one literal segment of a string, its escapes resolved.
  static func text(of segment: StringSegmentSyntax, in literal: StringLiteralExprSyntax) throws(Problem) -> String {
    guard !segment.hasError, !literal.hasError, let kind = literal.stringLiteralKind else { throw .malformed }
    var out = ""
    segment.appendUnescapedLiteralValue(stringLiteralKind: kind, delimiterLength: literal.delimiterLength, to: &out)
    return out
  }

  /// A string literal without interpolations, its escapes resolved (nil when it interpolates).
  static func string(_ literal: StringLiteralExprSyntax) throws(Problem) -> String? {
    var out = ""
    for segment in literal.segments {
      guard case .stringSegment(let part) = segment else { return nil }
      out += try text(of: part, in: literal)
    }
    return out
  }
}
