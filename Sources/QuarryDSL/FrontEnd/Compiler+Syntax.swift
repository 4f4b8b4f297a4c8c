import QueryBuilder
import SwiftSyntax

/// Evaluation of Swift expression syntax into compile-time values.
extension Compiler {
  /// A number literal where a Double (or a Float) is expected: a `Float` holds the nearest
  /// 24-bit value, bound as the Double it converts to, as StructuredQueries binds a Float
  /// (`Draft(weight: 0.1)` binds 0.10000000149011612).
  func realLiteral(_ value: Double, expected: SwiftType?) -> Value {
    if expected?.wrapped.name == "Float" {
      return .expression(TypedExpression(.value(.double(Double(Float(value)))), type: SwiftType("Float")))
    }
    return .expression(TypedExpression(.value(.double(value)), type: .double))
  }

  func evaluate(_ expr: ExprSyntax, expected: SwiftType? = nil) throws -> Value {
    evaluationDepth += 1
    defer { evaluationDepth -= 1 }
    guard evaluationDepth <= Self.maximumEvaluationDepth else { throw tooDeep(at: expr) }
    // Swift's alone (`7 / 2`, `"\(flag)"`, `ids.dropFirst()[0]`): the evaluator computes it.
    if let computed = try swiftComputation(expr, expected: expected) { return computed }
    switch expr.as(ExprSyntaxEnum.self) {
    case .integerLiteralExpr(let literal):
      guard let value = integerValue(ExprSyntax(literal)) else {
        throw source.diagnostic("integer literal is out of range", at: literal)
      }
      if let expected, expected.isReal { return realLiteral(Double(value), expected: expected) }
      return .expression(TypedExpression(.value(.integer(value)), type: .int))
    case .floatLiteralExpr(let literal):
      guard let value = Double(literal.literal.text.filter { $0 != "_" }) else {
        throw source.diagnostic("malformed number", at: literal)
      }
      return realLiteral(value, expected: expected)
    case .booleanLiteralExpr(let literal):
      let value: Int64 = literal.literal.tokenKind == .keyword(.true) ? 1 : 0
      return .expression(TypedExpression(.value(.integer(value)), type: .bool))
    case .nilLiteralExpr:
      return .null
    case .stringLiteralExpr(let literal):
      do {
        return .expression(TypedExpression(.value(.text(try stringValue(literal))), type: .string))
      } catch let runTime as RunTimeValue {
        // `"%\(searchText)%"` in a scan: one string the app builds when it runs, bound as one value.
        return .runTime(runTime.name, type: .string)
      }
    case .arrayExpr(let array):
      let elements = try array.elements.map { try evaluate($0.expression, expected: expected) }
      // `[Step(…), Step(…)]`: structs of the input make one JSON array, as Swift encodes the
      // array (each element's JSON bound on its own would be text inside JSON).
      if elements.contains(where: isValueOfInputStruct), case .success(let computed) = try computeSwift(expr, expected: nil),
        computed.holdsStructure
      {
        return try value(of: computed, at: expr)
      }
      return .array(elements)
    case .tupleExpr(let tuple):
      if tuple.elements.count == 1, let only = tuple.elements.first, only.label == nil {
        return try evaluate(only.expression, expected: expected)
      }
      return .tuple(try tuple.elements.map { try evaluate($0.expression) })
    case .declReferenceExpr(let reference):
      return try resolve(reference)
    case .memberAccessExpr(let member):
      let name = member.declName.baseName.text
      guard let base = member.base else {
        return try implicitMember(name, expected: expected, at: member)
      }
      // `DefaultItem?.none`: a row of NULLs.
      if name == "none", let model = tableMethods.optionalTableType(base) { return tableMethods.nullRecord(of: model) }
      // `Date?.none`, `Optional<String>.none`: nil of that type.
      if name == "none", let wrapped = Self.optionalTypeName(base), wrapped.first?.isUppercase == true, lookupLocal(wrapped) == nil {
        return .expression(TypedExpression(.value(.null), type: SwiftType(wrapped).optional))
      }
      if isSwiftExtensionStatic(of: base, name) { return try swiftValue(of: expr) }
      if let property = staticProperty(name, of: base) {
        do {
          return try value(of: property)
        } catch let diagnostic as Diagnostic {
          // In a scanned app, a static value Quarry cannot compute (`static let mock1 = Self(id:
          // ID(), …)`) is one the app has when it runs: bound, named by its source.
          guard scanning else { throw diagnostic }
          return .runTime(text(of: expr))
        }
      }
      let baseValue = try evaluate(base)
      if swiftExtensionInstanceMember(name, on: baseValue) { return try swiftValue(of: expr) }
      let result = try self.member(name, of: baseValue, at: member)
      // `rows.first?.title`: optional chaining makes the value an optional (`Optional("a")`).
      if base.is(OptionalChainingExprSyntax.self), case .expression(var typed) = result, typed.expression.isConstant,
        let type = typed.type, !type.isOptional
      {
        typed.type = type.optional
        return .expression(typed)
      }
      return result
    case .functionCallExpr(let call):
      return try evaluateCall(call, expected: expected)
    case .sequenceExpr(let sequence):
      return try evaluateOperand(try folded(sequence), expected: expected)
    case .infixOperatorExpr, .ternaryExpr, .asExpr, .isExpr:
      // Operators already folded (an operand of a folded sequence).
      return try evaluateOperand(OperatorFolding.operand(expr), expected: expected)
    case .prefixOperatorExpr(let prefix):
      return try evaluatePrefix(prefix, expected: expected)
    case .keyPathExpr(let keyPath):
      var names: [String] = []
      for component in keyPath.components {
        switch component.component {
        case .property(let property): names.append(property.declName.baseName.text)
        case .optional: continue
        default:
          throw source.diagnostic("not supported in Quarry yet: this key path component", at: component)
        }
      }
      return .keyPath(names)
    case .genericSpecializationExpr:
      return try evaluateBase(expr)
    case .macroExpansionExpr(let macro):
      return try functionMethods.evaluateMacro(macro, expected: expected)
    case .forceUnwrapExpr(let unwrap):
      let value = try evaluate(unwrap.expression, expected: expected)
      // `o!` of a Swift nil traps in the app; of a column it changes no SQL.
      if case .null = value { throw source.diagnostic("unwraps nil with '!' (the app would crash here)", at: unwrap) }
      if case .expression(let typed) = value, case .value(.null) = typed.expression.node {
        throw source.diagnostic("unwraps nil with '!' (the app would crash here)", at: unwrap)
      }
      return value
    case .optionalChainingExpr(let chain):
      return try evaluate(chain.expression, expected: expected)
    case .tryExpr(let tryExpr):
      return try evaluate(tryExpr.expression, expected: expected)
    case .awaitExpr(let awaitExpr):
      return try evaluate(awaitExpr.expression, expected: expected)
    case .closureExpr(let closure):
      throw source.diagnostic("a closure is only allowed as an argument of a query method", at: closure)
    case .dictionaryExpr(let dictionary):
      return .expression(TypedExpression(.value(.text(try jsonObjectText(dictionary))), type: .string))
    case .switchExpr(let switchExpr):
      return try evaluateSwitch(switchExpr).last ?? .null
    case .subscriptCallExpr(let subscriptCall):
      return try evaluateSubscript(subscriptCall)
    default:
      break
    }
    throw source.diagnostic(
      "not supported in Quarry yet: \(kindName(expr))", at: expr)
  }

