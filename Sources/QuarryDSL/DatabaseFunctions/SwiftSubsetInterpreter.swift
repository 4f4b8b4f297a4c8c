import Foundation
import SwiftSyntax

/// A value inside a `@DatabaseFunction` body while it runs.
enum RuntimeValue: Equatable {
  case null
  case bool(Bool)
  case int(Int64)
  case double(Double)
  case string(String)
  /// An array, a sequence of rows, or a tuple.
  case array([RuntimeValue])
}

/// Why a `@DatabaseFunction` body cannot run here: located in the body's source.
struct InterpreterError: Error {
  var message: String
}

/// Runs the body of a `@DatabaseFunction` in the small part of Swift Quarry knows: values of
/// `String`, `Int`, `Double`, `Bool`, optionals and arrays; `let`/`var`, assignment, `if`,
/// `guard`, `for … in`, `return`, `? :`, `??`; arithmetic (overflow is an error, as it traps
/// in Swift) and comparison; string methods (`uppercased()`, `hasPrefix(_:)`,
/// `replacingOccurrences(of:with:)`, …) and sequence methods (`map`, `filter`, `reduce`,
/// `count`, `max()`, `joined(separator:)`, …). Anything else stops with a located message
/// naming it — never a guessed result.
///
/// ```swift
/// @DatabaseFunction func shout(_ text: String) -> String { text.uppercased() + "!" }
/// // SELECT "shout"('hi')  →  'HI!'
/// ```
struct SwiftSubsetInterpreter {
  let source: SourceUnit
  /// Enum cases the body may name (`Priority.high`, `.high` where the type is known).
  let enums: [String: EnumModel]

  private final class Frame {
    var names: [String: RuntimeValue]
    init(_ names: [String: RuntimeValue]) { self.names = names }
  }

  private enum Flow {
    case next
    case returned(RuntimeValue)
    case continued
    case broke
  }

  /// The value of one expression, with `names` in scope (array methods in a query argument).
  func value(of expr: ExprSyntax, names: [String: RuntimeValue]) throws -> RuntimeValue {
    var steps = 0
    return try evaluate(expr, [Frame(names)], &steps)
  }

  /// Runs `body` with its parameters bound; the value it returns (or its single expression).
  func run(_ body: CodeBlockItemListSyntax, arguments: [String: RuntimeValue]) throws -> RuntimeValue {
    var steps = 0
    let frames = [Frame(arguments)]
    if body.count == 1, let only = body.first, case .expr(let expr) = only.item {
      return try evaluate(expr, frames, &steps)
    }
    switch try execute(body, frames + [Frame([:])], &steps) {
    case .returned(let value): return value
    default: return .null
    }
  }

  // MARK: Statements

  private func execute(_ items: CodeBlockItemListSyntax, _ frames: [Frame], _ steps: inout Int) throws -> Flow {
    for item in items {
      steps += 1
      guard steps < 1_000_000 else { throw failure("runs too long (over a million steps)", at: item) }
      switch item.item {
      case .decl(let decl):
        guard let variable = decl.as(VariableDeclSyntax.self) else { throw unsupported(decl) }
        for binding in variable.bindings {
          guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { throw unsupported(binding.pattern) }
          let value = try binding.initializer.map { try evaluate($0.value, frames, &steps) } ?? .null
          frames.last?.names[name] = value
        }
      case .expr(let expr):
        if let flow = try executeExpression(expr, frames, &steps) { return flow }
      case .stmt(let stmt):
        let flow = try execute(stmt, frames, &steps)
        if case .next = flow { continue }
        return flow
      }
    }
    return .next
  }

