import QueryBuilder
import SwiftSyntax

/// Values of a model type: rows of a @Selection type (`Row.Columns(…)`), records (`Tag(id: 1, title: "a")`) and
/// a record of NULLs (`Tag?.none`).
extension TableMethods {
  /// `Row.Columns(a: x, b: y)`: named result columns of a selection type. A column group is
  /// given whole (`status: Status.Columns(…)`, `item: $0`) or left out when optional (NULLs).
  ///
  /// ```swift
  /// A.Columns(b: B.Columns(c: C.Columns(d: 42)))  // SELECT 42 AS "d"
  /// ```
  /// `swiftValued`: the arguments are an initializer's, of Swift types (`Reminder.Draft(…)`), not
  /// query expressions (`Row.Columns(…)`): `.now` there is Foundation's `Date.now`, a value the
  /// app binds, not StructuredQueries' `.now` (SQLite's `datetime('now', 'subsec')`).
  func selection(for model: TableModel, arguments: Arguments, swiftValued: Bool = false) throws -> Value {
    compiler.features.insert(.selection(model.typeName))
    try compiler.checkArgumentOrder(of: model, arguments.call.arguments)
    // Each column with the position of its field in the declaration, so an optional group that
    // is left out can be filled with NULLs in its place.
    var pairs: [(position: Int, name: String, expression: TypedExpression)] = []
    var givenGroups: Set<String> = []
    for argument in arguments.list {
      guard let label = argument.label else {
        throw compiler.source.diagnostic("each column of '\(model.typeName).Columns' needs its label", at: argument.expression)
      }
      let group = model.columns.indices.filter { model.columns[$0].path.count > 1 && model.columns[$0].path.first == label }
      if model.column(named: label) == nil, let position = group.first {
        givenGroups.insert(label)
        let value = try compiler.evaluate(argument.expression)
        let members: [(String, TypedExpression)]
        switch value {
        case .null: members = group.map { (model.columns[$0].sqlName, TypedExpression(.null, type: model.columns[$0].type)) }
        case .selection(let nested, _): members = nested
        case .columns(let table): members = table.allColumns.map { (nestedName($0), $0) }
        case .group(let table, let path): members = compiler.rowMethods.groupColumns(table, path).map { (nestedName($0), $0) }
        case .query(let record) where record.select.from == nil:
          members = zip(record.select.columns, record.columnTypes).map { ($0.alias ?? "value", TypedExpression($0.expression, type: $1)) }
        default:
          throw compiler.source.diagnostic(
            "'\(label)' is a group of columns; give it as \(label): Type.Columns(…)", at: argument.expression)
        }
        for (name, expression) in members {
          let column = group.first { model.columns[$0].sqlName == name || model.columns[$0].path.last == name }
          pairs.append((position, column.map { model.columns[$0].sqlName } ?? name, expression))
        }
        continue
      }
      guard let column = model.column(named: label) else {
        throw compiler.source.diagnostic(
          "'\(model.typeName)' has no column '\(label)'", at: argument.expression,
          suggestion: closestMatch(to: label, in: model.columns.map(\.name)))
      }
      let position = model.columns.firstIndex { $0.name == label && $0.path.count <= 1 } ?? model.columns.count
      let value =
        swiftValued
        ? try compiler.evaluateArgument(argument.expression, parameterType: column.type)
        : try compiler.evaluate(argument.expression, expected: column.type)
      switch value {
      case .columns(let table):
        for nested in table.allColumns { pairs.append((position, nestedName(nested), nested)) }
      case .selection(let nested, _):
        for (name, expression) in nested { pairs.append((position, name, expression)) }
      default:
        if arguments.call.calledExpression.trimmedDescription.hasSuffix(".Columns") {
          try compiler.checkSelectionArgument(argument.expression, value, field: column.type, model: model, call: arguments.call)
        }
        pairs.append((position, column.sqlName, try compiler.typedExpression(value, expected: column.type, at: argument.expression)))
      }
    }
    // An optional column group left out is NULL.
    for (index, column) in model.columns.enumerated() where column.path.count > 1 {
      guard let label = column.path.first, !givenGroups.contains(label) else { continue }
      // (A group with a default of its own, `= Counts(seen: 0)`, takes that instead.)
      let members = model.columns.filter { $0.path.first == label }
      let groupIsOptional =
        members.contains { $0.type.isOptional } && !members.contains { $0.defaultValue != nil || $0.unknownDefault != nil }
      if groupIsOptional {
        let position = model.columns.firstIndex { $0.path.first == label } ?? index
        pairs.append((position, column.sqlName, TypedExpression(.null, type: column.type)))
      }
    }
    // A field with no default and no optional type must be given to `Columns(…)`.
    if arguments.call.calledExpression.trimmedDescription.hasSuffix(".Columns"),
      let missing = model.columns.first(where: { column in
        column.path.count <= 1 && column.defaultValue == nil && column.volatileDefault == nil && !column.type.isOptional
          && !arguments.list.contains { $0.label == column.name }
      })
    {
      throw compiler.source.diagnostic(
        "missing argument for parameter '\(missing.name)' in call",
        at: arguments.call.rightParen.map(Syntax.init) ?? Syntax(arguments.call))
    }
    // A @Selection field left out takes its declared default (`var note = "none"`), as the
    // macro's Columns initializer does.
    if model.isSelection {
      for (index, column) in model.columns.enumerated()
      where column.path.count <= 1 && !pairs.contains(where: { $0.name == column.sqlName }) {
        if let value = try compiler.defaultValue(of: column, at: arguments.call) {
          pairs.append((index, column.sqlName, TypedExpression(value, type: column.type)))
        } else if column.type.isOptional {
          pairs.append((index, column.sqlName, TypedExpression(.null, type: column.type)))
        }
      }
    }
    let ordered = pairs.enumerated().sorted { ($0.element.position, $0.offset) < ($1.element.position, $1.offset) }
    return .selection(ordered.map { ($0.element.name, $0.element.expression) }, model: model.typeName)
  }