  /// The type `T?` or `Optional<T>` spells, written as an expression (`T?.none`): `T`.
  static func optionalTypeName(_ expr: ExprSyntax) -> String? {
    if let chain = expr.as(OptionalChainingExprSyntax.self),
      chain.expression.is(DeclReferenceExprSyntax.self) || chain.expression.is(MemberAccessExprSyntax.self)
    {
      return chain.expression.trimmedDescription
    }
    if let generic = expr.as(GenericSpecializationExprSyntax.self), generic.expression.trimmedDescription == "Optional",
      generic.genericArgumentClause.arguments.count == 1, let argument = generic.genericArgumentClause.arguments.first
    {
      return argument.argument.trimmedDescription
    }
    return nil
  }

  /// The static property `base.name` of a type the input declares that is not a table
  /// (`AchievementDefinitions.all`), when no nearer name shadows the type.
  func staticProperty(_ name: String, of base: ExprSyntax) -> StaticProperty? {
    guard !catalog.staticProperties.isEmpty,
      let typeName = namespace(base, holding: { self.catalog.staticProperties[$0 + "." + name] != nil })
    else { return nil }
    return catalog.staticProperties[typeName + "." + name]
  }

  /// The qualified name of the type (not a table) that `base` names, as Swift looks it up: no
  /// local, binding or run-time value of the first name shadows it; `Self` is the enclosing
  /// type; a type nested in the enclosing one is found first when it `holds` the member.
  func namespace(_ base: ExprSyntax, holding holds: (String) -> Bool) -> String? {
    var path: [String] = []
    var current = base
    while let member = current.as(MemberAccessExprSyntax.self), let inner = member.base {
      path.insert(member.declName.baseName.text, at: 0)
      current = inner
    }
    guard var root = current.as(DeclReferenceExprSyntax.self)?.baseName.text, lookupLocal(root) == nil,
      runTimeValues[root] == nil, catalog.bindings[root] == nil
    else { return nil }
    // `Self.databaseTableName` in a static function of the type: the type's own.
    if root == "Self", let own = enclosingType { root = own }
    var typeName = ([root] + path).joined(separator: ".")
    if let outer = enclosingType, holds(outer + "." + typeName) { typeName = outer + "." + typeName }
    return catalog.table(forType: typeName) == nil ? typeName : nil
  }

  /// The static property `name` of the type the compiler stands in, or of a type around it
  /// (`Outer.Inner` looks in `Outer.Inner`, then `Outer`), as Swift's unqualified lookup finds it.
  func enclosingStaticProperty(_ name: String) -> StaticProperty? {
    guard var scope = enclosingType, !catalog.staticProperties.isEmpty else { return nil }
    while true {
      if let property = catalog.staticProperties[scope + "." + name] { return property }
      guard let dot = scope.lastIndex(of: ".") else { return nil }
      scope = String(scope[..<dot])
    }
  }

  /// The value of a static property named bare inside its type. As for a global, a stored
  /// `static var` (the app may change it), or one Quarry cannot compute, is in a scan a value
  /// the app has when it runs.
  func enclosingStaticValue(_ property: StaticProperty, at reference: DeclReferenceExprSyntax) throws -> Value {
    let binding = property.binding.syntax.as(PatternBindingSyntax.self)
    let annotated = (binding?.typeAnnotation?.type).map(SwiftEvaluator.swiftType)
    let runTime = Value.runTime(property.name, type: annotated)
    let declaration = binding?.parent?.parent?.as(VariableDeclSyntax.self)
    if declaration?.bindingSpecifier.tokenKind == .keyword(.var), binding?.accessorBlock == nil {
      if scanning { return runTime }
      throw source.diagnostic(
        "'\(property.qualifiedName)' is a 'static var', whose value the app has only when it runs", at: reference)
    }
    do {
      return try value(of: property)
    } catch let diagnostic as Diagnostic {
      guard scanning else { throw diagnostic }
      return runTime
    }
  }

  /// A static property's value: its initializer, evaluated in the input that declared it with
  /// the declared type expected (Swift evaluates it once; its value does not change). Its
  /// names are looked up in the type that declares it.
  func value(of property: StaticProperty) throws -> Value {
    let savedType = enclosingType
    if !property.typeName.isEmpty { enclosingType = property.typeName }
    defer { enclosingType = savedType }
    guard let binding = property.binding.syntax.as(PatternBindingSyntax.self) else {
      throw source.diagnostic("'\(property.qualifiedName)' has no value to read", at: source.tree)
    }
    guard let initializer = binding.initializer else {
      // A computed one: its getter, run at each read.
      guard let getter = binding.accessorBlock else {
        throw source.diagnostic("'\(property.qualifiedName)' has no value to read", at: source.tree)
      }
      return try withSource(property.binding) {
        try withContext(selfTable: nil, bareColumns: nil) { try evaluateBody(Syntax(getter)) }
      }
    }
    return try withSource(property.binding) {
      try evaluateBinding(initializer.value, annotation: binding.typeAnnotation)
    }
  }

  /// A namespace's static function (``StaticFunction``) that `call` names and fits, or nil.
  func staticFunction(of call: FunctionCallExprSyntax) -> Scope? {
    guard !catalog.staticFunctions.isEmpty, let member = call.calledExpression.as(MemberAccessExprSyntax.self),
      let base = member.base
    else { return nil }
    let name = member.declName.baseName.text
    guard let typeName = namespace(base, holding: { self.catalog.staticFunctions[$0 + "." + name] != nil }),
      let function = catalog.staticFunctions[typeName + "." + name], function.accepts(Arguments(call))
    else { return nil }
    return function
  }

  /// Calls a namespace's static function: its arguments bound to its parameters (a database
  /// handle passed on as nothing), its body evaluated in the input that declared it.
  func callStaticFunction(_ function: Scope, _ call: FunctionCallExprSyntax) throws -> Value {
    let values = try scopeArguments(of: function, Arguments(call))
    let given = Arguments(call).list.map(\.expression)
    // Checked where each value is its argument's (no default filled in between).
    if given.count == values.count { try checkSwiftArguments(of: function, values, at: given) }
    let bindings = parameterBindings(of: function, values)
    return try withSource(function.body) {
      try withContext(selfTable: nil, bareColumns: nil) {
        try withLocals(bindings) { try evaluateBody(function.body.syntax) }
      }
    }
  }

