import QuarryEngine
import QueryBuilder

/// The value-varied datasets an exercise checks answers on, searched for rather than written: of
/// many candidates (``ValueVariation``, seeds 1…N), those that tell the solution apart from the
/// mutants the fixed datasets let through, chosen greedily (the fewest datasets that kill the
/// most mutants). A candidate on which the solution itself is not determined — its rows differ
/// when SQLite reads tables in reverse (`reverse_unordered_selects`): a tie the task does not
/// order, a bare column of a group — is never kept, so no dataset makes a difference the task
/// does not ask for.
///
/// ```swift
/// let found = try DatasetSearch().search(exercise, fixture: "shop", views: [:])
/// // found.seeds == [7, 19]: seed 7 kills "sql: '<' → '<='", seed 19 "sql: count(x) → count(*)"
/// // found.survivors: the mutants no candidate kills (equivalent, or beyond the generator)
/// ```
public struct DatasetSearch {
  public struct Finding: Sendable {
    /// The seeds kept, in the order chosen.
    public var seeds: [UInt64] = []
    /// Mutants tried, and killed on the fixed datasets.
    public var tried = 0
    public var killedOnFixedData = 0
    /// Killed only on a kept dataset.
    public var killedBySearch = 0
    /// Candidates the solution was determined on (the others were set aside).
    public var usableCandidates = 0
    /// Mutants the fixed data let through that are proven equivalent — by the statement's shape
    /// and the schema (``EquivalenceProof``), or compiled by SQLite to the solution's own program
    /// (``ProgramEquivalence``) — so no dataset is searched for them.
    public var provenEquivalent = 0
    /// Mutants no dataset tells apart: kind and code.
    public var survivors: [(kind: String, code: String)] = []
  }

  public var candidates: [UInt64]
  public var maximumSeeds: Int
  /// Seeds kept even when no mutant asks for them.
  public var minimumSeeds = 3
  /// Usable candidates (the solution determined on them) drawn before the search settles.
  public var minimumUsable = 16
  let checker = AnswerChecker(timeLimit: 2)

  public init(candidates: [UInt64] = Array(1...32), maximumSeeds: Int = 6) {
    self.candidates = candidates
    self.maximumSeeds = maximumSeeds
  }

