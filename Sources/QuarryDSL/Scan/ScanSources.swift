import SwiftParser
import SwiftSyntax

/// An app's `.swift` files read as the compiler reads a module: one input, every declaration
/// visible to every file, with each location mapped back to its file.
///
/// ```swift
/// let sources = ScanSources(files: [("Schema.swift", schemaBytes), ("Lists.swift", listBytes)])
/// sources.locate(line: 120)  // ("Lists.swift", 31)
/// ```
/// A file that is not UTF-8 is left out with a located problem; a top-level item with a syntax
/// error is left out (its lines kept blank, so every other location stays true) and reported.
public struct ScanSources: @unchecked Sendable {
  public struct Problem: Sendable, Equatable {
    public var path: String
    public var line: Int
    public var column: Int
    public var message: String

    public init(path: String, line: Int, column: Int, message: String) {
      (self.path, self.line, self.column, self.message) = (path, line, column, message)
    }
  }

  /// All files, one after the other, each starting on a new line.
  public private(set) var text = ""
  public private(set) var problems: [Problem] = []
  /// The files read, with the combined line their first line is, and their own text.
  public private(set) var files: [(path: String, firstLine: Int, lines: Int)] = []
  public private(set) var lineCount = 0

  /// The combined text, parsed once.
  public private(set) var tree: SourceFileSyntax

  public init(files input: [(path: String, bytes: [UInt8])]) {
    var texts: [(path: String, text: String)] = []
    for (path, bytes) in input {
      if let bad = Self.firstInvalidUTF8(bytes) {
        problems.append(
          Problem(
            path: path, line: bad.line, column: bad.column,
            message:
              "this file is not UTF-8 (byte 0x\(String(bytes[bad.offset], radix: 16, uppercase: true)) at offset \(bad.offset)); Swift sources are UTF-8: convert it (iconv -t UTF-8), the rest of the scan goes on without it"
          ))
        continue
      }
      var fileText = String(decoding: bytes, as: UTF8.self)
      if fileText.hasPrefix("\u{FEFF}") { fileText.removeFirst() }
      if !fileText.isEmpty, !fileText.hasSuffix("\n") { fileText += "\n" }
      do {
        // Nesting deeper than the parser's stack (or its lookahead) copes with: the file is
        // left out, located, before it is parsed.
        try NestingGuard.check(fileText)
      } catch {
        problems.append(
          Problem(path: path, line: error.line, column: error.column, message: error.message + " (this file is left out of the scan)"))
        continue
      }
      texts.append((path, fileText))
    }
    tree = Parser.parse(source: "")
    combine(texts)
    // A file whose tree is too deep to walk (a chain of 100,000 calls) is left out, located.
    while let position = NestingGuard.tooDeep(tree, text: text), !texts.isEmpty {
      let location = SourceUnit(text: text, tree: tree).lineAndColumn(of: position)
      let index = fileIndex(line: location.line)
      let file = files[index]
      problems.append(
        Problem(
          path: file.path, line: location.line - file.firstLine + 1, column: location.column,
          message: "this expression nests more than \(NestingGuard.maximumTreeDepth) levels deep (this file is left out of the scan)"))
      texts.remove(at: index)
      combine(texts)
    }
    guard tree.hasError else { return }
    // Only the files an item with a syntax error touches are parsed on their own: each such
    // item is reported and blanked there (an unclosed brace would swallow the next files).
    var broken: Set<Int> = []
    let converter = SourceLocationConverter(fileName: "", tree: tree)
    for item in tree.statements where item.hasError {
      let first = fileIndex(line: converter.location(for: item.positionAfterSkippingLeadingTrivia).line)
      let last = fileIndex(line: converter.location(for: item.endPositionBeforeTrailingTrivia).line)
      broken.formUnion(first...max(first, last))
    }
    for index in broken.sorted() where texts.indices.contains(index) {
      let fileTree = Parser.parse(source: texts[index].text)
      if fileTree.hasError { texts[index].text = blankingErrors(in: fileTree, path: texts[index].path) }
    }
    combine(texts)
    problems.sort { ($0.path, $0.line, $0.column) < ($1.path, $1.line, $1.column) }
  }

  private mutating func combine(_ texts: [(path: String, text: String)]) {
    var nextLine = 1
    text = ""
    files = []
    for (path, fileText) in texts {
      let lines = fileText.utf8.reduce(0) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
      files.append((path, nextLine, lines))
      text += fileText
      nextLine += lines
    }
    lineCount = nextLine - 1
    tree = Parser.parse(source: text)
  }

  /// The index of the file a line of the combined text is in.
  public func fileIndex(line: Int) -> Int {
    var low = 0
    var high = files.count - 1
    while low < high {
      let middle = (low + high + 1) / 2
      if files[middle].firstLine <= line { low = middle } else { high = middle - 1 }
    }
    return low
  }

  /// The file and its own line for a line of the combined text.
  public func locate(line: Int) -> (path: String, line: Int) {
    let low = fileIndex(line: line)
    guard files.indices.contains(low) else { return ("", line) }
    return (files[low].path, line - files[low].firstLine + 1)
  }

  /// The file's text with each top-level item that has a syntax error replaced by as many
  /// blank lines, each error reported.
  private mutating func blankingErrors(in tree: SourceFileSyntax, path: String) -> String {
    var out = ""
    let converter = SourceLocationConverter(fileName: path, tree: tree)
    for item in tree.statements {
      let itemText = item.description
      guard item.hasError, let error = SyntaxErrorFinder.firstError(in: item) else {
        out += itemText
        continue
      }
      let location = converter.location(for: error.position)
      var message = "syntax error: " + error.message
      if let opener = error.opener {
        let open = converter.location(for: opener.position)
        message += "; the '\(opener.text)' at \(open.line):\(open.column) is not closed"
      }
      problems.append(
        Problem(path: path, line: location.line, column: location.column, message: message + " (this declaration is left out of the scan)"))
      out += String(repeating: "\n", count: itemText.utf8.reduce(0) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 })
    }
    out += tree.endOfFileToken.description
    return out
  }

  /// Where the first byte that is not UTF-8 is: its offset, line and column (1-based, in bytes).
  static func firstInvalidUTF8(_ bytes: [UInt8]) -> (offset: Int, line: Int, column: Int)? {
    var index = 0
    var line = 1
    var lineStart = 0
    while index < bytes.count {
      let byte = bytes[index]
      let length: Int
      switch byte {
      case 0x00...0x7F: length = 1
      case 0xC2...0xDF: length = 2
      case 0xE0...0xEF: length = 3
      case 0xF0...0xF4: length = 4
      default: return (index, line, index - lineStart + 1)
      }
      guard index + length <= bytes.count else { return (index, line, index - lineStart + 1) }
      for next in 1..<max(1, length) where bytes[index + next] & 0xC0 != 0x80 {
        return (index, line, index - lineStart + 1)
      }
      if length == 3 {
        let second = bytes[index + 1]
        if (byte == 0xE0 && second < 0xA0) || (byte == 0xED && second > 0x9F) { return (index, line, index - lineStart + 1) }
      } else if length == 4 {
        let second = bytes[index + 1]
        if (byte == 0xF0 && second < 0x90) || (byte == 0xF4 && second > 0x8F) { return (index, line, index - lineStart + 1) }
      }
      if byte == UInt8(ascii: "\n") {
        line += 1
        lineStart = index + 1
      }
      index += length
    }
    return nil
  }
}
