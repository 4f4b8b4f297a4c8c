/// A regular expression in the Perl/ICU syntax (without lookbehind), matched by code point with
/// simple word boundaries, as ICU matches: the standard library's `Regex`, so the binary needs no ICU.
///
///     TextPattern(#"(FROM|JOIN)\s+"(\w+)""#, ignoringCase: true)?.firstMatch(in: #"from "t""#)?[2]  // "t"
struct TextPattern {
  /// One match: the text of the whole match (`[0]`) and of each group (`nil` for a group that did
  /// not take part).
  struct Match {
    var ranges: [Range<String.Index>?]
    var text: Substring
    var range: Range<String.Index> { ranges[0] ?? text.startIndex..<text.startIndex }
    subscript(group: Int) -> Substring? {
      guard group < ranges.count, let range = ranges[group] else { return nil }
      return text.base[range]
    }
  }

  private let regex: Regex<AnyRegexOutput>

  init?(_ pattern: String, ignoringCase: Bool = false) {
    guard let regex = try? Regex(pattern) else { return nil }
    self.regex = regex.wordBoundaryKind(.simple).matchingSemantics(.unicodeScalar).ignoresCase(ignoringCase)
  }

  /// `literal` with each character that means something in a pattern escaped.
  static func escaped(_ literal: String) -> String {
    var out = ""
    for character in literal {
      if "\\^$.|?*+()[]{}-/#&~\"'".contains(character) { out.append("\\") }
      out.append(character)
    }
    return out
  }

  func contains(in text: String) -> Bool { text.contains(regex) }

  /// The matches, left to right, none overlapping.
  func matches(in text: String) -> [Match] {
    text.matches(of: regex).map { Self.match($0, in: text) }
  }

  /// The first match `accept` takes; a match it refuses is tried again from its next code point
  /// (a lookbehind on where a match may start).
  func firstMatch(in text: String, where accept: (Match) -> Bool = { _ in true }) -> Match? {
    var start = text.unicodeScalars.startIndex
    while start <= text.endIndex {
      guard let found = text[start...].firstMatch(of: regex) else { return nil }
      let match = Self.match(found, in: text)
      if accept(match) { return match }
      guard found.range.lowerBound < text.endIndex else { return nil }
      start = text.unicodeScalars.index(after: found.range.lowerBound)
    }
    return nil
  }

  /// The text with each match replaced by what `replacement` makes of it.
  func replacing(in text: String, with replacement: (Match) -> String) -> String {
    var out = ""
    var last = text.startIndex
    for match in matches(in: text) {
      out += text[last..<match.range.lowerBound]
      out += replacement(match)
      last = match.range.upperBound
    }
    return out + text[last...]
  }

  private static func match(_ found: Regex<AnyRegexOutput>.Match, in text: String) -> Match {
    Match(ranges: found.output.map(\.range), text: text[...])
  }
}
