import FoundationEssentials
import QuarryDSL

/// Prints a table model as the Swift declaration StructuredQueries would use.
///
/// ```swift
/// ModelPrinter.declaration(of: tagModel)
/// // @Table
/// // struct Tag {
/// //   let id: Int
/// //   var title: String
/// // }
/// ```
public enum ModelPrinter {
  /// `enums` names an enum-typed column's default by its case (`= .open`, not `= 1`).
  public static func declaration(of model: TableModel, enums: [String: EnumModel] = [:]) -> String {
    var out = ""
    if model.tableName != Inflection.tableName(forType: model.typeName) {
      out += "@Table(\"\(model.tableName)\")\n"
    } else {
      out += "@Table\n"
    }
    out += "struct \(model.typeName) {\n"
    for column in model.columns where column.path.count == 1 {
      var attributes: [String] = []
      if column.sqlName != column.name { attributes.append("\"\(column.sqlName)\"") }
      if column.isPrimaryKey && column.name != "id" { attributes.append("primaryKey: true") }
      if let representation = column.type.representation { attributes.append("as: \(representation).self") }
      if !attributes.isEmpty { out += "  @Column(\(attributes.joined(separator: ", ")))\n" }
      let keyword = column.isPrimaryKey ? "let" : "var"
      out += "  \(keyword) \(column.name): \(column.type)" + defaultText(column, enums: enums) + "\n"
    }
    return out + "}"
  }

  /// ` = 0`, ` = ""` for a literal default; a comment with the SQL for any other.
  static func defaultText(_ column: ColumnModel, enums: [String: EnumModel] = [:]) -> String {
    if column.volatileDefault != nil, let written = column.unknownDefault { return " = " + written }
    guard let defaultValue = column.defaultValue else { return "" }
    if case .value(let binding) = defaultValue.node, let model = enums[column.type.name],
      let match = model.cases.first(where: { $0.value == binding })
    {
      return " = .\(match.name)"
    }
    let sql = defaultValue.fragment.sql(inlining: true)
    // Booleans are stored as 0 and 1 but written as Swift's `false` and `true`.
    if column.type.isBool, sql == "0" || sql == "1" || sql.uppercased() == "FALSE" || sql.uppercased() == "TRUE" {
      return sql == "1" || sql.uppercased() == "TRUE" ? " = true" : " = false"
    }
    if Int64(sql) != nil || (Double(sql) != nil && column.type.isReal) { return " = \(sql)" }
    if sql.count >= 2, sql.hasPrefix("'"), sql.hasSuffix("'"), column.type.isText {
      let text = sql.dropFirst().dropLast().replacing("''", with: "'")
      if !text.contains("\""), !text.contains("\\") { return " = \"\(text)\"" }
    }
    return "  // DEFAULT \(sql)"
  }
}
