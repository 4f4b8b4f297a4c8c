import QueryBuilder
import SwiftSyntax

/// The Swift type of a column or expression, as far as SQL generation needs to know it.
///
/// ```swift
/// SwiftType(parsing: "Priority?")  // name "Priority", optional
/// ```
public struct SwiftType: Sendable, Hashable, CustomStringConvertible {
  public var name: String
  public var isOptional: Bool
  /// `Date.UnixTimeRepresentation` and friends (`@Column(as:)`).
  public var representation: String?

  public init(_ name: String, optional: Bool = false, representation: String? = nil) {
    self.name = name
    self.isOptional = optional
    self.representation = representation
  }

  public static let int = SwiftType("Int")
  public static let double = SwiftType("Double")
  public static let string = SwiftType("String")
  public static let bool = SwiftType("Bool")
  public static let date = SwiftType("Date")
  public static let bytes = SwiftType("[UInt8]")

  public var optional: SwiftType {
    var copy = self
    copy.isOptional = true
    return copy
  }
  public var wrapped: SwiftType {
    var copy = self
    copy.isOptional = false
    return copy
  }

  /// The element type of an array type (`[Tag.Draft]`, `Array<Int>`), nil for other types.
  public var arrayElement: SwiftType? {
    guard !isOptional else { return nil }
    var inner: Substring
    if name.hasPrefix("["), name.hasSuffix("]") {
      inner = name.dropFirst().dropLast()
    } else if name.hasPrefix("Array<"), name.hasSuffix(">") {
      inner = name.dropFirst("Array<".count).dropLast()
    } else {
      return nil
    }
    // `[String: Int]` is a dictionary.
    var depth = 0
    for character in inner {
      if "[<(".contains(character) { depth += 1 } else if "]>)".contains(character) { depth -= 1 }
      if character == ":", depth == 0 { return nil }
    }
    inner = inner.drop { $0 == " " }
    if inner.hasSuffix("?") { return SwiftType(String(inner.dropLast())).optional }
    return SwiftType(String(inner))
  }

  public var isBool: Bool { name == "Bool" }
  public var isText: Bool { ["String", "Substring", "Character", "URL"].contains(name) }
  /// An integer type other than `Int` (`Int64`, `Int32`, `UInt8`…), which an integer literal
  /// passed as `some QueryExpression<T>` never becomes.
  public var isFixedWidthInteger: Bool { isInteger && name != "Int" }
  public var isInteger: Bool { ["Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64"].contains(name) }
  public var isReal: Bool { ["Double", "Float", "CGFloat", "Decimal"].contains(name) }
  public var isNumeric: Bool { isInteger || isReal }
  public var isDate: Bool { name == "Date" }

  public var description: String { name + (isOptional ? "?" : "") }
}

/// A default Swift computes afresh each time it is used (`var id = UUID()`, `createdAt: Date = .now`,
/// a default argument `id: UUID = UUID()`): every row gets its own, never one value computed once.
public enum VolatileDefault: Sendable, Hashable {
  /// `UUID()`, `.init()` of a UUID; `Date()`, `Date.now`, `.now`, `.init()` of a Date.
  case uuid, date
  /// Swift around one of those (`"reminder_\(UUID().uuidString)"`): in a scan, the app's value
  /// when it runs; at the prompt, computed once as the declaration is read.
  case computed

  static func of(_ expr: ExprSyntax, type: SwiftType?) -> VolatileDefault? {
    let text = expr.trimmedDescription.filter { !$0.isWhitespace }
    switch type?.wrapped.name {
    case "UUID"? where ["UUID()", "UUID.init()", ".init()"].contains(text): return .uuid
    case "Date"? where ["Date()", "Date.init()", ".init()", "Date.now", ".now"].contains(text): return .date
    default: break
    }
    return ["UUID()", "UUID.init()", "Date()", "Date.init()", "Date.now"].contains(where: text.contains) ? .computed : nil
  }
}

