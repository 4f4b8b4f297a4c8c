import SwiftSyntax

/// The arguments of a call: labelled expressions plus trailing closures, by position.
struct Arguments {
  struct Argument {
    var label: String?
    var expression: ExprSyntax
    /// The label as written, or the expression when there is none (for locating a message).
    /// Not an optional token: its generic metadata costs a conformance scan at start-up.
    var labelNode: Syntax
    var isTrailingClosure = false
  }
  var list: [Argument]
  let call: FunctionCallExprSyntax

  init(_ call: FunctionCallExprSyntax) {
    self.call = call
    list = call.arguments.map { argument in
      Argument(
        label: argument.label?.text, expression: argument.expression,
        labelNode: argument.label.map(Syntax.init) ?? Syntax(argument.expression))
    }
    if let trailing = call.trailingClosure {
      // A first trailing closure fills the first unlabelled slot left (`join(X.all) { … }`).
      list.append(Argument(label: nil, expression: ExprSyntax(trailing), labelNode: Syntax(trailing), isTrailingClosure: true))
    }
    for extra in call.additionalTrailingClosures.array {
      list.append(
        Argument(
          label: extra.label.text, expression: ExprSyntax(extra.closure), labelNode: Syntax(extra.label),
          isTrailingClosure: true))
    }
  }

  /// No arguments, for a method called on the caller's behalf.
  static func none(for call: FunctionCallExprSyntax) -> Arguments {
    var arguments = Arguments(call)
    arguments.list = []
    return arguments
  }

  var count: Int { list.count }
  var isEmpty: Bool { list.isEmpty }

  /// The unlabelled arguments in order.
  var positional: [ExprSyntax] { list.filter { $0.label == nil }.map(\.expression) }

  func labelled(_ label: String) -> ExprSyntax? {
    list.first { $0.label == label }?.expression
  }

  func first(_ label: String? = nil) -> ExprSyntax? {
    if let label { return labelled(label) }
    return list.first { $0.label == nil }?.expression
  }

  /// The labels present, for "unexpected argument" messages.
  var labels: [String] { list.compactMap(\.label) }
}

/// A readable name for a kind of syntax node: `forStmt` → "for statement".
func kindName(_ node: some SyntaxProtocol) -> String {
  var words: [String] = []
  var current = ""
  for character in "\(node.kind)" {
    if character.isUppercase {
      if !current.isEmpty { words.append(current) }
      current = String(character).lowercased()
    } else {
      current.append(character)
    }
  }
  if !current.isEmpty { words.append(current) }
  let expanded = words.map { ["stmt": "statement", "expr": "expression", "decl": "declaration"][$0] ?? $0 }
  return expanded.joined(separator: " ")
}
