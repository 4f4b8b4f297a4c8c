import QueryBuilder
import SwiftParser
import SwiftSyntax

/// A statement compiled from DSL input, ready to render and run.
///
/// ```swift
/// let items = try Compiler(catalog: catalog).compile("Tag.order(by: \\.title)")
/// // SELECT "tags"."id", "tags"."title"
/// // FROM "tags"
/// // ORDER BY "tags"."title"
/// ```
public struct CompiledStatement: Sendable {
  public var statement: Statement
  /// The input text this statement came from.
  public var input: String
  /// Swift types of the result columns where known (for display).
  public var columnTypes: [SwiftType?]
  /// Where the statement starts in the input (1-based), for locating SQLite errors.
  public var line: Int
  public var column: Int
  /// The source line there with a caret under the statement, for an error SQLite reports when
  /// it runs (a foreign key, a missing table).
  public var excerpt: String?
  /// The SQL a pasted StructuredQueries test expects for this statement (`assertQuery(…) { """…""" }`).
  public var expectedSQL: String?
  /// What the statement's SQL assumes where a scanned app computes a value Quarry does not run
  /// (`\(raw: color ?? 0)` spliced with its fallback `0`): located sentences a reader is shown.
  public var assumptions: [Diagnostic] = []

  public init(statement: Statement, input: String, columnTypes: [SwiftType?], line: Int, column: Int) {
    self.statement = statement
    self.input = input
    self.columnTypes = columnTypes
    self.line = line
    self.column = column
  }

  /// The SQL as StructuredQueries shows it: values inlined as literals.
  public var displaySQL: String { statement.fragment.sql(inlining: true) }
}

/// What one top-level item of an input compiled to.
public enum CompiledItem: Sendable {
  /// A declaration (model, scope, binding) added to the catalog.
  case declaration(name: String)
  case statement(CompiledStatement)
  /// Something read but not run, and why, in one line (app plumbing skipped, a statement app
  /// code builds and never executes).
  case note(String)
  /// An item that failed on its own while the rest of the input compiled (a whole file pasted:
  /// each statement stands alone).
  case failure(Diagnostic)
  /// The start of app code that runs in one transaction: a migration (GRDB runs each in its own)
  /// or a `database.write { … }` block. Its statements follow, up to the matching `unitEnd`.
  case unitStart(TransactionUnit)
  /// The unit's code threw (`throw CancellationError()` in a `database.write { … }`): GRDB rolls
  /// its transaction back. Its `unitEnd` follows.
  case unitThrew(Diagnostic)
  case unitEnd
}

/// A Swift `throw` reached in app code: it leaves the blocks around it up to a `do … catch`, a
/// transaction unit (rolled back), or the input (the rest does not run).
struct ThrownInApp: Error {
  var diagnostic: Diagnostic
}

/// App code that runs as one transaction: all its statements stay, or none.
public struct TransactionUnit: Sendable, Equatable {
  public enum Kind: Sendable, Equatable {
    /// `migrator.registerMigration("Seed") { db in … }`.
    case migration(String)
    /// `database.write { db in … }` (and `transaction`, `inTransaction`, `asyncWrite`).
    case write
  }
  public var kind: Kind
  public var line: Int
  public var column: Int
  /// The tables and views a migration's code creates, read off its text (`CREATE TABLE
  /// "items"`, `create(table: "items")`): what is missing when Quarry cannot follow it.
  public var creates: [String] = []

  /// How a message names it: `migration 'Seed'`, `the write block`.
  public var description: String {
    switch kind {
    case .migration(let name): return "migration '\(name)'"
    case .write: return "the write block"
    }
  }
}

