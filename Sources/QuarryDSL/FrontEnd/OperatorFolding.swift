import SwiftSyntax

/// An operand of an operator expression: a piece of the input, or an operation built from them.
///
/// The parser leaves `a + b * c` as a flat sequence; ``OperatorFolding`` reads it grouped by
/// Swift's precedence rules into `a + (b * c)`, every operand at its place in the input.
indirect enum Operand {
  case syntax(ExprSyntax)
  case operation(Operation)
  /// The type of a cast (`x as Double`).
  case type(TypeSyntax)

  /// The syntax a message about this operand points at: the node, or the operation's first
  /// operand.
  var anchor: Syntax {
    switch self {
    case .syntax(let syntax): return Syntax(syntax)
    case .operation(let operation): return operation.left.anchor
    case .type(let type): return Syntax(type)
    }
  }

  /// The whole operand's syntax (an operation's folded node), for naming it (`c.course >= 0`).
  var whole: Syntax {
    switch self {
    case .syntax(let syntax): return Syntax(syntax)
    case .operation(let operation): return Syntax(operation.node)
    case .type(let type): return Syntax(type)
    }
  }
}

/// One infix operation of a folded sequence: `left op right`, or `left ? middle : right`.
struct Operation {
  var left: Operand
  /// The operator's text (`+`, `==`, `=`, `+=`, `??`, `as`, `is`, or `?:` for the ternary).
  var op: String
  /// The operator's syntax, for messages.
  var opNode: Syntax
  var right: Operand
  /// The expression between `?` and `:` of a ternary.
  var middle: ExprSyntax?
  /// The folded expression this operation reads (an infix, ternary, `as` or `is` node).
  var node: ExprSyntax

  static let assignments: Set<String> = ["=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=", "&+=", "&-=", "&*="]
  var isAssignment: Bool { Self.assignments.contains(op) }
  /// `as`, `as?`, `as!`, `is`.
  var isCast: Bool { ["as", "as?", "as!", "is"].contains(op) }
}

/// Operator sequences grouped by Swift's precedence: swift-syntax's `SwiftOperators` folds the
/// input once (the standard library's operators and precedence groups, and any the input
/// declares); this reads the folded operators as ``Operation``s whose operands keep their
/// places in the input.
///
/// ```swift
/// // $0.a + $0.b * 2 == 7 && !$0.c
/// // ((($0.a + ($0.b * 2)) == 7) && !$0.c)
/// ```
enum OperatorFolding {
  /// Longer sequences are refused: folding and evaluating them would recurse that deep.
  static let maximumOperators = 200

  /// A problem folding a sequence, with the syntax it is about.
  struct Problem: Error {
    var message: String
    var position: AbsolutePosition
  }

  /// Folds a sequence of the input into one operand.
  static func fold(_ sequence: SequenceExprSyntax, in source: SourceUnit) throws(Problem) -> Operand {
    let operators = sequence.elements.count / 2
    if operators > maximumOperators {
      let node = sequence.elements.dropFirst(maximumOperators * 2 + 1).first ?? sequence.elements.first
      throw Problem(
        message: "this expression has \(operators) operators; split it into smaller ones (at most \(maximumOperators))",
        position: node?.positionAfterSkippingLeadingTrivia ?? sequence.positionAfterSkippingLeadingTrivia)
    }
    if let problem = source.foldingProblem(in: sequence) {
      throw Problem(message: problem.message, position: problem.position)
    }
    guard let folded = source.folded(ExprSyntax(sequence)), !folded.is(SequenceExprSyntax.self) else {
      throw Problem(message: "cannot order these operators; add parentheses", position: sequence.positionAfterSkippingLeadingTrivia)
    }
    return operand(folded)
  }

  /// A folded expression as an operand: operations for operators, syntax for the rest.
  static func operand(_ expr: ExprSyntax) -> Operand {
    if let infix = expr.as(InfixOperatorExprSyntax.self) {
      let op = infix.operator.as(BinaryOperatorExprSyntax.self)?.operator.text ?? "="
      return .operation(
        Operation(
          left: operand(infix.leftOperand), op: op, opNode: Syntax(infix.operator), right: operand(infix.rightOperand), node: expr))
    }
    if let ternary = expr.as(TernaryExprSyntax.self) {
      return .operation(
        Operation(
          left: operand(ternary.condition), op: "?:", opNode: Syntax(ternary.questionMark),
          right: operand(ternary.elseExpression), middle: ternary.thenExpression, node: expr))
    }
    if let cast = expr.as(AsExprSyntax.self) {
      let op = "as" + (cast.questionOrExclamationMark?.text ?? "")
      return .operation(
        Operation(left: operand(cast.expression), op: op, opNode: Syntax(cast.asKeyword), right: .type(cast.type), node: expr))
    }
    if let check = expr.as(IsExprSyntax.self) {
      return .operation(
        Operation(left: operand(check.expression), op: "is", opNode: Syntax(check.isKeyword), right: .type(check.type), node: expr))
    }
    return .syntax(expr)
  }

  /// Whether a folded expression is an operator expression.
  static func isOperation(_ expr: ExprSyntax) -> Bool {
    expr.is(InfixOperatorExprSyntax.self) || expr.is(TernaryExprSyntax.self) || expr.is(AsExprSyntax.self) || expr.is(IsExprSyntax.self)
  }
}
