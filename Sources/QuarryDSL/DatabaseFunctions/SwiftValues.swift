import QueryBuilder
import SwiftSyntax

/// Swift computed before the query is built: `ids.dropFirst()`, `[1, 2, 3].map { $0 * 2 }`,
/// `names.map { "\"\($0)\"" }.joined(separator: ", ")` in a query argument or a `\(raw:)`
/// interpolation. The app computes these in Swift and binds the results; so does Quarry, with
/// the interpreter of `@DatabaseFunction` bodies.
///
/// ```swift
/// let ids = [1, 2, 3]
/// Reminder.where { $0.id.in(ids.dropFirst()) }
/// // … WHERE ("reminders"."id") IN ((2), (3))
/// ```
extension Compiler {
  /// The value of `expr`, computed in Swift, when it uses only values known now.
  func swiftValue(of expr: ExprSyntax) throws -> Value {
    var names: [String: RuntimeValue] = [:]
    for token in expr.tokens(viewMode: .sourceAccurate) {
      guard case .identifier(let name) = token.tokenKind, names[name] == nil else { continue }
      guard let value = lookupLocal(name) ?? catalog.bindings[name], let runtime = runtimeValue(value) else { continue }
      names[name] = runtime
    }
    do {
      return value(of: try SwiftSubsetInterpreter(source: source, enums: catalog.enums).value(of: expr, names: names))
    } catch let error as InterpreterError {
      // The interpreter's message already carries the place.
      let text = error.message
      let parts = text.split(separator: ":", maxSplits: 2)
      if parts.count == 3, let line = Int(parts[0]), let column = Int(parts[1]) {
        throw Diagnostic(
          "this Swift is computed before the query runs, but it" + parts[2], line: line, column: column)
      }
      throw source.diagnostic(text, at: expr)
    }
  }

  /// A constant of the DSL as a Swift value (nil for a column or any SQL computation).
  func runtimeValue(_ value: Value) -> RuntimeValue? {
    switch value {
    case .null: return .null
    case .expression(let typed):
      guard case .value(let binding) = typed.expression.node else { return nil }
      return RuntimeValue(binding, as: typed.type)
    case .array(let elements), .tuple(let elements):
      var values: [RuntimeValue] = []
      for element in elements {
        guard let runtime = runtimeValue(element) else { return nil }
        values.append(runtime)
      }
      return .array(values)
    default:
      return nil
    }
  }

  /// A Swift value as a constant of the DSL.
  func value(of runtime: RuntimeValue) -> Value {
    switch runtime {
    case .null: return .null
    case .bool(let flag): return .expression(TypedExpression(.value(.integer(flag ? 1 : 0)), type: .bool))
    case .int(let number): return .expression(TypedExpression(.value(.integer(number)), type: .int))
    case .double(let number): return .expression(TypedExpression(.value(.double(number)), type: .double))
    case .string(let text): return .expression(TypedExpression(.value(.text(text)), type: .string))
    case .array(let values): return .array(values.map(value(of:)))
    }
  }
}