/// Compiles DSL input (Swift syntax) into query-builder statements, recording declarations in
/// the catalog. It interprets the syntax tree (nothing is compiled with `swiftc`): expressions
/// become DSL values here, a method call runs its vocabulary entry's handler (`Methods/`), app
/// code runs in ``AppCodeRunner``, and Swift computations in the one ``SwiftEvaluator``.
public final class Compiler {
  public let catalog: Catalog
  /// The input being compiled (an empty one until the first `compile`).
  lazy var source = SourceUnit(text: "", tree: Parser.parse(source: ""))
  /// Local names: closure parameters, function parameters, `let`s inside closures.
  var locals: [[String: Value]] = []
  /// The array types names were declared with (`let xs: [Double] = []`): an array's elements
  /// cannot tell their type when there are none, and Swift types a `reduce(0, +)` by it.
  var declaredArrayTypes: [String: SwiftType] = [:]
  /// The table `Self` means, and whose columns bare names mean inside a computed column.
  var selfTable: TableInstance?
  var bareColumnsTable: TableInstance?
  /// Guards against scopes that refer to themselves.
  var depth = 0
  /// How deeply evaluation has recursed: a guard against running out of stack on absurd input
  /// (thousands of chained calls or operators).
  var evaluationDepth = 0
  /// The work Swift computations of one input may do (loops, strings), all of them together.
  var budget = EvaluationBudget()
  static let maximumEvaluationDepth = 256
  /// The row type each compound select was selected into (CTE names, ORDER BY on the whole).
  var compoundModels: [Int: String] = [:]
  /// Tables whose default scope (`static let all`) is being compiled right now.
  var evaluatingDefaultScope: Set<String> = []
  /// Reads the rows of a statement from the database, once the input's earlier changes (given)
  /// have run, for app code that fetches rows and then uses them as Swift values
  /// (`for list in try RemindersList.fetchAll(db) { … }`). Nil: no database to read (the fetch
  /// is shown; its rows are not values).
  public var rowReader: ((_ statement: Statement, _ earlierChanges: [Statement]) throws -> [[QueryBinding]])?
  /// Names the code around a scanned query declares (`quarry scan`): values the app supplies
  /// when it runs, used where no other declaration gives the name a meaning.
  var runTimeValues: [String: Value] = [:]
  /// The values of file-scope `let`s read so far (``GlobalVariable``), and those being read (a
  /// global whose initializer reads itself is a run-time value, not a loop).
  var globalValues: [String: Value] = [:]
  var globalsBeingRead: Set<String> = []
  /// Compiling one query of a scanned app (`quarry scan`).
  var scanning = false {
    didSet { catalog.valuesTheAppMakesWhenItRuns = scanning }
  }
  /// The type a scanned query is written in, whose nested types its names mean first.
  var enclosingType: String?
  /// A scanned app's files: a `private` model is its file's own (two files may each declare a
  /// `private struct Fact`).
  var scanSources: ScanSources?
  /// The StructuredQueries a scanned app pins when it is one from before 0.31, whose `==` and
  /// `!=` on columns Quarry renders as that version does (``PinnedLibrary``): `=`/`<>`, or
  /// `IS`/`IS NOT` when the left side is optional; its update setter also takes a plain Swift
  /// value (`$0.kind = .b`), bound. Nil: both are unavailable, as in 0.31 on.
  var columnEqualityLibrary: String? {
    pinnedLibrary.flatMap { $0 < .columnEqualityUnavailable ? $0.description : nil }
  }
  /// The StructuredQueries a scanned app pins, whatever its version (``Deprecation``); nil: the
  /// newest, as at the prompt.
  public var pinnedLibrary: LibraryVersion?
  /// Said after the refusal of `==`/`!=` on a column in a scanned app that pins no version.
  public var unpinnedLibraryNote: String?
  /// The file of the scanned query being compiled (an index into `scanFileStarts`).
  var currentFile: Int?
  /// The branch each run-time choice takes in the variant of a query being compiled (its index
  /// among `RunTimeValue.alternatives`; for a condition, 0 is true).
  var runTimeChoices: [String: Int] = [:]
  /// The run-time choices the variant being compiled met, in order, with the branch it took.
  var runTimeTaken: [(key: String, alternatives: [String], index: Int)] = []
  /// The runner of app code in this input, and what that code has done.
  lazy var appCode = AppCodeRunner(compiler: self)

