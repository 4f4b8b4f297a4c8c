/// What the shell asks of a real terminal: paging long output, and editing text in the user's
/// editor. The `quarry` executable supplies them; without them (tests, other front ends) output
/// is written as it is and `.edit` says it needs the terminal.
///
/// ```swift
/// shell.terminalServices = QuarryTerminal()  // in the executable
/// ```
public protocol TerminalServices: AnyObject {
  /// Shows output that may be longer than the screen (through a pager, where there is one).
  func present(_ text: String, terminal: Terminal, output: OutputStream)
  /// Lets the user edit `text`; the edited text.
  func edit(_ text: String) throws -> String
  /// A pager to stream a long result into, as its rows arrive (nil: none).
  func openPager(terminal: Terminal) -> PagerOutput?
  /// The terminal as it is now (resized during a query: its new width).
  func currentTerminal() -> Terminal?
  /// Runs a command with the shell on this terminal (`.shell`) and waits for it: its exit
  /// status, or nil when it could not start.
  func runShell(_ command: String) -> Int32?
}

/// Output streamed into a pager while it is produced: rows go to `stream` as they come (the pager
/// reads at its own pace, so memory stays flat), and `close` waits for the pager to quit.
public protocol PagerOutput: AnyObject {
  var stream: OutputStream { get }
  func close()
}

extension TerminalServices {
  /// A pager to stream long output into; nil where there is none (then output goes to the screen).
  public func openPager(terminal: Terminal) -> PagerOutput? { nil }
  public func currentTerminal() -> Terminal? { nil }
  public func runShell(_ command: String) -> Int32? { nil }
}
