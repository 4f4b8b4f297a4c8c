import QueryBuilder
import SwiftSyntax

import struct FoundationEssentials.UUID

/// Reads model declarations into the catalog: `@Table`/`@Selection` structs, enums, aliases,
/// scopes, computed columns and `extension`s of them.
///
/// ```swift
/// // @Table struct Tag { let id: Int; var title = "" }
/// // registers Tag → "tags" ("id" INTEGER primary key, "title" TEXT)
/// ```
struct DeclarationReader {
  let catalog: Catalog
  let source: SourceUnit
  /// Reports a spelling the library deprecates (the compiler's warnings).
  var warn: (Deprecation, Syntax) throws -> Void = { _, _ in }

  func read(_ decl: DeclSyntax) throws {
    if let structDecl = decl.as(StructDeclSyntax.self) {
      try readStruct(structDecl, outer: nil)
    } else if let enumDecl = decl.as(EnumDeclSyntax.self) {
      try readEnum(enumDecl, outer: nil)
    } else if let ext = decl.as(ExtensionDeclSyntax.self) {
      try readExtension(ext)
    } else if let alias = decl.as(TypeAliasDeclSyntax.self) {
      // `typealias User = CachedUserRecord`: `User` names that type wherever it is written.
      if alias.genericParameterClause == nil { catalog.typeAliases[alias.name.text] = alias.initializer.value.trimmedDescription }
    } else if decl.is(ImportDeclSyntax.self) {
      return
    } else {
      throw source.diagnostic(
        "not supported in Quarry yet: this kind of declaration (\(kindName(decl)))",
        at: decl)
    }
  }

  // MARK: Structs

