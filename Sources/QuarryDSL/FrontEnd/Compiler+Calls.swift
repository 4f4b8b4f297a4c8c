import QueryBuilder
import SwiftSyntax

/// Calls, operators and macros.
extension Compiler {
  func evaluateCall(_ call: FunctionCallExprSyntax, expected: SwiftType?) throws -> Value {
    let arguments = Arguments(call)
    if let localized = try localizedString(call) { return localized }
    // `FilterQuery<Term>.StableJSON(queryOutput: filter)` in a scan: a type of the app Quarry
    // does not model, built from a value the app has when it runs, is such a value too.
    if scanning, let root = Self.rootTypeName(of: call.calledExpression), !isModelled(root) || returnsSwiftValue(call, of: root),
      let runTime = runTimeComputation(ExprSyntax(call))
    {
      return runTime
    }
    // `Int?(1)`, `Date?.some(d)`, `Priority?.some(.low)`: an optional of the written type.
    if call.arguments.count == 1, let only = call.arguments.first, only.label == nil {
      var typeSyntax: ExprSyntax?
      if let chain = call.calledExpression.as(OptionalChainingExprSyntax.self) { typeSyntax = chain.expression }
      if let member = call.calledExpression.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "some",
        let chain = member.base?.as(OptionalChainingExprSyntax.self)
      {
        typeSyntax = chain.expression
      }
      if let typeSyntax, let name = typeSyntax.as(DeclReferenceExprSyntax.self)?.baseName.text,
        name.first?.isUppercase == true
      {
        let wrapped = SwiftType(name)
        let value = try evaluate(only.expression, expected: wrapped)
        guard case .expression(var typed) = value else { return value }
        typed.type = isKnown(wrapped) ? wrapped.optional : nil
        return .expression(typed)
      }
    }
    if let member = call.calledExpression.as(MemberAccessExprSyntax.self) {
      let name = member.declName.baseName.text
      guard let baseSyntax = member.base else {
        return try implicitCall(name, arguments: arguments, expected: expected)
      }
      // GRDB's `try db.execute(sql: "CREATE TABLE …")` in a pasted migration: plain SQL.
      if name == "execute", let sql = arguments.labelled("sql"), let literal = sql.as(StringLiteralExprSyntax.self) {
        guard arguments.labelled("arguments") != nil else {
          return .expression(TypedExpression(Expression(.sql([.text(try stringValue(literal))])), type: nil))
        }
        // `try db.execute(sql: "INSERT … VALUES (?, ?)", arguments: [a, b])`: its `?` bound.
        return .statement(.raw(try grdbSQL(arguments, sql: literal)), returningTypes: [])
      }
      // GRDB's `try Int.fetchOne(db, sql: "SELECT count(*) FROM …")`: its SQL, read as written,
      // each `?` bound from `arguments:`.
      if let fetched = try grdbRawFetch(name, on: baseSyntax, arguments) { return fetched }
      // GRDB's schema builder (`try db.create(table: "player") { t in … }`): the SQL GRDB runs.
      if GRDBSchema.isSchemaCall(call) {
        return .expression(TypedExpression(Expression(.sql([.text(try grdbSchema.sql(of: call))])), type: nil))
      }
      if name == "contains", let range = try operation(baseSyntax), range.op == "...", let argument = arguments.first() {
        // `(1...3).contains($0.id)`: BETWEEN.
        let needle = try typedExpression(try evaluate(argument), at: argument)
        // `ClosedRange<Bound>.contains` takes `some QueryExpression<Bound.QueryValue>`: a range
        // (whose bounds are never optional) holds no optional column.
        if let type = needle.type, type.isOptional, !needle.expression.isConstant {
          throw source.diagnostic(
            "instance method 'contains' requires the types '\(type.wrapped)' and '\(type)' be equivalent", at: member.declName)
        }
        let lower = try typedExpression(
          try evaluateOperand(range.left, expected: needle.type), expected: needle.type, at: range.left.anchor)
        let upper = try typedExpression(
          try evaluateOperand(range.right, expected: needle.type), expected: needle.type, at: range.right.anchor)
        return boolean(Expression(.between(needle.expression, lower: lower.expression, upper: upper.expression)))
      }
      // `self.init(…)` in a model's static function: the model's initializer.
      if name == "init", let reference = baseSyntax.as(DeclReferenceExprSyntax.self), ["self", "Self"].contains(reference.baseName.text),
        lookupLocal("self") == nil, let table = selfTable
      {
        return try tableMethods.initializer(of: table.model, arguments: arguments)
      }
      if isSwiftExtensionStatic(of: baseSyntax, name) { return try swiftValue(of: ExprSyntax(call)) }
      if let function = staticFunction(of: call) { return try callStaticFunction(function, call) }
      // StructuredQueriesSQLite's `try database.execute(Reminder.all)`: the database handle runs
      // the statement it is given (the handle is the app's, never a value of the query).
      if QuerySiteFinder.databaseRun(call) != nil, let handle = baseSyntax.as(DeclReferenceExprSyntax.self),
        lookupLocal(handle.baseName.text).map({ if case .null = $0 { true } else { false } }) ?? true,
        let statement = arguments.first()
      {
        return try evaluate(statement)
      }
      let base = try evaluateBase(baseSyntax)
      return try callMethod(name, on: base, arguments: arguments, at: member, expected: expected)
    }
    if let reference = call.calledExpression.as(DeclReferenceExprSyntax.self) {
      return try callFunction(reference.baseName.text, arguments: arguments, at: reference)
    }
    // `DefaultItem?(nil)`: a row of NULLs; `DefaultItem?(record)`: the record.
    if let model = tableMethods.optionalTableType(call.calledExpression), let argument = arguments.first(), arguments.list.count == 1 {
      let value = try evaluate(argument)
      if case .null = value { return tableMethods.nullRecord(of: model) }
      return value
    }
    // `$0.date(.startOfMonth)(.days(1))`: calling the result of a call.
    let callee = try evaluate(call.calledExpression, expected: expected)
    if case .expression(let date) = callee, date.type?.isDate == true {
      return try expressionMethods.callDate(date, arguments: arguments)
    }
    throw source.diagnostic("not supported in Quarry yet: calling this expression", at: call.calledExpression)
  }

  /// Whether `base` is a table (or a query of one) whose model declares a static function
  /// `name` that takes these arguments.
  func ownScopeFits(_ name: String, on base: Value, _ arguments: Arguments) -> Bool {
    switch base {
    case .table(let table): return ownScope(name, of: table.model, fitting: arguments) != nil
    case .query(let query): return query.tables.first.map { ownScope(name, of: $0.model, fitting: arguments) != nil } ?? false
    default: return false
    }
  }

  /// A call's receiver; a generic table type (`PragmaTableInfo<Reminder>`) is specialised here.
  public static let databaseCalls: Set<String> = ["fetchAll", "fetchOne", "fetchCursor", "fetchCount", "fetchSet", "execute"]

  func evaluateBase(_ expr: ExprSyntax) throws -> Value {
    if let generic = expr.as(GenericSpecializationExprSyntax.self) {
      guard case .table(var table) = try evaluate(generic.expression) else {
        throw source.diagnostic("only generic tables can be specialised", at: generic)
      }
      if let argument = generic.genericArgumentClause.arguments.first {
        let name = argument.argument.trimmedDescription
        guard let model = catalog.table(forType: name) else {
          throw source.diagnostic(
            "unknown table '\(name)'", at: argument,
            suggestion: closestMatch(to: name, in: catalog.tables.keys))
        }
        table.genericArgument = model
        if let template = table.model.aliasTemplate { table.alias = table.render(template) }
      }
      return .table(table)
    }
    return try evaluate(expr)
  }

