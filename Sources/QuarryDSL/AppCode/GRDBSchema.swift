import QueryBuilder
import SwiftSyntax

/// GRDB's schema builder in an app's migrations, turned into the SQL GRDB runs for it:
/// `db.create(table:)` with its column definitions and `belongsTo`, `create(index:on:columns:)`,
/// `create(virtualTable:using: FTS5())`, `alter(table:)`, `drop(table:)`, `rename(table:to:)`.
/// What GRDB would have to read from the database to write (the primary key of a table Quarry did
/// not see made, for a bare `references("team")` or a `belongsTo`) is a located refusal, never a
/// guess.
///
/// ```swift
/// try db.create(table: "player") { t in
///   t.autoIncrementedPrimaryKey("id")
///   t.column("name", .text).notNull().unique()
/// }
/// // CREATE TABLE "player" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "name" TEXT NOT NULL UNIQUE)
/// ```
struct GRDBSchema {
  /// What the builder needs of the compiler: a name or value the app computes (a table's
  /// `databaseTableName`, a default), located errors, and the primary keys of the tables made.
  struct Context {
    var string: (ExprSyntax) throws -> String
    var literal: (ExprSyntax) throws -> String
    var fail: (String, Syntax) -> Diagnostic
    var primaryKey: (String) -> [String]?
    /// A table's rowid alias (its INTEGER PRIMARY KEY), for an FTS5 table synchronized with it.
    var rowID: (String) -> String?
    /// The declared types of a table's primary key columns (`INTEGER`), for a belongsTo column.
    var keyTypes: (String) -> [String]?
    /// Told each table made, its primary key, its rowid alias and its key's types, for later
    /// references to it.
    var made: (String, [String], String?, [String]) -> Void
  }

  let context: Context

  /// The methods of GRDB's `Database` this builds, each with the label of its first argument.
  static let methods: [String: String] = ["create": "table", "alter": "table", "drop": "table", "rename": "table"]

  /// Whether a call is one of them (`db.create(table: …) { … }`, `db.create(index: …)`).
  static func isSchemaCall(_ call: FunctionCallExprSyntax) -> Bool {
    guard let name = call.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName.text,
      let first = call.arguments.first?.label?.text
    else { return false }
    return (methods[name] == first) || (name == "create" && ["index", "virtualTable"].contains(first))
      || (name == "drop" && first == "index")
  }

  /// The SQL of a schema call, statements joined with `; ` as GRDB joins a table and its indexes.
  func sql(of call: FunctionCallExprSyntax) throws -> String {
    let name = call.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName.text ?? ""
    let arguments = Array(call.arguments)
    func argument(_ label: String) -> ExprSyntax? { arguments.first { $0.label?.text == label }?.expression }
    switch (name, arguments.first?.label?.text) {
    case ("create", "table"?): return try createTable(call)
    case ("create", "index"?):
      guard let index = argument("index"), let table = argument("on"), let columns = argument("columns") else {
        throw context.fail("GRDB's create(index:on:columns:) needs its index, table and columns", Syntax(call))
      }
      let unique = try argument("unique").map { try context.literal($0) == "1" } ?? false
      let ifNotExists = try argument("ifNotExists").map { try context.literal($0) == "1" } ?? false
      let options = arguments.first { $0.label?.text == "options" }.map { $0.expression.trimmedDescription } ?? ""
      return "CREATE" + (unique || options.contains("unique") ? " UNIQUE" : "") + " INDEX"
        + (ifNotExists || options.contains("ifNotExists") ? " IF NOT EXISTS" : "")
        + " \(quoteIdentifier(try context.string(index))) ON \(quoteIdentifier(try context.string(table)))("
        + (try strings(columns).map(quoteIdentifier).joined(separator: ", ")) + ")"
    case ("drop", "table"?):
      return "DROP TABLE \(quoteIdentifier(try context.string(arguments[0].expression)))"
    case ("drop", "index"?):
      return "DROP INDEX \(quoteIdentifier(try context.string(arguments[0].expression)))"
    case ("rename", "table"?):
      guard let new = argument("to") else { throw context.fail("GRDB's rename(table:to:) needs the new name", Syntax(call)) }
      return
        "ALTER TABLE \(quoteIdentifier(try context.string(arguments[0].expression))) RENAME TO \(quoteIdentifier(try context.string(new)))"
    case ("alter", "table"?): return try alterTable(call)
    case ("create", "virtualTable"?): return try createVirtualTable(call)
    default:
      throw context.fail(
        "not supported in Quarry yet: GRDB's \(name)(\(arguments.first?.label?.text ?? ""):) (write the migration with #sql or db.execute(sql:))",
        Syntax(call))
    }
  }

