import SwiftSyntax

/// A struct of the input that is not a table: a plain value type whose instances the one
/// evaluator builds with its memberwise initializer and reads by property
/// (`AchievementCriteria(targetValue: 3).targetValue` is 3). A `Codable` one is stored as the
/// JSON StructuredQueries' encoder writes for it (`@Column(as: Criteria.JSONRepresentation.self)`).
///
/// ```swift
/// struct Criteria: Codable { var target: Int; var note: String? }
/// @Table struct Goal { let id: Int; @Column(as: Criteria.JSONRepresentation.self) var criteria: Criteria }
/// Goal.insert { Goal.Draft(criteria: Criteria(target: 3)) }
/// // INSERT INTO "goals" ("id", "criteria") VALUES (NULL, '{⏎  "target" : 3⏎}')
/// ```
extension ValueTypeModel {
  /// Whether two spellings name one type: `Mountain.PlannedClimb` and the `PlannedClimb` nested
  /// in `Mountain` (an extension may name it either way).
  static func sameType(_ a: String, _ b: String) -> Bool {
    a == b || a.hasSuffix("." + b) || b.hasSuffix("." + a)
  }

  /// The struct a name means among `types`: by that name, or by its last component.
  static func named(_ name: String, in types: [String: ValueTypeModel]) -> ValueTypeModel? {
    types[name] ?? name.split(separator: ".").last.flatMap { types[String($0)] }
  }
}

struct ValueTypeModel {
  struct Property {
    let name: String
    /// The declared type (nil when only an initializer gives it).
    let type: SwiftType?
    /// The default value, from the input that declared it.
    let initializer: ExprSyntax?
    /// `let x = 3`: set by its initializer, never a parameter of the memberwise initializer.
    let isFixed: Bool
    /// Declared with `let`: only an `init` sets it.
    var isLet = false
  }

  /// The qualified name (`Library.Criteria`).
  let name: String
  /// Stored properties, in declaration order (the memberwise initializer's order).
  let properties: [Property]
  /// Declares `Codable` or `Encodable`.
  let isEncodable: Bool
  /// Declares its own coding (`CodingKeys`, `encode(to:)`), which the synthesized JSON is not.
  let hasCustomCoding: Bool
  /// Its body: members (computed properties, functions, static values) and nested enums.
  let members: MemberBlockSyntax
  /// The `init`s it declares, which replace the memberwise one.
  let initializers: [InitializerDeclSyntax]
  var hasExplicitInitializer: Bool { !initializers.isEmpty }
  let source: SourceUnit

  /// The value types `statements` declare (nested ones under their qualified names), skipping
  /// tables, selections and app types with behaviour the evaluator does not model (classes,
  /// property wrappers, computed stored state).
  static func declared(in statements: [CodeBlockItemSyntax], source: SourceUnit) -> [ValueTypeModel] {
    var found: [ValueTypeModel] = []
    InputTypes.visit(statements) { decl, qualified in
      guard let structDecl = decl.as(StructDeclSyntax.self), structDecl.attributes.isEmpty else { return }
      let inherited = Set(
        structDecl.inheritanceClause?.inheritedTypes.map(\.type.trimmedDescription) ?? [])
      guard
        inherited.isDisjoint(with: [
          "View", "App", "Scene", "Table", "TableAlias", "QueryRepresentable", "FetchKeyRequest",
          "Reducer",
        ])
      else { return }
      if let model = read(structDecl, named: qualified, source: source, record: false) { found.append(model) }
    }
    return found
  }

  /// The `@Table` structs `statements` declare, as the evaluator builds their values (records):
  /// their stored properties, columns or not (`@Column`, `@Ephemeral` do not change what a
  /// value holds), and the `init`s they declare.
  ///
  /// ```swift
  /// @Table struct Habit { let id: Int; var title = ""; var count = 0 }
  /// var h = Habit(id: 1); h.count += 2   // .structure(Habit, [id: 1, title: "", count: 2])
  /// ```
  static func records(in statements: [CodeBlockItemSyntax], source: SourceUnit) -> [ValueTypeModel] {
    var found: [ValueTypeModel] = []
    InputTypes.visit(statements) { decl, qualified in
      guard let structDecl = decl.as(StructDeclSyntax.self),
        structDecl.attributes.contains(where: { $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription == "Table" })
      else { return }
      if let model = read(structDecl, named: qualified, source: source, record: true) { found.append(model) }
    }
    return found
  }