  /// `rows[0]`: an element of an array the compiler holds (rows app code fetched, a list of
  /// values); an index outside it traps, as in Swift. Arrays of Swift values are Swift's.
  func evaluateSubscript(_ subscriptCall: SubscriptCallExprSyntax) throws -> Value {
    let base = try evaluate(subscriptCall.calledExpression)
    if case .expression(let typed) = base, case .value(.parameter(let name)) = typed.expression.node {
      // `rows[index]` in a scan: an element of a list the app has when it runs.
      return .runTime(name + "[" + text(of: subscriptCall.arguments) + "]")
    }
    var start = 0
    var held = base
    if case .slice(let elements, let startIndex) = base {
      // A slice keeps its indices: `rows.dropFirst()[1]` is the second row.
      held = .array(elements)
      start = startIndex
    }
    guard case .array(let elements) = held, subscriptCall.arguments.count == 1,
      let argument = subscriptCall.arguments.first, argument.label == nil
    else {
      if swiftValue(base) != nil { return try swiftValue(of: ExprSyntax(subscriptCall)) }
      throw source.diagnostic("not supported in Quarry yet: subscripting \(describe(base))", at: subscriptCall)
    }
    if swiftValue(base) != nil { return try swiftValue(of: ExprSyntax(subscriptCall)) }
    guard case .expression(let typed) = try evaluate(argument.expression, expected: .int),
      case .value(.integer(let index)) = typed.expression.node
    else {
      throw source.diagnostic("an index known before the query runs is needed here", at: argument.expression)
    }
    guard index >= start, index - Int64(start) < elements.count else {
      let range = start == 0 ? "" : " (a slice whose indices run from \(start))"
      throw source.diagnostic(
        "index \(index) is out of range for \(elements.count) element\(elements.count == 1 ? "" : "s")\(range) (the app would crash here)",
        at: argument.expression)
    }
    return elements[Int(index) - start]
  }

  /// An operator sequence grouped by precedence; a problem (`a == b == c`) is located.
  func folded(_ sequence: SequenceExprSyntax) throws -> Operand {
    do {
      return try OperatorFolding.fold(sequence, in: source)
    } catch {
      let location = source.lineAndColumn(of: error.position)
      throw Diagnostic(error.message, line: location.line, column: location.column)
    }
  }

  /// The operator expression if `expr` is one (`$0.a + 1`, `$0.title = "x"`), folded.
  func operation(_ expr: ExprSyntax) throws -> Operation? {
    let inner = expr.withoutParentheses
    if OperatorFolding.isOperation(inner), case .operation(let operation) = OperatorFolding.operand(inner) { return operation }
    guard let sequence = inner.as(SequenceExprSyntax.self), case .operation(let operation) = try folded(sequence)
    else { return nil }
    return operation
  }

  func evaluateOperand(_ operand: Operand, expected: SwiftType? = nil) throws -> Value {
    switch operand {
    case .syntax(let syntax): return try evaluate(syntax, expected: expected)
    case .type(let type): throw source.diagnostic("a type is not a value here", at: type)
    case .operation(let operation):
      evaluationDepth += 1
      defer { evaluationDepth -= 1 }
      guard evaluationDepth <= Self.maximumEvaluationDepth else { throw tooDeep(at: operation.opNode) }
      // `a ^ b`, `x * 2 > y` over Swift values: Swift's own operators compute it.
      if let computed = try swiftComputation(operation.node, expected: expected) { return computed }
      return try evaluateOperation(operation, expected: expected)
    }
  }

  func tooDeep(at node: some SyntaxProtocol) -> Diagnostic {
    source.diagnostic(
      "this expression nests more than \(Self.maximumEvaluationDepth) levels deep (calls, closures and operators); split it into smaller ones",
      at: node)
  }

  /// A dictionary literal as the JSON text StructuredQueries binds for it (pretty-printed, keys
  /// sorted): `["a": 1]` → `{⏎  "a" : 1⏎}`.
  func jsonObjectText(_ dictionary: DictionaryExprSyntax) throws -> String {
    var entries: [SwiftValue: SwiftValue] = [:]
    if case .elements(let elements) = dictionary.content {
      for element in elements {
        guard case .expression(let key) = try evaluate(element.key), case .value(.text(let name)) = key.expression.node else {
          throw source.diagnostic("a JSON object's keys must be strings", at: element.key)
        }
        let value = try evaluate(element.value)
        guard let swift = swiftValue(value) else {
          if case .expression(let typed) = value, case .value(.parameter(let name)) = typed.expression.node {
            throw RunTimeValue(name: name)
          }
          throw source.diagnostic("a JSON object's values must be values Swift has before the query runs", at: element.value)
        }
        entries[.string(name)] = swift
      }
    }
    return try encodedJSON(.dictionary(entries), at: dictionary)
  }

  /// Whether `value` is a struct of the input, bound as its JSON (`Step(…)`).
  func isValueOfInputStruct(_ value: Value) -> Bool {
    guard case .expression(let typed) = value, let type = typed.type else { return false }
    return catalog.valueTypes[type.name] != nil
  }

  /// The JSON text StructuredQueries' encoder writes for a value (``SwiftValue/encodedJSON()``).
  func encodedJSON(_ value: SwiftValue, at node: some SyntaxProtocol) throws -> String {
    do {
      return try value.encodedJSON()
    } catch {
      throw source.diagnostic("this value " + error.message, at: node)
    }
  }

  /// The text of a string literal; interpolations must be plain values (`"%\(text)%"`).
  func stringValue(_ literal: StringLiteralExprSyntax) throws -> String {
    var out = ""
    for segment in literal.segments {
      if let text = segment.as(StringSegmentSyntax.self) {
        out += try unescape(text, in: literal)
      } else if let interpolation = segment.as(ExpressionSegmentSyntax.self),
        let first = interpolation.expressions.first
      {
        let value = try evaluate(first.expression)
        if case .expression(let typed) = value, case .value(.parameter(let name)) = typed.expression.node { throw RunTimeValue(name: name) }
        // What Swift prints for the value of its type (`true`, `Optional(3)`, `nil`, `high`):
        // the one description the evaluator gives every interpolation.
        if case .expression(let typed) = value, typed.type?.wrapped.name == "Float" {
          throw source.diagnostic(
            "Quarry cannot tell what Swift prints for a Float (Swift prints the shortest digits of its 24-bit value; Quarry computes only Double's): interpolate a Double, or have the app compute it",
            at: first.expression)
        }
        guard let swift = swiftValue(value) else {
          throw source.diagnostic(
            "only plain values can be interpolated into a Swift string; use #sql(\"…\\(expression)…\") for SQL",
            at: first.expression)
        }
        do {
          out += try swift.describe(interpolated: true)
        } catch {
          throw source.diagnostic("Quarry cannot tell what Swift prints here: this value \(error.message)", at: first.expression)
        }
      }
    }
    return out
  }