  /// The list of names a `[String]` literal (or a `Column` list) holds.
  private func strings(_ expr: ExprSyntax) throws -> [String] {
    guard let array = expr.as(ArrayExprSyntax.self) else { return [try context.string(expr)] }
    return try array.elements.map { try context.string($0.expression) }
  }

  /// The statements of the builder's closure (`{ t in … }`), with the name it gives the table.
  private func body(of call: FunctionCallExprSyntax) throws -> (name: String, statements: CodeBlockItemListSyntax) {
    guard let closure = call.trailingClosure ?? call.arguments.last?.expression.as(ClosureExprSyntax.self) else {
      throw context.fail("GRDB's \(call.calledExpression.trimmedDescription)(…) needs its closure", Syntax(call))
    }
    var name = "$0"
    if let parameters = closure.signature?.parameterClause {
      if let simple = parameters.as(ClosureShorthandParameterListSyntax.self), let first = simple.first { name = first.name.text }
      if let full = parameters.as(ClosureParameterClauseSyntax.self), let first = full.parameters.first {
        name = (first.secondName ?? first.firstName).text
      }
    }
    return (name, closure.statements)
  }

  // MARK: CREATE TABLE

  private func createTable(_ call: FunctionCallExprSyntax) throws -> String {
    guard let tableExpr = call.arguments.first?.expression else { throw context.fail("GRDB's create(table:) needs a name", Syntax(call)) }
    let table = try context.string(tableExpr)
    let options = call.arguments.first { $0.label?.text == "options" }?.expression.trimmedDescription ?? ""
    let (receiver, statements) = try body(of: call)
    // The parts of the statement, written in GRDB's order: columns, then the primary key, unique
    // keys, foreign keys, checks and other constraints; the indexes after it.
    var columns: [String] = []
    var primaryKey: String?
    var uniqueKeys: [String] = []
    var foreignKeys: [String] = []
    var checks: [String] = []
    var indexes: [String] = []
    var primaryKeyColumns: [String] = []
    var primaryKeyTypes: [String] = []
    var rowIDColumn: String?
    func index(_ column: String) -> String {
      "CREATE INDEX \(quoteIdentifier("\(table)_on_\(column)")) ON \(quoteIdentifier(table))(\(quoteIdentifier(column)))"
    }
    func define(_ items: CodeBlockItemListSyntax, inPrimaryKeyBody: Bool) throws {
      for item in items {
        guard case .expr(let expr) = item.item, let chain = Chain(expr, receiver: receiver) else {
          throw context.fail(
            "not supported in Quarry yet: this statement in GRDB's table definition (write the migration with #sql or db.execute(sql:))",
            Syntax(item))
        }
        if inPrimaryKeyBody, !["column", "belongsTo"].contains(chain.method) {
          throw context.fail("not supported in Quarry yet: '\(chain.method)' inside GRDB's primaryKey { … }", Syntax(expr))
        }
        switch chain.method {
        case "primaryKey" where chain.arguments.isEmpty:
          // `t.primaryKey { t.belongsTo("a"); t.belongsTo("b") }`: a key made of those columns.
          guard let closure = chain.trailingClosure else { throw context.fail("GRDB's primaryKey needs its columns", Syntax(expr)) }
          let before = columnNames.count
          try define(closure.statements, inPrimaryKeyBody: true)
          primaryKeyColumns = Array(columnNames[before...])
          primaryKeyTypes = Array(columnTypes[before...])
          rowIDColumn = nil
          primaryKey = "PRIMARY KEY (" + primaryKeyColumns.map(quoteIdentifier).joined(separator: ", ") + ")"
        case "column", "autoIncrementedPrimaryKey",
          "primaryKey" where !(chain.arguments.first?.expression.is(ArrayExprSyntax.self) ?? false):
          var column = try self.column(chain, table: table)
          for modifier in chain.modifiers { try column.apply(modifier, in: self, table: table, primaryKeyColumns: primaryKeyColumns) }
          if inPrimaryKeyBody, column.notNull == nil { column.notNull = "NOT NULL" }
          if column.isPrimaryKey {
            primaryKeyColumns = [column.name]
            primaryKeyTypes = [column.type ?? ""]
            if column.type == "INTEGER" { rowIDColumn = column.name }
          }
          columns.append(column.sql)
          columnNames.append(column.name)
          columnTypes.append(column.type ?? "")
          if column.indexed { indexes.append(index(column.name)) }
        case "belongsTo":
          var column = try belongsTo(chain, table: table, at: Syntax(expr))
          if inPrimaryKeyBody { column.notNull = "NOT NULL" }
          for modifier in chain.modifiers {
            switch modifier.name {
            case "notNull": column.notNull = "NOT NULL"
            case "unique": column.unique = "UNIQUE"
            default: throw context.fail("not supported in Quarry yet: '\(modifier.name)' after GRDB's belongsTo", Syntax(modifier.syntax))
            }
          }
          let indexed = chain.arguments.first(where: { $0.label == "indexed" })?.expression.trimmedDescription != "false"
          columns.append(column.sql)
          columnNames.append(column.name)
          columnTypes.append(column.type ?? "")
          if indexed, !inPrimaryKeyBody, column.unique == nil { indexes.append(index(column.name)) }
        case "primaryKey", "uniqueKey":
          guard let list = chain.arguments.first?.expression else {
            throw context.fail("GRDB's \(chain.method)(_:) needs its columns", Syntax(expr))
          }
          let names = try strings(list)
          var text =
            (chain.method == "primaryKey" ? "PRIMARY KEY" : "UNIQUE") + " (" + names.map(quoteIdentifier).joined(separator: ", ") + ")"
          if let conflict = chain.arguments.first(where: { $0.label == "onConflict" }) {
            text += " ON CONFLICT " + conflictName(conflict.expression)
          }
          if chain.method == "primaryKey" {
            primaryKeyColumns = names
            primaryKeyTypes = names.map { name in columnNames.firstIndex(of: name).map { columnTypes[$0] } ?? "" }
            rowIDColumn = nil
            primaryKey = text
          } else {
            uniqueKeys.append(text)
          }
        case "foreignKey":
          guard let list = chain.arguments.first?.expression,
            let destination = chain.arguments.first(where: { $0.label == "references" })?.expression
          else {
            throw context.fail("GRDB's foreignKey(_:references:) needs its columns and table", Syntax(expr))
          }
          let parent = try context.string(destination)
          let keys =
            try chain.arguments.first(where: { $0.label == "columns" }).map { try strings($0.expression) }
            ?? (parent.lowercased() == table.lowercased() ? primaryKeyColumns : try implicitKey(of: parent, at: Syntax(expr)))
          foreignKeys.append(
            "FOREIGN KEY (" + (try strings(list)).map(quoteIdentifier).joined(separator: ", ") + ") REFERENCES "
              + quoteIdentifier(parent) + "(" + keys.map(quoteIdentifier).joined(separator: ", ") + ")" + actions(chain.arguments))
        case "check", "constraint":
          guard let sql = chain.arguments.first(where: { $0.label == "sql" })?.expression else {
            throw context.fail(
              "not supported in Quarry yet: GRDB's \(chain.method) with a Swift expression (write it check(sql: …))", Syntax(expr))
          }
          checks.append(chain.method == "check" ? "CHECK (\(try context.string(sql)))" : try context.string(sql))
        default:
          throw context.fail("not supported in Quarry yet: GRDB's table definition method '\(chain.method)'", Syntax(expr))
        }
      }
    }
    var columnNames: [String] = []
    var columnTypes: [String] = []
    try define(statements, inPrimaryKeyBody: false)
    context.made(table, primaryKeyColumns, rowIDColumn, primaryKeyTypes)
    let items = columns + [primaryKey].compactMap { $0 } + uniqueKeys + foreignKeys + checks
    var sql =
      "CREATE" + (options.contains("temporary") ? " TEMPORARY" : "") + " TABLE" + (options.contains("ifNotExists") ? " IF NOT EXISTS" : "")
      + " " + quoteIdentifier(table) + " (" + items.joined(separator: ", ") + ")"
    var tableOptions: [String] = []
    if options.contains("strict") { tableOptions.append("STRICT") }
    if options.contains("withoutRowID") { tableOptions.append("WITHOUT ROWID") }
    if !tableOptions.isEmpty { sql += " " + tableOptions.joined(separator: ", ") }
    return ([sql] + indexes).joined(separator: "; ")
  }

