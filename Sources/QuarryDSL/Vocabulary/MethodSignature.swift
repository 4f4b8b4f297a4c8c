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
    public var isFieldList: Bool { label == "fields" && isVariadic }
    /// A closure parameter (`(TableColumns) -> …`): a trailing closure can fill it.
    public var isClosure: Bool { type.hasPrefix("(") && type.contains("->") || type.hasPrefix("@") }
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
  /// The signature as declared, for help.
  public let declaration: String

  public init(_ declaration: String, _ summary: String, example: String, function: SQLFunction? = nil,
              availability: Availability = .available) {
    self.declaration = declaration
    self.function = function
    self.summary = summary
    self.example = example
    self.availability = availability
    var text = Substring(declaration)
    var result: String?
    if let arrow = Self.topLevelArrow(in: text) {
      result = text[text.index(arrow, offsetBy: 2)...].trimmingSpaces()
      text = text[..<arrow]
    }
    while text.last == " " { text = text.dropLast() }
    self.result = result
    if let open = text.firstIndex(of: "("), text.last == ")" {
      name = String(text[..<open]).trimmingSpaces()
      let inside = text[text.index(after: open)..<text.index(before: text.endIndex)]
      parameters = Self.splitTopLevel(inside).filter { !$0.allSatisfy(\.isWhitespace) }.map(Self.parameter)
    } else {
      name = String(text).trimmingSpaces()
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
  public func accepts(_ arguments: [(label: String?, isTrailingClosure: Bool)]) -> Bool {
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

  static func parameter(_ text: Substring) -> Parameter {
    let trimmed = text.trimmingSpaces()
    guard let colon = Self.topLevelColon(in: Substring(trimmed)) else {
      return Parameter(label: nil, type: trimmed, hasDefault: false, isVariadic: false)
    }
    let names = trimmed[..<colon].split(separator: " ")
    var type = String(trimmed[trimmed.index(after: colon)...]).trimmingSpaces()
    var hasDefault = false
    if let equals = type.firstRange(of: " = ") {
      hasDefault = true
      type = String(type[..<equals.lowerBound])
    }
    let isVariadic = type.hasSuffix("...")
    let label = names.first.map(String.init)
    return Parameter(label: label == "_" ? nil : label, type: type, hasDefault: hasDefault, isVariadic: isVariadic)
  }

  /// Splits at commas outside brackets.
  static func splitTopLevel(_ text: Substring) -> [Substring] {
    var parts: [Substring] = []
    var depth = 0
    var start = text.startIndex
    for index in text.indices {
      switch text[index] {
      case "(", "[", "<": depth += 1
      case ")", "]", ">": if text[text.index(before: index)] != "-" { depth -= 1 }
      case "," where depth == 0:
        parts.append(text[start..<index])
        start = text.index(after: index)
      default: break
      }
    }
    parts.append(text[start...])
    return parts
  }

  /// The `->` of the result, outside the parameter list.
  static func topLevelArrow(in text: Substring) -> Substring.Index? {
    var depth = 0
    var index = text.startIndex
    while index < text.endIndex {
      let character = text[index]
      if character == "(" || character == "[" { depth += 1 }
      if character == ")" || character == "]" { depth -= 1 }
      if character == "-", depth == 0, text[index...].hasPrefix("->") { return index }
      index = text.index(after: index)
    }
    return nil
  }

  static func topLevelColon(in text: Substring) -> Substring.Index? {
    var depth = 0
    for index in text.indices {
      switch text[index] {
      case "(", "[", "<": depth += 1
      case ")", "]", ">": depth -= 1
      case ":" where depth == 0: return index
      default: break
      }
    }
    return nil
  }
}

extension StringProtocol {
  func trimmingSpaces() -> String {
    String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
  }
}
