import Foundation
import XCTest

/// StructuredQueries conformance on the visible cases must never drop below the committed
/// baseline (a ratchet). Raise the baseline when the score improves.
final class ConformanceTests: XCTestCase {
  func testScoreDoesNotDropBelowBaseline() throws {
    let root = QuarryProcess.packageRoot
    let runner = root.deletingLastPathComponent().appendingPathComponent("shared/conformance/run.py")
    guard FileManager.default.fileExists(atPath: runner.path) else {
      throw XCTSkip("../shared/conformance is not beside the repository")
    }
    let binary = try QuarryProcess.binary
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [
      "python3", runner.path, "--cmd", "\(binary.path) {db} --models {models} --format json {e_args}", "-j", "2",
    ]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    print(output)
    let last = try XCTUnwrap(output.split(separator: "\n").last.map(String.init))
    let score = try Self.parse(last)
    let baselineText = try String(
      contentsOf: root.appendingPathComponent("Tests/EndToEndTests/conformance-baseline.txt"), encoding: .utf8)
    let baseline = try Self.parse(baselineText.trimmingCharacters(in: .whitespacesAndNewlines))
    XCTAssertGreaterThanOrEqual(score.sqlExact, baseline.sqlExact, "sql_exact dropped: \(last)")
    XCTAssertGreaterThanOrEqual(score.rowsEqual, baseline.rowsEqual, "rows_equal dropped: \(last)")
    XCTAssertGreaterThanOrEqual(score.compiled, baseline.compiled, "compiled dropped: \(last)")
  }

  struct Score {
    var sqlExact: Int
    var rowsEqual: Int
    var compiled: Int
  }

  /// `conformance: sql_exact A/N, rows_equal B/M, compiled C/N`
  static func parse(_ line: String) throws -> Score {
    func number(after key: String) throws -> Int {
      guard let range = line.range(of: key + " ") else { throw XCTSkip("unexpected runner output: \(line)") }
      let digits = line[range.upperBound...].prefix { $0.isNumber }
      return Int(digits) ?? 0
    }
    return Score(
      sqlExact: try number(after: "sql_exact"), rowsEqual: try number(after: "rows_equal"), compiled: try number(after: "compiled"))
  }
}
