import QueryBuilder
import SwiftSyntax

/// Where a statement of pasted code stands, which decides whether a query written there runs.
///
/// ```swift
/// Reminder.delete()                                    // .prompt: runs
/// try database.write { db in Reminder.delete() }       // .app: built, never executed; a note says so
/// try database.write { db in try Reminder.delete().execute(db) }  // .app: runs
/// ```
enum CodeContext {
  /// Typed at the prompt or at the top of a script: a query written there runs.
  case prompt
  /// Inside the app's own code (a `database.write` block, a function body, a migration): only
  /// what the code executes (`.execute(db)`, `.fetchAll(db)`, …) runs; the plumbing around it
  /// (loggers, configuration, `migrator.migrate`) is skipped with a note.
  case app
}

/// Runs pasted app code statement by statement: each top-level item, the blocks app code wraps
/// statements in, `#if` clauses, loops over known arrays, functions that are called, and the
/// migrations a set-up function registers.
extension AppCodeRunner {
  /// One item: a declaration, a statement, or a block of app code whose statements count as
  /// items of their own.
  func compileItem(
    _ item: CodeBlockItemSyntax, into items: inout [CompiledItem], wholeInput: String?, typesRead: Bool,
    context: CodeContext = .prompt
  ) throws {
    switch item.item {
    case .decl(let decl):
      try compileDeclaration(decl, item: item, into: &items, typesRead: typesRead, context: context)
    case .expr(let expr):
      try compileExpressionItem(expr, item: item, into: &items, wholeInput: wholeInput, context: context)
    case .stmt(let stmt):
      try compileStatement(stmt, into: &items, typesRead: typesRead, context: context)
    }
  }

  /// Every item of a block, in order, in the app's context.
  /// Returns whether the block left early (a `return`, or a `guard` whose condition fails).
  @discardableResult
  func compileBlock(_ statements: CodeBlockItemListSyntax, into items: inout [CompiledItem], typesRead: Bool) throws -> Bool {
    deferFrames.append((statements, []))
    var left = false
    do {
      for inner in statements {
        try compileItem(inner, into: &items, wholeInput: nil, typesRead: typesRead, context: .app)
      }
    } catch is ReturnedInApp {
      left = true
    } catch is LoopLeftInApp {
      // (`break`/`continue` of a loop Quarry does not go through: the rest of the block is left.)
      left = true
    } catch {
      deferFrames.removeLast()
      throw error
    }
    // The block's `defer` bodies, last first, as it ends.
    let frame = deferFrames.removeLast()
    for body in frame.bodies.reversed() {
      for inner in body.statements {
        try compileItem(inner, into: &items, wholeInput: nil, typesRead: typesRead, context: .app)
      }
    }
    return left
  }

  // MARK: Declarations

  private func compileDeclaration(
    _ decl: DeclSyntax, item: CodeBlockItemSyntax, into items: inout [CompiledItem], typesRead: Bool, context: CodeContext
  ) throws {
    if let conditional = decl.as(IfConfigDeclSyntax.self) {
      // `#if DEBUG … #else … #endif`: the clause a debug build of the app compiles.
      guard let clause = Self.activeClause(of: conditional) else { return }
      switch clause.elements {
      case .statements(let statements)?:
        for inner in statements {
          try compileItem(inner, into: &items, wholeInput: nil, typesRead: false, context: context)
        }
      default:
        skip(conditional)
      }
      return
    }
    if decl.is(ProtocolDeclSyntax.self) || decl.is(ActorDeclSyntax.self) && Self.appTypeMembers(of: decl) == nil {
      // `protocol CaseStudy { … }`: app code's own abstractions.
      skip(decl, as: "\(kindName(decl).replacing(" declaration", with: "")) \(decl.asProtocol(NamedDeclSyntax.self)?.name.text ?? "")")
      return
    }
    if let macro = decl.as(MacroExpansionDeclSyntax.self), macro.macroName.text != "sql" {
      // `#Preview { … }`: SwiftUI's, nothing for the database.
      skip(macro, as: "#\(macro.macroName.text)")
      return
    }
    if let variable = decl.as(VariableDeclSyntax.self) {
      try compileVariable(variable, item: item, into: &items, context: context)
      return
    }
    if let members = Self.appTypeMembers(of: decl) {
      try compileAppType(decl, members: members, into: &items)
      return
    }
    if let function = decl.as(FunctionDeclSyntax.self) {
      try declareFunction(function, into: &items)
      return
    }
    if let ext = decl.as(ExtensionDeclSyntax.self), !isModelExtension(ext) {
      // `extension DependencyValues { … }`, `extension Color { struct HexRepresentation … }`,
      // `extension TagsView { … }`: app code, not a model. Its functions can be called by name;
      // its views and fetch requests are read like top-level ones.
      var ran = declareSwiftExtension(ext)
      for member in ext.memberBlock.activeMembers {
        if let function = member.decl.as(FunctionDeclSyntax.self) {
          try declareFunction(function, into: &items)
        } else if let variable = member.decl.as(VariableDeclSyntax.self), let binding = variable.bindings.first,
          let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
          let accessor = binding.accessorBlock, Self.registersMigrations(accessor)
        {
          // `static var appDatabase: Self { var migrator = …; migrator.registerMigration … }`:
          // a set-up written as a computed property runs like a set-up function.
          compiler.catalog.functions[name] = Scope(
            body: AnySyntaxBox(syntax: Syntax(accessor), source: compiler.source), parameters: [], ownerType: name)
          if !pendingSetUp.contains(name), !functionsRun.contains(name) { pendingSetUp.append(name) }
          ran = true
        } else if let members = Self.appTypeMembers(of: member.decl) {
          try compileAppType(member.decl, members: members, into: &items)
          ran = true
        }
      }
      if !ran { skip(ext, as: "extension \(ext.extendedType.trimmedDescription)") }
      return
    }
    if !typesRead {
      try DeclarationReader(
        catalog: compiler.catalog, source: compiler.source, warn: { [unowned self] message, node in try compiler.warn(message, at: node) }
      ).read(decl)
    }
    items.append(.declaration(name: compiler.declarationName(decl)))
  }

  /// `extension TimeInterval { static func days(_ n: Double) -> Self { … } }`: members of a
  /// standard type, run by the Swift evaluator wherever the input (or a later one) uses them.
  /// True when the extension declared any.
  func declareSwiftExtension(_ ext: ExtensionDeclSyntax) -> Bool {
    let members = SwiftExtensionMember.members(of: ext, source: compiler.source)
    for member in members {
      compiler.catalog.addSwiftExtension(member)
    }
    return !members.isEmpty
  }

  /// Macros of app code with nothing for the database.
  static let appMacros: Set<String> = ["Preview", "Playground", "warning", "error", "fileID", "function"]

  /// Types of Apple's and Point-Free's frameworks that pasted app code uses around its queries.
  static let frameworkTypes: Set<String> = [
    "ValueObservation", "IndexSet", "Logger", "Mutex", "Task", "DispatchQueue", "NotificationCenter", "UserDefaults",
    "FileManager", "URL", "Bundle", "ProcessInfo", "Color", "Calendar", "JSONEncoder", "JSONDecoder", "Duration",
    "ContinuousClock", "AsyncStream", "Shared", "SharedReader", "SyncEngine", "CKContainer", "OSSignposter",
    "Observations", "Animation", "Transaction", "AnyCancellable", "Timer",
  ]

  /// Whether an extension adds to the models or the DSL (scopes, computed columns, query and
  /// update helpers, date modifiers), rather than to app types.
  func isModelExtension(_ ext: ExtensionDeclSyntax) -> Bool {
    let written = ext.extendedType.trimmedDescription
    if Self.plumbingExtensions.contains(written) { return false }
    let base = String(written.prefix { $0 != "." && $0 != "<" })
    if compiler.catalog.table(forType: base) != nil || compiler.catalog.enums[base] != nil
      || compiler.catalog.table(forType: written) != nil
    {
      return true
    }
    if typesInInput.contains(base) {
      // A type of this same input: a model unless it is app code (a view, a model class).
      return
        !(compiler.source.tree.statements.contains { item in
          guard case .decl(let decl) = item.item, decl.asProtocol(NamedDeclSyntax.self)?.name.text == base else { return false }
          return Self.appTypeMembers(of: decl) != nil
        })
    }
    return Self.dslExtensionTargets.contains(base)
  }

