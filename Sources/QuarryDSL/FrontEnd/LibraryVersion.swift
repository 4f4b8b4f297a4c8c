/// A version of StructuredQueries (`0.23.1`), ordered as SwiftPM orders versions: what an app
/// pins decides which spellings its compiler accepts and which it warns about.
///
/// ```swift
/// LibraryVersion("0.23.1") < LibraryVersion("0.33.2")  // true
/// ```
public struct LibraryVersion: Comparable, Sendable, Hashable, CustomStringConvertible {
  /// Major, minor and patch (missing parts are 0; a pre-release suffix is ignored).
  public let parts: [Int]

  public init(_ text: String) {
    let core = text.split(separator: "-", maxSplits: 1).first.map(String.init) ?? text
    var parts = core.split(separator: ".").map { Int($0) ?? 0 }
    while parts.count < 3 { parts.append(0) }
    self.parts = parts
  }

  public var description: String { parts.map(String.init).joined(separator: ".") }

  /// 0.21.0: `find` takes a sequence of keys and writes `IN`; before, one key and `=`.
  static let findTakesKeys = LibraryVersion("0.21.0")
  /// 0.22.0: a binary operator writes `((a) = (b))`; before, `(a = b)`.
  public static let operandsParenthesized = LibraryVersion("0.22.0")
  /// 0.31.0: `==` and `!=` on columns unavailable; before, the library's `=`/`<>` (`IS`).
  static let columnEqualityUnavailable = LibraryVersion("0.31.0")

  public static func < (lhs: LibraryVersion, rhs: LibraryVersion) -> Bool {
    for (left, right) in zip(lhs.parts, rhs.parts) where left != right { return left < right }
    return lhs.parts.count < rhs.parts.count
  }
}

/// A spelling StructuredQueries deprecates, with the version that first did: an app pinning an
/// older version compiles it without a warning, and so does a scan of that app.
///
/// ```swift
/// // 0.33.2 deprecated `[1, 2].contains($0.id)` ("Prefer 'element.in(self)' instead"): an app
/// // pinning 0.23.1 is told nothing; at the prompt (the newest library) it is a warning.
/// ```
public struct Deprecation: Sendable, Hashable {
  public var selector: String
  public var message: String
  public var since: LibraryVersion

  public init(_ selector: String, _ message: String, since: String) {
    self.selector = selector
    self.message = message
    self.since = LibraryVersion(since)
  }

  /// The compiler's own words for it.
  public var text: String { "'\(selector)' is deprecated: \(message)" }

  /// 0.33.2: sequences' and strings' Swift-named predicates, and the `@Columns` macro.
  static let sequenceContains = Deprecation("contains", "Prefer 'element.in(self)' instead", since: "0.33.2")
  static let columnsMacro = Deprecation("Columns", "renamed to 'Column'", since: "0.33.2")
  /// 0.1.0: `$0.title.count` for `length()`.
  static let textCount = Deprecation(
    "count", "Use 'count()' for SQL's 'count' aggregate function, or 'length()'", since: "0.1.0")
  /// 0.2.0: `JSONRepresentation<T>` for `T.JSONRepresentation`.
  static let genericJSONRepresentation = Deprecation(
    "JSONRepresentation", "Use 'MyCodableType.JSONRepresentation', instead.", since: "0.2.0")
}
