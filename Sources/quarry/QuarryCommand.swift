import ArgumentParser
import FoundationEssentials
import Glibc
import QuarryDSL
import QuarryEngine
import QueryBuilder
import Workbench

/// `quarry [DATABASE] [--fixture NAME] [--models FILE.swift]... [--readonly] [-e SOURCE]...
/// [--sql-only] [--format box|table|csv|json|markdown|line]`
struct Quarry: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "quarry",
    abstract: "Query SQLite with the StructuredQueries Swift DSL, and see the SQL it becomes.",
    subcommands: [QuarryCommand.self, LessonsCommand.self, LearnCommand.self, ScanCommand.self],
    defaultSubcommand: QuarryCommand.self)
}

/// `quarry [DATABASE] …`: run DSL from -e, stdin, or the interactive prompt.
struct QuarryCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "query",
    abstract: "Run DSL from -e or stdin, or start the prompt (the default command).",
    discussion: """
      With no DATABASE and no --fixture, Quarry opens the default fixture (reminders) in memory. \
      With -e, each SOURCE runs in order and Quarry exits; with stdin not a terminal, stdin is the \
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

  @Flag(
    help:
      "Keep input to the session's database: refuse ATTACH, VACUUM INTO, writable_schema and the commands that read or write files (.open, .read, .output FILE, .once, .save, .backup, .import, .edit)."
  )
  var safe = false

  @Option(name: .customShort("e"), parsing: .unconditionalSingleValue, help: "DSL source to run (repeatable); exits afterwards.")
  var sources: [String] = []

  @Flag(name: .customLong("sql-only"), help: "Print the SQL of each statement without running it.")
  var sqlOnly = false

  @Option(help: "Output format: box, table, csv, json, markdown, line.")
  var format: OutputFormat = .box

  @Flag(name: .customLong("no-foreign-keys"), help: "Do not enforce foreign keys (SQLiteData and GRDB connections do).")
  var noForeignKeys = false

  @Flag(help: "Treat warnings (spellings StructuredQueries deprecates or no longer offers) as errors.")
  var strict = false

  @Option(
    name: .customLong("to-dsl"), parsing: .unconditionalSingleValue,
    help: ArgumentHelp(
      "Print the DSL that renders SQL (a SELECT, INSERT, UPDATE or DELETE over the database's tables), proven by compiling it back (repeatable); with --format json, one object per statement.",
      valueName: "SQL"))
  var toDSL: [String] = []

  /// The plain options these parsed arguments stand for.
  var options: QueryOptions {
    QueryOptions(
      database: database, fixture: fixture, models: models, readonly: readonly, safe: safe,
      sources: sources, sqlOnly: sqlOnly, format: format, noForeignKeys: noForeignKeys,
      strict: strict, toDSL: toDSL)
  }

  mutating func run() throws { try options.run() }
}

extension OutputFormat: ExpressibleByArgument {}

extension WorkbenchError: LocalizedError { public var errorDescription: String? { message } }

/// `quarry lessons --lint FILE…`: validate lessons.
struct LessonsCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "lessons", abstract: "List lessons, validate lesson files with --lint, or check an answer with --check N.K.")

  @Flag(help: "Check each FILE: its format, that examples run, and that solutions pass on the fixture and its variant.")
  var lint = false

  @Option(
    name: .customLong("check"),
    help: ArgumentHelp(
      "Check ANSWER (DSL or SQL; standard input when not given) against exercise K of lesson N, on the fixture and its variant: ✓ and exit 0 when accepted, ✗ with the explanation and exit 1 when not, exit 2 for an unknown lesson or exercise. An answer that starts with '-' (an SQL comment) goes after '--'.",
      valueName: "N.K"))
  var check: String?

  @Option(
    name: .customLong("dataset"),
    help: ArgumentHelp(
      "Print the rows of searched dataset SEED (the first argument) of exercise K of lesson N, as SQL that loads them into the fixture: the rows a ✗ message about that dataset meant.",
      valueName: "N.K"))
  var dataset: String?

  @Flag(
    help:
      "For each exercise of each FILE, search value-varied datasets that tell the solution from its mutants, and print the seeds kept and the mutants no dataset kills."
  )
  var searchDatasets = false

  @Flag(help: "With --search-datasets: write the seeds kept into each solution's `datasets=`.")
  var write = false

  @Argument(help: "Lesson files (default: every lesson); with --check, the answer.")
  var files: [String] = []

  mutating func run() throws {
    if let check {
      try checkAnswer(check)
      return
    }
    if let dataset {
      try printDataset(dataset)
      return
    }
    let paths = files.isEmpty ? (Lesson.directory().map { Lesson.all(in: $0) } ?? []) : files
    if searchDatasets {
      try Self.searchDatasets(paths, write: write)
      return
    }
    guard lint else {
      print(Tutor(lessons: paths).listing(), terminator: "")
      return
    }
    var failed = false
    var total = LessonLinter.MutantReport()
    for path in paths {
      let linter = LessonLinter()
      let problems = linter.lint(path: path)
      let mutants = linter.lastMutants
      total.tried += mutants.tried
      total.caught += mutants.caught
      total.equivalent += mutants.equivalent
      total.proven += mutants.proven
      total.surviving += mutants.surviving
      // A mutant declared equivalent (no data the schema allows tells it apart) is not a wrong
      // answer: it is left out of the rate.
      let counts =
        "mutants: \(mutants.caught) of \(mutants.tried - mutants.equivalent) caught, \(Self.percent(mutants.caught, of: mutants.tried - mutants.equivalent))"
        + (mutants.equivalent > 0 ? "; \(mutants.equivalent) equivalent to the solution (\(Self.equivalence(mutants)))" : "")
      if problems.isEmpty {
        print("ok   \(path) (\(counts))")
      } else {
        failed = true
        for problem in problems { StandardStreams.error("\(problem)\n") }
        print("FAIL \(path) (\(problems.count) problem\(problems.count == 1 ? "" : "s"); \(counts))")
      }
    }
    if paths.count > 1 {
      print(
        "mutants: \(total.caught) of \(total.tried - total.equivalent) caught, \(Self.percent(total.caught, of: total.tried - total.equivalent)); \(total.equivalent) equivalent to their solution (\(Self.equivalence(total))); \(total.tried - total.caught - total.equivalent) surviving"
      )
    }
    if failed { throw ExitCode(1) }
  }

  /// `3 declared, 5 compiled to the solution's program`.
  static func equivalence(_ report: LessonLinter.MutantReport) -> String {
    [
      report.equivalent - report.proven > 0 ? "\(report.equivalent - report.proven) declared with a reason" : nil,
      report.proven > 0 ? "\(report.proven) proven by the statement's shape and the schema or by SQLite's program" : nil,
    ].compactMap { $0 }.joined(separator: ", ")
  }

  /// `97.5%`, or `100%`; a lesson without mutants has caught all of them.
  static func percent(_ part: Int, of whole: Int) -> String {
    guard whole > 0, part < whole else { return "100%" }
    let tenths = (part * 1000) / whole
    return "\(tenths / 10).\(tenths % 10)%"
  }
}

extension LessonsCommand {
  /// `quarry lessons --search-datasets [--write] FILE…`: the datasets each exercise keeps.
  static func searchDatasets(_ paths: [String], write: Bool) throws {
    var totals = (tried: 0, fixed: 0, searched: 0, survivors: 0)
    for path in paths {
      let lesson = try Lesson.load(path: path)
      let views = LessonLinter.views(of: lesson.fixture)
      var lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).map(
        String.init)
      for (number, exercise) in lesson.exercises.enumerated() {
        let finding: DatasetSearch.Finding
        do {
          finding = try DatasetSearch().search(exercise, fixture: lesson.fixture, views: views)
        } catch {
          StandardStreams.error("\(path):\(exercise.solutionLine): \(number + 1) \(exercise.title): \(error)\n")
          continue
        }
        totals.tried += finding.tried
        totals.fixed += finding.killedOnFixedData
        totals.searched += finding.killedBySearch
        totals.survivors += finding.survivors.count
        print(
          "\(path):\(exercise.solutionLine): \(number + 1) \(exercise.title): \(finding.tried) mutants, \(finding.killedOnFixedData) killed on the fixed data, \(finding.killedBySearch) by datasets \(finding.seeds.map(String.init).joined(separator: ",")) (of \(finding.usableCandidates) usable), \(finding.provenEquivalent) proven equivalent, \(finding.survivors.count) surviving"
        )
        for survivor in finding.survivors {
          print("    survives: \(survivor.kind): \(survivor.code.replacing("\n", with: " "))")
        }
        // The fence line above the solution's first line.
        let fence = exercise.solutionLine - 2
        if write, fence >= 0, fence < lines.count, lines[fence].hasPrefix("```solution") {
          var words = lines[fence].split(separator: " ").map(String.init).filter { !$0.hasPrefix("datasets=") }
          if !finding.seeds.isEmpty { words.append("datasets=" + finding.seeds.map(String.init).joined(separator: ",")) }
          lines[fence] = words.joined(separator: " ")
        }
      }
      if write { try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8) }
    }
    print(
      "mutants: \(totals.tried); killed on the fixed data \(totals.fixed), by searched datasets \(totals.searched), surviving \(totals.survivors)"
    )
  }

  /// `quarry lessons --dataset N.K SEED`: a searched dataset's rows.
  func printDataset(_ position: String) throws {
    let (lesson, exercise, _, _) = try Self.exercise(at: position, option: "--dataset")
    guard let text = files.first, let seed = UInt64(text) else {
      StandardStreams.error("quarry: error: --dataset \(position) needs the dataset's number after it (a ✗ message names it: dataset 7)\n")
      throw ExitCode(2)
    }
    print(try AnswerChecker.datasetSQL(of: exercise, fixture: lesson.fixture, seed: seed), terminator: "")
  }

  static func refuse(_ message: String) throws -> Never {
    StandardStreams.error("quarry: error: \(message)\n")
    throw ExitCode(2)
  }

  /// The lesson and exercise `N.K` names (and N and K), or a refusal (exit 2).
  static func exercise(at position: String, option: String) throws -> (Lesson, Exercise, Int, Int) {
    let parts = position.split(separator: ".")
    guard parts.count == 2, let lessonNumber = Int(parts[0]), let exerciseNumber = Int(parts[1]) else {
      try refuse("\(option) takes LESSON.EXERCISE, like 5.2; got '\(position)'")
    }
    let paths = Lesson.directory().map { Lesson.all(in: $0) } ?? []
    guard lessonNumber >= 1, lessonNumber <= paths.count else {
      try refuse("no lesson \(lessonNumber); there are \(paths.count)")
    }
    let lesson = try Lesson.load(path: paths[lessonNumber - 1])
    guard exerciseNumber >= 1, exerciseNumber <= lesson.exercises.count else {
      try refuse("lesson \(lessonNumber) (\(lesson.title)) has \(lesson.exercises.count) exercises, not \(exerciseNumber)")
    }
    return (lesson, lesson.exercises[exerciseNumber - 1], lessonNumber, exerciseNumber)
  }

  /// `quarry lessons --check N.K 'ANSWER'`: one answer, checked without a terminal.
  func checkAnswer(_ position: String) throws {
    func refuse(_ message: String) throws -> Never { try Self.refuse(message) }
    let (lesson, exercise, lessonNumber, exerciseNumber) = try Self.exercise(at: position, option: "--check")
    var answer = files.joined(separator: " ")
    if answer.trimmingScalars(in: .whitespacesAndNewlines).isEmpty {
      answer = String(decoding: StandardStreams.readInput(), as: UTF8.self)
    }
    guard !answer.trimmingScalars(in: .whitespacesAndNewlines).isEmpty else { try refuse("no answer to check") }
    let name =
      "\(lessonNumber).\(exerciseNumber) "
      + (exercise.title.hasPrefix("Exercise: ") ? String(exercise.title.dropFirst(10)) : exercise.title)
    switch try AnswerChecker().check(answer, against: exercise, fixture: lesson.fixture) {
    case .correct:
      let kept = exercise.datasetSeeds.isEmpty ? "" : "datasets \(exercise.datasetSeeds.map(String.init).joined(separator: ", ")), and "
      print(
        "✓ \(name): correct on the fixture's rows, the variant rows and generated rows (seeds 1–3); and on rows whose values change as the schema allows (\(kept)\(FurtherDatasets.count) more drawn for this answer)"
      )
    case .wrong(let why):
      // On a searched dataset: where to see its rows.
      let seed = AnswerChecker.datasetSeed(namedIn: why)
      print("✗ \(name): \(why)" + (seed.map { " — its rows: quarry lessons --dataset \(position) \($0)" } ?? ""))
      throw ExitCode(1)
    }
  }
}

/// `quarry learn [N]`: the lessons with progress, or lesson N at the prompt.
struct LearnCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "learn", abstract: "List lessons with your progress, or open lesson N at the prompt.")

  @Argument(help: "The lesson to open.")
  var lesson: Int?

  mutating func run() throws {
    guard let directory = Lesson.directory() else {
      throw ValidationError("cannot find the lessons folder; set QUARRY_LESSONS to its path")
    }
    let tutor = Tutor(lessons: Lesson.all(in: directory))
    guard let lesson else {
      print(tutor.listing(), terminator: "")
      print("quarry learn N opens lesson N.")
      return
    }
    guard lesson >= 1, lesson <= tutor.lessons.count else {
      throw ValidationError("there is no lesson \(lesson); there are \(tutor.lessons.count)")
    }
    let session = try Session.fixture(Fixture.defaultName)
    let shell = Shell(session: session, fixtureName: Fixture.defaultName, output: .standardOutput, terminal: Terminal.current())
    tutor.install(in: shell)
    shell.terminalServices = QuarryTerminal()
    Repl.prepareTerminal()
    shell.handle(".lesson \(lesson)")
    Repl(shell: shell).start()
  }
}
