import FoundationEssentials
import QuarryDSL

/// Tab completion that knows the DSL: types at the start, columns after `$0.`, query methods
/// after a `.`, meta-commands after a leading `.`, file names after `.open`/`.read`.
///
/// ```swift
/// Completer(catalog: catalog).completions(for: "Reminder.where { $0.ti")  // ["title"]
/// ```
public struct Completer {
  public var catalog: Catalog
  public var metaCommands: [String]
  /// What may follow a meta-command (`.mode ` → the modes), asked for when Tab is pressed.
  public var argumentCandidates: [String: () -> [String]] = [:]

  public init(catalog: Catalog, metaCommands: [String]) {
    self.catalog = catalog
    self.metaCommands = metaCommands
  }

  /// What follows a table's name: its members and every query method (the vocabulary's).
  public static let tableMembers = Vocabulary.names(for: .table) + ["Draft"]
  /// What follows a query or a statement: query and write methods.
  public static let queryMethods = Array(
    Set(
      Vocabulary.names(for: .query) + Vocabulary.names(for: .write)
        + Vocabulary.names(for: .statement))
  ).sorted()
  /// What follows an expression inside a closure.
  public static let expressionMethods = Vocabulary.names(for: .expression)

  /// Completions for the word being typed at the end of `line` (the text before the cursor);
  /// `context` is the input entered on earlier lines (a continuation), read as part of it.
  public func completions(for line: String, context: String = "") -> [String] {
    let word = Self.currentWord(line)
    let full = context.isEmpty ? line : context + "\n" + line
    let before = String(full.dropLast(word.count))
    let trimmedLine = line.drop { $0 == " " }
    var candidates: [String]
    if context.isEmpty, trimmedLine.hasPrefix("."), !trimmedLine.contains(" ") {
      // The word being completed starts after the dot; a unique command gets its space.
      let matches = metaCommands.filter { $0.hasPrefix(String(trimmedLine)) }.map { String($0.dropFirst()) }
      let unique = Array(Set(matches)).sorted()
      return unique.count == 1 && Self.commandsTakingArguments.contains("." + unique[0]) ? [unique[0] + " "] : unique
    } else if context.isEmpty, let path = Self.pathArgument(trimmedLine) {
      return FileCompletion.matches(path)
    } else if context.isEmpty, trimmedLine.hasPrefix("."), let space = trimmedLine.firstIndex(of: " "),
      let source = argumentCandidates[String(trimmedLine[..<space])]
    {
      // `.mode b`, `.fixture s`, `.run n`: the command's own arguments, each once.
      return Array(Set(source().filter { $0.hasPrefix(word) })).sorted()
    } else if SQLDetector.startsWithSQLKeyword(full) {
      // Plain SQL: table and column names as SQL spells them, by where the cursor is.
      candidates = SQLCompletion(tables: catalog.tables.values.filter { !$0.isSelection }).candidates(before: before)
    } else if before.hasSuffix("\\.") {
      // A key path (`order(by: \.title)`): the columns of the query's table.
      candidates = tablesInChain(before).first.flatMap { catalog.table(forType: $0) }.map(columnNames) ?? []
    } else if before.hasSuffix(".") {
      candidates = members(before: String(before.dropLast()))
    } else {
      candidates =
        catalog.tables.values.filter { !$0.isSelection }.map(\.typeName)
        + Array(catalog.enums.keys.filter { !$0.contains(".") }) + Array(catalog.aliases.keys)
        + catalog.userNames + Vocabulary.names(for: .function).filter { $0.first?.isUppercase == true && $0 != "Date" && $0 != "UUID" }
    }
    // The exact match stays among the candidates (`R` lists `Reminder` with `RemindersList`).
    return Array(Set(candidates.filter { $0.hasPrefix(word) })).sorted()
  }

  /// Meta-commands that take an argument: completing one adds the space before it.
  static let commandsTakingArguments: Set<String> = [
    ".schema", ".mode", ".headers", ".sql", ".timer", ".timeout", ".wrap", ".explain", ".open", ".fixture", ".read",
    ".once", ".output", ".raw", ".save", ".backup", ".keep", ".run", ".maxrows", ".nullvalue", ".lesson", ".help", ".methods",
  ]

  /// The end of the line that a candidate replaces: the file name after the last `/` in a path
  /// argument, otherwise the identifier characters (`ti` in `$0.ti`).
  public static func replacedText(_ line: String) -> String {
    if let path = pathArgument(line.drop { $0 == " " }) {
      return path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
    }
    return currentWord(line)
  }

  /// The identifier characters at the end of the line.
  public static func currentWord(_ line: String) -> String {
    String(line.reversed().prefix { $0.isLetter || $0.isNumber || $0 == "_" }.reversed())
  }

  static func pathArgument(_ line: Substring) -> String? {
    for command in [".open ", ".read ", ".once ", ".output ", ".save ", ".backup "] where line.hasPrefix(command) {
      return String(line.dropFirst(command.count))
    }
    // `.import FILE TABLE`: the file is its first argument.
    if line.hasPrefix(".import "), !line.dropFirst(8).contains(" ") { return String(line.dropFirst(8)) }
    return nil
  }

