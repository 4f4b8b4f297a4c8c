import FoundationEssentials
import QuarryEngine
import QueryBuilder

/// Lessons at the prompt: `.lesson N`, `.next`, `.prev`, `.hint`, `.check`, `.solution`,
/// `.diagram`, `.tree`. Each lesson runs on an in-memory copy of its fixture; files on disk are
/// never touched.
public final class Tutor {
  /// The lesson files, in order; found when first needed, so the prompt does not wait for them.
  public private(set) lazy var lessons: [String] = findLessons()
  private let findLessons: () -> [String]
  public private(set) var lesson: Lesson?
  public private(set) var stepIndex = 0
  private var hintsShown = 0
  private var solutionRequested = false
  let progress: Progress

  public init(lessons: [String], progress: Progress = Progress()) {
    self.findLessons = { lessons }
    self.progress = progress
  }

  /// The tutor for the lessons in `lessons/` (or `$QUARRY_LESSONS`).
  public init(progress: Progress = Progress()) {
    self.findLessons = { Lesson.directory().map { Lesson.all(in: $0) } ?? [] }
    self.progress = progress
  }

  /// Adds the lesson commands to a shell (when its commands are first read), which keeps this
  /// tutor for as long as it lives.
  public func install(in shell: Shell) {
    shell.registerWhenNeeded { shell in self.register(in: shell) }
  }

  private func register(in shell: Shell) {
    let commands = [
      MetaCommand(usage: ".lesson N", summary: "Open lesson N (.lesson alone lists them)") { shell, argument in
        self.open(argument, shell: shell)
      },
      MetaCommand.invoked(
        usage: ".next / .prev", summary: "Move between the steps of the lesson", aliases: [".prev"],
        perform: { shell, call in
          self.move(call.name == ".prev" ? -1 : 1, shell: shell)
          return .proceed
        }),
      MetaCommand(usage: ".hint", summary: "A hint for this exercise") { shell, _ in self.hint(shell: shell) },
      MetaCommand(usage: ".check", summary: "Check your last query (or .check QUERY) against this exercise") { shell, argument in
        self.check(shell: shell, answer: argument)
      },
      MetaCommand(usage: ".solution", summary: "Show the reference solution (asks first)") { shell, _ in self.solution(shell: shell) },
      MetaCommand(usage: ".diagram", summary: "Draw the tables and their foreign keys") { shell, _ in
        shell.output.write(Diagram.draw(try? shell.session.database.schema()))
      },
      MetaCommand(usage: ".tree", summary: "Draw the last result as a tree from its id and parent columns (or its depth)") { shell, _ in
        Tutor.tree(shell: shell)
      },
    ]
    for command in commands { shell.register(command) }
  }

  /// The lesson list with progress: `  1. Basics  (2/4)`.
  public func listing() -> String {
    var out = ""
    for (index, path) in lessons.enumerated() {
      guard let lesson = try? Lesson.load(path: path) else { continue }
      let done = progress.solvedCount(in: lesson)
      let total = lesson.exercises.count
      let mark = done == total && total > 0 ? "✓" : " "
      out += "\(mark) \(index + 1 < 10 ? " " : "")\(index + 1). \(lesson.title)  (\(done)/\(total))\n"
    }
    return out
  }

  public func open(_ argument: String, shell: Shell) {
    guard !lessons.isEmpty else {
      shell.fail("cannot find the lessons folder; set QUARRY_LESSONS to its path")
      return
    }
    guard let number = Int(argument), number >= 1, number <= lessons.count else {
      if !argument.isEmpty { shell.fail("no lesson '\(argument)'; there are \(lessons.count)") }
      shell.output.write(listing())
      return
    }
    do {
      let lesson = try Lesson.load(path: lessons[number - 1])
      self.lesson = lesson
      stepIndex = 0
      // A lesson begun before reopens at its first unsolved exercise.
      let solved = progress.solvedCount(in: lesson)
      if solved > 0, solved < lesson.exercises.count,
        let first = lesson.steps.firstIndex(where: { $0.exercise.map { !progress.isSolved($0, in: lesson) } ?? false })
      {
        stepIndex = first
      }
      shell.handle(".fixture \(lesson.fixture)")
      if stepIndex > 0 {
        shell.output.write(
          "(\(solved) of \(lesson.exercises.count) exercises solved: reopened at the first unsolved one; .prev goes back)\n")
      }
      show(shell: shell)
    } catch { shell.fail("\(error)") }
  }

