import Foundation
import Workbench
import XCTest

/// Every lesson lints (examples run, solutions pass on fixture and variant, each wrong answer
/// fails with its explanation), and the checker explains mistakes precisely.
final class LessonTests: XCTestCase {
  static let lessonsDirectory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("lessons").path

  func testEveryLessonLints() throws {
    let paths = Lesson.all(in: Self.lessonsDirectory)
    XCTAssertGreaterThanOrEqual(paths.count, 22)
    var exercises = 0
    var surviving: [String] = []
    for path in paths {
      let linter = LessonLinter()
      let problems = linter.lint(path: path)
      XCTAssertEqual(problems.map(\.description), [], path)
      surviving += linter.lastMutants.surviving.map { URL(fileURLWithPath: path).lastPathComponent + " " + $0 }
      let lesson = try Lesson.load(path: path)
      XCTAssertGreaterThanOrEqual(lesson.exercises.count, 4, path)
      for exercise in lesson.exercises {
        XCTAssertFalse(exercise.hints.isEmpty, "\(path): \(exercise.title)")
        XCTAssertFalse(exercise.wrongAnswers.isEmpty, "\(path): \(exercise.title)")
      }
      exercises += lesson.exercises.count
    }
    XCTAssertGreaterThanOrEqual(exercises, 110)
    // The SQL mutants no dataset kills, neither proven nor declared equivalent: none, so a
    // change that lets one through fails here.
    XCTAssertEqual(surviving.sorted(), [], surviving.sorted().joined(separator: "\n"))
    print("lessons: \(paths.count), exercises: \(exercises)")
  }

  func exercise(_ solution: String, ordered: Bool = false, checks: [String] = []) -> Exercise {
    Exercise(
      title: "t", prompt: "p", hints: ["h"], solution: solution, ordered: ordered, checkedTables: checks,
      wrongAnswers: [], line: 1, solutionLine: 1)
  }

  func verdict(_ answer: String, _ exercise: Exercise) throws -> AnswerChecker.Verdict {
    try AnswerChecker().check(answer, against: exercise, fixture: "reminders")
  }

