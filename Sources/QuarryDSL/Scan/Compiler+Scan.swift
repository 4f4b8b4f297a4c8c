import QueryBuilder
import SwiftParser
import SwiftSyntax

/// A query found in an app's sources, compiled where it stands.
///
/// ```swift
/// static func inList(_ id: RemindersList.ID) -> Where<Reminder> { Self.where { $0.remindersListID.eq(id) } }
/// // SELECT … FROM "reminders" WHERE ("reminders"."remindersListID") = (?)   bindings: [id]
/// ```
public struct ScannedQuery: Sendable {
  public enum Outcome: Sendable {
    /// The statement the app prepares, with its bindings (values the code writes, or names of
    /// values the app supplies when it runs).
    case statement(CompiledStatement)
    /// The query does not compile as Swift and StructuredQueries would have it.
    case error(Diagnostic)
    /// Quarry cannot follow the code that builds it (why, in one line).
    case skipped(String)
  }
  public var line: Int
  public var column: Int
  /// The Swift source of the query (abridged by the reader).
  public var source: String
  /// How the app runs it there (`fetchAll`, `execute`, `FetchAll`), nil when the code only builds it.
  public var executedBy: String?
  public var outcome: Outcome
  /// Deprecated spellings, and other warnings the compiler gives for it.
  public var warnings: [Diagnostic]
  /// Loops over fetched rows around it (N+1), as line and column.
  public var loops: [(line: Int, column: Int, inTransaction: Bool)]
  /// For a query with run-time conditions: the branches this variant takes
  /// (`!showAll` is true), one entry per variant.
  public var variant: String?
  /// Where a skipped query's code stops Quarry (line and column), when that is known.
  public var skippedAt: (line: Int, column: Int)?
  /// `\(raw: value)` splices of values that are not literals, as line and column, with where
  /// in the SQL each stands.
  public var rawSplices: [(line: Int, column: Int, text: String, role: SpliceRole)]
}

/// Where a `\(raw: …)` splice stands in the SQL text: what it can be written as instead.
public enum SpliceRole: Sendable {
  /// Where a value goes: bound with `\(value)`.
  case value
  /// Where a name goes (after `TABLE`, `FROM`, `INTO`, …, or inside `"…"`): a name is never bound.
  case name
  /// Inside an SQL string literal (`'-\(raw: n) months'`): the whole string is the value to bind.
  case insideString
}

extension Compiler {
  /// Reads an app's sources (all files as one input, see `ScanSources`): its declarations, and
  /// its set-up run as at launch (migrations, triggers). The items are the set-up's statements.
  public func scanSetUp(_ sources: ScanSources) -> [CompiledItem] {
    warnings = []
    appCode.skipped = []
    appCode.pendingSetUp = []
    appCode.recovering = true
    budget = EvaluationBudget()
    let parsed = sources.tree
    source = SourceUnit(text: sources.text, tree: parsed)
    var items: [CompiledItem] = []
    do {
      let statements = Array(parsed.statements)
      scanSources = sources
      // Values the app computes when it runs (`Date()`, `String(localized:)`, a record set
      // from them) are the app's, bound; a statement that binds one is listed, not run.
      scanning = true
      defer { scanning = false }
      // Each file's `private` models first: a file's migrations use its own.
      readFilePrivateModels(statements, into: &items)
      _ = try readDeclarationsAndRunSetUp(statements, into: &items, recovering: true)
      readNestedModels(in: parsed, into: &items)
      try appCode.runPendingSetUp(into: &items, recovering: true)
    } catch let diagnostic as Diagnostic {
      items.append(.failure(diagnostic))
    } catch let runTime as RunTimeValue {
      items.append(
        .failure(
          Diagnostic(
            "Quarry cannot follow the app's set-up: it uses '\(runTime.name)', a value the app computes when it runs", line: 1, column: 1)))
    } catch {
      items.append(.failure(Diagnostic("internal error: \(error)", line: 1, column: 1)))
    }
    return items
  }

