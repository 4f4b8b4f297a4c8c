import SwiftSyntax

/// Operators, on a tree `SwiftOperators` has folded: arithmetic that traps where Swift traps,
/// wrapping `&+`, smart shifts, comparisons, `&&`/`||`/`??` short-circuiting, ranges, `~=`.
///
/// ```swift
/// x ?? 0 > 5          // (x ?? 0) > 5
/// 7 / 2               // 3;  let d: Double = 7 / 2  → 3.5 (the literals are Doubles)
/// Int.max + 1         // error: … overflows Int (the app would crash here)
/// ```
extension SwiftEvaluator {
  func prefixOperation(_ prefix: PrefixOperatorExprSyntax, expected: SwiftType?) throws -> SwiftValue {
    let op = prefix.operator.text
    if op == "-", let literal = prefix.expression.as(IntegerLiteralExprSyntax.self) {
      let value = try integer(literal, negated: true)
      if let width = expected.flatMap({ IntegerWidth(named: $0.wrapped.name) }) {
        return try width.literal(value, evaluator: self, at: prefix)
      }
      return expected?.wrapped.isReal == true ? .double(Double(value)) : .int(value)
    }
    let operand = try evaluate(prefix.expression, expected: op == "!" ? .bool : expected)
    switch (op, operand) {
    case ("!", .bool(let flag)): return .bool(!flag)
    case ("-", .int(let number)):
      if let width = staticType(of: prefix.expression).flatMap({ IntegerWidth(named: $0.wrapped.name) }), number == width.minimum {
        throw crash("negates \(width.name).min, which overflows \(width.name)", at: prefix)
      }
      guard number != .min else { throw crash("negates Int.min, which overflows Int", at: prefix) }
      return .int(-number)
    case ("-", .double(let number)): return .double(-number)
    case ("-", .float(let number)): return .float(-number)
    case ("+", .float): return operand
    case ("-", .fixedWidth(let number, let width)):
      guard width.signed else { throw failure("cannot negate a \(width.name), which is unsigned", at: prefix.operator) }
      guard number != width.minimum else { throw crash("negates \(width.name).min, which overflows \(width.name)", at: prefix) }
      return .fixedWidth(-number, width)
    case ("~", .fixedWidth(let number, let width)): return .fixedWidth(width.truncated(~number), width)
    case ("+", .int), ("+", .double), ("+", .fixedWidth): return operand
    case ("~", .int(let number)):
      if let width = staticType(of: prefix.expression).flatMap({ IntegerWidth(named: $0.wrapped.name) }) {
        return .int(width.truncated(~number))
      }
      return .int(~number)
    default:
      throw failure("cannot apply prefix '\(op)' to \(operand.typeName)", at: prefix.operator)
    }
  }

