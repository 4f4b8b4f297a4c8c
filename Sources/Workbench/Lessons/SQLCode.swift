/// A statement's tokens, read once for the rewrites that add to it (``TieOrder``, ``WalkDepth``):
/// the code tokens (not spaces) by index, each with its bracket depth and the bracket it is in.
///
/// ```swift
/// let sql = SQLCode(#"SELECT "id" FROM "t" ORDER BY lower("name") DESC, 2"#)
/// sql.sortKeys(ofOrderAt: 4, end: sql.code.count)   // nil: `2` is a position, not a key
/// ```
struct SQLCode {
  var tokens: [SQLMutants.Token]
  /// The indices of the tokens that are not spaces or comments.
  let code: [Int]
  /// Each code token's bracket depth.
  let depth: [Int]
  /// The opening bracket each code token is inside (nil at the top).
  let opener: [Int?]
  /// The opening bracket each closing one matches.
  let matching: [Int: Int]

  init(_ sql: String) {
    let tokens = SQLMutants.tokens(sql)
    let code = tokens.indices.filter { tokens[$0].kind != .space }
    var depth: [Int] = []
    var opener: [Int?] = []
    var matching: [Int: Int] = [:]
    var open: [Int] = []
    for at in code.indices {
      if tokens[code[at]].text == ")" { matching[at] = open.popLast() }
      depth.append(open.count)
      opener.append(open.last)
      if tokens[code[at]].text == "(" { open.append(at) }
    }
    (self.tokens, self.code, self.depth, self.opener, self.matching) = (tokens, code, depth, opener, matching)
  }

  func word(_ at: Int) -> String { at >= 0 && at < code.count ? tokens[code[at]].upper : "" }

  /// The statement, with whatever was added to its tokens.
  var text: String { tokens.map(\.text).joined() }

  /// Adds `text` after code token `at`.
  mutating func append(_ text: String, after at: Int) { tokens[code[at]].text += text }

  /// The sort keys of the ORDER BY at `order`, ending before `end`, as text: each term without
  /// its direction, NULLS or COLLATE; nil when one is a position (`ORDER BY 2`).
  func sortKeys(ofOrderAt order: Int, end: Int) -> [String]? {
    var terms: [[Int]] = [[]]
    for at in (order + 2)..<end {
      if depth[at] == depth[order], word(at) == "," { terms.append([]) } else { terms[terms.count - 1].append(at) }
    }
    var keys: [String] = []
    for var term in terms {
      // `expr [COLLATE name] [ASC | DESC] [NULLS FIRST | LAST]`, from the end.
      if term.count >= 2, word(term[term.count - 2]) == "NULLS", ["FIRST", "LAST"].contains(word(term[term.count - 1])) {
        term.removeLast(2)
      }
      if let last = term.last, ["ASC", "DESC"].contains(word(last)) { term.removeLast() }
      if term.count >= 2, depth[term[term.count - 2]] == depth[order], word(term[term.count - 2]) == "COLLATE" { term.removeLast(2) }
      guard let first = term.first, let last = term.last, !(term.count == 1 && tokens[code[first]].kind == .number) else { return nil }
      keys.append(tokens[code[first]...code[last]].map(\.text).joined())
    }
    return keys
  }
}