  public func search(_ exercise: Exercise, fixture: String, views: [String: String]) throws -> Finding {
    var fixed = exercise
    fixed.datasetSeeds = []
    let expected = try checker.expectedOutcomes(of: fixed, fixture: fixture)
    let datasets = AnswerChecker.datasets(for: fixed)
    let mutants = LessonLinter.mutants(of: fixed, expected: expected, fixture: fixture, views: views)
      .filter { exercise.equivalentMutants[$0.kind] == nil }
    var finding = Finding()
    finding.tried = mutants.count
    var alive = mutants.filter { mutant in
      !zip(datasets, expected).contains {
        !$0.1.undetermined && kills(mutant.code, exercise: fixed, fixture: fixture, dataset: $0.0, expected: $0.1)
      }
    }
    finding.killedOnFixedData = mutants.count - alive.count
    if let onFixture = expected.first {
      let solution = LessonLinter.solutionStatements(onFixture)
      let before = alive.count
      alive.removeAll { mutant in
        mutant.proof != nil || (mutant.statements.map { ProgramEquivalence.same(solution, $0, fixture: fixture) } ?? false)
      }
      finding.provenEquivalent = before - alive.count
    }
    // Each usable candidate, and the mutants it kills.
    var killsBySeed: [(seed: UInt64, killed: Set<Int>)] = []
    var outcomes: [(seed: UInt64, outcome: AnswerChecker.Outcome)] = []
    // Candidates in order; when most are set aside (ties the task leaves open), more are drawn,
    // up to `minimumUsable` usable ones or twice as many seeds; while a mutant survives every
    // candidate so far, up to six times as many.
    let ties = expected.first.flatMap { AnswerChecker.tieProbe(of: fixed, onFixture: $0) }
    var pool = candidates
    var next = (candidates.max() ?? 0) + 1
    var index = 0
    var drewLines = false
    while index < pool.count {
      let seed = pool[index]
      index += 1
      // More while too few are usable, or while a mutant no candidate killed yet remains (up
      // to six times the candidates).
      let unkilled = alive.indices.contains { candidate in !killsBySeed.contains { $0.killed.contains(candidate) } }
      if index == pool.count,
        (finding.usableCandidates < minimumUsable && pool.count < candidates.count * 2) || (unkilled && pool.count < candidates.count * 6)
      {
        pool.append(next)
        next += 1
      } else if index == pool.count, unkilled, !drewLines,
        AnswerChecker.varied(seed, for: fixed).bounds.contains(where: { Double($0) != nil })
      {
        // Still a mutant alive, and the solution compares with a number: datasets that draw a
        // line of descent on it (a group of one row whose total is the bound's neighbour).
        drewLines = true
        pool += ValueVariation.lineSeeds.prefix(candidates.count * 2)
      }
      let dataset = AnswerChecker.varied(seed, for: fixed)
      guard var solution = try? checker.run(fixed.solution, exercise: fixed, fixture: fixture, dataset: dataset) else { continue }
      switch checker.determination(of: solution, exercise: fixed, fixture: fixture, dataset: dataset, ties: ties) {
      case .determined: break
      case .orderOpen:
        solution.orderOpen = true
        if let onFixture = expected.first {
          solution.tieGroups = checker.tieGroups(of: solution, exercise: fixed, fixture: fixture, dataset: dataset, onFixture: onFixture)
        }
      case .undetermined: continue
      }
      finding.usableCandidates += 1
      outcomes.append((seed, solution))
      let killed = Set(
        alive.indices.filter { self.kills(alive[$0].code, exercise: fixed, fixture: fixture, dataset: dataset, expected: solution) })
      if !killed.isEmpty { killsBySeed.append((seed, killed)) }
    }
    var covered: Set<Int> = []
    while finding.seeds.count < maximumSeeds,
      let best = killsBySeed.max(by: {
        $0.killed.subtracting(covered).count < $1.killed.subtracting(covered).count
          || ($0.killed.subtracting(covered).count == $1.killed.subtracting(covered).count && $0.seed > $1.seed)
      }),
      !best.killed.subtracting(covered).isEmpty
    {
      finding.seeds.append(best.seed)
      covered.formUnion(best.killed)
    }
    finding.killedBySearch = covered.count
    // At least `minimumSeeds`: datasets on which the solution gives rows the fixed data never
    // showed it give (values no mutant here asked for: a wrong answer of another kind meets them).
    // The most new rows first: the candidates whose changed values reach the result most.
    // A write exercise's rows are its tables after the write: a dataset whose written tables
    // hold rows the fixed data never left counts as one that shows new rows.
    func shown(_ outcome: AnswerChecker.Outcome) -> [[String]] {
      outcome.rows.map(AnswerChecker.key)
        + outcome.tables.flatMap { table in table.rows.map { [table.name] + AnswerChecker.key($0) } }
    }
    /// A row holding a value on a boundary — NULL, an empty text, 0 or below — counts three
    /// times: what a function body or an expression no mutant models gets wrong most (an empty
    /// title's first letter).
    func boundary(_ key: [String]) -> Bool {
      key.contains { value in
        value == AnswerChecker.valueKey(.null) || value == AnswerChecker.valueKey(.text(""))
          || ((value.hasPrefix("i") || value.hasPrefix("d")) && (Double(value.dropFirst()).map { $0 <= 0 } ?? false))
      }
    }
    var seenRows = Set(expected.flatMap(shown))
    var remaining = outcomes.filter { !finding.seeds.contains($0.seed) && (!$0.outcome.rows.isEmpty || $0.outcome.changed) }
    while finding.seeds.count < minimumSeeds, !remaining.isEmpty {
      let scored = remaining.map { candidate in
        (candidate, shown(candidate.outcome).filter { !seenRows.contains($0) }.reduce(0) { $0 + (boundary($1) ? 3 : 1) })
      }
      guard let best = scored.max(by: { $0.1 < $1.1 || ($0.1 == $1.1 && $0.0.seed > $1.0.seed) }), best.1 > 0 else { break }
      finding.seeds.append(best.0.seed)
      seenRows.formUnion(shown(best.0.outcome))
      remaining.removeAll { $0.seed == best.0.seed }
    }
    alive = alive.indices.filter { !covered.contains($0) }.map { alive[$0] }
    finding.survivors = alive.map { ($0.kind, $0.code) }
    return finding
  }

  /// Whether the mutant's outcome differs from the solution's on a dataset (an error counts).
  func kills(_ code: String, exercise: Exercise, fixture: String, dataset: AnswerChecker.Dataset, expected: AnswerChecker.Outcome) -> Bool {
    guard let actual = try? checker.run(code, exercise: exercise, fixture: fixture, dataset: dataset) else { return true }
    return checker.compare(expected: expected, actual: actual, exercise: exercise) != nil
  }

}
