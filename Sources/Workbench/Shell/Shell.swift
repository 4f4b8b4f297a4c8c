import Dispatch
import FoundationEssentials
import Glibc
import QuarryDSL
import QuarryEngine
import QueryBuilder

/// The prompt's interpreter: runs DSL, plain SQL and meta-commands (`.help`, `.schema`, `.mode`,
/// …), with output settings that persist across inputs. The terminal loop (libedit) lives in the
/// executable; everything here can run, and be tested, without a terminal.
///
/// ```swift
/// let shell = Shell(session: try .fixture("reminders"), output: .capturing())
/// shell.handle(".tables")
/// ```
public final class Shell {
  public private(set) var session: Session {
    didSet { declarationInputs = [] }
  }
  /// Inputs typed since the session began that declared something (a model, an alias, a
  /// `let`): a lesson's `.check` runs them before the answer, as they ran for the learner.
  public private(set) var declarationInputs: [String] = []
  public var format: OutputFormat
  public var showSQL = true
  public var showHeaders = true
  public var timer = false
  public var wrap = false
  public var swiftMode = false
  /// `.maxrows N`: how many rows a result shows at the prompt (the first and the last);
  /// 0 shows all; nil fits the terminal.
  public var maxRows: Int?
  /// `.nullvalue TEXT`: how NULL shows in result tables (as in sqlite3).
  public var nullValue: String?
  public var terminal: Terminal
  /// The pager and the editor, from the executable (nil: output is written as it is).
  public var terminalServices: TerminalServices?
  /// Where `.edit` puts the edited text at the prompt (the edit buffer, to review and run);
  /// nil runs it at once (scripts).
  public var editedInput: ((String) -> Void)?
  /// Where results go: stdout, or a file after `.output FILE` / for one input after `.once FILE`.
  public let standardOutput: OutputStream
  private var redirected: OutputStream?
  private var redirectedFile: Int32?
  private var redirectedPath: String?
  private var onceOnly = false
  public private(set) var lastInput: String?
  /// Tables created at this prompt (their rows, inserted here, are set-up too).
  private var createdTables: Set<String> = []
  /// The last result shown (its first rows), for `.tree`.
  public let lastResult = LastResult()
  /// The fixture this session was loaded from (for `.reset`).
  public private(set) var fixtureName: String?
  let namedQueries: NamedQueries
  /// Called whenever the database changes (`.open`, `.fixture`, `.reset`), e.g. to re-arm Ctrl-C.
  public var onDatabaseChange: ((Database) -> Void)?
  /// Called when the catalog is replaced (`.fixture`, `.reset`), e.g. to update completion.
  public var onCatalogChange: ((Catalog) -> Void)?
  /// Notes failures for the exit status of a script.
  public var failureTracker: FailureTracker?
  /// Where errors go: the screen at the prompt; stderr for scripts, so stdout stays data.
  public var errorOutput: OutputStream?
  /// The registered meta-commands, the data commands (`.dump`, `.import`, …) first: made when
  /// first read, so a script that runs no meta-command (`quarry db -e …`) never builds them.
  var registered: RegisteredCommands {
    get { registry ?? makeRegistry() }
    set { registry = newValue }
  }
  private var registry: RegisteredCommands?
  private var deferredRegistrations: [(Shell) -> Void] = []

  /// Registers commands when the shell's commands are first read (`Tutor.install`).
  public func registerWhenNeeded(_ register: @escaping (Shell) -> Void) {
    if registry == nil { deferredRegistrations.append(register) } else { register(self) }
  }

  private func makeRegistry() -> RegisteredCommands {
    var commands = RegisteredCommands()
    for command in DataCommands.all + SystemCommands.all { commands.add(command) }
    registry = commands
    let deferred = deferredRegistrations
    deferredRegistrations = []
    for register in deferred { register(self) }
    return registry ?? commands
  }

  public enum Outcome { case proceed, quit }

  /// `--readonly`: every database this shell opens is opened read-only.
  public var readOnly = false
  /// `--safe`: nothing the input does reaches the file system or another database (see
  /// ``MetaCommand/reachesFiles`` and ``Shell/safeConfinement``).
  public var safe = false {
    didSet { if safe { session.database.confine(Self.safeConfinement) } }
  }
  /// What SQL may not do in `--safe` mode.
  public static let safeConfinement = Confinement(reason: "--safe keeps SQL to the session's own database")