  /// Whether `name` is a member the model itself declares: a scope, a case of an enum table,
  /// a computed or date column's method.
  func isModelMember(_ name: String, of base: Value) -> Bool {
    switch base {
    case .table(let table):
      return table.model.scopes[name] != nil || table.model.columns.contains { $0.enumGroup == [] && $0.path.first == name }
        || catalog.table(forType: table.model.typeName + "." + name) != nil
    case .query(let query):
      return query.tables.contains { $0.model.scopes[name] != nil }
    case .columns(let table):
      return table.model.column(named: name) != nil || table.model.computedColumns[name] != nil
    default:
      return false
    }
  }

  /// The type name a call's callee starts with (`FilterQuery` in `FilterQuery<T>.Wrapper(…)`),
  /// or nil when it starts with a value's name.
  static func rootTypeName(of callee: ExprSyntax) -> String? {
    var current = callee
    while true {
      if let member = current.as(MemberAccessExprSyntax.self), let base = member.base {
        current = base
        continue
      }
      if let generic = current.as(GenericSpecializationExprSyntax.self) {
        current = generic.expression
        continue
      }
      // `[FilterQuery<Term>].StableJSON(…)`: an array type written as an expression.
      if let array = current.as(ArrayExprSyntax.self), array.elements.count == 1, let only = array.elements.first {
        current = only.expression
        continue
      }
      break
    }
    guard let name = current.as(DeclReferenceExprSyntax.self)?.baseName.text, name.first?.isUppercase == true else { return nil }
    return name
  }

  /// Whether `call` is a static function of a struct or enum of the input (`Face.front(for: card)`)
  /// declared to return a Swift value (its own type, another struct, a standard type), not a
  /// query: computed from run-time values, its result is one too.
  func returnsSwiftValue(_ call: FunctionCallExprSyntax, of root: String) -> Bool {
    guard catalog.table(forType: root) == nil, let member = call.calledExpression.as(MemberAccessExprSyntax.self),
      let scope = catalog.staticFunctions[root + "." + member.declName.baseName.text],
      let returned = scope.body.syntax.parent?.as(FunctionDeclSyntax.self)?.signature.returnClause?.type
    else { return false }
    var name = returned.trimmedDescription
    while name.hasSuffix("?") || name.hasSuffix("!") { name.removeLast() }
    return name == root || name == "Self" || catalog.valueTypes[name] != nil || catalog.enums[name] != nil
      || Self.standardScalars.contains(name)
  }

  /// Whether Quarry knows what the type `name` is (a table, an enum, a struct, an alias, a
  /// namespace, a standard type).
  func isModelled(_ name: String) -> Bool {
    name == "Self" || draftOwner(name) != nil || catalog.table(forType: name) != nil || catalog.enums[name] != nil
      || catalog.valueTypes[name] != nil
      || catalog.aliases[name] != nil
      || catalog.staticFunctions.keys.contains { $0.hasPrefix(name + ".") }
      || catalog.staticProperties.keys.contains { $0.hasPrefix(name + ".") }
      || SwiftComputation.standardTypes.contains(name) || lookupLocal(name) != nil
  }

  /// GRDB's fetch of raw SQL into a value type (`Int.fetchOne(db, sql: "SELECT …", arguments: [id])`,
  /// `String.fetchAll`, `Row.fetchAll`, an app's `FetchableRecord`): that statement, its `?` bound in order from
  /// `arguments:` (an array literal). Nil when the call is no such fetch.
  func grdbRawFetch(_ name: String, on base: ExprSyntax, _ arguments: Arguments) throws -> Value? {
    guard ["fetchOne", "fetchAll", "fetchSet", "fetchCursor"].contains(name), let sql = arguments.labelled("sql"),
      let type = base.as(DeclReferenceExprSyntax.self)?.baseName.text, type.first?.isUppercase == true,
      catalog.table(forType: type) == nil, lookupLocal(type) == nil
    else { return nil }
    guard let literal = sql.as(StringLiteralExprSyntax.self) else {
      throw source.diagnostic("its SQL is the text the app builds in '\(sql.trimmedDescription)', which Quarry does not run here", at: sql)
    }
    // A scalar type reads the first column; `Row` or an app's `FetchableRecord` reads rows.
    let scalar = ["Date", "UUID", "Data"].contains(type) || SwiftComputation.standardTypes.contains(type)
    return .statement(.raw(try grdbSQL(arguments, sql: literal)), returningTypes: scalar ? [SwiftType(type)] : [])
  }

  /// GRDB's raw SQL with its `arguments:` (an array literal) bound to its `?` in order; in a
  /// scan, an argument the app computes when it runs is bound as such.
  func grdbSQL(_ arguments: Arguments, sql literal: StringLiteralExprSyntax) throws -> QueryFragment {
    let sqlText = try stringValue(literal)
    var values: [QueryBinding] = []
    if let given = arguments.labelled("arguments") {
      guard let array = given.as(ArrayExprSyntax.self) else {
        throw source.diagnostic("GRDB's arguments here are values Quarry binds from an array literal ([a, b])", at: given)
      }
      for element in array.elements {
        let value: TypedExpression
        do {
          value = try typedExpression(try evaluate(element.expression), at: element.expression)
        } catch let diagnostic as Diagnostic {
          guard scanning else { throw diagnostic }
          value = TypedExpression(.value(.parameter(text(of: element.expression))), type: nil)
        }
        guard case .value(let binding) = value.expression.node else {
          throw source.diagnostic("an argument of GRDB's raw SQL is a value, not a query expression", at: element.expression)
        }
        values.append(binding)
      }
    }
    let pieces = sqlText.split(separator: "?", omittingEmptySubsequences: false)
    guard pieces.count - 1 == values.count else {
      throw source.diagnostic(
        "this SQL has \(pieces.count - 1) '?' but GRDB is given \(values.count) argument\(values.count == 1 ? "" : "s")", at: literal)
    }
    var fragment = QueryFragment()
    for (index, piece) in pieces.enumerated() {
      fragment.append(String(piece))
      if index < values.count { fragment.append(values[index]) }
    }
    return fragment
  }

  /// The table whose `Draft` a bare `Draft` names where the compiler stands (in the table's
  /// own declaration or extension), or nil.
  func draftOwner(_ name: String) -> TableInstance? {
    guard name == "Draft", lookupLocal(name) == nil, runTimeValues[name] == nil else { return nil }
    if let selfTable, !selfTable.model.isSelection { return selfTable }
    guard let type = enclosingType, let model = catalog.table(forType: type), !model.isSelection else { return nil }
    return TableInstance(model: model)
  }

  /// `selectedIDs.contains($0.id)` on a collection the app holds when it runs: StructuredQueries'
  /// (deprecated) `Sequence.contains(_:)`, `"t"."id" IN (…)` with one `?` per element; on a
  /// `ClosedRange` the app holds, `BETWEEN` its bounds. Nil when `base` is no run-time value of
  /// the app or the argument is no column expression (a `String`'s `contains` takes no column,
  /// so the value is a sequence unless its declared type says otherwise).
  func runTimeSequenceContains(_ name: String, on base: Value, arguments: Arguments, at node: MemberAccessExprSyntax) throws -> Value? {
    guard name == "contains", case .expression(let typed) = base, case .value(.parameter(let list)) = typed.expression.node,
      arguments.list.count == 1, arguments.list.first?.label == nil, let argument = arguments.first()
    else { return nil }
    let declared = typed.type?.name ?? ""
    if ["String", "Substring", "Character"].contains(declared) { return nil }
    guard case .expression(let needle) = try evaluate(argument), !needle.expression.isConstant else { return nil }
    try warn(.sequenceContains, at: node.declName)
    if declared.hasPrefix("ClosedRange<") {
      let lower = Expression.value(.parameter(list + ".lowerBound"))
      let upper = Expression.value(.parameter(list + ".upperBound"))
      return boolean(Expression(.between(needle.expression, lower: lower, upper: upper)))
    }
    return boolean(needle.expression.binary(.in, Expression(.list([.value(.parameter(list + "[…]"))]))))
  }