  /// A string segment's text with Swift's escapes interpreted: `\n`, `\t`, `\r`, `\0`, `\\`,
  /// `\"`, `\'`, `\u{1F600}`, and a line-ending `\` in a multi-line string. In a raw string
  /// (`#"…"#`) only `\#` … escapes count.
  func unescape(_ segment: StringSegmentSyntax, in literal: StringLiteralExprSyntax) throws -> String {
    // One decoder for every reader of Swift (``SwiftLiterals``); the scan below only locates an
    // escape Swift rejects.
    if let text = try? SwiftLiterals.text(of: segment, in: literal) { return text }
    let pounds = literal.openingPounds?.text.count ?? 0
    switch Self.unescape(segment.content.text, pounds: pounds) {
    case .success(let text): return text
    case .failure(let bad):
      var diagnostic = source.diagnostic("invalid escape sequence in this string", at: segment)
      // Point at the backslash of the bad escape, not the start of the segment.
      let before = String(String.UnicodeScalarView(segment.content.text.unicodeScalars.prefix(bad.offset)))
      diagnostic.column += before.count
      diagnostic.length = 2
      throw diagnostic
    }
  }

  /// Where an escape Swift would reject starts (in Unicode scalars into the segment).
  struct InvalidEscape: Error { var offset: Int }

  /// Interprets escapes; a failure for one Swift would reject (`\q`, `\u{D800}`).
  static func unescape(_ text: String, pounds: Int) -> Result<String, InvalidEscape> {
    guard text.contains("\\") else { return .success(text) }
    var out = String.UnicodeScalarView()
    let scalars = Array(text.unicodeScalars)
    var index = 0
    while index < scalars.count {
      let scalar = scalars[index]
      index += 1
      guard scalar == "\\", scalars[index..<min(scalars.count, index + pounds)].allSatisfy({ $0 == "#" }),
        index + pounds < scalars.count
      else {
        out.append(scalar)
        continue
      }
      let escapeStart = index - 1
      index += pounds
      let next = scalars[index]
      index += 1
      switch next {
      case "n": out.append("\n")
      case "t": out.append("\t")
      case "r": out.append("\r")
      case "0": out.append("\0")
      case "\\", "\"", "'": out.append(next)
      case "\n":
        // A line continuation in a multi-line string: the newline (and nothing else) goes.
        break
      case "u":
        guard index < scalars.count, scalars[index] == "{",
          let close = scalars[index...].firstIndex(of: "}"), close - index - 1 >= 1, close - index - 1 <= 8,
          let code = UInt32(String(String.UnicodeScalarView(scalars[(index + 1)..<close])), radix: 16),
          let decoded = Unicode.Scalar(code)
        else { return .failure(InvalidEscape(offset: escapeStart)) }
        out.append(decoded)
        index = close + 1
      default:
        if next == " " || next == "\t" {
          // `\` followed by spaces then a newline is also a line continuation.
          var look = index
          while look < scalars.count, scalars[look] == " " || scalars[look] == "\t" { look += 1 }
          if look < scalars.count, scalars[look] == "\n" {
            index = look + 1
            continue
          }
        }
        return .failure(InvalidEscape(offset: escapeStart))
      }
    }
    return .success(String(out))
  }

  // MARK: Names

  func resolve(_ reference: DeclReferenceExprSyntax) throws -> Value {
    let name = reference.baseName.text
    if let value = lookupLocal(name) { return try sqlForm(value, at: reference) }
    if name == "Self" || name == "self" {
      if name == "self", let bare = bareColumnsTable { return .columns(bare) }
      // In a model's instance member (a scan), `self` is the record the app holds.
      if name == "self", case .query? = runTimeValues[name] { return runTimeValues[name] ?? .null }
      if let selfTable { return .table(selfTable) }
    }
    if let bare = bareColumnsTable {
      // A column, a computed column, or a group of columns (`id` of a key made of two columns).
      if bare.model.column(named: name) != nil || bare.model.computedColumns[name] != nil || !bare.model.columns(under: [name]).isEmpty {
        return try member(name, of: .columns(bare), at: reference)
      }
    }
    if let selfTable, name == "unscoped" {
      var unscoped = selfTable
      unscoped.unscoped = true
      return .table(unscoped)
    }
    // Names the code around a scanned query declares (a parameter, a local) are nearer than the
    // type's own static members and the input's bindings.
    if let value = runTimeValues[name] { return value }
    if let selfTable, selfTable.model.scopes[name] != nil {
      return try member(name, of: .table(selfTable), at: reference)
    }
    // `id` in an extension's instance method: the record's own column (`self.id`), declared in
    // the type's body rather than around the query.
    if let record = runTimeValues["self"], case .query = record, let selfTable, selfTable.model.column(named: name) != nil {
      return try member(name, of: record, at: reference)
    }
    if let value = catalog.bindings[name] { return try sqlForm(value, at: reference) }
    // `tagsQuery` inside `enum Operations`: the enclosing type's static property, which Swift
    // finds before a global of that name.
    if let property = enclosingStaticProperty(name) { return try enclosingStaticValue(property, at: reference) }
    if let value = try globalValue(name, at: reference) { return try sqlForm(value, at: reference) }
    if let file = currentFile, let model = catalog.nestedTypes["#\(file)." + name] {
      // A `private` model of the query's own file.
      return .table(TableInstance(model: model))
    }
    if let outer = enclosingType, let model = catalog.nestedTypes[outer + "." + name] {
      // `Row` inside `RemindersDetailModel`: its own nested type, not another view's `Row`.
      return .table(TableInstance(model: model))
    }
    // `Kind` inside `extension Font`: the type's own nested enum, looked up from the scope the
    // name is written in outward (`Font.Kind` before `Preset.Kind` or a global `Kind`).
    if let model = EnumModel.nested(name, inScopes: [enclosingType, selfTable?.model.typeName].compactMap { $0 }, of: catalog.enums) {
      return .enumType(model)
    }
    if let model = catalog.table(forType: name) { return .table(TableInstance(model: model)) }
    if let model = catalog.enums[name] { return .enumType(model) }
    if let alias = catalog.aliases[name] { return .aliasType(alias) }
    if ["Int", "String", "Double", "Bool", "Date", "Int64", "Float", "UUID", "Data"].contains(name) {
      return .metatype(name)
    }
    if name.hasPrefix("$") {
      throw source.diagnostic(
        "'\(name)' is not a parameter of this closure", at: reference)
    }
    // A local the app code declared (though Quarry could not compute it) shadows a function.
    if let origin = appCode.skippedValues[name] {
      throw source.diagnostic(
        "'\(name)' comes from app code Quarry does not run (\(origin)), so its value is unknown here", at: reference)
    }
    if catalog.functions[name] != nil { return .function(name) }
    if catalog.valueTypes[name] != nil {
      throw source.diagnostic(
        "'\(name)' is a struct of Swift values, not a table: add @Table to query it (or @Selection for a result row)", at: reference)
    }
    let candidates = catalog.typeNames + catalog.bindings.keys + locals.flatMap(\.keys)
    let suggestion = closestMatch(to: name, in: candidates)
    if name.first?.isUppercase == true {
      // A new or empty database: say so, rather than leave the name looking misspelt.
      let empty = catalog.tables.isEmpty
      throw source.diagnostic(
        "unknown table or type '\(name)'"
          + (empty && suggestion == nil
            ? "; the database has no tables yet (create one with #sql(\"CREATE TABLE …\") or .raw)" : ""),
        at: reference, suggestion: suggestion)
    }
    throw source.diagnostic("unknown name '\(name)'", at: reference, suggestion: suggestion)
  }

