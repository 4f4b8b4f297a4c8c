import SwiftSyntax

/// A variable an app declares at file scope (`private let pageSize = 20`, `let appName = "x"`),
/// seen from every query of a scanned app as Swift sees it: a `private` or `fileprivate` one
/// from its own file only, any other from every file; a nearer name (a local, a parameter, a
/// property of the type around the query) shadows it. A `let` is the value of its initializer,
/// which Swift computes once, lazily (Quarry evaluates it where it is first read, in the file
/// that declares it); a `var`, or a `let` whose initializer Quarry does not run
/// (`Logger(subsystem: …)`), is a value the app has only when it runs, bound as such.
///
/// ```swift
/// private let recentLimit = 12
/// @FetchAll(Search.order { $0.lastUsedAt.desc() }.limit(recentLimit)) var recent
/// // SELECT … FROM "searches" ORDER BY "searches"."lastUsedAt" DESC LIMIT 12
/// ```
struct GlobalVariable {
  /// The binding (its annotation and initializer), with the input it came from.
  let property: StaticProperty
  /// `var`: the app may change it, so its value is known only when it runs.
  let isVariable: Bool

  /// The key a global is found under: its name, or `#FILE.name` when it is private to a file.
  static func key(_ name: String, file: Int?) -> String { file.map { "#\($0)." + name } ?? name }

  /// The file-scope variables of `statements`, by ``key(_:file:)``; `file` gives the file a
  /// position is in (nil outside a scan: every global is the input's).
  static func declared(in statements: [CodeBlockItemSyntax], source: SourceUnit, file: (AbsolutePosition) -> Int?) -> [String:
    GlobalVariable]
  {
    var found: [String: GlobalVariable] = [:]
    for item in statements {
      guard case .decl(let decl) = item.item, let variable = decl.as(VariableDeclSyntax.self) else { continue }
      let isPrivate = variable.modifiers.contains { $0.name.tokenKind == .keyword(.private) || $0.name.tokenKind == .keyword(.fileprivate) }
      let isVariable = variable.bindingSpecifier.tokenKind == .keyword(.var)
      for binding in variable.bindings where (binding.initializer != nil) != (binding.accessorBlock != nil) {
        guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { continue }
        let property = StaticProperty(typeName: "", name: name, binding: AnySyntaxBox(syntax: Syntax(binding), source: source))
        found[key(name, file: isPrivate ? file(variable.position) : nil)] = GlobalVariable(
          property: property, isVariable: isVariable && binding.accessorBlock == nil)
      }
    }
    return found
  }
}

extension Compiler {
  /// The global `name` means where the compiler stands (its own file's private one first), with
  /// the key it is found (and its value kept) under; nil when the input declares none.
  func globalVariable(_ name: String) -> (key: String, global: GlobalVariable)? {
    guard !catalog.globals.isEmpty else { return nil }
    if let file = currentFile {
      let key = GlobalVariable.key(name, file: file)
      if let own = catalog.globals[key] { return (key, own) }
    }
    return catalog.globals[name].map { (name, $0) }
  }

  /// The global's value where no nearer name (a run-time value around a scanned query) shadows
  /// it; nil when there is none or it cannot be read.
  func heldGlobal(_ name: String) -> Value? {
    guard runTimeValues[name] == nil, globalVariable(name) != nil else { return nil }
    return (try? globalValue(name, at: source.tree)) ?? nil
  }

  /// The value of the global `name` (nil: no such global): a `let`'s initializer as Swift
  /// computes it, once; a `var`, or an initializer Quarry does not run, a value the app has
  /// when it runs (in a scan; elsewhere an error naming it).
  func globalValue(_ name: String, at node: some SyntaxProtocol) throws -> Value? {
    guard let (key, global) = globalVariable(name) else { return nil }
    if let cached = globalValues[key] { return cached }
    let annotated = (global.property.binding.syntax.as(PatternBindingSyntax.self)?.typeAnnotation?.type).map(SwiftEvaluator.swiftType)
    let runTime = Value.runTime(name, type: annotated)
    guard !global.isVariable, !globalsBeingRead.contains(key) else {
      if scanning { return runTime }
      throw source.diagnostic("'\(name)' is a global 'var', whose value the app has only when it runs", at: node)
    }
    globalsBeingRead.insert(key)
    defer { globalsBeingRead.remove(key) }
    let value: Value
    do {
      value = try withContext(selfTable: nil, bareColumns: nil) { try self.value(of: global.property) }
    } catch let diagnostic as Diagnostic {
      guard scanning else { throw diagnostic }
      value = runTime
    }
    globalValues[key] = value
    return value
  }
}