  public init(
    session: Session, fixtureName: String? = nil, format: OutputFormat = .box, output: OutputStream = .standardOutput,
    terminal: Terminal = Terminal()
  ) {
    self.session = session
    self.fixtureName = fixtureName
    self.format = format
    jsonStream = format == .json
    self.standardOutput = output
    self.terminal = terminal
    self.namedQueries = NamedQueries(path: Shell.stateDirectory + "/queries.json")
  }

  /// `$XDG_STATE_HOME/quarry` (default `~/.local/state/quarry`).
  public static var stateDirectory: String {
    let state =
      environmentValue("XDG_STATE_HOME")
      ?? (homeDirectory() + "/.local/state")
    return state + "/quarry"
  }

  public var output: OutputStream { commandCapture ?? redirected ?? standardOutput }

  /// With `--format json`, a meta-command's output is collected here and printed as one JSON
  /// object, so a reader of JSON lines never meets plain text.
  private var commandCapture: OutputStream?
  private var commandError: String?

  /// Whether results are JSON lines (then so are meta-command output and errors).
  private var speaksJSON: Bool { jsonStream && format == .json && !swiftMode }

  /// Whether the session began as a stream of JSON lines (`--format json`): then every line it
  /// prints stays one JSON object, whatever `.mode` or `.timer` say. `.mode json` typed at the
  /// prompt changes results only; meta-commands still answer in plain text.
  public let jsonStream: Bool

  public var commandNames: [String] { metaCommands.flatMap(\.names) }

  /// What Tab offers after each meta-command that takes a known set of arguments. A command
  /// whose usage line names a TABLE (`.dump [TABLE…]`, `.import FILE TABLE`) offers the
  /// database's tables, read off that line: the help and the completion are one declaration.
  public var argumentCandidates: [String: () -> [String]] {
    let tables: () -> [String] = { [weak self] in (try? self?.session.database.schema().tables.map(\.name)) ?? [] }
    var candidates: [String: () -> [String]] = [:]
    for command in metaCommands {
      if let arguments = command.arguments {
        for name in command.names { candidates[name] = { [weak self] in self.map(arguments) ?? [] } }
      } else if command.usage.split(separator: " ").dropFirst().contains(where: {
        $0.trimmingScalars(in: ScalarSet(charactersIn: "[]…")) == "TABLE"
      }) {
        for name in command.names { candidates[name] = tables }
      }
    }
    return candidates
  }

  public func isMetaCommand(_ line: String) -> Bool {
    commandNames.contains(String(line.prefix { !$0.isWhitespace }))
  }

  public var helpText: String {
    // `.quit` last, after the registered commands.
    let all = Self.builtIns.filter { $0.name != ".quit" } + registered.commands + Self.builtIns.filter { $0.name == ".quit" }
    let width = all.map(\.usage.count).max() ?? 0
    return all.map { $0.usage + String(repeating: " ", count: width - $0.usage.count + 2) + $0.summary }.joined(separator: "\n") + "\n"
  }

