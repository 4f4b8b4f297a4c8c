import CEditLine
import Dispatch
import Foundation
import QuarryDSL
import QuarryEngine
import Workbench

/// The interactive prompt: libedit line editing and history, multi-line input, meta-commands,
/// and Ctrl-C that interrupts the running statement instead of the session.
final class Repl {
  let session: Session
  var format: OutputFormat
  var showSQL = true
  let output = OutputStream.standardOutput
  private var interruptSource: DispatchSourceSignal?

  init(session: Session, format: OutputFormat) {
    self.session = session
    self.format = format
  }

  static var historyPath: String {
    let environment = ProcessInfo.processInfo.environment
    let state = environment["XDG_STATE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
      ?? (NSHomeDirectory() + "/.local/state")
    return state + "/quarry/history"
  }

  func start() {
    quarry_editline_setup("quarry")
    let history = Self.historyPath
    try? FileManager.default.createDirectory(
      atPath: (history as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    using_history()
    read_history(history)
    installInterruptHandler()
    output.write("Quarry — StructuredQueries DSL over SQLite. .help for commands, Ctrl-D to quit.\n")
    output.flush()
    var buffer = ""
    while true {
      let prompt = buffer.isEmpty ? "quarry> " : "   ...> "
      guard let raw = readline(prompt) else { break }
      let line = String(cString: raw)
      free(raw)
      if buffer.isEmpty && line.trimmingCharacters(in: .whitespaces).isEmpty { continue }
      buffer += (buffer.isEmpty ? "" : "\n") + line
      let isCommand = buffer.hasPrefix(".")
      let isSQL = Self.startsWithSQLKeyword(buffer)
      if !isCommand && !isSQL && Compiler.isIncomplete(buffer) { continue }
      if isSQL && !buffer.trimmingCharacters(in: .whitespacesAndNewlines).hasSuffix(";") && Compiler.isIncomplete(buffer) { continue }
      add_history(buffer)
      let input = buffer
      buffer = ""
      let sink = format.sink(output: output, session: session, showSQL: showSQL && !format.isDataOnly, errors: output)
      if !handleLine(input, sink: sink) { break }
      output.flush()
    }
    write_history(history)
    chmod(history, 0o600)
    output.write("\n")
    output.flush()
  }

  /// Runs one input; false when the session should end (`.quit`).
  func handleLine(_ input: String, sink: ResultSink) -> Bool {
    let trimmed = input.trimmingCharacters(in: .whitespacesAndNewlines)
    if trimmed.hasPrefix(".") { return command(trimmed, sink: sink) }
    if Self.startsWithSQLKeyword(trimmed) {
      session.runSQL(trimmed, sink: sink)
      return true
    }
    session.run(input, sink: sink)
    return true
  }

  static let metaCommands: Set<String> = [
    ".help", ".tables", ".schema", ".mode", ".sql", ".binds", ".raw", ".quit", ".exit", ".q",
  ]

  /// `.help`, `.raw …`: a meta-command rather than a leading-dot method call.
  static func isMetaCommand(_ line: String) -> Bool {
    let word = String(line.prefix { !$0.isWhitespace })
    return metaCommands.contains(word)
  }

  /// Plain SQL starts with a keyword in one case (`SELECT`, `select`) followed by a space or the
  /// end; `Values(1)` is the DSL.
  static func startsWithSQLKeyword(_ text: String) -> Bool {
    let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
    let letters = trimmed.prefix { $0.isLetter }
    let rest = trimmed.dropFirst(letters.count)
    guard letters == letters.uppercased() || letters == letters.lowercased(),
      rest.first.map({ $0.isWhitespace || $0 == ";" }) ?? true
    else { return false }
    let word = letters.uppercased()
    return ["SELECT", "INSERT", "UPDATE", "DELETE", "CREATE", "DROP", "ALTER", "PRAGMA", "EXPLAIN", "VALUES", "REPLACE", "BEGIN", "COMMIT", "ROLLBACK"].contains(word)
  }

  private func command(_ line: String, sink: ResultSink) -> Bool {
    let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
    let name = parts[0]
    let argument = parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : ""
    switch name {
    case ".quit", ".exit", ".q":
      return false
    case ".help":
      output.write(Self.helpText)
    case ".tables":
      let names = (try? session.database.schema().tables.map(\.name)) ?? []
      output.write(names.joined(separator: "  ") + "\n")
    case ".schema":
      for table in (try? session.database.schema().tables) ?? [] where argument.isEmpty || table.name == argument
        || session.catalog.table(forTableName: table.name)?.typeName == argument
      {
        output.write(table.sql + ";\n")
      }
    case ".mode":
      if let mode = OutputFormat(rawValue: argument) { format = mode } else {
        output.write("error: unknown mode '\(argument)'; use one of: \(OutputFormat.allCases.map(\.rawValue).joined(separator: ", "))\n")
      }
    case ".sql":
      showSQL = argument != "off"
    case ".binds":
      output.write(session.lastBindings.map(\.inlineSQL).joined(separator: ", ") + "\n")
    case ".raw":
      session.runSQL(argument, sink: sink)
    default:
      output.write("error: unknown command '\(name)'; .help lists them\n")
    }
    output.flush()
    return true
  }

  static let helpText = """
    .help              Show this help
    .tables            List tables and views
    .schema [Type]     Show CREATE statements
    .mode FORMAT       box, table, csv, json, markdown or line
    .sql on|off        Show the SQL above results
    .binds             Show the last statement's bound parameters
    .raw SQL           Run plain SQL (input starting with an SQL keyword also runs as SQL)
    .quit              Leave (Ctrl-D also does)

    """

  /// Ctrl-C while a statement runs interrupts it; the session goes on.
  private func installInterruptHandler() {
    signal(SIGINT, SIG_IGN)
    let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
    let database = session.database
    source.setEventHandler { database.interrupt() }
    source.resume()
    interruptSource = source
  }
}