  /// `.name` with no base: resolved against what the context expects.
  func implicitMember(_ name: String, expected: SwiftType?, at node: some SyntaxProtocol) throws -> Value {
    if let expected, let model = catalog.enums[expected.name] {
      guard let value = model.value(of: name) else {
        throw source.diagnostic(
          "'\(model.name)' has no case '\(name)'", at: node,
          suggestion: closestMatch(to: name, in: model.cases.map(\.name)))
      }
      return .expression(TypedExpression(.value(value), type: expected.wrapped))
    }
    // `.week`, declared by the input in an extension of a standard type: Swift's value.
    if let expr = node.as(ExprSyntax.self), catalog.swiftExtensions[name]?.contains(where: \.isStatic) == true {
      return try swiftValue(of: expr, expected: expected)
    }
    return .implicitMember(name)
  }

  // MARK: Members

  func member(_ name: String, of base: Value, at node: some SyntaxProtocol) throws -> Value {
    if let runTime = runTimeMember(name, of: base, whole: node, isCall: false) { return runTime }
    if let access = Syntax(node).as(MemberAccessExprSyntax.self),
      let computed = try swiftMemberOfSwiftValue(name, on: base, labels: nil, whole: ExprSyntax(access))
    {
      return computed
    }
    switch base {
    case .columns(let table):
      return try columnMember(name, of: table, at: node)
    case .group(let table, let path):
      if let value = try rowMethods.groupMember(name, of: table, prefix: path, at: node) { return value }
      throw source.diagnostic(
        "'\(path.joined(separator: "."))' has no member '\(name)'", at: node,
        suggestion: closestMatch(to: name, in: Set(table.model.columns(under: path).compactMap { $0.path.dropFirst(path.count).first })))
    case .table(let table):
      // `Attachment.Kind`: a type nested in a table; `Kind.Selection`: a selection is its own.
      if let nested = catalog.table(forType: table.model.typeName + "." + name) {
        return .table(TableInstance(model: nested))
      }
      if name == "Selection", table.model.isSelection { return .table(table) }
      return try tableMethods.tableMember(name, of: table, at: node)
    case .query(let query):
      return try queryMember(name, of: query, at: node)
    case .enumType(let model):
      guard let value = model.value(of: name) else {
        if name == "self" { return .metatype(model.name) }
        // `Library.Book`, `Library.Kind`: a type nested in an enum used as a namespace.
        if let nested = catalog.nestedTypes[model.name + "." + name] ?? catalog.table(forType: model.name + "." + name),
          model.cases.isEmpty || nested.typeName == name
        {
          return .table(TableInstance(model: nested))
        }
        if let nested = catalog.enums[model.name + "." + name] { return .enumType(nested) }
        // `Kind.allCases`, `Kind.standard` (a static member the input declares): Swift's value.
        if let access = Syntax(node).as(MemberAccessExprSyntax.self),
          (name == "allCases" && model.isCaseIterable)
            || catalog.swiftExtensions[name]?.contains(where: { $0.isStatic && $0.typeName == model.name }) == true
        {
          return try swiftValue(of: ExprSyntax(access))
        }
        throw source.diagnostic(
          "'\(model.name)' has no case '\(name)'", at: node,
          suggestion: closestMatch(to: name, in: model.cases.map(\.name)))
      }
      return .expression(TypedExpression(.value(value), type: SwiftType(model.name)))
    case .aliasType(let alias):
      if name == "self" { return .aliasType(alias) }
    case .metatype(let type):
      if name == "self" { return .metatype(type) }
      if type == "Date", name == "now" { return currentDate() }
      // `UUID.nil` in a scanned app: a static member a module the app imports adds (UUIDV7's),
      // whose value only the running app has; bound, named by its source.
      if scanning, name.first?.isLowercase == true, catalog.valueTypes[type] == nil, catalog.table(forType: type) == nil {
        return .runTime("\(type).\(name)", type: SwiftType(type))
      }
    case .expression(let expression):
      return try expressionMethods.expressionMember(name, of: expression, at: node)
    case .implicitMember(let parent):
      return .dateModifiers([parent, name])
    case .array, .tuple:
      if swiftValue(base) != nil, case .array = base, let syntax = Syntax(node).as(MemberAccessExprSyntax.self) {
        // `ids.count` of known values: Swift's answer.
        return try swiftValue(of: ExprSyntax(syntax))
      }
      if let value = try arrayMethods.collectionMember(name, of: base, at: node) { return value }
    case .slice(let elements, _):
      if let value = try arrayMethods.collectionMember(name, of: .array(elements), at: node) { return value }
    case .swiftValue(let held):
      // `….reduce(into: [Int: Int]()) { … }.count`: a member of a value Swift holds, Swift's.
      let evaluator = SwiftEvaluator(source: source, catalog: catalog, budget: budget)
      do {
        return try heldValue(try evaluator.property(name, of: held, at: node), type: nil, at: node)
      } catch let error as SwiftEvaluationError {
        throw Diagnostic(computedBeforeTheQuery: error)
      }
    default:
      break
    }
    if case .window = base {
      throw source.diagnostic(
        "inside .over { … }, $0 is the window, which has no member '\(name)': name the row in the outer closure and use that name (Employee.select { e in rank().over { $0.order(by: e.salary) } })",
        at: node)
    }
    throw source.diagnostic("\(describe(base)) has no member '\(name)'", at: node)
  }

  func columnMember(_ name: String, of table: TableInstance, at node: some SyntaxProtocol) throws -> Value {
    if let column = table.model.column(named: name) {
      return .expression(table.column(column))
    }
    if name == "syncMetadataID", let value = syncMetadataID(of: table) { return value }
    if let scope = table.model.computedColumns[name] {
      features.insert(.computedColumn(name))
      declarationsUsed[.computedColumn, default: []].insert(ObjectIdentifier(scope.body.source))
      // The body is declared on the table's own columns; the outer side of a join lifts its result.
      var plain = table
      plain.isOptional = false
      let value = try withSource(scope.body) {
        try withContext(selfTable: plain, bareColumns: plain) { try evaluateBody(scope.body.syntax) }
      }
      // On the outer side of a join a computed column is optional too (`$1.isHighPriority.ifnull(false)`).
      if table.isOptional, case .expression(var typed) = value {
        typed.type = typed.type?.optional
        return .expression(typed)
      }
      return value
    }
    if let group = try rowMethods.groupMember(name, of: table, prefix: [], at: node) {
      return group
    }
    if name == "rank", table.model.isFTS5 {
      return .expression(TypedExpression(.column(table.qualifier, "rank"), type: .double))
    }
    if name == "rowid" {
      return .expression(TypedExpression(.column(table.qualifier, "rowid"), type: .int))
    }
    if name == "primaryKey", let key = table.model.primaryKey {
      return .expression(table.column(key))
    }
    // `$0.kind` on a table whose enum payload flattened into columns is not addressable yet.
    throw source.diagnostic(
      "table '\(table.model.typeName)' has no column '\(name)'",
      at: Syntax(node).as(MemberAccessExprSyntax.self).map { Syntax($0.declName) } ?? Syntax(node),
      suggestion: closestMatch(
        to: name, in: Set(table.model.columns.compactMap(\.path.first)).union(table.model.computedColumns.keys)))
  }

