import CEditLine
import FoundationEssentials
import Glibc
import QuarryDSL
import QuarryEngine
import QueryBuilder
import Workbench

/// State the C callbacks (signal handler, completion) reach: they cannot capture context.
nonisolated(unsafe) var replInterrupted: Int32 = 0
nonisolated(unsafe) var replInterruptHandle: InterruptHandle?
nonisolated(unsafe) var replCompleter: Completer?
nonisolated(unsafe) var replCandidates: [String] = []
nonisolated(unsafe) var replCandidateIndex = 0
/// The lines of the input entered before the one being edited (a continuation), for completion.
nonisolated(unsafe) var replPendingInput = ""
/// Makes the session ready (Tab before it has loaded waits for it).
nonisolated(unsafe) var replAwaitShell: (() -> Void)?

/// The interactive prompt: libedit line editing, history, multi-line input, Tab completion and
/// Ctrl-C that cancels the input or the running statement rather than the session.
///
/// The prompt appears while the session may still be loading on another thread (a fixture's
/// models take milliseconds to parse); the first input or Tab waits for it.
final class Repl {
  private let loading: BackgroundTask<Shell>
  private var loadedShell: Shell?
  /// A line under the banner saying what is open (`Database shop.sqlite.`).
  private let opened: String?

  init(loading: BackgroundTask<Shell>, opened: String? = nil) {
    self.loading = loading
    self.opened = opened
  }

  convenience init(shell: Shell) {
    self.init(loading: .finished(shell))
  }

  static var historyPath: String { Shell.stateDirectory + "/history" }

  /// The history file, unless it is a symbolic link or anything but a regular file: Quarry never
  /// follows a link to read, append to or chmod another file (nil: history is not kept).
  static var usableHistoryPath: String? {
    var info = stat()
    guard lstat(historyPath, &info) == 0 else { return errno == ENOENT ? historyPath : nil }
    return info.st_mode & S_IFMT == S_IFREG ? historyPath : nil
  }

  /// Line editing and history: terminal work that needs no session. Call once, before `start()`.
  static func prepareTerminal() {
    quarry_editline_setup("quarry")
    createDirectories(atPath: Shell.stateDirectory)
    using_history()
    quarry_bind_keys()
    stifle_history(2000)
    if let path = usableHistoryPath {
      read_history(path)
    } else {
      StandardStreams.error("quarry: \(historyPath) is not a regular file (a symbolic link?); history is not kept this session\n")
    }
  }

  /// The shell, once its session has loaded. A session that cannot load ends the program with
  /// its error, as it would have before the prompt.
  var shell: Shell {
    if let loadedShell { return loadedShell }
    do {
      let shell = try loading.value()
      loadedShell = shell
      attach(shell)
      return shell
    } catch {
      StandardStreams.error("\nquarry: error: \(error)\n")
      exit(1)
    }
  }

  /// Points completion and Ctrl-C at the loaded session.
  private func attach(_ shell: Shell) {
    replCompleter = Completer(catalog: shell.session.catalog, metaCommands: shell.commandNames)
    replCompleter?.argumentCandidates = shell.argumentCandidates
    shell.onCatalogChange = { catalog in replCompleter?.catalog = catalog }
    replInterruptHandle = shell.session.database.interruptHandle
    shell.onDatabaseChange = { database in replInterruptHandle = database.interruptHandle }
    // `.edit` at the prompt: the edited text waits in the edit buffer, to review and run with
    // Enter (and it is in the history).
    shell.editedInput = { text in
      let trimmed = text.hasSuffix("\n") ? String(text.dropLast()) : text
      add_history(trimmed)
      quarry_prefill().pointee = strdup(trimmed)
    }
  }