  /// Models declared inside app types (`struct RemindersDetail { @Selection struct Row … }`).
  private func readNestedModels(in tree: SourceFileSyntax, into items: inout [CompiledItem]) {
    final class Finder: SyntaxVisitor {
      var found: [DeclSyntax] = []
      /// The type each found declaration is nested in.
      var outer: [String] = []
      var path: [String] = []
      func note(_ decl: DeclSyntax, _ name: String, _ attributes: AttributeListSyntax)
        -> SyntaxVisitorContinueKind
      {
        if let parent = path.last,
          attributeNames(attributes).contains(where: { $0 == "Table" || $0 == "Selection" })
        {
          found.append(decl)
          outer.append(parent)
        }
        path.append(name)
        return .visitChildren
      }
      override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind {
        note(DeclSyntax(node), node.name.text, node.attributes)
      }
      override func visitPost(_ node: StructDeclSyntax) { path.removeLast() }
      override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind {
        note(DeclSyntax(node), node.name.text, node.attributes)
      }
      override func visitPost(_ node: EnumDeclSyntax) { path.removeLast() }
      override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind {
        note(DeclSyntax(node), node.name.text, node.attributes)
      }
      override func visitPost(_ node: ClassDeclSyntax) { path.removeLast() }
      override func visit(_ node: ExtensionDeclSyntax) -> SyntaxVisitorContinueKind {
        path.append(node.extendedType.trimmedDescription)
        return .visitChildren
      }
      override func visitPost(_ node: ExtensionDeclSyntax) { path.removeLast() }
    }
    let finder = Finder(viewMode: .sourceAccurate)
    finder.walk(tree)
    for position in DeclarationOrder.reading(finder.found) {
      do {
        let decl = finder.found[position]
        try DeclarationReader(
          catalog: catalog, source: source,
          warn: { [unowned self] deprecation, node in try self.warn(deprecation, at: node) }
        ).read(decl)
        if let name = decl.asProtocol(NamedDeclSyntax.self)?.name.text,
          let model = catalog.table(forType: name)
        {
          catalog.nestedTypes[finder.outer[position] + "." + name] = model
        }
      } catch let diagnostic as Diagnostic {
        items.append(.failure(diagnostic))
      } catch {}
    }
  }

  /// `private struct Fact` at the top of a file: that file's own model, read again and kept
  /// under its file (the catalog's plain name holds whichever was read last).
  private func readFilePrivateModels(
    _ statements: [CodeBlockItemSyntax], into items: inout [CompiledItem]
  ) {
    for item in statements {
      guard case .decl(let decl) = item.item, let named = decl.asProtocol(NamedDeclSyntax.self),
        let modifiers = decl.asProtocol(WithModifiersSyntax.self)?.modifiers,
        modifiers.contains(where: { $0.name.text == "private" || $0.name.text == "fileprivate" }),
        let attributes = decl.asProtocol(WithAttributesSyntax.self)?.attributes,
        attributeNames(attributes).contains(where: { $0 == "Table" || $0 == "Selection" }),
        let file = fileIndex(of: decl.positionAfterSkippingLeadingTrivia)
      else { continue }
      do {
        try DeclarationReader(
          catalog: catalog, source: source,
          warn: { [unowned self] deprecation, node in try self.warn(deprecation, at: node) }
        ).read(decl)
        if let model = catalog.table(forType: named.name.text) {
          catalog.nestedTypes["#\(file)." + named.name.text] = model
        }
      } catch let diagnostic as Diagnostic {
        items.append(.failure(diagnostic))
      } catch {}
    }
  }

  /// The scanned file a position is in.
  func fileIndex(of position: AbsolutePosition) -> Int? {
    scanSources?.fileIndex(line: source.lineAndColumn(of: position).line)
  }

  /// Where a line of the input is, as a message names it: `line 12`, or in a scan (all files
  /// read as one text) the file and its own line, `Models/Entry.swift:12`.
  func placeOfLine(_ line: Int) -> String {
    guard let sources = scanSources, !sources.files.isEmpty else { return "line \(line)" }
    let place = sources.locate(line: line)
    return "\(place.path):\(place.line)"
  }

  /// Every query the app's code builds, in source order.
  public func querySites() -> [QuerySite] {
    // `Self` in a protocol's extension is each conforming table's (`extension SingleRowTable`).
    let conformed = Set(catalog.tables.values.filter { !$0.isSelection }.flatMap(\.conformances))
    let finder = QuerySiteFinder(
      isTable: { [catalog] name in catalog.table(forType: name).map { !$0.isSelection } ?? conformed.contains(name) },
      isNamespaceMember: { [catalog] type, member in
        catalog.staticProperties[type + "." + member] != nil || catalog.staticFunctions[type + "." + member] != nil
          || catalog.table(forType: type)?.scopes[member] != nil
      }, appRunMethods: catalog.appRunMethods, typeMembers: TypeMemberBlocks(source.tree))
    finder.walk(source.tree)
    return finder.sites
  }

