import Foundation
import QuarryDSL
import Workbench
import XCTest

/// Seeded mutations of real inputs go through the front end: each must give SQL or a
/// diagnostic, never a trap, and never take long.
final class FuzzTests: XCTestCase {
  /// SplitMix64: a small seeded generator, so a failure reproduces.
  struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }

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
    switch Int.random(in: 0..<6, using: &rng) {
    case 0:  // truncate
      scalars = Array(scalars.prefix(Int.random(in: 0...scalars.count, using: &rng)))
    case 1:  // swap two tokens
      var tokens = input.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
      if tokens.count > 1 {
        let a = Int.random(in: 0..<tokens.count, using: &rng), b = Int.random(in: 0..<tokens.count, using: &rng)
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

  func testTwentyThousandMutationsYieldSQLOrADiagnostic() throws {
    let session = try Session.fixture("reminders")
    try session.loadModels("enum R1: AliasName {}\nenum R2: AliasName {}", path: "aliases")
    let inputs = corpus()
    var rng = SeededGenerator(state: 0x5155_4152_5259)
    var compiled = 0, diagnosed = 0
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
        XCTAssertGreaterThanOrEqual(error.line, 1)
        XCTAssertGreaterThanOrEqual(error.column, 1)
        diagnosed += 1
      }
      let elapsed = Date().timeIntervalSince(start)
      if elapsed > slowest.0 { slowest = (elapsed, input) }
    }
    XCTAssertEqual(compiled + diagnosed, 20_000)
    XCTAssertLessThan(slowest.0, 5, "a mutation took too long (a hang?): \(slowest.1)")
    print("fuzz: \(compiled) compiled, \(diagnosed) diagnosed, slowest \(Int(slowest.0 * 1000)) ms")
  }
}
