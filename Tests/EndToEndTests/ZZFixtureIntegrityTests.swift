import Foundation
import XCTest

/// Runs last (suites run in name order): fixture files on disk are byte-identical after
/// everything else ran, against the committed `fixtures/SHA256SUMS`.
final class ZZFixtureIntegrityTests: XCTestCase {
  func testFixturesAreUnchanged() throws {
    let fixtures = QuarryProcess.packageRoot.appendingPathComponent("fixtures")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
    process.arguments = ["--check", "--quiet", "SHA256SUMS"]
    process.currentDirectoryURL = fixtures
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    XCTAssertEqual(process.terminationStatus, 0, "fixture files changed:\n\(output)")
  }
}
