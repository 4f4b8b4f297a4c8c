import QueryBuilder
import SwiftSyntax

/// What a method called on an SQL expression (`$0.title.`) does: the handlers of the expression
/// vocabulary, with JSON paths, full-text search and dates.
///
/// ```swift
/// Reminder.where { $0.title.hasPrefix("Buy") }
/// // … WHERE ("reminders"."title" LIKE 'Buy%')
/// ```
struct ExpressionMethods {
  unowned let compiler: Compiler
}

extension Compiler {
  /// Expression methods, working in this compiler's context.
  var expressionMethods: ExpressionMethods { ExpressionMethods(compiler: self) }
}

/// Methods on expressions: comparisons, string matching, aggregates and scalar functions.
extension ExpressionMethods {
  func expressionMember(_ name: String, of expression: TypedExpression, at node: some SyntaxProtocol) throws -> Value {
    if expression.type?.isDate == true, let component = dateComponent(name, of: expression) {
      return .expression(component)
    }
    if name == "count", expression.type?.isText == true || expression.type?.name == "[UInt8]" {
      // `$0.title.count`: StructuredQueries' deprecated spelling of length().
      let name = Syntax(node).as(MemberAccessExprSyntax.self).map { Syntax($0.declName) } ?? Syntax(node)
      try compiler.warn(.textCount, at: name)
      return .expression(TypedExpression(.function("length", [expression.expression]), type: .int))
    }
    // `Theme.bubblegum.rawValue`: a QueryBindable enum's value is its raw value already.
    if name == "rawValue", let type = expression.type, compiler.catalog.enums[type.name] != nil {
      // A column of the enum is a query expression, which has no `rawValue`.
      guard expression.expression.isConstant else {
        throw compiler.source.diagnostic(
          "value of type 'TableColumn<…, \(type)>' has no member 'rawValue' (a column of a QueryBindable enum compares with its cases: .eq(\(type).…))",
          at: Syntax(node).as(MemberAccessExprSyntax.self).map { Syntax($0.declName) } ?? Syntax(node))
      }
      return .expression(TypedExpression(expression.expression, type: compiler.catalog.enums[type.name]?.rawType))
    }
    // `playerID.rawValue` of a `Tagged` ID: the raw value it is stored as.
    if name == "rawValue", let type = expression.type, type.wrapped.name.hasSuffix(".ID"),
      compiler.catalog.taggedIdentifiers.contains(String(type.wrapped.name.dropLast(3)))
    {
      return .expression(TypedExpression(expression.expression, type: nil))
    }
    throw compiler.source.diagnostic(
      "an expression has no property '\(name)'; did you mean a method call like '.\(name)()'?",
      at: node)
  }

  /// The SQL function a method of an expression renders, from the vocabulary; the result
  /// type is the declared one (nil: the receiver's type).
  func sqlFunction(_ name: String) -> (function: MethodSignature.SQLFunction, result: SwiftType?)? {
    guard let entry = Vocabulary.methods(named: name, on: .expression).first, let function = entry.function else { return nil }
    let result: SwiftType? =
      switch entry.result {
      case "Int": .int
      case "Double": .double
      case "Double?": .double.optional
      case "String": .string
      case "String?": .string.optional
      case "[UInt8]": .bytes
      case "Bool": .bool
      default: nil
      }
    return (function, result)
  }

  /// Runs method `name` of an expression: its vocabulary entry's handler (window functions,
  /// JSON paths, comparisons, SQL functions, …).
  func expressionMethod(_ name: String, on receiver: TypedExpression, arguments: Arguments, at node: MemberAccessExprSyntax) throws -> Value
  {
    if let value = try compiler.dispatch(name, on: .expression, receiver: .expression(receiver), CallSite(arguments, member: node)) {
      return value
    }
    throw compiler.unknownMethod(name, on: .expression, described: "an expression", at: node.declName)
  }

