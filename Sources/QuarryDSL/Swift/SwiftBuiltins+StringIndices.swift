import SwiftSyntax

/// `String.Index`: a position between a string's characters, modelled as Swift's index of a
/// native string is — its UTF-8 offset — so `"héllo".index(after: "héllo".startIndex)` is 1 and
/// the next is 3. An index used on a string it is not a character boundary of is refused (Swift
/// rounds it down; an index belongs with the string it came from).
///
/// ```swift
/// let s = "héllo"
/// String(s[..<s.index(s.startIndex, offsetBy: 3)])   // "hél"
/// s.firstIndex(of: "l").map { s.distance(from: s.startIndex, to: $0) }   // Optional(2)
/// ```
extension SwiftBuiltins {
  static let stringIndices: [SwiftBuiltin] = [
    SwiftBuiltin("String", "startIndex: String.Index", example: #""héllo"["héllo".startIndex]"#) { _ in .stringIndex(0) },
    SwiftBuiltin("String", "endIndex: String.Index", example: #""héllo".distance(from: "héllo".startIndex, to: "héllo".endIndex)"#) {
      .stringIndex(Int64(try $0.baseString().utf8.count))
    },
    SwiftBuiltin("String", "index(after i: String.Index) -> String.Index", example: #""héllo"["héllo".index(after: "héllo".startIndex)]"#) {
      call in
      var call = call
      let text = try call.baseString()
      let position = try StringIndices.position(of: call.value(0), in: text, call: call, argument: 0)
      guard position < text.count else { throw call.evaluator.crash("asks for the index after the string's endIndex", at: call.node) }
      return .stringIndex(StringIndices.offset(ofCharacter: position + 1, in: text))
    },
    SwiftBuiltin("String", "index(before i: String.Index) -> String.Index", example: #""héllo"["héllo".index(before: "héllo".endIndex)]"#) {
      call in
      var call = call
      let text = try call.baseString()
      let position = try StringIndices.position(of: call.value(0), in: text, call: call, argument: 0)
      guard position > 0 else { throw call.evaluator.crash("asks for the index before the string's startIndex", at: call.node) }
      return .stringIndex(StringIndices.offset(ofCharacter: position - 1, in: text))
    },
    SwiftBuiltin(
      "String", "index(_ i: String.Index, offsetBy distance: Int) -> String.Index",
      example: #"String("héllo"[..<"héllo".index("héllo".startIndex, offsetBy: 3)])"#
    ) { call in
      var call = call
      let text = try call.baseString()
      let position = try StringIndices.position(of: call.value(0), in: text, call: call, argument: 0)
      return try StringIndices.moved(Int64(position), by: call.int(1), in: text, call: call)
    },
    SwiftBuiltin(
      "String", "index(_ i: String.Index, offsetBy distance: Int, limitedBy limit: String.Index) -> String.Index?",
      example: #""abc".index("abc".startIndex, offsetBy: 5, limitedBy: "abc".endIndex) == nil"#
    ) { call in
      var call = call
      let text = try call.baseString()
      let position = Int64(try StringIndices.position(of: call.value(0), in: text, call: call, argument: 0))
      let distance = try call.int(1)
      let limit = Int64(try StringIndices.position(of: call.value(2), in: text, call: call, argument: 2))
      // The limit stops only a move towards it (Swift's `index(_:offsetBy:limitedBy:)`).
      if distance >= 0, limit >= position, limit - position < distance { return .none }
      if distance < 0, limit <= position, limit - position > distance { return .none }
      return .some(try StringIndices.moved(position, by: distance, in: text, call: call))
    },
    SwiftBuiltin(
      "String", "distance(from start: String.Index, to end: String.Index) -> Int",
      example: #""naïve".distance(from: "naïve".endIndex, to: "naïve".startIndex)"#
    ) { call in
      var call = call
      let text = try call.baseString()
      let start = try StringIndices.position(of: call.value(0), in: text, call: call, argument: 0)
      let end = try StringIndices.position(of: call.value(1), in: text, call: call, argument: 1)
      return .int(Int64(end - start))
    },
    SwiftBuiltin(
      "String", "firstIndex(of element: Character) -> String.Index?",
      example: #""banana".firstIndex(of: "n").map { "banana".distance(from: "banana".startIndex, to: $0) }"#
    ) { try StringIndices.index(of: $0, last: false) },
    SwiftBuiltin(
      "String", "lastIndex(of element: Character) -> String.Index?",
      example: #""banana".lastIndex(of: "n").map { "banana".distance(from: "banana".startIndex, to: $0) }"#
    ) { try StringIndices.index(of: $0, last: true) },
  ]
}

/// Between `String.Index` values (UTF-8 offsets) and character positions.
enum StringIndices {
  /// The index `distance` characters from character `position`; a trap past either end.
  static func moved(_ position: Int64, by distance: Int64, in text: String, call: BuiltinCall) throws -> SwiftValue {
    let (target, overflow) = position.addingReportingOverflow(distance)
    guard !overflow, target >= 0, target <= Int64(text.count) else {
      throw call.evaluator.crash("moves a String.Index outside the string (\(text.count) characters)", at: call.node)
    }
    return .stringIndex(offset(ofCharacter: Int(target), in: text))
  }

