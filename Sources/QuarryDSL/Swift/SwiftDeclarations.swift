/// What the input declares that its Swift may use, as the evaluator reads it: enums, structs
/// (records of its tables too), members of extensions, each table's `ID`. One value, taken from
/// the catalog when code is run or a `@DatabaseFunction` is declared, so a function body sees
/// the same declarations as a prompt constant or app code.
///
/// ```swift
/// struct Money { var cents: Int }
/// @DatabaseFunction func dollars(_ cents: Int) -> String { "\(Money(cents: cents).cents / 100)" }
/// Values($dollars(250))   // SELECT "dollars"(250) → '2'
/// ```
struct SwiftDeclarations: @unchecked Sendable {
  var enums: [String: EnumModel] = [:]
  var extensions: [String: [SwiftExtensionMember]] = [:]
  /// Plain structs and the tables' records (``RecordValues``), by qualified name.
  var valueTypes: [String: ValueTypeModel] = [:]
  /// Each table's `ID` (`FontTag.ID`): the type of its key, and whether it is `Tagged`.
  var identifiers: [String: (key: SwiftType, isTagged: Bool)] = [:]
  /// Evaluating a scanned app's Swift (``SwiftEvaluator/valuesTheAppMakesWhenItRuns``).
  var valuesTheAppMakesWhenItRuns = false

  init(enums: [String: EnumModel] = [:]) { self.enums = enums }

  init(_ catalog: Catalog) {
    enums = catalog.enums
    extensions = catalog.swiftExtensions
    valueTypes = catalog.valueTypes.merging(catalog.recordTypes) { plain, _ in plain }
    valuesTheAppMakesWhenItRuns = catalog.valuesTheAppMakesWhenItRuns
    for model in catalog.tables.values where !model.isSelection {
      guard let key = model.primaryKey?.type.wrapped else { continue }
      identifiers[model.typeName + ".ID"] = (key, catalog.taggedIdentifiers.contains(model.typeName))
    }
  }

  /// Whether `name` is a type whose initializer or static members the evaluator runs (an enum
  /// or a struct the input declares).
  func declaresType(_ name: String) -> Bool {
    enums[name] != nil || valueTypes[name] != nil || enums[String(name.split(separator: ".").last ?? "")] != nil
  }
}
