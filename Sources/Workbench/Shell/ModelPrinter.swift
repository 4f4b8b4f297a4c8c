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
  public static func declaration(of model: TableModel) -> String {
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
      out += "  \(keyword) \(column.name): \(column.type)\n"
    }
    return out + "}"
  }
}
