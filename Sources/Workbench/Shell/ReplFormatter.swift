import Dispatch
import FoundationEssentials
import QuarryDSL
import QuarryEngine
import QueryBuilder

/// Results at the prompt: the SQL (coloured on a terminal) beside the results when the terminal
/// is wide enough, above them otherwise; long results go through a pager.
///
/// ```
/// SELECT "tags"."title"  │ ┌─────────┐
/// FROM "tags"            │ │ title   │
///                        │ ├─────────┤
///                        │ │ errand  │
/// ```
final class ReplFormatter: TextTableFormatter {
  private(set) var terminal: Terminal
  /// The pager, where the executable supplies one.
  weak var terminalServices: TerminalServices?

  init(style: OutputFormat, output: OutputStream, session: Session, showSQL: Bool, headers: Bool, terminal: Terminal, errors: OutputStream)
  {
    self.terminal = terminal
    super.init(style: style, output: output, session: session, showSQL: showSQL, errors: errors)
    showHeaders = headers
  }

  /// At a terminal the SQL may go beside the results, so it waits for them; elsewhere it is
  /// printed first and results stream as the plain formatter writes them.
  override var holdsSQL: Bool { terminal.isInteractive }

  // MARK: Streaming

  /// The table being written as its rows arrive, once the result proved long (nil: not yet).
  private var streaming: StreamingResult?
  private var beganAt: UInt64 = 0
  /// Rows of a streamed result with every row shown (none of them kept).
  private var streamedCount = 0

  override func begin(input: String, sql: String, bindings: [QueryBinding], columns: [String], types: [SwiftType?]) {
    super.begin(input: input, sql: sql, bindings: bindings, columns: columns, types: types)
    streaming = nil
    streamedCount = 0
    beganAt = DispatchTime.now().uptimeNanoseconds
  }

  /// Grid results stream once long — at the prompt, and into a file or a pipe when every row is
  /// written (`quarry DB -e 'Big.all' > out.txt` holds a thousand rows, not all of them); other
  /// styles are drawn whole.
  private var mayStream: Bool {
    (terminal.isInteractive || maxRows == nil) && (style == .box || style == .table) && !wrapCells && !columns.isEmpty
  }

  /// Rows known before a table written elsewhere than a terminal fixes its widths.
  static let headRowsOffTerminal = 1_000

  override func row(_ statement: PreparedStatement) {
    guard mayStream else { return super.row(statement) }
    if let streaming {
      if streaming.readerGone {
        // The pager quit: nobody reads the rest, so the statement stops.
        session.database.interrupt()
        return
      }
      if maxRows == nil {
        streamedCount += 1
        streaming.write(streamCells(statement.row()), dim: terminal.usesColor)
      } else {
        window.add(statement.row())
        if window.count & 4095 == 0 { streaming.showCount(window.count) }
      }
      return
    }
    super.row(statement)
    let count = window.count
    guard count < 1024 || count & 255 == 0 else { return }
    // Every row shown: past a screen of rows, the rest streams (memory stays flat). A capped
    // result is drawn whole when it is quick; once it has made the user wait half a second, its
    // first rows are shown and the rest counted.
    let pastScreen = maxRows == nil && count > (terminal.isInteractive ? max(8, terminal.height) : Self.headRowsOffTerminal)
    let headKnown = maxRows.map { count >= ($0 + 1) / 2 } ?? true
    if pastScreen || (headKnown && DispatchTime.now().uptimeNanoseconds - beganAt > 500_000_000) {
      startStreaming()
    }
  }

  /// Fixes the column widths from the rows known, writes the SQL and those rows, and goes on
  /// row by row: into the pager when every row is shown.
  /// Takes the terminal's size now: a resize while the query ran draws for the new width.
  private func refreshTerminal() {
    guard terminal.isInteractive, let now = terminalServices?.currentTerminal(), now.isInteractive else { return }
    terminal.width = now.width
    terminal.height = now.height
  }