  func infixOperation(_ infix: InfixOperatorExprSyntax, expected: SwiftType?) throws -> SwiftValue {
    let opNode = infix.operator
    if Self.assignmentOperator(opNode) != nil {
      throw failure("an assignment is a statement here, not a value", at: opNode)
    }
    guard let op = opNode.as(BinaryOperatorExprSyntax.self)?.operator.text else { throw unsupported(opNode) }
    switch op {
    case "&&":
      guard try truth(evaluate(infix.leftOperand, expected: .bool), at: infix.leftOperand) else { return .bool(false) }
      return .bool(try truth(evaluate(infix.rightOperand, expected: .bool), at: infix.rightOperand))
    case "||":
      if try truth(evaluate(infix.leftOperand, expected: .bool), at: infix.leftOperand) { return .bool(true) }
      return .bool(try truth(evaluate(infix.rightOperand, expected: .bool), at: infix.rightOperand))
    case "??":
      let left = try evaluate(infix.leftOperand, expected: expected?.optional)
      let rightType = staticType(of: infix.leftOperand)?.wrapped ?? expected
      if expected == nil, try openDefault(infix, left: left) {
        // The overload returning `T?`: the left side if it has a value, else the default.
        if left.isOptional, Self.unwrapOnce(left) != nil { return left }
        return .some(try evaluate(infix.rightOperand, expected: rightType))
      }
      if let inner = Self.unwrapOnce(left), left.isOptional { return inner }
      if !left.isOptional { return left }
      return try evaluate(infix.rightOperand, expected: rightType)
    default:
      break
    }
    // Literals take their type from the other side (`x * (1 / 2)` on a Double is 0.5), or from
    // the context for arithmetic.
    let arithmetic = !Self.comparisons.contains(op) && op != "..." && op != "..<"
    let context = arithmetic ? expected : nil
    let left: SwiftValue
    let right: SwiftValue
    if Self.isLiteralOnly(infix.leftOperand) && !Self.isLiteralOnly(infix.rightOperand) {
      right = try evaluate(infix.rightOperand, expected: context)
      left = try evaluate(infix.leftOperand, expected: context ?? Self.type(of: right)?.wrapped)
    } else {
      left = try evaluate(infix.leftOperand, expected: context)
      let leftType = Self.isLiteralOnly(infix.leftOperand) ? context : (Self.type(of: left)?.wrapped ?? context)
      right = try evaluate(infix.rightOperand, expected: leftType)
    }
    if op == "..." || op == "..<" { return try range(op, left, right, at: opNode) }
    if !Self.comparisons.contains(op), case .int(let a) = left, case .int(let b) = right,
      let width = [staticType(of: infix.leftOperand), staticType(of: infix.rightOperand), expected].lazy
        .compactMap({ $0.flatMap { IntegerWidth(named: $0.wrapped.name) } }).first
    {
      // Two Ints Quarry could not type (a `nil ?? 5` whose optional was a UInt8?): the width the
      // code declares.
      return .fixedWidth(try width.arithmetic(op, a, b, evaluator: self, at: opNode), width)
    }
    return try binary(op, left, right, at: opNode)
  }

  static let comparisons: Set<String> = ["==", "!=", "<", "<=", ">", ">=", "~="]

  /// Whether an expression is made only of number literals and arithmetic (its type is open).
  static func isLiteralOnly(_ expr: ExprSyntax) -> Bool {
    if expr.is(IntegerLiteralExprSyntax.self) { return true }
    if let prefix = expr.as(PrefixOperatorExprSyntax.self) { return prefix.operator.text == "-" && isLiteralOnly(prefix.expression) }
    if let tuple = expr.as(TupleExprSyntax.self), tuple.elements.count == 1, let only = tuple.elements.first {
      return isLiteralOnly(only.expression)
    }
    if let infix = expr.as(InfixOperatorExprSyntax.self), let op = infix.operator.as(BinaryOperatorExprSyntax.self)?.operator.text,
      ["+", "-", "*", "/", "%"].contains(op)
    {
      return isLiteralOnly(infix.leftOperand) && isLiteralOnly(infix.rightOperand)
    }
    return false
  }

  /// The declared type of a name (a parameter, an annotated variable), where it is known.
  func staticType(of expr: ExprSyntax) -> SwiftType? {
    if let reference = expr.as(DeclReferenceExprSyntax.self), let variable = lookup(reference.baseName.text) {
      return variable.type ?? Self.type(of: variable.value)
    }
    // `Double("2.5")`, `Int(text)`, `UInt8(x)`: a conversion is of the type it names (optional or not).
    if let call = expr.as(FunctionCallExprSyntax.self), let callee = call.calledExpression.as(DeclReferenceExprSyntax.self),
      lookup(callee.baseName.text) == nil,
      ["Int", "Double", "Float", "CGFloat", "String", "Bool"].contains(callee.baseName.text)
        || IntegerWidth(named: callee.baseName.text) != nil
    {
      return SwiftType(["Float", "CGFloat"].contains(callee.baseName.text) ? "Double" : callee.baseName.text)
    }
    // `UInt8.max`, `Int16.min`: of that type.
    if let member = expr.as(MemberAccessExprSyntax.self), let base = member.base?.as(DeclReferenceExprSyntax.self),
      lookup(base.baseName.text) == nil, IntegerWidth(named: base.baseName.text) != nil,
      ["max", "min", "zero"].contains(member.declName.baseName.text)
    {
      return SwiftType(base.baseName.text)
    }
    if let tuple = expr.as(TupleExprSyntax.self), tuple.elements.count == 1, let only = tuple.elements.first {
      return staticType(of: only.expression)
    }
    // `(UInt8(200) &+ 100) &+ 1`: arithmetic keeps its operands' fixed-width type.
    if let infix = expr.as(InfixOperatorExprSyntax.self), let op = infix.operator.as(BinaryOperatorExprSyntax.self)?.operator.text,
      !Self.comparisons.contains(op), !["&&", "||", "??", "...", "..<"].contains(op)
    {
      for side in [infix.leftOperand, infix.rightOperand] {
        if let type = staticType(of: side), IntegerWidth(named: type.wrapped.name) != nil { return type.wrapped }
      }
    }
    if let prefix = expr.as(PrefixOperatorExprSyntax.self), ["~", "-"].contains(prefix.operator.text),
      let type = staticType(of: prefix.expression), IntegerWidth(named: type.wrapped.name) != nil
    {
      return type.wrapped
    }
    return nil
  }