  private func nestedName(_ expression: TypedExpression) -> String {
    if case .column(_, let name) = expression.expression.node { return name }
    return "value"
  }

  /// `Row(a: 1, b: 2)`: a single row of literal columns (`SELECT 1 AS "a", 2 AS "b"`).
  /// `isDraft`: the call makes a `Draft` (read off `T.Draft(…)` when not given; `.init(…)` where
  /// a draft is expected says so).
  func initializer(of model: TableModel, arguments: Arguments, isDraft: Bool? = nil) throws -> Value {
    if !model.isSelection {
      let isDraft = isDraft ?? arguments.call.calledExpression.trimmedDescription.hasSuffix(".Draft")
      if !isDraft, let row = try explicitInitializerRow(of: model, arguments: arguments) { return row }
      try compiler.checkMemberwiseArguments(of: model, arguments.call.arguments, isDraft: isDraft)
    }
    // `Tag(id: 1, title: "car")`: one row of values, named by column (groups flattened).
    guard case .selection(var pairs, _) = try selection(for: model, arguments: arguments, swiftValued: !model.isSelection) else {
      throw compiler.source.diagnostic("'\(model.typeName)(…)' needs labelled values", at: arguments.call)
    }
    // Fields left out take their declared defaults (`Status()` is all defaults).
    if pairs.count < model.columns.count,
      !model.columns.contains(where: { column in
        !pairs.contains { $0.0 == column.sqlName } && column.defaultValue == nil && column.unknownDefault == nil && !column.type.isOptional
          && !column.isPrimaryKey
      })
    {
      var remaining = pairs
      pairs =
        try model.columns.filter { !$0.isGenerated }.map { column in
          if let index = remaining.firstIndex(where: { $0.0 == column.sqlName }) { return remaining.remove(at: index) }
          return (column.sqlName, TypedExpression(try compiler.defaultValue(of: column, at: arguments.call) ?? .null, type: column.type))
        } + remaining
    }
    return record(of: model, pairs)
  }

  /// A record value: one row of values, named by column (`SELECT 5 AS "id", 'hi' AS "note"`).
  private func record(of model: TableModel, _ pairs: [(String, TypedExpression)]) -> Value {
    var select = Select(from: nil)
    select.columns = pairs.map { ResultColumn($0.1.expression, as: $0.0) }
    var query = Query(select: select, tables: [TableInstance(model: model)])
    query.columnTypes = pairs.map(\.1.type)
    query.resultModel = model.typeName
    return .query(query)
  }

