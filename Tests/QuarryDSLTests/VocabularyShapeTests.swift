import XCTest

@testable import QuarryDSL

/// A vocabulary entry reads its name at once and the rest of its declaration on first use:
/// the quick read must find the name the whole parse finds, for every declaration.
final class VocabularyShapeTests: XCTestCase {
  func testEveryEntryNameIsTheNameTheWholeParseFinds() {
    var declarations = ReceiverKind.allCases.flatMap { Vocabulary.entries(for: $0).map(\.declaration) }
    declarations += SwiftBuiltins.all.map(\.signature.declaration)
    XCTAssertGreaterThan(declarations.count, 300)
    for declaration in declarations {
      XCTAssertEqual(MethodSignature.name(of: declaration), MethodSignature.parsedName(of: declaration), declaration)
    }
  }

  func testTheShapeIsReadOnFirstUseAsDeclared() {
    let entry = MethodSignature(
      "limit(_ maxLength: Int, offset: Int? = nil) -> Select where QueryValue: Numeric",
      "", example: "")
    XCTAssertEqual(entry.name, "limit")
    XCTAssertEqual(entry.selector, "limit(_:offset:)")
    XCTAssertEqual(entry.parameters?.map(\.hasDefault), [false, true])
    XCTAssertEqual(entry.result, "Select")
    XCTAssertEqual(entry.requirement?.description, "QueryValue: Numeric")
    let property = MethodSignature("all -> Select", "", example: "")
    XCTAssertEqual(property.name, "all")
    XCTAssertNil(property.parameters)
    XCTAssertEqual(property.result, "Select")
  }
}
