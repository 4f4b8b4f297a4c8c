import FoundationEssentials

/// A meta-command declared once: its usage line and summary (for `.help`), a longer explanation
/// (for `.help NAME`), the names it answers to, whether it reaches files (refused by `--safe`),
/// what Tab offers after it, and what it does. Dispatch, help, `--safe` and completion read the
/// same entry, for the built-in commands (``Shell/builtIns``) and the registered ones alike.
///
/// ```swift
/// shell.register(MetaCommand(usage: ".indexes [TABLE]", summary: "List indexes", details: "…") { shell, argument in … })
/// ```
public struct MetaCommand {
  public var usage: String
  public var summary: String
  public var details: String
  /// Other names that run it (`.exit` and `.q` for `.quit`, `.prev` beside `.next`).
  public var aliases: [String] = []
  /// It reads or writes files: refused in `--safe` mode.
  public var reachesFiles = false
  /// What Tab offers after it (a `TABLE` in its usage line offers the database's tables).
  public var arguments: ((Shell) -> [String])?
  /// It runs inputs of its own (`.read`, `.run`): under `--format json` their statements print
  /// their own JSON lines rather than one object for the command.
  public var runsInputs = false
  /// What it does, told how it was called.
  var perform: (Shell, Invocation) -> Shell.Outcome

  /// How a meta-command was called: the name typed (one of its names), the rest of the line,
  /// and the whole line.
  struct Invocation {
    var name: String
    var argument: String
    var line: String
  }

  public init(
    usage: String, summary: String, details: String = "", aliases: [String] = [], reachesFiles: Bool = false,
    runsInputs: Bool = false, arguments: ((Shell) -> [String])? = nil, run: @escaping (Shell, String) -> Void
  ) {
    self.usage = usage
    self.summary = summary
    self.details = details
    self.aliases = aliases
    self.reachesFiles = reachesFiles
    self.runsInputs = runsInputs
    self.arguments = arguments
    self.perform = { shell, call in
      run(shell, call.argument)
      return .proceed
    }
  }

  /// A command told the name it was called by and the whole line, that may end the session.
  static func invoked(
    usage: String, summary: String, details: String = "", aliases: [String] = [], reachesFiles: Bool = false,
    runsInputs: Bool = false, perform: @escaping (Shell, Invocation) -> Shell.Outcome
  ) -> MetaCommand {
    var command = MetaCommand(
      usage: usage, summary: summary, details: details, aliases: aliases, reachesFiles: reachesFiles, runsInputs: runsInputs
    ) { _, _ in }
    command.perform = perform
    return command
  }

  /// `.dump` of `.dump [TABLE]`.
  public var name: String { String(usage.prefix { $0 != " " }) }
  /// Every name that runs it.
  var names: [String] { [name] + aliases }
}

/// The meta-commands a shell has beyond its built-in ones, in the order they were registered
/// (a later one of the same name replaces the earlier).
struct RegisteredCommands {
  var commands: [MetaCommand] = []

  mutating func add(_ command: MetaCommand) {
    commands.removeAll { !Set($0.names).isDisjoint(with: command.names) }
    commands.append(command)
  }
}

extension Shell {
  /// Adds a meta-command: it runs, is listed by `.help`, explained by `.help NAME`, and completes.
  public func register(_ command: MetaCommand) {
    registered.add(command)
  }

  /// Every meta-command: the built-in ones, then the registered ones.
  var metaCommands: [MetaCommand] { Self.builtIns + registered.commands }

  /// The meta-command a name (or an alias) runs.
  func metaCommand(named name: String) -> MetaCommand? {
    registered.commands.last { $0.names.contains(name) } ?? Self.builtIns.first { $0.names.contains(name) }
  }

  /// `.help mode`, `.help .import`: the meta-command's usage, summary and details (nil when NAME
  /// is no meta-command).
  func commandHelp(_ name: String) -> String? {
    let dotted = name.hasPrefix(".") ? name : "." + name
    guard let command = metaCommand(named: dotted) else { return nil }
    var text = command.usage + "\n  " + command.summary + "\n"
    if !command.details.isEmpty {
      text +=
        "\n"
        + command.details.split(separator: "\n", omittingEmptySubsequences: false).map { $0.isEmpty ? "" : "  " + $0 }.joined(
          separator: "\n") + "\n"
    }
    return text
  }
}
