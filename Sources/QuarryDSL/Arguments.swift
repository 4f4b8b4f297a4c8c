import SwiftSyntax

/// The arguments of a call: labelled expressions plus trailing closures, by position.
struct Arguments {
  struct Argument {
    var label: String?
    var expression: ExprSyntax
    /// The label as written (for locating a message about it).
    var labelToken: TokenSyntax? = nil
    var isTrailingClosure = false
  }
  var list: [Argument]
  let call: FunctionCallExprSyntax

  init(_ call: FunctionCallExprSyntax) {
    self.call = call
    list = call.arguments.map { Argument(label: $0.label?.text, expression: $0.expression, labelToken: $0.label) }
    if let trailing = call.trailingClosure {
      // A first trailing closure fills the first unlabelled slot left (`join(X.all) { … }`).
      list.append(Argument(label: nil, expression: ExprSyntax(trailing), isTrailingClosure: true))
    }
    for extra in call.additionalTrailingClosures {
      list.append(Argument(label: extra.label.text, expression: ExprSyntax(extra.closure), labelToken: extra.label,
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