  /// The element type of the receiver of a method call, where the code states it: `[Double]()`,
  /// or a name declared `[Double]` (an empty array's values cannot tell).
  func staticElementType(ofReceiverOf node: Syntax) -> SwiftType? {
    guard let base = node.as(FunctionCallExprSyntax.self)?.calledExpression.as(MemberAccessExprSyntax.self)?.base else { return nil }
    if let call = base.as(FunctionCallExprSyntax.self), call.arguments.isEmpty, let array = call.calledExpression.as(ArrayExprSyntax.self),
      array.elements.count == 1, let element = array.elements.first?.expression.as(DeclReferenceExprSyntax.self)
    {
      let name = element.baseName.text
      return SwiftType(["Float", "CGFloat"].contains(name) ? "Double" : name)
    }
    return staticType(of: base)?.arrayElement ?? staticSequenceElement(of: base)
  }

  /// Steps that keep a sequence's elements (and their type).
  static let orderSteps: Set<String> = ["filter", "sorted", "reversed", "dropFirst", "dropLast", "prefix", "suffix", "shuffled"]

  /// The element type of a sequence the code builds, where its steps state it: a `compactMap` or
  /// `map` to a conversion (`{ Int(String($0)) }`, `Double.init`), `\.count`, `filter`/`sorted`/
  /// `reversed`/`dropFirst` keeping their base's, `enumerated()`'s `\.element` and `\.offset`, a
  /// `stride` of literals. Used where an empty sequence's values cannot tell
  /// (`"ab".compactMap { Int(String($0)) }.reduce(0, +)` is an Int's 0).
  func staticSequenceElement(of expr: ExprSyntax) -> SwiftType? {
    var inner = expr
    while let tuple = inner.as(TupleExprSyntax.self), tuple.elements.count == 1, let only = tuple.elements.first {
      inner = only.expression
    }
    if let array = inner.as(FunctionCallExprSyntax.self), array.arguments.isEmpty,
      let literal = array.calledExpression.as(ArrayExprSyntax.self), literal.elements.count == 1,
      let element = literal.elements.first?.expression.as(DeclReferenceExprSyntax.self)
    {
      return SwiftType(["Float", "CGFloat"].contains(element.baseName.text) ? "Double" : element.baseName.text)
    }
    if let type = staticType(of: inner)?.arrayElement { return type }
    guard let call = inner.as(FunctionCallExprSyntax.self) else { return nil }
    // `stride(from: 10, through: 3, by: 3)`: of its literals' type.
    if let callee = call.calledExpression.as(DeclReferenceExprSyntax.self), callee.baseName.text == "stride", lookup("stride") == nil {
      let values = call.arguments.map(\.expression)
      if values.allSatisfy({ $0.is(IntegerLiteralExprSyntax.self) }) { return .int }
      if values.allSatisfy({ $0.is(IntegerLiteralExprSyntax.self) || $0.is(FloatLiteralExprSyntax.self) }) { return .double }
      return nil
    }
    guard let member = call.calledExpression.as(MemberAccessExprSyntax.self), let base = member.base else { return nil }
    let method = member.declName.baseName.text
    if Self.orderSteps.contains(method) {
      return staticSequenceElement(of: base)
    }
    guard method == "map" || method == "compactMap" else { return nil }
    let transform: ExprSyntax? =
      call.trailingClosure.map(ExprSyntax.init) ?? (call.arguments.count == 1 ? call.arguments.first?.expression : nil)
    guard let transform else { return nil }
    // `\.count`, and `enumerated()`'s parts.
    if let path = transform.as(KeyPathExprSyntax.self), path.components.count == 1,
      let name = path.components.first?.component.as(KeyPathPropertyComponentSyntax.self)?.declName.baseName.text
    {
      // The sequence `enumerated()` numbers, through the steps that keep its elements.
      var step = base
      var enumerated: ExprSyntax?
      while let access = step.as(FunctionCallExprSyntax.self)?.calledExpression.as(MemberAccessExprSyntax.self), let inner = access.base {
        if access.declName.baseName.text == "enumerated" {
          enumerated = inner
          break
        }
        guard Self.orderSteps.contains(access.declName.baseName.text) else { break }
        step = inner
      }
      switch name {
      case "count": return .int
      case "offset" where enumerated != nil: return .int
      case "element": return enumerated.flatMap(staticSequenceElement)
      default: return nil
      }
    }
    // `Double.init`: a conversion's type (a well-typed program's `+` needs it unwrapped).
    if let access = transform.as(MemberAccessExprSyntax.self), access.declName.baseName.text == "init",
      let type = access.base?.as(DeclReferenceExprSyntax.self).map({ $0.baseName.text }), lookup(type) == nil,
      ["Int", "Double", "Float", "String", "Bool"].contains(type) || IntegerWidth(named: type) != nil
    {
      return SwiftType(type == "Float" ? "Double" : type)
    }
    // `{ Int(String($0)) }`: its one expression's type.
    if let closure = transform.as(ClosureExprSyntax.self), closure.signature == nil, closure.statements.count == 1,
      case .expr(let body)? = closure.statements.first?.item
    {
      return staticType(of: body)?.wrapped
    }
    return nil
  }

