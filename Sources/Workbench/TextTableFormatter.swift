import QuarryDSL
import QuarryEngine
import QueryBuilder

/// Human-readable results: box drawing (default), ASCII table, Markdown, or one value per line.
/// The SQL is printed above the results unless `showSQL` is off.
///
/// ```
/// SELECT "tags"."title"
/// FROM "tags"
/// ┌──────────┐
/// │ title    │
/// ├──────────┤
/// │ home     │
/// └──────────┘
/// ```
class TextTableFormatter: ResultSink {
  let style: OutputFormat
  let output: OutputStream
  let errors: OutputStream
  unowned let session: Session
  let showSQL: Bool
  var showHeaders = true
  var maxCellWidth = 60
  var columns: [String] = []
  private var types: [SwiftType?] = []
  var rows: [[String]] = []
  var sql = ""
  /// At most this many rows are kept and drawn (the first and the last); nil draws them all.
  var maxRows: Int?
  var window = ResultWindow(limit: nil)
  /// Every row the statement produced, drawn or not.
  var rowCount: Int { window.count }
  /// Rows left out of the drawing (`.maxrows`).
  var omittedRows: Int { window.omitted }
  /// What the last write changed (`4 rows changed`), for the prompt's summary line.
  var changeSummary: String?

  init(style: OutputFormat, output: OutputStream, session: Session, showSQL: Bool, errors: OutputStream) {
    self.style = style
    self.output = output
    self.session = session
    self.showSQL = showSQL
    self.errors = errors
  }

  func begin(input: String, sql: String, bindings: [QueryBinding], columns: [String], types: [SwiftType?]) {
    self.sql = sql.isEmpty ? "-- (empty query: nothing to run)" : sql
    if showSQL && !holdsSQL {
      output.write(self.sql)
      output.write("\n")
    }
    self.columns = columns
    self.types = types
    rows = []
    streamedRecords = 0
    window = ResultWindow(limit: maxRows)
    changeSummary = nil
  }

  /// Scripts stay quiet about declarations; the prompt says what was declared.
  func declared(_ text: @autoclosure () -> String) {}

  /// Rows the last write changed besides its own (foreign-key actions, triggers).
  private var besides = 0
  func changedBesides(rows: Int) { besides = rows }

  func changed(rows: Int, insertedIDs: ClosedRange<Int64>?) {
    var text = rows == 1 ? "1 row changed" : "\(rows) rows changed"
    if let insertedIDs {
      text +=
        insertedIDs.count == 1
        ? " (new row id \(insertedIDs.lowerBound))" : " (new row ids \(insertedIDs.lowerBound)…\(insertedIDs.upperBound))"
    }
    if besides > 0 { text += ", and \(besides) more by foreign keys or triggers" }
    besides = 0
    changeSummary = text
  }

  /// The rows kept, as display text, with a row of `…` where rows were left out.
  private func collectRows() {
    func text(_ row: [DatabaseValue]) -> [String] {
      row.enumerated().map { index, value in display(value, column: index) }
    }
    rows = window.head.map(text)
    if window.omitted > 0 { rows.append(Array(repeating: "…", count: columns.count)) }
    rows += window.tail.map(text)
  }

  /// Whether the SQL is printed with the results (side by side) rather than as it starts.
  var holdsSQL: Bool { false }

  /// Records written so far by a streaming `.line` result.
  private var streamedRecords = 0

  /// `line` records need no column widths from later rows: they are written as they arrive, so
  /// a result of any size takes no memory (`--format line`).
  private var streamsLines: Bool { style == .line && !holdsSQL }

  func row(_ statement: PreparedStatement) {
    if streamsLines {
      let values = (0..<statement.columnCount).map { index in display(statement.value(at: index), column: index) }
      let width = columns.map { TerminalWidth.of($0) }.max() ?? 0
      if streamedRecords > 0 { output.write("\n") }
      writeRecord(values, nameWidth: width)
      streamedRecords += 1
      return
    }
    window.add(statement.row())
  }

  func end(error: StatementError?) {
    if !columns.isEmpty && !streamsLines { output.write(render()) }
    output.flush()
    if let error { writeError(error, to: errors) }
  }

