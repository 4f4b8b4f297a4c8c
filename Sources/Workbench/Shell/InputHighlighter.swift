import QuarryEngine
import SwiftParser
import SwiftSyntax

/// Colour for the line being typed at the prompt, read as Quarry will read it: a meta-command,
/// plain SQL (its keywords as SQLite knows them) or the Swift DSL (tokens from swift-syntax's
/// parser). Only escape sequences are added: every visible character stays where it was.
///
/// ```swift
/// InputHighlighter.highlight("SELECT 'a' -- note")
/// // "\e[1;34mSELECT\e[0m \e[32m'a'\e[0m \e[2m-- note\e[0m"
/// ```
public enum InputHighlighter {
  /// What a span of input is drawn as.
  enum Style: String {
    case keyword = "1;34"
    case string = "32"
    case number = "33"
    case identifier = "36"
    case comment = "2"
    case variable = "35"
    case command = "1"
  }

  struct Span: Equatable {
    var start: Int
    var end: Int
    var style: Style
  }

  /// `line` coloured, read after `context` (the input's earlier lines, at `...>`).
  public static func highlight(_ line: String, after context: String = "") -> String {
    let text = context + line
    let offset = context.utf8.count
    let spans = Self.spans(of: text, isFirstLine: context.isEmpty)
    return paint(Array(line.utf8), from: offset, spans: spans)
  }

  static func spans(of text: String, isFirstLine: Bool) -> [Span] {
    let trimmed = text.drop { $0 == " " }
    if isFirstLine, trimmed.hasPrefix(".") {
      let start = text.utf8.count - trimmed.utf8.count
      let word = trimmed.prefix { !$0.isWhitespace }
      return [Span(start: start, end: start + word.utf8.count, style: .command)]
    }
    return SQLDetector.startsWithSQLKeyword(text) ? sqlSpans(Array(text.utf8), isKeyword: SQLiteKeywords.contains) : swiftSpans(text)
  }

  /// The bytes from `offset` on, each span's part of them wrapped in its colour.
  static func paint(_ bytes: [UInt8], from offset: Int, spans: [Span]) -> String {
    var out: [UInt8] = []
    var position = 0
    for span in spans {
      let start = max(span.start - offset, position)
      let end = min(span.end - offset, bytes.count)
      guard start < end else { continue }
      out += bytes[position..<start]
      out += Array("\u{1B}[\(span.style.rawValue)m".utf8) + bytes[start..<end] + Array("\u{1B}[0m".utf8)
      position = end
    }
    out += bytes[min(position, bytes.count)...]
    return String(decoding: out, as: UTF8.self)
  }

  // MARK: SQL

