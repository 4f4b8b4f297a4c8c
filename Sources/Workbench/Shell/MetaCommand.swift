import FoundationEssentials

/// A meta-command declared once: its usage line and summary (for `.help`), a longer explanation
/// (for `.help NAME`), and what it does. Dispatch, help and completion read the same entry.
///
/// ```swift
/// shell.register(MetaCommand(usage: ".indexes [TABLE]", summary: "List indexes", details: "…") { shell, argument in … })
/// ```
public struct MetaCommand {
  public var usage: String
  public var summary: String
  public var details: String
  public var run: (Shell, String) -> Void

  public init(usage: String, summary: String, details: String = "", run: @escaping (Shell, String) -> Void) {
    self.usage = usage
    self.summary = summary
    self.details = details
    self.run = run
  }

  /// `.dump` of `.dump [TABLE]`.
  public var name: String { String(usage.prefix { $0 != " " }) }
}

/// The meta-commands a shell has beyond its built-in ones: what each runs, its help line and
/// its longer help.
struct RegisteredCommands {
  var run: [String: (Shell, String) -> Void] = [:]
  var help: [(String, String)] = []
  var details: [String: String] = [:]

  mutating func add(_ command: MetaCommand) {
    run[command.name] = command.run
    help.append((command.usage, command.summary))
    if !command.details.isEmpty { details[command.name] = command.details }
  }
}

extension Shell {
  /// Adds a meta-command: it runs, is listed by `.help`, explained by `.help NAME`, and completes.
  public func register(_ command: MetaCommand) {
    registered.add(command)
  }

  /// `.help mode`, `.help .import`: the meta-command's usage, summary and details (nil when NAME
  /// is no meta-command).
  func commandHelp(_ name: String) -> String? {
    let dotted = name.hasPrefix(".") ? name : "." + name
    let lines = Self.builtInCommands + extensionHelp
    guard let entry = lines.first(where: { $0.0.prefix(while: { $0 != " " }) == dotted || $0.0.hasPrefix(dotted + " /") })
    else { return nil }
    var text = entry.0 + "\n  " + entry.1 + "\n"
    if let details = commandDetails[dotted] ?? Self.builtInDetails[dotted] {
      text += "\n" + details.split(separator: "\n", omittingEmptySubsequences: false).map { $0.isEmpty ? "" : "  " + $0 }.joined(separator: "\n") + "\n"
    }
    return text
  }

  /// What `.help NAME` adds for the built-in commands people ask about.
  static let builtInDetails: [String: String] = [
    ".mode": """
      box       boxes drawn with lines (the default at the prompt)
      table     the same in ASCII (+ - |)
      csv       comma-separated values, a header line first (.headers off leaves it out)
      json      one JSON object per statement, one per line
      markdown  a Markdown table
      line      one `column = value` line per value, a blank line between rows
      swift     results as Swift values (records of the model)
      """,
    ".maxrows": """
      N       show the first and last N/2 rows of a longer result, with its count
      auto    as many as fit the terminal (the default)
      0       every row: past a screen they stream into the pager as they arrive
      """,
    ".timeout": """
      How long a write waits for another connection (another process reading or writing the same
      file) before it fails with "database is locked". .timeout alone shows the current value.
      """,
    ".output": """
      .output FILE sends every result to FILE (created, or truncated) until .output alone (or
      .output stdout) sends them to the screen again. A write that fails is an error.
      """,
    ".open": """
      Opens a SQLite file (created if missing, unless the session is --readonly: then it stays
      read-only). A transaction left open is rolled back first, after a warning.
      """,
    ".keep": """
      .keep NAME keeps the last input; .keep NAME INPUT keeps INPUT. $1, $2 … in it are parameters
      that .run NAME ARGS fills in, bound as values (never spliced into the SQL).
      """,
  ]
}
