import QueryBuilder
import SwiftSyntax

/// What Swift knows of an argument's type where StructuredQueries asks for
/// `some QueryExpression<T>`: a literal takes any type that can be written with it, a value
/// or an expression has exactly its own type, and nothing is promoted to an optional.
///
/// ```swift
/// $0.priority.gt(Priority.high)   // priority is `Priority?`
/// // error: instance method 'gt' requires the types 'Priority?' and 'Priority' be equivalent
/// ```
enum ArgumentType {
  enum Literal {
    case integer, float, string, boolean, null

    /// The type Swift gives the literal when nothing else decides it.
    var defaultType: SwiftType {
      switch self {
      case .integer: .int
      case .float: .double
      case .string: .string
      case .boolean: .bool
      case .null: SwiftType("nil")
      }
    }
  }

  case literal(Literal)
  /// `Optional(3)`: an optional of whatever the literal becomes, never a non-optional.
  case optionalLiteral(Literal)
  /// `.high`: a member with no base, which a `some QueryExpression<T>` parameter cannot name.
  case implicitMember(String, node: DeclReferenceExprSyntax)
  /// A value or expression of a type Quarry knows.
  case typed(SwiftType)
  case unknown

  var isUnknown: Bool { if case .unknown = self { true } else { false } }

  /// The type named in messages ("the types 'Int' and 'Double'").
  var typeName: String? {
    switch self {
    case .literal(let literal): literal.defaultType.description
    case .optionalLiteral(let literal): literal.defaultType.optional.description
    case .typed(let type): type.description
    case .implicitMember, .unknown: nil
    }
  }
}

extension Compiler {
  /// The argument's type as Swift sees it: literals by their syntax, everything else by the
  /// type its evaluation carries.
  func argumentType(_ syntax: ExprSyntax?, _ value: Value) -> ArgumentType {
    guard var inner = syntax?.withoutParentheses else {
      guard case .expression(let typed) = value, let type = typed.type, isKnown(type) else { return .unknown }
      return .typed(type)
    }
    if let prefix = inner.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "-" { inner = prefix.expression }
    if let sequence = inner.as(SequenceExprSyntax.self), let folded = source.folded(ExprSyntax(sequence)) { inner = folded }
    switch inner.as(ExprSyntaxEnum.self) {
    case .integerLiteralExpr: return .literal(.integer)
    case .floatLiteralExpr: return .literal(.float)
    case .stringLiteralExpr: return .literal(.string)
    case .booleanLiteralExpr: return .literal(.boolean)
    case .nilLiteralExpr: return .literal(.null)
    case .memberAccessExpr(let member) where member.base == nil:
      return .implicitMember(member.declName.baseName.text, node: member.declName)
    case .functionCallExpr(let call) where call.calledExpression.trimmedDescription == "Optional" && call.arguments.count == 1:
      // `Optional(.high)`: the case has no type to be looked up in.
      if let member = call.arguments.first?.expression.as(MemberAccessExprSyntax.self), member.base == nil,
        let name = call.calledExpression.as(DeclReferenceExprSyntax.self)
      {
        // The compiler cannot infer `Wrapped` here, and says so at `Optional`.
        return .implicitMember(member.declName.baseName.text, node: name)
      }
      if let only = call.arguments.first?.expression, case .literal(let literal) = argumentType(only, .null), literal != .null {
        return .optionalLiteral(literal)
      }
    case .macroExpansionExpr(let macro):
      // `#sql("…", as: Int.self)` has the type it names; `#bind(x)` and `#sql("…")` are
      // generic over the value type the context asks for.
      if macro.macroName.text == "sql", let type = macro.arguments.first(where: { $0.label?.text == "as" })?.expression {
        let written = SwiftType(type.trimmedDescription.replacingOccurrences(".self", ""))
        if isKnown(written) { return .typed(written) }
      }
      return .unknown
    case .ternaryExpr(let ternary):
      // `flag ? .high : .low`, `flag ? .pi : nil`: no branch names a type, and `some
      // QueryExpression` gives none to look the member up in.
      let branches = [ternary.thenExpression, ternary.elseExpression]
      let members = branches.compactMap { $0.as(MemberAccessExprSyntax.self) }.filter { $0.base == nil }
      if let first = members.first, branches.allSatisfy({ $0.is(NilLiteralExprSyntax.self) || members.map(\.id).contains($0.id) }) {
        return .implicitMember(first.declName.baseName.text, node: first.declName)
      }
      // `done ? #bind(now) : nil`: a branch that is a query expression makes the whole one
      // (`Optional<some QueryExpression<Date>>` beside `nil`), typed by what the context asks.
      if [ternary.thenExpression, ternary.elseExpression].contains(where: { $0.is(MacroExpansionExprSyntax.self) }) {
        return .unknown
      }
      // `done ? now : nil` is a `Date?` whichever branch runs: Swift types it by both.
      if [ternary.thenExpression, ternary.elseExpression].contains(where: { $0.is(NilLiteralExprSyntax.self) }),
        case .expression(let typed) = value, let type = typed.type, isKnown(type)
      {
        return .typed(type.optional)
      }
    default: break
    }
    guard case .expression(let typed) = value, let type = typed.type, isKnown(type) else { return .unknown }
    return .typed(type)
  }

