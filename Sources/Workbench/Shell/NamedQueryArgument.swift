import QuarryDSL
import QueryBuilder

/// An argument of `.run NAME ARGS`: a number, `true`/`false`/`nil`, or text (quoted or not).
/// It reaches the query as a value, never as query text.
///
/// ```swift
/// NamedQueryArgument("42").value         // .integer(42)
/// NamedQueryArgument("\"a \\\"b\\\"\"").swiftLiteral  // "a \"b\"" as a Swift string literal
/// ```
struct NamedQueryArgument {
  var value: QueryBinding
  /// How the value is spelled in DSL text: a literal the compiler binds as a parameter.
  var swiftLiteral: String

  init(_ text: String) {
    if let integer = Int64(text) {
      value = .integer(integer)
      swiftLiteral = String(integer)
    } else if let double = Double(text), double.isFinite, text.first.map({ $0.isNumber || $0 == "-" || $0 == "." }) == true {
      value = .double(double)
      swiftLiteral = "\(double)"
    } else if text == "true" || text == "false" {
      value = .integer(text == "true" ? 1 : 0)
      swiftLiteral = text
    } else if text == "nil" || text == "NULL" {
      value = .null
      swiftLiteral = "nil"
    } else {
      var unquoted = Substring(text)
      if unquoted.count >= 2, let first = unquoted.first, first == "\"" || first == "'", unquoted.last == first {
        unquoted = unquoted.dropFirst().dropLast()
      }
      value = .text(String(unquoted))
      swiftLiteral = SwiftLiterals.quoted(String(unquoted))
    }
  }

  /// The parameter numbers (`$1`, `$2` …) a query uses; `$1.id` is a closure's second
  /// parameter, not one of them.
  static func parameters(in input: String) -> [Int] {
    var found: Set<Int> = []
    forEachParameter(in: input) { number, _ in found.insert(number) }
    return found.sorted()
  }

  /// The input with each `$N` replaced by the literal of argument N.
  static func substitute(_ arguments: [NamedQueryArgument], into input: String) -> String {
    var out = ""
    var last = input.startIndex
    forEachParameter(in: input) { number, range in
      guard number <= arguments.count else { return }
      out += input[last..<range.lowerBound]
      out += arguments[number - 1].swiftLiteral
      last = range.upperBound
    }
    return out + input[last...]
  }

  private static func forEachParameter(in input: String, _ body: (Int, Range<String.Index>) -> Void) {
    var index = input.startIndex
    while index < input.endIndex {
      guard input[index] == "$" else {
        index = input.index(after: index)
        continue
      }
      let digitsStart = input.index(after: index)
      let digitsEnd = input[digitsStart...].firstIndex { !$0.isASCII || !$0.isNumber } ?? input.endIndex
      let next = digitsEnd < input.endIndex ? input[digitsEnd] : nil
      if digitsEnd > digitsStart, let number = Int(input[digitsStart..<digitsEnd]), number > 0,
        next.map({ !($0 == "." || $0 == "_" || $0.isLetter) }) ?? true
      {
        body(number, index..<digitsEnd)
      }
      index = digitsEnd > digitsStart ? digitsEnd : digitsStart
    }
  }
}
