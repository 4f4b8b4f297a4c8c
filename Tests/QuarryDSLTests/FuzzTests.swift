import Foundation
import QuarryDSL
import QuarryEngine
import QueryBuilder
import Workbench
import XCTest

/// Seeded mutations of real inputs go through the front end: each must give SQL or a
/// diagnostic, never a trap, and never take long.
final class FuzzTests: XCTestCase {
  /// SplitMix64 (Workbench's): a small seeded generator, so a failure reproduces.
  typealias SeededGenerator = SplitMix64

  static let referenceQueries = [
    "Reminder.all",
    #"Reminder.where { !$0.isCompleted }.order(by: \.title).limit(10)"#,
    "Reminder.join(RemindersList.all) { $0.remindersListID.eq($1.id) }.select { ($0.title, $1.title) }",
    "RemindersList.group(by: \\.id).join(Reminder.all) { $0.id.eq($1.remindersListID) }.having { $1.count() > 2 }.select { ($0.title, $1.count()) }",
    #"Reminder.leftJoin(User.all) { $0.assignedUserID.eq($1.id) }.select { ($0.title, $1.name ?? "nobody") }"#,
    #"Reminder.where { $0.title.collate(.nocase).like("%a%") || $0.id.in([1, 2, 3]) }.order { $0.dueDate.desc(nulls: .last) }"#,
    #"Reminder.select { ($0.priority.count(distinct: true), $0.title.groupConcat(", "), #sql("date('now')")) }"#,
    "enum R: AliasName {}\nReminder.as(R.self).leftJoin(Reminder.all) { $0.id.eq($1.id) }.limit(1, offset: 2)",
    "@Table struct Item { let id: Int\n var name = \"\"\n var price: Double? }\nItem.where { $0.price.isNot(nil) }",
  ]

  func corpus() -> [String] {
    var inputs = Self.referenceQueries
    let visible = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("shared/conformance/visible.jsonl")
    if let text = try? String(contentsOf: visible, encoding: .utf8) {
      for line in text.split(separator: "\n") {
        if let data = line.data(using: .utf8),
          let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
          let expr = object["expr"] as? String
        {
          inputs.append(expr)
        }
      }
    }
    return inputs
  }

  func mutate(_ input: String, using rng: inout SeededGenerator) -> String {
    var scalars = Array(input.unicodeScalars)
    guard !scalars.isEmpty else { return input }
    switch Int.random(in: 0..<9, using: &rng) {
    case 6:  // nesting: wrap a range in many brackets of one kind
      let open: [Unicode.Scalar] = ["[", "(", "{"]
      let close: [Unicode.Scalar] = ["]", ")", "}"]
      let kind = Int.random(in: 0..<3, using: &rng)
      let depth = Int.random(in: 1...40, using: &rng)
      let start = Int.random(in: 0...scalars.count, using: &rng)
      let end = Int.random(in: start...scalars.count, using: &rng)
      scalars.insert(contentsOf: Array(repeating: close[kind], count: Int.random(in: 0...depth, using: &rng)), at: end)
      scalars.insert(contentsOf: Array(repeating: open[kind], count: depth), at: start)
    case 7:  // statement splitting: `;`, a comment or a newline somewhere
      let pieces: [String] = [";", "; ", "\n", " // x;\n", " -- y;\n", " /* ; */ ", ";;", "\n.where { $0.id > 1 }"]
      let position = Int.random(in: 0...scalars.count, using: &rng)
      scalars.insert(contentsOf: pieces[Int.random(in: 0..<pieces.count, using: &rng)].unicodeScalars, at: position)
    case 8:  // escapes: inside or outside a string
      let escapes: [String] = [
        "\\u{41}", "\\u{D800}", "\\u{110000}", "\\u{", "\\0", "\\q", "\\\"", "\\(", "\"\\", "#\"", "\"\"\"", "\u{0}",
      ]
      let position = Int.random(in: 0...scalars.count, using: &rng)
      scalars.insert(contentsOf: escapes[Int.random(in: 0..<escapes.count, using: &rng)].unicodeScalars, at: position)
    case 0:  // truncate
      scalars = Array(scalars.prefix(Int.random(in: 0...scalars.count, using: &rng)))
    case 1:  // swap two tokens
      var tokens = input.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
      if tokens.count > 1 {
        let a = Int.random(in: 0..<tokens.count, using: &rng)
        let b = Int.random(in: 0..<tokens.count, using: &rng)
        tokens.swapAt(a, b)
      }
      return tokens.joined(separator: " ")
    case 2:  // random bytes
      for _ in 0..<Int.random(in: 1...4, using: &rng) {
        let position = Int.random(in: 0...scalars.count, using: &rng)
        let scalar = Unicode.Scalar(UInt8.random(in: 0...255, using: &rng))
        scalars.insert(scalar, at: position)
      }
    case 3:  // delete a range
      let start = Int.random(in: 0..<scalars.count, using: &rng)
      let end = min(scalars.count, start + Int.random(in: 1...8, using: &rng))
      scalars.removeSubrange(start..<end)
    case 4:  // duplicate a range
      let start = Int.random(in: 0..<scalars.count, using: &rng)
      let end = min(scalars.count, start + Int.random(in: 1...12, using: &rng))
      scalars.insert(contentsOf: scalars[start..<end], at: end)
    default:  // replace a punctuation character with another
      let punctuation: [Unicode.Scalar] = ["(", ")", "{", "}", "[", "]", ".", ",", "$", "\\", "\"", "!", "?", "#", "&", "|"]
      let position = Int.random(in: 0..<scalars.count, using: &rng)
      scalars[position] = punctuation[Int.random(in: 0..<punctuation.count, using: &rng)]
    }
    var out = String.UnicodeScalarView()
    out.append(contentsOf: scalars)
    return String(out)
  }