  /// `eq`, `neq`, `lt`, `gt`, `lte`, `gte`, `is`, `isNot`: a comparison with a value of the same type
  /// (`is`/`isNot` match NULL as a value).
  func compare(_ name: String, _ receiver: TypedExpression, _ arguments: Arguments) throws -> Value {
    let call = arguments.call
    let lhs = receiver.expression
    let operators: [String: BinaryOperator] = [
      "eq": .equal, "neq": .notEqual, "lt": .lessThan, "gt": .greaterThan, "lte": .lessThanOrEqual,
      "gte": .greaterThanOrEqual, "is": .is, "isNot": .isNot,
    ]
    let op = operators[name] ?? .equal
    guard let syntax = arguments.first() else { throw compiler.source.diagnostic("'\(name)' needs a value to compare with", at: call) }
    if let type = receiver.type, case .implicitMember = compiler.argumentType(syntax, .null) {
      // `.high` names nothing for a `some QueryExpression<…>` parameter: refused before it is looked up.
      try checkComparison(name, of: type, with: syntax, .null, at: arguments)
    }
    let value = try compiler.evaluate(syntax, expected: receiver.type?.wrapped)
    if let type = receiver.type { try checkComparison(name, of: type, with: syntax, value, at: arguments) }
    let rhs = try compiler.typedExpression(value, expected: receiver.type, at: syntax)
    try compiler.checkComparable(receiver, rhs, at: syntax)
    return compiler.boolean(lhs.binary(op, rhs.expression))
  }

  /// The library's overloads of a comparison: `eq`/`neq` take the receiver's type (and, on an
  /// optional, its wrapped type); `lt`… take exactly the receiver's type; `is` takes anything
  /// with the same wrapped type, nil included; `isNot` takes nil, or an optional receiver's type.
  func checkComparison(_ name: String, of type: SwiftType, with syntax: ExprSyntax, _ value: Value, at arguments: Arguments) throws {
    let nameNode = CallSite(arguments).nameNode
    let argument = compiler.argumentType(syntax, value)
    let method = "instance method '\(name)'"
    switch name {
    case "is":
      if case .literal(.null) = argument { return }
      if case .typed(let given) = argument, given.wrapped == type.wrapped { return }
      if compiler.fits(argument, type.wrapped) != false || compiler.fits(argument, type.wrapped.optional) == true { return }
      if case .implicitMember = argument {
        throw compiler.mismatch(argument, method: method, receiver: type, at: nameNode, argumentNode: syntax)
      }
      throw compiler.source.diagnostic(
        "\(method) requires the types '\(argument.typeName ?? "?")' and '\(type.wrapped)' be equivalent", at: nameNode)
    case "isNot":
      if case .literal(.null) = argument { return }
      if type.isOptional {
        try compiler.checkArgument(syntax, value, of: method, receiver: type, accepting: [type], at: nameNode)
      } else if compiler.isKnown(type), !(compiler.argumentType(syntax, value).isUnknown) {
        // An optional of the same type matches the generic overload but cannot fill its
        // `Other`; anything else cannot be the `_Null` the non-optional overload takes.
        if case .typed(let given) = argument, given.isOptional, given.wrapped == type {
          throw compiler.source.diagnostic(
            "generic parameter 'Other' could not be inferred ('\(type)' is not optional: isNot takes only nil here)", at: nameNode)
        }
        throw compiler.source.diagnostic(
          "cannot convert value of type '\(argument.typeName ?? "?")' to expected argument type '_Null<\(type)>' ('\(type)' is not optional: isNot takes only nil here)",
          at: compiler.pointOf(syntax))
      }
    case "eq", "neq":
      try compiler.checkArgument(
        syntax, value, of: method, receiver: type, accepting: type.isOptional ? [type, type.wrapped] : [type], at: nameNode)
    default:
      try compiler.checkArgument(syntax, value, of: method, receiver: type, accepting: [type], at: nameNode)
    }
  }

  /// `and(_:)`, `or(_:)`: both or either condition.
  func logical(_ name: String, _ receiver: TypedExpression, _ arguments: Arguments) throws -> Value {
    let lhs = receiver.expression
    return compiler.boolean(lhs.binary(name == "and" ? .and : .or, try argument(name, of: receiver, arguments, expected: .bool).expression))
  }

  /// `not()`: the opposite condition.
  func negation(_ name: String, _ receiver: TypedExpression, _ arguments: Arguments) throws -> Value {
    let lhs = receiver.expression
    return compiler.boolean(lhs.not())
  }