  /// A type whose literals and conformances Quarry knows: a standard value type or an enum the
  /// input declares.
  func isKnown(_ type: SwiftType) -> Bool {
    type.representation == nil && (type.hasKnownConformances || catalog.enums[type.name] != nil)
  }

  /// Static members StructuredQueries declares on `QueryExpression` (`where Self == …`), which a
  /// leading dot finds, with the value types they have.
  static let queryExpressionStaticMembers: [String: Set<String>] = ["now": ["Date"], "count": ["Int"]]

  /// Where the compiler points at an expression: a member access at its last name.
  func pointOf(_ expr: ExprSyntax) -> Syntax {
    if let member = expr.as(MemberAccessExprSyntax.self) { return Syntax(member.declName) }
    return Syntax(expr)
  }

  /// Whether the argument is a `some QueryExpression<target>`; nil when Quarry cannot tell.
  func fits(_ argument: ArgumentType, _ target: SwiftType, concrete: Bool = false) -> Bool? {
    guard isKnown(target) else { return nil }
    switch argument {
    case .literal(let literal):
      // Literals never make an optional: `Int?` is not expressible by an integer literal.
      if target.isOptional { return false }
      switch literal {
      // Through `some QueryExpression<T>` an integer literal is an `Int` (or a floating-point
      // value); `Int64`, `Int32`… take `Int64(3)`, as swiftc decides.
      // A float literal is a Double there, and an integer literal an Int or a Double: a `Float`
      // (or `Int64`…) column takes `Float(0.5)`, or a literal where the type is concrete.
      case .integer: return target.name == "Int" || target.name == "Double" || (concrete && (target.isInteger || target.isReal))
      case .float: return target.name == "Double" || (concrete && target.isReal)
      case .string: return target.name == "String"
      case .boolean: return target.isBool
      case .null: return false
      }
    case .optionalLiteral(let literal):
      return target.isOptional && fits(.literal(literal), target.wrapped, concrete: concrete) == true
    case .implicitMember(let name, _):
      // The library's own static members of `QueryExpression` (`.now`, `.count()`) resolve.
      return !target.isOptional && Self.queryExpressionStaticMembers[name]?.contains(target.name) == true
    case .typed(let type): return type == target
    case .unknown: return nil
    }
  }

  /// Checks a `some QueryExpression<…>` argument of a comparison-like method against the types
  /// it may have (the receiver's type; its wrapped type too where the library has that overload).
  func checkArgument(
    _ syntax: ExprSyntax?, _ value: Value, of method: String, receiver: SwiftType, accepting targets: [SwiftType],
    at nameNode: some SyntaxProtocol
  ) throws {
    let argument = argumentType(syntax, value)
    if let representation = receiver.representation, representation.contains("JSON"), isSwiftConstant(value, syntax) {
      // A JSON-stored column's QueryValue is its representation (`[Step].JSONRepresentation`):
      // a Swift value compares with it only through `#bind(value, as: …)`.
      throw source.diagnostic(
        "\(method) requires the types '\(representation)' and '\(argument.typeName ?? "?")' be equivalent (bind the value as the column stores it: #bind(value, as: \(representation).self))",
        at: nameNode)
    }
    let verdicts = targets.map { fits(argument, $0) }
    guard !verdicts.contains(where: { $0 != false }) else { return }
    throw mismatch(argument, method: method, receiver: receiver, at: nameNode, argumentNode: syntax)
  }

