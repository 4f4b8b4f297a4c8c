import SwiftSyntax

/// Reads input as Swift's lexer does (comments, strings, raw strings, interpolations), one line
/// after another, keeping what is still open: the REPL's and the script splitter's test for
/// "more lines to come", and a guard against nesting too deep for swift-syntax (its lookahead
/// for `[` is exponential: 24 levels took 101 s), so a located error stands in for a hang.
///
/// Fed line by line, a long paste is scanned once in all, never again for every new line.
///
/// ```swift
/// var scanner = SourceScanner()
/// scanner.append("Reminder.where { // {\n")
/// scanner.openCount  // 1: the closure's `{` (the one in the comment does not count)
/// ```
public struct SourceScanner: Sendable {
  static let maximumSquareBrackets = 12
  /// Any bracket: deeper than this is nothing a person writes, and the parser's stack ends.
  static let maximumBrackets = 200
  /// Tokens (words, numbers, strings, symbols) in one input: a whole app file has tens of
  /// thousands; past this the parser alone takes seconds and gigabytes (a chain of 11 million
  /// `.limit(1)` took 45 s and 11 GB before it ended Quarry).
  static let maximumTokens = 2_000_000

  /// What the scanner is inside: a bracket, a string, or an interpolation `\(…)` in a string
  /// (code again, whose `)` returns to the string).
  private enum Frame: Equatable, Sendable {
    case bracket(UInt8)
    case string(multiLine: Bool, pounds: Int)
    case interpolation
  }

  private var stack: [Frame] = []
  private var squares = 0
  private var brackets = 0
  private var line = 1
  /// The current line's bytes so far (for an error's column).
  private var lineBytes: [UInt8] = []
  private var inLineComment = false
  private var inBlockComment = false
  /// Bytes to skip at the start of the next chunk (an escape cut by a line end).
  private var skip = 0
  /// Tokens read so far, roughly as the lexer counts them (a run of word bytes is one, each
  /// symbol one, a string one).
  public private(set) var tokens = 0
  private var inWord = false
  /// The first place nesting went too deep; scanning stops there.
  public private(set) var problem: Diagnostic?

  public init() {}

  /// How many brackets and strings are open after everything appended so far.
  public var openCount: Int { stack.count }
  /// Whether the text read so far ends inside a `/* … */` comment.
  public var endsInBlockComment: Bool { inBlockComment }

