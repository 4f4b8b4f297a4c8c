import Foundation
import InlineSnapshotTesting
import QuarryDSL
import QuarryEngine
import Workbench
import XCTest

/// SQL in, its DSL spelling out (`.dsl`, `--to-dsl`), proven by compiling the spelling back.
final class SQLToDSLTests: SnapshotTestCase {
  func spell(_ statements: [String], fixture: String = "reminders") throws -> String {
    let session = try Session.fixture(fixture)
    return statements.map { sql in "> " + sql + "\n" + SQLToDSL(session: session).answer(sql).text }.joined()
  }

  func testSelectsWritesAndJoinsAreSpelledAndProven() throws {
    assertInlineSnapshot(
      of: try spell([
        "SELECT title FROM reminders WHERE priority >= 2 ORDER BY title",
        "select * from reminders where not isCompleted and isFlagged = 1",
        "SELECT count(*) FROM reminders WHERE dueDate IS NULL",
        "SELECT r.title, l.title FROM reminders AS r JOIN remindersLists AS l ON r.remindersListID = l.id WHERE l.title = 'Work'",
        "SELECT l.title, count(r.id) FROM remindersLists l LEFT JOIN reminders r ON r.remindersListID = l.id GROUP BY l.id ORDER BY 2 DESC",
        "SELECT title FROM reminders WHERE title LIKE '%milk%' OR priority IN (1, 3) LIMIT 3 OFFSET 1",
        "SELECT DISTINCT remindersListID FROM reminders",
        "SELECT upper(title), length(notes) FROM reminders WHERE 2 < priority",
        "SELECT title, CASE WHEN priority IS NULL THEN 'none' ELSE 'some' END FROM reminders",
        "UPDATE reminders SET isFlagged = 1, title = 'It''s done' WHERE priority = 3",
        "DELETE FROM reminders WHERE isCompleted RETURNING title",
        "INSERT INTO tags (title) VALUES ('home'), ('car')",
        "SELECT * FROM reminders WHERE title IN (SELECT title FROM tags)",
        "SELECT title FROM reminders UNION SELECT title FROM tags",
        "SELECT l.title FROM remindersLists l WHERE NOT EXISTS (SELECT 1 FROM reminders WHERE remindersListID = l.id AND NOT isCompleted)",
        "SELECT r.title, o.title FROM reminders r JOIN reminders o ON o.remindersListID = r.remindersListID AND o.id > r.id",
        "INSERT INTO tags (id, title) VALUES (NULL, 'home') ON CONFLICT (title) DO UPDATE SET title = excluded.title || '!'",
        "WITH late AS (SELECT title, dueDate FROM reminders WHERE dueDate IS NOT NULL) SELECT title FROM late ORDER BY dueDate DESC",
        "WITH RECURSIVE n(x) AS (SELECT id FROM tags WHERE id = 1 UNION ALL SELECT t.id FROM tags t JOIN n ON t.id = n.x + 1) SELECT x FROM n",
        "SELECT strftime('%Y-%m', dueDate), count(*) FROM reminders WHERE dueDate IS NOT NULL GROUP BY 1",
        "SELECT remindersListID, count(*) FILTER (WHERE isCompleted) FROM reminders GROUP BY remindersListID",
      ]), as: .lines
    ) {
      #"""
      > SELECT title FROM reminders WHERE priority >= 2 ORDER BY title
      Reminder.where { $0.priority >= #bind(Priority.medium) }.order(by: \.title).select(\.title)
      -- renders the same SQL
      > select * from reminders where not isCompleted and isFlagged = 1
      Reminder.where { !$0.isCompleted && $0.isFlagged.eq(true) }
      -- renders the same SQL
      > SELECT count(*) FROM reminders WHERE dueDate IS NULL
      Reminder.where { $0.dueDate.is(nil) }.count()
      -- renders the same SQL
      > SELECT r.title, l.title FROM reminders AS r JOIN remindersLists AS l ON r.remindersListID = l.id WHERE l.title = 'Work'
      Reminder.join(RemindersList.all) { $0.remindersListID.eq($1.id) }.where { _, remindersList in remindersList.title.eq("Work") }.select { ($0.title, $1.title) }
      -- renders the same SQL
      > SELECT l.title, count(r.id) FROM remindersLists l LEFT JOIN reminders r ON r.remindersListID = l.id GROUP BY l.id ORDER BY 2 DESC
      RemindersList.leftJoin(Reminder.all) { $1.remindersListID.eq($0.id) }.group { remindersList, _ in remindersList.id }.order { _, reminder in reminder.id.count().desc() }.select { ($0.title, $1.id.count()) }
      -- renders the same SQL
      > SELECT title FROM reminders WHERE title LIKE '%milk%' OR priority IN (1, 3) LIMIT 3 OFFSET 1
      Reminder.where { $0.title.like("%milk%") || $0.priority.in([#bind(Priority.low), #bind(Priority.high)]) }.limit(3, offset: 1).select(\.title)
      -- renders the same SQL
      > SELECT DISTINCT remindersListID FROM reminders
      Reminder.select(\.remindersListID).distinct()
      -- renders the same SQL
      > SELECT upper(title), length(notes) FROM reminders WHERE 2 < priority
      Reminder.where { $0.priority > #bind(Priority.medium) }.select { ($0.title.upper(), $0.notes.length()) }
      -- renders the same SQL
      > SELECT title, CASE WHEN priority IS NULL THEN 'none' ELSE 'some' END FROM reminders
      Reminder.select { ($0.title, Case().when($0.priority.is(nil), then: "none").else("some")) }
      -- renders the same SQL
      > UPDATE reminders SET isFlagged = 1, title = 'It''s done' WHERE priority = 3
      Reminder.where { $0.priority.eq(Priority.high) }.update { $0.isFlagged = true; $0.title = "It's done" }
      -- renders the same SQL
      > DELETE FROM reminders WHERE isCompleted RETURNING title
      Reminder.where { $0.isCompleted }.delete().returning { $0.title }
      -- renders the same SQL
      > INSERT INTO tags (title) VALUES ('home'), ('car')
      Tag.insert { $0.title } values: { "home"; "car" }
      -- renders the same SQL
      > SELECT * FROM reminders WHERE title IN (SELECT title FROM tags)
      Reminder.where { $0.title.in(Tag.select(\.title)) }
      -- renders the same SQL
      > SELECT title FROM reminders UNION SELECT title FROM tags
      Reminder.select(\.title).union(Tag.select(\.title))
      -- renders the same SQL
      > SELECT l.title FROM remindersLists l WHERE NOT EXISTS (SELECT 1 FROM reminders WHERE remindersListID = l.id AND NOT isCompleted)
      RemindersList.where { remindersList in !Reminder.where { $0.remindersListID.eq(remindersList.id) && !$0.isCompleted }.select { _ in 1 }.exists() }.select(\.title)
      -- renders the same SQL
      > SELECT r.title, o.title FROM reminders r JOIN reminders o ON o.remindersListID = r.remindersListID AND o.id > r.id
      enum O: AliasName { static let aliasName = "o" }
      Reminder.join(Reminder.all.as(O.self)) { $1.remindersListID.eq($0.remindersListID) && $1.id > $0.id }.select { ($0.title, $1.title) }
      -- renders the same SQL
      > INSERT INTO tags (id, title) VALUES (NULL, 'home') ON CONFLICT (title) DO UPDATE SET title = excluded.title || '!'
      Tag.insert { Tag.Draft(title: "home") } onConflict: { $0.title } doUpdate: { $0.title = $1.title + "!" }
      -- renders the same SQL
      > WITH late AS (SELECT title, dueDate FROM reminders WHERE dueDate IS NOT NULL) SELECT title FROM late ORDER BY dueDate DESC
      @Table("late") struct Late { var title: String; var dueDate: Date? }
      With {
        Reminder.where { $0.dueDate.isNot(nil) }.select { Late.Columns(title: $0.title, dueDate: $0.dueDate) }
      } query: {
        Late.order { $0.dueDate.desc() }.select(\.title)
      }
      -- renders the same SQL
      > WITH RECURSIVE n(x) AS (SELECT id FROM tags WHERE id = 1 UNION ALL SELECT t.id FROM tags t JOIN n ON t.id = n.x + 1) SELECT x FROM n
      @Table("n") struct N { var x: Int }
      With {
        Tag.where { $0.id.eq(1) }.select { N.Columns(x: $0.id) }.union(all: true, Tag.join(N.all) { $0.id.eq($1.x + 1) }.select { tag, _ in N.Columns(x: tag.id) })
      } query: {
        N.select(\.x)
      }
      -- renders the same SQL
      > SELECT strftime('%Y-%m', dueDate), count(*) FROM reminders WHERE dueDate IS NOT NULL GROUP BY 1
      Reminder.where { $0.dueDate.isNot(nil) }.group { #sql("strftime('%Y-%m', \($0.dueDate))", as: String?.self) }.select { (#sql("strftime('%Y-%m', \($0.dueDate))", as: String?.self), $0.count()) }
      -- renders other SQL that gives the same rows on this database
      > SELECT remindersListID, count(*) FILTER (WHERE isCompleted) FROM reminders GROUP BY remindersListID
      Reminder.group { $0.remindersListID }.select { ($0.remindersListID, $0.count(filter: $0.isCompleted)) }
      -- renders other SQL that gives the same rows on this database

      """#
    }
  }

  /// Written by hand on the organisation fixture: a self-join keeps its alias (the declared
  /// `aliasName` is the one rendered), a correlated subquery names its outer row.
  func testSelfJoinsAndCorrelatedSubqueriesOnTheOrganisation() throws {
    assertInlineSnapshot(
      of: try spell(
        [
          "select e.name, m.name as manager from employees e left join employees m on e.managerID = m.id order by e.name",
          "SELECT m.name, COUNT(*) FROM employees e JOIN employees m ON e.managerID = m.id GROUP BY m.id, m.name ORDER BY COUNT(*) DESC, m.name",
          "SELECT name, salary FROM employees e WHERE salary = (SELECT MAX(salary) FROM employees WHERE departmentID = e.departmentID)",
        ], fixture: "organisation"), as: .lines
    ) {
      """
      > select e.name, m.name as manager from employees e left join employees m on e.managerID = m.id order by e.name
      enum M: AliasName { static let aliasName = "m" }
      Employee.leftJoin(Employee.all.as(M.self)) { $0.managerID.eq($1.id) }.order { e, _ in e.name }.select { ($0.name, $1.name) }
      -- renders other SQL that gives the same rows on this database
      > SELECT m.name, COUNT(*) FROM employees e JOIN employees m ON e.managerID = m.id GROUP BY m.id, m.name ORDER BY COUNT(*) DESC, m.name
      enum M: AliasName { static let aliasName = "m" }
      Employee.join(Employee.all.as(M.self)) { $0.managerID.eq($1.id) }.group { _, m in (m.id, m.name) }.order { ($0.count().desc(), $1.name) }.select { ($1.name, $0.count()) }
      -- renders other SQL that gives the same rows on this database
      > SELECT name, salary FROM employees e WHERE salary = (SELECT MAX(salary) FROM employees WHERE departmentID = e.departmentID)
      Employee.where { employee in employee.salary.eq(Employee.where { $0.departmentID.eq(employee.departmentID) }.select { $0.salary.max() }) }.select { ($0.name, $0.salary) }
      -- renders the same SQL

      """
    }
  }

  /// SQL as learners write it, where the library's spelling differs from the SQL's shape: a comma
  /// join, `IN` a table, an optional compared from its non-optional side, `IS NOT 1`, a Bool
  /// summed, a Date read as text, arithmetic on a date function, a select in FROM and an
  /// ordered compound select (both as common tables), an aggregate into a non-optional column.
  func testWhatLearnersWriteIsSpelled() throws {
    assertInlineSnapshot(
      of: try spell([
        "SELECT r.title, l.title FROM reminders r, remindersLists l WHERE r.remindersListID = l.id AND r.isFlagged",
        "SELECT reminders.title, users.name FROM reminders LEFT OUTER JOIN users ON users.id = reminders.assignedUserID",
        "SELECT title FROM reminders WHERE remindersListID = 2 AND isCompleted IS NOT 1",
        "SELECT remindersListID, sum(isCompleted) FROM reminders GROUP BY remindersListID",
        "SELECT title FROM reminders WHERE substr(dueDate, 6, 2) = '03'",
        "SELECT title, CAST(julianday(dueDate) - julianday('2026-03-01') AS INTEGER) FROM reminders WHERE dueDate IS NOT NULL",
      ]), as: .lines
    ) {
      #"""
      > SELECT r.title, l.title FROM reminders r, remindersLists l WHERE r.remindersListID = l.id AND r.isFlagged
      Reminder.join(RemindersList.all) { $0.remindersListID.eq($1.id) }.where { reminder, _ in reminder.isFlagged }.select { ($0.title, $1.title) }
      -- renders other SQL that gives the same rows on this database
      > SELECT reminders.title, users.name FROM reminders LEFT OUTER JOIN users ON users.id = reminders.assignedUserID
      Reminder.leftJoin(User.all) { $0.assignedUserID.eq($1.id) }.select { ($0.title, $1.name) }
      -- renders other SQL that gives the same rows on this database
      > SELECT title FROM reminders WHERE remindersListID = 2 AND isCompleted IS NOT 1
      Reminder.where { $0.remindersListID.eq(2) && $0.isCompleted.neq(true) }.select(\.title)
      -- renders other SQL that gives the same rows on this database
      > SELECT remindersListID, sum(isCompleted) FROM reminders GROUP BY remindersListID
      Reminder.group { $0.remindersListID }.select { ($0.remindersListID, $0.isCompleted.cast(as: Int.self).sum()) }
      -- renders other SQL that gives the same rows on this database
      > SELECT title FROM reminders WHERE substr(dueDate, 6, 2) = '03'
      Reminder.where { #sql("substr(\($0.dueDate), 6, 2)", as: String?.self).eq("03") }.select(\.title)
      -- renders the same SQL
      > SELECT title, CAST(julianday(dueDate) - julianday('2026-03-01') AS INTEGER) FROM reminders WHERE dueDate IS NOT NULL
      Reminder.where { $0.dueDate.isNot(nil) }.select { ($0.title, #sql("julianday(\($0.dueDate)) - julianday('2026-03-01')", as: Double?.self).cast(as: Int.self)) }
      -- renders the same SQL

      """#
    }
    assertInlineSnapshot(
      of: try spell(
        [
          "SELECT city FROM customers EXCEPT SELECT city FROM suppliers ORDER BY city",
          "SELECT DISTINCT city FROM (SELECT city FROM customers UNION ALL SELECT city FROM suppliers)",
          "WITH spent AS (SELECT c.name AS name, sum(i.quantity * p.price) AS value FROM orders o JOIN orderItems i ON i.orderID = o.id JOIN products p ON p.id = i.productID JOIN customers c ON c.id = o.customerID GROUP BY c.id) SELECT name, value FROM spent WHERE value > 100 ORDER BY value DESC",
        ], fixture: "shop"), as: .lines
    ) {
      #"""
      > SELECT city FROM customers EXCEPT SELECT city FROM suppliers ORDER BY city
      @Table("compound") struct Compound { var city: String }
      With {
        Customer.select { Compound.Columns(city: $0.city) }.except(Supplier.select { Compound.Columns(city: $0.city) })
      } query: {
        Compound.order(by: \.city)
      }
      -- renders other SQL that gives the same rows on this database
      > SELECT DISTINCT city FROM (SELECT city FROM customers UNION ALL SELECT city FROM suppliers)
      @Table("subquery") struct Subquery { var city: String }
      With {
        Customer.select { Subquery.Columns(city: $0.city) }.union(all: true, Supplier.select { Subquery.Columns(city: $0.city) })
      } query: {
        Subquery.select(\.city).distinct()
      }
      -- renders other SQL that gives the same rows on this database
      > WITH spent AS (SELECT c.name AS name, sum(i.quantity * p.price) AS value FROM orders o JOIN orderItems i ON i.orderID = o.id JOIN products p ON p.id = i.productID JOIN customers c ON c.id = o.customerID GROUP BY c.id) SELECT name, value FROM spent WHERE value > 100 ORDER BY value DESC
      @Table("spent") struct Spent { var name: String; var value: Double? }
      With {
        Order.join(OrderItem.all) { $1.orderID.eq($0.id) }.join(Product.all) { _, orderItem, product in product.id.eq(orderItem.productID) }.join(Customer.all) { order, _, _, customer in customer.id.eq(order.customerID) }.group { _, _, _, customer in customer.id }.select { _, orderItem, product, customer in Spent.Columns(name: customer.name, value: (orderItem.quantity.cast(as: Double.self) * product.price).sum()) }
      } query: {
        Spent.where { $0.value > #bind(100) }.order { $0.value.desc() }.select { ($0.name, $0.value) }
      }
      -- renders other SQL that gives the same rows on this database

      """#
    }
    assertInlineSnapshot(
      of: try spell(
        [
          "WITH RECURSIVE sub(id) AS (SELECT id FROM employees WHERE name = 'Rui Matos' UNION SELECT e.id FROM employees e JOIN sub ON e.managerID = sub.id) SELECT name FROM employees WHERE id IN sub AND name <> 'Rui Matos'"
        ], fixture: "organisation"), as: .lines
    ) {
      #"""
      > WITH RECURSIVE sub(id) AS (SELECT id FROM employees WHERE name = 'Rui Matos' UNION SELECT e.id FROM employees e JOIN sub ON e.managerID = sub.id) SELECT name FROM employees WHERE id IN sub AND name <> 'Rui Matos'
      @Table("sub") struct Sub { var id: Int }
      With {
        Employee.where { $0.name.eq("Rui Matos") }.select { Sub.Columns(id: $0.id) }.union(Employee.join(Sub.all) { $0.managerID.eq($1.id) }.select { employee, _ in Sub.Columns(id: employee.id) })
      } query: {
        Employee.where { $0.id.in(Sub.select(\.id)) && $0.name.neq("Rui Matos") }.select(\.name)
      }
      -- renders the same SQL

      """#
    }
  }

  /// SQL as an app's raw queries hold it, with parameters the app binds (`?`, `?2`, `:name`):
  /// each a Swift constant of the type where it stands, named by its column, declared in order;
  /// proven by the same statement only (there is no value to run the input with).
  func testParametersTheAppBinds() throws {
    assertInlineSnapshot(
      of: try spell([
        #"SELECT "reminders"."title" FROM "reminders" WHERE ("reminders"."id") = (?)"#,
        "SELECT title FROM reminders WHERE remindersListID = :list AND priority >= ? ORDER BY title LIMIT ?",
        "UPDATE reminders SET isCompleted = ?2, title = ?1 WHERE id = ?3",
        "SELECT * FROM reminders WHERE title LIKE ? AND assignedUserID = ?",
        "SELECT ? + 1",
      ]), as: .lines
    ) {
      #"""
      > SELECT "reminders"."title" FROM "reminders" WHERE ("reminders"."id") = (?)
      let id: Int = 0  // ?1: the value the app binds
      Reminder.where { $0.id.eq(id) }.select(\.title)
      -- renders the same SQL
      > SELECT title FROM reminders WHERE remindersListID = :list AND priority >= ? ORDER BY title LIMIT ?
      let list: Int = 0  // ?1: the value the app binds
      let priority: Priority? = Priority.low  // ?2: the value the app binds
      let limit: Int = 0  // ?3: the value the app binds
      Reminder.where { $0.remindersListID.eq(list) && $0.priority >= priority }.order(by: \.title).limit(limit).select(\.title)
      -- renders the same SQL
      > UPDATE reminders SET isCompleted = ?2, title = ?1 WHERE id = ?3
      let title: String = ""  // ?1: the value the app binds
      let isCompleted: Bool = false  // ?2: the value the app binds
      let id: Int = 0  // ?3: the value the app binds
      Reminder.where { $0.id.eq(id) }.update { $0.isCompleted = isCompleted; $0.title = title }
      -- renders the same SQL
      > SELECT * FROM reminders WHERE title LIKE ? AND assignedUserID = ?
      let pattern: String = ""  // ?1: the value the app binds
      let assignedUserID: Int? = 0  // ?2: the value the app binds
      Reminder.where { $0.title.like(pattern) && $0.assignedUserID.eq(assignedUserID) }
      -- renders the same SQL
      > SELECT ? + 1
      error: the type of parameter ?1 cannot be told here (compare it with a column)
      as raw SQL: #sql("SELECT ? + 1")

      """#
    }
  }

  /// A select of values alone, a value of a column's own type in `nullif`, a date a draft stores,
  /// and FTS5's auxiliary functions (by a column's position as people write them, or by the
  /// `pragma_table_info` lookup the library renders).
  func testValuesDatesAndFullTextFunctions() throws {
    let session = try Session.fixture("reminders")
    try session.database.execute(
      """
      CREATE VIRTUAL TABLE "reminderTexts" USING fts5("reminderID" UNINDEXED, "title", "notes");
      INSERT INTO "reminderTexts" ("reminderID", "title", "notes") SELECT "id", "title", "notes" FROM "reminders";
      """)
    _ = try session.loadModels(
      """
      @Table
      struct ReminderText: FTS5 {
        let reminderID: Int
        let title: String
        let notes: String
      }
      """, path: "texts.swift")
    let statements = [
      "SELECT 1, 'Hello', 2.5",
      "SELECT title, nullif(priority, 3) FROM reminders",
      "UPDATE reminders SET updatedAt = '2040-02-14 23:31:30.000' WHERE id = 1",
      "SELECT title FROM reminderTexts WHERE reminderTexts MATCH 'the' ORDER BY bm25(reminderTexts)",
      "SELECT highlight(reminderTexts, 1, '[', ']') FROM reminderTexts WHERE reminderTexts MATCH 'lawn'",
      #"SELECT snippet("reminderTexts", (SELECT "cid" FROM pragma_table_info('reminderTexts') WHERE "name" = 'notes'), '<', '>', '…', 4) FROM "reminderTexts" WHERE "reminderTexts" MATCH 'seat'"#,
      "SELECT title FROM reminderTexts WHERE reminderTexts MATCH 'the' ORDER BY bm25(reminderTexts, 1.0, 10.0, 1.0)",
      "SELECT * FROM pragma_table_info('reminders')",
    ]
    assertInlineSnapshot(
      of: statements.map { sql in "> " + sql + "\n" + SQLToDSL(session: session).answer(sql).text }.joined(), as: .lines
    ) {
      #"""
      > SELECT 1, 'Hello', 2.5
      Values(1, "Hello", 2.5)
      -- renders the same SQL
      > SELECT title, nullif(priority, 3) FROM reminders
      Reminder.select { ($0.title, $0.priority.nullif(Priority.high)) }
      -- renders the same SQL
      > UPDATE reminders SET updatedAt = '2040-02-14 23:31:30.000' WHERE id = 1
      Reminder.where { $0.id.eq(1) }.update { $0.updatedAt = Date(timeIntervalSince1970: 2212875090) }
      -- renders the same SQL
      > SELECT title FROM reminderTexts WHERE reminderTexts MATCH 'the' ORDER BY bm25(reminderTexts)
      ReminderText.where { $0.match("the") }.order { $0.bm25() }.select(\.title)
      -- renders the same SQL
      > SELECT highlight(reminderTexts, 1, '[', ']') FROM reminderTexts WHERE reminderTexts MATCH 'lawn'
      ReminderText.where { $0.match("lawn") }.select { $0.title.highlight("[", "]") }
      -- renders other SQL that gives the same rows on this database
      > SELECT snippet("reminderTexts", (SELECT "cid" FROM pragma_table_info('reminderTexts') WHERE "name" = 'notes'), '<', '>', '…', 4) FROM "reminderTexts" WHERE "reminderTexts" MATCH 'seat'
      ReminderText.where { $0.match("seat") }.select { $0.notes.snippet("<", ">", "…", 4) }
      -- renders the same SQL
      > SELECT title FROM reminderTexts WHERE reminderTexts MATCH 'the' ORDER BY bm25(reminderTexts, 1.0, 10.0, 1.0)
      ReminderText.where { $0.match("the") }.order { $0.bm25([\.title: 10.0]) }.select(\.title)
      -- renders other SQL that gives the same rows on this database
      > SELECT * FROM pragma_table_info('reminders')
      error: a table-valued function in FROM (pragma_table_info(…)) has no DSL spelling here yet
      as raw SQL: #sql("SELECT * FROM pragma_table_info('reminders')")

      """#
    }
  }

  func testWhatHasNoSpellingIsNamed() throws {
    assertInlineSnapshot(
      of: try spell([
        "WITH x AS (SELECT 1) SELECT * FROM x",
        "SELECT title, rank() OVER (ORDER BY priority) FROM reminders",
        "SELECT title FROM reminders WHERE priority = NULL",
        "SELECT title FROM reminders WHERE priority = 7",
        "SELECT title FROM reminders JOIN reminders AS other ON other.id = reminders.id",
        "SELECT nosuch FROM reminders",
        "SELECT title FROM reminders WHERE",
        "DROP TABLE reminders",
      ]), as: .lines
    ) {
      """
      > WITH x AS (SELECT 1) SELECT * FROM x
      error: every column of the common table 'x' needs a name (… AS name)
      as raw SQL: #sql("WITH x AS (SELECT 1) SELECT * FROM x")
      > SELECT title, rank() OVER (ORDER BY priority) FROM reminders
      error: 1:22: StructuredQueries has no window functions (OVER): the statement is #sql
      as raw SQL: #sql("SELECT title, rank() OVER (ORDER BY priority) FROM reminders")
      > SELECT title FROM reminders WHERE priority = NULL
      error: '= NULL' is never true (a comparison with NULL is NULL); IS NULL / IS NOT NULL is what tests for NULL
      as raw SQL: #sql("SELECT title FROM reminders WHERE priority = NULL")
      > SELECT title FROM reminders WHERE priority = 7
      error: no case of Priority has the raw value 7
      as raw SQL: #sql("SELECT title FROM reminders WHERE priority = 7")
      > SELECT title FROM reminders JOIN reminders AS other ON other.id = reminders.id
      error: ambiguous column name: title
      as raw SQL: #sql("SELECT title FROM reminders JOIN reminders AS other ON other.id = reminders.id")
      > SELECT nosuch FROM reminders
      error: no column 'nosuch' in the tables of FROM
      as raw SQL: #sql("SELECT nosuch FROM reminders")
      > SELECT title FROM reminders WHERE
      error: 1:34: expected an expression, at the end
      as raw SQL: #sql("SELECT title FROM reminders WHERE")
      > DROP TABLE reminders
      error: 1:1: not a statement .dsl reads: it reads SELECT, INSERT, UPDATE and DELETE
      as raw SQL: #sql("DROP TABLE reminders")

      """
    }
  }

  /// Every lesson solution that is one statement, compiled to SQL, then spelled back from that
  /// SQL: every spelling shown gives the solution's rows on the lesson's fixture.
  func testEveryLessonSolutionRoundTrips() throws {
    guard let directory = Lesson.directory() else { throw XCTSkip("no lessons/ folder") }
    var answered = 0
    var total = 0
    var refusals: [String: Int] = [:]
    for path in Lesson.all(in: directory) {
      let lesson = try Lesson.load(path: path)
      for exercise in lesson.exercises {
        let session = try Session.fixture(lesson.fixture)
        guard let items = try? Compiler(catalog: session.catalog).compile(exercise.solution), items.count == 1,
          case .statement(let compiled)? = items.last
        else { continue }
        let sql = compiled.displaySQL
        total += 1
        let answer = SQLToDSL(session: session).answer(sql)
        guard let dsl = answer.dsl else {
          refusals[String((answer.error ?? "").prefix(60)), default: 0] += 1
          if ProcessInfo.processInfo.environment["QUARRY_DSL_VERBOSE"] != nil {
            print("REFUSED \(sql.replacing("\n", with: " "))  =>  \(answer.error ?? "")")
          }
          continue
        }
        answered += 1
        guard case .statement(let back)? = try Compiler(catalog: session.catalog).compile(dsl).last else {
          return XCTFail("\(dsl) is no statement")
        }
        if sql.hasPrefix("SELECT") {
          let copy = try session.database.freshCopy()
          let expected = try copy.rows(sql).map { "\($0)" }
          let got = try copy.rows(back.displaySQL).map { "\($0)" }
          XCTAssertEqual(got.sorted(), expected.sorted(), "\(path): \(exercise.title): \(dsl)")
        }
      }
    }
    print("lesson solutions SQL → DSL: \(answered) of \(total) answered; refused: \(refusals.sorted { $0.value > $1.value })")
    XCTAssertGreaterThanOrEqual(answered, 94)
  }

  /// The SQL StructuredQueries renders in its own tests (the shared conformance cases that need
  /// no set-up of their own), spelled back: every spelling shown compiles to SQL that reads as
  /// the same tree, or gives the same rows; none is wrong, and the count answered never drops.
  func testTheConformanceCorpusRoundTrips() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let conformance = root.deletingLastPathComponent().appendingPathComponent("shared/conformance")
    guard let corpus = try? String(contentsOf: conformance.appendingPathComponent("visible.jsonl"), encoding: .utf8) else {
      throw XCTSkip("../shared/conformance is not beside the repository")
    }
    let database = try Database(path: ":memory:")
    try database.execute(try String(contentsOf: conformance.appendingPathComponent("fixture/sq_schema.sql"), encoding: .utf8))
    let session = try Session(database: database)
    _ = try session.loadModels(
      try String(contentsOf: conformance.appendingPathComponent("fixture/sq_models.swift"), encoding: .utf8), path: "sq_models.swift")
    var identical = 0
    var sameRows = 0
    var refused = 0
    for line in corpus.split(separator: "\n") {
      guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
        let sql = object["expected_sql"] as? String, (object["setup_sql"] as? [Any])?.isEmpty ?? true,
        (object["decls"] as? String)?.isEmpty ?? true
      else { continue }
      let answer = SQLToDSL(session: session).answer(sql)
      guard let dsl = answer.dsl else {
        refused += 1
        XCTAssertNotNil(answer.error, sql)
        continue
      }
      // Compiled again here, apart from the answer's own proof: the rows agree.
      guard case .statement(let compiled)? = try Compiler(catalog: session.catalog).compile(dsl).last else {
        return XCTFail("\(dsl) is no statement")
      }
      if sql.hasPrefix("SELECT") {
        let copy = try database.freshCopy()
        let expected = try copy.rows(sql).map { "\($0)" }
        let got = try copy.rows(compiled.displaySQL).map { "\($0)" }
        XCTAssertEqual(sql.contains("ORDER BY") ? got : got.sorted(), sql.contains("ORDER BY") ? expected : expected.sorted(), dsl)
      }
      if answer.roundTrip == "identical" { identical += 1 } else { sameRows += 1 }
    }
    print("conformance SQL → DSL: \(identical) identical, \(sameRows) same rows, \(refused) refused")
    XCTAssertGreaterThanOrEqual(identical, 60)
  }
}
