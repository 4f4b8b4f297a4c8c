import FoundationEssentials
import QueryBuilder

/// Validates a lesson: its format, that every example runs, that every solution passes its own
/// check on the fixture and its variant, and that every wrong answer fails as the lesson says.
///
/// ```swift
/// LessonLinter().lint(path: "lessons/01-basics.md")  // [] when the lesson is sound
/// ```
public final class LessonLinter {
  /// What the mutant check of the last `lint` did: mutants tried, caught (they fail the check on
  /// the fixture or the variant), and set aside as declared equivalent.
  public struct MutantReport: Sendable, Equatable {
    public var tried = 0
    public var caught = 0
    public var equivalent = 0
    /// Of the equivalent ones, those proven: by the statement's shape and the schema
    /// (``EquivalenceProof``), or compiled by SQLite to the solution's own program (``ProgramEquivalence``).
    public var proven = 0
    /// Mutants of the searched SQL space no dataset kills, not declared equivalent: exercise and kind.
    public var surviving: [String] = []

    public init(tried: Int = 0, caught: Int = 0, equivalent: Int = 0) {
      self.tried = tried
      self.caught = caught
      self.equivalent = equivalent
    }
  }

  public private(set) var lastMutants = MutantReport()

  public init() {}

  public func lint(path: String) -> [LessonProblem] {
    let lesson: Lesson
    do {
      lesson = try Lesson.load(path: path)
    } catch let problem as LessonProblem {
      return [problem]
    } catch {
      return [LessonProblem(path: path, line: 1, message: "\(error)")]
    }
    var problems: [LessonProblem] = []
    func problem(_ line: Int, _ message: String) { problems.append(LessonProblem(path: path, line: line, message: message)) }
    guard (try? Fixture.named(lesson.fixture)) != nil else {
      problem(2, "no fixture named '\(lesson.fixture)' (available: \(Fixture.available().joined(separator: ", ")))")
      return problems
    }
    if lesson.exercises.count < 4 { problem(1, "a lesson needs at least 4 exercises; this one has \(lesson.exercises.count)") }
    let checker = AnswerChecker(timeLimit: 2)
    // The fixture's views and their SELECTs, for the mutant that reads a view's rows without it.
    let fixtureViews = Self.views(of: lesson.fixture)
    var report = MutantReport()
    defer { lastMutants = report }
    // Examples run in order in one session, as a learner types them at the prompt (a later
    // example may use a table or a model an earlier one made).
    let exampleSession = try? Session.fixture(lesson.fixture)
    for step in lesson.steps {
      for example in step.examples {
        guard let exampleSession else {
          problem(example.line, "cannot load fixture '\(lesson.fixture)'")
          continue
        }
        let collector = ResultCollector()
        AnswerChecker.execute(example.code, in: exampleSession, sink: collector)
        if let error = collector.error {
          problem(example.line, "example fails: \(error)")
        }
      }
      guard let exercise = step.exercise else { continue }
      if exercise.prompt.isEmpty { problem(exercise.line, "'\(exercise.title)' has no prompt") }
      if exercise.hints.isEmpty { problem(exercise.line, "'\(exercise.title)' has no hint") }
      // A hint helps; it is not the answer.
      let compact: (String) -> String = { $0.filter { !$0.isWhitespace } }
      for hint in exercise.hints where compact(hint).contains(compact(exercise.solution)) {
        problem(exercise.line, "'\(exercise.title)': a hint gives the whole solution; leave the learner a step to take")
      }
      // What it teaches, declared (or `none`), and known.
      if exercise.techniques.isEmpty {
        problem(
          exercise.solutionLine,
          "'\(exercise.title)': declare what it teaches on the solution line, teaches=… (\(Technique.all.map(\.name).joined(separator: ", "))), or teaches=none when its rows alone decide"
        )
      }
      for declared in exercise.techniques where Technique.alternatives(declared) == nil {
        problem(
          exercise.solutionLine,
          "'\(exercise.title)': no technique '\(declared)' (known: \(Technique.all.map(\.name).joined(separator: ", ")); function:NAME names an SQL function)"
        )
      }
      // The solution's outcomes on both datasets, run once: every answer below is checked against them.
      let expected: [AnswerChecker.Outcome]
      do {
        expected = try checker.expectedOutcomes(of: exercise, fixture: lesson.fixture)
        if case .wrong(let why) = try checker.check(exercise.solution, against: exercise, fixture: lesson.fixture, expected: expected) {
          problem(exercise.solutionLine, "the solution does not pass its own check: \(why)")
        }
      } catch let failure as LessonProblem {
        problem(exercise.solutionLine, failure.message)
        continue
      } catch {
        problem(exercise.solutionLine, "\(error)")
        continue
      }
      // Every searched dataset is one the solution is determined on (the search keeps no other;
      // a change to the generator since the search may have made one that is not).
      let searched = AnswerChecker.datasets(for: exercise).suffix(exercise.datasetSeeds.count)
      let ties = expected.first.flatMap { AnswerChecker.tieProbe(of: exercise, onFixture: $0) }
      for (dataset, outcome) in zip(searched, expected.suffix(exercise.datasetSeeds.count))
      where checker.determination(of: outcome, exercise: exercise, fixture: lesson.fixture, dataset: dataset, ties: ties) == .undetermined {
        problem(
          exercise.solutionLine,
          "'\(exercise.title)': the solution's result on dataset \(dataset.generated?.values?.seed ?? 0) changes when SQLite reads tables in reverse or ties come the other way (an order the task leaves open): run quarry lessons --search-datasets --write"
        )
      }
      // Data that discriminates: the solution's result is non-empty on both datasets, and they differ.
      if expected.count > 1, let onFixture = expected.first {
        let onVariant = expected[1]
        let writes = onFixture.changed || !exercise.checkedTables.isEmpty
        if writes {
          if !onFixture.changed || !onVariant.changed {
            problem(
              exercise.solutionLine,
              "'\(exercise.title)': the solution changes nothing on the \(onFixture.changed ? "variant" : "fixture")'s rows: give it rows to change"
            )
          }
        } else if onFixture.rows.isEmpty || onVariant.rows.isEmpty {
          problem(
            exercise.solutionLine,
            "'\(exercise.title)': the solution's result is empty on the \(onFixture.rows.isEmpty ? "fixture" : "variant")'s rows: an empty expected result cannot tell answers apart"
          )
        } else if !exercise.isStatic, onFixture.rows.map(AnswerChecker.key) == onVariant.rows.map(AnswerChecker.key) {
          problem(
            exercise.solutionLine,
            "'\(exercise.title)': the solution gives the same rows on the fixture and the variant: the variant cannot catch an answer fitted to the fixture"
          )
        }
      }
      // Near-misses made from the solution: each must fail on one of the datasets.
      let mutants = Self.mutants(of: exercise, expected: expected, fixture: lesson.fixture, views: fixtureViews)
      var passingKinds: Set<String> = []
      for mutant in mutants {
        report.tried += 1
        guard case .correct? = try? checker.check(mutant.code, against: exercise, fixture: lesson.fixture, expected: expected) else {
          report.caught += 1
          continue
        }
        passingKinds.insert(mutant.kind)
        if exercise.equivalentMutants[mutant.kind] != nil {
          report.equivalent += 1
        } else if mutant.proof != nil {
          report.equivalent += 1
          report.proven += 1
        } else if let changed = mutant.statements, let onFixture = expected.first,
          ProgramEquivalence.same(Self.solutionStatements(onFixture), changed, fixture: lesson.fixture)
        {
          report.equivalent += 1
          report.proven += 1
        } else if SQLMutants.isSearched(mutant.kind) {
          // The SQL mutation space is wide and many of its mutants mean the same as the solution on
          // every dataset (DISTINCT on rows that are unique); those that survive are counted, and
          // `quarry lessons --search-datasets` lists them.
          report.surviving.append("'\(exercise.title)': \(mutant.kind)")
        } else {
          problem(
            exercise.solutionLine,
            "'\(exercise.title)': the mutant '\(mutant.kind)' passes the check on both datasets — add variant rows it gets wrong, or declare it in an ```equivalent block if no data the schema allows can tell it apart (\(mutant.code.replacing("\n", with: " ")))"
          )
        }
      }
      for kind in exercise.equivalentMutants.keys.sorted() where !passingKinds.contains(kind) {
        problem(
          exercise.solutionLine,
          "'\(exercise.title)': the mutant '\(kind)' is declared equivalent, but no such mutant passes the check: remove the declaration")
      }
      if exercise.wrongAnswers.isEmpty { problem(exercise.line, "'\(exercise.title)' has no plausible wrong answer (a ```wrong block)") }
      for wrong in exercise.wrongAnswers {
        switch try? checker.check(wrong.code, against: exercise, fixture: lesson.fixture, expected: expected) {
        case .wrong(let why)?:
          if !wrong.expectation.isEmpty, !why.contains(wrong.expectation) {
            problem(wrong.line, "the wrong answer fails with \"\(why)\", not \"\(wrong.expectation)\"")
          }
        default:
          problem(wrong.line, "the wrong answer passes the check")
        }
      }
    }
    return problems
  }

