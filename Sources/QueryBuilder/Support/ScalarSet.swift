/// A set of Unicode scalars, by the definitions Foundation's `CharacterSet` documents, read from the
/// standard library's Unicode tables (no ICU, so the static binary does not carry ICU's data).
///
///     "  hi \t\n".trimmingScalars(in: .whitespacesAndNewlines)  // "hi"
///     "`order`".trimmingScalars(in: ["`"])                        // "order"
public struct ScalarSet: Sendable, ExpressibleByArrayLiteral {
  private let test: @Sendable (Unicode.Scalar) -> Bool

  public init(_ test: @escaping @Sendable (Unicode.Scalar) -> Bool) { self.test = test }

  /// The scalars of `characters`.
  public init(charactersIn characters: String) {
    let scalars = Set(characters.unicodeScalars)
    self.init { scalars.contains($0) }
  }

  public init(arrayLiteral elements: Unicode.Scalar...) {
    let scalars = Set(elements)
    self.init { scalars.contains($0) }
  }

  public func contains(_ scalar: Unicode.Scalar) -> Bool { test(scalar) }

  /// General category Zs, U+0009 (CHARACTER TABULATION) and U+200B (ZERO WIDTH SPACE, which
  /// Foundation counts as whitespace though Unicode no longer does).
  public static let whitespaces = ScalarSet {
    $0 == "\t" || $0 == "\u{200B}" || $0.properties.generalCategory == .spaceSeparator
  }

  /// U+000A–U+000D, U+0085, U+2028 and U+2029.
  public static let newlines = ScalarSet { isNewline($0) }

  /// General category Z*, U+0009–U+000D, U+0085 and U+200B.
  public static let whitespacesAndNewlines = ScalarSet {
    switch $0.properties.generalCategory {
    case .spaceSeparator, .lineSeparator, .paragraphSeparator: return true
    default: return ("\t"..."\r").contains($0) || $0 == "\u{85}" || $0 == "\u{200B}"
    }
  }

  /// General category P*.
  public static let punctuationCharacters = ScalarSet {
    switch $0.properties.generalCategory {
    case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
      .initialPunctuation, .finalPunctuation, .otherPunctuation:
      return true
    default: return false
    }
  }

  private static func isNewline(_ scalar: Unicode.Scalar) -> Bool {
    ("\n"..."\r").contains(scalar) || scalar == "\u{85}" || scalar == "\u{2028}" || scalar == "\u{2029}"
  }
}

extension StringProtocol {
  /// The text without the scalars of `set` at either end, as Foundation's
  /// `trimmingCharacters(in:)` trims (by scalar, not by grapheme).
  public func trimmingScalars(in set: ScalarSet) -> String {
    let scalars = unicodeScalars
    guard let first = scalars.firstIndex(where: { !set.contains($0) }),
      let last = scalars.lastIndex(where: { !set.contains($0) })
    else { return "" }
    return String(String.UnicodeScalarView(scalars[first...last]))
  }
}
