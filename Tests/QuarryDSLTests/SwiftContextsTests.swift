import Foundation
import QuarryDSL
import QuarryEngine
import QueryBuilder
import Workbench
import XCTest

/// One Swift, one value, wherever it is written: each generated expression in
/// `SwiftContexts/generated.json` (`scripts/swift-contexts.py` wrote them with the values
/// `swiftc` computed) runs as a prompt constant used in a query, as a query closure's argument,
/// as a model's default, as a `@DatabaseFunction`'s body and in app code, and each context must
/// bind the value Swift computed — or, where Swift traps, refuse. A refusal of valid Swift is
/// counted (a false reject), never accepted as a wrong value.
final class SwiftContextsTests: XCTestCase {
  struct Probe: Decodable {
    var type: String
    var swift: String
    var bound: String?
    var reflecting: String?
    var crash: Bool?
  }

  struct Corpus: Decodable {
    var seed: Int
    var generated: Int
    var probes: [Probe]
  }

  static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("SwiftContexts")

  /// The committed corpus, or another one `scripts/swift-contexts.py --out` wrote
  /// (`QUARRY_SWIFT_CONTEXTS=/tmp/other.json`: a fresh seed, to try the contexts on expressions
  /// nobody tuned them on; the refusal ceilings then do not apply).
  static let corpusPath = ProcessInfo.processInfo.environment["QUARRY_SWIFT_CONTEXTS"]
  static let corpus: Corpus? = load(corpusPath.map(URL.init(fileURLWithPath:)) ?? directory.appendingPathComponent("generated.json"))

  static func load(_ url: URL) -> Corpus? {
    guard let data = try? Data(contentsOf: url) else { return nil }
    return try? JSONDecoder().decode(Corpus.self, from: data)
  }

  /// The contexts a Swift expression of type `T` can stand in.
  enum Context: String, CaseIterable {
    case prompt, query
    case modelDefault = "default"
    case function, app
    /// Held by a record (`Probe.Draft(v: …)`) and read back through its field.
    case record
    /// That field interpolated into a string: what `"\(r.v)"` prints.
    case printed
  }

  /// What a context made of a probe: the value SQLite received, or the error Quarry gave.
  enum Outcome: Equatable {
    case value(String)
    case refused(String)
  }

  /// Collects what one input did: the bindings of its statements, the first row's first value,
  /// and any error.
  final class ProbeSink: ResultSink {
    var bindings: [[QueryBinding]] = []
    var firstValue: QueryBinding?
    var errors: [String] = []
    func begin(input: String, sql: String, bindings: [QueryBinding], columns: [String], types: [SwiftType?]) {
      self.bindings.append(bindings)
    }
    func row(_ statement: PreparedStatement) {
      if firstValue == nil, statement.columnCount > 0 { firstValue = statement.value(at: 0) }
    }
    func end(error: StatementError?) { if let error { errors.append("\(error.line):\(error.column): \(error.message)") } }
    func failure(input: String, error: StatementError) { errors.append("\(error.line):\(error.column): \(error.message)") }
  }

  static func canonical(_ value: QueryBinding) -> String {
    switch value {
    case .null: return "null"
    case .integer(let number): return "integer:\(number)"
    case .double(let number): return number.isNaN ? "null" : "double:\(number)"
    case .text(let text): return "text:" + text.utf8.map { String(format: "%02x", $0) }.joined()
    case .blob(let bytes): return "blob:" + bytes.map { String(format: "%02x", $0) }.joined()
    case .parameter(let name): return "parameter:\(name)"
    }
  }

