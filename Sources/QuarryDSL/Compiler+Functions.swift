import QueryBuilder
import SwiftSyntax

/// Methods on expressions: comparisons, string matching, aggregates and scalar functions.
extension Compiler {
  func expressionMember(_ name: String, of expression: TypedExpression, at node: some SyntaxProtocol) throws -> Value {
    if expression.type?.isDate == true, let component = dateComponent(name, of: expression) {
      return .expression(component)
    }
    if name == "count", expression.type?.isText == true || expression.type?.name == "[UInt8]" {
      // `$0.title.count`: StructuredQueries' deprecated spelling of length().
      return .expression(TypedExpression(.function("length", [expression.expression]), type: .int))
    }
    // `Theme.bubblegum.rawValue`: a QueryBindable enum's value is its raw value already.
    if name == "rawValue", let type = expression.type, catalog.enums[type.name] != nil {
      return .expression(TypedExpression(expression.expression, type: catalog.enums[type.name]?.rawType))
    }
    throw source.diagnostic(
      "an expression has no property '\(name)'; did you mean a method call like '.\(name)()'?",
      at: node)
  }

  /// The SQL function a method of an expression renders, from the vocabulary; the result
  /// type is the declared one (nil: the receiver's type).
  func sqlFunction(_ name: String) -> (function: MethodSignature.SQLFunction, result: SwiftType?)? {
    guard let entry = Vocabulary.methods(named: name, on: .expression).first, let function = entry.function else { return nil }
    let result: SwiftType? = switch entry.result {
    case "Int": .int
    case "Double": .double
    case "String", "String?": .string
    case "[UInt8]": .bytes
    case "Bool": .bool
    default: nil
    }
    return (function, result)
  }

