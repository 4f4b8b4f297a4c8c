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
    let declared = decls.map(declaredNames)
    let mentioned = decls.map(mentionedTypeNames)
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

  /// The type names a declaration introduces (its own and nested ones).
  static func declaredNames(_ decl: DeclSyntax) -> Set<String> {
    final class Collector: SyntaxVisitor {
      var names: Set<String> = []
      override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind {
        names.insert(node.name.text)
        return .visitChildren
      }
      override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind {
        names.insert(node.name.text)
        return .visitChildren
      }
      override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind {
        names.insert(node.name.text)
        return .visitChildren
      }
    }
    let collector = Collector(viewMode: .sourceAccurate)
    collector.walk(decl)
    return collector.names
  }

  /// The type names a declaration's types mention (`NestedFields`, `Reminder` in `Reminder.ID`,
  /// the extended type of an extension).
  static func mentionedTypeNames(_ decl: DeclSyntax) -> Set<String> {
    final class Collector: SyntaxVisitor {
      var names: Set<String> = []
      override func visit(_ node: IdentifierTypeSyntax) -> SyntaxVisitorContinueKind {
        names.insert(node.name.text)
        return .visitChildren
      }
    }
    let collector = Collector(viewMode: .sourceAccurate)
    collector.walk(decl)
    return collector.names.subtracting(declaredNames(decl))
  }
}
