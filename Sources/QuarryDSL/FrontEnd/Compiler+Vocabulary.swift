import QueryBuilder
import SwiftSyntax

/// Calls checked against the vocabulary: argument labels, with a suggestion for a misspelt one.
extension Compiler {
  /// The kind of receiver `value` is, for looking up its methods.
  func receiverKind(of value: Value) -> ReceiverKind? {
    switch value {
    case .table: .table
    case .query: .query
    case .write: .write
    case .statement: .statement
    case .expression: .expression
    case .columns: .row
    case .group: .columnGroup
    case .caseBuilder: .caseBuilder
    case .window: .window
    default: nil
    }
  }

  /// Checks a call of `name` on `kind` against its declared overloads: when no overload takes
  /// these argument labels, a located error names the label (with the closest declared one) or
  /// lists the forms the method has. Names the vocabulary does not declare pass (scopes, enum
  /// cases, a model's own members are checked where they are looked up).
  ///
  /// ```swift
  /// Reminder.limit(5, ofset: 2)
  /// // error: 'limit' has no argument 'ofset'; did you mean 'offset'?
  /// ```
  func checkArguments(of name: String, on kind: ReceiverKind, _ arguments: Arguments) throws {
    // No arguments, no labels to check (a missing argument is named where the method runs).
    guard !arguments.list.isEmpty else { return }
    let overloads = Vocabulary.methods(named: name, on: kind)
    guard overloads.contains(where: { $0.parameters != nil }) else { return }
    let call = arguments.call
    let given = arguments.list.lazy.map { (label: $0.label, isTrailingClosure: $0.isTrailingClosure) }
    var deprecated: MethodSignature?
    for overload in overloads where overload.parameters != nil && overload.accepts(given) {
      if overload.availability == .available { return }
      deprecated = deprecated ?? overload
    }
    if let deprecated {
      // Only deprecated forms take these arguments: say what the library says.
      if case .deprecated(let message, let since) = deprecated.availability {
        let at = call.calledExpression.as(MemberAccessExprSyntax.self).map { Syntax($0.declName) } ?? Syntax(call)
        try warn(Deprecation(deprecated.selector, message, since: since), at: at)
      }
      return
    }
    let declared = Set(overloads.flatMap { $0.parameters ?? [] }.compactMap(\.label))
    // A label no overload has: name it where it is written.
    for argument in arguments.list {
      guard let label = argument.label, !declared.contains(label) else { continue }
      throw source.diagnostic(
        "'\(name)' has no argument '\(label)'", at: argument.labelNode,
        suggestion: closestMatch(to: label, in: declared) ?? (declared.count == 1 ? declared.first : nil))
    }
    let forms = overloads.filter { $0.parameters != nil }.map(\.selector)
    let listed = Set(forms).count == forms.count ? forms : Array(Set(forms)).sorted()
    throw source.diagnostic(
      "'\(name)' does not take these arguments; it is written \(listed.map { "'\($0)'" }.joined(separator: " or "))",
      at: call.calledExpression.as(MemberAccessExprSyntax.self).map { Syntax($0.declName) } ?? Syntax(call))
  }

  /// "has no method" for `name` on `kind`, suggesting a declared name (or one of `extra`:
  /// scopes and other members of the model).
  func unknownMethod(
    _ name: String, on kind: ReceiverKind, described: String, extra: [String] = [],
    at node: some SyntaxProtocol
  ) -> Diagnostic {
    source.diagnostic(
      "\(described) has no method '\(name)'", at: node,
      suggestion: closestMatch(to: name, in: (Vocabulary.names(for: kind) + extra).filter { $0 != name }))
  }
}

extension Compiler {
  /// A `Bool` argument that shapes the SQL itself (`distinct:`, `all:`): `true`, `false`, or a
  /// `let` bound to one. Anything else is a located error, never read as false.
  ///
  /// ```swift
  /// let unique = true
  /// Reminder.select { $0.priority.count(distinct: unique) }  // count(DISTINCT "reminders"."priority")
  /// ```
  func booleanConstant(_ syntax: ExprSyntax, for label: String) throws -> Bool {
    if case .expression(let value) = try evaluate(syntax, expected: .bool), case .value(.integer(let number)) = value.expression.node,
      number == 0 || number == 1
    {
      return number == 1
    }
    throw source.diagnostic("'\(label):' needs true or false, known before the query runs", at: syntax)
  }
}

extension Expression {
  /// A value known before the query runs (a literal or NULL), not a column or computation.
  var isConstant: Bool {
    switch node {
    case .value, .literal: true
    case .raw(let text): text == "NULL"
    default: false
    }
  }

  /// Swift's `Date()` (`datetime('now')`, moved or not): a Swift value, though SQL computes it.
  var isCurrentDate: Bool {
    if case .function("datetime", let arguments) = node { return arguments.allSatisfy(\.isConstant) }
    return false
  }

  /// Arithmetic of constants only (`someDate - 604800` built as SQL): work Swift does before
  /// the query exists, not SQL's.
  var isComputationOfConstants: Bool {
    switch node {
    case .binary(let lhs, _, let rhs):
      (lhs.isConstant || lhs.isComputationOfConstants) && (rhs.isConstant || rhs.isComputationOfConstants)
    case .unary(_, let operand): operand.isConstant || operand.isComputationOfConstants
    default: false
    }
  }
}

extension Value {
  /// Whether this is a constant SQL value (nil: not an expression at all).
  var constantExpression: Bool? {
    switch self {
    case .expression(let typed): typed.expression.isConstant
    case .null: true
    default: nil
    }
  }
}
