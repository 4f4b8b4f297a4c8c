import SwiftSyntax

/// Swift app code pasted as it is: SQLiteData's property wrappers (each `@FetchAll` /
/// `@FetchOne` query runs as a statement, and a SwiftUI view that holds them is read for its
/// queries alone), `database.write { db in … }` blocks, migrations and set-up.
///
/// ```swift
/// struct RemindersView: View {
///   @FetchAll(Reminder.where { !$0.isCompleted }) var reminders
///   var body: some View { … }
/// }
/// // SELECT … FROM "reminders" WHERE (NOT ("reminders"."isCompleted"))
/// ```
extension AppCodeRunner {
  /// The SQL snapshot of a pasted `assertQuery(…) { """…""" }` or
  /// `assertInlineSnapshot(of: …, as: .sql) { """…""" }`: the first string in its trailing closure.
  func expectedSQL(in expr: ExprSyntax) throws -> String? {
    guard let (call, name) = Self.call(expr), name == "assertQuery" || name == "assertInlineSnapshot",
      compiler.lookupLocal(name) == nil,
      let first = call.trailingClosure?.statements.first, case .expr(let body) = first.item,
      let literal = body.as(StringLiteralExprSyntax.self)
    else { return nil }
    return try compiler.stringValue(literal)
  }

  // MARK: App plumbing

  /// Calls that only wrap statements in app code: `database.write { db in … }`, `read`,
  /// `withErrorReporting { … }`; their closure's statements run as if written at top level.
  /// Locks and isolation boxes run theirs once, before they return, as these do:
  /// ConcurrencyExtras' `LockIsolated.withValue`, `Mutex`/`NSLock.withLock`, `DispatchQueue.sync`.
  static let transparentCalls: Set<String> = [
    "write", "read", "transaction", "inTransaction", "withErrorReporting", "asyncWrite", "asyncRead",
    "writeWithoutTransaction", "barrierWriteWithoutTransaction", "unsafeRead", "registerMigration",
    "prepareDependencies", "prepareDatabase", "withDependencies", "withValue", "withLock", "sync",
  ]

  /// Transparent calls whose closure GRDB runs in one transaction.
  static let transactionalCalls: Set<String> = ["write", "transaction", "inTransaction", "asyncWrite", "registerMigration"]

  /// The transaction a transparent call runs its closure in: `registerMigration("Seed") { … }`
  /// is migration 'Seed'; `database.write { … }` a write block (nil: none, as for `read`).
  func transactionUnit(_ expr: ExprSyntax) -> TransactionUnit? {
    guard let (call, name) = Self.call(expr), Self.transactionalCalls.contains(name) else { return nil }
    let place = compiler.source.lineAndColumn(of: call.positionAfterSkippingLeadingTrivia)
    guard name == "registerMigration" else { return TransactionUnit(kind: .write, line: place.line, column: place.column) }
    // The name as the app computes it (`Self.tableName` in each model's helper is its own).
    let identifier =
      call.arguments.first.flatMap { try? compiler.grdbName($0.expression) } ?? call.arguments.first?.expression.trimmedDescription ?? "?"
    return TransactionUnit(
      kind: .migration(identifier), line: place.line, column: place.column, creates: Self.createdTables(in: call.trimmedDescription))
  }

  /// The tables and views a piece of app code creates, in order: `CREATE TABLE [IF NOT EXISTS]
  /// "name"` (also VIEW and VIRTUAL TABLE) in its SQL, and GRDB's `create(table: "name")`.
  ///
  /// ```swift
  /// createdTables(in: #"try db.create(table: "items") { … }; try #sql("CREATE VIEW v AS …")"#)
  /// // ["items", "v"]
  /// ```
  static func createdTables(in text: String) -> [String] {
    let patterns = [
      #/(?i)CREATE\s+(?:TEMP(?:ORARY)?\s+)?(?:VIRTUAL\s+)?(?:TABLE|VIEW)\s+(?:IF\s+NOT\s+EXISTS\s+)?[\\"`\[]*(\w+)/#,
      #/create\((?:virtualTable|table|view):\s*"(\w+)"/#,
    ]
    var found: [(index: String.Index, name: String)] = []
    for pattern in patterns {
      for match in text.matches(of: pattern) { found.append((match.range.lowerBound, String(match.output.1))) }
    }
    var names: [String] = []
    for (_, name) in found.sorted(by: { $0.index < $1.index }) where !names.contains(name) { names.append(name) }
    return names
  }