  /// `path` is the qualified name of the type it is nested in (`Pokemon.WithStats` for a struct
  /// nested in a struct of an extension of `Pokemon`), when longer than `outer`.
  func readStruct(_ decl: StructDeclSyntax, outer: String?, path: String? = nil) throws {
    let name = decl.name.text
    let attributes = attributeNames(decl.attributes)
    let inherited = inheritedNames(decl.inheritanceClause)
    let qualified = (path ?? outer).map { $0 + "." + name } ?? name

    // Nested types first (structs, then enums, whose cases may carry the structs), so column
    // types can refer to them.
    for member in decl.memberBlock.activeMembers {
      if let nested = member.decl.as(StructDeclSyntax.self) { try readStruct(nested, outer: name, path: qualified) }
    }
    for member in decl.memberBlock.activeMembers {
      if let nested = member.decl.as(EnumDeclSyntax.self) { try readEnum(nested, outer: name) }
    }

    if inherited.contains("TableAlias") {
      var tableType: String?
      for member in decl.memberBlock.activeMembers {
        if let alias = member.decl.as(TypeAliasDeclSyntax.self), alias.name.text == "Table" {
          tableType = alias.initializer.value.trimmedDescription
        }
      }
      catalog.aliases[name] = AliasModel(
        typeName: name, tableType: tableType,
        aliasName: declaredAliasName(in: decl.memberBlock) ?? Inflection.tableName(forType: name))
      return
    }

    let isTable = attributes.contains("Table")
    let isSelection = attributes.contains("Selection")
    guard isTable || isSelection else {
      // A plain struct is a Swift value type (the evaluator builds and reads it); it becomes a
      // table only with @Table, which a use as one says.
      if catalog.valueTypes[qualified] != nil || catalog.valueTypes[outer.map { $0 + "." + name } ?? name] != nil
        || catalog.valueTypes[name] != nil
      {
        return
      }
      // A view or other app type nested in one (`struct Inner: View` in a preview): app code.
      if AppCodeRunner.appTypeMembers(of: DeclSyntax(decl)) != nil { return }
      // The app's own representation of a column's values (`struct StableJSON<T>:
      // QueryRepresentable, QueryBindable`), which a `@Column(as:)` names: the library's
      // protocols are its code, run when the app runs.
      let inherited = Set(decl.inheritanceClause?.inheritedTypes.map { $0.type.trimmedDescription } ?? [])
      if !inherited.isDisjoint(with: ["QueryRepresentable", "QueryBindable", "QueryDecodable", "QueryExpression"]) { return }
      throw source.diagnostic(
        "struct '\(name)' is not a model: add @Table (a table) or @Selection (a result row)",
        at: decl.name)
    }
    var tableName: String?
    var schemaName: String?
    if let arguments = attributeArguments(decl.attributes, named: "Table") {
      for argument in arguments {
        guard let literal = argument.expression.as(StringLiteralExprSyntax.self) else { continue }
        switch argument.label?.text {
        case nil: tableName = literal.segments.trimmedDescription
        case "schema": schemaName = literal.segments.trimmedDescription
        default: break
        }
      }
    }

    // `ID` (Identifiable's, the type of `id`) as the type's own members see it.
    let ownID = identifierType(of: decl)
    // `typealias ID = Tagged<Self, Int>`: `id.rawValue` is the raw value.
    if decl.memberBlock.activeMembers.contains(where: {
      guard let alias = $0.decl.as(TypeAliasDeclSyntax.self), alias.name.text == "ID" else { return false }
      return alias.initializer.value.as(IdentifierTypeSyntax.self)?.name.text == "Tagged"
    }) {
      catalog.taggedIdentifiers.insert(name)
      if let outer { catalog.taggedIdentifiers.insert(outer + "." + name) }
    }
    var model = TableModel(
      typeName: name, tableName: tableName, columns: [], isSelection: isSelection && !isTable)
    model.schemaName = schemaName
    model.genericParameter = decl.genericParameterClause?.parameters.first?.name.text
    model.isFTS5 = inherited.contains("FTS5")
    model.conformances = Set(inherited)
    model.declarationLine = source.converter.location(for: decl.positionAfterSkippingLeadingTrivia).line

    for member in decl.memberBlock.activeMembers {
      guard let variable = member.decl.as(VariableDeclSyntax.self) else {
        if let function = member.decl.as(FunctionDeclSyntax.self), isStatic(function.modifiers),
          let body = function.body
        {
          model.scopes[function.name.declaredName] = Scope(
            body: AnySyntaxBox(syntax: Syntax(body), source: source),
            parameters: function.signature.parameterClause.parameters.map {
              ($0.secondName ?? $0.firstName).text
            }, ownerType: name, parameterTypes: Self.parameterTypes(of: function), parameterLabels: Self.parameterLabels(of: function))
        }
        continue
      }
      if isStatic(variable.modifiers) {
        try readStaticVariable(variable, into: &model)
        continue
      }
      let attributes = attributeNames(variable.attributes)
      if attributes.contains("Ephemeral") { continue }
      for binding in variable.bindings {
        // Computed properties are not columns.
        if let accessor = binding.accessorBlock, !isObserverOnly(accessor) { continue }
        guard let identifier = binding.pattern.as(IdentifierPatternSyntax.self) else { continue }
        let propertyName = identifier.identifier.text
        var column = ColumnModel(
          name: propertyName, type: .string, isPrimaryKey: false)
        if let old = variable.attributes.first(where: { $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription == "Columns" }) {
          try warn(.columnsMacro, Syntax(old))
        }
        if let arguments = attributeArguments(variable.attributes, named: "Column")
          ?? attributeArguments(variable.attributes, named: "Columns")
        {
          for argument in arguments {
            switch argument.label?.text {
            case nil:
              if let literal = argument.expression.as(StringLiteralExprSyntax.self) {
                column.sqlName = literal.segments.trimmedDescription
              }
            case "primaryKey":
              column.isPrimaryKey = argument.expression.trimmedDescription == "true"
            case "as":
              column.type.representation = argument.expression.trimmedDescription
                .replacingOccurrences(".self", "")
              if column.type.representation?.hasPrefix("JSONRepresentation<") == true {
                try warn(.genericJSONRepresentation, Syntax(argument.expression))
              }
            case "generated":
              column.isGenerated = true
            default: break
            }
          }
        }
        let representation = column.type.representation
        if let typeAnnotation = binding.typeAnnotation {
          column.type = swiftType(typeAnnotation.type, owner: (name, ownID))
          // `var kind: Kind` inside `Book`: Book's own nested `Kind`, as Swift looks names up.
          if catalog.enums[name + "." + column.type.name] != nil { column.type.name = name + "." + column.type.name }
        } else if let initializer = binding.initializer {
          guard let inferred = inferredType(initializer.value) ?? computedType(initializer.value) else {
            throw source.diagnostic(
              "cannot tell the type of '\(propertyName)' from its default; write it (var \(propertyName): Type = …)",
              at: initializer.value)
          }
          column.type = inferred
        } else {
          throw source.diagnostic(
            "column '\(propertyName)' needs a type annotation or a default value", at: binding)
        }
        if let representation {
          column.type.representation = representation
          if representation.hasSuffix("?") { column.type.isOptional = true }
        }
        if let initializer = binding.initializer {
          let volatile = VolatileDefault.of(initializer.value, type: column.type)
          if volatile != .uuid, volatile != .date {
            column.defaultValue = try defaultExpression(initializer.value, type: column.type)
          }
          if let volatile {
            column.volatileDefault = volatile
            column.unknownDefault = initializer.value.trimmedDescription
          } else if column.defaultValue == nil {
            column.unknownDefault = messageExcerpt(initializer.value.trimmedDescription)
          }
        }
        if propertyName == "id" && !model.columns.contains(where: \.isPrimaryKey)
          && !model.isSelection
        {
          column.isPrimaryKey = true
        }
        if column.isPrimaryKey {
          for index in model.columns.indices where model.columns[index].name == "id" && column.name != "id" {
            model.columns[index].isPrimaryKey = false
          }
        }
        // A nested @Selection type flattens into its columns (enum tables, column groups); so does
        // a @Table type inside a @Table (`var item: Item?`).
        // A JSON-stored struct (`@Column(as: Address.JSONRepresentation.self)`) is one column of JSON text.
        if column.type.representation?.contains("JSON") != true,
          let group = catalog.table(forType: column.type.name), group.isSelection || (isTable && group.typeName != name)
        {
          if group.columns.contains(where: { $0.path.count >= Self.maximumGroupNesting }) {
            throw source.diagnostic(
              "column groups nest more than \(Self.maximumGroupNesting) levels deep here ('\(group.typeName)' holds groups of groups …); flatten some of them",
              at: binding)
          }
          // `var counts = Counts(seen: 0)`: the group's default gives its columns theirs; a
          // default Quarry cannot read (`= .zero`) leaves them unknown, never missing.
          let groupDefault = binding.initializer?.value
          let given = groupDefault.flatMap { Self.memberwiseArguments($0, of: group.typeName) }
          if groupDefault == nil && !column.type.isOptional { model.groupsWithoutDefault.insert(propertyName) }
          for var nested in group.columns {
            nested.type.isOptional = nested.type.isOptional || column.type.isOptional
            nested.isPrimaryKey = column.isPrimaryKey
            if let groupDefault {
              if nested.path.count == 1, let value = given?[nested.name] {
                nested.volatileDefault = nil
                nested.defaultValue = try? defaultExpression(value, type: nested.type)
                nested.unknownDefault = nested.defaultValue == nil ? messageExcerpt(value.trimmedDescription) : nil
              } else if given == nil || nested.path.count > 1, nested.defaultValue == nil, nested.volatileDefault == nil {
                nested.unknownDefault = messageExcerpt(groupDefault.trimmedDescription)
              }
            }
            nested.path = [propertyName] + nested.path
            nested.enumGroup = nested.enumGroup.map { [propertyName] + $0 }
            model.columns.append(nested)
          }
          continue
        }
        model.columns.append(column)
      }
    }
    if isTable, !model.columns.contains(where: { $0.path.count > 1 }) {
      model.initializers = explicitInitializers(of: decl.memberBlock, columns: model.columns, owner: (name, ownID))
    }
    catalog.register(model)
  }