  private func execute(_ stmt: StmtSyntax, _ frames: [Frame], _ steps: inout Int) throws -> Flow {
    if let returned = stmt.as(ReturnStmtSyntax.self) {
      return .returned(try returned.expression.map { try evaluate($0, frames, &steps) } ?? .null)
    }
    if stmt.is(ContinueStmtSyntax.self) { return .continued }
    if stmt.is(BreakStmtSyntax.self) { return .broke }
    if let expression = stmt.as(ExpressionStmtSyntax.self) {
      return try executeExpression(expression.expression, frames, &steps) ?? .next
    }
    if let guardStmt = stmt.as(GuardStmtSyntax.self) {
      let scope = Frame([:])
      if try conditionsHold(guardStmt.conditions, frames, scope, &steps) {
        for (name, value) in scope.names { frames.last?.names[name] = value }
        return .next
      }
      let flow = try execute(guardStmt.body.statements, frames + [Frame([:])], &steps)
      if case .next = flow { throw failure("a 'guard … else' must leave the function or loop", at: guardStmt) }
      return flow
    }
    if let loop = stmt.as(ForStmtSyntax.self) {
      guard case .array(let elements) = try sequence(loop.sequence, frames, &steps) else {
        throw failure("'for' loops over an array or the function's sequence here", at: loop.sequence)
      }
      for element in elements {
        let scope = Frame([:])
        try bind(loop.pattern, element, scope)
        if let condition = loop.whereClause?.condition, try truth(evaluate(condition, frames + [scope], &steps), at: condition) == false {
          continue
        }
        switch try execute(loop.body.statements, frames + [scope], &steps) {
        case .returned(let value): return .returned(value)
        case .broke: return .next
        case .continued, .next: continue
        }
      }
      return .next
    }
    throw unsupported(stmt)
  }

  /// An expression used as a statement: an `if`, an assignment, or a call whose value is unused.
  private func executeExpression(_ expr: ExprSyntax, _ frames: [Frame], _ steps: inout Int) throws -> Flow? {
    if let conditional = expr.as(IfExprSyntax.self) {
      let flow = try executeIf(conditional, frames, &steps)
      if case .next = flow { return nil }
      return flow
    }
    if let sequence = expr.as(SequenceExprSyntax.self), sequence.elements.count == 3 {
      let elements = Array(sequence.elements)
      let op = elements[1].is(AssignmentExprSyntax.self) ? "=" : elements[1].as(BinaryOperatorExprSyntax.self)?.operator.text
      if let op, ["=", "+=", "-=", "*=", "/=", "%="].contains(op) {
        guard let name = elements[0].as(DeclReferenceExprSyntax.self)?.baseName.text,
          let frame = frames.last(where: { $0.names[name] != nil })
        else { throw failure("assigns to something other than a local variable", at: elements[0]) }
        var value = try evaluate(elements[2], frames, &steps)
        if op != "=", let current = frame.names[name] {
          value = try arithmetic(String(op.dropLast()), current, value, at: expr)
        }
        frame.names[name] = value
        return nil
      }
    }
    _ = try evaluate(expr, frames, &steps)
    return nil
  }

  private func executeIf(_ conditional: IfExprSyntax, _ frames: [Frame], _ steps: inout Int) throws -> Flow {
    let scope = Frame([:])
    if try conditionsHold(conditional.conditions, frames, scope, &steps) {
      return try execute(conditional.body.statements, frames + [scope], &steps)
    }
    switch conditional.elseBody {
    case .ifExpr(let next)?: return try executeIf(next, frames, &steps)
    case .codeBlock(let block)?: return try execute(block.statements, frames + [Frame([:])], &steps)
    case nil: return .next
    }
  }

  /// `if a, let b = c`: every condition, binding optionals into `scope`.
  private func conditionsHold(
    _ conditions: ConditionElementListSyntax, _ frames: [Frame], _ scope: Frame, _ steps: inout Int
  ) throws -> Bool {
    for element in conditions {
      switch element.condition {
      case .expression(let expr):
        guard try truth(evaluate(expr, frames + [scope], &steps), at: expr) else { return false }
      case .optionalBinding(let binding):
        guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { throw unsupported(binding.pattern) }
        let value = try binding.initializer.map { try evaluate($0.value, frames + [scope], &steps) }
          ?? lookup(name, frames) ?? .null
        if value == .null { return false }
        scope.names[name] = value
      default:
        throw unsupported(element)
      }
    }
    return true
  }

  private func bind(_ pattern: PatternSyntax, _ value: RuntimeValue, _ scope: Frame) throws {
    if let identifier = pattern.as(IdentifierPatternSyntax.self) {
      scope.names[identifier.identifier.text] = value
    } else if pattern.is(WildcardPatternSyntax.self) {
      return
    } else if let tuple = pattern.as(TuplePatternSyntax.self), case .array(let parts) = value, parts.count == tuple.elements.count {
      for (element, part) in zip(tuple.elements, parts) { try bind(element.pattern, part, scope) }
    } else {
      throw unsupported(pattern)
    }
  }

