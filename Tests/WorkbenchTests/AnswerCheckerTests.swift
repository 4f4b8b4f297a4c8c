import Foundation
import QuarryEngine
import Workbench
import XCTest

/// The checker as learners meet it: answers in SQL or the DSL, declarations made at the prompt,
/// effects on tables, and explanations a learner can act on.
final class AnswerCheckerTests: XCTestCase {
  func exercise(_ solution: String, ordered: Bool = false, checks: [String] = []) -> Exercise {
    Exercise(
      title: "t", prompt: "p", hints: ["h"], solution: solution, ordered: ordered, checkedTables: checks,
      wrongAnswers: [], line: 1, solutionLine: 1)
  }

  func verdict(_ answer: String, _ exercise: Exercise, context: [String] = [], fixture: String = "reminders", timeLimit: Double = 5) throws
    -> AnswerChecker.Verdict
  {
    try AnswerChecker(timeLimit: timeLimit).check(answer, against: exercise, fixture: fixture, context: context)
  }

  /// One checker runs many answers on copies of the fixture's models loaded once: what an answer
  /// declares on a fixture's model (a scope) is its own, gone for the next answer.
  func testAnAnswersDeclarationsStayWithIt() throws {
    let checker = AnswerChecker(timeLimit: 5)
    let open = exercise("Reminder.where { !$0.isCompleted }.select(\\.title)")
    XCTAssertEqual(
      try checker.check(
        "extension Reminder { static let stillOpen = Self.where { !$0.isCompleted } }\nReminder.stillOpen.select(\\.title)",
        against: open, fixture: "reminders", context: []),
      .correct)
    guard
      case .wrong(let message) = try checker.check("Reminder.stillOpen.select(\\.title)", against: open, fixture: "reminders", context: [])
    else { return XCTFail("a scope declared by another answer was found") }
    XCTAssertTrue(message.contains("stillOpen"), message)
  }

  /// A view is read when a statement names it as a table: a subquery or a common table given
  /// the view's name reads the same rows, and SQLite reports their reads as through that name.
  func testAViewIsReadOnlyWhereItIsNamedAsATable() throws {
    var lines = exercise("OrderLine.where { $0.orderID.eq(2) }.select { ($0.product, $0.total) }")
    lines.techniques = ["view"]
    let body =
      #"SELECT "orderItems"."orderID" AS "orderID", "products"."name" AS "product", "products"."price" * "orderItems"."quantity" AS "total" FROM "orderItems" JOIN "products" ON "orderItems"."productID" = "products"."id""#
    XCTAssertEqual(try verdict("SELECT product, total FROM orderLines WHERE orderID = 2", lines, fixture: "shop"), .correct)
    XCTAssertEqual(
      try verdict("SELECT product, total FROM (\(body)) AS orderLines WHERE orderID = 2", lines, fixture: "shop"),
      .wrong("right result, but this exercise is about a view: no query read its rows through a view"))
  }

  func testPlainSQLAnswers() throws {
    let titles = exercise("RemindersList.select(\\.title)")
    XCTAssertEqual(try verdict("SELECT title FROM remindersLists;", titles), .correct)
    XCTAssertEqual(try verdict("select \"title\" from \"remindersLists\"", titles), .correct)
    XCTAssertEqual(try verdict(".raw SELECT title FROM remindersLists", titles), .correct)
    XCTAssertEqual(try verdict("WITH t AS (SELECT title FROM remindersLists) SELECT * FROM t", titles), .correct)
    XCTAssertEqual(
      try verdict("SELECT title FROM tags", titles),
      .wrong(
        "expected 4 rows, got 5; missing the rows ('Garden'), ('Home') and 2 more, and not expected the rows ('errand'), ('outdoors') and 3 more"
      ))
    // The known traps are named after the difference they make.
    let untitled = exercise("Reminder.where { $0.priority.is(nil) }.select(\\.title)")
    guard case .wrong(let nullComparison) = try verdict("SELECT title FROM reminders WHERE priority = NULL", untitled) else {
      return XCTFail("expected a wrong answer")
    }
    XCTAssertTrue(
      nullComparison.hasSuffix(
        " — a comparison with NULL (= NULL, <> NULL) is never true, so those rows drop out: use IS NULL / IS NOT NULL (is(nil), isNot(nil))"
      ), nullComparison)
  }

