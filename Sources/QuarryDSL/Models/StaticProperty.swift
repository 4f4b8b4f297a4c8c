import SwiftSyntax

/// A `static let` or `static var` with an initializer, declared in a type of the input that is
/// not a table: a namespace of values the app's queries use (`AchievementDefinitions.all`,
/// `Defaults.tags`). Swift initializes it lazily, once, from its initializer; Quarry evaluates
/// that initializer where the property is read, in the input that declared it, with the
/// declared type as the expected type.
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
  static func declared(in statements: [CodeBlockItemSyntax], source: SourceUnit) -> [StaticProperty]
  {
    var found: [StaticProperty] = []
    InputTypes.visit(statements) { decl, qualified in
      guard let block = InputTypes.members(of: decl) else { return }
      for member in block.activeMembers {
        guard let variable = member.decl.as(VariableDeclSyntax.self),
          variable.modifiers.contains(where: { $0.name.tokenKind == .keyword(.static) })
        else { continue }
        for binding in variable.bindings
        where binding.initializer != nil && binding.accessorBlock == nil {
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