  /// `in(_:)`, `notIn(_:)`: among (or not among) a list or a query's rows.
  func membership(_ name: String, _ receiver: TypedExpression, _ arguments: Arguments) throws -> Value {
    let call = arguments.call
    let lhs = receiver.expression
    guard let syntax = arguments.first() else { throw compiler.source.diagnostic("'\(name)' needs a list or a subquery", at: call) }
    let op: BinaryOperator = name == "in" ? .in : .notIn
    let value: Value
    do {
      value = try compiler.evaluate(syntax, expected: receiver.type?.wrapped)
    } catch let runTime as RunTimeValue where compiler.scanning {
      // `$0.id.in(Array(ids))` in a scan: a list the app builds when it runs, one `?` per element.
      _ = runTime
      return compiler.boolean(lhs.binary(op, Expression(.list([.value(.parameter(compiler.text(of: syntax) + "[…]"))]))))
    }
    switch value {
    case .array(let elements):
      if let type = receiver.type, let array = syntax.as(ArrayExprSyntax.self), array.elements.count == elements.count {
        // `[Float(0.1), 0.2]`: an element of the column's own type makes the array's type, and the
        // literals beside it take that type.
        let anchored = zip(array.elements, elements).contains { element, value in
          if case .typed(let given) = compiler.argumentType(element.expression, value) { return given == type.wrapped }
          return false
        }
        for (element, elementValue) in zip(array.elements, elements) {
          if anchored, case .literal = compiler.argumentType(element.expression, elementValue) { continue }
          try compiler.checkArgument(
            element.expression, elementValue, of: "instance method '\(name)'", receiver: type, accepting: [type],
            at: CallSite(arguments).nameNode)
        }
      }
      var list = try elements.map { try compiler.typedExpression($0, expected: receiver.type, at: syntax).expression }
      if receiver.type?.wrapped.isReal == true, let array = syntax.as(ArrayExprSyntax.self), array.elements.count == list.count {
        // `$0.price.in([1, 2])`: an integer literal there is the column's Double (1.0).
        for (index, element) in array.elements.enumerated() where element.expression.is(IntegerLiteralExprSyntax.self) {
          if case .value(.integer(let number)) = list[index].node { list[index] = Expression(.value(.double(Double(number)))) }
        }
      }
      return compiler.boolean(lhs.binary(op, Expression(.list(list))))
    case .query(let query):
      // `in(_ query: some Statement<QueryValue>)`: the subquery selects the receiver's type,
      // one column (a table's rows are no value of a column's type).
      guard query.columnTypes.count == 1 else {
        throw compiler.source.diagnostic(
          "no exact matches in reference to instance method '\(name)' (the subquery selects \(query.columnTypes.isEmpty ? "whole rows" : "\(query.columnTypes.count) columns"); select the one column to compare with, e.g. .select(\\.id))",
          at: CallSite(arguments).nameNode)
      }
      if let type = receiver.type, query.columnTypes.count == 1, let selected = query.columnTypes[0],
        compiler.isKnown(type), compiler.isKnown(selected), selected != type
      {
        throw compiler.source.diagnostic(
          "no exact matches in reference to instance method '\(name)' (the subquery selects '\(selected)', the column is '\(type)')",
          at: CallSite(arguments).nameNode)
      }
      return compiler.boolean(lhs.binary(op, Expression(.statement(.select(query.select)))))
    case .table(let table):
      // A type is no statement: `in(Reminder)` does not compile.
      throw compiler.source.diagnostic(
        "cannot convert value of type '\(table.model.typeName).Type' to expected argument type 'some Statement' ('\(name)' takes a query that selects one column: \(table.model.typeName).select(\\.id))",
        at: syntax)
    case .statement(let statement, _):
      return compiler.boolean(lhs.binary(op, Expression(.statement(statement))))
    case .expression(let typed) where Compiler.runTimeName(in: typed.expression) != nil:
      // `$0.id.in(ids)` in a scan: the app binds one `?` per element of `ids`; shown as one.
      let list = Compiler.runTimeName(in: typed.expression).map { Expression.value(.parameter($0 + "[…]")) } ?? typed.expression
      return compiler.boolean(lhs.binary(op, Expression(.list([list]))))
    default:
      throw compiler.source.diagnostic("'\(name)' needs an array literal or a query, but this is \(compiler.describe(value))", at: syntax)
    }
  }