  /// `firstIndex(of:)` / `lastIndex(of:)`: the index of the first or last character equal to the
  /// argument, nil when none is.
  static func index(of call: BuiltinCall, last: Bool) throws -> SwiftValue {
    var call = call
    let text = try call.baseString()
    let wanted = try call.string(0)
    let found = last ? text.lastIndex { String($0) == wanted } : text.firstIndex { String($0) == wanted }
    guard let position = found else { return .none }
    return .some(.stringIndex(Int64(text.utf8.distance(from: text.startIndex, to: position))))
  }

  /// The character position of UTF-8 offset `offset` in `text`, nil when it is not one of its
  /// character boundaries.
  static func position(ofOffset offset: Int64, in text: String) -> Int? {
    var utf8 = Int64(0)
    var position = 0
    for character in text {
      if utf8 == offset { return position }
      if utf8 > offset { return nil }
      utf8 += Int64(character.utf8.count)
      position += 1
    }
    return utf8 == offset ? position : nil
  }

  /// The UTF-8 offset of the boundary before character `position` (the end after the last).
  static func offset(ofCharacter position: Int, in text: String) -> Int64 {
    Int64(text.prefix(position).utf8.count)
  }

  /// The position of a `String.Index` argument in `text`, or a located refusal.
  static func position(of value: SwiftValue, in text: String, call: BuiltinCall, argument: Int) throws -> Int {
    guard case .stringIndex(let offset) = value else {
      throw call.evaluator.failure("needs a String.Index here, not \(value.typeName)", at: call.arguments[argument])
    }
    guard let position = position(ofOffset: offset, in: text) else { throw notABoundary(call.evaluator, at: call.arguments[argument]) }
    return position
  }

  static func notABoundary(_ evaluator: SwiftEvaluator, at node: some SyntaxProtocol) -> SwiftEvaluationError {
    evaluator.failure("uses a String.Index that is not a character boundary of this string (an index of another string)", at: node)
  }

  /// `text[index]`, `text[i..<j]`, `text[..<i]`, `text[i...]`: a Character or a Substring.
  static func subscripted(_ text: String, by argument: ExprSyntax, evaluator: SwiftEvaluator) throws -> SwiftValue {
    func boundary(_ expression: ExprSyntax) throws -> Int {
      let value = try evaluator.evaluate(expression)
      guard case .stringIndex(let offset) = value else { throw integerSubscript(evaluator, value, at: expression) }
      guard let found = StringIndices.position(ofOffset: offset, in: text) else { throw notABoundary(evaluator, at: expression) }
      return found
    }
    func characters(_ lower: Int, _ upper: Int, closed: Bool, at node: some SyntaxProtocol) throws -> SwiftValue {
      let end = closed ? upper + 1 : upper
      guard lower <= end, end <= text.count else { throw evaluator.crash("reads past the end of the string", at: node) }
      return .string(String(text.dropFirst(lower).prefix(end - lower)))
    }
    if let prefix = argument.as(PrefixOperatorExprSyntax.self), ["..<", "..."].contains(prefix.operator.text) {
      return try characters(0, boundary(prefix.expression), closed: prefix.operator.text == "...", at: argument)
    }
    if let postfix = argument.as(PostfixOperatorExprSyntax.self), postfix.operator.text == "..." {
      return try characters(boundary(postfix.expression), text.count, closed: false, at: argument)
    }
    let value = try evaluator.evaluate(argument)
    switch value {
    case .stringIndex(let offset):
      guard let position = position(ofOffset: offset, in: text) else { throw notABoundary(evaluator, at: argument) }
      guard position < text.count else { throw evaluator.crash("reads the character at the string's endIndex", at: argument) }
      return .string(String(text.dropFirst(position).prefix(1)))
    case .stringIndexRange(let lower, let upper, let closed):
      guard let from = position(ofOffset: lower, in: text), let to = position(ofOffset: upper, in: text) else {
        throw notABoundary(evaluator, at: argument)
      }
      return try characters(from, to, closed: closed, at: argument)
    default:
      throw integerSubscript(evaluator, value, at: argument)
    }
  }

  static func integerSubscript(_ evaluator: SwiftEvaluator, _ value: SwiftValue, at node: some SyntaxProtocol) -> SwiftEvaluationError {
    evaluator.failure(
      "cannot subscript a String with \(value.typeName == "Int" ? "an Int" : value.typeName) in Swift; use a String.Index (s.index(s.startIndex, offsetBy: n)), .prefix, .dropFirst or Array(text)",
      at: node)
  }
}