  /// Compiles one query where it stands: the names around it are values the app supplies when
  /// it runs (bound parameters), `Self` is the type it is written in.
  public func compile(_ site: QuerySite) -> [ScannedQuery] {
    // `SoundFont.insert(db, sf2: sf2)`, `SoundFont.delete(id: id)`: the app's own function,
    // named like the library's; its statements are listed where its body writes them.
    // `Self.find(id).fetchOne(db)` in `extension SingleRowTable { … }`: one query for each table
    // that conforms, as each of them runs it.
    if let protocolName = site.selfType, catalog.table(forType: protocolName) == nil {
      let conforming = catalog.tables(conformingTo: protocolName)
      if !conforming.isEmpty {
        return conforming.flatMap { table in
          compile(site.withSelfType(table.typeName)).map { query in
            var query = query
            query.variant = (["Self is \(table.typeName)"] + (query.variant.map { [$0] } ?? [])).joined(separator: ", ")
            return query
          }
        }
      }
    }
    if let expr = site.node.as(ExprSyntax.self), isAppOwnAction(expr, selfType: site.selfType) { return [] }
    return compileVariants(site)
  }

  /// The variants of one query site (see `compile(_:)`).
  private func compileVariants(_ site: QuerySite) -> [ScannedQuery] {
    // Each run-time choice the query meets (an `if`, a ternary, a `switch` on a value the app
    // has when it runs) takes its first branch, then each other branch once, the rest as in the
    // variant it was found in: every branch's SQL is shown, in 1 + Σ(branches − 1) variants.
    var queue: [[String: Int]] = [[:]]
    var known: Set<String> = []
    var out: [ScannedQuery] = []
    while !queue.isEmpty, out.count < 32 {
      let choices = queue.removeFirst()
      runTimeChoices = choices
      runTimeTaken = []
      defer { runTimeChoices = [:] }
      guard var result = compileVariant(site) else { return [] }
      for choice in runTimeTaken where !known.contains(choice.key) {
        known.insert(choice.key)
        for index in choice.alternatives.indices where index != choice.index {
          queue.append(choices.merging([choice.key: index]) { $1 })
        }
      }
      if !runTimeTaken.isEmpty {
        result.variant = runTimeTaken.map { "\($0.key) is \($0.alternatives[$0.index])" }.joined(
          separator: ", ")
      }
      out.append(result)
    }
    return out
  }

  /// Whether `expr` calls a function a model declares (`static func insert(_ db: Database,
  /// sf2: …)`) that runs statements and returns no query: the app's action, not a query.
  func isAppOwnAction(_ expr: ExprSyntax, selfType: String?) -> Bool {
    // `SettingsRecord.find(in: db).isDark`: the call is what runs.
    var expr = expr
    while true {
      if let access = expr.as(MemberAccessExprSyntax.self), let base = access.base,
        base.is(FunctionCallExprSyntax.self) || base.is(OptionalChainingExprSyntax.self) || base.is(ForceUnwrapExprSyntax.self)
      {
        expr = base
      } else if let chained = expr.as(OptionalChainingExprSyntax.self) {
        expr = chained.expression
      } else if let unwrapped = expr.as(ForceUnwrapExprSyntax.self) {
        expr = unwrapped.expression
      } else {
        break
      }
    }
    guard let call = expr.as(FunctionCallExprSyntax.self), let member = call.calledExpression.as(MemberAccessExprSyntax.self),
      let base = member.base?.as(DeclReferenceExprSyntax.self)
    else { return false }
    let typeName = base.baseName.text == "Self" ? selfType : base.baseName.text
    guard let typeName, let model = catalog.table(forType: typeName), let scope = model.scopes[member.declName.baseName.text],
      scope.accepts(Arguments(call)), let function = scope.body.syntax.parent?.as(FunctionDeclSyntax.self)
    else { return false }
    // Handed the database, it runs its own statements, whatever it returns
    // (`static func find(in db: Database) -> Self`): they are listed where its body writes them.
    if function.signature.parameterClause.parameters.contains(where: { AppCodeRunner.isDatabaseHandle($0.type.trimmedDescription) }) {
      return true
    }
    guard AppCodeRunner.hasStatements(scope) else { return false }
    let returned = function.signature.returnClause?.type.trimmedDescription
    return returned == nil || returned == "Void" || returned == "()"
  }

  /// `for var draft in drafts { … }` around a query, where `drafts` is declared `[Reminder.Draft]`:
  /// `draft` is a `Reminder.Draft`, as Swift types a loop's element.
  static func withLoopElementTypes(_ names: [(name: String, type: TypeSyntax?)], around node: Syntax) -> [(name: String, type: TypeSyntax?)]
  {
    var names = names
    var current = node.parent
    while let parent = current {
      current = parent.parent
      guard let loop = parent.as(ForStmtSyntax.self), loop.typeAnnotation == nil,
        let element =
          (loop.pattern.as(IdentifierPatternSyntax.self)
          ?? loop.pattern.as(ValueBindingPatternSyntax.self)?.pattern.as(IdentifierPatternSyntax.self))?.identifier.text,
        let sequence = loop.sequence.as(DeclReferenceExprSyntax.self)?.baseName.text,
        let sequenceType = names.last(where: { $0.name == sequence })?.type, let elementType = Self.elementType(of: sequenceType),
        let index = names.lastIndex(where: { $0.name == element }), names[index].type == nil
      else { continue }
      names[index].type = elementType
    }
    return names
  }