  func start() {
    replAwaitShell = { [unowned self] in _ = self.shell }
    installCompletion()
    // Called from this file, as every call that reaches the key reader's state: each Swift file
    // gets its own copy of the shim's static inline functions, and of their static locals.
    if TypingColour.isWanted { quarry_set_colour_hook { TypingColour.redraw() } }
    // Ctrl-\ (SIGQUIT) at the prompt does nothing, as in an interactive shell: it would end the
    // session with a crash report.
    quarry_install_sigquit()
    quarry_install_sigint { _ in
      replInterrupted = 1
      quarry_sigint_flag().pointee = 1
      replInterruptHandle?.interrupt()
      WorkLimit.stopAll()
      SwiftEvaluation.stopAll()
    }
    let output = OutputStream.standardOutput
    // One line that fits 80 columns.
    output.write("Quarry: the StructuredQueries DSL over SQLite. .help for commands, Ctrl-D quits.\n")
    if let opened { output.write(opened + "\n") }
    output.flush()
    var buffer = ""
    /// A complete input held back because more lines were already waiting (a paste without
    /// bracketed paste): a next line that starts with `.where`-style method continues it.
    var heldBack: String?
    // A terminal that draws no escape codes (`TERM=dumb`) is sent none: no bracketed paste.
    let bracketedPaste = isatty(0) == 1 && isatty(1) == 1 && environmentValue("TERM") != "dumb"
    func pasteMode(_ on: Bool) {
      guard bracketedPaste else { return }
      output.write(on ? "\u{1B}[?2004h" : "\u{1B}[?2004l")
      output.flush()
    }
    func run(_ input: String) -> Bool {
      add_history(input)
      appendHistory(input)
      shell.terminal = Terminal.current()
      replInterrupted = 0
      return shell.handle(input) != .quit
    }
    while true {
      // `quarry*>` while a transaction the user began is open (BEGIN without COMMIT/ROLLBACK).
      let inTransaction = loadedShell?.session.database.isInTransaction == true
      let continuing = !buffer.isEmpty || heldBack != nil
      let prompt = !continuing ? (inTransaction ? "quarry*> " : "quarry> ") : (inTransaction ? "    ...> " : "   ...> ")
      replInterrupted = 0
      quarry_sigint_flag().pointee = 0
      replPendingInput = buffer
      TypingColour.prompt = prompt
      TypingColour.context = (heldBack ?? buffer).isEmpty ? "" : (heldBack ?? buffer) + "\n"
      quarry_history_search_end()
      quarry_paste_reset()
      pasteMode(true)
      let raw = readline(prompt)
      pasteMode(false)
      // The input as entered, coloured: a paste without markers, or keys typed without a pause,
      // were drawn plain.
      if let raw, TypingColour.isWanted { TypingColour.redrawEntered(String(cString: raw)) }
      guard let raw else {
        if replInterrupted != 0 {
          // Ctrl-C at the prompt: drop the input and start a fresh line.
          buffer = ""
          heldBack = nil
          output.write("^C\n")
          output.flush()
          continue
        }
        if let held = heldBack {
          heldBack = nil
          if !run(held) { break }
          continue
        }
        if !buffer.isEmpty {
          // Ctrl-D in the middle of an input cancels that input, as Ctrl-C does; it quits only
          // at an empty prompt.
          buffer = ""
          output.write("\n(input cancelled; Ctrl-D at an empty prompt quits)\n")
          output.flush()
          continue
        }
        if let shell = loadedShell {
          output.write("\n")
          output.flush()
          if !shell.mayQuitAtEndOfInput() { continue }
        }
        break
      }
      let line = String(cString: raw)
      free(raw)
      if replInterrupted != 0 {
        buffer = ""
        heldBack = nil
        continue
      }
      if let held = heldBack {
        heldBack = nil
        let trimmed = line.drop { $0 == " " || $0 == "\t" }
        if Self.continuesQuery(trimmed, isMetaCommand: shell.isMetaCommand) {
          buffer = held + "\n" + line
        } else if trimmed.hasPrefix("/*"), !Self.isWholeBlockComment(trimmed) {
          // A block comment that goes on past this line: the input is open until it closes (and
          // a chain step after it still continues the held input).
          buffer = held + "\n" + line
        } else if trimmed.hasPrefix("//") || Self.isWholeBlockComment(trimmed) {
          // A comment line between the steps of a pasted chain never ends it: it joins the held
          // input, which waits for the next line if more are pasted.
          let joined = held + "\n" + line
          if quarry_input_pending() != 0 {
            heldBack = joined
          } else if !run(joined) {
            break
          }
          continue
        } else {
          if !run(held) { break }
          if line.allSatisfy(\.isWhitespace) { continue }
          buffer = line
        }
      } else {
        if buffer.isEmpty && line.allSatisfy(\.isWhitespace) { continue }
        buffer += (buffer.isEmpty ? "" : "\n") + line
      }
      if needsMore(buffer) {
        // Typed plain SQL waits for its `;`: said once, on its first line (a paste or a statement
        // still open in a string or a trigger body goes on quietly).
        if !buffer.contains("\n"), quarry_input_pending() == 0, SQLDetector.startsWithSQLKeyword(buffer),
          !buffer.contains(";")
        {
          output.write(Self.semicolonHint + "\n")
          output.flush()
        }
        continue
      }
      let input = buffer
      buffer = ""
      if let hint = Self.bareWordHint(input) {
        output.write(hint + "\n")
        output.flush()
        continue
      }
      // More lines already waiting: they were pasted; the next may continue this query. When
      // the next line is there to read and does not continue it, this input runs now (its
      // next line gets a fresh prompt, not `...>`).
      if quarry_input_pending() != 0 && !shell.isMetaCommand(input.trimmedForCommand) {
        if let next = Self.peekedLine(), !continuesPaste(next) {
          if !run(input) { break }
          continue
        }
        heldBack = input
        continue
      }
      if !run(input) { break }
    }
    pasteMode(false)
    if let path = Self.usableHistoryPath { chmod(path, 0o600) }
    (loadedShell?.output ?? output).write("\n")
    (loadedShell?.output ?? output).flush()
  }