  /// The library's types that app code extends with helpers Quarry reads.
  static let dslExtensionTargets: Set<String> = [
    "Where", "Select", "SelectOf", "Updates", "Update", "UpdateOf", "Delete", "DeleteOf", "Insert", "DateTimeModifier",
    "QueryExpression", "TableColumn", "SQLQueryExpression", "Table", "PrimaryKeyedTable", "TableColumns",
  ]

  /// Extended types that are app plumbing: their members are not models.
  static let plumbingExtensions: Set<String> = [
    "DependencyValues", "DatabaseWriter", "DatabaseReader", "Database", "SyncEngine", "View", "App", "Logger",
  ]

  private func compileVariable(
    _ variable: VariableDeclSyntax, item: CodeBlockItemSyntax, into items: inout [CompiledItem], context: CodeContext
  ) throws {
    if let wrapper = Self.fetchWrapper(of: variable) {
      items += try fetchItems(variable, wrapper: wrapper)
      return
    }
    if Self.isPropertyWrapperOnly(variable) || Self.isDatabasePlumbing(variable) {
      // `@Dependency(\.defaultDatabase) var database`, `var migrator = DatabaseMigrator()`.
      for binding in variable.bindings {
        if let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text { compiler.catalog.plumbingNames.insert(name) }
      }
      if context == .prompt {
        items.append(.declaration(name: variable.bindings.first?.pattern.trimmedDescription ?? "var"))
      }
      return
    }
    for binding in variable.bindings {
      if let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text {
        if variable.bindingSpecifier.tokenKind == .keyword(.let) { constants.insert(name) } else { constants.remove(name) }
      }
      if let tuple = binding.pattern.as(TuplePatternSyntax.self), let initializer = binding.initializer?.value,
        try bindTuple(tuple, to: initializer, constant: variable.bindingSpecifier.tokenKind == .keyword(.let))
      {
        continue
      }
      if let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text, binding.typeAnnotation == nil,
        variable.bindingSpecifier.tokenKind == .keyword(.let), let closure = binding.initializer?.value.as(ClosureExprSyntax.self)
      {
        // `let next = { (x: Int) -> Int in x + 1 }`: a closure the code calls by name.
        declaredClosures[name] = (closure, compiler.source)
        continue
      }
      guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
        let initializer = binding.initializer?.value
      else {
        if context == .app {
          skip(binding)
          // `let (kind, location) = try fontKind.data()` in a scanned app: values it has when it runs.
          if compiler.scanSources != nil, binding.initializer != nil {
            for token in binding.pattern.tokens(viewMode: .sourceAccurate) {
              if case .identifier(let part) = token.tokenKind { bindRunTime(part, annotation: nil) }
            }
          }
          continue
        }
        throw compiler.source.diagnostic("a top-level binding needs a name and a value", at: binding)
      }
      // `let titles = try database.read { db in …; return try ….fetchAll(db) }`: the block runs,
      // and its last statement is the value.
      var value = initializer
      if let block = Self.transparentBlock(initializer), let last = block.statements.last {
        let leftEarly = try compileBlock(CodeBlockItemListSyntax(block.statements.dropLast()), into: &items, typesRead: false)
        guard !leftEarly, let result = Self.resultExpression(of: last) else { continue }
        value = result
      }
      // `let count = try Int.fetchOne(db, sql: "SELECT count(*) …") ?? 0`: the fetch, then its fallback.
      var fallback: ExprSyntax?
      if let (fetch, otherwise) = Self.nilCoalescing(value), Self.isDatabaseCall(fetch) {
        value = fetch
        fallback = otherwise
      }
      if Self.isDatabaseCall(value) || handsTheDatabase(value) {
        // `let rows = try Reminder.all.fetchAll(db)`: the app runs the fetch right there, and
        // holds its rows.
        let query = try compiler.evaluate(value)
        let statement = try compiler.statement(from: query, input: item.trimmedDescription, at: value)
        if let rows = try fetchedValue(of: query, statement: statement, call: value, before: items) {
          if case .null = rows, let unwrap = Self.unwrapped(value).as(ForceUnwrapExprSyntax.self) {
            throw compiler.source.diagnostic("unwraps nil with '!': the fetch finds no row (the app would crash here)", at: unwrap)
          }
          if case .null = rows, let fallback {
            bind(name, to: try compiler.evaluate(fallback))
          } else {
            bind(name, to: rows)
          }
        } else {
          bind(name, to: query)
          fetchedBindings.insert(name)
        }
        items.append(.statement(statement))
        continue
      }
      if callsAppSwift(value),
        case .success(let computed) = try Self.trapsAreTheApps(
          compiler.computeSwift(
            value, expected: binding.typeAnnotation.map { SwiftEvaluator.swiftType($0.type) }.flatMap(compiler.evaluatorType)))
      {
        // `let total = subtotal(of: prices)`, `let next = step(3)`: a function or closure of the
        // app that is Swift's alone, run.
        bind(name, to: try compiler.heldValue(computed, type: binding.typeAnnotation.map { SwiftEvaluator.swiftType($0.type) }, at: value))
        continue
      }
      if let (call, called) = Self.call(value), let function = compiler.catalog.functions[called], compiler.lookupLocal(called) == nil,
        Self.hasStatements(function), callsAppFunction(call)
      {
        // `let database = try appDatabase()`: the set-up function runs; what it returns is the
        // app's when it runs.
        try runFunction(called, function, call: call, into: &items)
        skippedValues[name] = messageExcerpt(value.trimmedDescription)
        continue
      }
      if context == .app, !Self.nestedDatabaseCalls(in: value).isEmpty {
        // `let page = try Page(rows: ….fetchAll(db))`: the fetches inside run; the value is app state.
        for call in Self.nestedDatabaseCalls(in: value) {
          try compileExpressionItem(call, item: CodeBlockItemSyntax(item: .expr(call)), into: &items, wholeInput: nil, context: .app)
        }
        continue
      }
      do {
        let annotation = value == initializer ? binding.typeAnnotation : nil
        bind(name, to: try compiler.evaluateBinding(value, annotation: annotation))
        compiler.declaredArrayTypes[name] = annotation.map { SwiftEvaluator.swiftType($0.type) }.flatMap {
          $0.arrayElement != nil ? $0 : nil
        }
      } catch let diagnostic as Diagnostic {
        let plumbing = isPlumbing(value, failure: diagnostic, binding: true)
        guard context == .app || plumbing else { throw diagnostic }
        // Swift would trap computing it: the app stops there, whatever reads the name later.
        if diagnostic.message.contains("the app would crash here") { throw diagnostic }
        skip(binding, as: "\(variable.bindingSpecifier.text) \(name)")
        if context == .app, compiler.scanSources != nil, !plumbing, !startsAtQuery(value) {
          // In a scanned app, a value its own code computes is one it has when it runs (bound).
          bindRunTime(name, annotation: binding.typeAnnotation)
        } else {
          skippedValues[name] = messageExcerpt(value.trimmedDescription)
        }
      }
    }
    if context == .prompt {
      items.append(.declaration(name: variable.bindings.first?.pattern.trimmedDescription ?? "let"))
    }
  }

  /// A `return` (or a failed `guard`) in app code: the function or closure it is in ends there.
  struct ReturnedInApp: Error {}

  /// The two sides of `a ?? b`, folded or not.
  static func nilCoalescing(_ expr: ExprSyntax) -> (ExprSyntax, ExprSyntax)? {
    if let infix = expr.as(InfixOperatorExprSyntax.self), infix.operator.as(BinaryOperatorExprSyntax.self)?.operator.text == "??" {
      return (infix.leftOperand, infix.rightOperand)
    }
    if let sequence = expr.as(SequenceExprSyntax.self), sequence.elements.count == 3 {
      let parts = Array(sequence.elements)
      if parts[1].as(BinaryOperatorExprSyntax.self)?.operator.text == "??" { return (parts[0], parts[2]) }
    }
    return nil
  }

