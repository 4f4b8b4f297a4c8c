import SwiftSyntax

/// The order to read an input's type declarations in: each after the ones it names, as Swift
/// does not care where in a file a type is declared.
///
/// ```swift
/// // @Table struct Root { @Columns var fields: NestedFields }
/// // @Selection struct NestedFields { var count = 0 }
/// DeclarationOrder.reading([root, nestedFields])  // [1, 0]: NestedFields first
/// ```
enum DeclarationOrder {
  /// Indices into `decls`, dependencies first; otherwise (and for cycles) in the given order.
  static func reading(_ decls: [DeclSyntax]) -> [Int] {
    let names = decls.map(typeNames)
    let declared = names.map(\.declared)
    let mentioned = names.map { $0.mentioned.subtracting($0.declared) }
    var order: [Int] = []
    var state = [Int](repeating: 0, count: decls.count)  // 0 new, 1 visiting, 2 done
    func visit(_ index: Int) {
      guard state[index] == 0 else { return }
      state[index] = 1
      for other in decls.indices where other != index && state[other] == 0
        && !declared[other].isDisjoint(with: mentioned[index])
      {
        visit(other)
      }
      state[index] = 2
      order.append(index)
    }
    for index in decls.indices { visit(index) }
    return order
  }

  /// The type names a declaration introduces (its own and nested ones) and the ones its types
  /// mention (`NestedFields`, `Reminder` in `Reminder.ID`, the extended type of an extension),
  /// in one walk.
  static func typeNames(_ decl: DeclSyntax) -> (declared: Set<String>, mentioned: Set<String>) {
    final class Collector: SyntaxVisitor {
      var declared: Set<String> = []
      var mentioned: Set<String> = []
      override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind {
        declared.insert(node.name.text)
        return .visitChildren
      }
      override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind {
        declared.insert(node.name.text)
        return .visitChildren
      }
      override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind {
        declared.insert(node.name.text)
        return .visitChildren
      }
      override func visit(_ node: IdentifierTypeSyntax) -> SyntaxVisitorContinueKind {
        mentioned.insert(node.name.text)
        return .visitChildren
      }
    }
    let collector = Collector(viewMode: .sourceAccurate)
    collector.walk(decl)
    return (collector.declared, collector.mentioned)
  }
}
