import QuarryDSL
import Workbench
import XCTest

/// The vocabulary is the one declaration of what the DSL accepts: every entry's example
/// compiles and runs, completion offers exactly the declared names, and calls are checked
/// against the declared argument labels.
final class VocabularyTests: SnapshotTestCase {
  /// Every entry of every kind owns its handler, so a call is "look up the entry, check its
  /// labels, run its handler": no dispatch on a method's name beside the table.
  func testEveryEntryOwnsItsHandler() {
    for kind in ReceiverKind.allCases {
      let missing = Vocabulary.entries(for: kind).filter { !$0.ownsItsHandler }.map(\.selector)
      XCTAssertEqual(missing, [], "\(kind) entries without a handler")
    }
  }

  func testEveryDeclaredExampleCompilesAndRuns() throws {
    var failures: [String] = []
    var count = 0
    for kind in ReceiverKind.allCases {
      for entry in Vocabulary.ownEntries(for: kind) {
        count += 1
        var output = try runInShell(entry.example)
        // Functions newer than this machine's SQLite (3.40): the SQL is checked, not the run.
        output = output.replacingOccurrences(
          of: #"error: \d+:\d+: SQLite error 1: no such function: (unhex|octet_length|json_array_insert)"#, with: "",
          options: .regularExpression)
        if output.contains("error:") {
          failures.append("\(kind.rawValue) \(entry.selector): \(entry.example)\n\(output)")
        }
      }
    }
    XCTAssertGreaterThan(count, 120)
    XCTAssertEqual(failures, [], failures.joined(separator: "\n\n"))
  }

  /// Runs a script as `quarry` does (plain SQL lines included); the output and errors.
  func runInShell(_ script: String) throws -> String {
    let captured = OutputStream.capturing()
    let shell = Shell(
      session: try Session.fixture("reminders"), fixtureName: "reminders", format: .box,
      output: captured, terminal: Terminal(width: 200, height: 50))
    shell.errorOutput = captured
    shell.runScript(script)
    return captured.text
  }

  private func given(_ arguments: [(label: String?, isTrailingClosure: Bool)]) -> [(label: String?, isTrailingClosure: Bool)] {
    arguments
  }

  func testSignaturesReadAsSwiftDeclaresThem() {
    let limit = Vocabulary.methods(named: "limit", on: .query)
    XCTAssertEqual(limit.map(\.selector), ["limit(_:)", "limit(_:offset:)"])
    XCTAssertEqual(limit.first?.result, "Select")
    XCTAssertEqual(limit.last?.availability, .deprecated(message: "Use 'limit(_:)' and 'offset(_:)', instead.", since: "0.35.0"))
    XCTAssertEqual(Vocabulary.methods(named: "all", on: .table).first?.parameters == nil, true)
    let insert = Vocabulary.methods(named: "insert", on: .table).map(\.selector)
    XCTAssertTrue(insert.contains("insert(or:_:values:onConflict:where:doUpdate:where:)"), "\(insert)")
    // Swift's matching: defaulted parameters may be left out; a trailing closure fills the next
    // closure parameter; labels stay in order.
    let between = Vocabulary.methods(named: "between", on: .expression)[0]
    XCTAssertTrue(between.accepts(given([(nil, false), ("and", false)])))
    XCTAssertFalse(between.accepts(given([("and", false), (nil, false)])))
    let join = Vocabulary.methods(named: "join", on: .query)[0]
    XCTAssertTrue(join.accepts(given([(nil, false), (nil, true)])))
    XCTAssertTrue(join.accepts(given([(nil, false), ("on", false)])))
    XCTAssertFalse(join.accepts(given([(nil, false)])))
    let count = Vocabulary.methods(named: "count", on: .expression)[0]
    XCTAssertTrue(count.accepts(given([])))
    XCTAssertTrue(count.accepts(given([("distinct", false), ("filter", false)])))
    XCTAssertFalse(count.accepts(given([("filter", false), ("distinct", false)])))
  }

  func testCompletionOffersExactlyTheDeclaredNames() throws {
    let session = try Session.fixture("reminders")
    let completer = Completer(catalog: session.catalog, metaCommands: [])
    let scopes = Set(session.catalog.table(forType: "Reminder")?.scopes.keys.map { $0 } ?? [])
    let afterTable = Set(completer.completions(for: "Reminder.")).subtracting(scopes)
    XCTAssertEqual(afterTable, Set(Vocabulary.names(for: .table) + ["Draft"]))
    let afterQuery = Set(completer.completions(for: "Reminder.where { $0.isFlagged }.")).subtracting(scopes)
    XCTAssertEqual(afterQuery, Set(Vocabulary.names(for: .query) + Vocabulary.names(for: .write) + Vocabulary.names(for: .statement)))
    // After a column, the methods its type takes, read from the entries' `where` clauses.
    let afterText = Set(completer.completions(for: "Reminder.where { $0.title."))
    XCTAssertTrue(afterText.isSuperset(of: ["eq", "like", "lower", "length", "groupConcat", "count", "max"]), "\(afterText.sorted())")
    XCTAssertTrue(afterText.isDisjoint(with: ["avg", "sum", "total", "round", "hex", "not", "and"]), "\(afterText.sorted())")
    let afterNumber = Set(completer.completions(for: "Reminder.where { $0.id."))
    XCTAssertTrue(afterNumber.isSuperset(of: ["eq", "sum", "avg", "abs", "count"]), "\(afterNumber.sorted())")
    XCTAssertTrue(afterNumber.isDisjoint(with: ["like", "lower", "trim", "round", "not"]), "\(afterNumber.sorted())")
    let afterOptionalText = Set(completer.completions(for: "Reminder.join(User.all) { $0.assignedUserID.eq($1.id) }.where { $0.notes."))
    XCTAssertTrue(afterOptionalText.contains("like"), "\(afterOptionalText.sorted())")
    let afterFlag = Set(completer.completions(for: "Reminder.where { $0.isFlagged."))
    XCTAssertTrue(
      afterFlag.isSuperset(of: ["not", "and", "or", "eq"]) && afterFlag.isDisjoint(with: ["sum", "like"]), "\(afterFlag.sorted())")
  }

  func testHelpForAMethodShowsItsSignatureExampleAndSQL() throws {
    let captured = OutputStream.capturing()
    let shell = Shell(
      session: try Session.fixture("reminders"), fixtureName: "reminders", format: .box,
      output: captured, terminal: Terminal(width: 200, height: 50))
    shell.handle(".help between")
    XCTAssertEqual(
      captured.text,
      """
      between(_ lowerBound: Value, and upperBound: Value) -> Bool
        on an expression: Within a range, both ends included (BETWEEN)
        Reminder.where { $0.id.between(2, and: 4) }
        SELECT "reminders"."id", "reminders"."assignedUserID", "reminders"."dueDate", "reminders"."isCompleted", "reminders"."isFlagged", "reminders"."notes", "reminders"."priority", "reminders"."remindersListID", "reminders"."title", "reminders"."updatedAt" FROM "reminders" WHERE ("reminders"."id" BETWEEN 2 AND 4)

      """)
  }
}