  static func transparentBlock(_ expr: ExprSyntax) -> ClosureExprSyntax? {
    guard let (call, name) = call(expr), transparentCalls.contains(name) else { return nil }
    // `registerMigration("v1", migrate: { db in … })`: the closure given by its label.
    if name == "registerMigration", call.trailingClosure == nil {
      return call.arguments.first(where: { $0.label?.text == "migrate" })?.expression.as(ClosureExprSyntax.self)
    }
    return call.trailingClosure
  }

  /// The call an expression makes once `try`/`await` are set aside, with the called name
  /// (`write` in `try database.write { … }`, `DatabaseQueue` in `DatabaseQueue(path: p)`).
  static func call(_ expr: ExprSyntax) -> (FunctionCallExprSyntax, name: String)? {
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
      // `try Tag.find(1).fetchOne(db)!`: the call, its result unwrapped.
      if let unwrap = inner.as(ForceUnwrapExprSyntax.self) {
        inner = unwrap.expression
        continue
      }
      break
    }
    guard let call = inner.as(FunctionCallExprSyntax.self),
      let name = call.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName.text
        ?? call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text
    else { return nil }
    return (call, name)
  }

  /// App set-up with nothing to run here: `var migrator = DatabaseMigrator()`,
  /// `let database = try DatabaseQueue(path: …)`.
  static let plumbingTypes: Set<String> = [
    "DatabaseMigrator", "DatabaseQueue", "DatabasePool", "Configuration", "defaultDatabase", "SyncEngine",
  ]

  static func isDatabasePlumbing(_ variable: VariableDeclSyntax) -> Bool {
    variable.bindings.allSatisfy { binding in
      guard let value = binding.initializer?.value, let (_, name) = call(value) else { return false }
      return plumbingTypes.contains(name)
    }
  }

  /// Whether an expression ends in `.fetchAll(db)`, `.execute(db)`, … (after `try`/`await`).
  static func isDatabaseCall(_ expr: ExprSyntax) -> Bool {
    guard let (call, name) = call(expr), call.calledExpression.is(MemberAccessExprSyntax.self) else { return false }
    if name == "find", call.arguments.contains(where: { $0.label?.text == "key" }) { return true }
    if GRDBSchema.isSchemaCall(call) { return true }
    return Compiler.databaseCalls.contains(name)
  }

  /// The key path of `@Dependency(\.date.now) var now` (`date.now`), if the variable is one.
  static func dependencyKeyPath(of variable: VariableDeclSyntax) -> String? {
    for element in variable.attributes {
      guard let attribute = element.as(AttributeSyntax.self), attribute.attributeName.trimmedDescription == "Dependency",
        case .argumentList(let list)? = attribute.arguments, let first = list.first
      else { continue }
      var path = first.expression.trimmedDescription
      if path.hasPrefix("\\.") { path.removeFirst(2) }
      return path
    }
    return nil
  }

  /// A variable with a property wrapper and no value (`@Dependency(\.defaultDatabase) var database`,
  /// `@State var isEditing: Bool`).
  static func isPropertyWrapperOnly(_ variable: VariableDeclSyntax) -> Bool {
    variable.attributes.contains { $0.is(AttributeSyntax.self) }
      && variable.bindings.allSatisfy { $0.initializer == nil }
  }
}