  /// The next pasted line, read ahead (nil when it is not all there yet).
  static func peekedLine() -> String? {
    var bytes = [CChar](repeating: 0, count: 8192)
    guard quarry_peek_line(&bytes, Int32(bytes.count)) == 1 else { return nil }
    return String(decoding: bytes.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// Whether a pasted line after a complete input joins it: a chain step or a comment line.
  func continuesPaste(_ line: String) -> Bool {
    let trimmed = line.drop { $0 == " " || $0 == "\t" }
    return Self.continuesQuery(trimmed, isMetaCommand: shell.isMetaCommand) || trimmed.hasPrefix("//") || trimmed.hasPrefix("/*")
  }

  /// Whether a line is block comments alone (`/* sorted */`, `/* a */ /* b */`): nothing of a query.
  static func isWholeBlockComment(_ line: Substring) -> Bool {
    var rest = line
    while true {
      rest = rest.drop { $0 == " " || $0 == "\t" }
      if rest.isEmpty { return true }
      guard rest.hasPrefix("/*"), let end = rest.dropFirst(2).firstRange(of: "*/") else { return false }
      rest = rest[end.upperBound...]
    }
  }

  /// What a typed SQL line without its `;` is told before `...>`.
  static let semicolonHint = "(plain SQL runs at its ';': end the statement with ; or press Ctrl-C to cancel)"

  /// `help`, `exit`, `quit` typed bare point to the commands that do that.
  static func bareWordHint(_ input: String) -> String? {
    switch input.trimmedForCommand {
    case "help", "?": return "Type .help for the commands, or a query such as Reminder.all."
    case "exit", "quit", "bye": return "Type .quit or press Ctrl-D (at an empty prompt) to leave."
    case "learn", "lessons", "lesson":
      return "Type .lesson to list the lessons and .lesson N to open one (quarry learn starts with the first)."
    default: return nil
    }
  }

  /// Whether a line continues the query before it: `.where { … }`, `.order(by: \.title)` — a
  /// leading-dot method that is not a meta-command.
  static func continuesQuery(_ line: Substring, isMetaCommand: (String) -> Bool) -> Bool {
    guard line.first == ".", let second = line.dropFirst().first, second.isLetter || second == "_" else { return false }
    return !isMetaCommand(String(line))
  }

  /// Appends one input to the history file under a lock, so two sessions at once keep each
  /// other's entries.
  private func appendHistory(_ input: String) {
    guard let path = Self.usableHistoryPath else { return }
    let descriptor = open(path, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { return }
    defer { close(descriptor) }
    flock(descriptor, LOCK_EX)
    defer { flock(descriptor, LOCK_UN) }
    var info = stat()
    // This input alone, as one line in libedit's format (a new file starts with its header).
    // libedit's own append_history writes the entry before it again: two sessions, or one,
    // would fill the file with repeats.
    var line = fstat(descriptor, &info) == 0 && info.st_size == 0 ? Array("_HiStOrY_V2_\n".utf8) : []
    line += Self.historyEncoded(input) + [UInt8(ascii: "\n")]
    _ = lseek(descriptor, 0, SEEK_END)
    _ = line.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    history_truncate_file(path, 2000)
  }

  /// An entry as libedit stores it: white space, control characters and `\` as octal escapes
  /// (`\040`), everything else (UTF-8 included) as it is.
  static func historyEncoded(_ input: String) -> [UInt8] {
    var out: [UInt8] = []
    for byte in input.utf8 {
      if byte <= 0x20 || byte == 0x7F || byte == UInt8(ascii: "\\") {
        out += Array(("\\" + String(byte, radix: 8).leftPadded(to: 3)).utf8)
      } else {
        out.append(byte)
      }
    }
    return out
  }

  /// Whether the input so far is incomplete: open brackets or strings, a trailing operator, or
  /// plain SQL without its `;`.
  func needsMore(_ text: String) -> Bool {
    let trimmed = text.trimmingScalars(in: .whitespacesAndNewlines)
    if trimmed.hasPrefix(".") && shell.isMetaCommand(trimmed) { return false }
    // A first line that starts like a meta-command (`.cd /`, a typo of one) is one: it runs (or
    // is refused as unknown) at Enter rather than waiting for more at `...>`.
    if !trimmed.contains("\n"), trimmed.first == ".", trimmed.dropFirst().first?.isLetter == true { return false }
    return InputCompleteness.isIncomplete(text)
  }

  /// Tab runs Quarry's completer. libedit's word (`text`) may start before the text a candidate
  /// replaces (`/tmp/` before a file name, `.` before a meta-command), so each keeps that head.
  private func installCompletion() {
    quarry_set_word_breaks()
    quarry_set_completion { text, start, end in
      quarry_completion_over()
      if replCompleter == nil { replAwaitShell?() }
      guard let text, let buffer = quarry_line_buffer(), let completer = replCompleter else { return nil }
      let line = String(cString: buffer)
      let prefix = String(decoding: Array(line.utf8.prefix(Int(quarry_point()))), as: UTF8.self)
      let word = String(cString: text)
      let replaced = Completer.replacedText(prefix)
      replCandidates = completer.completions(for: prefix, context: replPendingInput).compactMap { candidate in
        if word.count >= replaced.count { return String(word.dropLast(replaced.count)) + candidate }
        // libedit's word is shorter: drop what it leaves in place from the candidate.
        let kept = String(replaced.dropLast(word.count))
        return candidate.hasPrefix(kept) ? String(candidate.dropFirst(kept.count)) : nil
      }
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

extension String {
  /// The input without surrounding white space, as a command is recognised.
  var trimmedForCommand: String {
    guard let first = firstIndex(where: { !$0.isWhitespace }), let last = lastIndex(where: { !$0.isWhitespace }) else { return "" }
    return String(self[first...last])
  }
}

extension String {
  /// The string with zeros before it, up to `width` characters (`"40"` → `"040"`).
  fileprivate func leftPadded(to width: Int) -> String {
    String(repeating: "0", count: max(0, width - count)) + self
  }
}
