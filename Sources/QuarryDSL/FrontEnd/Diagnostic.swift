import QueryBuilder

/// A located error in DSL input: what went wrong, where, and what might have been meant.
///
/// ```swift
/// // Reminder.where { $0.titel.eq("x") }
/// // error: 1:22: value of table 'Reminder' has no column 'titel'; did you mean 'title'?
/// ```
public struct Diagnostic: Error, Sendable, Equatable, CustomStringConvertible {
  public var message: String
  /// 1-based line and column in the input the message is about.
  public var line: Int
  public var column: Int
  /// Characters to underline (at least 1).
  public var length: Int
  public var suggestion: String?

  public init(_ message: String, line: Int, column: Int, length: Int = 1, suggestion: String? = nil) {
    self.message = message
    self.line = line
    self.column = column
    self.length = max(1, length)
    self.suggestion = suggestion
  }

  /// The message with its suggestion: `no column 'titel'; did you mean 'title'?`
  public var fullMessage: String {
    if let suggestion { return "\(message); did you mean '\(suggestion)'?" }
    return message
  }

  public var description: String { "\(line):\(column): error: \(fullMessage)" }

  /// The offending source line with a caret underline, as a compiler prints it.
  public func excerpt(in source: String) -> String {
    // The line found by its newlines (memchr), never by splitting the whole source.
    guard line >= 1 else { return "" }
    var start = source.startIndex
    for _ in 1..<line {
      guard let newline = source.firstUTF8Index(of: UInt8(ascii: "\n"), from: start) else { return "" }
      start = source.utf8.index(after: newline)
    }
    let end = source.firstUTF8Index(of: UInt8(ascii: "\n"), from: start) ?? source.endIndex
    return ExcerptLine(String(source[start..<end]), column: column).underlined(length: length)
  }
}

/// The closest candidate to a misspelled name, if one is close enough to suggest.
///
/// ```swift
/// closestMatch(to: "titel", in: ["id", "title", "notes"])  // "title"
/// ```
public func closestMatch(to name: String, in candidates: some Sequence<String>) -> String? {
  let lowered = name.lowercased()
  // Ties go to the longer common prefix, then to the alphabetically first: the same answer
  // whatever order the candidates come in.
  var best: (String, Int, Int)?
  for candidate in candidates {
    let other = candidate.lowercased()
    let distance = editDistance(lowered, other)
    let prefix = zip(lowered, other).prefix { $0 == $1 }.count
    if let current = best {
      guard distance < current.1 || (distance == current.1 && (prefix > current.2 || (prefix == current.2 && candidate < current.0)))
      else { continue }
    }
    best = (candidate, distance, prefix)
  }
  guard let best else { return nil }
  let limit = max(1, min(3, name.count / 3 + 1))
  if best.1 <= limit { return best.0 }
  if best.0.lowercased().hasPrefix(lowered) || lowered.hasPrefix(best.0.lowercased()) {
    return best.0
  }
  return nil
}

public func editDistance(_ a: String, _ b: String) -> Int {
  let a = Array(a.utf8)
  let b = Array(b.utf8)
  if a.isEmpty { return b.count }
  if b.isEmpty { return a.count }
  // Three rows of the optimal-string-alignment table: a transposition ("titel" → "title")
  // costs one edit, counted from two rows back.
  var twoBack = [Int](repeating: 0, count: b.count + 1)
  var previous = Array(0...b.count)
  var current = [Int](repeating: 0, count: b.count + 1)
  for i in 1...a.count {
    current[0] = i
    for j in 1...b.count {
      let cost = a[i - 1] == b[j - 1] ? 0 : 1
      current[j] = Swift.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
      if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
        current[j] = Swift.min(current[j], twoBack[j - 2] + 1)
      }
    }
    (twoBack, previous, current) = (previous, current, twoBack)
  }
  return previous[b.count]
}