  /// The near-misses of a solution every check must reject: made from its text
  /// (``SolutionMutants``), from the SQL it runs (``SQLMutants``), and the technique skipped.
  static func mutants(of exercise: Exercise, expected: [AnswerChecker.Outcome], fixture: String, views: [String: String])
    -> [SolutionMutants.Mutant]
  {
    var mutants = SolutionMutants.of(exercise.solution, ordered: exercise.ordered)
    if exercise.checkedTables.isEmpty, let rows = expected.first, !rows.changed, let constant = SolutionMutants.constant(rows: rows.rows) {
      mutants.append(constant)
    }
    if let onFixture = expected.first, let ignoring = SolutionMutants.ignoringTheYear(onFixture) {
      mutants.append(ignoring)
    }
    // The same rows without the technique the exercise teaches (elsewhere these are correct
    // answers written differently).
    let teaches = Set(exercise.taught.map(\.name))
    if teaches.contains("view"), let onFixture = expected.first, let inlined = SolutionMutants.viewInlined(onFixture, views: views) {
      mutants.append(inlined)
    }
    if teaches.contains("distinct"), let onFixture = expected.first, let grouping = SolutionMutants.distinctAsGrouping(onFixture) {
      mutants.append(grouping)
    }
    if let onFixture = expected.first, onFixture.changed, let session = try? Session.fixture(fixture) {
      let before = onFixture.tables.compactMap { table in
        (try? AnswerChecker.contents(of: table.name, in: session)).map { (name: table.name, columns: $0.columns, rows: $0.rows) }
      }
      if before.count == onFixture.tables.count, let hardCoded = SolutionMutants.hardCodedWrite(before: before, after: onFixture) {
        mutants.append(hardCoded)
      }
    }
    if exercise.teachesSwiftSide, let onFixture = expected.first,
      let plain = SolutionMutants.plainSQL(of: onFixture, solution: exercise.solution)
    {
      mutants.append(plain)
    }
    if let onFixture = expected.first {
      let data = (try? Session.fixture(fixture)).map { SQLMutants.FixtureData(database: $0.database) }
      let statements = solutionStatements(onFixture)
      mutants += SQLMutants.of(statements, data: data).map {
        SolutionMutants.Mutant(kind: $0.kind, code: $0.code, statements: $0.statements, proof: $0.proof)
      }
      // Cut to the fixture: a LIMIT of as many rows as the fixture has answers.
      if !onFixture.changed, exercise.checkedTables.isEmpty, let last = statements.last, !onFixture.rows.isEmpty,
        !AnswerEvidence.keywords(of: last).contains("LIMIT")
      {
        let cut = Array(statements.prefix(statements.count - 1)) + [last.trimmingTrailingSemicolons() + " LIMIT \(onFixture.rows.count)"]
        let oneRow = EquivalenceProof(tokens: SQLMutants.tokens(last), database: nil).mainQueryOneRow()
        mutants.append(
          SolutionMutants.Mutant(
            kind: "cut to the fixture (LIMIT \(onFixture.rows.count))", code: cut.joined(separator: ";\n") + ";", statements: cut,
            proof: oneRow))
      }
      if let walk = walkCutToTheFixture(statements, exercise: exercise, fixture: fixture, expected: expected) { mutants.append(walk) }
    }
    return mutants
  }