  func expressionMethod(_ name: String, on receiver: TypedExpression, arguments: Arguments, at node: MemberAccessExprSyntax) throws -> Value {
    if let window = try windowMethod(name, on: receiver, arguments: arguments, at: node) { return window }
    let call = arguments.call
    let lhs = receiver.expression
    func argument(_ label: String? = nil, expected: SwiftType? = receiver.type?.wrapped) throws -> TypedExpression {
      guard let syntax = arguments.first(label) else {
        throw source.diagnostic("'\(name)' needs \(label.map { "a '\($0):' argument" } ?? "an argument")", at: call)
      }
      return try typedExpression(try evaluate(syntax, expected: expected), expected: expected, at: syntax)
    }
    func text(_ syntax: ExprSyntax) throws -> Expression {
      try typedExpression(try evaluate(syntax, expected: .string), expected: .string, at: syntax).expression
    }

    if let json = try jsonPathMethod(name, on: receiver, arguments: arguments, at: node) { return json }
    switch name {
    case "eq", "neq", "lt", "gt", "lte", "gte", "is", "isNot":
      let operators: [String: BinaryOperator] = [
        "eq": .equal, "neq": .notEqual, "lt": .lessThan, "gt": .greaterThan, "lte": .lessThanOrEqual,
        "gte": .greaterThanOrEqual, "is": .is, "isNot": .isNot,
      ]
      let op = operators[name] ?? .equal
      guard let syntax = arguments.first() else { throw source.diagnostic("'\(name)' needs a value to compare with", at: call) }
      let value = try evaluate(syntax, expected: receiver.type?.wrapped)
      let rhs = try typedExpression(value, expected: receiver.type, at: syntax)
      try checkComparable(receiver, rhs, at: syntax)
      return boolean(lhs.binary(op, rhs.expression))
    case "and", "or":
      return boolean(lhs.binary(name == "and" ? .and : .or, try argument(expected: .bool).expression))
    case "not":
      return boolean(lhs.not())
    case "in", "notIn":
      guard let syntax = arguments.first() else { throw source.diagnostic("'\(name)' needs a list or a subquery", at: call) }
      let value = try evaluate(syntax, expected: receiver.type?.wrapped)
      let op: BinaryOperator = name == "in" ? .in : .notIn
      switch value {
      case .array(let elements):
        let list = try elements.map { try typedExpression($0, expected: receiver.type, at: syntax).expression }
        return boolean(lhs.binary(op, Expression(.list(list))))
      case .query(let query):
        return boolean(lhs.binary(op, Expression(.statement(.select(query.select)))))
      case .table(let table):
        return boolean(lhs.binary(op, Expression(.statement(.select(Query(table).select)))))
      case .statement(let statement, _):
        return boolean(lhs.binary(op, Expression(.statement(statement))))
      default:
        throw source.diagnostic("'\(name)' needs an array literal or a query, but this is \(describe(value))", at: syntax)
      }
    case "between":
      guard let lower = arguments.positional.first, let upper = arguments.labelled("and") else {
        throw source.diagnostic("'between' needs two bounds: .between(a, and: b)", at: call)
      }
      let low = try typedExpression(try evaluate(lower, expected: receiver.type), expected: receiver.type, at: lower)
      let high = try typedExpression(try evaluate(upper, expected: receiver.type), expected: receiver.type, at: upper)
      return boolean(Expression(.between(lhs, lower: low.expression, upper: high.expression)))
    case "like":
      guard let pattern = arguments.positional.first else { throw source.diagnostic("'like' needs a pattern", at: call) }
      let escape = try arguments.labelled("escape").map { try text($0) }
      return boolean(Expression(.like(string: lhs, pattern: try text(pattern), escape: escape)))
    case "glob":
      guard let pattern = arguments.positional.first else { throw source.diagnostic("'glob' needs a pattern", at: call) }
      return boolean(lhs.binary(.glob, try text(pattern)))
    case "hasPrefix", "hasSuffix", "contains":
      guard let syntax = arguments.positional.first else { throw source.diagnostic("'\(name)' needs a string", at: call) }
      guard case .expression(let e) = try evaluate(syntax), case .value(.text(let fragment)) = e.expression.node else {
        throw source.diagnostic("'\(name)' needs a string literal; use like(…) for patterns built from columns", at: syntax)
      }
      let pattern = name == "hasPrefix" ? fragment + "%" : name == "hasSuffix" ? "%" + fragment : "%" + fragment + "%"
      return boolean(Expression(.like(string: lhs, pattern: .value(.text(pattern)), escape: nil)))
    case "collate":
      guard let syntax = arguments.first() else { throw source.diagnostic("'collate' needs a collation: .collate(.nocase)", at: call) }
      let collation: String
      if let custom = syntax.as(FunctionCallExprSyntax.self), let member = custom.calledExpression.as(MemberAccessExprSyntax.self),
        member.base == nil, member.declName.baseName.text == "custom" || member.declName.baseName.text == "init",
        let name = custom.arguments.first?.expression.as(StringLiteralExprSyntax.self)
      {
        // `.collate(.custom("french"))`: a collation the app registered, by name.
        let text = try stringValue(name)
        return .expression(TypedExpression(Expression(.collate(lhs, collation: quoteIdentifier(text))), type: receiver.type))
      }
      switch try evaluate(syntax) {
      case .implicitMember(let member):
        switch member {
        // Quoted, as StructuredQueries renders every collation name: COLLATE "NOCASE".
        case "nocase": collation = quoteIdentifier("NOCASE")
        case "binary": collation = quoteIdentifier("BINARY")
        case "rtrim": collation = quoteIdentifier("RTRIM")
        default:
          throw source.diagnostic("unknown collation '.\(member)'", at: syntax, suggestion: closestMatch(to: member, in: ["nocase", "binary", "rtrim"]))
        }
      case .expression(let e):
        guard case .value(.text(let name)) = e.expression.node else { fallthrough }
        collation = quoteIdentifier(name)
      default:
        throw source.diagnostic("'collate' needs a collation: .collate(.nocase)", at: syntax)
      }
      return .expression(TypedExpression(Expression(.collate(lhs, collation: collation)), type: receiver.type))
    case "asc", "desc":
      var nulls: Ordering.Nulls?
      if let syntax = arguments.labelled("nulls") {
        guard case .implicitMember(let member) = try evaluate(syntax), member == "first" || member == "last" else {
          throw source.diagnostic("'nulls:' is .first or .last", at: syntax)
        }
        nulls = member == "first" ? .first : .last
      }
      return .ordering(Ordering(lhs, direction: name == "asc" ? .ascending : .descending, nulls: nulls))
    case "cast":
      var type = "NUMERIC"
      if let syntax = arguments.labelled("as") ?? arguments.first() {
        type = sqlType(forSwiftType: syntax.trimmedDescription.replacingOccurrences(".self", ""))
      } else if let receiverType = receiver.type?.wrapped {
        // No type given: Swift infers it from the context. The usual cases: an integer (or
        // Bool) cast to compare or divide as a Double, a Double cast to truncate, text to a number.
        switch receiverType.name {
        case "Int", "Int64", "Int32", "Bool": type = "REAL"
        case "Double", "Float": type = "INTEGER"
        case "String": type = "NUMERIC"
        default: type = "TEXT"
        }
      }
      return .expression(TypedExpression(Expression(.cast(lhs, type: type)), type: nil))
    case "match", "highlight", "snippet":
      if let value = try ftsColumnMethod(name, on: receiver, arguments: arguments) { return value }
    case "strftime" where receiver.type?.isDate == true:
      guard let format = arguments.first() else { throw source.diagnostic("'strftime' needs a format", at: call) }
      return .expression(TypedExpression(.function("strftime", [try text(format)] + timeArguments(receiver)), type: .string))
    case "map", "flatMap":
      // `$0.priority.map { $0 < Priority.high }`: the closure gets the unwrapped value. `map`
      // keeps NULL as NULL around it; `flatMap`'s closure already answers for NULL.
      guard let syntax = arguments.first() else {
        throw source.diagnostic("'\(name)' needs a closure: .\(name) { $0 … }", at: call)
      }
      let unwrapped = TypedExpression(lhs, type: receiver.type?.wrapped)
      let transformed: Value
      if let closure = syntax.as(ClosureExprSyntax.self) {
        transformed = try invoke(closure, with: [.expression(unwrapped)])
      } else if case .keyPath(let names) = try evaluate(syntax) {
        // `.map(\.year)`
        var value = Value.expression(unwrapped)
        for member in names { value = try self.member(member, of: value, at: syntax) }
        transformed = value
      } else {
        throw source.diagnostic("'\(name)' needs a closure or a key path: .\(name) { $0 … }", at: syntax)
      }
      let result = try typedExpression(transformed, at: syntax)
      if name == "flatMap" {
        return .expression(TypedExpression(result.expression, type: result.type?.optional))
      }
      let isNull = lhs.binary(.is, .null)
      let guarded = CaseExpression(base: isNull, whens: [.init(.value(.integer(1)), then: .null)], otherwise: result.expression)
      return .expression(TypedExpression(Expression(.caseWhen(guarded)), type: result.type?.optional))
    case "exists":
      break
    default:
      break
    }

    if let (function, result) = sqlFunction(name), case .aggregate(let sql) = function {
      var aggregateArguments = [lhs]
      if name == "groupConcat", let separator = arguments.positional.first {
        aggregateArguments.append(try text(separator))
      }
      if name == "groupConcat", let separator = arguments.labelled("separator") {
        aggregateArguments.append(try text(separator))
      }
      var distinct = false
      if let syntax = arguments.labelled("distinct") {
        distinct = try booleanConstant(syntax, for: "distinct")
      }
      var order: [Ordering] = []
      if let syntax = arguments.labelled("order") {
        order = try orderings(try evaluate(syntax), at: syntax)
      }
      var filter: Expression?
      if let syntax = arguments.labelled("filter") {
        filter = try predicate(try evaluate(syntax), at: syntax)
      }
      let type: SwiftType? = result ?? receiver.type?.optional
      return .expression(TypedExpression(
        Expression(.aggregate(Aggregate(name: sql, arguments: aggregateArguments, distinct: distinct, order: order, filter: filter))),
        type: type))
    }

    if let (function, result) = sqlFunction(name), case .scalar(let sql) = function {
      var functionArguments = [lhs]
      for syntax in arguments.list.map(\.expression) {
        let expected: SwiftType? = ["substr", "round", "likelihood"].contains(name) ? nil : receiver.type?.wrapped
        let value = try evaluate(syntax, expected: expected)
        let argument = try typedExpression(value, expected: expected, at: syntax).expression
        // SQLite wants likelihood's probability as a constant, not a bound parameter.
        if name == "likelihood", case .value(.double(let probability)) = argument.node, probability.isFinite {
          functionArguments.append(Expression(.literal(.double(probability))))
        } else {
          functionArguments.append(argument)
        }
      }
      var type = result ?? receiver.type
      if name == "ifnull" { type = receiver.type?.wrapped }
      if name == "nullif" { type = receiver.type?.optional }
      return .expression(TypedExpression(.function(sql, functionArguments), type: type))
    }

    throw unknownMethod(name, on: .expression, described: "an expression", at: node.declName)
  }