  /// The labelled arguments of a memberwise call of `type`, `Counts(seen: 0)`, `Counts.init(…)`
  /// or `.init(…)`, by label; nil for any other expression (a static member, a static function's
  /// result, `Counts.make(seen: 0)`: what it does with its arguments is not known).
  static func memberwiseArguments(_ expression: ExprSyntax, of type: String) -> [String: ExprSyntax]? {
    guard let call = expression.as(FunctionCallExprSyntax.self), call.trailingClosure == nil else { return nil }
    let callee = call.calledExpression.trimmedDescription
    let bare = type.split(separator: ".").last.map(String.init) ?? type
    guard [".init", type, type + ".init", bare, bare + ".init"].contains(callee) else { return nil }
    var arguments: [String: ExprSyntax] = [:]
    for argument in call.arguments {
      guard let label = argument.label?.text else { return nil }
      arguments[label] = argument.expression
    }
    return arguments
  }

  /// How deeply `@Selection` groups may nest inside each other (each level adds to every
  /// column's path, so absurd nesting would cost quadratic memory).
  static let maximumGroupNesting = 32

  /// Static properties a model may declare for the Table protocol instead of the macro.
  enum TableRequirement: String {
    case tableAlias, tableFragment, tableName, schemaName
  }

  private func readStaticVariable(_ variable: VariableDeclSyntax, into model: inout TableModel) throws {
    for binding in variable.bindings {
      guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else {
        continue
      }
      // A requirement of the Table protocol, which the macro would otherwise generate.
      if let requirement = TableRequirement(rawValue: name) {
        let literal = firstStringLiteral(in: binding.accessorBlock) ?? binding.initializer?.value.as(StringLiteralExprSyntax.self)
        switch requirement {
        case .tableAlias: if let literal { model.aliasTemplate = template(literal) }
        case .tableFragment: if let literal { model.sourceTemplate = template(literal) }
        case .tableName: if let literal { model.tableName = literal.segments.trimmedDescription }
        case .schemaName: break
        }
        continue
      }
      // Any other static property is a scope: a query the table offers (`static let open = …`).
      if let value = binding.initializer?.value {
        model.scopes[name] = Scope(
          body: AnySyntaxBox(syntax: Syntax(value), source: source), parameters: [],
          ownerType: model.typeName)
      } else if let accessor = binding.accessorBlock {
        model.scopes[name] = Scope(
          body: AnySyntaxBox(syntax: Syntax(accessor), source: source), parameters: [],
          ownerType: model.typeName)
      }
    }
  }

  /// The `aliasName` an alias type declares (`static let aliasName = "m"`, or a getter that
  /// returns a literal); nil for the library's default.
  func declaredAliasName(in members: MemberBlockSyntax) -> String? {
    for member in members.activeMembers {
      if let variable = member.decl.as(VariableDeclSyntax.self), let binding = variable.bindings.first,
        binding.pattern.trimmedDescription == "aliasName",
        let literal = binding.initializer?.value.as(StringLiteralExprSyntax.self) ?? firstStringLiteral(in: binding.accessorBlock)
      {
        return literal.segments.trimmedDescription
      }
    }
    return nil
  }

  // MARK: Enums

