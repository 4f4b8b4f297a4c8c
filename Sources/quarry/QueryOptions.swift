import ArgumentParser
import Dispatch
import FoundationEssentials
import Glibc
import QuarryEngine
import Workbench

/// What `quarry [DATABASE] …` was asked to do, however its arguments were read: by
/// ArgumentParser (`QuarryCommand`), or by `init?(commonArguments:)` for the everyday shapes.
///
/// ```
/// quarry shop.sqlite -e 'Customer.limit(2)' --format csv
/// // QueryOptions(database: "shop.sqlite", sources: ["Customer.limit(2)"], format: .csv)
/// ```
struct QueryOptions: Equatable, Sendable {
  var database: String?
  var fixture: String?
  var models: [String] = []
  var readonly = false
  var safe = false
  var sources: [String] = []
  var sqlOnly = false
  var format: OutputFormat = .box
  var noForeignKeys = false
  var strict = false
  /// SQL statements to spell in the DSL (`--to-dsl`).
  var toDSL: [String] = []

  /// Opens the session and runs the sources, the stdin script, or the interactive prompt.
  func run() throws {
    Database.enforcesForeignKeys = !noForeignKeys
    let interactive = sources.isEmpty && toDSL.isEmpty && isatty(0) == 1
    do {
      let source = try checkSource()
      if !toDSL.isEmpty {
        try spellInDSL(try loadSession(from: source))
        return
      }
      if interactive {
        // The prompt comes up while the session loads on another thread; the first input
        // waits for it. Errors in --models files still stop Quarry before the prompt.
        Repl.prepareTerminal()
        let loading = BackgroundTask { try self.interactiveShell(source) }
        if !models.isEmpty { _ = try loading.value() }
        Repl(loading: loading, opened: source.summary(readonly: readonly)).start()
        return
      }
      try runScript(try loadSession(from: source))
    } catch let exit as ExitCode {
      throw exit
    } catch {
      StandardStreams.error("quarry: error: \(error)\n")
      throw ExitCode(1)
    }
  }

  /// `--to-dsl SQL`: each statement's DSL spelling (``SQLToDSL``), as text or one JSON object
  /// per statement; exit status 1 when one has none.
  private func spellInDSL(_ session: Session) throws {
    let output = OutputStream.standardOutput
    var failed = false
    for sql in toDSL {
      let answer = SQLToDSL(session: session).answer(sql)
      failed = failed || answer.dsl == nil
      if format == .json {
        output.write(answer.json + "\n")
      } else if answer.dsl != nil {
        output.write(answer.text)
      } else {
        output.flush()
        StandardStreams.error("quarry: error: " + answer.text.dropFirst("error: ".count))
      }
    }
    output.flush()
    if failed { throw ExitCode(1) }
  }

  /// `-e` sources in order, or stdin as a script. Data formats print data only.
  private func runScript(_ session: Session) throws {
    let output = OutputStream.standardOutput
    let shell = makeShell(session, terminal: Terminal(width: .max, height: .max))
    shell.showSQL = !format.isDataOnly
    shell.errorOutput = .standardError
    let tracker = FailureTracker()
    shell.failureTracker = tracker
    if !sources.isEmpty {
      for source in sources where shell.handle(source) != .proceed || output.writeError != nil { break }
    } else {
      do {
        shell.runScript(try decodeUTF8(StandardStreams.readInput()))
      } catch {
        shell.fail("standard input: \(error)")
      }
    }
    // A transaction the script began and never ended is rolled back, as sqlite3 does, and said.
    _ = shell.mayLeave(doing: "the end of the script")
    output.flush()
    if let problem = output.writeErrorDescription {
      StandardStreams.error("quarry: error: cannot write the results: \(problem)\n")
      throw ExitCode(1)
    }
    if tracker.failed { throw ExitCode(1) }
  }

  private func interactiveShell(_ source: Source) throws -> Shell {
    makeShell(try loadSession(from: source), terminal: Terminal.current())
  }

  /// The shell over a session, with these options and the lesson commands.
  private func makeShell(_ session: Session, terminal: Terminal) -> Shell {
    session.sqlOnly = sqlOnly
    session.compiler.strict = strict
    let shell = Shell(
      session: session, fixtureName: fixtureName, format: format, output: .standardOutput,
      terminal: terminal)
    shell.readOnly = readonly
    shell.safe = safe
    Tutor().install(in: shell)
    shell.terminalServices = QuarryTerminal()
    return shell
  }

  private var fixtureName: String? { database == nil ? (fixture ?? Fixture.defaultName) : nil }

  /// Where the session comes from, checked on the spot (a missing or unreadable file, an unknown
  /// fixture); loading it can then happen behind the prompt.
  private enum Source: @unchecked Sendable {  // the database moves to the loading thread once
    case database(Database, isNew: Bool)
    case fixture(String)

    /// What the prompt says is open.
    func summary(readonly: Bool) -> String {
      switch self {
      case .database(let database, let isNew):
        if isNew { return "New database \(database.path): it has no tables yet." }
        return "Database \(database.path)" + (readonly ? " (read-only)." : ".")
      case .fixture(let name):
        return "Fixture '\(name)', in memory: changes are not saved (.reset reloads it)."
      }
    }
  }