  /// `t.belongsTo("teams", onDelete: .cascade)`: a column named after the reference and the
  /// destination's key (`teamsId`), of the key's type, referencing it, as GRDB makes it. The
  /// destination is `inTable:`, else the table of that name, else its plural (`team` → `teams`);
  /// its key is known when Quarry saw the table made.
  private func belongsTo(_ chain: Chain, table: String, at node: Syntax) throws -> ColumnSQL {
    guard let nameExpr = chain.arguments.first?.expression else { throw context.fail("GRDB's belongsTo(_:) needs a name", node) }
    let name = try context.string(nameExpr)
    let destination =
      try chain.arguments.first(where: { $0.label == "inTable" }).map { try context.string($0.expression) }
      ?? ([name, name + "s"].first { context.primaryKey($0) != nil } ?? name)
    guard let key = context.primaryKey(destination), key.count == 1, let type = context.keyTypes(destination)?.first, !type.isEmpty else {
      throw context.fail(
        "GRDB makes belongsTo(\"\(name)\")'s column from the primary key of '\(destination)', which it reads from the database: Quarry has not seen that table made with a one-column key; write the column (t.column(\"…Id\", .integer).references(\"\(destination)\", column: \"id\"))",
        node)
    }
    var column = ColumnSQL(name: name + key[0].prefix(1).uppercased() + key[0].dropFirst())
    column.type = type
    column.references.append("REFERENCES " + quoteIdentifier(destination) + "(" + quoteIdentifier(key[0]) + ")" + actions(chain.arguments))
    return column
  }