  private func startStreaming() {
    refreshTerminal()
    maxTableWidth = terminal.width
    let known = window.head.map(streamCells)
    let widths = fitted(widths(known.map { $0.map(\.text) }))
    let ascii = style == .table
    let pager = maxRows == nil && terminal.isInteractive ? terminalServices?.openPager(terminal: terminal) : nil
    let target = pager?.stream ?? output
    output.flush()
    // Off a terminal the SQL was written when the statement began.
    if showSQL && holdsSQL { target.write(Self.layout(sql: sql, results: "", terminal: terminal)) }
    target.write(gridTop(widths, ascii: ascii))
    let stream = StreamingResult(widths: widths, ascii: ascii, output: target, pager: pager) { [self] in gridTop($0, ascii: ascii) }
    for row in known { stream.write(row, dim: terminal.usesColor) }
    target.flush()
    streaming = stream
    if maxRows == nil {
      streamedCount = window.count
      window = ResultWindow(limit: nil)
    }
  }

  /// A row's cells as a streamed table writes them: numbers are never cut.
  private func streamCells(_ row: [DatabaseValue]) -> [StreamingResult.Cell] {
    row.enumerated().map { index, value in
      switch value {
      case .integer, .double: return StreamingResult.Cell(text: display(value, column: index), mayCut: false)
      // Text is cut at the usual cell width only: a later row wider than the first ones pushes
      // its border out rather than lose its text.
      default: return StreamingResult.Cell(text: cell(display(value, column: index)), mayCut: false)
      }
    }
  }

  /// Ends a streamed table: the rows kept for its end (a capped result), the bottom rule and the
  /// summary; then the error, unless the summary said it all.
  private func finishStreaming(_ stream: StreamingResult, error: StatementError?) {
    let interrupted = error?.message.hasPrefix("interrupted") == true
    stream.clearCount()
    if maxRows != nil {
      let tail = window.tail.map(streamCells)
      stream.widen(to: fitted(widths(tail.map { $0.map(\.text) })))
      if window.omitted > 0 {
        stream.write(Array(repeating: StreamingResult.Cell(text: "…", mayCut: false), count: columns.count), dim: false)
      }
      for row in tail { stream.write(row, dim: terminal.usesColor) }
    }
    // Off a terminal a table ends with its last rule, as one drawn whole does.
    let summary = terminal.isInteractive ? self.summary(interrupted: interrupted, pagerClosed: stream.readerGone) : nil
    if stream.readerGone {
      // The pager is gone: the summary goes to the terminal.
      stream.finish(summary: nil)
      if let summary { output.write(summary + "\n") }
    } else {
      stream.finish(summary: summary)
    }
    output.flush()
    streaming = nil
    if let error, !interrupted { writeError(error, to: errors, color: terminal.usesColor) }
  }

  override func end(error: StatementError?) {
    if let streaming { return finishStreaming(streaming, error: error) }
    guard holdsSQL else { return super.end(error: error) }
    refreshTerminal()
    if terminal.isInteractive { maxTableWidth = terminal.width }
    // The terminal echoed ^C where the results start: begin on a fresh line.
    let interrupted = error?.message.hasPrefix("interrupted") == true
    if interrupted { output.write("\n") }
    // Ctrl-C before the first row: no empty table, only the one line that says it stopped.
    var results = columns.isEmpty || (interrupted && rowCount == 0) ? "" : render()
    if let summary = summary(interrupted: interrupted) { results += summary + "\n" }
    var text = showSQL ? Self.layout(sql: sql, results: results, terminal: terminal) : results
    if terminal.usesColor { text = text.replacing(String(nullMarker) + "NULL", with: "\u{1B}[2mNULL\u{1B}[0m") }
    if let terminalServices { terminalServices.present(text, terminal: terminal, output: output) } else { output.write(text) }
    output.flush()
    // The summary said it stopped: the interruption is not an error to print again.
    if let error, !interrupted { writeError(error, to: errors, color: terminal.usesColor) }
  }

  /// The line under a result at the prompt: `3 rows`, `no rows`,
  /// `1,000,000 rows (40 shown) · .maxrows 0 to show all`, `2 rows changed (new row ids 13…14)`.
  func summary(interrupted: Bool, pagerClosed: Bool = false) -> String? {
    var parts: [String] = []
    // A result streamed whole (`.maxrows 0`) counted its rows itself and left none out.
    let total = streamedCount > 0 ? streamedCount : rowCount
    let omitted = streamedCount > 0 ? 0 : omittedRows
    if interrupted && columns.isEmpty {
      parts.append("stopped (Ctrl-C)")
    } else if !columns.isEmpty {
      let count = total == 0 ? "no rows" : total == 1 ? "1 row" : "\(Self.grouped(total)) rows"
      if pagerClosed {
        parts.append("\(count) before the pager was closed")
      } else if interrupted {
        parts.append("stopped after \(count == "no rows" ? "0 rows" : count) (Ctrl-C)")
      } else if omitted > 0 {
        parts.append("\(count) (\(Self.grouped(total - omitted)) shown) · .maxrows 0 to show all")
      } else {
        parts.append(count)
      }
    }
    if let changeSummary { parts.append(changeSummary) }
    return parts.isEmpty ? nil : parts.joined(separator: " · ")
  }

