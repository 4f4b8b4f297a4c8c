import FoundationEssentials
import QuarryDSL
import QuarryEngine
import QueryBuilder

/// Checks an answer against an exercise's solution on the fixture and on its variant rows.
/// Results compare by column position (names ignored), as multisets unless the exercise asks
/// for an order; write exercises compare the tables they name afterwards.
///
/// ```swift
/// AnswerChecker().check("Tag.select(\\.title)", against: exercise, fixture: "reminders")
/// // .wrong("expected 3 rows, got 5 (on the fixture's rows)")
/// ```
public struct AnswerChecker {
  public enum Verdict: Equatable, Sendable {
    case correct
    case wrong(String)
  }

  /// What an input did: the rows its last statement produced, and — when it changed data — the
  /// contents of every table afterwards.
  struct Outcome {
    var columns: [String]
    var rows: [[DatabaseValue]]
    var changed = false
    /// The SQL of the statement whose rows these are.
    var sql = ""
    var tables: [(name: String, columns: [String], rows: [[DatabaseValue]])] = []
    /// The schema objects the input created or changed (tables, views, indexes, triggers).
    var created: [SchemaObjects.Object] = []
    /// The whole schema after the input.
    var schema = SchemaObjects()
    /// What the input did besides its rows (statements, plans, features): techniques are
    /// checked on it.
    var evidence = AnswerEvidence()
    /// How the tables the input created behave: the rows they refuse.
    var probes = ConstraintProbes()
    /// The solution's result here depends on an order the task leaves open (a tie, a table read
    /// the other way): no answer is judged on this dataset.
    var undetermined = false
    /// Only the order of its rows does (a tie in the order an ordered exercise asks for): rows
    /// are compared here whatever their order.
    var orderOpen = false
    /// Where `orderOpen`, each row's group of equal sort keys (``TieOrder/grouped(_:)``), when
    /// known: rows are then compared in order, each group's rows in any order among themselves.
    var tieGroups: [Int64]? = nil
  }

  /// Whether a solution's result on a dataset is the one answer the task allows.
  enum Determination { case determined, orderOpen, undetermined }

  /// How long one run of an answer may take before it is stopped (an endless recursive CTE).
  public var timeLimit: Double

  /// Made when the checker is: a Ctrl-C from then on stops the check, whichever database it
  /// is preparing or running on at that moment.
  let stop = WorkLimit.StopRequest()

  /// Each dataset's rows, made once: the solution, the answer and the probes of one dataset run
  /// on copies of them (making value-varied rows costs more than running a query on them).
  let preparedRows = PreparedRows()

  public init(timeLimit: Double = 5) { self.timeLimit = timeLimit }

  static let stoppedMessage = "the check was stopped (Ctrl-C) before the query finished"

  /// Checks `answer` (DSL or plain SQL, with or without `.raw`) on the fixture and its variant.
  /// `context` holds inputs made at the prompt before the answer (an alias enum, a `@Table` for
  /// a view, a `let`): they run first, as they did for the learner.
  public func check(_ answer: String, against exercise: Exercise, fixture: String, context: [String] = []) throws -> Verdict {
    do {
      return try check(
        answer, against: exercise, fixture: fixture, context: context, expected: expectedOutcomes(of: exercise, fixture: fixture))
    } catch  where stop.isRequested {
      // Stopped while the solution ran: that is no fault of the lesson's.
      return .wrong(Self.stoppedMessage)
    }
  }

  /// What the solution does on the fixture and on the variant, in that order: computed once by
  /// a caller that checks many answers against one exercise (the lint's mutants).
  func expectedOutcomes(of exercise: Exercise, fixture: String) throws -> [Outcome] {
    let datasets = Self.datasets(for: exercise)
    var outcomes = try datasets.map { dataset in
      do {
        return try run(exercise.solution, exercise: exercise, fixture: fixture, dataset: dataset, context: [])
      } catch let error as CheckFailure {
        throw LessonProblem(path: fixture, line: exercise.solutionLine, message: "the solution fails: \(error.message)")
      }
    }
    // The fixture's rows are what the learner sees: the others are judged on only where the
    // solution's result is the one answer. Ties an ORDER BY leaves open can come from any
    // dataset; the copies of the generated ones make ties of unordered reads too.
    guard let onFixture = outcomes.first else { return outcomes }
    let ties = Self.tieProbe(of: exercise, onFixture: onFixture)
    for index in outcomes.indices.dropFirst() {
      let dataset = datasets[index]
      guard ties != nil || (dataset.generated != nil && dataset.generated?.values == nil) else { continue }
      switch determination(of: outcomes[index], exercise: exercise, fixture: fixture, dataset: dataset, ties: ties) {
      case .determined: break
      case .orderOpen:
        outcomes[index].orderOpen = true
        outcomes[index].tieGroups = tieGroups(
          of: outcomes[index], exercise: exercise, fixture: fixture, dataset: dataset, onFixture: onFixture)
      case .undetermined: outcomes[index].undetermined = true
      }
    }
    return outcomes
  }

  /// The group of equal sort keys of each of the solution's rows on `dataset`: its last statement
  /// run again with ``TieOrder/grouped(_:)``'s column, which must give the same rows in the same
  /// order (nil otherwise, or when it cannot be added).
  func tieGroups(of outcome: Outcome, exercise: Exercise, fixture: String, dataset: Dataset, onFixture: Outcome) -> [Int64]? {
    let statements = LessonLinter.solutionStatements(onFixture)
    guard let last = statements.last, let grouped = TieOrder.grouped(last) else { return nil }
    var rows = dataset
    rows.tiesMoved = true
    let script = Self.script(statements, replacingLast: grouped)
    guard let keyed = try? run(script, exercise: exercise, fixture: fixture, dataset: rows), keyed.rows.count == outcome.rows.count,
      zip(keyed.rows, outcome.rows).allSatisfy({ Self.key(Array($0.dropLast())) == Self.key($1) })
    else { return nil }
    return keyed.rows.map { row in row.last.flatMap { if case .integer(let group) = $0 { group } else { nil } } ?? -1 }
  }

  /// The solution's statements as one script, its last statement replaced by a probe of it (a
  /// tie column added, ties ordered otherwise).
  static func script(_ statements: [String], replacingLast probe: String) -> String {
    (statements.dropLast() + [probe]).map { $0.trimmingTrailingSemicolons() }.joined(separator: ";\n") + ";"
  }

  /// The solution's SQL with the ties of every deciding ORDER BY moved (``TieOrder``); nil when
  /// no ORDER BY decides (or its statements do not stand alone).
  static func tieProbe(of exercise: Exercise, onFixture: Outcome) -> String? {
    let statements = LessonLinter.solutionStatements(onFixture)
    let moved = statements.map { TieOrder.movingTies($0) }
    guard moved.contains(where: { $0 != nil }) else { return nil }
    let script = zip(statements, moved).map { ($1 ?? $0).trimmingTrailingSemicolons() }
    return script.joined(separator: ";\n") + ";"
  }