  // MARK: CREATE VIRTUAL TABLE

  /// `db.create(virtualTable: "movie_ft", using: FTS5()) { t in t.synchronize(withTable: "movies");
  /// t.column("title") }`: the FTS5 table, and for a synchronized one the three triggers GRDB
  /// makes to keep it in step with its content table, then its `rebuild`.
  private func createVirtualTable(_ call: FunctionCallExprSyntax) throws -> String {
    guard let nameExpr = call.arguments.first?.expression else {
      throw context.fail("GRDB's create(virtualTable:) needs a name", Syntax(call))
    }
    let table = try context.string(nameExpr)
    guard let module = call.arguments.first(where: { $0.label?.text == "using" })?.expression,
      module.as(FunctionCallExprSyntax.self)?.calledExpression.trimmedDescription == "FTS5",
      module.as(FunctionCallExprSyntax.self)?.arguments.isEmpty == true
    else {
      throw context.fail(
        "not supported in Quarry yet: this virtual table module (GRDB's FTS5() is; write others with db.execute(sql:))", Syntax(call))
    }
    let options = call.arguments.first { $0.label?.text == "options" }?.expression.trimmedDescription ?? ""
    let (receiver, statements) = try body(of: call)
    var columns: [(name: String, indexed: Bool)] = []
    var content: String?
    for item in statements {
      guard case .expr(let expr) = item.item, let chain = Chain(expr, receiver: receiver) else {
        throw context.fail(
          "not supported in Quarry yet: this statement in GRDB's FTS5 table definition (its tokenizer, prefixes and content are set with db.execute(sql:) here)",
          Syntax(item))
      }
      switch chain.method {
      case "column":
        guard let name = chain.arguments.first?.expression else { throw context.fail("GRDB's column(_:) needs a name", Syntax(expr)) }
        guard chain.modifiers.allSatisfy({ $0.name == "notIndexed" }) else {
          throw context.fail("not supported in Quarry yet: this FTS5 column modifier", Syntax(expr))
        }
        columns.append((try context.string(name), chain.modifiers.isEmpty))
      case "synchronize":
        guard let source = chain.arguments.first(where: { $0.label == "withTable" })?.expression else {
          throw context.fail("GRDB's synchronize(withTable:) needs the content table", Syntax(expr))
        }
        content = try context.string(source)
      default:
        throw context.fail("not supported in Quarry yet: GRDB's FTS5 table method '\(chain.method)'", Syntax(expr))
      }
    }
    guard !columns.isEmpty else { throw context.fail("an FTS5 table needs at least one column (GRDB stops the app here)", Syntax(call)) }
    func literal(_ text: String) -> String { "'" + text.replacing("'", with: "''") + "'" }
    var arguments = columns.map { $0.indexed ? $0.name : $0.name + " UNINDEXED" }
    var rowID = "rowid"
    if let content {
      arguments.append("content=" + literal(content))
      // The content table's INTEGER PRIMARY KEY, when it has one, is its rowid.
      if let key = context.rowID(content) {
        rowID = key
        arguments.append("content_rowid=" + literal(key))
      }
    }
    let name = options.contains("temporary") ? "temp." + quoteIdentifier(table) : quoteIdentifier(table)
    var sql =
      "CREATE VIRTUAL TABLE" + (options.contains("ifNotExists") ? " IF NOT EXISTS" : "") + " \(name) USING fts5("
      + arguments.joined(separator: ", ") + ")"
    guard let content else { return sql }
    if options.contains("temporary") {
      throw context.fail(
        "GRDB refuses a temporary FTS5 table synchronized with another (SQLite cannot rebuild it): the app stops here", Syntax(call))
    }
    let ifNotExists = options.contains("ifNotExists") ? "IF NOT EXISTS " : ""
    let indexed = columns.map(\.name)
    let ftsColumns = (["rowid"] + indexed).map(quoteIdentifier).joined(separator: ", ")
    let newValues = ([rowID] + indexed).map { "new." + quoteIdentifier($0) }.joined(separator: ", ")
    let oldValues = ([rowID] + indexed).map { "old." + quoteIdentifier($0) }.joined(separator: ", ")
    let fts = quoteIdentifier(table)
    let source = quoteIdentifier(content)
    sql +=
      "; CREATE TRIGGER \(ifNotExists)\(quoteIdentifier("__\(table)_ai")) AFTER INSERT ON \(source) BEGIN\n"
      + "    INSERT INTO \(fts)(\(ftsColumns)) VALUES (\(newValues));\nEND;\n"
      + "CREATE TRIGGER \(ifNotExists)\(quoteIdentifier("__\(table)_ad")) AFTER DELETE ON \(source) BEGIN\n"
      + "    INSERT INTO \(fts)(\(fts), \(ftsColumns)) VALUES('delete', \(oldValues));\nEND;\n"
      + "CREATE TRIGGER \(ifNotExists)\(quoteIdentifier("__\(table)_au")) AFTER UPDATE ON \(source) BEGIN\n"
      + "    INSERT INTO \(fts)(\(fts), \(ftsColumns)) VALUES('delete', \(oldValues));\n"
      + "    INSERT INTO \(fts)(\(ftsColumns)) VALUES (\(newValues));\nEND; "
      + "INSERT INTO \(fts)(\(fts)) VALUES('rebuild')"
    return sql
  }