  /// `between(_:and:)`: within a range, both ends included.
  func between(_ name: String, _ receiver: TypedExpression, _ arguments: Arguments) throws -> Value {
    let call = arguments.call
    let lhs = receiver.expression
    guard let lower = arguments.positional.first, let upper = arguments.labelled("and") else {
      throw compiler.source.diagnostic("'between' needs two bounds: .between(a, and: b)", at: call)
    }
    let lowValue = try compiler.evaluate(lower, expected: receiver.type)
    let highValue = try compiler.evaluate(upper, expected: receiver.type)
    if let type = receiver.type {
      for (syntax, value) in [(lower, lowValue), (upper, highValue)] {
        try compiler.checkArgument(
          syntax, value, of: "instance method 'between(_:and:)'", receiver: type, accepting: [type],
          at: CallSite(arguments).nameNode)
      }
    }
    let low = try compiler.typedExpression(lowValue, expected: receiver.type, at: lower)
    let high = try compiler.typedExpression(highValue, expected: receiver.type, at: upper)
    return compiler.boolean(Expression(.between(lhs, lower: low.expression, upper: high.expression)))
  }

  /// A pattern parameter (`some StringProtocol`): text, never a number or a Bool.
  private func checkPattern(_ pattern: ExprSyntax, of method: String, _ arguments: Arguments) throws {
    let value = (try? compiler.evaluate(pattern)) ?? .null
    let type: String? =
      switch compiler.argumentType(pattern, value) {
      case .literal(.string): nil
      case .literal(let literal): literal.defaultType.description
      case .typed(let given) where given.name != "String": given.description
      case .typed(let given) where value.constantExpression == false: "some QueryExpression<\(given)>"
      default: nil
      }
    if let type {
      throw compiler.source.diagnostic(
        "instance method '\(method)' requires that '\(type)' conform to 'StringProtocol'", at: CallSite(arguments).nameNode)
    }
  }

  /// `like(_:escape:)`: a LIKE pattern.
  func like(_ name: String, _ receiver: TypedExpression, _ arguments: Arguments) throws -> Value {
    let call = arguments.call
    let lhs = receiver.expression
    guard let pattern = arguments.positional.first else { throw compiler.source.diagnostic("'like' needs a pattern", at: call) }
    try checkPattern(pattern, of: "like(_:escape:)", arguments)
    let escape = try arguments.labelled("escape").map { try text($0) }
    return compiler.boolean(Expression(.like(string: lhs, pattern: try text(pattern), escape: escape)))
  }

  /// `glob(_:)`: a case-sensitive GLOB pattern.
  func glob(_ name: String, _ receiver: TypedExpression, _ arguments: Arguments) throws -> Value {
    let call = arguments.call
    let lhs = receiver.expression
    guard let pattern = arguments.positional.first else { throw compiler.source.diagnostic("'glob' needs a pattern", at: call) }
    try checkPattern(pattern, of: "glob", arguments)
    return compiler.boolean(lhs.binary(.glob, try text(pattern)))
  }

  /// `hasPrefix`, `hasSuffix`, `contains` with a string literal: LIKE patterns StructuredQueries deprecates.
  func substring(_ name: String, _ receiver: TypedExpression, _ arguments: Arguments) throws -> Value {
    let call = arguments.call
    let lhs = receiver.expression
    guard let syntax = arguments.positional.first else { throw compiler.source.diagnostic("'\(name)' needs a string", at: call) }
    func pattern(_ fragment: String) -> String {
      name == "hasPrefix" ? fragment + "%" : name == "hasSuffix" ? "%" + fragment : "%" + fragment + "%"
    }
    if case .expression(let e) = try compiler.evaluate(syntax) {
      switch e.expression.node {
      case .value(.text(let fragment)):
        return compiler.boolean(Expression(.like(string: lhs, pattern: .value(.text(pattern(fragment))), escape: nil)))
      case .value(.parameter(let source)) where e.type == nil || e.type?.name == "String":
        // A String the app has when it runs (`searchText`): the library builds the pattern in
        // Swift (`like("%\(other)%")`) and binds it.
        let bound = #"""# + pattern(#"\("# + source + ")") + #"""#
        return compiler.boolean(Expression(.like(string: lhs, pattern: .value(.parameter(bound)), escape: nil)))
      default:
        break
      }
    }
    throw compiler.source.diagnostic("'\(name)' needs a string; use like(…) for patterns built from columns", at: syntax)
  }

