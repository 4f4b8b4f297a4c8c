import QueryBuilder
import SwiftSyntax

/// The macros of the DSL: `#sql(…)` and `#bind(…)`.
extension FunctionMethods {
  func evaluateMacro(_ macro: MacroExpansionExprSyntax, expected: SwiftType? = nil) throws -> Value {
    let name = macro.macroName.text
    // A label the macro does not have (`#sql("…", ass: Int.self)`): named, with the closest one.
    let declared = Set(Vocabulary.methods(named: "#" + name, on: .function).flatMap { $0.parameters ?? [] }.compactMap(\.label))
    if !declared.isEmpty {
      for argument in macro.arguments {
        guard let label = argument.label, !declared.contains(label.text) else { continue }
        throw compiler.source.diagnostic(
          "'#\(name)' has no argument '\(label.text)'", at: label, suggestion: closestMatch(to: label.text, in: declared))
      }
    }
    if let value = try compiler.dispatch("#" + name, on: .function, receiver: .null, CallSite(macro: macro, expected: expected)) {
      return value
    }
    throw compiler.source.diagnostic("not supported in Quarry yet: the #\(name) macro", at: macro.macroName)
  }

  /// `#sql("…")`: raw SQL, its interpolations bound (`\(value)`), spliced (`\(raw:)`) or quoted
  /// (`\(quote:)`); Swift computations inside are computed in Swift first.
  func sql(_ macro: MacroExpansionExprSyntax, expected: SwiftType?) throws -> Value {
    guard let first = macro.arguments.first,
      let literal = first.expression.as(StringLiteralExprSyntax.self)
    else {
      throw compiler.source.diagnostic("#sql needs a string literal: #sql(\"…\")", at: macro)
    }
    var parts: [SQLPart] = []
    // The quote or bracket the text has open, as the library's macro follows it: a value bound
    // inside '…' would be the text '?', so the compiler refuses it.
    var open: (closing: Character, opening: Character)?
    var inComment = false
    for segment in literal.segments {
      if let text = segment.as(StringSegmentSyntax.self) {
        let unescaped = try compiler.unescape(text, in: literal)
        var previous: Character = " "
        for character in unescaped {
          if inComment {
            if character == "\n" { inComment = false }
          } else if let current = open {
            if character == current.closing { open = nil }
          } else if character == "-", previous == "-" {
            inComment = true
          } else if let closing = ["'": "'", "\"": "\"", "`": "`", "[": "]"][character] as Character? {
            open = (closing, character)
          }
          previous = character
        }
        parts.append(.text(unescaped))
      } else if let interpolation = segment.as(ExpressionSegmentSyntax.self),
        let element = interpolation.expressions.first
      {
        if let current = open, element.label?.text != "raw" {
          let quote = current.opening == "'" ? "\"" : "'"
          throw compiler.source.diagnostic(
            "bind after opening \(quote)\(current.opening)\(quote) in SQL string, producing invalid fragment (the value would be bound as a parameter inside the quotes, where SQLite reads the text '?'): interpolate it outside the quotes (\\(value), SQLite quotes a bound value itself), or, to splice raw SQL, use '\\(raw:)'",
            at: interpolation)
        }
        var value = try compiler.evaluate(element.expression)
        // `\(someDate - 604800)`, `\(limit * 2)`: Swift values computed in Swift, as the app
        // computes them, then bound — never SQL arithmetic on the values.
        if case .expression(let typed) = value, typed.expression.isComputationOfConstants {
          value = try compiler.swiftValue(of: element.expression)
        }
        switch element.label?.text {
        case "raw":
          compiler.features.insert(.rawSplice)
          guard case .expression(let e) = value, case .value(let binding) = e.expression.node else {
            throw compiler.source.diagnostic("\\(raw:) needs a plain value", at: element.expression)
          }
          switch binding {
          case .text(let text): parts.append(.text(text))
          case .parameter(let name):
            // A scan: SQL text the app splices in when it runs; the statement is not known here.
            throw RunTimeValue(name: name)
          default: parts.append(.text(binding.inlineSQL))
          }
        case "quote":
          guard case .expression(let e) = value, case .value(.text(let text)) = e.expression.node else {
            throw compiler.source.diagnostic("\\(quote:) needs a string", at: element.expression)
          }
          // `delimiter: .text` quotes a string literal ('it''s'); the default an identifier.
          let delimiter = interpolation.expressions.dropFirst().first { $0.label?.text == "delimiter" }
          switch delimiter?.expression.trimmedDescription {
          case nil, ".identifier": parts.append(.text(quoteIdentifier(text)))
          case ".text": parts.append(.text(quoteText(text)))
          default:
            throw compiler.source.diagnostic("'delimiter:' is .identifier or .text", at: delimiter?.expression ?? element.expression)
          }
        case "bind", nil:
          if case .expression(let typed) = value, case .value = typed.expression.node { compiler.features.insert(.boundInterpolation) }
          switch value {
          case .columns(let table):
            parts.append(.text(table.allColumns.map { $0.expression.fragment.sql(inlining: true) }.joined(separator: ", ")))
          case .table(let table):
            parts.append(.text(quoteIdentifier(table.qualifier)))
          case .query(let query):
            // A query, or a record (`SELECT 1 AS "id", …`): its SELECT as written (the text
            // supplies any parentheses).
            parts.append(.expression(Expression(.statement(.select(query.select)))))
          case .selection(let pairs, _):
            // `Row.Columns(…)`: its expressions, comma-separated, as the text's own columns.
            for (index, pair) in pairs.enumerated() {
              if index > 0 { parts.append(.text(", ")) }
              parts.append(.expression(pair.1.expression))
            }
          case .group(let table, let path):
            // A column group: its columns, comma-separated (the text supplies any parentheses).
            for (index, column) in compiler.rowMethods.groupColumns(table, path).enumerated() {
              if index > 0 { parts.append(.text(", ")) }
              parts.append(.expression(column.expression))
            }
          default:
            parts.append(.expression(try compiler.typedExpression(value, at: element.expression).expression))
          }
        default:
          throw compiler.source.diagnostic("not supported in Quarry yet: \\(\(element.label?.text ?? ""):) in #sql", at: element)
        }
      }
    }
    var type: SwiftType?
    if let asArgument = macro.arguments.first(where: { $0.label?.text == "as" }) {
      let name = asArgument.expression.trimmedDescription.replacingOccurrences(".self", "")
      type = name.hasSuffix("?") ? SwiftType(String(name.dropLast()), optional: true) : SwiftType(name)
    }
    return .expression(TypedExpression(Expression(.sql(parts)), type: type))
  }

  /// `#bind(value)`, `#bind(value, as: T.JSONRepresentation.self)`: a Swift value as a bound SQL
  /// value (in that representation).
  func bind(_ macro: MacroExpansionExprSyntax, expected: SwiftType?) throws -> Value {
    guard let first = macro.arguments.first else {
      throw compiler.source.diagnostic("#bind needs a value", at: macro)
    }
    // `#bind(xs, as: [Double].JSONRepresentation.self)`: the value in that representation.
    if let asArgument = macro.arguments.first(where: { $0.label?.text == "as" }) {
      let representation = asArgument.expression.trimmedDescription.replacingOccurrences(".self", "")
      let name = representation.split(separator: ".").first.map(String.init) ?? representation
      let type = SwiftType(name, representation: representation)
      return .expression(
        try compiler.typedExpression(try compiler.evaluate(first.expression, expected: type), expected: type, at: first.expression))
    }
    return try compiler.evaluate(first.expression, expected: expected)
  }
}
