import Foundation
import XCTest

/// Quarry's verdict beside the compiler's, each input compiled with `swiftc` against
/// StructuredQueries (the commit is in each line), with the compiler's verdict, its first error
/// (column and message) and its first warning:
/// - `Tests/TypeCheck/verdicts.jsonl`: a model with a column of every common type
///   (`Tests/TypeCheck/models.swift`) — every comparison, membership test, operator and SQL
///   function against literals, Swift values, enum cases and other columns, and the spellings
///   that fix a mismatch;
/// - `Tests/TypeCheck/app-verdicts.jsonl`: StructuredQueries' own test models (the conformance
///   fixture) — queries as its docs write them and the ways people get them wrong: initializer
///   and `Draft` arguments out of order or of the wrong type, update assignments that need
///   `#bind`, closures of the wrong arity, `#sql(…, as:)`, key paths, aggregates, subqueries;
/// - `Tests/TypeCheck/mutant-verdicts.jsonl`: the queries of StructuredQueries' own test suite
///   (the conformance cases that need no declarations of their own), as written and changed by
///   one mistake each (an unavailable `==`, `eq(nil)`, a literal of another type, a leading-dot
///   case, an aggregate on text, `!` of a non-Bool, a join closure that drops a table, a Draft
///   out of order). Inputs the compiler crashed on are left out;
/// - `Tests/TypeCheck/selection-verdicts.jsonl`: a `@Selection` (`Tests/TypeCheck/selections.swift`)
///   built with `Columns(…)`: fields out of order, of another type, optional or not, missing;
/// - `Tests/TypeCheck/salty-verdicts.jsonl`: a SQLiteData app's models (RMoRobert/salty's, written
///   in `Tests/RealCode/schemas/salty.swift`): JSON-stored arrays and structs compared and assigned
///   without `#bind(…, as:)`, Int-backed enum columns set by a leading-dot case, ranges over an
///   optional column, `rawValue` of an enum column;
/// - `Tests/TypeCheck/width-verdicts.jsonl`: columns of `Int64` and `Int32`
///   (`Tests/TypeCheck/widths.swift`), and of `Float`, `UInt8`, `Int16` (`Tests/RealCode/schemas/gauges.swift`) compared, set and added to with integer literals (which the
///   library's `some QueryExpression<Int64>` takes as `Int`) and with `Int64(…)`;
/// - `Tests/TypeCheck/orbit-verdicts.jsonl`: another app's models (skymlr/orbit's, in
///   `Tests/RealCode/schemas/orbit.swift`): optional date columns set by a ternary with `#bind`
///   or `nil` in one branch (`done ? #bind(now) : nil`), `Date?.none`, `.now`, join closures
///   that name one table where two are joined;
/// - `Tests/TypeCheck/helper-verdicts.jsonl`: static helper functions of a model
///   (`Tests/TypeCheck/helpers.swift`) called with their labels and arguments right and wrong; inside,
///   a parameter has its declared type (`_ p: Priority?` compares with an optional column).
///
/// Every input runs through the real binary, by default and with `--strict` (warnings are
/// errors, as `-warnings-as-errors`). Valid code is never refused; the agreement and the share
/// of errors placed at the compiler's column may never drop below `baseline.txt`.
final class TypeCheckVerdictTests: XCTestCase {
  struct Case: Decodable {
    var id: String
    var `class`: String
    var input: String
    var verdict: String
    var line: Int?
    var column: Int?
    var warningLine: Int?
    var warningColumn: Int?
  }

  struct Score {
    var cases = 0, agree = 0, falseAccepts = 0, falseRejects = 0, bothReject = 0, sameColumn = 0
    mutating func add(_ other: Score) {
      cases += other.cases
      agree += other.agree
      falseAccepts += other.falseAccepts
      falseRejects += other.falseRejects
      bothReject += other.bothReject
      sameColumn += other.sameColumn
    }
    var line: String {
      "\(cases) cases, agree \(agree) (\(percent(agree, cases))), false accepts \(falseAccepts), false rejects \(falseRejects), column \(sameColumn)/\(bothReject) (\(percent(sameColumn, bothReject)))"
    }
    func percent(_ a: Int, _ b: Int) -> String { b == 0 ? "-" : String(format: "%.1f%%", 100 * Double(a) / Double(b)) }
  }

  static let root = QuarryProcess.packageRoot.appendingPathComponent("Tests/TypeCheck")

  /// A verdict set with the models and schema it is compiled against.
  struct VerdictSet {
    var file: String
    var models: [URL]
    var schema: URL
  }