  /// `collate(.nocase)`, `collate(.custom("…"))`: the comparison's collation, quoted as the library quotes it.
  func collate(_ name: String, _ receiver: TypedExpression, _ arguments: Arguments) throws -> Value {
    let call = arguments.call
    let lhs = receiver.expression
    guard let syntax = arguments.first() else {
      throw compiler.source.diagnostic("'collate' needs a collation: .collate(.nocase)", at: call)
    }
    let collation: String
    if let custom = syntax.as(FunctionCallExprSyntax.self), let member = custom.calledExpression.as(MemberAccessExprSyntax.self),
      member.base == nil, member.declName.baseName.text == "custom" || member.declName.baseName.text == "init",
      let name = custom.arguments.first?.expression.as(StringLiteralExprSyntax.self)
    {
      // `.collate(.custom("french"))`: a collation the app registered, by name.
      let text = try compiler.stringValue(name)
      return .expression(TypedExpression(Expression(.collate(lhs, collation: quoteIdentifier(text))), type: receiver.type))
    }
    switch try compiler.evaluate(syntax) {
    case .implicitMember(let member):
      switch member {
      // Quoted, as StructuredQueries renders every collation name: COLLATE "NOCASE".
      case "nocase": collation = quoteIdentifier("NOCASE")
      case "binary": collation = quoteIdentifier("BINARY")
      case "rtrim": collation = quoteIdentifier("RTRIM")
      default:
        throw compiler.source.diagnostic(
          "unknown collation '.\(member)'", at: syntax, suggestion: closestMatch(to: member, in: ["nocase", "binary", "rtrim"]))
      }
    case .expression(let e):
      guard case .value(.text(let name)) = e.expression.node else { fallthrough }
      collation = quoteIdentifier(name)
    default:
      throw compiler.source.diagnostic("'collate' needs a collation: .collate(.nocase)", at: syntax)
    }
    return .expression(TypedExpression(Expression(.collate(lhs, collation: collation)), type: receiver.type))
  }

  /// `asc(nulls:)`, `desc(nulls:)`: an ordering term.
  func ordering(_ name: String, _ receiver: TypedExpression, _ arguments: Arguments) throws -> Value {
    let lhs = receiver.expression
    var nulls: Ordering.Nulls?
    if let syntax = arguments.labelled("nulls") {
      guard case .implicitMember(let member) = try compiler.evaluate(syntax), member == "first" || member == "last" else {
        throw compiler.source.diagnostic("'nulls:' is .first or .last", at: syntax)
      }
      nulls = member == "first" ? .first : .last
    }
    return .ordering(Ordering(lhs, direction: name == "asc" ? .ascending : .descending, nulls: nulls))
  }

  /// `cast(as:)`: CAST to the SQLite type of a Swift type (or the type Swift infers without one).
  func cast(_ name: String, _ receiver: TypedExpression, _ arguments: Arguments) throws -> Value {
    let lhs = receiver.expression
    var type = "NUMERIC"
    var result: SwiftType?
    if let syntax = arguments.labelled("as") ?? arguments.first() {
      let name = syntax.trimmedDescription.replacingOccurrences(".self", "")
      // `$0.count.cast(as: Int.self)`, `$0.avg().cast(as: Double?.self)`: a cast to the type the
      // expression already has is the expression itself, as StructuredQueries renders it.
      if let own = receiver.type, own.representation == nil,
        own.name + (own.isOptional ? "?" : "") == name
      {
        return .expression(receiver)
      }
      type = compiler.sqlType(forSwiftType: name)
      // `cast(as: Double.self)` is a `some QueryExpression<Double>`.
      if ["Int", "Int64", "Double", "String", "Bool", "[UInt8]"].contains(name) { result = SwiftType(name) }
    } else if let receiverType = receiver.type?.wrapped {
      // No type given: Swift infers it from the context. The usual cases: an integer (or
      // Bool) cast to compare or divide as a Double, a Double cast to truncate, text to a number.
      switch receiverType.name {
      case "Int", "Int64", "Int32", "Bool": type = "REAL"
      case "Double", "Float": type = "INTEGER"
      case "String": type = "NUMERIC"
      default: type = "TEXT"
      }
    }
    return .expression(TypedExpression(Expression(.cast(lhs, type: type)), type: result))
  }