  /// Runs one complete input: a meta-command, plain SQL, or DSL.
  @discardableResult
  public func handle(_ input: String, line: Int = 1) -> Outcome {
    inputsHandled += 1
    lineOffset = line - 1
    defer { lineOffset = 0 }
    let trimmed = input.trimmedWhitespace
    guard !trimmed.isEmpty else { return .proceed }
    // Only SQL comments (`-- …`, `/* … */`): nothing to run, as in sqlite3.
    if trimmed.hasPrefix("--") || trimmed.hasPrefix("/*"), SQLDetector.withoutLeadingSQLComments(Substring(trimmed)).isEmpty {
      return .proceed
    }
    let start = DispatchTime.now().uptimeNanoseconds
    let isCommand = trimmed.hasPrefix(".") && trimmed.dropFirst().first?.isLetter == true
    defer {
      if timer && !isCommand {
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        if speaksJSON {
          output.write("{\"input\":" + JSONFormatter.string(input) + cFormat(",\"runTime\":%.4f}\n", seconds))
        } else {
          output.write(cFormat("Run Time: %.4f s\n", seconds))
        }
      }
      output.flush()
      // A write that failed (a full disk, `/dev/full`, a closed pipe) is said, never dropped:
      // the output goes to the screen again.
      if let redirected, let problem = redirected.writeErrorDescription {
        let path = redirectedPath ?? "the output file"
        endRedirection()
        fail("cannot write to '\(path)': \(problem); output goes to the screen again")
      } else if onceOnly && !trimmed.hasPrefix(".once") {
        endRedirection()
      }
    }
    if isCommand {
      guard isMetaCommand(trimmed) else {
        // `.frobnicate`: not a command, and never a query on its own.
        let word = "." + trimmed.dropFirst().prefix { $0.isLetter || $0.isNumber || $0 == "_" }
        let after = trimmed.dropFirst(word.count).first { $0 != " " }
        if let after, after == "(" || after == "{" || after == "." {
          // `.where { … }`, `.order(by: \.title)`: a piece of a query, not a command.
          let table = session.catalog.tableOrder.first { session.catalog.tables[$0]?.isSelection == false } ?? "Reminder"
          fail(
            "'\(word)' is not a command: a query starts from a table (\(table)\(word)…); to continue the query before it, end that line with '.' or wrap the whole query in parentheses"
          )
          return .proceed
        }
        let name = String(trimmed.prefix { !$0.isWhitespace })
        let suggestion = closestMatch(to: name, in: commandNames)
        fail("unknown command '\(name)'" + (suggestion.map { "; did you mean '\($0)'?" } ?? "; .help lists the commands"))
        return .proceed
      }
      let name = String(trimmed.prefix { !$0.isWhitespace })
      // A command another one runs (`.lesson 1` loads its fixture) writes into that one's object.
      guard speaksJSON, commandCapture == nil, metaCommand(named: name)?.runsInputs != true else { return command(trimmed) }
      let capture = OutputStream.capturing()
      commandCapture = capture
      commandError = nil
      let outcome = command(trimmed)
      commandCapture = nil
      let error = commandError.map { JSONFormatter.error(StatementError(message: $0, line: lineOffset + 1, column: 1)) }
      output.write(
        "{\"command\":" + JSONFormatter.string(trimmed) + ",\"output\":" + JSONFormatter.string(capture.text)
          + ",\"error\":" + (error ?? "null") + "}\n")
      output.flush()
      return outcome
    }
    if let parts = ScriptSplitter.mixedParts(of: input) {
      // Plain SQL statements and DSL in one paste: each part in turn, as a script would.
      let offset = lineOffset
      for part in parts { handle(part.text, line: offset + part.line) }
      lastInput = input
      return .proceed
    }
    lastInput = input
    if SQLDetector.startsWithSQLKeyword(trimmed) {
      session.runSQL(trimmed, sink: sink())
      if SchemaSetUp.record(trimmed, createdTables: &createdTables) { declarationInputs.append(trimmed) }
    } else if let miss = SQLDetector.misspelledKeyword(in: input), !session.catalog.knows(miss.word) {
      // `SELEC 1;` is neither SQL nor Swift: one error, and nothing runs.
      let place = SourceLocation(byteOffset: miss.offset, in: input)
      sink().failure(
        input: input,
        error: StatementError(
          message: "'\(miss.word)' is not an SQL keyword or a name Quarry knows; did you mean \(miss.keyword)? (nothing ran)",
          line: place.line, column: place.column, excerpt: place.excerpt))
    } else {
      session.run(input, sink: sink())
      if session.lastInputDeclared { declarationInputs.append(input) }
    }
    return .proceed
  }

  /// Lines before the input being handled (in the script it came from).
  private var lineOffset = 0

  /// The sink for the current settings.
  public func sink() -> ResultSink {
    let base = LastResultSink(formatSink(), store: lastResult)
    return lineOffset == 0 ? base : LineOffsetSink(base, lines: lineOffset)
  }