  func readEnum(_ decl: EnumDeclSyntax, outer: String?) throws {
    let name = decl.name.text
    let inherited = inheritedNames(decl.inheritanceClause)
    if inherited.contains("AliasName") {
      // `enum M: AliasName { static let aliasName = "m" }` overrides the default name, as the
      // library's protocol lets it.
      catalog.aliases[name] = AliasModel(
        typeName: name, tableType: nil, aliasName: declaredAliasName(in: decl.memberBlock) ?? Inflection.tableName(forType: name))
      return
    }
    let attributes = attributeNames(decl.attributes)
    if attributes.contains("Selection") || attributes.contains("Table") {
      // An enum of payload cases: each case's payload maps to nullable columns.
      for member in decl.memberBlock.activeMembers {
        if let nested = member.decl.as(StructDeclSyntax.self) { try readStruct(nested, outer: name) }
      }
      for member in decl.memberBlock.activeMembers {
        if let nested = member.decl.as(EnumDeclSyntax.self) { try readEnum(nested, outer: name) }
      }
      var columns: [ColumnModel] = []
      for member in decl.memberBlock.activeMembers {
        guard let caseDecl = member.decl.as(EnumCaseDeclSyntax.self) else { continue }
        var representation: String?
        var sqlName: String?
        if let arguments = attributeArguments(caseDecl.attributes, named: "Column") {
          for argument in arguments {
            if argument.label?.text == "as" {
              representation = argument.expression.trimmedDescription.replacingOccurrences(".self", "")
            } else if argument.label == nil, let literal = argument.expression.as(StringLiteralExprSyntax.self) {
              sqlName = literal.segments.trimmedDescription
            }
          }
        }
        for element in caseDecl.elements {
          let caseName = element.name.text
          let parameter = element.parameterClause?.parameters.first
          let payload = parameter.map { swiftType($0.type) }
          if let payload, let group = catalog.table(forType: payload.name), group.isSelection {
            for var nested in group.columns {
              nested.type.isOptional = true
              nested.path = [caseName] + nested.path
              nested.enumGroup = []
              columns.append(nested)
            }
          } else {
            var column = ColumnModel(name: caseName, sqlName: sqlName, type: (payload ?? .bool).optional)
            column.type.representation = representation
            column.enumGroup = []
            if let value = parameter?.defaultValue?.value { column.defaultValue = try defaultExpression(value, type: column.type) }
            columns.append(column)
          }
        }
      }
      catalog.register(TableModel(typeName: name, columns: columns, isSelection: !attributes.contains("Table")))
      return
    }
    // Types nested in an enum (an enum used as a namespace: `enum Kinds { enum Status … }`),
    // known by their own and their qualified names.
    for member in decl.memberBlock.activeMembers {
      if let nested = member.decl.as(EnumDeclSyntax.self) { try readEnum(nested, outer: name) }
      if let nested = member.decl.as(StructDeclSyntax.self), !attributeNames(nested.attributes).isEmpty {
        try readStruct(nested, outer: name)
      }
    }
    let rawType: SwiftType
    if inherited.contains("Int") || inherited.contains(where: { SwiftType($0).isInteger }) {
      rawType = .int
    } else if inherited.contains("String") {
      rawType = .string
    } else if inherited.contains("Double") {
      rawType = .double
    } else if !inherited.contains("QueryBindable"),
      decl.memberBlock.activeMembers.allSatisfy({
        $0.decl.as(EnumCaseDeclSyntax.self)?.elements.allSatisfy { $0.parameterClause == nil } ?? true
      })
    {
      // `enum Filter { case all, flagged }`: an app's plain enum, for Swift code around queries
      // (a `switch`, a comparison); its cases are their names.
      rawType = .string
    } else if !inherited.contains("QueryBindable") {
      // An enum with payloads (`enum Destination { case edit(Form) }`): app state, no SQL.
      return
    } else if inherited.contains("LosslessStringConvertible") || inherited.contains("RawRepresentable")
      || decl.memberBlock.activeMembers.contains(where: {
        $0.decl.as(VariableDeclSyntax.self)?.bindings.contains { $0.pattern.trimmedDescription == "queryBinding" } == true
      })
    {
      // `enum Reference: LosslessStringConvertible, QueryBindable { case url(URL), … }`: the
      // library binds its `description` (or raw value, or the app's own `queryBinding`), code
      // the app runs; a value of it is one the app has when it runs, as a struct's would be.
      return
    } else {
      throw source.diagnostic(
        "enum '\(name)' needs a raw type (Int or String) to be stored in a column", at: decl.name)
    }
    var cases: [(name: String, value: QueryBinding)] = []
    var next: Int64? = 0  // nil once the previous raw value was Int64.max
    for member in decl.memberBlock.activeMembers {
      guard let caseDecl = member.decl.as(EnumCaseDeclSyntax.self) else { continue }
      for element in caseDecl.elements {
        let caseName = element.name.text
        let raw = element.rawValue?.value
        switch rawType.name {
        case "String":
          let text = raw?.as(StringLiteralExprSyntax.self)?.segments.trimmedDescription ?? caseName
          cases.append((caseName, .text(text)))
        case "Double":
          let value = raw.flatMap { Double($0.trimmedDescription) } ?? Double(next ?? 0)
          cases.append((caseName, .double(value)))
          next = Int64(exactly: value.rounded(.down)).flatMap { $0 == .max ? nil : $0 + 1 }
        default:
          if let raw, let value = integerValue(raw) { next = value }
          guard let value = next else {
            // Swift refuses it too: "enum case value overflows" after Int.max.
            throw source.diagnostic("'\(caseName)' would be one more than Int.max; give it a raw value", at: element.name)
          }
          cases.append((caseName, .integer(value)))
          next = value == .max ? nil : value + 1
        }
      }
    }
    var model = EnumModel(name: name, rawType: rawType, cases: cases)
    model.isCaseIterable = inherited.contains("CaseIterable")
    if let outer {
      // Nested (`Book.Kind`): known by its qualified name, which its own type's members find
      // first (name lookup goes outward from where a name is written); by its bare name too
      // unless a top-level enum holds it, or another type nests a `Kind` of its own — then only
      // the scope tells them apart.
      model.name = outer + "." + name
      catalog.enums[outer + "." + name] = model
      if catalog.ambiguousNestedEnums.contains(name) {
      } else if let held = catalog.enums[name], held.name != model.name {
        if held.name.contains(".") {
          catalog.enums[name] = nil
          catalog.ambiguousNestedEnums.insert(name)
        }
      } else {
        catalog.enums[name] = model
      }
    } else {
      catalog.enums[name] = model
    }
    // Its computed properties and functions run in the evaluator (`Mood.happy.label`).
    for typeName in [name] + (outer.map { [$0 + "." + name] } ?? []) {
      for member in SwiftExtensionMember.members(in: decl.memberBlock, of: typeName, source: source) {
        catalog.addSwiftExtension(member)
      }
    }
  }

