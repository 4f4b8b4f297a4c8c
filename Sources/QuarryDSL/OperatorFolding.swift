import SwiftSyntax

/// An operand of an operator expression: a piece of the input, or an operation built from them.
///
/// The parser leaves `a + b * c` as a flat sequence; ``OperatorFolding`` groups it by Swift's
/// precedence rules into `a + (b * c)` without building new syntax, so every operand keeps its
/// place in the input for messages.
indirect enum Operand {
  case syntax(ExprSyntax)
  case operation(Operation)

  /// The syntax a message about this operand points at: the node, or the operation's first
  /// operand.
  var anchor: ExprSyntax {
    switch self {
    case .syntax(let syntax): return syntax
    case .operation(let operation): return operation.left.anchor
    }
  }
}

/// One infix operation of a folded sequence: `left op right`, or `left ? middle : right`.
struct Operation {
  var left: Operand
  /// The operator's text (`+`, `==`, `=`, `+=`, `??`, `as`, `is`, or `?:` for the ternary).
  var op: String
  /// The operator's syntax, for messages.
  var opNode: ExprSyntax
  var right: Operand
  /// The expression between `?` and `:` of a ternary.
  var middle: ExprSyntax?

  var isAssignment: Bool { OperatorFolding.precedence(of: op)?.level == OperatorFolding.assignmentLevel }
  /// `as`, `as?`, `as!`, `is`.
  var isCast: Bool { OperatorFolding.precedence(of: op)?.level == OperatorFolding.castingLevel }
}

/// Swift's standard operator precedence (the groups of the standard library), applied to an
/// unfolded sequence expression.
///
/// ```swift
/// // $0.a + $0.b * 2 == 7 && !$0.c
/// // ((($0.a + ($0.b * 2)) == 7) && !$0.c)
/// ```
enum OperatorFolding {
  enum Associativity { case left, right, none }

  static let assignmentLevel = 1
  static let castingLevel = 7
  /// Longer sequences are refused: folding and evaluating them would recurse that deep.
  static let maximumOperators = 200

  /// Level (higher binds tighter) and associativity of an infix operator.
  static func precedence(of op: String) -> (level: Int, associativity: Associativity)? {
    switch op {
    case "=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=", "&+=", "&-=", "&*=":
      return (assignmentLevel, .right)
    case "?:": return (2, .right)
    case "||": return (3, .left)
    case "&&": return (4, .left)
    case "==", "!=", "<", "<=", ">", ">=", "===", "!==", "~=": return (5, .none)
    case "??": return (6, .right)
    case "as", "as?", "as!", "is": return (castingLevel, .left)
    case "...", "..<": return (8, .none)
    case "+", "-", "|", "^", "&+", "&-": return (9, .left)
    case "*", "/", "%", "&", "&*": return (10, .left)
    case "<<", ">>": return (11, .none)
    default: return nil
    }
  }

  /// A problem folding a sequence, with the syntax it is about.
  struct Problem: Error {
    var message: String
    var node: Syntax
  }

  /// Folds a sequence's elements (operand, operator, operand, …) into one operand.
  static func fold(_ sequence: SequenceExprSyntax) throws(Problem) -> Operand {
    var operands: [ExprSyntax] = []
    var operators: [(op: String, node: ExprSyntax, middle: ExprSyntax?)] = []
    var expectOperand = true
    for element in sequence.elements {
      if expectOperand {
        operands.append(element)
      } else {
        operators.append(try operatorInfo(element))
      }
      expectOperand.toggle()
    }
    guard operands.count == operators.count + 1, let first = operands.first else {
      throw Problem(message: "an operator is missing an operand", node: Syntax(sequence))
    }
    guard operators.count <= maximumOperators else {
      throw Problem(
        message: "this expression has \(operators.count) operators; split it into smaller ones (at most \(maximumOperators))",
        node: Syntax(operators[maximumOperators].node))
    }
    var position = 0
    var lhs = Operand.syntax(first)
    try climb(&lhs, minimum: 0, operands: operands, operators: operators, position: &position)
    return lhs
  }

  private static func operatorInfo(_ element: ExprSyntax) throws(Problem) -> (op: String, node: ExprSyntax, middle: ExprSyntax?) {
    if let binary = element.as(BinaryOperatorExprSyntax.self) { return (binary.operator.text, element, nil) }
    if element.is(AssignmentExprSyntax.self) { return ("=", element, nil) }
    if let ternary = element.as(UnresolvedTernaryExprSyntax.self) { return ("?:", element, ternary.thenExpression) }
    if let cast = element.as(UnresolvedAsExprSyntax.self) {
      return ("as" + (cast.questionOrExclamationMark?.text ?? ""), element, nil)
    }
    if element.is(UnresolvedIsExprSyntax.self) { return ("is", element, nil) }
    throw Problem(message: "not supported in Quarry yet: this operator", node: Syntax(element))
  }

  /// Precedence climbing: extends `lhs` with every following operator that binds at least as
  /// tightly as `minimum`.
  private static func climb(
    _ lhs: inout Operand, minimum: Int, operands: [ExprSyntax],
    operators: [(op: String, node: ExprSyntax, middle: ExprSyntax?)], position: inout Int
  ) throws(Problem) {
    while position < operators.count {
      let current = operators[position]
      guard let (level, associativity) = precedence(of: current.op) else {
        throw Problem(message: "not supported in Quarry yet: the '\(current.op)' operator", node: Syntax(current.node))
      }
      guard level >= minimum else { return }
      position += 1
      var rhs = Operand.syntax(operands[position])
      while position < operators.count {
        let next = operators[position]
        guard let (nextLevel, nextAssociativity) = precedence(of: next.op) else {
          throw Problem(message: "not supported in Quarry yet: the '\(next.op)' operator", node: Syntax(next.node))
        }
        if nextLevel == level && associativity == .none && nextAssociativity == .none {
          throw Problem(
            message: "cannot work out the order of these operators; add parentheses", node: Syntax(next.node))
        }
        if nextLevel > level {
          try climb(&rhs, minimum: level + 1, operands: operands, operators: operators, position: &position)
        } else if nextLevel == level && nextAssociativity == .right {
          try climb(&rhs, minimum: level, operands: operands, operators: operators, position: &position)
        } else {
          break
        }
      }
      lhs = .operation(Operation(left: lhs, op: current.op, opNode: current.node, right: rhs, middle: current.middle))
    }
  }
}
