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
      return .lazySequence(type: "String.UTF8View", elements: bytes.map { .int(Int64($0)) })
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
      // The standard library's search, not Foundation's (which, on Linux, finds "\0\0" in "ab\0").
      return .bool(needle.isEmpty ? true : try call.baseString().firstRange(of: needle) != nil)
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
