/// Refuses input whose `[` brackets nest deeper than swift-syntax can parse quickly, before it
/// is parsed: the parser's lookahead for `[` is exponential in the nesting (24 levels took
/// 101 s), so a located error stands in for a hang.
///
/// ```swift
/// try NestingGuard.check("[[[[[[[[[[[[[[1]]]]]]]]]]]]]")
/// // error: 1:13: '[' nests more than 12 levels deep here; …
/// ```
enum NestingGuard {
  static let maximumSquareBrackets = 12
  /// Any bracket: deeper than this is nothing a person writes, and the parser's stack ends.
  static let maximumBrackets = 200

  /// What the scanner is inside: a bracket, a string, or an interpolation `\(…)` in a string
  /// (code again, whose `)` returns to the string).
  private enum Frame: Equatable {
    case bracket(UInt8)
    case string(multiLine: Bool)
    case interpolation
  }

  static func check(_ text: String) throws(Diagnostic) {
    var stack: [Frame] = []
    var squares = 0
    var brackets = 0
    var line = 1
    var lineStart = 0
    let bytes = Array(text.utf8)
    var index = 0
    func fail(_ message: String) -> Diagnostic {
      let before = String(decoding: bytes[lineStart..<min(index, bytes.count)], as: UTF8.self)
      return Diagnostic(message, line: line, column: before.count + 1)
    }
    func byte(_ offset: Int) -> UInt8? { index + offset < bytes.count ? bytes[index + offset] : nil }
    while index < bytes.count {
      let current = bytes[index]
      if current == UInt8(ascii: "\n") {
        line += 1
        lineStart = index + 1
      }
      if case .string(let multiLine)? = stack.last {
        switch current {
        case UInt8(ascii: "\\"):
          if byte(1) == UInt8(ascii: "(") {
            stack.append(.interpolation)
            brackets += 1
          }
          index += 2
          continue
        case UInt8(ascii: "\""):
          if !multiLine {
            stack.removeLast()
          } else if byte(1) == UInt8(ascii: "\""), byte(2) == UInt8(ascii: "\"") {
            stack.removeLast()
            index += 2
          }
        case UInt8(ascii: "\n") where !multiLine:
          stack.removeLast()  // an unterminated string ends with its line
        default:
          break
        }
        index += 1
        continue
      }
      switch current {
      case UInt8(ascii: "/") where byte(1) == UInt8(ascii: "/"):
        while index + 1 < bytes.count, bytes[index + 1] != UInt8(ascii: "\n") { index += 1 }
      case UInt8(ascii: "/") where byte(1) == UInt8(ascii: "*"):
        index += 1
        while index + 1 < bytes.count, !(bytes[index] == UInt8(ascii: "*") && bytes[index + 1] == UInt8(ascii: "/")) {
          index += 1
          if bytes[index] == UInt8(ascii: "\n") {
            line += 1
            lineStart = index + 1
          }
        }
        index += 1
      case UInt8(ascii: "\""):
        let multiLine = byte(1) == UInt8(ascii: "\"") && byte(2) == UInt8(ascii: "\"")
        stack.append(.string(multiLine: multiLine))
        if multiLine { index += 2 }
      case UInt8(ascii: "["), UInt8(ascii: "("), UInt8(ascii: "{"):
        stack.append(.bracket(current))
        brackets += 1
        if current == UInt8(ascii: "[") {
          squares += 1
          if squares > maximumSquareBrackets {
            throw fail("'[' nests more than \(maximumSquareBrackets) levels deep here; Swift's parser would take minutes on it: flatten the literal or split the input")
          }
        }
        if brackets > maximumBrackets {
          throw fail("brackets nest more than \(maximumBrackets) levels deep here; split the input")
        }
      case UInt8(ascii: "]"), UInt8(ascii: ")"), UInt8(ascii: "}"):
        switch stack.last {
        case .bracket(let open)?:
          stack.removeLast()
          brackets -= 1
          if open == UInt8(ascii: "[") { squares -= 1 }
        case .interpolation?:
          stack.removeLast()  // back inside the string
          brackets -= 1
        default:
          break
        }
      default:
        break
      }
      index += 1
    }
  }
}
