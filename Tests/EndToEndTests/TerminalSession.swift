import Foundation
import Glibc
import XCTest

/// The real `quarry` binary in a pseudo-terminal (a private tmux server): type keys, read the
/// screen.
final class TerminalSession {
  let socket = "quarry-test-\(UUID().uuidString.prefix(8))"
  let stateDirectory: URL
  /// The session made its state directory (none was given): it removes it when it ends.
  private let ownsStateDirectory: Bool

  /// `lingers`: the shell waits a moment after the program ends, so its last words (written as
  /// it exits) reach the screen before the pane closes.
  init(
    width: Int = 120, height: Int = 40, arguments: [String] = [], stateDirectory: URL? = nil,
    environment: [String: String] = [:], lingers: Bool = false
  ) throws {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux") else {
      throw XCTSkip("tmux is not installed (make test installs it)")
    }
    self.ownsStateDirectory = stateDirectory == nil
    self.stateDirectory = stateDirectory ?? FileManager.default.temporaryDirectory.appendingPathComponent("quarry-state-\(UUID())")
    try FileManager.default.createDirectory(at: self.stateDirectory, withIntermediateDirectories: true)
    let binary = try QuarryProcess.binary.path
    let fixtures = QuarryProcess.packageRoot.appendingPathComponent("fixtures").path
    let command =
      "env XDG_STATE_HOME='\(self.stateDirectory.path)' QUARRY_FIXTURES='\(fixtures)' NO_COLOR=1 PAGER=cat TERM=xterm "
      + environment.map { "\($0.key)='\($0.value)' " }.sorted().joined()
      + "'\(binary)' " + arguments.joined(separator: " ") + (lingers ? "; sleep 3" : "")
    // The pane stays once the program ends, so its last words can be read.
    try tmux([
      "new-session", "-d", "-s", "t", "-x", "\(width)", "-y", "\(height)", command, ";", "set-option", "-t", "t", "remain-on-exit", "on",
    ])
    XCTAssertTrue(waitFor("quarry>"), "no prompt:\n\(screen())")
  }

  deinit {
    _ = try? tmux(["kill-server"])
    if ownsStateDirectory { try? FileManager.default.removeItem(at: stateDirectory) }
  }

  /// Runs tmux with posix_spawn and waitpid: Foundation's Process waits for every inherited
  /// descriptor to close, and a tmux server started by new-session keeps them open.
  @discardableResult
  func tmux(_ arguments: [String]) throws -> String {
    let argv = ["tmux", "-L", socket] + arguments
    var pipe: [Int32] = [0, 0]
    guard Glibc.pipe(&pipe) == 0 else { throw XCTSkip("pipe failed") }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_adddup2(&actions, pipe[1], 1)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addclose(&actions, pipe[0])
    posix_spawn_file_actions_addclose(&actions, pipe[1])
    let cArguments: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
    defer { for pointer in cArguments { free(pointer) } }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, "/usr/bin/tmux", &actions, nil, cArguments, environ)
    close(pipe[1])
    defer { close(pipe[0]) }
    guard spawned == 0 else { throw XCTSkip("cannot run tmux") }
    var status: Int32 = 0
    waitpid(pid, &status, 0)
    // Read what the client wrote (capture-pane); a started server never writes here.
    var output = [UInt8]()
    let flags = fcntl(pipe[0], F_GETFL)
    _ = fcntl(pipe[0], F_SETFL, flags | O_NONBLOCK)
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
      let count = read(pipe[0], &buffer, buffer.count)
      if count <= 0 { break }
      output.append(contentsOf: buffer[0..<count])
    }
    return String(decoding: output, as: UTF8.self)
  }

  /// Types text literally.
  func type(_ text: String) {
    // tmux reads an argument ending in `;` as a command separator; `\;` is a literal `;`.
    let escaped = text.hasSuffix(";") ? String(text.dropLast()) + "\\;" : text
    _ = try? tmux(["send-keys", "-t", "t", "-l", escaped])
    usleep(40_000)  // let the line editor catch up, as a person typing would
  }

  /// Presses keys by name: `Enter`, `Tab`, `Left`, `Up`, `C-c`, `C-d`, `C-a`.
  /// Types a line and presses Enter.
  func enter(_ text: String) {
    type(text)
    press("Enter")
  }

  func press(_ keys: String...) {
    _ = try? tmux(["send-keys", "-t", "t"] + keys)
    usleep(40_000)
  }

  /// Resizes the terminal: the program gets SIGWINCH, as when a window is resized.
  func resize(width: Int, height: Int) {
    _ = try? tmux(["resize-window", "-t", "t", "-x", "\(width)", "-y", "\(height)"])
    usleep(200_000)
  }

  /// Sends a signal to the program in the terminal (SIGCONT, as a shell's `fg` does).
  func signal(_ number: Int32) {
    guard let text = try? tmux(["display-message", "-p", "-t", "t", "#{pane_pid}"]),
      let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines))
    else { return }
    kill(pid, number)
    usleep(200_000)
  }

  /// Whether the program in the terminal is still running.
  var isRunning: Bool {
    ((try? tmux(["display-message", "-p", "-t", "t", "#{pane_dead}"])) ?? "").trimmingCharacters(in: .whitespacesAndNewlines) != "1"
  }

  func screen() -> String {
    (try? tmux(["capture-pane", "-p", "-t", "t"])) ?? ""
  }

  /// The screen with its colours, as tmux writes them (`ESC[36m` …).
  func colouredScreen() -> String {
    (try? tmux(["capture-pane", "-p", "-e", "-t", "t"])) ?? ""
  }

  /// Waits until the screen contains `text` (or `count` copies of it).
  @discardableResult
  func waitFor(_ text: String, count: Int = 1, timeout: TimeInterval = 10) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      // The n-th appearance counts the scrollback too: an earlier one may have scrolled off.
      let shown = count > 1 ? ((try? tmux(["capture-pane", "-p", "-S", "-", "-t", "t"])) ?? "") : screen()
      if shown.components(separatedBy: text).count - 1 >= count { return true }
      usleep(50_000)
    }
    return false
  }
}