  /// The compiler's message for an argument of the wrong type, with the spelling that compiles.
  func mismatch(_ argument: ArgumentType, method: String, receiver: SwiftType, at nameNode: some SyntaxProtocol, argumentNode: ExprSyntax?)
    -> Diagnostic
  {
    if case .implicitMember(let name, let node) = argument {
      let fix = catalog.enums[receiver.name].map { " (write '\($0.name).\(name)')" } ?? ""
      return source.diagnostic("type 'QueryExpression' has no member '\(name)'\(fix)", at: node)
    }
    if case .literal(.null) = argument {
      return source.diagnostic(
        "\(method) cannot take nil: generic parameter 'some QueryExpression' could not be inferred (use .is(nil) or .isNot(nil))",
        at: nameNode)
    }
    let given = argument.typeName ?? "?"
    if case .optionalLiteral(let literal) = argument, !receiver.isOptional, fits(.literal(literal), receiver) == true {
      return source.diagnostic(
        "value of optional type '\(receiver.optional)' must be unwrapped to a value of type '\(receiver)'",
        at: argumentNode.map(pointOf) ?? Syntax(nameNode))
    }
    if case .typed(let type) = argument, type.isOptional, !receiver.isOptional, type.wrapped == receiver,
      argumentNode?.is(MemberAccessExprSyntax.self) != true
    {
      return source.diagnostic(
        "value of optional type '\(type)' must be unwrapped to a value of type '\(receiver)'",
        at: argumentNode.map(pointOf) ?? Syntax(nameNode))
    }
    var fix = ""
    if receiver.isOptional, case .typed(let type) = argument, type == receiver.wrapped {
      fix = " (the column is optional: compare with an optional on both sides, e.g. #bind(value) or Optional(value))"
    } else if receiver.isOptional, case .literal = argument, fits(argument, receiver.wrapped) == true {
      fix = " (the column is optional: compare with an optional on both sides, e.g. #bind(value) or Optional(value))"
    }
    return source.diagnostic("\(method) requires the types '\(receiver)' and '\(given)' be equivalent\(fix)", at: nameNode)
  }
}

