import Foundation
import QuarryEngine
import QueryBuilder
import SwiftParser
import SwiftSyntax
import Workbench
import XCTest

@testable import QuarryDSL

/// Randomly generated function bodies with extreme values (Int.min, Int.max, -1, huge counts,
/// NaN, endless loops, growing strings) run through the evaluator: each must give a value or a
/// located error — never a trap, never a hang. A trap ends the test process; a hang fails
/// the time bound.
final class SwiftBodyFuzzTests: XCTestCase {
  struct Generator {
    var random: FuzzTests.SeededGenerator
    var depth = 0

    mutating func pick(_ options: [String]) -> String { options[Int(random.next() % UInt64(options.count))] }
    mutating func chance(_ percent: UInt64) -> Bool { random.next() % 100 < percent }

    mutating func int() -> String {
      depth += 1
      defer { depth -= 1 }
      if depth > 3 || chance(40) {
        return pick([
          "0", "1", "-1", "2", "7", "Int.max", "Int.min", "x", "n", "9223372036854775807", "-9223372036854775808", "1_000_000",
          "0x7fffffffffffffff", "a.count", "s.count",
        ])
      }
      switch random.next() % 14 {
      case 0: return "(\(int()) \(pick(["+", "-", "*", "/", "%", "&+", "&-", "&*", "<<", ">>", "&", "|", "^"])) \(int()))"
      case 1: return "-\(int())"
      case 2: return "abs(\(int()))"
      case 3: return "max(\(int()), \(int()))"
      case 4: return "(\(bool()) ? \(int()) : \(int()))"
      case 5: return "Int(\(double()))"
      case 6: return "(\(int())...\(int())).count"
      case 7: return "([\(int()), \(int())].max() ?? 0)"
      case 8: return "(o ?? \(int()))"
      case 9: return "o!"
      case 10: return "a[\(int())]"
      case 11: return "(Int(\(string())) ?? \(int()))"
      case 12: return "\(int()).signum()"
      default: return "a.reduce(\(int()), \(pick(["+", "&+", "*", "max"])))"
      }
    }

    mutating func double() -> String {
      depth += 1
      defer { depth -= 1 }
      if depth > 3 || chance(50) {
        return pick(["1e308", "-1e308", "Double.nan", "Double.infinity", "0.1", "-0.0", "2.5", "1e19", "9.3e18"])
      }
      switch random.next() % 5 {
      case 0: return "Double(\(int()))"
      case 1: return "(\(double()) * \(double()))"
      case 2: return "(\(double()) / \(double()))"
      case 3: return "\(double()).rounded()"
      default: return "sqrt(\(double()))"
      }
    }

    mutating func string() -> String {
      depth += 1
      defer { depth -= 1 }
      if depth > 3 || chance(40) { return pick(["\"\"", "\"ab\"", "s", "\"\\u{1F600}é\"", "\"\\0\""]) }
      switch random.next() % 8 {
      case 0: return "String(repeating: \(string()), count: \(int()))"
      case 1: return "(\(string()) + \(string()))"
      case 2: return "String(\(string()).dropFirst(\(int())))"
      case 3: return "String(\(string()).prefix(\(int())))"
      case 4: return "\"\\(\(int()))\""
      case 5: return "[\(string()), \(string())].joined(separator: \(string()))"
      case 6: return "\(string()).replacingOccurrences(of: \(string()), with: \(string()))"
      default: return "\(string()).uppercased()"
      }
    }

    mutating func bool() -> String {
      depth += 1
      defer { depth -= 1 }
      if depth > 3 || chance(30) { return pick(["true", "false", "x < n", "s.isEmpty"]) }
      switch random.next() % 6 {
      case 0: return "\(int()) < \(int())"
      case 1: return "\(int()).isMultiple(of: \(int()))"
      case 2: return "\(string()).hasPrefix(\(string()))"
      case 3: return "!\(bool())"
      case 4: return "(0..<\(int())).contains(\(int()))"
      default: return "(\(bool()) && \(bool()))"
      }
    }

    mutating func statement(_ level: Int) -> String {
      switch random.next() % (level > 2 ? 6 : 13) {
      case 0: return "x = \(int())"
      case 1: return "x += \(int())"
      case 2: return "s += \(string())"
      case 3: return "a.append(\(int()))"
      case 4: return "if \(bool()) { return \(int()) }"
      case 5: return "_ = \(int())"
      case 6: return "for i in \(int())..<\(int()) { \(block(level + 1)) }"
      case 7: return "for i in \(int())...\(int()) { \(block(level + 1)) }"
      case 8: return "while \(bool()) { x &+= 1; \(block(level + 1)) }"
      case 9: return "if \(bool()) { \(block(level + 1)) } else { \(block(level + 1)) }"
      case 10: return "guard \(bool()) else { return \(int()) }"
      case 11: return "switch x { case \(int())...: x = 1; case ..<\(int()): x = 2; default: break }"
      default: return "a = Array(repeating: \(int()), count: \(int()))"
      }
    }

