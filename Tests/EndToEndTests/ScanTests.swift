import Foundation
import XCTest

/// `quarry scan` on a small app of our own (Tests/ScanApp: models, migrations with and without
/// indexes, a failing seed, a view model with `@FetchAll`, an N+1 loop, a raw splice, a
/// silenced finding), through the real binary.
final class ScanTests: XCTestCase {
  static let app = QuarryProcess.packageRoot.appendingPathComponent("Tests/ScanApp").path

  /// The report without its timing (the last number of the summary line).
  func report(_ arguments: [String]) throws -> (status: Int32, text: String) {
    let result = try QuarryProcess.run(["scan"] + arguments)
    let text = result.stdout.replacingOccurrences(of: #" · [0-9.]+ s\n"#, with: "\n", options: .regularExpression)
    return (result.status, text.replacingOccurrences(of: QuarryProcess.packageRoot.path + "/", with: ""))
  }

  /// `quarry scan` of an app made of these files (path in the app → source) in a new folder,
  /// removed afterwards: standard output, with the folder left out of the paths it names.
  func scanApp(_ files: [String: String], arguments: [String] = []) throws -> String {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-scan-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    for (path, source) in files {
      let file = folder.appendingPathComponent(path)
      try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(source.utf8).write(to: file)
    }
    let result = try QuarryProcess.run(["scan", folder.path] + arguments)
    return result.stdout.replacingOccurrences(of: folder.path + "/", with: "")
  }

  /// The same, as its JSON lines: one object per entry, then the summary.
  func scanAppJSON(_ files: [String: String]) throws -> [[String: Any]] {
    try scanApp(files, arguments: ["--format", "json"]).split(separator: "\n").map { line in
      try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }
  }

  func testReportOfTheFixtureApp() throws {
    let result = try report([Self.app])
    XCTAssertEqual(result.status, 0)
    XCTAssertEqual(result.text, Self.expected + "\n")
  }

  /// Malformed Swift and a file that is not UTF-8: each a located error; the rest is scanned.
  func testBrokenFilesAreLocatedAndTheRestGoesOn() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-scan-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    for name in ["Models.swift", "Schema.swift", "ListsModel.swift"] {
      try FileManager.default.copyItem(atPath: Self.app + "/" + name, toPath: folder.appendingPathComponent(name).path)
    }
    try Data(
      """
      extension Reminder {
        static let flagged = Self.where { $0.priority.eq(3) }
      }

      func broken( {
        Reminder.all
      """.utf8
    ).write(to: folder.appendingPathComponent("Broken.swift"))
    try Data([0x2F, 0x2F, 0x20, 0x63, 0x61, 0x66, 0xE9, 0x0A] + Array("let x = Tag.all\n".utf8))
      .write(to: folder.appendingPathComponent("Latin1.swift"))
    // StructuredQueriesSQLite's style: the database is handed the statement to run.
    try Data(
      """
      extension Reminder {
        static func urgent(_ database: StructuredQueriesSQLite.Database) throws -> [Reminder] {
          try database.execute(Reminder.where { $0.priority.eq(3) }.order(by: \\.title))
        }
      }
      """.utf8
    ).write(to: folder.appendingPathComponent("Handed.swift"))
    // A chain no bracket nests, too deep to walk (it ended the scan on a stack overflow).
    try Data(
      ("func deep(db: Database) throws {\n  _ = try Reminder" + String(repeating: ".limit(1)", count: 60_000)
        + ".fetchAll(db)\n}\n").utf8
    ).write(to: folder.appendingPathComponent("Deep.swift"))
    let result = try QuarryProcess.run(["scan", folder.path, "--format", "json"])
    XCTAssertEqual(result.status, 0, result.stderr)
    let objects = try result.stdout.split(separator: "\n").map { line in
      try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }
    func located(_ object: [String: Any]) -> String {
      let file = (object["file"] as? String).map { URL(fileURLWithPath: $0).lastPathComponent } ?? "?"
      return "\(file):\(object["line"] ?? "?"):\(object["column"] ?? "?")"
    }
    let errors = objects.filter { $0["error"] is String }.map { located($0) + " " + ($0["error"] as? String ?? "") }
    XCTAssertEqual(
      errors,
      [
        "Broken.swift:5:14 syntax error: expected ')' to end function parameter clause; the '(' at 5:12 is not closed (this declaration is left out of the scan)",
        "Deep.swift:2:3 this expression nests more than 2000 levels deep (this file is left out of the scan)",
        "Latin1.swift:1:7 this file is not UTF-8 (byte 0xE9 at offset 6); Swift sources are UTF-8: convert it (iconv -t UTF-8), the rest of the scan goes on without it",
        "Schema.swift:57:5 SQLite error 787: FOREIGN KEY constraint failed (GRDB rolls back migration 'Seed' whole; the scan goes on with the schema before it)",
      ])
    // The good part of the broken file is scanned, with every field a tool reads.
    let flagged = try XCTUnwrap(objects.first { ($0["source"] as? String)?.contains("priority.eq(3)") == true })
    XCTAssertEqual(located(flagged), "Broken.swift:2:24")
    // The SQL the app prepares is on one line (StructuredQueries breaks lines only in its tests).
    XCTAssertEqual(
      flagged["sql"] as? String,
      """
      SELECT "reminders"."id", "reminders"."title", "reminders"."isCompleted", "reminders"."priority", "reminders"."remindersListID" \
      FROM "reminders" WHERE (("reminders"."priority") = (?))
      """)
    XCTAssertEqual(
      flagged["prettySQL"] as? String,
      """
      SELECT "reminders"."id", "reminders"."title", "reminders"."isCompleted", "reminders"."priority", "reminders"."remindersListID"
      FROM "reminders"
      WHERE (("reminders"."priority") = (?))
      """)
    XCTAssertEqual(flagged["bindings"] as? [String], ["3"])
    XCTAssertEqual(flagged["plan"] as? [String], ["SCAN reminders"])
    XCTAssertEqual(
      (flagged["findings"] as? [[String: Any]])?.compactMap { $0["fix"] as? String },
      [
        #"CREATE INDEX "idx_reminders_priority" ON "reminders"("priority")"#
      ])
    let handed = try XCTUnwrap(objects.first { ($0["file"] as? String)?.hasSuffix("Handed.swift") == true })
    XCTAssertEqual(located(handed), "Handed.swift:3:26")
    XCTAssertEqual(
      handed["sql"] as? String,
      """
      SELECT "reminders"."id", "reminders"."title", "reminders"."isCompleted", "reminders"."priority", "reminders"."remindersListID" \
      FROM "reminders" WHERE (("reminders"."priority") = (?)) ORDER BY "reminders"."title"
      """)
    let summary = try XCTUnwrap(objects.last?["summary"] as? [String: Any])
    XCTAssertEqual(summary["files"] as? Int, 5)
    XCTAssertEqual(summary["errors"] as? Int, 4)
  }