  private func formatSink() -> ResultSink {
    // Errors always reach the screen, never a file `.output` points at.
    let errors = errorOutput ?? standardOutput
    let base: ResultSink
    if swiftMode {
      base = SwiftValueFormatter(output: output, session: session, showSQL: showSQL, errors: errors)
    } else {
      switch format {
      case .csv: base = CSVFormatter(output: output, errors: errors, headers: showHeaders)
      case .json: base = JSONFormatter(output: output)
      default:
        let formatter = ReplFormatter(
          style: format, output: output, session: session, showSQL: showSQL, headers: showHeaders,
          terminal: redirected == nil ? terminal : Terminal(width: .max, height: .max), errors: errors)
        formatter.terminalServices = redirected == nil ? terminalServices : nil
        formatter.wrapCells = wrap
        if let nullValue {
          formatter.nullText = nullValue
        } else if redirected == nil, terminal.isInteractive {
          formatter.nullText = terminal.usesColor ? String(nullMarker) + "NULL" : "∅"
        }
        if redirected == nil, terminal.isInteractive, format != .line {
          formatter.maxRows = maxRows ?? max(8, terminal.height - 8)
          if formatter.maxRows == 0 { formatter.maxRows = nil }
        }
        base = formatter
      }
    }
    return failureTracker.map { TrackingSink(base, tracker: $0) } ?? base
  }

  // MARK: Meta-commands

  private func command(_ line: String) -> Outcome {
    let name = String(line.prefix { !$0.isWhitespace })
    let argument = line.dropFirst(name.count).trimmingScalars(in: .whitespaces)
    guard let command = metaCommand(named: name) else {
      fail("unknown command '\(name)'; .help lists them")
      return .proceed
    }
    if safe, command.reachesFiles, !(name == ".output" && (argument.isEmpty || argument == "stdout")) {
      fail("\(name) is refused in --safe mode: it reaches the file system (run Quarry without --safe to use it)")
      return .proceed
    }
    return command.perform(self, MetaCommand.Invocation(name: name, argument: argument, line: line))
  }

  /// `.open FILE`: another database for the session (read-only stays read-only).
  func openDatabase(_ argument: String) {
    guard !argument.isEmpty else { return fail("usage: .open FILE") }
    guard mayLeave(doing: ".open") else { return }
    do {
      // A read-only session stays read-only (`file:…?mode=rw` cannot widen it: SQLite refuses).
      let database = try Database(
        path: expandingTilde(argument), mode: readOnly ? .readOnly : .readWrite, create: !readOnly)
      try session.replaceDatabase(database)
      fixtureName = nil
      onDatabaseChange?(database)
      output.write("opened \(argument)\(readOnly ? " (read-only)" : "")\n")
    } catch {
      // Read-only opens what exists and creates nothing: say so, not only SQLite's words.
      if readOnly, !argument.hasPrefix("file:"), FileKind(path: expandingTilde(argument)) == nil {
        fail("cannot open '\(argument)': no such file, and this session is read-only (--readonly), so .open creates none")
      } else {
        fail("\(error)")
      }
    }
  }

  /// `.raw SQL`: plain SQL, run as written.
  func runRaw(_ sql: String, line: String) {
    lastInput = line
    session.runSQL(sql, sink: sink())
  }

  /// `.save FILE`, `.backup FILE`: the database written to FILE, never over the one open.
  func save(to argument: String, as name: String) {
    guard !argument.isEmpty else { return fail("usage: \(name) FILE") }
    let path = expandingTilde(argument)
    if let database = databaseFile(at: path) {
      return fail("refused: \(name) '\(argument)' would write over \(database), which this session has open; save to another file")
    }
    do {
      try session.database.backup(to: path)
      output.write("saved the database to \(argument)\n")
    } catch {
      fail("cannot save to '\(argument)': \(error)")
    }
  }

  /// Text that may be longer than the screen (help): lines wrapped between words at the
  /// terminal's width, under the column they start in; through the pager when it does not fit.
  func showLong(_ text: String) {
    guard terminal.isInteractive, commandCapture == nil else { return output.write(text) }
    let wrapped = Self.wrapped(text, width: terminal.width)
    if let terminalServices { terminalServices.present(wrapped, terminal: terminal, output: output) } else { output.write(wrapped) }
  }