  /// Binds `name` to a value the app has only when it runs (a bound parameter), of the
  /// annotated type when there is one.
  private func bindRunTime(_ name: String, annotation: TypeAnnotationSyntax?) {
    let type = annotation.map { SwiftEvaluator.swiftType($0.type) }
    bind(name, to: .runTime(name, type: type))
  }

  /// Whether `expr` starts at a table, `Self`, or a local holding a query or statement: a
  /// query Quarry could not build, not a plain value of the app.
  private func startsAtQuery(_ expr: ExprSyntax) -> Bool {
    guard let root = Self.plumbingRootNode(of: expr)?.baseName.text else { return false }
    if root == "Self" || compiler.catalog.table(forType: root) != nil { return true }
    switch compiler.lookupLocal(root) ?? compiler.catalog.bindings[root] {
    case .table?, .query?, .write?, .statement?: return true
    default: return false
    }
  }

  func bind(_ name: String, to value: Value) {
    skippedValues[name] = nil
    if compiler.locals.isEmpty { compiler.catalog.bindings[name] = value } else { compiler.locals[compiler.locals.count - 1][name] = value }
  }

  /// `Logger(subsystem: …)`, `Mutex<…>(nil)`, `ValueObservation.tracking { … }`: a value of a
  /// type the database knows nothing of. True only when `failure` is about that very name (an
  /// unknown type or function where the expression starts) and the name is no misspelt model
  /// (`Remnder(…)` is still an error with its suggestion).
  private func isPlumbing(_ expr: ExprSyntax, failure: Diagnostic, binding: Bool = false) -> Bool {
    guard let root = Self.plumbingRootNode(of: expr) else { return false }
    let name = root.baseName.text
    let location = compiler.source.lineAndColumn(of: root.positionAfterSkippingLeadingTrivia)
    guard failure.line == location.line, failure.column == location.column else { return false }
    // A framework's type anywhere; in a binding, also a value made by calling a type the
    // database does not know (`let logger = Logger(…)`). `Tag.all` on an empty database stays
    // an error: it is a query of a table that is not there.
    let isInitializer =
      Self.unwrapped(expr).as(FunctionCallExprSyntax.self).map {
        $0.calledExpression.is(DeclReferenceExprSyntax.self) || $0.calledExpression.is(GenericSpecializationExprSyntax.self)
      } ?? false
    if compiler.catalog.plumbingNames.contains(name), compiler.lookupLocal(name) == nil { return true }
    guard
      Self.frameworkTypes.contains(name) || Self.plumbingTypes.contains(name)
        || (binding && isInitializer && name.first?.isUppercase == true)
    else { return false }
    return compiler.lookupLocal(name) == nil && compiler.catalog.table(forType: name) == nil && compiler.catalog.enums[name] == nil
      && compiler.catalog.functions[name] == nil && Vocabulary.methods(named: name, on: .function).isEmpty
      && closestMatch(to: name, in: compiler.catalog.typeNames) == nil
  }

  /// The name a member chain or call starts with: `ValueObservation` in `ValueObservation.tracking { … }`.
  static func plumbingRootNode(of expr: ExprSyntax) -> DeclReferenceExprSyntax? {
    var current = expr
    while true {
      if let member = current.as(MemberAccessExprSyntax.self), let base = member.base {
        current = base
        continue
      }
      if let call = current.as(FunctionCallExprSyntax.self) {
        current = call.calledExpression
        continue
      }
      if let generic = current.as(GenericSpecializationExprSyntax.self) {
        current = generic.expression
        continue
      }
      if let tryExpr = current.as(TryExprSyntax.self) {
        current = tryExpr.expression
        continue
      }
      if let awaitExpr = current.as(AwaitExprSyntax.self) {
        current = awaitExpr.expression
        continue
      }
      break
    }
    return current.as(DeclReferenceExprSyntax.self)
  }

  /// A function declared at the top level or inside app code: callable by name. A set-up
  /// function that registers migrations runs at once, as the app runs it at launch, so the
  /// tables its migrations create exist.
  private func declareFunction(_ function: FunctionDeclSyntax, into items: inout [CompiledItem]) throws {
    guard let body = function.body else {
      throw compiler.source.diagnostic("a function needs a body", at: function.name)
    }
    let name = function.name.declaredName
    declaredFunctions[name] = SwiftEvaluator.DeclaredFunction(declaration: function, source: compiler.source)
    let scope = Scope(
      body: AnySyntaxBox(syntax: Syntax(body), source: compiler.source),
      parameters: function.signature.parameterClause.parameters.map { ($0.secondName ?? $0.firstName).text },
      ownerType: name, parameterTypes: DeclarationReader.parameterTypes(of: function))
    compiler.catalog.functions[name] = scope
    if function.attributes.contains(where: { $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription == "DatabaseFunction" }) {
      try compiler.functionMethods.declareDatabaseFunction(function)
    }
    items.append(.declaration(name: name))
    if scope.parameters.isEmpty, Self.registersMigrations(body), !pendingSetUp.contains(name), !functionsRun.contains(name) {
      pendingSetUp.append(name)
    }
  }

  /// Declares the input's top-level functions (and those of app extensions, and set-ups written
  /// as computed properties) before anything runs, then runs its set-up functions: as the app
  /// launches, its migrations and triggers exist before any view fetches, and a set-up may use a
  /// `@DatabaseFunction` declared further down.
  func declareAheadAndRunSetUp(_ statements: [CodeBlockItemSyntax], into items: inout [CompiledItem], recovering: Bool) throws {
    var ignored: [CompiledItem] = []
    for item in statements {
      guard case .decl(let decl) = item.item else { continue }
      do {
        if let function = decl.as(FunctionDeclSyntax.self), function.body != nil {
          try declareFunction(function, into: &ignored)
        } else if let ext = decl.as(ExtensionDeclSyntax.self), !isModelExtension(ext) {
          _ = declareSwiftExtension(ext)
          for member in ext.memberBlock.activeMembers {
            if let function = member.decl.as(FunctionDeclSyntax.self), function.body != nil {
              try declareFunction(function, into: &ignored)
            } else if let variable = member.decl.as(VariableDeclSyntax.self), let binding = variable.bindings.first,
              let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
              let accessor = binding.accessorBlock, Self.registersMigrations(accessor)
            {
              compiler.catalog.functions[name] = Scope(
                body: AnySyntaxBox(syntax: Syntax(accessor), source: compiler.source), parameters: [], ownerType: name)
              if !pendingSetUp.contains(name) { pendingSetUp.append(name) }
            }
          }
        }
      } catch let diagnostic as Diagnostic where recovering {
        items.append(.failure(diagnostic))
      }
      declareNamespaceSetUp(decl)
    }
    declareCallersOfSetUp()
    try runPendingSetUp(into: &items, recovering: recovering)
  }

