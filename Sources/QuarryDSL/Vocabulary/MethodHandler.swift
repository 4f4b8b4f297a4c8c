import QueryBuilder
import SwiftSyntax

/// Where a vocabulary entry is used: called with arguments (`.limit(3)`) or read as a property
/// (`Reminder.all`), and the syntax a message about it points at.
struct CallSite {
  /// The call's arguments; nil for a property read (`Reminder.all`, `$0.title.count`).
  var arguments: Arguments?
  /// `base.name` as written; nil for a bare call (`group(by:)` inside a scope) or a free function.
  var member: MemberAccessExprSyntax?
  /// The name as written, where messages point.
  var nameNode: Syntax
  /// A macro's expansion (`#sql(…)`), which has no call syntax of its own.
  var macro: MacroExpansionExprSyntax?
  /// The type the context expects, where it decides the result (`#bind(x)` in a typed column).
  var expected: SwiftType?

  init(arguments: Arguments?, member: MemberAccessExprSyntax?, nameNode: Syntax) {
    self.arguments = arguments
    self.member = member
    self.nameNode = nameNode
  }

  /// A method call: `base.name(…)`, or a bare `name(…)`.
  init(_ arguments: Arguments, member: MemberAccessExprSyntax? = nil) {
    self.arguments = arguments
    self.member = member ?? arguments.call.calledExpression.as(MemberAccessExprSyntax.self)
    nameNode = self.member.map { Syntax($0.declName) } ?? Syntax(arguments.call.calledExpression)
  }

  /// A macro expansion: `#sql(…)`.
  init(macro: MacroExpansionExprSyntax, expected: SwiftType?) {
    arguments = nil
    member = nil
    nameNode = Syntax(macro.macroName)
    self.macro = macro
    self.expected = expected
  }

  /// A property read: `base.name`.
  init(property node: some SyntaxProtocol) {
    arguments = nil
    member = node.as(MemberAccessExprSyntax.self)
    nameNode = member.map { Syntax($0.declName) } ?? Syntax(node)
  }

  /// The arguments of a method that must be called (`'limit' is a method; call it: .limit(…)`).
  func call(of name: String, in compiler: Compiler) throws -> Arguments {
    guard let arguments else {
      throw compiler.source.diagnostic("'\(name)' is a method; call it: .\(name)(…)", at: nameNode)
    }
    return arguments
  }
}

/// The code a vocabulary entry runs: called with the compiler, the receiver and where it is
/// used. Entries compare by their declaration; the handler is identified by its name.
///
/// ```swift
/// M("limit(_ maxLength: Int) -> Select", "…", example: "…", handler: .query("limit") { $0.limited })
/// ```
struct MethodHandler: Sendable, Hashable {
  let name: String
  let run: @Sendable (Compiler, Value, CallSite) throws -> Value

  static func == (lhs: MethodHandler, rhs: MethodHandler) -> Bool { lhs.name == rhs.name }
  func hash(into hasher: inout Hasher) { hasher.combine(name) }

  /// A method of a query (a table's query methods get the query of its rows: its default scope).
  static func query(
    _ name: String, _ body: @escaping @Sendable (QueryMethods) -> (Query, Arguments) throws -> Value
  ) -> MethodHandler {
    MethodHandler(name: "query." + name) { compiler, receiver, site in
      let arguments = try site.call(of: name, in: compiler)
      let query: Query
      if case .table(let table) = receiver {
        query = try compiler.baseQuery(table)
      } else {
        query = try compiler.asQuery(receiver, at: site.nameNode)
      }
      return try body(compiler.queryMethods)(query, arguments)
    }
  }

  /// A statement run by app code (`fetchAll(db)`, `execute(db)`): any statement, the query of a
  /// table's rows, or `#sql` text.
  static func databaseCall(_ name: String) -> MethodHandler {
    MethodHandler(name: "database." + name) { compiler, receiver, site in
      try compiler.queryMethods.databaseCall(name, on: receiver, site)
    }
  }

  /// A member of a table type called as a method (`Tag.Draft(…)`, `Reminder.as(R.self)`).
  static func table(
    _ name: String, _ body: @escaping @Sendable (TableMethods) -> (TableInstance, Arguments) throws -> Value
  ) -> MethodHandler {
    MethodHandler(name: "table." + name) { compiler, receiver, site in
      guard case .table(let table) = receiver else {
        throw compiler.source.diagnostic("'\(name)' is a member of a table type", at: site.nameNode)
      }
      return try body(compiler.tableMethods)(table, try site.call(of: name, in: compiler))
    }
  }

