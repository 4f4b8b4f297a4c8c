import FoundationEssentials
import QueryBuilder
import SwiftSyntax

/// A Swift function declared with `@DatabaseFunction`: called in queries as `$name(…)`, it
/// renders as StructuredQueries renders it (the quoted name, every argument, defaults filled
/// in), and Quarry registers it with SQLite, its body run by ``SwiftEvaluator``.
///
/// ```swift
/// @DatabaseFunction
/// func exclaim(_ text: String) -> String { text.uppercased() + "!" }
/// Reminder.select { $exclaim($0.title) }
/// // SELECT "exclaim"("reminders"."title") FROM "reminders"
/// ```
///
/// A function over `some Sequence<T>` is an aggregate: its body sees every row of a group.
public final class DatabaseFunction: @unchecked Sendable {
  public struct Parameter {
    /// The argument label (nil for `_`).
    var label: String?
    /// The name the body uses.
    var name: String
    var type: SwiftType
    var defaultValue: ExprSyntax?
  }

  public let name: String
  let parameters: [Parameter]
  let returnType: SwiftType?
  /// Over `some Sequence<…>`: one result per group of rows.
  public let isAggregate: Bool
  public let isDeterministic: Bool
  let body: CodeBlockItemListSyntax
  let source: SourceUnit
  /// The input's declarations when the function was declared (its body's types and members).
  let declarations: SwiftDeclarations
  /// Why the body cannot run here (checked when declared), with its place; nil when it can.
  public let cannotRun: String?

  init(
    name: String, parameters: [Parameter], returnType: SwiftType?, isAggregate: Bool, isDeterministic: Bool,
    body: CodeBlockItemListSyntax, source: SourceUnit, declarations: SwiftDeclarations, cannotRun: String?
  ) {
    self.name = name
    self.parameters = parameters
    self.returnType = returnType
    self.isAggregate = isAggregate
    self.isDeterministic = isDeterministic
    self.body = body
    self.source = source
    self.declarations = declarations
    self.cannotRun = cannotRun
  }

  /// How many SQL arguments a call passes.
  public var argumentCount: Int { parameters.count }

  /// Runs the body for one row's arguments (a scalar function).
  public func call(_ arguments: [QueryBinding]) throws -> QueryBinding {
    if let cannotRun { throw DatabaseFunctionFailure("\(name): \(cannotRun)") }
    let values = zip(parameters, arguments).map { parameter, value in
      (name: parameter.name, value: SwiftValue(value, as: parameter.type), type: Optional(parameter.type))
    }
    return try result(values)
  }

  /// Runs the body once for a group: the sequence parameter holds every row's value.
  public func aggregate(_ rows: [[QueryBinding]]) throws -> QueryBinding {
    if let cannotRun { throw DatabaseFunctionFailure("\(name): \(cannotRun)") }
    guard let sequence = parameters.first else { return .null }
    let elementTypes = Self.tupleElementTypes(sequence.type)
    let elements: [SwiftValue] = rows.map { row in
      if row.count == 1 { return SwiftValue(row[0], as: sequence.type) }
      return .tuple(
        row.enumerated().map { SwiftValue($0.element, as: $0.offset < elementTypes.count ? elementTypes[$0.offset] : nil) },
        labels: Array(repeating: nil, count: row.count))
    }
    return try result([(name: sequence.name, value: .array(elements), type: nil)])
  }

  /// `(String, Int?)` → its element types.
  private static func tupleElementTypes(_ type: SwiftType) -> [SwiftType] {
    let name = type.name
    guard name.hasPrefix("("), name.hasSuffix(")") else { return [] }
    return name.dropFirst().dropLast().split(separator: ",").map { part in
      var text = part.trimmingScalars(in: .whitespaces)
      if let colon = text.firstIndex(of: ":") { text = text[text.index(after: colon)...].trimmingScalars(in: .whitespaces) }
      return SwiftEvaluator.parse(text)
    }
  }

  private func result(_ arguments: [(name: String, value: SwiftValue, type: SwiftType?)]) throws -> QueryBinding {
    let evaluator = SwiftEvaluator(source: source, declarations: declarations)
    do {
      let value = try evaluator.run(body, arguments: arguments, returnType: returnType)
      if let returnType, let problem = value.mismatch(with: returnType) { throw SwiftValueProblem(problem) }
      return try value.binding(as: returnType)
    } catch let error as SwiftEvaluationError {
      throw DatabaseFunctionFailure("\(name): \(error.message)")
    } catch let problem as SwiftValueProblem {
      let location = source.lineAndColumn(of: body.positionAfterSkippingLeadingTrivia)
      throw DatabaseFunctionFailure("\(name): \(location.line):\(location.column): its result \(problem.message)")
    }
  }
}

/// A `@DatabaseFunction` body stopped: the message says where and why.
public struct DatabaseFunctionFailure: Error, Sendable, CustomStringConvertible {
  public var description: String
  init(_ description: String) { self.description = description }
}

