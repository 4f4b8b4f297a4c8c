import QueryBuilder
import SwiftSyntax

/// Swift arrays and tuples of DSL values in app code: `ids.enumerated()`, `ids.first!`,
/// `rest.reduce(Case($0.id).when(…)) { cases, id in cases.when(id.element, then: id.offset) }` —
/// the reordering idiom of SQLiteData's example apps, whose accumulator is a query value, not
/// a Swift one. Arrays of known constants are computed by the Swift interpreter instead.
///
/// ```swift
/// let ids = [3, 1, 2]
/// Reminder.where { $0.id.in(ids) }.update {
///   let ids = Array(ids.enumerated())
///   let (first, rest) = (ids.first!, ids.dropFirst())
///   $0.position = rest.reduce(Case($0.id).when(first.element, then: first.offset)) { cases, id in
///     cases.when(id.element, then: id.offset)
///   }.else($0.position)
/// }
/// // SET "position" = CASE "reminders"."id" WHEN 3 THEN 0 WHEN 1 THEN 1 WHEN 2 THEN 2 ELSE "reminders"."position" END
/// ```
extension Compiler {
  /// A property of an array or tuple value: `first`, `last`, `count`, `isEmpty`; `offset` and
  /// `element` (or `0`, `1`) of an `enumerated()` pair.
  func collectionMember(_ name: String, of base: Value, at node: some SyntaxProtocol) throws -> Value? {
    switch base {
    case .array(let elements):
      switch name {
      case "first": return elements.first ?? .null
      case "last": return elements.last ?? .null
      case "count": return .expression(TypedExpression(.value(.integer(Int64(elements.count))), type: .int))
      case "isEmpty": return .expression(TypedExpression(.value(.integer(elements.isEmpty ? 1 : 0)), type: .bool))
      default: return nil
      }
    case .tuple(let parts):
      let index: Int? = switch name {
      case "offset", "key": parts.count == 2 ? 0 : nil
      case "element", "value": parts.count == 2 ? 1 : nil
      default: Int(name)
      }
      guard let index, parts.indices.contains(index) else { return nil }
      return parts[index]
    default:
      return nil
    }
  }

  /// A method of an array of DSL values, computed structurally; closures run in the compiler.
  func arrayMethod(_ name: String, on elements: [Value], arguments: Arguments) throws -> Value? {
    let call = arguments.call
    func count() throws -> Int {
      guard let syntax = arguments.first() else { return 1 }
      guard case .expression(let typed) = try evaluate(syntax), case .value(.integer(let number)) = typed.expression.node,
        let small = Int(exactly: number), small >= 0
      else { throw source.diagnostic("'\(name)' needs a count known before the query runs", at: syntax) }
      return small
    }
    func closure() throws -> ClosureExprSyntax {
      guard let closure = arguments.list.last?.expression.as(ClosureExprSyntax.self) else {
        throw source.diagnostic("'\(name)' needs a closure here", at: call)
      }
      return closure
    }
    switch name {
    case "enumerated":
      return .array(elements.enumerated().map { .tuple([.expression(TypedExpression(.value(.integer(Int64($0.offset))), type: .int)), $0.element]) })
    case "dropFirst": return .array(Array(elements.dropFirst(try count())))
    case "dropLast": return .array(Array(elements.dropLast(try count())))
    case "prefix": return .array(Array(elements.prefix(try count())))
    case "suffix": return .array(Array(elements.suffix(try count())))
    case "reversed": return .array(elements.reversed())
    case "map":
      let transform = try closure()
      return .array(try elements.map { try invoke(transform, with: [$0]) })
    case "reduce":
      guard let initial = arguments.first() else { return nil }
      let combine = try closure()
      var result = try evaluate(initial)
      for element in elements { result = try invoke(combine, with: [result, element]) }
      return result
    default:
      return nil
    }
  }
}
