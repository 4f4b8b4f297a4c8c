import QueryBuilder
import SwiftSyntax

/// The types of a pasted app file that are not models: SwiftUI views, `@Observable` model
/// classes, `FetchKeyRequest`s. What they say about the database (their `@FetchAll`,
/// `@FetchOne` and `@Fetch` properties, a request's `fetch(_:)`) runs; the rest is skipped with
/// a note.
///
/// ```swift
/// struct RemindersView: View {
///   @FetchAll(Reminder.where { !$0.isCompleted }) var reminders
///   @FetchOne var list: RemindersList
///   var body: some View { … }
/// }
/// // SELECT … FROM "reminders" WHERE (NOT ("reminders"."isCompleted"))
/// // SELECT … FROM "remindersLists" LIMIT 1
/// ```
extension AppCodeRunner {
  static let fetchWrapperNames: Set<String> = ["FetchAll", "FetchOne", "Fetch"]

  /// Protocols a type of app code conforms to, which make it no model.
  static let appProtocols: Set<String> = [
    "View", "App", "Scene", "PreviewProvider", "FetchKeyRequest", "ObservableObject", "HashableObject", "Observable",
    "UIViewController", "UIView", "NSViewController", "Commands", "ViewModifier", "Shape", "DynamicProperty",
    "Reducer", "Error", "Identifiable", "Equatable", "Hashable", "Sendable", "Codable",
  ]

  /// Protocols of types the model reader reads (never app code).
  static let modelProtocols: Set<String> = [
    "TableAlias", "AliasName", "QueryRepresentable", "QueryBindable", "Table", "FTS5", "PrimaryKeyedTable",
  ]

  /// Whether a variable is declared with one of the fetch property wrappers.
  static func fetchWrapper(of variable: VariableDeclSyntax) -> AttributeSyntax? {
    for element in variable.attributes {
      if let attribute = element.as(AttributeSyntax.self),
        fetchWrapperNames.contains(attribute.attributeName.trimmedDescription)
      {
        return attribute
      }
    }
    return nil
  }

  /// The members of a type declaration that is app code, not a model (nil for a model, or a
  /// plain struct of stored properties, which is a model missing its `@Table`).
  static func appTypeMembers(of decl: DeclSyntax) -> [MemberBlockItemSyntax]? {
    let attributes: AttributeListSyntax
    let inherited: InheritanceClauseSyntax?
    let members: [MemberBlockItemSyntax]
    let isReferenceType: Bool
    if let structDecl = decl.as(StructDeclSyntax.self) {
      (attributes, inherited, members, isReferenceType) = (
        structDecl.attributes, structDecl.inheritanceClause, structDecl.memberBlock.activeMembers, false
      )
    } else if let classDecl = decl.as(ClassDeclSyntax.self) {
      (attributes, inherited, members, isReferenceType) = (
        classDecl.attributes, classDecl.inheritanceClause, classDecl.memberBlock.activeMembers, true
      )
    } else if let actorDecl = decl.as(ActorDeclSyntax.self) {
      (attributes, inherited, members, isReferenceType) = (
        actorDecl.attributes, actorDecl.inheritanceClause, actorDecl.memberBlock.activeMembers, true
      )
    } else {
      return nil
    }
    let names = attributeNames(attributes)
    if names.contains("Table") || names.contains("Selection") { return nil }
    // What the model reader reads: table aliases, custom representations.
    if inherited?.inheritedTypes.contains(where: { modelProtocols.contains($0.type.trimmedDescription) }) == true { return nil }
    let conforms = inherited?.inheritedTypes.contains { appProtocols.contains($0.type.trimmedDescription) } ?? false
    let hasBehaviour = members.contains { member in
      member.decl.is(FunctionDeclSyntax.self) || member.decl.is(InitializerDeclSyntax.self)
        || (member.decl.as(VariableDeclSyntax.self).map { variable in
          fetchWrapper(of: variable) != nil || variable.bindings.contains { $0.pattern.trimmedDescription == "body" }
        } ?? false)
    }
    // Anything but stored properties (a computed or static member, a nested type, another
    // attribute): app code. A struct of stored properties alone is a model missing `@Table`.
    let onlyStoredProperties = members.allSatisfy { member in
      guard let variable = member.decl.as(VariableDeclSyntax.self) else { return false }
      return !variable.modifiers.contains { $0.name.text == "static" || $0.name.text == "class" }
        && variable.bindings.allSatisfy { $0.accessorBlock == nil }
    }
    let appAttributes = !names.isEmpty
    return isReferenceType || conforms || hasBehaviour || appAttributes || !onlyStoredProperties ? members : nil
  }