  // MARK: Expressions

  private func lookup(_ name: String, _ frames: [Frame]) -> RuntimeValue? {
    for frame in frames.reversed() {
      if let value = frame.names[name] { return value }
    }
    return nil
  }

  private func sequence(_ expr: ExprSyntax, _ frames: [Frame], _ steps: inout Int) throws -> RuntimeValue {
    if let range = Compiler.integerRange(expr) {
      guard range.count <= 1_000_000 else { throw failure("loops over more than a million numbers", at: expr) }
      return .array(range.map { .int(Int64($0)) })
    }
    return try evaluate(expr, frames, &steps)
  }

  private func evaluate(_ expr: ExprSyntax, _ frames: [Frame], _ steps: inout Int) throws -> RuntimeValue {
    steps += 1
    guard steps < 1_000_000 else { throw failure("runs too long (over a million steps)", at: expr) }
    if let literal = expr.as(IntegerLiteralExprSyntax.self) {
      guard let value = Int64(literal.literal.text.replacingOccurrences(of: "_", with: "")) else { throw unsupported(expr) }
      return .int(value)
    }
    if let literal = expr.as(FloatLiteralExprSyntax.self) {
      guard let value = Double(literal.literal.text.replacingOccurrences(of: "_", with: "")) else { throw unsupported(expr) }
      return .double(value)
    }
    if let literal = expr.as(BooleanLiteralExprSyntax.self) { return .bool(literal.literal.tokenKind == .keyword(.true)) }
    if expr.is(NilLiteralExprSyntax.self) { return .null }
    if let literal = expr.as(StringLiteralExprSyntax.self) {
      var text = ""
      for segment in literal.segments {
        switch segment {
        case .stringSegment(let part): text += unescape(part.content.text)
        case .expressionSegment(let interpolation):
          guard interpolation.expressions.count == 1, let only = interpolation.expressions.first else { throw unsupported(interpolation) }
          text += describe(try evaluate(only.expression, frames, &steps))
        }
      }
      return .string(text)
    }
    if let array = expr.as(ArrayExprSyntax.self) {
      return .array(try array.elements.map { try evaluate($0.expression, frames, &steps) })
    }
    if let tuple = expr.as(TupleExprSyntax.self) {
      if tuple.elements.count == 1, let only = tuple.elements.first { return try evaluate(only.expression, frames, &steps) }
      return .array(try tuple.elements.map { try evaluate($0.expression, frames, &steps) })
    }
    if let tryExpr = expr.as(TryExprSyntax.self) { return try evaluate(tryExpr.expression, frames, &steps) }
    if let reference = expr.as(DeclReferenceExprSyntax.self) {
      let name = reference.baseName.text
      if let value = lookup(name, frames) { return value }
      throw failure("uses '\(name)', which is not a parameter or a local value", at: expr)
    }
    if let prefix = expr.as(PrefixOperatorExprSyntax.self) {
      let operand = try evaluate(prefix.expression, frames, &steps)
      switch prefix.operator.text {
      case "!": return .bool(!(try truth(operand, at: prefix.expression)))
      case "-": return try arithmetic("-", .int(0), operand, at: expr)
      default: throw unsupported(expr)
      }
    }
    if let unwrap = expr.as(ForceUnwrapExprSyntax.self) {
      let value = try evaluate(unwrap.expression, frames, &steps)
      if value == .null { throw failure("unwraps nil with '!' (the app would crash here)", at: expr) }
      return value
    }
    if let ternary = expr.as(TernaryExprSyntax.self) {
      return try truth(evaluate(ternary.condition, frames, &steps), at: ternary.condition)
        ? evaluate(ternary.thenExpression, frames, &steps) : evaluate(ternary.elseExpression, frames, &steps)
    }
    if let sequence = expr.as(SequenceExprSyntax.self) {
      return try evaluateOperators(Array(sequence.elements), frames, &steps)
    }
    if let conditional = expr.as(IfExprSyntax.self) {
      // `if` as an expression: each branch's single expression.
      let scope = Frame([:])
      if try conditionsHold(conditional.conditions, frames, scope, &steps) {
        return try blockValue(conditional.body.statements, frames + [scope], &steps)
      }
      switch conditional.elseBody {
      case .ifExpr(let next)?: return try evaluate(ExprSyntax(next), frames, &steps)
      case .codeBlock(let block)?: return try blockValue(block.statements, frames, &steps)
      case nil: return .null
      }
    }
    if let member = expr.as(MemberAccessExprSyntax.self) {
      return try property(member, frames, &steps)
    }
    if let call = expr.as(FunctionCallExprSyntax.self) {
      return try self.call(call, frames, &steps)
    }
    throw unsupported(expr)
  }