  private func checkSource() throws -> Source {
    if let database, fixture != nil {
      throw WorkbenchError("give either a DATABASE (\(database)) or --fixture, not both")
    }
    if let database {
      if readonly, access(database, F_OK) != 0 {
        throw WorkbenchError("no such database file: \(database)")
      }
      let isNew = access(database, F_OK) != 0
      return .database(try Database(path: database, mode: readonly ? .readOnly : .readWrite), isNew: isNew)
    }
    let name = fixture ?? Fixture.defaultName
    _ = try Fixture.named(name)
    return .fixture(name)
  }

  /// The session, with its schema read and the `--models` files loaded.
  private func loadSession(from source: Source) throws -> Session {
    let session: Session
    switch source {
    case .database(let database, _): session = try Session(database: database)
    case .fixture(let name): session = try Session.fixture(name)
    }
    for path in models {
      guard let data = FileManager.default.contents(atPath: path) else {
        throw WorkbenchError("cannot read models file '\(path)': " + fileProblem(path))
      }
      let text: String
      do { text = try decodeUTF8(data) } catch {
        throw WorkbenchError("cannot read models file '\(path)': \(error)")
      }
      for message in try session.loadModels(text, path: path) {
        StandardStreams.error("quarry: \(message)\n")
      }
    }
    return session
  }
}

extension QueryOptions {
  /// The names that make ArgumentParser pick a subcommand (or print help) instead.
  static let subcommandNames = ["query", "lessons", "learn", "scan", "help"]

  /// Reads the default command's everyday argument shapes without ArgumentParser, whose
  /// reflection costs most of Quarry's start-up; returns nil for anything else (help, a
  /// subcommand, an unknown or repeated option, a missing or dash-led value, a bad format), which
  /// then goes to ArgumentParser for its full handling and its error messages.
  ///
  /// ```
  /// QueryOptions(commonArguments: ["db.sqlite", "-e", "Item.all", "--format=csv"])  // read
  /// QueryOptions(commonArguments: ["--help"])                                         // nil
  /// ```
  init?(commonArguments arguments: [String]) {
    var options = QueryOptions()
    var seen: [String] = []
    var remaining = arguments[...]
    while let argument = remaining.popFirst() {
      var name = argument
      var attached: String?
      if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
        name = String(argument[..<equals])
        attached = String(argument[argument.index(after: equals)...])
      }
      func value() -> String? {
        if let attached { return attached }
        guard let next = remaining.first, !next.hasPrefix("-") else { return nil }
        return remaining.popFirst()
      }
      switch name {
      case "--readonly", "--safe", "--sql-only", "--no-foreign-keys", "--strict":
        guard attached == nil, !seen.contains(name) else { return nil }
        seen.append(name)
        switch name {
        case "--readonly": options.readonly = true
        case "--safe": options.safe = true
        case "--sql-only": options.sqlOnly = true
        case "--strict": options.strict = true
        default: options.noForeignKeys = true
        }
      case "--fixture", "--format":
        guard !seen.contains(name), let value = value() else { return nil }
        seen.append(name)
        if name == "--fixture" {
          options.fixture = value
        } else {
          guard let format = OutputFormat(rawValue: value) else { return nil }
          options.format = format
        }
      case "--models":
        guard let value = value() else { return nil }
        options.models.append(value)
      case "-e":
        // A source may begin with `-` (`-1`, `-$0.priority`): the next argument is always it.
        guard let value = attached ?? remaining.popFirst() else { return nil }
        options.sources.append(value)
      case "--to-dsl":
        guard let value = attached ?? remaining.popFirst() else { return nil }
        options.toDSL.append(value)
      default:
        guard !argument.hasPrefix("-"), options.database == nil, !Self.subcommandNames.contains(argument) else {
          return nil
        }
        options.database = argument
      }
    }
    self = options
  }
}

/// Work running on its own thread; `value()` waits for its result.
///
/// ```swift
/// let opening = BackgroundTask { try Session.fixture("reminders") }
/// // … other start-up work …
/// let session = try opening.value()
/// ```
final class BackgroundTask<Value>: @unchecked Sendable {
  private var result: Result<Value, any Error> = .failure(CancellationError())
  private let finished = DispatchSemaphore(value: 0)

  /// A task that has already finished with `value`.
  static func finished(_ value: Value) -> BackgroundTask {
    BackgroundTask(result: .success(value))
  }

  private init(result: Result<Value, any Error>) {
    self.result = result
    finished.signal()
  }

  init(_ work: @escaping @Sendable () throws -> Value) {
    let run: @Sendable () -> Void = { [self] in
      result = Result { try work() }
      finished.signal()
    }
    // A thread of its own with the main thread's 8 MB of stack (reading deeply nested models
    // recurses), not a dispatch worker's; run here if no thread can be made.
    let box = Unmanaged.passRetained(ThreadWork(run))
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    pthread_attr_setstacksize(&attributes, 8 << 20)
    pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
    var thread = pthread_t()
    let started = pthread_create(
      &thread, &attributes,
      { raw in
        guard let raw else { return nil }
        Unmanaged<ThreadWork>.fromOpaque(raw).takeRetainedValue().run()
        return nil
      }, box.toOpaque())
    if started != 0 {
      box.release()
      run()
    }
  }

  func value() throws -> Value {
    finished.wait()
    finished.signal()  // later calls return at once
    return try result.get()
  }
}

/// Work handed to a new thread through its one pointer argument.
private final class ThreadWork: Sendable {
  let run: @Sendable () -> Void
  init(_ run: @escaping @Sendable () -> Void) { self.run = run }
}