/// A column of a table model.
public struct ColumnModel: Sendable, Hashable {
  /// The Swift property name (`$0.isCompleted`).
  public var name: String
  /// The SQL column name (`@Column("…")`, else the property name).
  public var sqlName: String
  public var type: SwiftType
  public var isPrimaryKey: Bool
  /// The default for drafts and inserts (`var title = ""`).
  public var defaultValue: Expression?
  /// A default written in Swift Quarry does not run (`var id = makeID()`), as written: a row
  /// that would take it is refused, never given NULL.
  public var unknownDefault: String?
  /// A default computed afresh for each row (`UUID()`, `Date()`); `unknownDefault` holds its text.
  public var volatileDefault: VolatileDefault?
  /// `@Ephemeral` properties are not columns at all; `generated` columns are read-only.
  public var isGenerated: Bool
  /// Where the column sits among the model's properties: `["id"]`, or `["kind", "video", "url"]`
  /// for a column of a nested `@Selection` group.
  public var path: [String]
  /// For a column of an enum case (`@Selection enum`), the path of that enum: exactly one case's
  /// columns are non-NULL in a row.
  public var enumGroup: [String]?

  public init(
    name: String, sqlName: String? = nil, type: SwiftType, isPrimaryKey: Bool = false,
    defaultValue: Expression? = nil, isGenerated: Bool = false
  ) {
    self.name = name
    self.sqlName = sqlName ?? name
    self.type = type
    self.isPrimaryKey = isPrimaryKey
    self.defaultValue = defaultValue
    self.isGenerated = isGenerated
    self.path = [name]
    self.enumGroup = nil
  }
}

/// A `@Table` (or `@Selection`) type: its table name and columns, in declaration order.
///
/// A class: every table instance in a query refers to its model, and compiling copies table
/// instances often.
public final class TableModel: @unchecked Sendable {
  public var typeName: String
  public var tableName: String
  public var columns: [ColumnModel]
  /// A `@Selection` type only names result columns; it has no table of its own.
  public var isSelection: Bool
  /// Declared in Swift (`@Table struct`) rather than inferred from the database.
  public var isDeclared: Bool
  /// Generic parameter of a table like `PragmaTableInfo<Base: Table>`.
  public var genericParameter: String?
  /// `static var tableAlias: String? { "…" }`, with `\(Base.tableName)` kept as a placeholder.
  public var aliasTemplate: [TemplatePart]?
  /// `static var tableFragment: QueryFragment { "…" }` for table-valued functions.
  public var sourceTemplate: [TemplatePart]?
  /// Reusable static members (`static let incomplete = Self.where { … }`), by name.
  public var scopes: [String: Scope] = [:]
  /// Computed columns from `extension T.TableColumns { var x: some QueryExpression<…> { … } }`.
  public var computedColumns: [String: Scope] = [:]
  /// `@Table("name", schema: "main")`.
  public var schemaName: String?
  /// The table name with its schema, as statements name it.
  public var qualifiedName: String { qualified(tableName, schema: schemaName) }
  /// An FTS5 virtual table (`struct T: FTS5`): `match`, `rank`, `bm25`, `highlight`, `snippet`.
  public var isFTS5 = false
  /// Where it was declared, for diagnostics that point at a declaration.
  public var declarationLine: Int?
  /// The protocols its declaration names (`struct SettingsRecord: Sendable, SingleRowTable`):
  /// the app's protocol extensions give it their members.
  public var conformances: Set<String> = []
  /// The `init`s the model declares itself (`Model(…)` calls one of them).
  var initializers: [ExplicitInitializer] = []
  /// Fields that flatten into several columns (a column group, an enum's cases) with no default
  /// and no optional type: the memberwise initializer needs them (`var counts: Counts`).
  var groupsWithoutDefault: Set<String> = []

  public init(
    typeName: String, tableName: String? = nil, columns: [ColumnModel], isSelection: Bool = false,
    isDeclared: Bool = true
  ) {
    self.typeName = typeName
    self.tableName = tableName ?? Inflection.tableName(forType: typeName)
    self.columns = columns
    self.isSelection = isSelection
    self.isDeclared = isDeclared
  }