  func warning(_ warning: StatementError) {
    output.flush()
    writeError(warning, to: errors, label: "warning")
  }

  func failure(input: String, error: StatementError) {
    output.flush()
    writeError(error, to: errors)
  }

  func note(_ text: String) {
    output.write(text + "\n")
    output.flush()
  }

  func render() -> String {
    collectRows()
    switch style {
    case .line: return renderLines()
    case .markdown: return renderMarkdown()
    case .table: return renderGrid(ascii: true)
    default: return renderGrid(ascii: false)
    }
  }

  /// A value as a cell shows it: visible (see ``visible(_:)``) and cut with `…` at
  /// `maxCellWidth`. Only the part a cell can show is read, so a 100 MB value costs what its
  /// first columns cost.
  func cell(_ text: String) -> String {
    // Printable ASCII that fits (nearly every cell of a long result): as it is, after one look.
    if text.utf8.count <= maxCellWidth, !text.utf8.contains(where: { $0 < 0x20 || $0 >= 0x7F }) { return text }
    return TerminalWidth.truncate(Self.visible(Self.head(of: text, width: maxCellWidth)), to: maxCellWidth)
  }

  /// The start of `text` that is drawn in `width` columns once made visible, and one character
  /// more when there is more (so truncating it still shows the `…`).
  static func head(of text: String, width: Int) -> String {
    guard text.utf8.count > width else { return text }
    var used = 0
    var end = text.startIndex
    while end < text.endIndex && used <= width {
      for scalar in text[end].unicodeScalars {
        used += scalar.value < 0x20 || scalar.value == 0x7F ? 1 : TerminalWidth.of(scalar)
      }
      end = text.index(after: end)
    }
    return end == text.endIndex ? text : String(text[..<end])
  }