  func callMethod(_ name: String, on base: Value, arguments: Arguments, at node: MemberAccessExprSyntax, expected: SwiftType? = nil)
    throws -> Value
  {
    if let runTime = runTimeMember(name, of: base, whole: arguments.call, isCall: true) { return runTime }
    if let reference = node.base?.as(DeclReferenceExprSyntax.self), appCode.fetchedBindings.contains(reference.baseName.text),
      lookupLocal(reference.baseName.text) == nil, !Self.databaseCalls.contains(name)
    {
      throw source.diagnostic(
        "'\(reference.baseName.text)' holds the rows the app fetched (a Swift array); Quarry runs that fetch but does not keep its rows as values, so '.\(name)(…)' on them cannot be computed here",
        at: node.declName)
    }
    // `Date().addingTimeInterval(-86400)`: the current date, moved, when the query runs.
    if name == "addingTimeInterval", case .expression(let typed) = base, case .function("datetime", let parts) = typed.expression.node,
      parts.count == 1, let argument = arguments.first(), case .expression(let seconds) = try evaluate(argument, expected: .double),
      case .value(let binding) = seconds.expression.node
    {
      let amount: Double? =
        switch binding {
        case .integer(let n): Double(n)
        case .double(let d): d
        default: nil
        }
      if let amount, amount.isFinite {
        let text = (amount < 0 ? "-" : "+") + String(Swift.abs(amount)) + " seconds"
        return .expression(TypedExpression(.function("datetime", parts + [.literal(text)]), type: .date))
      }
    }
    if let contained = try runTimeSequenceContains(name, on: base, arguments: arguments, at: node) { return contained }
    // `s.dropFirst(2)`, `title.uppercased()` on a Swift value: the standard library's member.
    if let computed = try swiftMemberOfSwiftValue(name, on: base, labels: CallLabels(arguments.call), whole: ExprSyntax(arguments.call)) {
      return computed
    }
    if catalog.appRunMethods.contains(name), Vocabulary.methods(named: name, on: .write).isEmpty {
      // `….returning(\.self).fetchOneForced(db)`: the app's own way to run the statement.
      switch base {
      case .query, .write, .statement, .table: return base
      default: break
      }
    }
    if let kind = receiverKind(of: base) {
      // The model's own static function that fits the call is no misuse of the library's method.
      if !ownScopeFits(name, on: base, arguments) { try checkArguments(of: name, on: kind, arguments) }
      // The vocabulary is the gate: a method it does not declare is no method, whatever the
      // dispatch below could do (a model's own members — scopes, enum cases — are declared by
      // the model).
      if Vocabulary.methods(named: name, on: kind).isEmpty, !isModelMember(name, of: base) {
        VocabularyAudit.record(kind, name)
        switch base {
        case .table(let table):
          throw unknownMethod(
            name, on: .query, described: "a query of '\(table.model.typeName)'", extra: Array(table.model.scopes.keys), at: node.declName)
        case .query(let query):
          throw unknownMethod(
            name, on: .query, described: "a query of '\(query.tables.first?.model.typeName ?? "?")'",
            extra: query.tables.first.map { Array($0.model.scopes.keys) } ?? [], at: node.declName)
        case .write: throw unknownMethod(name, on: .write, described: "a write statement", at: node.declName)
        case .expression: throw unknownMethod(name, on: .expression, described: "an expression", at: node.declName)
        default: throw unknownMethod(name, on: kind, described: describe(base), at: node.declName)
        }
      }
    }
    switch base {
    case .table(let table):
      return try tableMethods.tableMethod(name, on: table, arguments: arguments, member: node)
    case .query(let query):
      return try queryMethods.queryMethod(name, on: query, arguments: arguments)
    case .write(let write):
      if let value = try dispatch(name, on: .write, receiver: base, CallSite(arguments, member: node)) { return value }
      throw unknownMethod(name, on: .write, described: "a write statement", at: node.declName)
    case .group(let table, let path):
      return try rowMethods.groupMethod(name, on: table, path: path, arguments: arguments, at: node)
    case .caseBuilder(let expression, let type, let baseType):
      return try functionMethods.caseMethod(name, on: expression, type: type, baseType: baseType, arguments: arguments, at: node)
    case .window(let window):
      return try windowMethods.windowBuilderMethod(name, on: window, arguments: arguments, at: node)
    case .expression(let expression):
      return try expressionMethods.expressionMethod(name, on: expression, arguments: arguments, at: node)
    case .columns(let table):
      if let column = table.model.column(named: name), column.type.isDate {
        return try expressionMethods.callDate(table.column(column), arguments: arguments)
      }
      return try rowMethods.columnsMethod(name, on: table, arguments: arguments, at: node)
    case .array(let elements):
      if name == "contains", let argument = arguments.first() {
        let needle = try typedExpression(try evaluate(argument), at: argument)
        // `[1, 2].contains($0.id)` with a column: the library's deprecated spelling of `in`.
        if !needle.expression.isConstant { try warn(.sequenceContains, at: node.declName) }
        let list = try elements.map { try typedExpression($0, expected: needle.type, at: argument).expression }
        return .expression(TypedExpression(needle.expression.binary(.in, Expression(.list(list))), type: .bool))
      }
      // `ids.dropFirst()`, `names.map { … }.joined(separator: ", ")`: Swift on known values;
      // on query values (`rest.reduce(Case(…)) { … }`), structurally.
      if swiftValue(base) != nil {
        do {
          return try swiftValue(of: ExprSyntax(arguments.call), expected: expected)
        } catch let swiftFailure as Diagnostic {
          // Known elements, but a query value in the closure (`reduce(Case(…)) { … }`).
          guard let value = try arrayMethods.arrayMethod(name, on: elements, arguments: arguments, expected: expected) else {
            throw swiftFailure
          }
          return value
        }
      }
      if let value = try arrayMethods.arrayMethod(name, on: elements, arguments: arguments, expected: expected) { return value }
    case .slice(let elements, let start):
      if let value = try arrayMethods.sliceMethod(name, on: elements, startIndex: start, arguments: arguments, expected: expected) {
        return value
      }
    case .statement(let statement, let types):
      return try statementMethods.statementMethod(name, on: statement, types: types, arguments: arguments, at: node)
    default:
      break
    }
    if let kind = receiverKind(of: base) {
      throw unknownMethod(name, on: kind, described: describe(base), at: node.declName)
    }
    throw source.diagnostic("\(describe(base)) has no method '\(name)'", at: node.declName)
  }

  /// `Date()` and `Date.now`: the current date and time, as SQLite computes it when the statement
  /// runs.
  ///
  /// ```swift
  /// `String(localized: "Done")`, `NSLocalizedString("Done", comment: …)`: the app's
  /// translation for the user's language, read from its string catalog when it runs. In a
  /// scan, a value the app binds; elsewhere refused (Quarry has no catalog to read).
  func localizedString(_ call: FunctionCallExprSyntax) throws -> Value? {
    guard let callee = call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text, lookupLocal(callee) == nil,
      (callee == "String" && call.arguments.first?.label?.text == "localized") || callee == "NSLocalizedString"
    else { return nil }
    if scanning { return .runTime(text(of: call), type: .string) }
    throw source.diagnostic(
      "'\(callee)\(callee == "String" ? "(localized:)" : "")' is the app's translation from its string catalog, which Quarry cannot read; write the text itself",
      at: call.calledExpression)
  }

