import SwiftSyntax

/// A `static let` or `static var` declared in a type of the input that is not a table: a
/// namespace of values and queries the app uses (`AchievementDefinitions.all`, `Defaults.tags`,
/// `Operations.tagsQuery`). Swift initializes a stored one lazily, once, from its initializer,
/// and runs a computed one's getter at each read; Quarry evaluates either where the property is
/// read, in the input that declared it, with the declared type as the expected type.
///
/// ```swift
/// struct Seed { static let tags: [Tag.Draft] = [Tag.Draft(title: "car"), Tag.Draft(title: "kids")] }
/// Tag.insert { Seed.tags }
/// // INSERT INTO "tags" ("id", "title") VALUES (NULL, 'car'), (NULL, 'kids')
/// ```
struct StaticProperty {
  /// The type's qualified name (`Library.Defaults`) and the property's name.
  let typeName: String
  let name: String
  /// The pattern binding: its annotation and initializer, with the input it came from.
  let binding: AnySyntaxBox

  var qualifiedName: String { typeName + "." + name }

  /// The static stored properties of every type declared in `statements` (nested types and
  /// extensions too, under their qualified names; inactive `#if` clauses skipped).
  static func declared(in statements: [CodeBlockItemSyntax], source: SourceUnit) -> [StaticProperty] {
    var found: [StaticProperty] = []
    InputTypes.visit(statements) { decl, qualified in
      guard let block = InputTypes.members(of: decl) else { return }
      for member in block.activeMembers {
        guard let variable = member.decl.as(VariableDeclSyntax.self),
          variable.modifiers.contains(where: { $0.name.tokenKind == .keyword(.static) })
        else { continue }
        for binding in variable.bindings
        where (binding.initializer != nil) != (binding.accessorBlock != nil) {
          guard let property = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
          else { continue }
          found.append(
            StaticProperty(
              typeName: qualified, name: property,
              binding: AnySyntaxBox(syntax: Syntax(binding), source: source)))
        }
      }
    }
    return found
  }
}

/// A `static func` of a type of the input that is not a table (`enum Operations { static func
/// byTitle(_ t: String) -> Where<Tag> { … } }`): called as the app calls it, its body evaluated
/// with its parameters bound, in the input that declared it.
///
/// ```swift
/// enum Operations { static func titled(_ t: String) -> Where<Tag> { Tag.where { $0.title.eq(t) } } }
/// Operations.titled("car")
/// // SELECT "tags"."id", "tags"."title" FROM "tags" WHERE (("tags"."title") = ('car'))
/// ```
enum StaticFunction {
  /// The static functions of every type declared in `statements`, by qualified name
  /// (`Library.Operations.titled`), each as a scope with no table of its own.
  static func declared(in statements: [CodeBlockItemSyntax], source: SourceUnit) -> [String: Scope] {
    var found: [String: Scope] = [:]
    InputTypes.visit(statements) { decl, qualified in
      guard let block = InputTypes.members(of: decl) else { return }
      for member in block.activeMembers {
        guard let function = member.decl.as(FunctionDeclSyntax.self), let body = function.body,
          function.modifiers.contains(where: { $0.name.tokenKind == .keyword(.static) })
        else { continue }
        found[qualified + "." + function.name.declaredName] = Scope(
          body: AnySyntaxBox(syntax: Syntax(body), source: source),
          parameters: function.signature.parameterClause.parameters.map { ($0.secondName ?? $0.firstName).text },
          ownerType: qualified, parameterTypes: DeclarationReader.parameterTypes(of: function),
          parameterLabels: DeclarationReader.parameterLabels(of: function))
      }
    }
    return found
  }
}