  /// Comparing a text column with a number (or the reverse) is almost always a mistake.
  func checkComparable(_ lhs: TypedExpression, _ rhs: TypedExpression, at node: some SyntaxProtocol) throws {
    guard let l = lhs.type, let r = rhs.type, case .value = rhs.expression.node else { return }
    if mismatched(l.wrapped, r.wrapped) {
      throw source.diagnostic("cannot compare \(l) with \(r)", at: node)
    }
  }

  /// Two types Swift would never compare or substitute: text and a number, or an enum and a
  /// literal of another kind than its raw values.
  func mismatched(_ a: SwiftType, _ b: SwiftType) -> Bool {
    if (a.isText && b.isNumeric) || (a.isNumeric && b.isText) { return true }
    for (enumType, other) in [(a, b), (b, a)] {
      if let model = catalog.enums[enumType.name], other.name != enumType.name, catalog.enums[other.name] == nil {
        return model.rawType.isText ? other.isNumeric : other.isText
      }
    }
    return false
  }

  func sqlType(forSwiftType name: String) -> String {
    let type = SwiftType(name.hasSuffix("?") ? String(name.dropLast()) : name)
    if type.isInteger || type.isBool { return "INTEGER" }
    if type.isReal { return "REAL" }
    if type.name == "[UInt8]" || type.name == "Data" { return "BLOB" }
    return "TEXT"
  }

