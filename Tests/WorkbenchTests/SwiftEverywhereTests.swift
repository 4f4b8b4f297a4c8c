import InlineSnapshotTesting
import Workbench
import XCTest

/// The same Swift gives the same value wherever it is written — a prompt constant, a query's
/// argument, a model's default, app code — as `swiftc` computes it (the values below were
/// printed by swiftc on this machine), and names mean what Swift's lookup makes them mean.
final class SwiftEverywhereTests: SnapshotTestCase {
  func testPromptConstantsAreSwiftsValues() throws {
    // swiftc: 3.5, "true", "Optional(1)", 2, 20, 2
    assertInlineSnapshot(
      of: try run(
        #"""
        let d: Double = 7 / 2
        let s = [10, 20, 30].dropFirst()
        let counts = ["a": 3, "b": 7]
        let v = if d > 3 { 2 } else { 6 }
        Values(d, "\(true)", "\([1, 2].first)", counts.count, s[1], v)
        """#), as: .lines
    ) {
      """
      SELECT 3.5, 'true', 'Optional(1)', 2, 20, 2
      ┌─────┬────────┬───────────────┬───┬────┬───┐
      │ 3.5 │ 'true' │ 'Optional(1)' │ 2 │ 20 │ 2 │
      ├─────┼────────┼───────────────┼───┼────┼───┤
      │ 3.5 │ true   │ Optional(1)   │ 2 │ 20 │ 2 │
      └─────┴────────┴───────────────┴───┴────┴───┘
      """
    }
  }

  func testSwiftTrapsAreRefusedWhereverTheyAre() throws {
    assertInlineSnapshot(
      of: try run(
        #"""
        Tag.where { $0.id.eq((3...1).count) }
        """#), as: .lines
    ) {
      """
      error: 1:24: this Swift is computed before the query runs, but it makes a range whose lower bound 3 is above its upper bound 1 (the app would crash here)
      Tag.where { $0.id.eq((3...1).count) }
                             ^
      """
    }
  }

  func testQueryArgumentsAndAssignmentsAreComputedAsSwiftComputesThem() throws {
    // swiftc: 3 ^ 5 = 6; (true ? 267 : nil) is Optional(267); max(2, 3) as Double is 3.0
    assertInlineSnapshot(
      of: try run(
        #"""
        let notes = ""
        Reminder.where { $0.id.eq(3 ^ 5) }.update { $0.notes = notes.isEmpty ? "none" : notes; $0.priority = true ? Priority.high : nil }
        """#), as: .lines
    ) {
      """
      UPDATE "reminders"
      SET "notes" = 'none', "priority" = 3
      WHERE (("reminders"."id") = (6))
      """
    }
  }

  func testModelDefaultsAreComputedWithTheirDeclaredType() throws {
    // swiftc: -0.2, 9, 3.5, "tab\there ✓", 3 (an Int: 7 / 2)
    assertInlineSnapshot(
      of: try run(
        #"""
        @Table("probes") struct Probe {
          let id: Int
          var v = -0.2
          var w: Int? = Int?(9)
          var r: Double = 7 / 2
          var t = "tab\there \u{2713}"
          var n = 7 / 2
        }
        Probe.insert { Probe.Draft() }
        """#, setup: [#".raw CREATE TABLE "probes" ("id" INTEGER PRIMARY KEY, "v", "w", "r", "t", "n")"#]), as: .lines
    ) {
      """
      INSERT INTO "probes"
      ("id", "v", "w", "r", "t", "n")
      VALUES
      (NULL, -0.2, 9, 3.5, 'tab	here ✓', 3)
      """
    }
  }

  func testADefaultQuarryCannotComputeIsRefusedWhereARowTakesIt() throws {
    assertInlineSnapshot(
      of: try run(
        #"""
        @Table("probes") struct Probe {
          let id: Int
          var v: Int? = makeV()
        }
        Probe.insert { Probe.Draft(v: 1) }
        Probe.insert { Probe.Draft() }
        """#, setup: [#".raw CREATE TABLE "probes" ("id" INTEGER PRIMARY KEY, "v")"#]), as: .lines
    ) {
      """
      INSERT INTO "probes"
      ("id", "v")
      VALUES
      (NULL, 1)
      error: 6:16: the default of 'v' (makeV()) uses Swift Quarry does not run, so its value is unknown here; pass 'v:' explicitly
      Probe.insert { Probe.Draft() }
                     ^~~~~~~~~~~~~
      """
    }
  }

  func testAppCodeChangesTheValuesLaterStatementsBind() throws {
    assertInlineSnapshot(
      of: try run(
        #"""
        try database.write { db in
          var title = "a"
          title += "b"
          var n = 0
          for i in 1...3 { n += i }
          if n > 5 { title = title.uppercased() }
          var ids = [1, 2]
          ids.append(3)
          try Tag.insert { Tag.Draft(title: title + "\(n)") }.execute(db)
          var tag = try Tag.find(1).fetchOne(db)!
          tag.title += "!"
          try Tag.update(tag).execute(db)
          try Tag.where { $0.id.in(ids) }.order(by: \.id).fetchAll(db)
        }
        """#), as: .lines
    ) {
      """
      INSERT INTO "tags"
      ("id", "title")
      VALUES
      (NULL, 'AB6')
      SELECT "tags"."id", "tags"."title"
      FROM "tags"
      WHERE (("tags"."id") IN ((1)))
      LIMIT 1
      ┌────┬────────┐
      │ id │ title  │
      ├────┼────────┤
      │ 1  │ errand │
      └────┴────────┘
      UPDATE "tags"
      SET "title" = 'errand!'
      WHERE (("tags"."id") = (1))
      SELECT "tags"."id", "tags"."title"
      FROM "tags"
      WHERE (("tags"."id") IN ((1), (2), (3)))
      ORDER BY "tags"."id"
      ┌────┬─────────┐
      │ id │ title   │
      ├────┼─────────┤
      │ 1  │ errand! │
      │ 2  │ someday │
      │ 3  │ urgent  │
      └────┴─────────┘
      """
    }
  }

  func testAChangeQuarryDoesNotFollowMakesTheValueUnknown() throws {
    assertInlineSnapshot(
      of: try run(
        #"""
        try database.write { db in
          var tag = try Tag.find(1).fetchOne(db)!
          tag.title = Naming.next(tag.title)
          try Tag.update(tag).execute(db)
        }
        """#), as: .lines
    ) {
      """
      SELECT "tags"."id", "tags"."title"
      FROM "tags"
      WHERE (("tags"."id") IN ((1)))
      LIMIT 1
      ┌────┬────────┐
      │ id │ title  │
      ├────┼────────┤
      │ 1  │ errand │
      └────┴────────┘
      error: 3:15: unknown table or type 'Naming'
        tag.title = Naming.next(tag.title)
                    ^~~~~~
      the write block at 1:5 failed: it runs in one transaction, so none of its changes stay
      """
    }
  }

  func testNamesAreLookedUpAsSwiftLooksThemUp() throws {
    let models = #"""
      @Table struct Employee: Identifiable {
        let id: UUID
        var name = ""
        var managerID: Employee.ID?
      }
      enum Library {
        @Table struct Book {
          let id: Int
          var kind: Kind = .novel
          enum Kind: Int, QueryBindable, CaseIterable { case novel, poem
            var label: String { self == .novel ? "N" : "P" }
          }
        }
      }
      @Table struct Gadget {
        let id: Int
        var kind: Kind = .builtin
        enum Kind: String, QueryBindable { case builtin = "b", custom }
      }
      enum Manager: AliasName {}
      """#
    assertInlineSnapshot(
      of: try run(
        #"""
        Employee.join(Employee.as(Manager.self).all) { $0.managerID.eq($1.id) }.select { ($0.name, $1.name) }
        Library.Book.where { $0.kind.eq(Library.Book.Kind.poem) }
        Library.Book.insert { Library.Book.Draft() }
        Gadget.insert { Gadget.Draft() }
        Library.Book.where { $0.kind.in(Library.Book.Kind.allCases) }.select { ($0.id, #bind(Library.Book.Kind.poem.label)) }
        """#,
        setup: [
          models,
          #".raw CREATE TABLE "employees" ("id" TEXT PRIMARY KEY, "name" TEXT, "managerID" TEXT)"#,
          #".raw CREATE TABLE "books" ("id" INTEGER PRIMARY KEY, "kind" INTEGER)"#,
          #".raw CREATE TABLE "gadgets" ("id" INTEGER PRIMARY KEY, "kind" TEXT)"#,
        ]), as: .lines
    ) {
      """
      SELECT "employees"."name", "managers"."name"
      FROM "employees"
      JOIN "employees" AS "managers" ON ("employees"."managerID") = ("managers"."id")
      ┌──────┬──────┐
      │ name │ name │
      ├──────┼──────┤
      └──────┴──────┘
      SELECT "books"."id", "books"."kind"
      FROM "books"
      WHERE (("books"."kind") = (1))
      ┌────┬──────┐
      │ id │ kind │
      ├────┼──────┤
      └────┴──────┘
      INSERT INTO "books"
      ("id", "kind")
      VALUES
      (NULL, 0)
      INSERT INTO "gadgets"
      ("id", "kind")
      VALUES
      (NULL, 'b')
      SELECT "books"."id", 'P'
      FROM "books"
      WHERE (("books"."kind") IN ((0), (1)))
      ┌────┬─────┐
      │ id │ 'P' │
      ├────┼─────┤
      │ 1  │ P   │
      └────┴─────┘
      """
    }
  }

  func testAppCodeThatWouldCrashStopsAndItsWriteBlockIsUndone() throws {
    assertInlineSnapshot(
      of: try run(
        #"""
        try database.write { db in
          try Tag.delete().execute(db)
          let tags = [String]()
          precondition(!tags.isEmpty, "no tags")
          try Tag.insert { Tag.Draft(title: "never") }.execute(db)
        }
        Tag.count()
        """#), as: .lines
    ) {
      """
      DELETE FROM "tags"
      error: 4:3: this precondition is false, so the app stops here (the app would crash here)
        precondition(!tags.isEmpty, "no tags")
        ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
      the write block at 1:5 failed: it runs in one transaction, so none of its changes stay
      this input's changes were undone (19 rows); the database is as it was before it
      """
    }
  }

  func testALoopQuarryCannotFollowIsRefusedWhereItsBodyTouchesTheDatabase() throws {
    assertInlineSnapshot(
      of: try run(
        #"""
        try database.write { db in
          for title in Set(["b", "a"]) {
            try Tag.insert { Tag.Draft(title: title) }.execute(db)
          }
        }
        """#), as: .lines
    ) {
      """
      error: 2:16: this loop goes over a Set, whose order Swift does not fix, so the order of the statements it runs is unknown; loop over a sorted array
        for title in Set(["b", "a"]) {
                     ^~~~~~~~~~~~~~~
      the write block at 1:5 failed: it runs in one transaction, so none of its changes stay
      """
    }
  }

  func testLoopsGoOverSwiftsSequences() throws {
    assertInlineSnapshot(
      of: try run(
        #"""
        try database.write { db in
          for (offset, title) in ["x", "y", "z"].enumerated() where offset > 0 {
            try Tag.insert { Tag.Draft(title: title + "\(offset)") }.execute(db)
          }
          for n in stride(from: 10, to: 0, by: -4) {
            try Tag.insert { Tag.Draft(title: "n\(n)") }.execute(db)
          }
        }
        """#), as: .lines
    ) {
      """
      INSERT INTO "tags"
      ("id", "title")
      VALUES
      (NULL, 'y1')
      INSERT INTO "tags"
      ("id", "title")
      VALUES
      (NULL, 'z2')
      INSERT INTO "tags"
      ("id", "title")
      VALUES
      (NULL, 'n10')
      INSERT INTO "tags"
      ("id", "title")
      VALUES
      (NULL, 'n6')
      INSERT INTO "tags"
      ("id", "title")
      VALUES
      (NULL, 'n2')
      """
    }
  }

  func testAModelsOwnInitIsTheOneItsCallsUse() throws {
    // swiftc: Entry(id: 5) has note "hi" and priority 2 (the init's defaults), Entry.Draft() the properties'.
    let models = #"""
      @Table struct Entry {
        let id: Int
        var note: String?
        var priority = 0
        init(id: Int, note: String? = "hi", priority: Int = 2) {
          self.id = id
          self.note = note
          self.priority = priority
        }
      }
      @Table struct Odd {
        let id: Int
        var title: String
        init(id: Int, raw: String) {
          self.id = id
          self.title = raw.trimmingCharacters(in: .whitespaces)
        }
      }
      @Table struct Named {
        let id: Int
        var title: String
        init(id: Int) {
          self.id = id
          self.title = Naming.next()
        }
      }
      """#
    assertInlineSnapshot(
      of: try run(
        #"""
        Entry.insert { Entry(id: 5) }
        Entry.insert { Entry.Draft() }
        Odd.insert { Odd(id: 1, raw: " x ") }
        Named.insert { Named(id: 1) }
        """#,
        setup: [
          models,
          #".raw CREATE TABLE "entries" ("id" INTEGER PRIMARY KEY, "note" TEXT, "priority" INTEGER)"#,
          #".raw CREATE TABLE "odds" ("id" INTEGER PRIMARY KEY, "title" TEXT)"#,
          #".raw CREATE TABLE "nameds" ("id" INTEGER PRIMARY KEY, "title" TEXT)"#,
        ]), as: .lines
    ) {
      """
      INSERT INTO "entries"
      ("id", "note", "priority")
      VALUES
      (5, 'hi', 2)
      INSERT INTO "entries"
      ("id", "note", "priority")
      VALUES
      (NULL, NULL, 0)
      INSERT INTO "odds"
      ("id", "title")
      VALUES
      (1, 'x')
      error: 4:16: the init declared at line 22 sets 'title' with Swift Quarry does not run (it uses 'Naming', which is not a parameter or a local value here); its value is unknown here
      Named.insert { Named(id: 1) }
                     ^~~~~~~~~~~~
      """
    }
  }

  func testAFailedMigrationStopsTheMigratorAndKeepsTheOnesBefore() throws {
    let migrations = #"""
      var migrator = DatabaseMigrator()
      migrator.registerMigration("one") { db in
        try #sql("CREATE TABLE a (id INTEGER PRIMARY KEY)").execute(db)
      }
      migrator.registerMigration("two") { db in
        try #sql("CREATE TABLE b (id INTEGER PRIMARY KEY)").execute(db)
        try #sql("INSERT INTO nosuch VALUES (1)").execute(db)
      }
      migrator.registerMigration("three") { db in
        try #sql("CREATE TABLE c (id INTEGER PRIMARY KEY)").execute(db)
      }
      try migrator.migrate(database)
      """#
    assertInlineSnapshot(of: try run(migrations), as: .lines) {
      """
      CREATE TABLE a (id INTEGER PRIMARY KEY)
      CREATE TABLE b (id INTEGER PRIMARY KEY)
      INSERT INTO nosuch VALUES (1)
      error: 7:3: SQLite error 1: no such table: nosuch
        try #sql("INSERT INTO nosuch VALUES (1)").execute(db)
        ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
      migration 'two' at 5:1 failed: its transaction is rolled back and the migrator stops there; the ones before it stay applied ('one'); nothing after it runs
      migration 'three' did not run: the migrator stopped at the failed one
      """
    }
    // As GRDB leaves it: 'one' applied, 'two' rolled back, 'three' never run.
    assertInlineSnapshot(
      of: try run(#"#sql("SELECT name FROM sqlite_schema WHERE name IN ('a', 'b', 'c')", as: String.self)"#, setup: [migrations]),
      as: .lines
    ) {
      """
      SELECT name FROM sqlite_schema WHERE name IN ('a', 'b', 'c')
      ┌──────┐
      │ name │
      ├──────┤
      │ a    │
      └──────┘
      """
    }
  }

  /// Asking whether a chain is Swift's never outgrows the stack: a chain of hundreds of links is
  /// refused where it starts, as the compiler refuses any expression nested that deep; one of
  /// thousands (100,000 ended Quarry on a stack overflow in swift-syntax's own `firstToken`) is
  /// refused as soon as it is parsed, before anything walks it, inside a function body too.
  func testALongChainOfSwiftIsRefusedNotACrash() throws {
    for count in [300, 3_000] {
      let swiftChain = "[1, 2]" + String(repeating: ".map { $0 + 1 }", count: count) + ".count"
      let queryChain = "Tag" + String(repeating: ".where { $0.id > 0 }", count: count)
      let limitChain = "Tag" + String(repeating: ".limit(1)", count: count)
      for input in [swiftChain, queryChain, limitChain] {
        let output = try run(input)
        XCTAssertTrue(output.hasPrefix("error: 1:1: ") && output.contains(" nests more than "), String(output.prefix(200)))
      }
    }
    let longest = try run("Tag" + String(repeating: ".limit(1)", count: 100_000))
    XCTAssertTrue(longest.hasPrefix("error: 1:1: this expression nests more than 2000 levels deep"), String(longest.prefix(200)))
    let body = "func f() -> Int {\n  let a = 1\n  return [1]" + String(repeating: ".map { $0 + 1 }", count: 3_000) + ".count\n}\nf()"
    let output = try run(body)
    XCTAssertTrue(output.hasPrefix("error: 3:3: this expression nests more than 2000 levels deep"), String(output.prefix(200)))
  }

  /// A struct of the input is a Swift value: built by its memberwise initializer, changed by
  /// property, printed as Swift prints it, and stored as the JSON StructuredQueries' (debug)
  /// encoder writes for a Codable one; a namespace's `static let` is its initializer's value.
  func testValueTypesAndStaticPropertiesAreSwiftValues() throws {
    // swiftc: {⏎  "frame" : "week",⏎  "label" : "a\/b",⏎  "target" : 4,⏎  "version" : 2⏎}
    //         Criteria(target: 1, frame: nil, label: "a/b", version: 2) 8 2
    //         E621E1F8-C36C-495A-93FC-0C247A3E6E5F (print(u), u.uuidString)
    assertInlineSnapshot(
      of: try run(
        #"""
        struct Criteria: Codable {
          var target: Int
          var frame: Frame?
          var label = "a/b"
          let version = 2
          enum Frame: String, Codable { case week }
          var doubled: Int { target * 2 }
        }
        enum Seed { static let targets = [3, 7] }
        var c = Criteria(target: 3, frame: .week)
        c.target += 1
        let u = UUID(uuidString: "e621e1f8-c36c-495a-93fc-0c247a3e6e5f")!
        Values(c, "\(Criteria(target: 1))", c.doubled, Seed.targets.count, "\(u)", u)
        """#), as: .lines
    ) {
      #"""
      SELECT '{
        "frame" : "week",
        "label" : "a\/b",
        "target" : 4,
        "version" : 2
      }', 'Criteria(target: 1, frame: nil, label: "a/b", version: 2)', 8, 2, 'E621E1F8-C36C-495A-93FC-0C247A3E6E5F', 'e621e1f8-c36c-495a-93fc-0c247a3e6e5f'
      ┌──────────────────────────────────────────────────────────────┬─────────────────────────────────────────────────────────────┬───┬───┬────────────────────────────────────────┬────────────────────────────────────────┐
      │ '{↵  "frame" : "week",↵  "label" : "a\/b",↵  "target" : 4,↵… │ 'Criteria(target: 1, frame: nil, label: "a/b", version: 2)' │ 8 │ 2 │ 'E621E1F8-C36C-495A-93FC-0C247A3E6E5F' │ 'e621e1f8-c36c-495a-93fc-0c247a3e6e5f' │
      ├──────────────────────────────────────────────────────────────┼─────────────────────────────────────────────────────────────┼───┼───┼────────────────────────────────────────┼────────────────────────────────────────┤
      │ {↵  "frame" : "week",↵  "label" : "a\/b",↵  "target" : 4,↵ … │ Criteria(target: 1, frame: nil, label: "a/b", version: 2)   │ 8 │ 2 │ E621E1F8-C36C-495A-93FC-0C247A3E6E5F   │ e621e1f8-c36c-495a-93fc-0c247a3e6e5f   │
      └──────────────────────────────────────────────────────────────┴─────────────────────────────────────────────────────────────┴───┴───┴────────────────────────────────────────┴────────────────────────────────────────┘
      """#
    }
  }

  /// `Model.insert { Namespace.all }` where `all` is a `static let` array of drafts: one row
  /// per draft, as Swift initializes the property.
  func testAStaticArrayOfDraftsInsertsEveryRow() throws {
    assertInlineSnapshot(
      of: try run(
        #"""
        struct Defaults {
          static let tags: [Tag.Draft] = [Tag.Draft(title: "gym bag"), Tag.Draft(title: "\(2 + 3) min")]
        }
        Tag.insert { Defaults.tags }
        """#), as: .lines
    ) {
      """
      INSERT INTO "tags"
      ("id", "title")
      VALUES
      (NULL, 'gym bag'), (NULL, '5 min')
      """
    }
  }

  /// Foundation's `Data` and `URL` and a `Tagged` ID's `rawValue`, as the app's values:
  /// swiftc prints `Data("hé".utf8)` as "3 bytes" (base64 "aMOp"), a URL as its absoluteString.
  func testDataURLAndTaggedIdentifiersAreTheAppsValues() throws {
    assertInlineSnapshot(
      of: try run(
        #"""
        @Table struct Player: Identifiable {
          typealias ID = Tagged<Self, Int>
          let id: ID
          var name = ""
          var avatar: Data?
          var homepage: URL?
        }
        #sql("CREATE TABLE players (id INTEGER PRIMARY KEY, name TEXT NOT NULL DEFAULT '', avatar BLOB, homepage TEXT)")
        Player.insert { Player.Draft(name: "a", avatar: Data("hé".utf8), homepage: URL(string: "https://x.org/a?b=1")) }
        let pid: Player.ID = 1
        let d = Data("hé".utf8)
        Player.where { $0.id.eq(pid.rawValue) }.select { ($0.avatar, $0.homepage) }
        Values("\(d)", d.count, d.base64EncodedString())
        """#), as: .lines
    ) {
      """
      CREATE TABLE players (id INTEGER PRIMARY KEY, name TEXT NOT NULL DEFAULT '', avatar BLOB, homepage TEXT)
      INSERT INTO "players"
      ("id", "name", "avatar", "homepage")
      VALUES
      (NULL, 'a', X'68C3A9', 'https://x.org/a?b=1')
      SELECT "players"."avatar", "players"."homepage"
      FROM "players"
      WHERE (("players"."id") = (1))
      ┌───────────┬─────────────────────┐
      │ avatar    │ homepage            │
      ├───────────┼─────────────────────┤
      │ x'68c3a9' │ https://x.org/a?b=1 │
      └───────────┴─────────────────────┘
      SELECT '3 bytes', 3, 'aMOp'
      ┌───────────┬───┬────────┐
      │ '3 bytes' │ 3 │ 'aMOp' │
      ├───────────┼───┼────────┤
      │ 3 bytes   │ 3 │ aMOp   │
      └───────────┴───┴────────┘
      """
    }
  }

  /// A `switch` over a value known before the query runs is matched by Swift's rules (the one
  /// evaluator): `.some(let k) where k > 3`, tuples, ranges; the case's body is the query's.
  func testASwitchInAQueryMatchesAsSwiftDoes() throws {
    assertInlineSnapshot(
      of: try run(
        #"""
        let n: Int? = 5
        let pair = (2, "x")
        Reminder.where {
          switch n {
          case .some(let k) where k > 3: $0.id.gt(k)
          default: true
          }
        }.where {
          switch pair {
          case (0..<2, _): $0.isFlagged
          case (let a, "x"): $0.id.neq(a)
          default: false
          }
        }.where {
          if case .some(let k) = n, case 1...9 = k { $0.id.lt(k + 5) }
        }.select(\.id)
        """#), as: .lines
    ) {
      """
      SELECT "reminders"."id"
      FROM "reminders"
      WHERE (("reminders"."id") > (5)) AND (("reminders"."id") <> (2)) AND (("reminders"."id") < (10))
      ┌────┐
      │ id │
      ├────┤
      │ 6  │
      │ 7  │
      │ 8  │
      │ 9  │
      └────┘
      """
    }
  }

  /// A plain struct is a Swift value type, not an error: its own `init` runs (defaults,
  /// `self.a = …` and a bare property name), and a use as a table says what it is.
  /// swiftc: 4 q P(a: 6, b: "n") 1
  func testAPlainStructAndItsInitAreSwifts() throws {
    assertInlineSnapshot(
      of: try run(
        #"""
        struct P { var a: Int; var b = "x"; init(a: Int, note: String = "n") { self.a = a * 2; b = note } }
        struct R { var x: Int; var z = 1 }
        Values(P(a: 2).a, P(a: 1, note: "q").b, "\(P(a: 3))", R(x: 4).z)
        R.all
        """#), as: .lines
    ) {
      """
      SELECT 4, 'q', 'P(a: 6, b: "n")', 1
      ┌───┬─────┬───────────────────┬───┐
      │ 4 │ 'q' │ 'P(a: 6, b: "n")' │ 1 │
      ├───┼─────┼───────────────────┼───┤
      │ 4 │ q   │ P(a: 6, b: "n")   │ 1 │
      └───┴─────┴───────────────────┴───┘
      error: 4:3: this Swift is computed before the query runs, but it uses 'R.all': 'R' is a struct of Swift values with no static 'all' (add @Table to query it as a table)
      R.all
        ^
      """
    }
  }

  /// A model default that builds a Codable struct (`= .init()`), declared after the model with
  /// an enum declared after it, is the JSON its `JSONRepresentation` stores. swiftc's encoder
  /// (pretty, sorted keys) writes {⏎  "soundName" : "Default",⏎  "type" : "onlyOnce"⏎}.
  func testADefaultBuildingAStructDeclaredLaterIsItsJSON() throws {
    assertInlineSnapshot(
      of: try run(
        #"""
        @Table("countdowns") struct Countdown: Identifiable {
          let id: Int
          var title = ""
          @Column(as: CountdownReminder.JSONRepresentation.self)
          var reminder: CountdownReminder = .init()
        }
        enum ReminderType: String, Codable { case noReminder, onlyOnce }
        struct CountdownReminder: Codable, Equatable {
          var type: ReminderType = .onlyOnce
          var soundName: String = "Default"
          init(type: ReminderType = .onlyOnce, soundName: String = "Default") {
            self.type = type
            self.soundName = soundName
          }
        }
        #sql("CREATE TABLE countdowns (id INTEGER PRIMARY KEY, title TEXT NOT NULL DEFAULT '', reminder TEXT NOT NULL)")
        Countdown.insert { Countdown.Draft(title: "x") }
        """#), as: .lines
    ) {
      """
      CREATE TABLE countdowns (id INTEGER PRIMARY KEY, title TEXT NOT NULL DEFAULT '', reminder TEXT NOT NULL)
      INSERT INTO "countdowns"
      ("id", "title", "reminder")
      VALUES
      (NULL, 'x', '{
        "soundName" : "Default",
        "type" : "onlyOnce"
      }')
      """
    }
  }
}