  /// Runs `inputs` in a fresh session with an empty `probes` table; the outcome of the last.
  /// `setUpSQL` runs first and `readSQL` (plain SQL, read by `read`) after the inputs.
  static func outcome(_ inputs: [String], setUpSQL: [String] = [], readSQL: String? = nil, read: (ProbeSink) -> QueryBinding?) -> Outcome {
    guard let database = try? Database(path: ":memory:"), let session = try? Session(database: database) else {
      return .refused("no session")
    }
    let setUp = ProbeSink()
    session.runSQL(#"CREATE TABLE "probes" ("id" INTEGER PRIMARY KEY, "v")"#, sink: setUp)
    for sql in setUpSQL { session.runSQL(sql, sink: setUp) }
    let sink = ProbeSink()
    for input in inputs {
      session.run(input, sink: sink)
      if let error = sink.errors.first { return .refused(error) }
    }
    if let readSQL {
      session.runSQL(readSQL, sink: sink)
      if let error = sink.errors.first { return .refused(error) }
    }
    guard let value = read(sink) else { return .refused("no value") }
    return .value(canonical(value))
  }

  static func run(_ probe: Probe, in context: Context) -> Outcome {
    let type = probe.type
    let swift = probe.swift
    let optional = type.hasSuffix("?")
    let model = #"@Table("probes") struct Probe { let id: Int; var v: \#(type) }"#
    let readBack = "Probe.select(\\.v)"
    switch context {
    case .prompt:
      return outcome(["let v: \(type) = \(swift)", "Values(v)"]) { $0.firstValue }
    case .query:
      // The value the closure gives the column, as SQLite stores it (a negation StructuredQueries
      // renders in SQL is computed there).
      return outcome([
        model, "Probe.insert { Probe.Draft(v: \(optional ? "nil" : defaultValue(type))) }", "Probe.update { $0.v = \(swift) }", readBack,
      ]) {
        $0.firstValue
      }
    case .modelDefault:
      let declaration = #"@Table("probes") struct Probe { let id: Int; var v: \#(type) = \#(swift) }"#
      return outcome([declaration, "Probe.insert { Probe.Draft() }", readBack]) { $0.firstValue }
    case .function:
      return outcome(["@DatabaseFunction func probe() -> \(type) {\n  return \(swift)\n}", "Values($probe())"]) { $0.firstValue }
    case .app:
      let code = """
        try database.write { db in
          let v: \(type) = \(swift)
          try Probe.insert { Probe.Draft(v: v) }.execute(db)
        }
        """
      return outcome([model, code, readBack]) { $0.firstValue }
    case .record:
      return outcome([model, "let r = Probe.Draft(v: \(swift))", "Values(r.v)"]) { $0.firstValue }
    case .printed:
      return outcome([model, "let r = Probe.Draft(v: \(swift))", #"Values("\(r.v)")"#]) { $0.firstValue }
    }
  }

  /// What `context` must give for `probe`: the bound value, or for `.printed` the text Swift
  /// prints for it (a string itself, anything else as `String(reflecting:)` shows it, which for
  /// these types is what interpolation prints). Nil when it cannot be told (a NaN's sign).
  static func expected(_ probe: Probe, in context: Context) -> String? {
    guard context == .printed else { return probe.bound }
    if probe.type == "String" { return probe.bound }
    guard let printed = probe.reflecting, !printed.contains("nan") else { return nil }
    return "text:" + printed.utf8.map { String(format: "%02x", $0) }.joined()
  }

  static func defaultValue(_ type: String) -> String {
    switch type {
    case "Int": "0"
    case "Double": "0.0"
    case "String": #""""#
    default: "false"
    }
  }

  struct Tally {
    var right = 0, refused = 0, wrong: [String] = [], trapsRefused = 0
  }

  func testEveryContextBindsTheValueSwiftComputes() throws {
    let corpus = try XCTUnwrap(Self.corpus, "SwiftContexts/generated.json is missing: run scripts/swift-contexts.py")
    // (The query context's sixth, `$0.v = (true) ? .pi : nil`, StructuredQueries refuses too:
    // `.pi` has no type to be found in there.)
    let ceilings: [Context: Int] = [.prompt: 5, .query: 6, .modelDefault: 5, .function: 5, .app: 5, .record: 5, .printed: 5]
    check(corpus, ceilings: Self.corpusPath == nil ? ceilings : nil)
  }

  /// The second family (`--family app`): the calls app code makes on standard values —
  /// `String(format:)`, `padding`, `Int(exactly:)`, index searches, `map(String.init)`.
  func testAppStyleCallsBindTheValueSwiftComputes() throws {
    let corpus = try XCTUnwrap(
      Self.load(Self.directory.appendingPathComponent("app-style.json")),
      "SwiftContexts/app-style.json is missing: run scripts/swift-contexts.py --family app --seed 7 --count 1200")
    // The refusals: `String(format: "%.0f", 10)` (an Int where printf reads a Double, which Swift
    // does not convert: Quarry will not guess what printf reads there).
    let ceilings: [Context: Int] = Dictionary(uniqueKeysWithValues: Context.allCases.map { ($0, 2) })
    check(corpus, ceilings: ceilings)
  }

  /// The third family (`--family apis`): standard APIs the others barely touch (Character
  /// properties, `reduce(into:)`, Set algebra, `max(by:)`, fixed-width integers and their
  /// wrapping operators, Float). None may be wrong.
  func testLessCommonStandardAPIsBindTheValueSwiftComputes() throws {
    let corpus = try XCTUnwrap(
      Self.load(Self.directory.appendingPathComponent("standard-apis.json")),
      "SwiftContexts/standard-apis.json is missing: run scripts/swift-contexts.py --family apis --seed 501 --count 1200")
    check(corpus, ceilings: Self.apiCeilings)
  }

  /// The fourth family (`--family widths`): Int8 … UInt32 reached through array elements,
  /// closure parameters, optionals, tuples, dictionaries and `utf8` bytes, then wrapped, shifted,
  /// compared and printed: the value keeps its width wherever it flows. The refusals (a ratchet,
  /// 9 in every context): a `??` whose overload swiftc picks by what surrounds it, where its two
  /// picks give different values.
  func testFixedWidthIntegersKeepTheirWidthWhereverTheyFlow() throws {
    let corpus = try XCTUnwrap(
      Self.load(Self.directory.appendingPathComponent("fixed-widths.json")),
      "SwiftContexts/fixed-widths.json is missing: run scripts/swift-contexts.py --family widths --seed 61 --count 1200")
    check(corpus, ceilings: Dictionary(uniqueKeysWithValues: Context.allCases.map { ($0, 9) }))
  }

  /// The refusals measured on `standard-apis.json` (a ratchet: more is a regression): none in
  /// any context, since a Unicode scalar's `.value` and the element type an empty sequence's
  /// steps state (`"ab".compactMap { Int(String($0)) }.reduce(0, +)`) are Swift's (30 before).
  static let apiCeilings: [Context: Int] = Dictionary(uniqueKeysWithValues: Context.allCases.map { ($0, 0) })

  /// Runs every probe of `corpus` in every context: no silent wrong value anywhere, and no
  /// more refusals of valid Swift than `ceilings` (a ratchet on the figures measured).
  func check(_ corpus: Corpus, ceilings: [Context: Int]?) {
    XCTAssertGreaterThan(corpus.probes.count, 1000)
    var tallies: [Context: Tally] = [:]
    var newWrong: [String] = []
    for probe in corpus.probes {
      for context in Context.allCases {
        let result = Self.run(probe, in: context)
        var tally = tallies[context] ?? Tally()
        defer { tallies[context] = tally }
        let key = "\(context.rawValue)\t\(probe.type)\t\(probe.swift)"
        if probe.crash == true {
          switch result {
          case .value(let got):
            tally.wrong.append(key)
            newWrong.append("\(key)\n    Swift traps; Quarry bound \(got)")
          case .refused: tally.trapsRefused += 1
          }
          continue
        }
        guard let expected = Self.expected(probe, in: context) else { continue }
        switch result {
        case .value(let got) where got == expected: tally.right += 1
        case .value(let got):
          tally.wrong.append(key)
          newWrong.append("\(key)\n    Swift: \(expected) (\(probe.reflecting ?? ""))\n    Quarry: \(got)")
        case .refused(let why):
          tally.refused += 1
          if ProcessInfo.processInfo.environment["QUARRY_SWIFT_CONTEXTS_REFUSALS"] == "1" { print("refused \(key)\n    \(why)") }
        }
      }
    }
    var table = "context   right  refused  wrong  traps refused (of \(corpus.probes.filter { $0.crash == true }.count))\n"
    for context in Context.allCases {
      let tally = tallies[context] ?? Tally()
      table +=
        context.rawValue.padding(toLength: 10, withPad: " ", startingAt: 0)
        + String(tally.right).padding(toLength: 7, withPad: " ", startingAt: 0)
        + String(tally.refused).padding(toLength: 9, withPad: " ", startingAt: 0)
        + String(tally.wrong.count).padding(toLength: 7, withPad: " ", startingAt: 0)
        + String(tally.trapsRefused) + "\n"
    }
    print("Swift contexts, \(corpus.probes.count) probes (seed \(corpus.seed)):\n" + table)
    XCTAssert(newWrong.isEmpty, "\(newWrong.count) silent wrong values:\n" + newWrong.prefix(60).joined(separator: "\n"))
    // Valid Swift refused (false rejects): may only go down (a ratchet on the figures measured
    // when each context moved to the one evaluator).
    guard let ceilings else { return }
    for context in Context.allCases {
      XCTAssertLessThanOrEqual(
        tallies[context]?.refused ?? 0, ceilings[context] ?? 0, "\(context.rawValue): more valid Swift refused than before")
    }
  }
}