  /// `1234567` as `1,234,567`.
  static func grouped(_ number: Int) -> String {
    let digits = String(number.magnitude)
    var out = ""
    for (index, digit) in digits.enumerated() {
      if index > 0 && (digits.count - index) % 3 == 0 { out.append(",") }
      out.append(digit)
    }
    return (number < 0 ? "-" : "") + out
  }

  override func warning(_ warning: StatementError) {
    output.flush()
    writeError(warning, to: errors, color: terminal.usesColor, label: "warning")
  }

  override func failure(input: String, error: StatementError) {
    output.flush()
    writeError(error, to: errors, color: terminal.usesColor)
  }

  /// At the prompt a declaration says what it declared (scripts stay quiet).
  override func declared(_ text: @autoclosure () -> String) {
    guard terminal.isInteractive else { return }
    output.write(text() + "\n")
    output.flush()
  }

  /// Remarks get colour on a terminal: a ✓ line green, a ✗ line red.
  override func note(_ text: String) {
    guard terminal.usesColor, let first = text.split(separator: "\n", omittingEmptySubsequences: false).first else {
      return super.note(text)
    }
    let color = first.hasPrefix("✓") ? "\u{1B}[32m" : first.hasPrefix("✗") ? "\u{1B}[31m" : ""
    let rest = text.dropFirst(first.count)
    super.note(color.isEmpty ? text : color + first + "\u{1B}[0m" + rest)
  }

  /// SQL and results side by side when both fit the width (long SQL lines wrapped after commas
  /// to make room, down to ``narrowestSQL`` columns), else stacked, the SQL wrapped to the width.
  static func layout(sql: String, results: String, terminal: Terminal) -> String {
    // A tab (in an inlined string) would jump to the terminal's next tab stop and push the
    // results out of line: it is spaced out as the terminal would show it.
    var sqlLines = sql.split(separator: "\n", omittingEmptySubsequences: false)
      .map { $0.contains("\t") ? String($0).replacing("\t", with: "    ") : String($0) }
    // Blank lines inside the results stay (they part `.mode line` records); the last newline ends it.
    var resultLines = results.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    while resultLines.last?.isEmpty == true { resultLines.removeLast() }
    let resultWidth = resultLines.map { TerminalWidth.of($0) }.max() ?? 0
    let usesColor = terminal.usesColor
    func paint(_ line: String) -> String { usesColor ? SQLHighlighter.highlight(line) : line }
    func stacked() -> String {
      let lines = terminal.isInteractive ? SQLWrapping.wrap(sqlLines, width: terminal.width) : sqlLines
      return lines.map { paint($0) }.joined(separator: "\n") + "\n" + (results.isEmpty ? "" : results)
    }
    guard terminal.isInteractive, !resultLines.isEmpty else { return stacked() }
    let room = terminal.width - 3 - resultWidth
    guard room >= min(narrowestSQL, sqlLines.map { TerminalWidth.of($0) }.max() ?? 0) else { return stacked() }
    sqlLines = SQLWrapping.wrap(sqlLines, width: room)
    let sqlWidth = sqlLines.map { TerminalWidth.of($0) }.max() ?? 0
    if sqlWidth > room { return stacked() }
    let height = max(sqlLines.count, resultLines.count)
    var out = ""
    for index in 0..<height {
      let left = index < sqlLines.count ? sqlLines[index] : ""
      let right = index < resultLines.count ? resultLines[index] : ""
      out += paint(left) + String(repeating: " ", count: sqlWidth - TerminalWidth.of(left)) + " │ " + right + "\n"
    }
    return out
  }

  /// Side by side only when the SQL keeps at least this many columns.
  static let narrowestSQL = 40
}