  var step: Lesson.Step? {
    guard let lesson, stepIndex < lesson.steps.count else { return nil }
    return lesson.steps[stepIndex]
  }

  func show(shell: Shell) {
    guard let lesson, let step else { return }
    hintsShown = 0
    solutionRequested = false
    let header = "── \(lesson.title) · step \(stepIndex + 1)/\(lesson.steps.count): \(step.title) ──"
    shell.output.write(
      "\n" + header + "\n" + TerminalMarkdown.render(step.text, color: shell.terminal.usesColor, width: shell.terminal.width))
    if let exercise = step.exercise {
      let solved = progress.isSolved(exercise, in: lesson) ? " (solved)" : ""
      shell.output.write("Exercise\(solved): write your query, then .check (.hint helps).\n")
    } else {
      shell.output.write("Try the examples, then .next.\n")
    }
  }

  func move(_ delta: Int, shell: Shell) {
    guard let lesson else {
      shell.fail("no lesson open; .lesson N opens one")
      return
    }
    let target = stepIndex + delta
    guard target >= 0, target < lesson.steps.count else {
      shell.output.write(delta > 0 ? "This is the last step. .lesson lists the lessons.\n" : "This is the first step.\n")
      return
    }
    stepIndex = target
    show(shell: shell)
  }

  func currentExercise(shell: Shell) -> Exercise? {
    guard lesson != nil else {
      shell.fail("no lesson open; .lesson N opens one")
      return nil
    }
    guard let exercise = step?.exercise else {
      shell.fail("this step has no exercise; .next moves on")
      return nil
    }
    return exercise
  }

  func hint(shell: Shell) {
    guard let exercise = currentExercise(shell: shell) else { return }
    defer { hintsShown += 1 }
    if hintsShown < exercise.hints.count {
      shell.output.write("Hint: \(exercise.hints[hintsShown])\n")
    } else if hintsShown == exercise.hints.count, let outline = Self.outline(of: exercise.solution) {
      // More specific than the written hints, short of the solution: its shape, arguments left out.
      shell.output.write("Hint: the solution's outline (fill in the …): \(outline)\n")
    } else {
      shell.output.write("No more hints: .solution shows the solution.\n")
    }
  }

  /// A solution's shape with what goes inside left out: the calls of a DSL chain
  /// (`Tag · join(…) { … } · where { … } · select(…)`), or an SQL statement's clauses
  /// (`SELECT … FROM … WHERE …`). Nil when it has no shape to show.
  static func outline(of solution: String) -> String? {
    let parts = ScriptSplitter.inputs(of: solution, isMetaCommand: { _ in false }).map(\.text)
    let outlines = parts.compactMap { part -> String? in
      let text = part.trimmingScalars(in: .whitespacesAndNewlines)
      if text.hasPrefix("@") || ["struct ", "enum ", "extension ", "let ", "var ", "func "].contains(where: text.hasPrefix) { return nil }
      return SQLDetector.startsWithSQLKeyword(text) ? outline(sql: text) : outline(chain: text)
    }
    return outlines.isEmpty ? nil : outlines.joined(separator: "; ")
  }

  private static let sqlKeywords: Set<String> = [
    "SELECT", "DISTINCT", "FROM", "JOIN", "LEFT", "INNER", "CROSS", "ON", "WHERE", "GROUP", "BY", "HAVING", "ORDER", "LIMIT", "OFFSET",
    "UNION", "ALL", "INTERSECT", "EXCEPT", "WITH", "RECURSIVE", "AS", "INSERT", "INTO", "VALUES", "UPDATE", "SET", "DELETE", "CREATE",
    "TABLE", "VIEW", "INDEX", "TRIGGER", "BEGIN", "END", "COMMIT", "ROLLBACK", "EXPLAIN", "QUERY", "PLAN", "CASE", "WHEN", "THEN",
    "ELSE", "OVER", "PARTITION", "INSTEAD", "OF", "AFTER", "BEFORE", "FOR", "EACH", "ROW",
  ]

