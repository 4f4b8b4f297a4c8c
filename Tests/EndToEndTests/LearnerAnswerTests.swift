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
    for line in lines {
      let fields = line.split(separator: "\t", maxSplits: 2).map(String.init)
      guard fields.count == 3 else {
        XCTFail("a line needs three fields: \(line)")
        continue
      }
      // `\\n` in an answer is a line break.
      let answer = fields[2].replacingOccurrences(of: "\\n", with: "\n").replacingOccurrences(of: "\\\\", with: "\\")
      let result = try QuarryProcess.run(["lessons", "--check", fields[1], answer])
      if fields[0] == "accept" {
        XCTAssertEqual(result.status, 0, "\(fields[1]) \(fields[2])\n\(result.stdout)\(result.stderr)")
        accepted += 1
      } else {
        XCTAssertEqual(result.status, 1, "\(fields[1]) \(fields[2])\n\(result.stdout)\(result.stderr)")
        XCTAssertTrue(result.stdout.hasPrefix("✗ "), result.stdout)
        rejected += 1
      }
    }
    XCTAssertEqual(accepted, 313)
    XCTAssertEqual(rejected, 354)
  }
}