  /// Whether the receiver of a method call is an array literal (`[]`, `[1, 2]`).
  func receiverIsArrayLiteral(_ node: Syntax) -> Bool {
    node.as(FunctionCallExprSyntax.self)?.calledExpression.as(MemberAccessExprSyntax.self)?.base?.is(ArrayExprSyntax.self) == true
  }

  /// `lhs op rhs` on values.
  func binary(_ op: String, _ lhs: SwiftValue, _ rhs: SwiftValue, at node: some SyntaxProtocol) throws -> SwiftValue {
    if Self.comparisons.contains(op) { return .bool(try compare(op, lhs, rhs, at: node)) }
    if let result = try fixedWidthArithmetic(op, lhs, rhs, at: node) { return result }
    if let result = try floatArithmetic(op, lhs, rhs, at: node) { return result }
    switch (lhs, rhs) {
    case (.int(let a), .int(let b)):
      return .int(try integerArithmetic(op, a, b, at: node))
    case (.date(let seconds), .int), (.date(let seconds), .double):
      // `date - 604800`: Foundation's Date ± TimeInterval.
      guard let interval = rhs.number, op == "+" || op == "-" else { throw mismatch(op, lhs, rhs, at: node) }
      return .date(op == "+" ? seconds + interval : seconds - interval)
    case (.int, .date(let seconds)), (.double, .date(let seconds)):
      guard let interval = lhs.number, op == "+" else { throw mismatch(op, lhs, rhs, at: node) }
      return .date(seconds + interval)
    case (.double, .double), (.int, .double), (.double, .int):
      guard let a = lhs.number, let b = rhs.number else { throw mismatch(op, lhs, rhs, at: node) }
      switch op {
      case "+": return .double(a + b)
      case "-": return .double(a - b)
      case "*": return .double(a * b)
      case "/": return .double(a / b)
      case "...", "..<": throw unsupported(node, "a range of Doubles outside a 'case' pattern")
      case "%": throw failure("'%' is unavailable on Double: use truncatingRemainder(dividingBy:)", at: node)
      default: throw mismatch(op, lhs, rhs, at: node)
      }
    case (.string(let a), .string(let b)) where op == "+":
      try budget.allocate(a.utf8.count &+ b.utf8.count)
      return .string(a + b)
    case (.array(let a), .array(let b)) where op == "+":
      try budget.allocate(elements: (a.count + b.count))
      return .array(a + b)
    default:
      throw mismatch(op, lhs, rhs, at: node)
    }
  }