  // MARK: Extensions

  /// StructuredQueries' protocols of a statement, which an app extends with its own ways to run one.
  static let statementProtocols: Set<String> = ["Statement", "SelectStatement", "PartialSelectStatement", "Table", "PrimaryKeyedTable"]

  /// The methods an extension of a statement protocol declares that take a database: the
  /// app's own ways to run a statement (`func fetchOneForced(_ db: Database)`).
  static func runMethods(in statements: [CodeBlockItemSyntax]) -> Set<String> {
    var names: Set<String> = []
    for item in statements {
      guard case .decl(let decl) = item.item, let ext = decl.as(ExtensionDeclSyntax.self),
        statementProtocols.contains(String(ext.extendedType.trimmedDescription.split(separator: ".").last ?? ""))
      else { continue }
      for member in ext.memberBlock.activeMembers {
        guard let function = member.decl.as(FunctionDeclSyntax.self),
          function.signature.parameterClause.parameters.contains(where: { $0.type.trimmedDescription.contains("Database") })
        else { continue }
        names.insert(function.name.declaredName)
      }
    }
    return names
  }

  func readExtension(_ decl: ExtensionDeclSyntax) throws {
    var extended = decl.extendedType.trimmedDescription
    // `extension Where<Reminder> { func flagged() -> Self { self.where { … } } }`: query helpers
    // of the table, used as `Reminder.where { … }.flagged()` (scopes of the table).
    // `extension Updates<Reminder> { mutating func flag() { self.isFlagged = true } }`: used in
    // `update { $0.flag() }`.
    if let generic = decl.extendedType.as(IdentifierTypeSyntax.self), let arguments = generic.genericArgumentClause?.arguments {
      let kind = generic.name.text
      let table =
        arguments.count == 1
        ? arguments.first?.argument.trimmedDescription
        : (kind == "Select" && arguments.count >= 2 ? Array(arguments)[1].argument.trimmedDescription : nil)
      if let table, ["Where", "Select", "SelectOf", "Updates", "Delete", "DeleteOf", "Update", "UpdateOf"].contains(kind) {
        for member in decl.memberBlock.activeMembers {
          guard let function = member.decl.as(FunctionDeclSyntax.self), let body = function.body else { continue }
          let scope = Scope(
            body: AnySyntaxBox(syntax: Syntax(body), source: source),
            parameters: function.signature.parameterClause.parameters.map { ($0.secondName ?? $0.firstName).text },
            ownerType: table, parameterTypes: Self.parameterTypes(of: function), parameterLabels: Self.parameterLabels(of: function))
          if kind == "Updates" {
            catalog.updateHelpers[table, default: [:]][function.name.declaredName] = scope
          } else {
            catalog.addScope(function.name.declaredName, scope, to: table)
          }
        }
        return
      }
      extended = generic.name.text
    }
    if extended.hasSuffix(".TableColumns") || extended.hasSuffix(".Columns") {
      let typeName = String(extended.split(separator: ".").first ?? "")
      for member in decl.memberBlock.activeMembers {
        guard let variable = member.decl.as(VariableDeclSyntax.self) else { continue }
        for binding in variable.bindings {
          guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
            let accessor = binding.accessorBlock
          else { continue }
          catalog.addComputedColumn(
            name,
            Scope(
              body: AnySyntaxBox(syntax: Syntax(accessor), source: source), parameters: [],
              ownerType: typeName), to: typeName)
        }
      }
      return
    }
    // `extension ScheduleableAlarmRecord { init(alarm: ScheduleableAlarm) { self.init(…) } }`.
    if let model = catalog.table(forType: extended), !model.isSelection, !model.columns.contains(where: { $0.path.count > 1 }) {
      model.initializers += explicitInitializers(
        of: decl.memberBlock, columns: model.columns, owner: (model.typeName, model.primaryKey?.type), inExtension: true)
    }
    for member in decl.memberBlock.activeMembers {
      if let variable = member.decl.as(VariableDeclSyntax.self), isStatic(variable.modifiers) {
        for binding in variable.bindings {
          guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
          else { continue }
          let body: Syntax? =
            binding.initializer.map { Syntax($0.value) } ?? binding.accessorBlock.map { Syntax($0) }
          if let body {
            catalog.addScope(
              name,
              Scope(
                body: AnySyntaxBox(syntax: body, source: source), parameters: [],
                ownerType: extended), to: extended)
          }
        }
      } else if let function = member.decl.as(FunctionDeclSyntax.self), let body = function.body {
        catalog.addScope(
          function.name.declaredName,
          Scope(
            body: AnySyntaxBox(syntax: Syntax(body), source: source),
            parameters: function.signature.parameterClause.parameters.map {
              ($0.secondName ?? $0.firstName).text
            }, ownerType: extended, parameterTypes: Self.parameterTypes(of: function), parameterLabels: Self.parameterLabels(of: function)),
          to: extended)
      } else if let nested = member.decl.as(StructDeclSyntax.self) {
        try readStruct(nested, outer: extended)
      } else if let nested = member.decl.as(EnumDeclSyntax.self) {
        try readEnum(nested, outer: extended)
      }
    }
  }

