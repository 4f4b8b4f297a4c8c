import InlineSnapshotTesting
import Workbench
import XCTest

/// SQLiteData app code pasted as apps write it: blocks and functions, loops, records, query
/// extensions, triggers, `@DatabaseFunction`s, whole files, and the set-up around them.
final class AppCodeSnapshotTests: SnapshotTestCase {
  func testABlockUsedAsAValueRunsItsFetch() throws {
    assertInlineSnapshot(
      of: try run(
        #"""
        let titles = try database.read { db in
          try Reminder.select(\.title).order(by: \.title).limit(2).fetchAll(db)
        }
        """#), as: .lines
    ) {
      """
      SELECT "reminders"."title"
      FROM "reminders"
      ORDER BY "reminders"."title"
      LIMIT 2
      ┌──────────────────────┐
      │ title                │
      ├──────────────────────┤
      │ Archive old invoices │
      │ Book train to Lyon   │
      └──────────────────────┘
      """
    }
  }

  /// Rows app code fetches are its Swift values: records indexed, counted and iterated, read
  /// after the input's earlier changes (which then run for real, in order).
  func testFetchedRowsAreSwiftValues() throws {
    assertInlineSnapshot(
      of: try run(
        #"""
        try database.write { db in
          try Tag.insert { Tag.Draft(title: "chores") }.execute(db)
          let tags = try Tag.order(by: \.id).fetchAll(db)
          try Tag.where { $0.id.eq(tags[tags.count - 1].id) }.update { $0.title = tags[0].title + "!" }.execute(db)
          for tag in tags.suffix(2) {
            try Tag.where { $0.id.eq(tag.id) }.select(\.title).fetchOne(db)
          }
        }
        """#), as: .lines
    ) {
      """
      INSERT INTO "tags"
      ("id", "title")
      VALUES
      (NULL, 'chores')
      SELECT "tags"."id", "tags"."title"
      FROM "tags"
      ORDER BY "tags"."id"
      ┌────┬───────────┐
      │ id │ title     │
      ├────┼───────────┤
      │ 1  │ errand    │
      │ 2  │ someday   │
      │ 3  │ urgent    │
      │ 4  │ outdoors  │
      │ 5  │ paperwork │
      │ 6  │ chores    │
      └────┴───────────┘
      UPDATE "tags"
      SET "title" = 'errand!'
      WHERE (("tags"."id") = (6))
      SELECT "tags"."title"
      FROM "tags"
      WHERE (("tags"."id") = (5))
      ┌───────────┐
      │ title     │
      ├───────────┤
      │ paperwork │
      └───────────┘
      SELECT "tags"."title"
      FROM "tags"
      WHERE (("tags"."id") = (6))
      ┌─────────┐
      │ title   │
      ├─────────┤
      │ errand! │
      └─────────┘
      """
    }
  }

  func testAnIndexOutsideFetchedRowsIsTheCrashTheAppWouldHave() throws {
    assertInlineSnapshot(
      of: try run(
        #"""
        try database.read { db in
          let lists = try RemindersList.fetchAll(db)
          try Reminder.where { $0.remindersListID.eq(lists[9].id) }.fetchAll(db)
        }
        """#), as: .lines
    ) {
      """
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
      error: 3:52: this Swift is computed before the query runs, but it reads index 9 of an array of 4 (the app would crash here)
        try Reminder.where { $0.remindersListID.eq(lists[9].id) }.fetchAll(db)
                                                         ^
      """
    }
  }

  func testAFunctionOfAppCodeRunsWhenCalled() throws {
    assertInlineSnapshot(
      of: try run(
        #"""
        func flag(_ id: Int) throws {
          withErrorReporting {
            try database.write { db in
              try Reminder.find(id).update { $0.isFlagged = true }.execute(db)
            }
          }
        }
        try flag(2)
        Reminder.where(\.isFlagged).select(\.title)
        """#), as: .lines
    ) {
      """
      UPDATE "reminders"
      SET "isFlagged" = 1
      WHERE (("reminders"."id") IN ((2)))
      SELECT "reminders"."title"
      FROM "reminders"
      WHERE ("reminders"."isFlagged")
      ┌──────────────────────────┐
      │ title                    │
      ├──────────────────────────┤
      │ Buy groceries            │
      │ Fix the leaking tap      │
      │ Prepare quarterly review │
      │ Order compost            │
      └──────────────────────────┘
      """
    }
  }

  func testALoopInAWriteBlockRunsOncePerElement() throws {
    assertInlineSnapshot(
      of: try run(
        #"""
        try database.write { db in
          for title in ["errands", "garden"] {
            try Tag.insert { Tag.Draft(title: title) }.execute(db)
          }
          for (index, title) in ["a", "b"].enumerated() where index > 0 {
            try Tag.insert { Tag.Draft(title: title) }.execute(db)
          }
        }
        Tag.order { $0.id.desc() }.limit(3).select(\.title)
        """#), as: .lines
    ) {
      """
      INSERT INTO "tags"
      ("id", "title")
      VALUES
      (NULL, 'errands')
      INSERT INTO "tags"
      ("id", "title")
      VALUES
      (NULL, 'garden')
      INSERT INTO "tags"
      ("id", "title")
      VALUES
      (NULL, 'b')
      SELECT "tags"."title"
      FROM "tags"
      ORDER BY "tags"."id" DESC
      LIMIT 3
      ┌─────────┐
      │ title   │
      ├─────────┤
      │ b       │
      │ garden  │
      │ errands │
      └─────────┘
      """
    }
  }

  func testAStatementNeverExecutedDoesNotRun() throws {
    assertInlineSnapshot(
      of: try run(
        #"""
        try database.write { db in
          Reminder.delete()
        }
        Reminder.count()
        """#), as: .lines
    ) {
      """
      2:3: not run: this statement is built but never executed (no .execute(db)), so the app does not run it either: DELETE FROM "reminders"
      SELECT count(*)
      FROM "reminders"
      ┌──────────┐
      │ count(*) │
      ├──────────┤
      │ 12       │
      └──────────┘
      """
    }
  }

  func testFetchesOfSQLiteData() throws {
    assertInlineSnapshot(
      of: try run(
        #"""
        let reminder = try database.read { db in try Reminder.find(db, key: 3) }
        let first = try database.read { db in try Reminder.order(by: \.title).fetchOne(db) }
        """#), as: .lines
    ) {
      """
      SELECT "reminders"."id", "reminders"."assignedUserID", "reminders"."dueDate", "reminders"."isCompleted", "reminders"."isFlagged", "reminders"."notes", "reminders"."priority", "reminders"."remindersListID", "reminders"."title", "reminders"."updatedAt"
      FROM "reminders"
      WHERE (("reminders"."id") IN ((3)))
      LIMIT 1
      ┌────┬────────────────┬─────────────────────────┬─────────────┬───────────┬────────────────────────────┬──────────┬─────────────────┬─────────────────────┬─────────────────────────┐
      │ id │ assignedUserID │ dueDate                 │ isCompleted │ isFlagged │ notes                      │ priority │ remindersListID │ title               │ updatedAt               │
      ├────┼────────────────┼─────────────────────────┼─────────────┼───────────┼────────────────────────────┼──────────┼─────────────────┼─────────────────────┼─────────────────────────┤
      │ 3  │ 2              │ 2026-03-05 00:00:00.000 │ false       │ false     │ Ask about the new contract │ .high    │ 2               │ Call the accountant │ 2026-02-28 11:40:00.000 │
      └────┴────────────────┴─────────────────────────┴─────────────┴───────────┴────────────────────────────┴──────────┴─────────────────┴─────────────────────┴─────────────────────────┘
      SELECT "reminders"."id", "reminders"."assignedUserID", "reminders"."dueDate", "reminders"."isCompleted", "reminders"."isFlagged", "reminders"."notes", "reminders"."priority", "reminders"."remindersListID", "reminders"."title", "reminders"."updatedAt"
      FROM "reminders"
      ORDER BY "reminders"."title"
      LIMIT 1
      ┌────┬────────────────┬─────────┬─────────────┬───────────┬───────┬──────────┬─────────────────┬──────────────────────┬─────────────────────────┐
      │ id │ assignedUserID │ dueDate │ isCompleted │ isFlagged │ notes │ priority │ remindersListID │ title                │ updatedAt               │
      ├────┼────────────────┼─────────┼─────────────┼───────────┼───────┼──────────┼─────────────────┼──────────────────────┼─────────────────────────┤
      │ 4  │ 2              │ NULL    │ false       │ false     │       │ .low     │ 2               │ Archive old invoices │ 2026-01-10 08:00:00.000 │
      └────┴────────────────┴─────────┴─────────────┴───────────┴───────┴──────────┴─────────────────┴──────────────────────┴─────────────────────────┘
      """
    }
  }

  /// StructuredQueriesSQLite's own `Database` runs the statement it is given
  /// (`try database.execute(Tag.all)`), in a function whose handle is spelled with its module;
  /// a struct nested in a value type of an extension of a table (the rows the function builds)
  /// is a plain Swift value, not "not a model".
  func testStatementsGivenToADatabaseToRun() throws {
    assertInlineSnapshot(
      of: try run(
        #"""
        extension Tag {
          struct WithLists {
            let tag: Tag
            let counts: [Count]
            struct Count { let list: RemindersList; let total: Int }
          }
          static func titled(_ database: StructuredQueriesSQLite.Database, prefix: String) throws -> [Tag] {
            try database.execute(Tag.where { $0.title.like(prefix + "%") }.order(by: \.title))
          }
        }
        let found = try Tag.titled(database, prefix: "u")
        """#), as: .lines
    ) {
      """
      SELECT "tags"."id", "tags"."title"
      FROM "tags"
      WHERE (("tags"."title" LIKE 'u%'))
      ORDER BY "tags"."title"
      ┌────┬────────┐
      │ id │ title  │
      ├────┼────────┤
      │ 3  │ urgent │
      └────┴────────┘
      """
    }
  }

  /// The app's own static functions are the app's, even named like the library's methods
  /// (`insert`, `delete`): a call that fits one runs it, as Swift prefers a type's own member;
  /// inside it, `Tag.insert { … }` (which does not fit it) is the library's.
  func testTheAppsOwnFunctionsNamedLikeTheLibrarys() throws {
    assertInlineSnapshot(
      of: try run(
        #"""
        extension Tag {
          static func insert(_ db: Database, title: String) throws {
            try Tag.insert { Tag.Draft(title: title) }.execute(db)
          }
          static func delete(id: Int) -> DeleteOf<Tag> {
            Tag.where { $0.id.eq(id) }.delete()
          }
        }
        try database.write { db in
          try Tag.insert(db, title: "travel")
          try Tag.delete(id: 1).execute(db)
        }
        """#), as: .lines
    ) {
      """
      INSERT INTO "tags"
      ("id", "title")
      VALUES
      (NULL, 'travel')
      DELETE FROM "tags"
      WHERE (("tags"."id") = (1))
      """
    }
  }

  /// A namespace of the app's queries (a type that is not a table): its static computed
  /// properties and static functions are read and called where they are used.
  func testQueriesANamespaceHolds() throws {
    assertInlineSnapshot(
      of: try run(
        #"""
        enum Operations {
          static var urgent: Where<Tag> { Tag.where { $0.title.eq("urgent") } }
          static func titled(_ title: String, limit: Int = 5) -> Select<Tag.Columns.QueryValue, Tag, ()> {
            Tag.where { $0.title.eq(title) }.limit(limit)
          }
        }
        Operations.urgent.count()
        Operations.titled("home")
        """#), as: .lines
    ) {
      """
      SELECT count(*)
      FROM "tags"
      WHERE (("tags"."title") = ('urgent'))
      ┌──────────┐
      │ count(*) │
      ├──────────┤
      │ 1        │
      └──────────┘
      SELECT "tags"."id", "tags"."title"
      FROM "tags"
      WHERE (("tags"."title") = ('home'))
      LIMIT 5
      ┌────┬───────┐
      │ id │ title │
      ├────┼───────┤
      └────┴───────┘
      """
    }
  }

  /// GRDB's schema builder in a migration runs the SQL GRDB writes for it: the parts of a
  /// column in GRDB's order whatever the order of the modifiers, a bare `references` pointing at
  /// the primary key of a table made before, `.indexed()` as GRDB names its index; what GRDB
  /// would name by its inflections (`belongsTo`) is refused where it stands.
  func testGRDBsSchemaBuilderInAMigration() throws {
    assertInlineSnapshot(
      of: try run(
        #"""
        var migrator = DatabaseMigrator()
        migrator.registerMigration("league") { db in
          try db.create(table: "teams") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("name", .text).unique().notNull().collate(.nocase)
          }
          try db.create(table: "players", options: [.ifNotExists, .strict]) { t in
            t.primaryKey("code", .text)
            t.column("score", .integer).defaults(to: 0).notNull().check(sql: "score >= 0")
            t.column("teamId", .integer).indexed().references("teams", onDelete: .setNull)
          }
          try db.alter(table: "players") { t in
            t.add(column: "nickname", .text).defaults(to: "it's me")
          }
          try db.create(virtualTable: "teams_ft", using: FTS5()) { t in
            t.synchronize(withTable: "teams")
            t.column("name")
          }
        }
        try migrator.migrate(database)
        try database.write { db in
          try db.create(table: "coaches") { t in
            t.autoIncrementedPrimaryKey("id")
            t.belongsTo("team", onDelete: .cascade)
          }
          try db.create(table: "rosters") { t in
            t.primaryKey {
              t.belongsTo("coaches")
              t.belongsTo("teams")
            }
          }
          try db.create(table: "sponsors") { t in
            t.belongsTo("brands")
          }
        }
        """#), as: .lines
    ) {
      """
      CREATE TABLE "teams" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "name" TEXT NOT NULL UNIQUE COLLATE NOCASE)
      CREATE TABLE IF NOT EXISTS "players" ("code" TEXT PRIMARY KEY NOT NULL, "score" INTEGER NOT NULL CHECK (score >= 0) DEFAULT 0, "teamId" INTEGER REFERENCES "teams"("id") ON DELETE SET NULL) STRICT;
      CREATE INDEX "players_on_teamId" ON "players"("teamId")
      ALTER TABLE "players" ADD COLUMN "nickname" TEXT DEFAULT 'it''s me'
      CREATE VIRTUAL TABLE "teams_ft" USING fts5(name, content='teams', content_rowid='id');
      CREATE TRIGGER "__teams_ft_ai" AFTER INSERT ON "teams" BEGIN
          INSERT INTO "teams_ft"("rowid", "name") VALUES (new."id", new."name");
      END;
      CREATE TRIGGER "__teams_ft_ad" AFTER DELETE ON "teams" BEGIN
          INSERT INTO "teams_ft"("teams_ft", "rowid", "name") VALUES('delete', old."id", old."name");
      END;
      CREATE TRIGGER "__teams_ft_au" AFTER UPDATE ON "teams" BEGIN
          INSERT INTO "teams_ft"("teams_ft", "rowid", "name") VALUES('delete', old."id", old."name");
          INSERT INTO "teams_ft"("rowid", "name") VALUES (new."id", new."name");
      END;
      INSERT INTO "teams_ft"("teams_ft") VALUES('rebuild')
      CREATE TABLE "coaches" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "teamId" INTEGER REFERENCES "teams"("id") ON DELETE CASCADE);
      CREATE INDEX "coaches_on_teamId" ON "coaches"("teamId")
      CREATE TABLE "rosters" ("coachesId" INTEGER NOT NULL REFERENCES "coaches"("id"), "teamsId" INTEGER NOT NULL REFERENCES "teams"("id"), PRIMARY KEY ("coachesId", "teamsId"))
      error: 33:5: GRDB makes belongsTo("brands")'s column from the primary key of 'brands', which it reads from the database: Quarry has not seen that table made with a one-column key; write the column (t.column("…Id", .integer).references("brands", column: "id"))
          t.belongsTo("brands")
          ^~~~~~~~~~~~~~~~~~~~~
      the write block at 21:5 failed: it runs in one transaction, so none of its changes stay
      skipped app code with no SQL to run: try migrator.migrate(database) (20:1)
      this input's changes were undone (11 rows); the database is as it was before it
      """
    }
  }

  /// A computed column of a `TableColumns` extension reaches a group of columns by its bare name
  /// (`id.kind` of a key made of two columns), as SQLiteData's `SyncMetadata` does.
  func testAComputedColumnReadsAGroupByItsBareName() throws {
    assertInlineSnapshot(
      of: try run(
        #"""
        try database.write { db in
          try #sql("CREATE TABLE entries (kind TEXT NOT NULL, code TEXT NOT NULL, note TEXT NOT NULL DEFAULT '', PRIMARY KEY (kind, code))").execute(db)
        }
        @Table("entries") struct Entry {
          @Selection struct Key: Hashable { let kind: String; let code: String }
          let id: Key
          var note = ""
        }
        extension Entry.TableColumns {
          var kind: TableColumn<Entry, String> { id.kind }
        }
        Entry.where { $0.kind.eq("a") }.select(\.note)
        """#), as: .lines
    ) {
      """
      CREATE TABLE entries (kind TEXT NOT NULL, code TEXT NOT NULL, note TEXT NOT NULL DEFAULT '', PRIMARY KEY (kind, code))
      SELECT "entries"."note"
      FROM "entries"
      WHERE (("entries"."kind") = ('a'))
      ┌──────┐
      │ note │
      ├──────┤
      └──────┘
      """
    }
  }

  /// SQLiteData's `SyncMetadata`, named without being declared, is declared as SQLiteData
  /// declares it (its table made for the session), and `syncMetadataID` joins a table to it as
  /// the library renders it (sq@7cdc5c4): `("t"."id", 't') = ("…"."recordPrimaryKey", "…"."recordType")`.
  func testSQLiteDatasSyncMetadata() throws {
    assertInlineSnapshot(
      of: try run(
        #"""
        @Selection struct ListRow { let list: RemindersList; let isShared: Bool }
        RemindersList
          .leftJoin(SyncMetadata.all) { $0.syncMetadataID.eq($1.id) }
          .select { ListRow.Columns(list: $0, isShared: $1.isShared.ifnull(false)) }
          .limit(1)
        """#), as: .lines
    ) {
      """
      SyncMetadata is SQLiteData's table of CloudKit sync metadata: declared as SQLiteData declares it, its table made for this session (SQLiteData's sync engine attaches it from a file of its own)
      CREATE TEMP TABLE IF NOT EXISTS "sqlitedata_icloud_metadata" ("recordPrimaryKey" TEXT NOT NULL, "recordType" TEXT NOT NULL, "recordName" TEXT NOT NULL AS ("recordPrimaryKey" || ':' || "recordType"), "zoneName" TEXT NOT NULL, "ownerName" TEXT NOT NULL, "parentRecordPrimaryKey" TEXT, "parentRecordType" TEXT, "parentRecordName" TEXT AS ("parentRecordPrimaryKey" || ':' || "parentRecordType"), "lastKnownServerRecord" BLOB, "_lastKnownServerRecordAllFields" BLOB, "share" BLOB, "hasLastKnownServerRecord" INTEGER NOT NULL AS ("lastKnownServerRecord" IS NOT NULL), "isShared" INTEGER NOT NULL AS ("share" IS NOT NULL), "userModificationTime" INTEGER NOT NULL DEFAULT 0, "_isDeleted" INTEGER NOT NULL DEFAULT 0, PRIMARY KEY ("recordPrimaryKey", "recordType"), UNIQUE ("recordName"))
      SELECT "remindersLists"."id" AS "id", "remindersLists"."color" AS "color", "remindersLists"."title" AS "title", "remindersLists"."position" AS "position", ifnull((("sqlitedata_icloud_metadata"."isShared" = 1) AND ("sqlitedata_icloud_metadata"."share" OR 1)), 0) AS "isShared"
      FROM "remindersLists"
      LEFT JOIN "sqlitedata_icloud_metadata" ON ("remindersLists"."id", 'remindersLists') = ("sqlitedata_icloud_metadata"."recordPrimaryKey", "sqlitedata_icloud_metadata"."recordType")
      LIMIT 1
      ┌────┬─────────┬───────┬──────────┬──────────┐
      │ id │ color   │ title │ position │ isShared │
      ├────┼─────────┼───────┼──────────┼──────────┤
      │ 1  │ 4889071 │ Home  │ 0        │ 0        │
      └────┴─────────┴───────┴──────────┴──────────┘
      """
    }
  }

  /// Records are Swift's values: a `var` copies, property changes, `switch`es, loops, `inout`
  /// calls of the app's own function and arrays of records change what the write binds (values
  /// checked against swiftc: `[(11, 'TWO0'), (10, 'ab!')]`).
  func testRecordsAreSwiftValues() throws {
    assertInlineSnapshot(
      of: try run(
        #"""
        try database.write { db in
          var tag = Tag(id: 10, title: "a")
          var copy = tag
          copy.title += "b"
          switch copy.title.count { case 2: tag.title = "two"; default: tag.title = "other" }
          tag = Tag(id: tag.id + 1, title: tag.title.uppercased())
          var more = [tag, Tag(id: 20)]
          for i in more.indices { more[i].title += "\(i)" }
          more.removeAll { $0.title.hasPrefix("1") }
          func mark(_ t: inout Tag) { t.title += "!" }
          mark(&copy)
          more.append(copy)
          more.sort { $0.id > $1.id }
          try Tag.insert { more }.execute(db)
        }
        """#), as: .lines
    ) {
      """
      INSERT INTO "tags"
      ("id", "title")
      VALUES
      (11, 'TWO0'), (10, 'ab!')
      """
    }
  }

  func testRecordValuesInQueries() throws {
    assertInlineSnapshot(
      of: try run(
        #"""
        let list = RemindersList(id: 2, title: "Business")
        let draft = Tag.Draft(title: "\(list.title) trips")
        Tag.insert { draft }.returning(\.title)
        Reminder.where { $0.remindersListID.eq(list.id) }.select(\.title)
        """#), as: .lines
    ) {
      """
      INSERT INTO "tags"
      ("id", "title")
      VALUES
      (NULL, 'Business trips')
      RETURNING "title"
      ┌────────────────┐
      │ title          │
      ├────────────────┤
      │ Business trips │
      └────────────────┘
      SELECT "reminders"."title"
      FROM "reminders"
      WHERE (("reminders"."remindersListID") = (2))
      ┌──────────────────────────┐
      │ title                    │
      ├──────────────────────────┤
      │ Call the accountant      │
      │ Archive old invoices     │
      │ Prepare quarterly review │
      └──────────────────────────┘
      """
    }
  }

  func testWhereAndUpdatesExtensions() throws {
    assertInlineSnapshot(
      of: try run(
        #"""
        extension Where<Reminder> {
          func flagged() -> Self { self.where { $0.isFlagged } }
          func titled(_ prefix: String) -> Self { self.where { $0.title.hasPrefix(prefix) } }
        }
        extension Updates<Reminder> {
          mutating func complete() {
            self.isCompleted = true
            self.notes += " (done)"
          }
        }
        Reminder.where { !$0.isCompleted }.flagged().select(\.title)
        Reminder.all.titled("Call").update { $0.complete() }.returning { ($0.title, $0.notes) }
        """#), as: .lines
    ) {
      #"""
      warning: 3:65: 'hasPrefix(_:)' is deprecated: Prefer 'like("\(other)%")' instead
        func titled(_ prefix: String) -> Self { self.where { $0.title.hasPrefix(prefix) } }
                                                                      ^~~~~~~~~
      SELECT "reminders"."title"
      FROM "reminders"
      WHERE (NOT ("reminders"."isCompleted")) AND ("reminders"."isFlagged")
      ┌───────────────┐
      │ title         │
      ├───────────────┤
      │ Buy groceries │
      │ Order compost │
      └───────────────┘
      UPDATE "reminders"
      SET "isCompleted" = 1, "notes" = ("reminders"."notes") || (' (done)')
      WHERE (("reminders"."title" LIKE 'Call%'))
      RETURNING "title", "notes"
      ┌─────────────────────┬───────────────────────────────────┐
      │ title               │ notes                             │
      ├─────────────────────┼───────────────────────────────────┤
      │ Call the accountant │ Ask about the new contract (done) │
      └─────────────────────┴───────────────────────────────────┘
      """#
    }
  }

  func testComputedColumnsWithTheDateDependency() throws {
    assertInlineSnapshot(
      of: try run(
        #"""
        extension Reminder.TableColumns {
          var isOverdue: some QueryExpression<Bool> {
            @Dependency(\.date.now) var now
            return !isCompleted && #sql("coalesce(\(dueDate) < \(now), 0)")
          }
        }
        Reminder.where { $0.isOverdue }.count()
        """#), as: .lines
    ) {
      """
      SELECT count(*)
      FROM "reminders"
      WHERE ((NOT ("reminders"."isCompleted")) AND (coalesce("reminders"."dueDate" < datetime('now'), 0)))
      ┌──────────┐
      │ count(*) │
      ├──────────┤
      │ 5        │
      └──────────┘
      """
    }
  }

  func testTriggersThatTouchAndTriggersOfColumns() throws {
    assertInlineSnapshot(
      of: try run(
        #"""
        Reminder.createTemporaryTrigger(after: .update(touch: \.updatedAt, date: #sql("'2030-01-01 00:00:00.000'")))
        RemindersList.createTemporaryTrigger(after: .update { $0.position += 100 })
        Reminder.createTemporaryTrigger(
          after: .update {
            ($0.title, $0.notes)
          } forEachRow: { _, new in
            Tag.insert { Tag.Draft(title: new.title) }
          }
        )
        Reminder.find(1).update { $0.isFlagged = false }
        Reminder.find(1).select(\.updatedAt)
        Tag.where { $0.title.eq("Buy groceries") }.count()
        Reminder.find(1).update { $0.title = "Buy bread" }
        Tag.where { $0.title.eq("Buy bread") }.count()
        """#), as: .lines
    ) {
      """
      CREATE TEMPORARY TRIGGER
        "after_update_on_reminders@quarry:1:1"
      AFTER UPDATE ON "reminders"
      FOR EACH ROW BEGIN
        UPDATE "reminders"
        SET "updatedAt" = '2030-01-01 00:00:00.000'
        WHERE (("reminders"."rowid") = ("new"."rowid"));
      END
      CREATE TEMPORARY TRIGGER
        "after_update_on_remindersLists@quarry:2:1"
      AFTER UPDATE ON "remindersLists"
      FOR EACH ROW BEGIN
        UPDATE "remindersLists"
        SET "position" = ("remindersLists"."position") + (100)
        WHERE (("remindersLists"."rowid") = ("new"."rowid"));
      END
      CREATE TEMPORARY TRIGGER
        "after_update_on_reminders@quarry:3:1"
      AFTER UPDATE OF "title", "notes" ON "reminders"
      FOR EACH ROW BEGIN
        INSERT INTO "tags"
        ("id", "title")
        VALUES
        (NULL, "new"."title");
      END
      UPDATE "reminders"
      SET "isFlagged" = 0
      WHERE (("reminders"."id") IN ((1)))
      SELECT "reminders"."updatedAt"
      FROM "reminders"
      WHERE (("reminders"."id") IN ((1)))
      ┌─────────────────────────┐
      │ updatedAt               │
      ├─────────────────────────┤
      │ 2030-01-01 00:00:00.000 │
      └─────────────────────────┘
      SELECT count(*)
      FROM "tags"
      WHERE (("tags"."title") = ('Buy groceries'))
      ┌──────────┐
      │ count(*) │
      ├──────────┤
      │ 0        │
      └──────────┘
      UPDATE "reminders"
      SET "title" = 'Buy bread'
      WHERE (("reminders"."id") IN ((1)))
      SELECT count(*)
      FROM "tags"
      WHERE (("tags"."title") = ('Buy bread'))
      ┌──────────┐
      │ count(*) │
      ├──────────┤
      │ 1        │
      └──────────┘
      """
    }
  }

  func testDatabaseFunctionsRunTheirSwift() throws {
    assertInlineSnapshot(
      of: try run(
        #"""
        @DatabaseFunction
        func exclaim(_ text: String, times: Int = 1) -> String {
          text.uppercased() + String(repeating: "!", count: times)
        }
        @DatabaseFunction(isDeterministic: true)
        func initials(_ text: String) -> String {
          text.split(separator: " ").map { $0.prefix(1) }.joined()
        }
        @DatabaseFunction
        func longest(_ titles: some Sequence<String>) -> String? {
          var best: String? = nil
          for title in titles {
            guard let current = best else { best = title; continue }
            if title.count > current.count { best = title }
          }
          return best
        }
        Reminder.select { ($initials($0.title), $exclaim($0.title)) }.limit(2)
        RemindersList.leftJoin(Reminder.all) { $0.id.eq($1.remindersListID) }.group(by: \.id).select { ($0.title, $longest($1.title)) }
        """#), as: .lines
    ) {
      """
      SELECT "initials"("reminders"."title"), "exclaim"("reminders"."title", 1)
      FROM "reminders"
      LIMIT 2
      ┌─────────────────────────────────┬───────────────────────────────────┐
      │ "initials"("reminders"."title") │ "exclaim"("reminders"."title", 1) │
      ├─────────────────────────────────┼───────────────────────────────────┤
      │ Bg                              │ BUY GROCERIES!                    │
      │ Ftlt                            │ FIX THE LEAKING TAP!              │
      └─────────────────────────────────┴───────────────────────────────────┘
      SELECT "remindersLists"."title", "longest"("reminders"."title")
      FROM "remindersLists"
      LEFT JOIN "reminders" ON ("remindersLists"."id") = ("reminders"."remindersListID")
      GROUP BY "remindersLists"."id"
      ┌────────┬────────────────────────────────┐
      │ title  │ "longest"("reminders"."title") │
      ├────────┼────────────────────────────────┤
      │ Home   │ Pay electricity bill           │
      │ Work   │ Prepare quarterly review       │
      │ Garden │ Plant seedlings                │
      │ Travel │ Book train to Lyon             │
      └────────┴────────────────────────────────┘
      """
    }
  }

  /// A `@DatabaseFunction`'s body sees the structs and records the input declares, as any other
  /// Swift of the input does.
  func testADatabaseFunctionUsesTheInputsStructs() throws {
    assertInlineSnapshot(
      of: try run(
        #"""
        struct Money { var cents: Int; var dollars: Int { cents / 100 } }
        @DatabaseFunction func dollars(_ cents: Int) -> Int { Money(cents: cents).dollars }
        @DatabaseFunction func tagged(_ title: String) -> String {
          var tag = Tag(id: 1, title: title)
          tag.title += "!"
          return tag.title
        }
        Values($dollars(250), $tagged("a"))
        """#), as: .lines
    ) {
      """
      SELECT "dollars"(250), "tagged"('a')
      ┌────────────────┬───────────────┐
      │ "dollars"(250) │ "tagged"('a') │
      ├────────────────┼───────────────┤
      │ 2              │ a!            │
      └────────────────┴───────────────┘
      """
    }
  }

  func testADatabaseFunctionOutsideTheSubsetSaysWhatCannotRun() throws {
    assertInlineSnapshot(
      of: try run(
        #"""
        @DatabaseFunction
        func remote(_ text: String) -> String {
          let path = NSTemporaryDirectory()
          return text
        }
        Reminder.select { $remote($0.title) }.limit(1)
        """#), as: .lines
    ) {
      """
      SELECT "remote"("reminders"."title")
      FROM "reminders"
      LIMIT 1
      ┌───────────────────────────────┐
      │ "remote"("reminders"."title") │
      ├───────────────────────────────┤
      └───────────────────────────────┘
      error: 6:1: SQLite error 1: remote: 3:14: calls 'NSTemporaryDirectory(…)', which is outside the Swift Quarry runs
      Reminder.select { $remote($0.title) }.limit(1)
      ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
      """
    }
  }

  /// A struct's static values declared in an extension (also of a struct nested in an enum),
  /// made with `Self(…)`, are Swift's values wherever they are read.
  func testStaticValuesOfAStructDeclaredInItsExtension() throws {
    assertInlineSnapshot(
      of: try run(
        #"""
        enum Catalog { struct Pick { var title: String; var limit: Int } }
        extension Catalog.Pick { static let groceries = Self(title: "Buy groceries", limit: 2) }
        struct Plain { var id: Int }
        extension Plain { static let first = Plain(id: 1) }
        Reminder.where { $0.title.eq(Catalog.Pick.groceries.title) || $0.id.eq(Plain.first.id) }.select(\.title).limit(Catalog.Pick.groceries.limit)
        """#), as: .lines
    ) {
      """
      SELECT "reminders"."title"
      FROM "reminders"
      WHERE ((("reminders"."title") = ('Buy groceries')) OR (("reminders"."id") = (1)))
      LIMIT 2
      ┌───────────────┐
      │ title         │
      ├───────────────┤
      │ Buy groceries │
      └───────────────┘
      """
    }
  }

  func testSwiftOnKnownValuesInsideQueries() throws {
    assertInlineSnapshot(
      of: try run(
        #"""
        let ids = [4, 1, 2, 3]
        let columns = ["title", "notes"]
        Reminder.where { $0.id.in(ids.dropFirst().map { $0 * 2 }) }.select { _ in #sql("\(raw: columns.map { "\"\($0)\"" }.joined(separator: ", "))") }
        Reminder.where { $0.title.like(["B", "y"].reduce("") { $0 + $1 + "%" }) }.select(\.title)
        Reminder.select { ($0.title, Case($0.priority).when(.high, then: "urgent").when(.low, then: "later").else("-")) }.limit(3)
        """#), as: .lines
    ) {
      """
      SELECT "title", "notes"
      FROM "reminders"
      WHERE (("reminders"."id") IN ((2), (4), (6)))
      ┌──────────────────────┬────────────────────┐
      │ title                │ notes              │
      ├──────────────────────┼────────────────────┤
      │ Fix the leaking tap  │                    │
      │ Archive old invoices │                    │
      │ Plant seedlings      │ Tomatoes and basil │
      └──────────────────────┴────────────────────┘
      SELECT "reminders"."title"
      FROM "reminders"
      WHERE (("reminders"."title" LIKE 'B%y%'))
      ┌────────────────────┐
      │ title              │
      ├────────────────────┤
      │ Buy groceries      │
      │ Book train to Lyon │
      └────────────────────┘
      SELECT "reminders"."title", CASE "reminders"."priority" WHEN 3 THEN 'urgent' WHEN 1 THEN 'later' ELSE '-' END
      FROM "reminders"
      LIMIT 3
      ┌─────────────────────┬──────────────────────────────────────────────────────────────┐
      │ title               │ CASE "reminders"."priority" WHEN 3 THEN 'urgent' WHEN 1 THE… │
      ├─────────────────────┼──────────────────────────────────────────────────────────────┤
      │ Buy groceries       │ -                                                            │
      │ Fix the leaking tap │ -                                                            │
      │ Call the accountant │ urgent                                                       │
      └─────────────────────┴──────────────────────────────────────────────────────────────┘
      """
    }
  }

  func testReorderingWithAReducedCase() throws {
    assertInlineSnapshot(
      of: try run(
        #"""
        let ids = [3, 1, 2]
        RemindersList
          .where { $0.id.in(ids) }
          .update {
            let ids = Array(ids.enumerated())
            let (first, rest) = (ids.first!, ids.dropFirst())
            $0.position = rest
              .reduce(Case($0.id).when(first.element, then: first.offset)) { cases, id in
                cases.when(id.element, then: id.offset)
              }
              .else($0.position)
          }
          .returning { ($0.id, $0.position) }
        """#), as: .lines
    ) {
      """
      UPDATE "remindersLists"
      SET "position" = CASE "remindersLists"."id" WHEN 3 THEN 0 WHEN 1 THEN 1 WHEN 2 THEN 2 ELSE "remindersLists"."position" END
      WHERE (("remindersLists"."id") IN ((3), (1), (2)))
      RETURNING "id", "position"
      ┌────┬──────────┐
      │ id │ position │
      ├────┼──────────┤
      │ 1  │ 1        │
      │ 2  │ 2        │
      │ 3  │ 0        │
      └────┴──────────┘
      """
    }
  }

  func testSetUpCodeRunsItsSQLAndSkipsThePlumbing() throws {
    assertInlineSnapshot(
      of: try run(
        #"""
        func appDatabase() throws -> any DatabaseWriter {
          var configuration = Configuration()
          configuration.foreignKeysEnabled = true
          configuration.prepareDatabase { db in
            db.add(function: $exclaim)
          }
          let database = try DatabaseQueue(configuration: configuration)
          var migrator = DatabaseMigrator()
          #if DEBUG
            migrator.eraseDatabaseOnSchemaChange = true
          #endif
          migrator.registerMigration("Create notes") { db in
            try #sql("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)").execute(db)
          }
          try migrator.migrate(database)
          return database
        }
        prepareDependencies { $0.defaultDatabase = try! appDatabase() }
        let observation = ValueObservation.tracking { db in try Tag.fetchAll(db) }
        let offsets = IndexSet(integer: 1)
        #sql("SELECT count(*) FROM notes", as: Int.self)
        """#), as: .lines
    ) {
      """
      CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)
      ran appDatabase()'s migrations and set-up as the app does at launch (1 statement)
      appDatabase() already ran as the app's set-up when it was read; not run again
      SELECT count(*) FROM notes
      ┌──────────┐
      │ count(*) │
      ├──────────┤
      │ 0        │
      └──────────┘
      skipped app code with no SQL to run: configuration.foreignKeysEnabled = true (3:3), db.add(function: $exclaim) (5:5), migrator.eraseDatabaseOnSchemaChange = … (10:5), try migrator.migrate(database) (15:3), let observation (19:5), let offsets (20:5)
      """
    }
  }

  func testAWholeViewFileGivesEveryFetchEvenWhenOneFails() throws {
    assertInlineSnapshot(
      of: try run(
        #"""
        import SQLiteData
        import SwiftUI

        struct RemindersView: View {
          @FetchAll(Reminder.where(\.isFlagged).order(by: \.title)) var flagged
          @FetchAll(Remindr.all) var misspelt
          @FetchOne(Reminder.count()) var count = 0
          @FetchOne var firstList: RemindersList?
          @Fetch(Totals(limit: 1)) var totals = Totals.Value()
          @State var isEditing = false

          var body: some View {
            List(flagged) { Text($0.title) }
          }

          struct Totals: FetchKeyRequest {
            var limit = 3
            func fetch(_ db: Database) throws -> Value {
              let lists = try RemindersList.order(by: \.title).limit(limit).fetchAll(db)
              return Value(lists: lists)
            }
            struct Value { var lists: [RemindersList] = [] }
          }
        }

        #Preview {
          RemindersView()
        }
        """#), as: .lines
    ) {
      """
      SELECT "reminders"."id", "reminders"."assignedUserID", "reminders"."dueDate", "reminders"."isCompleted", "reminders"."isFlagged", "reminders"."notes", "reminders"."priority", "reminders"."remindersListID", "reminders"."title", "reminders"."updatedAt"
      FROM "reminders"
      WHERE ("reminders"."isFlagged")
      ORDER BY "reminders"."title"
      ┌────┬────────────────┬─────────────────────────┬─────────────┬───────────┬─────────────────────────────────┬──────────┬─────────────────┬──────────────────────────┬─────────────────────────┐
      │ id │ assignedUserID │ dueDate                 │ isCompleted │ isFlagged │ notes                           │ priority │ remindersListID │ title                    │ updatedAt               │
      ├────┼────────────────┼─────────────────────────┼─────────────┼───────────┼─────────────────────────────────┼──────────┼─────────────────┼──────────────────────────┼─────────────────────────┤
      │ 1  │ 1              │ 2026-03-02 00:00:00.000 │ false       │ true      │ Oat milk, rye bread, lemons     │ .medium  │ 1               │ Buy groceries            │ 2026-02-27 09:15:00.000 │
      │ 7  │ 1              │ NULL                    │ false       │ true      │                                 │ NULL     │ 3               │ Order compost            │ 2026-02-14 12:00:00.000 │
      │ 5  │ 3              │ 2026-02-25 00:00:00.000 │ true        │ true      │ Slides are in the shared folder │ .high    │ 2               │ Prepare quarterly review │ 2026-02-25 17:30:00.000 │
      └────┴────────────────┴─────────────────────────┴─────────────┴───────────┴─────────────────────────────────┴──────────┴─────────────────┴──────────────────────────┴─────────────────────────┘
      error: 6:13: unknown table or type 'Remindr'; did you mean 'Reminder'?
        @FetchAll(Remindr.all) var misspelt
                  ^~~~~~~
      SELECT count(*)
      FROM "reminders"
      ┌──────────┐
      │ count(*) │
      ├──────────┤
      │ 12       │
      └──────────┘
      SELECT "remindersLists"."id", "remindersLists"."color", "remindersLists"."title", "remindersLists"."position"
      FROM "remindersLists"
      LIMIT 1
      ┌────┬─────────┬───────┬──────────┐
      │ id │ color   │ title │ position │
      ├────┼─────────┼───────┼──────────┤
      │ 1  │ 4889071 │ Home  │ 0        │
      └────┴─────────┴───────┴──────────┘
      SELECT "remindersLists"."id", "remindersLists"."color", "remindersLists"."title", "remindersLists"."position"
      FROM "remindersLists"
      ORDER BY "remindersLists"."title"
      LIMIT 1
      ┌────┬──────────┬────────┬──────────┐
      │ id │ color    │ title  │ position │
      ├────┼──────────┼────────┼──────────┤
      │ 3  │ 11689427 │ Garden │ 2        │
      └────┴──────────┴────────┴──────────┘
      skipped app code with no SQL to run: #Preview (26:1)
      """
    }
  }

  func testASwitchOverAKnownValuePicksItsBranch() throws {
    assertInlineSnapshot(
      of: try run(
        #"""
        enum Filter { case all, flagged, completed }
        let filter = Filter.completed
        Reminder.where {
          switch filter {
          case .all: true
          case .flagged: $0.isFlagged
          case .completed: $0.isCompleted
          }
        }.select(\.title)
        Reminder.where { switch $0.priority { case .high: true; default: false } }
        """#), as: .lines
    ) {
      """
      SELECT "reminders"."title"
      FROM "reminders"
      WHERE ("reminders"."isCompleted")
      ┌──────────────────────────┐
      │ title                    │
      ├──────────────────────────┤
      │ Fix the leaking tap      │
      │ Prepare quarterly review │
      │ Mow the lawn             │
      │ Pay electricity bill     │
      └──────────────────────────┘
      error: 10:25: a 'switch' here needs a value known before the query runs; to choose by a column's value use Case(…).when(…, then: …)
      Reminder.where { switch $0.priority { case .high: true; default: false } }
                              ^~~~~~~~~~~
      """
    }
  }

  func testIfLetOnAKnownOptional() throws {
    assertInlineSnapshot(
      of: try run(
        #"""
        let monthsAgo: Int? = 2
        let listID: Int? = nil
        Reminder
          .where { if let monthsAgo { #sql("\($0.dueDate) < date('2026-06-01', '-\(raw: monthsAgo) months')") } }
          .where { if let listID { $0.remindersListID.eq(listID) } }
          .count()
        """#), as: .lines
    ) {
      """
      SELECT count(*)
      FROM "reminders"
      WHERE ("reminders"."dueDate" < date('2026-06-01', '-2 months'))
      ┌──────────┐
      │ count(*) │
      ├──────────┤
      │ 6        │
      └──────────┘
      """
    }
  }

  func testATouchOfAColumnInAGroup() throws {
    assertInlineSnapshot(
      of: try run(
        #"""
        @Selection struct Stamps { var createdAt: Date; var updatedAt: Date? }
        @Table struct Note { let id: Int; var body = ""; var stamps: Stamps }
        #sql("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL, createdAt TEXT NOT NULL, updatedAt TEXT)")
        Note.createTemporaryTrigger("touch_notes", after: .update(touch: \.stamps.updatedAt, date: #sql("'2031-01-01'")))
        Note.insert { Note.Draft(body: "a", stamps: Stamps(createdAt: Date(timeIntervalSince1970: 0))) }
        Note.update { $0.body = "b" }
        Note.select { ($0.body, $0.stamps.updatedAt) }
        """#), as: .lines
    ) {
      """
      CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL, createdAt TEXT NOT NULL, updatedAt TEXT)
      CREATE TEMPORARY TRIGGER
        "touch_notes"
      AFTER UPDATE ON "notes"
      FOR EACH ROW BEGIN
        UPDATE "notes"
        SET "updatedAt" = '2031-01-01'
        WHERE (("notes"."rowid") = ("new"."rowid"));
      END
      INSERT INTO "notes"
      ("id", "body", "createdAt", "updatedAt")
      VALUES
      (NULL, 'a', '1970-01-01 00:00:00.000', NULL)
      UPDATE "notes"
      SET "body" = 'b'
      SELECT "notes"."body", "notes"."updatedAt"
      FROM "notes"
      ┌──────┬────────────┐
      │ body │ updatedAt  │
      ├──────┼────────────┤
      │ b    │ 2031-01-01 │
      └──────┴────────────┘
      """
    }
  }

  func testABareClauseIsNotACommand() throws {
    assertInlineSnapshot(of: try run(".where { $0.isCompleted }"), as: .lines) {
      """
      error: 1:1: '.where' continues a query, but nothing comes before it: a query starts from a table, e.g. RemindersList.where { … }
      .where { $0.isCompleted }
      ^~~~~~~~~~~~~~~~~~~~~~~~~
      """
    }
  }
}