  /// A recursive walk stopped at the depth the fixed datasets' trees reach (``WalkDepth``): the
  /// smallest bound that still gives the solution's result on each of them, which only a deeper
  /// tree tells apart (a smaller bound fails there too).
  static func walkCutToTheFixture(
    _ statements: [String], exercise: Exercise, fixture: String, expected: [AnswerChecker.Outcome]
  ) -> SolutionMutants.Mutant? {
    let fixed = zip(AnswerChecker.datasets(for: exercise), expected).prefix(expected.count - exercise.datasetSeeds.count)
      .filter { !$0.1.undetermined }
    let checker = AnswerChecker(timeLimit: 2)
    for bound in 0...16 {
      let bounded = statements.map { WalkDepth.bounded($0, below: bound) }
      guard bounded.contains(where: { $0 != nil }) else { return nil }
      let script = zip(statements, bounded).map { ($1 ?? $0).trimmingTrailingSemicolons() }
      let code = script.joined(separator: ";\n") + ";"
      let passes = fixed.allSatisfy { dataset, outcome in
        guard let actual = try? checker.run(code, exercise: exercise, fixture: fixture, dataset: dataset) else { return false }
        return checker.compare(expected: outcome, actual: actual, exercise: exercise) == nil
      }
      guard passes else { continue }
      return SolutionMutants.Mutant(kind: "cut to the fixed data's depth (a walk stopped below \(bound))", code: code, statements: script)
    }
    return nil
  }