  /// Reminder.where { $0.dueDate < Date() }
  /// // … WHERE (("reminders"."dueDate") < (datetime('now')))
  /// ```
  func currentDate() -> Value {
    // In a scan, `Date()` is the Date the app has when it runs, bound as StructuredQueries binds it.
    if scanning { return .runTime("Date.now", type: .date) }
    return .expression(TypedExpression(.function("datetime", [.literal("now")]), type: .date))
  }

  /// An argument of a record's initializer (`Reminder.Draft(title:, createdAt:)`, an init the
  /// model declares): a parameter of a Swift type, so a leading `.now` is Foundation's `Date.now`
  /// (the value the app binds), not StructuredQueries' `.now` of a query expression.
  ///
  /// ```swift
  /// DrinkType.insert { DrinkType.Draft(name: "x", createdAt: .now) }
  /// // in a scan: INSERT INTO "drinkTypes" ("id", "name", "createdAt") VALUES (NULL, ?, ?)  -- ?2 = Date.now
  /// ```
  func evaluateArgument(_ expression: ExprSyntax, parameterType: SwiftType?) throws -> Value {
    if let access = expression.as(MemberAccessExprSyntax.self), access.base == nil, access.declName.baseName.text == "now",
      access.declName.argumentNames == nil, parameterType?.wrapped.isDate == true
    {
      return currentDate()
    }
    // `CachedRecord(plannedClimb: .mock1)` in a scanned app: a static value of a type the app
    // declares and Quarry does not model, which the compiler found on the parameter's type.
    if scanning, let type = parameterType?.wrapped, Self.isLeadingDotMember(expression), evaluatorType(type) == nil,
      catalog.enums[type.name] == nil, catalog.table(forType: type.name) == nil, !type.isDate
    {
      let runTime = Value.runTime(type.name + expression.trimmedDescription, type: parameterType)
      do {
        let value = try evaluate(expression, expected: parameterType)
        if case .implicitMember = value { return runTime }
        return value
      } catch is Diagnostic {
        return runTime
      }
    }
    let value = try evaluate(expression, expected: parameterType)
    // `Probe.Draft(v: -x + 1)`: the field's parameter is a plain Swift value, so the prefix
    // operator and those over it are Swift's own and the result is bound (`-4`, as
    // StructuredQueries binds it); the query's `(-(5)) + (1)` is for a query expression only.
    if case .expression(let typed) = value, Self.isOperatorsOverValues(typed.expression),
      let computed = try? swiftValue(of: expression, expected: parameterType)
    {
      return computed
    }
    // `.mock1` the app computes when it runs: named with its type, `Climb.mock1`.
    if Self.isLeadingDotMember(expression), let type = parameterType?.wrapped,
      case .expression(let typed) = value, case .value(.parameter(let name)) = typed.expression.node, name.hasPrefix(".")
    {
      return .runTime(type.name + name, type: typed.type)
    }
    return value
  }

  /// Whether the query built `expression` from bound values with operators only (`-(5)`,
  /// `(-(5)) + (1)`): what Swift computes where a concrete value is asked for.
  static func isOperatorsOverValues(_ expression: Expression) -> Bool {
    switch expression.node {
    case .unary(_, let operand): return operand.isConstant || isOperatorsOverValues(operand)
    case .binary(let lhs, _, let rhs):
      return (lhs.isConstant || isOperatorsOverValues(lhs)) && (rhs.isConstant || isOperatorsOverValues(rhs))
    default: return false
    }
  }

  /// `.mock1`, `.make(…)`: a member named with its type left to the context.
  static func isLeadingDotMember(_ expression: ExprSyntax) -> Bool {
    let callee = expression.as(FunctionCallExprSyntax.self)?.calledExpression ?? expression
    return callee.as(MemberAccessExprSyntax.self)?.base == nil
  }

  /// `.where { … }`, `.days(1)` and other leading-dot calls.
  func implicitCall(_ name: String, arguments: Arguments, expected: SwiftType?) throws -> Value {
    // `.days(7)`, declared by the input in an extension of a standard type: Swift's value.
    if catalog.swiftExtensions[name]?.contains(where: \.isStatic) == true {
      return try swiftValue(of: ExprSyntax(arguments.call))
    }
    if name == "count", arguments.list.isEmpty {
      // `.select { _ in .count() }`: count(*)
      return .expression(TypedExpression(Expression(.aggregate(Aggregate(name: "count", arguments: [.star]))), type: .int))
    }
    if name == "now", let expected, expected.isDate {
      var modifiers: [String] = []
      for argument in arguments.list { modifiers += try expressionMethods.dateModifiers(argument.expression) }
      return .expression(expressionMethods.now(expected, modifiers: modifiers))
    }
    if let selfTable, ["where", "select", "order", "group", "join", "leftJoin", "limit"].contains(name) {
      return try queryMethods.queryMethod(name, on: Query(selfTable), arguments: arguments)
    }
    if name == "init", let expected {
      // `.init(title: …)` where a `Reminder.Draft` (or a `Reminder`) is expected: its initializer.
      if expected.name.hasSuffix(".Draft"), let model = catalog.table(forType: String(expected.name.dropLast(".Draft".count))),
        catalog.table(forType: expected.name) == nil
      {
        return try tableMethods.draft(TableInstance(model: model), arguments)
      }
      if let model = catalog.table(forType: expected.name) { return try tableMethods.initializer(of: model, arguments: arguments) }
    }
    if let expected, let model = catalog.enums[expected.name] {
      throw source.diagnostic("'\(model.name).\(name)' is not a function", at: arguments.call)
    }
    if scanning, name == "init", let expected, catalog.table(forType: expected.name) == nil {
      // `id: .init(stabilizedBy: title)` where an `ID` of the app's own type is expected: a
      // value the app makes when it runs, bound.
      return .runTime(text(of: arguments.call), type: expected.wrapped)
    }
    if expected == nil, !Vocabulary.methods(named: name, on: .query).isEmpty || !Vocabulary.methods(named: name, on: .write).isEmpty {
      // A clause pasted without its query (`.where { $0.isCompleted }`).
      let example = catalog.tableOrder.compactMap { catalog.tables[$0] }.first { !$0.isSelection }?.typeName ?? "Reminder"
      throw source.diagnostic(
        "'.\(name)' continues a query, but nothing comes before it: a query starts from a table, e.g. \(example).\(name) { … }",
        at: arguments.call)
    }
    throw source.diagnostic(
      "cannot tell what '.\(name)(…)' refers to here; spell out its type", at: arguments.call)
  }