  /// What the last `compile` warned about: spellings StructuredQueries deprecates or no longer
  /// offers. A warning never stops a query.
  public internal(set) var warnings: [Diagnostic] = []
  /// Assumptions made since the last statement was built (``CompiledStatement/assumptions``).
  var assumptions: [Diagnostic] = []
  /// Warnings are errors (`--strict`, for checking app code).
  public var strict = false
  /// The Swift-side features inputs used, as they were compiled (a lesson checks that an answer
  /// used the one its exercise teaches); the caller empties it.
  public var features: Set<LanguageFeature> = []
  /// What each fetch property wrapper the inputs declared holds until its query loads, in order
  /// (`@FetchOne(…) var openCount = 0` → `"@FetchOne 0"`; `"@FetchOne (none)"` without a value):
  /// part of what a lesson's answer declares. The caller empties it.
  public var fetchStartValues: [String] = []
  public enum DeclarationKind: Hashable, Sendable { case scope, computedColumn }
  /// The inputs that declared the scopes and computed columns the compiled code used: the
  /// lesson checker tells one an answer declared from one the fixture's models did.
  public var declarationsUsed: [DeclarationKind: Set<ObjectIdentifier>] = [:]

  public init(catalog: Catalog) {
    self.catalog = catalog
  }

  /// Records a warning at `node` (an error when `strict`).
  /// A spelling the library deprecates: a warning, unless the scanned app pins a version from
  /// before the deprecation (its compiler says nothing).
  func warn(_ deprecation: Deprecation, at node: some SyntaxProtocol) throws {
    if let pinnedLibrary, pinnedLibrary < deprecation.since { return }
    try warn(deprecation.text, at: node)
  }

  func warn(_ message: String, at node: some SyntaxProtocol, suggestion: String? = nil) throws {
    let diagnostic = source.diagnostic(message, at: node, suggestion: suggestion)
    if strict { throw diagnostic }
    if !warnings.contains(diagnostic) { warnings.append(diagnostic) }
  }

  /// Parses and compiles one input. Declarations take effect in order, so an input may declare
  /// a model and query it.
  public func compile(_ text: String, recovering: Bool = false) throws(Diagnostic) -> [CompiledItem] {
    warnings = []
    appCode.skipped = []
    appCode.pendingSetUp = []
    appCode.recovering = recovering
    budget = EvaluationBudget()
    do {
      return try compileThrowing(text, recovering: recovering)
    } catch let diagnostic as Diagnostic {
      throw diagnostic
    } catch {
      throw Diagnostic("internal error: \(error)", line: 1, column: 1)
    }
  }

  func compileThrowing(_ text: String, recovering: Bool = false) throws -> [CompiledItem] {
    try NestingGuard.check(text)
    let parsed = Parser.parse(source: text)
    try NestingGuard.checkDepth(parsed, text: text)
    if parsed.hasError, !recovering || parsed.statements.count < 2 {
      source = SourceUnit(text: text, tree: parsed)
      if let error = SyntaxErrorFinder.firstError(in: parsed) {
        let location = source.lineAndColumn(of: error.position)
        var message = "syntax error: " + error.message
        if let opener = error.opener {
          let open = source.lineAndColumn(of: opener.position)
          message += "; the '\(opener.text)' at \(open.line):\(open.column) is not closed"
        }
        throw Diagnostic(message, line: location.line, column: location.column, length: error.length)
      }
    }
    // Operators stay flat sequences in the tree; each is folded by precedence when evaluated
    // (OperatorFolding), so no syntax is rebuilt and every node keeps its place for messages.
    source = SourceUnit(text: text, tree: parsed)
    var items: [CompiledItem] = []
    let statements = parsed.statements.array
    let topLevelCount = statements.count
    let failed = try readDeclarationsAndRunSetUp(statements, into: &items, recovering: recovering)
    for (index, item) in statements.enumerated() where !failed.contains(index) {
      if recovering, item.hasError, let error = SyntaxErrorFinder.firstError(in: item) {
        // A whole file with a syntax error in one place: that item fails, the others stand.
        let location = source.lineAndColumn(of: error.position)
        items.append(
          .failure(Diagnostic("syntax error: " + error.message, line: location.line, column: location.column, length: error.length)))
        continue
      }
      do {
        try appCode.compileItem(
          item, into: &items, wholeInput: topLevelCount == 1 ? text : nil,
          typesRead: true)
      } catch let diagnostic as Diagnostic where recovering {
        items.append(.failure(diagnostic))
      } catch is AppCodeRunner.ReturnedInApp {
        // A `return` at the top level of app code: nothing after it runs.
        break
      } catch let thrown as ThrownInApp {
        // Uncaught at the top level: as in a Swift program, nothing after it runs.
        var uncaught = thrown.diagnostic
        uncaught.message = "uncaught error: " + uncaught.message + " thrown here; the rest of the input does not run"
        items.append(.failure(uncaught))
        break
      }
    }
    try appCode.runPendingSetUp(into: &items, recovering: recovering)
    if let note = appCode.skippedNote() { items.append(note) }
    return items
  }

