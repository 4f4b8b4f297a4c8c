import QueryBuilder
import SwiftOperators
import SwiftSyntax

/// Everything the DSL can name: tables (declared or inferred), enums, aliases, and top-level
/// `let` bindings, accumulated across inputs of one session.
///
/// ```swift
/// let catalog = Catalog()
/// catalog.register(TableModel(typeName: "Tag", columns: [...]))
/// catalog.table(forType: "Tag")?.tableName  // "tags"
/// ```
public final class Catalog: @unchecked Sendable {
  public private(set) var tables: [String: TableModel] = [:]
  public private(set) var tableOrder: [String] = []
  public var enums: [String: EnumModel] = [:]
  /// Reading a scanned app: `UUID()` is the value the app makes when it runs, not one made here.
  var valuesTheAppMakesWhenItRuns = false
  public var aliases: [String: AliasModel] = [:]
  /// Top-level `let`/`var` bindings, compiled where they were declared.
  var bindings: [String: Value] = [:]
  /// Bare names that two types each nest an enum under (`Font.Kind`, `Preset.Kind`): `Kind`
  /// means one of them only inside its own type.
  var ambiguousNestedEnums: Set<String> = []
  /// Names of app plumbing declared at the prompt (`var migrator = DatabaseMigrator()`): a later
  /// statement on them (`try migrator.migrate(database)`) is plumbing too.
  var plumbingNames: Set<String> = []
  /// Top-level functions of the input (`func incomplete() -> some Statement { … }`).
  var functions: [String: Scope] = [:]
  /// Members the input declares in extensions of Swift's own types, by name
  /// (`extension TimeInterval { static func days(_ n: Double) -> Self { n * 86_400 } }`).
  var swiftExtensions: [String: [SwiftExtensionMember]] = [:]
  /// `@DatabaseFunction`s, by SQL name: called as `$name(…)`, registered with SQLite.
  public internal(set) var databaseFunctions: [String: DatabaseFunction] = [:]
  /// `FetchKeyRequest` types of pasted app code, by name.
  var fetchRequests: [String: FetchRequestModel] = [:]
  /// `extension Updates<T> { mutating func flag() { … } }`: assignments by name, per table type.
  var updateHelpers: [String: [String: Scope]] = [:]

  /// Names the user has bound at top level: `let` values, `@FetchAll` properties, functions.
  public var userNames: [String] { Array(bindings.keys) + Array(functions.keys) }
  /// Computed columns declared before their table (`extension T.TableColumns` first).
  var pendingComputed: [String: [String: Scope]] = [:]
  var pendingScopes: [String: [String: Scope]] = [:]
  /// `extension DateTimeModifier { static let endOfMonth = … }` and similar: named syntax.
  var staticExtensions: [String: [String: Scope]] = [:]
  /// `static let` properties of the input's types that are not tables, by qualified name
  /// (`AchievementDefinitions.all`).
  var staticProperties: [String: StaticProperty] = [:]
  /// Variables declared at file scope (``GlobalVariable``), by name (`#FILE.name` when private).
  var globals: [String: GlobalVariable] = [:]
  /// The static functions of the input's types that are not tables (``StaticFunction``), by
  /// qualified name.
  var staticFunctions: [String: Scope] = [:]
  /// The primary keys of the tables GRDB's schema builder made in the input (lower-cased names),
  /// for a later bare `references("team")`.
  var grdbPrimaryKeys: [String: [String]] = [:]
  /// Their rowid aliases (an INTEGER PRIMARY KEY), for FTS5 tables synchronized with them.
  var grdbRowIDs: [String: String] = [:]
  /// And the declared types of their keys' columns (`INTEGER`), for a later `belongsTo`.
  var grdbPrimaryKeyTypes: [String: [String]] = [:]
  /// Models whose `ID` is `Tagged<Self, Raw>` (`Player.ID(5).rawValue` is 5).
  var taggedIdentifiers: Set<String> = []
  /// Structs of the input that are not tables, by qualified name (`Criteria`).
  var valueTypes: [String: ValueTypeModel] = [:]
  /// The `@Table` structs and their drafts as the evaluator builds their values (``RecordValues``),
  /// by the table's type name (`Habit`, `Habit.Draft`).
  var recordTypes: [String: ValueTypeModel] = [:]

  /// Models declared inside app types, by their qualified name (`RemindersDetailModel.Row`):
  /// two views may each nest a `Row` of their own.
  var nestedTypes: [String: TableModel] = [:]