/// Long SQL lines broken after the commas between columns or arguments, never inside a quoted
/// name or string; continuation lines are indented two spaces, so the text stays valid SQL.
///
/// ```
/// SELECT "reminders"."id", "reminders"."title",
///   "reminders"."notes"
/// ```
enum SQLWrapping {
  static func wrap(_ lines: [String], width: Int) -> [String] {
    lines.flatMap { wrap($0, width: width) }
  }

  static func wrap(_ line: String, width: Int) -> [String] {
    guard TerminalWidth.of(line) > width else { return [line] }
    let pieces = commaSeparatedPieces(line)
    var result: [String] = []
    var current = ""
    for piece in pieces {
      let candidate = current + piece
      if !current.isEmpty, TerminalWidth.of(candidate.trimmingTrailingSpaces) > width {
        result.append(current.trimmingTrailingSpaces)
        current = "  " + piece
      } else {
        current = candidate
      }
    }
    if !current.isEmpty { result.append(current) }
    return result
  }

  /// The line cut after each `, ` that is outside quotes; joined, the pieces are the line.
  private static func commaSeparatedPieces(_ line: String) -> [String] {
    var pieces: [String] = []
    var current = ""
    var quote: Character?
    var previous: Character?
    for character in line {
      current.append(character)
      if let open = quote {
        if character == open { quote = nil }
      } else if character == "'" || character == "\"" || character == "`" {
        quote = character
      } else if character == " ", previous == "," {
        pieces.append(current)
        current = ""
      }
      previous = character
    }
    if !current.isEmpty { pieces.append(current) }
    return pieces
  }
}

extension String {
  fileprivate var trimmingTrailingSpaces: String {
    var copy = self
    while copy.last == " " { copy.removeLast() }
    return copy
  }
}

/// `.mode swift`: each row as a Swift value, the way StructuredQueries' test dumps read.
///
/// ```
/// Tag(id: 1, title: "errand")
/// ```
final class SwiftValueFormatter: ResultSink {
  let output: OutputStream
  let errors: OutputStream
  unowned let session: Session
  let showSQL: Bool
  private var columns: [String] = []
  private var types: [SwiftType?] = []
  private var typeName: String?

  init(output: OutputStream, session: Session, showSQL: Bool, errors: OutputStream) {
    self.output = output
    self.session = session
    self.showSQL = showSQL
    self.errors = errors
  }

  func begin(input: String, sql: String, bindings: [QueryBinding], columns: [String], types: [SwiftType?]) {
    if showSQL { output.write(sql + "\n") }
    self.columns = columns
    self.types = types
    // A whole row of one table prints as that type.
    typeName =
      session.catalog.tables.values.first { model in
        !model.isSelection && model.columns.map(\.sqlName) == columns
      }?.typeName
  }

  func row(_ statement: PreparedStatement) {
    let values = (0..<statement.columnCount).map { index in
      Self.swiftLiteral(statement.value(at: index), type: index < types.count ? types[index] : nil, session: session)
    }
    if let typeName {
      let fields = zip(session.catalog.table(forType: typeName)?.columns.map(\.name) ?? columns, values)
      output.write(typeName + "(" + fields.map { "\($0): \($1)" }.joined(separator: ", ") + ")\n")
    } else if values.count == 1 {
      output.write(values[0] + "\n")
    } else {
      output.write("(" + values.joined(separator: ", ") + ")\n")
    }
  }

  func end(error: StatementError?) {
    output.flush()
    if let error { writeError(error, to: errors) }
  }

  func failure(input: String, error: StatementError) {
    writeError(error, to: errors)
  }

  func warning(_ warning: StatementError) {
    writeError(warning, to: errors, label: "warning")
  }

  static func swiftLiteral(_ value: DatabaseValue, type: SwiftType?, session: Session) -> String {
    switch value {
    case .null: return "nil"
    case .parameter(let name): return name
    case .text(let text):
      if let type, session.catalog.enums[type.name] != nil { return session.display(value, type: type) }
      return JSONFormatter.string(text)
    case .integer:
      return session.display(value, type: type)
    case .double(let number): return "\(number)"
    case .blob(let bytes): return "[" + bytes.map(String.init).joined(separator: ", ") + "]"
    }
  }
}

/// The side-by-side layout, for tests and other front ends.
public enum ReplFormatterLayout {
  public static func layout(sql: String, results: String, width: Int) -> String {
    ReplFormatter.layout(sql: sql, results: results, terminal: Terminal(width: width, isInteractive: true))
  }
}