  /// Reads the input's type declarations (each after the types it uses, wherever it stands),
  /// declares its functions and runs its set-up (migrations), as the app does at launch before
  /// anything else. Returns the indices of top-level items whose declaration failed.
  func readDeclarationsAndRunSetUp(_ statements: [CodeBlockItemSyntax], into items: inout [CompiledItem], recovering: Bool) throws -> Set<
    Int
  > {
    appCode.typesInInput = Set(
      statements.compactMap { item -> String? in
        guard case .decl(let decl) = item.item, !decl.is(ExtensionDeclSyntax.self) else { return nil }
        return decl.asProtocol(NamedDeclSyntax.self)?.name.text
      })
    for property in StaticProperty.declared(in: statements, source: source) {
      catalog.staticProperties[property.qualifiedName] = property
    }
    // An app's file-scope variables, which its queries read (a pasted input's run as its code).
    if scanSources != nil {
      catalog.globals = GlobalVariable.declared(in: statements, source: source) { self.fileIndex(of: $0) }
      globalValues = [:]
    }
    // SQLiteData's own tables an input names without declaring (`SyncMetadata`).
    if LibraryModels.mentionsSyncMetadata(source.text), !statements.contains(where: { Self.declaresType("SyncMetadata", $0) }),
      let create = declareLibraryModels()
    {
      items.append(
        .note(
          "SyncMetadata is SQLiteData's table of CloudKit sync metadata: declared as SQLiteData declares it, its table made for this session (SQLiteData's sync engine attaches it from a file of its own)"
        ))
      // Placed at the input's first use of it; in a scan, at the top of the file of that use
      // (a statement placed inside a query's lines would stand for that query).
      let use = source.tree.tokens(viewMode: .sourceAccurate).first { $0.tokenKind == .identifier("SyncMetadata") }
      var place = use.map { source.lineAndColumn(of: $0.positionAfterSkippingLeadingTrivia) } ?? (line: 1, column: 1)
      if let sources = scanSources, !sources.files.isEmpty {
        place = (sources.files[sources.fileIndex(line: place.line)].firstLine, 1)
      }
      items.append(
        .statement(
          CompiledStatement(
            statement: .raw(QueryFragment(create)), input: "SyncMetadata", columnTypes: [], line: place.line, column: place.column)))
    }
    catalog.staticFunctions.merge(StaticFunction.declared(in: statements, source: source)) { _, new in new }
    declareValueTypes(in: statements)
    catalog.appRunMethods.formUnion(DeclarationReader.runMethods(in: statements))
    // Type declarations first, each after the types it uses, wherever they stand in the input.
    let typeDeclarations = statements.indices.compactMap { index -> (Int, DeclSyntax)? in
      guard case .decl(let decl) = statements[index].item, !decl.is(VariableDeclSyntax.self),
        !decl.is(FunctionDeclSyntax.self), !decl.is(IfConfigDeclSyntax.self), !decl.is(MacroExpansionDeclSyntax.self),
        !decl.is(ProtocolDeclSyntax.self),
        !(decl.as(ExtensionDeclSyntax.self).map { !appCode.isModelExtension($0) } ?? false),
        // A struct of Swift values is ordered with the models too: a default that builds one
        // needs the enums its own defaults name read first.
        AppCodeRunner.appTypeMembers(of: decl) == nil
          || decl.as(StructDeclSyntax.self).map({ catalog.valueTypes[$0.name.text] != nil }) == true
      else { return nil }
      return (index, decl)
    }
    // `FetchKeyRequest`s anywhere in the input (nested in a view, in an extension) are known
    // before any `@Fetch` uses them.
    appCode.declareFetchRequests(in: statements)
    var failed: Set<Int> = []
    do {
      for position in DeclarationOrder.reading(typeDeclarations.map(\.1)) {
        do {
          try DeclarationReader(
            catalog: catalog, source: source, warn: { [unowned self] deprecation, node in try self.warn(deprecation, at: node) }
          ).read(typeDeclarations[position].1)
        } catch let diagnostic as Diagnostic where recovering {
          failed.insert(typeDeclarations[position].0)
          items.append(.failure(diagnostic))
        }
      }
    }
    adoptProtocolExtensionMembers(statements)
    declareRecordTypes(in: statements)
    try appCode.declareAheadAndRunSetUp(statements, into: &items, recovering: recovering)
    return failed
  }