  static let sets = [
    VerdictSet(
      file: "verdicts.jsonl", models: [root.appendingPathComponent("models.swift")], schema: root.appendingPathComponent("schema.sql")),
    VerdictSet(
      file: "app-verdicts.jsonl", models: [RealCodeTests.modelsFile(for: "sq")],
      schema: QuarryProcess.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/conformance/fixture/sq_schema.sql")),
    VerdictSet(
      file: "mutant-verdicts.jsonl", models: [RealCodeTests.modelsFile(for: "sq")],
      schema: QuarryProcess.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/conformance/fixture/sq_schema.sql")),
    VerdictSet(
      file: "helper-verdicts.jsonl", models: [RealCodeTests.modelsFile(for: "sq"), root.appendingPathComponent("helpers.swift")],
      schema: QuarryProcess.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/conformance/fixture/sq_schema.sql")),
    VerdictSet(
      file: "width-verdicts.jsonl", models: [root.appendingPathComponent("widths.swift"), RealCodeTests.modelsFile(for: "gauges")],
      schema: root.appendingPathComponent("widths-schema.sql")),
    VerdictSet(
      file: "salty-verdicts.jsonl", models: [RealCodeTests.modelsFile(for: "salty")],
      schema: root.appendingPathComponent("salty-schema.sql")),
    VerdictSet(
      file: "orbit-verdicts.jsonl", models: [RealCodeTests.modelsFile(for: "orbit")],
      schema: root.appendingPathComponent("orbit-schema.sql")),
    VerdictSet(
      file: "selection-verdicts.jsonl", models: [RealCodeTests.modelsFile(for: "sq"), root.appendingPathComponent("selections.swift")],
      schema: QuarryProcess.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/conformance/fixture/sq_schema.sql")),
  ]

  func score(_ set: VerdictSet, strict: Bool) throws -> (byClass: [String: Score], failures: [String]) {
    let text = try String(contentsOf: Self.root.appendingPathComponent(set.file), encoding: .utf8)
    let cases = try text.split(separator: "\n").map { try JSONDecoder().decode(Case.self, from: Data($0.utf8)) }
    XCTAssertGreaterThanOrEqual(cases.count, 16, "the verdict set shrank")
    let database = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-typecheck-\(UUID()).db")
    defer { try? FileManager.default.removeItem(at: database) }
    let schema = try String(contentsOf: set.schema, encoding: .utf8)
    _ = try QuarryProcess.run([database.path, "--format", "json"], stdin: schema)
    var byClass: [String: Score] = [:]
    var failures: [String] = []
    let batch = 400
    for start in stride(from: 0, to: cases.count, by: batch) {
      let slice = cases[start..<min(start + batch, cases.count)]
      var arguments = [database.path] + set.models.flatMap { ["--models", $0.path] } + ["--sql-only", "--format", "json"]
      if strict { arguments.append("--strict") }
      for item in slice { arguments += ["-e", item.input] }
      let result = try QuarryProcess.run(arguments)
      let objects = result.stdout.split(separator: "\n").compactMap {
        try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
      }.filter { $0["input"] != nil }
      XCTAssertEqual(objects.count, slice.count, "one JSON object per input: \(result.stderr.prefix(300))")
      guard objects.count == slice.count else { continue }
      for (item, object) in zip(slice, objects) {
        let error = object["error"] as? [String: Any]
        let warned = !((object["warnings"] as? [Any]) ?? []).isEmpty
        // With --strict a warning is an error; Quarry's own output then has the error.
        let expectedReject = item.verdict == "reject" || (strict && item.warningColumn != nil)
        let expectedColumn = item.verdict == "reject" ? item.column : item.warningColumn
        let expectedLine = (item.verdict == "reject" ? item.line : item.warningLine) ?? 1
        var score = Score()
        score.cases = 1
        let rejected = error != nil
        if rejected == expectedReject { score.agree = 1 } else if rejected { score.falseRejects = 1 } else { score.falseAccepts = 1 }
        if rejected && expectedReject {
          score.bothReject = 1
          if (error?["column"] as? Int) == expectedColumn, (error?["line"] as? Int) == expectedLine { score.sameColumn = 1 }
        }
        if rejected != expectedReject {
          failures.append(
            "\(item.id) \(rejected ? "refused" : "accepted") \(item.input) \(error?["message"] ?? (warned ? "(warned)" : ""))")
        }
        byClass[item.class, default: Score()].add(score)
      }
    }
    return (byClass, failures)
  }

  func testQuarryAgreesWithTheCompilerOnEveryVerdict() throws {
    let baseline = try String(contentsOf: Self.root.appendingPathComponent("baseline.txt"), encoding: .utf8)
    var floor: [String: Double] = [:]
    for line in baseline.split(separator: "\n") where !line.hasPrefix("#") {
      let parts = line.split(separator: " ")
      if parts.count == 2, let value = Double(parts[1]) { floor[String(parts[0])] = value }
    }
    for set in Self.sets {
      for strict in [false, true] {
        let (byClass, failures) = try score(set, strict: strict)
        var total = Score()
        for (name, score) in byClass.sorted(by: { $0.key < $1.key }) {
          print("typecheck \(set.file)\(strict ? " --strict" : ""): \(name): \(score.line)")
          total.add(score)
        }
        print("typecheck \(set.file)\(strict ? " --strict" : ""): all: \(total.line)")
        for failure in failures.prefix(40) { print("  " + failure) }
        let key = set.file.replacingOccurrences(of: ".jsonl", with: "") + "." + (strict ? "strict" : "default")
        XCTAssertEqual(total.falseRejects, 0, "valid code refused (\(key)): \(failures.filter { $0.contains(" refused ") }.prefix(5))")
        let agreement = Double(total.agree) / Double(max(1, total.cases))
        let columns = Double(total.sameColumn) / Double(max(1, total.bothReject))
        XCTAssertGreaterThanOrEqual(agreement, floor["\(key).agreement"] ?? 1, "agreement dropped (\(key))")
        XCTAssertGreaterThanOrEqual(columns, floor["\(key).column"] ?? 1, "column agreement dropped (\(key))")
      }
    }
  }
}
