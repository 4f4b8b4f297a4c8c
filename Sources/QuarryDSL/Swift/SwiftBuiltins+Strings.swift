import FoundationEssentials
import QueryBuilder
import SwiftSyntax

/// String (and Character) members.
extension SwiftBuiltins {
  static let strings: [SwiftBuiltin] = [
    SwiftBuiltin("String", "count: Int", example: #""héllo".count"#) { .int(Int64(try $0.baseString().count)) },
    SwiftBuiltin("String", "isEmpty: Bool", example: #""".isEmpty"#) { .bool(try $0.baseString().isEmpty) },
    SwiftBuiltin("String", "utf8: String.UTF8View", example: #"Array("é!".utf8)"#) { call in
      let bytes = try call.baseString().utf8
      try call.evaluator.budget.allocate(elements: bytes.count)
      return .lazySequence(type: "String.UTF8View", elements: bytes.map { .fixedWidth(Int64($0), .uint8) })
    },
    SwiftBuiltin("String", mutating: "append(_ other: String)", example: #"{ var s = "ab"; s.append("c"); s.append("é"); return s }"#) {
      evaluator, base, arguments, call in
      guard case .string(let text) = base, case .string(let more)? = arguments.first else {
        throw evaluator.failure("'append' needs a String", at: call)
      }
      try evaluator.budget.allocate(text.utf8.count &+ more.utf8.count)
      return .string(text + more)
    },
    SwiftBuiltin("String", "utf16: String.UTF16View", example: #"Array("é😀".utf16)"#) { call in
      let units = try call.baseString().utf16
      try call.evaluator.budget.allocate(elements: units.count)
      return .lazySequence(type: "String.UTF16View", elements: units.map { .fixedWidth(Int64($0), .uint16) })
    },
    SwiftBuiltin("String", "unicodeScalars: String.UnicodeScalarView", example: #""e\u{301}!".unicodeScalars.count"#) { call in
      let scalars = try call.baseString().unicodeScalars
      try call.evaluator.budget.allocate(elements: scalars.count)
      return .lazySequence(type: "String.UnicodeScalarView", elements: scalars.map { .string(String($0)) })
    },
    // A Unicode scalar and a Character are held as the String of their text; these members are
    // theirs (a String has none of them, so a program that compiles calls them on one).
    SwiftBuiltin("String", "value: UInt32", example: #""Straße".unicodeScalars.map(\.value)"#) { call in
      let scalars = try call.baseString().unicodeScalars
      guard scalars.count == 1, let scalar = scalars.first else {
        throw call.evaluator.unsupported(call.node, "'.value' of something that is not one Unicode scalar")
      }
      return .fixedWidth(Int64(scalar.value), .uint32)
    },
    SwiftBuiltin("String", "isASCII: Bool", example: #""a-é\r\n".unicodeScalars.map(\.isASCII)"#) { call in
      .bool(try call.baseString().unicodeScalars.allSatisfy(\.isASCII))
    },
    SwiftBuiltin("String", "asciiValue: UInt8?", example: #"["a", "é", "\r\n", "7"].map { (c: Character) in c.asciiValue }"#) {
      call in
      let text = try call.baseString()
      guard text.count == 1, let character = text.first else {
        throw call.evaluator.unsupported(call.node, "'.asciiValue' of something that is not one Character")
      }
      return character.asciiValue.map { .some(.fixedWidth(Int64($0), .uint8)) } ?? .none
    },
    SwiftBuiltin(
      "String", "padding(toLength newLength: Int, withPad padString: String, startingAt padIndex: Int) -> String",
      example: #""ab".padding(toLength: 6, withPad: "xyz", startingAt: 1)"#
    ) { call in
      try padding(&call)
    },
    SwiftBuiltin("String", "first: Character?", example: #""abc".first"#) { call in
      try call.baseString().first.map { .some(.string(String($0))) } ?? .none
    },
    SwiftBuiltin("String", "last: Character?", example: #""abc".last"#) { call in
      try call.baseString().last.map { .some(.string(String($0))) } ?? .none
    },
    SwiftBuiltin("String", "description: String", example: #""a\"b".description"#) { .string(try $0.baseString()) },
    SwiftBuiltin("String", "uppercased() -> String", example: #""straße".uppercased()"#) { .string(try $0.baseString().uppercased()) },
    SwiftBuiltin("String", "lowercased() -> String", example: #""ÀB".lowercased()"#) { .string(try $0.baseString().lowercased()) },
    SwiftBuiltin("String", "capitalized: String", example: #""hello wORLD".capitalized"#) { .string(try $0.baseString().capitalized) },
    SwiftBuiltin("String", "localizedCapitalized: String", example: #""hello world".localizedCapitalized"#) {
      .string(try $0.baseString().capitalized)
    },
    SwiftBuiltin("String", "localizedUppercase: String", example: #""abc".localizedUppercase"#) {
      .string(try $0.baseString().uppercased())
    },
    SwiftBuiltin("String", "localizedLowercase: String", example: #""ABC".localizedLowercase"#) {
      .string(try $0.baseString().lowercased())
    },
    SwiftBuiltin("String", "hasPrefix(_ prefix: String) -> Bool", example: #""quarry".hasPrefix("qu")"#) { call in
      .bool(try call.baseString().hasPrefix(call.string(0)))
    },
    SwiftBuiltin("String", "hasSuffix(_ suffix: String) -> Bool", example: #""quarry".hasSuffix("")"#) { call in
      .bool(try call.baseString().hasSuffix(call.string(0)))
    },
    SwiftBuiltin("String", "contains(_ other: String) -> Bool", example: #""quarry".contains("arr")"#) { call in
      let needle = try call.string(0)
      // An app imports Foundation, whose `contains` an empty string is never in (`"abc".contains("")`
      // is false); otherwise the standard library's search (Foundation's, on Linux, finds
      // "\0\0" in "ab\0").
      return .bool(needle.isEmpty ? false : try call.baseString().firstRange(of: needle) != nil)
    },
    SwiftBuiltin("String", "starts(with possiblePrefix: String) -> Bool", example: #""quarry".starts(with: "q")"#) { call in
      .bool(try call.baseString().starts(with: call.string(0)))
    },
    SwiftBuiltin(
      "String", "replacingOccurrences(of target: String, with replacement: String) -> String",
      example: #""a-b-c".replacingOccurrences(of: "-", with: "+")"#
    ) { call in
      let target = try call.string(0)
      let replacement = try call.string(1)
      let text = try call.baseString()
      guard !target.isEmpty else { return .string(text) }
      // The result's size is counted before it is built (a replacement may square it).
      let occurrences = text.ranges(of: target).count
      try call.evaluator.budget.charge(text.utf8.count / 64)
      let (grown, overflow) = occurrences.multipliedReportingOverflow(by: max(0, replacement.utf8.count - target.utf8.count))
      try call.evaluator.budget.allocate(overflow ? .max : text.utf8.count + grown)
      // The standard library's `replacing`: Foundation's traps on Linux for some targets ("\0\0").
      let result = text.replacing(target, with: replacement)
      return .string(result)
    },
    SwiftBuiltin(
      "String", "trimmingCharacters(in set: CharacterSet) -> String",
      example: #"" \n hi \t".trimmingCharacters(in: .whitespacesAndNewlines)"#
    ) { call in
      let set: ScalarSet
      switch call.arguments.first?.trimmedDescription {
      case ".whitespaces", "CharacterSet.whitespaces": set = .whitespaces
      case ".whitespacesAndNewlines", "CharacterSet.whitespacesAndNewlines": set = .whitespacesAndNewlines
      case ".newlines", "CharacterSet.newlines": set = .newlines
      case ".punctuationCharacters", "CharacterSet.punctuationCharacters": set = .punctuationCharacters
      default:
        throw call.evaluator.unsupported(
          call.arguments.first.map(Syntax.init) ?? call.node, "a character set other than whitespace, newlines or punctuation")
      }
      return .string(try call.baseString().trimmingScalars(in: set))
    },
    SwiftBuiltin(
      "String", "split(separator: Character, maxSplits: Int, omittingEmptySubsequences: Bool = true) -> [Substring]",
      example:
        #"["a b  c".split(separator: " ", maxSplits: 1), "a,,b,c".split(separator: ",", maxSplits: 2, omittingEmptySubsequences: false)]"#
    ) { call in
      var call = call
      let separator = try call.string(0)
      let limit = try call.int(1)
      let omitting = call.count > 2 ? try call.evaluator.truth(call.value(2), at: call.node) : true
      guard separator.count == 1, let character = separator.first else {
        throw call.evaluator.failure("'split(separator:maxSplits:)' needs a Character", at: call.node)
      }
      guard limit >= 0 else { throw call.evaluator.crash("splits with a negative maxSplits (\(limit))", at: call.node) }
      let parts = try call.baseString().split(separator: character, maxSplits: Int(clamping: limit), omittingEmptySubsequences: omitting)
      return .array(parts.map { .string(String($0)) })
    },
    SwiftBuiltin(
      "String", "split(separator: Character, omittingEmptySubsequences: Bool = true) -> [Substring]",
      example: #""a,b,,c".split(separator: ",")"#
    ) { call in
      let separator = try call.string(0)
      let omitting = call.count > 1 ? try call.evaluator.truth(call.value(1), at: call.node) : true
      guard !separator.isEmpty else { throw call.evaluator.crash("splits on an empty separator", at: call.node) }
      let text = try call.baseString()
      let parts =
        separator.count == 1
        ? text.split(separator: Character(separator), omittingEmptySubsequences: omitting).map(String.init)
        : text.split(separator: separator, omittingEmptySubsequences: omitting).map(String.init)
      return .array(parts.map { .string($0) })
    },
    SwiftBuiltin("String", "components(separatedBy separator: String) -> [String]", example: #""a, b, c".components(separatedBy: ", ")"#) {
      call in
      let separator = try call.string(0)
      guard !separator.isEmpty else { return .array([.string(try call.baseString())]) }
      return .array(try call.baseString().split(separator: separator, omittingEmptySubsequences: false).map { .string(String($0)) })
    },
    SwiftBuiltin("String", "filter(_ isIncluded: (Character) -> Bool) -> String", example: #""a1b2".filter { $0.isNumber }"#) { call in
      let keep = try call.predicate(0)
      var out = ""
      for character in try call.baseString() where try keep(.string(String(character))) { out.append(character) }
      return .string(out)
    },
    SwiftBuiltin("String", "reversed() -> ReversedCollection<String>", example: #"String("abc".reversed())"#) {
      .string(String(try $0.baseString().reversed()))
    },
    SwiftBuiltin("String", "dropFirst(_ k: Int = 1) -> Substring", example: #""hello".dropFirst(2)"#) { call in
      .string(String(try call.baseString().dropFirst(call.count(0))))
    },
    SwiftBuiltin("String", "dropLast(_ k: Int = 1) -> Substring", example: #""hello".dropLast()"#) { call in
      .string(String(try call.baseString().dropLast(call.count(0))))
    },
    SwiftBuiltin("String", "prefix(_ maxLength: Int) -> Substring", example: #""hello".prefix(10)"#) { call in
      .string(String(try call.baseString().prefix(call.count(0))))
    },
    SwiftBuiltin("String", "suffix(_ maxLength: Int) -> Substring", example: #""hello".suffix(3)"#) { call in
      .string(String(try call.baseString().suffix(call.count(0))))
    },
    SwiftBuiltin("String", "isNumber: Bool", example: #"Character("7").isNumber"#) { try character($0) { $0.isNumber } },
    SwiftBuiltin("String", "isLetter: Bool", example: #"Character("é").isLetter"#) { try character($0) { $0.isLetter } },
    SwiftBuiltin("String", "isWhitespace: Bool", example: #"Character(" ").isWhitespace"#) { try character($0) { $0.isWhitespace } },
    SwiftBuiltin("String", "isUppercase: Bool", example: #"Character("A").isUppercase"#) { try character($0) { $0.isUppercase } },
    SwiftBuiltin("String", "isLowercase: Bool", example: #"Character("A").isLowercase"#) { try character($0) { $0.isLowercase } },
    SwiftBuiltin("String", "isPunctuation: Bool", example: #"Character("!").isPunctuation"#) { try character($0) { $0.isPunctuation } },
    SwiftBuiltin("String", "wholeNumberValue: Int?", example: #"Character("7").wholeNumberValue"#) { call in
      let text = try call.baseString()
      guard text.count == 1, let character = text.first else {
        throw call.evaluator.failure("'wholeNumberValue' is a Character's, not a String's", at: call.node)
      }
      return character.wholeNumberValue.map { .some(.int(Int64($0))) } ?? .none
    },
  ]

  /// A Character property: the receiver must be one character.
  private static func character(_ call: BuiltinCall, _ test: (Character) -> Bool) throws -> SwiftValue {
    let text = try call.baseString()
    guard text.count == 1, let character = text.first else {
      throw call.evaluator.failure("'\(call.name)' is a Character's, not a String's; loop over the string's characters", at: call.node)
    }
    return .bool(test(character))
  }
}

extension SwiftBuiltins {
  /// Foundation's `padding(toLength:withPad:startingAt:)`, which counts in UTF-16 code units as
  /// NSString does: cut to `newLength`, or filled with `padString` read from `padIndex` on.
  ///
  /// ```swift
  /// "straße".padding(toLength: 5, withPad: ".", startingAt: 0)  // "straß"
  /// "ab".padding(toLength: 6, withPad: "xyz", startingAt: 1)    // "abyzxy"
  /// ```
  fileprivate static func padding(_ call: inout BuiltinCall) throws -> SwiftValue {
    let text = Array(try call.baseString().utf16)
    let length = try call.int(0)
    let pad = Array(try call.string(1).utf16)
    let start = try call.int(2)
    guard length >= 0 else { throw call.evaluator.crash("pads to a negative length (\(length))", at: call.node) }
    try call.evaluator.budget.allocate(Int(clamping: length))
    var units: [UInt16]
    if length <= text.count {
      units = Array(text.prefix(Int(length)))
    } else {
      // Foundation raises when the pad is empty or the start is outside it.
      guard !pad.isEmpty, start >= 0, start < pad.count else {
        throw call.evaluator.crash("pads from index \(start) of a pad of \(pad.count) UTF-16 units", at: call.node)
      }
      units = text
      var next = Int(start)
      while units.count < Int(length) {
        units.append(pad[next])
        next = (next + 1) % pad.count
      }
    }
    // A cut inside a character's surrogate pair makes a string Swift repairs its own way.
    guard let result = String(validating: units, as: UTF16.self) else {
      throw call.evaluator.unsupported(call.node, "a padding that cuts a character's UTF-16 pair")
    }
    return .string(result)
  }
}