  // MARK: Helpers

  /// A function's argument labels, nil for `_` (`func assigned(to id: Int?)` → ["to"]).
  static func parameterLabels(of function: FunctionDeclSyntax) -> [String?] {
    function.signature.parameterClause.parameters.map { $0.firstName.text == "_" ? nil : $0.firstName.text }
  }

  /// The declared types of a function's parameters, as Swift reads them (`Int?`, `Date`).
  static func parameterTypes(of function: FunctionDeclSyntax) -> [SwiftType?] {
    function.signature.parameterClause.parameters.map { SwiftEvaluator.swiftType($0.type) }
  }

  /// The type an `Identifiable` model's `ID` names: a `typealias ID = …` it declares
  /// (`Tagged<Self, UUID>` is stored as its raw value), else the type of its primary key
  /// (`id`, or the `@Column(primaryKey: true)` property). Nil when neither is written.
  func identifierType(of decl: StructDeclSyntax) -> SwiftType? {
    for member in decl.memberBlock.activeMembers {
      if let alias = member.decl.as(TypeAliasDeclSyntax.self), alias.name.text == "ID" {
        return swiftType(alias.initializer.value)
      }
    }
    var key: TypeSyntax?
    for member in decl.memberBlock.activeMembers {
      guard let variable = member.decl.as(VariableDeclSyntax.self), !isStatic(variable.modifiers) else { continue }
      let primary =
        attributeArguments(variable.attributes, named: "Column")?.contains {
          $0.label?.text == "primaryKey" && $0.expression.trimmedDescription == "true"
        } ?? false
      for binding in variable.bindings {
        guard let annotation = binding.typeAnnotation?.type else { continue }
        if primary { return swiftType(annotation).wrapped }
        if binding.pattern.trimmedDescription == "id", key == nil { key = annotation }
      }
    }
    return key.map { swiftType($0).wrapped }
  }

