import Foundation
import XCTest

/// Runs the built `quarry` binary as a user would.
struct QuarryProcess {
  static let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  static var binary: URL {
    get throws {
      for path in [".build/debug/quarry", ".build/release/quarry"] {
        let url = packageRoot.appendingPathComponent(path)
        if FileManager.default.isExecutableFile(atPath: url.path) { return url }
      }
      throw XCTSkip("build the quarry binary first (swift build --product quarry)")
    }
  }

  struct Result {
    var status: Int32
    var stdout: String
    var stderr: String
  }

  static func run(_ arguments: [String], stdin: String? = nil, environment: [String: String] = [:]) throws -> Result {
    try runData(arguments, stdin: stdin.map { Data($0.utf8) }, environment: environment)
  }

  /// The same with stdin as bytes (text that is not valid UTF-8).
  static func runData(_ arguments: [String], stdin: Data?, environment: [String: String] = [:]) throws -> Result {
    try runExecutable(try binary, arguments, stdin: stdin, environment: environment)
  }

  /// Another program (`/usr/bin/script` around quarry), with the test's environment.
  static func runCommand(_ command: [String], stdin: String) throws -> Result {
    try runExecutable(URL(fileURLWithPath: command[0]), Array(command.dropFirst()), stdin: Data(stdin.utf8), environment: [:])
  }

  static func runExecutable(_ executable: URL, _ arguments: [String], stdin: Data?, environment: [String: String]) throws -> Result {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    var env = ProcessInfo.processInfo.environment
    env["QUARRY_FIXTURES"] = packageRoot.appendingPathComponent("fixtures").path
    env["NO_COLOR"] = "1"
    for (key, value) in environment { env[key] = value }
    process.environment = env
    let out = Pipe()
    let err = Pipe()
    let input = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = input
    try process.run()
    if let stdin { input.fileHandleForWriting.write(stdin) }
    try input.fileHandleForWriting.close()
    let stdoutData = out.fileHandleForReading.readDataToEndOfFile()
    let stderrData = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Result(
      status: process.terminationStatus, stdout: String(decoding: stdoutData, as: UTF8.self),
      stderr: String(decoding: stderrData, as: UTF8.self))
  }
}