  // MARK: ALTER TABLE

  private func alterTable(_ call: FunctionCallExprSyntax) throws -> String {
    guard let tableExpr = call.arguments.first?.expression else { throw context.fail("GRDB's alter(table:) needs a name", Syntax(call)) }
    let table = try context.string(tableExpr)
    let (receiver, statements) = try body(of: call)
    var out: [String] = []
    for item in statements {
      guard case .expr(let expr) = item.item, let chain = Chain(expr, receiver: receiver) else {
        throw context.fail("not supported in Quarry yet: this statement in GRDB's table alteration", Syntax(item))
      }
      switch chain.method {
      case "add":
        var column = try self.column(chain, table: table, labelled: "column")
        for modifier in chain.modifiers {
          try column.apply(modifier, in: self, table: table, primaryKeyColumns: context.primaryKey(table) ?? [])
        }
        out.append("ALTER TABLE \(quoteIdentifier(table)) ADD COLUMN \(column.sql)")
      case "rename":
        guard let old = chain.arguments.first(where: { $0.label == "column" })?.expression,
          let new = chain.arguments.first(where: { $0.label == "to" })?.expression
        else {
          throw context.fail("GRDB's rename(column:to:) needs both names", Syntax(expr))
        }
        out.append(
          "ALTER TABLE \(quoteIdentifier(table)) RENAME COLUMN \(quoteIdentifier(try context.string(old))) TO \(quoteIdentifier(try context.string(new)))"
        )
      case "drop":
        guard let column = chain.arguments.first(where: { $0.label == "column" })?.expression else {
          throw context.fail("GRDB's drop(column:) needs its name", Syntax(expr))
        }
        out.append("ALTER TABLE \(quoteIdentifier(table)) DROP COLUMN \(quoteIdentifier(try context.string(column)))")
      default:
        throw context.fail("not supported in Quarry yet: GRDB's table alteration method '\(chain.method)'", Syntax(expr))
      }
    }
    return out.joined(separator: "; ")
  }