  /// The element type of `[T]`, `Array<T>`, `Set<T>`, `ArraySlice<T>`.
  static func elementType(of type: TypeSyntax) -> TypeSyntax? {
    if let array = type.as(ArrayTypeSyntax.self) { return array.element }
    guard let generic = type.as(IdentifierTypeSyntax.self), ["Array", "Set", "ArraySlice", "ContiguousArray"].contains(generic.name.text),
      let arguments = generic.genericArgumentClause?.arguments, arguments.count == 1
    else { return nil }
    return arguments.first?.argument.as(TypeSyntax.self)
  }

  /// Whether an initializer is a `let`'s (its value stays what the initializer made).
  static func isConstant(_ initializer: ExprSyntax) -> Bool {
    guard let declaration = initializer.parent?.parent?.parent?.parent?.as(VariableDeclSyntax.self)
    else { return false }
    return declaration.bindingSpecifier.tokenKind == .keyword(.let)
  }

  /// The branch a run-time choice takes in this variant (the first, unless the variant says).
  func runTimeChoice(_ key: String, alternatives: [String]) -> Int {
    let index = runTimeChoices[key] ?? 0
    if !runTimeTaken.contains(where: { $0.key == key }) {
      runTimeTaken.append((key, alternatives, index))
    }
    return index
  }

  /// A Swift `Bool` the app has when it runs, deciding a branch: the variant's choice for it
  /// (`!showAll` is the choice for `showAll`, negated).
  func runTimeCondition(_ condition: some SyntaxProtocol) throws -> Bool {
    var node = Syntax(condition)
    var negated = false
    while true {
      if let prefix = node.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "!" {
        negated.toggle()
        node = Syntax(prefix.expression)
      } else if let tuple = node.as(TupleExprSyntax.self), tuple.elements.count == 1,
        let only = tuple.elements.first
      {
        node = Syntax(only.expression)
      } else {
        break
      }
    }
    return (runTimeChoice(text(of: node), alternatives: ["true", "false"]) == 0) != negated
  }