    mutating func block(_ level: Int) -> String {
      (0..<(1 + Int(random.next() % 3))).map { _ in statement(level) }.joined(separator: "; ")
    }

    mutating func body() -> String {
      "func f(_ n: Int, _ o: Int?) -> Int { var x = n; var s = \"ab\"; var a = [1, 2, 3]; \(block(0)); return x &+ s.count &+ a.count } ;; f(\(pick(["0", "1", "-1", "Int.max", "Int.min", "100"])), \(pick(["nil", "5", "Int.min"])))"
    }
  }

  func testRandomBodiesNeverTrapOrHang() {
    var generator = Generator(
      random: FuzzTests.SeededGenerator(state: ProcessInfo.processInfo.environment["QUARRY_BODY_FUZZ_SEED"].flatMap(UInt64.init) ?? 21))
    var outcomes = (values: 0, errors: 0, crashes: 0, budget: 0)
    var slowest = (seconds: 0.0, body: "")
    let count = ProcessInfo.processInfo.environment["QUARRY_BODY_FUZZ_COUNT"].flatMap(Int.init) ?? 1500
    for _ in 0..<count {
      let body = generator.body()
      if let trace = ProcessInfo.processInfo.environment["QUARRY_BODY_FUZZ_TRACE"] {
        try? body.write(toFile: trace, atomically: false, encoding: .utf8)
      }
      let start = Date()
      let result = Self.run(body, steps: 100_000)
      let elapsed = Date().timeIntervalSince(start)
      if elapsed > slowest.seconds { slowest = (elapsed, body) }
      switch result {
      case .success: outcomes.values += 1
      case .failure(let error):
        outcomes.errors += 1
        if error.text.contains("the app would crash here") { outcomes.crashes += 1 }
        if error.text.contains("evaluation budget") { outcomes.budget += 1 }
        XCTAssertGreaterThan(error.line, 0, body)
      }
    }
    print(
      "random bodies: \(count): \(outcomes.values) values, \(outcomes.errors) located errors (\(outcomes.crashes) where the app would crash, \(outcomes.budget) over budget); slowest \(String(format: "%.3f", slowest.seconds)) s"
    )
    // A hang guard, not a speed goal: a body at the full step budget takes up to about 15 s in a
    // debug build on a loaded machine; an unbounded one would never finish.
    XCTAssertLessThan(slowest.seconds, 60, "slowest body: \(slowest.body)")
    XCTAssertGreaterThan(outcomes.values, count / 10, "the generator should make many bodies that run")
    XCTAssertGreaterThan(outcomes.crashes, count / 20, "the generator should reach Swift's traps")
  }

  /// The worst bodies at the full budget: endless loops and values that grow without bound stop
  /// with a message, in bounded time.
  func testEndlessWorkStopsAtTheBudget() {
    for body in [
      "func f() -> Int { var x = 0; while true { x &+= 1 }; return x } ;; f()",
      "func f() -> Int { var s = \"ab\"; for _ in 0..<64 { s += s }; return s.count } ;; f()",
      "func f() -> Int { var a = [0]; for _ in 0..<64 { a = a + a }; return a.count } ;; f()",
      "func f() -> Int { var t = 0; for i in 0...Int.max { t &+= i }; return t } ;; f()",
      "func f() -> Int { String(repeating: \"x\", count: 1_000_000_000_000).count } ;; f()",
      "func f(_ n: Int) -> Int { f(n + 1) } ;; f(0)",
    ] {
      let start = Date()
      guard case .failure(let error) = Self.run(body, steps: EvaluationBudget.defaultSteps) else {
        XCTFail("\(body) gave a value")
        continue
      }
      XCTAssert(error.text.contains("budget") || error.text.contains("deep"), "\(body): \(error.message)")
      // A hang guard, not a speed goal (the bench's): the full budget of an endless loop takes
      // 12–15 s in a debug build on this machine, unloaded; an unbounded one never finishes.
      XCTAssertLessThan(Date().timeIntervalSince(start), 60, body)
    }
  }

