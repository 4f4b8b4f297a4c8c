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
  /// Linear in the declarations and the names they mention, and iterative: a chain of
  /// thousands of declarations neither takes quadratic time nor runs out of stack.
  static func reading(_ decls: [DeclSyntax]) -> [Int] {
    let names = decls.map(typeNames)
    // Which declarations declare each name, in input order.
    var declarers: [String: [Int]] = [:]
    for (index, entry) in names.enumerated() {
      for name in entry.declared { declarers[name, default: []].append(index) }
    }
    // Each declaration's dependencies, in input order, as a depth-first search visits them.
    let dependencies = names.enumerated().map { index, entry -> [Int] in
      var found: Set<Int> = []
      for name in entry.mentioned.subtracting(entry.declared) {
        for other in declarers[name] ?? [] where other != index { found.insert(other) }
      }
      return found.sorted()
    }
    var order: [Int] = []
    order.reserveCapacity(decls.count)
    var state = [UInt8](repeating: 0, count: decls.count)  // 0 new, 1 visiting, 2 done
    // An explicit stack of (declaration, next dependency to look at).
    var stack: [(index: Int, next: Int)] = []
    for root in decls.indices where state[root] == 0 {
      state[root] = 1
      stack.append((root, 0))
      while let top = stack.last {
        let edges = dependencies[top.index]
        if top.next < edges.count {
          stack[stack.count - 1].next += 1
          let other = edges[top.next]
          if state[other] == 0 {
            state[other] = 1
            stack.append((other, 0))
          }
        } else {
          stack.removeLast()
          state[top.index] = 2
          order.append(top.index)
        }
      }
    }
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
      // `var status = Status.todo`, `var progress = Progress()`: types named in defaults.
      override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
        if node.baseName.text.first?.isUppercase == true { mentioned.insert(node.baseName.text) }
        return .visitChildren
      }
    }
    let collector = Collector(viewMode: .sourceAccurate)
    collector.walk(decl)
    return (collector.declared, collector.mentioned)
  }
}