  /// Values the app builds are followed as Swift builds them: a `let` draft before its insert
  /// is that draft (no id: `NULL`), a draft the app holds is two variants (a new row's id is nil,
  /// an edited row's is set), a namespace's `static let` of drafts is every row, and a seed that
  /// binds what the app has only when it runs (`String(localized:)`) is listed, not run.
  func testValuesTheAppBuildsAreFollowed() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-scan-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    for name in ["Models.swift", "Schema.swift"] {
      try FileManager.default.copyItem(atPath: Self.app + "/" + name, toPath: folder.appendingPathComponent(name).path)
    }
    try Data(
      """
      import SQLiteData

      enum Seeds {
        static let tags: [Tag.Draft] = [Tag.Draft(title: "home"), Tag.Draft(title: "work")]
      }

      func seedMore(_ db: Database) throws {
        try Tag.insert { Seeds.tags }.execute(db)
        try Tag.insert { Tag.Draft(title: String(localized: "Errands")) }.execute(db)
      }

      @Observable final class TagsModel {
        var newTag = Tag.Draft()
        @ObservationIgnored @Dependency(\\.defaultDatabase) var database

        func save() throws {
          try database.write { db in
            try Tag.insert { newTag }.execute(db)
          }
        }

        var pending: [Tag.Draft] = []
        var selectedIDs = Set<Int>()

        func deleteSelected() throws {
          try database.write { db in
            try Tag.where { selectedIDs.contains($0.id) }.delete().execute(db)
            let titles = try Tag.where { $0.id.eq(1) }.fetchAll(db).map { $0.title }
            try Tag.where { titles.contains($0.title) }.delete().execute(db)
          }
        }

        func saveAll() throws {
          try database.write { db in
            for draft in pending {
              try Tag.insert { draft }.execute(db)
            }
          }
        }

        func add(title: String, listID: RemindersList.ID) throws {
          try database.write { db in
            let reminder = Reminder.Draft(title: title, remindersListID: listID)
            try Reminder.upsert { reminder }.execute(db)
          }
        }
      }

      func extraSetUp() throws -> any DatabaseWriter {
        let database = try DatabaseQueue()
        var migrator = DatabaseMigrator()
        migrator.registerMigration("More tags") { db in
          try seedMore(db)
        }
        try migrator.migrate(database)
        return database
      }
      """.utf8
    ).write(to: folder.appendingPathComponent("Tags.swift"))
    let result = try QuarryProcess.run(["scan", folder.path, "--format", "json"])
    let objects = try result.stdout.split(separator: "\n").map { line in
      try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }
    let tags = objects.filter { ($0["file"] as? String)?.hasSuffix("Tags.swift") == true }
    func entry(_ source: String, variant: String? = nil) -> [String: Any]? {
      tags.first { ($0["source"] as? String)?.contains(source) == true && (variant == nil || $0["variant"] as? String == variant) }
    }
    XCTAssertEqual(tags.compactMap { $0["error"] as? String }, [])
    XCTAssertEqual(entry("Seeds.tags")?["sql"] as? String, #"INSERT INTO "tags" ("id", "title") VALUES (NULL, ?), (NULL, ?)"#)
    XCTAssertEqual(entry("Seeds.tags")?["bindings"] as? [String], ["'home'", "'work'"])
    XCTAssertEqual(
      entry("Errands")?["notRun"] as? String, #"it binds values the app has only when it runs (String(localized: "Errands"))"#)
    // Its SQL is shown (it counts as rendered): only running it waits for the app.
    XCTAssertEqual(entry("Errands")?["skipped"] as? String, nil)
    XCTAssertEqual(
      entry("insert { newTag }", variant: "newTag.id is nil")?["sql"] as? String, #"INSERT INTO "tags" ("id", "title") VALUES (NULL, ?)"#)
    XCTAssertEqual(
      entry("insert { newTag }", variant: "newTag.id is set")?["sql"] as? String, #"INSERT INTO "tags" ("id", "title") VALUES (?, ?)"#)
    XCTAssertEqual(
      entry("insert { draft }", variant: "draft.id is nil")?["sql"] as? String, #"INSERT INTO "tags" ("id", "title") VALUES (NULL, ?)"#)
    // `ids.contains($0.id)` on a collection the app holds: the library's Sequence.contains (IN).
    XCTAssertEqual(entry("selectedIDs.contains")?["sql"] as? String, #"DELETE FROM "tags" WHERE (("tags"."id") IN ((?)))"#)
    XCTAssertEqual(entry("titles.contains")?["sql"] as? String, #"DELETE FROM "tags" WHERE (("tags"."title") IN ((?)))"#)
    XCTAssertEqual(entry("upsert { reminder }")?["variant"] as? String, nil)
    XCTAssertEqual(
      entry("upsert { reminder }")?["sql"] as? String,
      #"INSERT INTO "reminders" ("id", "title", "isCompleted", "priority", "remindersListID") VALUES (NULL, ?, ?, NULL, ?) ON CONFLICT ("id") DO UPDATE SET "title" = "excluded"."title", "isCompleted" = "excluded"."isCompleted", "priority" = "excluded"."priority", "remindersListID" = "excluded"."remindersListID""#
    )
  }

  /// Findings that are right where they stand: writes in a loop get the advice for writes; a
  /// `\(raw:)` splice is told apart by where it stands (a value, a name, inside an SQL string;
  /// none in a schema statement, which takes no bound values); a foreign key without an index is
  /// placed at the statement that declares it, once; and no index is proposed that the plan would
  /// not take (the outer table of a LEFT JOIN is read whole either way).
  func testFindingsAreRightAndWhereTheyBelong() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-scan-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data(
      #"""
      import SQLiteData

      @Table struct Owner { let id: Int; var name = "" }
      @Table struct Pet { let id: Int; var name = ""; var ownerID: Int; var vetID: Int? }

      func appDatabase() throws -> any DatabaseWriter {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
          try #sql("CREATE TABLE \"\(raw: Owner.tableName)\" (id INTEGER PRIMARY KEY, name TEXT NOT NULL DEFAULT '')").execute(db)
          try #sql("CREATE TABLE pets (id INTEGER PRIMARY KEY, name TEXT NOT NULL DEFAULT \(raw: "''"), ownerID INTEGER NOT NULL REFERENCES owners(id))").execute(db)
        }
        migrator.registerMigration("v2") { db in
          try #sql("ALTER TABLE pets ADD COLUMN vetID INTEGER REFERENCES owners(id)").execute(db)
        }
        try migrator.migrate(database)
        return database
      }

      func rename(_ names: [String], db: Database, days: Int, table: String) throws {
        for owner in try Owner.fetchAll(db) {
          try Pet.insert { Pet.Draft(name: owner.name, ownerID: owner.id) }.execute(db)
        }
        _ = try Pet.leftJoin(Owner.all) { $0.ownerID.eq($1.id) }.select { ($0.name, $1.name) }.fetchAll(db)
        _ = try #sql("SELECT name FROM pets WHERE name > date('now', '-\(raw: days) days')", as: String.self).fetchAll(db)
        _ = try #sql("SELECT count(*) FROM \(raw: table)", as: Int.self).fetchOne(db)
        _ = try Kennel.named("Rex").fetchAll(db)
      }

      enum Kennel {
        static func named(_ name: String) -> Where<Pet> { Pet.where { $0.name.eq(name) } }
      }
      """#.utf8
    ).write(to: folder.appendingPathComponent("App.swift"))
    let result = try QuarryProcess.run(["scan", folder.path, "--format", "json"])
    let objects = try result.stdout.split(separator: "\n").map { line in
      try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }
    func findings(_ object: [String: Any]) -> [String] {
      ((object["findings"] as? [[String: Any]]) ?? []).map {
        "\($0["id"] ?? "?"): \($0["message"] ?? "")" + (($0["fix"] as? String).map { " | " + $0 } ?? "")
      }
    }
    let found = objects.filter { !findings($0).isEmpty }.map { "\($0["line"] ?? "?"): " + findings($0).joined(separator: " / ") }
    // A query a namespace of the app holds is listed where the app runs it.
    let kennel = try XCTUnwrap(objects.first { ($0["source"] as? String) == #"Kennel.named("Rex")"# })
    XCTAssertEqual(
      kennel["sql"] as? String,
      #"SELECT "pets"."id", "pets"."name", "pets"."ownerID", "pets"."vetID" FROM "pets" WHERE (("pets"."name") = (?))"#)
    XCTAssertEqual(kennel["executedBy"] as? String, "fetchAll")
    XCTAssertEqual(
      found,
      [
        #"10: unindexed-foreign-key: "pets"."ownerID" references "owners" and has no index: each delete of a "owners" row scans "pets" for its children | CREATE INDEX "idx_pets_ownerID" ON "pets"("ownerID")"#,
        #"13: unindexed-foreign-key: "pets"."vetID" references "owners" and has no index: each delete of a "owners" row scans "pets" for its children | CREATE INDEX "idx_pets_vetID" ON "pets"("vetID")"#,
        // The loop is in a function handed the database: its caller's `write` holds it whole.
        #"21: query-in-loop: runs once for each element of the loop at 20:3 (one statement per row): write them in one statement (an insert takes many rows, `.where { $0.….in(ids) }` updates or deletes them together)"#,
        #"24: raw-splice: `\(raw: days)` at 24:68 splices a value inside an SQL string literal (a `?` there would be text, not a value): build the whole string in Swift and bind it, `date('now', \("-\(n) months"))`"#,
        #"25: raw-splice: `\(raw: table)` at 25:40 splices a name into the SQL text (a name cannot be bound): interpolate the table or column itself (`\(Reminder.self)`, `\($0.title)`), which StructuredQueries writes quoted, or quote it"#,
        #"26: full-scan: SQLite reads every row of "pets" to find those matching "name" (SCAN pets); an index on it lets SQLite go straight to them | CREATE INDEX "idx_pets_name" ON "pets"("name")"#,
        #"30: full-scan: SQLite reads every row of "pets" to find those matching "name" (SCAN pets); an index on it lets SQLite go straight to them | CREATE INDEX "idx_pets_name" ON "pets"("name")"#,
      ], result.stdout)
  }

  /// A finding is listed once where it arises, and names what the app declares: a loop is over
  /// fetched rows only when the name it reads is, as Swift looks it up (a parameter is not another
  /// type's `@FetchAll` of the same name); a loop a `write` holds whole is not told to take one;
  /// one query's variants share their findings; a table the SQL names by an alias (`pets p`) gets
  /// the index, a common table expression none; an index is proposed only when the plan with it
  /// reads fewer whole tables (a join with no filter reads one whole either way).
  func testFindingsOnceAndOnWhatTheAppDeclares() throws {
    let source = #"""
      import SQLiteData
      import CoreLocation

      @Table struct Owner { let id: Int; var name = "" }
      @Table struct Pet { let id: Int; var name = ""; var ownerID: Int; var age = 0 }

      func appDatabase() throws -> any DatabaseWriter {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
          try #sql("CREATE TABLE owners (id INTEGER PRIMARY KEY, name TEXT NOT NULL DEFAULT '')").execute(db)
          try #sql("CREATE TABLE pets (id INTEGER PRIMARY KEY, name TEXT NOT NULL DEFAULT '', ownerID INTEGER NOT NULL, age INTEGER NOT NULL DEFAULT 0)").execute(db)
          try #sql("CREATE INDEX pets_ownerID ON pets(ownerID)").execute(db)
        }
        try migrator.migrate(database)
        return database
      }

      struct PetsView {
        @FetchAll var pets: [Pet]
      }

      final class Tracker {
        @Dependency(\.defaultDatabase) var database
        func locationManager(_ manager: CLLocationManager, didUpdate pets: [CLLocation]) {
          for location in pets {
            try? database.write { db in try Pet.insert { Pet.Draft(name: "\(location)", ownerID: 1) }.execute(db) }
          }
        }
        func birthday(onlyNamed: Bool) throws {
          try database.write { db in
            for pet in try Pet.fetchAll(db) {
              try Pet.where { $0.id.eq(pet.id) }.where { if onlyNamed { $0.name.neq("") } }.update { $0.age += 1 }.execute(db)
            }
          }
        }
        func rename() throws {
          let owners = try database.read { db in try Owner.fetchAll(db) }
          for owner in owners {
            try database.write { db in try Owner.where { $0.id.eq(owner.id) }.update { $0.name = "x" }.execute(db) }
          }
        }
        func names(_ db: Database, ids: [Int]) throws {
          _ = try #sql("SELECT p.name FROM pets p JOIN owners AS o ON o.name = p.name", as: String.self).fetchAll(db)
          _ = try #sql("SELECT p.name FROM pets p WHERE p.name = 'Rex'", as: String.self).fetchAll(db)
          _ = try Pet.where { $0.id.in(ids) }.fetchAll(db)
          _ = try #sql("WITH counted AS (SELECT ownerID, count(*) AS n FROM pets GROUP BY ownerID) SELECT o.name, c.n FROM owners o JOIN counted c ON c.ownerID = o.id", as: (String, Int).self).fetchAll(db)
        }
      }
      """#
    let objects = try scanAppJSON(["App.swift": source])
    let found = objects.flatMap { object in
      ((object["findings"] as? [[String: Any]]) ?? []).map {
        "\(object["line"] ?? "?"): \($0["id"] ?? "?"): \($0["message"] ?? "")" + (($0["fix"] as? String).map { " | " + $0 } ?? "")
      }
    }
    XCTAssertEqual(
      found,
      [
        #"32: query-in-loop: runs once for each element of the loop at 31:7 (one statement per row): write them in one statement (an insert takes many rows, `.where { $0.….in(ids) }` updates or deletes them together)"#,
        #"39: query-in-loop: runs once for each element of the loop at 38:5 (one statement per row): write them in one statement (an insert takes many rows, `.where { $0.….in(ids) }` updates or deletes them together), or at least run the loop inside one `database.write { … }` (one transaction, not one per row)"#,
        #"43: automatic-index: SQLite builds a temporary index on "owners"."name" each time this query runs (SEARCH o USING AUTOMATIC COVERING INDEX (name=?)): the table has no index on that column | CREATE INDEX "idx_owners_name" ON "owners"("name")"#,
        #"44: full-scan: SQLite reads every row of "pets" to find those matching "name" (SCAN p); an index on it lets SQLite go straight to them | CREATE INDEX "idx_pets_name" ON "pets"("name")"#,
      ], "\(objects)")
    // A run-time list in `in(_:)`: one `(?)` per element in the app, shown for one, and said so.
    XCTAssertEqual(
      objects.first { ($0["source"] as? String)?.hasPrefix("Pet.where { $0.id.in(ids) }") == true }?["variant"] as? String,
      "ids has one element")
    // Both variants of line 32 are listed; the finding, once.
    XCTAssertEqual(objects.filter { $0["line"] as? Int == 32 }.count, 2)
  }

  /// Several apps in one folder and no Xcode project (a repository of demos generated with
  /// XcodeGen): each `@main` app in its own folder is its own module, so two apps that each
  /// declare a `Session` table with other columns are each read with their own; a folder no app
  /// holds (a shared package) is read by both, and reported once.
  func testAppsInOneFolderWithoutAProjectAreEachTheirOwnModule() throws {
    func database(_ columns: String) -> String {
      """
      func appDatabase() throws -> any DatabaseWriter {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
          try db.execute(sql: "CREATE TABLE sessions (id TEXT PRIMARY KEY NOT NULL, \(columns))")
        }
        try migrator.migrate(database)
        return database
      }
      """
    }
    let objects = try scanAppJSON([
      "Logger/LoggerApp.swift": "import SQLiteData\n@main struct LoggerApp: App { var body: some Scene { WindowGroup {} } }\n"
        + "@Table struct Session { let id: UUID; var startedAt: Date }\n" + database("startedAt TEXT NOT NULL")
        + "\nfunc latest(_ db: Database) throws -> [Session] { try Session.order { $0.startedAt.desc() }.fetchAll(db) }\n",
      "Viewer/ViewerApp.swift": "import SQLiteData\n@main\nstruct ViewerApp: App { var body: some Scene { WindowGroup {} } }\n"
        + "@Table struct Session { let id: UUID; var isOnTrain: Bool }\n" + database("isOnTrain INTEGER NOT NULL")
        + "\nfunc onTrain(_ db: Database) throws -> [Session] { try Session.where(\\.isOnTrain).fetchAll(db) }\n",
      "Shared/Dates.swift": "import Foundation\nextension Date { var day: Int { 1 } }\n",
    ])
    let queries = objects.filter { ($0["source"] as? String)?.hasPrefix("Session.") == true }
    XCTAssertEqual(
      queries.compactMap { $0["sql"] as? String },
      [
        #"SELECT "sessions"."id", "sessions"."startedAt" FROM "sessions" ORDER BY "sessions"."startedAt" DESC"#,
        #"SELECT "sessions"."id", "sessions"."isOnTrain" FROM "sessions" WHERE ("sessions"."isOnTrain")"#,
      ], "\(objects)")
    XCTAssertEqual(queries.compactMap { $0["error"] as? String }, [], "\(objects)")
    let summary = try XCTUnwrap(objects.last?["summary"] as? [String: Any])
    XCTAssertEqual(summary["files"] as? Int, 3)
    XCTAssertEqual(summary["errors"] as? Int, 0, "\(objects)")
  }

  /// A record made by the table's own init from a value of the app's (`ClimbRecord(climb: .fixed)`):
  /// a static the Swift subset computes gives its values to the init's body; one it does not
  /// (`Int.random`) or of a type the scanned files do not declare is a value the app has when it
  /// runs, bound and named by its type (`Climb.mock1.id`).
  func testARecordMadeFromAValueOfTheAppsOwn() throws {
    let source = #"""
      import SQLiteData

      struct Climb { var id: Int; var mountain: String; static let mock1 = Climb(id: Int.random(in: 1...9), mountain: "Rainier"); static let fixed = Climb(id: 7, mountain: "Hood") }

      @Table struct ClimbRecord {
        let id: Int
        var mountain: String
        init(climb: Climb) {
          self.id = climb.id
          self.mountain = climb.mountain
        }
      }
      @Table struct AlarmRecord {
        let id: Int
        init(alarm: ScheduledAlarm) { self.id = alarm.id }
      }
      @Table struct Reminder { var id: UUID = UUID(); var notificationID = "reminder_\(UUID().uuidString)" }

      func appDatabase() throws -> any DatabaseWriter {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
          try db.execute(sql: "CREATE TABLE climbRecords (id INTEGER PRIMARY KEY, mountain TEXT NOT NULL)")
          try db.execute(sql: "CREATE TABLE alarmRecords (id INTEGER PRIMARY KEY)")
          try db.execute(sql: "CREATE TABLE reminders (id TEXT PRIMARY KEY, notificationID TEXT NOT NULL)")
        }
        try migrator.migrate(database)
        return database
      }

      func seed(_ db: Database) throws {
        try ClimbRecord.insert { ClimbRecord(climb: .mock1) }.execute(db)
        try ClimbRecord.insert { ClimbRecord(climb: .fixed) }.execute(db)
        try AlarmRecord.insert { AlarmRecord(alarm: .preview) }.execute(db)
        try Reminder.insert { Reminder() }.execute(db)
        let code = "r_" + UUID().uuidString
        try Reminder.insert { Reminder(id: UUID(), notificationID: code) }.execute(db)
      }
      """#
    let objects = try scanAppJSON(["App.swift": source])
    let inserts = objects.filter { ($0["source"] as? String)?.contains("insert") == true }
    XCTAssertEqual(
      inserts.map {
        "\($0["sql"] as? String ?? "-") | \(($0["bindings"] as? [String] ?? []).joined(separator: ", "))\($0["error"] as? String ?? "")"
      },
      [
        #"INSERT INTO "climbRecords" ("id", "mountain") VALUES (?, ?) | Climb.mock1.id, Climb.mock1.mountain"#,
        #"INSERT INTO "climbRecords" ("id", "mountain") VALUES (?, ?) | 7, 'Hood'"#,
        #"INSERT INTO "alarmRecords" ("id") VALUES (?) | ScheduledAlarm.preview.id"#,
        // Defaults Swift computes for each record: the app's values when it runs, never one made up.
        #"INSERT INTO "reminders" ("id", "notificationID") VALUES (?, ?) | UUID(), "reminder_\(UUID().uuidString)""#,
        // `UUID()` in the app's code is the UUID it makes when it runs: the report is the same each time.
        #"INSERT INTO "reminders" ("id", "notificationID") VALUES (?, ?) | UUID(), code"#,
      ], "\(objects)")
    func report() throws -> String {
      try scanApp(["App.swift": source]).replacingOccurrences(of: #" · [0-9.]+ s\n"#, with: "\n", options: .regularExpression)
    }
    XCTAssertEqual(try report(), try report())
  }

  /// A table renamed by a later migration keeps the place of the statement that declared its
  /// foreign key: the finding on the renamed table sits at its `CREATE TABLE`.
  func testARenamedTableKeepsWhereItsKeysWereDeclared() throws {
    let text = try scanApp([
      "App.swift": #"""
      import SQLiteData

      func appDatabase() throws -> any DatabaseWriter {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
          try db.execute(sql: "CREATE TABLE pets (id INTEGER PRIMARY KEY)")
          try db.execute(sql: "CREATE TABLE visits (id INTEGER PRIMARY KEY, petID INTEGER REFERENCES pets(id))")
        }
        migrator.registerMigration("v2") { db in
          try db.execute(sql: #"ALTER TABLE "visits" RENAME TO "checkups""#)
        }
        try migrator.migrate(database)
        return database
      }
      """#
    ])
    XCTAssertTrue(
      text.contains(
        #"App.swift:7:5  schema\#n  │ table "checkups"\#n  [unindexed-foreign-key] "checkups"."petID" references "pets""#), text)
  }

  /// A set-up statement that binds a value the app has only when it runs (`Date.now`) is shown
  /// with its SQL (rendered) and not run; SQLite still prepares it against the schema so far, so
  /// one it refuses whatever the value is an error, and its migration is rolled back as GRDB would.
  func testSetUpStatementsThatBindRunTimeValues() throws {
    let text = try scanApp([
      "App.swift": #"""
      import SQLiteData

      @Table struct Tag { let id: Int; var title = ""; var createdAt: Date }
      @Table struct Note { let id: Int; var body = ""; var createdAt: Date }

      func appDatabase() throws -> any DatabaseWriter {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
          try #sql("CREATE TABLE tags (id INTEGER PRIMARY KEY, title TEXT NOT NULL DEFAULT '', createdAt TEXT NOT NULL)").execute(db)
          try #sql("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL DEFAULT '')").execute(db)
          try Tag.insert { Tag.Draft(title: "Home", createdAt: Date.now) }.execute(db)
        }
        migrator.registerMigration("v2") { db in
          try #sql("CREATE TABLE pins (id INTEGER PRIMARY KEY)").execute(db)
          try Note.insert { Note.Draft(body: "Hello", createdAt: Date.now) }.execute(db)
        }
        try migrator.migrate(database)
        return database
      }

      func pins(_ db: Database) throws -> Int { try #sql("SELECT count(*) FROM pins", as: Int.self).fetchOne(db) ?? 0 }
      func add(_ db: Database) throws {
        try Tag.insert { Tag.Draft(title: "Work", createdAt: .now) }.execute(db)
        _ = try Tag.where { $0.createdAt < .now }.fetchAll(db)
      }
      """#
    ])
    XCTAssertTrue(
      text.contains(
        """
            -- ?1 = 'Home', ?2 = Date.now
          not run: it binds values the app has only when it runs (Date.now)

        """), text)
    XCTAssertTrue(
      text.contains(
        """
            -- ?1 = 'Hello', ?2 = Date.now
          error: SQLite: table notes has no column named createdAt (GRDB rolls back migration 'v2' whole; the scan goes on with the schema before it)

        """), text)
    // 'v2' is rolled back: its table is not there for the app's query.
    XCTAssertTrue(text.contains("error: SQLite: no such table: pins"), text)
    XCTAssertTrue(text.contains("8 queries, 6 rendered, 2 errors, 0 skipped"), text)
    // `.now` given to a Draft's `Date` parameter is Foundation's `Date.now`, bound as the app
    // binds it; in a query expression it is StructuredQueries' `.now`, SQLite's clock.
    XCTAssertTrue(text.contains("(NULL, ?, ?)\n    -- ?1 = 'Work', ?2 = Date.now\n"), text)
    XCTAssertTrue(text.contains(#"WHERE (("tags"."createdAt") < (datetime('now', 'subsec')))"#), text)
  }

  /// Reports for the tools a project runs: compiler-style lines (Xcode, in a build phase), GitHub
  /// Actions annotations, SARIF 2.1.0 (validated against the constraints of SARIF's schema on the
  /// objects Quarry writes, `Tests/Scan/sarif-2.1.0-subset.json`), and a baseline: findings it
  /// records are left out, so `--fail-on finding` fails only on a new one.
  func testReportsForCIAndXcode() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quarry scan \(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    for name in ["Models.swift", "Schema.swift", "ListsModel.swift"] {
      try FileManager.default.copyItem(atPath: Self.app + "/" + name, toPath: folder.appendingPathComponent(name).path)
    }
    let xcode = try QuarryProcess.run(["scan", folder.path, "--format", "xcode"])
    let lines = xcode.stdout.split(separator: "\n").map(String.init)
    XCTAssertTrue(lines.count > 1, xcode.stdout)
    for line in lines.dropLast() {
      XCTAssertNotNil(line.firstMatch(of: /^\/.+\.swift:\d+:\d+: (warning|error): .+ \[[a-z-]+\]$/), line)
    }
    XCTAssertTrue(lines.last?.hasPrefix("scan: 3 files") == true, xcode.stdout)
    let github = try QuarryProcess.run(["scan", folder.path, "--format", "github"])
    let annotations = github.stdout.split(separator: "\n").dropLast()
    XCTAssertEqual(annotations.count, lines.count - 1)
    for line in annotations {
      XCTAssertNotNil(line.firstMatch(of: /^::(warning|error) file=[^,]+,line=\d+,col=\d+,title=quarry [a-z-]+::.+$/), String(line))
    }
    let sarif = try QuarryProcess.run(["scan", folder.path, "--format", "sarif"])
    let log = try JSONSerialization.jsonObject(with: Data(sarif.stdout.utf8))
    let schema = try XCTUnwrap(
      JSONSerialization.jsonObject(
        with: Data(contentsOf: QuarryProcess.packageRoot.appendingPathComponent("Tests/Scan/sarif-2.1.0-subset.json"))) as? [String: Any])
    XCTAssertEqual(SchemaCheck(schema: schema).problems(in: log, at: "$"), [])
    let results = try XCTUnwrap(((log as? [String: Any])?["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]])
    XCTAssertEqual(results.count, lines.count - 1)
    let uri = ((results.first?["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any]).flatMap {
      ($0["artifactLocation"] as? [String: Any])?["uri"] as? String
    }
    XCTAssertTrue(uri?.contains("quarry%20scan%20") == true, uri ?? "no uri")
    // A baseline of today's findings: nothing new, so --fail-on finding passes; a new one fails.
    let baseline = folder.appendingPathComponent("baseline.jsonl").path
    XCTAssertEqual(try QuarryProcess.run(["scan", folder.path, "--write-baseline", baseline]).status, 0)
    XCTAssertEqual(try QuarryProcess.run(["scan", folder.path, "--fail-on", "finding"]).status, 1)
    let known = try QuarryProcess.run(["scan", folder.path, "--baseline", baseline, "--fail-on", "finding", "--format", "json"])
    XCTAssertEqual(known.status, 0, known.stdout)
    XCTAssertTrue(known.stdout.contains("(baseline)"), known.stdout)
    try Data("extension Reminder { static let urgent = Self.where { $0.title.eq(\"urgent\") } }\n".utf8)
      .write(to: folder.appendingPathComponent("Urgent.swift"))
    let new = try QuarryProcess.run(["scan", folder.path, "--baseline", baseline, "--fail-on", "finding", "--format", "xcode"])
    XCTAssertEqual(new.status, 1)
    XCTAssertEqual(
      new.stdout.split(separator: "\n").dropLast().map { $0.split(separator: "/").last.map(String.init) ?? "" },
      [
        #"Urgent.swift:1:42: warning: SQLite reads every row of "reminders" to find those matching "title" (SCAN reminders); an index on it lets SQLite go straight to them; fix: CREATE INDEX "idx_reminders_title" ON "reminders"("title") [full-scan]"#
      ])
  }

  /// The app's set-up and names as Swift sees them: migrations registered from a global list of
  /// (name, function) pairs in a loop (`registerMigration(name, migrate: f)`); a file-scope `let`
  /// read by a query (a `private` one only in its own file, shadowed by a nearer name); a
  /// model's static function that builds a record with `self.init(…)`; Swift operators on values
  /// the app has when it runs (`card.date ?? Date()` is one bound value, never the fallback); a
  /// type Quarry does not model built from such a value; the app's own column representation
  /// (a struct conforming to `QueryBindable`) is no error.
  func testSetUpAndNamesAsSwiftSeesThem() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-scan-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data(
      #"""
      import SQLiteData

      let orderedMigrations: [(String, @Sendable (Database) throws -> Void)] = [
        ("create cards", migrate_001),
        ("add index", migrate_002),
      ]

      func migrate_001(db: Database) throws {
        try db.create(table: "cards") { t in
          t.column("id", .text).notNull().primaryKey(onConflict: .replace)
          t.column("name", .text).notNull()
          t.column("addedAt", .datetime).notNull()
        }
      }

      func migrate_002(db: Database) throws {
        try db.create(index: "cards_on_name", on: "cards", columns: ["name"])
      }

      func appDatabase() throws -> any DatabaseWriter {
        let database = try DatabaseQueue()
        var migrator = DatabaseMigrator()
        for (name, migration) in orderedMigrations {
          migrator.registerMigration(name, migrate: migration)
        }
        try migrator.migrate(database)
        return database
      }

      private let pageSize = 2 * 5
      """#.utf8
    ).write(to: folder.appendingPathComponent("Schema.swift"))
    try Data(
      #"""
      import SQLiteData

      private let pageSize = 3

      public struct Stable<Output: Codable>: QueryRepresentable, QueryBindable {
        public var queryOutput: Output
        public var queryBinding: QueryBinding { .null }
      }

      struct Scryfall { var id: String; var name: String?; var date: Date? }

      @Table struct Card: Identifiable {
        let id: String
        var name: String
        var addedAt: Date

        static func from(card: Scryfall) -> Card {
          self.init(id: card.id, name: card.name ?? "none", addedAt: card.date ?? Date())
        }
      }

      func firstPage(_ db: Database) throws -> [Card] {
        try Card.order(by: \.name).limit(pageSize).fetchAll(db)
      }

      func page(_ db: Database, pageSize: Int) throws -> [Card] {
        try Card.order(by: \.name).limit(pageSize).fetchAll(db)
      }

      func save(_ db: Database, scryfall: Scryfall) throws {
        try Card.insert { Card.from(card: scryfall) }.execute(db)
        try Card.where { $0.name.eq(Lookup<Term>.Key(raw: scryfall.id)) }.delete().execute(db)
      }
      """#.utf8
    ).write(to: folder.appendingPathComponent("Cards.swift"))
    let result = try QuarryProcess.run(["scan", folder.path, "--format", "json"])
    let objects = try result.stdout.split(separator: "\n").map { line in
      try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }
    func entry(_ source: String) -> [String: Any]? { objects.first { ($0["source"] as? String)?.contains(source) == true } }
    XCTAssertEqual(objects.compactMap { $0["error"] as? String }, [])
    XCTAssertEqual(entry("db.create(table: \"cards\")")?["kind"] as? String, "migration 'create cards'")
    XCTAssertEqual(entry("create(index:")?["kind"] as? String, "migration 'add index'")
    // Cards.swift's own private pageSize (3), not Schema.swift's (10); a parameter shadows it.
    let pages = objects.filter { ($0["source"] as? String)?.contains("limit(pageSize)") == true }
    XCTAssertEqual(pages.map { $0["bindings"] as? [String] ?? [] }, [["3"], ["pageSize"]])
    XCTAssertEqual(
      entry("Card.from(card: scryfall)")?["sql"] as? String, #"INSERT INTO "cards" ("id", "name", "addedAt") VALUES (?, ?, ?)"#)
    XCTAssertEqual(
      entry("Card.from(card: scryfall)")?["bindings"] as? [String], ["scryfall.id", #"card.name ?? "none""#, "card.date ?? Date()"])
    XCTAssertEqual(entry("Lookup<Term>")?["sql"] as? String, #"DELETE FROM "cards" WHERE (("cards"."name") = (?))"#)
  }

  /// Code that calls a closure it was handed (`uuid: () -> UUID`, as skymlr/orbit copies rows)
  /// binds the call's result as a run-time value; a function that creates its own tables (a
  /// migration test on a fresh database) has them for its later statements, and only those.
  func testClosuresTheAppHoldsAndTablesABodyCreates() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-scan-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data(
      #"""
      import SQLiteData

      @Table struct Tag: Identifiable { let id: UUID; var taskID: UUID }

      func appDatabase() throws -> any DatabaseWriter {
        let database = try DatabaseQueue()
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
          try #sql("CREATE TABLE tags (id TEXT PRIMARY KEY NOT NULL, taskID TEXT NOT NULL)").execute(db)
        }
        try migrator.migrate(database)
        return database
      }

      func copy(_ db: Database, ids: [UUID], taskID: UUID, uuid: @escaping @Sendable () -> UUID) throws {
        try Tag.insert { ($0.id, $0.taskID) } values: { for id in ids { (uuid(), id) } }.execute(db)
        try Tag.where { $0.id.eq(uuid()) }.delete().execute(db)
      }

      func legacySchemaTest(_ db: Database) throws {
        try #sql("CREATE TABLE legacyNotes (id TEXT PRIMARY KEY NOT NULL, body TEXT NOT NULL)").execute(db)
        try #sql("INSERT INTO legacyNotes (id, body) VALUES ('n1', 'old')").execute(db)
      }

      func afterwards(_ db: Database) throws {
        try #sql("SELECT count(*) FROM legacyNotes").execute(db)
      }
      """#.utf8
    ).write(to: folder.appendingPathComponent("App.swift"))
    let result = try QuarryProcess.run(["scan", folder.path, "--format", "json"])
    let objects = try result.stdout.split(separator: "\n").map { line in
      try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }
    func entries(_ source: String) -> [[String: Any]] { objects.filter { ($0["source"] as? String)?.contains(source) == true } }
    let inserts = entries("values: { for id in ids").filter { ($0["sql"] as? String)?.isEmpty == false }
    XCTAssertEqual(inserts.first?["bindings"] as? [String], ["uuid()", "ids[…]"])
    XCTAssertEqual(entries("$0.id.eq(uuid())").first?["sql"] as? String, #"DELETE FROM "tags" WHERE (("tags"."id") = (?))"#)
    XCTAssertNil(entries("INSERT INTO legacyNotes").first?["error"] as? String)
    XCTAssertEqual(entries("SELECT count(*) FROM legacyNotes").first?["error"] as? String, "SQLite: no such table: legacyNotes")
    XCTAssertEqual(objects.compactMap { $0["error"] as? String }, ["SQLite: no such table: legacyNotes"])
  }

  /// A model's own members read as Swift reads them (as in bradhowes/SoundFontsPlus): in an
  /// instance member `self` (and a bare column name) is the record the app holds, never the
  /// table's column; `Kind` there is the model's nested `Kind`; the model's own `insert(_:name:)`
  /// and `delete(id:)` are the app's actions, not the library's methods; a method the app adds to
  /// `Statement` that takes the database runs the statement; an `if` in an update closure is a
  /// variant per branch; a literal after `??` takes the other side's type.
  func testAModelsOwnMembersAsSwiftReadsThem() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-scan-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data(
      #"""
      import SQLiteData

      @Table struct Track: Identifiable {
        typealias ID = Tagged<Self, Int64>
        let id: ID
        var title = ""
        var kind: Kind = .draft
        var albumID: Int64 = 0
        enum Kind: Int, QueryBindable { case draft, published }
      }

      extension StructuredQueriesCore.Statement {
        func fetchOneOrFail(_ db: Database) throws -> QueryValue.QueryOutput where QueryValue: QueryRepresentable {
          guard let row = try fetchCursor(db).next() else { throw CancellationError() }
          return row
        }
      }

      extension Track {
        var siblings: [Track] {
          let query = Track.where { $0.albumID.eq(self.albumID) && $0.id.neq(id) }
          @Dependency(\.defaultDatabase) var database
          return (try? database.read { try query.fetchAll($0) }) ?? []
        }
        mutating func publish(_ db: Database) throws {
          let kind: Kind = self.kind == .draft ? .published : .draft
          try Self.find(self.id).update { $0.kind = kind }.execute(db)
        }
        static func insert(_ db: Database, title: String) {
          withErrorReporting { try Track.insert { Track.Draft(title: title) }.execute(db) }
        }
        static func delete(id: Track.ID) {
          @Dependency(\.defaultDatabase) var database
          withErrorReporting { try database.write { db in try Self.delete().where { $0.id.eq(id) }.execute(db) } }
        }
      }

      func appDatabase() throws -> any DatabaseWriter {
        let database = try DatabaseQueue()
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
          try #sql("CREATE TABLE tracks (id INTEGER PRIMARY KEY, title TEXT NOT NULL DEFAULT '', kind INTEGER NOT NULL DEFAULT 0, albumID INTEGER NOT NULL DEFAULT 0)").execute(db)
        }
        try migrator.migrate(database)
        return database
      }

      func rename(_ db: Database, track: Track, title: String, publish: Bool, chosen: Track.ID?) throws {
        Track.insert(db, title: title)
        Track.delete(id: track.id)
        _ = try Track.find(track.id).update { $0.title = title }.returning(\.self).fetchOneOrFail(db)
        try Track.update {
          $0.title = String(title.reversed())
          if publish { $0.kind = Track.Kind.published }
        }.where { $0.id.eq(chosen ?? -1) }.execute(db)
      }
      """#.utf8
    ).write(to: folder.appendingPathComponent("App.swift"))
    let result = try QuarryProcess.run(["scan", folder.path, "--format", "json"])
    let objects = try result.stdout.split(separator: "\n").map { line in
      try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }.filter { $0["summary"] == nil }
    func entries(_ source: String) -> [[String: Any]] { objects.filter { ($0["source"] as? String)?.contains(source) == true } }
    XCTAssertEqual(objects.compactMap { $0["error"] as? String }, [])
    XCTAssertEqual(
      entries("albumID.eq(self.albumID)").first?["sql"] as? String,
      #"SELECT "tracks"."id", "tracks"."title", "tracks"."kind", "tracks"."albumID" FROM "tracks" WHERE ((("tracks"."albumID") = (?)) AND (("tracks"."id") <> (?)))"#
    )
    XCTAssertEqual(entries("albumID.eq(self.albumID)").first?["bindings"] as? [String], ["self.albumID", "self.id"])
    XCTAssertEqual(entries("$0.kind = kind").first?["bindings"] as? [String], ["kind", "self.id"])
    // The app's own actions are no queries; the statements in their bodies are.
    XCTAssertEqual(entries("Track.insert(db, title: title)").count, 0)
    XCTAssertEqual(entries("Track.delete(id: track.id)").count, 0)
    XCTAssertEqual(entries("Track.insert { Track.Draft(title: title) }").count, 1)
    XCTAssertEqual(entries("returning(\\.self)").first?["executedBy"] as? String, "fetchOneOrFail")
    let updates = entries("if publish")
    XCTAssertEqual(updates.map { $0["variant"] as? String ?? "" }, ["publish is true", "publish is false"])
    XCTAssertEqual(
      updates.map { $0["sql"] as? String ?? "" },
      [
        #"UPDATE "tracks" SET "title" = ?, "kind" = ? WHERE (("tracks"."id") = (?))"#,
        #"UPDATE "tracks" SET "title" = ? WHERE (("tracks"."id") = (?))"#,
      ])
    XCTAssertEqual(updates.first?["bindings"] as? [String], ["String(title.reversed())", "1", "chosen ?? -1"])
  }

  /// The set-up as the app calls it (seen in banghuazhao/money-mind and habit-diary):
  /// `appDatabase()` hands its queue to a `private func migrate(_:)` that registers the
  /// migrations; GRDB's `Int.fetchOne(db, sql:)` is read on the database as it stands, so a
  /// `guard count == 0 else { return }` after it leaves the migration when rows exist; the `?`
  /// of `db.execute(sql:arguments:)` are bound from its arguments; a method named with a keyword
  /// (``func `for`(…)``) is called by its name.
  func testTheSetUpAsTheAppCallsIt() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-scan-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data(
      #"""
      import SQLiteData
      @Table struct Category: Identifiable { let id: Int; var name: String; var position: Int }
      extension Where<Category> {
        func `for`(position: Int) -> Where<Category> { self.where { $0.position.eq(position) } }
      }
      func appDatabase() throws -> DatabaseQueue {
        var config = Configuration()
        config.foreignKeysEnabled = true
        let queue = try DatabaseQueue(path: "db.sqlite", configuration: config)
        try migrate(queue)
        return queue
      }
      private func migrate(_ queue: DatabaseQueue) throws {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
          try db.create(table: "categories") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("name", .text).notNull()
            t.column("position", .integer).notNull()
          }
          try db.execute(sql: "INSERT INTO categories (name, position) VALUES (?, ?)", arguments: ["Food", 1])
        }
        migrator.registerMigration("seed") { db in
          let count = try Int.fetchOne(db, sql: "SELECT count(*) FROM categories") ?? 0
          guard count == 0 else { return }
          try Category.insert { Category.Draft(name: "Rent", position: 2) }.execute(db)
        }
        try migrator.migrate(queue)
      }
      func first(_ db: Database) throws -> [Category] { try Category.all.for(position: 1).fetchAll(db) }
      """#.utf8
    ).write(to: folder.appendingPathComponent("App.swift"))
    let result = try QuarryProcess.run(["scan", folder.path, "--format", "json"])
    let entries = try result.stdout.split(separator: "\n").dropLast().map { line in
      try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }
    XCTAssertEqual(entries.compactMap { $0["error"] as? String }, [])
    func entry(_ source: String) -> [String: Any]? { entries.first { ($0["source"] as? String)?.contains(source) == true } }
    XCTAssertEqual(entry("db.create(table:")?["kind"] as? String, "migration 'v1'")
    XCTAssertEqual(entry("INSERT INTO categories")?["bindings"] as? [String], ["'Food'", "1"])
    XCTAssertEqual(entry("Int.fetchOne")?["kind"] as? String, "migration 'seed'")
    XCTAssertEqual(entry("Int.fetchOne")?["sql"] as? String, "SELECT count(*) FROM categories")
    // The categories table has a row, so the guard leaves the migration: the insert is no part of it.
    XCTAssertEqual(entry("Category.insert")?["kind"] as? String, "query")
    XCTAssertEqual(
      entry("for(position: 1)")?["sql"] as? String,
      #"SELECT "categories"."id", "categories"."name", "categories"."position" FROM "categories" WHERE (("categories"."position") = (?))"#)
  }

  /// A set-up in an extension of `DependencyValues` (seen in marslin1220/RunCraft): a mutating
  /// method opens the database and hands it to the extension's static function that registers
  /// the migrations, called as `Self.migrate(database)` (and as `DependencyValues.migrate(db)`
  /// from a test); the method reaches it as Swift looks it up, so the tables exist. A value of a
  /// framework type run by its own `execute` (`HKHealthStore().execute(query)`) is no statement.
  func testASetUpInAnExtensionOfDependencyValues() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-scan-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data(
      #"""
      import SQLiteData
      @Table struct Goal: Identifiable { let id: UUID; var name = "" }
      extension DependencyValues {
        public mutating func bootstrapDatabase() throws {
          let database = try SQLiteData.defaultDatabase(path: Self.databasePath)
          try Self.migrate(database)
          defaultDatabase = database
        }
        public static func migrate(_ database: any DatabaseWriter) throws {
          var migrator = DatabaseMigrator()
          migrator.registerMigration("v1") { db in
            try #sql("""
              CREATE TABLE "goals" ("id" TEXT PRIMARY KEY NOT NULL, "name" TEXT NOT NULL DEFAULT '') STRICT
              """)
              .execute(db)
          }
          try migrator.migrate(database)
        }
        private static var databasePath: String { "app.db" }
      }
      public func bootstrapApp() { prepareDependencies { try! $0.bootstrapDatabase() } }
      func named(_ name: String) throws -> [Goal] {
        @Dependency(\.defaultDatabase) var database
        return try database.read { db in try Goal.where { $0.name.eq(name) }.fetchAll(db) }
      }
      func vo2Max() {
        let store = HKHealthStore()
        let query = HKSampleQuery(sampleType: type, predicate: nil, limit: 1, sortDescriptors: []) { _, _, _ in }
        store.execute(query)
      }
      """#.utf8
    ).write(to: folder.appendingPathComponent("App.swift"))
    try Data(
      #"""
      import SQLiteData
      import Testing
      struct GoalTests {
        @Test func goals() throws {
          let database = try DatabaseQueue()
          try DependencyValues.migrate(database)
          try database.write { db in try Goal.insert { Goal(id: UUID(), name: "Run") }.execute(db) }
        }
      }
      """#.utf8
    ).write(to: folder.appendingPathComponent("GoalTests.swift"))
    let result = try QuarryProcess.run(["scan", folder.path, "--format", "json"])
    let entries = try result.stdout.split(separator: "\n").dropLast().map { line in
      try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }
    XCTAssertEqual(entries.compactMap { $0["error"] as? String }, [])
    XCTAssertEqual(entries.compactMap { $0["notRun"] as? String }, [])
    XCTAssertEqual(entries.filter { ($0["kind"] as? String) == "migration 'v1'" }.count, 1, result.stdout)
    XCTAssertEqual(
      entries.compactMap { $0["source"] as? String }.filter { !$0.contains("CREATE TABLE") }.sorted(),
      [#"Goal.insert { Goal(id: UUID(), name: "Run") }"#, "Goal.where { $0.name.eq(name) }"].sorted(),
      "the HealthKit store's execute is no query")
  }

  /// A set-up whose migrations a namespace's static property registers (`enum Schema { static
  /// var migrator: DatabaseMigrator { … } }`, seen in dfakkeldy/Routey), migrated by a function
  /// whose parameters all have defaults (`appDatabase(configuration:)`), called by the app's
  /// own (`routeyDatabase()`) that then creates a search table: the app's launch calls it with
  /// no arguments, so all of it runs, the migrations once.
  func testASetUpThroughANamespacesMigratorProperty() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-scan-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data(
      #"""
      import SQLiteData
      @Table struct Route: Identifiable { let id: UUID; var name = "" }
      public enum Schema {
        public static var migrator: DatabaseMigrator {
          var migrator = DatabaseMigrator()
          #if DEBUG
            migrator.eraseDatabaseOnSchemaChange = true
          #endif
          migrator.registerMigration("v1") { db in
            try #sql("""
              CREATE TABLE "routes" ("id" TEXT PRIMARY KEY NOT NULL, "name" TEXT NOT NULL DEFAULT '') STRICT
              """).execute(db)
          }
          return migrator
        }
      }
      public func appDatabase(configuration: Configuration = Configuration()) throws -> any DatabaseWriter {
        let database = try defaultDatabase(configuration: configuration)
        try Schema.migrator.migrate(database)
        return database
      }
      """#.utf8
    ).write(to: folder.appendingPathComponent("Schema.swift"))
    try Data(
      #"""
      import SQLiteData
      func routeyDatabase(configuration: Configuration = Configuration()) throws -> any DatabaseWriter {
        let database = try appDatabase(configuration: configuration)
        try database.write { db in
          try db.execute(sql: "CREATE VIRTUAL TABLE routeSearch USING fts5(name)")
        }
        return database
      }
      func named(_ db: Database, _ name: String) throws -> [Route] { try Route.where { $0.name.eq(name) }.fetchAll(db) }
      func search(_ db: Database) throws -> [String] { try String.fetchAll(db, sql: "SELECT name FROM routeSearch") }
      """#.utf8
    ).write(to: folder.appendingPathComponent("App.swift"))
    let result = try QuarryProcess.run(["scan", folder.path, "--format", "json"])
    let entries = try result.stdout.split(separator: "\n").dropLast().map { line in
      try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }
    XCTAssertEqual(entries.compactMap { $0["error"] as? String }, [], result.stdout)
    XCTAssertEqual(entries.compactMap { $0["notRun"] as? String }, [], result.stdout)
    XCTAssertEqual(entries.filter { ($0["kind"] as? String) == "migration 'v1'" }.count, 1, result.stdout)
    XCTAssertEqual(entries.filter { ($0["kind"] as? String) == "query" }.count, 2, result.stdout)
  }

  /// A default scope (`static let all = Self.where { … }`, seen in gukt/SQLiteDataSamples) is
  /// listed where it is declared with its predicate once, as StructuredQueries renders
  /// `Record.all`; a query built on the table has it once too.
  func testADefaultScopeIsListedWithItsPredicateOnce() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-scan-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data(
      #"""
      import SQLiteData
      @Table struct Note: Identifiable {
        let id: Int
        var title = ""
        var deletedAt: Date?
        static let all = Self.where { $0.isLive }
      }
      extension Note.TableColumns {
        var isLive: some QueryExpression<Bool> { deletedAt.is(nil) }
      }
      func titled(_ db: Database) throws -> [Note] { try Note.where { $0.title.eq("a") }.fetchAll(db) }
      """#.utf8
    ).write(to: folder.appendingPathComponent("Note.swift"))
    let result = try QuarryProcess.run(["scan", folder.path, "--format", "json", "--db", ":memory:"])
    let entries = try result.stdout.split(separator: "\n").dropLast().map { line in
      try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }
    XCTAssertEqual(
      entries.compactMap { $0["sql"] as? String },
      [
        #"SELECT "notes"."id", "notes"."title", "notes"."deletedAt" FROM "notes" WHERE (("notes"."deletedAt") IS (NULL))"#,
        #"SELECT "notes"."id", "notes"."title", "notes"."deletedAt" FROM "notes" WHERE (("notes"."deletedAt") IS (NULL)) AND (("notes"."title") = (?))"#,
      ], result.stdout)
  }

  /// An app's set-up and API as the compiler calls them (seen in grahamhindle/ios26port and
  /// mhayes853/swift-operation's CanIClimb): migrations that call the app's own methods of
  /// `Database`; a migration whose SQL needs a value only the running app has is one located
  /// error, the tables it creates are named, and the other migrations still run; a protocol's
  /// extension gives its conforming tables their static methods (`Self` each of them); inits
  /// declared in an extension hand their values on with `self.init(…)`; a type alias names its
  /// table; a capture list names a value; `Draft(x)` of a value from the app's API copies it.
  func testTheAppsOwnExtensionsProtocolsAndAliases() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-scan-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data(
      #"""
      import SQLiteData
      public protocol SingleRowTable: PrimaryKeyedTable<UUID> where QueryOutput == Self { init() }
      extension SingleRowTable {
        public static func find(in db: Database) -> Self { (try? Self.find(UUID.nil).fetchOne(db)) ?? Self() }
        public func save(in db: Database) throws { try Self.upsert { Self.Draft(self) }.execute(db) }
      }
      @Table("settings") public struct SettingsRecord: Sendable, SingleRowTable {
        public var id: UUID = UUID.nil
        public var isDark = false
        public init() {}
      }
      @Table("alarms") public struct AlarmRecord: Identifiable, Sendable {
        public let id: UUID
        public var title: String
        public var status: Status
        public enum Status: String, Sendable, QueryBindable { case pending, scheduled }
      }
      public typealias Alarm = AlarmRecord
      struct Plan { var id: UUID; var name: String }
      extension Plan { static let mock = Self(id: Identifiers.next(), name: "Mock") }
      extension AlarmRecord {
        public init(plan: Plan, status: Status = .pending) { self.init(id: plan.id, title: plan.name, status: status) }
      }
      public extension Database {
        func createAlarmsTable() throws {
          try self.execute(sql: "CREATE TABLE alarms (id TEXT PRIMARY KEY, title TEXT NOT NULL, status TEXT NOT NULL)")
        }
      }
      private let keySQL = "id TEXT PRIMARY KEY CHECK (id = '\(UUID.nil)')"
      func appDatabase() throws -> any DatabaseWriter {
        let database = try DatabaseQueue()
        var migrator = DatabaseMigrator()
        migrator.registerV1()
        try migrator.migrate(database)
        return database
      }
      extension DatabaseMigrator {
        fileprivate mutating func registerV1() {
          self.registerMigration("create settings") { db in
            try #sql("CREATE TABLE IF NOT EXISTS settings (\(raw: keySQL), isDark INTEGER NOT NULL DEFAULT 0)").execute(db)
          }
          self.registerMigration("create alarms") { db in try db.createAlarmsTable() }
        }
      }
      func schedule(_ plan: Plan, old: Alarm, api: API) async throws {
        @Dependency(\.defaultDatabase) var database
        let dark = try await database.read { db in SettingsRecord.find(in: db).isDark }
        let response = try await api.alarm()
        try await database.write { [draft = Alarm.Draft(old)] db in
          try AlarmRecord.insert { AlarmRecord(plan: plan, status: .scheduled) }.execute(db)
          try AlarmRecord.upsert { draft }.execute(db)
          try AlarmRecord.upsert { AlarmRecord.Draft(response) }.execute(db)
          try AlarmRecord.insert { AlarmRecord(plan: Plan.mock) }.execute(db)
        }
      }
      """#.utf8
    ).write(to: folder.appendingPathComponent("App.swift"))
    let result = try QuarryProcess.run(["scan", folder.path, "--format", "json"])
    let entries = try result.stdout.split(separator: "\n").dropLast().map { line in
      try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }
    // The one migration Quarry cannot follow, where it is registered, with the table it creates.
    XCTAssertEqual(
      entries.compactMap { $0["error"] as? String },
      [
        #"Quarry cannot run migration 'create settings': it uses 'UUID.nil', a value the app computes when it runs; not built: "settings", so queries of it are not run"#
      ])
    func sites(_ source: String) -> [[String: Any]] { entries.filter { ($0["source"] as? String)?.contains(source) == true } }
    XCTAssertEqual(sites("CREATE TABLE alarms").first?["kind"] as? String, "migration 'create alarms'")
    // The raw splice builds a schema statement: no finding.
    XCTAssertEqual((sites("CREATE TABLE IF NOT EXISTS settings").first?["findings"] as? [Any])?.count, 0)
    // `Self.find(…)` in the protocol's extension, as SettingsRecord runs it; its call site is the app's call.
    let find = sites("Self.find(UUID.nil)")
    XCTAssertEqual(find.map { $0["variant"] as? String }, ["Self is SettingsRecord"])
    XCTAssertEqual(
      find.first?["skipped"] as? String,
      #"not run: there is no table "settings": migration 'create settings' (\#(folder.path)/App.swift:39) creates it, and Quarry could not follow that migration"#
    )
    XCTAssertEqual(sites("SettingsRecord.find(in: db)").count, 0)
    XCTAssertEqual(sites("AlarmRecord(plan: plan").first?["bindings"] as? [String], ["plan.id", "plan.name", "'scheduled'"])
    XCTAssertEqual(sites("upsert { draft }").first?["bindings"] as? [String], ["draft.id", "draft.title", "draft.status"])
    XCTAssertEqual(sites("Draft(response)").first?["bindings"] as? [String], ["response.id", "response.title", "response.status"])
    // A static value the app makes with code Quarry does not run is the app's when it runs.
    XCTAssertEqual(sites("AlarmRecord(plan: Plan.mock)").first?["bindings"] as? [String], ["Plan.mock.id", "Plan.mock.name", "'pending'"])
    for source in ["AlarmRecord(plan: plan", "upsert { draft }", "Draft(response)", "AlarmRecord(plan: Plan.mock)"] {
      XCTAssertNil(sites(source).first?["error"] as? String, source)
      XCTAssertNil(sites(source).first?["skipped"] as? String, source)
    }
  }

  /// Values of the app's own types and dependencies (seen in woodymelling/open-music-event) are
  /// values it has when it runs, bound: an `ID` made by its own initializer (`.init(stabilizedBy:)`,
  /// `OmeID(stabilizedBy:)`), a `@Dependency` of its own inside a query closure, a payload enum
  /// bound by its `description`; a local named like another in an inner block is the one Swift's
  /// lookup finds.
  func testValuesOfTheAppsOwnTypesAreBound() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-scan-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data(
      #"""
      import SQLiteData
      public struct OmeID<T>: Hashable, Sendable { public var rawValue: Int64 }
      extension OmeID { init(stabilizedBy values: String...) { rawValue = Int64(values.joined().hashValue) } }
      @Table struct Stage: Identifiable {
        public typealias ID = OmeID<Stage>
        let id: ID
        var eventID: Int
        var name: String
      }
      public enum Reference: Hashable, LosslessStringConvertible, QueryBindable {
        case url(URL)
        case repository(String)
        public init?(_ description: String) { self = .repository(description) }
        public var description: String {
          switch self {
          case .url(let url): url.absoluteString
          case .repository(let name): name
          }
        }
      }
      @Table struct Organizer: Identifiable {
        let id: Int
        var reference: Reference
      }
      func appDatabase() throws -> any DatabaseWriter {
        let database = try DatabaseQueue()
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
          try #sql("CREATE TABLE stages (id INTEGER PRIMARY KEY, eventID INTEGER NOT NULL, name TEXT NOT NULL)").execute(db)
          try #sql("CREATE TABLE organizers (id INTEGER PRIMARY KEY, reference TEXT NOT NULL)").execute(db)
        }
        try migrator.migrate(database)
        return database
      }
      func load(_ db: Database, names: [String], eventID: Int) throws {
        for name in names {
          let draft = Stage.Draft(id: .init(stabilizedBy: name), eventID: eventID, name: name)
          try Stage.upsert { draft }.execute(db)
          try Stage.upsert { Stage.Draft(id: OmeID(stabilizedBy: String(eventID), name), eventID: eventID, name: name) }.execute(db)
          for other in names {
            let draft = Stage.Draft(id: .init(stabilizedBy: other), eventID: 7, name: other)
            try Stage.upsert { draft }.execute(db)
          }
        }
      }
      func organizer(_ db: Database, reference: Reference) throws -> Organizer? {
        try Organizer.where { $0.reference.eq(reference) }.fetchOne(db)
      }
      func stages(_ db: Database) throws -> [Stage] {
        try Stage.where {
          @Dependency(\.musicEventID) var eventID
          $0.eventID.eq(eventID)
        }.fetchAll(db)
      }
      """#.utf8
    ).write(to: folder.appendingPathComponent("App.swift"))
    let result = try QuarryProcess.run(["scan", folder.path, "--format", "json"])
    let entries = try result.stdout.split(separator: "\n").dropLast().map { line in
      try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }
    XCTAssertEqual(entries.compactMap { $0["error"] as? String }, [])
    XCTAssertEqual(entries.compactMap { $0["skipped"] as? String }, [])
    func bindings(_ source: String) -> [String]? {
      entries.first { ($0["source"] as? String)?.contains(source) == true }?["bindings"] as? [String]
    }
    // Each `draft` is the one declared nearest before it in a block around it.
    XCTAssertEqual(
      entries.filter { $0["source"] as? String == "Stage.upsert { draft }" }.map { $0["bindings"] as? [String] ?? [] },
      [["OmeID.init(stabilizedBy: name)", "eventID", "name"], ["OmeID.init(stabilizedBy: other)", "7", "other"]])
    XCTAssertEqual(bindings("OmeID(stabilizedBy:"), ["OmeID(stabilizedBy: String(eventID), name)", "eventID", "name"])
    XCTAssertEqual(bindings("musicEventID"), ["eventID"])
    // A payload enum the library binds by its `description` (LosslessStringConvertible).
    XCTAssertEqual(bindings("$0.reference.eq(reference)"), ["reference", "1"])
  }

  /// An app that builds no table (it opens a database shipped with it, not in the scanned
  /// folder): its queries are rendered and not run, and the scan says why.
  func testAnAppThatBuildsNoTable() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-scan-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data(
      #"""
      import SQLiteData
      @Table struct Tag: Identifiable { let id: Int; var title = "" }
      func open(path: String) throws -> any DatabaseReader { try DatabaseQueue(path: path) }
      func titled(_ db: Database, title: String) throws -> [Tag] { try Tag.where { $0.title.eq(title) }.fetchAll(db) }
      """#.utf8
    ).write(to: folder.appendingPathComponent("App.swift"))
    let result = try QuarryProcess.run(["scan", folder.path, "--format", "json"])
    XCTAssertTrue(
      result.stdout.contains(
        #"not run: the app's set-up creates no tables (it opens a database it does not build), so there is no table \"tags\" to run it against; scan with --db FILE"#
      ), result.stdout)
    XCTAssertTrue(result.stdout.contains(#"WHERE ((\"tags\".\"title\") = (?))"#), result.stdout)
  }

  /// A temporary folder holding an Xcode project whose `Package.resolved` pins
  /// swift-structured-queries at `version`, and an empty `App` folder beside it for the app's code.
  static func appPinning(_ version: String) throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-scan-\(UUID().uuidString)")
    let swiftpm = folder.appendingPathComponent("App.xcodeproj/project.xcworkspace/xcshareddata/swiftpm")
    try FileManager.default.createDirectory(at: swiftpm, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(at: folder.appendingPathComponent("App"), withIntermediateDirectories: true)
    try Data(
      """
      {"originHash": "x", "pins": [{"identity": "swift-structured-queries", "kind": "remoteSourceControl",
        "location": "https://github.com/pointfreeco/swift-structured-queries", "state": {"revision": "x", "version": "\(version)"}}],
       "version": 3}
      """.utf8
    ).write(to: swiftpm.appendingPathComponent("Package.resolved"))
    return folder
  }

  /// The JSON objects of `quarry scan --format json` on a folder holding `app` as `App.swift`.
  static func scanned(_ app: String) throws -> [[String: Any]] {
    try scanned(files: [("App.swift", app)])
  }

  /// The JSON objects of `quarry scan --format json` on a folder holding these files.
  static func scanned(files: [(name: String, text: String)]) throws -> [[String: Any]] {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-scan-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    for file in files { try Data(file.text.utf8).write(to: folder.appendingPathComponent(file.name)) }
    let result = try QuarryProcess.run(["scan", folder.path, "--format", "json"])
    return try result.stdout.split(separator: "\n").map { line in
      try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }
  }

  /// Records the app supplies as a list (`posts: [Post]`, `let drafts = items.map { Post(…) }`)
  /// are inserted one row per element: the SQL shown is the one for a single element, its values
  /// named as elements and the heading says so. A ternary's run-time condition is named whole
  /// (`c.course >= 0`), not by its first operand.
  func testRunTimeListsAndConditionsAreNamedAsTheAppWritesThem() throws {
    let objects = try Self.scanned(
      #"""
      import SQLiteData
      @Table struct Loc: Identifiable { let id: Int; var course: Double? }
      func appDatabase() throws -> any DatabaseWriter {
        let database = try DatabaseQueue()
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
          try #sql("CREATE TABLE locs (id INTEGER PRIMARY KEY, course REAL)").execute(db)
        }
        try migrator.migrate(database)
        return database
      }
      func many(_ db: Database, locs: [Loc]) throws { try Loc.insert { locs }.execute(db) }
      func mapped(_ db: Database, items: [Item]) throws {
        let made = items.map { item in Loc(id: item.key, course: nil) }
        try Loc.upsert { made }.execute(db)
      }
      func one(_ db: Database, c: CLLocation, n: Int) throws {
        let loc = Loc(id: n, course: c.course >= 0 ? c.course : nil)
        try Loc.insert { loc }.execute(db)
      }
      """#)
    func entries(_ source: String) -> [String] {
      objects.filter { ($0["source"] as? String)?.contains(source) == true }.map { entry in
        "\(entry["variant"] as? String ?? "-"): \((entry["bindings"] as? [String] ?? []).joined(separator: ", "))"
      }
    }
    XCTAssertEqual(entries("Loc.insert { locs }"), ["locs has one element: locs[…].id, locs[…].course"])
    XCTAssertEqual(entries("Loc.upsert { made }"), ["made has one element: made[…].id, made[…].course"])
    // An optional column of a record the app has when it runs: `?` when set, NULL in the SQL
    // text when nil (an Optional's query fragment), so the SQL shown says which it assumed.
    let many = try XCTUnwrap(objects.first { ($0["source"] as? String)?.contains("Loc.insert { locs }") == true })
    XCTAssertEqual(
      (many["findings"] as? [[String: Any]] ?? []).map { "\($0["id"] ?? ""): \($0["message"] ?? "")" },
      ["app-value: the SQL shown has locs[…].course (course) set (?); where the app's value is nil, its SQL has NULL there instead"])
    XCTAssertEqual(
      entries("Loc.insert { loc }"), ["c.course >= 0 is true: n, c.course", "c.course >= 0 is false: n"])
  }

  /// `contains(_:)` with a String the app has when it runs (a search field's text): the library
  /// builds the pattern in Swift (`like("%\(other)%")`) and binds it, so the scan binds the
  /// pattern, named as that Swift. A `delete(record)` binds only the record's key: no note about
  /// its other, optional fields.
  func testARunTimeSearchTextAndADeletedRecord() throws {
    let objects = try Self.scanned(
      #"""
      import SQLiteData
      @Table("People") struct Person: Identifiable { let id: UUID; var name = ""; var birthDate: Date?; var notes = "" }
      func appDatabase() throws -> any DatabaseWriter {
        let database = try DatabaseQueue()
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
          try #sql("CREATE TABLE People (id TEXT PRIMARY KEY, name TEXT NOT NULL, birthDate DATE, notes TEXT NOT NULL)").execute(db)
        }
        try migrator.migrate(database)
        return database
      }
      final class Model {
        @FetchAll(Person.none) var people: [Person]
        var searchText = ""
        func search() async throws {
          try await $people.load(Person.where { $0.name.contains(searchText) || $0.notes.hasPrefix(searchText) })
        }
        func remove(_ db: Database, person: Person) throws { try Person.delete(person).execute(db) }
      }
      """#)
    let search = try XCTUnwrap(objects.first { ($0["source"] as? String)?.contains("contains(searchText)") == true })
    XCTAssertEqual(
      search["sql"] as? String,
      #"SELECT "People"."id", "People"."name", "People"."birthDate", "People"."notes" FROM "People" WHERE ((("People"."name" LIKE ?)) OR (("People"."notes" LIKE ?)))"#
    )
    XCTAssertEqual(search["bindings"] as? [String], [#""%\(searchText)%""#, #""\(searchText)%""#])
    let delete = try XCTUnwrap(objects.first { ($0["source"] as? String)?.contains("delete(person)") == true })
    XCTAssertEqual(delete["sql"] as? String, #"DELETE FROM "People" WHERE (("People"."id") = (?))"#)
    XCTAssertEqual((delete["findings"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }, [])
  }

  /// Swift's own reading of an app spread over files (jonphillips/galavant, Michael-Place/menere):
  /// a set-up run lazily inside `LockIsolated.withValue`; a class's stored property read by its
  /// bare name in an extension in another file; `Self(…)` and a parameter of type `Self` in a
  /// table's static function; an init whose body Quarry does not run, its values the app's; and
  /// what is not a query: a table's static function that returns rows, the app's own `execute`.
  func testAnAppSpreadOverFilesIsReadAsTheCompilerReadsIt() throws {
    let objects = try Self.scanned(files: [
      (
        "Database.swift",
        #"""
        import SQLiteData
        enum LocalCache {
          private static let box = LockIsolated<(any DatabaseWriter)?>(nil)
          static func bootstrap() -> (any DatabaseWriter)? {
            box.withValue { existing in
              if let existing { return existing }
              do {
                let writer = try DatabaseQueue()
                try migrate(writer)
                existing = writer
                return writer
              } catch { return nil }
            }
          }
          private static func migrate(_ writer: any DatabaseWriter) throws {
            var migrator = DatabaseMigrator()
            migrator.registerMigration("v1") { db in
              try #sql("CREATE TABLE ideas (id TEXT PRIMARY KEY NOT NULL, tripID TEXT NOT NULL, title TEXT NOT NULL, json TEXT NOT NULL) STRICT").execute(db)
            }
            try migrator.migrate(writer)
          }
        }
        """#
      ),
      (
        "Idea.swift",
        #"""
        import SQLiteData
        @Table struct Idea: Identifiable {
          let id: UUID
          var tripID: UUID
          var title: String
          var json: String
          init(id: UUID, tripID: UUID, title: String, json: String) { self.id = id; self.tripID = tripID; self.title = title; self.json = json }
          init(_ source: Source, tripID: UUID) {
            let data = (try? JSONEncoder().encode(source)) ?? Data()
            self.init(id: source.id, tripID: tripID, title: source.name, json: String(decoding: data, as: UTF8.self))
          }
          static func save(_ idea: Self, in db: Database) throws { try Self.upsert { Self.Draft(idea) }.execute(db) }
          static func rename(id: UUID, tripID: UUID, title: String, in db: Database) throws {
            try Self.upsert { Self.Draft(Self(id: id, tripID: tripID, title: title, json: "{}")) }.execute(db)
          }
          static func ideas(in db: Database) throws -> [Idea] { try Idea.order(by: \.title).fetchAll(db) }
        }
        protocol Tool { func execute(_ input: [String: String]) async throws -> String }
        """#
      ),
      (
        "TripModel.swift",
        #"""
        import SQLiteData
        @Observable final class TripModel {
          @ObservationIgnored @Dependency(\.defaultDatabase) var database
          let tripID: UUID
          init(tripID: UUID) { self.tripID = tripID }
        }
        """#
      ),
      (
        "TripModel+Ideas.swift",
        #"""
        import SQLiteData
        extension TripModel {
          func reload() throws -> [Idea] {
            try database.read { db in try Idea.where { $0.tripID.eq(tripID) }.fetchAll(db) }
          }
          func store(_ source: Source) throws {
            try database.write { db in try Idea.upsert { Idea(source, tripID: tripID) }.execute(db) }
          }
          func hasTitled(_ db: Database) throws -> Bool { try Idea.ideas(in: db).contains { $0.title.isEmpty } }
          func run(_ tool: any Tool) async throws -> String { try await tool.execute([:]) }
        }
        """#
      ),
    ])
    let entries = objects.dropLast()
    func located(_ object: [String: Any]) -> String {
      "\((object["file"] as? String).map { ($0 as NSString).lastPathComponent } ?? "?"):\(object["line"] as? Int ?? 0)"
    }
    // The lazy set-up ran its migration; every query rendered, run against its table; nothing else listed.
    XCTAssertEqual(entries.compactMap { $0["kind"] as? String }.filter { $0 != "query" }, ["migration 'v1'"])
    XCTAssertEqual(
      entries.filter { $0["kind"] as? String == "query" }.map {
        located($0) + " " + (($0["error"] as? String) ?? ($0["skipped"] as? String) ?? ($0["sql"] as? String ?? "-"))
      },
      [
        #"Idea.swift:12 INSERT INTO "ideas" ("id", "tripID", "title", "json") VALUES (?, ?, ?, ?) ON CONFLICT ("id") DO UPDATE SET "tripID" = "excluded"."tripID", "title" = "excluded"."title", "json" = "excluded"."json""#,
        #"Idea.swift:14 INSERT INTO "ideas" ("id", "tripID", "title", "json") VALUES (?, ?, ?, ?) ON CONFLICT ("id") DO UPDATE SET "tripID" = "excluded"."tripID", "title" = "excluded"."title", "json" = "excluded"."json""#,
        #"Idea.swift:16 SELECT "ideas"."id", "ideas"."tripID", "ideas"."title", "ideas"."json" FROM "ideas" ORDER BY "ideas"."title""#,
        #"TripModel+Ideas.swift:4 SELECT "ideas"."id", "ideas"."tripID", "ideas"."title", "ideas"."json" FROM "ideas" WHERE (("ideas"."tripID") = (?))"#,
        #"TripModel+Ideas.swift:7 INSERT INTO "ideas" ("id", "tripID", "title", "json") VALUES (?, ?, ?, ?) ON CONFLICT ("id") DO UPDATE SET "tripID" = "excluded"."tripID", "title" = "excluded"."title", "json" = "excluded"."json""#,
      ], "\(objects)")
    let stored = try XCTUnwrap(entries.first { located($0) == "TripModel+Ideas.swift:7" })
    XCTAssertEqual(
      stored["bindings"] as? [String],
      [
        "Idea(source, tripID: tripID).id", "Idea(source, tripID: tripID).tripID", "Idea(source, tripID: tripID).title",
        "Idea(source, tripID: tripID).json",
      ])
    let renamed = try XCTUnwrap(entries.first { located($0) == "Idea.swift:14" })
    XCTAssertEqual(renamed["bindings"] as? [String], ["id", "tripID", "title", "'{}'"])
  }

  /// Swift's unqualified lookup finds a parameter or local before the type's static members: a
  /// table's `static var title` does not stand for the parameter `title`, nor its static function
  /// `normalizedLabel` for the local of that name (galavant's `TripAlternativeGroup.rename`). A
  /// local's initializer tried only for a record adds no run-time branches to the query.
  func testAParameterIsNearerThanTheTablesStaticMember() throws {
    let objects = try Self.scanned(
      #"""
      import SQLiteData
      @Table struct Group: Identifiable {
        let id: UUID
        var label: String
        static var title: String { "x" }
        static func normalizedLabel(_ label: String) -> String? { label.isEmpty ? nil : label }
        static func retitle(groupID: UUID, title: String, in db: Database) throws {
          try Self.find(groupID).update { $0.label = title }.execute(db)
        }
        static func titled(title: String, in db: Database) throws -> [Group] {
          try Self.where { $0.label.eq(title) }.fetchAll(db)
        }
        static func rename(groupID: UUID, label: String, in db: Database) throws {
          let normalizedLabel = Self.normalizedLabel(label) ?? ""
          try Self.find(groupID).update { $0.label = normalizedLabel }.execute(db)
        }
      }
      """#)
    XCTAssertEqual(
      objects.dropLast().map {
        "\($0["line"] as? Int ?? 0) \(($0["bindings"] as? [String] ?? []).joined(separator: ", ")) \($0["variant"] as? String ?? "")"
      },
      ["8 title, groupID ", "11 title ", "15 normalizedLabel, groupID "])
  }

  /// Before 0.21 `find` took one key and rendered `primaryKey.eq(key)` (0.20.0's
  /// `PrimaryKeyed.swift`); a sequence of keys came with 0.21.0, so an app pinning 0.20.0 that
  /// passes one does not compile. From 0.21.0 on, `IN`.
  func testAnOlderPinnedLibrarysFind() throws {
    let app = #"""
      import SQLiteData
      @Table struct Item: Identifiable { let id: Int; var title: String }
      func appDatabase() throws -> any DatabaseWriter {
        let database = try DatabaseQueue()
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
          try #sql("CREATE TABLE items (id INTEGER PRIMARY KEY, title TEXT NOT NULL)").execute(db)
        }
        try migrator.migrate(database)
        return database
      }
      func one(_ db: Database, id: Int) throws -> Item? { try Item.find(id).fetchOne(db) }
      func some(_ db: Database) throws -> [Item] { try Item.find([1, 2]).fetchAll(db) }
      func gone(_ db: Database, id: Int) throws { try Item.delete().find(id).execute(db) }
      """#
    for (version, one, gone) in [
      ("0.20.0", #"WHERE (("items"."id") = (?))"#, #"WHERE (("items"."id") = (?))"#),
      ("0.21.0", #"WHERE (("items"."id") IN ((?)))"#, #"WHERE (("items"."id") IN ((?)))"#),
    ] {
      let folder = try Self.appPinning(version)
      defer { try? FileManager.default.removeItem(at: folder) }
      try Data(app.utf8).write(to: folder.appendingPathComponent("App/App.swift"))
      let result = try QuarryProcess.run(["scan", folder.appendingPathComponent("App").path, "--format", "json"])
      let lines = try result.stdout.split(separator: "\n").map { line in
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      }
      let entries = lines.dropLast()
      // Both from before 0.22, whose operators are written `("a" = ?)`: said once, for the scan.
      let summary = try XCTUnwrap(lines.last?["summary"] as? [String: Any])
      XCTAssertEqual(summary["pinnedLibrary"] as? String, version)
      XCTAssertTrue(
        (summary["libraryNote"] as? String)?.hasPrefix("this app pins swift-structured-queries \(version): before 0.22") == true)
      func entry(_ source: String) throws -> [String: Any] {
        try XCTUnwrap(entries.first { ($0["source"] as? String)?.contains(source) == true }, "\(version) \(source)")
      }
      XCTAssertTrue((try entry("Item.find(id)")["sql"] as? String)?.contains(one) == true, "\(version): \(result.stdout)")
      XCTAssertTrue((try entry("Item.delete().find(id)")["sql"] as? String)?.contains(gone) == true, "\(version): \(result.stdout)")
      let some = try entry("Item.find([1, 2])")
      if version == "0.20.0" {
        XCTAssertEqual(
          some["error"] as? String,
          "'find' takes one primary key with swift-structured-queries 0.20.0, which this app pins (a sequence of keys came with 0.21.0) (at 13:60)"
        )
      } else {
        XCTAssertTrue((some["sql"] as? String)?.contains(#"IN ((?), (?))"#) == true, result.stdout)
      }
    }
  }

  /// An app that pins a StructuredQueries from before 0.31 (its `Package.resolved`) gets its
  /// `==` and `!=` on columns as that version renders them: the SQL of
  /// `Tests/Scan/equality-0.30.0.jsonl`, recorded from swift-structured-queries 0.30.0 (d8163b3),
  /// and its compiler's refusal of a leading-dot member after them (`$0.kind == .a`).
  func testAnOlderPinnedLibrarysEqualityOperators() throws {
    let folder = try Self.appPinning("0.30.0")
    defer { try? FileManager.default.removeItem(at: folder) }
    let recorded = try String(
      contentsOf: QuarryProcess.packageRoot.appendingPathComponent("Tests/Scan/equality-0.30.0.jsonl"), encoding: .utf8)
    let cases = try recorded.split(separator: "\n").map { line in
      try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }
    var app = #"""
      import SQLiteData
      @Table struct Item: Identifiable {
        let id: Int
        var title: String
        var note: String?
        var count: Int
        var parentID: Int?
        var isDone: Bool
        var kind: Kind
        var optKind: Kind?
        var uid: UUID
        var date: Date?
        enum Kind: Int, QueryBindable { case a, b }
      }
      let t = "x"
      let nt: String? = "y"
      let n = 3
      let nn: Int? = 4
      let u = UUID(uuidString: "00000000-0000-0000-0000-000000000001")!
      func appDatabase() throws -> any DatabaseWriter {
        let database = try DatabaseQueue()
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
          try #sql("CREATE TABLE items (id INTEGER PRIMARY KEY, title TEXT NOT NULL, note TEXT, count INTEGER NOT NULL, parentID INTEGER, isDone INTEGER NOT NULL, kind INTEGER NOT NULL, optKind INTEGER, uid TEXT NOT NULL, date TEXT)").execute(db)
        }
        try migrator.migrate(database)
        return database
      }

      """#
    for (index, item) in cases.enumerated() {
      let swift = try XCTUnwrap(item["swift"] as? String)
      app += "func case\(index)(_ db: Database) throws { _ = try \(swift).\(swift.hasSuffix("delete()") ? "execute" : "fetchAll")(db) }\n"
    }
    // Before 0.31 an update's setter also takes a plain Swift value (`Value(queryOutput:)`), bound.
    app += "func setKind(_ db: Database) throws { try Item.update { $0.kind = .b }.execute(db) }\n"
    app += "func setNote(_ db: Database) throws { try Item.update { $0.note = nt }.execute(db) }\n"
    // Spellings 0.33.2 deprecated (`contains` for `in`, `hasPrefix` for `like`): 0.30.0 compiles
    // them without a word, and so does the scan.
    app += "func listed(_ db: Database) throws { _ = try Item.where { [1, 2].contains($0.count) }.fetchAll(db) }\n"
    app += "func prefixed(_ db: Database) throws { _ = try Item.where { $0.title.hasPrefix(\"a\") }.fetchAll(db) }\n"
    try Data(app.utf8).write(to: folder.appendingPathComponent("App/App.swift"))
    let result = try QuarryProcess.run(["scan", folder.appendingPathComponent("App").path, "--format", "json"])
    let entries = try result.stdout.split(separator: "\n").dropLast().map { line in
      try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }
    for item in cases {
      let swift = try XCTUnwrap(item["swift"] as? String)
      let entry = try XCTUnwrap(entries.first { $0["kind"] as? String == "query" && $0["source"] as? String == swift }, swift)
      guard let expected = item["sql"] as? String else {
        XCTAssertNotNil(entry["error"] as? String, swift)
        continue
      }
      // The recorded SQL shows its values inline, as the library's debugDescription does.
      var sql = try XCTUnwrap(entry["sql"] as? String, "\(swift): \(entry["error"] ?? "")")
      for binding in entry["bindings"] as? [String] ?? [] {
        if let mark = sql.firstIndex(of: "?") { sql.replaceSubrange(mark...mark, with: binding) }
      }
      XCTAssertEqual(sql, expected.split(whereSeparator: \.isNewline).joined(separator: " "), swift)
    }
    XCTAssertTrue(
      result.stdout.contains("type '_Null<Item.Kind>' has no member 'a': with swift-structured-queries 0.30.0, which this app pins"),
      result.stdout)
    for source in ["[1, 2].contains($0.count)", "$0.title.hasPrefix(\"a\")"] {
      let entry = try XCTUnwrap(entries.first { ($0["source"] as? String)?.contains(source) == true }, source)
      XCTAssertNil(entry["error"] as? String, source)
      XCTAssertEqual(
        ((entry["findings"] as? [[String: Any]]) ?? []).compactMap { $0["id"] as? String }.filter { $0 == "deprecated" }, [], source)
    }
    for (source, binding) in [("$0.kind = .b", "1"), ("$0.note = nt", "'y'")] {
      let entry = try XCTUnwrap(entries.first { ($0["source"] as? String)?.contains(source) == true }, source)
      XCTAssertNil(entry["error"] as? String, source)
      XCTAssertEqual(entry["bindings"] as? [String], [binding], source)
    }
  }

  /// The Xcode project decides what the compiler reads: each target is its own module (an app
  /// and its widget may each declare `Book` and `appDatabase()`), a unit-test bundle sees the app
  /// it tests, and a file no target compiles (a stale `World.swift`, a synchronized folder's
  /// membership exception) is left out and named.
  func testTheProjectsTargetsAreItsModules() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-scan-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let files: [String: String] = [
      "App.xcodeproj/project.pbxproj": #"""
      // !$*UTF8*$!
      {
      	archiveVersion = 1;
      	objectVersion = 77;
      	objects = {
      		F1 /* Models.swift in Sources */ = {isa = PBXBuildFile; fileRef = R1 /* Models.swift */; };
      		F2 = {isa = PBXBuildFile; fileRef = R2; };
      		F3 = {isa = PBXBuildFile; fileRef = R3; };
      		R1 = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = Models.swift; sourceTree = "<group>"; };
      		R2 = {isa = PBXFileReference; path = Database.swift; sourceTree = "<group>"; };
      		R3 = {isa = PBXFileReference; path = QueryTests.swift; sourceTree = "<group>"; };
      		G0 = {isa = PBXGroup; children = (G1, G2, S1, ); sourceTree = "<group>"; };
      		G1 = {isa = PBXGroup; children = (R1, R2, ); path = Reader; sourceTree = "<group>"; };
      		G2 = {isa = PBXGroup; children = (R3, ); path = ReaderTests; sourceTree = "<group>"; };
      		S1 = {isa = PBXFileSystemSynchronizedRootGroup; exceptions = (E1, ); path = Widget; sourceTree = "<group>"; };
      		E1 = {isa = PBXFileSystemSynchronizedBuildFileExceptionSet; membershipExceptions = (Old.swift, ); target = T2 /* Widget */; };
      		P1 = {isa = PBXSourcesBuildPhase; files = (F1, F2, ); };
      		P2 = {isa = PBXSourcesBuildPhase; files = ( ); };
      		P3 = {isa = PBXSourcesBuildPhase; files = (F3, ); };
      		T1 = {isa = PBXNativeTarget; buildPhases = (P1, ); dependencies = ( ); name = Reader; productType = "com.apple.product-type.application"; };
      		T2 = {isa = PBXNativeTarget; buildPhases = (P2, ); fileSystemSynchronizedGroups = (S1, ); name = Widget; productType = "com.apple.product-type.app-extension"; };
      		T3 = {isa = PBXNativeTarget; buildPhases = (P3, ); dependencies = (D1, ); name = ReaderTests; productType = "com.apple.product-type.bundle.unit-test"; };
      		D1 = {isa = PBXTargetDependency; target = T1 /* Reader */; };
      		PR = {isa = PBXProject; mainGroup = G0; projectDirPath = ""; targets = (T1, T2, T3, ); };
      	};
      	rootObject = PR /* Project object */;
      }
      """#,
      "Reader/Models.swift": #"""
      import SQLiteData
      @Table struct Book: Identifiable { let id: Int; var title: String }
      """#,
      "Reader/Database.swift": #"""
      import SQLiteData
      func appDatabase() throws -> any DatabaseWriter {
        let database = try DatabaseQueue()
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
          try #sql("CREATE TABLE books (id INTEGER PRIMARY KEY, title TEXT NOT NULL)").execute(db)
        }
        try migrator.migrate(database)
        return database
      }
      func titled(_ db: Database) throws -> [Book] { try Book.order(by: \.title).fetchAll(db) }
      """#,
      "Reader/World.swift": #"""
      final class Book { var name = "" }
      """#,
      "Widget/Widget.swift": #"""
      import SQLiteData
      @Table struct Book: Identifiable { let id: Int; var pages: Int }
      func appDatabase() throws -> any DatabaseWriter {
        let database = try DatabaseQueue()
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
          try #sql("CREATE TABLE books (id INTEGER PRIMARY KEY, pages INTEGER NOT NULL)").execute(db)
        }
        try migrator.migrate(database)
        return database
      }
      func long(_ db: Database) throws -> [Book] { try Book.where { $0.pages > 300 }.fetchAll(db) }
      """#,
      "Widget/Old.swift": #"""
      this is not Swift {{{
      """#,
      "ReaderTests/QueryTests.swift": #"""
      @testable import Reader
      import SQLiteData
      func firstTitles(_ db: Database) throws -> [String] { try Book.select(\.title).limit(3).fetchAll(db) }
      """#,
    ]
    for (path, text) in files {
      let url = folder.appendingPathComponent(path)
      try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(text.utf8).write(to: url)
    }
    let result = try QuarryProcess.run(["scan", folder.path])
    let text = result.stdout.replacingOccurrences(of: folder.path + "/", with: "")
    XCTAssertTrue(
      text.hasPrefix("left out, as no target of the Xcode project compiles them: Reader/World.swift, Widget/Old.swift\n"), text)
    XCTAssertTrue(text.contains("scan: 4 files, 28 lines (2 in no target, left out) · 5 queries, 5 rendered, 0 errors, 0 skipped"), text)
    // The app's `Book` has a title, the widget's has pages; the tests read the app's.
    XCTAssertTrue(text.contains("Book.order(by: \\.title)\n    SELECT \"books\".\"id\", \"books\".\"title\"\n"), text)
    XCTAssertTrue(text.contains("Book.where { $0.pages > 300 }\n    SELECT \"books\".\"id\", \"books\".\"pages\"\n"), text)
    XCTAssertTrue(text.contains("── ReaderTests/QueryTests.swift\nReaderTests/QueryTests.swift:3:59  query · fetchAll\n"), text)
    XCTAssertEqual(text.components(separatedBy: "CREATE TABLE books (id INTEGER PRIMARY KEY, title TEXT NOT NULL)\n").count, 2, text)

    // Scanned from inside the app's folder, the project beside it still decides.
    let inside = try QuarryProcess.run(["scan", folder.appendingPathComponent("Reader").path, "--format", "json"])
    XCTAssertTrue(inside.stdout.contains(#""leftOut":[""# + folder.path + #"/Reader/World.swift"]"#), inside.stdout)
    XCTAssertTrue(inside.stdout.contains(#""queries":2,"rendered":2,"errors":0"#), inside.stdout)
  }

  /// An app that opens a database it ships (`Bundle.module.path(forResource: "pokeapi", ofType:
  /// "db")`) and builds no table: the scan takes the schema from that file where it lies in the
  /// scanned folders, never writes it, and says so; its queries are prepared and planned there.
  func testADatabaseTheAppShipsGivesTheSchema() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-scan-\(UUID().uuidString)")
    let resources = folder.appendingPathComponent("Sources/Data/Resources")
    try FileManager.default.createDirectory(at: resources, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = resources.appendingPathComponent("pokeapi.db").path
    let created = try QuarryProcess.run([
      file, "-e",
      "CREATE TABLE pokemon (id INTEGER PRIMARY KEY, name TEXT NOT NULL, height INTEGER); CREATE INDEX pokemon_name ON pokemon(name); CREATE TABLE moves (id INTEGER PRIMARY KEY, pokemonID INTEGER REFERENCES pokemon(id));",
    ])
    XCTAssertEqual(created.status, 0, created.stderr)
    let before = try Data(contentsOf: URL(fileURLWithPath: file))
    try Data(
      #"""
      import GRDB
      import StructuredQueries
      @Table("pokemon") struct Pokemon: Identifiable { let id: Int; var name: String; var height: Int? }
      public enum PokeDB {
        public static func make() throws -> DatabaseQueue {
          guard let path = Bundle.module.path(forResource: "pokeapi", ofType: "db") else { throw PokeError.missing }
          return try DatabaseQueue(path: path)
        }
      }
      func named(_ db: Database, _ name: String) throws -> [Pokemon] { try Pokemon.where { $0.name.eq(name) }.fetchAll(db) }
      @Table struct Visit: Identifiable { let id: Int }
      func visits(_ db: Database) throws -> [Visit] { try Visit.all.fetchAll(db) }
      """#.utf8
    ).write(to: folder.appendingPathComponent("Sources/Data/PokeDB.swift"))
    let result = try QuarryProcess.run(["scan", folder.path])
    let text = result.stdout.replacingOccurrences(of: folder.path + "/", with: "")
    XCTAssertTrue(
      text.hasPrefix("schema from the database the app ships and opens: Sources/Data/Resources/pokeapi.db (read, never written)\n"), text)
    XCTAssertTrue(text.contains("    plan: SEARCH pokemon USING INDEX pokemon_name (name=?)\n"), text)
    XCTAssertTrue(text.contains("2 queries, 1 rendered, 0 errors, 1 skipped"), text)
    // A table the shipped file lacks lives in another database the app opens.
    XCTAssertTrue(
      text.contains(
        #"not run: there is no table "visits" in the database the app ships (Sources/Data/Resources/pokeapi.db) and its set-up creates none"#
      ), text)
    XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: file)), before)
    // A finding about the shipped schema is placed where the app names the file it opens.
    XCTAssertTrue(
      text.contains(
        #"Sources/Data/PokeDB.swift:6:1  schema\#n  │ table "moves"\#n  [unindexed-foreign-key] "moves"."pokemonID" references "pokemon""#
      ), text)

    // A resource that is not a SQLite file is not taken for one.
    try Data("not a database".utf8).write(to: URL(fileURLWithPath: file))
    let other = try QuarryProcess.run(["scan", folder.path])
    XCTAssertFalse(other.stdout.contains("schema from the database"), other.stdout)
    XCTAssertTrue(other.stdout.contains("there is no table \"pokemon\" to run it against; scan with --db FILE"), other.stdout)
  }

  /// A set-up written as a static function of a namespace, which calls its own type's helper by
  /// name (`enum AppDatabase { static func setup() … try migratorSetup(for: database) }`), runs at
  /// launch: its tables exist for the app's queries.
  func testANamespaceSetUpRuns() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-scan-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data(
      #"""
      import SharingGRDB
      @Table struct Item: Identifiable { let id: UUID }
      enum AppDatabase {
        static func setup() throws -> any DatabaseWriter {
          let database = try DatabaseQueue()
          try migratorSetup(for: database)
          return database
        }
        static private func migratorSetup(for database: DatabaseWriter) throws {
          var migrator = DatabaseMigrator()
          migrator.registerMigration("v1") { db in
            try #sql("""
              CREATE TABLE "items" ("id" TEXT PRIMARY KEY NOT NULL)
              """).execute(db)
          }
          try migrator.migrate(database)
        }
      }
      func all(_ db: Database) throws -> [Item] { try Item.all.fetchAll(db) }
      """#.utf8
    ).write(to: folder.appendingPathComponent("App.swift"))
    let result = try QuarryProcess.run(["scan", folder.path])
    XCTAssertTrue(result.stdout.contains("2 queries, 2 rendered, 0 errors, 0 skipped"), result.stdout)
    XCTAssertFalse(result.stdout.contains("no such table"), result.stdout)
  }

  /// Names as Swift's lookup finds them (seen in bradhowes/SoundFontsPlus): a bare static
  /// property of the type around the query, a bare `Draft` in a model's extension, `.init(…)`
  /// typed by the array the `map` makes; a method another app type declares (`update()`) is not
  /// the library's `update { … }`; values the set-up computes are bound; a loop's statement is
  /// listed once, with how many times it ran.
  func testNamesAsSwiftLooksThemUp() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-scan-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data(
      #"""
      import SharingGRDB
      @Table struct Tag: Identifiable {
        let id: Int
        var title: String
        var position: Int
        enum Builtin: CaseIterable {
          case all, recent, shared
          var title: String {
            switch self {
            case .all: return "All"
            case .recent: return "Recent"
            case .shared: return "Shared"
            }
          }
        }
        init(id: Int, title: String, position: Int) {
          self.id = id
          self.title = title
          self.position = position
        }
      }
      extension Tag {
        static func make(title: String, position: Int) -> Insert<Tag, ()> {
          Self.insert { Draft(title: title, position: position) }
        }
      }
      enum Operations {
        static var baseQuery: Where<Tag> {
          @Shared(.appStorage("recentOnly")) var recentOnly = false
          if recentOnly { return Tag.where { $0.position.lt(10) } } else { return Tag.where { $0.position.gte(0) } }
        }
        static var byPosition: Select<(), Tag, ()> { Tag.order(by: \.position) }
        static var tags: [Tag] {
          @Shared(.appStorage("newestFirst")) var newestFirst = false
          let query = newestFirst ? baseQuery.order { $0.id.desc() } : baseQuery.order(by: \.title)
          @Dependency(\.defaultDatabase) var database
          return (try? database.read { try query.fetchAll($0) }) ?? []
        }
        static var ordered: [Tag] {
          @Dependency(\.defaultDatabase) var database
          return (try? database.read { try byPosition.fetchAll($0) }) ?? []
        }
      }
      final class Monitor { var level = 0 }
      extension Monitor { func update() { level += 1 } }
      enum Slot: CaseIterable {
        case one, two, three
        func placement() -> (String, Int) { ("x", 1) }
      }
      func appDatabase() throws -> any DatabaseWriter {
        let database = try DatabaseQueue()
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
          try #sql("CREATE TABLE tags (id INTEGER PRIMARY KEY, title TEXT NOT NULL, position INTEGER NOT NULL)").execute(db)
        }
        migrator.registerMigration("builtin tags") { db in
          let drafts: [Tag.Draft] = Tag.Builtin.allCases.enumerated().map {
            .init(title: $0.1.title, position: $0.0)
          }
          try Tag.insert { drafts }.execute(db)
        }
        try migrator.migrate(database)
        try database.write { db in
          for slot in Slot.allCases {
            let (title, position) = slot.placement()
            let update = Tag.where { $0.position.eq(position) }.update { $0.title = title }
            try update.execute(db)
          }
        }
        return database
      }
      """#.utf8
    ).write(to: folder.appendingPathComponent("App.swift"))
    let result = try QuarryProcess.run(["scan", folder.path, "--format", "json"])
    let objects = try result.stdout.split(separator: "\n").dropLast().map { line in
      try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }
    XCTAssertEqual(objects.compactMap { $0["error"] as? String }, [])
    func sql(_ source: String) -> [String] {
      objects.filter { ($0["source"] as? String)?.contains(source) == true }.compactMap { $0["sql"] as? String }
    }
    XCTAssertEqual(
      sql("Tag.insert { drafts }"), [#"INSERT INTO "tags" ("id", "title", "position") VALUES (NULL, ?, ?), (NULL, ?, ?), (NULL, ?, ?)"#])
    XCTAssertEqual(
      objects.first { ($0["source"] as? String)?.contains("Tag.insert { drafts }") == true }?["bindings"] as? [String],
      ["'All'", "0", "'Recent'", "1", "'Shared'", "2"])
    XCTAssertEqual(sql("Draft(title: title"), [#"INSERT INTO "tags" ("id", "title", "position") VALUES (NULL, ?, ?)"#])
    XCTAssertEqual(
      objects.filter { $0["source"] as? String == "query" }.compactMap { entry in
        (entry["variant"] as? String).map { "\($0): \(entry["sql"] as? String ?? "-")" }
      },
      [
        #"newestFirst is true, recentOnly is true: SELECT "tags"."id", "tags"."title", "tags"."position" FROM "tags" WHERE (("tags"."position") < (?)) ORDER BY "tags"."id" DESC"#,
        #"newestFirst is false, recentOnly is true: SELECT "tags"."id", "tags"."title", "tags"."position" FROM "tags" WHERE (("tags"."position") < (?)) ORDER BY "tags"."title""#,
        #"newestFirst is true, recentOnly is false: SELECT "tags"."id", "tags"."title", "tags"."position" FROM "tags" WHERE (("tags"."position") >= (?)) ORDER BY "tags"."id" DESC"#,
      ])
    XCTAssertEqual(sql("byPosition"), [#"SELECT "tags"."id", "tags"."title", "tags"."position" FROM "tags" ORDER BY "tags"."position""#])
    let loop = try XCTUnwrap(objects.first { $0["source"] as? String == "try update.execute(db)" })
    XCTAssertEqual(loop["runs"] as? Int, 3)
    XCTAssertEqual(loop["sql"] as? String, #"UPDATE "tags" SET "title" = ? WHERE (("tags"."position") = (?))"#)
    // `slot.placement()` is Swift's alone: its value, ("x", 1), as Swift computes it.
    XCTAssertNil(loop["notRun"] as? String)
    XCTAssertEqual(loop["bindings"] as? [String], ["'x'", "1"])
  }

  /// Migrations registered through the app's helpers (`SoundFont.migrate(&migrator)`, a static
  /// function of each model handed the migrator) run as the app runs them, each named as the
  /// helper names it (`Self.tableName`), GRDB's schema builder included; a namespace's helper
  /// handed the database (`Schema.createTables(in: db)`) too.
  func testMigrationsRegisteredInHelpersRun() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-scan-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data(
      #"""
      import SQLiteData

      @Table struct SoundFont {
        let id: Int
        var name = ""

        static func migrate(_ migrator: inout DatabaseMigrator) {
          migrator.registerMigration(Self.tableName) { db in
            try #sql("CREATE TABLE \"soundFonts\" (id INTEGER PRIMARY KEY, name TEXT NOT NULL DEFAULT '')").execute(db)
          }
        }
      }

      @Table struct Preset { let id: Int; var soundFontID: SoundFont.ID; var name = "" }

      enum Schema {
        static let presets = "presets"
        static func createTables(in db: Database) throws {
          try db.create(table: Self.presets) { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("soundFontID", .integer).notNull().references("soundFonts", onDelete: .cascade).indexed()
            t.column("name", .text).notNull().defaults(to: "")
          }
        }
      }

      extension Preset {
        static func migrate(_ migrator: inout DatabaseMigrator) {
          migrator.registerMigration(Self.tableName) { db in
            try Schema.createTables(in: db)
          }
        }
      }

      func appDatabase() throws -> any DatabaseWriter {
        var migrator = DatabaseMigrator()
        SoundFont.migrate(&migrator)
        Preset.migrate(&migrator)
        try migrator.migrate(database)
        return database
      }

      func presets(of soundFont: SoundFont, db: Database) throws -> [Preset] {
        try Preset.where { $0.soundFontID.eq(soundFont.id) }.order(by: \.name).fetchAll(db)
      }
      """#.utf8
    ).write(to: folder.appendingPathComponent("App.swift"))
    let result = try QuarryProcess.run(["scan", folder.path, "--format", "json"])
    let objects = try result.stdout.split(separator: "\n").map { line in
      try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }
    XCTAssertEqual(
      objects.compactMap { $0["kind"] as? String }.filter { $0.hasPrefix("migration") }, ["migration 'soundFonts'", "migration 'presets'"])
    XCTAssertEqual(
      objects.compactMap { ($0["kind"] as? String)?.hasPrefix("migration") == true ? $0["sql"] as? String : nil },
      [
        #"CREATE TABLE "soundFonts" (id INTEGER PRIMARY KEY, name TEXT NOT NULL DEFAULT '')"#,
        #"CREATE TABLE "presets" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "soundFontID" INTEGER NOT NULL REFERENCES "soundFonts"("id") ON DELETE CASCADE, "name" TEXT NOT NULL DEFAULT ''); CREATE INDEX "presets_on_soundFontID" ON "presets"("soundFontID")"#,
      ])
    let query = try XCTUnwrap(objects.first { ($0["source"] as? String)?.hasPrefix("Preset.where") == true })
    XCTAssertNil(query["error"] as? String, result.stdout)
    XCTAssertEqual(
      query["plan"] as? [String], ["SEARCH presets USING INDEX presets_on_soundFontID (soundFontID=?)", "USE TEMP B-TREE FOR ORDER BY"])
    let summary = try XCTUnwrap(objects.last?["summary"] as? [String: Any])
    XCTAssertEqual(summary["errors"] as? Int, 0, result.stdout)
  }

  /// SQLiteData's `SyncMetadata`, named and not declared, is SQLiteData's: its table is made for
  /// the scan and a join through `syncMetadataID` is rendered as the library renders it; a query
  /// in GRDB's own query interface is listed as GRDB's, not taken for the DSL.
  func testSQLiteDatasOwnTablesAndGRDBsQueryInterface() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-scan-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data(
      #"""
      import SQLiteData

      @Table struct Counter: Identifiable { let id: Int; var count = 0 }
      @Selection struct Row { let counter: Counter; let isShared: Bool }

      func appDatabase() throws -> any DatabaseWriter {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
          try #sql("CREATE TABLE counters (id INTEGER PRIMARY KEY, count INTEGER NOT NULL DEFAULT 0)").execute(db)
        }
        try migrator.migrate(database)
        return database
      }

      struct CountersView {
        @FetchAll(Counter.leftJoin(SyncMetadata.all) { $0.syncMetadataID.eq($1.id) }.select { Row.Columns(counter: $0, isShared: $1.isShared.ifnull(false)) })
        var rows
      }

      func legacy(db: Database) throws -> [Counter] {
        try Counter.all().filter(Column("count") > 3).fetchAll(db)
      }
      """#.utf8
    ).write(to: folder.appendingPathComponent("App.swift"))
    let result = try QuarryProcess.run(["scan", folder.path, "--format", "json"])
    let objects = try result.stdout.split(separator: "\n").map { line in
      try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }
    let rows = try XCTUnwrap(objects.first { ($0["executedBy"] as? String) == "FetchAll" })
    XCTAssertNil(rows["error"] as? String, result.stdout)
    XCTAssertEqual(
      rows["sql"] as? String,
      """
      SELECT "counters"."id" AS "id", "counters"."count" AS "count", ifnull((("sqlitedata_icloud_metadata"."isShared" = 1) AND ("sqlitedata_icloud_metadata"."share" OR 1)), ?) AS "isShared" \
      FROM "counters" LEFT JOIN "sqlitedata_icloud_metadata" ON ("counters"."id", ?) = ("sqlitedata_icloud_metadata"."recordPrimaryKey", "sqlitedata_icloud_metadata"."recordType")
      """)
    let legacy = try XCTUnwrap(objects.first { ($0["source"] as? String)?.contains("filter") == true })
    XCTAssertEqual(
      legacy["skipped"] as? String,
      "GRDB's query interface ('all()'), not StructuredQueries': Quarry renders the SQL of StructuredQueries' query builder")
  }

  /// `--fail-on` for CI: 1 when met, 0 otherwise; a silenced finding does not count.
  /// A value the app computes in code Quarry does not run (`Color.HexRepresentation(…)`), with
  /// a fallback after `??`: spliced into a migration's SQL, the schema is built with the fallback
  /// so the app's tables exist, and the statement says so beside its SQL (never a silent `0`);
  /// bound in a query, it is the app's run-time value, named by its code. A GRDB default the app
  /// computes as the migration runs is said the same way.
  func testAFallbackAfterAnAppValueIsSaidNotPassedOff() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-scan-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data(
      #"""
      import SQLiteData
      import SwiftUI

      @Table struct Swatch: Identifiable { let id: Int; var color = 0 }

      func appDatabase() throws -> any DatabaseWriter {
        let database = try SQLiteData.defaultDatabase()
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
          let defaultColor = Color.HexRepresentation(queryOutput: Color.red).hexValue
          try #sql("CREATE TABLE swatches (id INTEGER PRIMARY KEY, color INTEGER NOT NULL DEFAULT \(raw: defaultColor ?? 0))").execute(db)
          try db.create(table: "labels") { t in
            t.primaryKey("id", .text, onConflict: .replace).notNull().defaults(to: UUID().uuidString)
          }
        }
        try migrator.migrate(database)
        return database
      }
      """#.utf8
    ).write(to: folder.appendingPathComponent("App.swift"))
    let result = try QuarryProcess.run(["scan", folder.path, "--format", "json"])
    let objects = try result.stdout.split(separator: "\n").map { line in
      try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }
    let migration = try XCTUnwrap(objects.first { ($0["kind"] as? String) == "migration 'v1'" })
    XCTAssertEqual(migration["sql"] as? String, "CREATE TABLE swatches (id INTEGER PRIMARY KEY, color INTEGER NOT NULL DEFAULT 0)")
    XCTAssertNil(migration["error"] as? String)
    let findings = ((migration["findings"] as? [[String: Any]]) ?? []).map { "\($0["id"] ?? "?"): \($0["message"] ?? "")" }
    XCTAssertEqual(
      findings,
      [
        "app-value: 'defaultColor' comes from app code Quarry does not run (Color.HexRepresentation(queryOutput: Co…): this SQL has its fallback after '??', 0, where the app has the value it computes"
      ])
    // GRDB's `defaults(to:)` of a value the app computes as the migration runs (a new UUID each
    // time): a stand-in holds its place, and the statement says so.
    let labels = try XCTUnwrap(objects.first { ($0["sql"] as? String)?.contains("\"labels\"") == true })
    XCTAssertEqual(
      labels["sql"] as? String, #"CREATE TABLE "labels" ("id" TEXT PRIMARY KEY ON CONFLICT REPLACE NOT NULL DEFAULT '<UUID().uuidString>')"#
    )
    XCTAssertEqual(
      ((labels["findings"] as? [[String: Any]]) ?? []).map { "\($0["id"] ?? "?"): \($0["message"] ?? "")" },
      [
        "app-value: 'UUID().uuidString' is computed by the app each time the migration runs: this SQL has '<UUID().uuidString>' where the app's has the value it computed then"
      ])
    let summary = try XCTUnwrap(objects.last?["summary"] as? [String: Any])
    XCTAssertEqual(summary["errors"] as? Int, 0)
  }

  func testFailOn() throws {
    XCTAssertEqual(try QuarryProcess.run(["scan", Self.app, "--fail-on", "error"]).status, 1)
    XCTAssertEqual(try QuarryProcess.run(["scan", Self.app]).status, 0)
    // Models alone: no migration creates their tables, so each query is an error of its own, told
    // where the schema is to be found.
    let models = Self.app + "/Models.swift"
    let alone = try QuarryProcess.run(["scan", models, "--fail-on", "error", "--format", "json"])
    XCTAssertEqual(alone.status, 1)
    XCTAssertTrue(
      alone.stdout.contains(
        #""error":"SQLite: no such table: reminders (the scanned files create no tables and open no database: scan the folder that holds the app's migrations too, or give --db FILE)""#
      ), alone.stdout)
    // With a schema that has every index, no finding is left.
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-scan-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try FileManager.default.copyItem(atPath: models, toPath: folder.appendingPathComponent("Models.swift").path)
    try Data(
      #"""
      func appDatabase() throws -> any DatabaseWriter {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
          try #sql("CREATE TABLE reminders (id INTEGER PRIMARY KEY, title TEXT NOT NULL, isCompleted INTEGER NOT NULL, priority INTEGER, remindersListID INTEGER NOT NULL)").execute(db)
          try #sql("CREATE INDEX reminders_by_list ON reminders(remindersListID)").execute(db)
        }
        try migrator.migrate(database)
        return database
      }
      """#.utf8
    ).write(to: folder.appendingPathComponent("Schema.swift"))
    XCTAssertEqual(try QuarryProcess.run(["scan", folder.path, "--fail-on", "error"]).status, 0)
    // `inList` uses the index; `incomplete` reads every row, as a filter on a flag must.
    XCTAssertEqual(try QuarryProcess.run(["scan", folder.path, "--fail-on", "finding"]).status, 0)
    try Data("extension Reminder { static let urgent = Self.where { $0.title.eq(\"urgent\") } }\n".utf8)
      .write(to: folder.appendingPathComponent("Urgent.swift"))
    XCTAssertEqual(try QuarryProcess.run(["scan", folder.path, "--fail-on", "error"]).status, 0)
    XCTAssertEqual(try QuarryProcess.run(["scan", folder.path, "--fail-on", "finding"]).status, 1)
    XCTAssertEqual(try QuarryProcess.run(["scan", Self.app + "/nope", "--fail-on", "finding"]).status, 1)
    let markdown = try QuarryProcess.run(["scan", Self.app, "--format", "markdown"])
    XCTAssertTrue(markdown.stdout.contains("| `"), markdown.stdout)
    XCTAssertTrue(markdown.stdout.hasPrefix("## Quarry scan\n\nscan: 3 files, 162 lines"), markdown.stdout)
  }

  /// `--db FILE`: the schema of a real database, opened read-only (the app's migrations do not
  /// run, the file is not changed), and plans read against its indexes.
  func testDatabaseFileGivesTheSchema() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-scan-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let sources = folder.appendingPathComponent("App")
    try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
    for name in ["Models.swift", "Schema.swift", "ListsModel.swift"] {
      try FileManager.default.copyItem(atPath: Self.app + "/" + name, toPath: sources.appendingPathComponent(name).path)
    }
    let database = folder.appendingPathComponent("app.sqlite").path
    let create = Process()
    create.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
    create.arguments = [
      database,
      """
      CREATE TABLE remindersLists (id INTEGER PRIMARY KEY, title TEXT NOT NULL DEFAULT '');
      CREATE TABLE reminders (id INTEGER PRIMARY KEY, title TEXT NOT NULL DEFAULT '', isCompleted INTEGER NOT NULL DEFAULT 0,
        priority INTEGER, remindersListID INTEGER NOT NULL REFERENCES remindersLists(id));
      CREATE TABLE tags (id INTEGER PRIMARY KEY, title TEXT NOT NULL DEFAULT '');
      CREATE TABLE remindersTags (reminderID INTEGER NOT NULL REFERENCES reminders(id), tagID INTEGER NOT NULL REFERENCES tags(id));
      CREATE INDEX remindersTags_tagID ON remindersTags(tagID);
      """,
    ]
    try create.run()
    create.waitUntilExit()
    let before = try Data(contentsOf: URL(fileURLWithPath: database))
    let result = try QuarryProcess.run(["scan", sources.path, "--db", database, "--format", "json"])
    XCTAssertEqual(result.status, 0, result.stderr)
    let objects = try result.stdout.split(separator: "\n").map { line in
      try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }
    // The migrations are listed, not run: the seed's foreign key failure never happens.
    XCTAssertFalse(objects.contains { ($0["error"] as? String)?.contains("FOREIGN KEY") == true }, result.stdout)
    let count = try XCTUnwrap(objects.first { $0["executedBy"] as? String == "fetchCount" })
    XCTAssertEqual(count["plan"] as? [String], ["SEARCH remindersTags USING COVERING INDEX remindersTags_tagID (tagID=?)"])
    XCTAssertEqual((count["findings"] as? [[String: Any]])?.compactMap { $0["id"] as? String }, ["query-in-loop"])
    XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: database)), before)
  }

  static let expected = #"""
    ── Tests/ScanApp/ListsModel.swift
    Tests/ScanApp/ListsModel.swift:6:33  query · FetchAll
      │ RemindersList.order(by: \.title)
        SELECT "remindersLists"."id", "remindersLists"."title"
        FROM "remindersLists"
        ORDER BY "remindersLists"."title"
        plan: SCAN remindersLists · USE TEMP B-TREE FOR ORDER BY
      [temp-b-tree] SQLite sorts the rows in a temporary B-tree for ORDER BY "remindersLists"."title" (USE TEMP B-TREE FOR ORDER BY): fine for a few rows; for many, an index in that order avoids the sort
        fix: CREATE INDEX "idx_remindersLists_title" ON "remindersLists"("title");

    Tests/ScanApp/ListsModel.swift:7:3  query · FetchAll
      │ @ObservationIgnored @FetchAll var tags: [Tag]
        SELECT "tags"."id", "tags"."title"
        FROM "tags"
        plan: SCAN tags

    Tests/ScanApp/ListsModel.swift:12:11  query · fetchAll
      │ Reminder.inList(list.id).order(by: \.title)
        SELECT "reminders"."id", "reminders"."title", "reminders"."isCompleted", "reminders"."priority", "reminders"."remindersListID"
        FROM "reminders"
        WHERE (("reminders"."remindersListID") = (?))
        ORDER BY "reminders"."title"
        -- ?1 = list.id
        plan: SEARCH reminders USING INDEX idx_reminders_remindersListID (remindersListID=?) · USE TEMP B-TREE FOR ORDER BY
      [temp-b-tree] SQLite sorts the rows in a temporary B-tree for ORDER BY "reminders"."title" (USE TEMP B-TREE FOR ORDER BY): fine for a few rows; for many, an index in that order avoids the sort
        fix: CREATE INDEX "idx_reminders_remindersListID_title" ON "reminders"("remindersListID", "title");

    Tests/ScanApp/ListsModel.swift:19:22  query · fetchAll
      │ Tag
        SELECT "tags"."id", "tags"."title"
        FROM "tags"
        plan: SCAN tags

    Tests/ScanApp/ListsModel.swift:20:27  query · fetchCount
      │ ReminderTag.where { $0.tagID.eq(tag.id) }
        SELECT count(*)
        FROM "remindersTags"
        WHERE (("remindersTags"."tagID") = (?))
        -- ?1 = tag.id
        plan: SCAN remindersTags
      [full-scan] SQLite reads every row of "remindersTags" to find those matching "tagID" (SCAN remindersTags); an index on it lets SQLite go straight to them
        fix: CREATE INDEX "idx_remindersTags_tagID" ON "remindersTags"("tagID");
      [query-in-loop] runs once for each row of the loop at 19:7 (N+1 queries): fetch those rows together, with a join or `.where { $0.….in(ids) }`

    Tests/ScanApp/ListsModel.swift:28:11  query · fetchAll
      │ #sql("SELECT * FROM reminders WHERE title LIKE \(text) ORDER BY \(raw: column)", as: Reminder.self)
      skipped: its SQL depends on 'column', a value the app computes when it runs
      [raw-splice] `\(raw: column)` at 28:77 splices a value into the SQL text: bind it with `\(value)` instead (a value with a quote breaks the SQL, or changes it)

    Tests/ScanApp/ListsModel.swift:36:11  query · execute
      │ Reminder.where { $0.priority.eq(priority) }.update { $0.isCompleted = true }
        UPDATE "reminders"
        SET "isCompleted" = ?
        WHERE (("reminders"."priority") = (?))
        -- ?1 = 1, ?2 = priority
        plan: SCAN reminders
      silenced: full-scan

    Tests/ScanApp/ListsModel.swift:41:5  query · when showAll is true
      │ Reminder.where {
      │   if !showAll {
      │     !$0.isCompleted
      │   }
      │ }
        SELECT "reminders"."id", "reminders"."title", "reminders"."isCompleted", "reminders"."priority", "reminders"."remindersListID"
        FROM "reminders"
        plan: SCAN reminders

    Tests/ScanApp/ListsModel.swift:41:5  query · when showAll is false
      │ Reminder.where {
      │   if !showAll {
      │     !$0.isCompleted
      │   }
      │ }
        SELECT "reminders"."id", "reminders"."title", "reminders"."isCompleted", "reminders"."priority", "reminders"."remindersListID"
        FROM "reminders"
        WHERE (NOT ("reminders"."isCompleted"))
        plan: SCAN reminders

    Tests/ScanApp/ListsModel.swift:51:5  query · when sort is .title
      │ Reminder.order {
      │   switch sort {
      │   case .title: $0.title
      │   case .priority: $0.priority.desc()
      │   }
      │ }
        SELECT "reminders"."id", "reminders"."title", "reminders"."isCompleted", "reminders"."priority", "reminders"."remindersListID"
        FROM "reminders"
        ORDER BY "reminders"."title"
        plan: SCAN reminders · USE TEMP B-TREE FOR ORDER BY
      [temp-b-tree] SQLite sorts the rows in a temporary B-tree for ORDER BY "reminders"."title" (USE TEMP B-TREE FOR ORDER BY): fine for a few rows; for many, an index in that order avoids the sort
        fix: CREATE INDEX "idx_reminders_title" ON "reminders"("title");

    Tests/ScanApp/ListsModel.swift:51:5  query · when sort is .priority
      │ Reminder.order {
      │   switch sort {
      │   case .title: $0.title
      │   case .priority: $0.priority.desc()
      │   }
      │ }
        SELECT "reminders"."id", "reminders"."title", "reminders"."isCompleted", "reminders"."priority", "reminders"."remindersListID"
        FROM "reminders"
        ORDER BY "reminders"."priority" DESC
        plan: SCAN reminders · USE TEMP B-TREE FOR ORDER BY
      [temp-b-tree] SQLite sorts the rows in a temporary B-tree for ORDER BY "reminders"."priority" DESC (USE TEMP B-TREE FOR ORDER BY): fine for a few rows; for many, an index in that order avoids the sort
        fix: CREATE INDEX "idx_reminders_priority" ON "reminders"("priority" DESC);

    Tests/ScanApp/ListsModel.swift:61:27  query · execute
      │ "DELETE FROM reminders WHERE isCompleted = 1"
        DELETE FROM reminders WHERE isCompleted = 1
        plan: SCAN reminders · SCAN remindersTags

    ── Tests/ScanApp/Models.swift
    Tests/ScanApp/Models.swift:32:27  query
      │ Self.where { !$0.isCompleted }
        SELECT "reminders"."id", "reminders"."title", "reminders"."isCompleted", "reminders"."priority", "reminders"."remindersListID"
        FROM "reminders"
        WHERE (NOT ("reminders"."isCompleted"))
        plan: SCAN reminders

    Tests/ScanApp/Models.swift:35:5  query
      │ Self.where { $0.remindersListID.eq(id) }
        SELECT "reminders"."id", "reminders"."title", "reminders"."isCompleted", "reminders"."priority", "reminders"."remindersListID"
        FROM "reminders"
        WHERE (("reminders"."remindersListID") = (?))
        -- ?1 = id
        plan: SEARCH reminders USING INDEX idx_reminders_remindersListID (remindersListID=?)

    ── Tests/ScanApp/Schema.swift
    Tests/ScanApp/Schema.swift:7:5  migration 'Create lists and reminders' · execute
      │ try #sql(
      │   """
      │   CREATE TABLE "remindersLists" (
      │     "id" INTEGER PRIMARY KEY,
      │     "title" TEXT NOT NULL DEFAULT ''
      │   ) STRICT
      │ …
        CREATE TABLE "remindersLists" (
          "id" INTEGER PRIMARY KEY,
          "title" TEXT NOT NULL DEFAULT ''
        ) STRICT

    Tests/ScanApp/Schema.swift:16:5  migration 'Create lists and reminders' · execute
      │ try #sql(
      │   """
      │   CREATE TABLE "reminders" (
      │     "id" INTEGER PRIMARY KEY,
      │     "title" TEXT NOT NULL DEFAULT '',
      │     "isCompleted" INTEGER NOT NULL DEFAULT 0,
      │ …
        CREATE TABLE "reminders" (
          "id" INTEGER PRIMARY KEY,
          "title" TEXT NOT NULL DEFAULT '',
          "isCompleted" INTEGER NOT NULL DEFAULT 0,
          "priority" INTEGER,
          "remindersListID" INTEGER NOT NULL REFERENCES "remindersLists"("id") ON DELETE CASCADE
        ) STRICT

    Tests/ScanApp/Schema.swift:28:5  migration 'Create lists and reminders' · execute
      │ try #sql(
      │   """
      │   CREATE INDEX "idx_reminders_remindersListID" ON "reminders"("remindersListID")
      │   """
      │ )
      │ .execute(db)
        CREATE INDEX "idx_reminders_remindersListID" ON "reminders"("remindersListID")

    Tests/ScanApp/Schema.swift:36:5  migration 'Create tags' · execute
      │ try #sql(
      │   """
      │   CREATE TABLE "tags" (
      │     "id" INTEGER PRIMARY KEY,
      │     "title" TEXT NOT NULL DEFAULT ''
      │   ) STRICT
      │ …
        CREATE TABLE "tags" (
          "id" INTEGER PRIMARY KEY,
          "title" TEXT NOT NULL DEFAULT ''
        ) STRICT

    Tests/ScanApp/Schema.swift:45:5  migration 'Create tags' · execute
      │ try #sql(
      │   """
      │   CREATE TABLE "remindersTags" (
      │     "reminderID" INTEGER NOT NULL REFERENCES "reminders"("id") ON DELETE CASCADE,
      │     "tagID" INTEGER NOT NULL REFERENCES "tags"("id") ON DELETE CASCADE
      │   ) STRICT
      │ …
        CREATE TABLE "remindersTags" (
          "reminderID" INTEGER NOT NULL REFERENCES "reminders"("id") ON DELETE CASCADE,
          "tagID" INTEGER NOT NULL REFERENCES "tags"("id") ON DELETE CASCADE
        ) STRICT

    Tests/ScanApp/Schema.swift:45:5  schema
      │ table "remindersTags"
      [unindexed-foreign-key] "remindersTags"."reminderID" references "reminders" and has no index: each delete of a "reminders" row scans "remindersTags" for its children
        fix: CREATE INDEX "idx_remindersTags_reminderID" ON "remindersTags"("reminderID");

    Tests/ScanApp/Schema.swift:45:5  schema
      │ table "remindersTags"
      [unindexed-foreign-key] "remindersTags"."tagID" references "tags" and has no index: each delete of a "tags" row scans "remindersTags" for its children
        fix: CREATE INDEX "idx_remindersTags_tagID" ON "remindersTags"("tagID");

    Tests/ScanApp/Schema.swift:56:5  migration 'Seed' · execute
      │ try RemindersList.insert { RemindersList.Draft(title: "Home") }.execute(db)
        INSERT INTO "remindersLists"
        ("id", "title")
        VALUES
        (NULL, ?)
        -- ?1 = 'Home'

    Tests/ScanApp/Schema.swift:57:5  migration 'Seed' · execute
      │ try Reminder.insert { Reminder.Draft(title: "Groceries", remindersListID: 7) }.execute(db)
        INSERT INTO "reminders"
        ("id", "title", "isCompleted", "priority", "remindersListID")
        VALUES
        (NULL, ?, ?, NULL, ?)
        -- ?1 = 'Groceries', ?2 = 0, ?3 = 7
      error: SQLite error 787: FOREIGN KEY constraint failed (GRDB rolls back migration 'Seed' whole; the scan goes on with the schema before it)

    scan: 3 files, 162 lines · 21 queries, 19 rendered, 1 error, 1 skipped · findings: 4 temp-b-tree, 2 unindexed-foreign-key, 1 full-scan, 1 query-in-loop, 1 raw-splice
    """#
}

/// Checks a JSON value against a JSON schema's `type`, `required`, `properties`,
/// `additionalProperties: false`, `enum`, `items`, `minimum` and local `$ref`s: the keywords of
/// the SARIF subset the scan tests hold its reports to.
struct SchemaCheck {
  let schema: [String: Any]

  func problems(in value: Any, at path: String, against node: [String: Any]? = nil) -> [String] {
    var node = node ?? schema
    if let reference = node["$ref"] as? String, reference.hasPrefix("#/definitions/"),
      let definition = (schema["definitions"] as? [String: Any])?[String(reference.dropFirst(14))] as? [String: Any]
    {
      node = definition
    }
    var out: [String] = []
    if let type = node["type"] as? String {
      let matches: Bool
      switch type {
      case "object": matches = value is [String: Any]
      case "array": matches = value is [Any]
      case "string": matches = value is String
      case "integer":
        matches = (value as? NSNumber).map { ["q", "l", "i", "s", "Q", "L", "I", "S"].contains(String(cString: $0.objCType)) } ?? false
      default: matches = true
      }
      if !matches { return ["\(path): not a \(type)"] }
    }
    if let allowed = node["enum"] as? [String], !allowed.contains(value as? String ?? "\u{0}") {
      out.append("\(path): \(value) is not one of \(allowed)")
    }
    if let minimum = node["minimum"] as? Int, let number = value as? Int, number < minimum {
      out.append("\(path): \(number) is below \(minimum)")
    }
    if let object = value as? [String: Any] {
      let properties = node["properties"] as? [String: Any] ?? [:]
      for required in node["required"] as? [String] ?? [] where object[required] == nil {
        out.append("\(path): '\(required)' is required")
      }
      for (key, child) in object {
        if let rule = properties[key] as? [String: Any] {
          out += problems(in: child, at: path + "." + key, against: rule)
        } else if node["additionalProperties"] as? Bool == false {
          out.append("\(path): '\(key)' is not allowed")
        }
      }
    }
    if let array = value as? [Any], let items = node["items"] as? [String: Any] {
      for (index, item) in array.enumerated() { out += problems(in: item, at: "\(path)[\(index)]", against: items) }
    }
    return out
  }
}