  private func blockValue(_ items: CodeBlockItemListSyntax, _ frames: [Frame], _ steps: inout Int) throws -> RuntimeValue {
    guard items.count == 1, let only = items.first, case .expr(let expr) = only.item else {
      if case .returned(let value) = try execute(items, frames + [Frame([:])], &steps) { return value }
      return .null
    }
    return try evaluate(expr, frames, &steps)
  }

  /// `a + b * c`, folded by Swift's precedence (the few operators the subset has).
  private func evaluateOperators(_ elements: [ExprSyntax], _ frames: [Frame], _ steps: inout Int) throws -> RuntimeValue {
    guard elements.count >= 3 else {
      guard let only = elements.first else { return .null }
      return try evaluate(only, frames, &steps)
    }
    let levels: [[String]] = [["??"], ["||"], ["&&"], ["==", "!=", "<", "<=", ">", ">="], ["..<", "..."], ["+", "-"], ["*", "/", "%"]]
    for level in levels {
      // The rightmost operator of the loosest level splits (left-associative), except `??`.
      let indices = stride(from: 1, to: elements.count, by: 2).filter { index in
        guard let op = elements[index].as(BinaryOperatorExprSyntax.self)?.operator.text else { return false }
        return level.contains(op)
      }
      guard let split = level == ["??"] ? indices.first : indices.last,
        let op = elements[split].as(BinaryOperatorExprSyntax.self)?.operator.text
      else { continue }
      let left = Array(elements[..<split])
      let right = Array(elements[(split + 1)...])
      switch op {
      case "??":
        let value = try evaluateOperators(left, frames, &steps)
        return value == .null ? try evaluateOperators(right, frames, &steps) : value
      case "&&":
        guard try truth(evaluateOperators(left, frames, &steps), at: elements[split]) else { return .bool(false) }
        return .bool(try truth(evaluateOperators(right, frames, &steps), at: elements[split]))
      case "||":
        if try truth(evaluateOperators(left, frames, &steps), at: elements[split]) { return .bool(true) }
        return .bool(try truth(evaluateOperators(right, frames, &steps), at: elements[split]))
      default:
        let lhs = try evaluateOperators(left, frames, &steps)
        let rhs = try evaluateOperators(right, frames, &steps)
        if ["==", "!=", "<", "<=", ">", ">="].contains(op) { return .bool(try compare(op, lhs, rhs, at: elements[split])) }
        if op == "..." || op == "..<" {
          guard case .int(let low) = lhs, case .int(let high) = rhs, high - low < 1_000_000 else { throw unsupported(elements[split]) }
          let upper = op == "..." ? high : high - 1
          return .array(upper < low ? [] : (low...upper).map { .int($0) })
        }
        return try arithmetic(op, lhs, rhs, at: elements[split])
      }
    }
    throw failure("uses an operator outside the Swift Quarry runs", at: elements[1])
  }