  func swiftType(_ type: TypeSyntax, owner: (name: String, id: SwiftType?)? = nil) -> SwiftType {
    if let optional = type.as(OptionalTypeSyntax.self) {
      return swiftType(optional.wrappedType, owner: owner).optional
    }
    if let implicit = type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) {
      return swiftType(implicit.wrappedType, owner: owner).optional
    }
    if let identifier = type.as(IdentifierTypeSyntax.self) {
      if identifier.name.text == "Optional",
        let argument = identifier.genericArgumentClause?.arguments.first?.argument.as(TypeSyntax.self)
      {
        return swiftType(argument, owner: owner).optional
      }
      // `Tagged<Self, UUID>`: stored as its raw value.
      if identifier.name.text == "Tagged", let arguments = identifier.genericArgumentClause?.arguments, arguments.count == 2,
        let raw = arguments.last?.argument.as(TypeSyntax.self)
      {
        return swiftType(raw, owner: owner)
      }
      // `ID` inside an Identifiable model: its own identifier's type.
      if identifier.name.text == "ID", let owner, let id = owner.id { return id }
      return SwiftType(identifier.name.text)
    }
    if let member = type.as(MemberTypeSyntax.self) {
      // `User.ID` is the type of User's primary key (`Self.ID`, or the model's own name,
      // inside its declaration).
      if member.name.text == "ID" {
        let base = member.baseType.trimmedDescription
        if let owner, base == "Self" || base == owner.name || base.hasSuffix("." + owner.name), let id = owner.id { return id }
        return catalog.table(forType: base)?.primaryKey?.type.wrapped ?? .int
      }
      let full = member.trimmedDescription
      if catalog.enums[full] != nil { return SwiftType(full) }
      return SwiftType(member.name.text)
    }
    if let array = type.as(ArrayTypeSyntax.self) {
      if array.element.trimmedDescription == "UInt8" { return .bytes }
      return SwiftType("[" + array.element.trimmedDescription + "]")
    }
    return SwiftType(type.trimmedDescription)
  }

  /// The type Swift infers for a stored property from its default, by Swift's rules: a
  /// literal's default type (`""` String, `0` Int, `0.5` Double, `[1]` [Int]), `T()` /
  /// `T(…)` / `T.init(…)` / `[T]()` is a T, `T.member` is a T when T is an enum (a case) or
  /// `Date.now`-style static, wherever T is declared. Nil when Swift would need more (`nil`,
  /// `[]`, `.init()`, a function's result): the property needs its type written.
  ///
  /// ```swift
  /// var status = Status.todo   // Status (an enum declared anywhere in the input)
  /// var tags = [String]()      // [String]
  /// ```
  func inferredType(_ expr: ExprSyntax) -> SwiftType? {
    switch expr.as(ExprSyntaxEnum.self) {
    case .stringLiteralExpr: return .string
    case .integerLiteralExpr: return .int
    case .floatLiteralExpr: return .double
    case .booleanLiteralExpr: return .bool
    case .prefixOperatorExpr(let prefix):
      guard ["-", "+"].contains(prefix.operator.text) else { return prefix.operator.text == "!" ? .bool : nil }
      return inferredType(prefix.expression)
    case .tupleExpr(let tuple):
      guard tuple.elements.count == 1, let only = tuple.elements.first else { return nil }
      return inferredType(only.expression)
    case .forceUnwrapExpr(let unwrap):
      // `URL(string: "…")!`: a failable initializer, unwrapped.
      return inferredType(unwrap.expression)?.wrapped
    case .arrayExpr(let array):
      let types = array.elements.compactMap { inferredType($0.expression) }
      guard let first = types.first, types.count == array.elements.count else { return nil }
      let element =
        types.allSatisfy({ $0 == first })
        ? first
        : types.allSatisfy({ $0.isNumeric }) ? SwiftType.double : nil
      guard let element else { return nil }
      return SwiftType("[" + element.description + "]")
    case .functionCallExpr(let call):
      let callee = call.calledExpression
      if let array = callee.as(ArrayExprSyntax.self), array.elements.count == 1, let element = array.elements.first {
        return SwiftType("[" + element.expression.trimmedDescription + "]")
      }
      if let member = callee.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "init" {
        guard let base = member.base else { return nil }
        return typeNamed(base)
      }
      if let member = callee.as(MemberAccessExprSyntax.self), let base = member.base, let type = typeNamed(base),
        catalog.enums[type.name] != nil || Self.selfReturningStatics[type.name]?.contains(member.declName.baseName.text) == true
      {
        return type
      }
      return typeNamed(callee)
    case .memberAccessExpr(let member):
      guard let base = member.base, let type = typeNamed(base) else { return nil }
      let name = member.declName.baseName.text
      if let model = catalog.enums[type.name], model.value(of: name) != nil { return type }
      if Self.selfReturningStatics[type.name]?.contains(name) == true { return type }
      return nil
    default:
      return nil
    }
  }

  /// Static members that are of their own type (`Date.now`, `UUID()` aside).
  static let selfReturningStatics: [String: Set<String>] = [
    "Date": ["now", "distantPast", "distantFuture"],
    "Int": ["max", "min", "zero"], "Double": ["pi", "infinity", "zero", "greatestFiniteMagnitude"],
    "String": [], "Bool": [],
  ]

  /// The type an expression names (`Status`, `Job.Status`, `Namespace.Kind`), if it names one:
  /// an upper-case name, the last component of a qualified name.
  func typeNamed(_ expr: ExprSyntax) -> SwiftType? {
    if let reference = expr.as(DeclReferenceExprSyntax.self) {
      let name = reference.baseName.text
      guard let first = name.first, first.isUppercase else { return nil }
      return SwiftType(name)
    }
    if let member = expr.as(MemberAccessExprSyntax.self), let base = member.base, typeNamed(base) != nil {
      let name = member.declName.baseName.text
      guard let first = name.first, first.isUppercase else { return nil }
      return SwiftType(name)
    }
    if let generic = expr.as(GenericSpecializationExprSyntax.self) { return SwiftType(generic.trimmedDescription) }
    return nil
  }

  /// The SQL value of a simple default (`""`, `0`, `false`, `Date(timeIntervalSinceReferenceDate:)`).
  /// The SQL value of a property's default, when Quarry can know it: literals, an enum case
  /// (`.open`, `Status.open`), dates (`Date()` is now, as when the app makes the draft), JSON
  /// arrays; in the column's storage (`@Column(as:)`).
  func defaultExpression(_ expr: ExprSyntax, type: SwiftType? = nil) throws -> Expression? {
    if let type, let model = catalog.enums[type.name] {
      if let member = expr.as(MemberAccessExprSyntax.self),
        member.base == nil || member.base?.trimmedDescription == type.name
          || type.name.hasSuffix("." + (member.base?.trimmedDescription ?? ""))
          || member.base?.trimmedDescription.hasSuffix("." + type.name) == true,
        let value = model.value(of: member.declName.baseName.text)
      {
        return .value(value)
      }
    }
    if let type, type.isDate {
      var seconds: Double?
      if let call = expr.as(FunctionCallExprSyntax.self), ["Date", ".init", "Date.init"].contains(call.calledExpression.trimmedDescription)
      {
        if call.arguments.isEmpty { seconds = DateFormatting.now() }
        if let argument = call.arguments.first, call.arguments.count == 1, let value = numericValue(argument.expression) {
          switch argument.label?.text {
          case "timeIntervalSinceReferenceDate": seconds = value + 978_307_200
          case "timeIntervalSince1970": seconds = value
          default: break
          }
        }
      } else if ["Date.now", ".now"].contains(expr.trimmedDescription) {
        seconds = DateFormatting.now()
      }
      if let seconds {
        return DateFormatting.stored(secondsSince1970: seconds, representation: type.representation).map { .value($0) }
      }
    }
    if let call = expr.as(FunctionCallExprSyntax.self),
      call.calledExpression.trimmedDescription == "Date",
      let argument = call.arguments.first,
      let seconds = numericValue(argument.expression)
    {
      switch argument.label?.text {
      case "timeIntervalSinceReferenceDate":
        return DateFormatting.iso8601(secondsSince1970: seconds + 978_307_200).map { .value(.text($0)) }
      case "timeIntervalSince1970":
        return DateFormatting.iso8601(secondsSince1970: seconds).map { .value(.text($0)) }
      default: return nil
      }
    }
    // Everything else is Swift's, computed when the app makes the value: by the one evaluator,
    // with the column's type (`var ratio: Double = 7 / 2` is 3.5, `"tab\there"` has its tab).
    // A Codable struct (`var reminder: Reminder = .init()` stored as JSON) is its JSON text.
    guard let value = try computedDefault(expr, type: type), value.isPlain || value.isStructure else { return nil }
    do {
      return .value(try value.binding(as: type))
    } catch {
      throw source.diagnostic("this default " + error.message, at: expr)
    }
  }

  /// A property's default as Swift computes it: nil where it uses Swift the evaluator does not
  /// run (the property then has no default Quarry knows); an error where Swift traps.
  func computedDefault(_ expr: ExprSyntax, type: SwiftType?) throws -> SwiftValue? {
    let evaluator = SwiftEvaluator(source: source, catalog: catalog)
    do {
      return try evaluator.value(of: expr, names: [:], expected: catalog.evaluatorType(type))
    } catch  where error.isSwiftsVerdict {
      throw Diagnostic("this default " + error.text, line: error.line, column: error.column)
    } catch {
      return nil
    }
  }

  /// The type Swift gives an unannotated property from its computed default (`var v = -0.2`
  /// is a Double, `var n = 7 / 2` an Int).
  func computedType(_ expr: ExprSyntax) -> SwiftType? {
    guard let value = try? computedDefault(expr, type: nil), value.isPlain, value != .none else { return nil }
    switch value {
    case .array: return nil
    default: return SwiftEvaluator.type(of: value)
    }
  }

  func numericValue(_ expr: ExprSyntax) -> Double? {
    if let value = integerValue(expr) { return Double(value) }
    if let prefix = expr.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "-",
      let value = numericValue(prefix.expression)
    {
      return -value
    }
    if let float = expr.as(FloatLiteralExprSyntax.self) {
      return Double(float.literal.text.filter { $0 != "_" })
    }
    return nil
  }

  func template(_ literal: StringLiteralExprSyntax) -> [TemplatePart] {
    var parts: [TemplatePart] = []
    for segment in literal.segments {
      if let text = segment.as(StringSegmentSyntax.self) {
        parts.append(.text(text.content.text))
      } else if let interpolation = segment.as(ExpressionSegmentSyntax.self) {
        let quoted = interpolation.expressions.first?.label?.text == "quote"
        parts.append(quoted ? .quotedBaseTableName : .baseTableName)
      }
    }
    return parts
  }
}