  /// `func appDatabase() { …; try migrate(dbQueue) }` where `private func migrate(_ db:
  /// DatabaseQueue)` registers the migrations: the function with no parameters that reaches the
  /// registering one through its calls is the set-up the app runs (handing it its database), and
  /// runs instead of any registering function it calls itself.
  private func declareCallersOfSetUp() {
    let functions = compiler.catalog.functions.filter { !$0.key.contains(".") }
    // A namespace's set-up member (`Schema.migrator`) that a function reaches (`try
    // Schema.migrator.migrate(database)`): that function registers through it.
    let qualified = Set(pendingSetUp.filter { $0.contains(".") })
    func reachesQualified(_ scope: Scope) -> Set<String> {
      var found: Set<String> = []
      for token in scope.body.syntax.tokens(viewMode: .sourceAccurate) {
        guard case .identifier(let member) = token.tokenKind, let access = token.parent?.parent?.as(MemberAccessExprSyntax.self),
          let base = access.base?.as(DeclReferenceExprSyntax.self), qualified.contains(base.baseName.text + "." + member)
        else { continue }
        found.insert(base.baseName.text + "." + member)
      }
      return found
    }
    var registering = Set(functions.filter { Self.registersMigrations($0.value.body.syntax) || !reachesQualified($0.value).isEmpty }.keys)
    // Only a registering function with parameters needs a caller to run it.
    guard registering.contains(where: { functions[$0]?.parameters.isEmpty == false }) else { return }
    var calls: [String: Set<String>] = [:]
    for (name, scope) in functions {
      var called: Set<String> = reachesQualified(scope)
      for token in scope.body.syntax.tokens(viewMode: .sourceAccurate) {
        guard case .identifier(let callee) = token.tokenKind, callee != name, functions[callee] != nil else { continue }
        // `migrate(database)`, or `Self.migrate(database)` of the extension's own static function.
        if token.parent?.parent?.is(FunctionCallExprSyntax.self) == true
          || token.parent?.parent?.parent?.as(FunctionCallExprSyntax.self).flatMap(qualifiedAppFunction) != nil
        {
          called.insert(callee)
        }
      }
      calls[name] = called
    }
    var grew = true
    while grew {
      grew = false
      for (name, called) in calls where !registering.contains(name) && !called.isDisjoint(with: registering) {
        registering.insert(name)
        grew = true
      }
    }
    for (name, scope) in functions.sorted(by: { $0.key < $1.key })
    where Self.callableWithoutArguments(scope) && registering.contains(name) && !Self.registersMigrations(scope.body.syntax) {
      // Only a function nobody else in the set-up calls is where the app starts.
      guard !calls.contains(where: { $0.key != name && registering.contains($0.key) && $0.value.contains(name) }),
        !pendingSetUp.contains(name), !functionsRun.contains(name)
      else { continue }
      let reached = reachable(from: name, calls: calls)
      pendingSetUp.removeAll { reached.contains($0) }
      pendingSetUp.append(name)
    }
  }

  /// Whether a function can be called with no arguments (none declared, or each with a default:
  /// `func routeyDatabase(configuration: Configuration = Configuration())`), as the app's launch
  /// calls its set-up.
  static func callableWithoutArguments(_ scope: Scope) -> Bool {
    if scope.parameters.isEmpty { return true }
    guard let function = scope.body.syntax.parent?.as(FunctionDeclSyntax.self) else { return false }
    return function.signature.parameterClause.parameters.allSatisfy { $0.defaultValue != nil }
  }

  /// The functions `name` calls, directly or through others.
  private func reachable(from name: String, calls: [String: Set<String>]) -> Set<String> {
    var seen: Set<String> = []
    var queue = Array(calls[name] ?? [])
    while let next = queue.popLast() {
      guard seen.insert(next).inserted else { continue }
      queue += calls[next] ?? []
    }
    return seen
  }

  /// A set-up written as a static function of a namespace (`enum AppDatabase { static func
  /// setup() throws -> any DatabaseWriter { …; try migratorSetup(for: database) } }`): one with no
  /// parameters that registers migrations, itself or through a static function of the same type
  /// it calls, runs at launch as a set-up function does.
  private func declareNamespaceSetUp(_ decl: DeclSyntax) {
    guard let named = decl.asProtocol(NamedDeclSyntax.self), let group = decl.asProtocol(DeclGroupSyntax.self),
      !attributeNames(group.attributes).contains(where: { $0 == "Table" || $0 == "Selection" })
    else { return }
    let members = group.memberBlock.activeMembers
    let typeName = named.name.text
    let functions = members.compactMap { $0.decl.as(FunctionDeclSyntax.self) }.filter {
      $0.body != nil && $0.modifiers.contains { $0.name.tokenKind == .keyword(.static) }
    }
    for member in members {
      // `static var migrator: DatabaseMigrator { var migrator = …; migrator.registerMigration … }`:
      // its migrations run at launch, as a set-up function's do.
      guard let variable = member.decl.as(VariableDeclSyntax.self),
        variable.modifiers.contains(where: { $0.name.tokenKind == .keyword(.static) }),
        let binding = variable.bindings.first, let property = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
        let accessor = binding.accessorBlock, Self.registersMigrations(accessor)
      else { continue }
      let name = typeName + "." + property
      guard !pendingSetUp.contains(name), !functionsRun.contains(name) else { continue }
      compiler.catalog.functions[name] = Scope(
        body: AnySyntaxBox(syntax: Syntax(accessor), source: compiler.source), parameters: [], ownerType: typeName)
      pendingSetUp.append(name)
    }
    let registering = Set(functions.filter { $0.body.map(Self.registersMigrations) ?? false }.map(\.name.text))
    guard !registering.isEmpty else { return }
    for function in functions where function.signature.parameterClause.parameters.isEmpty {
      guard let body = function.body else { continue }
      let calls = body.tokens(viewMode: .sourceAccurate).contains { token in
        if case .identifier(let name) = token.tokenKind { return registering.contains(name) }
        return false
      }
      guard registering.contains(function.name.text) || calls else { continue }
      let name = typeName + "." + function.name.text
      guard !pendingSetUp.contains(name), !functionsRun.contains(name) else { continue }
      compiler.catalog.functions[name] = Scope(
        body: AnySyntaxBox(syntax: Syntax(body), source: compiler.source), parameters: [], ownerType: typeName,
        parameterTypes: DeclarationReader.parameterTypes(of: function))
      pendingSetUp.append(name)
    }
  }

  /// Runs the set-up functions the input declared (those that register migrations), as the app
  /// runs them at launch: the tables their migrations create exist.
  func runPendingSetUp(into items: inout [CompiledItem], recovering: Bool) throws {
    let names = pendingSetUp
    pendingSetUp = []
    for name in names where !functionsRun.contains(name) && !functionsCalled.contains(name) {
      guard let scope = compiler.catalog.functions[name] else { continue }
      let before = items.count
      // A namespace's set-up (`AppDatabase.setup`) calls its own type's functions by name.
      let savedType = compiler.enclosingType
      if name.contains(".") { compiler.enclosingType = scope.ownerType }
      defer { compiler.enclosingType = savedType }
      do {
        try runFunction(name, scope, call: nil, into: &items)
      } catch let diagnostic as Diagnostic where recovering {
        items.append(.failure(diagnostic))
      }
      let ran = items[before...].filter { if case .statement = $0 { return true } else { return false } }.count
      items.append(.note("ran \(name)()'s migrations and set-up as the app does at launch (\(ran) statement\(ran == 1 ? "" : "s"))"))
    }
  }

  /// Whether a body registers migrations, itself or through the app's helpers it hands a
  /// migrator (`var migrator = DatabaseMigrator(); SoundFont.migrate(&migrator)`).
  static func registersMigrations(_ body: some SyntaxProtocol) -> Bool {
    body.tokens(viewMode: .sourceAccurate).contains {
      $0.tokenKind == .identifier("registerMigration") || $0.tokenKind == .identifier("DatabaseMigrator")
    }
  }

  /// A table's or namespace's static function the statement calls with the database (or a
  /// migrator) handed to it (`SoundFont.migrate(&migrator)`, `Tag.insert(db, title: "x")`): its
  /// qualified name, its scope and the table it belongs to.
  func handedFunction(_ expr: ExprSyntax) -> (name: String, scope: Scope, call: FunctionCallExprSyntax, table: TableModel?)? {
    guard let handed = handedScope(expr), Self.hasStatements(handed.scope) else { return nil }
    return handed
  }

  /// The static function (of a table or a namespace) a call names and fits, when one of its
  /// parameters is a database handle: what `handedFunction` runs as statements and
  /// `handsTheDatabase` takes a value from.
  private func handedScope(_ expr: ExprSyntax) -> (name: String, scope: Scope, call: FunctionCallExprSyntax, table: TableModel?)? {
    guard let found = staticScope(expr), let function = found.scope.body.syntax.parent?.as(FunctionDeclSyntax.self),
      function.signature.parameterClause.parameters.contains(where: { Self.isDatabaseHandle($0.type.trimmedDescription) })
    else { return nil }
    return found
  }

