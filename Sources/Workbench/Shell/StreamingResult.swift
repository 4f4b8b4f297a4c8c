import Dispatch
import FoundationEssentials
import QuarryEngine

/// A result at the prompt too long to wait for: once a screen of rows is known (or a moment has
/// passed), its column widths are fixed from those rows and the table is written as rows arrive —
/// a later row wider than them (a number grown from 99 to 100) ends that table and starts one with
/// the header drawn again at the new widths, so every border lines up —
/// into the pager when every row is shown (`.maxrows 0`), with flat memory; or, when only the
/// first and last rows are shown, the first ones at once and a running count until the last.
///
/// ```
/// quarry> .maxrows 0
/// quarry> Item.all          -- the pager opens on the first screen; rows stream behind it
/// ```
final class StreamingResult {
  /// The columns' widths: fixed from the first rows, widened (with the header drawn again) for a
  /// wider row.
  private(set) var widths: [Int]
  /// The top rule and header of a table of these widths.
  private let top: ([Int]) -> String
  let ascii: Bool
  /// Where rows go: the pager, or the terminal.
  let output: OutputStream
  private let pager: PagerOutput?
  /// Rows written into the table so far.
  private(set) var written = 0
  /// Whether a running count is on the screen (erased before anything else is written).
  private var countShown = false
  private var lastCount = DispatchTime.now().uptimeNanoseconds

  init(widths: [Int], ascii: Bool, output: OutputStream, pager: PagerOutput?, top: @escaping ([Int]) -> String) {
    self.widths = widths
    self.top = top
    self.ascii = ascii
    self.output = output
    self.pager = pager
  }

  /// Whether the reader went away (the pager quit: the statement should stop).
  var readerGone: Bool { output.writeError != nil }

  /// One cell to write: its text, and whether it may be cut to the column's width with `…` (text
  /// may; a number never is — a wider one pushes the row's border out instead).
  struct Cell {
    var text: String
    var mayCut: Bool
  }

  /// The bytes of the row being written, kept between rows (a million rows stream through here).
  private var line: [UInt8] = []
  private var cellWidths: [Int] = []

  /// Writes one row's cells, each padded (or cut) to its column's width: the same line as
  /// `TextTableFormatter.gridLine`, put together in bytes.
  func write(_ cells: [Cell], dim: Bool) {
    let fitted = cells.enumerated().map { index, cell in
      index < self.widths.count && cell.mayCut ? TerminalWidth.truncate(cell.text, to: self.widths[index]) : cell.text
    }
    var cellWidths = self.cellWidths
    self.cellWidths = []
    defer { self.cellWidths = cellWidths }
    cellWidths.removeAll(keepingCapacity: true)
    var wider = false
    for (index, text) in fitted.enumerated() {
      let width = TerminalWidth.of(text)
      cellWidths.append(width)
      if index < self.widths.count, width > self.widths[index] { wider = true }
    }
    if wider { widen(to: cellWidths) }
    let widths = self.widths
    // Only a row with a NULL is searched for its marker.
    if dim, cells.contains(where: { $0.text.unicodeScalars.first == nullMarker }) {
      let line = TextTableFormatter.gridLine(fitted, widths, ascii: ascii)
      output.write(line.replacing(String(nullMarker) + "NULL", with: "\u{1B}[2mNULL\u{1B}[0m"))
      written += 1
      return
    }
    // The kept buffer, moved out and back: one access to the property, not one per append.
    var line = self.line
    self.line = []
    defer { self.line = line }
    line.removeAll(keepingCapacity: true)
    TextTableFormatter.appendGridLine(fitted, measured: cellWidths, widths, ascii: ascii, to: &line)
    line.withUnsafeBufferPointer { output.write(bytes: $0) }
    written += 1
  }

  /// Widens the columns for the rows still to come (a wider row, the kept last rows of a capped
  /// result): the table so far is closed and a new one starts with its header at the new widths.
  func widen(to other: [Int]) {
    let wider = zip(widths, other).map { max($0, $1) } + widths.dropFirst(other.count)
    guard wider != widths else { return }
    clearCount()
    output.write(TextTableFormatter.gridBottom(widths, ascii: ascii))
    widths = wider
    output.write(top(widths))
  }

  /// `… 1,234,567 rows so far · Ctrl-C stops` on one line, redrawn at most four times a second.
  func showCount(_ count: Int) {
    let now = DispatchTime.now().uptimeNanoseconds
    guard now - lastCount > 250_000_000 else { return }
    lastCount = now
    output.write("\r\u{1B}[2K… \(ReplFormatter.grouped(count)) rows so far · Ctrl-C stops")
    output.flush()
    countShown = true
  }

  /// Erases the running count, so the table goes on where it was.
  func clearCount() {
    guard countShown else { return }
    output.write("\r\u{1B}[2K")
    countShown = false
  }

  /// Ends the table: its bottom rule and the summary line; closes the pager (waiting for it).
  func finish(summary: String?) {
    clearCount()
    output.write(TextTableFormatter.gridBottom(widths, ascii: ascii))
    if let summary { output.write(summary + "\n") }
    output.flush()
    pager?.close()
  }
}