  /// `extension SingleRowTable { static func find(in db: Database) -> Self { … } }` for a protocol
  /// the input declares: each table that conforms to it (`struct SettingsRecord: SingleRowTable`)
  /// has those static members, with `Self` that table, unless it declares its own of the name
  /// (a type's own member hides a protocol extension's, as in Swift).
  func adoptProtocolExtensionMembers(_ statements: [CodeBlockItemSyntax]) {
    let protocols = Set(statements.compactMap { $0.item.as(DeclSyntax.self)?.as(ProtocolDeclSyntax.self)?.name.text })
    guard !protocols.isEmpty else { return }
    for table in catalog.tables.values where !table.conformances.isDisjoint(with: protocols) {
      for name in table.conformances.intersection(protocols).sorted() {
        for (key, scope) in catalog.staticFunctions where key.hasPrefix(name + ".") {
          let member = String(key.dropFirst(name.count + 1))
          guard !member.contains("."), table.scopes[member] == nil else { continue }
          var adopted = scope
          adopted.ownerType = table.typeName
          table.scopes[member] = adopted
        }
      }
    }
  }

  /// Whether a top-level item declares a type of that name.
  static func declaresType(_ name: String, _ item: CodeBlockItemSyntax) -> Bool {
    guard case .decl(let decl) = item.item else { return false }
    return decl.asProtocol(NamedDeclSyntax.self)?.name.text == name
  }

  /// The input's plain structs (``ValueTypeModel``), for the evaluator: their stored
  /// properties, their members (computed properties, functions, static values) and the enums
  /// they nest.
  func declareValueTypes(in statements: [CodeBlockItemSyntax]) {
    for model in ValueTypeModel.declared(in: statements, source: source) where catalog.table(forType: model.name) == nil {
      catalog.valueTypes[model.name] = model
      let block = model.members
      for member in SwiftExtensionMember.members(in: block, of: model.name, source: source) {
        catalog.addSwiftExtension(member)
      }
      for member in block.activeMembers {
        guard let nested = member.decl.as(EnumDeclSyntax.self) else { continue }
        try? DeclarationReader(catalog: catalog, source: source, warn: { _, _ in }).readEnum(nested, outer: model.name)
      }
    }
    // `extension Climb { static let mock1 = Self(…) }`: the struct's members too, wherever the
    // extension stands (`extension Mountain.PlannedClimb` for a struct nested in `Mountain`).
    guard !catalog.valueTypes.isEmpty else { return }
    for item in statements {
      guard let ext = item.item.as(DeclSyntax.self)?.as(ExtensionDeclSyntax.self) else { continue }
      let written = ext.extendedType.trimmedDescription
      guard
        let model = catalog.valueTypes[written] ?? catalog.valueTypes.values.first(where: { ValueTypeModel.sameType(written, $0.name) })
      else { continue }
      for member in SwiftExtensionMember.members(in: ext.memberBlock, of: model.name, source: source) {
        catalog.addSwiftExtension(member)
      }
    }
  }