  /// `Entry(id: 5)` where `Entry` declares its own `init`: that init's labels and default
  /// arguments, and the properties its body sets (or the init its body hands on to). Nil when
  /// the memberwise init is meant: no init of its own takes these labels, and all of them are
  /// declared in extensions (Swift keeps the memberwise init then).
  func explicitInitializerRow(of model: TableModel, arguments: Arguments) throws -> Value? {
    guard !model.initializers.isEmpty else { return nil }
    let labels = arguments.list.map(\.label)
    guard let chosen = model.initializers.first(where: { $0.accepts(labels) }) else {
      if model.initializers.allSatisfy(\.inExtension) { return nil }
      let forms = model.initializers.map { "init(" + $0.parameters.map { ($0.label ?? "_") + ":" }.joined() + ")" }
      throw compiler.source.diagnostic(
        "no init of '\(model.typeName)' takes these arguments (it declares \(forms.joined(separator: ", ")))", at: arguments.call)
    }
    if let reason = chosen.opaqueReason {
      // In a scanned app, the init runs when the app does: every column is the value it computes
      // then, bound by the app (the SQL is the same whatever the values are).
      if compiler.scanning {
        let call = arguments.call.trimmedDescription
        let shown = call.count <= 48 && !call.contains("\n") ? call : "\(model.typeName)(…)"
        let pairs = model.columns.filter { !$0.isGenerated }.map { column in
          (column.sqlName, TypedExpression(.value(.parameter("\(shown).\(column.name)")), type: column.type))
        }
        return record(of: model, pairs)
      }
      throw compiler.source.diagnostic(
        "'\(model.typeName)(…)' calls the init declared at \(compiler.placeOfLine(chosen.line)), whose body Quarry does not run ('\(reason)'); its values are unknown here",
        at: arguments.call)
    }
    var given: [String: Expression] = [:]
    // A struct of the input the call gives (`ClimbRecord(climb: .fixed)`): Swift's value, which
    // the init's body reads (`self.id = climb.id`).
    var givenStructs: [String: SwiftValue] = [:]
    var remaining = arguments.list[...]
    for parameter in chosen.parameters {
      if let next = remaining.first, next.label == parameter.label,
        let known = compiler.evaluatorType(parameter.type), compiler.catalog.valueTypes[known.wrapped.name] != nil,
        case .success(let computed)? = try? compiler.computeSwift(next.expression, expected: known), case .structure = computed
      {
        givenStructs[parameter.name] = computed
        remaining.removeFirst()
        continue
      }
      if let next = remaining.first, next.label == parameter.label {
        let value = try compiler.evaluateArgument(next.expression, parameterType: parameter.type)
        given[parameter.name] = try compiler.typedExpression(value, expected: parameter.type, at: next.expression).expression
        remaining.removeFirst()
      } else if let volatile = parameter.volatileDefault,
        let fresh = compiler.freshValue(volatile.kind, written: volatile.written, type: parameter.type)
      {
        given[parameter.name] = fresh
      } else if let value = parameter.defaultValue {
        given[parameter.name] = value
      } else {
        throw compiler.source.diagnostic(
          "the default of '\(parameter.name)' in the init at \(compiler.placeOfLine(chosen.line)) uses Swift Quarry does not run; pass '\(parameter.label ?? parameter.name):' explicitly",
          at: arguments.call)
      }
    }
    if let delegation = chosen.delegation, let call = delegation.syntax.as(FunctionCallExprSyntax.self) {
      // `self.init(id: alarm.id, …)`: that call, with this init's parameters holding the values given.
      var locals: [String: Value] = [:]
      for parameter in chosen.parameters {
        if let value = given[parameter.name] { locals[parameter.name] = .expression(TypedExpression(value, type: parameter.type)) }
      }
      return try compiler.withSource(delegation) {
        try compiler.withLocals(locals) { try initializer(of: model, arguments: Arguments(call), isDraft: false) }
      }
    }
    var pairs: [(String, TypedExpression)] = []
    for column in model.columns where !column.isGenerated {
      let value: Expression
      switch chosen.assignments[column.name] {
      case .parameter(let name)?: value = given[name] ?? .null
      case .value(let expression)?: value = expression
      case .swift(let box)?:
        value = try initializerValue(
          box, parameters: chosen.parameters, given: given, structs: givenStructs, column: column, line: chosen.line,
          at: arguments.call)
      case nil:
        guard let fallback = try compiler.defaultValue(of: column, at: arguments.call) ?? (column.type.isOptional ? .null : nil) else {
          throw compiler.source.diagnostic(
            "the init at \(compiler.placeOfLine(chosen.line)) does not set '\(column.name)', which has no default (Swift refuses that init)",
            at: arguments.call)
        }
        value = fallback
      }
      pairs.append((column.sqlName, TypedExpression(value, type: column.type)))
    }
    return record(of: model, pairs)
  }