  func testDeclarationsMadeAtThePromptAreTheContext() throws {
    let bosses = exercise(
      """
      enum Boss: AliasName {}
      Employee.join(Employee.all.as(Boss.self)) { $0.managerID.eq($1.id) }.select { ($0.name, $1.name) }
      """)
    let answer = "Employee.join(Employee.all.as(Boss.self)) { $0.managerID.eq($1.id) }.select { ($0.name, $1.name) }"
    XCTAssertEqual(try verdict(answer, bosses, context: ["enum Boss: AliasName {}"], fixture: "organisation"), .correct)
    guard case .wrong(let why) = try verdict(answer, bosses, fixture: "organisation") else { return XCTFail("needs the alias") }
    XCTAssertTrue(why.contains("Boss"), why)
  }

  /// Set-up typed at the prompt before `.check` is part of the answer: a migration run there,
  /// a table created there (probed for the rows it refuses), as if typed with the query.
  func testSetUpAtThePromptCountsForTheTechniqueAndTheTable() throws {
    let lessons = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("lessons").path
    let lesson = try Lesson.load(path: lessons + "/23-transactions-indexes-migrations.md")
    let migration = try XCTUnwrap(lesson.exercises.first { $0.techniques == ["migration"] })
    let migrate = """
      var migrator = DatabaseMigrator()
      migrator.registerMigration("Create notes") { db in
        try #sql("CREATE TABLE notes (id INTEGER PRIMARY KEY, reminderID INTEGER NOT NULL REFERENCES reminders(id) ON DELETE CASCADE, body TEXT NOT NULL)").execute(db)
      }
      try migrator.migrate(database)
      """
    let query =
      "INSERT INTO notes (reminderID, body) SELECT id, 'Call first' FROM reminders WHERE isFlagged; SELECT reminderID, body FROM notes;"
    XCTAssertEqual(try verdict(query, migration, context: [migrate]), .correct)
    let created =
      "CREATE TABLE notes (id INTEGER PRIMARY KEY, reminderID INTEGER NOT NULL REFERENCES reminders(id) ON DELETE CASCADE, body TEXT NOT NULL)"
    XCTAssertEqual(
      try verdict(query, migration, context: [created]),
      .wrong(
        "right result, but this exercise is about a migration: no migration of yours ran (migrator.registerMigration(…) { db in … }, then migrator.migrate(database))"
      ))

    let ratings = try XCTUnwrap(lesson.exercises.first { $0.techniques == ["check-constraint"] })
    let fill = "INSERT OR IGNORE INTO ratings SELECT id, priority FROM reminders WHERE priority BETWEEN 1 AND 3; SELECT * FROM ratings;"
    XCTAssertEqual(
      try verdict(fill, ratings, context: ["CREATE TABLE ratings (reminderID INTEGER, stars INTEGER NOT NULL)"]),
      .wrong(
        "your table 'ratings' accepts a row with stars = 0, which this exercise's table refuses (CHECK constraint failed)"))
    XCTAssertEqual(
      try verdict(fill, ratings, context: ["CREATE TABLE ratings (reminderID INTEGER, stars INTEGER NOT NULL CHECK (stars IN (1, 2, 3)))"]),
      .correct)
  }

  func testWriteExercisesCompareEffects() throws {
    let delete = exercise("Reminder.where(\\.isCompleted).delete()")
    XCTAssertEqual(try verdict("DELETE FROM reminders WHERE isCompleted", delete), .correct)
    XCTAssertEqual(
      try verdict("Reminder.where(\\.isCompleted)", delete),
      .wrong("this exercise changes the data, but your answer changed nothing (a query that only selects the rows is not enough)"))
    guard case .wrong(let why) = try verdict("Reminder.where { $0.isCompleted && $0.isFlagged }.delete()", delete) else {
      return XCTFail("deleting too few rows is wrong")
    }
    XCTAssertTrue(why.hasPrefix("after your answer, table "), why)
  }