  /// Arithmetic where an operand is a fixed-width integer: in that type's width (`UInt8(255) &+ 1`
  /// is 0; `Int8(100) + 100` traps). A shift keeps its left operand's type whatever its count's;
  /// any other operator needs one type on both sides, so an Int beside a `UInt8` is a literal
  /// whose type Quarry did not carry (`reduce(0) { $0 &+ $1 }`), and takes the `UInt8`'s.
  func fixedWidthArithmetic(_ op: String, _ lhs: SwiftValue, _ rhs: SwiftValue, at node: some SyntaxProtocol) throws -> SwiftValue? {
    let shifts: Set<String> = ["<<", ">>", "&<<", "&>>"]
    switch (lhs, rhs) {
    case (.fixedWidth(let a, let width), .fixedWidth(let b, let other)):
      guard width == other || shifts.contains(op) else { throw mismatch(op, lhs, rhs, at: node) }
      return .fixedWidth(try width.arithmetic(op, a, b, evaluator: self, at: node), width)
    case (.fixedWidth(let a, let width), .int(let b)):
      if !shifts.contains(op) { _ = try width.literal(b, evaluator: self, at: node) }
      return .fixedWidth(try width.arithmetic(op, a, b, evaluator: self, at: node), width)
    case (.int(let a), .fixedWidth(let b, let width)):
      if shifts.contains(op) { return .int(try integerArithmetic(op, a, b, at: node)) }
      _ = try width.literal(a, evaluator: self, at: node)
      return .fixedWidth(try width.arithmetic(op, a, b, evaluator: self, at: node), width)
    case (.fixedWidth, _), (_, .fixedWidth):
      throw mismatch(op, lhs, rhs, at: node)
    default:
      return nil
    }
  }

  /// Arithmetic where an operand is a `Float`: in Float's 24 bits, as Swift rounds each step
  /// (`Float(0.1) * 3` is 0.3 to Float, 0.30000000000000004 to Double). Any other operand beside it
  /// is a literal Quarry read before it knew the type, and is the Float Swift makes of it.
  func floatArithmetic(_ op: String, _ lhs: SwiftValue, _ rhs: SwiftValue, at node: some SyntaxProtocol) throws -> SwiftValue? {
    switch (lhs, rhs) {
    case (.float, _), (_, .float): break
    default: return nil
    }
    guard case .float(let a) = lhs.floatOperand, case .float(let b) = rhs.floatOperand else { throw mismatch(op, lhs, rhs, at: node) }
    switch op {
    case "+": return .float(a + b)
    case "-": return .float(a - b)
    case "*": return .float(a * b)
    case "/": return .float(a / b)
    case "%": throw failure("'%' is unavailable on Float: use truncatingRemainder(dividingBy:)", at: node)
    default: throw mismatch(op, lhs, rhs, at: node)
    }
  }

  fileprivate func integerArithmetic(_ op: String, _ a: Int64, _ b: Int64, at node: some SyntaxProtocol) throws -> Int64 {
    let result: (partialValue: Int64, overflow: Bool)
    switch op {
    case "+": result = a.addingReportingOverflow(b)
    case "-": result = a.subtractingReportingOverflow(b)
    case "*": result = a.multipliedReportingOverflow(by: b)
    case "/", "%":
      guard b != 0 else { throw crash(op == "/" ? "divides by zero" : "takes a remainder by zero", at: node) }
      result = op == "/" ? a.dividedReportingOverflow(by: b) : a.remainderReportingOverflow(dividingBy: b)
    case "&+": return a &+ b
    case "&-": return a &- b
    case "&*": return a &* b
    case "&": return a & b
    case "|": return a | b
    case "^": return a ^ b
    case "<<": return a << b
    case ">>": return a >> b
    case "&<<": return a &<< b
    case "&>>": return a &>> b
    case "...", "..<":
      throw failure("a range is a value only in a 'for', a subscript, 'contains' or a pattern here", at: node)
    default: throw failure("uses the operator '\(op)' on Int, \(Self.outsideSubset)", at: node)
    }
    if result.overflow { throw crash("overflows Int (\(a) \(op) \(b))", at: node) }
    return result.partialValue
  }