  /// A property of a table type (`Reminder.all`, `Reminder.tableName`).
  static func tableProperty(
    _ name: String, _ body: @escaping @Sendable (TableMethods) -> (TableInstance, CallSite) throws -> Value
  ) -> MethodHandler {
    MethodHandler(name: "table." + name) { compiler, receiver, site in
      guard case .table(let table) = receiver else {
        throw compiler.source.diagnostic("'\(name)' is a member of a table type", at: site.nameNode)
      }
      return try body(compiler.tableMethods)(table, site)
    }
  }

  /// A method of an insert, update or delete.
  static func write(
    _ name: String, _ body: @escaping @Sendable (WriteMethods) -> (WriteQuery, Arguments) throws -> Value
  ) -> MethodHandler {
    MethodHandler(name: "write." + name) { compiler, receiver, site in
      guard case .write(let write) = receiver else {
        throw compiler.source.diagnostic("'\(name)' is a method of an insert, update or delete", at: site.nameNode)
      }
      return try body(compiler.writeMethods)(write, try site.call(of: name, in: compiler))
    }
  }

  /// A method of an SQL expression (`$0.title.`).
  static func expression(
    _ name: String, _ body: @escaping @Sendable (ExpressionMethods) -> (String, TypedExpression, Arguments) throws -> Value
  ) -> MethodHandler {
    MethodHandler(name: "expression." + name) { compiler, receiver, site in
      guard case .expression(let expression) = receiver else {
        throw compiler.source.diagnostic("'\(name)' is a method of an expression", at: site.nameNode)
      }
      return try body(compiler.expressionMethods)(name, expression, try site.call(of: name, in: compiler))
    }
  }

  /// A free function, initializer or macro (`Case(…)`, `Values(…)`, `#sql(…)`).
  static func function(
    _ name: String, _ body: @escaping @Sendable (FunctionMethods) -> (String, Arguments, CallSite) throws -> Value
  ) -> MethodHandler {
    MethodHandler(name: "function." + name) { compiler, _, site in
      try body(compiler.functionMethods)(name, try site.call(of: name, in: compiler), site)
    }
  }

  /// A macro (`#sql(…)`, `#bind(…)`), given its expansion and the type the context expects.
  static func macro(
    _ name: String, _ body: @escaping @Sendable (FunctionMethods) -> (MacroExpansionExprSyntax, SwiftType?) throws -> Value
  ) -> MethodHandler {
    MethodHandler(name: "macro." + name) { compiler, _, site in
      guard let macro = site.macro else {
        throw compiler.source.diagnostic("'\(name)' is a macro: write #\(name)(…)", at: site.nameNode)
      }
      return try body(compiler.functionMethods)(macro, site.expected)
    }
  }

  /// A method of the window inside `.over { … }`.
  static func window(
    _ name: String,
    _ body: @escaping @Sendable (WindowMethods) -> (WindowSpecification, Arguments, MemberAccessExprSyntax) throws -> WindowSpecification
  ) -> MethodHandler {
    MethodHandler(name: "window." + name) { compiler, receiver, site in
      guard case .window(let window) = receiver, let member = site.member else {
        throw compiler.source.diagnostic("'\(name)' is a method of the window inside .over { … }", at: site.nameNode)
      }
      return .window(try body(compiler.windowMethods)(window, try site.call(of: name, in: compiler), member))
    }
  }

  /// A method of a column group (`$0.timestamps.`, `$0.kind.`).
  static func columnGroup(
    _ name: String,
    _ body: @escaping @Sendable (RowMethods) -> (TableInstance, [String], Arguments, MemberAccessExprSyntax) throws -> Value
  ) -> MethodHandler {
    MethodHandler(name: "group." + name) { compiler, receiver, site in
      guard case .group(let table, let path) = receiver, let member = site.member else {
        throw compiler.source.diagnostic("'\(name)' is a method of a column group", at: site.nameNode)
      }
      return try body(compiler.rowMethods)(table, path, try site.call(of: name, in: compiler), member)
    }
  }

  /// A comparison of a column group with a value of its type, as row values.
  static func groupComparison(_ name: String, _ op: BinaryOperator) -> MethodHandler {
    columnGroup(name) { methods in { try methods.compareGroupMethod(op, $0, $1, $2, $3) } }
  }

