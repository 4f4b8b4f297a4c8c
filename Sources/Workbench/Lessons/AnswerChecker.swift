import Foundation
import QuarryEngine
import QueryBuilder
import QuarryDSL

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

  /// Rows a statement produced (or that checked tables hold afterwards).
  struct Outcome {
    var columns: [String]
    var rows: [[DatabaseValue]]
  }

  public init() {}

  public func check(_ answer: String, against exercise: Exercise, fixture: String) throws -> Verdict {
    for variant in [false, true] {
      let expected: Outcome
      do {
        expected = try run(exercise.solution, exercise: exercise, fixture: fixture, variant: variant)
      } catch let error as CheckFailure {
        throw LessonProblem(path: fixture, line: exercise.solutionLine, message: "the solution fails: \(error.message)")
      }
      let actual: Outcome
      do {
        actual = try run(answer, exercise: exercise, fixture: fixture, variant: variant)
      } catch let error as CheckFailure {
        return .wrong(error.message)
      }
      if let difference = compare(expected: expected, actual: actual, ordered: exercise.ordered) {
        let place = variant
          ? " (on the variant rows; it matched the fixture's rows, so it may be fitted to them)"
          : ""
        return .wrong(difference + place)
      }
    }
    return .correct
  }

  struct CheckFailure: Error { var message: String }

  func run(_ input: String, exercise: Exercise, fixture: String, variant: Bool) throws -> Outcome {
    let session = try Session.fixture(fixture, variant: variant)
    let collector = ResultCollector()
    session.run(input, sink: collector)
    if let error = collector.error { throw CheckFailure(message: error) }
    guard collector.statements > 0 else { throw CheckFailure(message: "there is no query to check") }
    if exercise.checkedTables.isEmpty { return Outcome(columns: collector.columns, rows: collector.rows) }
    var rows: [[DatabaseValue]] = []
    for table in exercise.checkedTables {
      let contents = try session.database.rows("SELECT * FROM \(quoteIdentifier(table)) ORDER BY 1, 2")
      rows += contents.map { [.text(table)] + $0 }
    }
    return Outcome(columns: ["table"], rows: rows)
  }

  /// The first difference, explained; nil when the results match.
  func compare(expected: Outcome, actual: Outcome, ordered: Bool) -> String? {
    let expectedWidth = expected.rows.first?.count ?? expected.columns.count
    let actualWidth = actual.rows.first?.count ?? actual.columns.count
    if actualWidth > expectedWidth {
      return "extra column: expected \(expectedWidth) column\(expectedWidth == 1 ? "" : "s"), got \(actualWidth)"
    }
    if actualWidth < expectedWidth {
      return "missing column: expected \(expectedWidth) column\(expectedWidth == 1 ? "" : "s"), got \(actualWidth)"
    }
    if expected.rows.count != actual.rows.count {
      return "expected \(expected.rows.count) row\(expected.rows.count == 1 ? "" : "s"), got \(actual.rows.count)"
    }
    let sortedExpected = expected.rows.sorted(by: Self.rowOrder)
    let sortedActual = actual.rows.sorted(by: Self.rowOrder)
    if ordered, sortedExpected.map(Self.key) == sortedActual.map(Self.key), expected.rows.map(Self.key) != actual.rows.map(Self.key) {
      return "right rows, wrong order"
    }
    let (left, right) = ordered ? (expected.rows, actual.rows) : (sortedExpected, sortedActual)
    for (index, (want, got)) in zip(left, right).enumerated() where Self.key(want) != Self.key(got) {
      let column = zip(want, got).enumerated().first { Self.valueKey($0.element.0) != Self.valueKey($0.element.1) }?.offset ?? 0
      let name = column < actual.columns.count ? " ('\(actual.columns[column])')" : ""
      return "row \(index + 1)\(ordered ? "" : " (sorted)"), column \(column + 1)\(name): expected \(display(want[column])), got \(display(got[column]))"
    }
    return nil
  }

  func display(_ value: DatabaseValue) -> String { value.inlineSQL }

  static func valueKey(_ value: DatabaseValue) -> String {
    switch value {
    case .null: return "n"
    case .integer(let v): return "i\(v)"
    case .double(let v): return v == v.rounded() && abs(v) < 1e15 ? "i\(Int64(v))" : "d\(v)"
    case .text(let v): return "t" + v
    case .blob(let v): return "b" + hex(v)
    }
  }

  static func key(_ row: [DatabaseValue]) -> [String] { row.map(valueKey) }

  static func rowOrder(_ a: [DatabaseValue], _ b: [DatabaseValue]) -> Bool {
    key(a).lexicographicallyPrecedes(key(b))
  }
}

/// Collects every row of the statements of one input, and the first error.
final class ResultCollector: ResultSink {
  var columns: [String] = []
  var rows: [[DatabaseValue]] = []
  var error: String?
  var statements = 0

  func begin(input: String, sql: String, bindings: [QueryBinding], columns: [String], types: [SwiftType?]) {
    statements += 1
    self.columns = columns
    rows = []
  }
  func row(_ statement: PreparedStatement) { rows.append(statement.row()) }
  func end(error: StatementError?) {
    if let error, self.error == nil { self.error = "\(error.line):\(error.column): \(error.message)" }
  }
  func failure(input: String, error: StatementError) {
    if self.error == nil { self.error = "\(error.line):\(error.column): \(error.message)" }
  }
}