  // MARK: Columns

  /// A column being defined, its parts written in GRDB's order whatever order the modifiers
  /// come in: type, PRIMARY KEY, NOT NULL, UNIQUE, CHECK, DEFAULT, COLLATE, REFERENCES.
  struct ColumnSQL {
    var name: String
    var type: String?
    var primaryKey: String?
    var notNull: String?
    var unique: String?
    var checks: [String] = []
    var defaultValue: String?
    var collation: String?
    var references: [String] = []
    var indexed = false
    var isPrimaryKey: Bool { primaryKey != nil }

    var sql: String {
      ([quoteIdentifier(name)] + [type, primaryKey, notNull, unique].compactMap { $0 } + checks
        + [defaultValue, collation].compactMap { $0 } + references).joined(separator: " ")
    }

    mutating func apply(_ modifier: Chain.Link, in schema: GRDBSchema, table: String, primaryKeyColumns: [String]) throws {
      let arguments = modifier.arguments
      func labelled(_ label: String) -> ExprSyntax? { arguments.first { $0.label == label }?.expression }
      switch modifier.name {
      case "notNull":
        notNull = labelled("onConflict").map { "NOT NULL ON CONFLICT " + schema.conflictName($0) } ?? "NOT NULL"
      case "unique":
        unique = labelled("onConflict").map { "UNIQUE ON CONFLICT " + schema.conflictName($0) } ?? "UNIQUE"
      case "indexed":
        indexed = true
      case "defaults":
        if let sql = labelled("sql") {
          defaultValue = "DEFAULT (\(try schema.context.string(sql)))"
        } else if let value = labelled("to") {
          defaultValue = "DEFAULT \(try schema.context.literal(value))"
        } else {
          throw schema.context.fail("GRDB's defaults(to:) or defaults(sql:) needs its value", Syntax(modifier.syntax))
        }
      case "collate":
        guard let argument = arguments.first?.expression else { break }
        let text = argument.trimmedDescription
        collation = "COLLATE " + (text.hasPrefix(".") ? String(text.dropFirst()).uppercased() : try schema.context.string(argument))
      case "check":
        guard let sql = labelled("sql") else {
          throw schema.context.fail(
            "not supported in Quarry yet: a check with a Swift expression (write it check(sql: …))", Syntax(modifier.syntax))
        }
        checks.append("CHECK (\(try schema.context.string(sql)))")
      case "references":
        guard let destination = arguments.first?.expression else { break }
        let parent = try schema.context.string(destination)
        let keys =
          try labelled("column").map { [try schema.context.string($0)] }
          ?? (parent.lowercased() == table.lowercased()
            ? (primaryKeyColumns.isEmpty ? ["rowid"] : primaryKeyColumns) : try schema.implicitKey(of: parent, at: Syntax(modifier.syntax)))
        references.append(
          "REFERENCES " + quoteIdentifier(parent) + "(" + keys.map(quoteIdentifier).joined(separator: ", ") + ")"
            + schema.actions(arguments))
      case "primaryKey":
        var text = "PRIMARY KEY"
        if let conflict = labelled("onConflict") { text += " ON CONFLICT " + schema.conflictName(conflict) }
        if let flag = labelled("autoincrement"), flag.trimmedDescription == "true" { text += " AUTOINCREMENT" }
        primaryKey = text
      default:
        throw schema.context.fail("not supported in Quarry yet: GRDB's column modifier '\(modifier.name)'", Syntax(modifier.syntax))
      }
    }
  }

