import SwiftParser
import SwiftSyntax

/// Whether a prompt's input is finished or more lines are to come: the REPL and the script
/// splitter ask before compiling.
///
/// ```swift
/// SwiftInputCompleteness.isIncomplete("Tag.where {")        // true: the brace is open
/// SwiftInputCompleteness.isIncomplete("Tag.count() // {")  // false: the brace is in a comment
/// ```
public enum SwiftInputCompleteness {
  /// True when the input cannot be complete yet: Swift's parser finds something missing at its
  /// very end (a closing bracket, the end of a string, the operand after an operator, the
  /// declaration after `@FetchAll(…)`). Comments, strings, raw and multi-line strings count as
  /// the parser reads them, so `Tag.count() // {` is complete. The REPL keeps reading lines.
  public static func isIncomplete(_ text: String) -> Bool {
    var scanner = SourceScanner()
    scanner.append(text)
    return isIncomplete(text, scanned: scanner)
  }

  /// The same, given `text` already read by a scanner (the script splitter feeds one line at a
  /// time, so a long paste is scanned once, not again for every line).
  public static func isIncomplete(_ text: String, scanned scanner: SourceScanner) -> Bool {
    guard !text.allSatisfy(\.isWhitespace) else { return false }
    if endsWithDeclarationPrefix(text) { return true }
    // A bracket or string still open: more is to come. Input nested too deeply is "complete":
    // compiling it says why.
    guard scanner.problem == nil else { return false }
    if scanner.openCount > 0 || scanner.endsInBlockComment { return true }
    // Everything closed: only the parser can tell a dangling operator or an attribute waiting
    // for its declaration from a finished input. A megabyte of input is pasted, not typed: it
    // is taken as finished (compiling it says what is missing) rather than parsed twice.
    guard text.utf8.count < 1 << 20 else { return false }
    let tree = Parser.parse(source: text)
    // A tree too deep to walk is "complete": compiling it says why.
    guard tree.hasError, NestingGuard.tooDeep(tree, text: text) == nil else { return false }
    let end = tree.endPositionBeforeTrailingTrivia
    // Something missing right at the end means more is to come; an error elsewhere is a
    // mistake to report now.
    for token in tree.tokens(viewMode: .all) where token.presence == .missing {
      if token.position >= end { return true }
    }
    return false
  }

  /// Whether the last line is only attributes or modifiers (`@Table`, `@Column("x")`,
  /// `nonisolated`): the declaration they belong to is on the next line.
  static func endsWithDeclarationPrefix(_ text: String) -> Bool {
    // The last line with text, found from the end (not by splitting the whole input).
    var end = text.endIndex
    var last: Substring = ""
    while end > text.startIndex {
      let start = text.utf8[..<end].lastIndex(of: UInt8(ascii: "\n")).map { text.utf8.index(after: $0) } ?? text.startIndex
      last = text[start..<end]
      if !last.allSatisfy(\.isWhitespace) { break }
      end = start > text.startIndex ? text.index(before: start) : start
      last = ""
    }
    guard !last.isEmpty else { return false }
    var rest = Substring(last.drop { $0 == " " || $0 == "\t" })
    let modifiers: Set<Substring> = [
      "private", "fileprivate", "public", "internal", "package", "nonisolated", "static", "final",
      "open", "indirect", "mutating", "nonmutating", "lazy",
    ]
    var sawAny = false
    while !rest.isEmpty {
      if rest.first == "@" {
        // `@Name` or `@Name(…)` with balanced parentheses.
        var index = rest.index(after: rest.startIndex)
        while index < rest.endIndex, rest[index].isLetter || rest[index].isNumber || rest[index] == "_" || rest[index] == "." {
          index = rest.index(after: index)
        }
        if index < rest.endIndex, rest[index] == "(" {
          var parens = 0
          while index < rest.endIndex {
            if rest[index] == "(" { parens += 1 } else if rest[index] == ")" { parens -= 1 }
            index = rest.index(after: index)
            if parens == 0 { break }
          }
        }
        rest = rest[index...]
      } else {
        let word = rest.prefix { $0.isLetter }
        guard !word.isEmpty, modifiers.contains(word) else { return false }
        rest = rest.dropFirst(word.count)
      }
      sawAny = true
      rest = rest.drop { $0 == " " || $0 == "\t" }
    }
    return sawAny
  }
}
