import FoundationEssentials
import QuarryDSL
import QuarryEngine
import QueryBuilder

extension Shell {
  /// The shell's own meta-commands, one entry each: `.help` lists them in this order (`.quit`
  /// last, after the registered ones), `.help NAME` adds their details, `--safe` refuses those
  /// that reach files, Tab completes their names and arguments, and the entry runs them.
  ///
  /// ```
  /// quarry> .headers off
  /// quarry> .help headers
  /// .headers on|off
  ///   Column names in csv and table output
  /// ```
  static var builtIns: [MetaCommand] {
    [
      MetaCommand(
        usage: ".help [NAME]", summary: "Show this help, or what the command or DSL method NAME does (.help mode)",
        arguments: { shell in
          // `.help NAME`: a meta-command (`mode`) or a DSL method (`map`).
          shell.commandNames.map { String($0.dropFirst()) } + ReceiverKind.allCases.flatMap { Vocabulary.names(for: $0) }
        }
      ) { shell, argument in
        if argument.isEmpty {
          shell.showLong(shell.helpText)
        } else if let text = shell.commandHelp(argument) {
          shell.showLong(text)
        } else if let text = shell.methodHelp(argument) {
          shell.showLong(text)
        } else {
          let names = ReceiverKind.allCases.flatMap { Vocabulary.names(for: $0) }
          shell.fail(
            "no DSL method '\(argument)'"
              + (closestMatch(to: argument, in: names).map { "; did you mean '\($0)'?" } ?? "; .methods lists them"))
        }
      },
      MetaCommand(
        usage: ".methods [KIND]", summary: "List the DSL's methods (KIND: table, query, write, expression, …)",
        arguments: { _ in ReceiverKind.allCases.map(\.rawValue) }
      ) { shell, argument in
        if let text = shell.methodsListing(argument) {
          shell.output.write(text)
        } else {
          shell.fail("unknown kind '\(argument)'; use one of: " + ReceiverKind.allCases.map(\.rawValue).joined(separator: ", "))
        }
      },
      MetaCommand(usage: ".tables", summary: "List tables and views with their Swift type names") { shell, _ in shell.tables() },
      MetaCommand(
        usage: ".schema [Type]", summary: "Show CREATE statements and the @Table models",
        arguments: { shell in
          ((try? shell.session.database.schema().tables.map(\.name)) ?? []) + shell.session.catalog.tables.values.map(\.typeName)
        }
      ) { shell, argument in shell.schema(argument) },
      MetaCommand(
        usage: ".mode MODE", summary: "box, table, csv, json, markdown, line or swift",
        details: """
          box       boxes drawn with lines (the default at the prompt)
          table     the same in ASCII (+ - |)
          csv       comma-separated values, a header line first (.headers off leaves it out)
          json      one JSON object per statement, one per line
          markdown  a Markdown table
          line      one `column = value` line per value, a blank line between rows
          swift     results as Swift values (records of the model)
          """,
        arguments: { _ in OutputFormat.allCases.map(\.rawValue) + ["swift"] }
      ) { shell, argument in
        if argument.isEmpty {
          // As sqlite3 does: the mode in use.
          shell.output.write("current output mode: \(shell.swiftMode ? "swift" : shell.format.rawValue)\n")
        } else if shell.jsonStream, argument != "json" {
          shell.fail("this session prints JSON lines (--format json): every line stays one JSON object, so .mode cannot change it")
        } else if argument == "swift" {
          shell.swiftMode = true
        } else if let mode = OutputFormat(rawValue: argument) {
          shell.format = mode
          shell.swiftMode = false
        } else {
          shell.fail("unknown mode '\(argument)'; use one of: box, table, csv, json, markdown, line, swift")
        }
      },
      MetaCommand(usage: ".headers on|off", summary: "Column names in csv and table output", arguments: Shell.onOff) { shell, argument in
        shell.setFlag(&shell.showHeaders, argument, ".headers")
      },
      MetaCommand(usage: ".sql on|off", summary: "Show the SQL beside (or above) the results", arguments: Shell.onOff) { shell, argument in
        shell.setFlag(&shell.showSQL, argument, ".sql")
      },
      MetaCommand(usage: ".binds", summary: "Show the bound parameters of the last statement") { shell, _ in
        if shell.session.lastBindings.isEmpty {
          shell.output.write("(no bound parameters)\n")
        } else {
          for (index, binding) in shell.session.lastBindings.enumerated() { shell.output.write("?\(index + 1) = \(binding.inlineSQL)\n") }
        }
      },
      MetaCommand(usage: ".timer on|off", summary: "Show how long each input took", arguments: Shell.onOff) { shell, argument in
        shell.setFlag(&shell.timer, argument, ".timer")
      },
      MetaCommand(
        usage: ".timeout MS", summary: "Wait up to MS milliseconds for another connection to let go of the database",
        details: """
          How long a write waits for another connection (another process reading or writing the same
          file) before it fails with "database is locked". .timeout alone shows the current value.
          """
      ) { shell, argument in
        if argument.isEmpty {
          shell.output.write("\(shell.session.database.busyTimeout) ms\n")
        } else if let milliseconds = Int(argument), milliseconds >= 0 {
          shell.session.database.setBusyTimeout(milliseconds: milliseconds)
        } else {
          shell.fail(".timeout takes a number of milliseconds, like .timeout 2000")
        }
      },
      MetaCommand(usage: ".wrap on|off", summary: "Wrap long text in table cells instead of cutting it with …", arguments: Shell.onOff) {
        shell, argument in
        shell.setFlag(&shell.wrap, argument, ".wrap")
      },
      MetaCommand(usage: ".nullvalue TEXT", summary: "Show NULL as TEXT in results (default: dim NULL, or ∅ without colour)") {
        shell, argument in
        shell.nullValue = argument.isEmpty ? nil : argument
      },
      MetaCommand(
        usage: ".maxrows N|auto", summary: "Rows a result shows at the prompt (the first and last); 0 shows all",
        details: """
          N       show the first and last N/2 rows of a longer result, with its count
          auto    as many as fit the terminal (the default)
          0       every row: past a screen they stream into the pager as they arrive
          """,
        arguments: { _ in ["auto", "0"] }
      ) { shell, argument in
        if argument.isEmpty {
          shell.output.write(shell.maxRows.map { $0 == 0 ? "0 (all rows)\n" : "\($0)\n" } ?? "auto (fits the terminal)\n")
        } else if argument == "auto" {
          shell.maxRows = nil
        } else if let number = Int(argument), number >= 0 {
          shell.maxRows = number
        } else {
          shell.fail("usage: .maxrows N (0 shows all rows) or .maxrows auto")
        }
      },
      MetaCommand(usage: ".explain [INPUT]", summary: "EXPLAIN QUERY PLAN of INPUT, or of the last query, as a tree") { shell, argument in
        shell.explain(argument)
      },
      MetaCommand(
        usage: ".dsl [SQL]", summary: "The DSL spelling of a SQL statement, proven by compiling it back",
        details: """
          Spells a SELECT, INSERT, UPDATE or DELETE over the session's tables in the StructuredQueries
          DSL, with the models it needs when the session has no declaration of them. The spelling is
          compiled back: it is shown when it renders the same SQL, or, where it cannot, when both give
          the same rows (or leave the same data) on this database with the same plan, and the line
          under it says which. Where there is no spelling, the part that has none is named and the
          #sql form offered. Alone, .dsl spells the SQL answer .check last accepted in a lesson, or
          the last input when it was SQL.
          """
      ) { shell, argument in shell.spellInDSL(argument) },
      MetaCommand(
        usage: ".open FILE", summary: "Open a database file",
        details: """
          Opens a SQLite file (created if missing, unless the session is --readonly: then it stays
          read-only). A transaction left open is rolled back first, after a warning.
          """,
        reachesFiles: true
      ) { shell, argument in shell.openDatabase(argument) },
      MetaCommand(usage: ".fixture NAME", summary: "Load a fixture in memory", arguments: { _ in Fixture.available() }) { shell, argument in
        guard shell.mayLeave(doing: ".fixture") else { return }
        shell.loadFixture(argument.isEmpty ? Fixture.defaultName : argument)
      },
      MetaCommand(usage: ".reset", summary: "Reload the fixture, undoing every change") { shell, _ in
        guard let fixtureName = shell.fixtureName else { return shell.fail("nothing to reset: this session did not start from a fixture") }
        shell.loadFixture(fixtureName)
      },
      MetaCommand(usage: ".read FILE", summary: "Run the inputs in FILE", reachesFiles: true, runsInputs: true) { shell, argument in
        shell.read(argument)
      },
      MetaCommand(usage: ".once FILE", summary: "Send the next input's output to FILE", reachesFiles: true) { shell, argument in
        shell.redirect(argument, once: true)
      },
      MetaCommand(
        usage: ".output [FILE]", summary: "Send output to FILE, or back to the screen",
        details: """
          .output FILE sends every result to FILE (created, or truncated) until .output alone (or
          .output stdout) sends them to the screen again. A write that fails is an error.
          """,
        reachesFiles: true
      ) { shell, argument in shell.redirect(argument, once: false) },
      MetaCommand(usage: ".edit", summary: "Edit the last input in $EDITOR, then run it", reachesFiles: true, runsInputs: true) {
        shell, _ in shell.edit()
      },
      MetaCommand.invoked(
        usage: ".raw SQL", summary: "Run plain SQL (input starting with an SQL keyword also runs as SQL)", runsInputs: true,
        perform: { shell, call in
          guard !call.argument.isEmpty else {
            shell.fail("usage: .raw SQL")
            return .proceed
          }
          shell.runRaw(call.argument, line: call.line)
          return .proceed
        }),
      MetaCommand.invoked(
        usage: ".save FILE", summary: "Write the database (an in-memory fixture too) to FILE, as sqlite3 does", reachesFiles: true,
        perform: {
          shell, call in
          shell.save(to: call.argument, as: call.name)
          return .proceed
        }),
      MetaCommand.invoked(
        usage: ".backup FILE", summary: "The same as .save", reachesFiles: true,
        perform: { shell, call in
          shell.save(to: call.argument, as: call.name)
          return .proceed
        }),
      MetaCommand(
        usage: ".keep NAME [INPUT]", summary: "Keep INPUT (or the last input) as a named query; $1, $2… are parameters",
        details: """
          .keep NAME keeps the last input; .keep NAME INPUT keeps INPUT. $1, $2 … in it are parameters
          that .run NAME ARGS fills in, bound as values (never spliced into the SQL).
          """
      ) { shell, argument in
        let name = String(argument.prefix { !$0.isWhitespace })
        let inline = argument.dropFirst(name.count).trimmingScalars(in: .whitespaces)
        guard !name.isEmpty, let input = inline.isEmpty ? shell.lastInput : inline else {
          return shell.fail(
            name.isEmpty ? "usage: .keep NAME [INPUT]" : "nothing to keep yet: run a query first, or give it: .keep NAME INPUT")
        }
        shell.namedQueries.save(name: name, input: input)
        shell.output.write("kept '\(name)' (.run \(name) runs it)\n")
      },
      MetaCommand(
        usage: ".run NAME [ARGS]", summary: "Run a named query with arguments", runsInputs: true,
        arguments: { shell in Array(shell.namedQueries.all().keys) }
      ) { shell, argument in shell.runNamed(argument) },
      MetaCommand(usage: ".list", summary: "List named queries") { shell, _ in
        let all = shell.namedQueries.all()
        if all.isEmpty { shell.output.write("(no named queries; .keep NAME keeps the last input)\n") }
        for (name, input) in all.sorted(by: { $0.key < $1.key }) {
          shell.output.write("\(name): \(input.replacing("\n", with: " "))\n")
        }
      },
      MetaCommand.invoked(
        usage: ".quit", summary: "Leave (Ctrl-D also does)", aliases: [".exit", ".q"],
        perform: { shell, call in
          shell.mayLeave(doing: call.name) ? .quit : .proceed
        }),
    ]
  }

  /// What Tab offers after a command that takes `on` or `off`.
  static func onOff(_ shell: Shell) -> [String] { ["on", "off"] }
}