  /// A type of app code: its fetch properties run (nested types too); a `FetchKeyRequest` is
  /// kept, to run when a `@Fetch` uses it; the rest is skipped with a note.
  func compileAppType(_ decl: DeclSyntax, members: [MemberBlockItemSyntax], into items: inout [CompiledItem]) throws {
    let name = decl.asProtocol(NamedDeclSyntax.self)?.name.text ?? "type"
    var ranAny = false
    // Models nested in the view or model class (`@Selection struct Stats` that its fetches
    // select into) first, whatever their place among the members.
    for member in members {
      let nested: AttributeListSyntax? =
        member.decl.as(StructDeclSyntax.self)?.attributes ?? member.decl.as(EnumDeclSyntax.self)?.attributes
      guard let nested, attributeNames(nested).contains(where: { $0 == "Table" || $0 == "Selection" }) else { continue }
      do {
        try DeclarationReader(
          catalog: compiler.catalog, source: compiler.source, warn: { [unowned self] message, node in try compiler.warn(message, at: node) }
        ).read(member.decl)
        ranAny = true
      } catch let diagnostic as Diagnostic {
        items.append(.failure(diagnostic))
      }
    }
    if let structDecl = decl.as(StructDeclSyntax.self),
      structDecl.inheritanceClause?.inheritedTypes.contains(where: { $0.type.trimmedDescription == "FetchKeyRequest" }) == true
    {
      declareFetchRequest(structDecl)
      ranAny = true  // run where a `@Fetch` uses it
    }
    for member in members {
      if let variable = member.decl.as(VariableDeclSyntax.self), let wrapper = Self.fetchWrapper(of: variable) {
        do {
          items += try fetchItems(variable, wrapper: wrapper)
        } catch let diagnostic as Diagnostic {
          items.append(.failure(diagnostic))
        }
        ranAny = true
      } else if let nested = Self.appTypeMembers(of: member.decl) {
        try compileAppType(member.decl, members: nested, into: &items)
      } else if let enumDecl = member.decl.as(EnumDeclSyntax.self),
        enumDecl.inheritanceClause?.inheritedTypes.contains(where: { $0.type.trimmedDescription == "QueryBindable" }) == true
      {
        do {
          try DeclarationReader(
            catalog: compiler.catalog, source: compiler.source,
            warn: { [unowned self] message, node in try compiler.warn(message, at: node) }
          ).read(member.decl)
        } catch let diagnostic as Diagnostic {
          items.append(.failure(diagnostic))
        }
      }
    }
    // A value type or a namespace of static values: read where the input's Swift uses it.
    if compiler.catalog.valueTypes[name] != nil || compiler.catalog.staticProperties.keys.contains(where: { $0.hasPrefix(name + ".") }) {
      ranAny = true
    }
    if !ranAny { skip(decl, as: "\(kindName(decl).replacing(" declaration", with: "")) \(name)") }
  }

  /// What a fetch property wrapper runs: its query argument (`@FetchOne` of whole rows adds
  /// `LIMIT 1`, as SQLiteData does), `T.all` for `@FetchAll var rows: [T]`, the first `T` for
  /// `@FetchOne var row: T`, or a `FetchKeyRequest`'s `fetch(_:)`. A property given its query
  /// elsewhere (`_rows = FetchAll(…)` in an `init`) is noted.
  func fetchItems(_ variable: VariableDeclSyntax, wrapper: AttributeSyntax) throws -> [CompiledItem] {
    let name = variable.bindings.first?.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
    let wrapperName = wrapper.attributeName.trimmedDescription
    compiler.features.insert(.fetchWrapper(wrapperName))
    compiler.fetchStartValues.append("@\(wrapperName) \(startValue(of: variable))")
    var value: Value
    let anchor: Syntax
    var annotation = variable.bindings.first?.typeAnnotation?.type
    if let optional = annotation?.as(OptionalTypeSyntax.self) { annotation = optional.wrappedType }
    if case .argumentList(let list)? = wrapper.arguments, let query = list.first(where: { $0.label == nil })?.expression {
      if let (call, requestName) = Self.call(query), let request = compiler.catalog.fetchRequests[requestName],
        compiler.lookupLocal(requestName) == nil
      {
        // `@Fetch(Tags()) var tags = Tags.Value()`: the request's `fetch(_ db:)` runs.
        var items: [CompiledItem] = []
        try runFetchRequest(request, call: call, into: &items)
        return items
      }
      value = try compiler.evaluate(query)
      anchor = Syntax(query)
    } else if wrapperName == "FetchAll", let element = annotation?.as(ArrayTypeSyntax.self)?.element,
      let model = compiler.catalog.table(forType: element.trimmedDescription), !model.isSelection
    {
      value = .query(try compiler.baseQuery(TableInstance(model: model)))
      anchor = Syntax(variable)
    } else if wrapperName == "FetchOne", let type = annotation, let model = compiler.catalog.table(forType: type.trimmedDescription),
      !model.isSelection
    {
      value = .query(try compiler.baseQuery(TableInstance(model: model)))
      anchor = Syntax(variable)
    } else {
      let location = compiler.source.lineAndColumn(of: variable.positionAfterSkippingLeadingTrivia)
      let what = "@\(wrapperName) var \(name ?? "…")"
      return [
        .note(
          "\(location.line):\(location.column): \(what) has no query of its own here; the app gives it one elsewhere (for example `_\(name ?? "name") = \(wrapperName)(…)` in an init, or `$\(name ?? "name").load(…)`): paste that query"
        )
      ]
    }
    if wrapperName == "FetchOne", case .query(var query) = value, query.select.columns.isEmpty {
      query.select.limit = Expression(.value(.integer(1)))
      query.select.offset = nil
      value = .query(query)
    } else if wrapperName == "FetchOne", case .table(let table) = value {
      var query = try compiler.baseQuery(table)
      query.select.limit = Expression(.value(.integer(1)))
      value = .query(query)
    }
    if let name { compiler.catalog.bindings[name] = value }
    return [.statement(try compiler.statement(from: value, input: variable.trimmedDescription, at: anchor))]
  }