  /// Another model with the same declaration: changing one (a scope added) leaves the other.
  func copy() -> TableModel {
    let copy = TableModel(
      typeName: typeName, tableName: tableName, columns: columns, isSelection: isSelection, isDeclared: isDeclared)
    copy.genericParameter = genericParameter
    copy.aliasTemplate = aliasTemplate
    copy.sourceTemplate = sourceTemplate
    copy.scopes = scopes
    copy.computedColumns = computedColumns
    copy.schemaName = schemaName
    copy.isFTS5 = isFTS5
    copy.declarationLine = declarationLine
    copy.conformances = conformances
    copy.initializers = initializers
    copy.groupsWithoutDefault = groupsWithoutDefault
    return copy
  }

  /// The single primary-key column; nil when there is none or the key spans several columns.
  public var primaryKey: ColumnModel? {
    let keys = primaryKeyColumns
    return keys.count == 1 ? keys[0] : nil
  }

  /// The primary-key columns: one, or the columns of a group (`let id: MetadataID` where
  /// `MetadataID` is a `@Selection` of `recordID` and `recordType`).
  public var primaryKeyColumns: [ColumnModel] {
    let marked = columns.filter(\.isPrimaryKey)
    if !marked.isEmpty { return marked }
    return columns.first { $0.name == "id" }.map { [$0] } ?? []
  }

  /// A top-level column by its Swift property name.
  public func column(named name: String) -> ColumnModel? {
    columns.first { $0.path.count == 1 && $0.path[0] == name }
  }

  /// The columns under a property path (a group, an enum case, or one column).
  public func columns(under path: [String]) -> [ColumnModel] {
    columns.filter { $0.path.starts(with: path) }
  }

  /// Whether the table is an `@Table enum`: each row is one of its cases.
  public var isEnumTable: Bool { !columns.isEmpty && columns.allSatisfy { $0.enumGroup == [] } }
}

/// A piece of a string template in a model declaration.
public enum TemplatePart: Sendable, Hashable {
  case text(String)
  /// `\(Base.tableName)`.
  case baseTableName
  /// `\(quote: Base.tableName, delimiter: .text)`.
  case quotedBaseTableName
}

/// A reusable piece of DSL source: a scope, a static function, or a computed column.
public struct Scope: @unchecked Sendable {
  /// The expression or closure-like body, kept as syntax and compiled where it is used.
  public var body: AnySyntaxBox
  public var parameters: [String]
  public var ownerType: String
  /// Each parameter's declared type (`_ priority: Int?`): inside the body a parameter has it,
  /// whatever the caller passed (nil where the declaration names no simple type).
  public var parameterTypes: [SwiftType?] = []
  /// Each parameter's argument label (nil for `_`), when the scope is a function.
  public var parameterLabels: [String?]? = nil
}

/// An `enum X: Int|String, QueryBindable`.
public struct EnumModel: Sendable, Hashable {
  public var name: String
  public var rawType: SwiftType
  public var cases: [(name: String, value: QueryBinding)]
  /// Declared `CaseIterable`: `allCases` lists its cases in order.
  public var isCaseIterable = false

  public static func == (lhs: EnumModel, rhs: EnumModel) -> Bool {
    lhs.name == rhs.name && lhs.cases.map(\.name) == rhs.cases.map(\.name)
  }
  public func hash(into hasher: inout Hasher) { hasher.combine(name) }

  public func value(of caseName: String) -> QueryBinding? {
    cases.first { $0.name == caseName }?.value
  }
}

/// A table alias type: `enum R1: AliasName {}` or `struct Manager: TableAlias { typealias Table = Employee }`.
public struct AliasModel: Sendable, Hashable {
  public var typeName: String
  /// The aliased table's type, when the alias names one.
  public var tableType: String?
  public var aliasName: String
}

extension EnumModel {
  /// The enum a bare name means inside `scopes` (innermost first), looked up outward as Swift
  /// looks names up: `Kind` inside `Font.Style` is `Font.Style.Kind`, else `Font.Kind`.
  static func nested(_ name: String, inScopes scopes: [String], of enums: [String: EnumModel]) -> EnumModel? {
    for scope in scopes {
      var path = scope.split(separator: ".").map(String.init)
      while !path.isEmpty {
        if let model = enums[path.joined(separator: ".") + "." + name] { return model }
        path.removeLast()
      }
    }
    return nil
  }
}