  /// Reads more input.
  public mutating func append(_ text: String) {
    guard problem == nil else { return }
    let bytes = Array(text.utf8)
    var index = min(skip, bytes.count)
    skip -= index
    /// Where the current line starts in `bytes` (its earlier part, from other chunks, is in
    /// `lineBytes`): kept as an offset, so a byte costs no copy.
    var lineStart = 0
    defer { lineBytes.append(contentsOf: bytes[min(lineStart, bytes.count)..<min(index, bytes.count)]) }
    func byte(_ offset: Int) -> UInt8? { index + offset < bytes.count ? bytes[index + offset] : nil }
    /// Moves past `count` bytes, keeping the line count and where the current line starts.
    func advance(_ count: Int) {
      let end = index + count
      while index < min(end, bytes.count) {
        if bytes[index] == UInt8(ascii: "\n") {
          line += 1
          lineBytes.removeAll(keepingCapacity: true)
          lineStart = index + 1
        }
        index += 1
      }
      skip += max(0, end - bytes.count)
    }
    func fail(_ message: String) {
      let current = lineBytes + bytes[min(lineStart, bytes.count)..<min(index, bytes.count)]
      problem = Diagnostic(message, line: line, column: String(decoding: current, as: UTF8.self).count + 1)
    }
    func countToken() {
      inWord = false
      tokens += 1
      if tokens > Self.maximumTokens {
        fail(
          "this input has more than \(Self.maximumTokens / 1_000_000) million tokens (words, numbers, strings and symbols); Quarry reads at most that many at once: split it into smaller inputs"
        )
      }
    }
    while index < bytes.count, problem == nil {
      let current = bytes[index]
      if inLineComment {
        if current == UInt8(ascii: "\n") { inLineComment = false }
        advance(1)
        continue
      }
      if inBlockComment {
        if current == UInt8(ascii: "*"), byte(1) == UInt8(ascii: "/") {
          inBlockComment = false
          advance(2)
        } else {
          advance(1)
        }
        continue
      }
      if case .string(let multiLine, let pounds)? = stack.last {
        // The string's ordinary bytes in one step: only `\`, `"` and a line end matter in it.
        var run = index
        while run < bytes.count, bytes[run] != UInt8(ascii: "\\"), bytes[run] != UInt8(ascii: "\""), bytes[run] != UInt8(ascii: "\n") {
          run += 1
        }
        if run > index {
          index = run
          continue
        }
        /// Whether `pounds` `#` follow at `offset` (a raw string's delimiter).
        func poundsFollow(at offset: Int) -> Bool {
          (0..<pounds).allSatisfy { byte(offset + $0) == UInt8(ascii: "#") }
        }
        switch current {
        case UInt8(ascii: "\\") where poundsFollow(at: 1):
          if byte(1 + pounds) == UInt8(ascii: "(") {
            stack.append(.interpolation)
            brackets += 1
          }
          advance(2 + pounds)
          continue
        case UInt8(ascii: "\""):
          if !multiLine, poundsFollow(at: 1) {
            stack.removeLast()
            advance(pounds)
          } else if multiLine, byte(1) == UInt8(ascii: "\""), byte(2) == UInt8(ascii: "\""), poundsFollow(at: 3) {
            stack.removeLast()
            advance(2 + pounds)
          }
        case UInt8(ascii: "\n") where !multiLine:
          stack.removeLast()  // an unterminated string ends with its line
        default:
          break
        }
        advance(1)
        continue
      }
      switch current {
      case UInt8(ascii: "/") where byte(1) == UInt8(ascii: "/"):
        inLineComment = true
      case UInt8(ascii: "/") where byte(1) == UInt8(ascii: "*"):
        inBlockComment = true
        advance(1)
      case UInt8(ascii: "#"), UInt8(ascii: "\""):
        // `"…"`, `"""…"""`, or a raw string `#"…"#` (any number of `#`).
        var pounds = 0
        while byte(pounds) == UInt8(ascii: "#") { pounds += 1 }
        guard byte(pounds) == UInt8(ascii: "\"") else { break }  // `#sql`, `#if`: not a string
        let multiLine = byte(pounds + 1) == UInt8(ascii: "\"") && byte(pounds + 2) == UInt8(ascii: "\"")
        stack.append(.string(multiLine: multiLine, pounds: pounds))
        countToken()
        advance(pounds + (multiLine ? 2 : 0))
      case UInt8(ascii: "["), UInt8(ascii: "("), UInt8(ascii: "{"):
        countToken()
        stack.append(.bracket(current))
        brackets += 1
        if current == UInt8(ascii: "[") {
          squares += 1
          if squares > Self.maximumSquareBrackets {
            fail(
              "'[' nests more than \(Self.maximumSquareBrackets) levels deep here; Swift's parser would take minutes on it: flatten the literal or split the input"
            )
          }
        }
        if brackets > Self.maximumBrackets {
          fail("brackets nest more than \(Self.maximumBrackets) levels deep here; split the input")
        }
      case UInt8(ascii: "]"), UInt8(ascii: ")"), UInt8(ascii: "}"):
        countToken()
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
      case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
        inWord = false
      default:
        let isWord =
          current >= 0x80 || current == UInt8(ascii: "_") || current == UInt8(ascii: "$")
          || (current | 0x20 >= UInt8(ascii: "a") && current | 0x20 <= UInt8(ascii: "z"))
          || (current >= UInt8(ascii: "0") && current <= UInt8(ascii: "9"))
        if !isWord || !inWord { countToken() }
        inWord = isWord
      }
      if problem == nil { advance(1) }
    }
  }
}