  /// One variant of a query, with the run-time choices `runTimeChoices` makes.
  private func compileVariant(_ site: QuerySite) -> ScannedQuery? {
    warnings = []
    budget = EvaluationBudget()
    let location = source.lineAndColumn(of: site.position)
    var result = ScannedQuery(
      line: location.line, column: location.column, source: text(of: site.node),
      executedBy: site.executedBy, outcome: .skipped(""), warnings: [],
      loops: site.loops.map { loop in
        let place = source.lineAndColumn(of: loop.start)
        return (place.line, place.column, loop.inTransaction)
      },
      rawSplices: rawSplices(in: site.node))
    let savedSelf = selfTable
    let savedLocals = locals
    defer {
      selfTable = savedSelf
      locals = savedLocals
      runTimeValues = [:]
      scanning = false
      enclosingType = nil
      currentFile = nil
    }
    scanning = true
    enclosingType = site.selfType
    currentFile = fileIndex(of: site.position)
    selfTable = site.selfType.flatMap { catalog.table(forType: $0) }.flatMap {
      $0.isSelection ? nil : TableInstance(model: $0)
    }
    locals = []
    runTimeValues = runTimeBindings(Self.withLoopElementTypes(site.runTimeNames, around: site.node))
    if site.isInInstanceMember, let table = selfTable {
      // `self.id` in `var presets: [Preset]` of `extension SoundFont`: the app's record's id;
      // a column named bare there (`id`) is that record's too, unless a local shadows it.
      runTimeValues["self"] = runTimeRecord("self", model: table.model, isDraft: false)
      for name in site.memberNames where table.model.column(named: name) != nil { runTimeValues[name] = nil }
    }
    if let method = Self.grdbQueryInterfaceMethod(in: site.node) {
      result.outcome = .skipped(
        "GRDB's query interface ('\(method)'), not StructuredQueries': Quarry renders the SQL of StructuredQueries' query builder")
      return result
    }
    do {
      if let wrapper = site.wrapper, let variable = site.node.as(VariableDeclSyntax.self) {
        // Each query stands alone: the property's value is not a name later queries see.
        let bindings = catalog.bindings
        defer { catalog.bindings = bindings }
        let items = try appCode.fetchItems(variable, wrapper: wrapper)
        guard case .statement(let compiled)? = items.first else {
          let name = variable.bindings.first?.pattern.trimmedDescription ?? "…"
          result.outcome = .skipped(
            "@\(wrapper.attributeName.trimmedDescription) var \(name) has no query of its own: the app gives it one elsewhere"
          )
          return result
        }
        result.source = text(of: site.node)
        result.outcome = .statement(compiled)
      } else if site.isRawSQL, let expr = site.node.as(ExprSyntax.self) {
        // GRDB's raw SQL: the text as written (its `?` bound from `arguments:`).
        guard let literal = expr.as(StringLiteralExprSyntax.self) else {
          result.outcome = .skipped(
            "its SQL is the text in '\(text(of: expr))', a value the app has when it runs")
          return result
        }
        let sql = try stringValue(literal)
        result.outcome = .statement(
          try statement(
            from: .statement(.raw(QueryFragment(sql)), returningTypes: []),
            input: text(of: site.node), at: expr))
      } else if let scope = site.scopeName, let table = selfTable {
        // `static let withTags = group(by: \.id)…`: the scope, as `Self.withTags`.
        // `static let all = Self.where { … }`, the default scope: its own value, the predicate once.
        let value = scope == "all" ? .query(try baseQuery(table)) : try member(scope, of: .table(table), at: site.node)
        guard isQuery(value) else { return nil }
        result.outcome = .statement(
          try statement(from: value, input: text(of: site.node), at: site.node))
      } else if let expr = site.node.as(ExprSyntax.self) {
        let value: Value
        do {
          // `baseQuery.where { … }` after `let baseQuery = baseQuery(searchText: …)`: the local
          // holds the query its initializer builds.
          var start: [String: Value] = [:]
          if let root = Self.rootName(of: expr), let initializer = site.localInitializers[root] {
            // `let store = HKHealthStore()` then `store.execute(hkQuery)`: a value of a type neither
            // the app nor the library declares, run by its own `execute`: no statement.
            if expr.is(DeclReferenceExprSyntax.self), madeOfUnknownType(initializer) != nil { return nil }
            // The name is not in scope in its own initializer: `baseQuery(…)` there is the function.
            let declared = runTimeValues.removeValue(forKey: root)
            defer { runTimeValues[root] = declared }
            start[root] = try evaluate(initializer)
          }
          // `let checkIn = CheckIn.Draft(date: selectedDate, …)` before `upsert { checkIn }`:
          // a constant holds its initializer's value (a draft with no id is NULL there), its
          // run-time parts bound; one Quarry cannot follow stays a value the app has.
          for token in expr.tokens(viewMode: .sourceAccurate) {
            guard case .identifier(let name) = token.tokenKind, start[name] == nil,
              let initializer = site.localInitializers[name],
              Self.isConstant(initializer),
              initializer.positionAfterSkippingLeadingTrivia
                < expr.positionAfterSkippingLeadingTrivia
            else { continue }
            // A record (`T.Draft(…)`, `T(…)`): a query's rows (`try T.fetchOne(db)!`) are the app's.
            // Tried for a record: the run-time choices met on the way count only if it is one.
            let taken = runTimeTaken
            if let value = try? evaluate(initializer), case .query(let record) = value, record.select.from == nil,
              record.resultModel != nil
            {
              start[name] = value
              continue
            }
            runTimeTaken = taken
            if let (model, isDraft) = recordType(madeBy: initializer) {
              // `let draft = Performance.Draft(id: .init(stabilizedBy: …), …)` with parts the app
              // computes when it runs: a record of that type, each field bound.
              start[name] = runTimeRecord(name, model: model, isDraft: isDraft)
            }
          }
          value = try withLocals(start) { try evaluate(expr) }
        } catch  where !site.callsQueryMethod {
          // `Self.defaultColor`: a model's static member that is no query.
          return nil
        }
        guard isQuery(value) else {
          if let root = Self.rootName(of: expr), root.first?.isLowercase == true {
            result.outcome = .skipped(
              "this query starts from '\(root)', which Quarry cannot follow here (it follows queries that start at a table type, a model's scope, or a local or function that builds one)"
            )
            return result
          }
          return nil
        }
        let compiled = try statement(
          from: try executed(value, by: site.executedBy), input: text(of: site.node), at: expr)
        result.outcome = .statement(compiled)
      }
    } catch let runTime as RunTimeValue {
      result.outcome = .skipped(
        "its SQL depends on '\(runTime.name)', a value the app computes when it runs")
    } catch let diagnostic as Diagnostic {
      if Self.isGap(diagnostic) {
        result.outcome = .skipped(diagnostic.fullMessage)
        result.skippedAt = (diagnostic.line, diagnostic.column)
      } else {
        result.outcome = .error(diagnostic)
      }
    } catch {
      result.outcome = .skipped("\(error)")
    }
    result.warnings = warnings
    return result
  }