  func arithmetic(_ op: String, _ lhs: RuntimeValue, _ rhs: RuntimeValue, at node: some SyntaxProtocol) throws -> RuntimeValue {
    switch (lhs, rhs) {
    case (.int(let a), .int(let b)):
      let result: (Int64, Bool)
      switch op {
      case "+": result = a.addingReportingOverflow(b)
      case "-": result = a.subtractingReportingOverflow(b)
      case "*": result = a.multipliedReportingOverflow(by: b)
      case "/", "%":
        guard b != 0 else { throw failure("divides by zero (the app would crash here)", at: node) }
        result = op == "/" ? a.dividedReportingOverflow(by: b) : a.remainderReportingOverflow(dividingBy: b)
      default: throw failure("uses '\(op)' on integers", at: node)
      }
      if result.1 { throw failure("overflows Int (the app would crash here)", at: node) }
      return .int(result.0)
    case (.double, _), (_, .double):
      guard let a = lhs.number, let b = rhs.number else { throw typeMismatch(op, lhs, rhs, at: node) }
      switch op {
      case "+": return .double(a + b)
      case "-": return .double(a - b)
      case "*": return .double(a * b)
      case "/": return .double(a / b)
      default: throw failure("uses '\(op)' on Double", at: node)
      }
    case (.string(let a), .string(let b)) where op == "+": return .string(a + b)
    case (.array(let a), .array(let b)) where op == "+": return .array(a + b)
    default: throw typeMismatch(op, lhs, rhs, at: node)
    }
  }

  private func compare(_ op: String, _ lhs: RuntimeValue, _ rhs: RuntimeValue, at node: some SyntaxProtocol) throws -> Bool {
    if op == "==" { return equal(lhs, rhs) }
    if op == "!=" { return !equal(lhs, rhs) }
    let order: Int
    switch (lhs, rhs) {
    case (.string(let a), .string(let b)): order = a < b ? -1 : (a == b ? 0 : 1)
    default:
      guard let a = lhs.number, let b = rhs.number else { throw typeMismatch(op, lhs, rhs, at: node) }
      order = a < b ? -1 : (a == b ? 0 : 1)
    }
    switch op {
    case "<": return order < 0
    case "<=": return order <= 0
    case ">": return order > 0
    default: return order >= 0
    }
  }

  private func equal(_ lhs: RuntimeValue, _ rhs: RuntimeValue) -> Bool {
    if let a = lhs.number, let b = rhs.number, !(lhs.isBool != rhs.isBool) { return a == b }
    return lhs == rhs
  }

  private func truth(_ value: RuntimeValue, at node: some SyntaxProtocol) throws -> Bool {
    guard case .bool(let flag) = value else { throw failure("needs a Bool here, not \(value.typeName)", at: node) }
    return flag
  }

  // MARK: Members and calls

  private func property(_ member: MemberAccessExprSyntax, _ frames: [Frame], _ steps: inout Int) throws -> RuntimeValue {
    let name = member.declName.baseName.text
    guard let baseExpr = member.base else {
      throw failure("uses '.\(name)', whose type Quarry cannot tell here; write the type's name", at: member)
    }
    // `Priority.high`: an enum case is its raw value.
    if let typeName = baseExpr.as(DeclReferenceExprSyntax.self)?.baseName.text, lookup(typeName, frames) == nil {
      if let model = enums[typeName], let match = model.cases.first(where: { $0.name == name }) {
        return RuntimeValue(match.value)
      }
      if typeName == "Int", name == "max" { return .int(.max) }
      if typeName == "Int", name == "min" { return .int(.min) }
      throw failure("uses '\(typeName).\(name)', which is outside the Swift Quarry runs", at: member)
    }
    let base = try evaluate(baseExpr, frames, &steps)
    switch (base, name) {
    case (.string(let text), "count"): return .int(Int64(text.count))
    case (.string(let text), "isEmpty"): return .bool(text.isEmpty)
    case (.string(let text), "localizedUppercase"): return .string(text.uppercased())
    case (.string(let text), "localizedLowercase"): return .string(text.lowercased())
    case (.string(let text), "localizedCapitalized"), (.string(let text), "capitalized"): return .string(text.capitalized)
    case (.string(let text), "first"): return text.first.map { .string(String($0)) } ?? .null
    case (.string(let text), "last"): return text.last.map { .string(String($0)) } ?? .null
    case (.string(let text), "description"): return .string(text)
    case (.array(let pair), "offset") where pair.count == 2: return pair[0]
    case (.array(let pair), "element") where pair.count == 2: return pair[1]
    case (.array(let values), "count"): return .int(Int64(values.count))
    case (.array(let values), "isEmpty"): return .bool(values.isEmpty)
    case (.array(let values), "first"): return values.first ?? .null
    case (.array(let values), "last"): return values.last ?? .null
    case (.int(let value), "description"): return .string(String(value))
    case (.double(let value), "description"): return .string(String(value))
    case (.int(let value), "magnitude"): return value == .min ? .double(9_223_372_036_854_775_808) : .int(abs(value))
    case (.null, _) where member.base?.is(OptionalChainingExprSyntax.self) == true: return .null
    default:
      throw failure("uses '.\(name)' on \(base.typeName), which is outside the Swift Quarry runs", at: member.declName)
    }
  }