  /// Plain SQL mutated the same ways: every statement runs or fails with a located error.
  static let referenceSQL = [
    "SELECT title FROM reminders WHERE isCompleted -- done;\nORDER BY title;",
    "DELETE FROM tags /* ; */ WHERE id = 99; SELECT count(*) FROM tags;",
    "WITH x AS (SELECT 1 AS n) SELECT n + 1 FROM x; SELECT 'a;b';",
    "BEGIN; UPDATE tags SET title = upper(title) WHERE id = 1; ROLLBACK;",
    "CREATE TEMP TRIGGER t AFTER INSERT ON tags BEGIN SELECT 1; END; DROP TRIGGER t;",
  ]

  /// Whether a located error points inside its input: a real line, and a column no further
  /// than one past that line's end (in characters).
  static func isLocated(line: Int, column: Int, in input: String) -> Bool {
    let lines = input.split(separator: "\n", omittingEmptySubsequences: false)
    guard line >= 1, line <= lines.count, column >= 1 else { return false }
    return column <= lines[line - 1].count + 1
  }

  func testTwentyThousandMutationsYieldSQLOrADiagnostic() throws {
    let session = try Session.fixture("reminders")
    try session.loadModels("enum R1: AliasName {}\nenum R2: AliasName {}", path: "aliases")
    let inputs = corpus()
    var rng = SeededGenerator(state: 0x5155_4152_5259)
    var compiled = 0
    var diagnosed = 0
    var slowest: (Double, String) = (0, "")
    for iteration in 0..<20_000 {
      let base = inputs[iteration % inputs.count]
      let input = mutate(base, using: &rng)
      let compiler = Compiler(catalog: session.catalog)
      let start = Date()
      do {
        let items = try compiler.compile(input)
        for case .statement(let statement) in items { _ = statement.displaySQL }
        compiled += 1
      } catch {
        XCTAssertFalse(error.message.isEmpty, "empty diagnostic for \(input)")
        XCTAssertTrue(
          Self.isLocated(line: error.line, column: error.column, in: input),
          "\(error.line):\(error.column) is outside the input: \(input.debugDescription)")
        diagnosed += 1
      }
      let elapsed = Date().timeIntervalSince(start)
      XCTAssertLessThan(elapsed, 2, "this input took \(elapsed) s: \(input.debugDescription)")
      if elapsed > slowest.0 { slowest = (elapsed, input) }
    }
    XCTAssertEqual(compiled + diagnosed, 20_000)
    print("fuzz: \(compiled) compiled, \(diagnosed) diagnosed, slowest \(Int(slowest.0 * 1000)) ms")
  }

  /// Collects what a run reports, for checking errors' locations.
  final class Outcomes: ResultSink {
    var errors: [StatementError] = []
    func begin(input: String, sql: String, bindings: [QueryBinding], columns: [String], types: [SwiftType?]) {}
    func row(_ statement: PreparedStatement) {}
    func end(error: StatementError?) { if let error { errors.append(error) } }
    func failure(input: String, error: StatementError) { errors.append(error) }
  }

  func testMutatedPlainSQLRunsOrFailsWithALocatedError() throws {
    let session = try Session.fixture("reminders")
    var rng = SeededGenerator(state: 0x0053_514C)
    var failed = 0
    for iteration in 0..<4_000 {
      let input = mutate(Self.referenceSQL[iteration % Self.referenceSQL.count], using: &rng)
      let outcomes = Outcomes()
      let start = Date()
      if !session.runSQL(input, sink: outcomes) { failed += 1 }
      XCTAssertLessThan(Date().timeIntervalSince(start), 2, input.debugDescription)
      for error in outcomes.errors {
        XCTAssertTrue(
          Self.isLocated(line: error.line, column: error.column, in: input),
          "\(error.line):\(error.column) is outside the input: \(input.debugDescription)")
      }
      // Whatever the input did, Quarry's own savepoint is never left open.
      XCTAssertThrowsError(try session.database.execute("RELEASE quarry_input"), input.debugDescription)
      if session.database.isInTransaction { _ = session.runSQL("ROLLBACK;", sink: Outcomes()) }
    }
    print("sql fuzz: \(4_000 - failed) ran, \(failed) failed with located errors")
  }
}