  /// Free functions: a `@DatabaseFunction` (`$name(…)`), Swift's own functions of Swift values,
  /// the input's functions, the vocabulary's functions (`Case(…)`, `With { … } query: { … }`,
  /// `Values(…)`, window functions, `Date(…)`), a query method inside a scope (`Self`'s), a
  /// table's initializer.
  func callFunction(_ name: String, arguments: Arguments, at node: DeclReferenceExprSyntax) throws -> Value {
    if name.hasPrefix("$"), lookupLocal(name) == nil {
      guard let function = catalog.databaseFunctions[String(name.dropFirst())] else {
        throw source.diagnostic(
          "no @DatabaseFunction named '\(name.dropFirst())'", at: node,
          suggestion: closestMatch(to: String(name.dropFirst()), in: Set(catalog.databaseFunctions.keys)).map { "$" + $0 })
      }
      return try functionMethods.callDatabaseFunction(function, arguments: arguments, at: node)
    }
    if let local = lookupLocal(name) {
      throw source.diagnostic("\(describe(local)) cannot be called", at: node)
    }
    if let called = runTimeClosureCall(name, arguments: arguments) { return called }
    // A function of the input that is Swift's alone: its value, computed as Swift computes it.
    if let declared = appCode.declaredFunctions[name], Self.isTopLevel(declared.declaration),
      case .success(let computed) = try AppCodeRunner.trapsAreTheApps(computeSwift(ExprSyntax(arguments.call), expected: nil))
    {
      return try value(of: computed, at: node)
    }
    if let function = catalog.functions[name] {
      let values = try arguments.list.map { try evaluate($0.expression) }
      guard values.count == function.parameters.count else {
        throw source.diagnostic(
          "'\(name)' takes \(function.parameters.count) argument\(function.parameters.count == 1 ? "" : "s"), not \(values.count)",
          at: node)
      }
      try checkSwiftArguments(of: function, values, at: arguments.list.map(\.expression))
      return try withSource(function.body) {
        try withLocals(parameterBindings(of: function, values)) {
          try evaluateBody(function.body.syntax)
        }
      }
    }
    // `Self(id: …)` inside a table's own declaration or extension: that table's initializer.
    if let model = catalog.table(forType: name == "Self" ? enclosingType ?? name : name) {
      return try tableMethods.initializer(of: model, arguments: arguments)
    }
    if let owner = draftOwner(name) {
      // `Draft(title: …)` inside `extension Reminder`: the type's own `Reminder.Draft`, as
      // Swift's unqualified lookup finds it.
      if let declared = catalog.table(forType: owner.model.typeName + ".Draft") {
        return try tableMethods.initializer(of: declared, arguments: arguments)
      }
      return try tableMethods.draft(owner, arguments)
    }
    if name == "Float", arguments.list.count == 1, arguments.list.first?.label == nil, let argument = arguments.list.first {
      // `Float(0.1)` for a Float column: the nearest 24-bit value, bound as the Double it converts
      // to (0.10000000149011612), as StructuredQueries binds it. Arithmetic on Floats is not
      // Double's, so only a number Quarry knows is converted.
      if case .expression(let typed) = try evaluate(argument.expression, expected: .double) {
        switch typed.expression.node {
        case .value(.double(let number)): return realLiteral(number, expected: SwiftType("Float"))
        case .value(.integer(let number)): return realLiteral(Double(number), expected: SwiftType("Float"))
        default: break
        }
      }
      throw source.diagnostic(
        "Float(…) of a value Quarry does not know as a number: Swift rounds a Float to 24 bits, which Quarry computes only for a number it is given (Float(0.1)); compute it in the app, or use Double",
        at: node)
    }
    if name == "Self", let own = enclosingType, ValueTypeModel.named(own, in: catalog.valueTypes) != nil {
      // `static let mock1 = Self(…)` in `extension Mountain.PlannedClimb`: that struct's initializer.
      return try swiftValue(of: ExprSyntax(arguments.call))
    }
    do {
      try checkArguments(of: name, on: .function, arguments)
    } catch let notTheQuerys as Diagnostic {
      // `String(format: "%.2f", x)`: no function of the query, but Swift's own (or Swift's verdict).
      if let computed = try swiftFunctionOfSwiftValues(name, arguments: arguments) { return computed }
      throw notTheQuerys
    }
    if let computed = try swiftFunctionOfSwiftValues(name, arguments: arguments) { return computed }
    if let value = try dispatch(name, on: .function, receiver: .null, CallSite(arguments)) { return value }
    // Inside a scope, `group(by:)` and friends mean `Self.group(by:)`.
    if let selfTable, name.first?.isUppercase != true || !Vocabulary.methods(named: name, on: .query).isEmpty {
      return try queryMethods.queryMethod(name, on: Query(selfTable), arguments: arguments)
    }
    if scanning, name.first?.isUppercase == true, catalog.typeNames.contains(name) || catalog.valueTypes[name] != nil {
      // `OmeID(stabilizedBy: title)`: a value of a type the app declares, made when it runs.
      return .runTime(text(of: arguments.call))
    }
    throw source.diagnostic(
      "unknown function '\(name)'", at: node,
      suggestion: closestMatch(to: name, in: catalog.typeNames + Vocabulary.names(for: .function).filter { $0.first?.isLetter == true }))
  }

  // MARK: Operators