  /// A range value `a..<b` / `a...b` over Int (traps when the bounds are reversed, as Swift does).
  func range(_ op: String, _ lhs: SwiftValue, _ rhs: SwiftValue, at node: some SyntaxProtocol) throws -> SwiftValue {
    if case .stringIndex(let lower) = lhs, case .stringIndex(let upper) = rhs {
      guard lower <= upper else { throw crash("makes a range of String.Index whose lower bound is above its upper bound", at: node) }
      return .stringIndexRange(lower: lower, upper: upper, closed: op == "...")
    }
    guard case .int(let lower) = lhs, case .int(let upper) = rhs else {
      throw unsupported(node, "a range of \(lhs.typeName) outside a 'case' pattern")
    }
    guard lower <= upper else { throw crash("makes a range whose lower bound \(lower) is above its upper bound \(upper)", at: node) }
    return .range(lower: lower, upper: upper, closed: op == "...")
  }

  func compare(_ op: String, _ lhs: SwiftValue, _ rhs: SwiftValue, at node: some SyntaxProtocol) throws -> Bool {
    // Integers compare by value across widths, as Swift's heterogeneous `==` and `<` do.
    let (lhs, rhs) = SwiftValue.comparable(lhs, rhs)
    switch op {
    case "==", "~=": return try equal(lhs, rhs, at: node)
    case "!=": return !(try equal(lhs, rhs, at: node))
    default: break
    }
    guard let order = try ordering(lhs, rhs, at: node) else {
      // NaN: every ordered comparison is false.
      return false
    }
    switch op {
    case "<": return order < 0
    case "<=": return order <= 0
    case ">": return order > 0
    default: return order >= 0
    }
  }

  /// -1, 0 or 1; nil when a Double is NaN.
  func ordering(_ lhs: SwiftValue, _ rhs: SwiftValue, at node: some SyntaxProtocol) throws -> Int? {
    let (lhs, rhs) = SwiftValue.comparable(lhs, rhs)
    switch (lhs, rhs) {
    case (.int(let a), .int(let b)): return a < b ? -1 : (a == b ? 0 : 1)
    case (.string(let a), .string(let b)): return a < b ? -1 : (a == b ? 0 : 1)
    case (.date(let a), .date(let b)): return a < b ? -1 : (a == b ? 0 : 1)
    case (.stringIndex(let a), .stringIndex(let b)): return a < b ? -1 : (a == b ? 0 : 1)
    case (.double, _), (_, .double):
      guard let a = lhs.number, let b = rhs.number else { throw mismatch("<", lhs, rhs, at: node) }
      if a.isNaN || b.isNaN { return nil }
      return a < b ? -1 : (a == b ? 0 : 1)
    case (.tuple(let a, _), .tuple(let b, _)) where a.count == b.count:
      for (x, y) in zip(a, b) {
        guard let order = try ordering(x, y, at: node) else { return nil }
        if order != 0 { return order }
      }
      return 0
    case (.enumCase(let type, let a, _), .enumCase(let other, let b, _)) where type == other:
      guard let model = enums[type], let i = model.cases.firstIndex(where: { $0.name == a }),
        let j = model.cases.firstIndex(where: { $0.name == b })
      else { throw mismatch("<", lhs, rhs, at: node) }
      return i < j ? -1 : (i == j ? 0 : 1)
    default:
      throw failure(
        "cannot order \(lhs.typeName) and \(rhs.typeName)\(lhs.isOptional || rhs.isOptional ? "; unwrap the optional first" : "")", at: node
      ).misusing(optional: lhs.isOptional || rhs.isOptional)
    }
  }

