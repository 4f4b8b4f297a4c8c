import Foundation
import XCTest

/// A learner's answers through the binary (`Tests/LearnerAnswers/answers.tsv`): correct answers
/// written differently from the solutions are accepted, wrong and hard-coded ones are not — on
/// the fixture, the variant, the rows under other ids and the generated datasets.
final class LearnerAnswerTests: XCTestCase {
  func testLearnersAnswersAreJudgedAsTheyShouldBe() throws {
    let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("LearnerAnswers/answers.tsv").path
    let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") }
    var accepted = 0
    var rejected = 0
    var checks: [(expected: String, exercise: String, answer: String)] = []
    for line in lines {
      let fields = line.split(separator: "\t", maxSplits: 2).map(String.init)
      guard fields.count == 3 else {
        XCTFail("a line needs three fields: \(line)")
        continue
      }
      // `\\n` in an answer is a line break.
      let answer = fields[2].replacingOccurrences(of: "\\n", with: "\n").replacingOccurrences(of: "\\\\", with: "\\")
      checks.append((fields[0], fields[1], answer))
    }
    // Two checks at a time (one per core): each is its own process.
    let queued = checks
    let results = Results(count: queued.count)
    DispatchQueue.concurrentPerform(iterations: 2) { worker in
      for index in stride(from: worker, to: queued.count, by: 2) {
        results.set(index, Result { try QuarryProcess.run(["lessons", "--check", queued[index].exercise, queued[index].answer]) })
      }
    }
    for (check, outcome) in zip(checks, results.all) {
      let result = try XCTUnwrap(outcome).get()
      if check.expected == "accept" {
        XCTAssertEqual(result.status, 0, "\(check.exercise) \(check.answer)\n\(result.stdout)\(result.stderr)")
        accepted += 1
      } else {
        XCTAssertEqual(result.status, 1, "\(check.exercise) \(check.answer)\n\(result.stdout)\(result.stderr)")
        XCTAssertTrue(result.stdout.hasPrefix("✗ "), result.stdout)
        rejected += 1
      }
    }
    XCTAssertEqual(accepted, 685)
    XCTAssertEqual(rejected, 877)
  }
}

/// The outcomes of checks run on two threads, each in its own slot.
private final class Results: @unchecked Sendable {
  private let lock = NSLock()
  private var slots: [Result<QuarryProcess.Result, any Error>?]
  init(count: Int) { slots = Array(repeating: nil, count: count) }
  func set(_ index: Int, _ outcome: Result<QuarryProcess.Result, any Error>) { lock.withLock { slots[index] = outcome } }
  var all: [Result<QuarryProcess.Result, any Error>?] { lock.withLock { slots } }
}
