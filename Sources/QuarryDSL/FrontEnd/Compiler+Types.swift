import QueryBuilder
import SwiftSyntax

/// Checks of types Swift would refuse to compare or substitute.
extension Compiler {
  /// Comparing a text column with a number (or the reverse) is almost always a mistake.
  func checkComparable(_ lhs: TypedExpression, _ rhs: TypedExpression, at node: some SyntaxProtocol) throws {
    guard let l = lhs.type, let r = rhs.type, case .value = rhs.expression.node else { return }
    if mismatched(l.wrapped, r.wrapped) {
      throw source.diagnostic("cannot compare \(l) with \(r)", at: node)
    }
  }

  /// Two types Swift would never compare or substitute: text and a number, or an enum and a
  /// literal of another kind than its raw values.
  func mismatched(_ a: SwiftType, _ b: SwiftType) -> Bool {
    if (a.isText && b.isNumeric) || (a.isNumeric && b.isText) { return true }
    for (enumType, other) in [(a, b), (b, a)] {
      if let model = catalog.enums[enumType.name], other.name != enumType.name, catalog.enums[other.name] == nil {
        return model.rawType.isText ? other.isNumeric : other.isText
      }
    }
    return false
  }

  func sqlType(forSwiftType name: String) -> String {
    let type = SwiftType(name.hasSuffix("?") ? String(name.dropLast()) : name)
    if type.isInteger || type.isBool { return "INTEGER" }
    if type.isReal { return "REAL" }
    if type.name == "[UInt8]" || type.name == "Data" { return "BLOB" }
    return "TEXT"
  }

}
