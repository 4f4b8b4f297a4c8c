import Foundation
import XCTest

/// What each exercise teaches is checked on what the answer compiled to, through the binary:
/// answers a learner writes that get the right rows without the technique (a plain query for a
/// view, a correlated subquery for a window, LIKE for full-text search, SQL for a scope), and
/// correct answers written differently, which pass. Each output is pinned whole.
final class LessonTechniqueTests: XCTestCase {
  /// (exercise, answer, what `quarry lessons --check` prints)
  static let cases: [(String, String, String)] = [
    (
      "3.1",
      "SELECT count(*) FROM reminders",
      "✓ 3.1 How many reminders: correct on the fixture's rows, the variant rows and generated rows (seeds 1–3); and on rows whose values change as the schema allows (datasets 3, 12, 14, and 16 more drawn for this answer)"
    ),
    (
      "3.3",
      "SELECT remindersListID FROM (SELECT remindersListID, count(*) AS n FROM reminders WHERE NOT isCompleted GROUP BY remindersListID) WHERE n > 2",
      "✓ 3.3 Busy lists: correct on the fixture's rows, the variant rows and generated rows (seeds 1–3); and on rows whose values change as the schema allows (datasets 4, 13, 11, and 16 more drawn for this answer)"
    ),
    (
      "4.2",
      "SELECT r.title, u.name FROM reminders r LEFT JOIN users u ON u.id = r.assignedUserID",
      "✓ 4.2 Assigned to whom: correct on the fixture's rows, the variant rows and generated rows (seeds 1–3); and on rows whose values change as the schema allows (datasets 2, 4, 27, and 16 more drawn for this answer)"
    ),
    (
      "5.3",
      "SELECT e.name FROM employees e WHERE e.salary > (SELECT m.salary FROM employees m WHERE m.id = e.managerID)",
      "✗ 5.3 Earning more than the boss: right result, but this exercise is about a table joined to itself: none of your queries joins a table to itself (an alias: Employee.all.as(Manager.self), or FROM employees AS e JOIN employees AS m)"
    ),
    (
      "4.1",
      "SELECT title, (SELECT title FROM remindersLists WHERE id = remindersListID) FROM reminders",
      "✗ 4.1 Reminders with their list: right result, but this exercise is about a join: none of your queries joins two tables (a subquery reads another table without joining it: use join(…) or JOIN … ON)"
    ),
    (
      "5.5",
      "WITH c AS (SELECT * FROM employees) SELECT a.name, b.name FROM c AS a JOIN c AS b ON a.managerID = b.managerID AND a.id < b.id",
      "✓ 5.5 Colleagues: correct on the fixture's rows, the variant rows and generated rows (seeds 1–3); and on rows whose values change as the schema allows (datasets 4, 5, 8, and 16 more drawn for this answer)"
    ),
    (
      "6.2",
      "SELECT DISTINCT c.name FROM customers c JOIN orders o ON o.customerID = c.id",
      "✗ 6.2 Customers who ordered: expected 5 rows, got 4; missing the row ('Celia%Nunes') (on rows whose values change as the schema allows, dataset 8, ids moved: it matched the fixture's and the variant's rows, but these hold a case they do not — a NULL, a number on a boundary or 0, a text in other letter case or with % or _, a new value, a copied row, an empty table; the rows that differ there from the fixture's: \"customers\": a row (0, 'gDuarte paiva ababababababababababababababababababababababababababababababababababababababababababababababababababababababab', 'duarte@studio.example', 'LISBON') not in the others; \"customers\": a row (308, 'Celia%Nunes', 'celia@mail.example', 'Braga') not in the others; \"customers\": a row (314, '', 'bento@post.example', 'Porto') not in the others; \"customers\": a row (317, 'Alma Ferreira', 'alma@mail.example', 'Lisbon') not in the others; \"customers\": a row (320, 'Celia%Nunes', 'celia@mail.example', 'Braga') not in the others; \"customers\": a row (329, 'Alma Ferreira ababababababababababababababababababababababababababababababababababababababababababababababababababababababab', 'alma@mail.example', 'Lisbon') not in the others; and 12 more) — its rows: quarry lessons --dataset 6.2 8"
    ),
    (
      "7.4",
      "SELECT name FROM products WHERE price = (SELECT max(price) FROM products)",
      "✗ 7.4 A CTE used twice: right result, but this exercise is about a common table expression (WITH): none of your statements starts with WITH (With { … } query: { … }) and reads what its CTEs compute"
    ),
    (
      "7.4",
      "WITH p AS (SELECT name, price FROM products) SELECT name FROM p WHERE price = (SELECT max(price) FROM p)",
      "✓ 7.4 A CTE used twice: correct on the fixture's rows, the variant rows and generated rows (seeds 1–3); and on rows whose values change as the schema allows (datasets 8, 30, 29, and 16 more drawn for this answer)"
    ),
    (
      "8.5",
      "SELECT count(*) FROM employees e LEFT JOIN employees m ON e.managerID = m.id LEFT JOIN employees mm ON m.managerID = mm.id WHERE m.name = 'Sofia Lopes' OR mm.name = 'Sofia Lopes'",
      "✗ 8.5 Sofia's headcount: row 1 (sorted), column 1 ('count(\"chains\".\"id\")'): expected 16, got 10 (on rows whose values change as the schema allows, dataset 2, ids moved: it matched the fixture's and the variant's rows, but these hold a case they do not — a NULL, a number on a boundary or 0, a text in other letter case or with % or _, a new value, a copied row, an empty table; the rows that differ there from the fixture's: \"employees\": a row (-344, '~Rui Matos', 'VP Énginééring', 305, NULL, 165000, '2014-06-15', 'rui@quarry.éxamplé') not in the others; \"employees\": a row (0, 'Héléna Duartés', 'Chiéf Éxécutivé', -302, NULL, 210000, '2011-03-01', 'héléna@quarry.éxamplé') not in the others; \"employees\": a row (302, 'Inés Costa', 'Intérn', 305, 323, 32000, '2024-06-03', NULL) not in the others; \"employees\": a row (305, 'Sofia Lopes', 'VP Salés''', 314, NULL, 150000, '2014-01-12', 'sofia@quarry.éxamplé') not in the others; \"employees\": a row (308, 'Ana Ribéiro', 'Énginééring Managér', 305, -344, 131000, '2016-02-20', 'ana@quarry.éxamplé') not in the others; \"employees\": a row (311, 'Bruno Téixéira', 'Account Éxécutivé', 314, 305, 74000, '2020-11-09', 'bruno@quarry.éxamplé') not in the others; and 32 more) — its rows: quarry lessons --dataset 8.5 2"
    ),
    (
      "9.2",
      "SELECT DISTINCT city FROM customers WHERE city IN (SELECT city FROM suppliers)",
      "✗ 9.2 Shared cities: right result, but this exercise is about a compound select (UNION, INTERSECT, EXCEPT): none of your queries combines two selects"
    ),
    (
      "9.2",
      "SELECT city FROM customers INTERSECT SELECT city FROM suppliers",
      "✓ 9.2 Shared cities: correct on the fixture's rows, the variant rows and generated rows (seeds 1–3); and on rows whose values change as the schema allows (datasets 14, 28, 29, and 16 more drawn for this answer)"
    ),
    (
      "10.4",
      "SELECT id FROM orders ORDER BY status = 'placed' DESC, orderedAt DESC",
      "✗ 10.4 Open orders first: right result, but this exercise is about CASE: none of your queries has a CASE expression (Case(…))"
    ),
    (
      "10.4",
      "SELECT id FROM orders ORDER BY CASE WHEN status = 'placed' THEN 0 ELSE 1 END, orderedAt DESC",
      "✓ 10.4 Open orders first: correct on the fixture's rows, the variant rows and generated rows (seeds 1–3); and on rows whose values change as the schema allows (datasets 2, 28, 24, and 16 more drawn for this answer)"
    ),
    (
      "12.1",
      "SELECT p.name, oi.quantity * p.price FROM orderItems oi JOIN products p ON p.id = oi.productID WHERE oi.orderID = 2",
      "✗ 12.1 Lines of one order: right result, but this exercise is about a view: no query read its rows through a view"
    ),
    (
      "12.2",
      "INSERT INTO orderItems (orderID, productID, quantity) SELECT 6, id, 3 FROM products WHERE name = 'Ink bottle'",
      "✗ 12.2 Insert through the view: right result, but this exercise is about a trigger: no statement fired a trigger"
    ),
    (
      "12.3",
      "SELECT orderID, sum(total) FROM orderLines GROUP BY orderID HAVING sum(total) > 100",
      "✗ 12.3 A view of your own: this exercise creates the view 'bigOrders', and after your answer there is none"
    ),
    (
      "12.4",
      "UPDATE products SET name = 'Notebook A4' WHERE id = 1; SELECT name FROM products",
      "✗ 12.4 Your own INSTEAD OF trigger: this exercise creates a trigger on renameds, and after your answer there is none"
    ),
    (
      "13.3",
      "SELECT remindersListID, (SELECT count(*) FROM (SELECT priority FROM reminders r2 WHERE r2.remindersListID = r.remindersListID AND priority IS NOT NULL GROUP BY priority)) FROM reminders r GROUP BY remindersListID",
      "✗ 13.3 Distinct priorities: right result, but this exercise is about DISTINCT: none of your queries removes duplicates with DISTINCT (distinct())"
    ),
    (
      "14.2",
      "SELECT name, (SELECT sum(salary) FROM employees e2 WHERE e2.hiredAt <= e.hiredAt) FROM employees e ORDER BY hiredAt",
      "✗ 14.2 Running payroll: right result, but this exercise is about a window function (OVER): none of your statements computes one"
    ),
    (
      "14.5",
      "SELECT name FROM employees e WHERE departmentID IS NOT NULL AND salary = (SELECT max(salary) FROM employees e2 WHERE e2.departmentID = e.departmentID)",
      "✗ 14.5 Best paid in each department: right result, but this exercise is about a window function (OVER): none of your statements computes one"
    ),
    (
      "15.1",
      "SELECT category FROM products GROUP BY category",
      "✗ 15.1 Every category once: right result, but this exercise is about DISTINCT: none of your queries removes duplicates with DISTINCT (distinct())"
    ),
    (
      "18.6",
      #"""
      Product.where { $0.name.lower().contains("lamp") }.select(\.name)
      """#,
      #"""
      ✗ 18.6 Raw SQL, safely: right result, but this exercise is about #sql with a bound value: no #sql of yours binds an interpolated value (\(value), not \(raw: value) or a literal in the text)
      """#
    ),
    (
      "18.6",
      #"""
      let search = "lamp"
      Product.where { #sql("instr(lower(\($0.name)), \(raw: "'" + search + "'")) > 0") }.select(\.name)
      """#,
      #"""
      ✗ 18.6 Raw SQL, safely: right result, but this exercise is about #sql with a bound value: no #sql of yours binds an interpolated value (\(value), not \(raw: value) or a literal in the text)
      """#
    ),
    (
      "18.6",
      #"""
      let search = "lamp"
      Product.where { #sql("instr(lower(\($0.name)), \(search)) > 0") }.select(\.name)
      """#,
      "✓ 18.6 Raw SQL, safely: correct on the fixture's rows, the variant rows and generated rows (seeds 1–3); and on rows whose values change as the schema allows (datasets 45, 162, 18, and 16 more drawn for this answer)"
    ),
    (
      "19.1",
      "UPDATE remindersLists SET color = 255 WHERE title = 'Work'",
      "✗ 19.1 Add a list or recolour it: after your answer, table 'remindersLists' differs: expected 5 rows, got 4; missing the row ('(an id SQLite assigns)', 255, 'Work', 0) (on the variant rows; it matched the fixture's rows, but these have a case it gets wrong: a tie, a NULL, a value on a boundary, a word inside another)"
    ),
    (
      "20.2",
      #"""
      Reminder.where { $0.remindersListID.eq(1) && !$0.isCompleted }.select(\.title)
      """#,
      "✗ 20.2 A scope of your own: right result, but this exercise is about a scope of your own: no query of yours used a scope or Where extension you declared (the fixture's own, such as Reminder.incomplete, are not yours)"
    ),
    (
      "20.2",
      #"""
      extension Reminder {
        static let open = Self.where { !$0.isCompleted }
      }
      Reminder.open.where { $0.remindersListID.eq(1) }.select(\.title)
      """#,
      "✓ 20.2 A scope of your own: correct on the fixture's rows, the variant rows and generated rows (seeds 1–3); and on rows whose values change as the schema allows (datasets 180, 135, 190, and 16 more drawn for this answer)"
    ),
    (
      "20.3",
      "RemindersList.leftJoin(Reminder.all) { $0.id.eq($1.remindersListID) }.group { list, _ in list.id }.select { ($0.title, $1.id.count()) }",
      "✗ 20.3 Counts in a selection: right result, but this exercise is about a @Selection type: no query of yours selected into a @Selection's Columns"
    ),
    (
      "20.5",
      #"""
      Reminder.where { $0.isFlagged && $0.priority.eq(Priority.high) }.select(\.title)
      """#,
      "✗ 20.5 A computed column: right result, but this exercise is about a computed column (extension …TableColumns): no query of yours used one you declared (the fixture's own, such as isHighPriority, are not yours)"
    ),
    (
      "21.2",
      "SELECT title FROM reminders WHERE title LIKE 'ca%' OR notes LIKE 'ca%'",
      "✗ 21.2 Words that start alike: this exercise creates the table 'reminderTexts', and after your answer there is none"
    ),
    (
      "23.1",
      "SELECT count(*) FROM reminders",
      "✗ 23.1 Try, then undo: right result, but this exercise is about undoing a transaction: no transaction of yours undid a change (BEGIN, then a write, then ROLLBACK)"
    ),
    (
      "23.1",
      "BEGIN; DELETE FROM reminders WHERE isCompleted; SELECT count(*) FROM reminders; ROLLBACK;",
      "✗ 23.1 Try, then undo: row 1 (sorted), column 1 ('count(*)'): expected 12, got 8 — your rows were read inside the transaction, before ROLLBACK undid its changes: read them after the ROLLBACK to see what it restored"
    ),
    (
      "23.1",
      "SAVEPOINT try; DELETE FROM reminders WHERE isCompleted; ROLLBACK TO try; RELEASE try; SELECT count(*) FROM reminders;",
      "✓ 23.1 Try, then undo: correct on the fixture's rows, the variant rows and generated rows (seeds 1–3); and on rows whose values change as the schema allows (datasets 4, 28, 8, and 16 more drawn for this answer)"
    ),
    (
      "23.2",
      "CREATE INDEX byDue ON reminders(dueDate); EXPLAIN QUERY PLAN SELECT title FROM reminders WHERE dueDate < '2026-03-01';",
      "✗ 23.2 An index that is used: in the row whose 'id' is 3, column 4 ('detail'): expected 'SEARCH reminders USING INDEX reminders_dueDate (dueDate<?)', got 'SEARCH reminders USING INDEX byDue (dueDate<?)'"
    ),
    (
      "23.3",
      "CREATE TABLE notes (id INTEGER PRIMARY KEY, reminderID INTEGER NOT NULL REFERENCES reminders(id) ON DELETE CASCADE, body TEXT NOT NULL); INSERT INTO notes (reminderID, body) SELECT id, 'Call first' FROM reminders WHERE isFlagged; SELECT reminderID, body FROM notes;",
      "✗ 23.3 A migration: right result, but this exercise is about a migration: no migration of yours ran (migrator.registerMigration(…) { db in … }, then migrator.migrate(database))"
    ),
    (
      "23.4",
      "CREATE TABLE ratings (reminderID INTEGER, stars INTEGER NOT NULL); INSERT INTO ratings SELECT id, priority FROM reminders WHERE priority BETWEEN 1 AND 3; SELECT * FROM ratings;",
      "✗ 23.4 Only valid ratings: your table 'ratings' accepts a row with stars = 0, which this exercise's table refuses (CHECK constraint failed)"
    ),
    (
      "23.4",
      "CREATE TABLE ratings (reminderID INTEGER, stars INTEGER NOT NULL CHECK (stars IN (1, 2, 3))); INSERT OR IGNORE INTO ratings SELECT id, priority FROM reminders; SELECT * FROM ratings;",
      "✓ 23.4 Only valid ratings: correct on the fixture's rows, the variant rows and generated rows (seeds 1–3); and on rows whose values change as the schema allows (datasets 8, 6, 30, and 16 more drawn for this answer)"
    ),
    (
      "24.1",
      "SELECT title, substr(title, 1, 1) FROM remindersLists",
      "✗ 24.1 A function of your own: right result, but this exercise is about a @DatabaseFunction of your own: no query of yours calls one"
    ),
    (
      "24.4",
      "Reminder.where { !$0.isCompleted }.count()",
      "✗ 24.4 One number for a badge: right result, but this exercise is about a fetch property wrapper (@FetchAll, @FetchOne): your answer declares none"
    ),
    (
      // A view that keeps only priced products: the dataset where product 1 (the row the task
      // names) is at a negative price, shown with the message.
      "12.4",
      "CREATE TEMP VIEW renameds AS SELECT id, name FROM products WHERE price > 0; CREATE TEMP TRIGGER renameProduct INSTEAD OF UPDATE ON renameds BEGIN UPDATE products SET name = NEW.name WHERE id = OLD.id; END; UPDATE renameds SET name = 'Notebook A4' WHERE id = 1; SELECT name FROM products",
      "✗ 12.4 Your own INSTEAD OF trigger: this exercise changes the data, but your answer changed no row here: its UPDATE matched no row — check which rows it reaches (a view's WHERE, a trigger's condition, the row's id) (on rows whose values change as the schema allows, dataset 5: it matched the fixture's and the variant's rows, but these hold a case they do not — a NULL, a number on a boundary or 0, a text in other letter case or with % or _, a new value, a copied row, an empty table; the rows that differ there from the variant's: \"products\" id 1: name '~Clay mug' (was 'Clay mug'), category 'KITCHEN' (was 'kitchen'), price -1.005 (was 9.0), supplierID 2 (was 1); \"products\" id 2: name '' (was 'Serving bowl'), price -32.25 (was 31.0); \"products\" id 3: price -14.0 (was 14.0); \"products\" id 4: price -88.0 (was 88.0); \"products\" id 5: name 'Stool''s' (was 'Cork stool'), price -150.0 (was 150.0); \"products\" id 6: name 'Cork trays' (was 'Cork board'), price -27.5 (was 27.5); and 10 more) — its rows: quarry lessons --dataset 12.4 5"
    ),
    (
      "7.5",
      "WITH t AS (SELECT orderID, sum(quantity * price) AS v FROM orderItems JOIN products ON products.id = productID GROUP BY orderID) SELECT orderID FROM t ORDER BY v DESC LIMIT 1",
      "✗ 7.5 The biggest order: row 1 (sorted), column 1 ('name'): expected '2', got 2 — the same value, but this column is text: cast it (CAST(… AS TEXT), or .cast(as: String.self))"
    ),
  ]

  func testAnswersAreCheckedForWhatTheExerciseTeaches() throws {
    for (position, answer, expected) in Self.cases {
      let result = try QuarryProcess.run(["lessons", "--check", position, answer])
      XCTAssertEqual(result.stdout, expected + "\n", "\(position): \(answer)")
      XCTAssertEqual(result.status, expected.hasPrefix("✓") ? 0 : 1, "\(position): \(answer)")
    }
  }
}