  /// `strftime(_:)` of a date, in the column's storage.
  func strftime(_ name: String, _ receiver: TypedExpression, _ arguments: Arguments) throws -> Value {
    let call = arguments.call
    guard receiver.type?.isDate == true else { return try sqlFunctionCall(name, receiver, arguments) }
    guard let format = arguments.first() else { throw compiler.source.diagnostic("'strftime' needs a format", at: call) }
    return .expression(TypedExpression(.function("strftime", [try text(format)] + timeArguments(receiver)), type: .string))
  }

  /// `map { … }`, `flatMap { … }` on an optional: the closure gets the unwrapped value; `map` keeps NULL.
  func mapped(_ name: String, _ receiver: TypedExpression, _ arguments: Arguments) throws -> Value {
    let call = arguments.call
    let lhs = receiver.expression
    // `$0.priority.map { $0 < Priority.high }`: the closure gets the unwrapped value. `map`
    // keeps NULL as NULL around it; `flatMap`'s closure already answers for NULL.
    guard let syntax = arguments.first() else {
      throw compiler.source.diagnostic("'\(name)' needs a closure: .\(name) { $0 … }", at: call)
    }
    let unwrapped = TypedExpression(lhs, type: receiver.type?.wrapped)
    let transformed: Value
    if let closure = syntax.as(ClosureExprSyntax.self) {
      transformed = try compiler.invoke(closure, with: [.expression(unwrapped)])
    } else if case .keyPath(let names) = try compiler.evaluate(syntax) {
      // `.map(\.year)`
      var value = Value.expression(unwrapped)
      for member in names { value = try compiler.member(member, of: value, at: syntax) }
      transformed = value
    } else {
      throw compiler.source.diagnostic("'\(name)' needs a closure or a key path: .\(name) { $0 … }", at: syntax)
    }
    let result = try compiler.typedExpression(transformed, at: syntax)
    if name == "flatMap" {
      return .expression(TypedExpression(result.expression, type: result.type?.optional))
    }
    let isNull = lhs.binary(.is, .null)
    let guarded = CaseExpression(base: isNull, whens: [.init(.value(.integer(1)), then: .null)], otherwise: result.expression)
    return .expression(TypedExpression(Expression(.caseWhen(guarded)), type: result.type?.optional))
  }

  /// A method that is one SQL function of its receiver, as its vocabulary entry declares it
  /// (`length()`, `upper()`, aggregates with DISTINCT, ORDER BY and FILTER).
  ///
  /// ```swift
  /// Reminder.select { $0.title.length() }  // SELECT length("reminders"."title") FROM "reminders"
  /// ```
  func sqlFunctionCall(_ name: String, _ receiver: TypedExpression, _ arguments: Arguments) throws -> Value {
    let lhs = receiver.expression
    if let (function, result) = sqlFunction(name), case .aggregate(let sql) = function {
      var aggregateArguments = [lhs]
      if name == "groupConcat", let separator = arguments.positional.first {
        aggregateArguments.append(try text(separator))
      }
      if name == "groupConcat", let separator = arguments.labelled("separator") {
        aggregateArguments.append(try text(separator))
      }
      var distinct = false
      if let syntax = arguments.labelled("distinct") {
        distinct = try compiler.booleanConstant(syntax, for: "distinct")
      }
      var order: [Ordering] = []
      if let syntax = arguments.labelled("order") {
        order = try compiler.orderings(try compiler.evaluate(syntax), at: syntax)
      }
      var filter: Expression?
      if let syntax = arguments.labelled("filter") {
        filter = try compiler.predicate(try compiler.evaluate(syntax), at: syntax)
      }
      let type: SwiftType? = result ?? receiver.type?.optional
      return .expression(
        TypedExpression(
          Expression(.aggregate(Aggregate(name: sql, arguments: aggregateArguments, distinct: distinct, order: order, filter: filter))),
          type: type))
    }

    if let (function, result) = sqlFunction(name), case .scalar(let sql) = function {
      var functionArguments = [lhs]
      let parameters = Vocabulary.methods(named: name, on: .expression).first?.parameters ?? []
      if name == "ifnull", let type = receiver.type, compiler.isKnown(type), !type.isOptional {
        // `ifnull` is declared on optional expressions only.
        throw compiler.source.diagnostic(
          "no exact matches in reference to instance method 'ifnull' ('\(type)' is not optional)", at: CallSite(arguments).nameNode)
      }
      for (index, syntax) in arguments.list.map(\.expression).enumerated() {
        let expected: SwiftType? = ["substr", "round", "likelihood"].contains(name) ? nil : receiver.type?.wrapped
        let value = try compiler.evaluate(syntax, expected: expected)
        try checkFunctionArgument(
          name, syntax, value, parameter: index < parameters.count ? parameters[index].type : nil,
          receiver: receiver.type, at: arguments)
        let argument = try compiler.typedExpression(value, expected: expected, at: syntax).expression
        // SQLite wants likelihood's probability as a constant, not a bound parameter.
        if name == "likelihood", case .value(.double(let probability)) = argument.node, probability.isFinite {
          functionArguments.append(Expression(.literal(.double(probability))))
        } else {
          functionArguments.append(argument)
        }
      }
      var type = result ?? receiver.type
      if name == "ifnull" { type = receiver.type?.wrapped }
      if name == "nullif" { type = receiver.type?.optional }
      return .expression(TypedExpression(.function(sql, functionArguments), type: type))
    }
    throw compiler.unknownMethod(name, on: .expression, described: "an expression", at: CallSite(arguments).nameNode)
  }