  /// Methods the app declares on StructuredQueries' statements that run one against a database
  /// (`extension Statement { func fetchOneForced(_ db: Database) throws -> … }`): a query
  /// followed by one is run there, as by `fetchOne`.
  var appRunMethods: Set<String> = []

  /// Adds a member the input declares on a standard type or its own value type (run by the
  /// Swift evaluator); a later declaration of the same member replaces the earlier one.
  func addSwiftExtension(_ member: SwiftExtensionMember) {
    swiftExtensions[member.name, default: []].removeAll { $0.typeName == member.typeName && $0.isStatic == member.isStatic }
    swiftExtensions[member.name, default: []].append(member)
  }

  public init() {}

  /// A catalog with the same declarations, whose models are copies: what one input declares in
  /// it (a scope of its own on a fixture's model, a new type) stays out of this one. Models
  /// loaded once serve many sessions so (a lesson check's runs on many datasets).
  ///
  /// ```swift
  /// let run = loaded.copy()  // run.tables["Reminder"] !== loaded.tables["Reminder"]
  /// ```
  public func copy() -> Catalog {
    let copy = Catalog()
    var copied: [ObjectIdentifier: TableModel] = [:]
    func copyOf(_ model: TableModel) -> TableModel {
      if let done = copied[ObjectIdentifier(model)] { return done }
      let new = model.copy()
      copied[ObjectIdentifier(model)] = new
      return new
    }
    copy.tables = tables.mapValues(copyOf)
    copy.nestedTypes = nestedTypes.mapValues(copyOf)
    copy.tableOrder = tableOrder
    copy.enums = enums
    copy.valuesTheAppMakesWhenItRuns = valuesTheAppMakesWhenItRuns
    copy.aliases = aliases
    copy.bindings = bindings
    copy.ambiguousNestedEnums = ambiguousNestedEnums
    copy.plumbingNames = plumbingNames
    copy.functions = functions
    copy.swiftExtensions = swiftExtensions
    copy.databaseFunctions = databaseFunctions
    copy.fetchRequests = fetchRequests
    copy.updateHelpers = updateHelpers
    copy.pendingComputed = pendingComputed
    copy.pendingScopes = pendingScopes
    copy.staticExtensions = staticExtensions
    copy.staticProperties = staticProperties
    copy.globals = globals
    copy.staticFunctions = staticFunctions
    copy.grdbPrimaryKeys = grdbPrimaryKeys
    copy.grdbRowIDs = grdbRowIDs
    copy.grdbPrimaryKeyTypes = grdbPrimaryKeyTypes
    copy.taggedIdentifiers = taggedIdentifiers
    copy.valueTypes = valueTypes
    copy.recordTypes = recordTypes
    copy.appRunMethods = appRunMethods
    copy.typeAliases = typeAliases
    copy.typeNameByTable = typeNameByTable
    return copy
  }

  /// Adds or replaces a table model (a declaration replaces an inferred model of the same table).
  public func register(_ model: TableModel) {
    if let pending = pendingComputed.removeValue(forKey: model.typeName) {
      model.computedColumns.merge(pending) { _, new in new }
    }
    if let pending = pendingScopes.removeValue(forKey: model.typeName) {
      model.scopes.merge(pending) { _, new in new }
    }
    if model.isDeclared, !model.isSelection {
      // A declared model supersedes the inferred one for the same table under another type name.
      if let name = typeNameByTable[model.tableName], name != model.typeName, let existing = tables[name], !existing.isDeclared {
        tables[name] = nil
        typeNameByTable[model.tableName] = nil
        tableOrder.removeAll { $0 == name }
      }
    }
    if let previous = tables[model.typeName], previous.tableName != model.tableName,
      typeNameByTable[previous.tableName] == model.typeName
    {
      typeNameByTable[previous.tableName] = nil
    }
    if !model.isSelection {
      // A declared model is the table's model; an inferred one only while none is declared.
      let current = typeNameByTable[model.tableName].flatMap { tables[$0] }
      if current == nil || current?.typeName == model.typeName || (model.isDeclared && current?.isDeclared == false) {
        typeNameByTable[model.tableName] = model.typeName
      }
    }
    if let existing = tables[model.typeName] {
      model.scopes.merge(existing.scopes) { new, _ in new }
      model.computedColumns.merge(existing.computedColumns) { new, _ in new }
    } else {
      tableOrder.append(model.typeName)
    }
    tables[model.typeName] = model
  }

  /// Removes a model registered for a moment (a common table's type a spelling declared while
  /// its round trip compiles); the table's name goes back to no model.
  public func unregister(typeName: String) {
    guard let model = tables.removeValue(forKey: typeName) else { return }
    tableOrder.removeAll { $0 == typeName }
    if typeNameByTable[model.tableName] == typeName { typeNameByTable[model.tableName] = nil }
  }