  /// The statements a solution ran, values written in, as plain SQL: what its SQL mutants change.
  /// Empty when they do not stand alone (a function or a model the session declared).
  static func solutionStatements(_ outcome: AnswerChecker.Outcome) -> [String] {
    guard outcome.evidence.userFunctions.isEmpty else { return [] }
    return outcome.evidence.statements.map(\.inlinedSQL)
  }

  /// A fixture's views and their SELECTs (for the mutant that reads a view's rows without it).
  public static func views(of fixture: String) -> [String: String] {
    var fixtureViews: [String: String] = [:]
    if let session = try? Session.fixture(fixture),
      let rows = try? session.database.rows("SELECT name, sql FROM sqlite_schema WHERE type = 'view'")
    {
      for row in rows {
        guard let name = row.first?.textValue, let sql = row.last?.textValue,
          let select = Self.viewSelect(sql)
        else { continue }
        fixtureViews[name] = select
      }
    }
    return fixtureViews
  }

  /// The SELECT of `CREATE VIEW name AS SELECT …`: what follows the first top-level AS.
  static func viewSelect(_ sql: String) -> String? {
    let words = AnswerEvidence.keywords(of: sql)
    guard words.starts(with: ["CREATE"]),
      let range = TextPattern(#"\bAS\s+(SELECT|WITH|VALUES)\b"#, ignoringCase: true)?.firstMatch(in: sql)?.range
    else { return nil }
    return String(sql[range.lowerBound...].dropFirst(2)).trimmingScalars(in: .whitespacesAndNewlines)
  }

  /// An example's first error on a fresh copy of the fixture, if any.
}