  /// SQL's tokens: comments, strings, quoted names, numbers, parameters, and the words
  /// `isKeyword` takes where SQLite reads them as keywords (`SQLKeywordPosition`: `key` in
  /// `SELECT key FROM settings` is a column).
  static func sqlSpans(_ bytes: [UInt8], isKeyword: (String) -> Bool) -> [Span] {
    var spans: [Span] = []
    // Every token but comments, for the keyword positions; and where each word is.
    var tokens: [SQLKeywordPosition.Token] = []
    var words: [(token: Int, start: Int, end: Int)] = []
    var index = 0
    func scan(while condition: (UInt8) -> Bool) { while index < bytes.count, condition(bytes[index]) { index += 1 } }
    func isWordByte(_ byte: UInt8) -> Bool {
      byte == UInt8(ascii: "_") || byte == UInt8(ascii: "$") || byte >= 0x80
        || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
    while index < bytes.count {
      let start = index
      let byte = bytes[index]
      let next = index + 1 < bytes.count ? bytes[index + 1] : 0
      switch byte {
      case UInt8(ascii: "-") where next == UInt8(ascii: "-"):
        scan { $0 != UInt8(ascii: "\n") }
        spans.append(Span(start: start, end: index, style: .comment))
      case UInt8(ascii: "/") where next == UInt8(ascii: "*"):
        index += 2
        while index < bytes.count, !(bytes[index] == UInt8(ascii: "*") && index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "/"))
        { index += 1 }
        index = min(index + 2, bytes.count)
        spans.append(Span(start: start, end: index, style: .comment))
      case UInt8(ascii: "'"), UInt8(ascii: "\""), UInt8(ascii: "`"), UInt8(ascii: "["):
        let close = byte == UInt8(ascii: "[") ? UInt8(ascii: "]") : byte
        index += 1
        while index < bytes.count {
          if bytes[index] == close {
            // A doubled quote is one quote inside the literal.
            if close != UInt8(ascii: "]"), index + 1 < bytes.count, bytes[index + 1] == close {
              index += 2
              continue
            }
            index += 1
            break
          }
          index += 1
        }
        spans.append(Span(start: start, end: index, style: byte == UInt8(ascii: "'") ? .string : .identifier))
        tokens.append(nil)
      case UInt8(ascii: "0")...UInt8(ascii: "9"):
        scan { isWordByte($0) || $0 == UInt8(ascii: ".") }
        spans.append(Span(start: start, end: index, style: .number))
        tokens.append(nil)
      case UInt8(ascii: "?"), UInt8(ascii: ":"),
        UInt8(ascii: "@") where isWordByte(next):
        index += 1
        scan(while: isWordByte)
        spans.append(Span(start: start, end: index, style: .variable))
        tokens.append(nil)
      default:
        guard isWordByte(byte) else {
          index += 1
          if byte > 0x20 { tokens.append(String(UnicodeScalar(byte))) }
          continue
        }
        scan(while: isWordByte)
        if (byte | 0x20) == UInt8(ascii: "x"), index - start == 1, index < bytes.count, bytes[index] == UInt8(ascii: "'") {
          continue  // x'…': the quote that follows is scanned as the blob's text
        }
        words.append((tokens.count, start, index))
        tokens.append(String(decoding: bytes[start..<index], as: UTF8.self).uppercased())
      }
    }
    let isKeywordHere = SQLKeywordPosition.keywords(in: tokens, isKeyword: isKeyword)
    for word in words where isKeywordHere[word.token] {
      spans.append(Span(start: word.start, end: word.end, style: .keyword))
    }
    return spans.sorted { $0.start < $1.start }
  }

  // MARK: Swift

  static func swiftSpans(_ text: String) -> [Span] {
    // Text this long is pasted, not typed: it is left uncoloured rather than parsed again at
    // every pause (a 900 KB chain is a tree too deep to walk).
    guard text.utf8.count <= 1 << 16 else { return [] }
    var spans: [Span] = []
    let tree = Parser.parse(source: text)
    var afterPound = false
    for token in tree.tokens(viewMode: .sourceAccurate) {
      var triviaStart = token.position.utf8Offset
      for piece in token.leadingTrivia {
        let length = piece.sourceLength.utf8Length
        if piece.isComment { spans.append(Span(start: triviaStart, end: triviaStart + length, style: .comment)) }
        triviaStart += length
      }
      let start = token.positionAfterSkippingLeadingTrivia.utf8Offset
      let end = token.endPositionBeforeTrailingTrivia.utf8Offset
      if let style = style(of: token.tokenKind, afterPound: afterPound), start < end {
        if let last = spans.last, last.end == start, last.style == style {
          spans[spans.count - 1].end = end  // one escape for a whole string literal
        } else {
          spans.append(Span(start: start, end: end, style: style))
        }
      }
      afterPound = token.tokenKind == .pound
      var trailingStart = end
      for piece in token.trailingTrivia {
        let length = piece.sourceLength.utf8Length
        if piece.isComment { spans.append(Span(start: trailingStart, end: trailingStart + length, style: .comment)) }
        trailingStart += length
      }
    }
    return spans
  }

  private static func style(of kind: TokenKind, afterPound: Bool) -> Style? {
    switch kind {
    case .keyword, .pound: return .keyword
    case .identifier(let name):
      if afterPound { return .keyword }  // #sql, #if
      return name.first?.isUppercase == true ? .identifier : nil
    case .dollarIdentifier: return .variable
    case .integerLiteral, .floatLiteral: return .number
    case .stringSegment, .stringQuote, .multilineStringQuote, .singleQuote, .rawStringPoundDelimiter: return .string
    case .poundIf, .poundElse, .poundElseif, .poundEndif: return .keyword
    default: return nil
    }
  }
}
