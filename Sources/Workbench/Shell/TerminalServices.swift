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
}