  /// An argument of a scalar function, a `some QueryExpression<T>` of the type its entry declares
  /// (`substr(_ offset: Int, …)`, `replace(_ pattern: String, …)`); `ifnull` takes the receiver's
  /// wrapped type, `nullif` the receiver's type (both made optional).
  private func checkFunctionArgument(
    _ name: String, _ syntax: ExprSyntax, _ value: Value, parameter: String?, receiver: SwiftType?, at arguments: Arguments
  ) throws {
    let nameNode = CallSite(arguments).nameNode
    let argument = compiler.argumentType(syntax, value)
    switch parameter {
    case "Wrapped":
      guard let receiver, compiler.isKnown(receiver) else { return }
      if case .typed(let given) = argument, given.wrapped == receiver.wrapped { return }
      if compiler.fits(argument, receiver.wrapped) == false {
        throw compiler.source.diagnostic("no exact matches in reference to instance method '\(name)'", at: nameNode)
      }
    case "Self":
      guard let receiver, compiler.isKnown(receiver) else { return }
      if case .typed(let given) = argument, given.wrapped == receiver.wrapped { return }
      if compiler.fits(argument, receiver.wrapped) == false {
        throw compiler.source.diagnostic(
          "instance method '\(name)' requires the types '\(receiver.optional)' and '\(argument.typeName.map { $0.hasSuffix("?") ? $0 : $0 + "?" } ?? "?")' be equivalent",
          at: nameNode)
      }
    case "Int", "Int?", "String", "String?", "Double", "Double?":
      guard let parameter else { return }
      let target = SwiftType(String(parameter.prefix { $0 != "?" }))
      if case .literal(.null) = argument, parameter.hasSuffix("?") { return }
      if compiler.fits(argument, target) == false {
        throw compiler.source.diagnostic(
          "instance method '\(name)' requires the types '\(argument.typeName ?? "?")' and '\(target)' be equivalent", at: nameNode)
      }
    default:
      return
    }
  }

  private func text(_ syntax: ExprSyntax) throws -> Expression {
    try compiler.typedExpression(try compiler.evaluate(syntax, expected: .string), expected: .string, at: syntax).expression
  }

  private func argument(_ name: String, of receiver: TypedExpression, _ arguments: Arguments, label: String? = nil, expected: SwiftType?)
    throws -> TypedExpression
  {
    guard let syntax = arguments.first(label) else {
      throw compiler.source.diagnostic("'\(name)' needs \(label.map { "a '\($0):' argument" } ?? "an argument")", at: arguments.call)
    }
    return try compiler.typedExpression(try compiler.evaluate(syntax, expected: expected), expected: expected, at: syntax)
  }

}