extension Compiler {
  /// The library's operators on a query expression (`$0.id < 3`, `$0.price * 2`, `$0.flag && …`,
  /// `$0.dueDate ?? now`): the left side's type decides which operators exist, and the right
  /// side must have exactly that type, as with the named methods.
  func checkOperator(
    _ op: String, left: TypedExpression, leftSyntax: Syntax, leftExpression: ExprSyntax? = nil, right: Value, rightSyntax: ExprSyntax?,
    rightNode: Syntax, expected: SwiftType?, at opNode: some SyntaxProtocol
  ) throws {
    if left.expression.isConstant, ["<", ">", "<=", ">=", "+", "-", "*", "/"].contains(op), case .expression(let other) = right,
      !other.expression.isConstant, let type = other.type, isKnown(type), !type.isOptional,
      let written = leftExpression?.withoutParentheses,
      written.is(IntegerLiteralExprSyntax.self) || written.is(FloatLiteralExprSyntax.self)
        || (written.as(PrefixOperatorExprSyntax.self).map {
          $0.operator.text == "-" && ($0.expression.is(IntegerLiteralExprSyntax.self) || $0.expression.is(FloatLiteralExprSyntax.self))
        } ?? false)
    {
      // `3 < $0.count` on an `Int64` column: the literal on the left is the same `some
      // QueryExpression<…>` argument, an Int (or a Double) there.
      try checkArgument(
        written, .expression(left), of: "operator function '\(op)'", receiver: type, accepting: [type], at: opNode)
      return
    }
    guard !left.expression.isConstant, let type = left.type, isKnown(type) else { return }
    // `$0.id > Optional(0)`: left to the operator's own overloads (a draft's key is optional
    // where Quarry types the column as the table's).
    if case .optionalLiteral = argumentType(rightSyntax, right) { return }
    let function = "operator function '\(op)'"
    // Where the compiler points when the left side has no such operator: its last name.
    let leftNode = Syntax(leftSyntax.as(MemberAccessExprSyntax.self)?.declName) ?? Syntax(leftSyntax)
    func require(_ requirement: String, conforms: Bool) throws {
      let isEnum = catalog.enums[type.name] != nil
      let satisfied = ValueRequirement(clause: requirement)?.isSatisfied(by: type, isEnum: isEnum)
      guard satisfied == false else { return }
      let wanted = requirement.split(separator: " ").last.map(String.init) ?? ""
      // With a value on the right the compiler tries the standard library's operator and
      // complains of the left side; with an expression there, of the operator.
      let numberOnRight: Bool =
        switch argumentType(rightSyntax, right) {
        case .literal(.integer), .literal(.float): true
        case .typed(let given): given.isNumeric && right.constantExpression == true
        default: false
        }
      throw source.diagnostic(
        conforms
          ? "referencing \(function) on 'QueryExpression' requires that '\(type)' conform to '\(wanted)'"
          : "referencing \(function) on 'QueryExpression' requires the types '\(type)' and '\(wanted)' be equivalent",
        at: conforms && numberOnRight ? leftNode : Syntax(opNode))
    }
    switch op {
    case "<", ">", "<=", ">=":
      try checkArgument(rightSyntax, right, of: function, receiver: type, accepting: [type], at: opNode)
    case "+" where type.wrapped.name == "String":
      try require("QueryValue == String", conforms: false)
      try checkArgument(rightSyntax, right, of: function, receiver: type, accepting: [type], at: opNode)
    case "+", "-", "*", "/":
      try require("QueryValue: Numeric", conforms: true)
      try checkArgument(rightSyntax, right, of: function, receiver: type, accepting: [type], at: opNode)
    case "%", "&", "|", "<<", ">>":
      try require("QueryValue: BinaryInteger", conforms: true)
      try checkArgument(rightSyntax, right, of: function, receiver: type, accepting: [type], at: opNode)
    case "&&", "||":
      try require("QueryValue == Bool", conforms: false)
      try checkArgument(rightSyntax, right, of: function, receiver: type, accepting: [.bool], at: opNode)
    case "??":
      if !type.isOptional, expected != nil {
        // With a type from the context (`$0.title = $0.notes ?? "x"`) Swift's own `??` applies
        // to the promoted expression, and warns that its right side is never used.
        try warn("left side of nil coalescing operator '??' has non-optional type '\(type)', so the right side is never used", at: opNode)
        return
      }
      guard type.isOptional else {
        // The compiler tries the standard library's `??` for a type a literal can write (and
        // complains of the right side), the library's for any other (and of the operator).
        let literalType = type.isNumeric || type.name == "String" || type.isBool
        throw source.diagnostic(
          "'??' needs an optional on its left, but '\(type)' is not optional (the column can never be NULL)",
          at: literalType ? rightNode : Syntax(opNode))
      }
      try checkArgument(rightSyntax, right, of: function, receiver: type, accepting: [type.wrapped, type], at: opNode)
    default:
      break
    }
  }

  /// `!$0.isCompleted`, `-$0.balance`: the prefix operators the library declares.
  func checkPrefix(_ op: String, operand: TypedExpression, at opNode: some SyntaxProtocol) throws {
    guard !operand.expression.isConstant, let type = operand.type, isKnown(type) else { return }
    let isEnum = catalog.enums[type.name] != nil
    switch op {
    case "!" where ValueRequirement(clause: "QueryValue == Bool")?.isSatisfied(by: type, isEnum: isEnum) == false:
      throw source.diagnostic(
        "referencing operator function '!' on 'QueryExpression' requires the types '\(type)' and 'Bool' be equivalent", at: opNode)
    case "-" where ValueRequirement(clause: "QueryValue: Numeric")?.isSatisfied(by: type, isEnum: isEnum) == false:
      throw source.diagnostic(
        "referencing operator function '-' on 'QueryExpression' requires that '\(type)' conform to 'Numeric'", at: opNode)
    default:
      break
    }
  }
}

extension Compiler {
  /// A value Swift has before the query runs (not a column, not nil, not `#bind(…)`'s).
  func isSwiftConstant(_ value: Value, _ syntax: ExprSyntax?) -> Bool {
    if syntax?.is(MacroExpansionExprSyntax.self) == true { return false }
    switch value {
    case .array, .swiftValue: return true
    case .expression(let typed):
      // nil, and a value the app has only when it runs (whose type Quarry may not know).
      if case .value(.null) = typed.expression.node { return false }
      if case .value(.parameter) = typed.expression.node { return false }
      return typed.expression.isConstant
    default: return false
    }
  }

