import Foundation
import QuarryDSL
import QuarryEngine
import QueryBuilder
import Workbench
import XCTest

/// `quarry lessons --check N.K ANSWER` as graders and scripts use it: every exercise accepts its
/// answer written in plain SQL (but those that teach the Swift side refuse it, naming what is
/// missing), and the exit status says accepted (0), not accepted (1), or a
/// bad position (2).
final class LessonCheckTests: XCTestCase {
  static let lessonsDirectory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("lessons").path

  /// The SQL a solution runs, values written as literals: what a learner who knows SQL would type.
  /// Plain SQL parts of a solution stay as written; each DSL part becomes the SQL it runs, and a
  /// part that runs none (a declaration: a `@Table`, a `@DatabaseFunction`) stays as written —
  /// a learner answering in SQL declares those in Swift all the same.
  func sqlEquivalent(of exercise: Exercise, fixture: String) throws -> String {
    let solution = exercise.solution.trimmingCharacters(in: .whitespacesAndNewlines)
    let parts = ScriptSplitter.inputs(of: solution, isMetaCommand: { _ in false }).map(\.text)
    var segments: [String] = []
    let session = try Session.fixture(fixture)
    session.sqlOnly = true
    for part in parts {
      if SQLDetector.startsWithSQLKeyword(part) {
        segments.append(part.hasSuffix(";") ? part : part + ";")
        continue
      }
      let recorder = StatementRecorder()
      session.run(part, sink: recorder)
      XCTAssertNil(recorder.error, exercise.title)
      segments += recorder.statements.isEmpty ? [part] : recorder.statements.map { $0 + ";" }
    }
    return segments.joined(separator: "\n")
  }

  func testEveryExerciseAcceptsItsAnswerInPlainSQL() throws {
    let paths = Lesson.all(in: Self.lessonsDirectory)
    var checked = 0
    var skipped = 0
    for (lessonIndex, path) in paths.enumerated() {
      let lesson = try Lesson.load(path: path)
      for (exerciseIndex, exercise) in lesson.exercises.enumerated() {
        let sql = try sqlEquivalent(of: exercise, fixture: lesson.fixture)
        let position = "\(lessonIndex + 1).\(exerciseIndex + 1)"
        let result = try QuarryProcess.run(["lessons", "--check", position, sql])
        if exercise.teachesSwiftSide {
          // The same rows without the scope, @Selection or bound value the exercise teaches.
          XCTAssertEqual(result.status, 1, "\(position) \(exercise.title):\n\(sql)\n\(result.stdout)\(result.stderr)")
          XCTAssertTrue(result.stdout.contains(": right result, but this exercise is about "), result.stdout)
          skipped += 1
          continue
        }
        XCTAssertEqual(result.status, 0, "\(position) \(exercise.title):\n\(sql)\n\(result.stdout)\(result.stderr)")
        XCTAssertTrue(result.stdout.hasPrefix("✓ "), result.stdout)
        checked += 1
      }
    }
    XCTAssertGreaterThanOrEqual(checked, 110)
    XCTAssertEqual(skipped, 8)
  }

  /// A wrong answer the fixture and its variant allow — statuses listed by hand where the task
  /// says "anything else" — fails on a searched dataset (a status no row had), and the message
  /// says where to see that dataset's rows; `--dataset` prints them as SQL.
  func testASearchedDatasetCatchesWhatTheFixtureAllowsAndShowsItsRows() throws {
    let listed = try QuarryProcess.run([
      "lessons", "--check", "10.3",
      "SELECT id, CASE WHEN status = 'delivered' THEN 'done' WHEN status = 'shipped' THEN 'on its way' WHEN status IN ('placed', 'cancelled') THEN 'open' END FROM orders",
    ])
    XCTAssertEqual(listed.status, 1, listed.stdout)
    XCTAssertTrue(
      listed.stdout.contains("expected 'open', got NULL (on rows whose values change as the schema allows, dataset "), listed.stdout)
    guard let hint = listed.stdout.range(of: "its rows: quarry lessons --dataset 10.3 ") else { return XCTFail(listed.stdout) }
    let seed = String(listed.stdout[hint.upperBound...].prefix { $0.isNumber })
    let rows = try QuarryProcess.run(["lessons", "--dataset", "10.3", seed])
    XCTAssertEqual(rows.status, 0, rows.stderr)
    XCTAssertTrue(
      rows.stdout.hasPrefix("-- dataset \(seed) of exercise 'Status labels': load it into the fixture with .read\n"), rows.stdout)
    XCTAssertTrue(rows.stdout.contains("INSERT INTO \"orders\" VALUES ("), rows.stdout)
    // The status no row of the fixture had is there.
    XCTAssertTrue(rows.stdout.contains("'other'"), rows.stdout)
    let missing = try QuarryProcess.run(["lessons", "--dataset", "10.3"])
    XCTAssertEqual(missing.status, 2)
    XCTAssertEqual(missing.stderr, "quarry: error: --dataset 10.3 needs the dataset's number after it (a ✗ message names it: dataset 7)\n")
  }