  private func call(_ call: FunctionCallExprSyntax, _ frames: [Frame], _ steps: inout Int) throws -> RuntimeValue {
    let arguments = Array(call.arguments)
    func argument(_ index: Int) throws -> RuntimeValue {
      guard index < arguments.count else { throw failure("is missing an argument", at: call) }
      return try evaluate(arguments[index].expression, frames, &steps)
    }
    // A closure argument: `map { $0 * 2 }`, `reduce(0) { $0 + $1 }`, or an operator `reduce(0, +)`.
    func closure() -> ClosureExprSyntax? {
      call.trailingClosure ?? arguments.last?.expression.as(ClosureExprSyntax.self)
    }
    func apply(_ closure: ClosureExprSyntax, _ values: [RuntimeValue]) throws -> RuntimeValue {
      var names: [String: RuntimeValue] = [:]
      for (index, value) in values.enumerated() { names["$\(index)"] = value }
      if let clause = closure.signature?.parameterClause {
        let declared: [String]
        switch clause {
        case .simpleInput(let list): declared = list.map(\.name.text)
        case .parameterClause(let parameters): declared = parameters.parameters.map { ($0.secondName ?? $0.firstName).text }
        }
        for (name, value) in zip(declared, values) { names[name] = value }
      }
      return try blockValue(closure.statements, frames + [Frame(names)], &steps)
    }
    if let reference = call.calledExpression.as(DeclReferenceExprSyntax.self) {
      let name = reference.baseName.text
      switch (name, arguments.count) {
      case ("Array", 1), ("Set", 1):
        return try argument(0)
      case ("String", 2) where arguments[0].label?.text == "repeating" && arguments[1].label?.text == "count":
        let text = try string(argument(0), at: call)
        let count = try int(argument(1), at: call)
        guard count >= 0, count <= 1_000_000 else { throw failure("repeats a string \(count) times", at: call) }
        return .string(String(repeating: text, count: count))
      case ("String", 1):
        let value = try argument(0)
        return .string(describe(value))
      case ("Int", 1):
        switch try argument(0) {
        case .int(let value): return .int(value)
        case .double(let value):
          guard value.isFinite, value >= -9.2e18, value <= 9.2e18 else { throw failure("converts \(value) to Int (the app would crash here)", at: call) }
          return .int(Int64(value))
        case .string(let text): return Int64(text).map(RuntimeValue.int) ?? .null
        case .bool(let flag): return .int(flag ? 1 : 0)
        default: return .null
        }
      case ("Double", 1):
        switch try argument(0) {
        case .int(let value): return .double(Double(value))
        case .double(let value): return .double(value)
        case .string(let text): return Double(text).map(RuntimeValue.double) ?? .null
        default: return .null
        }
      case ("abs", 1):
        let value = try argument(0)
        if case .int(let number) = value {
          guard number != .min else { throw failure("overflows Int (the app would crash here)", at: call) }
          return .int(abs(number))
        }
        guard let number = value.number else { throw typeMismatch("abs", value, value, at: call) }
        return .double(abs(number))
      case ("min", 2...), ("max", 2...):
        let values = try arguments.indices.map { try argument($0) }
        return try extreme(values, largest: name == "max", at: call)
      default:
        throw failure("calls '\(name)(…)', which is outside the Swift Quarry runs", at: call.calledExpression)
      }
    }
    guard let member = call.calledExpression.as(MemberAccessExprSyntax.self), let baseExpr = member.base else {
      throw unsupported(call)
    }
    let name = member.declName.baseName.text
    let labels = arguments.map { $0.label?.text }
    let base = try evaluate(baseExpr, frames, &steps)
    switch (base, name, labels) {
    case (.string(let text), "uppercased", []): return .string(text.uppercased())
    case (.string(let text), "lowercased", []): return .string(text.lowercased())
    case (.string(let text), "hasPrefix", [nil]): return .bool(text.hasPrefix(try string(argument(0), at: call)))
    case (.string(let text), "hasSuffix", [nil]): return .bool(text.hasSuffix(try string(argument(0), at: call)))
    case (.string(let text), "contains", [nil]):
      let needle = try string(argument(0), at: call)
      return .bool(needle.isEmpty ? true : text.contains(needle))
    case (.string(let text), "replacingOccurrences", ["of", "with"]):
      return .string(text.replacingOccurrences(of: try string(argument(0), at: call), with: try string(argument(1), at: call)))
    case (.string(let text), "trimmingCharacters", ["in"]):
      let set = arguments[0].expression.trimmedDescription
      guard set == ".whitespaces" || set == ".whitespacesAndNewlines" else { throw unsupported(arguments[0].expression) }
      return .string(text.trimmingCharacters(in: set == ".whitespaces" ? .whitespaces : .whitespacesAndNewlines))
    case (.string(let text), "split", ["separator"]):
      let separator = try string(argument(0), at: call)
      guard separator.count == 1, let character = separator.first else { throw failure("splits on more than one character", at: call) }
      return .array(text.split(separator: character).map { .string(String($0)) })
    case (.string(let text), "reversed", []): return .string(String(text.reversed()))
    case (.string(let text), "dropFirst", let given) where given.count <= 1:
      let count = given.isEmpty ? 1 : try int(argument(0), at: call)
      return .string(String(text.dropFirst(max(0, count))))
    case (.string(let text), "dropLast", let given) where given.count <= 1:
      let count = given.isEmpty ? 1 : try int(argument(0), at: call)
      return .string(String(text.dropLast(max(0, count))))
    case (.string(let text), "prefix", [nil]): return .string(String(text.prefix(max(0, try int(argument(0), at: call)))))
    case (.string(let text), "suffix", [nil]): return .string(String(text.suffix(max(0, try int(argument(0), at: call)))))
    case (.int(let value), "isMultiple", ["of"]):
      let divisor = Int64(try int(argument(0), at: call))
      return .bool(divisor == 0 ? value == 0 : value % divisor == 0)
    case (.double(let value), "rounded", []): return .double(value.rounded())
    case (.array(let values), "joined", let given) where given.isEmpty || given == ["separator"]:
      let separator = given.isEmpty ? "" : try string(argument(0), at: call)
      return .string(try values.map { try string($0, at: call) }.joined(separator: separator))
    case (.array(let values), "contains", [nil]):
      let needle = try argument(0)
      return .bool(values.contains { equal($0, needle) })
    case (.array(let values), "reversed", []): return .array(values.reversed())
    case (.array(let values), "sorted", []): return .array(try sorted(values, at: call))
    case (.array(let values), "max", []): return values.isEmpty ? .null : try extreme(values, largest: true, at: call)
    case (.array(let values), "min", []): return values.isEmpty ? .null : try extreme(values, largest: false, at: call)
    case (.array(let values), "dropFirst", let given) where given.count <= 1:
      return .array(Array(values.dropFirst(max(0, given.isEmpty ? 1 : try int(argument(0), at: call)))))
    case (.array(let values), "dropLast", let given) where given.count <= 1:
      return .array(Array(values.dropLast(max(0, given.isEmpty ? 1 : try int(argument(0), at: call)))))
    case (.array(let values), "prefix", [nil]): return .array(Array(values.prefix(max(0, try int(argument(0), at: call)))))
    case (.array(let values), "enumerated", []):
      return .array(values.enumerated().map { .array([.int(Int64($0.offset)), $0.element]) })
    case (.array(let values), "map", _):
      guard let closure = closure() else { throw unsupported(call) }
      return .array(try values.map { try apply(closure, [$0]) })
    case (.array(let values), "compactMap", _):
      guard let closure = closure() else { throw unsupported(call) }
      return .array(try values.map { try apply(closure, [$0]) }.filter { $0 != .null })
    case (.array(let values), "filter", _):
      guard let closure = closure() else { throw unsupported(call) }
      return .array(try values.filter { try truth(apply(closure, [$0]), at: closure) })
    case (.array(let values), "reduce", _):
      guard let first = arguments.first else { throw unsupported(call) }
      var result = try evaluate(first.expression, frames, &steps)
      if arguments.count == 2, let op = arguments[1].expression.as(DeclReferenceExprSyntax.self)?.baseName.text,
        ["+", "*", "-"].contains(op)
      {
        for value in values { result = try arithmetic(op, result, value, at: call) }
        return result
      }
      if arguments.count == 2, let op = arguments[1].expression.as(DeclReferenceExprSyntax.self)?.baseName.text,
        op == "max" || op == "min"
      {
        for value in values { result = try extreme([result, value], largest: op == "max", at: call) }
        return result
      }
      guard let closure = closure() else { throw unsupported(call) }
      for value in values { result = try apply(closure, [result, value]) }
      return result
    default:
      throw failure("calls '.\(name)(…)' on \(base.typeName), which is outside the Swift Quarry runs", at: member.declName)
    }
  }

