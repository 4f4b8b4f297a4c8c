import QuarryDSL
import QueryBuilder

/// `.help NAME` and `.methods [KIND]`: the DSL's vocabulary, from the same declarations the
/// compiler checks calls against and completion offers.
///
/// ```
/// quarry> .help limit
/// limit(_ maxLength: (TableColumns) -> Int, offset: ((TableColumns) -> Int)? = nil) -> Select
///   on a query: At most maxLength rows, after skipping offset rows
///   Reminder.order(by: \.title).limit(3, offset: 1)
///   SELECT … FROM "reminders" ORDER BY "reminders"."title" LIMIT 3 OFFSET 1
/// ```
extension Shell {
  /// The entries named `name` (with or without a leading dot or a trailing `()`), or nil.
  func methodHelp(_ name: String) -> String? {
    var key = Substring(name)
    if key.hasPrefix(".") { key = key.dropFirst() }
    if let open = key.firstIndex(of: "(") { key = key[..<open] }
    let entries = Vocabulary.lookup(String(key))
    guard !entries.isEmpty else { return nil }
    var text = ""
    for (kind, signature) in entries {
      text += signature.declaration + "\n"
      text += "  on \(kind.description): \(signature.summary)\n"
      switch signature.availability {
      case .available: break
      case .deprecated(let message, let since): text += "  deprecated (since StructuredQueries \(since)): \(message)\n"
      case .unavailable(let message): text += "  unavailable in current StructuredQueries: \(message)\n"
      }
      for line in signature.example.split(separator: "\n") { text += "  " + line + "\n" }
      if let sql = exampleSQL(signature.example) { text += "  " + sql + "\n" }
    }
    return text
  }

  /// The SQL of an example that is a single query over tables this session has; examples that
  /// declare types are shown without SQL (compiling them would declare them here).
  private func exampleSQL(_ example: String) -> String? {
    guard !example.contains("@"), !example.contains("enum ") else { return nil }
    guard let items = try? Compiler(catalog: session.catalog).compile(example),
      case .statement(let statement)? = items.last
    else { return nil }
    return statement.displaySQL.split(whereSeparator: \.isNewline).map { $0.trimmingScalars(in: .whitespaces) }.joined(separator: " ")
  }

  /// `.methods`: every kind's names; `.methods query`: one kind's, with their summaries.
  func methodsListing(_ kindName: String) -> String? {
    if kindName.isEmpty {
      return ReceiverKind.allCases.map { kind in
        "\(kind.rawValue) (\(kind.description)): " + Set(Vocabulary.ownEntries(for: kind).map(\.name)).sorted().joined(separator: ", ")
      }.joined(separator: "\n") + "\n(a table also has every query method; .methods KIND for one kind, .help NAME for a method)\n"
    }
    guard let kind = ReceiverKind(rawValue: kindName) else { return nil }
    var seen: Set<String> = []
    let entries = Vocabulary.ownEntries(for: kind).filter { seen.insert($0.selector).inserted }
    let width = entries.map(\.selector.count).max() ?? 0
    return entries.map { $0.selector + String(repeating: " ", count: width - $0.selector.count + 2) + $0.summary }
      .joined(separator: "\n") + "\n"
  }
}