  /// What a fetch property holds before its query loads, as SQL writes it (`0`, `'none'`), or
  /// its Swift text when it is no single value; `(none)` without an initial value.
  func startValue(of variable: VariableDeclSyntax) -> String {
    guard let initializer = variable.bindings.first?.initializer?.value else { return "(none)" }
    switch try? compiler.evaluate(initializer) {
    case .expression(let typed)?: return typed.expression.fragment.sql(inlining: true)
    case .null?: return "NULL"
    default: return initializer.trimmedDescription
    }
  }

  // MARK: FetchKeyRequest

  /// Declares every `FetchKeyRequest` struct of these items, at any depth of types and extensions.
  func declareFetchRequests(in statements: [CodeBlockItemSyntax]) {
    func visit(_ decl: DeclSyntax) {
      if let structDecl = decl.as(StructDeclSyntax.self) {
        if structDecl.inheritanceClause?.inheritedTypes.contains(where: { $0.type.trimmedDescription == "FetchKeyRequest" }) == true {
          declareFetchRequest(structDecl)
        }
        for member in structDecl.memberBlock.activeMembers { visit(member.decl) }
      } else if let classDecl = decl.as(ClassDeclSyntax.self) {
        for member in classDecl.memberBlock.activeMembers { visit(member.decl) }
      } else if let ext = decl.as(ExtensionDeclSyntax.self) {
        for member in ext.memberBlock.activeMembers { visit(member.decl) }
      }
    }
    for item in statements {
      if case .decl(let decl) = item.item { visit(decl) }
    }
  }

  /// `struct Tags: FetchKeyRequest { var limit = 3; func fetch(_ db: Database) throws -> Value { … } }`.
  func declareFetchRequest(_ decl: StructDeclSyntax) {
    guard
      let fetch = decl.memberBlock.activeMembers.lazy.compactMap({ $0.decl.as(FunctionDeclSyntax.self) })
        .first(where: { $0.name.text == "fetch" }), let body = fetch.body
    else { return }
    var properties: [(name: String, defaultValue: ExprSyntax?)] = []
    for member in decl.memberBlock.activeMembers {
      guard let variable = member.decl.as(VariableDeclSyntax.self), !variable.modifiers.contains(where: { $0.name.text == "static" })
      else { continue }
      for binding in variable.bindings where binding.accessorBlock == nil {
        guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { continue }
        properties.append((name, binding.initializer?.value))
      }
    }
    compiler.catalog.fetchRequests[decl.name.text] = FetchRequestModel(
      name: decl.name.text, body: AnySyntaxBox(syntax: Syntax(body), source: compiler.source), properties: properties)
  }

  /// Runs a request's `fetch(_:)` as app code, its stored properties bound to the arguments of
  /// `Request(…)` (or their defaults).
  func runFetchRequest(_ request: FetchRequestModel, call: FunctionCallExprSyntax, into items: inout [CompiledItem]) throws {
    var bindings: [String: Value] = [:]
    let arguments = Arguments(call)
    for (index, property) in request.properties.enumerated() {
      if let given = arguments.labelled(property.name)
        ?? (arguments.list.indices.contains(index) && arguments.list[index].label == nil ? arguments.list[index].expression : nil)
      {
        bindings[property.name] = try compiler.evaluate(given)
      } else if let fallback = property.defaultValue {
        bindings[property.name] = try compiler.withSource(request.body) { try compiler.evaluate(fallback) }
      }
    }
    guard let body = request.body.syntax.as(CodeBlockSyntax.self) else { return }
    try compiler.withSource(request.body) {
      try compiler.withLocals(bindings) {
        try compileBlock(body.statements, into: &items, typesRead: false)
      }
    }
  }
}

/// A `FetchKeyRequest` declared in pasted code: its `fetch(_ db:)` body and stored properties.
public struct FetchRequestModel: @unchecked Sendable {
  var name: String
  var body: AnySyntaxBox
  var properties: [(name: String, defaultValue: ExprSyntax?)]
}
