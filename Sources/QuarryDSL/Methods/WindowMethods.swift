import QueryBuilder
import SwiftSyntax

/// What window functions and the window inside `.over { … }` do: the handlers of the window
/// vocabulary.
///
/// ```swift
/// Reminder.select { $0.title.lag().over { $0.order(by: $1.id) } }
/// ```
struct WindowMethods {
  unowned let compiler: Compiler
}

extension Compiler {
  /// Window methods, working in this compiler's context.
  var windowMethods: WindowMethods { WindowMethods(compiler: self) }
}

/// Window functions (beyond StructuredQueries): ranking functions, value functions and
/// aggregates computed over a window with `.over(…)`.
///
/// ```swift
/// Employee.select { ($0.name, $0.salary.sum().over(partitionBy: $0.departmentID, orderBy: $0.hiredAt)) }
/// // SELECT "employees"."name", sum("employees"."salary") OVER (PARTITION BY "employees"."departmentID"
/// //   ORDER BY "employees"."hiredAt") FROM "employees"
/// ```
extension WindowMethods {
  /// Ranking functions: DSL name → SQL name and result type.
  static let rankingFunctions: [String: (sql: String, type: SwiftType)] = [
    "rowNumber": ("row_number", .int), "rank": ("rank", .int), "denseRank": ("dense_rank", .int),
    "percentRank": ("percent_rank", .double), "cumeDist": ("cume_dist", .double), "ntile": ("ntile", .int),
  ]

  /// Value functions: methods of the value they read.
  static let valueWindowFunctions: [String: String] = [
    "lag": "lag", "lead": "lead", "firstValue": "first_value", "lastValue": "last_value", "nthValue": "nth_value",
  ]

  /// SQL names of functions that only run with OVER.
  static let windowOnlySQLNames: Set<String> = Set(rankingFunctions.values.map(\.sql)).union(valueWindowFunctions.values)

  /// `rowNumber()`, `rank()`, `ntile(4)`…: nil when `name` is none of them.
  func rankingFunction(_ name: String, _ arguments: Arguments, _ site: CallSite) throws -> Value {
    guard let (sql, type) = Self.rankingFunctions[name] else {
      throw compiler.source.diagnostic("'\(name)' is no window function", at: site.nameNode)
    }
    var functionArguments: [Expression] = []
    if name == "ntile" {
      guard let syntax = arguments.first() else {
        throw compiler.source.diagnostic("'ntile' needs the number of groups: ntile(4)", at: arguments.call)
      }
      functionArguments.append(
        try compiler.typedExpression(try compiler.evaluate(syntax, expected: .int), expected: .int, at: syntax).expression)
    } else if let extra = arguments.list.first {
      throw compiler.source.diagnostic("'\(name)()' takes no arguments; its window comes from .over(…)", at: extra.expression)
    }
    return .expression(TypedExpression(.function(sql, functionArguments), type: type))
  }

  /// `lag(offset:default:)`, `lead(offset:default:)`: the value on an earlier or later row of
  /// the window, waiting for its `.over { … }`.
  func lagOrLead(_ name: String, _ receiver: TypedExpression, _ arguments: Arguments) throws -> Value {
    var functionArguments = [receiver.expression]
    if let syntax = arguments.labelled("offset") {
      functionArguments.append(
        try compiler.typedExpression(try compiler.evaluate(syntax, expected: .int), expected: .int, at: syntax).expression)
    }
    if let syntax = arguments.labelled("default") {
      if functionArguments.count == 1 { functionArguments.append(Expression(.literal(.integer(1)))) }
      let expected = receiver.type?.wrapped
      functionArguments.append(
        try compiler.typedExpression(try compiler.evaluate(syntax, expected: expected), expected: expected, at: syntax).expression)
    }
    return valueWindowFunction(name, receiver, functionArguments)
  }

  /// `nthValue(_:)`: the value on the frame's nth row.
  func nthValue(_ name: String, _ receiver: TypedExpression, _ arguments: Arguments) throws -> Value {
    guard let syntax = arguments.first() else {
      throw compiler.source.diagnostic("'nthValue' needs the row's position in the frame: nthValue(2)", at: arguments.call)
    }
    let position = try compiler.typedExpression(try compiler.evaluate(syntax, expected: .int), expected: .int, at: syntax).expression
    return valueWindowFunction(name, receiver, [receiver.expression, position])
  }

  /// `firstValue()`, `lastValue()`: the value on the frame's first or last row.
  func frameEndValue(_ name: String, _ receiver: TypedExpression, _ arguments: Arguments) throws -> Value {
    valueWindowFunction(name, receiver, [receiver.expression])
  }

  /// A value window function's SQL (`lag(…)`); its type is optional where the row may not exist.
  private func valueWindowFunction(_ name: String, _ receiver: TypedExpression, _ functionArguments: [Expression]) -> Value {
    let sql = Self.valueWindowFunctions[name] ?? name
    let type = name == "firstValue" || name == "lastValue" ? receiver.type : receiver.type?.optional
    return .expression(TypedExpression(.function(sql, functionArguments), type: type))
  }

