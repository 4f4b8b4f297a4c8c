/// More value-varied datasets an answer meets once it is right on the exercise's own: drawn for
/// the answer, not kept for the exercise.
///
/// The kept datasets (``DatasetSearch``) tell the solution apart from its mutants, but a wrong
/// answer of another kind can agree with the solution wherever they look. For "categories whose
/// average price is above 50", `sum(price) / count(DISTINCT name)` is wrong only where a
/// category holds two products of one name *and* the two computations fall on either side of
/// 50: none of the kept datasets has that, about one in five value-varied datasets does. So an
/// answer right on every kept dataset runs on ``count`` more (``AnswerChecker/varied(_:for:)``,
/// the seeds the exercise does not keep), each compared with the solution's rows there; a
/// difference counts only where the solution's own result is the one answer the task allows.
///
/// ```swift
/// FurtherDatasets.seeds(for: exercise)  // [1, 2, …, 6, 8, …, 17] when 7 is kept
/// ```
public struct FurtherDatasets {
  /// How many: each costs two runs (the solution's, the answer's) of a few milliseconds, paid by
  /// every right answer.
  public static let count = 16
  /// How many more for an answer that names values the solution does not (a city, a price read
  /// off the rows): the first seeds again, those values spread to more rows and moved onto.
  static let spreadCount = 4

  /// The texts and numbers an answer writes that its solution does not: values it may have read
  /// off the rows (`'Aveiro'` in `WHERE city <> 'Aveiro'`). Patterns (`'%a%'`) are left out.
  static func ownValues(of answer: String, solution: String) -> (texts: [String], numbers: [String]) {
    let own = AnswerChecker.literals(in: answer).subtracting(AnswerChecker.literals(in: solution)).sorted()
    let texts = own.filter { $0.hasPrefix("s") }.map { String($0.dropFirst()) }.filter { !$0.isEmpty && !$0.contains("%") }
    let numbers = own.filter { $0.hasPrefix("n") }.map { String($0.dropFirst()) }.filter { Double($0) != nil }
    return (texts, numbers)
  }

  let checker: AnswerChecker

  /// The seeds drawn: the first ``count`` the exercise does not already keep.
  static func seeds(for exercise: Exercise) -> [UInt64] {
    var seeds: [UInt64] = []
    var seed: UInt64 = 1
    while seeds.count < count {
      if !exercise.datasetSeeds.contains(seed) { seeds.append(seed) }
      seed += 1
    }
    return seeds
  }

  /// The first difference of `answer` from the solution on a further dataset, with where it is
  /// (as ``AnswerChecker/place(of:answer:exercise:fixture:outcomes:)`` says it); nil when there is
  /// none. A dataset the solution fails on, or gives a result on that the task leaves open (a tie,
  /// a table read the other way), is passed over.
  func difference(of answer: String, exercise: Exercise, fixture: String, context: [String], onFixture: AnswerChecker.Outcome)
    throws -> String?
  {
    let ties = AnswerChecker.tieProbe(of: exercise, onFixture: onFixture)
    let seeds = Self.seeds(for: exercise)
    let own = Self.ownValues(of: answer, solution: exercise.solution)
    var datasets = seeds.map { AnswerChecker.varied($0, for: exercise) }
    if !own.texts.isEmpty || !own.numbers.isEmpty {
      datasets += seeds.prefix(Self.spreadCount).map { seed in
        var dataset = AnswerChecker.varied(seed, for: exercise)
        dataset.generated?.values?.spread = own.texts
        dataset.bounds = (dataset.bounds + own.numbers).sorted()
        return dataset
      }
    }
    for dataset in datasets {
      if checker.stop.isRequested { return AnswerChecker.stoppedMessage }
      guard var expected = try? checker.run(exercise.solution, exercise: exercise, fixture: fixture, dataset: dataset) else { continue }
      let actual: AnswerChecker.Outcome
      do {
        actual = try checker.run(answer, exercise: exercise, fixture: fixture, dataset: dataset, context: context)
      } catch let error as AnswerChecker.CheckFailure {
        if checker.stop.isRequested { return AnswerChecker.stoppedMessage }
        return AnswerChecker.explain(error.message)
          + checker.place(of: dataset, answer: answer, exercise: exercise, fixture: fixture, outcomes: [expected])
      }
      guard checker.compare(expected: expected, actual: actual, exercise: exercise) != nil else { continue }
      // A difference: it counts only where the solution's result is the one answer.
      switch checker.determination(of: expected, exercise: exercise, fixture: fixture, dataset: dataset, ties: ties) {
      case .undetermined: continue
      case .orderOpen:
        expected.orderOpen = true
        expected.tieGroups = checker.tieGroups(of: expected, exercise: exercise, fixture: fixture, dataset: dataset, onFixture: onFixture)
      case .determined:
        // Ties a LIMIT cuts between a row and its copy: the moved tie order does not see them.
        guard let open = tiesCut(expected, exercise: exercise, fixture: fixture, dataset: dataset, onFixture: onFixture) else { break }
        if !open { continue }
        expected.orderOpen = true
      }
      if let difference = checker.compare(expected: expected, actual: actual, exercise: exercise) {
        return difference + checker.place(of: dataset, answer: answer, exercise: exercise, fixture: fixture, outcomes: [expected, actual])
      }
    }
    return nil
  }

  /// Whether the solution's result on `dataset` changes when ties of its last ORDER BY come
  /// smallest row first, or largest first (``TieOrder/byOutput(_:columns:descending:)``): nil
  /// when it does not; false when its rows change (no answer is judged here); true when, in an
  /// ordered exercise, only their order does.
  func tiesCut(
    _ expected: AnswerChecker.Outcome, exercise: Exercise, fixture: String, dataset: AnswerChecker.Dataset, onFixture: AnswerChecker.Outcome
  )
    -> Bool?
  {
    let statements = LessonLinter.solutionStatements(onFixture)
    guard let last = statements.last else { return nil }
    var unordered = exercise
    unordered.ordered = false
    var result: Bool? = nil
    for descending in [false, true] {
      guard let probe = TieOrder.byOutput(last, columns: onFixture.columns.count, descending: descending) else { return nil }
      let script = AnswerChecker.script(statements, replacingLast: probe)
      guard let other = try? checker.run(script, exercise: exercise, fixture: fixture, dataset: dataset),
        checker.compare(expected: expected, actual: other, exercise: exercise) != nil
      else { continue }
      guard exercise.ordered, checker.compare(expected: expected, actual: other, exercise: unordered) == nil else { return false }
      result = true
    }
    return result
  }
}