  /// A property an init's body computes from its parameters (`raw.trimmingCharacters(in:
  /// .whitespaces)`), computed by the evaluator with the arguments of this call.
  private func initializerValue(
    _ box: AnySyntaxBox, parameters: [ExplicitInitializer.Parameter], given: [String: Expression], structs: [String: SwiftValue],
    column: ColumnModel, line: Int, at call: FunctionCallExprSyntax
  ) throws -> Expression {
    var names = structs
    for parameter in parameters {
      // A value the call gives (a run-time value of a scanned app is not known here).
      guard case .value(let binding)? = given[parameter.name]?.node else { continue }
      if case .parameter = binding { continue }
      names[parameter.name] = SwiftValue(binding, as: parameter.type)
    }
    guard let expr = box.syntax.as(ExprSyntax.self) else {
      throw compiler.source.diagnostic(
        "the init at \(compiler.placeOfLine(line)) sets '\(column.name)' in a way Quarry does not read", at: call)
    }
    // `self.id = climb.id` where the call gives `climb` a value the app has when it runs: that
    // value's member, bound by the app (`Climb.mock1.id`).
    var path: [String] = []
    var root = expr
    while let access = root.as(MemberAccessExprSyntax.self), let base = access.base, access.declName.argumentNames == nil {
      path.insert(access.declName.baseName.text, at: 0)
      root = base
    }
    if !path.isEmpty, let name = root.as(DeclReferenceExprSyntax.self)?.baseName.text,
      parameters.contains(where: { $0.name == name }), case .value(.parameter(let runTime))? = given[name]?.node
    {
      return .value(.parameter(([runTime] + path).joined(separator: ".")))
    }
    let evaluator = SwiftEvaluator(source: box.source, catalog: compiler.catalog, budget: compiler.budget)
    do {
      let computed = try evaluator.value(of: expr, names: names, expected: compiler.evaluatorType(column.type))
      guard computed.isPlain else {
        throw SwiftEvaluationError(text: "gives a \(computed.typeName), not a column's value", line: line, column: 1)
      }
      return .value(try computed.binding(as: column.type))
    } catch let error as SwiftEvaluationError where error.isSwiftsVerdict {
      throw compiler.source.diagnostic("the init at \(compiler.placeOfLine(line)) \(error.text), computing '\(column.name)'", at: call)
    } catch let error as SwiftEvaluationError {
      throw compiler.source.diagnostic(
        "the init declared at \(compiler.placeOfLine(line)) sets '\(column.name)' with Swift Quarry does not run (it \(error.text)); its value is unknown here",
        at: call)
    } catch let problem as SwiftValueProblem {
      throw compiler.source.diagnostic(
        "the init at \(compiler.placeOfLine(line)) computes '\(column.name)', which \(problem.message)", at: call)
    }
  }

  /// The table type `T` of `T?` or `Optional<T>` written as an expression.
  func optionalTableType(_ expr: ExprSyntax) -> TableModel? {
    Compiler.optionalTypeName(expr).flatMap { compiler.catalog.table(forType: $0) }
  }

  /// `T?.none` as a statement: one row with every column NULL.
  ///
  /// ```swift
  /// Tag?.none
  /// // SELECT NULL AS "id", NULL AS "title"
  /// ```
  func nullRecord(of model: TableModel) -> Value {
    let columns = model.columns.filter { !$0.isGenerated }
    var select = Select(from: nil)
    select.columns = columns.map { ResultColumn(.null, as: $0.sqlName) }
    var query = Query(select: select, tables: [TableInstance(model: model)])
    query.columnTypes = columns.map { column in
      var type = column.type
      type.isOptional = true
      return type
    }
    query.resultModel = model.typeName
    return .query(query)
  }
}