  /// Text that keeps a table's shape: a newline shows as `↵`, a tab as `→`, other control
  /// characters as their Unicode pictures (`␀`, `␛`).
  static func visible(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else { return text }
    var out = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      switch scalar.value {
      case 0x0A: out.append("↵")
      case 0x09: out.append("→")
      case 0x7F: out.append("\u{2421}")
      case 0..<0x20: out.append(Unicode.Scalar(0x2400 + scalar.value) ?? "?")
      default: out.append(scalar)
      }
    }
    return String(out)
  }

  /// How NULL is written in a cell (`.nullvalue`): `NULL` by default, `∅` on a terminal without
  /// colour, a dimmed `NULL` on one with colour.
  var nullText = "NULL"

  func display(_ value: DatabaseValue, column index: Int) -> String {
    if case .null = value { return nullText }
    return session.display(value, type: index < types.count ? types[index] : nil)
  }

  func widths(_ cells: [[String]]) -> [Int] {
    var widths = columns.map { TerminalWidth.of(cell($0)) }
    for row in cells {
      for (index, value) in row.enumerated() where index < widths.count {
        widths[index] = max(widths[index], TerminalWidth.of(value))
      }
    }
    return widths
  }

  /// The widest a table may be (the terminal's width at the prompt); wide columns shrink, their
  /// text truncated with `…`.
  var maxTableWidth: Int?

  /// `.wrap on`: long text continues on more lines of its row instead of being cut with `…`.
  var wrapCells = false

  /// Column widths that fit `maxTableWidth`: the widest columns shrink first, down to 4.
  func fitted(_ widths: [Int]) -> [Int] {
    guard let maxTableWidth, !widths.isEmpty else { return widths }
    var widths = widths
    let border = 3 * widths.count + 1
    while widths.reduce(0, +) + border > maxTableWidth {
      guard let widest = widths.indices.max(by: { widths[$0] < widths[$1] }), widths[widest] > 4 else { break }
      widths[widest] -= 1
    }
    return widths
  }

  /// A horizontal rule of a grid: `left` `middle` `right` are its corners and joints.
  static func rule(_ widths: [Int], ascii: Bool, _ left: String, _ middle: String, _ right: String) -> String {
    left + widths.map { String(repeating: ascii ? "-" : "─", count: $0 + 2) }.joined(separator: middle) + right + "\n"
  }

  /// One line of a grid, each value padded to its column's width.
  static func gridLine(_ values: [String], _ widths: [Int], ascii: Bool) -> String {
    var line: [UInt8] = []
    appendGridLine(values, measured: values.map(TerminalWidth.of), widths, ascii: ascii, to: &line)
    return String(decoding: line, as: UTF8.self)
  }

  private static let asciiBorder: [UInt8] = [UInt8(ascii: "|")]
  private static let boxBorder = Array("│".utf8)

  /// `gridLine` put together in bytes, each value's display width already measured: a streamed
  /// table writes a million of them into one kept buffer.
  static func appendGridLine(_ values: [String], measured: [Int], _ widths: [Int], ascii: Bool, to line: inout [UInt8]) {
    let border = ascii ? asciiBorder : boxBorder
    line.append(contentsOf: border)
    for index in 0..<min(values.count, widths.count) {
      if index > 0 { line.append(contentsOf: border) }
      line.append(UInt8(ascii: " "))
      line.append(contentsOf: values[index].utf8)
      if measured[index] < widths[index] {
        line.append(contentsOf: repeatElement(UInt8(ascii: " "), count: widths[index] - measured[index]))
      }
      line.append(UInt8(ascii: " "))
    }
    line.append(contentsOf: border)
    line.append(UInt8(ascii: "\n"))
  }

  /// The top of a grid: its rule, the column names and the rule under them.
  func gridTop(_ widths: [Int], ascii: Bool) -> String {
    let header = columns.enumerated().map { index, name in
      index < widths.count ? TerminalWidth.truncate(cell(name), to: widths[index]) : cell(name)
    }
    var out = ascii ? Self.rule(widths, ascii: true, "+", "+", "+") : Self.rule(widths, ascii: false, "┌", "┬", "┐")
    if showHeaders || !ascii {
      out += Self.gridLine(header, widths, ascii: ascii)
      out += ascii ? Self.rule(widths, ascii: true, "+", "+", "+") : Self.rule(widths, ascii: false, "├", "┼", "┤")
    }
    return out
  }

  /// The bottom rule of a grid.
  static func gridBottom(_ widths: [Int], ascii: Bool) -> String {
    ascii ? rule(widths, ascii: true, "+", "+", "+") : rule(widths, ascii: false, "└", "┴", "┘")
  }

  func renderGrid(ascii: Bool) -> String {
    var cells = wrapCells ? rows : rows.map { $0.map(cell) }
    var widths =
      wrapCells
      ? columns.indices.map { index in
        max(TerminalWidth.of(columns[index]), cells.map { index < $0.count ? Self.longestLine($0[index]) : 0 }.max() ?? 0)
      }
      : self.widths(cells)
    if maxTableWidth != nil, !widths.isEmpty {
      widths = fitted(widths)
      if !wrapCells {
        cells = cells.map { row in
          row.enumerated().map { index, value in
            index < widths.count ? TerminalWidth.truncate(value, to: widths[index]) : value
          }
        }
      }
    }
    var out = gridTop(widths, ascii: ascii)
    for row in cells {
      guard wrapCells else {
        out += Self.gridLine(row, widths, ascii: ascii)
        continue
      }
      let pieces = zip(row, widths).map { Self.wrap($0, width: $1) }
      let height = pieces.map(\.count).max() ?? 1
      for lineIndex in 0..<height {
        out += Self.gridLine(pieces.map { lineIndex < $0.count ? $0[lineIndex] : "" }, widths, ascii: ascii)
      }
    }
    out += Self.gridBottom(widths, ascii: ascii)
    return out
  }

  static func longestLine(_ text: String) -> Int {
    text.split(separator: "\n", omittingEmptySubsequences: false).map { TerminalWidth.of(String($0)) }.max() ?? 0
  }

  /// Text broken into lines no wider than `width`: at its own newlines, then at spaces where it
  /// can, else mid-word.
  static func wrap(_ text: String, width: Int) -> [String] {
    var lines: [String] = []
    for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
      var current = ""
      for word in paragraph.split(separator: " ", omittingEmptySubsequences: false) {
        let word = String(word)
        let candidate = current.isEmpty ? word : current + " " + word
        if TerminalWidth.of(candidate) <= width {
          current = candidate
          continue
        }
        if !current.isEmpty { lines.append(current) }
        current = ""
        guard TerminalWidth.of(word) > width else {
          current = word
          continue
        }
        // A word wider than a line is cut into pieces as wide as fit, in one pass over it (a
        // 100 MB value is a word too).
        var used = 0
        for character in word {
          let characterWidth = TerminalWidth.of(String(character))
          if used + characterWidth > width, !current.isEmpty {
            lines.append(current)
            current = ""
            used = 0
          }
          current.append(character)
          used += characterWidth
        }
      }
      lines.append(current)
    }
    return lines.isEmpty ? [""] : lines
  }

  private func renderMarkdown() -> String {
    let cells = rows.map { $0.map { cell($0).replacing("|", with: "\\|") } }
    let widths = self.widths(cells).map { max($0, 3) }
    func line(_ values: [String]) -> String {
      "|" + zip(values, widths).map { " " + TerminalWidth.pad($0, to: $1) + " " }.joined(separator: "|") + "|\n"
    }
    var out = line(columns.map(cell))
    out += "|" + widths.map { String(repeating: "-", count: $0 + 2) }.joined(separator: "|") + "|\n"
    for row in cells { out += line(row) }
    return out
  }

  private func renderLines() -> String {
    let width = columns.map { TerminalWidth.of($0) }.max() ?? 0
    var out = ""
    for (index, row) in rows.enumerated() {
      if index > 0 { out += "\n" }
      out += Self.record(columns: columns, values: row, nameWidth: width)
    }
    return out
  }

  private func writeRecord(_ values: [String], nameWidth: Int) {
    output.write(Self.record(columns: columns, values: values, nameWidth: nameWidth))
  }

  /// One `.line` record: `name = value` lines, names right-aligned.
  static func record(columns: [String], values: [String], nameWidth: Int) -> String {
    var out = ""
    for (name, value) in zip(columns, values) {
      out += String(repeating: " ", count: nameWidth - TerminalWidth.of(name)) + name + " = " + value + "\n"
    }
    return out
  }
}

