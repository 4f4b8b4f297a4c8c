import QueryBuilder
import SwiftSyntax

/// Views and triggers: `createTemporaryView(as:)`, `createTemporaryTrigger(…)`, `drop()`.
extension TableMethods {
  /// What a trigger runs on: `.insert { new in … }`, `.update { old, new in … }`, `.delete { old in … }`.
  enum TriggerEvent: String, CaseIterable {
    case insert, update, delete
  }

  /// `createTemporaryView(as:)`: a temporary view of this @Table type, from a query.
  func createView(_ table: TableInstance, _ arguments: Arguments) throws -> Value {
    guard let syntax = arguments.labelled("as") else {
      throw compiler.source.diagnostic("'createTemporaryView' needs a query: createTemporaryView(as: …)", at: arguments.call)
    }
    let statement = try compiler.statementMethods.statementValue(try compiler.evaluate(syntax), at: syntax)
    let ifNotExists = try arguments.labelled("ifNotExists").map { try compiler.booleanConstant($0, for: "ifNotExists") } ?? false
    let view = CreateView(
      name: table.model.tableName, columns: table.model.columns.map(\.sqlName), statement: statement,
      ifNotExists: ifNotExists)
    return .statement(.createView(view), returningTypes: [])
  }

  /// `createTemporaryTrigger(afterUpdateTouch: \.updatedAt)` / `afterUpdateTouch: { $0.version += 1 }`
  /// (and `afterInsertTouch:`): after each insert or update, update that row again.
  ///
  /// ```swift
  /// Reminder.createTemporaryTrigger(afterUpdateTouch: \.updatedAt)
  /// // … AFTER UPDATE ON "reminders" FOR EACH ROW BEGIN
  /// //   UPDATE "reminders" SET "updatedAt" = datetime('subsec') WHERE … = ("new"."rowid"); END
  /// ```
  private func touchTrigger(on table: TableInstance, label: String, touch syntax: ExprSyntax, arguments: Arguments) throws -> Value {
    let event: CreateTrigger.Event = label == "afterInsertTouch" ? .insert : .update(of: [])
    let update = try touchStatement(on: table, touch: syntax, date: arguments.labelled("date"), label: label)
    let location = compiler.source.converter.location(for: arguments.call.positionAfterSkippingLeadingTrivia)
    let name = "after_\(event.keyword.lowercased())_on_\(table.model.tableName)@quarry:\(location.line):\(location.column)"
    let trigger = CreateTrigger(
      name: name, timing: .after, event: event, table: table.model.tableName, condition: nil,
      body: [update],
      ifNotExists: try arguments.labelled("ifNotExists").map { try compiler.booleanConstant($0, for: "ifNotExists") } ?? false)
    return .statement(.createTrigger(trigger), returningTypes: [])
  }

  /// The statement a "touch" runs: the same row updated again, by a closure of assignments or a
  /// date column's key path (set to now, or to `date:`).
  ///
  /// ```swift
  /// .update(touch: \.updatedAt)
  /// // UPDATE "reminders" SET "updatedAt" = datetime('subsec') WHERE (("reminders"."rowid") = ("new"."rowid"))
  /// ```
  func touchStatement(on table: TableInstance, touch syntax: ExprSyntax, date: ExprSyntax?, label: String) throws -> Statement {
    var assignments: [Assignment] = []
    if let closure = syntax.as(ClosureExprSyntax.self) {
      assignments = try compiler.writeMethods.assignments(closure, table: table)
    } else {
      guard case .expression(let column) = try compiler.evaluateProjection(syntax, on: Query(table)),
        case .column(_, let name) = column.expression.node
      else {
        throw compiler.source.diagnostic("touch a date column, like \(label): \\.updatedAt", at: syntax)
      }
      var value: Expression
      switch compiler.expressionMethods.dateStorage(column.type) {
      case .unixTime: value = .function("unixepoch", [.literal("subsec")])
      case .julianDay: value = .function("julianday", [.literal("subsec")])
      default: value = .function("datetime", [.literal("subsec")])
      }
      if let date {
        value = try compiler.typedExpression(try compiler.evaluate(date, expected: column.type), expected: column.type, at: date).expression
      }
      assignments = [Assignment(name, value)]
    }
    var update = Update(table: table.model.qualifiedName, alias: nil, assignments: assignments)
    update.wheres = [Expression.column(table.qualifier, "rowid").binary(.equal, .column("new", "rowid"))]
    return .update(update)
  }

  /// Whether a closure only assigns (`{ $0.position += 1 }`): a touch, not a trigger body.
  static func isAssignmentsOnly(_ closure: ClosureExprSyntax) -> Bool {
    !closure.statements.isEmpty
      && closure.statements.allSatisfy { item in
        guard case .expr(let expr) = item.item else { return false }
        return AppCodeRunner.assignment(expr) != nil
      }
  }