  /// `$0.eq(Tag(id: 1, title: "car"))`, `$0 > Tag(…)`: the whole row compared as a row value.
  ///
  /// ```swift
  /// Tag.where { $0 > Tag(id: 1, title: "car") }
  /// // … WHERE (("tags"."id", "tags"."title") > (1, 'car'))
  /// ```
  func compareRow(_ table: TableInstance, _ op: BinaryOperator, with syntax: ExprSyntax) throws -> Value {
    guard case .query(let record) = try evaluate(syntax), record.resultModel == table.model.typeName,
      record.select.columns.count == table.allColumns.count
    else {
      throw source.diagnostic("a whole '\(table.model.typeName)' row compares with a '\(table.model.typeName)(…)' value that has every column", at: syntax)
    }
    let parts = Self.row(table.allColumns.map(\.expression)) + [.text(" \(op.sql) ")]
      + Self.row(record.select.columns.map(\.expression))
    return boolean(Expression(.sql(parts)))
  }

  /// A row value: `("a", "b")`.
  static func row(_ expressions: [Expression]) -> [SQLPart] {
    var parts: [SQLPart] = [.text("(")]
    for (index, expression) in expressions.enumerated() {
      if index > 0 { parts.append(.text(", ")) }
      parts.append(.expression(expression))
    }
    return parts + [.text(")")]
  }

  /// `find` on a table whose primary key is a column group: its columns as a row value.
  ///
  /// ```swift
  /// Metadata.find(MetadataID(recordID: UUID(0), recordType: "reminders"))
  /// // … WHERE (("metadatas"."recordID", "metadatas"."recordType") IN (('00000000-…', 'reminders')))
  /// ```
  func findComposite(_ argument: ExprSyntax, in query: Query) throws -> Query {
    var query = query
    let table = query.tables[0]
    let keys = table.model.primaryKeyColumns
    let value = try evaluate(argument)
    var records: [Value] = []
    if case .array(let elements) = value { records = elements } else { records = [value] }
    let keyName = keys.first?.path.first ?? "id"
    var rows: [SQLPart] = []
    for record in records {
      guard case .query(let row) = record, row.select.columns.count == keys.count else {
        throw source.diagnostic(
          "'find' on '\(table.model.typeName)' needs whole '\(keyName)' values, each with \(keys.map(\.name).joined(separator: " and "))",
          at: argument)
      }
      if !rows.isEmpty { rows.append(.text(", ")) }
      rows += Self.row(row.select.columns.map(\.expression))
    }
    let parts = Self.row(keys.map { table.column($0).expression }) + [.text(" IN (")] + rows + [.text(")")]
    query.select.wheres.append(Expression(.sql(parts)))
    return query
  }