  /// The model of a type, by its name; a nested type also by its qualified name
  /// (`Attachment.Video` is `Video`, declared inside `Attachment`).
  /// Whether `name` means something to the DSL: a model, an enum, a binding or a function.
  public func knows(_ name: String) -> Bool {
    table(forType: name) != nil || enums[name] != nil || bindings[name] != nil || functions[name] != nil
  }

  /// The tables whose declarations name a protocol (`struct SettingsRecord: SingleRowTable`),
  /// by type name: what `Self` is in that protocol's extension.
  public func tables(conformingTo protocolName: String) -> [TableModel] {
    tables.values.filter { $0.conformances.contains(protocolName) && !$0.isSelection }.sorted { $0.typeName < $1.typeName }
  }

  public func table(forType name: String) -> TableModel? {
    if let model = tables[name] { return model }
    // `typealias User = CachedUserRecord`: the type it names (an alias of an alias too).
    var aliased = name
    for _ in 0..<4 {
      guard let target = typeAliases[aliased], target != aliased else { break }
      if let model = tables[target] { return model }
      aliased = target
    }
    guard let dot = name.lastIndex(of: ".") else { return nil }
    return tables[String(name[name.index(after: dot)...])]
  }

  /// The input's type aliases (`typealias User = CachedUserRecord`), by name: the type each names.
  public var typeAliases: [String: String] = [:]

  public func table(forTableName name: String) -> TableModel? {
    guard let typeName = typeNameByTable[name], let model = tables[typeName], model.tableName == name else { return nil }
    return model
  }

  /// The type name of each table's model (declared before inferred): lookups by table name stay
  /// constant-time with thousands of models. (`[String: String]`: a dictionary of collections
  /// costs start-up time in generic metadata to instantiate.)
  private var typeNameByTable: [String: String] = [:]

  /// The inputs that declared the scopes and computed columns of every table so far.
  public var declarationSources: Set<ObjectIdentifier> {
    Set(
      tables.values.flatMap { model in
        (Array(model.scopes.values) + Array(model.computedColumns.values)).map { ObjectIdentifier($0.body.source) }
      })
  }

  /// Every name a type reference could mean, for "did you mean" suggestions.
  var typeNames: [String] {
    Array(tables.keys) + Array(enums.keys) + Array(aliases.keys)
  }

  func addComputedColumn(_ name: String, _ scope: Scope, to typeName: String) {
    if tables[typeName] != nil {
      tables[typeName]?.computedColumns[name] = scope
    } else {
      pendingComputed[typeName, default: [:]][name] = scope
    }
  }

  func addScope(_ name: String, _ scope: Scope, to typeName: String) {
    if let model = tables[typeName] ?? (typeAliases[typeName] != nil ? table(forType: typeName) : nil) {
      // `extension OperationAnalysis { static let mock1 = … }` where `OperationAnalysis` aliases a table.
      model.scopes[name] = scope
    } else if ["DateTimeModifier"].contains(typeName) || enums[typeName] != nil {
      staticExtensions[typeName, default: [:]][name] = scope
    } else {
      pendingScopes[typeName, default: [:]][name] = scope
    }
  }
}

/// Syntax kept for later compilation, with the source it came from (for locations).
public struct AnySyntaxBox: @unchecked Sendable {
  public let syntax: Syntax
  public let source: SourceUnit
}

/// One parsed input: its text, tree and line table.
public final class SourceUnit: @unchecked Sendable {
  public let text: String
  public let tree: SourceFileSyntax
  /// Line table, built only when a location is needed (errors, trigger names).
  public private(set) lazy var converter = SourceLocationConverter(fileName: "input", tree: tree)

  init(text: String, tree: SourceFileSyntax) {
    self.text = text
    self.tree = tree
  }