  /// The input's `@Table` structs as values the evaluator builds (``RecordValues``), and their
  /// drafts.
  func declareRecordTypes(in statements: [CodeBlockItemSyntax]) {
    for record in ValueTypeModel.records(in: statements, source: source) {
      guard let table = catalog.table(forType: record.name), !table.isSelection else { continue }
      catalog.recordTypes[table.typeName] = record
      if let key = table.primaryKey { catalog.recordTypes[table.typeName + ".Draft"] = record.draft(primaryKey: key.name) }
    }
  }

  func declarationName(_ decl: DeclSyntax) -> String {
    if let named = decl.asProtocol(NamedDeclSyntax.self) { return named.name.text }
    if let ext = decl.as(ExtensionDeclSyntax.self) { return ext.extendedType.trimmedDescription }
    return kindName(decl)
  }

  /// A binding's value with its annotation as its type (`let limit: Double = 5`, `let id: Int? =
  /// 3`), as Swift reads it: the library's generic parameters tell `Int` from `Int?`.
  func evaluateBinding(_ value: ExprSyntax, annotation: TypeAnnotationSyntax?) throws -> Value {
    let annotated = annotation.map { SwiftEvaluator.swiftType($0.type) }
    // A name holds a Swift value exactly as Swift holds it (a slice keeps its indices).
    var swiftRefusal: SwiftEvaluationError?
    if let exact = try swiftBinding(value, type: annotated, written: annotation?.type, refusal: &swiftRefusal) { return exact }
    let result: Value
    do {
      result = try evaluate(value, expected: annotated?.wrapped)
    } catch let diagnostic as Diagnostic {
      // Swift's alone, and the evaluator said why it does not run it: that is the reason.
      if let swiftRefusal { throw Diagnostic(computedBeforeTheQuery: swiftRefusal) }
      throw diagnostic
    }
    guard let annotated, case .expression(var typed) = result else { return result }
    typed.type = annotated
    // A value of type `Double` is a Double, however it was computed (`[Double]().reduce(0, +)`).
    if annotated.wrapped.isReal, case .value(.integer(let number)) = typed.expression.node {
      typed.expression = Expression(.value(.double(Double(number))))
    }
    return .expression(typed)
  }

  /// Whether SQL text begins a statement of its own (`SELECT`, `INSERT`, `WITH`, …) rather than
  /// an expression.
  static func startsWithStatementKeyword(_ text: String) -> Bool {
    let word = text.drop { $0.isWhitespace || $0 == "(" }.prefix { $0.isLetter }.uppercased()
    return [
      "SELECT", "INSERT", "UPDATE", "DELETE", "WITH", "VALUES", "REPLACE", "CREATE", "DROP", "ALTER",
      "PRAGMA", "BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE", "ATTACH", "DETACH", "VACUUM",
      "ANALYZE", "EXPLAIN", "REINDEX",
    ].contains(word)
  }

