/// A place in a text as people count it: 1-based line, and column in characters (not UTF-8
/// bytes), so a caret lines up after non-ASCII text.
///
/// ```swift
/// SourceLocation(byteOffset: 9, in: "SELECT 'é' FRM t").column  // 9: 'é' is two bytes, one character
/// ```
public struct SourceLocation: Sendable, Equatable {
  public var line: Int
  public var column: Int
  /// The line the place is on, with a caret under it.
  public var excerpt: String

  public init(byteOffset: Int, in text: String) {
    let bytes = Array(text.utf8)
    let offset = min(max(0, byteOffset), bytes.count)
    var line = 1
    var lineStart = 0
    for index in 0..<offset where bytes[index] == UInt8(ascii: "\n") {
      line += 1
      lineStart = index + 1
    }
    var lineEnd = offset
    while lineEnd < bytes.count, bytes[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
    let before = String(decoding: bytes[lineStart..<offset], as: UTF8.self)
    let lineText = String(decoding: bytes[lineStart..<lineEnd], as: UTF8.self)
    self.line = line
    self.column = before.count + 1
    let indent = String(before.map { $0 == "\t" ? "\t" : " " })
    self.excerpt = lineText + "\n" + indent + "^"
  }
}