/// Marks a NULL cell in drawn results (zero width) so the prompt can dim it once the table is laid
/// out: NULL then looks different from the text 'NULL'.
let nullMarker: Unicode.Scalar = "\u{E000}"

/// Display width of text in a terminal: East Asian wide characters and emoji take two cells.
public enum TerminalWidth {
  public static func of(_ text: String) -> Int {
    // ASCII with no NUL (nearly every cell): one column a byte, counted without decoding.
    let ascii = text.utf8.withContiguousStorageIfAvailable { bytes in !bytes.contains { $0 >= 0x80 || $0 == 0 } }
    if ascii ?? !text.utf8.contains(where: { $0 >= 0x80 || $0 == 0 }) { return text.utf8.count }
    var width = 0
    for scalar in text.unicodeScalars { width += of(scalar) }
    return width
  }

  static func of(_ scalar: Unicode.Scalar) -> Int {
    let v = scalar.value
    if v == 0 || (v >= 0x300 && v <= 0x36F) || v == 0x200D || (v >= 0xFE00 && v <= 0xFE0F) || scalar == nullMarker { return 0 }
    if (v >= 0x1100 && v <= 0x115F) || (v >= 0x2E80 && v <= 0xA4CF) || (v >= 0xAC00 && v <= 0xD7A3)
      || (v >= 0xF900 && v <= 0xFAFF) || (v >= 0xFE30 && v <= 0xFE4F) || (v >= 0xFF00 && v <= 0xFF60)
      || (v >= 0xFFE0 && v <= 0xFFE6) || (v >= 0x1F300 && v <= 0x1FAFF) || (v >= 0x20000 && v <= 0x3FFFD)
    {
      return 2
    }
    return 1
  }

  public static func pad(_ text: String, to width: Int) -> String {
    text + String(repeating: " ", count: max(0, width - of(text)))
  }

  public static func truncate(_ text: String, to width: Int) -> String {
    guard of(text) > width else { return text }
    var out = ""
    var used = 0
    for character in text {
      let w = of(String(character))
      if used + w > width - 1 { break }
      out.append(character)
      used += w
    }
    return out + "…"
  }
}