  func equal(_ lhs: SwiftValue, _ rhs: SwiftValue, at node: some SyntaxProtocol) throws -> Bool {
    let (lhs, rhs) = SwiftValue.comparable(lhs, rhs)
    switch (lhs, rhs) {
    case (.none, .none): return true
    case (.none, _), (_, .none): return false
    case (.some(let a), .some(let b)): return try equal(a, b, at: node)
    case (.some(let a), _): return try equal(a, rhs, at: node)
    case (_, .some(let b)): return try equal(lhs, b, at: node)
    case (.int(let a), .int(let b)): return a == b
    case (.double, _), (_, .double):
      guard let a = lhs.number, let b = rhs.number else { throw mismatch("==", lhs, rhs, at: node) }
      return a == b
    case (.string(let a), .string(let b)): return a == b
    case (.bool(let a), .bool(let b)): return a == b
    case (.date(let a), .date(let b)): return a == b
    case (.stringIndex(let a), .stringIndex(let b)): return a == b
    case (.array(let a), .array(let b)), (.tuple(let a, _), .tuple(let b, _)):
      guard a.count == b.count else { return false }
      for (x, y) in zip(a, b) where try !equal(x, y, at: node) { return false }
      return true
    case (.enumCase(let t1, let a, _), .enumCase(let t2, let b, _)): return t1 == t2 && a == b
    case (.range, .range), (.dictionary, .dictionary), (.unordered, .unordered): return lhs == rhs
    case (.range(let lower, let upper, let closed), let value), (let value, .range(let lower, let upper, let closed)):
      // `1...5 ~= x` in a pattern.
      guard case .int(let number) = value else { throw mismatch("~=", lhs, rhs, at: node) }
      return number >= lower && (closed ? number <= upper : number < upper)
    default:
      throw mismatch("==", lhs, rhs, at: node)
    }
  }

  func mismatch(_ op: String, _ lhs: SwiftValue, _ rhs: SwiftValue, at node: some SyntaxProtocol) -> SwiftEvaluationError {
    failure("cannot apply '\(op)' to \(lhs.typeName) and \(rhs.typeName)", at: node).misusing(optional: lhs.isOptional || rhs.isOptional)
  }
}

extension SwiftValue {
  /// A fixed-width integer as an Int of its value (for comparisons, which Swift makes across
  /// integer types); anything else as it is.
  var widened: SwiftValue {
    if case .fixedWidth(let number, _) = self { return .int(number) }
    return self
  }

  /// This value as an operand beside a Float: a Float itself, or the Float Swift makes of a
  /// number literal; nil for anything else.
  var floatOperand: SwiftValue? {
    switch self {
    case .float: self
    case .int(let number): .float(Float(number))
    case .double(let number): .float(Float(number))
    default: nil
    }
  }

  /// Two values to compare: a Float beside a literal compares as two Floats (exactly, as Doubles).
  static func comparable(_ lhs: SwiftValue, _ rhs: SwiftValue) -> (SwiftValue, SwiftValue) {
    switch (lhs, rhs) {
    case (.float, _), (_, .float):
      if case .float(let a) = lhs.floatOperand, case .float(let b) = rhs.floatOperand { return (.double(Double(a)), .double(Double(b))) }
      return (lhs, rhs)
    default:
      return (lhs.widened, rhs.widened)
    }
  }

  var number: Double? {
    switch self {
    case .int(let value): Double(value)
    case .double(let value): value
    default: nil
    }
  }
}

/// A fixed-width integer type narrower than Int (`Int8` … `UInt32`), whose arithmetic wraps
/// (`&+`), traps or shifts within its own bits, as Swift computes it.
///
/// ```swift
/// UInt8(255) &+ 1     // 0
/// Int8(100) + 100     // error: … overflows Int8 (the app would crash here)
/// UInt8(1) << 9       // 0
/// ```
struct IntegerWidth: Hashable, Sendable {
  let name: String
  let bits: Int64
  let signed: Bool

