import SwiftSyntax

/// A loop around a query over rows the app fetched, and whether one transaction holds the whole
/// loop (`database.write { db in for row in rows { … } }`) or each turn has its own.
public struct EnclosingLoop {
  public let start: AbsolutePosition
  public let inTransaction: Bool
}

/// One place in an app's sources where a query is built: a chain rooted at a table type
/// (`Reminder.where { … }`, `Self.order(by: \.title)` in a model's extension), a `#sql(…)`
/// statement, a `With { … }`, or a fetch property wrapper with no query of its own.
///
/// ```swift
/// func rows(in list: RemindersList) throws -> [Reminder] {
///   try Reminder.where { $0.remindersListID.eq(list.id) }.fetchAll(db)
///   // site: `Reminder.where { … }`, executed by fetchAll, `list` a run-time value
/// }
/// ```
public struct QuerySite {
  /// The expression that builds the query (a fetch or execute call cut off), or the variable
  /// of a wrapper like `@FetchAll var reminders: [Reminder]`.
  let node: Syntax
  /// The whole statement the query stands in (with its `try`, its fetch call): a statement the
  /// app's set-up ran is not reported twice.
  let statement: Syntax
  /// `fetchAll`, `execute`, …: how the app runs it there (nil: built and returned, or passed on).
  public let executedBy: String?
  /// The type whose member the query is written in (`Self` in a model's extension).
  private(set) var selfType: String?

  /// The same site with `Self` another type (a table that conforms to the protocol the site's
  /// extension extends).
  func withSelfType(_ type: String) -> QuerySite {
    var site = self
    site.selfType = type
    return site
  }
  /// Names the code around the query declares (parameters, locals, properties), innermost
  /// last, with their declared types where written: values the app supplies when it runs.
  let runTimeNames: [(name: String, type: TypeSyntax?)]
  /// Of those, the names only the type around the query declares (its properties, from any of
  /// its declarations), which no parameter or local shadows: inside a table's instance member
  /// its own columns are the record's (`self.id`).
  var memberNames: Set<String> = []
  /// What the locals around the query were given (`let baseQuery = baseQuery(…)`): a query
  /// built from one starts there.
  let localInitializers: [String: ExprSyntax]
  /// The loops around the query whose elements come from another fetch (N+1), outermost first.
  public let loops: [EnclosingLoop]
  /// A fetch property wrapper with no query argument (`@FetchAll var rows: [Row]`).
  let wrapper: AttributeSyntax?
  /// Whether the chain calls one of the library's query methods (`where`, `insert`, `all`, …);
  /// one that only names a model's static member (`Reminder.defaultColor`) may be no query.
  let callsQueryMethod: Bool
  /// A model's scope written with `Self` implied (`static let withTags = group(by: \.id)…`).
  let scopeName: String?
  /// GRDB's raw SQL: `db.execute(sql: "…")`, `Row.fetchAll(db, sql: "…")`; `node` is the text.
  let isRawSQL: Bool

  public var position: AbsolutePosition { node.positionAfterSkippingLeadingTrivia }

  /// Where the function (or initializer, or accessor) the query is written in starts: the
  /// statements one body runs share the schema it changes as it goes (a test that creates its
  /// own tables, then inserts into them). Nil at file scope.
  public var enclosingBody: AbsolutePosition? {
    var parent = node.parent
    while let current = parent {
      if current.is(FunctionDeclSyntax.self) || current.is(InitializerDeclSyntax.self) || current.is(AccessorDeclSyntax.self) {
        return current.position
      }
      parent = current.parent
    }
    return nil
  }

  /// Whether the query is written in an instance member of its type (a computed property, an
  /// instance method, an initializer), where `self` is the value the app holds, not the type.
  public var isInInstanceMember: Bool {
    var current = node.parent
    while let node = current {
      if node.parent?.is(MemberBlockItemSyntax.self) == true {
        let modifiers: DeclModifierListSyntax? =
          node.as(FunctionDeclSyntax.self)?.modifiers ?? node.as(VariableDeclSyntax.self)?.modifiers
          ?? node.as(SubscriptDeclSyntax.self)?.modifiers
        if node.is(InitializerDeclSyntax.self) { return true }
        guard let modifiers else { return false }
        return !modifiers.contains { ["static", "class"].contains($0.name.text) }
      }
      current = node.parent
    }
    return false
  }
}