  /// A method of a whole row (`$0.` of a table).
  static func row(
    _ name: String,
    _ body: @escaping @Sendable (RowMethods) -> (TableInstance, Arguments, MemberAccessExprSyntax) throws -> Value
  ) -> MethodHandler {
    MethodHandler(name: "row." + name) { compiler, receiver, site in
      guard case .columns(let table) = receiver, let member = site.member else {
        throw compiler.source.diagnostic("'\(name)' is a method of a whole row ($0)", at: site.nameNode)
      }
      return try body(compiler.rowMethods)(table, try site.call(of: name, in: compiler), member)
    }
  }

  /// A comparison of a whole row with a row value.
  static func rowComparison(_ name: String, _ op: BinaryOperator) -> MethodHandler {
    row(name) { methods in { try methods.compareRowMethod(op, $0, $1, $2) } }
  }

  /// A method of a finished statement (a compound select, a created view or trigger).
  static func statement(
    _ name: String,
    _ body: @escaping @Sendable (StatementMethods) -> (Statement, [SwiftType?], Arguments, MemberAccessExprSyntax) throws -> Value
  ) -> MethodHandler {
    MethodHandler(name: "statement." + name) { compiler, receiver, site in
      guard case .statement(let statement, let types) = receiver, let member = site.member else {
        throw compiler.source.diagnostic("'\(name)' is a method of a statement", at: site.nameNode)
      }
      return try body(compiler.statementMethods)(statement, types, try site.call(of: name, in: compiler), member)
    }
  }

  /// A method of a `Case(…)` being built.
  static func caseBuilder(
    _ name: String,
    _ body: @escaping @Sendable (FunctionMethods) -> (CaseExpression, SwiftType?, SwiftType?, Arguments) throws -> Value
  ) -> MethodHandler {
    MethodHandler(name: "case." + name) { compiler, receiver, site in
      guard case .caseBuilder(let expression, let type, let baseType) = receiver else {
        throw compiler.source.diagnostic("'\(name)' is a method of Case(…)", at: site.nameNode)
      }
      return try body(compiler.functionMethods)(expression, type, baseType, try site.call(of: name, in: compiler))
    }
  }
}

extension Compiler {
  /// Runs the vocabulary entry `name` of `kind` on `receiver`: its handler, or nil when the
  /// entry has none (names the vocabulary does not declare: scopes, a model's own members).
  ///
  /// Among overloads (`find(_:)` and `find(_:key:)`), the one whose labels the call fits runs;
  /// a property read picks a property.
  func dispatch(_ name: String, on kind: ReceiverKind, receiver: Value, _ site: CallSite) throws -> Value? {
    let overloads = Vocabulary.methods(named: name, on: kind).filter { $0.handler != nil }
    guard let first = overloads.first else { return nil }
    let fitting: MethodSignature?
    if let arguments = site.arguments {
      let given = arguments.list.map { (label: $0.label, isTrailingClosure: $0.isTrailingClosure) }
      fitting = overloads.first { $0.parameters != nil && $0.accepts(given) }
    } else {
      fitting = overloads.first { $0.parameters == nil }
    }
    let entry = fitting ?? first
    if let requirement = entry.requirement, case .expression(let typed) = receiver, let type = typed.type {
      try check(requirement, of: entry, on: type, at: site.nameNode)
    }
    guard let handler = entry.handler else { return nil }
    return try handler.run(self, receiver, site)
  }

  /// Refuses a call whose receiver's value type does not meet the entry's `where` clause, in
  /// the compiler's words.
  func check(_ requirement: ValueRequirement, of entry: MethodSignature, on type: SwiftType, at node: Syntax) throws {
    guard requirement.isSatisfied(by: type, isEnum: catalog.enums[type.name] != nil) == false else { return }
    let method = "referencing instance method '\(entry.selector)' on 'QueryExpression'"
    switch requirement.kind {
    case .conforms(let name):
      throw source.diagnostic("\(method) requires that '\(type)' conform to '\(name)'", at: node)
    case .equals(let name):
      let fix = type.isOptional && type.wrapped.name == name ? " (the column is optional: unwrap it with .ifnull(…) first)" : ""
      throw source.diagnostic("\(method) requires the types '\(type)' and '\(name)' be equivalent\(fix)", at: node)
    }
  }
}