  func testExitStatusesAndMessages() throws {
    let accepted = try QuarryProcess.run(["lessons", "--check", "1.1", "SELECT title FROM remindersLists"])
    XCTAssertEqual(accepted.status, 0, accepted.stderr)
    XCTAssertTrue(
      accepted.stdout.hasPrefix(
        "✓ 1.1 All list titles: correct on the fixture's rows, the variant rows and generated rows (seeds 1–3); and on rows whose values change as the schema allows (datasets "
      ), accepted.stdout)

    let wrong = try QuarryProcess.run(["lessons", "--check", "1.1", ".raw SELECT title FROM tags"])
    XCTAssertEqual(wrong.status, 1)
    XCTAssertEqual(
      wrong.stdout,
      "✗ 1.1 All list titles: expected 4 rows, got 5; missing the rows ('Garden'), ('Home') and 2 more, and not expected the rows ('errand'), ('outdoors') and 3 more\n"
    )

    let noLesson = try QuarryProcess.run(["lessons", "--check", "99.1", "SELECT 1"])
    XCTAssertEqual(noLesson.status, 2)
    XCTAssertTrue(noLesson.stderr.hasPrefix("quarry: error: no lesson 99; there are "), noLesson.stderr)

    let badPosition = try QuarryProcess.run(["lessons", "--check", "one", "SELECT 1"])
    XCTAssertEqual(badPosition.status, 2)
    XCTAssertEqual(badPosition.stderr, "quarry: error: --check takes LESSON.EXERCISE, like 5.2; got 'one'\n")

    let fromStandardInput = try QuarryProcess.run(["lessons", "--check", "1.1"], stdin: "RemindersList.select(\\.title)\n")
    XCTAssertEqual(fromStandardInput.status, 0, fromStandardInput.stdout + fromStandardInput.stderr)

    // A learner's SQL often opens with a comment; after `--` it is the answer, not an option.
    let commented = try QuarryProcess.run([
      "lessons", "--check", "1.1", "--", "-- every title\n/* all lists */ select title from remindersLists;",
    ])
    XCTAssertEqual(commented.status, 0, commented.stdout + commented.stderr)
  }

  /// An exercise that defines a table checks the table, as SQLite describes it: a bare DELETE
  /// with the same rows does not pass, nor a table without the NOT NULL or the cascade asked for.
  func testDefinitionsAreCheckedFromTheSchema() throws {
    func check(_ answer: String) throws -> QuarryProcess.Result { try QuarryProcess.run(["lessons", "--check", "19.5", answer]) }
    let rest = "\nINSERT INTO notes (reminderID, body) VALUES (1, 'Call first');\nDELETE FROM reminders WHERE id = 1;"
    XCTAssertEqual(
      try check("DELETE FROM reminders WHERE id = 1").stdout,
      "✗ 19.5 A table of your own: this exercise creates the table 'notes', and after your answer there is none\n")
    XCTAssertEqual(
      try check(
        "CREATE TABLE notes (id INTEGER PRIMARY KEY, reminderID INTEGER REFERENCES reminders(id) ON DELETE CASCADE, body TEXT NOT NULL);"
          + rest
      ).stdout,
      "✗ 19.5 A table of your own: the table 'notes' differs: it should have column reminderID of INTEGER affinity NOT NULL, not column reminderID of INTEGER affinity\n"
    )
    // Declared in other words, the same behaviour: INT for INTEGER, NOT NULL on the rowid, a
    // foreign key to the parent's key by the table's name alone.
    XCTAssertEqual(
      try check(
        "CREATE TABLE notes (id INTEGER NOT NULL PRIMARY KEY, reminderID INT NOT NULL REFERENCES reminders ON DELETE CASCADE, body VARCHAR(80) NOT NULL);"
          + rest
      ).status, 0)
    let noCascade = try check(
      "CREATE TABLE notes (id INTEGER PRIMARY KEY, reminderID INTEGER NOT NULL REFERENCES reminders(id), body TEXT NOT NULL);\nINSERT INTO notes (reminderID, body) VALUES (1, 'Call first');"
    )
    XCTAssertEqual(noCascade.status, 1, noCascade.stdout)
    XCTAssertTrue(noCascade.stdout.contains("on delete CASCADE"), noCascade.stdout)
    XCTAssertEqual(
      try check(
        "CREATE TABLE notes (id INTEGER PRIMARY KEY, reminderID INTEGER NOT NULL REFERENCES reminders(id) ON DELETE CASCADE, body TEXT NOT NULL);"
          + rest
      ).status, 0)
  }

