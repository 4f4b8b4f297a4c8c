import QueryBuilder
import SwiftSyntax

/// What free functions and builders do (`Case(…)`, `With { … } query: { … }`, `Values(…)`): the
/// handlers of the function vocabulary.
///
/// ```swift
/// Reminder.select { Case($0.priority).when(3, then: "high").else("other") }
/// ```
struct FunctionMethods {
  unowned let compiler: Compiler
}

extension Compiler {
  /// Function methods, working in this compiler's context.
  var functionMethods: FunctionMethods { FunctionMethods(compiler: self) }
}

/// Free-standing builders: `Case`, `With` (common table expressions) and `Values`.
extension FunctionMethods {
  /// `Case()`, `Case(value)`: a CASE expression to build with `.when(…, then: …)`.
  func caseStart(_ name: String, _ arguments: Arguments, _ site: CallSite) throws -> Value {
    var base: TypedExpression?
    if let syntax = arguments.first() {
      base = try compiler.typedExpression(try compiler.evaluate(syntax), at: syntax)
    }
    return .caseBuilder(CaseExpression(base: base?.expression, whens: [], otherwise: nil), type: base?.type, baseType: base?.type)
  }

  /// `Optional(x)`: the value itself, optional.
  func optional(_ name: String, _ arguments: Arguments, _ site: CallSite) throws -> Value {
    guard let syntax = arguments.first() else { return .null }
    let value = try compiler.evaluate(syntax)
    guard case .expression(var typed) = value else { return value }
    // `Optional(x)` has the optional of x's type; of a literal, whatever optional the context
    // asks for (`Optional(1)` is a `Double?` beside a `Double?` column).
    if case .literal = compiler.argumentType(syntax, value) { typed.type = nil } else { typed.type = typed.type?.optional }
    return .expression(typed)
  }

  /// `Int(x)`, `String(x)`, … of something that is no Swift value (those Swift converts itself):
  /// not a conversion the library offers on SQL values.
  func conversion(_ name: String, _ arguments: Arguments, _ site: CallSite) throws -> Value {
    // `Int64(7)`: an integer is the same value in every integer type.
    if name == "Int64", arguments.list.count == 1, let only = arguments.first(),
      case .expression(let typed) = try compiler.evaluate(only), case .value(.integer) = typed.expression.node
    {
      return .expression(TypedExpression(typed.expression, type: SwiftType("Int64")))
    }
    // `String(fileInfo.embeddedName())` in a scan: Swift converts a value the app has when it
    // runs, so the result is one too (a `String` whatever it converts; `Int(text)` may be nil).
    if arguments.list.count == 1, let only = arguments.first(), case .expression(let typed) = try compiler.evaluate(only),
      case .value(.parameter) = typed.expression.node
    {
      return .runTime(compiler.text(of: arguments.call), type: name == "String" ? .string : nil)
    }
    throw compiler.source.diagnostic(
      "'\(name)(…)' converts Swift values; a column or SQL expression is converted in SQL with .cast(as: \(name).self)",
      at: site.nameNode)
  }

  /// `URL(string: "…")!`, `URL(fileURLWithPath: "/tmp/x")`: stored as text.
  func url(_ name: String, _ arguments: Arguments, _ site: CallSite) throws -> Value {
    guard let argument = arguments.list.first,
      case .expression(let e) = try compiler.evaluate(argument.expression), case .value(.text(let text)) = e.expression.node
    else { throw compiler.source.diagnostic("URL needs a string literal", at: arguments.call) }
    let url = argument.label == "fileURLWithPath" ? "file://" + text : text
    return .expression(TypedExpression(.value(.text(url)), type: SwiftType("URL")))
  }

  /// `Values(1, "a")`: one row of literal values (`SELECT 1, 'a'`).
  func values(_ name: String, _ arguments: Arguments, _ site: CallSite) throws -> Value {
    var select = Select(from: nil)
    var types: [SwiftType?] = []
    for argument in arguments.list {
      let value = try compiler.evaluate(argument.expression)
      if case .selection(let pairs, _) = value {
        for (name, expression) in pairs {
          select.columns.append(ResultColumn(expression.expression, as: name))
          types.append(expression.type)
        }
        continue
      }
      let expression = try compiler.typedExpression(value, at: argument.expression)
      select.columns.append(ResultColumn(expression.expression))
      types.append(expression.type)
    }
    return .statement(.select(select), returningTypes: types)
  }

  /// `Date()`, `Date(timeIntervalSince1970:)`, `Date(timeIntervalSinceReferenceDate:)`.
  func date(_ name: String, _ arguments: Arguments, _ site: CallSite) throws -> Value {
    guard let date = try dateInitializer(arguments) else {
      throw compiler.source.diagnostic(
        "'Date' is made here with Date(), Date(timeIntervalSince1970:) or Date(timeIntervalSinceReferenceDate:)", at: arguments.call)
    }
    return date
  }