  /// An infix operation over SQL values (or queries, for `&&` and `||`).
  ///
  /// ```swift
  /// $0.priority == Priority.high && !$0.isCompleted
  /// // (("reminders"."priority") IS (3)) AND (NOT ("reminders"."isCompleted"))
  /// ```
  func evaluateOperation(_ operation: Operation, expected: SwiftType? = nil) throws -> Value {
    let opToken = operation.op
    if opToken == "?:", let middle = operation.middle {
      // `cond ? a : b` over SQL values is a CASE expression.
      let conditionValue = try evaluateOperand(operation.left)
      // A Swift Bool decides in Swift: only the branch taken becomes SQL.
      if case .expression(let typed) = conditionValue, typed.type?.isBool == true, case .value(.integer(let flag)) = typed.expression.node {
        return flag != 0 ? try evaluate(middle, expected: expected) : try evaluateOperand(operation.right, expected: expected)
      }
      if case .expression(let typed) = conditionValue, Self.runTimeName(in: typed.expression) != nil {
        // `ascending ? a : b` in a scan: a Swift Bool the app has when it runs; each choice is a variant.
        return try runTimeCondition(operation.left.whole)
          ? try evaluate(middle, expected: expected) : try evaluateOperand(operation.right, expected: expected)
      }
      // `?:` is Swift's: its condition is a Swift `Bool`, which a query expression is not.
      if case .expression(let typed) = conditionValue, !typed.expression.isConstant {
        throw source.diagnostic(
          "cannot convert value of type 'some QueryExpression<Bool>' to expected condition type 'Bool' (a condition on columns is SQL: write Case().when(condition, then: …).else(…))",
          at: operation.left.anchor)
      }
      let condition = try predicate(conditionValue, at: operation.left.anchor)
      let first = try typedExpression(try evaluate(middle, expected: expected), at: middle)
      let second = try typedExpression(
        try evaluateOperand(operation.right, expected: first.type), at: operation.right.anchor)
      guard let condition else { return .expression(second) }
      return .expression(
        TypedExpression(
          Expression(.caseWhen(CaseExpression(base: nil, whens: [.init(condition, then: first.expression)], otherwise: second.expression))),
          type: first.type))
    }
    if operation.isAssignment {
      throw source.diagnostic("assignment is only allowed inside update { … }", at: operation.opNode)
    }
    if opToken == "as" {
      // `11 as Reminder.ID`, `$0.score as Int`: Swift's type coercion changes no SQL.
      let typeName = operation.right.anchor.trimmedDescription
      let basic = ["Int", "Int64", "Double", "String", "Bool", "Date", "UUID"].contains(typeName) ? SwiftType(typeName) : nil
      let value = try evaluateOperand(operation.left, expected: basic ?? expected)
      // `1 as Int?`: the value has the written type.
      if case .type(let written) = operation.right, case .expression(var typed) = value {
        let type = SwiftEvaluator.swiftType(written)
        if isKnown(type) { typed.type = type }
        return .expression(typed)
      }
      return value
    }
    if operation.isCast {
      throw source.diagnostic("not supported in Quarry yet: '\(opToken)' casts; use .cast(as: T.self)", at: operation.opNode)
    }
    let leftSyntax = operation.left.anchor
    let rightSyntax = operation.right.anchor
    // `appValue ?? 0` where `appValue` comes from app code Quarry skipped: unknown, as the name
    // is (its fallback would be a guess); in a scan, the fallback, so the app's schema is built,
    // with the assumption shown beside the statement's SQL.
    if opToken == "??", let reference = leftSyntax.as(DeclReferenceExprSyntax.self), lookupLocal(reference.baseName.text) == nil,
      let origin = appCode.skippedValues[reference.baseName.text]
    {
      guard scanning else {
        throw source.diagnostic(
          "'\(reference.baseName.text)' comes from app code Quarry does not run (\(origin)), so its value is unknown here", at: reference)
      }
      assumptions.append(
        source.diagnostic(
          "'\(reference.baseName.text)' comes from app code Quarry does not run (\(origin)): this SQL has its fallback after '??', \(text(of: rightSyntax)), where the app has the value it computes",
          at: reference))
      return try evaluateOperand(operation.right, expected: expected)
    }
    let lhs = try evaluateOperand(operation.left)
    // Query && query, query || query: combine the filters.
    if opToken == "&&" || opToken == "||" {
      if case .query = lhs, case .query(let other) = try evaluateOperand(operation.right),
        case .query(var query) = lhs
      {
        query.select.wheres = combine(query.combinedWhere, other.combinedWhere, opToken == "&&" ? .and : .or)
        return .query(query)
      }
    }
    if case .group(let table, let path) = lhs, ["==", "!=", "<", ">", "<=", ">="].contains(opToken),
      let op = BinaryOperator(swift: opToken),
      case .syntax(let value) = operation.right
    {
      return try rowMethods.compareGroup(table, path: path, op, with: value)
    }
    if case .columns(let table) = lhs, ["==", "!=", "<", ">", "<=", ">="].contains(opToken), let op = BinaryOperator(swift: opToken) {
      guard case .syntax(let record) = operation.right else {
        throw source.diagnostic("a whole '\(table.model.typeName)' row compares with a '\(table.model.typeName)(…)' value", at: rightSyntax)
      }
      return try rowMethods.compareRow(table, op, with: record)
    }
    let left = try typedExpression(lhs, at: leftSyntax)
    let rightValue = try evaluateOperand(operation.right, expected: left.type)
    if opToken == "==" || opToken == "!=", case .null = rightValue, !left.expression.isConstant, let type = left.type, !type.isOptional,
      isKnown(type)
    {
      // `$0.id == nil` on a column that is never NULL is Swift's own `==` on an Optional: the
      // compiler warns, and the answer is a constant.
      let answer = opToken != "=="
      try warn("comparing non-optional value of type '\(type)' to 'nil' always returns \(answer)", at: operation.opNode)
      return .expression(TypedExpression(.value(.integer(answer ? 1 : 0)), type: .bool))
    }
    if opToken == "==" || opToken == "!=", !left.expression.isConstant || !(rightValue.constantExpression ?? true),
      let pinned = columnEqualityLibrary
    {
      // The app's own StructuredQueries (before 0.31) has these operators; there, a leading-dot
      // member on the right (`$0.kind == .done`) is looked up in `_Null<Kind>`, which has none.
      if case .null = lhs {
        // `nil == $0.note`: no overload there takes nil on the left, so Swift compares the
        // column, promoted to an Optional, with nil: always unequal.
        let answer = opToken != "=="
        try warn("comparing a column to 'nil' this way is Swift's own '\(opToken)' on an Optional: always \(answer)", at: operation.opNode)
        return .expression(TypedExpression(.value(.integer(answer ? 1 : 0)), type: .bool))
      }
      if let implicit = rightSyntax.as(MemberAccessExprSyntax.self), implicit.base == nil {
        throw source.diagnostic(
          "type '_Null<\(left.type?.description ?? "…")>' has no member '\(implicit.declName.baseName.text)': with swift-structured-queries \(pinned), which this app pins, '\(opToken)' on a column reads '.\(implicit.declName.baseName.text)' as a member of _Null",
          at: implicit, suggestion: left.type.map { $0.wrapped.name + "." + implicit.declName.baseName.text })
      }
    } else if opToken == "==" || opToken == "!=", !left.expression.isConstant || !(rightValue.constantExpression ?? true) {
      // StructuredQueries 0.31 made these unavailable; older versions (and many docs) render
      // them, so they still run, with the library's own message.
      let isNil: Bool = if case .null = rightValue { true } else { false }
      // Against nil the library deprecates them (IS / IS NOT); otherwise they are unavailable.
      let advice =
        opToken == "=="
        ? (isNil ? "Use 'is' instead." : "Use 'eq' (or 'is') instead.")
        : (isNil ? "Use 'isNot' instead." : "Use 'neq' or 'isNot' instead.")
      let message =
        "'\(opToken)' is \(isNil ? "deprecated" : "unavailable"): \(advice)" + (isNil ? "" : unpinnedLibraryNote.map { " (\($0))" } ?? "")
      // Unavailable is the compiler's error in every mode; deprecated is its warning.
      if isNil { try warn(message, at: operation.opNode) } else { throw source.diagnostic(message, at: operation.opNode) }
    }
    if opToken != "==" && opToken != "!=" {
      let rightExpression: ExprSyntax? = if case .syntax(let syntax) = operation.right { syntax } else { nil }
      let leftExpression: ExprSyntax? = if case .syntax(let syntax) = operation.left { syntax } else { nil }
      try checkOperator(
        opToken, left: left, leftSyntax: leftSyntax, leftExpression: leftExpression, right: rightValue, rightSyntax: rightExpression,
        rightNode: rightSyntax, expected: expected, at: operation.opNode)
    }
    if case .null = rightValue, opToken == "==" || opToken == "!=" {
      return .expression(TypedExpression(left.expression.binary(opToken == "==" ? .is : .isNot, .null), type: .bool))
    }
    let right = try typedExpression(rightValue, expected: left.type, at: rightSyntax)
    // As in StructuredQueries, `==` on an optional left side compares with IS (NULL matches
    // NULL, as `nil == nil` does in Swift); `$0.id == $0.assignedUserID` stays `=`.
    var leftIsOptional = left.type?.isOptional == true
    if case .null = lhs { leftIsOptional = true }
    if ["==", "!=", "<", ">", "<=", ">="].contains(opToken) { try checkComparable(left, right, at: rightSyntax) }
    if opToken == "??", let wanted = left.type?.wrapped, let given = right.type, right.expression.isConstant,
      !given.isOptional, mismatched(wanted, given)
    {
      throw source.diagnostic("'??' needs a \(wanted) on the right (the left is \(wanted)?), not a \(given)", at: rightSyntax)
    }
    guard let sqlOperator = BinaryOperator(swift: opToken) ?? (opToken == "??" ? .or : nil) else {
      throw source.diagnostic("not supported in Quarry yet: the '\(opToken)' operator", at: operation.opNode)
    }
    // `page * 10`, `x - 1`, `"a" + "b"`, `n ?? 3`, `1 < 2`: operators on Swift values are
    // Swift's own (the standard library's operators win over the query operators in Swift's
    // overload resolution), computed before the query exists and bound as one value.
    if Self.swiftOperators.contains(opToken), left.expression.isConstant, right.expression.isConstant,
      Self.runTimeName(in: left.expression) != nil || Self.runTimeName(in: right.expression) != nil
    {
      // `card.date ?? Date()`, `page * size` on values the app has when it runs: Swift computes
      // them then, and the result is bound as one value (never the fallback, never a guess).
      // A literal takes the other side's type (`activePresetId ?? -1` is a `Preset.ID`): it
      // types the result only when the other side's type is known to be its own default.
      func isLiteral(_ operand: Operand) -> Bool {
        if case .syntax(let syntax) = operand, case .literal = argumentType(syntax, .null) { return true }
        return false
      }
      let leftType = isLiteral(operation.left) ? nil : left.type
      let rightType = isLiteral(operation.right) ? nil : right.type
      let type: SwiftType? =
        switch opToken {
        case "==", "!=", "<", ">", "<=", ">=", "&&", "||": .bool
        case "??": leftType?.wrapped ?? rightType
        default: leftType ?? rightType
        }
      return .runTime(text(of: operation.node), type: type)
    }
    if Self.swiftOperators.contains(opToken), left.expression.isConstant, right.expression.isConstant,
      let computed = try constantOperation(opToken, left, right, at: operation.opNode)
    {
      return computed
    }
    switch opToken {
    case "==": return boolean(left.expression.binary(leftIsOptional ? .is : .equal, right.expression))
    case "!=": return boolean(left.expression.binary(leftIsOptional ? .isNot : .notEqual, right.expression))
    case "<", ">", "<=", ">=": return boolean(left.expression.binary(sqlOperator, right.expression))
    case "&&": return boolean(left.expression.binary(.and, right.expression))
    case "||": return boolean(left.expression.binary(.or, right.expression))
    case "+":
      let isText = (left.type?.isText ?? false) || (right.type?.isText ?? false)
      return .expression(
        TypedExpression(left.expression.binary(isText ? .concatenate : .plus, right.expression), type: left.type ?? right.type))
    case "-", "*", "/", "&", "|", "<<", ">>":
      return .expression(TypedExpression(left.expression.binary(sqlOperator, right.expression), type: numericType(left.type, right.type)))
    case "%":
      return .expression(TypedExpression(left.expression.binary(.remainder, right.expression), type: left.type?.optional))
    case "??":
      // Swift's own `??` on a promoted non-optional column: its right side is never used.
      if let type = left.type, !type.isOptional, isKnown(type), expected != nil, !left.expression.isConstant { return .expression(left) }
      var arguments = [left.expression]
      if case .function("coalesce", let rest) = right.expression.node { arguments += rest } else { arguments.append(right.expression) }
      var type = left.type?.wrapped
      if right.type?.isOptional == true { type = type?.optional }
      return .expression(TypedExpression(.function("coalesce", arguments), type: type ?? right.type))
    default:
      throw source.diagnostic("not supported in Quarry yet: the '\(opToken)' operator", at: operation.opNode)
    }
  }