  func testExplanations() throws {
    let titles = exercise("Tag.order(by: \\.title).select(\\.title)", ordered: true)
    XCTAssertEqual(try verdict("Tag.order(by: \\.title).select(\\.title)", titles), .correct)
    XCTAssertEqual(try verdict("Tag.order { $0.title.desc() }.select(\\.title)", titles), .wrong("right rows, wrong order"))
    XCTAssertEqual(try verdict("Tag.order(by: \\.title)", titles), .wrong("extra column: expected 1 column, got 2"))
    XCTAssertEqual(
      try verdict("Tag.where { $0.id.lt(3) }.order(by: \\.title).select(\\.title)", titles),
      .wrong("expected 5 rows, got 2; missing the rows ('outdoors'), ('paperwork') and 1 more"))
    XCTAssertEqual(
      try verdict("Tag.order(by: \\.title).select { $0.title.upper() }", titles),
      .wrong("row 1, column 1 ('title'): expected 'errand', got 'ERRAND'"))
    // Names are ignored, order is ignored unless asked for.
    let unordered = exercise("Tag.select(\\.title)")
    XCTAssertEqual(try verdict("Tag.order { $0.title.desc() }.select { $0.title }", unordered), .correct)
    // A query fitted to the fixture's ids (the same in its variant) fails once the ids move.
    let fitted = try verdict(
      "Tag.where { $0.id.in([1, 2, 3, 4, 5]) }.select(\\.title).where { $0.title.neq(\"zzz\") }", exercise("Tag.select(\\.title)"))
    XCTAssertEqual(
      fitted,
      .wrong(
        "expected 4 rows, got 0; missing the rows ('creative'), ('family') and 2 more (on the variant rows under other ids: it matched them under the fixture's ids, so it depends on an id written in it)"
      ))
    XCTAssertEqual(
      try verdict(#"Values("errand")"#, exercise(#"Tag.where { $0.id.eq(1) }.select(\.title)"#)),
      .wrong(
        "row 1 (sorted), column 1 ('title'): expected 'quick', got 'errand' (on the variant rows; it matched the fixture's rows, so it may be fitted to them)"
      ))
    XCTAssertEqual(
      try verdict("Tag.where { $0.titel.eq(1) }", unordered), .wrong("1:16: table 'Tag' has no column 'titel'; did you mean 'title'?"))
  }

  func testWriteExercisesCompareTablesAfterwards() throws {
    let insert = exercise(#"Tag.insert { Tag.Draft(title: "new") }"#, checks: ["tags"])
    XCTAssertEqual(try verdict(#"Tag.insert { $0.title } values: { "new" }"#, insert), .correct)
    guard case .wrong(let why) = try verdict(#"Tag.insert { $0.title } values: { "New" }"#, insert) else {
      return XCTFail("expected a wrong answer")
    }
    // The id SQLite assigns to the new row is not compared (it depends on what ran before).
    XCTAssertEqual(
      why,
      "after your answer, table 'tags' differs: in the row whose 'id' is '(an id SQLite assigns)', column 2 ('title'): expected 'new', got 'New'"
    )
  }

  func testTutorWalksALessonAndRecordsProgress() throws {
    let state = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-tutor-\(UUID())")
    defer { try? FileManager.default.removeItem(at: state) }
    let output = OutputStream.capturing()
    let shell = Shell(session: try Session.fixture("reminders"), fixtureName: "reminders", output: output)
    let tutor = Tutor(
      lessons: Lesson.all(in: Self.lessonsDirectory), progress: Progress(path: state.appendingPathComponent("progress.json").path))
    tutor.install(in: shell)
    for input in [
      ".lesson 1", ".next", ".hint", ".hint", ".hint", ".sql off", "RemindersList.all", ".check", "RemindersList.select(\\.title)",
      ".check", ".solution", ".solution",
    ] {
      shell.handle(input)
    }
    let text = output.text
    XCTAssertTrue(text.contains("── Basics — select, where, order, limit · step 2/6: Exercise: All list titles ──"), text)
    XCTAssertTrue(text.contains("Hint: Start from the `RemindersList` table"), text)
    // After the written hint, a more specific one: the solution's outline; then no more.
    XCTAssertTrue(
      text.contains(
        "Hint: the solution's outline (fill in the …): RemindersList · select(…)\nNo more hints: .solution shows the solution.\n"), text)
    XCTAssertTrue(text.contains("✗ Not yet: extra column: expected 1 column, got 4"), text)
    XCTAssertTrue(text.contains("✓ Correct"), text)
    XCTAssertTrue(text.contains("Show the solution? Type .solution again"), text)
    XCTAssertTrue(text.hasSuffix("RemindersList.select(\\.title)\n"), text)
    XCTAssertTrue(tutor.listing().contains(" 1. Basics — select, where, order, limit  (1/5)"), tutor.listing())

    // `.check ANSWER` checks that answer, not the last input.
    let direct = OutputStream.capturing()
    let checking = Shell(session: try Session.fixture("reminders"), fixtureName: "reminders", output: direct)
    Tutor(lessons: Lesson.all(in: Self.lessonsDirectory), progress: Progress(path: state.appendingPathComponent("checking.json").path))
      .install(in: checking)
    for input in [".lesson 1", ".next", "RemindersList.select(\\.title)", ".check SELECT 4;", ".check SELECT title FROM remindersLists;"] {
      checking.handle(input)
    }
    XCTAssertTrue(direct.text.contains("✗ Not yet: expected 4 rows, got 1"), direct.text)
    // An answer in SQL: its DSL spelling is offered.
    XCTAssertTrue(
      direct.text.hasSuffix(
        "✓ Correct — on the fixture, the variant rows and generated rows. .next to go on.\n  .dsl shows your SQL spelled in the StructuredQueries DSL.\n"
      ), direct.text)

    // Opened again, the lesson starts at its first unsolved exercise (step 3), not at step 1.
    let again = OutputStream.capturing()
    let later = Shell(session: try Session.fixture("reminders"), fixtureName: "reminders", output: again)
    Tutor(lessons: Lesson.all(in: Self.lessonsDirectory), progress: Progress(path: state.appendingPathComponent("progress.json").path))
      .install(in: later)
    later.handle(".lesson 1")
    XCTAssertTrue(again.text.contains("(1 of 5 exercises solved: reopened at the first unsolved one; .prev goes back)"), again.text)
    XCTAssertTrue(again.text.contains("── Basics — select, where, order, limit · step 3/6: Exercise: "), again.text)
  }

  /// A shell on the organisation fixture with the lesson commands, and what it writes.
  func tutorShell(lessons: [String] = []) throws -> (Shell, Workbench.OutputStream) {
    let output = OutputStream.capturing()
    let shell = Shell(session: try Session.fixture("organisation"), fixtureName: "organisation", output: output)
    Tutor(lessons: lessons).install(in: shell)
    return (shell, output)
  }

  /// Lesson prose and tables fit the terminal's width: prose re-flows, a table too wide for a box
  /// becomes one block per row, wrapped at spaces; code keeps its lines.
  func testLessonTextWrapsToTheTerminalWidth() throws {
    let (shell, output) = try tutorShell(lessons: Lesson.all(in: Self.lessonsDirectory))
    shell.terminal = Terminal(width: 50, height: 24, isInteractive: false, usesColor: false)
    shell.handle(".lesson 16")
    let lines = output.text.split(separator: "\n").dropFirst(2)
    let prose = lines.filter { !$0.hasPrefix("    ") }
    XCTAssertFalse(prose.isEmpty)
    XCTAssertEqual(prose.filter { TerminalWidth.of(String($0)) > 50 }, [], output.text)
    XCTAssertTrue(output.text.contains("DSL: $0.count()\nSQL: count(id)\nWith a NULL: every row counted"), output.text)
    XCTAssertTrue(output.text.contains("NULL means unknown."), output.text)
  }

  func testDiagramAndTree() throws {
    let (shell, output) = try tutorShell()
    shell.handle(".diagram")
    XCTAssertTrue(output.text.contains("│ managerID        → employees.id"), output.text)
    let (treeShell, tree) = try tutorShell()
    treeShell.handle(".sql off")
    treeShell.handle(
      """
      With {
        Employee.where { $0.id.eq(2) }.select { Chain.Columns(id: $0.id, name: $0.name, depth: 0) }
          .union(all: true, Employee.join(Chain.all) { $0.managerID.eq($1.id) }.select { Chain.Columns(id: $0.id, name: $0.name, depth: $1.depth + 1) })
      } query: { Chain.where { $0.depth.lt(2) }.select { ($0.name, $0.depth) } }
      """)
    let before = tree.text.count
    treeShell.handle(".tree")
    let shown = String(tree.text.dropFirst(before))
    XCTAssertEqual(
      shown,
      """
      Rui Matos
         Ana Ribeiro
         Tiago Neves
      (indented by depth in the rows' order: add the parent's id to the result, as `managerID`, to draw the branches)

      """)
  }

  /// `.tree` draws branches from parent ids whatever the rows' order, and never runs the input again.
  func testTreeFollowsParentIdsAndNeverRerunsAWrite() throws {
    let (shell, output) = try tutorShell()
    shell.handle(".sql off")
    shell.handle(
      """
      With {
        Employee.where { $0.id.eq(3) }.select { OrgChart.Columns(id: $0.id, managerID: $0.managerID, name: $0.name, depth: 0) }
          .union(all: true, Employee.join(OrgChart.all) { $0.managerID.eq($1.id) }
            .select { OrgChart.Columns(id: $0.id, managerID: $0.managerID, name: $0.name, depth: $1.depth + 1) })
      } query: { OrgChart.order { ($0.depth, $0.name) } }
      """)
    var before = output.text.count
    shell.handle(".tree")
    XCTAssertEqual(
      String(output.text.dropFirst(before)),
      """
      Sofia Lopes
      ├─ Bruno Teixeira
      ├─ Carla Mendes
      └─ Diana Alves
         └─ Hugo Martins

      """)
    shell.handle(
      #"Employee.insert { ($0.name, $0.title, $0.salary, $0.hiredAt) } values: { ("New", "Intern", 1, Date(timeIntervalSince1970: 1767225600)) }.returning { ($0.id, $0.managerID, $0.name) }"#
    )
    before = output.text.count
    shell.handle(".tree")
    XCTAssertEqual(String(output.text.dropFirst(before)), "New\n")
    XCTAssertEqual(try shell.session.database.rows("SELECT count(*) FROM employees WHERE name = 'New'"), [[.integer(1)]])
  }
}