  /// Methods on a whole table's columns (`$1.count()`, `$1.jsonGroupArray()`).
  /// A method of a whole row (`$0.` of a table), run by its vocabulary entry's handler.
  func columnsMethod(_ name: String, on table: TableInstance, arguments: Arguments, at node: MemberAccessExprSyntax) throws -> Value {
    if let handler = Vocabulary.methods(named: name, on: .row).lazy.compactMap(\.handler).first {
      return try handler.run(self, .columns(table), arguments, node)
    }
    let value = try columnMember(name, of: table, at: node)
    _ = value
    throw source.diagnostic("'\(name)' is a column, not a method", at: node.declName)
  }

  /// `$0.eq(Tag(…))`, `$0.is(row)`: every column against a row value's.
  func compareRowMethod(_ op: BinaryOperator, _ table: TableInstance, _ arguments: Arguments, _ node: MemberAccessExprSyntax) throws -> Value {
    guard let syntax = arguments.first() else {
      throw source.diagnostic("'\(node.declName.baseName.text)' needs a '\(table.model.typeName)(…)' value", at: arguments.call)
    }
    return try compareRow(table, op, with: syntax)
  }

  /// `$0.count(distinct:filter:)`: the rows of each group (count of the primary key, or `*`).
  func countRows(_ table: TableInstance, _ arguments: Arguments, _ node: MemberAccessExprSyntax) throws -> Value {
    let key = table.model.primaryKey.map { table.column($0).expression } ?? .star
    var distinct = false
    if let syntax = arguments.labelled("distinct") { distinct = try booleanConstant(syntax, for: "distinct") }
    var filter: Expression?
    if let syntax = arguments.labelled("filter") { filter = try predicate(try evaluate(syntax), at: syntax) }
    return .expression(TypedExpression(
      Expression(.aggregate(Aggregate(name: "count", arguments: [key], distinct: distinct, filter: filter))), type: .int))
  }

  /// `$0.match(…)`, `$0.bm25()` of an FTS5 table.
  func ftsRowMethod(_ table: TableInstance, _ arguments: Arguments, _ node: MemberAccessExprSyntax) throws -> Value {
    try ftsTableMethod(node.declName.baseName.text, on: table, arguments: arguments)
  }

  /// `$0.jsonObject()` and `$0.jsonGroupArray(…)`: the row as JSON.
  func rowJSON(_ table: TableInstance, _ arguments: Arguments, _ node: MemberAccessExprSyntax) throws -> Value {
    let name = node.declName.baseName.text
    let rowid = Expression.column(table.qualifier, "rowid")
    let present = rowid.binary(.isNot, .null)
    var objectArguments: [Expression] = []
    for column in table.model.columns {
      objectArguments.append(.literal(column.sqlName))
      let value = Expression.column(table.qualifier, column.sqlName)
      if column.type.isBool {
        objectArguments.append(.function("json", [Expression(.caseWhen(CaseExpression(
          base: value, whens: [.init(Expression(.literal(.integer(0))), then: .literal("false")), .init(Expression(.literal(.integer(1))), then: .literal("true"))],
          otherwise: nil)))]))
      } else {
        objectArguments.append(value)
      }
    }
    let object = Expression.function("json_object", objectArguments)
    if name == "jsonObject" {
      // The row as a JSON object (NULL when an outer join found no row).
      let value = table.isOptional
        ? Expression(.caseWhen(CaseExpression(base: nil, whens: [.init(present, then: object)], otherwise: nil))) : object
      return .expression(TypedExpression(value, type: .string))
    }
    var distinct = false
    if let syntax = arguments.labelled("distinct") { distinct = try booleanConstant(syntax, for: "distinct") }
    let extra = try arguments.labelled("filter").flatMap { try predicate(try evaluate($0), at: $0) }
    // A table whose row may be missing (outer join) skips the missing rows; others do not need to.
    let element = table.isOptional
      ? Expression(.caseWhen(CaseExpression(base: nil, whens: [.init(present, then: object)], otherwise: nil))) : object
    let filter = table.isOptional ? (extra.map { present.and($0) } ?? present) : extra
    return .expression(TypedExpression(
      Expression(.aggregate(Aggregate(name: "json_group_array", arguments: [element], distinct: distinct, filter: filter))),
      type: .string))
  }


}