  private func extreme(_ values: [RuntimeValue], largest: Bool, at node: some SyntaxProtocol) throws -> RuntimeValue {
    let ordered = try sorted(values, at: node)
    return (largest ? ordered.last : ordered.first) ?? .null
  }

  private func sorted(_ values: [RuntimeValue], at node: some SyntaxProtocol) throws -> [RuntimeValue] {
    var failed = false
    let result = values.sorted { a, b in
      do { return try compare("<", a, b, at: node) } catch { failed = true; return false }
    }
    if failed { throw failure("sorts values that cannot be compared (nil, mixed types)", at: node) }
    return result
  }

  private func string(_ value: RuntimeValue, at node: some SyntaxProtocol) throws -> String {
    guard case .string(let text) = value else { throw failure("needs a String here, not \(value.typeName)", at: node) }
    return text
  }

  private func int(_ value: RuntimeValue, at node: some SyntaxProtocol) throws -> Int {
    guard case .int(let number) = value, let small = Int(exactly: number) else { throw failure("needs an Int here, not \(value.typeName)", at: node) }
    return small
  }

  func describe(_ value: RuntimeValue) -> String {
    switch value {
    case .null: "nil"
    case .bool(let flag): flag ? "true" : "false"
    case .int(let number): String(number)
    case .double(let number): String(number)
    case .string(let text): text
    case .array(let values): "[" + values.map { if case .string(let s) = $0 { return "\"\(s)\"" } else { return describe($0) } }.joined(separator: ", ") + "]"
    }
  }