  func testExplanationsForLearners() throws {
    let pairs = exercise("Reminder.select { ($0.title, $0.priority) }")
    XCTAssertEqual(
      try verdict("SELECT priority, title FROM reminders", pairs),
      .wrong("columns 1 and 2 ('priority' and 'title') are in the other order"))
    let busy = exercise("Reminder.group(by: \\.remindersListID).having { $0.id.count() > 3 }.select(\\.remindersListID)")
    guard case .wrong(let why) = try verdict("SELECT remindersListID FROM reminders WHERE count(*) > 3 GROUP BY remindersListID", busy)
    else {
      return XCTFail("an aggregate in WHERE fails")
    }
    XCTAssertTrue(why.hasSuffix("filter the groups with `having` instead"), why)
    // An order asked for needs ORDER BY, even when the rows happen to come out sorted.
    let ordered = exercise("Tag.order(by: \\.id).select(\\.title)", ordered: true)
    XCTAssertEqual(
      try verdict("SELECT title FROM tags", ordered),
      .wrong(
        "right rows, but this exercise asks for an order and your query has no `order` (ORDER BY): without it SQLite may return the rows in any order"
      ))
    // group_concat lists compare as sets unless an order is asked for.
    let lists = exercise(
      #"RemindersList.join(Reminder.all) { $0.id.eq($1.remindersListID) }.group { list, _ in list.id }.select { ($0.title, $1.title.groupConcat(",")) }"#
    )
    XCTAssertEqual(
      try verdict(
        #"SELECT l.title, group_concat(r.title, ',') FROM remindersLists l JOIN (SELECT * FROM reminders ORDER BY title DESC) r ON r.remindersListID = l.id GROUP BY l.id"#,
        lists),
      .correct)
  }

  func testAnEndlessQueryIsStopped() throws {
    let count = exercise("Tag.count()")
    let endless = "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) SELECT count(*) FROM n"
    let started = Date()
    XCTAssertEqual(
      try verdict(endless, count, timeLimit: 0.5),
      .wrong("stopped after 0.5 s: the query did not finish (a recursive CTE needs a `where` in its recursive part that ends it)"))
    XCTAssertLessThan(Date().timeIntervalSince(started), 10)
  }

  /// A Ctrl-C pressed while the check still prepares its databases (before the endless query
  /// began) stops the check as one pressed during the query does, not after the time limit.
  func testCtrlCBeforeTheQueryBeganStillStopsTheCheck() throws {
    let count = exercise("Tag.count()")
    let endless = "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) SELECT count(*) FROM n"
    let checker = AnswerChecker(timeLimit: 60)
    WorkLimit.stopAll()  // what the prompt's SIGINT handler calls
    let started = Date()
    XCTAssertEqual(
      try checker.check(endless, against: count, fixture: "reminders"),
      .wrong("the check was stopped (Ctrl-C) before the query finished"))
    XCTAssertLessThan(Date().timeIntervalSince(started), 30)
    // A checker made after the Ctrl-C is not stopped by it.
    XCTAssertEqual(try AnswerChecker().check("SELECT count(*) FROM tags", against: count, fixture: "reminders"), .correct)
  }

  /// An answer right on every dataset the exercise keeps meets more, drawn for it: a wrong
  /// computation that no mutant of the solution models (an average as a sum over the distinct
  /// names) is found where a category holds two products of one name around the bound, and the
  /// message names the dataset `quarry lessons --dataset` prints. A tie a LIMIT cuts between a
  /// row and its copy is no such difference.
  func testAnAnswerMeetsFurtherDatasetsDrawnForIt() throws {
    let aboveTheMean = exercise("Product.group(by: \\.category).having { ($0.price.avg() ?? 0) > 50 }.select(\\.category)")
    let sumOverNames = "SELECT category FROM products GROUP BY category HAVING sum(price) / count(DISTINCT name) > 50"
    guard case .wrong(let why) = try verdict(sumOverNames, aboveTheMean, fixture: "shop") else {
      return XCTFail("a sum over the distinct names is accepted as an average")
    }
    XCTAssertTrue(why.contains("(on rows whose values change as the schema allows, dataset "), why)
    XCTAssertNotNil(AnswerChecker.datasetSeed(namedIn: why), why)
    XCTAssertEqual(
      try verdict("SELECT category FROM products GROUP BY category HAVING total(price) / count(*) > 50", aboveTheMean, fixture: "shop"),
      .correct)
    let oldestTwo = exercise("Reminder.order(by: \\.updatedAt).limit(2).select(\\.title)", ordered: true)
    XCTAssertEqual(try verdict("SELECT title FROM reminders ORDER BY updatedAt, id DESC LIMIT 2", oldestTwo), .correct)
    XCTAssertEqual(
      AnswerChecker.datasetSeed(namedIn: "x (on rows whose values change as the schema allows, dataset 17, ids moved: …)"), 17)
  }

