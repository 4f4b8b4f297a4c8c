import QueryBuilder
import SwiftSyntax

/// Records and values app code changes as it runs: `var h = habit; h.isFavorite.toggle()`
/// changes what `Habit.update(h)` writes, as in the app. A change Quarry cannot follow makes
/// the value unknown from there on: a later statement that uses it is refused, naming the
/// code, never built from the stale value.
///
/// ```swift
/// var tag = Tag(id: 1, title: "car")
/// tag.title += "s"
/// Tag.update(tag)
/// // UPDATE "tags" SET "title" = 'cars' WHERE ("tags"."id") = (1)
/// ```
extension AppCodeRunner {
  /// `record.property = value` (or `+=`, …, or `record.flag.toggle()`) on a record the input
  /// holds. True when done; false when the statement is no such assignment.
  func assignRecordProperty(_ expr: ExprSyntax) throws -> Bool {
    guard let change = try RecordChange(expr, compiler: compiler),
      let held = compiler.lookupLocal(change.record) ?? compiler.catalog.bindings[change.record],
      case .query(var record) = held, let modelName = record.resultModel,
      let model = compiler.catalog.table(forType: modelName.hasSuffix(".Draft") ? String(modelName.dropLast(6)) : modelName),
      let column = model.column(named: change.property),
      let index = record.select.columns.firstIndex(where: { $0.alias == column.sqlName })
    else { return false }
    if constants.contains(change.record) {
      throw compiler.source.diagnostic("cannot assign to property: '\(change.record)' is a 'let' constant", at: change.target)
    }
    let current = record.select.columns[index].expression
    let updated: TypedExpression
    switch change.operation {
    case .assign(let value):
      do {
        updated = try compiler.typedExpression(
          compiler.evaluateOperand(value, expected: column.type), expected: column.type, at: value.anchor)
      } catch let diagnostic as Diagnostic {
        // `draft.time = defaultTime` in a scanned app: a value the app has when it runs, bound.
        guard compiler.scanning, case .syntax(let syntax) = value else { throw diagnostic }
        updated = TypedExpression(.value(.parameter(syntax.trimmedDescription)), type: column.type)
      }
    case .compound(let op, let value):
      let rhs = try compiler.typedExpression(
        compiler.evaluateOperand(value, expected: column.type), expected: column.type, at: value.anchor)
      guard case .value(let a) = current.node, case .value(let b) = rhs.expression.node,
        let computed = try compiler.constantOperation(
          String(op.dropLast()), TypedExpression(.value(a), type: column.type), TypedExpression(.value(b), type: column.type),
          at: Syntax(expr)),
        case .expression(let typed) = computed
      else { return false }
      updated = typed
    case .toggle:
      guard case .value(.integer(let flag)) = current.node else { return false }
      updated = TypedExpression(.value(.integer(flag == 0 ? 1 : 0)), type: column.type)
    }
    guard updated.expression.isConstant else { return false }
    record.select.columns[index] = ResultColumn(updated.expression, as: column.sqlName)
    compiler.rebind(change.record, to: .query(record))
    return true
  }

  /// `fatalError(…)`, `preconditionFailure(…)`, or `precondition(c)` whose condition is false:
  /// the app stops there, so nothing after it runs and its write block's changes do not stay.
  func trap(_ expr: ExprSyntax) throws -> Diagnostic? {
    guard let call = Self.unwrapped(expr).as(FunctionCallExprSyntax.self),
      let name = call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text, compiler.catalog.functions[name] == nil
    else { return nil }
    switch name {
    case "fatalError", "preconditionFailure":
      return compiler.source.diagnostic("'\(name)' stops the app here (the app would crash here); nothing after it runs", at: call)
    case "precondition":
      guard let condition = call.arguments.first?.expression,
        case .expression(let typed)? = try? compiler.evaluate(condition, expected: .bool), typed.type?.isBool == true,
        case .value(.integer(let flag)) = typed.expression.node
      else {
        // Whether the app stops here is unknown, so what follows is too (a scanned app's
        // run-time values make that the rule, not a reason to stop reading it).
        if compiler.scanning { return nil }
        return compiler.source.diagnostic(
          "Quarry cannot tell whether this precondition holds (it uses values the app has only when it runs), so whether the app goes on past it is unknown",
          at: call)
      }
      guard flag == 0 else { return nil }
      return compiler.source.diagnostic("this precondition is false, so the app stops here (the app would crash here)", at: call)
    default:
      return nil
    }
  }

  /// A statement changed `name` in a way Quarry does not follow: from here on its value is
  /// unknown, and a statement using it says so.
  func forget(_ name: String, changedBy expr: some SyntaxProtocol) {
    guard compiler.lookupLocal(name) != nil || compiler.catalog.bindings[name] != nil else { return }
    compiler.rebind(name, to: nil)
    skippedValues[name] = messageExcerpt(expr.trimmedDescription)
  }

  /// The name a statement changes, if it changes one: the root of an assignment's target, or
  /// of a mutating call's receiver (`h` in `h.isFavorite.toggle()`).
  func changedName(by expr: ExprSyntax) -> String? {
    if let operation = try? compiler.operation(Self.unwrapped(expr)), operation.isAssignment, case .syntax(let target) = operation.left {
      return SwiftComputation.rootName(of: target)
    }
    if let call = Self.unwrapped(expr).as(FunctionCallExprSyntax.self), let member = call.calledExpression.as(MemberAccessExprSyntax.self),
      let base = member.base
    {
      return SwiftComputation.rootName(of: base)
    }
    return nil
  }
}

/// One change of a record's property, as written.
struct RecordChange {
  enum Change {
    case assign(Operand)
    case compound(String, Operand)
    case toggle
  }
  var record: String
  var property: String
  var target: ExprSyntax
  var operation: Change

  init?(_ expr: ExprSyntax, compiler: Compiler) throws {
    let inner = AppCodeRunner.unwrapped(expr)
    if let call = inner.as(FunctionCallExprSyntax.self), call.arguments.isEmpty, call.trailingClosure == nil,
      let toggle = call.calledExpression.as(MemberAccessExprSyntax.self), toggle.declName.baseName.text == "toggle",
      let target = toggle.base, let (record, property) = Self.property(target)
    {
      self.init(record: record, property: property, target: target, operation: .toggle)
      return
    }
    guard inner.is(SequenceExprSyntax.self), let folded = try compiler.operation(inner), folded.isAssignment,
      case .syntax(let target) = folded.left, let (record, property) = Self.property(target)
    else { return nil }
    if folded.op == "=" {
      self.init(record: record, property: property, target: target, operation: .assign(folded.right))
    } else if ["+=", "-=", "*=", "/="].contains(folded.op) {
      self.init(record: record, property: property, target: target, operation: .compound(folded.op, folded.right))
    } else {
      return nil
    }
  }

  init(record: String, property: String, target: ExprSyntax, operation: Change) {
    self.record = record
    self.property = property
    self.target = target
    self.operation = operation
  }

  /// `h.isFavorite`: the record's name and the property's.
  private static func property(_ expr: ExprSyntax) -> (String, String)? {
    guard let member = expr.as(MemberAccessExprSyntax.self), let base = member.base?.as(DeclReferenceExprSyntax.self) else { return nil }
    return (base.baseName.text, member.declName.baseName.text)
  }
}