  /// Each line longer than `width` broken between words; the rest of it indented to where its
  /// text starts (after the command column of a help line, `.mode MODE    box, …`).
  public static func wrapped(_ text: String, width: Int) -> String {
    guard width >= 20 else { return text }
    var out: [String] = []
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      guard TerminalWidth.of(String(line)) > width else {
        out.append(String(line))
        continue
      }
      // The hanging indent: where the text after a run of two spaces starts, or the line's own.
      let leading = line.prefix { $0 == " " }.count
      var indent = leading
      if let gap = line.dropFirst(leading).firstRange(of: "  ") {
        indent = line.distance(from: line.startIndex, to: gap.upperBound) + line[gap.upperBound...].prefix { $0 == " " }.count
      }
      if indent > width / 2 { indent = min(leading + 2, width / 2) }
      var current = ""
      for word in line.split(separator: " ", omittingEmptySubsequences: false) {
        let candidate = current.isEmpty ? String(word) : current + " " + word
        if TerminalWidth.of(candidate) > width, !current.trimmingScalars(in: .whitespaces).isEmpty {
          out.append(current)
          current = String(repeating: " ", count: indent) + word
        } else {
          current = candidate
        }
      }
      out.append(current)
    }
    return out.joined(separator: "\n")
  }

  public func fail(_ message: String) {
    failureTracker?.failed = true
    if commandCapture != nil {
      commandError = commandError.map { $0 + "\n" + message } ?? message
      return
    }
    if speaksJSON {
      let error = JSONFormatter.error(StatementError(message: message, line: lineOffset + 1, column: 1))
      output.write("{\"command\":null,\"output\":\"\",\"error\":" + error + "}\n")
      output.flush()
      return
    }
    let errors = errorOutput ?? standardOutput
    output.flush()
    errors.write("error: \(message)\n")
    errors.flush()
  }

  func setFlag(_ flag: inout Bool, _ argument: String, _ name: String) {
    switch argument {
    case "on": flag = true
    case "off": flag = false
    default: fail("usage: \(name) on|off")
    }
  }

  func tables() {
    guard let tables = try? session.database.schema().tables else { return }
    let rows = tables.map { table -> (String, String) in
      let type = session.catalog.table(forTableName: table.name)?.typeName ?? Inflection.typeName(forTable: table.name)
      return (table.name + (table.kind == .view ? " (view)" : ""), type)
    }
    let width = rows.map(\.0.count).max() ?? 0
    for (name, type) in rows { output.write(name + String(repeating: " ", count: width - name.count + 2) + type + "\n") }
  }

  func schema(_ argument: String) {
    guard let tables = try? session.database.schema().tables else { return }
    var shown = 0
    for table in tables {
      let model = session.catalog.table(forTableName: table.name)
      guard argument.isEmpty || table.name == argument || model?.typeName == argument else { continue }
      if shown > 0 { output.write("\n") }
      output.write(table.sql + ";\n")
      if let model { output.write(ModelPrinter.declaration(of: model, enums: session.catalog.enums) + "\n") }
      shown += 1
    }
    if shown == 0, !argument.isEmpty, let model = session.catalog.table(forType: argument), !model.isSelection {
      // Declared in Swift, but the database has no such table (yet).
      output.write("-- no table \"\(model.tableName)\" in the database yet: create it (CREATE TABLE, or a migration)\n")
      output.write(ModelPrinter.declaration(of: model, enums: session.catalog.enums) + "\n")
      return
    }
    if shown == 0 && !argument.isEmpty {
      let names = tables.map(\.name) + session.catalog.tables.keys
      let suggestion = closestMatch(to: argument, in: names)
      fail("no table or type named '\(argument)'" + (suggestion.map { "; did you mean '\($0)'?" } ?? ""))
    }
  }

  /// The last answer `.check` accepted that was written in SQL: what `.dsl` alone spells.
  var lastCheckedSQL: String?

  /// `.dsl SQL`: the DSL spelling of the statement (``SQLToDSL``); `.dsl` alone spells the SQL
  /// answer `.check` last accepted, or the last input when it was SQL.
  func spellInDSL(_ argument: String) {
    let lastSQL = lastInput.flatMap { SQLDetector.startsWithSQLKeyword($0) ? $0 : nil }
    guard let statement = argument.isEmpty ? lastCheckedSQL ?? lastSQL : argument else {
      return fail("give a statement: .dsl SELECT title FROM reminders WHERE priority >= 2")
    }
    let answer = SQLToDSL(session: session).answer(statement)
    guard answer.dsl != nil else {
      return fail((answer.error ?? "no spelling") + (answer.rawForm.map { "\nas raw SQL: " + $0 } ?? ""))
    }
    output.write(answer.text)
  }

  func explain(_ argument: String) {
    let sql: String
    let bindings: [QueryBinding]
    if argument.isEmpty {
      guard let last = session.lastSQL, !last.isEmpty else {
        fail("no query yet: run one, or give one: .explain Reminder.all")
        return
      }
      sql = last
      bindings = []
    } else {
      do {
        guard let explained = try session.explainedSQL(of: argument) else {
          fail("nothing to explain")
          return
        }
        sql = explained
        bindings = []
      } catch {
        output.write("error: \(error.line):\(error.column): \(error.fullMessage)\n\(error.excerpt(in: argument))\n")
        return
      }
    }
    do {
      let rows = try session.database.rows("EXPLAIN QUERY PLAN " + sql, bindings: bindings)
      output.write(QueryPlan.tree(rows))
    } catch { fail("\(error)") }
  }

  /// Inputs handled so far (a warning about leaving holds for the next one only).
  private var inputsHandled = 0
  private var leaveWarnedAt: (input: Int, action: String)?

  /// Whether the session may leave its database (`.quit`, Ctrl-D, `.open`, `.fixture`) now. With
  /// a transaction the user began still open, an interactive session warns once and stays (the
  /// same command again leaves); a script leaves. Either way, what is rolled back is said.
  ///
  /// ```
  /// quarry*> .quit
  /// a transaction is open (2 rows changed since BEGIN): COMMIT or ROLLBACK it, or .quit again to roll it back
  /// ```
  public func mayLeave(doing action: String) -> Bool {
    guard let rows = session.changesInOpenTransaction else { return true }
    let count = "\(rows) row\(rows == 1 ? "" : "s")"
    if terminal.isInteractive, leaveWarnedAt.map({ $0.input != inputsHandled - 1 || $0.action != action }) ?? true {
      leaveWarnedAt = (inputsHandled, action)
      output.write("a transaction is open (\(count) changed since BEGIN): COMMIT or ROLLBACK it, or \(action) again to roll it back\n")
      output.flush()
      return false
    }
    leaveWarnedAt = nil
    _ = session.rollBackOpenTransaction()
    let text =
      "the open transaction was rolled back: \(count) changed since BEGIN \(rows == 1 ? "was" : "were") not saved (COMMIT saves them)\n"
    if terminal.isInteractive {
      output.write(text)
      output.flush()
    } else {
      (errorOutput ?? output).write("note: " + text)
      (errorOutput ?? output).flush()
    }
    return true
  }

  /// Ctrl-D at an empty prompt: leave, unless a transaction is open (see ``mayLeave(doing:)``).
  public func mayQuitAtEndOfInput() -> Bool {
    inputsHandled += 1
    return mayLeave(doing: "Ctrl-D")
  }

  func loadFixture(_ name: String) {
    do {
      let fresh = try Session.fixture(name)
      if safe { fresh.database.confine(Self.safeConfinement) }
      fresh.sqlOnly = session.sqlOnly
      session = fresh
      fixtureName = name
      onDatabaseChange?(fresh.database)
      onCatalogChange?(fresh.catalog)
      output.write("loaded fixture '\(name)' (in memory)\n")
    } catch { fail("\(error)") }
  }

  public func read(_ path: String) {
    guard !path.isEmpty else {
      fail("usage: .read FILE")
      return
    }
    let expanded = expandingTilde(path)
    guard let data = readWholeFile(expanded) else {
      fail("cannot read '\(path)': " + fileProblem(expanded))
      return
    }
    let script: String
    do { script = try decodeUTF8(data) } catch {
      fail("cannot read '\(path)': \(error)")
      return
    }
    nested(".read '\(path)'", selfReference: "does it read itself?") { runScript(script) }
  }

  /// Runs `body` one `.read`/`.run` level deeper, or says where the nesting stopped.
  private func nested(_ what: String, selfReference: String, _ body: () -> Void) {
    guard nesting < Self.maximumNesting else {
      fail("\(what) is nested \(Self.maximumNesting) deep (\(selfReference)); stopped")
      return
    }
    nesting += 1
    defer { nesting -= 1 }
    body()
  }

  /// Runs each input of a script in order (stdin, `.read`), errors located by the line in it.
  @discardableResult
  public func runScript(_ script: String) -> Outcome {
    // A Swift source file (it starts with `import …`: a Schema.swift, a view) is one input, read
    // as the compiler reads a file: types in any order, each statement standing alone.
    if ScriptSplitter.isSwiftSourceFile(script) {
      return handle(script, line: 1) == .proceed ? .proceed : .quit
    }
    for input in ScriptSplitter.inputs(of: script, isMetaCommand: isMetaCommand) {
      if handle(input.text, line: input.line) != .proceed { return .quit }
      // Nothing more can be shown once the output is gone (a closed pipe, a full disk).
      if standardOutput.writeError != nil { return .quit }
    }
    return .proceed
  }

  /// How deeply `.read` and `.run` may call themselves, as sqlite3 limits `.read`.
  static let maximumNesting = 25
  private var nesting = 0

  func redirect(_ path: String, once: Bool) {
    endRedirection()
    // `.output` alone or `.output stdout`: the screen again, as in sqlite3.
    guard !path.isEmpty, path != "stdout" else { return }
    let expanded = expandingTilde(path)
    if let database = databaseFile(at: expanded) {
      fail(
        "refused: \(once ? ".once" : ".output") '\(path)' would overwrite \(database), which this session has open; write the output to another file"
      )
      return
    }
    // Opened as sqlite3 opens it (fopen "w"): through a symbolic link or a device, truncated,
    // never replaced by a new file (FileManager's createFile writes a temporary file and renames
    // it over the path, which would replace `/dev/full` itself).
    let descriptor = open(expanded, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else {
      fail("cannot write to '\(path)': " + String(cString: strerror(errno)))
      return
    }
    redirectedFile = descriptor
    redirectedPath = path
    redirected = OutputStream(descriptor: descriptor)
    onceOnly = once
  }

  /// The open database's file (or its journal) when `path` names it, by device and inode (a
  /// link or another spelling of the path is the same file); nil otherwise.
  func databaseFile(at path: String) -> String? {
    var target = stat()
    guard stat(path, &target) == 0 else { return nil }
    let databasePath = session.database.path
    guard databasePath != ":memory:", !databasePath.isEmpty else { return nil }
    for suffix in ["", "-journal", "-wal", "-shm"] {
      var open = stat()
      if stat(databasePath + suffix, &open) == 0, open.st_dev == target.st_dev, open.st_ino == target.st_ino {
        return "the database '\(databasePath)\(suffix)'"
      }
    }
    return nil
  }

  private func endRedirection() {
    redirected?.flush()
    if let redirectedFile { close(redirectedFile) }
    redirected = nil
    redirectedFile = nil
    redirectedPath = nil
    onceOnly = false
  }

  func edit() {
    guard let terminalServices else {
      fail(".edit needs the quarry command's terminal")
      return
    }
    let edited: String
    do { edited = try terminalServices.edit(lastInput ?? "") } catch {
      fail("\(error)")
      return
    }
    guard !edited.allSatisfy(\.isWhitespace) else { return }
    if let editedInput { return editedInput(edited) }
    output.write(edited.hasSuffix("\n") ? edited : edited + "\n")
    handle(edited)
  }

  func runNamed(_ argument: String) {
    let parts = Self.splitArguments(argument)
    guard let name = parts.first else {
      fail("usage: .run NAME [ARGS]")
      return
    }
    guard let input = namedQueries.all()[name] else {
      fail("no named query '\(name)'" + (closestMatch(to: name, in: namedQueries.all().keys).map { "; did you mean '\($0)'?" } ?? ""))
      return
    }
    nested(".run '\(name)'", selfReference: "does it run itself?") { run(named: name, input: input, parts: parts) }
  }

  private func run(named name: String, input: String, parts: [String]) {
    let values = parts.dropFirst().map(NamedQueryArgument.init)
    let used = NamedQueryArgument.parameters(in: input)
    if let missing = used.first(where: { $0 > values.count }) {
      fail("'\(name)' needs an argument for $\(missing)")
      return
    }
    let trimmed = input.trimmingScalars(in: .whitespacesAndNewlines)
    if SQLDetector.startsWithSQLKeyword(trimmed) {
      // Plain SQL: `$1` is an SQLite parameter, and each argument is bound to it.
      lastInput = input
      session.runSQL(trimmed, sink: sink(), parameters: values.map(\.value))
    } else {
      // DSL: each `$N` becomes a literal of the argument, which the DSL binds like any value.
      handle(NamedQueryArgument.substitute(values, into: input))
    }
  }

  /// Splits `a "b c" d` into arguments, keeping quoted text (with its quotes) together.
  static func splitArguments(_ text: String) -> [String] {
    var parts: [String] = []
    var current = ""
    var quoted = false
    for character in text {
      if character == "\"" {
        quoted.toggle()
        current.append(character)
        continue
      }
      if character == " " && !quoted {
        if !current.isEmpty { parts.append(current) }
        current = ""
      } else {
        current.append(character)
      }
    }
    if !current.isEmpty { parts.append(current) }
    return parts
  }
}