  /// Whether `call` can call the app's function of its name (one at file scope, or a method of
  /// an app type's extension): a bare call, or a call on a value that is no table or query.
  /// `SoundFont.where { … }.update { … }` calls the library's `update`, whatever app type also
  /// declares an `update()`: Swift looks a method up in its base's type.
  private func callsAppFunction(_ call: FunctionCallExprSyntax) -> Bool {
    !call.calledExpression.is(MemberAccessExprSyntax.self) || !startsAtQuery(ExprSyntax(call))
  }

  /// The static function a call names and fits: `Type.name(…)`, or a bare `name(…)` inside a
  /// static function of that type (`try migratorSetup(for: database)` in `AppDatabase.setup()`).
  private func staticScope(_ expr: ExprSyntax) -> (name: String, scope: Scope, call: FunctionCallExprSyntax, table: TableModel?)? {
    guard let (call, name) = Self.call(expr) else { return nil }
    var typeName: String
    if let base = call.calledExpression.as(MemberAccessExprSyntax.self)?.base {
      typeName = base.trimmedDescription
    } else if call.calledExpression.is(DeclReferenceExprSyntax.self), compiler.lookupLocal(name) == nil, let owner = compiler.enclosingType
    {
      typeName = owner
    } else {
      return nil
    }
    if typeName == "Self", let own = compiler.selfTable?.model.typeName ?? compiler.enclosingType { typeName = own }
    let table = compiler.catalog.table(forType: typeName)
    guard let scope = table?.scopes[name] ?? compiler.catalog.staticFunctions[typeName + "." + name], scope.accepts(Arguments(call)) else {
      return nil
    }
    return (typeName + "." + name, scope, call, table)
  }

  /// A method the app adds to one of GRDB's handles (`extension Database { func createGuestTable()
  /// throws { … } }`), called on a handle the code holds (`try db.createGuestTable()`,
  /// `self.seed()`): the call, the method's name and its body. A local holding an app value is
  /// no handle: its own type's method is meant.
  func handleMethodCall(_ expr: ExprSyntax) -> (FunctionCallExprSyntax, String, Scope)? {
    guard let (call, name) = Self.call(expr), let member = call.calledExpression.as(MemberAccessExprSyntax.self),
      let base = member.base?.as(DeclReferenceExprSyntax.self),
      base.baseName.tokenKind == .keyword(.self) || compiler.lookupLocal(base.baseName.text) == nil,
      let function = compiler.catalog.functions[name], Self.hasStatements(function),
      let declaration = function.body.syntax.parent?.as(FunctionDeclSyntax.self),
      declaration.modifiers.allSatisfy({ $0.name.tokenKind != .keyword(.static) }),
      let owner = Self.extendedType(around: declaration), Self.isDatabaseHandle(owner)
    else { return nil }
    return (call, name, function)
  }

  /// The app's static function a qualified call names, declared in an extension of a type that
  /// is no model (`extension DependencyValues { static func migrate(_ db: any DatabaseWriter) }`):
  /// `DependencyValues.migrate(database)`, or `Self.migrate(database)` inside that extension, as
  /// Swift looks the member up in the type named.
  func qualifiedAppFunction(_ call: FunctionCallExprSyntax) -> (String, Scope)? {
    guard let member = call.calledExpression.as(MemberAccessExprSyntax.self),
      let base = member.base?.as(DeclReferenceExprSyntax.self)
    else { return nil }
    let name = member.declName.baseName.text
    guard let function = compiler.catalog.functions[name], let declaration = function.body.syntax.parent?.as(FunctionDeclSyntax.self),
      declaration.modifiers.contains(where: { $0.name.tokenKind == .keyword(.static) }),
      let owner = Self.extendedType(around: declaration)
    else { return nil }
    let written = base.baseName.tokenKind == .keyword(.Self) ? Self.extendedType(around: call) : base.baseName.text
    guard written == owner, compiler.catalog.table(forType: owner) == nil else { return nil }
    return (name, function)
  }

  /// The type an extension around a declaration extends (`Database` for a method of
  /// `public extension Database { … }`), nil outside an extension.
  static func extendedType(around declaration: some SyntaxProtocol) -> String? {
    var node = declaration.parent
    while let current = node {
      if let ext = current.as(ExtensionDeclSyntax.self) { return ext.extendedType.trimmedDescription }
      if current.is(StructDeclSyntax.self) || current.is(ClassDeclSyntax.self) || current.is(EnumDeclSyntax.self) { return nil }
      node = current.parent
    }
    return nil
  }

  /// Whether a function's body is app code (statements), not one query expression to return.
  static func hasStatements(_ function: Scope) -> Bool {
    guard let statements = bodyStatements(function.body.syntax) else { return false }
    if statements.count != 1 { return true }
    guard let only = statements.first else { return false }
    switch only.item {
    case .expr(let expr): return transparentBlock(expr) != nil || isDatabaseCall(expr)
    case .stmt(let stmt):
      if let returned = stmt.as(ReturnStmtSyntax.self)?.expression { return transparentBlock(returned) != nil }
      return true
    case .decl: return true
    }
  }

  /// Runs a function's statements as app code, with its parameters bound to the call's values.
  /// One that already ran (a set-up function, at its declaration) is not run again.
  func runFunction(_ name: String, _ function: Scope, call: FunctionCallExprSyntax?, into items: inout [CompiledItem]) throws {
    if call != nil, functionsRun.contains(name) {
      items.append(.note("\(name)() already ran as the app's set-up when it was read; not run again"))
      return
    }
    if call == nil { functionsRun.insert(name) } else { functionsCalled.insert(name) }
    var values: [Value] = []
    // GRDB's handles (`_ db: Database`, `_ migrator: inout DatabaseMigrator`) are the app's
    // plumbing: passed on, never values of a query.
    let declaredTypes =
      function.body.syntax.parent?.as(FunctionDeclSyntax.self)?.signature.parameterClause.parameters.map(\.type.trimmedDescription) ?? []
    var handles: Set<String> = []
    if let call {
      values = try Arguments(call).list.enumerated().map { index, argument in
        if index < declaredTypes.count, index < function.parameters.count, Self.isDatabaseHandle(declaredTypes[index]) {
          handles.insert(function.parameters[index])
          return .null
        }
        return try compiler.evaluate(argument.expression)
      }
      guard values.count == function.parameters.count else {
        throw compiler.source.diagnostic(
          "'\(name)' takes \(function.parameters.count) argument\(function.parameters.count == 1 ? "" : "s"), not \(values.count)",
          at: call)
      }
    }
    guard let statements = Self.bodyStatements(function.body.syntax) else { return }
    // A scanned app's set-up sees the `private` models of its own file.
    let savedFile = compiler.currentFile
    if compiler.scanSources != nil { compiler.currentFile = compiler.fileIndex(of: function.body.syntax.position) }
    defer { compiler.currentFile = savedFile }
    var bindings = compiler.parameterBindings(of: function, values).filter { !handles.contains($0.key) }
    if call == nil {
      // Run as the app's launch runs it (`try routeyDatabase()`): each defaulted parameter holds
      // the value the app makes when it runs.
      for parameter in function.parameters where bindings[parameter] == nil { bindings[parameter] = .runTime(parameter) }
    }
    try compiler.withSource(function.body) {
      try compiler.withLocals(bindings) {
        try compileBlock(statements, into: &items, typesRead: false)
      }
    }
  }

  /// Whether a value is a call of a table's static function that is handed the database
  /// (`try Reminder.titled(database, prefix: "c")`, StructuredQueriesSQLite's style): the
  /// function runs its statement there, so the value is its rows.
  func handsTheDatabase(_ value: ExprSyntax) -> Bool { handedScope(value) != nil }