  /// `.over()`, `.over(partitionBy:orderBy:)` or `.over { $0.partition(by: …).order(by: …) }`.
  /// `over { … }`, `over(partitionBy:orderBy:)`: a window function's window.
  func over(_ name: String, _ receiver: TypedExpression, _ arguments: Arguments) throws -> Value {
    let node = CallSite(arguments)
    switch receiver.expression.node {
    case .aggregate: break
    case .function(let name, _) where Self.windowOnlySQLNames.contains(name): break
    case .window:
      throw compiler.source.diagnostic("this is a window function already: give .over(…) once", at: node.nameNode)
    default:
      throw compiler.source.diagnostic(
        "'over' applies to an aggregate (sum(), count(), avg()…) or a window function (rowNumber(), rank(), lag()…), not to a plain value",
        at: node.nameNode)
    }
    var window = WindowSpecification()
    if let closure = arguments.first()?.as(ClosureExprSyntax.self) {
      guard case .window(let built) = try compiler.invoke(closure, with: [.window(WindowSpecification())]) else {
        throw compiler.source.diagnostic("the closure of 'over' returns the window: { $0.partition(by: …).order(by: …) }", at: closure)
      }
      window = built
    } else {
      if let syntax = arguments.labelled("partitionBy") {
        window.partitionBy = try expressions(try compiler.evaluate(syntax), at: syntax)
      }
      if let syntax = arguments.labelled("orderBy") {
        window.orderBy = try compiler.orderings(try compiler.evaluate(syntax), at: syntax)
      }
    }
    return .expression(TypedExpression(Expression(.window(function: receiver.expression, window: window)), type: receiver.type))
  }

  /// A method of the window inside `.over { … }`, run by its vocabulary entry's handler.
  func windowBuilderMethod(_ name: String, on window: WindowSpecification, arguments: Arguments, at node: MemberAccessExprSyntax) throws
    -> Value
  {
    guard let value = try compiler.dispatch(name, on: .window, receiver: .window(window), CallSite(arguments, member: node)) else {
      throw compiler.unknownMethod(name, on: .window, described: "a window", at: node.declName)
    }
    return value
  }

  /// `partition(by: r.departmentID)`: PARTITION BY.
  func partitionWindow(_ window: WindowSpecification, _ arguments: Arguments, _ node: MemberAccessExprSyntax) throws -> WindowSpecification
  {
    var window = window
    let values = arguments.list.map(\.expression)
    guard !values.isEmpty else {
      throw compiler.source.diagnostic("'partition' needs the values to partition by: partition(by: r.departmentID)", at: arguments.call)
    }
    for syntax in values { window.partitionBy += try expressions(try compiler.evaluate(syntax), at: syntax) }
    return window
  }

  /// `order(by: r.salary.desc())`: the window's ORDER BY.
  func orderWindow(_ window: WindowSpecification, _ arguments: Arguments, _ node: MemberAccessExprSyntax) throws -> WindowSpecification {
    var window = window
    guard let syntax = arguments.labelled("by") ?? arguments.first() else {
      throw compiler.source.diagnostic("'order' needs the order: order(by: r.salary.desc())", at: arguments.call)
    }
    window.orderBy += try compiler.orderings(try compiler.evaluate(syntax), at: syntax)
    return window
  }

  /// `rows`/`range`/`groups(start, end)`: the frame.
  func frameWindow(_ unit: WindowFrame.Unit, _ window: WindowSpecification, _ arguments: Arguments, _ node: MemberAccessExprSyntax) throws
    -> WindowSpecification
  {
    var window = window
    let name = node.declName.baseName.text
    let bounds = arguments.positional
    guard let startSyntax = bounds.first else {
      throw compiler.source.diagnostic("'\(name)' needs where the frame starts: .\(name)(.preceding(2), .currentRow)", at: arguments.call)
    }
    let start = try frameBound(startSyntax)
    let end = try bounds.dropFirst().first.map(frameBound) ?? .currentRow
    window.frame = WindowFrame(unit: unit, start: start, end: end)
    return window
  }

  /// The frame bounds written as a case of their own (the others take a count: `.preceding(2)`).
  static let namedFrameBounds: [String: WindowFrame.Bound] = [
    "unboundedPreceding": .unboundedPreceding, "currentRow": .currentRow, "unboundedFollowing": .unboundedFollowing,
  ]

  /// `.unboundedPreceding`, `.preceding(2)`, `.currentRow`, `.following(1)`, `.unboundedFollowing`.
  private func frameBound(_ syntax: ExprSyntax) throws -> WindowFrame.Bound {
    let help = "a frame bound is .unboundedPreceding, .preceding(n), .currentRow, .following(n) or .unboundedFollowing"
    if let member = syntax.as(MemberAccessExprSyntax.self), member.base == nil,
      let bound = Self.namedFrameBounds[member.declName.baseName.text]
    {
      return bound
    }
    if let call = syntax.as(FunctionCallExprSyntax.self), let member = call.calledExpression.as(MemberAccessExprSyntax.self),
      member.base == nil, ["preceding", "following"].contains(member.declName.baseName.text)
    {
      guard let argument = call.arguments.first?.expression.as(IntegerLiteralExprSyntax.self),
        let count = Int(argument.literal.text.replacing("_", with: "")), count >= 0
      else {
        throw compiler.source.diagnostic(
          "'\(member.declName.baseName.text)' needs a whole number of rows, like .\(member.declName.baseName.text)(2)", at: call)
      }
      return member.declName.baseName.text == "preceding" ? .preceding(count) : .following(count)
    }
    throw compiler.source.diagnostic(help, at: syntax)
  }

  /// One value, a tuple or an array of them, as expressions (as `group(by:)` reads them).
  private func expressions(_ value: Value, at node: some SyntaxProtocol) throws -> [Expression] {
    if case .array(let values) = value { return try values.flatMap { try expressions($0, at: node) } }
    return try compiler.flattenExpressions(value, at: node).map(\.expression)
  }
}