  /// `SELECT … FROM … WHERE …`: the keywords outside parentheses and strings.
  private static func outline(sql: String) -> String {
    var out: [String] = []
    var depth = 0
    var quote: Character?
    var word = ""
    func flush() {
      defer { word = "" }
      guard !word.isEmpty, depth == 0 else { return }
      if sqlKeywords.contains(word.uppercased()) { out.append(word.uppercased()) } else if out.last != "…" { out.append("…") }
    }
    for character in sql {
      if let open = quote {
        if character == open { quote = nil }
        continue
      }
      if character == "'" || character == "\"" {
        flush()
        quote = character
        if depth == 0, out.last != "…" { out.append("…") }
        continue
      }
      if character == "(" {
        flush()
        if depth == 0, out.last != "…" { out.append("…") }
        depth += 1
        continue
      }
      if character == ")" {
        flush()
        depth = max(0, depth - 1)
        continue
      }
      if character.isLetter || character.isNumber || character == "_" { word.append(character) } else { flush() }
    }
    flush()
    return out.joined(separator: " ")
  }

  /// `Tag · join(…) { … } · where { … }`: a chain's calls, their arguments and closures left out.
  private static func outline(chain: String) -> String {
    var out = ""
    var depth = 0
    var quote: Character?
    var word = ""
    func flush() {
      defer { word = "" }
      guard !word.isEmpty, depth == 0 else { return }
      if word.hasPrefix(".") { out += " · " + word.dropFirst() } else if out.isEmpty { out = word }
    }
    for character in chain {
      if let open = quote {
        if character == open { quote = nil }
        continue
      }
      switch character {
      case "\"":
        flush()
        quote = character
      case "(", "{", "[":
        flush()
        if depth == 0 { out += character == "{" ? " { … }" : character == "(" ? "(…)" : "[…]" }
        depth += 1
      case ")", "}", "]":
        flush()
        depth = max(0, depth - 1)
      case ".":
        flush()
        word = "."
      default:
        if character.isLetter || character.isNumber || character == "_" || character == "$" || character == "\\" {
          word.append(character)
        } else {
          flush()
        }
      }
    }
    flush()
    return out
  }

  /// `.check` checks the last input; `.check ANSWER` checks ANSWER (DSL or SQL) instead.
  func check(shell: Shell, answer given: String = "") {
    guard let lesson, let exercise = currentExercise(shell: shell) else { return }
    let written = given.trimmingScalars(in: .whitespacesAndNewlines)
    guard let answer = written.isEmpty ? shell.lastInput : written else {
      shell.fail("write a query first, then .check (or .check QUERY)")
      return
    }
    // Declarations made at the prompt (other than the answer itself) are the answer's context.
    let context = shell.declarationInputs.filter { $0 != answer }
    do {
      switch try AnswerChecker().check(answer, against: exercise, fixture: lesson.fixture, context: context) {
      case .correct:
        progress.markSolved(exercise, in: lesson)
        shell.output.write("✓ Correct — on the fixture, the variant rows and generated rows. .next to go on.\n")
        if SQLDetector.startsWithSQLKeyword(answer) {
          // An answer in SQL: its DSL spelling is a `.dsl` away.
          shell.lastCheckedSQL = answer
          shell.output.write("  .dsl shows your SQL spelled in the StructuredQueries DSL.\n")
        }
      case .wrong(let why):
        shell.output.write("✗ Not yet: \(why)\n")
      }
    } catch { shell.fail("\(error)") }
  }

  func solution(shell: Shell) {
    guard let exercise = currentExercise(shell: shell) else { return }
    if !solutionRequested {
      solutionRequested = true
      shell.output.write("Show the solution? Type .solution again to see it (.hint gives a nudge instead).\n")
      return
    }
    shell.output.write(exercise.solution + "\n")
  }