  /// Whether a parameter's type is one of GRDB's database handles (`Database`, `inout
  /// DatabaseMigrator`, `any DatabaseWriter`).
  static func isDatabaseHandle(_ type: String) -> Bool {
    var text = type
    for prefix in ["inout ", "any ", "some ", "borrowing ", "consuming "] where text.hasPrefix(prefix) { text.removeFirst(prefix.count) }
    // Spelled with its module: `StructuredQueriesSQLite.Database`, `GRDB.Database`.
    for module in ["GRDB.", "SQLiteData.", "StructuredQueriesSQLite."] where text.hasPrefix(module) { text.removeFirst(module.count) }
    return ["Database", "DatabaseWriter", "DatabaseReader", "DatabaseQueue", "DatabasePool", "DatabaseMigrator"].contains(text)
  }

  /// The statements of a function's body or a computed property's getter.
  static func bodyStatements(_ syntax: Syntax) -> CodeBlockItemListSyntax? {
    if let block = syntax.as(CodeBlockSyntax.self) { return block.statements }
    guard let accessor = syntax.as(AccessorBlockSyntax.self) else { return nil }
    switch accessor.accessors {
    case .getter(let statements): return statements
    case .accessors(let list): return list.first { $0.accessorSpecifier.tokenKind == .keyword(.get) }?.body?.statements
    }
  }

  /// The database calls inside an expression of app code (`try Value(facts: Fact.all.fetchAll(db),
  /// count: Fact.fetchCount(db))`), in the order the app makes them; not inside closures, which
  /// run later or not at all.
  static func nestedDatabaseCalls(in expr: ExprSyntax) -> [ExprSyntax] {
    let finder = DatabaseCallFinder(viewMode: .sourceAccurate)
    finder.walk(expr)
    return finder.found
  }

  // MARK: Expressions

