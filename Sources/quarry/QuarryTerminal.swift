import FoundationEssentials
import Glibc
import Workbench

/// The real terminal's services for the shell: `$PAGER` for long output and `$VISUAL`/`$EDITOR`
/// for `.edit`.
final class QuarryTerminal: TerminalServices {
  /// `.shell COMMAND`: the shell runs it on this terminal.
  func runShell(_ command: String) -> Int32? {
    runShellCommand(command, argument: "sh")
  }

  /// How a child ended, when not well: `exited with status 2`, `was stopped by signal 9`.
  static func exitProblem(_ status: Int32) -> String? {
    let exit = ChildExit(waitStatus: status)
    if exit.signal != 0 { return "was stopped by signal \(exit.signal)" }
    return exit.code == 0 ? nil : exit.code == 127 ? "was not found (exit status 127)" : "exited with status \(exit.code)"
  }

  /// Long output goes through `$PAGER` (default `less -S -R -F -X`) when it would not fit the
  /// screen. Quitting the pager early (`q`) only ends that output: SIGPIPE is ignored, and
  /// writing stops at the first chunk the closed pipe refuses.
  func present(_ text: String, terminal: Terminal, output: Workbench.OutputStream) {
    let lines = text.reduce(0) { $1 == "\n" ? $0 + 1 : $0 }
    guard terminal.isInteractive, lines > terminal.height - 2, let pager = Self.pagerCommand(),
      let pipe = popen(pager, "w")
    else {
      output.write(text)
      return
    }
    output.flush()
    let bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
      let count = min(1 << 16, bytes.count - offset)
      let written = bytes[offset..<(offset + count)].withUnsafeBufferPointer { fwrite($0.baseAddress, 1, count, pipe) }
      if written < count { break }
      offset += count
    }
    pclose(pipe)
  }

  func currentTerminal() -> Terminal? { Terminal.current() }

  /// `$PAGER` reading a result while it is produced; nil when there is no pager.
  func openPager(terminal: Terminal) -> PagerOutput? {
    guard terminal.isInteractive, let pager = Self.pagerCommand(), let pipe = popen(pager, "w") else { return nil }
    return PipedPager(pipe: pipe)
  }

  static func pagerCommand() -> String? {
    let environment = ProcessInfo.processInfo.environment
    if let pager = environment["PAGER"] { return pager.isEmpty || pager == "cat" ? nil : pager }
    return "less -S -R -F -X"
  }

  /// Edits text in `$VISUAL`/`$EDITOR` (default `vi`), in a fresh file only this user can read
  /// or write, created exclusively (mkstemps): a file another user planted under a predictable
  /// name is never opened. The file is removed afterwards.
  func edit(_ text: String) throws -> String {
    let folder = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
    var template = Array((folder + (folder.hasSuffix("/") ? "" : "/") + "quarry-edit-XXXXXX.swift").utf8CString)
    let descriptor = template.withUnsafeMutableBufferPointer { buffer -> Int32 in
      guard let base = buffer.baseAddress else { return -1 }
      return mkstemps(base, 6)
    }
    guard descriptor >= 0 else {
      throw WorkbenchError("cannot create a file to edit in \(folder): \(String(cString: strerror(errno)))")
    }
    let path = String(cString: template)
    fchmod(descriptor, 0o600)
    let original = Workbench.OutputStream(descriptor: descriptor)
    original.write(text)
    original.flush()
    close(descriptor)
    defer { unlink(path) }
    let environment = ProcessInfo.processInfo.environment
    let editor = environment["VISUAL"] ?? environment["EDITOR"] ?? "vi"
    guard let status = runShellCommand(editor + " \"$0\"", argument: path) else {
      throw WorkbenchError("cannot start the editor '\(editor)'")
    }
    // An editor that fails (or is not found: the shell says 127) leaves nothing to run.
    if let problem = Self.exitProblem(status) {
      throw WorkbenchError("the editor '\(editor)' \(problem); nothing was run")
    }
    guard let data = FileManager.default.contents(atPath: path) else { return "" }
    return try decodeUTF8(data)
  }
}

extension Terminal {
  /// The real terminal on stdout: its size, and colour unless `NO_COLOR` is set or output is piped.
  static func current() -> Terminal {
    var size = winsize()
    let interactive = isatty(1) == 1
    var width = 80
    var height = 24
    if interactive, ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 {
      width = Int(size.ws_col)
      height = Int(size.ws_row)
    } else if let columns = environmentValue("COLUMNS").flatMap(Int.init) {
      width = columns
    }
    // `NO_COLOR` (no-color.org) and a terminal that says it draws no escape codes (`TERM=dumb`).
    let noColor = environmentValue("NO_COLOR") != nil || environmentValue("TERM") == "dumb"
    return Terminal(width: width, height: height, isInteractive: interactive, usesColor: interactive && !noColor)
  }
}

/// A pager started with `popen`: writes go straight to its pipe (a closed pager makes them fail
/// with EPIPE, SIGPIPE being ignored), and closing waits for the user to quit it.
final class PipedPager: PagerOutput {
  private let pipe: UnsafeMutablePointer<FILE>
  let stream: Workbench.OutputStream
  private var closed = false

  init(pipe: UnsafeMutablePointer<FILE>) {
    self.pipe = pipe
    stream = Workbench.OutputStream(descriptor: fileno(pipe))
  }

  func close() {
    guard !closed else { return }
    closed = true
    stream.flush()
    pclose(pipe)
  }

  deinit { close() }
}