  private func unescape(_ text: String) -> String {
    guard text.contains("\\") else { return text }
    return text.replacingOccurrences(of: "\\n", with: "\n").replacingOccurrences(of: "\\t", with: "\t")
      .replacingOccurrences(of: "\\\"", with: "\"").replacingOccurrences(of: "\\\\", with: "\\")
  }

  // MARK: Errors

  private func typeMismatch(_ op: String, _ lhs: RuntimeValue, _ rhs: RuntimeValue, at node: some SyntaxProtocol) -> InterpreterError {
    failure("cannot apply '\(op)' to \(lhs.typeName) and \(rhs.typeName)", at: node)
  }

  func unsupported(_ node: some SyntaxProtocol) -> InterpreterError {
    var text = node.trimmedDescription
    if let newline = text.firstIndex(of: "\n") { text = String(text[..<newline]) + " …" }
    if text.count > 40 { text = String(text.prefix(39)) + "…" }
    return failure("uses '\(text)', which is outside the Swift Quarry runs", at: node)
  }

  func failure(_ message: String, at node: some SyntaxProtocol) -> InterpreterError {
    let location = source.lineAndColumn(of: node.positionAfterSkippingLeadingTrivia)
    return InterpreterError(message: "\(location.line):\(location.column): \(message)")
  }
}

extension RuntimeValue {
  var number: Double? {
    switch self {
    case .int(let value): Double(value)
    case .double(let value): value
    default: nil
    }
  }

  var isBool: Bool { if case .bool = self { true } else { false } }

  var typeName: String {
    switch self {
    case .null: "nil"
    case .bool: "Bool"
    case .int: "Int"
    case .double: "Double"
    case .string: "String"
    case .array: "an array"
    }
  }
}