  /// Runs `body` as one transaction (a migration or a write block): its statements are marked,
  /// and one that does not compile fails the unit (the session undoes what it ran).
  private func runUnit(_ unit: TransactionUnit, into items: inout [CompiledItem], _ body: (inout [CompiledItem]) throws -> Void) throws {
    switch unit.kind {
    case .migration(let name): compiler.features.insert(.migration(name))
    case .write: compiler.features.insert(.writeBlock)
    }
    items.append(.unitStart(unit))
    do {
      try body(&items)
    } catch let diagnostic as Diagnostic where recovering {
      items.append(.failure(diagnostic))
    } catch let runTime as RunTimeValue where recovering {
      // `#sql("CREATE TABLE … \(raw: columnsSQL)")` with a value only the running app has: this
      // unit cannot be followed; the others still are.
      items.append(
        .failure(
          Diagnostic(
            "Quarry cannot run \(unit.description): it uses '\(runTime.name)', a value the app computes when it runs"
              + (unit.creates.isEmpty
                ? ""
                : "; not built: \(unit.creates.map { "\"\($0)\"" }.joined(separator: ", ")), so queries of \(unit.creates.count == 1 ? "it" : "them") are not run"),
            line: unit.line, column: unit.column)))
    } catch let thrown as ThrownInApp {
      // GRDB rolls the transaction back, then the error goes on to the caller.
      compiler.features.insert(.thrownInTransaction)
      items.append(.unitThrew(thrown.diagnostic))
      items.append(.unitEnd)
      throw thrown
    }
    items.append(.unitEnd)
  }

  /// `registerMigration(name, migrate: f)` with a function of the input (named, or held by a
  /// loop over a list of them): the function, or nil for any other call. A `migrate:` the
  /// input does not declare is an error naming it.
  private func migrationFunction(_ expr: ExprSyntax) throws -> (String, Scope)? {
    guard let (call, name) = Self.call(expr), name == "registerMigration", call.trailingClosure == nil,
      let migrate = call.arguments.first(where: { $0.label?.text == "migrate" })?.expression
    else { return nil }
    if case .function(let function) = try compiler.evaluate(migrate), let scope = compiler.catalog.functions[function] {
      return (function, scope)
    }
    throw compiler.source.diagnostic(
      "the migration's body '\(migrate.trimmedDescription)' is no function the app declares, so Quarry cannot run it", at: migrate)
  }

  private func compileExpressionItem(
    _ expr: ExprSyntax, item: CodeBlockItemSyntax, into items: inout [CompiledItem], wholeInput: String?, context: CodeContext
  ) throws {
    // `SoundFont.migrate(&migrator)`, `try Tag.insert(db, title: "x")`: the app's function runs
    // its statements, as app code, with `Self` its table.
    if let handed = handedFunction(expr) {
      let savedType = compiler.enclosingType
      compiler.enclosingType = handed.scope.ownerType
      defer { compiler.enclosingType = savedType }
      try compiler.withContext(selfTable: handed.table.map { TableInstance(model: $0) }, bareColumns: nil) {
        try runFunction(handed.name, handed.scope, call: handed.call, into: &items)
      }
      return
    }
    if let block = Self.transparentBlock(expr) {
      guard let unit = transactionUnit(expr) else {
        try compileBlock(block.statements, into: &items, typesRead: false)
        return
      }
      try runUnit(unit, into: &items) { items in try compileBlock(block.statements, into: &items, typesRead: false) }
      return
    }
    if let (name, function) = try migrationFunction(expr), let unit = transactionUnit(expr) {
      // `migrator.registerMigration(name, migrate: migrate_001)`: the function named is the
      // migration's body, handed the database.
      try runUnit(unit, into: &items) { items in try runFunction(name, function, call: nil, into: &items) }
      return
    }
    if let trap = try trap(expr) { throw trap }
    // Swift's alone (`bump(&item)` of the app's own function, a `switch`, a record's new value):
    // the evaluator runs it whole; what reaches a query or the database goes on below.
    if Self.mayBeSwiftsAlone(Self.unwrapped(expr), declared: declaredFunctions) || callsAppSwift(expr, nested: true)
      || changesRecords(expr),
      try runAsSwift(expr)
    {
      return
    }
    if let (call, name) = Self.call(expr), call.calledExpression.is(DeclReferenceExprSyntax.self), compiler.lookupLocal(name) == nil,
      let function = compiler.catalog.functions[name], Self.hasStatements(function)
    {
      try runFunction(name, function, call: call, into: &items)
      return
    }
    if let (call, method) = Self.call(expr), method == "migrate",
      let access = call.calledExpression.as(MemberAccessExprSyntax.self)?.base?.as(MemberAccessExprSyntax.self),
      let owner = access.base?.as(DeclReferenceExprSyntax.self)?.baseName.text,
      let function = compiler.catalog.functions[owner + "." + access.declName.baseName.text], Self.registersMigrations(function.body.syntax)
    {
      // `try Schema.migrator.migrate(database)`: the namespace's migrator registers (and so runs)
      // its migrations, once.
      let name = owner + "." + access.declName.baseName.text
      if !functionsRun.contains(name) {
        let savedType = compiler.enclosingType
        compiler.enclosingType = function.ownerType
        defer { compiler.enclosingType = savedType }
        try runFunction(name, function, call: nil, into: &items)
      }
      return
    }
    if let (call, _) = Self.call(expr), let (name, function) = qualifiedAppFunction(call), Self.hasStatements(function) {
      // `try Self.migrate(database)` in `extension DependencyValues`, `try DependencyValues.migrate(db)`.
      try runFunction(name, function, call: call, into: &items)
      return
    }
    if let (call, name, function) = handleMethodCall(expr) {
      // `try db.createGuestTable()` with the app's `extension Database { func createGuestTable() … }`:
      // the method runs on that handle, as Swift dispatches it.
      try runFunction(name, function, call: call, into: &items)
      return
    }
    // `s += "x"`, `ids.append(4)`, `flag.toggle()` on values the input holds: Swift runs them,
    // and later statements see the new values.
    if try compiler.runSwiftStatement(expr, constants: constants) { return }
    if try assignRecordProperty(expr) { return }
    if let assignment = Self.assignment(expr) {
      // `configuration.foreignKeysEnabled = true`, `$0.defaultDatabase = try appDatabase()`:
      // the right side may run app code; the assignment itself is plumbing.
      if let (call, name) = Self.call(assignment.value), compiler.lookupLocal(name) == nil, let function = compiler.catalog.functions[name],
        Self.hasStatements(function), callsAppFunction(call)
      {
        try runFunction(name, function, call: call, into: &items)
      } else if Self.isDatabaseCall(assignment.value) {
        try compileExpressionItem(assignment.value, item: item, into: &items, wholeInput: nil, context: context)
      } else {
        if let name = changedName(by: expr) { forget(name, changedBy: expr) }
        skip(expr)
      }
      return
    }
    if let macro = Self.unwrapped(expr).as(MacroExpansionExprSyntax.self), Self.appMacros.contains(macro.macroName.text) {
      // `#Preview { … }`: SwiftUI's, nothing for the database.
      skip(macro, as: "#\(macro.macroName.text)")
      return
    }
    if let conditional = Self.unwrapped(expr).as(IfExprSyntax.self) {
      try compileIf(conditional, into: &items, context: context)
      return
    }
    if Self.unwrapped(expr).is(SwitchExprSyntax.self) {
      guard context == .app else {
        throw compiler.source.diagnostic("not supported in Quarry yet: a 'switch' statement; write a query expression", at: expr)
      }
      forgetChanges(in: expr)
      skip(expr)
      return
    }
    if context == .app, !Self.isDatabaseCall(expr), !handsTheDatabase(expr) {
      // `try Value(facts: ….fetchAll(db), count: ….fetchCount(db))`: the fetches inside run.
      let nested = Self.nestedDatabaseCalls(in: expr)
      if !nested.isEmpty {
        for call in nested {
          try compileExpressionItem(call, item: CodeBlockItemSyntax(item: .expr(call)), into: &items, wholeInput: nil, context: .app)
        }
        return
      }
      // App code that builds a statement and never runs it: the app would not run it either.
      let value: Value
      do {
        value = try compiler.evaluate(expr)
      } catch {
        // `list.reorder()`: a change Quarry does not follow leaves the value unknown.
        if let name = changedName(by: expr) { forget(name, changedBy: expr) }
        skip(expr)
        return
      }
      if let compiled = try? compiler.statement(from: value, input: item.trimmedDescription, at: expr), isRunnable(value) {
        let location = compiler.source.lineAndColumn(of: expr.positionAfterSkippingLeadingTrivia)
        items.append(
          .note(
            "\(location.line):\(location.column): not run: this statement is built but never executed (no .execute(db)), so the app does not run it either: \(compiled.displaySQL.split(separator: "\n").joined(separator: " "))"
          ))
      }
      return
    }
    let value: Value
    do {
      value = try compiler.evaluate(expr)
    } catch let diagnostic as Diagnostic {
      guard context == .prompt, isPlumbing(expr, failure: diagnostic) else { throw diagnostic }
      skip(expr)
      return
    }
    // `titles.map { $0.uppercased() }` at the prompt: a Swift array, shown as Swift shows it.
    if case .array = value, let swift = compiler.swiftValue(value), let shown = try? swift.describe() {
      items.append(.note("\(shown) (a Swift value: no SQL)"))
      return
    }
    var compiled = try compiler.statement(from: value, input: wholeInput ?? item.trimmedDescription, at: expr)
    compiled.expectedSQL = try expectedSQL(in: expr)
    items.append(.statement(compiled))
  }

  private func isRunnable(_ value: Value) -> Bool {
    switch value {
    case .query, .write, .statement, .table: true
    default: false
    }
  }

  static func unwrapped(_ expr: ExprSyntax) -> ExprSyntax {
    var inner = expr
    while true {
      if let tryExpr = inner.as(TryExprSyntax.self) {
        inner = tryExpr.expression
        continue
      }
      if let awaitExpr = inner.as(AwaitExprSyntax.self) {
        inner = awaitExpr.expression
        continue
      }
      return inner
    }
  }

  /// `a = b` (or `a += b`) as a statement: its right side.
  static func assignment(_ expr: ExprSyntax) -> (target: ExprSyntax, value: ExprSyntax)? {
    guard let sequence = unwrapped(expr).as(SequenceExprSyntax.self), sequence.elements.count == 3 else { return nil }
    let elements = Array(sequence.elements)
    guard
      elements[1].is(AssignmentExprSyntax.self)
        || (elements[1].as(BinaryOperatorExprSyntax.self).map { ["+=", "-=", "*=", "/="].contains($0.operator.text) } ?? false)
    else { return nil }
    return (elements[0], elements[2])
  }

  /// The value a block's last statement gives: its expression, or what it returns.
  static func resultExpression(of item: CodeBlockItemSyntax) -> ExprSyntax? {
    switch item.item {
    case .expr(let expr): return expr
    case .stmt(let stmt): return stmt.as(ReturnStmtSyntax.self)?.expression
    case .decl: return nil
    }
  }

  // MARK: Statements

  private func compileStatement(
    _ stmt: StmtSyntax, into items: inout [CompiledItem], typesRead: Bool, context: CodeContext
  ) throws {
    if stmt.is(ForStmtSyntax.self) || stmt.is(WhileStmtSyntax.self) || stmt.is(RepeatStmtSyntax.self) || stmt.is(LabeledStmtSyntax.self),
      try runAsSwift(stmt)
    {
      return
    }
    if stmt.is(ContinueStmtSyntax.self) || stmt.is(BreakStmtSyntax.self) {
      throw LoopLeftInApp(broke: stmt.is(BreakStmtSyntax.self), node: Syntax(stmt))
    }
    if let loop = stmt.as(ForStmtSyntax.self) {
      try compileLoop(loop, into: &items, context: context)
      return
    }
    if let doStmt = stmt.as(DoStmtSyntax.self) {
      // `do { try … } catch { … }`: the `do` body is what runs; an error it throws leaves it for
      // the first `catch`, whose body runs then.
      do {
        for inner in doStmt.body.statements {
          try compileItem(inner, into: &items, wholeInput: nil, typesRead: typesRead, context: context)
        }
      } catch let thrown as ThrownInApp {
        guard let handler = doStmt.catchClauses.first else { throw thrown }
        for inner in handler.body.statements {
          try compileItem(inner, into: &items, wholeInput: nil, typesRead: typesRead, context: context)
        }
      }
      return
    }
    if let thrown = stmt.as(ThrowStmtSyntax.self) {
      let place = compiler.source.lineAndColumn(of: thrown.positionAfterSkippingLeadingTrivia)
      throw ThrownInApp(diagnostic: Diagnostic(thrown.expression.trimmedDescription, line: place.line, column: place.column))
    }
    if let returned = stmt.as(ReturnStmtSyntax.self) {
      // `return try ….fetchAll(db)` in a block runs; `return database` is plumbing.
      if let value = returned.expression, context == .app {
        if Self.isDatabaseCall(value) || Self.transparentBlock(value) != nil || !Self.nestedDatabaseCalls(in: value).isEmpty {
          try compileExpressionItem(value, item: CodeBlockItemSyntax(item: .expr(value)), into: &items, wholeInput: nil, context: .app)
        }
      }
      // Nothing after it in the function or closure runs.
      if context == .app { throw ReturnedInApp() }
      return
    }
    if let guarded = stmt.as(GuardStmtSyntax.self), context == .app {
      try compileGuard(guarded, into: &items, typesRead: typesRead)
      return
    }
    if let expression = stmt.as(ExpressionStmtSyntax.self) {
      try compileExpressionItem(
        expression.expression, item: CodeBlockItemSyntax(item: .stmt(stmt)), into: &items, wholeInput: nil, context: context)
      return
    }
    guard context == .app else {
      throw compiler.source.diagnostic(
        "not supported in Quarry yet: '\(kindName(stmt))' statements; write a query expression",
        at: stmt)
    }
    if let deferred = stmt.as(DeferStmtSyntax.self), let frame = deferFrames.last,
      deferred.parent?.parent?.id == frame.statements.id
    {
      // A `defer` directly in the block being run: it runs when that block ends.
      deferFrames[deferFrames.count - 1].bodies.append(deferred.body)
      return
    }
    // `guard`, `while`, `throw`, `defer` in app code: control flow around the queries. What
    // it changes is unknown after it.
    forgetChanges(in: stmt)
    skip(stmt)
  }

  /// `guard count == 0 else { return }`: when its conditions hold, the names they bind are the
  /// block's from here on; when one fails, its `else` runs and leaves the block. A condition
  /// known only when the app runs is skipped (the rest runs, as when it holds).
  private func compileGuard(_ guarded: GuardStmtSyntax, into items: inout [CompiledItem], typesRead: Bool) throws {
    let bindings: [String: Value]?
    do {
      bindings = try compiler.conditionsHold(guarded.conditions)
    } catch is Diagnostic {
      skip(guarded.conditions, as: "guard \(guarded.conditions.trimmedDescription)")
      return
    }
    guard let bindings else {
      for inner in guarded.body.statements {
        try compileItem(inner, into: &items, wholeInput: nil, typesRead: typesRead, context: .app)
      }
      throw ReturnedInApp()
    }
    for (name, value) in bindings { bind(name, to: value) }
  }

  private func compileIf(_ conditional: IfExprSyntax, into items: inout [CompiledItem], context: CodeContext) throws {
    let branch: (CodeBlockItemListSyntax, [String: Value])?
    do {
      branch = try compiler.builderBranchBinding(conditional)
    } catch let diagnostic as Diagnostic {
      guard context == .app else { throw diagnostic }
      // A condition known only when the app runs: neither branch is taken here.
      skip(conditional.conditions, as: "if \(conditional.conditions.trimmedDescription)")
      return
    }
    guard let (statements, bindings) = branch else { return }
    try compiler.withLocals(bindings) {
      for inner in statements {
        try compileItem(inner, into: &items, wholeInput: nil, typesRead: false, context: context)
      }
    }
  }

  /// `for title in ["a", "b"] { try … .execute(db) }`: the body once per element, the loop
  /// variable bound to it (a name, `_`, or a tuple of names for `enumerated()` or pairs).
  private func compileLoop(_ loop: ForStmtSyntax, into items: inout [CompiledItem], context: CodeContext) throws {
    let elements: [Value]
    do {
      elements = try loopElements(loop.sequence)
    } catch let diagnostic as Diagnostic {
      // Plumbing Quarry cannot follow is skipped; Swift that would trap is the app's error, and
      // so is a loop whose body writes or reads the database: its statements would be missing.
      let finder = DatabaseCallFinder(viewMode: .sourceAccurate)
      finder.walk(loop.body)
      guard context == .app, !diagnostic.message.contains("the app would crash here"), finder.found.isEmpty else { throw diagnostic }
      // What the body changes is unknown after it.
      for statement in loop.body.statements {
        if case .expr(let expr) = statement.item, let name = changedName(by: expr) { forget(name, changedBy: loop.forKeyword) }
      }
      skip(loop.sequence, as: "for … in \(loop.sequence.trimmedDescription)")
      return
    }
    for element in elements {
      // Every round of every loop of the input draws on one budget: nested loops cannot
      // multiply their rounds into minutes of work.
      do {
        try compiler.budget.charge(Self.stepsPerLoopRound)
      } catch {
        throw compiler.source.diagnostic("these loops run too long: \(error.message)", at: loop.forKeyword)
      }
      var bindings: [String: Value] = [:]
      try bindPattern(loop.pattern, to: element, into: &bindings)
      if let condition = loop.whereClause?.condition {
        // Swift on the loop's known values (`where index > 0`).
        let keep = try compiler.withLocals(bindings) { try compiler.swiftValue(of: condition) }
        guard case .expression(let typed) = keep, let taken = Compiler.constantBool(typed.expression) else {
          throw compiler.source.diagnostic("a 'for … where' condition must be known before the query runs", at: condition)
        }
        if !taken { continue }
      }
      do {
        try compiler.withLocals(bindings) {
          for inner in loop.body.statements {
            try compileItem(inner, into: &items, wholeInput: nil, typesRead: false, context: context)
          }
        }
      } catch let left as LoopLeftInApp {
        if left.broke { break }
      }
    }
  }

  /// What one round of an app-code loop costs of the evaluation budget (a round compiles and
  /// runs statements, far more work than one step of Swift).
  static let stepsPerLoopRound = 250

  /// The elements a `for` loops over: Swift's own sequence (a range, an array, `enumerated()`,
  /// `zip`, `stride`), computed by the evaluator, or a list the query compiler holds (rows the
  /// app fetched).
  func loopElements(_ sequence: ExprSyntax) throws -> [Value] {
    if let elements = try compiler.swiftLoopElements(sequence, limit: Self.maximumLoopRounds) { return elements }
    let value: Value
    do {
      value = try compiler.evaluate(sequence)
    } catch let first as Diagnostic {
      // `for x in [o!, -Int.max]`, `for w in words.sorted()`: Swift values, computed in Swift.
      do {
        value = try compiler.swiftValue(of: sequence)
      } catch let second as Diagnostic where second.message.contains("the app would crash here") {
        throw second
      } catch {
        throw first
      }
    }
    switch value {
    case .array(let elements), .slice(let elements, _): return elements
    default: throw compiler.source.diagnostic("a 'for' loops over an array known before the query runs", at: sequence)
    }
  }

  /// The most rounds of one loop Quarry runs.
  static let maximumLoopRounds = 10_000

  /// Binds a loop pattern: a name, `_`, or `(a, b)` over a tuple element.
  func bindPattern(_ pattern: PatternSyntax, to value: Value, into bindings: inout [String: Value]) throws {
    if let identifier = pattern.as(IdentifierPatternSyntax.self) {
      bindings[identifier.identifier.text] = value
    } else if pattern.is(WildcardPatternSyntax.self) {
      return
    } else if let binding = pattern.as(ValueBindingPatternSyntax.self) {
      try bindPattern(binding.pattern, to: value, into: &bindings)
    } else if let tuple = pattern.as(TuplePatternSyntax.self) {
      // A pair from `enumerated()` computed in Swift comes back as a two-element array.
      let values: [Value]
      switch value {
      case .tuple(let parts), .array(let parts): values = parts
      case .swiftValue(.tuple(let parts, _)): values = try parts.map { try compiler.heldValue($0, type: nil, at: pattern) }
      default: values = []
      }
      guard values.count == tuple.elements.count else {
        throw compiler.source.diagnostic(
          "this pattern takes a tuple of \(tuple.elements.count) values; the element is \(compiler.describe(value))", at: pattern)
      }
      for (element, part) in zip(tuple.elements, values) {
        try bindPattern(element.pattern, to: part, into: &bindings)
      }
    } else {
      throw compiler.source.diagnostic("not supported in Quarry yet: this kind of pattern; write a name or (a, b)", at: pattern)
    }
  }

  // MARK: #if

  /// The clause of `#if` the app's build compiles (``AppBuildConfiguration``: a debug build
  /// for the iOS simulator), decided by swift-syntax's `SwiftIfConfig`.
  static func activeClause(of conditional: IfConfigDeclSyntax) -> IfConfigClauseSyntax? {
    AppBuildConfiguration.activeClause(of: conditional)
  }

  // MARK: Skipped plumbing

  /// Records app code with nothing for the database (it is summed up in one note).
  func skip(_ node: some SyntaxProtocol, as description: String? = nil) {
    let text = messageExcerpt(description ?? node.trimmedDescription)
    let location = compiler.source.lineAndColumn(of: node.positionAfterSkippingLeadingTrivia)
    skipped.append("\(text) (\(location.line):\(location.column))")
  }

  /// The one note of what was skipped, if anything was.
  func skippedNote() -> CompiledItem? {
    guard !skipped.isEmpty else { return nil }
    let shown = skipped.prefix(6).joined(separator: ", ")
    let more = skipped.count > 6 ? " and \(skipped.count - 6) more" : ""
    return .note("skipped app code with no SQL to run: \(shown)\(more)")
  }
}

/// Collects the database calls of an expression, outermost first, not inside closures.
private final class DatabaseCallFinder: SyntaxVisitor {
  var found: [ExprSyntax] = []
  override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
    if AppCodeRunner.isDatabaseCall(ExprSyntax(node)) {
      found.append(ExprSyntax(node))
      return .skipChildren
    }
    return .visitChildren
  }
  override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
}