  /// What can follow `expression.` where `expression` ends the text.
  private func members(before text: String) -> [String] {
    // `$0.`, `$1.`: the columns of that closure parameter's table.
    if let dollar = Self.closureParameter(at: text) {
      let tables = tablesInChain(text)
      if dollar < tables.count, let model = catalog.table(forType: tables[dollar]) {
        return columnNames(model)
      }
      return []
    }
    let word = Self.currentWord(text)
    if !word.isEmpty, text.dropLast(word.count).last != ".", let model = catalog.table(forType: word) {
      return Self.tableMembers + Array(model.scopes.keys)
    }
    if !word.isEmpty, let model = catalog.enums[word] {
      return model.cases.map(\.name)
    }
    if text.hasSuffix(")") || text.hasSuffix("}") {
      // After a call: on a query, query methods; inside a closure, expression methods.
      if Self.insideClosure(text) { return Self.expressionMethods }
      let tables = tablesInChain(text)
      let scopes = tables.first.flatMap { catalog.table(forType: $0) }.map { Array($0.scopes.keys) } ?? []
      return Self.queryMethods + scopes
    }
    if Self.insideClosure(text) {
      // `$0.title.` → the expression methods a String takes (no `avg`, no `hex`); `$0.kind.` → a
      // group's members.
      if let type = columnType(endingAt: text) { return expressionMethods(for: type) }
      return Self.expressionMethods
    }
    return Self.queryMethods
  }

  /// The type of `$N.column` when the text ends with one.
  func columnType(endingAt text: String) -> SwiftType? {
    let name = Self.currentWord(text)
    guard !name.isEmpty else { return nil }
    let before = text.dropLast(name.count)
    guard before.last == "." else { return nil }
    guard let dollar = Self.closureParameter(at: String(before.dropLast())) else { return nil }
    let tables = tablesInChain(text)
    guard dollar < tables.count, let model = catalog.table(forType: tables[dollar]) else { return nil }
    return model.column(named: name)?.type
  }

  /// The expression methods whose `where` clause a value of `type` meets (every method when
  /// Quarry cannot tell): the vocabulary's own constraints, as the checker reads them.
  func expressionMethods(for type: SwiftType) -> [String] {
    let isEnum = catalog.enums[type.name] != nil
    // JSON paths need a JSON-stored column; a column never runs itself (`fetchAll`, `execute`
    // are for a whole query or a #sql statement).
    let storesJSON = type.wrapped.representation?.contains("JSON") == true
    return Self.expressionMethods.filter { name in
      guard !Compiler.databaseCalls.contains(name), storesJSON || !name.hasPrefix("json") || name.hasPrefix("jsonGroup") else {
        return false
      }
      return
        Vocabulary.methods(named: name, on: .expression).contains { entry in
          entry.requirement.map { $0.isSatisfied(by: type, isEnum: isEnum) != false } ?? true
        }
    }
  }

  private func columnNames(_ model: TableModel) -> [String] {
    Array(Set(model.columns.compactMap(\.path.first))) + Array(model.computedColumns.keys)
  }

  /// `$N` just before the dot, if the text ends with one.
  static func closureParameter(at text: String) -> Int? {
    let digits = text.reversed().prefix { $0.isNumber }
    guard !digits.isEmpty, text.dropLast(digits.count).last == "$" else { return nil }
    return Int(String(digits.reversed()))
  }

  static func insideClosure(_ text: String) -> Bool {
    var depth = 0
    for character in text {
      if character == "{" { depth += 1 }
      if character == "}" { depth -= 1 }
    }
    return depth > 0
  }

  /// The table types a query chain binds to closure parameters, in order: the leading type,
  /// then each joined one.
  func tablesInChain(_ text: String) -> [String] {
    var tables: [String] = []
    let scalars = Array(text)
    var index = 0
    func identifier(at start: Int) -> String {
      var end = start
      while end < scalars.count, scalars[end].isLetter || scalars[end].isNumber || scalars[end] == "_" { end += 1 }
      return String(scalars[start..<end])
    }
    // The leading type.
    while index < scalars.count, scalars[index].isWhitespace { index += 1 }
    let first = identifier(at: index)
    if catalog.table(forType: first) != nil {
      tables.append(first)
    }
    // `q.where { $0.` after `let q = Tag.order(…)`: the bound query's tables.
    else {
      tables += catalog.tableTypes(ofBinding: first)
    }
    let joins = ["join(", "leftJoin(", "rightJoin(", "fullJoin(", "crossJoin("]
    while index < scalars.count {
      if scalars[index] == ".", let join = joins.first(where: { String(scalars[(index + 1)...].prefix($0.count)) == $0 }) {
        var start = index + 1 + join.count
        while start < scalars.count, scalars[start].isWhitespace { start += 1 }
        let name = identifier(at: start)
        if catalog.table(forType: name) != nil { tables.append(name) }
        index = start
      }
      index += 1
    }
    return tables
  }
}

/// File-name completion for `.open`, `.read`, `.once` and `.output`.
enum FileCompletion {
  static func matches(_ partial: String) -> [String] {
    let slash = partial.lastIndex(of: "/")
    let directory = slash.map { String(partial[...$0]) } ?? ""
    let prefix = slash.map { String(partial[partial.index(after: $0)...]) } ?? partial
    // `~/` is the home folder, as the commands that open the file read it.
    let listing = directory.isEmpty ? "." : expandingTilde(directory)
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: listing) else { return [] }
    // Folders end in `/`, so completion can go on into them.
    return names.filter { $0.hasPrefix(prefix) && !$0.hasPrefix(".") }.sorted().map { name in
      let isFolder = FileKind(path: PathText.join(listing, name)) == .folder
      return isFolder ? name + "/" : name
    }
  }
}