  /// The last query's rows indented by their `depth` (or `level`) column.
  /// `.tree`: the last result (never run again: it may have been a write) as a tree.
  static func tree(shell: Shell) {
    let result = shell.lastResult
    guard !result.columns.isEmpty else {
      shell.fail("run a query first: .tree draws the last result")
      return
    }
    switch ResultTree.draw(columns: result.columns, rows: result.rows, display: { shell.session.display($0, type: nil) }) {
    case .success(let text):
      shell.output.write(text)
      if result.truncated { shell.output.write("(the first \(LastResult.limit) rows)\n") }
    case .failure:
      shell.fail("the last result has no id and parent columns (such as id and managerID) and no depth column to draw a tree from")
    }
  }
}

/// Lesson text for the terminal: headings and code set off, Markdown marks removed, prose
/// re-flowed to the terminal's width (at most 100 columns), tables drawn as boxes when they fit
/// and as one block per row when they do not (never cut mid-word); code as written.
///
/// ```swift
/// TerminalMarkdown.render("A `NULL` means\n*unknown*.", color: false, width: 12)
/// // "A NULL means\nunknown.\n"
/// ```
enum TerminalMarkdown {
  static func render(_ text: String, color: Bool, width: Int = 100) -> String {
    let measure = max(30, min(width, 100))
    var out = ""
    var inCode = false
    var paragraph: [Substring] = []
    func flush() {
      guard !paragraph.isEmpty else { return }
      let words = paragraph.joined(separator: " ").split(separator: " ")
      let hanging = paragraph.first?.hasPrefix("- ") == true ? "  " : ""
      var line = ""
      for word in words {
        if !line.isEmpty, line.count + 1 + word.count > measure {
          out += line + "\n"
          line = hanging
        }
        line += (line.isEmpty || line == hanging ? "" : " ") + word
      }
      if !line.isEmpty { out += line + "\n" }
      paragraph = []
    }
    var table: [Substring] = []
    func flushTable() {
      guard !table.isEmpty else { return }
      out += renderTable(table, width: measure)
      table = []
    }
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if !inCode, line.hasPrefix("|") {
        flush()
        table.append(line)
        continue
      }
      flushTable()
      if line.hasPrefix("```") {
        flush()
        inCode.toggle()
        continue
      }
      if inCode {
        out += (color ? "\u{1B}[36m    " : "    ") + line + (color ? "\u{1B}[0m" : "") + "\n"
      } else if line.hasPrefix("#") {
        flush()
        let title = line.drop { $0 == "#" || $0 == " " }
        out += (color ? "\u{1B}[1m" : "") + title + (color ? "\u{1B}[0m" : "") + "\n"
      } else if line.allSatisfy(\.isWhitespace) || line.hasPrefix("    ") {
        flush()
        out += plain(line) + "\n"
      } else {
        if line.hasPrefix("- ") { flush() }
        paragraph.append(Substring(plain(line)))
      }
    }
    flush()
    flushTable()
    while out.hasSuffix("\n\n") { out.removeLast() }
    return out
  }

  /// A Markdown table: boxed when it fits `width`; otherwise each row as `header: value` lines,
  /// values wrapped at spaces under their header.
  ///
  /// ```
  /// | DSL | SQL |        ┌──────────────┬──────────┐
  /// | --- | --- |   →    │ DSL          │ SQL      │
  /// | `$0.count()` | `count(id)` |   ├──────────────┼──────────┤ …
  /// ```
  static func renderTable(_ lines: [Substring], width: Int) -> String {
    var rows: [[String]] = []
    for line in lines {
      var cells: [String] = []
      var current = ""
      var escaped = false
      for character in line.dropFirst() {
        if escaped {
          current.append(character)
          escaped = false
          continue
        }
        if character == "\\" {
          escaped = true
          continue
        }
        if character == "|" {
          cells.append(plain(current.trimmingScalars(in: .whitespaces)))
          current = ""
          continue
        }
        current.append(character)
      }
      if !current.trimmingScalars(in: .whitespaces).isEmpty { cells.append(plain(current.trimmingScalars(in: .whitespaces))) }
      // The `| --- | :-: |` line under the header.
      if !cells.isEmpty, cells.allSatisfy({ !$0.isEmpty && $0.allSatisfy { "-: ".contains($0) } }) { continue }
      rows.append(cells)
    }
    guard let header = rows.first else { return "" }
    let columns = rows.map(\.count).max() ?? 0
    rows = rows.map { $0 + Array(repeating: "", count: columns - $0.count) }
    let widths = (0..<columns).map { column in rows.map { TerminalWidth.of($0[column]) }.max() ?? 0 }
    if widths.reduce(0, +) + 3 * columns + 1 <= width {
      func rule(_ left: String, _ middle: String, _ right: String) -> String {
        left + widths.map { String(repeating: "─", count: $0 + 2) }.joined(separator: middle) + right + "\n"
      }
      var out = rule("┌", "┬", "┐")
      for (index, row) in rows.enumerated() {
        out += "│ " + zip(row, widths).map { TerminalWidth.pad($0, to: $1) }.joined(separator: " │ ") + " │\n"
        if index == 0 { out += rule("├", "┼", "┤") }
      }
      return out + rule("└", "┴", "┘")
    }
    // Too wide: a block per row, each value under its header, wrapped at spaces.
    var out = ""
    for (index, row) in rows.dropFirst().enumerated() {
      if index > 0 { out += "\n" }
      for (name, value) in zip(header + Array(repeating: "", count: columns - header.count), row) where !value.isEmpty {
        let label = name.isEmpty ? "" : name + ": "
        var line = label
        let indent = String(repeating: " ", count: min(TerminalWidth.of(label), width / 3))
        for word in value.split(separator: " ") {
          if TerminalWidth.of(line) > TerminalWidth.of(label), TerminalWidth.of(line) + 1 + TerminalWidth.of(String(word)) > width {
            out += line + "\n"
            line = indent
          }
          line += (line.hasSuffix(" ") || line.isEmpty ? "" : " ") + word
        }
        out += line + "\n"
      }
    }
    return out
  }

  private static func plain<S: StringProtocol>(_ line: S) -> String {
    // `*emphasis*` loses its stars; a star inside code (`count(*)`, `ca*`) keeps its place.
    let text = Array(String(line).replacing("**", with: "").replacing("`", with: ""))
    func isWord(_ index: Int) -> Bool {
      text.indices.contains(index) && (text[index].isLetter || text[index].isNumber || text[index] == "_")
    }
    func isOneOf(_ index: Int, _ set: String) -> Bool { text.indices.contains(index) && set.contains(text[index]) }
    var out = ""
    for (index, character) in text.enumerated() {
      let opens = !isWord(index - 1) && !isOneOf(index - 1, "(") && isWord(index + 1)
      let closes = isWord(index - 1) && !isWord(index + 1) && !isOneOf(index + 1, ")]")
      if character == "*", opens || closes { continue }
      out.append(character)
    }
    return out
  }
}