  /// A struct's stored properties, coding and `init`s; nil when it holds state the evaluator
  /// does not model (a property wrapper, outside a record's `@Column` and `@Ephemeral`; a
  /// pattern other than a name).
  private static func read(_ structDecl: StructDeclSyntax, named qualified: String, source: SourceUnit, record: Bool) -> ValueTypeModel? {
    let inherited = Set(structDecl.inheritanceClause?.inheritedTypes.map(\.type.trimmedDescription) ?? [])
    var properties: [Property] = []
    var customCoding = false
    var initializers: [InitializerDeclSyntax] = []
    for member in structDecl.memberBlock.activeMembers {
      if let variable = member.decl.as(VariableDeclSyntax.self) {
        if variable.modifiers.contains(where: { $0.name.tokenKind == .keyword(.static) }) {
          continue
        }
        // A property wrapper (`@State`, `@Shared`) is state the evaluator does not model.
        let attributes = variable.attributes.map { $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription ?? "#if" }
        if !(record ? attributes.allSatisfy { ["Column", "Ephemeral"].contains($0) } : attributes.isEmpty) { return nil }
        let isLet = variable.bindingSpecifier.tokenKind == .keyword(.let)
        for binding in variable.bindings {
          if let accessors = binding.accessorBlock {
            // A computed property is read through the type's members; an observer keeps
            // the property stored.
            if case .accessors(let list) = accessors.accessors,
              list.allSatisfy({ ["willSet", "didSet"].contains($0.accessorSpecifier.text) })
            {
            } else {
              continue
            }
          }
          guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
          else { return nil }
          let type =
            binding.typeAnnotation.map { SwiftEvaluator.swiftType($0.type) } ?? binding.initializer.flatMap { literalType($0.value) }
          properties.append(
            Property(
              name: name, type: type, initializer: binding.initializer?.value,
              isFixed: isLet && binding.initializer != nil, isLet: isLet))
        }
      } else if let nested = member.decl.as(EnumDeclSyntax.self), nested.name.text == "CodingKeys" {
        customCoding = true
      } else if let function = member.decl.as(FunctionDeclSyntax.self),
        function.name.text == "encode"
      {
        customCoding = true
      } else if let initializer = member.decl.as(InitializerDeclSyntax.self) {
        initializers.append(initializer)
      }
    }
    return ValueTypeModel(
      name: qualified, properties: properties,
      isEncodable: !inherited.isDisjoint(with: ["Codable", "Encodable"]),
      hasCustomCoding: customCoding,
      members: structDecl.memberBlock, initializers: initializers, source: source)
  }

  /// Whether its body declares a function or computed property of that name.
  func declaresMember(_ name: String) -> Bool {
    members.members.contains { member in
      member.decl.as(FunctionDeclSyntax.self)?.name.text == name
        || member.decl.as(VariableDeclSyntax.self)?.bindings.contains {
          $0.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == name
        } == true
    }
  }

  /// The type Swift infers for a property from a literal default (`var count = 0` is an `Int`,
  /// `= 0.5` a `Double`); nil for any other initializer.
  static func literalType(_ value: ExprSyntax) -> SwiftType? {
    var literal = value
    if let negated = value.as(PrefixOperatorExprSyntax.self), negated.operator.text == "-" { literal = negated.expression }
    switch literal.as(ExprSyntaxEnum.self) {
    case .integerLiteralExpr: return .int
    case .floatLiteralExpr: return .double
    case .stringLiteralExpr: return .string
    case .booleanLiteralExpr: return .bool
    default: return nil
    }
  }

  /// A record type's `Draft` (`Habit.Draft`): its properties, the primary key an optional `var`
  /// (`nil` unless given or defaulted), and no `init`s or members of its own.
  func draft(primaryKey: String) -> ValueTypeModel {
    ValueTypeModel(
      name: name + ".Draft",
      properties: properties.map { property in
        guard property.name == primaryKey else { return property }
        // (The @Table macro makes it `var id: ID?`, and `var id = UUID()` `var id = Optional(UUID())`.)
        return Property(name: property.name, type: property.type?.optional, initializer: property.initializer, isFixed: false)
      },
      isEncodable: isEncodable, hasCustomCoding: hasCustomCoding, members: MemberBlockSyntax(members: []), initializers: [],
      source: source)
  }
}

/// Walks the type declarations of an input: every struct, enum, class and extension, nested
/// ones too, with its qualified name (`Outer.Inner`; an extension by the type it extends), the
/// active clause of each `#if`.
enum InputTypes {
  static func visit(_ statements: [CodeBlockItemSyntax], _ body: (DeclSyntax, String) -> Void) {
    func visit(_ decl: DeclSyntax, outer: String?) {
      let name: String
      let block: MemberBlockSyntax
      if let structDecl = decl.as(StructDeclSyntax.self) {
        (name, block) = (structDecl.name.text, structDecl.memberBlock)
      } else if let enumDecl = decl.as(EnumDeclSyntax.self) {
        (name, block) = (enumDecl.name.text, enumDecl.memberBlock)
      } else if let classDecl = decl.as(ClassDeclSyntax.self) {
        (name, block) = (classDecl.name.text, classDecl.memberBlock)
      } else if let ext = decl.as(ExtensionDeclSyntax.self) {
        (name, block) = (ext.extendedType.trimmedDescription, ext.memberBlock)
      } else if let conditional = decl.as(IfConfigDeclSyntax.self) {
        if case .statements(let inner)? = AppBuildConfiguration.activeClause(of: conditional)?
          .elements
        {
          for item in inner {
            if case .decl(let nested) = item.item { visit(nested, outer: outer) }
          }
        }
        return
      } else {
        return
      }
      let qualified = outer.map { $0 + "." + name } ?? name
      body(decl, qualified)
      for member in block.activeMembers
      where !member.decl.is(VariableDeclSyntax.self) && !member.decl.is(FunctionDeclSyntax.self) {
        visit(member.decl, outer: qualified)
      }
    }
    for statement in statements {
      if case .decl(let decl) = statement.item { visit(decl, outer: nil) }
    }
  }

  /// The member block of a type declaration or extension.
  static func members(of decl: DeclSyntax) -> MemberBlockSyntax? {
    decl.as(StructDeclSyntax.self)?.memberBlock ?? decl.as(EnumDeclSyntax.self)?.memberBlock
      ?? decl.as(ClassDeclSyntax.self)?.memberBlock
      ?? decl.as(ExtensionDeclSyntax.self)?.memberBlock
  }
}
