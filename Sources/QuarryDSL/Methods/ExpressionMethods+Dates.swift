import QueryBuilder
import SwiftSyntax

/// Date functions in StructuredQueries' spelling: modifiers applied by calling a date
/// (`$0.startsAt(.startOfMonth)`), components (`.year`), `.strftime`, and `.now`.
///
/// ```swift
/// // Event.select { $0.startsAt(.months(-3)).year }   (startsAt stored as Unix time)
/// // SELECT CAST(strftime('%Y', "events"."startsAt", 'unixepoch', '-3 months') AS INTEGER)
/// ```
extension ExpressionMethods {
  enum DateStorage { case iso8601, unixTime, julianDay }

  func dateStorage(_ type: SwiftType?) -> DateStorage {
    guard let representation = type?.representation else { return .iso8601 }
    if representation.contains("UnixTime") { return .unixTime }
    if representation.contains("JulianDay") { return .julianDay }
    return .iso8601
  }

  private func storageFunction(_ storage: DateStorage) -> String {
    switch storage {
    case .iso8601: return "datetime"
    case .unixTime: return "unixepoch"
    case .julianDay: return "julianday"
    }
  }

  /// The time value and modifiers of a date expression, as SQLite's date functions take them.
  func timeArguments(_ date: TypedExpression) -> [Expression] {
    let storage = dateStorage(date.type)
    if case .function(let name, var arguments) = date.expression.node, name == storageFunction(storage),
      !arguments.isEmpty
    {
      if storage == .iso8601, arguments.last == .literal("subsec") { arguments.removeLast() }
      return arguments
    }
    return [date.expression] + (storage == .unixTime ? [.literal("unixepoch")] : [])
  }

  /// A date with modifiers applied, stored back in the date's own representation.
  func modified(_ date: TypedExpression, by modifiers: [String]) -> TypedExpression {
    let storage = dateStorage(date.type)
    var arguments = timeArguments(date) + modifiers.map { Expression.literal($0) }
    if storage == .iso8601 { arguments.append(.literal("subsec")) }
    return TypedExpression(.function(storageFunction(storage), arguments), type: date.type)
  }

  func now(_ type: SwiftType, modifiers: [String] = []) -> TypedExpression {
    let base = TypedExpression(
      .function(storageFunction(dateStorage(type)), [.literal("now")] + (dateStorage(type) == .iso8601 ? [.literal("subsec")] : [])),
      type: type.wrapped)
    return modifiers.isEmpty ? base : modified(base, by: modifiers)
  }

  func dateComponent(_ name: String, of date: TypedExpression) -> TypedExpression? {
    let formats = [
      "year": "%Y", "month": "%m", "day": "%d", "hour": "%H", "minute": "%M", "second": "%S",
      "dayOfWeek": "%w", "dayOfYear": "%j",
    ]
    guard let format = formats[name] else { return nil }
    let strftime = Expression.function("strftime", [.literal(format)] + timeArguments(date))
    return TypedExpression(Expression(.cast(strftime, type: "INTEGER")), type: .int)
  }

  /// Modifier text from syntax like `.startOfMonth.months(1).days(-1)` or `.endOfMonth`.
  func dateModifiers(_ expr: ExprSyntax) throws -> [String] {
    if let member = expr.as(MemberAccessExprSyntax.self) {
      let base = try member.base.map { try dateModifiers($0) } ?? []
      return base + (try namedModifier(member.declName.baseName.text, at: member))
    }
    if let call = expr.as(FunctionCallExprSyntax.self), let member = call.calledExpression.as(MemberAccessExprSyntax.self) {
      let base = try member.base.map { try dateModifiers($0) } ?? []
      let name = member.declName.baseName.text
      guard let argument = call.arguments.first?.expression else {
        throw compiler.source.diagnostic("'\(name)' needs a number", at: call)
      }
      let number: String
      if let value = compiler.knownInteger(argument) {
        number = String(value)
      } else if let float = argument.as(FloatLiteralExprSyntax.self) {
        number = float.literal.text
      } else {
        throw compiler.source.diagnostic("a date modifier needs a number literal", at: argument)
      }
      let units = [
        "days": "days", "months": "months", "years": "years", "hours": "hours", "minutes": "minutes",
        "seconds": "seconds",
      ]
      if name == "milliseconds", let value = compiler.knownInteger(argument) {
        // `.milliseconds(-1_500)` → '-1.500 seconds'
        let magnitude = value.magnitude
        let text = (value < 0 ? "-" : "") + "\(magnitude / 1000)." + String(String(magnitude % 1000 + 1000).dropFirst())
        return base + ["\(text) seconds"]
      }
      if let unit = units[name] {
        // `.months(1, .floor)`: how a month past the end of the next one is resolved.
        var modifiers = base + ["\(number) \(unit)"]
        if call.arguments.count > 1, let mode = call.arguments.dropFirst().first?.expression.as(MemberAccessExprSyntax.self),
          mode.base == nil, ["floor", "ceiling"].contains(mode.declName.baseName.text)
        {
          modifiers.append(mode.declName.baseName.text)
        }
        return modifiers
      }
      if name == "weekday" { return base + ["weekday \(number)"] }
      throw compiler.source.diagnostic(
        "unknown date modifier '\(name)'", at: member.declName,
        suggestion: closestMatch(to: name, in: Array(units.keys) + ["weekday", "milliseconds"]))
    }
    if let reference = expr.as(DeclReferenceExprSyntax.self), reference.baseName.text == "Self" {
      return []
    }
    throw compiler.source.diagnostic("expected a date modifier like .startOfMonth or .days(1)", at: expr)
  }

  private func namedModifier(_ name: String, at node: some SyntaxProtocol) throws -> [String] {
    let named = [
      "startOfMonth": "start of month", "startOfDay": "start of day", "startOfYear": "start of year",
      "localtime": "localtime", "utc": "utc", "subsec": "subsec", "auto": "auto",
    ]
    if let text = named[name] { return [text] }
    if let scope = compiler.catalog.staticExtensions["DateTimeModifier"]?[name] {
      return try compiler.withSource(scope.body) {
        guard let expr = scope.body.syntax.as(ExprSyntax.self) else { return [] }
        return try dateModifiers(expr)
      }
    }
    throw compiler.source.diagnostic(
      "unknown date modifier '.\(name)'", at: node,
      suggestion: closestMatch(
        to: name, in: Array(named.keys) + Array(compiler.catalog.staticExtensions["DateTimeModifier"]?.keys ?? [:].keys)))
  }

  /// `date(modifiers…)`: calling a date expression applies modifiers.
  func callDate(_ date: TypedExpression, arguments: Arguments) throws -> Value {
    var modifiers: [String] = []
    for argument in arguments.list { modifiers += try dateModifiers(argument.expression) }
    return .expression(modified(date, by: modifiers))
  }
}