  func boolean(_ expression: Expression) -> Value { .expression(TypedExpression(expression, type: .bool)) }

  /// A member of the standard library on a Swift value (`s.count`, `s.dropFirst(2)`,
  /// `name.uppercased()`): the value's own member wins over the query's in Swift, so Swift
  /// computes it and the result is bound. Nil when the base is not a Swift value or the member
  /// is not one the evaluator runs.
  func swiftMemberOfSwiftValue(_ name: String, on base: Value, labels: CallLabels?, whole: ExprSyntax) throws -> Value? {
    // (On nil, only Optional's own `map`/`flatMap`: `"x".first(where: \.isNumber).map(String.init)`.)
    let isConstant: Bool
    switch base {
    case .expression(let typed): if case .value = typed.expression.node { isConstant = true } else { isConstant = false }
    case .null: isConstant = true
    default: isConstant = false
    }
    guard isConstant, let swift = swiftValue(base), swift != .none || ["map", "flatMap"].contains(name),
      SwiftBuiltins.member(of: swift, name: name, labels: labels) != nil || swiftExtensionInstanceMember(name, on: base)
    else { return nil }
    if let runTime = runTimeComputation(whole) { return runTime }
    // The member runs on the base's value as the query compiler read it (`t.title` of a record
    // the input holds), its arguments in Swift.
    switch try computeSwift(whole, expected: nil, receiver: swift) {
    case .success(let computed):
      let result = try value(of: computed, at: whole)
      return declaredIntegerType(of: whole).map { Self.retyped(result, as: SwiftType($0)) } ?? result
    case .failure(let error):
      throw Diagnostic(computedBeforeTheQuery: error)
    }
  }

  /// Whether `name` is an instance member the input declares in an extension of the type of
  /// `base`, a Swift value (`someDate.dayBefore`).
  func swiftExtensionInstanceMember(_ name: String, on base: Value) -> Bool {
    guard let members = catalog.swiftExtensions[name], let swift = swiftValue(base), swift != .none,
      let type = SwiftEvaluator.extensionType(of: swift)
    else { return false }
    return members.contains { !$0.isStatic && $0.typeName == type }
  }

  /// Whether `base.name` is a static member the input declares in an extension of a standard
  /// type (`TimeInterval.week`, `TimeInterval.days(7)`).
  func isSwiftExtensionStatic(of base: ExprSyntax, _ name: String) -> Bool {
    guard let reference = base.as(DeclReferenceExprSyntax.self), lookupLocal(reference.baseName.text) == nil,
      let type = SwiftExtensionMember.canonicalType(reference.baseName.text), let members = catalog.swiftExtensions[name]
    else { return false }
    return members.contains { $0.isStatic && $0.typeName == type }
  }

  /// Swift's own functions and initializers on Swift values (`Int("42")`, `String(5)`,
  /// `abs(-3)`, `max(a, b)`): computed in Swift, as the app computes them, and bound. Nil when
  /// an argument is a column or anything else the query computes (the DSL's function, then).
  func swiftFunctionOfSwiftValues(_ name: String, arguments: Arguments) throws -> Value? {
    guard Self.swiftFunctionNames.contains(name), lookupLocal(name) == nil, catalog.functions[name] == nil,
      catalog.table(forType: name) == nil, !arguments.list.isEmpty,
      arguments.list.allSatisfy({ !$0.expression.is(ClosureExprSyntax.self) })
    else { return nil }
    // Only when every argument is a Swift value: evaluating them with the query compiler says so.
    for argument in arguments.list {
      guard let value = try? evaluate(argument.expression), swiftValue(value) != nil else { return nil }
    }
    return try swiftValue(of: ExprSyntax(arguments.call))
  }

  /// Free functions and initializers of the standard library the Swift evaluator runs (Date's
  /// are the date functions'; `Array`/`Set` build lists the query compiler builds).
  static let swiftFunctionNames: Set<String> = Set(
    SwiftBuiltins.all.filter { $0.receiver.isEmpty }.map(\.name)
  ).subtracting(["Date", "Array", "Set", "zip", "stride", "Optional", "UUID", "URL", "Data"])

  static let swiftOperators: Set<String> = [
    "+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>", "==", "!=", "<", "<=", ">", ">=", "&&", "||", "??",
  ]

  /// `lhs op rhs` on two Swift values, computed by the Swift evaluator (nil when a side is not
  /// a plain value Swift holds, such as NULL for anything but `??`).
  func constantOperation(_ op: String, _ left: TypedExpression, _ right: TypedExpression, at node: Syntax) throws -> Value? {
    guard case .value(let a) = left.expression.node, case .value(let b) = right.expression.node else { return nil }
    let lhs = SwiftValue(a, as: left.type)
    let rhs = SwiftValue(b, as: right.type)
    if op == "??" {
      return try value(of: lhs == .none ? rhs : (SwiftEvaluator.unwrapOnce(lhs) ?? rhs), at: node)
    }
    guard a != .null, b != .null else { return nil }
    let evaluator = SwiftEvaluator(source: source, catalog: catalog, budget: budget)
    do {
      let result: SwiftValue
      switch op {
      case "&&", "||":
        result = .bool(
          op == "&&"
            ? (try evaluator.truth(lhs, at: node) && evaluator.truth(rhs, at: node))
            : (try evaluator.truth(lhs, at: node) || evaluator.truth(rhs, at: node)))
      default:
        result = try evaluator.binary(op, lhs, rhs, at: node)
      }
      // `Int64(3) + 1`: the literal takes the other side's integer type, and so does the result.
      if case .int = result, let width = [left.type, right.type].compactMap({ $0 }).first(where: \.isFixedWidthInteger) {
        return Self.retyped(try value(of: result, at: node), as: width)
      }
      return try value(of: result, at: node)
    } catch let error as SwiftEvaluationError {
      throw Diagnostic(computedBeforeTheQuery: error)
    }
  }

