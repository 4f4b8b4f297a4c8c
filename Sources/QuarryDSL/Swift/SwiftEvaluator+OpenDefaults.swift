import SwiftSyntax

/// A `??` whose overload swiftc picks by ranking that Quarry does not model (see
/// ``SwiftEvaluator/ambiguousDefault(_:left:)``): the outermost expression is evaluated once
/// per pick, and its value is kept only where every pick gives the same one.
///
/// ```swift
/// let y = [UInt16(1), 7].first ?? 60                  // refused: Optional(1) or 1
/// let n = [UInt16(1), 7].filter { $0 > 5 }.first ?? 60 == 7      // true either way
/// let m = Int([UInt16(1), 7].filter { $0 > 9 }.first ?? 60)   // 60: Int(_:) takes no UInt16?
/// ```
struct OpenDefault: Error {
  /// The `??`.
  var site: SyntaxIdentifier
  /// The refusal, where the picks disagree.
  var refusal: SwiftEvaluationError
}

extension SwiftEvaluator {
  /// The most evaluations one expression gets to settle its open `??`s.
  static let maximumPicks = 8

  /// Whether the open `??` at `infix` returns `T?` in the evaluation running; throws
  /// ``OpenDefault`` when the pick is not made yet, false where the `??` is not open.
  func openDefault(_ infix: InfixOperatorExprSyntax, left: SwiftValue) throws -> Bool {
    guard let refusal = ambiguousDefault(infix, left: left) else { return false }
    guard let pick = openDefaultPicks?[infix.id] else { throw OpenDefault(site: infix.id, refusal: refusal) }
    return pick
  }

  /// Evaluates an outermost expression, once per pick of the open `??`s it meets (the names
  /// in scope restored before each): their common value, or the first one's refusal.
  func settlingOpenDefaults(_ work: () throws -> SwiftValue) throws -> SwiftValue {
    let saved = scopes.map { ($0, $0.names) }
    var pending: [[SyntaxIdentifier: Bool]] = [[:]]
    var values: [SwiftValue] = []
    var firstRefusal: SwiftEvaluationError?
    var ruledOut: SwiftEvaluationError?
    var isFirst = true
    defer { openDefaultPicks = nil }
    while let picks = pending.popLast() {
      if !isFirst {
        scopes = saved.map(\.0)
        for (scope, names) in saved { scope.names = names }
      }
      isFirst = false
      openDefaultPicks = picks
      do {
        values.append(try work())
      } catch let open as OpenDefault where picks[open.site] == nil {
        firstRefusal = firstRefusal ?? open.refusal
        guard values.count + pending.count + 2 <= Self.maximumPicks else { throw open.refusal }
        pending.append(picks.merging([open.site: true]) { a, _ in a })
        pending.append(picks.merging([open.site: false]) { a, _ in a })
      } catch let error as SwiftEvaluationError where error.misusesAnOptional && picks.values.contains(true) {
        // swiftc never picks an overload the rest of the expression cannot take (an optional
        // where its value is needed): this pick is not one.
        ruledOut = ruledOut ?? error
      } catch {
        // A pick Quarry cannot run (swiftc may have ruled it out, or not): not sure.
        guard let firstRefusal else { throw error }
        throw firstRefusal
      }
    }
    if values.isEmpty, let ruledOut { throw ruledOut }
    // (Compared as written out: a NaN is the same NaN.)
    guard let value = values.first, values.allSatisfy({ String(describing: $0) == String(describing: value) }) else {
      throw firstRefusal ?? failure("cannot be evaluated", at: source.tree)
    }
    return value
  }

  /// The `??` swiftc settles by ranking overloads Quarry does not model, or nil: with no type
  /// from the context, a literal default, and a left side that is `.first` or `.last` of an
  /// array literal whose literals are not all of their default type (a `UInt8` array, a Double
  /// array with an integer literal), `??`'s two overloads (`-> T` and `-> T?`) tie, and swiftc's
  /// pick varies with what surrounds it (measured: `let y = [UInt16(1), 7].first ?? 60` is
  /// `Optional(1)`; inside an array literal the array may become `[Any]`; in some
  /// interpolations it is `1`). The message says how to give it a type.
  func ambiguousDefault(_ infix: InfixOperatorExprSyntax, left: SwiftValue) -> SwiftEvaluationError? {
    guard Self.isLiteralOnly(infix.rightOperand) || Self.isFloatLiteral(infix.rightOperand),
      let member = infix.leftOperand.as(MemberAccessExprSyntax.self), ["first", "last"].contains(member.declName.baseName.text)
    else { return nil }
    var root = member.base
    while let current = root {
      if let access = current.as(MemberAccessExprSyntax.self) {
        root = access.base
      } else if let call = current.as(FunctionCallExprSyntax.self) {
        root = call.calledExpression
      } else if let subscriptCall = current.as(SubscriptCallExprSyntax.self) {
        root = subscriptCall.calledExpression
      } else {
        break
      }
    }
    guard let array = root?.as(ArrayExprSyntax.self) else { return nil }
    // The element type: the value's, or (for nil) the array literal's typed elements'.
    var elementType = left.unwrapped.flatMap(Self.type(of:))?.name
    if left.unwrapped == nil {
      // (An element written `(x as Int16)` or computed, `[a.max()!, -128].map { … }[1]`, has the
      // type its value keeps: the array literal's elements, evaluated again, pure as it is.)
      var evaluated: String?
      if case .array(let elements)? = try? evaluate(ExprSyntax(array)), let first = elements.first {
        evaluated = Self.type(of: first.unwrapped ?? first)?.name
      }
      elementType =
        array.elements.lazy.compactMap { self.staticType(of: $0.expression)?.wrapped.name }.first
        ?? (evaluated == "Int" ? nil : evaluated)
        ?? (array.elements.contains { Self.isFloatLiteral($0.expression) } ? "Double" : nil)
    }
    let nonDefault: Bool
    switch elementType {
    case let name? where IntegerWidth(named: name) != nil: nonDefault = true
    case "Double":
      nonDefault = Self.isLiteralOnly(infix.rightOperand) || array.elements.contains { Self.isLiteralOnly($0.expression) }
    default: nonDefault = false
    }
    guard nonDefault, let elementType else { return nil }
    return failure(
      "leaves swiftc to choose between '??' returning \(elementType) and \(elementType)? (a literal default after an array literal's '\(member.declName.baseName.text)', with no type from the context), and here the two give different values: give the array a type ([\(elementType)]) or write the default as \(elementType)(…)",
      at: infix)
  }

}
