import QueryBuilder
import XCTest

@testable import Workbench

/// The text helpers that stand in for Foundation's ICU-backed ones (the release binary carries no
/// ICU). Expected values are what `swiftc` with Foundation gives on this machine
/// (`trimmingCharacters(in:)`, `String(format:)`, `NSString` path methods, `NSRegularExpression`).
final class TextSupportTests: XCTestCase {
  private func hex(_ text: String) -> [String] { text.unicodeScalars.map { String($0.value, radix: 16) } }

  func testTrimmingMatchesFoundationsCharacterSets() {
    let cases: [(String, ScalarSet, [String])] = [
      (" \t hi \n", .whitespaces, ["68", "69", "20", "a"]),
      (" \t hi \n", .whitespacesAndNewlines, ["68", "69"]),
      (" \t hi \n", .newlines, ["20", "9", "20", "68", "69", "20"]),
      ("\u{A0}x\u{2028}", .whitespaces, ["78", "2028"]),
      ("\u{A0}x\u{2028}", .whitespacesAndNewlines, ["78"]),
      ("\u{A0}x\u{2028}", .newlines, ["a0", "78"]),
      ("\u{85}y\u{3000}", .whitespaces, ["85", "79"]),
      ("\u{85}y\u{3000}", .whitespacesAndNewlines, ["79"]),
      ("\r\n z \u{200B}", .whitespaces, ["d", "a", "20", "7a"]),
      ("\r\n z \u{200B}", .whitespacesAndNewlines, ["7a"]),
      ("\r\n z \u{200B}", .newlines, ["20", "7a", "20", "200b"]),
      ("!¿q?…", .punctuationCharacters, ["71"]),
      ("!¿q?…", .whitespaces, ["21", "bf", "71", "3f", "2026"]),
      ("\u{FEFF}w", .whitespacesAndNewlines, ["feff", "77"]),
      ("\u{1680}v\u{180E}", .whitespaces, ["76", "180e"]),
      ("   ", .whitespaces, []),
      ("`order`", ["`"], ["6f", "72", "64", "65", "72"]),
    ]
    for (text, set, expected) in cases {
      XCTAssertEqual(hex(text.trimmingScalars(in: set)), expected, "\(hex(text))")
    }
  }

  func testFormatsNumbersAsPrintfDoes() {
    XCTAssertEqual(cFormat("%.2f|%.3f|%.4f", 1.005, 2.0, -0.00005), "1.00|2.000|-0.0001")
    XCTAssertEqual(cFormat("Run Time: %.4f s", 0.25), "Run Time: 0.2500 s")
    XCTAssertEqual(cFormat("%.1f", 1e300).count, 303)
  }

  func testPathArithmeticMatchesNSString() {
    XCTAssertEqual(PathText.lastComponent("lessons/04-joins.md"), "04-joins.md")
    XCTAssertEqual(PathText.lastComponent("/a/b/"), "b")
    XCTAssertEqual(PathText.lastComponent("plain"), "plain")
    XCTAssertEqual(PathText.parent("/home/ana/.quarry/history"), "/home/ana/.quarry")
    XCTAssertEqual(PathText.parent("/history"), "/")
    XCTAssertEqual(PathText.parent("history"), "")
    XCTAssertEqual(PathText.join("Sources", "App.swift"), "Sources/App.swift")
    XCTAssertEqual(PathText.join("Sources/", "App.swift"), "Sources/App.swift")
  }

  func testPatternsMatchByCodePointWithSimpleWordBoundaries() throws {
    let alias = try XCTUnwrap(TextPattern(#"(?:FROM|JOIN)\s+"([^"]+)"\s+AS\s+"([^"]+)""#, ignoringCase: true))
    let found = alias.matches(in: #"SELECT 1 from "reminders" AS "r" JOIN "tags" as "t""#)
    XCTAssertEqual(found.map { [$0[1].map(String.init), $0[2].map(String.init)] }, [["reminders", "r"], ["tags", "t"]])
    // `\b` between a word and `(`: a simple boundary, as ICU's default.
    XCTAssertTrue(TextPattern(#"\bAS\s+SELECT\b"#, ignoringCase: true)?.contains(in: "create view v as select(1)") == true)
    XCTAssertEqual(TextPattern.escaped(#"a.b*"c""#), #"a\.b\*\"c\""#)
    // A refused start is tried again one code point on: `(?<!\w)(\w+) = \1` without lookbehind.
    let name = try XCTUnwrap(TextPattern(#"(\w+) = \1"#))
    func startsAfterNoWord(_ text: String) -> String? {
      name.firstMatch(in: text) { match in
        !(text[..<match.range.lowerBound].last.map { $0.isLetter || $0.isNumber } ?? false)
      }?[1].map(String.init)
    }
    XCTAssertNil(startsAfterNoWord("ab = b"))  // "b = b" starts after "a"
    XCTAssertEqual(startsAfterNoWord("x.ab = ab"), "ab")
    XCTAssertEqual(startsAfterNoWord("ab = b; c = c"), "c")
    XCTAssertEqual(TextPattern("b")?.replacing(in: "abcb") { _ in "X" }, "aXcX")
  }
}