  /// `t.column("name", .text)`, `t.autoIncrementedPrimaryKey("id")`, `t.primaryKey("uuid", .text)`,
  /// `t.add(column: "age", .integer)`.
  private func column(_ chain: Chain, table: String, labelled: String? = nil) throws -> ColumnSQL {
    guard let nameExpr = chain.arguments.first(where: { $0.label == labelled })?.expression ?? chain.arguments.first?.expression else {
      throw context.fail("GRDB's \(chain.method)(…) needs a column name", Syntax(chain.syntax))
    }
    let name = try context.string(nameExpr)
    let typeArgument = chain.arguments.dropFirst().first { $0.label == nil }?.expression
    var column = ColumnSQL(name: name)
    let conflict = chain.arguments.first(where: { $0.label == "onConflict" }).map { " ON CONFLICT " + conflictName($0.expression) } ?? ""
    switch chain.method {
    case "autoIncrementedPrimaryKey":
      column.type = "INTEGER"
      column.primaryKey = "PRIMARY KEY" + conflict + " AUTOINCREMENT"
    case "primaryKey":
      column.type = try typeArgument.map(columnType)
      column.primaryKey = "PRIMARY KEY" + conflict
      // GRDB adds NOT NULL to a primary key that is not an INTEGER one (SQLite lets those hold NULL).
      if column.type != "INTEGER" { column.notNull = "NOT NULL" }
    default:
      column.type = try typeArgument.map(columnType)
    }
    return column
  }