  /// The value of a stored body: an expression, a closure-like accessor, or a code block.
  func evaluateBody(_ syntax: Syntax) throws -> Value {
    if let expr = syntax.as(ExprSyntax.self) { return try evaluate(expr) }
    if let accessor = syntax.as(AccessorBlockSyntax.self) {
      switch accessor.accessors {
      case .getter(let items): return try evaluateStatements(items)
      case .accessors(let list):
        guard let getter = list.first(where: { $0.accessorSpecifier.text == "get" }),
          let body = getter.body
        else { throw source.diagnostic("a computed column needs a getter", at: accessor) }
        return try evaluateStatements(body.statements)
      }
    }
    if let block = syntax.as(CodeBlockSyntax.self) { return try evaluateStatements(block.statements) }
    throw source.diagnostic("not supported in Quarry yet: this definition", at: syntax)
  }

  /// The value of a list of statements: local `let`s, then the last expression or `return`.
  func evaluateStatements(_ items: CodeBlockItemListSyntax) throws -> Value {
    try evaluateStatementList(items).last ?? .null
  }

  /// Every expression statement's value, in order (result-builder bodies list several).
  /// The values a closure's or body's statements produce; `expected` is the type its result
  /// has in context (`[FontTag.Draft]` around `map { .init(…) }` makes each result a draft).
  func evaluateStatementList(_ items: CodeBlockItemListSyntax, expected: SwiftType? = nil) throws -> [Value] {
    var values: [Value] = []
    locals.append([:])
    defer { locals.removeLast() }
    let single = items.count == 1
    for item in items.array {
      switch item.item {
      case .expr(let expr):
        values.append(try evaluate(expr, expected: single ? expected : nil))
      case .stmt(let stmt):
        if let returnStmt = stmt.as(ReturnStmtSyntax.self) {
          values.append(try returnStmt.expression.map { try evaluate($0, expected: expected) } ?? .null)
          return values
        }
        if let loop = stmt.as(ForStmtSyntax.self) {
          values += try evaluateBuilderFor(loop)
          continue
        }
        if let exprStmt = stmt.as(ExpressionStmtSyntax.self) {
          if let switchExpr = exprStmt.expression.as(SwitchExprSyntax.self) {
            values += try evaluateSwitch(switchExpr)
          } else if let conditional = exprStmt.expression.as(IfExprSyntax.self) {
            values += try evaluateBuilderIf(conditional)
          } else {
            values.append(try evaluate(exprStmt.expression))
          }
          continue
        }
        throw source.diagnostic(
          "not supported in Quarry yet: '\(kindName(stmt))' inside a closure",
          at: stmt)
      case .decl(let decl):
        guard let variable = decl.as(VariableDeclSyntax.self) else {
          throw source.diagnostic("not supported in Quarry yet: declarations inside a closure", at: decl)
        }
        if let dependency = AppCodeRunner.dependencyKeyPath(of: variable) {
          // `@Dependency(\.date.now) var now`: the moment the query is built, as the app's
          // live dependency gives it; other dependencies have no value in a query.
          if dependency == "date.now" || dependency == "date", let name = variable.bindings.first?.pattern.trimmedDescription {
            // In a scan it is what the app binds then: a Date the app has when it runs.
            locals[locals.count - 1][name] =
              scanning
              ? .runTime(name, type: .date) : currentDate()
          } else if scanning, let binding = variable.bindings.first,
            let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
          {
            // `@Dependency(\.musicEventID) var eventID` in a scanned app: its value then, bound.
            let type = binding.typeAnnotation.map { SwiftEvaluator.swiftType($0.type) }
            locals[locals.count - 1][name] = .runTime(name, type: type)
          }
          continue
        }
        for binding in variable.bindings {
          guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else {
            throw source.diagnostic("a local binding needs a name and a value", at: binding)
          }
          let wrapped = variable.attributes.first?.as(AttributeSyntax.self) != nil
          if scanning, wrapped, let value = binding.initializer?.value {
            // `@Shared(.appStorage("on")) var on = false`: the value stored when the app runs
            // (the initializer is only its default), bound, of the default's type.
            let declared = binding.typeAnnotation.map { SwiftEvaluator.swiftType($0.type) }
            var type = declared
            if type == nil, case .expression(let typed)? = try? evaluate(value) { type = typed.type }
            locals[locals.count - 1][name] = .runTime(name, type: type)
            continue
          }
          guard let value = binding.initializer?.value else {
            // `@Shared(.activeState) var activeState`: state the app holds; in a scan, a value
            // the app binds when it runs.
            guard let wrapper = variable.attributes.first?.as(AttributeSyntax.self)?.attributeName.trimmedDescription else {
              throw source.diagnostic("a local binding needs a name and a value", at: binding)
            }
            guard scanning else {
              throw source.diagnostic("'\(name)' is the app's @\(wrapper) state, which has a value only when the app runs", at: binding)
            }
            let type = binding.typeAnnotation.map { SwiftEvaluator.swiftType($0.type) }
            locals[locals.count - 1][name] = .runTime(name, type: type)
            continue
          }
          locals[locals.count - 1][name] = try evaluate(value)
        }
      }
    }
    return values
  }

  /// A result builder's `if` (`where { if !showCompleted { !$0.isCompleted } }`): the branch the
  /// condition picks, which must be known before the query runs (a Swift `Bool`, not a column).
  /// No branch taken contributes nothing (no `WHERE`).
  func evaluateBuilderIf(_ conditional: IfExprSyntax) throws -> [Value] {
    guard let (branch, bindings) = try builderBranchBinding(conditional) else { return [] }
    return try withLocals(bindings) { try evaluateStatementList(branch) }
  }

  /// The statements of the branch a builder `if` takes (nil: none), its condition known before
  /// the query runs.
  func builderBranch(_ conditional: IfExprSyntax) throws -> CodeBlockItemListSyntax? {
    try builderBranchBinding(conditional)?.0
  }

  /// The branch taken and the names its conditions bind: `if let monthsAgo { … }` binds
  /// `monthsAgo` when it is not nil; `if a, b` needs both.
  func builderBranchBinding(_ conditional: IfExprSyntax) throws -> (CodeBlockItemListSyntax, [String: Value])? {
    if let bindings = try conditionsHold(conditional.conditions) { return (conditional.body.statements, bindings) }
    switch conditional.elseBody {
    case .ifExpr(let next): return try builderBranchBinding(next)
    case .codeBlock(let block): return (block.statements, [:])
    case nil: return nil
    }
  }

