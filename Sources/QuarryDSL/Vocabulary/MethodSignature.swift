import QueryBuilder
import SwiftSyntax
import Synchronization

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
      isClosure =
        (bytes.first == UInt8(ascii: "(") && zip(bytes, bytes.dropFirst()).contains { $0 == UInt8(ascii: "-") && $1 == UInt8(ascii: ">") })
        || bytes.first == UInt8(ascii: "@")
    }
  }

  /// What the library says about a spelling it no longer offers or recommends.
  public enum Availability: Sendable, Hashable {
    case available
    /// Still compiles in StructuredQueries, with a warning, from the version `since` on.
    case deprecated(message: String, since: String)
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
  public var parameters: [Parameter]? { shape.value.parameters }
  public var result: String? { shape.value.result }
  public let summary: String
  /// DSL that uses this entry; the test suite compiles every example.
  public let example: String
  public let availability: Availability
  /// What the method asks of its receiver's value type (the declaration's `where` clause):
  /// a call on a receiver that does not meet it is refused, as the compiler refuses it.
  public var requirement: ValueRequirement? { shape.value.requirement }
  /// The signature as declared, for help.
  public let declaration: String
  /// What a call of this entry does, where the entry owns it (dispatch reads it: no switch on
  /// the method's name beside the table).
  let handler: MethodHandler?
  /// Whether the entry owns its handler (every entry of the vocabulary does; the test suite checks).
  public var ownsItsHandler: Bool { handler != nil }
  /// The parameters, result and requirement, read from the declaration when first asked for:
  /// a process that compiles one query reads a handful of the vocabulary's entries, not all.
  private let shape: LazyShape

  public init(
    _ declaration: String, _ summary: String, example: String, function: SQLFunction? = nil,
    availability: Availability = .available
  ) {
    self.init(declaration, summary, example: example, function: function, availability: availability, handler: nil)
  }

  init(
    _ declaration: String, _ summary: String, example: String, function: SQLFunction? = nil,
    availability: Availability = .available, handler: MethodHandler?
  ) {
    self.handler = handler
    self.declaration = declaration
    self.function = function
    self.summary = summary
    self.example = example
    self.availability = availability
    name = Self.name(of: declaration)
    shape = LazyShape(declaration)
  }

  /// Entries are the same when declared the same (the handler compares by its name).
  public static func == (lhs: MethodSignature, rhs: MethodSignature) -> Bool {
    lhs.declaration == rhs.declaration && lhs.summary == rhs.summary && lhs.example == rhs.example
      && lhs.function == rhs.function && lhs.availability == rhs.availability && lhs.handler == rhs.handler
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(declaration)
    hasher.combine(summary)
    hasher.combine(example)
  }

  /// What a declaration says after its name.
  struct Shape: Sendable {
    var parameters: [Parameter]?
    var result: String?
    var requirement: ValueRequirement?
  }

  /// A declaration's shape, parsed once on first use (entries are shared by every thread).
  final class LazyShape: Sendable {
    private let declaration: String
    private let parsed = Mutex<Shape?>(nil)

    init(_ declaration: String) { self.declaration = declaration }

    var value: Shape {
      parsed.withLock { shape in
        if let shape { return shape }
        let made = MethodSignature.shape(of: declaration)
        shape = made
        return made
      }
    }
  }

  /// The parts of a declaration: `name(parameters) -> result where requirement`, as byte
  /// offsets (the `where` clause after the result; a parameter labelled `where` is not one).
  private static func parts(_ bytes: UnsafeBufferPointer<UInt8>)
    -> (nameEnd: Int, parameters: Range<Int>?, result: Range<Int>?, requirement: Range<Int>?)
  {
    var end = bytes.count
    var requirement: Range<Int>?
    let whereClause: StaticString = " where QueryValue"
    if let start = whereClause.withUTF8Buffer({ ByteSearch.firstIndex(of: $0, in: bytes) }) {
      requirement = (start + 7)..<bytes.count
      end = start
    }
    var result: Range<Int>?
    if let arrow = topLevelArrow(bytes, end) {
      result = (arrow + 2)..<end
      end = arrow
    }
    while end > 0, bytes[end - 1] == UInt8(ascii: " ") { end -= 1 }
    if let open = bytes[..<end].firstIndex(of: UInt8(ascii: "(")), end > 0, bytes[end - 1] == UInt8(ascii: ")") {
      return (open, (open + 1)..<(end - 1), result, requirement)
    }
    return (end, nil, result, requirement)
  }

  /// The name a declaration declares: `limit` for `limit(_ maxLength: Int) -> Select`, `all`
  /// for `all -> Select`: the text before the first `(` or space (the test suite checks that
  /// this is the name the whole parse finds, for every entry).
  static func name(of declaration: String) -> String {
    var declaration = declaration
    return declaration.withUTF8 { bytes in
      var end = 0
      while end < bytes.count, bytes[end] != UInt8(ascii: "("), bytes[end] != UInt8(ascii: " ") { end += 1 }
      return text(bytes, 0, end)
    }
  }

  /// The name as the whole parse reads it (what `name(of:)` must agree with).
  static func parsedName(of declaration: String) -> String {
    var declaration = declaration
    return declaration.withUTF8 { bytes in text(bytes, 0, parts(bytes).nameEnd) }
  }

  /// Everything after the name, parsed.
  static func shape(of declaration: String) -> Shape {
    var declaration = declaration
    return declaration.withUTF8 { bytes in
      let parts = parts(bytes)
      return Shape(
        parameters: parts.parameters.map { range in
          splitTopLevel(bytes, range.lowerBound, range.upperBound).compactMap { parameter(bytes, $0.0, $0.1) }
        },
        result: parts.result.map { text(bytes, $0.lowerBound, $0.upperBound) },
        requirement: parts.requirement.flatMap { ValueRequirement(clause: text(bytes, $0.lowerBound, $0.upperBound)) })
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
  static func text(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> String {
    var start = start
    var end = end
    while start < end, bytes[start] == UInt8(ascii: " ") { start += 1 }
    while end > start, bytes[end - 1] == UInt8(ascii: " ") { end -= 1 }
    return String(decoding: bytes[start..<end], as: UTF8.self)
  }

  /// One parameter, `label name: Type = default`; nil for an empty slot.
  static func parameter(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Parameter? {
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
  static func splitTopLevel(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> [(Int, Int)] {
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
  static func topLevelArrow(_ bytes: UnsafeBufferPointer<UInt8>, _ end: Int) -> Int? {
    var depth = 0
    var index = 0
    while index + 1 < end {
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