  /// `.text`, `.integer`, `.double`, … as GRDB writes them.
  private func columnType(_ expr: ExprSyntax) throws -> String {
    let types = [
      "text": "TEXT", "jsonText": "TEXT", "jsonb": "BLOB", "integer": "INTEGER", "double": "DOUBLE", "real": "REAL",
      "numeric": "NUMERIC", "boolean": "BOOLEAN", "blob": "BLOB", "date": "DATE", "datetime": "DATETIME", "any": "ANY",
    ]
    let text = expr.trimmedDescription
    if text.hasPrefix("."), let type = types[String(text.dropFirst())] { return type }
    if let call = expr.as(FunctionCallExprSyntax.self), call.calledExpression.trimmedDescription.hasSuffix("ColumnType"),
      let raw = call.arguments.first?.expression
    {
      return try context.string(raw)
    }
    throw context.fail("not supported in Quarry yet: the column type '\(text)'", Syntax(expr))
  }

  /// `.cascade` → `CASCADE`, `.setNull` → `SET NULL`, `.replace` → `REPLACE`.
  func conflictName(_ expr: ExprSyntax) -> String {
    let name = expr.trimmedDescription.hasPrefix(".") ? String(expr.trimmedDescription.dropFirst()) : expr.trimmedDescription
    var out = ""
    for character in name {
      if character.isUppercase { out += " " }
      out += String(character).uppercased()
    }
    return out
  }

  /// ` ON DELETE CASCADE ON UPDATE …`, from `onDelete:`, `onUpdate:` and `deferred:` arguments.
  func actions(_ arguments: [Chain.Argument]) -> String {
    var out = ""
    if let delete = arguments.first(where: { $0.label == "onDelete" }) { out += " ON DELETE " + conflictName(delete.expression) }
    if let update = arguments.first(where: { $0.label == "onUpdate" }) { out += " ON UPDATE " + conflictName(update.expression) }
    if let deferred = arguments.first(where: { $0.label == "deferred" }), deferred.expression.trimmedDescription == "true" {
      out += " DEFERRABLE INITIALLY DEFERRED"
    }
    return out
  }

  /// The primary key GRDB reads from the database for a bare `references("team")`: known when
  /// Quarry saw that table made.
  func implicitKey(of table: String, at node: Syntax) throws -> [String] {
    guard let key = context.primaryKey(table), !key.isEmpty else {
      throw context.fail(
        "GRDB reads the primary key of '\(table)' from the database here, and Quarry has not seen that table made: name the column (references(\"\(table)\", column: \"id\"))",
        node)
    }
    return key
  }

  /// `t.column("name", .text).notNull().unique()`: the definition call on the closure's table
  /// and the modifiers after it, in order.
  struct Chain {
    struct Argument {
      var label: String?
      var expression: ExprSyntax
    }
    struct Link {
      var name: String
      var arguments: [Argument]
      var syntax: ExprSyntax
    }
    var method: String
    var arguments: [Argument]
    var modifiers: [Link]
    var syntax: ExprSyntax
    /// The definition call's trailing closure (`t.primaryKey { … }`).
    var trailingClosure: ClosureExprSyntax?

    init?(_ expr: ExprSyntax, receiver: String) {
      var links: [Link] = []
      var current = expr
      while let call = current.as(FunctionCallExprSyntax.self), let member = call.calledExpression.as(MemberAccessExprSyntax.self),
        let base = member.base
      {
        let arguments = call.arguments.map { Argument(label: $0.label?.text, expression: $0.expression) }
        links.insert(Link(name: member.declName.baseName.text, arguments: arguments, syntax: ExprSyntax(call)), at: 0)
        current = base
      }
      guard current.as(DeclReferenceExprSyntax.self)?.baseName.text == receiver, let first = links.first else { return nil }
      method = first.name
      arguments = first.arguments
      modifiers = Array(links.dropFirst())
      syntax = expr
      trailingClosure = first.syntax.as(FunctionCallExprSyntax.self)?.trailingClosure
    }
  }
}