  /// Operators folded once, on first use (see `foldedTree`).
  fileprivate lazy var folding: (tree: Syntax, problems: [(message: String, position: AbsolutePosition)]) = {
    var table = OperatorTable.standardOperators
    var problems: [(message: String, position: AbsolutePosition)] = []
    let root = tree
    func record(_ error: OperatorError) {
      let position: AbsolutePosition
      switch error {
      case .incomparableOperators(let left, _, _, _): position = left.positionAfterSkippingLeadingTrivia
      case .missingOperator(_, let node), .missingGroup(_, let node): position = node.positionAfterSkippingLeadingTrivia
      case .operatorAlreadyExists(_, let new): position = new.syntax?.positionAfterSkippingLeadingTrivia ?? root.position
      case .groupAlreadyExists(_, let new): position = new.syntax?.positionAfterSkippingLeadingTrivia ?? root.position
      }
      problems.append((error.message, position))
    }
    // A sequence of hundreds of operators is refused (folding it would recurse that deep).
    final class LongSequenceFinder: SyntaxVisitor {
      var found: SequenceExprSyntax?
      override func visit(_ node: SequenceExprSyntax) -> SyntaxVisitorContinueKind {
        if node.elements.count > OperatorFolding.maximumOperators * 2 + 1 { found = node }
        return found == nil ? .visitChildren : .skipChildren
      }
    }
    let finder = LongSequenceFinder(viewMode: .sourceAccurate)
    finder.walk(tree)
    if let long = finder.found {
      let node = long.elements.dropFirst(OperatorFolding.maximumOperators * 2 + 1).first.map(Syntax.init) ?? Syntax(long)
      problems.append(
        (
          "this expression has \(long.elements.count / 2) operators; split it into smaller ones (at most \(OperatorFolding.maximumOperators))",
          node.positionAfterSkippingLeadingTrivia
        ))
      return (Syntax(tree), problems)
    }
    table.addSourceFile(tree) { record($0) }
    let folded = table.foldAll(tree) { record($0) }
    return (folded, problems)
  }()

  /// The folded tree's top-level items with where each ends, in order: a position is found in
  /// its item by binary search, so looking up every node of an input of thousands of items (a
  /// scanned app) stays linear, not quadratic (`token(at:)` walks the root's children).
  fileprivate lazy var foldedItems: [(end: AbsolutePosition, item: Syntax)] = {
    guard let file = folding.tree.as(SourceFileSyntax.self) else { return [] }
    return file.statements.map { ($0.endPosition, Syntax($0)) }
  }()

  /// The folded tree's token at `position`.
  fileprivate func foldedToken(at position: AbsolutePosition) -> TokenSyntax? {
    let items = foldedItems
    guard !items.isEmpty else { return folding.tree.token(at: position) }
    var low = 0
    var high = items.count
    while low < high {
      let middle = (low + high) / 2
      if items[middle].end <= position { low = middle + 1 } else { high = middle }
    }
    guard low < items.count else { return folding.tree.token(at: position) }
    return items[low].item.token(at: position)
  }

  /// Where each line starts (UTF-8 offsets) and whether it is all ASCII: built once, on the
  /// first location asked for, so locating every statement of a long input stays linear.
  private lazy var lines: (starts: [Int], ascii: [Bool]) = {
    var starts = [0]
    var ascii = [true]
    var offset = 0
    for byte in text.utf8 {
      if byte == UInt8(ascii: "\n") {
        starts.append(offset + 1)
        ascii.append(true)
      } else if byte >= 0x80 {
        ascii[ascii.count - 1] = false
      }
      offset += 1
    }
    return (starts, ascii)
  }()

  /// The text of a 1-based line (empty past the end).
  func lineText(_ line: Int) -> String {
    guard line >= 1, line <= lines.starts.count else { return "" }
    let utf8 = text.utf8
    let start = utf8.index(utf8.startIndex, offsetBy: lines.starts[line - 1])
    let end = line < lines.starts.count ? utf8.index(utf8.startIndex, offsetBy: lines.starts[line] - 1) : utf8.endIndex
    return String(decoding: utf8[start..<end], as: UTF8.self)
  }

  /// The line of a node with a caret under it and `~` along the rest of its first line, for an
  /// error found when its statement runs.
  func excerpt(of node: some SyntaxProtocol, line: Int, column: Int) -> String {
    ExcerptLine(lineText(line), column: column).underlined(length: firstLineLength(of: node))
  }

  /// The characters of a node's text, trivia aside, up to its first line break: read from the
  /// source by position (`trimmedDescription` rebuilds the node without its trivia).
  /// Counted up to ``longestUnderline`` characters: an excerpt never draws more (a 50 MB
  /// literal is not decoded to underline it).
  func firstLineLength(of node: some SyntaxProtocol) -> Int {
    let utf8 = text.utf8
    guard node.root.totalLength.utf8Length == utf8.count else {
      return node.trimmedDescription.prefix { $0 != "\n" }.prefix(Self.longestUnderline).count
    }
    let start = min(max(0, node.positionAfterSkippingLeadingTrivia.utf8Offset), utf8.count)
    let end = min(max(start, node.endPositionBeforeTrailingTrivia.utf8Offset), utf8.count, start + 4 * Self.longestUnderline)
    let from = utf8.index(utf8.startIndex, offsetBy: start)
    let to = utf8.index(from, offsetBy: end - start)
    return String(decoding: utf8[from..<to], as: UTF8.self).prefix { $0 != "\n" }.prefix(Self.longestUnderline).count
  }