  func trigger(on table: TableInstance, arguments: Arguments) throws -> Value {
    let call = arguments.call
    for label in ["afterInsertTouch", "afterUpdateTouch"] {
      if let touch = arguments.labelled(label) {
        return try touchTrigger(on: table, label: label, touch: touch, arguments: arguments)
      }
    }
    var timing: CreateTrigger.Timing?
    var eventSyntax: ExprSyntax?
    for (label, value) in [("before", CreateTrigger.Timing.before), ("after", .after), ("insteadOf", .insteadOf)] {
      if let syntax = arguments.labelled(label) {
        timing = value
        eventSyntax = syntax
      }
    }
    guard let timing, let eventSyntax,
      let eventCall = eventSyntax.as(FunctionCallExprSyntax.self),
      let eventMember = eventCall.calledExpression.as(MemberAccessExprSyntax.self)
    else {
      throw compiler.source.diagnostic(
        "a trigger needs a timing and an event: createTemporaryTrigger(after: .insert { new in … })", at: call)
    }
    let eventArguments = Arguments(eventCall)
    let old = TableInstance(model: table.model, alias: "old")
    let new = TableInstance(model: table.model, alias: "new")
    let event: CreateTrigger.Event
    var rows: [Value]
    guard let kind = TriggerEvent(rawValue: eventMember.declName.baseName.text) else {
      throw compiler.source.diagnostic(
        "a trigger event is .insert, .update or .delete", at: eventMember.declName,
        suggestion: closestMatch(to: eventMember.declName.baseName.text, in: TriggerEvent.allCases.map(\.rawValue)))
    }
    switch kind {
    case .insert:
      event = .insert
      rows = [.columns(new)]
    case .delete:
      event = .delete
      rows = [.columns(old)]
    case .update:
      var columns: [String] = []
      // `update(of: { ($0.title, $0.notes) }, forEachRow: …)`, or the columns as the first
      // trailing closure: `update { ($0.title, $0.notes) } forEachRow: { old, new in … }`.
      var ofSyntax = eventArguments.labelled("of")
      if ofSyntax == nil, eventArguments.labelled("forEachRow") != nil || eventArguments.labelled("touch") != nil,
        let first = eventArguments.list.first(where: { $0.label == nil })
      {
        ofSyntax = first.expression
      }
      if let of = ofSyntax {
        let targets = try compiler.flattenExpressions(try compiler.evaluateProjection(of, on: Query(table)), at: of)
        columns = try targets.map { target in
          guard case .column(_, let name) = target.expression.node else {
            throw compiler.source.diagnostic(
              "'update(of:)' names columns of '\(table.model.typeName)', like { ($0.title, $0.notes) }", at: of)
          }
          return name
        }
      }
      event = .update(of: columns)
      rows = [.columns(old), .columns(new)]
    }
    let statements: [Statement]
    let lone = eventArguments.list.count == 1 ? eventArguments.list.first?.expression.as(ClosureExprSyntax.self) : nil
    if let touch = eventArguments.labelled("touch") ?? lone.flatMap({ Self.isAssignmentsOnly($0) ? ExprSyntax($0) : nil }) {
      // `.update(touch: \.updatedAt)`, `.insert(touch: { $0.position += 1 })`, `date:` too.
      guard eventMember.declName.baseName.text != "delete" else {
        throw compiler.source.diagnostic("a delete trigger has no row to touch; use .delete { old in … }", at: touch)
      }
      statements = [try touchStatement(on: table, touch: touch, date: eventArguments.labelled("date"), label: "touch")]
    } else {
      guard
        let body = eventArguments.list.last(where: { $0.label == nil || $0.label == "forEachRow" })?.expression.as(ClosureExprSyntax.self)
      else {
        throw compiler.source.diagnostic("a trigger event needs a body: .insert { new in … }", at: eventCall)
      }
      statements = try compiler.invokeAll(body, with: rows).map { value in try compiler.statementMethods.statementValue(value, at: body) }
    }
    var condition: Expression?
    if let when = eventArguments.labelled("when") ?? arguments.labelled("when") {
      if let closure = when.as(ClosureExprSyntax.self) {
        condition = try compiler.predicate(try compiler.invoke(closure, with: rows), at: when)
      } else {
        condition = try compiler.predicate(try compiler.evaluate(when), at: when)
      }
    }
    let location = compiler.source.converter.location(for: call.positionAfterSkippingLeadingTrivia)
    var name =
      "\(timing == .before ? "before" : "after")_\(event.keyword.lowercased())_on_\(table.model.tableName)@quarry:\(location.line):\(location.column)"
    if let nameSyntax = arguments.labelled("name") ?? arguments.list.first(where: { $0.label == nil })?.expression,
      case .expression(let e) = try compiler.evaluate(nameSyntax),
      case .value(.text(let text)) = e.expression.node
    {
      name = text
    }
    let ifNotExists = try arguments.labelled("ifNotExists").map { try compiler.booleanConstant($0, for: "ifNotExists") } ?? false
    let trigger = CreateTrigger(
      name: name, timing: timing, event: event, table: table.model.tableName, condition: condition,
      body: statements, ifNotExists: ifNotExists)
    return .statement(.createTrigger(trigger), returningTypes: [])
  }

  /// `.drop()` on a created view or trigger.
  func dropStatement(_ statement: Statement, arguments: Arguments) throws -> Value? {
    let ifExists = try arguments.labelled("ifExists").map { try compiler.booleanConstant($0, for: "ifExists") } ?? false
    switch statement {
    case .createView(let view): return .statement(.drop(DropObject(.view, name: view.name, ifExists: ifExists)), returningTypes: [])
    case .createTrigger(let trigger):
      return .statement(.drop(DropObject(.trigger, name: trigger.name, ifExists: ifExists)), returningTypes: [])
    default: return nil
    }
  }
}