  /// The names an `if`'s or a `guard`'s conditions bind when they all hold (`if let monthsAgo`,
  /// `if case .some(let k) = limit`), or nil when one does not; each must be known before the
  /// query runs (a run-time one is the variant's choice).
  func conditionsHold(_ conditions: ConditionElementListSyntax) throws -> [String: Value]? {
    var bindings: [String: Value] = [:]
    var taken = true
    for element in conditions where taken {
      switch element.condition {
      case .expression(let condition):
        let value = try withLocals(bindings) {
          try typedExpression(try evaluate(condition, expected: .bool), expected: .bool, at: condition)
        }
        if Self.runTimeName(in: value.expression) != nil {
          // `if !showCompleted { … }` in a scan: which branch runs is up to the app; each
          // choice is a variant of the query (`compile(_ site:)` asks for both).
          taken = try runTimeCondition(condition)
          continue
        }
        guard let holds = Self.constantBool(value.expression) else {
          throw source.diagnostic(
            "an 'if' in a query closure needs a condition known before the query runs (a Swift Bool); for a condition on columns use a predicate or Case",
            at: condition)
        }
        taken = holds
      case .optionalBinding(let binding):
        guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else {
          throw source.diagnostic("not supported in Quarry yet: this pattern in 'if let'", at: binding.pattern)
        }
        let value = try withLocals(bindings) {
          try binding.initializer.map { try evaluate($0.value) }
            ?? evaluate(ExprSyntax(DeclReferenceExprSyntax(baseName: .identifier(name))))
        }
        if case .expression(var typed) = value, Self.runTimeName(in: typed.expression) != nil {
          let key = binding.initializer.map { text(of: $0.value) } ?? name
          let choice = runTimeChoice(key, alternatives: ["not nil", "nil"])
          typed.type = typed.type?.wrapped
          if choice == 0 { bindings[name] = .expression(typed) } else { taken = false }
          continue
        }
        switch value {
        case .null: taken = false
        case .expression(let typed) where typed.expression.isConstant:
          if case .raw("NULL") = typed.expression.node { taken = false } else { bindings[name] = value }
        case .expression:
          throw source.diagnostic(
            "'if let' in a query closure unwraps a Swift optional known before the query runs; for a column that may be NULL use ?? or .isNot(nil)",
            at: binding)
        default:
          bindings[name] = value
        }
      case .matchingPattern(let match):
        // `if case .some(let k) = limit`, `if case 1...5 = n`: Swift's pattern matching.
        let subject = try withLocals(bindings) { try evaluate(match.initializer.value) }
        guard let swift = swiftValue(subject) else {
          throw source.diagnostic(
            "'if case' in a query closure matches a Swift value known before the query runs; for a column use a predicate or Case",
            at: match.initializer.value)
        }
        let names = withLocals(bindings) { swiftValues(namedIn: [Syntax(match.pattern)]) }
        let bound: [String: SwiftEvaluator.Variable]?
        do {
          bound = try SwiftEvaluator(source: source, catalog: catalog, budget: budget).bindings(
            of: match.pattern, matching: swift, names: names)
        } catch {
          throw Diagnostic(computedBeforeTheQuery: error)
        }
        guard let bound else {
          taken = false
          continue
        }
        for (name, variable) in bound { bindings[name] = try heldValue(variable.value, type: variable.type, at: match) }
      default:
        throw source.diagnostic("not supported in Quarry yet: this condition in a query closure", at: element)
      }
    }
    return taken ? bindings : nil
  }

  /// A result builder's `for` over a Swift array (`for term in terms { $0.title.contains(term) }`):
  /// the body once per element, each giving its own condition.
  func evaluateBuilderFor(_ loop: ForStmtSyntax) throws -> [Value] {
    guard loop.whereClause == nil, loop.tryKeyword == nil, loop.awaitKeyword == nil,
      let name = loop.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
    else {
      throw source.diagnostic("not supported in Quarry yet: this kind of 'for' loop; write 'for name in array { … }'", at: loop.pattern)
    }
    var sequence = try evaluate(loop.sequence)
    if case .expression(let typed) = sequence, let list = Self.runTimeName(in: typed.expression) {
      // A scan: one condition per element of a list the app has when it runs; the variants
      // show it empty and with one element (each further element repeats that condition).
      let count = runTimeChoice(text(of: loop.sequence), alternatives: ["empty", "one element"])
      sequence = .array(count == 0 ? [] : [.runTime(list + "[…]")])
    }
    guard case .array(let elements) = sequence else {
      throw source.diagnostic("a 'for' in a query closure loops over an array known before the query runs", at: loop.sequence)
    }
    var values: [Value] = []
    for element in elements {
      values += try withLocals([name: element]) { try evaluateStatementList(loop.body.statements) }
    }
    return values
  }

  /// The value of a condition made only of Swift `Bool`s (`true`, `!flag`, `a && b`).
  static func constantBool(_ expression: Expression) -> Bool? {
    switch expression.node {
    case .value(.integer(let value)): return value != 0
    case .unary(op: .not, let operand): return constantBool(operand).map { !$0 }
    case .binary(let lhs, .and, let rhs):
      guard let left = constantBool(lhs), let right = constantBool(rhs) else { return nil }
      return left && right
    case .binary(let lhs, .or, let rhs):
      guard let left = constantBool(lhs), let right = constantBool(rhs) else { return nil }
      return left || right
    default: return nil
    }
  }

  // MARK: Closures

  /// Calls a closure argument with values for its parameters (`$0`, `$1`, or named).
  func invoke(_ closure: ClosureExprSyntax, with arguments: [Value], expected: SwiftType? = nil) throws -> Value {
    try invokeAll(closure, with: arguments, expected: expected).last ?? .null
  }

  func invokeAll(_ closure: ClosureExprSyntax, with arguments: [Value], expected: SwiftType? = nil) throws -> [Value] {
    try checkArity(of: closure, tables: arguments)
    var bindings: [String: Value] = [:]
    guard let parameterClause = closure.signature?.parameterClause else {
      for (index, argument) in arguments.enumerated() { bindings["$\(index)"] = argument }
      return try withLocals(bindings) { try evaluateStatementList(closure.statements, expected: expected) }
    }
    let names: [String]
    switch parameterClause {
    case .simpleInput(let list): names = list.map(\.name.text)
    case .parameterClause(let clause): names = clause.parameters.map { ($0.secondName ?? $0.firstName).text }
    }
    // `{ r in … $0 … }` is not Swift: `$0` is not the outer closure's row. As swiftc says it,
    // naming the parameter in `$N`'s place when there is one.
    let uses = AnonymousParameterUses(viewMode: .sourceAccurate)
    uses.walk(closure.statements)
    if let dollar = uses.first {
      let index = Int(dollar.text.dropFirst()) ?? 0
      let hint = index < names.count && names[index] != "_" ? "; did you mean '\(names[index])'?" : ""
      throw source.diagnostic("anonymous closure arguments cannot be used inside a closure that has explicit arguments" + hint, at: dollar)
    }
    if names.count > arguments.count {
      throw source.diagnostic(
        "this closure takes \(names.count) parameters, but the query has \(arguments.count) table\(arguments.count == 1 ? "" : "s")",
        at: parameterClause)
    }
    for (index, name) in names.enumerated() where name != "_" {
      bindings[name] = arguments[index]
    }
    return try withLocals(bindings) { try evaluateStatementList(closure.statements, expected: expected) }
  }

