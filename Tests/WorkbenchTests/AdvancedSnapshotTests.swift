import InlineSnapshotTesting
import Workbench
import XCTest

/// Self-joins, CTEs (recursive too), compound selects, CASE, writes, views and triggers.
final class AdvancedSnapshotTests: SnapshotTestCase {
  func testSelfJoinThroughATableAlias() throws {
    assertInlineSnapshot(
      of: try run(
        """
        Employee
          .join(Employee.all.as(Manager.self)) { $0.managerID.eq($1.id) }
          .where { $1.title.hasPrefix("VP") }
          .select { ($0.name, $1.name) }
          .order { employee, _ in employee.name }
        """, fixture: "organisation"), as: .lines
    ) {
      #"""
      warning: 3:21: 'hasPrefix(_:)' is deprecated: Prefer 'like("\(other)%")' instead
        .where { $1.title.hasPrefix("VP") }
                          ^~~~~~~~~
      SELECT "employees"."name", "managers"."name"
      FROM "employees"
      JOIN "employees" AS "managers" ON ("employees"."managerID") = ("managers"."id")
      WHERE (("managers"."title" LIKE 'VP%'))
      ORDER BY "employees"."name"
      ┌────────────────┬─────────────┐
      │ name           │ name        │
      ├────────────────┼─────────────┤
      │ Ana Ribeiro    │ Rui Matos   │
      │ Bruno Teixeira │ Sofia Lopes │
      │ Carla Mendes   │ Sofia Lopes │
      │ Diana Alves    │ Sofia Lopes │
      │ Tiago Neves    │ Rui Matos   │
      └────────────────┴─────────────┘
      """#
    }
  }

  func testRecursiveCTEWalksDownTheTree() throws {
    assertInlineSnapshot(
      of: try run(
        """
        With {
          Employee.where { $0.managerID.is(nil) && $0.departmentID.isNot(nil) }
            .select { Chain.Columns(id: $0.id, name: $0.name, depth: 0) }
            .union(all: true, Employee.join(Chain.all) { $0.managerID.eq($1.id) }
              .select { Chain.Columns(id: $0.id, name: $0.name, depth: $1.depth + 1) })
        } query: {
          Chain.where { $0.depth.gte(3) }.order { ($0.depth, $0.name) }
        }
        """, fixture: "organisation"), as: .lines
    ) {
      """
      WITH "chains" AS (
        SELECT "employees"."id" AS "id", "employees"."name" AS "name", 0 AS "depth"
        FROM "employees"
        WHERE ((("employees"."managerID") IS (NULL)) AND (("employees"."departmentID") IS NOT (NULL)))
          UNION ALL
        SELECT "employees"."id" AS "id", "employees"."name" AS "name", ("chains"."depth") + (1) AS "depth"
        FROM "employees"
        JOIN "chains" ON ("employees"."managerID") = ("chains"."id")
      )
      SELECT "chains"."id", "chains"."name", "chains"."depth"
      FROM "chains"
      WHERE (("chains"."depth") >= (3))
      ORDER BY "chains"."depth", "chains"."name"
      ┌────┬───────────────┬───────┐
      │ id │ name          │ depth │
      ├────┼───────────────┼───────┤
      │ 14 │ Hugo Martins  │ 3     │
      │ 9  │ Luis Carvalho │ 3     │
      │ 6  │ Marta Sousa   │ 3     │
      │ 10 │ Ines Costa    │ 4     │
      │ 8  │ Joana Pires   │ 4     │
      │ 7  │ Pedro Faria   │ 4     │
      └────┴───────────────┴───────┘
      """
    }
  }

  func testRecursiveCTEWalksUpTheChainOfCommand() throws {
    assertInlineSnapshot(
      of: try run(
        """
        With {
          Employee.where { $0.name.eq("Ines Costa") }
            .select { Chain.Columns(id: $0.managerID ?? 0, name: $0.name, depth: 0) }
            .union(all: true, Employee.join(Chain.all) { $0.id.eq($1.id) }
              .select { Chain.Columns(id: $0.managerID ?? 0, name: $0.name, depth: $1.depth + 1) })
        } query: {
          Chain.select { ($0.depth, $0.name) }.order(by: \\.depth)
        }
        """, fixture: "organisation"), as: .lines
    ) {
      """
      WITH "chains" AS (
        SELECT coalesce("employees"."managerID", 0) AS "id", "employees"."name" AS "name", 0 AS "depth"
        FROM "employees"
        WHERE (("employees"."name") = ('Ines Costa'))
          UNION ALL
        SELECT coalesce("employees"."managerID", 0) AS "id", "employees"."name" AS "name", ("chains"."depth") + (1) AS "depth"
        FROM "employees"
        JOIN "chains" ON ("employees"."id") = ("chains"."id")
      )
      SELECT "chains"."depth", "chains"."name"
      FROM "chains"
      ORDER BY "chains"."depth"
      ┌───────┬───────────────┐
      │ depth │ name          │
      ├───────┼───────────────┤
      │ 0     │ Ines Costa    │
      │ 1     │ Luis Carvalho │
      │ 2     │ Ana Ribeiro   │
      │ 3     │ Rui Matos     │
      │ 4     │ Helena Duarte │
      └───────┴───────────────┘
      """
    }
  }

  func testCompoundSelectsWithOrderOnTheWhole() throws {
    assertInlineSnapshot(
      of: try run(
        """
        @Table struct Place { let city: String }
        Department.where { $0.budget.gt(1_000_000) }.select { Place.Columns(city: $0.city) }
          .intersect(Department.where { $0.budget.lt(800_000) }.select { Place.Columns(city: $0.city) })
        """, fixture: "organisation"), as: .lines
    ) {
      """
      SELECT "departments"."city" AS "city"
      FROM "departments"
      WHERE (("departments"."budget") > (1000000))
        INTERSECT
      SELECT "departments"."city" AS "city"
      FROM "departments"
      WHERE (("departments"."budget") < (800000))
      ┌───────┐
      │ city  │
      ├───────┤
      │ Porto │
      └───────┘
      """
    }
    assertInlineSnapshot(
      of: try run(
        """
        @Table struct Name { let value: String }
        Tag.select { Name.Columns(value: $0.title) }
          .union(User.select { Name.Columns(value: $0.name) })
          .except(Tag.where { $0.id.gt(2) }.select { Name.Columns(value: $0.title) })
          .order { $0.value.desc() }
          .limit(4)
        """), as: .lines
    ) {
      """
      SELECT "tags"."title" AS "value"
      FROM "tags"
        UNION
      SELECT "users"."name" AS "value"
      FROM "users"
        EXCEPT
      SELECT "tags"."title" AS "value"
      FROM "tags"
      WHERE (("tags"."id") > (2))
      ORDER BY "value" DESC
      LIMIT 4
      ┌──────────┐
      │ value    │
      ├──────────┤
      │ someday  │
      │ Noor     │
      │ Margaret │
      │ Linus    │
      └──────────┘
      """
    }
  }

  func testCaseInSelectWhereAndOrder() throws {
    assertInlineSnapshot(
      of: try run(
        """
        Employee
          .select { ($0.name, Case().when($0.salary.gte(150_000), then: "executive").when($0.salary.gte(100_000), then: "senior").else("staff")) }
          .where { Case($0.departmentID).when(2, then: true).else(false) }
          .order { (Case().when($0.email.is(nil), then: 1).else(0), $0.salary.desc()) }
          .limit(4)
        """, fixture: "organisation"), as: .lines
    ) {
      """
      SELECT "employees"."name", CASE WHEN ("employees"."salary") >= (150000) THEN 'executive' WHEN ("employees"."salary") >= (100000) THEN 'senior' ELSE 'staff' END
      FROM "employees"
      WHERE (CASE "employees"."departmentID" WHEN 2 THEN 1 ELSE 0 END)
      ORDER BY CASE WHEN ("employees"."email") IS (NULL) THEN 1 ELSE 0 END, "employees"."salary" DESC
      LIMIT 4
      ┌─────────────┬──────────────────────────────────────────────────────────────┐
      │ name        │ CASE WHEN ("employees"."salary") >= (150000) THEN 'executiv… │
      ├─────────────┼──────────────────────────────────────────────────────────────┤
      │ Rui Matos   │ executive                                                    │
      │ Ana Ribeiro │ senior                                                       │
      │ Tiago Neves │ senior                                                       │
      │ Marta Sousa │ senior                                                       │
      └─────────────┴──────────────────────────────────────────────────────────────┘
      """
    }
  }

  func testWritesReturningAndUpserts() throws {
    assertInlineSnapshot(
      of: try run(
        """
        Tag.insert { Tag.Draft(title: "weekend") }.returning(\\.self)
        Tag.insert { $0.title } values: { "urgent" } onConflict: { $0.title } doUpdate: { $0.title += "!" }.returning(\\.title)
        Reminder.where { $0.remindersListID.eq(3) }.update { $0.isFlagged.toggle(); $0.notes = "checked" }.returning { ($0.id, $0.isFlagged) }
        Reminder.find([2, 8]).delete().returning(\\.title)
        """), as: .lines
    ) {
      """
      INSERT INTO "tags"
      ("id", "title")
      VALUES
      (NULL, 'weekend')
      RETURNING "id", "title"
      ┌────┬─────────┐
      │ id │ title   │
      ├────┼─────────┤
      │ 6  │ weekend │
      └────┴─────────┘
      INSERT INTO "tags"
      ("title")
      VALUES
      ('urgent')
      ON CONFLICT ("title")
      DO UPDATE SET "title" = ("tags"."title") || ('!')
      RETURNING "title"
      ┌─────────┐
      │ title   │
      ├─────────┤
      │ urgent! │
      └─────────┘
      UPDATE "reminders"
      SET "isFlagged" = NOT ("reminders"."isFlagged"), "notes" = 'checked'
      WHERE (("reminders"."remindersListID") = (3))
      RETURNING "id", "isFlagged"
      ┌────┬───────────┐
      │ id │ isFlagged │
      ├────┼───────────┤
      │ 6  │ true      │
      │ 7  │ false     │
      │ 8  │ true      │
      └────┴───────────┘
      DELETE FROM "reminders"
      WHERE (("reminders"."id") IN ((2), (8)))
      RETURNING "title"
      ┌─────────────────────┐
      │ title               │
      ├─────────────────────┤
      │ Fix the leaking tap │
      │ Mow the lawn        │
      └─────────────────────┘
      """
    }
  }

  func testAFailingWriteLeavesTheDatabaseAsItWas() throws {
    assertInlineSnapshot(
      of: try run(
        #"""
        Tag.insert { ($0.id, $0.title) } values: { (100, "new"); (1, "duplicate id") }
        Tag.count()
        """#), as: .lines
    ) {
      """
      INSERT INTO "tags"
      ("id", "title")
      VALUES
      (100, 'new'), (1, 'duplicate id')
      error: 1:1: SQLite error 1555: UNIQUE constraint failed: tags.id
      Tag.insert { ($0.id, $0.title) } values: { (100, "new"); (1, "duplicate id") }
      ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
      """
    }
  }

  func testAnInputIsOneTransaction() throws {
    let session = try Session.fixture("reminders")
    let quiet = OutputFormat.box.sink(output: .capturing(), session: session)
    let ok = session.run(
      #"""
      Tag.insert { Tag.Draft(title: "first") }
      Tag.insert { ($0.id, $0.title) } values: { (1, "clashes with tag 1") }
      """#, sink: quiet)
    XCTAssertFalse(ok)
    XCTAssertEqual(try session.database.rows("SELECT count(*) FROM tags"), [[.integer(5)]])
    XCTAssertTrue(session.run(#"Tag.insert { Tag.Draft(title: "second") }"#, sink: quiet))
    XCTAssertEqual(try session.database.rows("SELECT count(*) FROM tags"), [[.integer(6)]])
  }

  func testViewMadeWritableWithAnInsteadOfTrigger() throws {
    assertInlineSnapshot(
      of: try run(
        """
        @Table struct ListedReminder { let id: Int
          let title: String
          let list: String }
        ListedReminder.createTemporaryView(as: Reminder.join(RemindersList.all) { $0.remindersListID.eq($1.id) }
          .select { ListedReminder.Columns(id: $0.id, title: $0.title, list: $1.title) })
        ListedReminder.createTemporaryTrigger(insteadOf: .insert { new in
          Reminder.insert { ($0.title, $0.remindersListID) } select: {
            RemindersList.where { $0.title.eq(new.list) }.select { (new.title, $0.id) }
          }
        })
        ListedReminder.insert { ListedReminder(id: 0, title: "Buy stamps", list: "Travel") }
        ListedReminder.where { $0.list.eq("Travel") }.order { $0.id.desc() }.limit(2)
        """), as: .lines
    ) {
      """
      CREATE TEMPORARY VIEW
      "listedReminders"
      ("id", "title", "list")
      AS
      SELECT "reminders"."id" AS "id", "reminders"."title" AS "title", "remindersLists"."title" AS "list"
      FROM "reminders"
      JOIN "remindersLists" ON ("reminders"."remindersListID") = ("remindersLists"."id")
      CREATE TEMPORARY TRIGGER
        "after_insert_on_listedReminders@quarry:6:1"
      INSTEAD OF INSERT ON "listedReminders"
      FOR EACH ROW BEGIN
        INSERT INTO "reminders"
        ("title", "remindersListID")
        SELECT "new"."title", "remindersLists"."id"
        FROM "remindersLists"
        WHERE (("remindersLists"."title") = ("new"."list"));
      END
      INSERT INTO "listedReminders"
      ("id", "title", "list")
      VALUES
      (0, 'Buy stamps', 'Travel')
      SELECT "listedReminders"."id", "listedReminders"."title", "listedReminders"."list"
      FROM "listedReminders"
      WHERE (("listedReminders"."list") = ('Travel'))
      ORDER BY "listedReminders"."id" DESC
      LIMIT 2
      ┌────┬─────────────────┬────────┐
      │ id │ title           │ list   │
      ├────┼─────────────────┼────────┤
      │ 13 │ Buy stamps      │ Travel │
      │ 11 │ Pack travel bag │ Travel │
      └────┴─────────────────┴────────┘
      """
    }
  }

  func testFunctionsRawSQLCastExistsAndSubqueries() throws {
    assertInlineSnapshot(
      of: try run(
        #"""
        RemindersList.select { ($0.title, #sql("upper(\($0.title))"), $0.id.cast(as: String.self), Reminder.where { $0.isFlagged }.exists(), Reminder.select { $0.id.count() }) }.limit(2)
        """#), as: .lines
    ) {
      """
      SELECT "remindersLists"."title", upper("remindersLists"."title"), CAST("remindersLists"."id" AS TEXT), EXISTS (
        SELECT "reminders"."id", "reminders"."assignedUserID", "reminders"."dueDate", "reminders"."isCompleted", "reminders"."isFlagged", "reminders"."notes", "reminders"."priority", "reminders"."remindersListID", "reminders"."title", "reminders"."updatedAt"
        FROM "reminders"
        WHERE ("reminders"."isFlagged")
      ), (
        SELECT count("reminders"."id")
        FROM "reminders"
      )
      FROM "remindersLists"
      LIMIT 2
      ┌────────┬─────────────────────────────────┬─────────────────────────────────────┬──────────────────────────────────────────────────────────────┬─────────────────────────────────────────────────────────┐
      │ title  │ upper("remindersLists"."title") │ CAST("remindersLists"."id" AS TEXT) │ EXISTS (↵  SELECT "reminders"."id", "reminders"."assignedUs… │ (↵  SELECT count("reminders"."id")↵  FROM "reminders"↵) │
      ├────────┼─────────────────────────────────┼─────────────────────────────────────┼──────────────────────────────────────────────────────────────┼─────────────────────────────────────────────────────────┤
      │ Garden │ GARDEN                          │ 3                                   │ true                                                         │ 12                                                      │
      │ Home   │ HOME                            │ 1                                   │ true                                                         │ 12                                                      │
      └────────┴─────────────────────────────────┴─────────────────────────────────────┴──────────────────────────────────────────────────────────────┴─────────────────────────────────────────────────────────┘
      """
    }
    assertInlineSnapshot(
      of: try run(
        #"""
        Reminder.select { ($0.title.jsonGroupArray(), $0.id.jsonGroupArray().jsonArrayLength(), $0.dueDate.max(), $0.dueDate.year) }.where { $0.remindersListID.eq(4) }
        """#), as: .lines
    ) {
      """
      SELECT json_group_array("reminders"."title"), json_array_length(json_group_array("reminders"."id")), max("reminders"."dueDate"), CAST(strftime('%Y', "reminders"."dueDate") AS INTEGER)
      FROM "reminders"
      WHERE (("reminders"."remindersListID") = (4))
      ┌───────────────────────────────────────────────────────────┬───────────────────────────────────────────────────────┬────────────────────────────┬────────────────────────────────────────────────────────┐
      │ json_group_array("reminders"."title")                     │ json_array_length(json_group_array("reminders"."id")) │ max("reminders"."dueDate") │ CAST(strftime('%Y', "reminders"."dueDate") AS INTEGER) │
      ├───────────────────────────────────────────────────────────┼───────────────────────────────────────────────────────┼────────────────────────────┼────────────────────────────────────────────────────────┤
      │ ["Book train to Lyon","Renew passport","Pack travel bag"] │ 3                                                     │ 2026-05-12 00:00:00.000    │ 2026                                                   │
      └───────────────────────────────────────────────────────────┴───────────────────────────────────────────────────────┴────────────────────────────┴────────────────────────────────────────────────────────┘
      """
    }
  }

  // MARK: Likely mistakes

  func testRecursiveCTEWithMismatchedColumns() throws {
    assertInlineSnapshot(
      of: try run(
        """
        With {
          Employee.topLevel.select { Chain.Columns(id: $0.id, name: $0.name, depth: 0) }
            .union(all: true, Employee.join(Chain.all) { $0.managerID.eq($1.id) }.select { employee, _ in (employee.id, employee.name) })
        } query: { Chain.all }
        """, fixture: "organisation"), as: .lines
    ) {
      """
      error: 2:3: 'Chain' has 3 columns, but one select of this common table expression has 2
        Employee.topLevel.select { Chain.Columns(id: $0.id, name: $0.name, depth: 0) }
        ^
      """
    }
  }

  func testTriggerOnATableThatDoesNotExist() throws {
    assertInlineSnapshot(
      of: try run(
        """
        Remindr.createTemporaryTrigger(after: .delete { old in Tag.where { $0.id.eq(old.id) }.delete() })
        """), as: .lines
    ) {
      """
      error: 1:1: unknown table or type 'Remindr'; did you mean 'Reminder'?
      Remindr.createTemporaryTrigger(after: .delete { old in Tag.where { $0.id.eq(old.id) }.delete() })
      ^~~~~~~
      """
    }
  }

  func testCTEWithoutARowType() throws {
    assertInlineSnapshot(
      of: try run(
        """
        With { Reminder.select { $0.title } } query: { Reminder.all }
        """), as: .lines
    ) {
      """
      error: 1:8: a common table expression needs a row type: select into a @Table type, like .select { Row.Columns(a: $0.a) }
      With { Reminder.select { $0.title } } query: { Reminder.all }
             ^~~~~~~~~~~~~~~~~~~~~~~~~~~~
      """
    }
  }

  func testUpdateOfAColumnThatDoesNotExist() throws {
    assertInlineSnapshot(
      of: try run(
        """
        Reminder.where { $0.id.eq(1) }.update { $0.isDone = true }
        """), as: .lines
    ) {
      """
      error: 1:44: table 'Reminder' has no column 'isDone'
      Reminder.where { $0.id.eq(1) }.update { $0.isDone = true }
                                                 ^~~~~~
      """
    }
  }

  /// Types may be used before they are declared; a column group is updated whole or by member;
  /// a record updates its row; repeated assignments all stay, in order.
  func testDeclarationOrderGroupsAndRecordUpdates() throws {
    assertInlineSnapshot(
      of: try run(
        #"""
        @Table struct Counter {
          let id: Int
          @Columns var counts: Counts
        }
        @Selection struct Counts {
          var seen = 0
          var missed: Int?
        }
        #sql("CREATE TEMPORARY TABLE counters (id INTEGER PRIMARY KEY, seen INTEGER NOT NULL DEFAULT 0, missed INTEGER)")
        Counter.insert { Counter.Draft(counts: Counts(seen: 1, missed: nil)) }
        Counter.update { $0.counts.seen += 1; $0.counts.seen *= 10; $0.counts.missed = #bind(0) }.returning(\.self)
        Counter.update(Counter(id: 1, counts: Counts(seen: 5, missed: 2))).returning(\.self)
        """#), as: .lines
    ) {
      """
      warning: 3:3: 'Columns' is deprecated: renamed to 'Column'
        @Columns var counts: Counts
        ^~~~~~~~
      CREATE TEMPORARY TABLE counters (id INTEGER PRIMARY KEY, seen INTEGER NOT NULL DEFAULT 0, missed INTEGER)
      INSERT INTO "counters"
      ("id", "seen", "missed")
      VALUES
      (NULL, 1, NULL)
      UPDATE "counters"
      SET "seen" = ("counters"."seen") + (1), "seen" = ("counters"."seen") * (10), "missed" = 0
      RETURNING "id", "seen", "missed"
      ┌────┬──────┬────────┐
      │ id │ seen │ missed │
      ├────┼──────┼────────┤
      │ 1  │ 10   │ 0      │
      └────┴──────┴────────┘
      UPDATE "counters"
      SET "seen" = 5, "missed" = 2
      WHERE (("counters"."id") = (1))
      RETURNING "id", "seen", "missed"
      ┌────┬──────┬────────┐
      │ id │ seen │ missed │
      ├────┼──────┼────────┤
      │ 1  │ 5    │ 2      │
      └────┴──────┴────────┘
      """
    }
  }

  /// `afterUpdateTouch:` updates the row again after each update.
  func testAfterUpdateTouchTrigger() throws {
    assertInlineSnapshot(
      of: try run(
        #"""
        Reminder.createTemporaryTrigger(afterUpdateTouch: { $0.title += "!" })
        Reminder.find(1).update { $0.isFlagged = false }
        Reminder.find(1).select(\.title)
        """#), as: .lines
    ) {
      """
      CREATE TEMPORARY TRIGGER
        "after_update_on_reminders@quarry:1:1"
      AFTER UPDATE ON "reminders"
      FOR EACH ROW BEGIN
        UPDATE "reminders"
        SET "title" = ("reminders"."title") || ('!')
        WHERE (("reminders"."rowid") = ("new"."rowid"));
      END
      UPDATE "reminders"
      SET "isFlagged" = 0
      WHERE (("reminders"."id") IN ((1)))
      SELECT "reminders"."title"
      FROM "reminders"
      WHERE (("reminders"."id") IN ((1)))
      ┌────────────────┐
      │ title          │
      ├────────────────┤
      │ Buy groceries! │
      └────────────────┘
      """
    }
  }

  /// A primary key that is a column group: `find`, drafts, `upsert` and `update(_:)` use all of
  /// its columns; `T?.none` is a row of NULLs.
  func testCompositePrimaryKey() throws {
    let models = """
      @Table struct Metadata: Identifiable {
        let id: MetadataID
        var userModificationDate: Date
      }
      @Selection struct MetadataID: Hashable {
        let recordID: UUID
        let recordType: String
      }

      """
    assertInlineSnapshot(
      of: try run(
        models + #"""
          #sql("CREATE TEMPORARY TABLE metadatas (recordID TEXT NOT NULL ON CONFLICT REPLACE DEFAULT '00000000-0000-0000-0000-000000000000', recordType TEXT NOT NULL ON CONFLICT REPLACE DEFAULT 'reminders', userModificationDate TEXT NOT NULL, PRIMARY KEY (recordID, recordType))")
          Metadata.insert { Metadata.Draft(userModificationDate: Date(timeIntervalSinceReferenceDate: 0)) }
          Metadata.upsert { Metadata(id: MetadataID(recordID: UUID(0), recordType: "reminders"), userModificationDate: Date(timeIntervalSinceReferenceDate: 1)) }
          Metadata.update(Metadata(id: MetadataID(recordID: UUID(1), recordType: "lists"), userModificationDate: Date(timeIntervalSinceReferenceDate: 2)))
          Metadata.find(MetadataID(recordID: UUID(0), recordType: "reminders")).select(\.userModificationDate)
          Metadata?.none
          """#), as: .lines
    ) {
      """
      CREATE TEMPORARY TABLE metadatas (recordID TEXT NOT NULL ON CONFLICT REPLACE DEFAULT '00000000-0000-0000-0000-000000000000', recordType TEXT NOT NULL ON CONFLICT REPLACE DEFAULT 'reminders', userModificationDate TEXT NOT NULL, PRIMARY KEY (recordID, recordType))
      INSERT INTO "metadatas"
      ("recordID", "recordType", "userModificationDate")
      VALUES
      (NULL, NULL, '2001-01-01 00:00:00.000')
      INSERT INTO "metadatas"
      ("recordID", "recordType", "userModificationDate")
      VALUES
      ('00000000-0000-0000-0000-000000000000', 'reminders', '2001-01-01 00:00:01.000')
      ON CONFLICT ("recordID", "recordType")
      DO UPDATE SET "userModificationDate" = "excluded"."userModificationDate"
      UPDATE "metadatas"
      SET "userModificationDate" = '2001-01-01 00:00:02.000'
      WHERE (("metadatas"."recordID", "metadatas"."recordType") = ('00000000-0000-0000-0000-000000000001', 'lists'))
      SELECT "metadatas"."userModificationDate"
      FROM "metadatas"
      WHERE (("metadatas"."recordID", "metadatas"."recordType") IN (('00000000-0000-0000-0000-000000000000', 'reminders')))
      ┌─────────────────────────┐
      │ userModificationDate    │
      ├─────────────────────────┤
      │ 2001-01-01 00:00:01.000 │
      └─────────────────────────┘
      SELECT NULL AS "recordID", NULL AS "recordType", NULL AS "userModificationDate"
      ┌──────────┬────────────┬──────────────────────┐
      │ recordID │ recordType │ userModificationDate │
      ├──────────┼────────────┼──────────────────────┤
      │ NULL     │ NULL       │ NULL                 │
      └──────────┴────────────┴──────────────────────┘
      """
    }
    assertInlineSnapshot(
      of: try run(
        models + #"""
          Metadata.find(1)
          """#), as: .lines
    ) {
      """
      error: 9:15: 'find' on 'Metadata' needs whole 'id' values, each with recordID and recordType
      Metadata.find(1)
                    ^
      """
    }
  }

  /// In `#sql`, `Type.column` is that column and a record is its `SELECT`, as written.
  func testTypeColumnsAndRecordsInRawSQL() throws {
    assertInlineSnapshot(
      of: try run(
        #"""
        @Table struct Counter {
          let value: Int
        }
        #sql("""
          WITH \(Counter.self) AS (
            \(Counter(value: 1))
            UNION ALL
            SELECT \(Counter.value) + 1 FROM \(Counter.self) WHERE \(Counter.value) < 3
          )
          SELECT \(Counter.value) FROM \(Counter.self)
          """, as: Int.self)
        """#), as: .lines
    ) {
      """
      WITH "counters" AS (
        SELECT 1 AS "value"
        UNION ALL
        SELECT "counters"."value" + 1 FROM "counters" WHERE "counters"."value" < 3
      )
      SELECT "counters"."value" FROM "counters"
      ┌───────┐
      │ value │
      ├───────┤
      │ 1     │
      │ 2     │
      │ 3     │
      └───────┘
      """
    }
  }

  /// `eq` on an optional column takes its wrapped type; every compound assignment works in an
  /// update; a dictionary literal binds as JSON text.
  func testOptionalEqualityCompoundAssignmentsAndJSONObjects() throws {
    assertInlineSnapshot(
      of: try run(
        #"""
        Reminder.where { $0.priority.eq(Priority.high) && $0.assignedUserID.neq($0.id) }.select(\.title)
        Reminder.find(1).update { $0.remindersListID <<= 1; $0.remindersListID |= 1; $0.remindersListID %= 2 }.returning(\.remindersListID)
        Values(#bind(["b": 2, "a": "x"]).jsonPatch(#bind(["c": true])))
        """#), as: .lines
    ) {
      """
      SELECT "reminders"."title"
      FROM "reminders"
      WHERE ((("reminders"."priority") = (3)) AND (("reminders"."assignedUserID") <> ("reminders"."id")))
      ┌──────────────────────────┐
      │ title                    │
      ├──────────────────────────┤
      │ Call the accountant      │
      │ Prepare quarterly review │
      │ Book train to Lyon       │
      └──────────────────────────┘
      UPDATE "reminders"
      SET "remindersListID" = ("reminders"."remindersListID") << (1), "remindersListID" = ("reminders"."remindersListID") | (1), "remindersListID" = ("reminders"."remindersListID") % (2)
      WHERE (("reminders"."id") IN ((1)))
      RETURNING "remindersListID"
      ┌─────────────────┐
      │ remindersListID │
      ├─────────────────┤
      │ 1               │
      └─────────────────┘
      SELECT json_patch('{
        "a" : "x",
        "b" : 2
      }', '{
        "c" : true
      }')
      ┌──────────────────────────────────────────────────────────────┐
      │ json_patch('{↵  "a" : "x",↵  "b" : 2↵}', '{↵  "c" : true↵}') │
      ├──────────────────────────────────────────────────────────────┤
      │ {"a":"x","b":2,"c":true}                                     │
      └──────────────────────────────────────────────────────────────┘
      """
    }
  }

  /// A `Columns(…)` selection interpolated in `#sql` is its expressions, comma-separated.
  func testSelectionInRawSQL() throws {
    assertInlineSnapshot(
      of: try run(
        #"""
        @Selection struct ListCount {
          let title: String
          let count: Int
        }
        let listCount = ListCount.Columns(title: RemindersList.title, count: Reminder.columns.count())
        #sql("SELECT \(listCount) FROM \(RemindersList.self) JOIN \(Reminder.self) ON \(RemindersList.id) = \(Reminder.remindersListID) GROUP BY \(RemindersList.id)", as: ListCount.self)
        """#), as: .lines
    ) {
      """
      SELECT "remindersLists"."title", count("reminders"."id") FROM "remindersLists" JOIN "reminders" ON "remindersLists"."id" = "reminders"."remindersListID" GROUP BY "remindersLists"."id"
      ┌────────┬─────────────────────────┐
      │ title  │ count("reminders"."id") │
      ├────────┼─────────────────────────┤
      │ Home   │ 3                       │
      │ Work   │ 3                       │
      │ Garden │ 3                       │
      │ Travel │ 3                       │
      └────────┴─────────────────────────┘
      """
    }
  }

  /// `delete(record)` deletes that record's row, never the whole table.
  func testDeleteARecord() throws {
    assertInlineSnapshot(
      of: try run(
        #"""
        Tag.delete(Tag(id: 1, title: "anything")).returning(\.title)
        Tag.count()
        """#), as: .lines
    ) {
      """
      DELETE FROM "tags"
      WHERE (("tags"."id") = (1))
      RETURNING "title"
      ┌────────┐
      │ title  │
      ├────────┤
      │ errand │
      └────────┘
      SELECT count(*)
      FROM "tags"
      ┌──────────┐
      │ count(*) │
      ├──────────┤
      │ 4        │
      └──────────┘
      """
    }
  }

  /// Operators group by Swift's precedence: `*` before `+`, comparisons before `&&`, `&&`
  /// before `||`, `??` to the right.
  func testOperatorPrecedence() throws {
    assertInlineSnapshot(
      of: try run(
        #"""
        Reminder.where { $0.id + $0.id * 2 > 10 - 1 - 2 || $0.isFlagged && !$0.isCompleted }.select { ($0.id, $0.assignedUserID ?? $0.remindersListID, ($0.id % 2).eq(0)) }.limit(3)
        """#), as: .lines
    ) {
      """
      SELECT "reminders"."id", coalesce("reminders"."assignedUserID", "reminders"."remindersListID"), (("reminders"."id") % (2)) = (0)
      FROM "reminders"
      WHERE (((("reminders"."id") + (("reminders"."id") * (2))) > (7)) OR (("reminders"."isFlagged") AND (NOT ("reminders"."isCompleted"))))
      LIMIT 3
      ┌────┬──────────────────────────────────────────────────────────────┬──────────────────────────────────┐
      │ id │ coalesce("reminders"."assignedUserID", "reminders"."reminde… │ (("reminders"."id") % (2)) = (0) │
      ├────┼──────────────────────────────────────────────────────────────┼──────────────────────────────────┤
      │ 1  │ 1                                                            │ false                            │
      │ 3  │ 2                                                            │ false                            │
      │ 4  │ 2                                                            │ true                             │
      └────┴──────────────────────────────────────────────────────────────┴──────────────────────────────────┘
      """
    }
  }

  /// SQLiteData's `@FetchAll` / `@FetchOne`, pasted with the view that holds them: each query
  /// runs, the rest of the view is ignored, and a top-level wrapper's name means its query.
  func testFetchPropertyWrappersFromPastedAppCode() throws {
    assertInlineSnapshot(
      of: try run(
        #"""
        struct TagsView: View {
          @FetchAll(Tag.order(by: \.title).limit(2)) var tags
          @FetchOne(Tag.count()) var count = 0
          @State var isEditing = false
          var body: some View { List(tags) { Text($0.title) } }
        }
        @FetchAll var lists: [RemindersList]
        lists.select(\.title).limit(1)
        """#), as: .lines
    ) {
      """
      SELECT "tags"."id", "tags"."title"
      FROM "tags"
      ORDER BY "tags"."title"
      LIMIT 2
      ┌────┬──────────┐
      │ id │ title    │
      ├────┼──────────┤
      │ 1  │ errand   │
      │ 4  │ outdoors │
      └────┴──────────┘
      SELECT count(*)
      FROM "tags"
      ┌──────────┐
      │ count(*) │
      ├──────────┤
      │ 5        │
      └──────────┘
      SELECT "remindersLists"."id", "remindersLists"."color", "remindersLists"."title", "remindersLists"."position"
      FROM "remindersLists"
      ┌────┬──────────┬────────┬──────────┐
      │ id │ color    │ title  │ position │
      ├────┼──────────┼────────┼──────────┤
      │ 1  │ 4889071  │ Home   │ 0        │
      │ 2  │ 15567157 │ Work   │ 1        │
      │ 3  │ 11689427 │ Garden │ 2        │
      │ 4  │ 3355443  │ Travel │ 3        │
      └────┴──────────┴────────┴──────────┘
      SELECT "remindersLists"."title"
      FROM "remindersLists"
      LIMIT 1
      ┌────────┐
      │ title  │
      ├────────┤
      │ Garden │
      └────────┘
      """
    }
  }

  /// `.fetchAll(db)`, `.fetchOne(db)`, `.execute(db)` are how app code runs a statement; the
  /// statement is what runs here (`fetchCount(db)` counts).
  func testDatabaseCallsFromAppCode() throws {
    assertInlineSnapshot(
      of: try run(
        #"""
        try Tag.where { $0.id.lt(3) }.fetchAll(db)
        try Tag.fetchCount(db)
        try Tag.delete().where { $0.id.eq(1) }.returning(\.title).execute(db)
        """#), as: .lines
    ) {
      """
      SELECT "tags"."id", "tags"."title"
      FROM "tags"
      WHERE (("tags"."id") < (3))
      ┌────┬─────────┐
      │ id │ title   │
      ├────┼─────────┤
      │ 1  │ errand  │
      │ 2  │ someday │
      └────┴─────────┘
      SELECT count(*)
      FROM "tags"
      ┌──────────┐
      │ count(*) │
      ├──────────┤
      │ 5        │
      └──────────┘
      DELETE FROM "tags"
      WHERE (("tags"."id") = (1))
      RETURNING "title"
      ┌────────┐
      │ title  │
      ├────────┤
      │ errand │
      └────────┘
      """
    }
  }

  /// App code pasted whole: `@Dependency` plumbing is accepted, `database.write { db in … }`
  /// runs its statements, and a helper function that returns a query can be called.
  func testAppCodeBlocksAndHelperFunctions() throws {
    assertInlineSnapshot(
      of: try run(
        #"""
        @Dependency(\.defaultDatabase) var database
        func titled(_ text: String) -> Where<Tag> {
          return Tag.where { $0.title.contains(text) }
        }
        withErrorReporting {
          try database.write { db in
            try Tag.insert { Tag.Draft(title: "errands") }.execute(db)
          }
        }
        titled("errand").select(\.title)
        let errands = try titled("errand").fetchAll(db)
        let total = try titled("errand").fetchCount(db)
        errands.map(\.title)
        """#), as: .lines
    ) {
      #"""
      warning: 3:31: 'contains(_:)' is deprecated: Prefer 'like("%\(other)%")' instead
        return Tag.where { $0.title.contains(text) }
                                    ^~~~~~~~
      INSERT INTO "tags"
      ("id", "title")
      VALUES
      (NULL, 'errands')
      SELECT "tags"."title"
      FROM "tags"
      WHERE (("tags"."title" LIKE '%errand%'))
      ┌─────────┐
      │ title   │
      ├─────────┤
      │ errand  │
      │ errands │
      └─────────┘
      SELECT "tags"."id", "tags"."title"
      FROM "tags"
      WHERE (("tags"."title" LIKE '%errand%'))
      ┌────┬─────────┐
      │ id │ title   │
      ├────┼─────────┤
      │ 1  │ errand  │
      │ 6  │ errands │
      └────┴─────────┘
      SELECT count(*)
      FROM "tags"
      WHERE (("tags"."title" LIKE '%errand%'))
      ┌──────────┐
      │ count(*) │
      ├──────────┤
      │ 2        │
      └──────────┘
      ["errand", "errands"] (a Swift value: no SQL)
      """#
    }
  }

  /// A pasted migration creates its tables: `registerMigration { db in … }` runs its
  /// statements, `#sql(…).execute(db)` and GRDB's `db.execute(sql:)` run as plain SQL.
  func testPastedMigration() throws {
    assertInlineSnapshot(
      of: try runScript(
        #"""
        var migrator = DatabaseMigrator()
        migrator.registerMigration("Create books") { db in
          try #sql("CREATE TABLE books (id INTEGER PRIMARY KEY, title TEXT NOT NULL DEFAULT '')").execute(db)
          try db.execute(sql: "CREATE INDEX books_title ON books(title)")
        }
        Book.insert { Book.Draft(title: "Dune") }.returning(\.self)
        """#), as: .lines
    ) {
      """
      CREATE TABLE books (id INTEGER PRIMARY KEY, title TEXT NOT NULL DEFAULT '')
      CREATE INDEX books_title ON books(title)
      INSERT INTO "books"
      ("id", "title")
      VALUES
      (NULL, 'Dune')
      RETURNING "id", "title"
      ┌────┬───────┐
      │ id │ title │
      ├────┼───────┤
      │ 1  │ Dune  │
      └────┴───────┘
      """
    }
  }

  /// Pasted from a StructuredQueries test, `assertQuery(…) { … } results: { … }` and
  /// `assertInlineSnapshot(of: …, as: .sql)` run the query they check and say whether its SQL is
  /// the SQL the test expects.
  func testPastedStructuredQueriesTests() throws {
    assertInlineSnapshot(
      of: try runScript(
        ##"""
        assertQuery(
          Tag.select(\.title).limit(1)
        ) {
          """
          SELECT "tags"."title"
          FROM "tags"
          LIMIT 1
          """
        } results: {
          """
          ┌──────────┐
          │ "errand" │
          └──────────┘
          """
        }
        assertInlineSnapshot(of: Tag.count(), as: .sql) {
          """
          SELECT count(*)
          FROM "tags"
          """
        }
        assertInlineSnapshot(of: Tag.where { $0.id.eq(1) }.select(\.title), as: .sql) {
          """
          SELECT "tags"."title"
          FROM "tags"
          WHERE ("tags"."id") = (1)
          """
        }
        """##), as: .lines
    ) {
      """
      SELECT "tags"."title"
      FROM "tags"
      LIMIT 1
      ┌────────┐
      │ title  │
      ├────────┤
      │ errand │
      └────────┘
      ✓ same SQL as the test expects
      SELECT count(*)
      FROM "tags"
      ┌──────────┐
      │ count(*) │
      ├──────────┤
      │ 5        │
      └──────────┘
      ✓ same SQL as the test expects
      SELECT "tags"."title"
      FROM "tags"
      WHERE (("tags"."id") = (1))
      ┌────────┐
      │ title  │
      ├────────┤
      │ errand │
      └────────┘
      ✗ the test expects other SQL:
      SELECT "tags"."title"
      FROM "tags"
      WHERE ("tags"."id") = (1)
      """
    }
  }

  /// A correlated subquery over the same table needs an alias: without one, the outer row's
  /// columns render as the subquery's own (as StructuredQueries renders them), and a warning says so.
  func testACorrelatedSubqueryOfTheSameTableWithoutAnAliasIsWarnedAbout() throws {
    assertInlineSnapshot(
      of: try run(
        """
        Product.where { p in p.price > Product.where { $0.category.eq(p.category) }.select { $0.price.avg() } }.select(\\.name).order(by: \\.name).limit(2)
        enum Other: AliasName {}
        Product.where { p in p.price > Product.as(Other.self).where { $0.category.eq(p.category) }.select { $0.price.avg() } }.select(\\.name).order(by: \\.name)
        """, fixture: "shop"), as: .lines
    ) {
      #"""
      warning: 1:63: 'p' is the outer row of 'products', but this query reads 'products' too, under the same name: in SQL its columns mean this query's own row, so the condition compares each row with itself; give one side an alias (enum Other: AliasName {} and Product.as(Other.self))
      Product.where { p in p.price > Product.where { $0.category.eq(p.category) }.select { $0.price.avg() } }.select(\.name).order(by: \.name).limit(2)
                                                                    ^
      SELECT "products"."name"
      FROM "products"
      WHERE (("products"."price") > ((
        SELECT avg("products"."price")
        FROM "products"
        WHERE (("products"."category") = ("products"."category"))
      )))
      ORDER BY "products"."name"
      LIMIT 2
      ┌────────────┐
      │ name       │
      ├────────────┤
      │ Brass lamp │
      │ Desk chair │
      └────────────┘
      SELECT "products"."name"
      FROM "products"
      WHERE (("products"."price") > ((
        SELECT avg("others"."price")
        FROM "products" AS "others"
        WHERE (("others"."category") = ("products"."category"))
      )))
      ORDER BY "products"."name"
      ┌──────────────┐
      │ name         │
      ├──────────────┤
      │ Brass lamp   │
      │ Fountain pen │
      │ Oak desk     │
      │ Olive tree   │
      └──────────────┘
      """#
    }
  }
}