  /// Whether the solution's `outcome` on `dataset` stays when tables are read in reverse, and
  /// when the ties its ORDER BYs leave come in another order (`ties`, from
  /// ``tieProbe(of:onFixture:)``); or, for an ordered exercise, whether only its order moves.
  /// (Two runs: reading tables in reverse reverses the order ties reach a sort in, so both at
  /// once would undo each other.)
  func determination(of outcome: Outcome, exercise: Exercise, fixture: String, dataset: Dataset, ties: String?)
    -> Determination
  {
    var reversedReads = dataset
    reversedReads.reversed = true
    var movedTies = dataset
    movedTies.tiesMoved = true
    var unordered = exercise
    unordered.ordered = false
    var result = Determination.determined
    for (input, rows) in [(exercise.solution, reversedReads)] + (ties.map { [($0, movedTies)] } ?? []) {
      guard let other = try? run(input, exercise: exercise, fixture: fixture, dataset: rows),
        compare(expected: outcome, actual: other, exercise: exercise) != nil
      else { continue }
      guard exercise.ordered, compare(expected: outcome, actual: other, exercise: unordered) == nil else { return .undetermined }
      result = .orderOpen
    }
    return result
  }

  /// Checks `answer` against outcomes `expectedOutcomes(of:fixture:)` gave.
  func check(_ answer: String, against exercise: Exercise, fixture: String, context: [String] = [], expected outcomes: [Outcome]) throws
    -> Verdict
  {
    var evidence: AnswerEvidence?
    for (dataset, expected) in zip(Self.datasets(for: exercise), outcomes) where !expected.undetermined {
      // A Ctrl-C between two datasets' runs stops the check too.
      if stop.isRequested { return .wrong(Self.stoppedMessage) }
      let actual: Outcome
      do {
        actual = try run(answer, exercise: exercise, fixture: fixture, dataset: dataset, context: context)
      } catch let error as CheckFailure {
        // An error only under other ids (a fixed id that is taken there): where, said.
        let place =
          dataset.idShift == 0 ? "" : place(of: dataset, answer: answer, exercise: exercise, fixture: fixture, outcomes: [expected])
        return .wrong(Self.explain(error.message) + place)
      }
      if let difference = compare(expected: expected, actual: actual, exercise: exercise) {
        return .wrong(difference + place(of: dataset, answer: answer, exercise: exercise, fixture: fixture, outcomes: [expected, actual]))
      }
      evidence = evidence ?? actual.evidence
    }
    // Right on every dataset the exercise keeps: then on more, drawn for this answer — unless
    // it runs the solution's own statements.
    if let onFixture = outcomes.first, let evidence,
      evidence.statements.map(\.inlinedSQL) != onFixture.evidence.statements.map(\.inlinedSQL),
      let difference = try FurtherDatasets(checker: self).difference(
        of: answer, exercise: exercise, fixture: fixture, context: context, onFixture: onFixture)
    {
      return .wrong(difference)
    }
    // Right on every dataset: then what the exercise teaches must be there.
    let comparesRows = exercise.checkedTables.isEmpty && outcomes.first?.changed == false
    if let evidence, let shortfall = Technique.shortfall(of: evidence, declared: exercise.techniques, comparesRows: comparesRows) {
      return .wrong(shortfall)
    }
    // A view the exercise has the answer create must be what the answer reads its rows from.
    let madeViews = Set((outcomes.first?.created ?? []).filter { $0.type == "view" }.map { $0.name.lowercased() })
    if comparesRows, !madeViews.isEmpty, exercise.taught.contains(where: { $0.name == "view" }), let evidence,
      !evidence.answerReads(any: madeViews)
    {
      return .wrong(
        "right result, but this exercise is about a view of your own: your last query does not read the view it creates ('\(madeViews.sorted().joined(separator: "', '"))')"
      )
    }
    return .correct
  }

  struct CheckFailure: Error { var message: String }

  /// Where an answer went wrong, said after the difference: which dataset, and what it holds that
  /// the fixture's rows do not (the rows that differ, on a generated dataset).
  func place(of dataset: Dataset, answer: String, exercise: Exercise, fixture: String, outcomes: [Outcome]) -> String {
    if dataset.idShift == 1 {
      return
        " (on the fixture's rows with every id one higher: the id the fixture gives a new row next is taken, and an id read off the fixture names the row before it, so it depends on an id written in it)"
    }
    if dataset.idShift != 0 {
      return " (on the variant rows under other ids: it matched them under the fixture's ids, so it depends on an id written in it)"
    }
    let changes = dataset.generated == nil ? "" : Self.shownChanges(of: dataset, fixture: fixture, outcomes: outcomes)
    if let recipe = dataset.generated, let values = recipe.values, !values.spread.isEmpty {
      let named = values.spread.map(quoteText).joined(separator: ", ")
      return
        " (on rows whose values change as the schema allows, with \(named), which your answer names and the solution does not, put in more rows where a column of that name holds it: the rows you saw hold it in some places only\(changes))"
    }
    if let recipe = dataset.generated, let values = recipe.values {
      return
        " (on rows whose values change as the schema allows, dataset \(values.seed)\(dataset.permutesIDs ? ", ids moved" : ""): it matched the fixture's and the variant's rows, but these hold a case they do not — a NULL, a number on a boundary or 0, a text in other letter case or with % or _, a new value, a copied row, an empty table\(changes))"
    }
    if let recipe = dataset.generated {
      return
        " (on \(recipe.description)\(dataset.permutesIDs ? ", ids permuted" : ""): it matched the fixture's and the variant's rows, but these have a case they do not — a duplicate, a tie, a date in another year, rows in another order\(changes))"
    }
    if !dataset.variant { return "" }
    if Self.looksFitted(answer, solution: exercise.solution, fixtureValues: Self.values(ofFixture: fixture)) {
      return " (on the variant rows; it matched the fixture's rows, so it may be fitted to them)"
    }
    return
      " (on the variant rows; it matched the fixture's rows, but these have a case it gets wrong: a tie, a NULL, a value on a boundary, a word inside another)"
  }

  /// The seed of the value-varied dataset a ✗ message names ("…as the schema allows, dataset
  /// 17, ids moved: …"): `quarry lessons --dataset N.K 17` prints its rows. Nil when it names none.
  public static func datasetSeed(namedIn message: String) -> UInt64? {
    guard let range = message.firstRange(of: "as the schema allows, dataset ") else { return nil }
    return UInt64(String(message[range.upperBound...].prefix { $0.isASCII && $0.isNumber }))
  }

  /// "; the rows that differ there from the ones it was made from: …": a generated dataset's
  /// changes in the tables the solution and the answer touched (the rows the learner never saw).
  static func shownChanges(of dataset: Dataset, fixture: String, outcomes: [Outcome]) -> String {
    let sql = outcomes.flatMap(\.evidence.statements).map(\.sql)
    guard let changes = try? DatasetChanges(dataset: dataset, fixture: fixture, namedIn: sql), let summary = changes.summary() else {
      return ""
    }
    return "; the rows that differ there from the \(dataset.variant ? "variant's" : "fixture's"): " + summary
  }

