import Foundation
import InlineSnapshotTesting
import QueryBuilder
import Workbench
import XCTest

/// Base class for snapshot tests: under CI a differing snapshot fails instead of re-recording.
class SnapshotTestCase: XCTestCase {
  override func invokeTest() {
    // Under CI a differing snapshot fails; locally QUARRY_RECORD=1 re-records differing ones.
    let environment = ProcessInfo.processInfo.environment
    let record: SnapshotTestingConfiguration.Record =
      environment["CI"].map { !$0.isEmpty } == true
      ? .never
      : environment["QUARRY_RECORD"] == "1" ? .failed : .missing
    withSnapshotTesting(record: record) { super.invokeTest() }
  }

  /// Runs DSL on a fresh copy of a fixture; returns the SQL and the results as a box table
  /// (or the error), the way the REPL shows them.
  func run(_ dsl: String, fixture: String = "reminders", setup: [String] = []) throws -> String {
    try capture(fixture: fixture) { session, sink in
      for input in setup {
        let quiet = OutputFormat.box.sink(output: .capturing(), session: session)
        if input.hasPrefix(".raw ") {
          session.runSQL(String(input.dropFirst(5)), sink: quiet)
        } else {
          session.run(input, sink: quiet)
        }
      }
      session.run(dsl, sink: sink)
    }
  }

  /// Runs a pasted script the way `quarry` reads one: split into inputs, each compiled and run
  /// before the next is compiled.
  func runScript(_ script: String, fixture: String = "reminders") throws -> String {
    try capture(fixture: fixture) { session, sink in
      for chunk in ScriptSplitter.chunks(of: script, isMetaCommand: { _ in false }) {
        session.run(chunk, sink: sink)
      }
    }
  }

  /// What a fresh session on the fixture prints (results and errors, box mode) for `body`.
  private func capture(fixture: String, _ body: (Session, ResultSink) -> Void) throws -> String {
    let session = try Session.fixture(fixture)
    let output = OutputStream.capturing()
    body(session, OutputFormat.box.sink(output: output, session: session, errors: output))
    return output.text.trimmingCharacters(in: .newlines)
  }
}