  // MARK: Conversions

  /// A date value meant for a column stored another way (`Date.UnixTimeRepresentation`,
  /// `JulianDayRepresentation`) takes that column's form, as the app's binding would: whole
  /// seconds, a Julian day; `Date()` becomes `unixepoch('now')` / `julianday('now')`.
  ///
  /// ```swift
  /// Event.where { $0.startsAt < Date(timeIntervalSince1970: 100) }  // startsAt: unix time
  /// // … WHERE (("events"."startsAt") < (100))
  /// ```
  func storedDate(_ expression: TypedExpression, as expected: SwiftType?) -> TypedExpression {
    guard let expected, expected.isDate, let representation = expected.representation,
      expressionMethods.dateStorage(expected) != .iso8601, let type = expression.type, type.isDate,
      expressionMethods.dateStorage(type) == .iso8601
    else { return expression }
    switch expression.expression.node {
    case .value(.text(let text)):
      guard let seconds = DateFormatting.seconds(fromISO8601: text),
        let stored = DateFormatting.stored(secondsSince1970: seconds, representation: representation)
      else { return expression }
      return TypedExpression(.value(stored), type: expected.wrapped)
    case .function("datetime", let arguments) where arguments.first == .literal("now"):
      return expressionMethods.now(expected)
    default:
      return expression
    }
  }

  /// A UUID value meant for a column stored another way takes that column's form:
  /// `UUID.UppercasedRepresentation` upper-case text, `UUID.BytesRepresentation` 16 bytes.
  ///
  /// ```swift
  /// Item.find(UUID(1))  // id: UUID.UppercasedRepresentation
  /// // … WHERE ("items"."id") IN (('00000000-0000-0000-0000-000000000001'))  → upper case
  /// ```
  func storedUUID(_ expression: TypedExpression, as expected: SwiftType?) -> TypedExpression {
    guard let representation = expected?.representation, representation.contains("UUID"),
      case .value(.text(let text)) = expression.expression.node, text.count == 36
    else { return expression }
    if representation.contains("Uppercased") {
      return TypedExpression(.value(.text(text.uppercased())), type: expected?.wrapped)
    }
    if representation.contains("Bytes") {
      var bytes: [UInt8] = []
      var pending: UInt8?
      for character in text where character != "-" {
        guard let digit = character.hexDigitValue else { return expression }
        if let high = pending {
          bytes.append(high << 4 | UInt8(digit))
          pending = nil
        } else {
          pending = UInt8(digit)
        }
      }
      guard bytes.count == 16 else { return expression }
      return TypedExpression(.value(.blob(bytes)), type: expected?.wrapped)
    }
    return expression
  }

  /// JSON text meant for a JSONB-stored column is converted on the way in: `jsonb('[…]')`.
  func storedJSONB(_ expression: TypedExpression, as expected: SwiftType?) -> TypedExpression {
    guard let expected, expected.representation?.contains("JSONB") == true, case .value(.text) = expression.expression.node
    else { return expression }
    return TypedExpression(.function("jsonb", [expression.expression]), type: expected)
  }

  func typedExpression(_ value: Value, expected: SwiftType? = nil, at node: some SyntaxProtocol) throws -> TypedExpression {
    switch value {
    case .expression(let expression):
      // Only a column with a storage representation changes a value's form.
      guard expected?.representation != nil else { return expression }
      return storedJSONB(storedUUID(storedDate(expression, as: expected), as: expected), as: expected)
    case .null: return TypedExpression(.null, type: expected?.optional)
    case .query(let query):
      if let expected, expected.representation?.contains("JSON") == true, let json = expressionMethods.jsonObject(query) {
        // `Address(city: "Oslo")` for a JSON-stored column: its JSON text, as the app encodes it.
        return storedJSONB(TypedExpression(.value(.text(json)), type: expected), as: expected)
      }
      return TypedExpression(Expression(.subquery(.select(query.select))), type: query.resultTypes.first ?? nil)
    case .table(let table):
      let query = try baseQuery(table)
      return TypedExpression(Expression(.subquery(.select(query.select))), type: nil)
    case .write(let write):
      return TypedExpression(Expression(.subquery(write.statement)), type: write.returningTypes.first ?? nil)
    case .caseBuilder(let expression, let type, _):
      return TypedExpression(Expression(.caseWhen(expression)), type: type)
    case .statement(let statement, let types):
      return TypedExpression(Expression(.subquery(statement)), type: types.first ?? nil)
    case .group(let table, let path):
      let columns = rowMethods.groupColumns(table, path)
      if columns.count == 1 { return columns[0] }
      return TypedExpression(Expression(.row(columns.map(\.expression))), type: nil)
    case .array where expected?.representation?.contains("JSON") == true || expected?.name.hasPrefix("[") == true:
      guard let swift = swiftValue(value) else {
        // `[tag.title]` in a scan: an array the app builds when it runs, bound as one value.
        if scanning { return TypedExpression(.value(.parameter(text(of: node))), type: expected) }
        throw source.diagnostic("a JSON array column takes values Swift has before the query runs", at: node)
      }
      return storedJSONB(TypedExpression(.value(.text(try encodedJSON(swift, at: node))), type: expected), as: expected)
    case .implicitMember(let name):
      if let expected, let model = catalog.enums[expected.name] {
        if case .expression(let e) = try implicitMember(name, expected: expected, at: node) {
          _ = model
          return e
        }
      }
      if let expected, expected.isDate, name == "now" {
        return expressionMethods.now(expected)
      }
      throw source.diagnostic("cannot tell what '.\(name)' refers to here; spell out its type", at: node)
    case .keyPath(let names):
      throw source.diagnostic(
        "a key path (\\.\(names.joined(separator: "."))) cannot be used as a value here", at: node)
    default:
      throw source.diagnostic("\(describe(value)) cannot be used as an SQL value here", at: node)
    }
  }

  /// A predicate for `WHERE`/`HAVING`/`ON`; nil for a `nil` predicate (no condition).
  func predicate(_ value: Value, at node: some SyntaxProtocol) throws -> Expression? {
    switch value {
    case .null: return nil
    case .expression(let expression):
      if let type = expression.type, !type.isBool, type.name != "Any" {
        if case .value = expression.expression.node {
        } else {
          throw source.diagnostic(
            "a condition must be a Bool expression, but this is \(type); compare it with .eq(…) or similar",
            at: node)
        }
      }
      return expression.expression
    default:
      return try typedExpression(value, expected: .bool, at: node).expression
    }
  }
}