  func numericType(_ a: SwiftType?, _ b: SwiftType?) -> SwiftType? {
    if a?.isReal == true || b?.isReal == true { return .double }
    return a ?? b
  }

  /// `!Reminder.where(\.isCompleted)`, `.not()`: the query with its filter negated.
  ///
  /// ```swift
  /// Reminder.all.not()
  /// // … WHERE (NOT (1))
  /// ```
  func negated(_ query: Query) -> Query {
    var query = query
    query.select.wheres = [(query.combinedWhere ?? .value(.integer(1))).not()]
    return query
  }

  func evaluatePrefix(_ prefix: PrefixOperatorExprSyntax, expected: SwiftType?) throws -> Value {
    let op = prefix.operator.text
    // `-5` is a negative literal; `-(2 * 3)` and `-x` are the query's negation of a value
    // (`-(6)`), as StructuredQueries renders them.
    if op == "-", prefix.expression.is(IntegerLiteralExprSyntax.self), let value = integerValue(ExprSyntax(prefix)) {
      if let expected, expected.isReal { return realLiteral(Double(value), expected: expected) }
      return .expression(TypedExpression(.value(.integer(value)), type: .int))
    }
    if op == "-", let float = prefix.expression.as(FloatLiteralExprSyntax.self),
      let value = Double(float.literal.text.filter { $0 != "_" })
    {
      return realLiteral(-value, expected: expected)
    }
    let value = try evaluate(prefix.expression, expected: expected)
    if op == "!", case .query(let query) = value { return .query(negated(query)) }
    let operand = try typedExpression(value, at: prefix.expression)
    // `!flag` of a Swift Bool is Swift's.
    if op == "!", operand.type?.isBool == true, case .value(.integer(let flag)) = operand.expression.node {
      return .expression(TypedExpression(.value(.integer(flag == 0 ? 1 : 0)), type: .bool))
    }
    try checkPrefix(op, operand: operand, at: prefix.operator)
    switch op {
    case "!": return boolean(operand.expression.not())
    case "-", "+", "~":
      let sqlOperator: UnaryOperator = op == "-" ? .negate : op == "+" ? .plus : .bitwiseNot
      return .expression(TypedExpression(operand.expression.unary(sqlOperator), type: operand.type))
    default:
      throw source.diagnostic("not supported in Quarry yet: the prefix '\(op)' operator", at: prefix.operator)
    }
  }
}

extension Compiler {
  /// GRDB's schema builder, with this compiler's values, locations and the tables seen made.
  var grdbSchema: GRDBSchema {
    GRDBSchema(
      context: GRDBSchema.Context(
        string: { [unowned self] expr in try self.grdbName(expr) },
        literal: { [unowned self] expr in try self.sqlLiteral(of: expr) },
        fail: { [unowned self] message, node in self.source.diagnostic(message, at: node) },
        primaryKey: { [unowned self] table in
          self.catalog.grdbPrimaryKeys[table.lowercased()]
            ?? self.catalog.tables.values.first { $0.tableName.lowercased() == table.lowercased() }?.primaryKeyColumns.map(\.name)
        },
        rowID: { [unowned self] table in
          if self.catalog.grdbPrimaryKeys[table.lowercased()] != nil { return self.catalog.grdbRowIDs[table.lowercased()] }
          guard let model = self.catalog.tables.values.first(where: { $0.tableName.lowercased() == table.lowercased() }),
            let key = model.primaryKey, key.type.name == "Int" || key.type.name == "Int64"
          else { return nil }
          return key.sqlName
        },
        keyTypes: { [unowned self] table in self.catalog.grdbPrimaryKeyTypes[table.lowercased()] },
        made: { [unowned self] table, key, rowID, types in
          self.catalog.grdbPrimaryKeys[table.lowercased()] = key
          self.catalog.grdbRowIDs[table.lowercased()] = rowID
          self.catalog.grdbPrimaryKeyTypes[table.lowercased()] = types
        }))
  }

  /// A name the schema builder is given: a string the app computes (`"player"`,
  /// `Player.databaseTableName`), or a GRDB `Column` (`Column("name")`, `Column(CodingKeys.name)`,
  /// `Columns.name` holding one).
  func grdbName(_ expr: ExprSyntax) throws -> String {
    if let call = expr.as(FunctionCallExprSyntax.self), call.calledExpression.trimmedDescription == "Column",
      let argument = call.arguments.first?.expression
    {
      return try grdbName(argument)
    }
    if let member = expr.as(MemberAccessExprSyntax.self), let base = member.base {
      if base.trimmedDescription == "CodingKeys" { return member.declName.baseName.text }
      // `Movie.Columns.title.name`: the name of the Column a static property holds.
      if member.declName.baseName.text == "name", isGRDBColumn(base) { return try grdbName(base) }
      if let (property, column) = grdbColumnProperty(expr) {
        return try withSource(property.binding) { try grdbName(column) }
      }
    }
    guard case .expression(let typed) = try evaluate(expr, expected: .string), case .value(.text(let text)) = typed.expression.node else {
      throw source.diagnostic("GRDB's schema builder needs a name known before the migration runs here", at: expr)
    }
    return text
  }

  /// Whether an expression is a GRDB `Column`: `Column(…)`, or a static property holding one.
  func isGRDBColumn(_ expr: ExprSyntax) -> Bool {
    expr.as(FunctionCallExprSyntax.self)?.calledExpression.trimmedDescription == "Column" || grdbColumnProperty(expr) != nil
  }

  /// `Columns.title` where `static let title = Column(CodingKeys.title)`: the property and the
  /// `Column(…)` it holds.
  func grdbColumnProperty(_ expr: ExprSyntax) -> (StaticProperty, ExprSyntax)? {
    guard let member = expr.as(MemberAccessExprSyntax.self), let base = member.base,
      let property = staticProperty(member.declName.baseName.text, of: base),
      let initializer = property.binding.syntax.as(PatternBindingSyntax.self)?.initializer?.value,
      initializer.as(FunctionCallExprSyntax.self)?.calledExpression.trimmedDescription == "Column"
    else { return nil }
    return (property, initializer)
  }

  /// A default value as GRDB writes it into the schema: `false` → `0`, `"a'b"` → `'a''b'`.
  func sqlLiteral(of expr: ExprSyntax) throws -> String {
    // `defaults(to: UUID().uuidString)` in a scanned app: a value the app computes as the
    // migration runs; the schema is built with its code as a stand-in, the same every scan, and
    // the statement says so beside its SQL (never passed off as the app's SQL).
    if scanning, VolatileDefault.of(expr, type: nil) != nil {
      let stand = "'<" + expr.trimmedDescription.replacing("'", with: "''") + ">'"
      assumptions.append(
        source.diagnostic(
          "'\(expr.trimmedDescription)' is computed by the app each time the migration runs: this SQL has \(stand) where the app's has the value it computed then",
          at: expr))
      return stand
    }
    guard case .expression(let typed) = try evaluate(expr), case .value(let value) = typed.expression.node else {
      throw source.diagnostic("GRDB's defaults(to:) needs a value known before the migration runs here", at: expr)
    }
    switch value {
    case .null: return "NULL"
    case .integer(let number): return String(number)
    case .double(let number): return "\(number)"
    case .text(let text): return "'" + text.replacing("'", with: "''") + "'"
    case .blob(let bytes): return "X'" + hex(bytes).uppercased() + "'"
    default: throw source.diagnostic("GRDB's defaults(to:) needs a value known before the migration runs here", at: expr)
    }
  }
}
