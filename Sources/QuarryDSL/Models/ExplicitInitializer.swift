import QueryBuilder
import SwiftSyntax

/// An `init` a model declares itself: Swift then calls it for `Model(…)` (the memberwise one is
/// not made), with its own labels and default arguments; `Model.Draft(…)` keeps the macro's.
/// Quarry follows a body that sets each stored property from a parameter or from Swift it
/// computes (`self.title = title.trimmingCharacters(in: .whitespaces)`); a call of any other
/// body is refused, naming it.
///
/// ```swift
/// @Table struct Entry {
///   let id: Int
///   var note: String?
///   init(id: Int, note: String? = "hi") { self.id = id; self.note = note }
/// }
/// Entry.insert { Entry(id: 5) }
/// // INSERT INTO "entries" ("id", "note") VALUES (5, 'hi')
/// ```
struct ExplicitInitializer: Sendable {
  struct Parameter: Sendable {
    /// The argument label (nil for `_`).
    var label: String?
    var name: String
    var type: SwiftType
    /// The default argument, as Swift computes it; `hasDefault` without a value: one Quarry
    /// does not run.
    var defaultValue: Expression?
    var hasDefault: Bool
    /// A default argument Swift computes afresh at each call (`id: UUID = UUID()`), as written.
    var volatileDefault: (kind: VolatileDefault, written: String)? = nil
  }

  /// What a stored property is set to.
  enum Source: Sendable {
    case parameter(String)
    case value(Expression)
    /// Swift over the parameters, computed by the evaluator when the init is called.
    case swift(AnySyntaxBox)
  }

  var parameters: [Parameter]
  /// Stored properties the body sets, by property name.
  var assignments: [String: Source]
  /// Why Quarry cannot follow the body (a statement other than `self.x = …`), if it cannot.
  var opaqueReason: String?
  var line: Int
  /// `self.init(id: alarm.id, title: alarm.title)`: a body that hands its values on to another
  /// init of the type (the memberwise one, or one it declares).
  var delegation: AnySyntaxBox?
  /// Declared in an extension: Swift keeps the memberwise init beside it.
  var inExtension = false

  /// Whether a call with these labels calls this initializer (defaults may be left out, in order).
  func accepts(_ labels: [String?]) -> Bool {
    var remaining = labels[...]
    for parameter in parameters {
      if let next = remaining.first, next == parameter.label {
        remaining.removeFirst()
      } else if !parameter.hasDefault {
        return false
      }
    }
    return remaining.isEmpty
  }
}

extension DeclarationReader {
  /// The model's own `init`s, read with the types its columns give.
  func explicitInitializers(
    of members: MemberBlockSyntax, columns: [ColumnModel], owner: (name: String, id: SwiftType?), inExtension: Bool = false
  ) -> [ExplicitInitializer] {
    var result: [ExplicitInitializer] = []
    for member in members.activeMembers {
      guard let initializer = member.decl.as(InitializerDeclSyntax.self), initializer.optionalMark == nil, let body = initializer.body
      else { continue }
      var parameters: [ExplicitInitializer.Parameter] = []
      for parameter in initializer.signature.parameterClause.parameters {
        let label = parameter.firstName.tokenKind == .wildcard ? nil : parameter.firstName.text
        let name = (parameter.secondName ?? parameter.firstName).text
        var type = swiftType(parameter.type, owner: owner)
        // `status: Status` in the model's extension: its own nested `AlarmRecord.Status`.
        if !type.name.contains("."), catalog.enums[owner.name + "." + type.name] != nil {
          type = SwiftType(owner.name + "." + type.name, optional: type.isOptional)
        }
        var value: Expression?
        var volatile: (kind: VolatileDefault, written: String)?
        if let written = parameter.defaultValue?.value {
          let kind = VolatileDefault.of(written, type: type)
          if kind != .uuid, kind != .date { value = try? defaultExpression(written, type: type) }
          if let kind { volatile = (kind, written.trimmedDescription) }
        }
        parameters.append(
          .init(
            label: label, name: name, type: type, defaultValue: value, hasDefault: parameter.defaultValue != nil,
            volatileDefault: volatile))
      }
      var assignments: [String: ExplicitInitializer.Source] = [:]
      var opaque: String?
      let line = source.lineAndColumn(of: initializer.positionAfterSkippingLeadingTrivia).line
      if body.statements.count == 1, case .expr(let expr)? = body.statements.first?.item, let call = expr.as(FunctionCallExprSyntax.self),
        let callee = call.calledExpression.as(MemberAccessExprSyntax.self), callee.declName.baseName.tokenKind == .keyword(.`init`),
        callee.base?.as(DeclReferenceExprSyntax.self)?.baseName.tokenKind == .keyword(.self)
      {
        var delegating = ExplicitInitializer(parameters: parameters, assignments: [:], opaqueReason: nil, line: line)
        delegating.delegation = AnySyntaxBox(syntax: Syntax(call), source: source)
        delegating.inExtension = inExtension
        result.append(delegating)
        continue
      }
      for item in body.statements {
        guard case .expr(let expr) = item.item, let sequence = expr.as(SequenceExprSyntax.self), sequence.elements.count == 3,
          sequence.elements.dropFirst().first?.is(AssignmentExprSyntax.self) == true, let target = sequence.elements.first,
          let value = sequence.elements.last
        else {
          opaque = messageExcerpt(item.trimmedDescription)
          break
        }
        var property = target.trimmedDescription
        if property.hasPrefix("self.") { property.removeFirst(5) }
        guard let column = columns.first(where: { $0.name == property }) else {
          opaque = messageExcerpt(expr.trimmedDescription)
          break
        }
        if let reference = value.as(DeclReferenceExprSyntax.self), parameters.contains(where: { $0.name == reference.baseName.text }) {
          assignments[property] = .parameter(reference.baseName.text)
        } else if let computed = try? defaultExpression(value, type: column.type) {
          assignments[property] = .value(computed)
        } else {
          assignments[property] = .swift(AnySyntaxBox(syntax: Syntax(value), source: source))
        }
      }
      var explicit = ExplicitInitializer(parameters: parameters, assignments: assignments, opaqueReason: opaque, line: line)
      explicit.inExtension = inExtension
      result.append(explicit)
    }
    return result
  }
}