/// Finds every query an app's code builds, with the names in scope where it is built.
final class QuerySiteFinder: SyntaxVisitor {
  private let isTable: (String) -> Bool
  /// Whether a type that is not a table declares a static property or function of this name
  /// (`Operations.tagsQuery`, `Operations.titled(_:)`): a namespace of the app's queries.
  private let isNamespaceMember: (_ type: String, _ member: String) -> Bool
  private(set) var sites: [QuerySite] = []
  /// Scopes from the outside in: a type (its name and properties), a function or closure (its
  /// parameters and locals).
  private var frames: [(selfType: String?, names: [(String, TypeSyntax?)])] = []
  /// The locals' initializers, frame by frame (parallel to `frames`).
  private var initializerFrames: [[String: [ExprSyntax]]] = []
  /// Loops over fetched rows being visited: where each starts, and the body it repeats.
  private var fetchLoops: [(start: AbsolutePosition, body: Range<AbsolutePosition>)] = []
  /// Where each closure that runs in one transaction (`database.write { db in … }`) being
  /// visited starts.
  private var transactions: [AbsolutePosition] = []
  private var transactionClosures: [Bool] = []
  /// GRDB's calls that run their closure in one transaction.
  static let transactionCalls: Set<String> = ["write", "inTransaction", "inSavepoint", "asyncWrite"]
  /// Of each frame's names, those bound to fetched rows (`let lists = try RemindersList.fetchAll(db)`,
  /// `@FetchAll var rows`), parallel to `frames`: a name means the declaration Swift's lookup finds
  /// from where it is written, so a parameter `locations` is not another type's `@FetchAll var locations`.
  private var fetchedFrames: [Set<String>] = []
  /// Top-level code's names bound to fetched rows (a script, `main.swift`).
  private var fetchedAtFileScope: Set<String> = []

  /// The library's calls that run a query, and the app's own (``Catalog/appRunMethods``).
  private let runCalls: Set<String>

  /// Every type's member blocks, for the names a type's members see.
  private let typeMembers: TypeMemberBlocks?

  init(
    isTable: @escaping (String) -> Bool, isNamespaceMember: @escaping (String, String) -> Bool = { _, _ in false },
    appRunMethods: Set<String> = [], typeMembers: TypeMemberBlocks? = nil
  ) {
    self.typeMembers = typeMembers
    self.isTable = isTable
    self.isNamespaceMember = isNamespaceMember
    self.runCalls = Self.databaseCalls.union(appRunMethods)
    super.init(viewMode: .sourceAccurate)
  }

  static var databaseCalls: Set<String> { Compiler.databaseCalls }
  static let wrappers: Set<String> = ["FetchAll", "FetchOne", "Fetch"]
  /// Members of a table type that name a type or a value, not a query.
  static let nonQueryMembers: Set<String> = [
    "Draft", "ID", "self", "Type", "Columns", "TableColumns", "columns", "tableName", "init",
    "Selection",
    "schemaName", "tableAlias", "PrimaryKey", "QueryValue", "QueryOutput",
  ]

  // MARK: Scopes

  private var selfType: String? { frames.last { $0.selfType != nil }?.selfType }

  private func pushType(_ name: String, members: MemberBlockSyntax) -> SyntaxVisitorContinueKind {
    var names: [(String, TypeSyntax?)] = [("self", nil)]
    var fetched: Set<String> = []
    let qualified = (frames.compactMap(\.selfType) + [name]).joined(separator: ".")
    // The type's members from every declaration of it (its extensions', in any file).
    let blocks = typeMembers?.blocks(of: qualified, current: members) ?? [members]
    for member in blocks.lazy.flatMap(\.members) {
      guard let variable = member.decl.as(VariableDeclSyntax.self) else { continue }
      let isStatic = variable.modifiers.contains { $0.name.tokenKind == .keyword(.static) }
      let isWrapped = variable.attributes.contains {
        $0.as(AttributeSyntax.self).map {
          Self.wrappers.contains($0.attributeName.trimmedDescription)
        } ?? false
      }
      for binding in variable.bindings {
        guard let identifier = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
        else { continue }
        // `static var tagsQuery: Select<…> { … }`: a value the app's code computes, which the
        // compiler reads (not one the app has only when it runs).
        if isStatic, isNamespaceMember(qualified, identifier) { continue }
        names.append((identifier, Self.declaredType(of: binding, known: names)))
        if isWrapped { fetched.insert(identifier) }
      }
    }
    frames.append((name, names))
    fetchedFrames.append(fetched)
    initializerFrames.append([:])
    return .visitChildren
  }