  /// `UUID()`, `UUID(uuidString: "…")!`, `UUID(1)`.
  func uuid(_ name: String, _ arguments: Arguments, _ site: CallSite) throws -> Value {
    guard let uuid = try uuidInitializer(arguments) else {
      throw compiler.source.diagnostic(
        "'UUID' is made here with UUID(), UUID(uuidString: \"…\") or StructuredQueries' test shorthand UUID(1)", at: arguments.call)
    }
    return uuid
  }

  /// `print(query)`, `dump(query)` in pasted app code: what is printed is the query.
  func printed(_ name: String, _ arguments: Arguments, _ site: CallSite) throws -> Value {
    guard arguments.list.count == 1, let argument = arguments.first() else {
      throw compiler.source.diagnostic("'\(name)' of one query shows that query; give it one", at: arguments.call)
    }
    return try compiler.evaluate(argument)
  }

  /// Pasted from a StructuredQueries test: `assertQuery(Reminder.all) { """…""" } results: …`
  /// and `assertInlineSnapshot(of: query, as: .sql) { … }` are the query they check.
  func assertion(_ name: String, _ arguments: Arguments, _ site: CallSite) throws -> Value {
    guard let query = arguments.labelled("of") ?? arguments.first() else {
      throw compiler.source.diagnostic("'\(name)' checks a query; give it one", at: arguments.call)
    }
    return try compiler.evaluate(query)
  }

  /// `Array(values)`, `Set(values)` of a list the query compiler holds: the list.
  func collection(_ name: String, _ arguments: Arguments, _ site: CallSite) throws -> Value {
    let value = try arguments.first().map { try compiler.evaluate($0) }
    if case .expression(let typed)? = value, Compiler.runTimeName(in: typed.expression) != nil {
      // A list the app supplies when it runs (a scan): what is built from it depends on it.
      throw RunTimeValue(name: arguments.call.trimmedDescription)
    }
    guard arguments.list.count == 1, case .array(let elements)? = value else {
      throw compiler.source.diagnostic("'\(name)(…)' of this is not a list Quarry can follow", at: arguments.call)
    }
    return .array(elements)
  }

  /// `.when(condition, then: value)` and `.else(value)` on `Case(…)`.
  func caseMethod(
    _ name: String, on expression: CaseExpression, type: SwiftType?, baseType: SwiftType? = nil, arguments: Arguments,
    at node: MemberAccessExprSyntax
  ) throws -> Value {
    let receiver = Value.caseBuilder(expression, type: type, baseType: baseType)
    if let value = try compiler.dispatch(name, on: .caseBuilder, receiver: receiver, CallSite(arguments, member: node)) {
      return value
    }
    // A finished CASE is an expression: its methods are an expression's.
    guard !expression.whens.isEmpty else {
      throw compiler.source.diagnostic("a CASE expression needs at least one .when(…, then: …)", at: arguments.call.calledExpression)
    }
    let value = TypedExpression(Expression(.caseWhen(expression)), type: type)
    return try compiler.expressionMethods.expressionMethod(name, on: value, arguments: arguments, at: node)
  }

  /// `.when(condition, then: result)`: one more branch.
  func caseWhen(_ expression: CaseExpression, type: SwiftType?, baseType: SwiftType?, arguments: Arguments) throws -> Value {
    var expression = expression
    let call = arguments.call
    guard let conditionSyntax = arguments.positional.first, let thenSyntax = arguments.labelled("then") else {
      throw compiler.source.diagnostic("'when' needs a condition and a result: .when(condition, then: value)", at: call)
    }
    let condition: Expression
    if expression.base != nil {
      let value = try compiler.evaluate(conditionSyntax, expected: baseType?.wrapped)
      if let baseType { try checkCaseValue(conditionSyntax, value, against: baseType, method: "when(_:then:)", at: arguments) }
      condition = try compiler.typedExpression(value, expected: baseType?.wrapped, at: conditionSyntax).expression
    } else {
      guard let predicate = try compiler.predicate(try compiler.evaluate(conditionSyntax), at: conditionSyntax) else {
        throw compiler.source.diagnostic("'when' needs a condition, not nil", at: conditionSyntax)
      }
      condition = predicate
    }
    // `then: .completing` / `#bind(.completing)`: typed like the results before it, or the base
    // (`Case(self.status).when(#bind(.incomplete), then: #bind(.completing))`).
    var thenValue: Value
    let fallbackType = type?.wrapped ?? baseType?.wrapped
    do {
      thenValue = try compiler.evaluate(thenSyntax, expected: nil)
    } catch let diagnostic as Diagnostic where fallbackType != nil {
      guard let retried = try? compiler.evaluate(thenSyntax, expected: fallbackType) else { throw diagnostic }
      thenValue = retried
    }
    if case .implicitMember = thenValue, let fallbackType { thenValue = try compiler.evaluate(thenSyntax, expected: fallbackType) }
    let result = try compiler.typedExpression(thenValue, at: thenSyntax)
    expression.whens.append(.init(condition, then: result.expression))
    return .caseBuilder(expression, type: result.type?.optional, baseType: baseType)
  }