  /// Turns an evaluated top-level expression into a runnable statement.
  func statement(from value: Value, input: String, at node: some SyntaxProtocol) throws
    -> CompiledStatement
  {
    let location = source.lineAndColumn(of: node.positionAfterSkippingLeadingTrivia)
    let excerpt = source.excerpt(of: node, line: location.line, column: location.column)
    func make(_ statement: Statement, _ types: [SwiftType?]) -> CompiledStatement {
      var compiled = CompiledStatement(
        statement: statement, input: input, columnTypes: types, line: location.line,
        column: location.column)
      compiled.excerpt = excerpt
      compiled.assumptions = assumptions
      assumptions = []
      return compiled
    }
    switch value {
    case .table(let table):
      guard !table.model.isSelection else {
        throw source.diagnostic(
          "'\(table.model.typeName)' is a @Selection type with no table of its own; select into it with \(table.model.typeName).Columns(…)",
          at: node)
      }
      let query = try baseQuery(table)
      return make(.select(query.select), query.resultTypes)
    case .write(let write):
      return make(write.statement, write.returningTypes)
    case .selection(let pairs, _):
      var select = Select(from: nil)
      select.columns = pairs.map { ResultColumn($0.1.expression, as: $0.0) }
      return make(.select(select), pairs.map(\.1.type))
    case .caseBuilder(let expression, let type, _):
      var select = Select(from: nil)
      select.columns = [ResultColumn(Expression(.caseWhen(expression)))]
      return make(.select(select), [type])
    case .query(let query):
      return make(.select(query.select), query.resultTypes)
    case .statement(let statement, let types):
      return make(statement, types)
    case .expression(let expression):
      // `#sql("INSERT …")`, `#sql("SELECT …", as: Tag.self)`: a whole statement, run as written.
      if case .sql(let parts) = expression.expression.node, case .text(let text)? = parts.first,
        Self.startsWithStatementKeyword(text)
      {
        // Its rows are read as `as:` says: a table's columns in order (Bool and enum columns
        // shown as Swift shows them), or one value of that type.
        var types: [SwiftType?] = []
        if let type = expression.type {
          if let model = catalog.table(forType: type.name), let query = try? baseQuery(TableInstance(model: model)) {
            types = query.resultTypes
          } else {
            types = [type]
          }
        }
        return make(.raw(expression.expression.fragment), types)
      }
      // A bare expression is selected on its own: `SELECT 1 + 2`.
      var select = Select(from: nil)
      select.columns = [ResultColumn(expression.expression)]
      return make(.select(select), [expression.type])
    case .tuple(let values):
      var select = Select(from: nil)
      var types: [SwiftType?] = []
      for value in values {
        let expression = try typedExpression(value, at: node)
        select.columns.append(ResultColumn(expression.expression))
        types.append(expression.type)
      }
      return make(.select(select), types)
    default:
      throw source.diagnostic(
        "this expression is \(describe(value)), not a query; try adding '.all' or a '.select { … }'",
        at: node)
    }
  }

  // MARK: Scopes of local names

  func lookupLocal(_ name: String) -> Value? {
    for scope in locals.reversed() {
      if let value = scope[name] { return value }
    }
    return nil
  }

  func withLocals<T>(_ bindings: [String: Value], _ body: () throws -> T) rethrows -> T {
    locals.append(bindings)
    defer { locals.removeLast() }
    return try body()
  }

  /// Compiles syntax stored in a scope (possibly from an earlier input) in its own source.
  func withSource<T>(_ box: AnySyntaxBox, _ body: () throws -> T) throws -> T {
    let saved = source
    source = box.source
    depth += 1
    defer {
      source = saved
      depth -= 1
    }
    guard depth < 64 else {
      throw box.source.diagnostic("this definition refers to itself without end", at: box.syntax)
    }
    return try body()
  }

  /// A human description of a value, for messages.
  func describe(_ value: Value) -> String {
    switch value {
    case .table(let table): return "the table type '\(table.model.typeName)'"
    case .query: return "a query"
    case .expression: return "an expression"
    case .columns(let table): return "the columns of '\(table.model.typeName)'"
    case .group(_, let path): return "the column group '\(path.joined(separator: "."))'"
    case .tuple: return "a tuple"
    case .keyPath: return "a key path"
    case .ordering: return "an ordering term"
    case .selection: return "a column selection"
    case .enumType(let model): return "the enum type '\(model.name)'"
    case .aliasType(let alias): return "the alias type '\(alias.typeName)'"
    case .statement: return "a statement"
    case .metatype(let name): return "the type '\(name)'"
    case .array: return "an array"
    case .slice: return "an array slice"
    case .null: return "nil"
    case .implicitMember(let name): return "'.\(name)'"
    case .dateModifiers: return "a date modifier"
    case .write: return "a write statement"
    case .caseBuilder: return "a CASE expression"
    case .window: return "a window"
    case .swiftValue(let value): return "a Swift \(value.typeName)"
    case .function(let name): return "the function '\(name)'"
    }
  }
}
