import SwiftSyntax

extension SyntaxCollection {
  /// The elements, copied into an array by `map` (specialized where it is called).
  ///
  /// A `for … in` over a syntax collection asks the runtime for its iterator's type, whose
  /// generic requirement (`Element: SyntaxProtocol`) the runtime finds by scanning every
  /// conformance in the binary, once per element type and process: tens of microseconds that
  /// a one-query process (`quarry db -e 'Reminder.where { … }'`) pays on the hottest loops.
  ///
  /// ```swift
  /// for item in closure.statements.array { … }
  /// ```
  var array: [Element] { map { $0 } }
}