  /// Whether an answer that matched the fixture only looks written for its rows: constant rows
  /// (`VALUES`, `Values(…)`), or a literal the solution does not use (an id, a name, a total
  /// read off the fixture).
  ///
  /// With `fixtureValues` (the fixture's cells, as `literals(in:)` writes them), only a literal
  /// that is one of them counts: a date modifier or a format inside `#sql` ('+7 days', '%Y-%m')
  /// is not read off the rows.
  static func looksFitted(_ answer: String, solution: String, fixtureValues: Set<String>? = nil) -> Bool {
    let trimmed = answer.trimmingScalars(in: .whitespacesAndNewlines)
    if trimmed.uppercased().hasPrefix("VALUES") || trimmed.contains("Values(") { return true }
    // A pattern made of the solution's own words ('%ask%' for "ask") is not read off the rows.
    let bare = { (literals: Set<String>) in Set(literals.map { $0.filter { $0 != "%" && $0 != "*" } }) }
    let own = bare(literals(in: answer)).subtracting(bare(literals(in: solution)))
    guard let fixtureValues else { return !own.isEmpty }
    return !own.isDisjoint(with: fixtureValues)
  }

  /// Every cell of a fixture's tables, as `literals(in:)` writes a literal: `s` and the text, `n`
  /// and the number.
  static func values(ofFixture fixture: String) -> Set<String>? {
    guard let session = try? Session.fixture(fixture), let tables = try? userTables(of: session) else { return nil }
    var values: Set<String> = []
    for table in tables {
      for row in (try? session.database.rows("SELECT * FROM \(quoteIdentifier(table))")) ?? [] {
        for cell in row {
          switch cell {
          case .text(let text): values.insert("s" + text)
          case .integer(let number): values.insert("n\(number)")
          case .double(let number):
            values.insert("n\(number)")
            if number == number.rounded(), abs(number) < 1e15 { values.insert("n\(Int64(number))") }
          default: break
          }
        }
      }
    }
    return values
  }

  /// The quoted strings and numbers of a text (quotes dropped, so 'a' and "a" are one literal).
  static func literals(in text: String) -> Set<String> {
    var found: Set<String> = []
    var current = ""
    var quote: Character?
    var number = ""
    var previous: Character = " "
    for character in text + " " {
      if let open = quote {
        if character == open {
          found.insert("s" + current)
          current = ""
          quote = nil
        } else {
          current.append(character)
        }
        previous = character
        continue
      }
      if character == "'" || character == "\"" {
        quote = character
      } else if character.isNumber || (character == "." && !number.isEmpty) {
        if number.isEmpty, previous.isLetter || previous == "$" || previous == "_" {
          previous = character
          continue
        }
        number.append(character)
      } else if !number.isEmpty {
        if !(character.isLetter || character == "_") { found.insert("n" + number) }
        number = ""
      }
      previous = character
    }
    return found
  }

  /// The datasets every answer runs on: the fixture, its variant rows, and the variant rows with
  /// every integer id moved (an id read off the fixture then names no row, or another).
  /// An exercise whose solution names a row by its id (`find(1)`, `$0.id.eq(4)`: the task gives
  /// that id) runs on the first two only. One that adds rows runs on the fixture's rows with
  /// every id one higher too (the id a new row would get next is taken).
  ///
  /// Then three generated datasets (``GeneratedRows``, seeds 1–3) made from the variant rows:
  /// rows copied, dates moved to other years, ids permuted (kept where the solution names an id). Rows holding a string the solution writes (a name the task gives) are not copied.
  static func datasets(for exercise: Exercise) -> [Dataset] {
    let literals = literals(in: exercise.solution)
    let namesNumbers = namesAnID(exercise.solution)
    let given = Set(literals.filter { $0.hasPrefix("s") }.map { String($0.dropFirst()) })
    var datasets = [Dataset(variant: false), Dataset(variant: true)]
    if !namesNumbers { datasets.append(Dataset(variant: true, idShift: 1000)) }
    // An exercise that adds rows: the fixture's rows with every id one higher, so the id the
    // fixture would give a new row next is taken (`VALUES (5, 'Reading', …)` read off the
    // fixture collides), and an id read off it names the row before.
    if !namesNumbers, addsRows(exercise.solution) { datasets.append(Dataset(variant: false, idShift: 1)) }
    for seed in 1...3 {
      datasets.append(
        Dataset(
          variant: true, generated: GeneratedRows(seed: UInt64(seed), copiesRows: !exercise.ordered), permutesIDs: !namesNumbers,
          keeping: given))
    }
    for seed in exercise.datasetSeeds {
      datasets.append(varied(seed, for: exercise))
    }
    return datasets
  }

  /// The rows of searched dataset `seed` of an exercise, as SQL that loads them into a copy of the
  /// fixture (`DELETE FROM` each table, then its rows): what a message about that dataset meant.
  ///
  /// ```
  /// DELETE FROM "orders";
  /// INSERT INTO "orders" VALUES (0, 301, '2026-01-04', 'other');
  /// ```
  public static func datasetSQL(of exercise: Exercise, fixture: String, seed: UInt64) throws -> String {
    let dataset = varied(seed, for: exercise)
    let session = try Session.fixture(fixture, variant: dataset.variant, shiftingIDs: 0) { database in
      try dataset.generated?.apply(to: database, permutingIDs: dataset.permutesIDs, keeping: dataset.keeping, bounds: dataset.bounds)
    }
    let title = exercise.title.hasPrefix("Exercise: ") ? String(exercise.title.dropFirst(10)) : exercise.title
    var out = "-- dataset \(seed) of exercise '\(title)': load it into the fixture with .read\nPRAGMA foreign_keys = OFF;\n"
    for table in try userTables(of: session) {
      out += "DELETE FROM \(quoteIdentifier(table));\n"
      for row in try session.database.rows("SELECT * FROM \(quoteIdentifier(table)) ORDER BY rowid") {
        out += "INSERT INTO \(quoteIdentifier(table)) VALUES (\(row.map(\.inlineSQL).joined(separator: ", ")));\n"
      }
    }
    return out + "PRAGMA foreign_keys = ON;\n"
  }

  /// Whether a solution names a row by its id (`find(3)`, `$0.id.eq(1)`, `"managerID" = 4`,
  /// `id IN (1, 2)`): the task gives that id, so ids stay where they are. A number written for
  /// anything else (`limit(3)`, `depth: 1`, `price < 20`) leaves ids free to move.
  static func namesAnID(_ solution: String) -> Bool {
    idPatterns.contains { $0?.contains(in: solution) ?? true }
  }