/// Refuses input nested too deeply for swift-syntax, before it is parsed.
///
/// ```swift
/// try NestingGuard.check("[[[[[[[[[[[[[[1]]]]]]]]]]]]]")
/// // error: 1:13: '[' nests more than 12 levels deep here; …
/// ```
enum NestingGuard {
  /// Throws the located error of input nested too deeply.
  static func check(_ text: String) throws(Diagnostic) {
    // Too few brackets in all to nest too deep: nothing to scan (the common case, and the
    // scan costs more than the count).
    var squares = 0
    var brackets = 0
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "["):
        squares += 1
        brackets += 1
      case UInt8(ascii: "("), UInt8(ascii: "{"): brackets += 1
      default: break
      }
    }
    if squares <= SourceScanner.maximumSquareBrackets, brackets <= SourceScanner.maximumBrackets,
      text.utf8.count <= SourceScanner.maximumTokens
    {
      return
    }
    var scanner = SourceScanner()
    scanner.append(text)
    if let problem = scanner.problem { throw problem }
  }
}

extension NestingGuard {
  /// The deepest a parsed tree may be. Nesting that brackets make is limited before parsing;
  /// a chain of method calls or operators nests without brackets (`Tag.limit(1).limit(1)…`),
  /// and the recursive walks over a tree (swift-syntax's own `firstToken`, visitors) end
  /// Quarry on a stack overflow when it is 100,000 levels deep. Real code stays far below:
  /// the deepest tree of seven public SQLiteData/GRDB apps (and SQLiteData's examples) is 101.
  static let maximumTreeDepth = 2_000

  /// Throws the located error of a tree deeper than ``maximumTreeDepth``, measured without
  /// recursion, before anything walks the tree.
  static func checkDepth(_ tree: SourceFileSyntax, text: String) throws(Diagnostic) {
    // Under 1,000 bytes no tree reaches the limit (a chain link is two levels for four bytes or
    // more; brackets, a few levels a byte, nest at most 200 deep): the walk is spared for
    // what people type.
    guard text.utf8.count >= 1_000, let position = tooDeep(tree, text: text) else { return }
    let location = SourceUnit(text: text, tree: tree).lineAndColumn(of: position)
    throw Diagnostic(
      "this expression nests more than \(maximumTreeDepth) levels deep (a chain of calls or operators this long is nothing Swift code holds); split it into smaller ones",
      line: location.line, column: location.column)
  }

  /// Where the statement holding the first node deeper than ``maximumTreeDepth`` starts (its
  /// first byte that is not white space); nil when no node is that deep.
  static func tooDeep(_ tree: SourceFileSyntax, text: String) -> AbsolutePosition? {
    var pending: [(node: Syntax, depth: Int)] = [(Syntax(tree), 1)]
    while let (node, depth) = pending.popLast() {
      if depth > maximumTreeDepth {
        // Up to the statement it is part of (through closures: a chain of `.where { … }` is one
        // statement), never down: the first token of a tree this deep is out of reach of
        // swift-syntax's recursive `firstToken`. Then past the white space before it.
        var statement = node
        while let parent = statement.parent,
          !(parent.is(CodeBlockItemListSyntax.self) && parent.parent?.is(ClosureExprSyntax.self) != true)
        {
          statement = parent
        }
        let start = statement.position.utf8Offset
        let blank = text.utf8.dropFirst(start).prefix { [0x20, 0x0A, 0x09, 0x0D].contains($0) }.count
        return AbsolutePosition(utf8Offset: start + blank)
      }
      for child in node.children(viewMode: .sourceAccurate) where !child.is(TokenSyntax.self) {
        pending.append((child, depth + 1))
      }
    }
    return nil
  }
}
