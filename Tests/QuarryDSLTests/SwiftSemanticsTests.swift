import Foundation
import SwiftParser
import SwiftSyntax
import XCTest

@testable import QuarryDSL

/// Quarry's Swift evaluator held to real Swift: every probe in `SwiftSemantics/expected.json`
/// (precedence, literals and escapes, Int and Double, ranges and loops, `if`/`switch`
/// expressions, optionals, strings and collections, and the example of every built-in) gives
/// the value `swiftc` computed for it (`scripts/swift-semantics.py` wrote them), or, where
/// Swift traps, an error saying the app would crash there.
final class SwiftSemanticsTests: XCTestCase {
  struct Probe: Decodable {
    var swift: String
    var kind: String
    var expected: String?
    var crash: Bool?
  }

  static let probes: [Probe] = {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("SwiftSemantics/expected.json")
    guard let data = try? Data(contentsOf: url), let probes = try? JSONDecoder().decode([Probe].self, from: data) else { return [] }
    return probes
  }()

  /// Evaluates a probe: an expression, `func …` declarations then ` ;; ` and an expression,
  /// or a `{ … }` body.
  static func evaluate(_ text: String) -> Result<SwiftValue, SwiftEvaluationError> {
    let parts = text.components(separatedBy: " ;; ")
    let code = parts.joined(separator: "\n")
    let tree = Parser.parse(source: code)
    let source = SourceUnit(text: code, tree: tree)
    let evaluator = SwiftEvaluator(source: source, enums: [:])
    for item in tree.statements {
      if case .decl(let decl) = item.item, let function = decl.as(FunctionDeclSyntax.self) {
        evaluator.functions[function.name.text] = SwiftEvaluator.DeclaredFunction(declaration: function, source: source)
      }
    }
    guard let last = tree.statements.last else { return .failure(SwiftEvaluationError(text: "empty", line: 1, column: 1)) }
    do {
      if text.hasPrefix("{"), case .expr(let expr) = last.item, let closure = expr.as(ClosureExprSyntax.self) {
        return .success(try evaluator.run(closure.statements, arguments: [], returnType: nil))
      }
      let expr: ExprSyntax
      switch last.item {
      case .expr(let value): expr = value
      case .stmt(let stmt):
        guard let value = stmt.as(ExpressionStmtSyntax.self)?.expression else {
          throw SwiftEvaluationError(text: "not an expression", line: 1, column: 1)
        }
        expr = value
      case .decl: throw SwiftEvaluationError(text: "not an expression", line: 1, column: 1)
      }
      return .success(try evaluator.value(of: expr, names: [:]))
    } catch let error as SwiftEvaluationError {
      return .failure(error)
    } catch {
      return .failure(SwiftEvaluationError(text: "\(error)", line: 1, column: 1))
    }
  }

  func testEveryProbeGivesTheValueSwiftComputes() throws {
    XCTAssertGreaterThan(Self.probes.count, 200, "expected.json is missing")
    var wrong: [String] = []
    for probe in Self.probes {
      let result = Self.evaluate(probe.swift)
      if probe.crash == true {
        switch result {
        case .success(let value): wrong.append("\(probe.swift)\n  Swift traps; Quarry gave \((try? value.debugDescribe()) ?? "?")")
        case .failure(let error) where !error.text.contains("the app would crash here"):
          wrong.append("\(probe.swift)\n  Swift traps; Quarry: \(error.message)")
        case .failure: break
        }
        continue
      }
      switch result {
      case .success(let value):
        let shown = (try? value.debugDescribe()) ?? "(cannot describe)"
        if shown != probe.expected { wrong.append("\(probe.swift)\n  Swift: \(probe.expected ?? "")\n  Quarry: \(shown)") }
      case .failure(let error):
        wrong.append("\(probe.swift)\n  Swift: \(probe.expected ?? "")\n  Quarry refused: \(error.message)")
      }
    }
    XCTAssert(wrong.isEmpty, "\(wrong.count) of \(Self.probes.count) probes differ from Swift:\n" + wrong.joined(separator: "\n"))
  }

  /// Foundation on Linux finds "\0\0" in "ab\0" and traps replacing "\0\0" in "\0"; Apple's
  /// Foundation, which apps run on, does neither. The evaluator searches as the standard
  /// library does; the expected values here are the standard library's own.
  func testSearchesWithNULAreTheStandardLibrarys() throws {
    let cases: [(String, String)] = [
      (#""ab\0".contains("\0\0")"#, String(reflecting: "ab\0".firstRange(of: "\0\0") != nil)),
      (#""ab\0\0".contains("\0\0")"#, String(reflecting: "ab\0\0".firstRange(of: "\0\0") != nil)),
      (#""\0".replacingOccurrences(of: "\0\0", with: "x")"#, String(reflecting: "\0".replacing("\0\0", with: "x"))),
      (#""a\0b\0".replacingOccurrences(of: "\0", with: "-")"#, String(reflecting: "a\0b\0".replacing("\0", with: "-"))),
      (
        #""\0x".components(separatedBy: "\0")"#,
        String(reflecting: "\0x".split(separator: "\0", omittingEmptySubsequences: false).map(String.init))
      ),
    ]
    for (probe, expected) in cases {
      let value = try Self.evaluate(probe).get()
      XCTAssertEqual(try value.debugDescribe(), expected, probe)
    }
  }

  /// The built-in table and the expected values stay in step: each entry's example has Swift's
  /// value in expected.json (run scripts/swift-semantics.py after adding one).
  func testEveryBuiltinHasAnExpectedValue() {
    let examples = Set(Self.probes.filter { $0.kind == "builtin" }.map(\.swift))
    let missing = SwiftBuiltins.all.filter { !examples.contains($0.example) }.map { "\($0.receiver).\($0.selector)" }
    XCTAssertEqual(missing, [], "built-ins with no expected value: run scripts/swift-semantics.py")
    XCTAssertGreaterThanOrEqual(SwiftBuiltins.all.count, 100)
  }
}