  static let uint8 = IntegerWidth(name: "UInt8", bits: 8, signed: false)
  static let uint16 = IntegerWidth(name: "UInt16", bits: 16, signed: false)
  static let uint32 = IntegerWidth(name: "UInt32", bits: 32, signed: false)

  private init(name: String, bits: Int64, signed: Bool) {
    (self.name, self.bits, self.signed) = (name, bits, signed)
  }

  init?(named name: String) {
    switch name {
    case "Int8": (bits, signed) = (8, true)
    case "Int16": (bits, signed) = (16, true)
    case "Int32": (bits, signed) = (32, true)
    case "UInt8": (bits, signed) = (8, false)
    case "UInt16": (bits, signed) = (16, false)
    case "UInt32": (bits, signed) = (32, false)
    default: return nil
    }
    self.name = name
  }

  /// Every type narrower than Int, as the built-ins list them.
  static let all = ["Int8", "Int16", "Int32", "UInt8", "UInt16", "UInt32"].compactMap(IntegerWidth.init(named:))

  /// An integer literal of this type: a compile error where it does not fit.
  func literal(_ value: Int64, evaluator: SwiftEvaluator, at node: some SyntaxProtocol) throws -> SwiftValue {
    guard value >= minimum, value <= maximum else {
      throw evaluator.failure(
        "stores \(value) in a \(name), which it overflows (swiftc refuses it: the integer literal overflows when stored into '\(name)')",
        at: node)
    }
    return .fixedWidth(value, self)
  }

  /// A value held by a variable, parameter or element declared of this type.
  func holding(_ value: SwiftValue, evaluator: SwiftEvaluator, at node: some SyntaxProtocol) throws -> SwiftValue {
    switch value {
    case .fixedWidth(_, let width) where width == self: return value
    case .int(let number): return try literal(number, evaluator: evaluator, at: node)
    case .fixedWidth, .double, .string, .bool:
      throw evaluator.failure("uses a \(value.typeName) where \(name) is needed (swiftc refuses it); convert it with \(name)(…)", at: node)
    case .some:
      throw evaluator.failure("uses an optional \(value.typeName) where \(name) is needed; unwrap it with 'if let', '??' or '!'", at: node)
        .misusing(optional: true)
    default: return value
    }
  }

  var minimum: Int64 { signed ? -(1 << (bits - 1)) : 0 }
  /// The type's bits, low in an Int64.
  var mask: Int64 { (1 << bits) - 1 }
  var maximum: Int64 { signed ? (1 << (bits - 1)) - 1 : (1 << bits) - 1 }

  /// The value's low bits, read as this type (`Int8(truncatingIfNeeded:)`).
  func truncated(_ value: Int64) -> Int64 {
    let unused = 64 - bits
    return signed ? (value << unused) >> unused : value & ((1 << bits) - 1)
  }

  func arithmetic(_ op: String, _ a: Int64, _ b: Int64, evaluator: SwiftEvaluator, at node: some SyntaxProtocol) throws -> Int64 {
    switch op {
    case "+", "-", "*", "/", "%":
      // Int's arithmetic (its own traps: division by zero), then this type's range.
      let result = try evaluator.integerArithmetic(op, a, b, at: node)
      guard result >= minimum, result <= maximum else { throw evaluator.crash("overflows \(name) (\(a) \(op) \(b))", at: node) }
      return result
    case "&+", "&-", "&*", "&", "|", "^":
      return truncated(try evaluator.integerArithmetic(op, a, b, at: node))
    case "<<", ">>":
      // Smart shifts: a negative count shifts the other way; past the width, every bit is gone.
      let left = (op == "<<") == (b >= 0)
      let count = b.magnitude
      if left { return count >= UInt64(bits) ? 0 : truncated(a << Int64(count)) }
      return count >= UInt64(bits) ? (a < 0 ? -1 : 0) : a >> Int64(count)
    case "&<<": return truncated(a << (b & (bits - 1)))
    case "&>>": return a >> (b & (bits - 1))
    default: throw evaluator.failure("uses the operator '\(op)' on \(name), \(SwiftEvaluator.outsideSubset)", at: node)
    }
  }
}