  // A type's members see its properties; a function's body its parameters and locals.
  override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind {
    pushType(node.name.text, members: node.memberBlock)
  }
  override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind {
    pushType(node.name.text, members: node.memberBlock)
  }
  override func visit(_ node: ActorDeclSyntax) -> SyntaxVisitorContinueKind {
    pushType(node.name.text, members: node.memberBlock)
  }
  override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind {
    pushType(node.name.text, members: node.memberBlock)
  }
  override func visit(_ node: ExtensionDeclSyntax) -> SyntaxVisitorContinueKind {
    pushType(node.extendedType.trimmedDescription, members: node.memberBlock)
  }
  override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
    // `func save(_ db: Database)`: its caller's `write` (the handle's transaction) holds its body.
    let handed = node.signature.parameterClause.parameters.contains { $0.type.trimmedDescription == "Database" }
    if handed { transactions.append(node.positionAfterSkippingLeadingTrivia) }
    transactionFunctions.append(handed)
    return pushFunction(node.signature.parameterClause.parameters, body: node.body)
  }
  private var transactionFunctions: [Bool] = []
  override func visit(_ node: InitializerDeclSyntax) -> SyntaxVisitorContinueKind {
    pushFunction(node.signature.parameterClause.parameters, body: node.body)
  }
  override func visitPost(_ node: StructDeclSyntax) { popFrame() }
  override func visitPost(_ node: ClassDeclSyntax) { popFrame() }
  override func visitPost(_ node: ActorDeclSyntax) { popFrame() }
  override func visitPost(_ node: EnumDeclSyntax) { popFrame() }
  override func visitPost(_ node: ExtensionDeclSyntax) { popFrame() }
  override func visitPost(_ node: FunctionDeclSyntax) {
    popFrame()
    if transactionFunctions.removeLast() { transactions.removeLast() }
  }
  override func visitPost(_ node: InitializerDeclSyntax) { popFrame() }

  /// Leaves a type's or a function's scope.
  private func popFrame() {
    frames.removeLast()
    fetchedFrames.removeLast()
    initializerFrames.removeLast()
  }

  private func pushFunction(_ parameters: FunctionParameterListSyntax, body: CodeBlockSyntax?)
    -> SyntaxVisitorContinueKind
  {
    var names = parameters.map { (($0.secondName ?? $0.firstName).text, Optional($0.type)) }
    if let body { names += Self.declaredNames(in: Syntax(body)) }
    frames.append((nil, names))
    fetchedFrames.append([])
    initializerFrames.append(body.map { Self.localInitializers(in: Syntax($0)) } ?? [:])
    return .visitChildren
  }
  override func visit(_ node: AccessorBlockSyntax) -> SyntaxVisitorContinueKind {
    frames.append(
      (nil, Self.declaredNames(in: Syntax(node)) + [("newValue", nil), ("oldValue", nil)]))
    fetchedFrames.append([])
    initializerFrames.append(Self.localInitializers(in: Syntax(node)))
    return .visitChildren
  }
  override func visitPost(_ node: AccessorBlockSyntax) { popFrame() }
  override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind {
    var names: [(String, TypeSyntax?)] = []
    switch node.signature?.parameterClause {
    case .simpleInput(let list)?: names = list.map { ($0.name.text, nil) }
    case .parameterClause(let clause)?:
      names = clause.parameters.map { (($0.secondName ?? $0.firstName).text, $0.type) }
    case nil: names = (0..<4).map { ("$\($0)", nil) }
    }
    // `{ [draft = state.draft, database] send in … }`: a capture with an initializer is a name
    // of the closure, holding that value; a plain capture is the outer name itself.
    var initializers = Self.localInitializers(in: Syntax(node.statements))
    for capture in node.signature?.capture?.items ?? [] {
      guard let value = capture.initializer?.value else {
        // `[launchId, deviceInfo] db in`: names of the closure (a property of `self` reached
        // by its bare name, in an extension that does not declare it).
        if capture.name.tokenKind != .keyword(.self) { names.append((capture.name.text, nil)) }
        continue
      }
      names.append((capture.name.text, nil))
      initializers[capture.name.text, default: []].append(value)
    }
    frames.append((nil, names + Self.declaredNames(in: Syntax(node.statements))))
    fetchedFrames.append([])
    initializerFrames.append(initializers)
    // `rows.forEach { row in … }` over fetched rows: a loop.
    let isLoop = Self.loopedSequence(of: node).map(isFetched) ?? false
    if isLoop {
      fetchLoops.append(
        (
          node.positionAfterSkippingLeadingTrivia,
          node.statements.position..<node.statements.endPosition
        ))
    }
    loopClosures.append(isLoop)
    let isTransaction = Self.calledName(of: node).map(Self.transactionCalls.contains) ?? false
    if isTransaction { transactions.append(node.positionAfterSkippingLeadingTrivia) }
    transactionClosures.append(isTransaction)
    return .visitChildren
  }
  override func visitPost(_ node: ClosureExprSyntax) {
    frames.removeLast()
    fetchedFrames.removeLast()
    initializerFrames.removeLast()
    if loopClosures.removeLast() { fetchLoops.removeLast() }
    if transactionClosures.removeLast() { transactions.removeLast() }
  }
  private var loopClosures: [Bool] = []

  override func visit(_ node: ForStmtSyntax) -> SyntaxVisitorContinueKind {
    let isLoop = isFetched(node.sequence)
    if isLoop {
      fetchLoops.append(
        (node.positionAfterSkippingLeadingTrivia, node.body.position..<node.body.endPosition))
    }
    forLoops.append(isLoop)
    return .visitChildren
  }
  override func visitPost(_ node: ForStmtSyntax) {
    if forLoops.removeLast() { fetchLoops.removeLast() }
  }
  private var forLoops: [Bool] = []

  /// `let lists = try RemindersList.fetchAll(db)`: the name holds fetched rows.
  override func visit(_ node: PatternBindingSyntax) -> SyntaxVisitorContinueKind {
    if let name = node.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
      let value = node.initializer?.value,
      Self.containsDatabaseCall(value)
    {
      if let frame = declaringFrame(of: name) {
        fetchedFrames[frame].insert(name)
      } else {
        fetchedAtFileScope.insert(name)
      }
    }
    return .visitChildren
  }

  /// Whether a loop's sequence is rows the app fetched: a fetch call, or a name bound to one.
  private func isFetched(_ sequence: ExprSyntax) -> Bool {
    if Self.containsDatabaseCall(sequence) { return true }
    var root = Syntax(sequence)
    while true {
      if let access = root.as(MemberAccessExprSyntax.self), let base = access.base {
        if let reference = base.as(DeclReferenceExprSyntax.self), reference.baseName.text == "self" {
          root = Syntax(access.declName)
        } else {
          root = Syntax(base)
        }
      } else if let call = root.as(FunctionCallExprSyntax.self) {
        root = Syntax(call.calledExpression)
      } else {
        break
      }
    }
    if let reference = root.as(DeclReferenceExprSyntax.self) {
      let name = reference.baseName.text
      return declaringFrame(of: name).map { fetchedFrames[$0].contains(name) }
        ?? fetchedAtFileScope.contains(name)
    }
    return false
  }

  /// The innermost frame that declares `name`: where Swift's lookup finds it.
  private func declaringFrame(of name: String) -> Int? {
    frames.lastIndex { $0.names.contains { $0.0 == name } }
  }

  static func containsDatabaseCall(_ expr: some SyntaxProtocol) -> Bool {
    expr.tokens(viewMode: .sourceAccurate).contains { token in
      if case .identifier(let name) = token.tokenKind { return databaseCalls.contains(name) }
      return false
    }
  }

  /// `rows.forEach { … }`, `rows.map { … }`: the sequence a closure argument runs once per element of.
  static func loopedSequence(of closure: ClosureExprSyntax) -> ExprSyntax? {
    guard let access = calledMember(of: closure),
      ["forEach", "map", "compactMap", "flatMap"].contains(access.declName.baseName.text)
    else { return nil }
    return access.base
  }

  /// `database.write { db in … }`: the member a closure is an argument (or the trailing closure) of.
  private static func calledMember(of closure: ClosureExprSyntax) -> MemberAccessExprSyntax? {
    var node = Syntax(closure)
    if let parent = node.parent, parent.is(LabeledExprSyntax.self) {
      node = parent.parent?.parent ?? parent
    } else if let parent = node.parent {
      node = parent
    }
    return node.as(FunctionCallExprSyntax.self)?.calledExpression.as(MemberAccessExprSyntax.self)
  }

  /// The name of the method a closure is handed to (`write` in `database.write { … }`).
  static func calledName(of closure: ClosureExprSyntax) -> String? {
    calledMember(of: closure)?.declName.baseName.text
  }

  /// `let name = value` in a body (not inside nested functions or closures): each name's value.
  /// Of the initializers of locals named alike, the one Swift's lookup finds at `node`: the
  /// last declared before it in a block that holds it (`let draft` in an inner loop does not
  /// reach a use in the loop around it).
  static func nearestDeclaration(_ candidates: [ExprSyntax], visibleAt node: Syntax) -> ExprSyntax? {
    candidates.last { initializer in
      guard initializer.position < node.position else { return false }
      var block = Syntax(initializer).parent
      while let current = block, !current.is(CodeBlockItemListSyntax.self) { block = current.parent }
      guard let block else { return false }
      var ancestor: Syntax? = node
      while let current = ancestor {
        if current.id == block.id { return true }
        ancestor = current.parent
      }
      return false
    }
  }

  static func localInitializers(in body: Syntax) -> [String: [ExprSyntax]] {
    final class Collector: SyntaxVisitor {
      var found: [String: [ExprSyntax]] = [:]
      override func visit(_ node: PatternBindingSyntax) -> SyntaxVisitorContinueKind {
        if let name = node.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
          let value = node.initializer?.value
        {
          found[name, default: []].append(value)
        }
        return .visitChildren
      }
      override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
      override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    }
    let collector = Collector(viewMode: .sourceAccurate)
    collector.walk(body)
    return collector.found
  }

  /// A binding's type as the compiler infers it where that is plain: its annotation, the type
  /// an initializer call names (`var draft = Tag.Draft()`, `let tag = Tag(…)`), or the type
  /// of the name it copies (`var updated = category`).
  static func declaredType(of binding: PatternBindingSyntax, known: [(String, TypeSyntax?)])
    -> TypeSyntax?
  {
    if let annotation = binding.typeAnnotation?.type { return annotation }
    guard var value = binding.initializer?.value else { return nil }
    while let inner = value.as(TryExprSyntax.self)?.expression
      ?? value.as(AwaitExprSyntax.self)?.expression
    { value = inner }
    if let reference = value.as(DeclReferenceExprSyntax.self) {
      return known.last { $0.0 == reference.baseName.text }?.1
    }
    return initializedType(value)
  }

  /// The type a value is made as: `Post(…)`, `Post.Draft(…)`, or an array of one of them made by
  /// `map`/`compactMap` (`items.map { Post(id: $0.key) }` is `[Post]`, as Swift infers it).
  static func initializedType(_ value: ExprSyntax) -> TypeSyntax? {
    guard let call = value.as(FunctionCallExprSyntax.self) else { return nil }
    if let member = call.calledExpression.as(MemberAccessExprSyntax.self), member.base != nil,
      ["map", "compactMap"].contains(member.declName.baseName.text),
      let closure = call.trailingClosure ?? call.arguments.first?.expression.as(ClosureExprSyntax.self),
      let last = closure.statements.last?.item
    {
      let result: ExprSyntax? =
        switch last {
        case .expr(let expr): expr
        case .stmt(let stmt): stmt.as(ReturnStmtSyntax.self)?.expression
        default: nil
        }
      guard let result, let element = initializedType(result) else { return nil }
      return TypeSyntax(ArrayTypeSyntax(element: element))
    }
    if let reference = call.calledExpression.as(DeclReferenceExprSyntax.self),
      reference.baseName.text.first?.isUppercase == true
    {
      return TypeSyntax(IdentifierTypeSyntax(name: .identifier(reference.baseName.text)))
    }
    if let member = call.calledExpression.as(MemberAccessExprSyntax.self),
      member.declName.baseName.text == "Draft",
      let base = member.base?.as(DeclReferenceExprSyntax.self),
      base.baseName.text.first?.isUppercase == true
    {
      return TypeSyntax(
        MemberTypeSyntax(
          baseType: IdentifierTypeSyntax(name: .identifier(base.baseName.text)),
          name: .identifier("Draft")))
    }
    return nil
  }

  /// The names a body declares (`let`, `var`, `if let`, `for x in`, `catch`), not inside nested
  /// functions or types.
  static func declaredNames(in body: Syntax) -> [(String, TypeSyntax?)] {
    final class Collector: SyntaxVisitor {
      var names: [(String, TypeSyntax?)] = []
      override func visit(_ node: PatternBindingSyntax) -> SyntaxVisitorContinueKind {
        if let name = node.pattern.as(IdentifierPatternSyntax.self)?.identifier.text {
          names.append((name, QuerySiteFinder.declaredType(of: node, known: names)))
        }
        return .visitChildren
      }
      override func visit(_ node: IdentifierPatternSyntax) -> SyntaxVisitorContinueKind {
        names.append((node.identifier.text, nil))
        return .visitChildren
      }
      override func visit(_ node: OptionalBindingConditionSyntax) -> SyntaxVisitorContinueKind {
        if let name = node.pattern.as(IdentifierPatternSyntax.self)?.identifier.text {
          names.append((name, node.typeAnnotation?.type))
        }
        return .visitChildren
      }
      override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
      override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
      override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
      override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    }
    let collector = Collector(viewMode: .sourceAccurate)
    collector.walk(body)
    // A typed binding wins over the same name seen untyped as a pattern.
    var seen: [String: Int] = [:]
    var out: [(String, TypeSyntax?)] = []
    for (name, type) in collector.names {
      if let index = seen[name] {
        if out[index].1 == nil { out[index].1 = type }
      } else {
        seen[name] = out.count
        out.append((name, type))
      }
    }
    out.append(("error", nil))
    return out
  }

  // MARK: Sites

  override func visit(_ node: VariableDeclSyntax) -> SyntaxVisitorContinueKind {
    // `@FetchAll var reminders: [Reminder]`: SQLiteData's default query for the wrapper.
    for element in node.attributes {
      guard let attribute = element.as(AttributeSyntax.self),
        Self.wrappers.contains(attribute.attributeName.trimmedDescription)
      else { continue }
      let hasQuery: Bool
      if case .argumentList(let list)? = attribute.arguments {
        hasQuery = list.contains { $0.label == nil }
      } else {
        hasQuery = false
      }
      if !hasQuery {
        record(
          Syntax(node), statement: Syntax(node),
          executedBy: attribute.attributeName.trimmedDescription, wrapper: attribute,
          callsQueryMethod: true)
      }
    }
    return .visitChildren
  }

  override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind { chain(ExprSyntax(node)) }
  override func visit(_ node: MemberAccessExprSyntax) -> SyntaxVisitorContinueKind { chain(ExprSyntax(node)) }
  override func visit(_ node: MacroExpansionExprSyntax) -> SyntaxVisitorContinueKind { chain(ExprSyntax(node)) }
  override func visit(_ node: ForceUnwrapExprSyntax) -> SyntaxVisitorContinueKind { chain(ExprSyntax(node)) }
  override func visit(_ node: OptionalChainingExprSyntax) -> SyntaxVisitorContinueKind { chain(ExprSyntax(node)) }
  override func visit(_ node: SubscriptCallExprSyntax) -> SyntaxVisitorContinueKind { chain(ExprSyntax(node)) }

  /// The links of a chain, root first: `Tag.where { … }.order(…)` is `Tag`, `Tag.where`,
  /// `Tag.where { … }`, … (through calls, members, subscripts, `!`, `?` and generic arguments).
  static func links(of expr: ExprSyntax) -> [ExprSyntax] {
    var links: [ExprSyntax] = []
    var node = expr
    while true {
      links.append(node)
      if let call = node.as(FunctionCallExprSyntax.self) {
        node = call.calledExpression
      } else if let access = node.as(MemberAccessExprSyntax.self), let base = access.base {
        node = base
      } else if let subscriptCall = node.as(SubscriptCallExprSyntax.self) {
        node = subscriptCall.calledExpression
      } else if let optional = node.as(OptionalChainingExprSyntax.self) {
        node = optional.expression
      } else if let unwrap = node.as(ForceUnwrapExprSyntax.self) {
        node = unwrap.expression
      } else if let generic = node.as(GenericSpecializationExprSyntax.self) {
        node = generic.expression
      } else {
        break
      }
    }
    return links.reversed()
  }

  /// The outermost expression of a chain rooted at a table type (or `#sql`, `With`) is a site.
  private func chain(_ expr: ExprSyntax) -> SyntaxVisitorContinueKind {
    if let parent = expr.parent, Self.continuesChain(parent, Syntax(expr)) { return .visitChildren }
    // `database.execute(Reminder.all)`: the query is the argument, found on its own.
    if let call = expr.as(FunctionCallExprSyntax.self), Self.databaseRun(call) != nil { return .visitChildren }
    let links = Self.links(of: expr)
    guard let root = links.first else { return .visitChildren }
    if let call = expr.as(FunctionCallExprSyntax.self),
      let method = call.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName.text,
      Self.databaseCalls.contains(method),
      let sql = call.arguments.first(where: { $0.label?.text == "sql" })
    {
      // GRDB's `try db.execute(sql: "UPDATE …")`, `try Row.fetchAll(db, sql: "SELECT …")`.
      var statement = Syntax(expr)
      while let parent = statement.parent,
        parent.is(TryExprSyntax.self) || parent.is(AwaitExprSyntax.self)
      { statement = parent }
      record(
        Syntax(sql.expression), statement: statement, executedBy: method, wrapper: nil,
        callsQueryMethod: true, isRawSQL: true)
      return .skipChildren
    }
    var isRoot = false
    var scopeName: String?
    let members = links.compactMap { $0.as(MemberAccessExprSyntax.self)?.declName.baseName.text }
    // `….fetchAll(db)` runs the query; `execute: Database.shared.execute` only names the method.
    let runsHere = links.contains { link in
      guard let access = link.as(MemberAccessExprSyntax.self), runCalls.contains(access.declName.baseName.text) else { return false }
      return access.parent?.as(FunctionCallExprSyntax.self)?.calledExpression.id == access.id
    }
    let callsQueryMethod =
      root.is(MacroExpansionExprSyntax.self)
      || members.contains { member in
        [ReceiverKind.table, .query, .write, .statement].contains {
          !Vocabulary.methods(named: member, on: $0).isEmpty
        }
      }
    if let macro = root.as(MacroExpansionExprSyntax.self) {
      // `#sql("SELECT …")` is a statement; `#sql("coalesce(…)")` a piece of one.
      let text =
        macro.arguments.first?.expression.as(StringLiteralExprSyntax.self)?.segments.first?.as(
          StringSegmentSyntax.self)?.content.text ?? ""
      isRoot =
        macro.macroName.text == "sql"
        && (Compiler.startsWithStatementKeyword(text) || links.count > 1)
    } else if let reference = root.as(DeclReferenceExprSyntax.self) {
      let name = reference.baseName.text
      if name == "With" || name == "Values" {
        isRoot = true
      } else if isTable(name) || (name == "Self" && selfType.map(isTable) == true) {
        // `Reminder.Draft(…)`, `Reminder.ID`, `Reminder(…)`: a type or a value, not a query.
        let first = links.dropFirst().first?.as(MemberAccessExprSyntax.self)?.declName.baseName.text
        let owner = name == "Self" ? selfType ?? name : name
        let firstCall = links.dropFirst().first?.parent?.as(FunctionCallExprSyntax.self)
        isRoot =
          first.map {
            !Self.nonQueryMembers.contains($0) && $0.first?.isUppercase != true
              && typeMembers?.returnsSwiftValue(type: owner, member: $0, call: firstCall) != true
          } ?? false
        if isRoot, let binding = expr.parent?.as(InitializerClauseSyntax.self)?.parent?.as(PatternBindingSyntax.self),
          binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == "all",
          binding.parent?.parent?.as(VariableDeclSyntax.self)?.parent?.is(MemberBlockItemSyntax.self) == true
        {
          // `static let all = Self.where { … }`: the table's default scope, its value once.
          scopeName = "all"
        }
      } else if let type = selfType, isTable(type),
        !Vocabulary.methods(named: name, on: .table).isEmpty,
        let binding = expr.parent?.as(InitializerClauseSyntax.self)?.parent?.as(
          PatternBindingSyntax.self),
        // A member of the type (`static let withTags = …`), not a local of one of its functions
        // (`let dupe = Draft(…)`).
        let variable = binding.parent?.parent?.as(VariableDeclSyntax.self), variable.parent?.is(MemberBlockItemSyntax.self) == true,
        let scope = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
      {
        // `static let withTags = group(by: \.id).leftJoin(…)` in a model: a scope, `Self` implied.
        isRoot = true
        scopeName = scope
      } else if name.first?.isUppercase == true, !isTable(name),
        runsHere || Self.isFetchArgument(expr),
        let member = members.first(where: { $0.first?.isUppercase != true }),
        isNamespaceMember(([name] + members.prefix { $0.first?.isUppercase == true }).joined(separator: "."), member)
      {
        // `try Operations.tagsQuery.fetchAll(db)`: a query a namespace of the app holds, run here.
        isRoot = true
      } else if name.first?.isLowercase == true, callsQueryMethod,
        runsHere || Self.isFetchArgument(expr),
        !isAppMethodCall(links)
      {
        // `baseQuery.where { … }.fetchAll(db)`: a query built from a local or a function's result.
        isRoot = true
      }
    }
    guard isRoot else { return .visitChildren }
    // Cut at the call that runs it: `….fetchAll(db).map(\.id)` builds `…`.
    var query = expr
    var executedBy: String?
    for (index, link) in links.enumerated() {
      guard let access = link.as(MemberAccessExprSyntax.self),
        runCalls.contains(access.declName.baseName.text),
        let base = access.base
      else { continue }
      executedBy = access.declName.baseName.text
      query = base
      _ = index
      break
    }
    var statement = Syntax(expr)
    while let parent = statement.parent,
      parent.is(TryExprSyntax.self) || parent.is(AwaitExprSyntax.self)
    { statement = parent }
    if executedBy == nil, let owner = statement.parent?.as(LabeledExprSyntax.self)?.parent?.parent {
      // `@FetchAll(query)`, `_rows = FetchAll(query)`, `$rows.load(query)`: SQLiteData runs it.
      if let attribute = owner.as(AttributeSyntax.self),
        Self.wrappers.contains(attribute.attributeName.trimmedDescription)
      {
        executedBy = attribute.attributeName.trimmedDescription
      } else if let call = owner.as(FunctionCallExprSyntax.self) {
        let callee =
          call.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName.text
          ?? call.calledExpression.trimmedDescription
        if Self.wrappers.contains(callee) || callee == "load" { executedBy = callee }
      }
    }
    if executedBy == nil,
      let owner = statement.parent?.as(LabeledExprSyntax.self)?.parent?.parent?.as(FunctionCallExprSyntax.self),
      let method = Self.databaseRun(owner)
    {
      executedBy = method
    }
    if executedBy == nil,
      let owner = statement.parent?.as(LabeledExprSyntax.self)?.parent?.parent?.as(
        FunctionCallExprSyntax.self),
      let method = owner.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName.text,
      ReceiverKind.allCases.contains(where: { !Vocabulary.methods(named: method, on: $0).isEmpty })
    {
      // `.join(Tag.all) { … }`, `$0.id.in(Tag.select(\.id))`: a piece of a bigger query.
      return .skipChildren
    }
    record(
      Syntax(query), statement: statement, executedBy: executedBy, wrapper: nil,
      callsQueryMethod: callsQueryMethod, scopeName: scopeName)
    return .skipChildren
  }

  /// `tool.execute(input)`: a name with nothing but a run call on it, where the app declares a
  /// method of that name the call fits (its own `execute`, of a type Quarry cannot see here).
  private func isAppMethodCall(_ links: [ExprSyntax]) -> Bool {
    guard links.count >= 3, let access = links[1].as(MemberAccessExprSyntax.self), let call = links[2].as(FunctionCallExprSyntax.self),
      let typeMembers
    else { return false }
    return typeMembers.declaresInstanceMethod(access.declName.baseName.text, fitting: call)
  }

  /// `execute` when a call is a database handle running the statement it is given, as
  /// StructuredQueriesSQLite's `Database` does: `try database.execute(Reminder.where { … })`
  /// (a lower-case receiver, one unlabelled argument that is a query from a table, `#sql` or
  /// `With`). Nil for `query.execute(db)` and GRDB's `db.execute(sql:)`.
  static func databaseRun(_ call: FunctionCallExprSyntax) -> String? {
    guard let access = call.calledExpression.as(MemberAccessExprSyntax.self),
      access.declName.baseName.text == "execute",
      let handle = access.base?.as(DeclReferenceExprSyntax.self), handle.baseName.text.first?.isLowercase == true,
      call.arguments.count == 1, let argument = call.arguments.first, argument.label == nil, call.trailingClosure == nil
    else { return nil }
    let root = links(of: argument.expression).first
    if let macro = root?.as(MacroExpansionExprSyntax.self), macro.macroName.text == "sql" { return access.declName.baseName.text }
    guard let name = root?.as(DeclReferenceExprSyntax.self)?.baseName.text, name.first?.isUppercase == true else { return nil }
    return access.declName.baseName.text
  }

  /// Whether an expression is the query a fetch wrapper or `load` is given.
  static func isFetchArgument(_ expr: ExprSyntax) -> Bool {
    guard let owner = expr.parent?.as(LabeledExprSyntax.self)?.parent?.parent else { return false }
    if let attribute = owner.as(AttributeSyntax.self) {
      return wrappers.contains(attribute.attributeName.trimmedDescription)
    }
    guard let call = owner.as(FunctionCallExprSyntax.self) else { return false }
    let callee =
      call.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName.text
      ?? call.calledExpression.trimmedDescription
    return wrappers.contains(callee) || callee == "load"
  }

  static func continuesChain(_ parent: Syntax, _ child: Syntax) -> Bool {
    if let call = parent.as(FunctionCallExprSyntax.self) {
      return call.calledExpression.id == child.id
    }
    if let access = parent.as(MemberAccessExprSyntax.self) { return access.base?.id == child.id }
    if let subscriptCall = parent.as(SubscriptCallExprSyntax.self) {
      return subscriptCall.calledExpression.id == child.id
    }
    return parent.is(OptionalChainingExprSyntax.self) || parent.is(ForceUnwrapExprSyntax.self)
      || parent.is(GenericSpecializationExprSyntax.self)
  }

  private func record(
    _ node: Syntax, statement: Syntax, executedBy: String?, wrapper: AttributeSyntax?,
    callsQueryMethod: Bool,
    scopeName: String? = nil, isRawSQL: Bool = false
  ) {
    let names = frames.flatMap(\.names).map { (name: $0.0, type: $0.1) }
    let ofTypes = Set(frames.filter { $0.selfType != nil }.flatMap(\.names).map(\.0))
    let ofCode = Set(frames.filter { $0.selfType == nil }.flatMap(\.names).map(\.0))
    var site =
      QuerySite(
        node: node, statement: statement, executedBy: executedBy, selfType: selfType,
        runTimeNames: names,
        localInitializers: initializerFrames.reduce(into: [:]) { visible, frame in
          for (name, candidates) in frame {
            if let nearest = Self.nearestDeclaration(candidates, visibleAt: node) { visible[name] = nearest }
          }
        },
        // `for tag in try Tag.fetchAll(db) { … }`: the loop's own fetch runs once, its body's per row.
        loops: executedBy != nil && wrapper == nil
          ? fetchLoops.filter { $0.body.contains(node.position) }.map { loop in
            EnclosingLoop(start: loop.start, inTransaction: transactions.contains { $0 < loop.start })
          } : [],
        wrapper: wrapper, callsQueryMethod: callsQueryMethod, scopeName: scopeName,
        isRawSQL: isRawSQL)
    site.memberNames = ofTypes.subtracting(ofCode)
    sites.append(site)
  }
}
