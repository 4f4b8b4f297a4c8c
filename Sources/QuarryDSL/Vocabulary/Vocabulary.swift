/// What a value of the DSL is, for choosing the methods it has.
///
/// ```swift
/// Reminder            // .table
/// Reminder.where {…}  // .query
/// Reminder.delete()   // .write
/// $0.title            // .expression
/// ```
public enum ReceiverKind: String, CaseIterable, Sendable {
  /// A table type: `Reminder.`
  case table
  /// A query of a table: `Reminder.where { … }.`
  case query
  /// An insert, update or delete: `Reminder.delete().`
  case write
  /// A compound select or another finished statement: `A.union(B).`
  case statement
  /// A column or any SQL expression: `$0.title.`
  case expression
  /// A whole row in a closure: `$0.` compared or counted as one value.
  case row
  /// A group of columns (`@Selection` or a nested group): `$0.timestamps.`
  case columnGroup
  /// A `Case()` being built: `Case().when(…).`
  case caseBuilder
  /// Free functions, initialisers and macros: `Case(…)`, `With { … } query: { … }`, `#sql(…)`.
  case function
  /// The window of a window function, inside `.over { $0.partition(by: …) }` (beyond
  /// StructuredQueries, which has no window functions).
  case window

  /// How a message names a value of this kind.
  public var description: String {
    switch self {
    case .table: "a table"
    case .query: "a query"
    case .write: "a write statement"
    case .statement: "a statement"
    case .expression: "an expression"
    case .row: "a row"
    case .columnGroup: "a column group"
    case .caseBuilder: "a Case expression"
    case .function: "a free function or macro"
    case .window: "a window"
    }
  }
}

/// The DSL's vocabulary: every method and property Quarry knows, declared once per receiver
/// kind. The compiler checks calls against it (names and argument labels, with suggestions),
/// completion offers it, and `.help NAME` / `.methods` print it.
///
/// ```swift
/// Vocabulary.methods(named: "limit", on: .query).first?.selector  // "limit(_:offset:)"
/// ```
public enum Vocabulary {
  /// The entries of one kind. A table has its own entries and every query method (a table is
  /// the query of all its rows).
  public static func entries(for kind: ReceiverKind) -> [MethodSignature] {
    var entries: [MethodSignature] = []
    for table in tables(for: kind) { entries += table }
    return entries
  }

  /// The tables declaring the entries of `kind`, in lookup order.
  private static func tables(for kind: ReceiverKind) -> [[MethodSignature]] {
    switch kind {
    case .table: [tableEntries, queryEntries]
    case .query: [queryEntries]
    case .write: [writeEntries]
    case .statement: [statementEntries]
    case .expression: [expressionEntries, windowExpressionEntries]
    case .row: [rowEntries]
    case .columnGroup: [columnGroupEntries]
    case .caseBuilder: [caseEntries]
    case .function: [functionEntries, windowFunctionEntries]
    case .window: [windowEntries]
    }
  }

  /// The overloads of `name` on `kind` (empty when it has none).
  public static func methods(named name: String, on kind: ReceiverKind) -> [MethodSignature] {
    // The kind's tables read in place, name by name: a process that compiles one query looks
    // a handful of names up, and an index of every entry cost more than those lookups.
    var found: [MethodSignature] = []
    for table in tables(for: kind) {
      for entry in table where entry.name == name { found.append(entry) }
    }
    return found
  }

  /// Every name of `kind`, sorted, for completion and suggestions.
  public static func names(for kind: ReceiverKind) -> [String] {
    sortedNames[kind] ?? []
  }

  /// Every entry named `name`, with its kind, for `.help NAME`.
  public static func lookup(_ name: String) -> [(kind: ReceiverKind, signature: MethodSignature)] {
    ReceiverKind.allCases.flatMap { kind in
      ownEntries(for: kind).filter { $0.name == name }.map { (kind, $0) }
    }
  }

  /// The entries declared for `kind` itself (a table's own, without the query methods).
  public static func ownEntries(for kind: ReceiverKind) -> [MethodSignature] {
    kind == .table ? tableEntries : entries(for: kind)
  }

  private static let sortedNames: [ReceiverKind: [String]] = Dictionary(
    uniqueKeysWithValues: ReceiverKind.allCases.map { kind in
      (kind, Set(entries(for: kind).map(\.name)).sorted())
    })
}
