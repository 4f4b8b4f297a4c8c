import QueryBuilder
import SwiftSyntax

/// One method of the DSL, declared once as the Swift signature StructuredQueries gives it.
///
/// The signature is written the way it reads in the library (`limit(_ maxLength: Int, offset:
/// Int? = nil) -> Select`); its argument labels are what a call is checked against, and `.help`,
/// completion and "did you mean" read the same entry.
///
/// ```swift
/// MethodSignature("limit(_ maxLength: Int, offset: Int? = nil) -> Select",
///                 "At most maxLength rows, after skipping offset", example: "Reminder.limit(3, offset: 1)")
/// // labels: [nil, "offset"]; `.limit(5, ofset: 2)` → "'limit' has no argument 'ofset'; did you mean 'offset'?"
/// ```
public struct MethodSignature: Sendable, Hashable {
  /// A parameter: its argument label (nil for `_`), its type as written, and whether a call
  /// may leave it out (it has a default, or is variadic).
  public struct Parameter: Sendable, Hashable {
    public var label: String?
    public var type: String
    public var hasDefault: Bool
    public var isVariadic: Bool
    /// `fields: Field...` stands for one labelled argument per field of the type (`Columns(…)`,
    /// a memberwise initializer): any label is taken here and checked against the type's fields.
    public var isFieldList: Bool { isVariadic && label == "fields" }
    /// A closure parameter (`(TableColumns) -> …`): a trailing closure can fill it.
    public var isClosure: Bool

    init(label: String?, type: String, hasDefault: Bool, isVariadic: Bool) {
      self.label = label
      self.type = type
      self.hasDefault = hasDefault
      self.isVariadic = isVariadic
      let bytes = Array(type.utf8)
      isClosure = (bytes.first == UInt8(ascii: "(") && zip(bytes, bytes.dropFirst()).contains { $0 == UInt8(ascii: "-") && $1 == UInt8(ascii: ">") })
        || bytes.first == UInt8(ascii: "@")
    }
  }

  /// What the library says about a spelling it no longer offers or recommends.
  public enum Availability: Sendable, Hashable {
    case available
    /// Still compiles in StructuredQueries, with a warning.
    case deprecated(message: String)
    /// Refused by current StructuredQueries; older versions (and their docs) rendered it.
    case unavailable(message: String)
  }

  /// A method that is one SQL function of its receiver (and its arguments).
  public enum SQLFunction: Sendable, Hashable {
    /// `$0.title.length()` → `length("reminders"."title")`
    case scalar(String)
    /// `$0.id.count()` → `count("reminders"."id")`, with DISTINCT, ORDER BY and FILTER
    case aggregate(String)
  }

  public let name: String
  /// The SQL function this method renders, when it is one.
  public let function: SQLFunction?
  /// nil for a property (`Reminder.all`), the parameters for a method.
  public let parameters: [Parameter]?
  public let result: String?
  public let summary: String
  /// DSL that uses this entry; the test suite compiles every example.
  public let example: String
  public let availability: Availability
  /// What the method asks of its receiver's value type (the declaration's `where` clause):
  /// a call on a receiver that does not meet it is refused, as the compiler refuses it.
  public let requirement: ValueRequirement?
  /// The signature as declared, for help.
  public let declaration: String
  /// What a call of this entry does, where the entry owns it (dispatch reads it: no switch on
  /// the method's name beside the table).
  let handler: MethodHandler?
  /// Whether the entry owns its handler (every entry of the vocabulary does; the test suite checks).
  public var ownsItsHandler: Bool { handler != nil }

  public init(_ declaration: String, _ summary: String, example: String, function: SQLFunction? = nil,
              availability: Availability = .available) {
    self.init(declaration, summary, example: example, function: function, availability: availability, handler: nil)
  }

  init(_ declaration: String, _ summary: String, example: String, function: SQLFunction? = nil,
       availability: Availability = .available, handler: MethodHandler?) {
    self.handler = handler
    self.declaration = declaration
    self.function = function
    self.summary = summary
    self.example = example
    self.availability = availability
    // Parsed over UTF-8 bytes: every entry is read at start-up, so this must cost microseconds.
    var bytes = Array(declaration.utf8)
    // The clause after the result (a parameter labelled `where` is not one).
    let whereKeyword = Array(" where ".utf8)
    if let start = ByteSearch.firstIndex(of: Array(" where QueryValue".utf8), in: bytes) {
      requirement = ValueRequirement(clause: Self.text(bytes, start + whereKeyword.count, bytes.count))
      bytes.removeSubrange(start...)
    } else {
      requirement = nil
    }
    var end = bytes.count
    var result: String?
    if let arrow = Self.topLevelArrow(bytes) {
      result = Self.text(bytes, arrow + 2, bytes.count)
      end = arrow
    }
    while end > 0, bytes[end - 1] == UInt8(ascii: " ") { end -= 1 }
    self.result = result
    if let open = bytes[..<end].firstIndex(of: UInt8(ascii: "(")), end > 0, bytes[end - 1] == UInt8(ascii: ")") {
      name = Self.text(bytes, 0, open)
      parameters = Self.splitTopLevel(bytes, open + 1, end - 1).compactMap { Self.parameter(bytes, $0.0, $0.1) }
    } else {
      name = Self.text(bytes, 0, end)
      parameters = nil
    }
  }