  /// More than an excerpt's longest line shown whole (``ExcerptLine/longest``).
  static let longestUnderline = 4096

  /// 1-based line and column (in characters) of a position.
  func lineAndColumn(of position: AbsolutePosition) -> (line: Int, column: Int) {
    let bytes = byteLineAndColumn(of: position)
    guard !lines.ascii[bytes.line - 1] else { return bytes }
    let start = lines.starts[bytes.line - 1]
    let utf8 = text.utf8
    let from = utf8.index(utf8.startIndex, offsetBy: start)
    let to = utf8.index(from, offsetBy: bytes.column - 1)
    return (bytes.line, String(decoding: utf8[from..<to], as: UTF8.self).count + 1)
  }

  /// Line and column in UTF-8 bytes (binary search in the line table).
  func byteLineAndColumn(of position: AbsolutePosition) -> (line: Int, column: Int) {
    let offset = min(max(0, position.utf8Offset), text.utf8.count)
    let starts = lines.starts
    var low = 0
    var high = starts.count - 1
    while low < high {
      let middle = (low + high + 1) / 2
      if starts[middle] <= offset { low = middle } else { high = middle - 1 }
    }
    return (low + 1, offset - starts[low] + 1)
  }

  func diagnostic(_ message: String, at node: some SyntaxProtocol, suggestion: String? = nil)
    -> Diagnostic
  {
    let location = lineAndColumn(of: node.positionAfterSkippingLeadingTrivia)
    let endLocation = lineAndColumn(of: node.endPositionBeforeTrailingTrivia)
    let length = endLocation.line == location.line ? endLocation.column - location.column : 1
    return Diagnostic(
      message, line: location.line, column: location.column, length: length,
      suggestion: suggestion)
  }
}

extension Catalog {
  /// The type the evaluator is handed as the one a context expects: a standard scalar or an
  /// enum of the input (nil for anything else, which it then infers).
  func evaluatorType(_ type: SwiftType?) -> SwiftType? {
    guard let type else { return nil }
    let scalars: Set<String> = ["Int", "Double", "String", "Bool", "Float", "CGFloat", "Int64", "Character"]
    // `UInt8`, `[Int16]`, `[UInt32?]`, `[Float]`: a narrower number keeps its width only as Swift's value.
    if IntegerWidth(named: type.wrapped.name) != nil
      || type.wrapped.arrayElement.map({ IntegerWidth(named: $0.wrapped.name) != nil || $0.wrapped.name == "Float" }) == true
    {
      return type
    }
    return scalars.contains(type.name) || enums[type.name] != nil || valueTypes[type.name] != nil ? type : nil
  }

  /// The table types a top-level binding's query binds to closure parameters (`let q =
  /// Tag.order(…)`: `["Tag"]`), for completing `q.where { $0.`.
  public func tableTypes(ofBinding name: String) -> [String] {
    switch bindings[name] {
    case .query(let query)?: return query.tables.map(\.model.typeName)
    case .table(let table)?: return [table.model.typeName]
    default: return []
    }
  }
}

extension SourceUnit {
  /// The tree with every operator sequence folded by Swift's precedence rules (swift-syntax's
  /// `SwiftOperators`: the standard library's operators plus the operators and precedence
  /// groups the input declares). Same text, same positions: a node of the folded tree is
  /// located exactly as the one it replaces. Nil when folding fails (the message is in
  /// `foldingProblem`).
  var foldedTree: Syntax { folding.tree }

  /// The first operator problem (`a == b == c`, an unknown operator) inside `node`, if any.
  func foldingProblem(in node: some SyntaxProtocol) -> (message: String, position: AbsolutePosition)? {
    let range = node.position..<node.endPosition
    return folding.problems.first { range.contains($0.position) }
  }

  /// The counterpart of `node` in ``foldedTree``.
  func folded<Node: SyntaxProtocol>(_ node: Node) -> Node? {
    if !node.hasSequenceExpr && node.root == Syntax(self.tree) { return node }
    guard let token = foldedToken(at: node.position) ?? foldedToken(at: node.positionAfterSkippingLeadingTrivia) else { return nil }
    var current: Syntax? = Syntax(token)
    while let candidate = current {
      if candidate.position == node.position, candidate.totalLength == node.totalLength, let match = candidate.as(Node.self) {
        return match
      }
      if candidate.position < node.position { return nil }
      current = candidate.parent
    }
    return nil
  }
}