  /// The statement SQLiteData runs for a fetch: `fetchOne` of rows of a table (no `select`)
  /// adds `LIMIT 1`, `fetchCount` counts them (`SELECT count(*) …`); the rest run as built.
  func executed(_ value: Value, by call: String?) throws -> Value {
    guard call == "fetchOne" || call == "fetchCount" else { return value }
    var query: Query
    switch value {
    case .table(let table): query = try baseQuery(table)
    case .query(let built) where built.select.columns.isEmpty && built.select.from != nil:
      query = built
    default: return value
    }
    if call == "fetchOne" {
      query.select.limit = .value(.integer(1))
      query.select.offset = nil
    } else {
      query.select.columns = [
        ResultColumn(Expression(.aggregate(Aggregate(name: "count", arguments: [.star]))))
      ]
      query.columnTypes = [.int]
    }
    return .query(query)
  }

  /// The name a chain starts from (`baseQuery` in `baseQuery.where { … }.order(by: \.title)`).
  static func rootName(of expr: ExprSyntax) -> String? {
    QuerySiteFinder.links(of: expr).first?.as(DeclReferenceExprSyntax.self)?.baseName.text
  }

  /// A node's source text, sliced from the input (cheaper than rebuilding a trimmed tree).
  func text(of node: some SyntaxProtocol) -> String {
    let utf8 = source.text.utf8
    let start = node.positionAfterSkippingLeadingTrivia.utf8Offset
    let end = node.endPositionBeforeTrailingTrivia.utf8Offset
    guard start >= 0, start <= end, end <= utf8.count else { return node.trimmedDescription }
    let from = utf8.index(utf8.startIndex, offsetBy: start)
    return String(decoding: utf8[from..<utf8.index(from, offsetBy: end - start)], as: UTF8.self)
  }

  /// Messages that say Quarry cannot follow the code, rather than that the query is wrong.
  static func isGap(_ diagnostic: Diagnostic) -> Bool {
    let gaps = [
      "unknown name", "unknown table or type", "which is not a parameter or a local value here",
      "not supported in Quarry yet", "comes from app code Quarry does not run", "a value the app",
      "cannot be computed here", "Quarry does not",
    ]
    return gaps.contains { diagnostic.message.contains($0) }
  }

  private func isQuery(_ value: Value) -> Bool {
    switch value {
    case .query(let query): return query.select.from != nil || query.resultModel == nil
    case .statement, .write, .table: return true
    case .expression(let typed):
      if case .sql(let parts) = typed.expression.node, case .text(let text)? = parts.first {
        return Self.startsWithStatementKeyword(text)
      }
      return false
    default: return false
    }
  }

  /// `\(raw: name)` in a `#sql` of the query: a value spliced into the SQL text. A table's own
  /// name spliced inside quotes (`CREATE TABLE "\(raw: Self.tableName)"`) is the app writing a
  /// name the way SQL needs it, and is left out.
  private func rawSplices(in node: Syntax) -> [(line: Int, column: Int, text: String, role: SpliceRole)] {
    var out: [(line: Int, column: Int, text: String, role: SpliceRole)] = []
    for token in node.tokens(viewMode: .sourceAccurate) where token.tokenKind == .identifier("raw") {
      guard let labeled = token.parent?.as(LabeledExprSyntax.self), labeled.label?.id == token.id,
        let segment = labeled.parent?.parent?.as(ExpressionSegmentSyntax.self)
      else { continue }
      let value = labeled.expression
      if value.is(StringLiteralExprSyntax.self) || value.is(IntegerLiteralExprSyntax.self)
        || value.is(FloatLiteralExprSyntax.self)
      {
        continue
      }
      let (before, after) = Self.textAround(segment)
      let quoted = before.hasSuffix("\"") && after.hasPrefix("\"")
      let name = value.trimmedDescription
      if quoted, name.hasSuffix("tableName") || name.hasSuffix("databaseTableName") { continue }
      let lastWord = before.split(whereSeparator: { !$0.isLetter }).last.map { $0.uppercased() } ?? ""
      let role: SpliceRole =
        quoted || ((before.last?.isWhitespace ?? false) && Self.nameKeywords.contains(lastWord))
        ? .name : before.filter({ $0 == "'" }).count % 2 == 1 ? .insideString : .value
      let location = source.lineAndColumn(of: labeled.positionAfterSkippingLeadingTrivia)
      out.append((location.line, location.column, labeled.trimmedDescription, role))
    }
    return out
  }

