/// A piece of the input short enough for a one-line message: its first line, at most 40
/// characters (`t.title = Naming.next(t.title, in: …`).
func messageExcerpt(_ text: String) -> String {
  var text = text
  if let newline = text.firstIndex(of: "\n") { text = String(text[..<newline]) + " …" }
  return text.count > 40 ? String(text.prefix(39)) + "…" : text
}

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
    self.excerpt = ExcerptLine(lineText, column: column).underlined(length: 1, keepingTabs: true)
  }
}

/// A source line as an excerpt shows it: whole when short; around the place when long (a
/// 100 MB line is not echoed), cut with `…` on the sides.
///
/// ```swift
/// ExcerptLine(String(repeating: "a", count: 5000) + " FRM t", column: 5002).text  // "…aaa…a FRM t"
/// ```
public struct ExcerptLine {
  /// The text shown.
  public var text: String
  /// The part of `text` before the place (its width places the caret).
  public var before: Substring

  /// Lines up to this many characters are shown whole; longer ones as a window this wide.
  static let longest = 1000
  static let window = 240

  public init(_ line: String, column: Int) {
    guard line.utf8.count > Self.longest else {
      text = line
      before = line.prefix(max(0, column - 1))
      return
    }
    // Characters are walked only as far as the window needs: the line may be 100 MB.
    let place = line.index(line.startIndex, offsetBy: max(0, column - 1), limitedBy: line.endIndex) ?? line.endIndex
    guard line.index(line.startIndex, offsetBy: Self.longest, limitedBy: line.endIndex).map({ $0 < line.endIndex }) == true else {
      text = line
      before = line[..<place]
      return
    }
    var start = line.index(place, offsetBy: -(Self.window / 2), limitedBy: line.startIndex) ?? line.startIndex
    var end = line.index(start, offsetBy: Self.window, limitedBy: line.endIndex) ?? line.endIndex
    if end == line.endIndex {
      // Near the end: the window is the line's last characters.
      start = line.index(line.endIndex, offsetBy: -Self.window, limitedBy: line.startIndex) ?? line.startIndex
      end = line.endIndex
    }
    let head = start > line.startIndex ? "…" : ""
    text = head + String(line[start..<end]) + (end < line.endIndex ? "…" : "")
    before = Substring(head + String(line[start..<place]))
  }

  /// The line, and under it a caret at the place with `~` along `length` characters (at most to
  /// the end of the line); with `keepingTabs`, a tab before the place stays a tab.
  public func underlined(length: Int, keepingTabs: Bool = false) -> String {
    let indent = String(before.map { keepingTabs && $0 == "\t" ? "\t" : " " })
    let width = max(1, min(length, text.count - before.count))
    return text + "\n" + indent + "^" + String(repeating: "~", count: width - 1)
  }
}
