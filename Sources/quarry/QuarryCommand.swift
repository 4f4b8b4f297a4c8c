import ArgumentParser
import Foundation
import QuarryDSL
import QuarryEngine
import Workbench

/// `quarry [DATABASE] [--fixture NAME] [--models FILE.swift]... [--readonly] [-e SOURCE]...
/// [--sql-only] [--format box|table|csv|json|markdown|line]`
@main
struct QuarryCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "quarry",
    abstract: "Query SQLite with the StructuredQueries Swift DSL, and see the SQL it becomes.",
    discussion: """
      With no DATABASE and no --fixture, Quarry opens the default fixture (reminders) in memory.
      With -e, each SOURCE runs in order and Quarry exits; with stdin not a terminal, stdin is the
      script; otherwise an interactive prompt starts.
      """)

  @Argument(help: "A SQLite database file to open.")
  var database: String?

  @Option(help: "Open a fixture from fixtures/ in memory (e.g. reminders).")
  var fixture: String?

  @Option(name: .customLong("models"), help: "Swift model declarations to load first (repeatable).")
  var models: [String] = []

  @Flag(help: "Open the database read-only.")
  var readonly = false

  @Option(name: .customShort("e"), help: "DSL source to run (repeatable); exits afterwards.")
  var sources: [String] = []

  @Flag(name: .customLong("sql-only"), help: "Print the SQL of each statement without running it.")
  var sqlOnly = false

  @Option(help: "Output format: box, table, csv, json, markdown, line.")
  var format: OutputFormat = .box

  mutating func run() throws {
    let session: Session
    do {
      session = try openSession()
      for path in models {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
          throw WorkbenchError("cannot read models file '\(path)'")
        }
        try session.loadModels(text, path: path)
      }
    } catch {
      FileHandle.standardError.write(Data("quarry: error: \(error)\n".utf8))
      throw ExitCode(2)
    }
    session.sqlOnly = sqlOnly
    let output = OutputStream.standardOutput

    if !sources.isEmpty {
      let sink = FailureTracker(format.sink(output: output, session: session))
      let repl = Repl(session: session, format: format)
      for source in sources { _ = repl.handleLine(source, sink: sink) }
      output.flush()
      if sink.failed { throw ExitCode(1) }
      return
    }
    if isatty(0) != 1 {
      let script = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
      let sink = FailureTracker(format.sink(output: output, session: session))
      let repl = Repl(session: session, format: format)
      for chunk in ScriptSplitter.chunks(of: script) {
        if !repl.handleLine(chunk, sink: sink) { break }
      }
      output.flush()
      if sink.failed { throw ExitCode(1) }
      return
    }
    Repl(session: session, format: format).start()
  }

  private func openSession() throws -> Session {
    if let database, fixture != nil {
      throw WorkbenchError("give either a DATABASE (\(database)) or --fixture, not both")
    }
    if let database {
      if readonly || FileManager.default.fileExists(atPath: database) {
        guard FileManager.default.fileExists(atPath: database) else {
          throw WorkbenchError("no such database file: \(database)")
        }
      }
      return try Session(database: try Database(path: database, mode: readonly ? .readOnly : .readWrite))
    }
    return try Session.fixture(fixture ?? Fixture.defaultName)
  }
}

extension OutputFormat: ExpressibleByArgument {}

extension WorkbenchError: LocalizedError { public var errorDescription: String? { message } }

/// Splits a script into inputs. An input ends where it is complete, unless the next line
/// continues it with a leading-dot method call (`.where { … }`); meta-commands stand alone.
enum ScriptSplitter {
  static func chunks(of script: String) -> [String] {
    var chunks: [String] = []
    var current = ""
    func flush() {
      if !current.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { chunks.append(current) }
      current = ""
    }
    for line in script.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      let isSQL = Repl.startsWithSQLKeyword(current)
      if current.isEmpty && (trimmed.isEmpty || trimmed.hasPrefix("//")) { continue }
      if trimmed.hasPrefix(".") && Repl.isMetaCommand(trimmed) && (current.isEmpty || !Compiler.isIncomplete(current)) {
        flush()
        chunks.append(trimmed)
        continue
      }
      let continues = trimmed.hasPrefix(".") && !current.isEmpty && !isSQL
      if !continues && !current.isEmpty && !isSQL && !Compiler.isIncomplete(current) { flush() }
      if current.isEmpty && trimmed.isEmpty { continue }
      current += (current.isEmpty ? "" : "\n") + line
      if Repl.startsWithSQLKeyword(current) && trimmed.hasSuffix(";") { flush() }
    }
    flush()
    return chunks
  }
}