/// Finds the first thing in a `@DatabaseFunction` body outside the Swift Quarry runs, before
/// it is ever called, so a call fails with that message rather than half-way. It reads the
/// evaluator's own table (``SwiftBuiltins``) for the names a body may call.
enum SubsetCheck {
  /// Syntax the evaluator never runs.
  static let refused: [SyntaxKind: String] = [
    .structDecl: "a nested type", .classDecl: "a nested type",
    .enumDecl: "a nested type", .protocolDecl: "a protocol", .extensionDecl: "an extension", .actorDecl: "an actor",
    .awaitExpr: "'await'", .throwStmt: "'throw'", .regexLiteralExpr: "a regular expression",
    .macroExpansionExpr: "a macro", .unresolvedIsExpr: "an 'is' check", .superExpr: "'super'",
    .postfixIfConfigExpr: "'#if' inside an expression", .editorPlaceholderExpr: "a placeholder", .missingExpr: "a missing expression",
    .packExpansionExpr: "a parameter pack", .consumeExpr: "'consume'", .discardStmt: "'discard'",
    .yieldStmt: "'yield'",
  ]

  static func firstProblem(in body: CodeBlockSyntax, source: SourceUnit, declarations: SwiftDeclarations = SwiftDeclarations()) -> String? {
    if let problem = source.foldingProblem(in: body) {
      let location = source.lineAndColumn(of: problem.position)
      return "\(location.line):\(location.column): \(problem.message)"
    }
    let finder = ProblemFinder(source: source, declarations: declarations)
    // The body's own nested functions may be called (`func twice(_ x: inout Int) { … }`).
    finder.nestedFunctions = Set(body.statements.compactMap { $0.item.as(FunctionDeclSyntax.self)?.name.text })
    finder.walk(body)
    return finder.problem
  }

  private final class ProblemFinder: SyntaxAnyVisitor {
    let source: SourceUnit
    let declarations: SwiftDeclarations
    var problem: String?
    var nestedFunctions: Set<String> = []

    init(source: SourceUnit, declarations: SwiftDeclarations) {
      self.source = source
      self.declarations = declarations
      super.init(viewMode: .sourceAccurate)
    }

    func report(_ node: some SyntaxProtocol, _ what: String) {
      guard problem == nil else { return }
      let text = messageExcerpt(node.trimmedDescription)
      let location = source.lineAndColumn(of: node.positionAfterSkippingLeadingTrivia)
      problem = "\(location.line):\(location.column): its body uses '\(text)' (\(what)), which is outside the Swift Quarry runs"
    }

    func called(_ node: some SyntaxProtocol, _ what: String) {
      guard problem == nil else { return }
      let location = source.lineAndColumn(of: node.positionAfterSkippingLeadingTrivia)
      problem = "\(location.line):\(location.column): calls \(what), which is outside the Swift Quarry runs"
    }

    override func visitAny(_ node: Syntax) -> SyntaxVisitorContinueKind {
      guard problem == nil else { return .skipChildren }
      if let what = SubsetCheck.refused[node.kind] {
        report(node, what)
        return .skipChildren
      }
      if let cast = node.as(UnresolvedAsExprSyntax.self), cast.questionOrExclamationMark != nil {
        report(node, "a dynamic cast")
      }
      if let function = node.as(FunctionDeclSyntax.self) {
        // Nested functions of nested blocks may be called too, and closures a `let` names.
        nestedFunctions.insert(function.name.text)
      }
      if let binding = node.as(PatternBindingSyntax.self), binding.initializer?.value.is(ClosureExprSyntax.self) == true,
        let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
      {
        nestedFunctions.insert(name)
      }
      if let reference = node.as(InOutExprSyntax.self), !reference.expression.is(DeclReferenceExprSyntax.self) {
        report(node, "'&' of something other than a variable's name")
      }
      return .visitChildren
    }

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
      guard problem == nil else { return .skipChildren }
      if let member = node.calledExpression.as(MemberAccessExprSyntax.self) {
        let name = member.declName.baseName.text
        let base = member.base?.trimmedDescription ?? ""
        // A member of a type the input declares, or one an extension declares.
        let isDeclared =
          declarations.declaresType(base) || declarations.extensions[name] != nil
          || declarations.valueTypes.values.contains { $0.declaresMember(name) }
        if !isDeclared, name != "some", !SwiftBuiltins.memberNames.contains(name), !SwiftBuiltins.functionNames.contains(name) {
          called(member.declName, "'.\(name)(…)'")
        }
      } else if let reference = node.calledExpression.as(DeclReferenceExprSyntax.self) {
        let name = reference.baseName.text
        if !SwiftBuiltins.functionNames.contains(name), !declarations.declaresType(name), !["Float", "CGFloat"].contains(name),
          !nestedFunctions.contains(name)
        {
          called(reference, "'\(name)(…)'")
        }
      }
      return .visitChildren
    }
  }
}