/// The fixture's tables and foreign keys, drawn as boxes.
///
/// ```
/// ┌─ employees ───────────┐
/// │ id             PK     │
/// │ managerID      → employees.id
/// ```
enum Diagram {
  static func draw(_ schema: DatabaseSchema?) -> String {
    guard let schema else { return "" }
    var out = ""
    for table in schema.tables where !table.isTemporary || table.kind == .view {
      let lines = table.columns.map { column -> String in
        var note = column.primaryKeyIndex > 0 ? "PK" : ""
        if let key = table.foreignKeys.first(where: { $0.fromColumn == column.name }) {
          note = "→ \(key.table).\(key.toColumn ?? "rowid")"
        }
        return column.name + String(repeating: " ", count: max(0, 16 - column.name.count)) + " " + note
      }
      let title = table.name + (table.kind == .view ? " (view)" : "")
      let width = max(title.count + 4, (lines.map { TerminalWidth.of($0) }.max() ?? 0) + 2)
      out += "┌─ " + title + " " + String(repeating: "─", count: max(0, width - title.count - 3)) + "┐\n"
      for line in lines { out += "│ " + TerminalWidth.pad(line, to: width - 2) + " │\n" }
      out += "└" + String(repeating: "─", count: width) + "┘\n"
    }
    return out
  }
}