  /// `namesAnID`'s patterns, compiled once (each dataset of every check asks): an id compared
  /// or found, then a label (`orderID: 1`) and a row of VALUES (`VALUES (1, 3, 2)`).
  /// (A compiled pattern is only read, never changed.)
  nonisolated(unsafe) private static let idPatterns = [
    TextPattern(
      #"(?i)(\bfind\(\s*\[?\s*-?\d|(\bid|[a-z]id)\b["'\)\]\s]*(\.(eq|neq|lt|lte|gt|gte)\(|\.in\(\s*\[|==|<=|>=|=|<>|!=|<|>|\bin\s*\()\s*\(?\[?\s*-?\d)"#
    ),
    TextPattern(#"(?i)[a-z]id\s*:\s*-?\d|\bvalues\b\s*:?\s*\{?\s*\([^)]*\d"#),
  ]

  /// Whether a solution inserts rows (`INSERT`, `.insert { … }`, `.upsert { … }`).
  static func addsRows(_ solution: String) -> Bool {
    TextPattern(#"(?i)\b(insert|upsert)\b"#)?.contains(in: solution) ?? false
  }

  /// A dataset whose values change too (``ValueVariation``), from the variant rows (odd seeds) or
  /// the fixture's (even ones): the kind the dataset search draws from. Copies and id moves as for
  /// the generated datasets; the values
  /// move onto the solution's own numbers and dates too.
  static func varied(_ seed: UInt64, for exercise: Exercise) -> Dataset {
    let literals = literals(in: exercise.solution)
    let namesNumbers = namesAnID(exercise.solution)
    let given = Set(literals.filter { $0.hasPrefix("s") }.map { String($0.dropFirst()) })
    // A literal inside `#sql("'2026-03-06'")` is quoted twice: the SQL string's quotes go too.
    let bounds = literals.map { String($0.dropFirst()).trimmingScalars(in: ["'"]) }.filter {
      Double($0) != nil || ValueVariation.isDate($0)
    }.sorted()
    let named = namesNumbers ? Set(bounds.compactMap { Int64($0) }) : []
    let recipe = GeneratedRows(
      seed: seed, copiesRows: true,
      values: ValueVariation(
        seed: seed, focus: ValueVariation.focus(of: exercise.solution), namedRows: named,
        linesOnBounds: ValueVariation.lineSeeds.contains(seed))
    )
    // Odd seeds start from the variant rows, even ones from the fixture's: a copy or a changed
    // value there gives more rows than the fixture had (what an answer cut to its rows misses).
    return Dataset(variant: seed % 2 == 1, generated: recipe, permutesIDs: !namesNumbers, keeping: given, bounds: bounds)
  }

  /// Rows an answer runs on.
  struct Dataset {
    var variant: Bool
    var idShift: Int64 = 0
    var generated: GeneratedRows? = nil
    var permutesIDs = false
    var keeping: Set<String> = []
    var bounds: [String] = []
    /// Tables read in the reverse of their usual order (`PRAGMA reverse_unordered_selects`): what
    /// an order the query leaves open can come out as. The dataset search runs the solution so
    /// too, and keeps only datasets on which its result is the same either way.
    var reversed = false
    /// Ties an ORDER BY leaves open come in another order (``TieOrder``: the run's input appends
    /// `quarry_tie_order(…)`).
    var tiesMoved = false
  }

  /// What every run of the checker refuses: an answer is checked on in-memory copies of the
  /// fixture, several times, so it never reaches another database or a file.
  static let confinement = Confinement(reason: "the checker runs each answer on in-memory copies of the fixture and never touches a file")

  func run(_ input: String, exercise: Exercise, fixture: String, variant: Bool, context: [String] = []) throws -> Outcome {
    try run(input, exercise: exercise, fixture: fixture, dataset: Dataset(variant: variant), context: context)
  }

  func run(_ input: String, exercise: Exercise, fixture: String, dataset: Dataset, context: [String] = []) throws -> Outcome {
    let session = try preparedRows.session(of: dataset, fixture: fixture)
    if dataset.reversed { try session.database.execute("PRAGMA reverse_unordered_selects = ON") }
    if dataset.tiesMoved { try TieOrder.register(on: session.database) }
    // The answer runs on this in-memory copy only: nothing it does reaches a file.
    session.database.confine(Self.confinement)
    let functionsBefore = AnswerEvidence.userFunctions(in: session.database)
    // What the answer creates and uses counts from the fixture on: set-up typed at the prompt
    // before `.check` (a table, a view, a migration) is part of the answer.
    let schemaBefore = SchemaObjects.read(session.database, cache: preparedRows.schemas)
    let indexesBefore = AnswerEvidence.names(ofType: "index", in: session.database)
    session.compiler.features = []
    session.compiler.fetchStartValues = []
    session.compiler.declarationsUsed = [:]
    // Scopes and computed columns the fixture's models declare: "of your own" means not these.
    let fixtureDeclarations = session.catalog.declarationSources
    let log = session.database.recordAccess()
    // The fixture's own tables decide whether an input wrote: tables it creates for itself (an
    // FTS index, a table of its own), at the prompt or in the answer, are set-up, not effects.
    // What the checker reads itself (tables, the schema) is kept out of the access log.
    let database = session.database
    let baseline =
      exercise.checkedTables.isEmpty ? try database.withoutRecordingAccess { try Self.userTables(of: session) } : exercise.checkedTables
    for earlier in context { Self.execute(earlier, in: session, sink: ResultCollector()) }
    let contentsBefore = try database.withoutRecordingAccess { try baseline.map { try Self.contents(of: $0, in: session) } }
    // Whether the input changed anything: then (only then) the tables are read again after it.
    func version() -> [DatabaseValue?] {
      database.withoutRecordingAccess {
        [.integer(Int64(database.totalChanges)), try? database.rows("PRAGMA schema_version").first?.first]
      }
    }
    let versionBefore = version()
    let autoIncrementKeys = database.withoutRecordingAccess { Self.autoIncrementKeys(in: database) }
    // Techniques are read from the run on the fixture's rows; the other runs compare rows.
    let collector = ResultCollector(recordingIn: session.database, explaining: !dataset.variant)
    let limit = session.database.limitWork(seconds: timeLimit, stoppedBy: stop)
    Self.execute(input, in: session, sink: collector)
    session.database.removeWorkLimit()
    session.database.stopRecordingAccess()
    switch limit.reason {
    case .timeLimit?:
      throw CheckFailure(
        message:
          "stopped after \(Self.seconds(timeLimit)): the query did not finish (a recursive CTE needs a `where` in its recursive part that ends it)"
      )
    case .stopped?:
      throw CheckFailure(message: Self.stoppedMessage)
    case nil: break
    }
    if let error = collector.error { throw CheckFailure(message: error) }
    guard collector.statements > 0 else { throw CheckFailure(message: "there is no query to check") }
    var outcome = Outcome(columns: collector.columns, rows: collector.rows, changed: false, sql: collector.sql)
    outcome.schema = SchemaObjects.read(session.database, cache: preparedRows.schemas)
    outcome.created = schemaBefore.changes(to: outcome.schema)
    var evidence = AnswerEvidence()
    evidence.statements = collector.facts
    evidence.accesses = log.accesses
    evidence.features = session.compiler.features
    evidence.fetchStartValues = session.compiler.fetchStartValues
    evidence.ownDeclarations = Set(session.compiler.declarationsUsed.filter { !$0.value.subtracting(fixtureDeclarations).isEmpty }.keys)
    evidence.views = AnswerEvidence.names(ofType: "view", in: session.database)
    evidence.triggers = AnswerEvidence.names(ofType: "trigger", in: session.database)
    evidence.createdIndexes = AnswerEvidence.names(ofType: "index", in: session.database).subtracting(indexesBefore)
    evidence.userFunctions = AnswerEvidence.userFunctions(in: session.database).subtracting(functionsBefore)
    outcome.probes = ConstraintProbes.run(on: outcome.created.filter { $0.type == "table" }.map(\.name), in: session.database)
    evidence.refusesByCheck = outcome.probes.refusesByCheck
    outcome.evidence = evidence
    let untouched = version() == versionBefore
    for (table, (columns:columnsBefore, rows:before)) in zip(baseline, contentsBefore) {
      // A table the input dropped reads as empty.
      var after =
        untouched ? (columns: columnsBefore, rows: before) : (try? Self.contents(of: table, in: session)) ?? (columns: [], rows: [])
      // An id SQLite assigns to a new row of an AUTOINCREMENT table depends on what ran before
      // (an ignored insert uses one up): a new row is compared by its other columns.
      if let key = autoIncrementKeys[table], let index = after.columns.firstIndex(of: key) {
        let known = Set(before.compactMap { $0.indices.contains(index) ? $0[index] : nil })
        after.rows = after.rows.map { row in
          guard !known.contains(row[index]) else { return row }
          var row = row
          row[index] = .text("(an id SQLite assigns)")
          return row
        }.sorted(by: Self.rowOrder)
      }
      if after.rows.map(Self.key) != before.map(Self.key) { outcome.changed = true }
      outcome.tables.append((table, after.columns, after.rows))
    }
    return outcome
  }

  /// The tables that hold rows: not views, not SQLite's own, not FTS5's shadow tables (the
  /// virtual table shows what they index), sorted by name.
  static func userTables(of session: Session) throws -> [String] {
    let shadows = Set(
      ((try? session.database.rows("SELECT name FROM pragma_table_list WHERE type = 'shadow'")) ?? []).compactMap { $0.first?.textValue })
    return try session.database.schema().tables
      .filter { $0.kind != .view && !$0.name.hasPrefix("sqlite_") && !shadows.contains($0.name) }
      .map(\.name).sorted()
  }

  /// The INTEGER PRIMARY KEY of each table declared AUTOINCREMENT.
  static func autoIncrementKeys(in database: Database) -> [String: String] {
    let tables = ((try? database.rows("SELECT name FROM sqlite_schema WHERE type = 'table' AND sql LIKE '%AUTOINCREMENT%'")) ?? [])
      .compactMap { $0.first?.textValue }
    guard !tables.isEmpty, let keys = try? IntegerKeys(database) else { return [:] }
    return keys.keys.filter { tables.contains($0.key) }
  }

  /// A table's columns and rows, rows in a canonical order.
  static func contents(of table: String, in session: Session) throws -> (columns: [String], rows: [[DatabaseValue]]) {
    let statement = try session.database.prepare("SELECT * FROM \(quoteIdentifier(table))")
    return (statement.columnNames, try statement.rows().sorted(by: Self.rowOrder))
  }

  /// Runs an answer as the prompt would: plain SQL (`SELECT …`, or `.raw …`) or the DSL.
  static func execute(_ input: String, in session: Session, sink: ResultSink) {
    let trimmed = input.trimmingScalars(in: .whitespacesAndNewlines)
    let lines = input.split(separator: "\n", omittingEmptySubsequences: false)
    if lines.count > 1, let index = lines.firstIndex(where: { $0.trimmingScalars(in: .whitespaces).hasPrefix(".explain ") }) {
      // `.explain QUERY` on a line of its own, as the prompt takes it, between other statements.
      let before = lines[..<index].joined(separator: "\n")
      let after = lines[(index + 1)...].joined(separator: "\n")
      if !before.trimmingScalars(in: .whitespacesAndNewlines).isEmpty { execute(before, in: session, sink: sink) }
      execute(String(lines[index]), in: session, sink: sink)
      if !after.trimmingScalars(in: .whitespacesAndNewlines).isEmpty { execute(after, in: session, sink: sink) }
      return
    }
    if trimmed.hasPrefix(".explain ") {
      // The plan of a query, DSL or SQL: what `EXPLAIN QUERY PLAN` of its SQL gives.
      do {
        guard let sql = try session.explainedSQL(of: String(trimmed.dropFirst(9))) else {
          sink.failure(input: input, error: StatementError(message: ".explain needs a query: .explain Reminder.all", line: 1, column: 1))
          return
        }
        session.runSQL("EXPLAIN QUERY PLAN " + sql, sink: sink)
      } catch {
        sink.failure(input: input, error: StatementError(message: error.fullMessage, line: error.line, column: error.column))
      }
      return
    }
    if trimmed.hasPrefix(".raw ") {
      session.runSQL(String(trimmed.dropFirst(5)), sink: sink)
    } else if let parts = ScriptSplitter.mixedParts(of: input) {
      for part in parts { execute(part.text, in: session, sink: sink) }
    } else if SQLDetector.startsWithSQLKeyword(trimmed) {
      session.runSQL(trimmed, sink: sink)
    } else {
      session.run(input, sink: sink)
    }
  }

  /// The first difference between what the solution and the answer did, explained.
  func compare(expected: Outcome, actual: Outcome, exercise: Exercise) -> String? {
    var exercise = exercise
    if expected.orderOpen, expected.tieGroups == nil { exercise.ordered = false }
    // What the solution defines must be there, as it defines it (read from SQLite, not text).
    if let difference = SchemaObjects.difference(expected: expected.created, actual: actual.schema) {
      return difference
    }
    // A fetch property shows its value before the query loads: the task says which.
    // (An answer that declares none is told so by the technique check, where one is asked for.)
    if !expected.evidence.fetchStartValues.isEmpty, !actual.evidence.fetchStartValues.isEmpty,
      expected.evidence.fetchStartValues != actual.evidence.fetchStartValues
    {
      return
        "the property's value before its query loads: expected \(expected.evidence.fetchStartValues.joined(separator: ", ")), got \(actual.evidence.fetchStartValues.joined(separator: ", "))"
    }
    if let difference = compareResults(expected: expected, actual: actual, exercise: exercise) {
      return difference
    }
    // … and behave as it does: refuse the rows it refuses (CHECK, NOT NULL, UNIQUE, foreign keys).
    return ConstraintProbes.difference(expected: expected.probes, actual: actual.probes)
  }

  /// The first difference between the rows (and, for a write, the tables) the solution and the
  /// answer left.
  func compareResults(expected: Outcome, actual: Outcome, exercise: Exercise) -> String? {
    if !exercise.checkedTables.isEmpty || expected.changed || actual.changed {
      // A write exercise: the tables afterwards decide (the rows it returns too, if any).
      if expected.changed, !actual.changed, exercise.checkedTables.isEmpty {
        // An answer that wrote, but whose writes matched no row here, is told so.
        let verbs: Set<String> = ["INSERT", "UPDATE", "DELETE", "REPLACE"]
        let writes = actual.evidence.statements.compactMap { facts -> String? in
          guard let first = facts.keywords.first, verbs.contains(first) || first == "WITH" else { return nil }
          return facts.keywords.first(where: verbs.contains)
        }
        if let first = writes.first {
          return
            "this exercise changes the data, but your answer changed no row here: its \(first)\(writes.count > 1 ? " (and the other writes)" : "") matched no row — check which rows it reaches (a view's WHERE, a trigger's condition, the row's id)"
        }
        return "this exercise changes the data, but your answer changed nothing (a query that only selects the rows is not enough)"
      }
      if !expected.changed, actual.changed, exercise.checkedTables.isEmpty {
        return "your answer changes the data; this exercise only asks for rows"
      }
      for (want, got) in zip(expected.tables, actual.tables) where want.rows.map(Self.key) != got.rows.map(Self.key) {
        let difference =
          compareRows(
            expected: Outcome(columns: want.columns, rows: want.rows), actual: Outcome(columns: got.columns, rows: got.rows),
            ordered: false, listSeparator: nil) ?? "different rows"
        return "after your answer, table '\(want.name)' differs: \(difference)"
      }
      if !exercise.checkedTables.isEmpty { return nil }
      if expected.rows.isEmpty { return nil }
    }
    // One value that is not there (an aggregate of no rows: `max(depth)` of an empty table is
    // NULL) and no row at all (`ORDER BY depth DESC LIMIT 1` of it) say the same: no value.
    if actual.rows.isEmpty, expected.rows.count == 1, expected.rows[0].allSatisfy({ $0 == .null }),
      actual.columns.count == expected.columns.count
    {
      return nil
    }
    if let difference = compareRows(
      expected: expected, actual: actual, ordered: exercise.ordered,
      listSeparator: exercise.ordered ? nil : Self.listSeparator(in: exercise.solution))
    {
      return difference + Self.trap(in: actual.sql, expected: expected, actual: actual)
    }
    if exercise.ordered, !actual.sql.isEmpty, !Self.hasOrderBy(actual.sql) {
      return
        "right rows, but this exercise asks for an order and your query has no `order` (ORDER BY): without it SQLite may return the rows in any order"
    }
    return nil
  }

  /// Whether SQL sorts its result: an ORDER BY of the outermost statement (outside parentheses,
  /// strings and quoted names; an ORDER BY inside a subquery does not order the result).
  static func hasOrderBy(_ sql: String) -> Bool {
    var depth = 0
    var previous = ""
    for word in AnswerEvidence.keywords(of: sql) {
      switch word {
      case "(": depth += 1
      case ")": depth -= 1
      case "BY" where depth == 0 && previous == "ORDER": return true
      default: break
      }
      previous = word
    }
    return false
  }

  /// The first difference between two results, explained; nil when they match.
  func compareRows(expected: Outcome, actual: Outcome, ordered: Bool, listSeparator: String?) -> String? {
    let expectedWidth = expected.rows.first?.count ?? expected.columns.count
    let actualWidth = actual.rows.first?.count ?? actual.columns.count
    if actualWidth > expectedWidth {
      return "extra column: expected \(expectedWidth) column\(expectedWidth == 1 ? "" : "s"), got \(actualWidth)"
    }
    if actualWidth < expectedWidth {
      return "missing column: expected \(expectedWidth) column\(expectedWidth == 1 ? "" : "s"), got \(actualWidth)"
    }
    if expected.rows.count != actual.rows.count {
      // Name the rows that differ: those the answer is missing, and those it has too many of.
      var remaining: [[String]: Int] = [:]
      for row in actual.rows { remaining[row.map { Self.valueKey($0, listSeparator: listSeparator) }, default: 0] += 1 }
      var missing: [[DatabaseValue]] = []
      for row in expected.rows.sorted(by: Self.rowOrder) {
        let key = row.map { Self.valueKey($0, listSeparator: listSeparator) }
        if let count = remaining[key], count > 0 { remaining[key] = count - 1 } else { missing.append(row) }
      }
      let extra = actual.rows.sorted(by: Self.rowOrder).filter { row in
        let key = row.map { Self.valueKey($0, listSeparator: listSeparator) }
        guard let count = remaining[key], count > 0 else { return false }
        remaining[key] = count - 1
        return true
      }
      var message = "expected \(expected.rows.count) row\(expected.rows.count == 1 ? "" : "s"), got \(actual.rows.count)"
      if !missing.isEmpty { message += "; missing " + describe(missing) }
      if !extra.isEmpty { message += (missing.isEmpty ? "; " : ", and ") + "not expected " + describe(extra) }
      return message
    }
    let normalize: ([DatabaseValue]) -> [String] = { row in row.map { Self.valueKey($0, listSeparator: listSeparator) } }
    let lexical: ([String], [String]) -> Bool = { $0.lexicographicallyPrecedes($1) }
    let wantKeys = expected.rows.map(normalize)
    let gotKeys = actual.rows.map(normalize)
    let wantSorted = wantKeys.sorted(by: lexical)
    let sameRows = wantSorted == gotKeys.sorted(by: lexical)
    if ordered {
      if wantKeys == gotKeys { return nil }
      // Rows that tie in the order asked for, in any order among themselves.
      if sameRows, let groups = expected.tieGroups, groups.count == wantKeys.count {
        var start = 0
        while start < groups.count {
          var end = start
          while end < groups.count, groups[end] == groups[start] { end += 1 }
          if wantKeys[start..<end].sorted(by: lexical) != gotKeys[start..<end].sorted(by: lexical) { return "right rows, wrong order" }
          start = end
        }
        return nil
      }
      if sameRows { return "right rows, wrong order" }
    } else if sameRows {
      return nil
    }
    let sortedExpected = expected.rows.sorted(by: Self.rowOrder)
    let sortedActual = actual.rows.sorted(by: Self.rowOrder)
    // Two columns in the other order: the same rows once they are swapped back.
    if expectedWidth >= 2 {
      for i in 0..<expectedWidth {
        for j in (i + 1)..<expectedWidth {
          let swapped = actual.rows.map { row -> [DatabaseValue] in
            var row = row
            row.swapAt(i, j)
            return row
          }
          if swapped.map(normalize).sorted(by: lexical) == wantSorted {
            return "columns \(i + 1) and \(j + 1)\(Self.names(i, j, in: actual.columns)) are in the other order"
          }
        }
      }
    }
    // Rows named by their key: when the first column tells the rows apart in both results and
    // holds the same values, the row that differs is the one with that value.
    if !ordered, expectedWidth >= 2 {
      let key: ([DatabaseValue]) -> String = { Self.valueKey($0[0], listSeparator: listSeparator) }
      let wanted = Dictionary(expected.rows.map { (key($0), $0) }, uniquingKeysWith: { first, _ in first })
      let given = Dictionary(actual.rows.map { (key($0), $0) }, uniquingKeysWith: { first, _ in first })
      if wanted.count == expected.rows.count, given.count == actual.rows.count, Set(wanted.keys) == Set(given.keys) {
        for want in sortedExpected {
          guard let got = given[key(want)], normalize(want) != normalize(got) else { continue }
          let column =
            zip(want, got).enumerated().first {
              Self.valueKey($0.element.0, listSeparator: listSeparator) != Self.valueKey($0.element.1, listSeparator: listSeparator)
            }?.offset ?? 1
          let keyName = expected.columns.first.map { "'\($0)'" } ?? "column 1"
          let name = column < expected.columns.count ? " ('\(expected.columns[column])')" : ""
          return
            "in the row whose \(keyName) is \(display(want[0])), column \(column + 1)\(name): expected \(display(want[column])), got \(display(got[column]))"
            + Self.typeHint(expected: want[column], actual: got[column])
        }
      }
    }
    let (left, right) = ordered ? (expected.rows, actual.rows) : (sortedExpected, sortedActual)
    for (index, (want, got)) in zip(left, right).enumerated() where normalize(want) != normalize(got) {
      let column =
        zip(want, got).enumerated().first {
          Self.valueKey($0.element.0, listSeparator: listSeparator) != Self.valueKey($0.element.1, listSeparator: listSeparator)
        }?.offset ?? 0
      let name = column < expected.columns.count ? " ('\(expected.columns[column])')" : ""
      return
        "row \(index + 1)\(ordered ? "" : " (sorted)"), column \(column + 1)\(name): expected \(display(want[column])), got \(display(got[column]))"
        + Self.typeHint(expected: want[column], actual: got[column])
    }
    return nil
  }

  /// When two values differ only in type — the text '2' and the number 2 — how to make them agree.
  static func typeHint(expected: DatabaseValue, actual: DatabaseValue) -> String {
    switch (expected, actual) {
    case (.text(let text), .integer), (.text(let text), .double):
      guard let number = actual.doubleValue, Double(text) == number else { return "" }
      return " — the same value, but this column is text: cast it (CAST(… AS TEXT), or .cast(as: String.self))"
    case (.integer, .text(let text)), (.double, .text(let text)):
      guard let number = expected.doubleValue, Double(text) == number else { return "" }
      return " — the same value, but this column is a number: cast it (CAST(… AS INTEGER) or AS REAL, or .cast(as: Int.self))"
    default:
      return ""
    }
  }

  /// Up to two rows as the learner would write them: `('Groceries', 2)`, and how many more.
  func describe(_ rows: [[DatabaseValue]]) -> String {
    let shown = rows.prefix(2).map { row -> String in
      let text = "(" + row.map(display).joined(separator: ", ") + ")"
      return text.count > 70 ? String(text.prefix(69)) + "…)" : text
    }
    let more = rows.count > 2 ? " and \(rows.count - 2) more" : ""
    return (rows.count == 1 ? "the row " : "the rows ") + shown.joined(separator: ", ") + more
  }

  /// The known trap an answer's SQL falls into, said after the difference it makes.
  static func trap(in sql: String, expected: Outcome, actual: Outcome) -> String {
    if actual.evidence.rowsReadBeforeRollback, !expected.evidence.rowsReadBeforeRollback {
      return
        " — your rows were read inside the transaction, before ROLLBACK undid its changes: read them after the ROLLBACK to see what it restored"
    }
    let upper = sql.uppercased()
    if TextPattern(#"(=|<>|!=)\s*\(?\s*NULL\b"#)?.contains(in: upper) == true {
      return
        " — a comparison with NULL (= NULL, <> NULL) is never true, so those rows drop out: use IS NULL / IS NOT NULL (is(nil), isNot(nil))"
    }
    if upper.contains("(SELECT") || upper.contains("( SELECT") || upper.contains("(\n"),
      let match = [#""?(\w+)"?\s*=\s*"?\1"?(?![.\w"(])"#, #""\w+"\."(\w+)"\)?\s*=\s*\(?("\w+"\."\1")"#]
        .lazy.compactMap({ pattern -> TextPattern.Match? in
          TextPattern(pattern)?.firstMatch(in: sql) { found in
            // The bare form starts where no name does (a lookbehind for `[.\w"]`).
            if found.ranges.count == 2 {
              let before = sql.unicodeScalars[..<found.range.lowerBound].last
              return
                !(before.map { $0 == "." || $0 == "\"" || $0 == "_" || $0.properties.isAlphabetic || $0.properties.numericType != nil }
                ?? false)
            }
            // The qualified form: the same table on both sides.
            guard let right = found[2] else { return false }
            return sql[found.range].hasPrefix(right)
          }
        }).first,
      let column = match[1]
    {
      // `WHERE category = category` inside a subquery on the outer query's table: both names mean
      // the subquery's own row, so the condition is always true.
      return
        " — inside the subquery, \(column) = \(column) compares its own row with itself (both names mean the subquery's table): give one of the two an alias (FROM products AS p, or Product.as(Other.self)) and compare with the outer row's \(column)"
    }
    if actual.rows.isEmpty, !expected.rows.isEmpty, upper.contains("NOT IN") {
      return
        " — NOT IN is never true when its list or subquery holds a NULL: leave the NULLs out of the subquery (where { $0.x.isNot(nil) }), or use NOT EXISTS"
    }
    return ""
  }

  static func names(_ i: Int, _ j: Int, in columns: [String]) -> String {
    guard i < columns.count, j < columns.count else { return "" }
    return " ('\(columns[i])' and '\(columns[j])')"
  }

  static func seconds(_ value: Double) -> String {
    value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
  }

  func display(_ value: DatabaseValue) -> String { value.inlineSQL }

  /// A learner's explanation of a runtime error, where SQLite's own is terse.
  static func explain(_ message: String) -> String {
    let lower = message.lowercased()
    if lower.contains("misuse of aggregate") {
      return message
        + " — an aggregate (count, sum, max…) cannot be used in `where`, which filters rows before they are grouped: filter the groups with `having` instead"
    }
    if lower.contains("ambiguous column name") {
      return message
        + " — two joined tables have a column of that name: qualify it with its table ($0.id or $1.id, or \"table\".\"column\" in SQL)"
    }
    return message
  }

  /// How the lists a solution builds are separated, when it builds any: `groupConcat(" | ")`,
  /// `group_concat(title, '; ')` (a comma when none is given), or a JSON array (`jsonGroupArray`).
  /// Nil: the solution builds no list, and text compares as text.
  static func listSeparator(in solution: String) -> String? {
    let lowered = solution.lowercased()
    guard
      lowered.contains("groupconcat") || lowered.contains("group_concat") || lowered.contains("jsongrouparray")
        || lowered.contains("json_group_array")
    else {
      return nil
    }
    for pattern in [#"groupConcat\(\s*"((?:[^"\\]|\\.)*)""#, #"(?i)group_concat\([^,()]*(?:\([^()]*\))?[^,()]*,\s*'((?:[^']|'')*)'"#] {
      if let found = TextPattern(pattern)?.firstMatch(in: solution)?[1] {
        let separator = String(found).replacing("''", with: "'").replacing("\\n", with: "\n")
        return separator.isEmpty ? "," : separator
      }
    }
    return ","
  }

  /// A value's identity for comparing: numbers by value (3 and 3.0 alike), text as text; with a
  /// `listSeparator`, a JSON array or a list joined by it is its elements, in any order.
  static func valueKey(_ value: DatabaseValue, listSeparator: String? = nil) -> String {
    switch value {
    case .null, .parameter: return "n"
    case .integer(let v): return "i\(v)"
    case .double(let v): return v == v.rounded() && abs(v) < 1e15 ? "i\(Int64(v))" : "d\(v)"
    case .text(let v):
      // A JSON object is its members, in any order: {"a":1,"b":2} is {"b":2,"a":1}.
      if v.hasPrefix("{"), v.hasSuffix("}"), let object = try? JSONDecoder().decode([String: JSONMember].self, from: Data(v.utf8)) {
        return "o" + object.keys.sorted().map { $0 + "\u{2}" + (object[$0]?.text ?? "") }.joined(separator: "\u{1}")
      }
      guard let separator = listSeparator else { return "t" + v }
      if v.hasPrefix("["), let array = try? JSONDecoder().decode([JSONScalar].self, from: Data(v.utf8)) {
        return "j" + array.map(\.text).sorted().joined(separator: "\u{1}")
      }
      let trimmed = separator.trimmingScalars(in: .whitespaces)
      let parts = trimmed.isEmpty ? v.components(separatedBy: separator) : v.components(separatedBy: trimmed)
      return "l" + parts.map { $0.trimmingScalars(in: .whitespaces) }.sorted().joined(separator: "\u{1}")
    case .blob(let v): return "b" + hex(v)
    }
  }

  static func key(_ row: [DatabaseValue]) -> [String] { row.map { valueKey($0) } }

  /// Rows in the order people read them: NULL first, numbers by value, then text, then blobs.
  static func rowOrder(_ a: [DatabaseValue], _ b: [DatabaseValue]) -> Bool {
    for (x, y) in zip(a, b) {
      let order = compareValues(x, y)
      if order != 0 { return order < 0 }
    }
    return a.count < b.count
  }

  static func compareValues(_ x: DatabaseValue, _ y: DatabaseValue) -> Int {
    func rank(_ value: DatabaseValue) -> Int {
      switch value {
      case .null, .parameter: 0
      case .integer, .double: 1
      case .text: 2
      case .blob: 3
      }
    }
    if rank(x) != rank(y) { return rank(x) < rank(y) ? -1 : 1 }
    switch (x, y) {
    case (.integer(let a), .integer(let b)): return a == b ? 0 : (a < b ? -1 : 1)
    case (.text(let a), .text(let b)): return a == b ? 0 : (a < b ? -1 : 1)
    case (.blob(let a), .blob(let b)): return a == b ? 0 : (a.lexicographicallyPrecedes(b) ? -1 : 1)
    default:
      let a = x.doubleValue ?? 0
      let b = y.doubleValue ?? 0
      return a == b ? 0 : (a < b ? -1 : 1)
    }
  }
}

/// Collects every row of the statements of one input, and the first error; with a database,
/// each statement's facts (plan, program, keywords) as it is about to run.
final class ResultCollector: ResultSink {
  let database: Database?
  var facts: [AnswerEvidence.StatementFacts] = []

  /// Whether each statement's plan and program are read too (`AnswerEvidence.facts`).
  let explaining: Bool

  init(recordingIn database: Database? = nil, explaining: Bool = false) {
    self.database = database
    self.explaining = explaining
  }

  var columns: [String] = []
  var rows: [[DatabaseValue]] = []
  var error: String?
  var statements = 0
  /// The SQL of the last statement.
  var sql = ""

  func begin(input: String, sql: String, bindings: [QueryBinding], columns: [String], types: [SwiftType?]) {
    statements += 1
    if let database, facts.count < 1_000 {
      facts.append(AnswerEvidence.facts(of: sql, bindings: bindings, returnsRows: !columns.isEmpty, explaining: explaining, in: database))
    }
    // BEGIN, COMMIT, ROLLBACK … return nothing: the rows shown are still the last query's.
    if columns.isEmpty, let first = AnswerEvidence.keywords(of: sql).first, Self.transactionControl.contains(first) { return }
    self.sql = sql
    self.columns = columns
    rows = []
  }
  static let transactionControl: Set<String> = ["BEGIN", "COMMIT", "END", "ROLLBACK", "RELEASE", "SAVEPOINT"]

  func row(_ statement: PreparedStatement) { rows.append(statement.row()) }
  func end(error: StatementError?) {
    if let error, self.error == nil { self.error = "\(error.line):\(error.column): \(error.message)" }
  }
  func failure(input: String, error: StatementError) {
    if self.error == nil { self.error = "\(error.line):\(error.column): \(error.message)" }
  }
}

/// One element of a flat JSON array, as the text it compares by (a nested array or object does
/// not decode: such a list compares as text).
private struct JSONScalar: Decodable {
  var text: String

  init(from decoder: any Decoder) throws {
    let value = try decoder.singleValueContainer()
    if value.decodeNil() {
      text = "null"
    } else if let flag = try? value.decode(Bool.self) {
      text = flag ? "true" : "false"
    } else if let integer = try? value.decode(Int64.self) {
      text = String(integer)
    } else if let number = try? value.decode(Double.self) {
      text = String(number)
    } else {
      text = try value.decode(String.self)
    }
  }
}

/// One member of a JSON object, as the text it compares by: a scalar as `JSONScalar` gives it, a
/// nested object or array as its canonical JSON (keys sorted).
private struct JSONMember: Decodable {
  var text: String

  init(from decoder: any Decoder) throws {
    if let scalar = try? JSONScalar(from: decoder) {
      text = "s" + scalar.text
    } else if let object = try? [String: JSONMember](from: decoder) {
      text = "{" + object.keys.sorted().map { "\($0):\(object[$0]?.text ?? "")" }.joined(separator: ",") + "}"
    } else {
      text = "[" + (try [JSONMember](from: decoder)).map(\.text).joined(separator: ",") + "]"
    }
  }
}