  /// The compiler's refusal of a value only the library's unavailable setter takes (a literal
  /// or Swift value the column's `some QueryExpression` does not).
  static let bindRequired =
    "'subscript(dynamicMember:)' is unavailable: Use '#bind' to explicitly wrap this value in a query expression: '$0.column = #bind(value)'"

  /// The standard library's and Foundation's types a column holds as one value.
  static let standardScalars: Set<String> = [
    "Int", "Int8", "Int16", "Int32", "Int64", "UInt8", "UInt16", "UInt32", "Double", "Float", "String", "Bool", "UUID", "Data", "URL",
  ]

  /// The refusal of a Swift value only the library's unavailable setter takes; none for an app
  /// that pins a StructuredQueries before 0.31, whose setter takes the value and binds it.
  private func requireBind(at node: Syntax) throws {
    guard columnEqualityLibrary == nil else { return }
    throw source.diagnostic(Self.bindRequired, at: node)
  }

  /// `$0.column = value` in an update: the library's dynamic-member setter takes a
  /// `some QueryExpression` of the column's own type. An optional column takes a Swift value
  /// only through `#bind` ("'subscript(dynamicMember:)' is unavailable"); a column that is never
  /// NULL takes literals and values of its type.
  ///
  /// ```swift
  /// Reminder.update { $0.dueDate = Date() }        // error: … Use '#bind' …
  /// Reminder.update { $0.dueDate = #bind(Date()) } // SET "dueDate" = '2026-…'
  /// ```
  func checkAssignment(to column: SwiftType, target: ExprSyntax, value: Value, valueSyntax: ExprSyntax?, operator opNode: Syntax) throws {
    let targetNode = Syntax(target.as(MemberAccessExprSyntax.self)?.base ?? target)
    if column.representation?.contains("JSON") == true, isSwiftConstant(value, valueSyntax) {
      // A Swift value is no `QueryExpression` of the column's JSON representation.
      try requireBind(at: targetNode)
      return
    }
    guard isKnown(column) else { return }
    let argument = argumentType(valueSyntax, value)
    let valueNode = valueSyntax.map(pointOf) ?? Syntax(target)
    let given = argument.typeName ?? "?"
    if column.isOptional {
      let needsBind: Bool
      switch argument {
      case .unknown: return
      case .typed(let type):
        if type == column { return }
        needsBind = type.wrapped == column.wrapped
      case .literal(.null), .implicitMember: needsBind = true
      case .literal: needsBind = fits(argument, column.wrapped, concrete: true) == true
      case .optionalLiteral: if fits(argument, column) == true { return } else { needsBind = true }
      }
      if needsBind {
        try requireBind(at: targetNode)
        return
      }
      throw source.diagnostic("cannot assign value of type '\(given)' to type '\(column)'", at: opNode)
    }
    switch argument {
    case .unknown: return
    case .implicitMember(let name, _):
      // The setter's value is `some QueryExpression<Column>`: a leading dot finds only the
      // library's `QueryExpression where Self == …` statics (`.now` for a date); any other
      // (`.high`, an enum's case) is looked up on the column's own type, which only the
      // unavailable setter takes. A group of columns (an enum of `@Selection` cases) has its own.
      let scalar = catalog.enums[column.name] != nil || Self.standardScalars.contains(column.name) || column.isDate
      if !scalar || Self.queryExpressionStaticMembers[name]?.contains(column.name) == true || name == "init" { return }
      try requireBind(at: targetNode)
      return
    case .literal(.null):
      throw source.diagnostic("'nil' cannot be assigned to type 'any QueryExpression<\(column)>'", at: valueNode)
    case .literal(.integer) where column.isBool:
      throw source.diagnostic(
        "integer literal value '\(valueSyntax?.trimmedDescription ?? "")' cannot be used as a boolean; did you mean '\(valueSyntax?.trimmedDescription == "0" ? "false" : "true")'?",
        at: valueNode)
    case .literal(.integer) where column.isFixedWidthInteger:
      // `$0.count = 3` on an `Int64` column: only the unavailable setter takes the literal.
      try requireBind(at: targetNode)
      return
    default:
      guard fits(argument, column) == false else { return }
      if case .typed(let type) = argument, type.isOptional, type.wrapped == column {
        throw source.diagnostic("value of optional type '\(type)' must be unwrapped to a value of type '\(column)'", at: valueNode)
      }
      throw source.diagnostic("cannot assign value of type '\(given)' to type '\(column)'", at: valueNode)
    }
  }
}
