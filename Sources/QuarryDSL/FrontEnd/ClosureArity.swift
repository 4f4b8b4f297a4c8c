import SwiftSyntax

/// How a closure given to a query method takes its tables, checked as Swift checks it: a
/// closure over N tables names N parameters, or uses `$0`…`$(N-1)` up to the last; a lone `$0`
/// (or one named parameter) is the tuple of all of them, which has no columns; a closure that
/// names none and uses none cannot ignore them.
///
/// ```swift
/// Reminder.join(RemindersList.all) { $0.remindersListID }
/// // error: value of tuple type '(Reminder.TableColumns, RemindersList.TableColumns)' has no member 'remindersListID'
/// ```
extension Compiler {
  func checkArity(of closure: ClosureExprSyntax, tables: [Value]) throws {
    let names: [String] = tables.compactMap { if case .columns(let table) = $0 { table.model.typeName } else { nil } }
    guard !names.isEmpty, names.count == tables.count else { return }
    // The tables' columns as Swift names the closure's type, for a message (built only then).
    var tuple: String { "(" + names.map { "\($0).TableColumns" }.joined(separator: ", ") + ")" }
    // A join's `on:` closure takes one tuple of the tables (`$0` alone is that tuple); the other
    // query methods take one parameter per table.
    let call = closure.parent?.as(FunctionCallExprSyntax.self) ?? closure.parent?.parent?.parent?.as(FunctionCallExprSyntax.self)
    let member = call?.calledExpression.as(MemberAccessExprSyntax.self)
    let method = member?.declName.baseName.text ?? ""
    let takesTuple = ["join", "leftJoin", "rightJoin", "fullJoin"].contains(method)
    let methodNode = member.map { Syntax($0.declName) } ?? Syntax(closure.leftBrace)
    func tooFew(_ used: Int) -> Diagnostic {
      source.diagnostic(
        "contextual closure type '\(tuple) -> …' expects \(names.count) arguments, but \(used) \(used == 1 ? "was" : "were") used in closure body (name every table: { \(names.map { _ in "_" }.joined(separator: ", ")) in … }, or use $\(names.count - 1))",
        at: methodNode)
    }
    let uses = AnonymousParameterUses(viewMode: .sourceAccurate)
    uses.walk(closure.statements)
    if let clause = closure.signature?.parameterClause {
      let count: Int
      var single: String?
      switch clause {
      case .simpleInput(let list):
        count = list.count
        if count == 1 { single = list.first?.name.text }
      case .parameterClause(let parameters):
        count = parameters.parameters.count
        if count == 1 { single = parameters.parameters.first.map { ($0.secondName ?? $0.firstName).text } }
      }
      if count == 1, names.count > 1, let single, single != "_", let member = uses.firstMember(of: single) {
        guard takesTuple else { throw tooFew(1) }
        throw source.diagnostic("value of tuple type '\(tuple)' has no member '\(member.declName.baseName.text)'", at: member.declName)
      }
      if count != names.count, count != 1 {
        throw source.diagnostic(
          "contextual closure type '\(tuple) -> …' expects \(names.count) argument\(names.count == 1 ? "" : "s"), but \(count) \(count == 1 ? "was" : "were") used in closure body",
          at: clause)
      }
      return
    }
    guard let highest = uses.highest else {
      throw source.diagnostic(
        "contextual type for closure argument list expects \(names.count) argument\(names.count == 1 ? "" : "s"), which cannot be implicitly ignored (write '_ in')",
        at: closure.leftBrace)
    }
    if highest == 0, names.count > 1, let member = uses.firstMember(of: "$0") {
      guard takesTuple else { throw tooFew(1) }
      throw source.diagnostic("value of tuple type '\(tuple)' has no member '\(member.declName.baseName.text)'", at: member.declName)
    }
    if highest > 0, highest + 1 < names.count { throw tooFew(highest + 1) }
    if highest > 0, highest + 1 != names.count {
      throw source.diagnostic(
        "contextual closure type '\(tuple) -> …' expects \(names.count) argument\(names.count == 1 ? "" : "s"), but \(highest + 1) were used in closure body",
        at: closure.leftBrace)
    }
  }
}

/// The anonymous parameters (`$0`, `$1`, …) a closure body uses, and its member accesses on a
/// name, outside closures nested in it.
final class AnonymousParameterUses: SyntaxVisitor {
  var highest: Int?
  /// The first `$N` in the body.
  var first: TokenSyntax?
  var members: [MemberAccessExprSyntax] = []

  override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { .skipChildren }

  override func visit(_ token: TokenSyntax) -> SyntaxVisitorContinueKind {
    if case .dollarIdentifier(let text) = token.tokenKind, let index = Int(text.dropFirst()) {
      highest = max(highest ?? index, index)
      if first == nil { first = token }
    }
    return .visitChildren
  }

  override func visit(_ node: MemberAccessExprSyntax) -> SyntaxVisitorContinueKind {
    members.append(node)
    return .visitChildren
  }

  /// The first `name.member` in the body.
  func firstMember(of name: String) -> MemberAccessExprSyntax? {
    members.first { $0.base?.as(DeclReferenceExprSyntax.self)?.baseName.text == name }
  }
}