/// An integer literal as written (`7`, `-7`, `(7)`, `0x1F`); nil for anything else. Arithmetic
/// on literals is Swift's, computed by the evaluator (`Compiler.knownInteger`).
func integerValue(_ expr: ExprSyntax) -> Int64? {
  if let prefix = expr.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "-" {
    // `-9223372036854775808` is one literal in Swift; `-x` of Int.min overflows (nil).
    if let literal = prefix.expression.as(IntegerLiteralExprSyntax.self) { return try? SwiftLiterals.integer(literal, negated: true) }
    guard let value = integerValue(prefix.expression), value != .min else { return nil }
    return -value
  }
  if let tuple = expr.as(TupleExprSyntax.self), tuple.elements.count == 1, let only = tuple.elements.first, only.label == nil {
    return integerValue(only.expression)
  }
  guard let literal = expr.as(IntegerLiteralExprSyntax.self) else { return nil }
  return try? SwiftLiterals.integer(literal)
}

func attributeNames(_ attributes: AttributeListSyntax) -> [String] {
  attributes.compactMap { $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription }
}

func attributeArguments(_ attributes: AttributeListSyntax, named name: String) -> LabeledExprListSyntax? {
  for attribute in attributes {
    guard let attribute = attribute.as(AttributeSyntax.self),
      attribute.attributeName.trimmedDescription == name
    else { continue }
    if case .argumentList(let list)? = attribute.arguments { return list }
    return LabeledExprListSyntax([])
  }
  return nil
}

func inheritedNames(_ clause: InheritanceClauseSyntax?) -> [String] {
  clause?.inheritedTypes.map { $0.type.trimmedDescription } ?? []
}

func isStatic(_ modifiers: DeclModifierListSyntax) -> Bool {
  modifiers.contains { $0.name.tokenKind == .keyword(.static) || $0.name.tokenKind == .keyword(.class) }
}

func isObserverOnly(_ accessor: AccessorBlockSyntax) -> Bool {
  if case .accessors(let list) = accessor.accessors {
    return list.allSatisfy { ["willSet", "didSet"].contains($0.accessorSpecifier.text) }
  }
  return false
}

func firstStringLiteral(in accessor: AccessorBlockSyntax?) -> StringLiteralExprSyntax? {
  guard let accessor else { return nil }
  final class Finder: SyntaxVisitor {
    var found: StringLiteralExprSyntax?
    override func visit(_ node: StringLiteralExprSyntax) -> SyntaxVisitorContinueKind {
      if found == nil { found = node }
      return .skipChildren
    }
  }
  let finder = Finder(viewMode: .sourceAccurate)
  finder.walk(accessor)
  return finder.found
}

extension String {
  func replacingOccurrences(_ target: String, _ replacement: String) -> String {
    guard !target.isEmpty else { return self }
    let source = Array(self)
    let pattern = Array(target)
    var out = ""
    var index = 0
    while index < source.count {
      if index + pattern.count <= source.count, Array(source[index..<index + pattern.count]) == pattern {
        out += replacement
        index += pattern.count
      } else {
        out.append(source[index])
        index += 1
      }
    }
    return out
  }
}
