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
    let drawing = drawing(
      line: line, cursor: .inside(Int(quarry_point())), columns: Int(quarry_terminal_columns()), rows: Int(quarry_terminal_rows()))
    guard let drawing else { return }
    OutputStream.standardOutput.write(drawing)
    OutputStream.standardOutput.flush()
  }

  /// An input just entered (Enter pressed, or a line of a paste that had no paste markers), coloured
  /// where it stands: libedit has left the cursor at the start of the row below it.
  static func redrawEntered(_ line: String) {
    let drawing = drawing(line: line, cursor: .below, columns: Int(quarry_terminal_columns()), rows: Int(quarry_terminal_rows()))
    guard let drawing else { return }
    OutputStream.standardOutput.write(drawing)
    OutputStream.standardOutput.flush()
  }

  /// Where the terminal's cursor is: `inside` the text, that many bytes into it, or at the start
  /// of the row `below` it.
  enum Cursor: Equatable {
    case inside(Int)
    case below
  }

  /// The bytes that colour `line` in place on a terminal `columns` wide and `rows` high; nil when
  /// it is left as drawn. libedit draws the line after the prompt, wrapping at the last column,
  /// and each line break of a pasted or recalled input at the start of the next row.
  ///
  /// ```
  /// ESC 7, up to the text's first row, past the prompt, the first line coloured; for each line
  /// after it: CR, down to its row, the line coloured; then ESC 8
  /// ```
  static func drawing(line: String, cursor: Cursor, columns: Int, rows: Int = .max) -> String? {
    guard !line.isEmpty, columns > 0,
      !line.unicodeScalars.contains(where: { ($0.value < 0x20 && $0 != "\n") || $0.value == 0x7F })
    else { return nil }
    let promptWidth = TerminalWidth.of(prompt)
    let lines = line.split(separator: "\n", omittingEmptySubsequences: false)
    // Where each line starts: its row, counted from the prompt's, and its column.
    var starts: [(row: Int, column: Int)] = []
    var row = 0
    var column = promptWidth
    for text in lines {
      let width = TerminalWidth.of(String(text))
      // A wide character at a wrap is placed by libedit in a way the redraw would not match.
      if column + width >= columns, text.unicodeScalars.contains(where: { TerminalWidth.of(String($0)) != 1 }) { return nil }
      starts.append((row, column))
      row += (column + width) / columns + 1
      column = 0
    }
    // `row` is now the row below the text.
    let cursorRow: Int
    switch cursor {
    case .below:
      // An entry that ends exactly at the last column leaves libedit's cursor a row further down.
      guard let last = lines.last, (starts[starts.count - 1].column + TerminalWidth.of(String(last))) % columns != 0 || last.isEmpty
      else { return nil }
      cursorRow = row
    case .inside(let offset):
      let before = String(decoding: line.utf8.prefix(max(0, offset)), as: UTF8.self).split(
        separator: "\n", omittingEmptySubsequences: false)
      let start = starts[max(0, before.count - 1)]
      cursorRow = start.row + (start.column + TerminalWidth.of(String(before.last ?? ""))) / columns
    }
    // Rows scrolled off the top cannot be drawn again.
    guard cursorRow < rows else { return nil }
    let painted = InputHighlighter.highlight(line, after: context).split(separator: "\n", omittingEmptySubsequences: false)
    var out = "\u{1B}7"
    var at = cursorRow
    for (index, text) in painted.enumerated() where index < starts.count {
      let start = starts[index]
      let target = start.row + start.column / columns
      if target < at { out += "\u{1B}[\(at - target)A" } else if target > at { out += "\u{1B}[\(target - at)B" }
      out += "\r"
      if start.column % columns > 0 { out += "\u{1B}[\(start.column % columns)C" }
      out += text
      // The row of the line's last character (the cursor stays on it, even at the last column).
      let width = TerminalWidth.of(String(lines[index]))
      at = width == 0 ? target : start.row + (start.column + width - 1) / columns
    }
    return out + "\u{1B}[0m\u{1B}8"
  }
}