  static func run(_ text: String, steps: Int) -> Result<SwiftValue, SwiftEvaluationError> {
    let parts = text.components(separatedBy: " ;; ")
    let code = parts.joined(separator: "\n")
    let tree = Parser.parse(source: code)
    let source = SourceUnit(text: code, tree: tree)
    let evaluator = SwiftEvaluator(source: source, enums: [:], budget: EvaluationBudget(steps: steps))
    for item in tree.statements {
      if case .decl(let decl) = item.item, let function = decl.as(FunctionDeclSyntax.self) {
        evaluator.functions[function.name.text] = SwiftEvaluator.DeclaredFunction(declaration: function, source: source)
      }
    }
    guard let last = tree.statements.last, case .expr(let expr) = last.item else {
      return .failure(SwiftEvaluationError(text: "no expression", line: 1, column: 1))
    }
    do {
      return .success(try evaluator.value(of: expr, names: [:]))
    } catch {
      return .failure(error)
    }
  }
}

/// Randomly generated app code (nested loops with extreme bounds, `#if`, `switch`, writes in
/// `database.write` blocks, Swift values in queries) run through a whole session: every input
/// gives results or located errors, never a trap, never a hang.
final class AppCodeFuzzTests: XCTestCase {
  final class QuietSink: ResultSink {
    var errors = 0
    func begin(input: String, sql: String, bindings: [QueryBinding], columns: [String], types: [SwiftType?]) {}
    func row(_ statement: PreparedStatement) {}
    func end(error: StatementError?) { if error != nil { errors += 1 } }
    func failure(input: String, error: StatementError) { errors += 1 }
  }

  struct Generator {
    var body: SwiftBodyFuzzTests.Generator

    mutating func bound() -> String {
      body.pick(["0", "1", "3", "-1", "10_000", "10_001", "Int.max", "Int.min", "-9223372036854775808", "9223372036854775807"])
    }

    mutating func statement(_ level: Int) -> String {
      switch body.random.next() % (level > 2 ? 5 : 9) {
      case 0: return "try Reminder.where { $0.id.eq(\(body.int())) }.update { $0.title = \(body.string()) }.execute(db)"
      case 1: return "try Tag.insert { Tag.Draft(title: \(body.string())) }.execute(db)"
      case 2: return "let v = try Reminder.where { $0.id > \(body.int()) }.fetchCount(db)"
      case 3: return "try Reminder.select(\\.id).limit(\(body.int())).offset(\(body.int())).fetchAll(db)"
      case 4: return "try Reminder.where { #sql(\"\\($0.id) < \\(\(body.int()))\") }.fetchAll(db)"
      case 5: return "for i in \(bound())..<\(bound()) { \(block(level + 1)) }"
      case 6: return "for x in [\(body.int()), \(body.int())] where x > 0 { \(block(level + 1)) }"
      case 7:
        return
          "#if \(body.pick(["DEBUG", "os(Linux)", "os(iOS) && !DEBUG", "canImport(UIKit)"]))\n\(block(level + 1))\n#else\n\(block(level + 1))\n#endif"
      default: return "if \(body.bool()) { \(block(level + 1)) }"
      }
    }

    mutating func block(_ level: Int) -> String {
      (0..<(1 + Int(body.random.next() % 3))).map { _ in statement(level) }.joined(separator: "\n")
    }

    mutating func input() -> String {
      "let n = \(body.pick(["0", "5", "Int.max"]))\nlet o: Int? = \(body.pick(["nil", "3"]))\nvar x = 1\nvar s = \"ab\"\nvar a = [1, 2, 3]\ntry database.write { db in\n\(block(0))\n}"
    }
  }

  func testRandomAppCodeNeverTrapsOrHangs() throws {
    let seed = ProcessInfo.processInfo.environment["QUARRY_APP_FUZZ_SEED"].flatMap(UInt64.init) ?? 7
    var generator = Generator(body: SwiftBodyFuzzTests.Generator(random: FuzzTests.SeededGenerator(state: seed)))
    let count = ProcessInfo.processInfo.environment["QUARRY_APP_FUZZ_COUNT"].flatMap(Int.init) ?? 300
    let session = try Session.fixture("reminders")
    var slowest = (seconds: 0.0, input: "")
    let sink = QuietSink()
    for _ in 0..<count {
      let input = generator.input()
      if let trace = ProcessInfo.processInfo.environment["QUARRY_BODY_FUZZ_TRACE"] {
        try? input.write(toFile: trace, atomically: false, encoding: .utf8)
      }
      let start = Date()
      session.run(input, sink: sink)
      let elapsed = Date().timeIntervalSince(start)
      if elapsed > slowest.seconds { slowest = (elapsed, input) }
    }
    print("random app code: \(count) inputs, \(sink.errors) located errors; slowest \(String(format: "%.3f", slowest.seconds)) s")
    XCTAssertLessThan(slowest.seconds, 4, "slowest input:\n\(slowest.input)")
  }
}