/// Named queries saved with `.save`, kept beside the history.
final class NamedQueries {
  let path: String
  init(path: String) { self.path = path }

  func all() -> [String: String] {
    guard let data = FileManager.default.contents(atPath: path),
      let object = try? JSONDecoder().decode([String: String].self, from: data)
    else { return [:] }
    return object
  }

  func save(name: String, input: String) {
    var queries = all()
    queries[name] = input
    try? FileManager.default.createDirectory(
      atPath: PathText.parent(path), withIntermediateDirectories: true)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    if let data = try? encoder.encode(queries) {
      _ = FileManager.default.createFile(atPath: path, contents: data, attributes: [.posixPermissions: 0o600])
    }
  }
}

/// EXPLAIN QUERY PLAN rows drawn as a tree, as the sqlite3 shell does.
enum QueryPlan {
  static func tree(_ rows: [[DatabaseValue]]) -> String {
    struct Node {
      var id: Int64
      var parent: Int64
      var detail: String
    }
    let nodes = rows.compactMap { row -> Node? in
      guard row.count >= 4, let id = row[0].integerValue, let parent = row[1].integerValue else { return nil }
      return Node(id: id, parent: parent, detail: row[3].textValue ?? "")
    }
    var out = "QUERY PLAN\n"
    func walk(_ parent: Int64, _ prefix: String) {
      let children = nodes.filter { $0.parent == parent }
      for (index, child) in children.enumerated() {
        let last = index == children.count - 1
        out += prefix + (last ? "`--" : "|--") + child.detail + "\n"
        walk(child.id, prefix + (last ? "   " : "|  "))
      }
    }
    walk(0, "")
    return out
  }
}

extension StringProtocol {
  /// The text without white space (newlines included) at either end, in pure Swift: Foundation's
  /// `trimmingCharacters(in:)` bridges through NSString, a cost on every input's path.
  var trimmedWhitespace: String { whitespaceTrimmed.map { String(self[$0]) } ?? "" }

  /// Where the text is once white space at either end is left out; nil when it is all white space.
  var whitespaceTrimmed: Range<Index>? {
    guard let first = firstIndex(where: { !$0.isWhitespace }), let last = lastIndex(where: { !$0.isWhitespace }) else {
      return nil
    }
    return first..<index(after: last)
  }
}

extension String {
  /// The same for a String: with nothing to trim, the text itself, not a copy (an input may be
  /// 100 MB).
  var trimmedWhitespace: String {
    guard let range = whitespaceTrimmed else { return "" }
    return range == startIndex..<endIndex ? self : String(self[range])
  }
}