  /// A third dataset moves every integer id: an answer that writes an id read off the fixture
  /// (`find(4)`, the same in the fixture and its variant) is refused, and says why.
  func testAnIdReadOffTheFixtureDoesNotPass() throws {
    let hardCoded = try QuarryProcess.run(["lessons", "--check", "19.3", "RemindersList.find(4).delete()"])
    XCTAssertEqual(hardCoded.status, 1, hardCoded.stdout)
    XCTAssertTrue(
      hardCoded.stdout.hasSuffix(
        "(on the variant rows under other ids: it matched them under the fixture's ids, so it depends on an id written in it)\n"),
      hardCoded.stdout)
    let general = try QuarryProcess.run([
      "lessons", "--check", "19.3", "RemindersList.where { $0.position.eq(RemindersList.select { $0.position.max() }) }.delete()",
    ])
    XCTAssertEqual(general.status, 0, general.stdout)
  }

  /// Per-connection state sees the learner's statements only: loading a dataset's rows leaves
  /// `changes()`, `total_changes()` and `last_insert_rowid()` at 0, as at a fresh prompt.
  func testConnectionStateStartsClean() throws {
    let clean = try QuarryProcess.run([
      "lessons", "--check", "1.1",
      "SELECT title FROM remindersLists WHERE changes() = 0 AND total_changes() = 0 AND last_insert_rowid() = 0",
    ])
    XCTAssertEqual(clean.status, 0, clean.stdout)
    let counted = try QuarryProcess.run([
      "lessons", "--check", "1.1",
      "UPDATE remindersLists SET position = position WHERE 0; SELECT title FROM remindersLists WHERE changes() = 0",
    ])
    XCTAssertEqual(counted.status, 0, counted.stdout)
  }

  /// A subquery on the outer query's own table that compares a column with itself (no alias) is
  /// named as the trap it is, in SQL and in the DSL.
  func testASameTableSubqueryWithoutAnAliasIsExplained() throws {
    for answer in [
      "SELECT name FROM products WHERE price > (SELECT avg(price) FROM products WHERE category = category)",
      #"Product.where { p in p.price > Product.where { $0.category.eq(p.category) }.select { $0.price.avg() } }.select(\.name)"#,
    ] {
      let result = try QuarryProcess.run(["lessons", "--check", "6.6", answer])
      XCTAssertEqual(result.status, 1, result.stdout)
      XCTAssertTrue(result.stdout.contains("— inside the subquery, category = category compares its own row with itself"), result.stdout)
    }
  }

  /// `.explain QUERY`, which lesson 23 teaches beside `EXPLAIN QUERY PLAN`, is an answer too, with
  /// a DSL or an SQL query, on a line of its own after other statements.
  func testExplainIsAnAnswerWhereThePlanIsAsked() throws {
    for query in [
      #"SELECT title FROM reminders WHERE dueDate < '2026-03-01'"#,
      #"Reminder.where { $0.dueDate.lt(#sql("'2026-03-01'")) }.select(\.title)"#,
    ] {
      let answer = "CREATE INDEX reminders_dueDate ON reminders(dueDate);\n.explain " + query
      let result = try QuarryProcess.run(["lessons", "--check", "23.2", answer])
      XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
    }
    // Without the index the plan is another: refused.
    let noIndex = try QuarryProcess.run([
      "lessons", "--check", "23.2", #".explain SELECT title FROM reminders WHERE dueDate < '2026-03-01'"#,
    ])
    XCTAssertEqual(noIndex.status, 1, noIndex.stdout)
  }
}

/// Records the SQL of each statement a session runs (in `sqlOnly` mode, nothing runs).
final class StatementRecorder: ResultSink {
  var statements: [String] = []
  var error: String?
  func begin(input: String, sql: String, bindings: [QueryBinding], columns: [String], types: [SwiftType?]) {
    statements.append(sql)
  }
  func row(_ statement: PreparedStatement) {}
  func end(error: StatementError?) { if let error { self.error = error.message } }
  func failure(input: String, error: StatementError) { self.error = error.message }
}
