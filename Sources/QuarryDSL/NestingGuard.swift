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

  static func check(_ text: String) throws(Diagnostic) {
    var stack: [UInt8] = []
    var squares = 0
    var line = 1
    var lineStart = 0
    let bytes = Array(text.utf8)
    var index = 0
    func fail(_ message: String) -> Diagnostic {
      let before = String(decoding: bytes[lineStart..<index], as: UTF8.self)
      return Diagnostic(message, line: line, column: before.count + 1)
    }
    while index < bytes.count {
      let byte = bytes[index]
      switch byte {
      case UInt8(ascii: "\n"):
        line += 1
        lineStart = index + 1
      case UInt8(ascii: "/") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "/"):
        while index + 1 < bytes.count, bytes[index + 1] != UInt8(ascii: "\n") { index += 1 }
      case UInt8(ascii: "/") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "*"):
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
        // Skip the string (one-line or multi-line); escapes never end it.
        let multiLine = index + 2 < bytes.count && bytes[index + 1] == UInt8(ascii: "\"") && bytes[index + 2] == UInt8(ascii: "\"")
        index += multiLine ? 3 : 1
        while index < bytes.count {
          let current = bytes[index]
          if current == UInt8(ascii: "\\") { index += 2; continue }
          if current == UInt8(ascii: "\n") {
            if !multiLine { break }
            line += 1
            lineStart = index + 1
          }
          if current == UInt8(ascii: "\"") {
            if !multiLine { break }
            if index + 2 < bytes.count, bytes[index + 1] == UInt8(ascii: "\""), bytes[index + 2] == UInt8(ascii: "\"") {
              index += 2
              break
            }
          }
          index += 1
        }
      case UInt8(ascii: "["), UInt8(ascii: "("), UInt8(ascii: "{"):
        stack.append(byte)
        if byte == UInt8(ascii: "[") {
          squares += 1
          if squares > maximumSquareBrackets {
            throw fail("'[' nests more than \(maximumSquareBrackets) levels deep here; Swift's parser would take minutes on it: flatten the literal or split the input")
          }
        }
        if stack.count > maximumBrackets {
          throw fail("brackets nest more than \(maximumBrackets) levels deep here; split the input")
        }
      case UInt8(ascii: "]"), UInt8(ascii: ")"), UInt8(ascii: "}"):
        if let last = stack.popLast(), last == UInt8(ascii: "[") { squares -= 1 }
      default:
        break
      }
      index += 1
    }
  }
}