  /// A `Case` value of another kind than the case's type (text where the results are numbers, a
  /// number where they are Bools): Swift infers one `T` for the whole builder and refuses it.
  private func checkCaseValue(_ syntax: ExprSyntax, _ value: Value, against type: SwiftType, method: String, at arguments: Arguments) throws
  {
    guard compiler.isKnown(type) else { return }
    func kind(_ type: SwiftType) -> String? {
      type.isNumeric ? "number" : type.name == "String" ? "text" : type.isBool ? "bool" : nil
    }
    let given: SwiftType? =
      switch compiler.argumentType(syntax, value) {
      case .literal(.null), .unknown, .implicitMember: nil
      case .literal(let literal): literal.defaultType
      case .optionalLiteral(let literal): literal.defaultType.optional
      case .typed(let typed): typed
      }
    guard let given, let expectedKind = kind(type.wrapped), let givenKind = kind(given.wrapped), expectedKind != givenKind else { return }
    throw compiler.source.diagnostic(
      "instance method '\(method)' requires the types '\(type.wrapped)' and '\(given.wrapped)' be equivalent",
      at: CallSite(arguments).nameNode)
  }

  /// `.else(result)`: the CASE, finished.
  func caseElse(_ expression: CaseExpression, type: SwiftType?, baseType: SwiftType?, arguments: Arguments) throws -> Value {
    var expression = expression
    guard let syntax = arguments.first() else {
      throw compiler.source.diagnostic("'else' needs a value", at: arguments.call)
    }
    let otherwiseValue = try compiler.evaluate(syntax, expected: type?.wrapped)
    if let type { try checkCaseValue(syntax, otherwiseValue, against: type, method: "else", at: arguments) }
    let otherwise = try compiler.typedExpression(otherwiseValue, expected: type, at: syntax)
    expression.otherwise = otherwise.expression
    return .expression(TypedExpression(Expression(.caseWhen(expression)), type: otherwise.type ?? type?.wrapped))
  }

  /// `With { cte… } query: { statement }`.
  func with(_ name: String, _ arguments: Arguments, _ site: CallSite) throws -> Value {
    let node = site.nameNode
    guard let definitions = arguments.list.first(where: { $0.label == nil })?.expression.as(ClosureExprSyntax.self),
      let body = arguments.labelled("query")
    else {
      throw compiler.source.diagnostic("write common table expressions as With { … } query: { … }", at: node)
    }
    var expressions: [CommonTableExpression] = []
    for (index, value) in try compiler.invokeAll(definitions, with: []).enumerated() {
      let syntax = definitions.statements[
        definitions.statements.index(definitions.statements.startIndex, offsetBy: min(index, definitions.statements.count - 1))]
      let model: String?
      switch value {
      case .query(let query): model = query.resultModel
      case .statement(.compound(let compound), _): model = compiler.compoundModels[compiler.statementMethods.compoundKey(compound)]
      case .statement: model = nil
      default: model = nil
      }
      guard let model else {
        throw compiler.source.diagnostic(
          "a common table expression needs a row type: select into a @Table type, like .select { Row.Columns(a: $0.a) }",
          at: syntax)
      }
      let name = compiler.catalog.table(forType: model)?.tableName ?? Inflection.tableName(forType: model)
      if case .query(let query) = value, query.select.isEmpty { continue }  // `.none`: left out
      if let previous = expressions.first(where: { $0.name == name }) {
        _ = previous
        throw compiler.source.diagnostic("two common table expressions are both named '\(name)'", at: syntax)
      }
      let statement = try compiler.statementMethods.statementValue(value, at: syntax)
      try checkRecursiveColumns(statement, model: model, at: syntax)
      expressions.append(CommonTableExpression(name: name, statement: statement))
    }
    let bodyValue = try compiler.statementMethods.evaluateClosureOrExpression(body)
    let bodyStatement = try compiler.statementMethods.statementValue(bodyValue, at: body)
    var types: [SwiftType?] = []
    switch bodyValue {
    case .query(let query): types = query.resultTypes
    case .table(let table): types = try compiler.baseQuery(table).resultTypes
    case .write(let write): types = write.returningTypes
    case .statement(_, let t): types = t
    default: break
    }
    return .statement(.with(With(expressions, body: bodyStatement)), returningTypes: types)
  }

  /// Each select of a (recursive) CTE must produce as many columns as its row type has.
  func checkRecursiveColumns(_ statement: Statement, model: String, at node: some SyntaxProtocol) throws {
    guard let table = compiler.catalog.table(forType: model) else { return }
    var selects: [Select] = []
    switch statement {
    case .select(let s): selects = [s]
    case .compound(let c):
      for part in [c.first] + c.rest.map(\.statement) { if case .select(let s) = part { selects.append(s) } }
    default: return
    }
    for select in selects where !select.columns.isEmpty && select.columns.count != table.columns.count {
      throw compiler.source.diagnostic(
        "'\(model)' has \(table.columns.count) column\(table.columns.count == 1 ? "" : "s"), but one select of this common table expression has \(select.columns.count)",
        at: node)
    }
  }
}
