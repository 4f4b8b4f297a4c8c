import CEditLine
import Glibc
import Workbench

/// Colour while typing: when the typist pauses, the line in libedit's buffer is drawn again over
/// itself with `InputHighlighter`'s colours — the same characters in the same cells, so libedit's
/// picture of the screen stays true, and the cursor is put back where libedit left it.
///
/// On only at a terminal with colour (not with `NO_COLOR`, `TERM=dumb` or output that is not a
/// terminal). A line holding a control character or a wide character that wraps is left plain:
/// libedit draws those in ways the redraw would not match.
enum TypingColour {
  /// The prompt shown before the line, and the input's earlier lines (at `...>`).
  nonisolated(unsafe) static var prompt = ""
  nonisolated(unsafe) static var context = ""

  /// Whether to colour: typed at a terminal whose output takes colour, and not `TERM=dumb`.
  static var isWanted: Bool {
    isatty(0) == 1 && Terminal.current().usesColor && environmentValue("TERM") != "dumb"
  }

  static func redraw() {
    guard let pointer = quarry_line_buffer() else { return }
    let line = String(cString: pointer)
    guard let drawing = drawing(line: line, cursor: Int(quarry_point()), columns: Int(quarry_terminal_columns())) else { return }
    OutputStream.standardOutput.write(drawing)
    OutputStream.standardOutput.flush()
  }

  /// The bytes that colour `line` in place, with the cursor `cursor` bytes into it on a terminal
  /// `columns` wide; nil when it is left as drawn.
  ///
  /// ```
  /// ESC 7, up to the line's first row, CR, right past the prompt, the coloured text, ESC 8
  /// ```
  static func drawing(line: String, cursor: Int, columns: Int) -> String? {
    guard !line.isEmpty, columns > 0, !line.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else { return nil }
    let promptWidth = TerminalWidth.of(prompt)
    let width = TerminalWidth.of(line)
    if promptWidth + width >= columns, line.unicodeScalars.contains(where: { TerminalWidth.of(String($0)) != 1 }) { return nil }
    let before = TerminalWidth.of(String(decoding: line.utf8.prefix(max(0, cursor)), as: UTF8.self))
    let rowsUp = (promptWidth + before) / columns - promptWidth / columns
    var out = "\u{1B}7"
    if rowsUp > 0 { out += "\u{1B}[\(rowsUp)A" }
    out += "\r"
    if promptWidth % columns > 0 { out += "\u{1B}[\(promptWidth % columns)C" }
    out += InputHighlighter.highlight(line, after: context) + "\u{1B}[0m\u{1B}8"
    return out
  }
}