  /// A method of GRDB's own query interface in a chain (`Player.all().filter(…)`,
  /// `.including(all:)`), which StructuredQueries does not have: such a query is GRDB's.
  static func grdbQueryInterfaceMethod(in node: Syntax) -> String? {
    guard let expr = node.as(ExprSyntax.self) else { return nil }
    for link in QuerySiteFinder.links(of: expr) {
      guard let call = link.as(FunctionCallExprSyntax.self),
        let name = call.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName.text
      else { continue }
      if grdbOnlyMethods.contains(name) { return name }
      // `all()` with parentheses is GRDB's request; StructuredQueries' `all` is a property.
      if name == "all", call.arguments.isEmpty, call.trailingClosure == nil { return "all()" }
    }
    return nil
  }

  static let grdbOnlyMethods: Set<String> = [
    "filter", "including", "joining", "annotated", "aggregate", "matching", "orderByPrimaryKey", "request", "deleteAll",
    "updateAll",
  ]

  /// SQL words a name follows (`CREATE TABLE x`, `FROM x`, `INSERT INTO x`, `ON x`).
  static let nameKeywords: Set<String> = [
    "TABLE", "FROM", "JOIN", "INTO", "UPDATE", "EXISTS", "INDEX", "ON", "REFERENCES", "TRIGGER", "VIEW", "COLUMN",
  ]

  /// The literal text of a string just before and after one of its interpolations.
  static func textAround(_ segment: ExpressionSegmentSyntax) -> (before: String, after: String) {
    guard let segments = segment.parent?.as(StringLiteralSegmentListSyntax.self) else { return ("", "") }
    let all = Array(segments)
    guard let index = all.firstIndex(where: { $0.id == Syntax(segment).id }) else { return ("", "") }
    let before = index > 0 ? all[index - 1].as(StringSegmentSyntax.self)?.content.text ?? "" : ""
    let after = index + 1 < all.count ? all[index + 1].as(StringSegmentSyntax.self)?.content.text ?? "" : ""
    return (before, after)
  }

  /// The names around a query as values: a record of a table type is a row of run-time
  /// values (`reminder.title`), anything else one value of its declared type.
  func runTimeBindings(_ names: [(name: String, type: TypeSyntax?)]) -> [String: Value] {
    var bindings: [String: Value] = [:]
    for (name, syntax) in names {
      var type = syntax.map(SwiftEvaluator.swiftType).map(typeAsWritten)
      if let declared = type,
        let model = catalog.table(forType: declared.name.replacing(".Draft", with: "")),
        !model.isSelection
      {
        bindings[name] = runTimeRecord(
          name, model: model, isDraft: declared.name.hasSuffix(".Draft"))
        continue
      }
      if let declared = type, declared.name.hasSuffix(".ID"),
        let model = catalog.table(forType: String(declared.name.dropLast(3)))
      {
        // `RemindersList.ID`: the primary key's type.
        type = model.primaryKeyColumns.first.map {
          declared.isOptional ? $0.type.optional : $0.type
        }
      }
      bindings[name] = .runTime(name, type: type)
    }
    return bindings
  }

  /// A type name written in the enclosing type, as Swift looks it up: a type nested there
  /// (`Kind` inside `Preset` is `Preset.Kind`) before one declared outside.
  func typeAsWritten(_ type: SwiftType) -> SwiftType {
    guard let outer = enclosingType else { return type }
    if type.name == "Self" || type.name.hasPrefix("Self.") {
      // `_ ignored: Self` in a table's static function: that table.
      var own = type
      own.name = outer + type.name.dropFirst("Self".count)
      return own
    }
    guard !type.name.contains("."), !type.name.contains("<") else { return type }
    let nested = outer + "." + type.name
    guard catalog.enums[nested] != nil || catalog.table(forType: nested) != nil else { return type }
    var qualified = type
    qualified.name = nested
    return qualified
  }

  /// The type an initializer makes when it is a type neither the app nor the library declares
  /// (`HKHealthStore()`, `NSFetchRequest<Item>(…)`); nil for anything else.
  func madeOfUnknownType(_ expr: ExprSyntax) -> String? {
    guard let call = AppCodeRunner.unwrapped(expr).as(FunctionCallExprSyntax.self) else { return nil }
    var callee = call.calledExpression
    if let specialized = callee.as(GenericSpecializationExprSyntax.self) { callee = specialized.expression }
    guard let name = callee.as(DeclReferenceExprSyntax.self)?.baseName.text, name.first?.isUppercase == true,
      catalog.table(forType: name) == nil, !catalog.typeNames.contains(name), catalog.valueTypes[name] == nil,
      catalog.functions[name] == nil, Vocabulary.methods(named: name, on: .function).isEmpty,
      !["With", "Values", "Self"].contains(name)
    else { return nil }
    return name
  }

