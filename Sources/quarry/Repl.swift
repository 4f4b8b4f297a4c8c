import CEditLine
import CSQLite
import Foundation
import QuarryDSL
import QuarryEngine
import Workbench

/// State the C callbacks (signal handler, completion) reach: they cannot capture context.
nonisolated(unsafe) var replInterrupted: Int32 = 0
nonisolated(unsafe) var replConnection: OpaquePointer?
nonisolated(unsafe) var replCompleter: Completer?
nonisolated(unsafe) var replCandidates: [String] = []
nonisolated(unsafe) var replCandidateIndex = 0

/// The interactive prompt: libedit line editing, history, multi-line input, Tab completion and
/// Ctrl-C that cancels the input or the running statement rather than the session.
final class Repl {
  let shell: Shell

  init(shell: Shell) {
    self.shell = shell
  }

  static var historyPath: String { Shell.stateDirectory + "/history" }

  func start() {
    quarry_editline_setup("quarry")
    try? FileManager.default.createDirectory(atPath: Shell.stateDirectory, withIntermediateDirectories: true)
    using_history()
    stifle_history(2000)
    read_history(Self.historyPath)
    installCompletion()
    replConnection = shell.session.database.connection
    shell.onDatabaseChange = { database in replConnection = database.connection }
    quarry_install_sigint { _ in
      replInterrupted = 1
      if let connection = replConnection { sqlite3_interrupt(connection) }
    }
    shell.output.write("Quarry — the StructuredQueries DSL over SQLite. .help for commands, Ctrl-D to quit.\n")
    shell.output.flush()
    var buffer = ""
    while true {
      let prompt = buffer.isEmpty ? "quarry> " : "   ...> "
      replInterrupted = 0
      guard let raw = readline(prompt) else {
        if replInterrupted != 0 {
          // Ctrl-C at the prompt: drop the input and start a fresh line.
          buffer = ""
          shell.output.write("^C\n")
          shell.output.flush()
          continue
        }
        break
      }
      let line = String(cString: raw)
      free(raw)
      if replInterrupted != 0 {
        buffer = ""
        continue
      }
      if buffer.isEmpty && line.allSatisfy(\.isWhitespace) { continue }
      buffer += (buffer.isEmpty ? "" : "\n") + line
      if needsMore(buffer) { continue }
      add_history(buffer)
      write_history(Self.historyPath)
      let input = buffer
      buffer = ""
      shell.terminal = Terminal.current()
      replInterrupted = 0
      if shell.handle(input) == .quit { break }
    }
    write_history(Self.historyPath)
    chmod(Self.historyPath, 0o600)
    shell.output.write("\n")
    shell.output.flush()
  }

  /// Whether the input so far is incomplete: open brackets or strings, a trailing operator, or
  /// plain SQL without its `;`.
  func needsMore(_ text: String) -> Bool {
    let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
    if trimmed.hasPrefix(".") && shell.isMetaCommand(trimmed) { return false }
    if SQLDetector.startsWithSQLKeyword(trimmed) { return !trimmed.hasSuffix(";") }
    return InputCompleteness.isIncomplete(text)
  }

  /// Tab runs Quarry's completer. libedit's word (`text`) may start before the name being
  /// completed (`0.ti` after `$`), so each candidate keeps that head.
  private func installCompletion() {
    replCompleter = Completer(catalog: shell.session.catalog, metaCommands: shell.commandNames)
    shell.onCatalogChange = { catalog in replCompleter?.catalog = catalog }
    quarry_set_word_breaks()
    quarry_set_completion { text, start, end in
      quarry_completion_over()
      guard let text, let buffer = quarry_line_buffer(), let completer = replCompleter else { return nil }
      let line = String(cString: buffer)
      let prefix = String(decoding: Array(line.utf8.prefix(Int(quarry_point()))), as: UTF8.self)
      let word = String(cString: text)
      let identifier = Completer.currentWord(prefix)
      let head = String(word.dropLast(min(identifier.count, word.count)))
      replCandidates = completer.completions(for: prefix).map { head + $0 }
      replCandidateIndex = 0
      guard !replCandidates.isEmpty else { return nil }
      return rl_completion_matches(text) { _, state in
        if state == 0 { replCandidateIndex = 0 }
        guard replCandidateIndex < replCandidates.count else { return nil }
        defer { replCandidateIndex += 1 }
        return strdup(replCandidates[replCandidateIndex])
      }
    }
  }
}
