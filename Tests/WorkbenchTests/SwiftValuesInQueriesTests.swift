import InlineSnapshotTesting
import Workbench
import XCTest

/// Swift values inside a query are computed in Swift, as the app computes them, and bound:
/// never turned into SQL arithmetic on the values.
final class SwiftValuesInQueriesTests: SnapshotTestCase {
  func testDateArithmeticInsideSQLIsSwifts() throws {
    assertInlineSnapshot(
      of: try run(
        #"""
        let someDate = Date(timeIntervalSince1970: 1772928000)
        Reminder.where { #sql("\($0.dueDate) < \(someDate - 604800)") }.select(\.title).order(by: \.title).limit(2)
        """#), as: .lines
    ) {
      """
      SELECT "reminders"."title"
      FROM "reminders"
      WHERE ("reminders"."dueDate" < '2026-03-01 00:00:00.000')
      ORDER BY "reminders"."title"
      LIMIT 2
      ┌─────────────────────┐
      │ title               │
      ├─────────────────────┤
      │ Fix the leaking tap │
      │ Mow the lawn        │
      └─────────────────────┘
      """
    }
  }

  /// An app's own helpers on Swift's types (`someDate - .days(7)`, `date.dayBefore`) run as the
  /// app runs them: in Swift, in the input that declared them, and the result is bound (`-` of a
  /// Double is Swift's own: -43200.0).
  func testTheAppsOwnExtensionsOfStandardTypesAreSwift() throws {
    // Declared in an earlier input, as at the prompt.
    let helpers = #"""
      extension TimeInterval {
        static func days(_ n: Double) -> Self { n * 86_400 }
        static let week: TimeInterval = .days(7)
      }
      extension Date {
        var dayBefore: Date { addingTimeInterval(-.days(1)) }
        func adding(days: Int) -> Date { self + .days(Double(days)) }
      }
      """#
    assertInlineSnapshot(
      of: try run(
        #"""
        let someDate = Date(timeIntervalSince1970: 1772928000)
        Reminder.where { #sql("\($0.dueDate) < \(someDate - .days(7))") }.count()
        Values(someDate.dayBefore, someDate.adding(days: 2), TimeInterval.week, -.days(0.5))
        """#, setup: [helpers]), as: .lines
    ) {
      """
      SELECT count(*)
      FROM "reminders"
      WHERE ("reminders"."dueDate" < '2026-03-01 00:00:00.000')
      ┌──────────┐
      │ count(*) │
      ├──────────┤
      │ 4        │
      └──────────┘
      SELECT '2026-03-07 00:00:00.000', '2026-03-10 00:00:00.000', 604800.0, -43200.0
      ┌───────────────────────────┬───────────────────────────┬──────────┬──────────┐
      │ '2026-03-07 00:00:00.000' │ '2026-03-10 00:00:00.000' │ 604800.0 │ -43200.0 │
      ├───────────────────────────┼───────────────────────────┼──────────┼──────────┤
      │ 2026-03-07 00:00:00.000   │ 2026-03-10 00:00:00.000   │ 604800.0 │ -43200.0 │
      └───────────────────────────┴───────────────────────────┴──────────┴──────────┘
      """
    }
  }

  func testArithmeticOfSwiftValuesIsBoundOnce() throws {
    assertInlineSnapshot(
      of: try run(
        #"""
        let pageSize = 3
        Reminder.where { #sql("\($0.id) <= \(pageSize * 2 - 1)") }.select(\.id).order(by: \.id)
        """#), as: .lines
    ) {
      """
      SELECT "reminders"."id"
      FROM "reminders"
      WHERE ("reminders"."id" <= 5)
      ORDER BY "reminders"."id"
      ┌────┐
      │ id │
      ├────┤
      │ 1  │
      │ 2  │
      │ 3  │
      │ 4  │
      │ 5  │
      └────┘
      """
    }
  }

  func testDateMinusSecondsInAFilter() throws {
    assertInlineSnapshot(
      of: try run(
        #"""
        let cutoff = Date(timeIntervalSince1970: 1772928000)
        Reminder.where { $0.dueDate < Optional(cutoff - 86400 * 10) }.select(\.title).order(by: \.title).limit(2)
        """#), as: .lines
    ) {
      """
      SELECT "reminders"."title"
      FROM "reminders"
      WHERE (("reminders"."dueDate") < ('2026-02-26 00:00:00.000'))
      ORDER BY "reminders"."title"
      LIMIT 2
      ┌─────────────────────┐
      │ title               │
      ├─────────────────────┤
      │ Fix the leaking tap │
      │ Mow the lawn        │
      └─────────────────────┘
      """
    }
  }

  func testSwiftThatWouldTrapIsAnError() throws {
    assertInlineSnapshot(
      of: try run(
        #"""
        let big = 9223372036854775807
        Reminder.where { #sql("\($0.id) < \(big + 1)") }
        """#), as: .lines
    ) {
      #"""
      error: 2:41: this Swift is computed before the query runs, but it overflows Int (9223372036854775807 + 1) (the app would crash here)
      Reminder.where { #sql("\($0.id) < \(big + 1)") }
                                              ^
      """#
    }
  }

  func testADatabaseFunctionBodyUsesTheWholeLanguageSubset() throws {
    assertInlineSnapshot(
      of: try run(
        #"""
        @DatabaseFunction
        func badge(_ title: String, _ priority: Int?) -> String {
          let marks = [1: "!", 2: "!!", 3: "!!!"]
          guard let priority, let mark = marks[priority] else { return title }
          return switch title.count {
          case ..<10: "\(mark) \(title)"
          default: "\(mark) \(title.prefix(9))…"
          }
        }
        Reminder.select { $badge($0.title, $0.priority) }.order(by: \.id).limit(4)
        """#), as: .lines
    ) {
      """
      SELECT "badge"("reminders"."title", "reminders"."priority")
      FROM "reminders"
      ORDER BY "reminders"."id"
      LIMIT 4
      ┌──────────────────────────────────────────────────────┐
      │ "badge"("reminders"."title", "reminders"."priority") │
      ├──────────────────────────────────────────────────────┤
      │ !! Buy groce…                                        │
      │ Fix the leaking tap                                  │
      │ !!! Call the …                                       │
      │ ! Archive o…                                         │
      └──────────────────────────────────────────────────────┘
      """
    }
  }

  /// A body whose result is not the declared type (swiftc refuses it) is an error where it runs,
  /// never a String or a NULL handed to SQLite as an Int.
  func testADatabaseFunctionReturnsItsDeclaredType() throws {
    assertInlineSnapshot(
      of: try run(
        #"""
        @DatabaseFunction func twice(_ s: String) -> Int { s + s }
        Reminder.select { $twice($0.title) }.limit(1)
        @DatabaseFunction func code(_ s: String) -> Int { s.isEmpty ? nil : 1 }
        Reminder.select { $code($0.notes) }.order(by: \.id).limit(2)
        """#), as: .lines
    ) {
      #"""
      SELECT "twice"("reminders"."title")
      FROM "reminders"
      LIMIT 1
      ┌──────────────────────────────┐
      │ "twice"("reminders"."title") │
      ├──────────────────────────────┤
      └──────────────────────────────┘
      error: 2:1: SQLite error 1: twice: 1:52: its result is a String, but the function returns 'Int' (swiftc refuses this body)
      Reminder.select { $twice($0.title) }.limit(1)
      ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
      SELECT "code"("reminders"."notes")
      FROM "reminders"
      ORDER BY "reminders"."id"
      LIMIT 2
      ┌─────────────────────────────┐
      │ "code"("reminders"."notes") │
      ├─────────────────────────────┤
      └─────────────────────────────┘
      error: 4:1: SQLite error 1: code: 3:51: uses an optional Int? where Int is needed; unwrap it with 'if let', '??' or '!'
      Reminder.select { $code($0.notes) }.order(by: \.id).limit(2)
      ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
      """#
    }
  }

  /// `Draft(record)` copies every field, the id too: an edit form's draft upserts its row.
  func testADraftOfARecordUpsertsThatRow() throws {
    assertInlineSnapshot(
      of: try run(
        #"""
        let list = RemindersList(id: 1, color: 0, position: 0, title: "Personal!")
        RemindersList.upsert { RemindersList.Draft(list) }.returning(\.title)
        """#), as: .lines
    ) {
      #"""
      error: 1:56: argument 'title' must precede argument 'position'
      let list = RemindersList(id: 1, color: 0, position: 0, title: "Personal!")
                                                             ^~~~~
      error: 2:44: unknown name 'list'
      RemindersList.upsert { RemindersList.Draft(list) }.returning(\.title)
                                                 ^~~~
      """#
    }
  }

  /// A fixed-width integer keeps its width wherever it flows (an annotated array's elements, a
  /// closure's parameter, a `utf8` byte), so wrapping arithmetic wraps where Swift's does. The
  /// values are swiftc's: `print(bytes[0] &+ bytes[1], doubled[0], …)` printed `44 144 212 [144, 200]`,
  /// and `Int(bytes[1] &- bytes[0]) - 154` is 2. A literal too big for its type is swiftc's error.
  func testFixedWidthIntegersKeepTheirWidth() throws {
    assertInlineSnapshot(
      of: try run(
        #"""
        let bytes: [UInt8] = [200, 100]
        let doubled = bytes.map { $0 &* 2 }
        Values(bytes[0] &+ bytes[1], doubled[0], "hé".utf8.reduce(0) { $0 &+ $1 }, "\(doubled)")
        Reminder.where { $0.id.eq(Int(bytes[1] &- bytes[0]) - 154) }.select(\.title)
        let big: UInt8 = 300
        """#), as: .lines
    ) {
      """
      SELECT 44, 144, 212, '[144, 200]'
      ┌────┬─────┬─────┬──────────────┐
      │ 44 │ 144 │ 212 │ '[144, 200]' │
      ├────┼─────┼─────┼──────────────┤
      │ 44 │ 144 │ 212 │ [144, 200]   │
      └────┴─────┴─────┴──────────────┘
      SELECT "reminders"."title"
      FROM "reminders"
      WHERE (("reminders"."id") = (2))
      ┌─────────────────────┐
      │ title               │
      ├─────────────────────┤
      │ Fix the leaking tap │
      └─────────────────────┘
      error: 5:18: this Swift is computed before the query runs, but it stores 300 in a UInt8, which it overflows (swiftc refuses it: the integer literal overflows when stored into 'UInt8')
      let big: UInt8 = 300
                       ^
      """
    }
  }

  /// `opt ?? 0` in an interpolation after an array literal of Int16s whose `first` is nil: swiftc
  /// picks the `??` that returns `Int16?` ("Optional(-32768)", its own output here), by rules of
  /// its type checker Quarry does not model, so it is refused, wherever the element's type comes
  /// from (an `as` inside parentheses, a computed element).
  func testAnOpenDefaultAfterANarrowArraysFirstIsRefused() throws {
    assertInlineSnapshot(
      of: try run(
        #"""
        let v = "\([(-32767 as Int16), -32768].filter { $0 > -1 }.first ?? -32768)"
        """#), as: .lines
    ) {
      #"""
      error: 1:12: this Swift is computed before the query runs, but it leaves swiftc to choose between '??' returning Int16 and Int16? (a literal default after an array literal's 'first', with no type from the context), and here the two give different values: give the array a type ([Int16]) or write the default as Int16(…)
      let v = "\([(-32767 as Int16), -32768].filter { $0 > -1 }.first ?? -32768)"
                 ^
      """#
    }
  }

  /// The same `??`, where every pick gives one value: `Int(_:)` takes no `UInt16?` (swiftc can
  /// only pick the `??` returning `UInt16`), and a comparison is false either way. swiftc's own
  /// output: 65535, false; the interpolation prints "Optional(60)" where the other pick prints
  /// "60", so it stays refused.
  func testAnOpenDefaultIsComputedWhereEveryPickAgrees() throws {
    assertInlineSnapshot(
      of: try run(
        #"""
        let a = Int([UInt16.max, 0].filter { $0 > 7 }.first ?? 13)
        let b = [UInt8.max, 60].filter { $0 > 0 }.first ?? 1 == 1
        Values(a, b)
        let c = "\([UInt16(1), 7].filter { $0 > 100 }.first ?? 60)"
        """#), as: .lines
    ) {
      #"""
      SELECT 65535, 0
      ┌───────┬───────┐
      │ 65535 │ 0     │
      ├───────┼───────┤
      │ 65535 │ false │
      └───────┴───────┘
      error: 4:12: this Swift is computed before the query runs, but it leaves swiftc to choose between '??' returning UInt16 and UInt16? (a literal default after an array literal's 'first', with no type from the context), and here the two give different values: give the array a type ([UInt16]) or write the default as UInt16(…)
      let c = "\([UInt16(1), 7].filter { $0 > 100 }.first ?? 60)"
                 ^
      """#
    }
  }

  /// No `String(_:)` takes an optional (swiftc: "no exact matches in call to initializer"), so
  /// `String(o)` of an `Int16?` is refused, and the `??` inside a `String(…)` is the pick that
  /// returns the wrapped type: swiftc prints 3.
  func testStringOfAnOptionalIsNotSwift() throws {
    assertInlineSnapshot(
      of: try run(
        #"""
        let d = String([[Int16(32766), -1].filter { $0 > 32767 }.first ?? 3, 60].first!)
        Values(d)
        let o: Int16? = 3
        let e = String(o)
        """#), as: .lines
    ) {
      """
      SELECT '3'
      ┌─────┐
      │ '3' │
      ├─────┤
      │ 3   │
      └─────┘
      error: 4:9: this Swift is computed before the query runs, but it cannot convert Int16? to String: unwrap it, or use String(describing:)
      let e = String(o)
              ^
      """
    }
  }
}