  /// A record the app holds (`reminder: Reminder`): each column a run-time value.
  /// The table type a call makes a record of (`Performance.Draft(…)`, `Performance(…)`), and
  /// whether it is a draft; nil for any other expression.
  func recordType(madeBy expr: ExprSyntax) -> (TableModel, isDraft: Bool)? {
    var inner = expr
    while let wrapped = inner.as(TryExprSyntax.self)?.expression { inner = wrapped }
    guard let call = inner.as(FunctionCallExprSyntax.self) else { return nil }
    var typeName = call.calledExpression.trimmedDescription
    let isDraft = typeName.hasSuffix(".Draft")
    if isDraft { typeName.removeLast(".Draft".count) }
    if typeName == "Self", let own = enclosingType { typeName = own }
    guard let model = catalog.table(forType: typeName), !model.isSelection else { return nil }
    return (model, isDraft)
  }

  func runTimeRecord(_ name: String, model: TableModel, isDraft: Bool) -> Value {
    var select = Select(from: nil)
    let columns = model.columns.filter { !$0.isGenerated }
    select.columns = columns.map {
      ResultColumn(.value(.parameter(name + "." + $0.name)), as: $0.sqlName)
    }
    var query = Query(select: select, tables: [TableInstance(model: model)])
    query.columnTypes = columns.map { isDraft && $0.isPrimaryKey ? $0.type.optional : $0.type }
    query.resultModel = isDraft ? model.typeName + ".Draft" : model.typeName
    return .query(query)
  }

  /// The first value in `expression` the app supplies when it runs (nil: none).
  static func runTimeName(in expression: Expression) -> String? {
    for binding in expression.fragment.bindings {
      if case .parameter(let name) = binding { return name }
    }
    return nil
  }

  /// `uuid()` where `uuid: @escaping @Sendable () -> UUID` is a parameter (or a property such as
  /// `@Dependency(\.uuid) var uuid`) around a scanned query: the app calls the closure it holds,
  /// so the result is a run-time value, typed by the closure's result type where it is written.
  /// Nil when `name` is not a run-time value.
  func runTimeClosureCall(_ name: String, arguments: Arguments) -> Value? {
    guard case .expression(let typed)? = runTimeValues[name], case .value(.parameter) = typed.expression.node
    else { return nil }
    let result = typed.type.flatMap { Self.closureResultType(of: $0.name) }
    return .runTime(text(of: arguments.call), type: result)
  }

  /// The result type of a function type's spelling (`@Sendable () throws -> UUID?` gives
  /// `UUID?`); nil when `spelling` is not a function type.
  static func closureResultType(of spelling: String) -> SwiftType? {
    var depth = 0
    var previous: Character = " "
    for index in spelling.indices {
      let character = spelling[index]
      switch character {
      case "(", "[", "<": depth += 1
      case ")", "]": depth -= 1
      case ">" where previous == "-" && depth == 0:
        let result = String(spelling[spelling.index(after: index)...]).trimmingScalars(in: [" "])
        guard !result.isEmpty, !result.contains("->") else { return nil }
        if result.hasSuffix("?") { return SwiftType(String(result.dropLast())).optional }
        return SwiftType(result)
      case ">": depth -= 1
      default: break
      }
      previous = character
    }
    return nil
  }

  /// `list.id`, `searchText.lowercased()`: a member of a run-time value is one too (typed by
  /// the model's column where the value is a record of a table). Nil when `base` is not one,
  /// or the member is one of the library's methods (`listID.eq(…)`).
  func runTimeMember(_ name: String, of base: Value, whole: some SyntaxProtocol, isCall: Bool)
    -> Value?
  {
    guard case .expression(let typed) = base,
      case .value(.parameter(let baseName)) = typed.expression.node
    else { return nil }
    if isCall, !Vocabulary.methods(named: name, on: .expression).isEmpty { return nil }
    var type: SwiftType?
    if !isCall, let baseType = typed.type, let model = catalog.table(forType: baseType.name),
      let column = model.column(named: name)
    {
      type = baseType.isOptional ? column.type.optional : column.type
    }
    // `attendees[…].name`: a property is named from its base, so an element keeps its list's name.
    let name = isCall ? text(of: whole) : baseName + "." + name
    return .runTime(name, type: type)
  }
}

extension Compiler {
  /// Where the whole statement a query stands in starts and ends (line, column), for telling
  /// a query the set-up already ran from a new one.
  public func span(of site: QuerySite) -> (
    start: (line: Int, column: Int), end: (line: Int, column: Int)
  ) {
    let start = source.lineAndColumn(of: site.statement.positionAfterSkippingLeadingTrivia)
    let end = source.lineAndColumn(of: site.statement.endPositionBeforeTrailingTrivia)
    return ((start.line, start.column), (end.line, end.column))
  }
}