  func testTheLintCatchesMutantsAndDataThatCannotTellAnswersApart() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-lint-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    func lint(_ body: String) throws -> (problems: [String], report: LessonLinter.MutantReport) {
      let path = directory.appendingPathComponent("lesson.md").path
      try ("---\ntitle: T\nfixture: reminders\n---\n" + body).write(toFile: path, atomically: true, encoding: .utf8)
      let linter = LessonLinter()
      let problems = linter.lint(path: path).map { String($0.description.dropFirst(path.count + 1)) }
      return (problems, linter.lastMutants)
    }
    func exercises(_ solution: String, equivalent: String = "", teaches: String? = "none") -> String {
      (1...4).map { number in
        "## Exercise: E\(number)\nPrompt.\n```hint\nh\n```\n```solution\(teaches.map { " teaches=" + $0 } ?? "")\n\(solution)\n```\n"
          + (equivalent.isEmpty ? "" : "```equivalent\n\(equivalent)\n```\n")
          + "```wrong\nTag.all\n```\n"
      }.joined()
    }
    // Priorities are 1, 2, 3 or NULL: `> 2` and `>= 3` cannot be told apart, but `> 2` and `>= 2` can.
    let sound = try lint(exercises("Reminder.where { $0.id > 2 }.select(\\.title)"))
    XCTAssertEqual(sound.problems, [])
    // Its SQL mutants too. Unsearched (no `datasets=`), a LIMIT cut to the fixture's 10 rows and
    // an added `title <> ''` pass the fixed datasets, and die on the further ones every answer
    // that passes them meets (``FurtherDatasets``: an empty title, more than 10 rows). A NULL
    // excluded in each nullable column the query never names (assignedUserID, dueDate, priority)
    // dies on the fixture's own rows.
    XCTAssertEqual(sound.report.tried, 60)
    XCTAssertEqual(sound.report.caught, 60)
    XCTAssertEqual(sound.report.surviving, [])

    // Every exercise says what it teaches, by a name the checker knows.
    let undeclaredTechnique = try lint(exercises("Reminder.where { $0.id > 2 }.select(\\.title)", teaches: nil))
    XCTAssertEqual(undeclaredTechnique.problems.count, 4)
    XCTAssertTrue(
      undeclaredTechnique.problems[0].hasPrefix(
        "11: 'Exercise: E1': declare what it teaches on the solution line, teaches=… (none, view, "), undeclaredTechnique.problems[0])
    let unknownTechnique = try lint(exercises("Reminder.where { $0.id > 2 }.select(\\.title)", teaches: "magic"))
    XCTAssertTrue(
      unknownTechnique.problems[0].hasPrefix("11: 'Exercise: E1': no technique 'magic' (known: none, view, "), unknownTechnique.problems[0])

    // Every reminder has a list, so this join's kind cannot matter: a declared equivalence.
    let join = "Reminder.join(RemindersList.all) { $0.remindersListID.eq($1.id) }.select { ($0.title, $1.title) }"
    let undeclared = try lint(exercises(join))
    XCTAssertEqual(undeclared.problems.count, 4)
    XCTAssertTrue(undeclared.problems[0].contains("the mutant 'join → leftJoin' passes the check on both datasets"), undeclared.problems[0])
    let declared = try lint(exercises(join, equivalent: "join → leftJoin: remindersListID is a NOT NULL foreign key"))
    XCTAssertEqual(declared.problems, [])
    // The DSL mutant declared; its SQL twin (`JOIN` → `LEFT JOIN`) proven by the schema.
    XCTAssertEqual(declared.report.equivalent, 8)
    XCTAssertEqual(declared.report.proven, 4)

    // A result that is empty on a dataset cannot tell answers apart.
    let empty = try lint(exercises(#"Reminder.where { $0.title.eq("Nothing like this") }.select(\.title)"#))
    XCTAssertTrue(empty.problems.contains { $0.contains("the solution's result is empty on the fixture's rows") }, "\(empty.problems)")
  }
}