  /// The argument labels in order, Swift's way of naming an overload: `limit(_:offset:)`.
  public var selector: String {
    guard let parameters else { return name }
    return name + "(" + parameters.map { ($0.label ?? "_") + ":" }.joined() + ")"
  }

  /// Whether a call with these arguments fits, Swift's way: arguments in the declared order,
  /// defaulted and variadic parameters may be left out, and an unlabelled trailing closure fills
  /// the next closure parameter whatever its label.
  public func accepts(_ arguments: some Collection<(label: String?, isTrailingClosure: Bool)>) -> Bool {
    guard let parameters else { return arguments.isEmpty }
    if parameters.contains(where: \.isFieldList) { return true }
    var index = 0
    for argument in arguments {
      var matched = false
      while index < parameters.count {
        let parameter = parameters[index]
        let fits = argument.isTrailingClosure && argument.label == nil ? parameter.isClosure : parameter.label == argument.label
        if fits {
          matched = true
          if !parameter.isVariadic { index += 1 }
          break
        }
        guard parameter.hasDefault || parameter.isVariadic else { return false }
        index += 1
      }
      if !matched { return false }
    }
    return parameters[index...].allSatisfy { $0.hasDefault || $0.isVariadic }
  }

  /// The words of `text` between spaces, found byte by byte (`split` walks Characters: at
  /// start-up, for every entry, it cost more than the rest of the parse).
  static func words(_ text: String) -> [Substring] {
    var words: [Substring] = []
    var start: String.Index?
    let utf8 = text.utf8
    var index = utf8.startIndex
    while index != utf8.endIndex {
      if utf8[index] == UInt8(ascii: " ") {
        if let wordStart = start { words.append(text[wordStart..<index]) }
        start = nil
      } else if start == nil {
        start = index
      }
      utf8.formIndex(after: &index)
    }
    if let wordStart = start { words.append(text[wordStart...]) }
    return words
  }

  /// The text of `bytes[start..<end]` without surrounding spaces.
  static func text(_ bytes: [UInt8], _ start: Int, _ end: Int) -> String {
    var start = start, end = end
    while start < end, bytes[start] == UInt8(ascii: " ") { start += 1 }
    while end > start, bytes[end - 1] == UInt8(ascii: " ") { end -= 1 }
    return String(decoding: bytes[start..<end], as: UTF8.self)
  }

  /// One parameter, `label name: Type = default`; nil for an empty slot.
  static func parameter(_ bytes: [UInt8], _ start: Int, _ end: Int) -> Parameter? {
    var depth = 0
    var colon: Int?
    for index in start..<end {
      switch bytes[index] {
      case UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "<"): depth += 1
      case UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: ">"): depth -= 1
      case UInt8(ascii: ":") where depth == 0 && colon == nil: colon = index
      default: break
      }
    }
    guard let colon else {
      let type = text(bytes, start, end)
      return type.isEmpty ? nil : Parameter(label: nil, type: type, hasDefault: false, isVariadic: false)
    }
    let names = words(text(bytes, start, colon))
    var typeEnd = end
    var hasDefault = false
    var index = colon + 1
    while index + 2 < end {
      if bytes[index] == UInt8(ascii: " "), bytes[index + 1] == UInt8(ascii: "="), bytes[index + 2] == UInt8(ascii: " ") {
        hasDefault = true
        typeEnd = index
        break
      }
      index += 1
    }
    let type = text(bytes, colon + 1, typeEnd)
    let label = names.first.map(String.init)
    return Parameter(label: label == "_" ? nil : label, type: type, hasDefault: hasDefault, isVariadic: type.hasSuffix("..."))
  }

  /// The ranges between commas outside brackets (an arrow's `>` closes nothing).
  static func splitTopLevel(_ bytes: [UInt8], _ start: Int, _ end: Int) -> [(Int, Int)] {
    var parts: [(Int, Int)] = []
    var depth = 0
    var partStart = start
    var index = start
    while index < end {
      switch bytes[index] {
      case UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "<"): depth += 1
      case UInt8(ascii: ")"), UInt8(ascii: "]"): depth -= 1
      case UInt8(ascii: ">") where index == start || bytes[index - 1] != UInt8(ascii: "-"): depth -= 1
      case UInt8(ascii: ",") where depth == 0:
        parts.append((partStart, index))
        partStart = index + 1
      default: break
      }
      index += 1
    }
    parts.append((partStart, end))
    return parts
  }

  /// The `->` of the result, outside the parameter list.
  static func topLevelArrow(_ bytes: [UInt8]) -> Int? {
    var depth = 0
    var index = 0
    while index + 1 < bytes.count {
      switch bytes[index] {
      case UInt8(ascii: "("), UInt8(ascii: "["): depth += 1
      case UInt8(ascii: ")"), UInt8(ascii: "]"): depth -= 1
      case UInt8(ascii: "-") where depth == 0 && bytes[index + 1] == UInt8(ascii: ">"): return index
      default: break
      }
      index += 1
    }
    return nil
  }
}
