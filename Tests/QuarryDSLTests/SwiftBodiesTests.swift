import Foundation
import QueryBuilder
import XCTest

/// One Swift, one value, for whole bodies of statements: each generated body in
/// `SwiftContexts/bodies.json` (`scripts/swift-bodies.py` wrote them with the values `swiftc`
/// computed) runs as a `@DatabaseFunction` body, as an app's helper function whose value a
/// write binds, and inline in a `database.write` block; each must bind the value Swift
/// computed or refuse. A refusal of valid Swift is counted, never accepted as a wrong value.
final class SwiftBodiesTests: XCTestCase {
  struct Probe: Decodable {
    var type: String
    var body: String
    var bound: String?
    var crash: Bool?
    var early: Bool?
    /// The record whose fields the body returns (`records.json`): inserted whole in `.record`.
    var record: String?
  }

  struct Corpus: Decodable {
    var seed: Int
    var probes: [Probe]
    /// A struct the bodies use (`records.json`: `struct Item {…}`), declared as a table's record.
    var declarations: String?
  }

  enum Context: String, CaseIterable {
    case function, helper, app
    /// Inline in a write block that inserts the record the body's answer describes, read back.
    case record
  }

  static func indented(_ body: String) -> String {
    body.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(separator: "\n")
  }

  /// What `context` makes of `probe`: the value stored, or the refusal (nil where the body
  /// cannot stand there: an early `return` inline in a write block).
  static func run(_ probe: Probe, in context: Context, declarations: String? = nil) -> SwiftContextsTests.Outcome? {
    let record = declarations.map { #"@Table("items") "# + $0 + "\n" } ?? ""
    let model = record + #"@Table("probes") struct Probe { let id: Int; var v: \#(probe.type) }"#
    let insert = "try Probe.insert { Probe.Draft(v: v) }.execute(db)"
    switch context {
    case .function:
      let function = "@DatabaseFunction func probe() -> \(probe.type) {\n\(indented(probe.body))\n}"
      return SwiftContextsTests.outcome([record + function, "Values($probe())"]) { $0.firstValue }
    case .helper:
      let helper = "func probe() -> \(probe.type) {\n\(indented(probe.body))\n}"
      let write = "try database.write { db in\n  let v: \(probe.type) = probe()\n  \(insert)\n}"
      return SwiftContextsTests.outcome([model, helper, write, "Probe.select(\\.v)"]) { $0.firstValue }
    case .app:
      var lines = probe.body.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
      guard probe.early != true, let last = lines.last, last.hasPrefix("return ") else { return nil }
      lines[lines.count - 1] = "let v: \(probe.type) = " + last.dropFirst("return ".count)
      let write = "try database.write { db in\n\(indented(lines.joined(separator: "\n")))\n  \(insert)\n}"
      return SwiftContextsTests.outcome([model, write, "Probe.select(\\.v)"]) { $0.firstValue }
    case .record:
      guard let record = probe.record, probe.early != true else { return nil }
      var lines = probe.body.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
      lines[lines.count - 1] = "try Item.insert { \(record) }.execute(db)"
      let table =
        #"CREATE TABLE "items" ("id" INTEGER PRIMARY KEY, "title" TEXT NOT NULL, "count" INTEGER NOT NULL, "done" INTEGER NOT NULL);"#
      let write = "try database.write { db in\n\(indented(lines.joined(separator: "\n")))\n}"
      let readBack = #"SELECT "id" || '|' || "title" || '|' || "count" || '|' || iif("done", 'true', 'false') FROM "items";"#
      return SwiftContextsTests.outcome([model, write], setUpSQL: [table], readSQL: readBack) { $0.firstValue }
    }
  }

  func testEveryBodyBindsTheValueSwiftComputes() throws {
    try check("bodies.json", generator: "scripts/swift-bodies.py", ceilings: [.function: 0, .helper: 0, .app: 0, .record: 0])
  }

  /// Records of a table as Swift's values: copies, property changes, `toggle()`, whole
  /// reassignments, arrays of records changed through subscripts, `inout` records.
  func testEveryRecordBodyBindsTheValueSwiftComputes() throws {
    // Refused: a `reduce` of an empty `[Item]` whose result type only the closure's body gives
    // (2), and a trailing closure inside an `if` condition, which swiftc reads and swift-syntax
    // does not (3).
    try check(
      "records.json", generator: "scripts/swift-bodies.py --family records", ceilings: [.function: 5, .helper: 5, .app: 0, .record: 0])
  }

  /// `QUARRY_SWIFT_BODIES=/tmp/b.json`, `QUARRY_SWIFT_RECORDS=/tmp/r.json`: a fresh seed in place
  /// of the committed corpus.
  private func check(_ file: String, generator: String, ceilings: [Context: Int]) throws {
    let variable = file == "records.json" ? "QUARRY_SWIFT_RECORDS" : "QUARRY_SWIFT_BODIES"
    let url =
      ProcessInfo.processInfo.environment[variable].map { URL(fileURLWithPath: $0) }
      ?? SwiftContextsTests.directory.appendingPathComponent(file)
    let data = try XCTUnwrap(try? Data(contentsOf: url), "SwiftContexts/\(file) is missing: run \(generator)")
    let corpus = try JSONDecoder().decode(Corpus.self, from: data)
    XCTAssertGreaterThan(corpus.probes.count, 500)
    var right: [Context: Int] = [:]
    var refused: [Context: Int] = [:]
    var trapsRefused: [Context: Int] = [:]
    var wrong: [String] = []
    for probe in corpus.probes {
      for context in Context.allCases {
        guard let outcome = Self.run(probe, in: context, declarations: corpus.declarations) else { continue }
        switch outcome {
        case .value(let got) where probe.crash == true:
          wrong.append("\(context.rawValue): Swift traps; Quarry bound \(got)\n\(probe.body)")
        case .value(let got) where got == probe.bound:
          right[context, default: 0] += 1
        case .value(let got):
          wrong.append("\(context.rawValue): Swift \(probe.bound ?? "?"), Quarry \(got)\n\(probe.body)")
        case .refused where probe.crash == true:
          trapsRefused[context, default: 0] += 1
        case .refused(let why):
          refused[context, default: 0] += 1
          if ProcessInfo.processInfo.environment["QUARRY_SWIFT_BODIES_REFUSALS"] == "1" {
            print("refused \(context.rawValue)\t\(why)\n\(probe.body)\n---")
          }
        }
      }
    }
    print(
      "Swift bodies in \(file), \(corpus.probes.count) probes (seed \(corpus.seed)): "
        + Context.allCases.map {
          "\($0.rawValue) \(right[$0] ?? 0) right, \(refused[$0] ?? 0) refused, \(trapsRefused[$0] ?? 0) traps refused"
        }.joined(separator: "; "))
    XCTAssert(wrong.isEmpty, "\(wrong.count) silent wrong values:\n" + wrong.prefix(20).joined(separator: "\n---\n"))
    // Valid Swift refused: a ratchet on the figures measured.
    for context in Context.allCases {
      XCTAssertLessThanOrEqual(refused[context] ?? 0, ceilings[context] ?? 0, "\(context.rawValue): more valid Swift refused than before")
    }
  }
}
