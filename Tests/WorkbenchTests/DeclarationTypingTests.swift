import InlineSnapshotTesting
import Workbench
import XCTest

/// Stored properties typed as Swift types them: from the annotation, or from the default by
/// Swift's rules, whatever order the types are declared in.
final class DeclarationTypingTests: SnapshotTestCase {
  static let jobs = """
    .raw CREATE TABLE jobs (id INTEGER PRIMARY KEY, title TEXT NOT NULL DEFAULT '', status INTEGER NOT NULL DEFAULT 0, \
    done INTEGER NOT NULL DEFAULT 0, total INTEGER NOT NULL DEFAULT 10, score INTEGER NOT NULL DEFAULT -1, due TEXT); \
    INSERT INTO jobs (title, status, done, total) VALUES ('ship', 1, 3, 10), ('plan', 0, 0, 10), ('test', 1, 10, 10)
    """

  func testDefaultsGiveTheTypeSwiftInfersWhateverTheOrder() throws {
    assertInlineSnapshot(
      of: try run(
        #"""
        @Table struct Job {
          let id: Int
          var title = ""
          var status = Status.todo
          var progress = Progress()
          var score = -1
          var due = Date.now
        }
        enum Status: Int, QueryBindable { case todo, done }
        @Selection struct Progress { var done = 0; var total = 10 }
        Job.where { $0.status.eq(Status.done) && $0.progress.done.lt($0.progress.total) }.select { ($0.title, $0.score) }
        """#, setup: [Self.jobs]), as: .lines
    ) {
      """
      SELECT "jobs"."title", "jobs"."score"
      FROM "jobs"
      WHERE ((("jobs"."status") = (1)) AND (("jobs"."done") < ("jobs"."total")))
      ┌───────┬───────┐
      │ title │ score │
      ├───────┼───────┤
      │ ship  │ -1    │
      └───────┴───────┘
      """
    }
  }

  /// `Session.ID` is the type of `Session.id` (Identifiable's `ID`): with a `UUID` key,
  /// `Session.ID(uuidString:)` is `UUID(uuidString:)`; enum cases nest in a table and
  /// `allCases` lists them (twocentstudios/train-tracker-talk, bradhowes/SoundFontsPlus).
  func testAnIdentifiablesIDIsTheTypeOfItsKeyAndCasesAreListed() throws {
    assertInlineSnapshot(
      of: try run(
        #"""
        @Table struct Visit: Hashable, Identifiable {
          let id: UUID
          var kind: Kind
          enum Kind: String, CaseIterable, QueryBindable { case walk, train }
        }
        Visit.where { $0.id.eq(Visit.ID(uuidString: "4BDDA56F-04BC-4F61-B7F3-9CDE8FCDEB96")!) }
        Visit.where { $0.kind.in(Visit.Kind.allCases) }.count()
        Visit.ID(uuidString: "4bdda56f")!
        """#, setup: [".raw CREATE TABLE visits (id TEXT PRIMARY KEY, kind TEXT NOT NULL)"]), as: .lines
    ) {
      """
      SELECT "visits"."id", "visits"."kind"
      FROM "visits"
      WHERE (("visits"."id") = ('4bdda56f-04bc-4f61-b7f3-9cde8fcdeb96'))
      ┌────┬──────┐
      │ id │ kind │
      ├────┼──────┤
      └────┴──────┘
      SELECT count(*)
      FROM "visits"
      WHERE (("visits"."kind") IN (('walk'), ('train')))
      ┌──────────┐
      │ count(*) │
      ├──────────┤
      │ 0        │
      └──────────┘
      error: 8:22: not a UUID: "4bdda56f"
      Visit.ID(uuidString: "4bdda56f")!
                           ^~~~~~~~~~
      """
    }
  }

  /// `ID` written inside a type nested in a table (`FontTag.Ubiquitous`) is looked up outward,
  /// as Swift does: the table's `Tagged<Self, Int64>`, made with `.init(rawValue:)` and bound as
  /// its raw value, of the key's type; a literal `FontTag.ID(rawValue: 7)` takes that type, an
  /// `Int` variable does not (bradhowes/SoundFontsPlus).
  func testAnIDWrittenInANestedTypeIsTheTablesTaggedKey() throws {
    assertInlineSnapshot(
      of: try run(
        #"""
        @Table struct FontTag: Identifiable {
          typealias ID = Tagged<Self, Int64>
          enum Ubiquitous: CaseIterable {
            case all, builtIn
            var index: Int {
              switch self {
              case .all: return 0
              case .builtIn: return 1
              }
            }
            var id: ID { .init(rawValue: .init(index + 1)) }
          }
          let id: ID
          var name: String
        }
        FontTag.where { $0.id.eq(FontTag.Ubiquitous.builtIn.id) }
        FontTag.find(FontTag.ID(rawValue: 1))
        let n = 1
        FontTag.find(FontTag.ID(rawValue: n))
        """#,
        setup: [
          ".raw CREATE TABLE fontTags (id INTEGER PRIMARY KEY, name TEXT NOT NULL); INSERT INTO fontTags VALUES (1, 'All'), (2, 'Built-in')"
        ]),
      as: .lines
    ) {
      """
      SELECT "fontTags"."id", "fontTags"."name"
      FROM "fontTags"
      WHERE (("fontTags"."id") = (2))
      ┌────┬──────────┐
      │ id │ name     │
      ├────┼──────────┤
      │ 2  │ Built-in │
      └────┴──────────┘
      SELECT "fontTags"."id", "fontTags"."name"
      FROM "fontTags"
      WHERE (("fontTags"."id") IN ((1)))
      ┌────┬──────┐
      │ id │ name │
      ├────┼──────┤
      │ 1  │ All  │
      └────┴──────┘
      error: 19:9: static method 'find' requires the types 'Int64' and 'Int' be equivalent
      FontTag.find(FontTag.ID(rawValue: n))
              ^~~~
      """
    }
  }

  /// An alias type's own `aliasName` is the alias rendered, as the library's `AliasName`
  /// protocol lets a type declare it; without one, the type's name, pluralized.
  func testAnAliasNameDeclaredIsTheOneRendered() throws {
    assertInlineSnapshot(
      of: try run(
        #"""
        enum M: AliasName { static let aliasName = "m" }
        enum Other: AliasName {}
        Reminder.join(Reminder.all.as(M.self)) { $0.id.eq($1.id) }.join(Reminder.all.as(Other.self)) { $1.id.eq($2.id) }.select { ($0.id, $1.id, $2.id) }.limit(1)
        """#), as: .lines
    ) {
      """
      SELECT "reminders"."id", "m"."id", "others"."id"
      FROM "reminders"
      JOIN "reminders" AS "m" ON ("reminders"."id") = ("m"."id")
      JOIN "reminders" AS "others" ON ("m"."id") = ("others"."id")
      LIMIT 1
      ┌────┬────┬────┐
      │ id │ id │ id │
      ├────┼────┼────┤
      │ 1  │ 1  │ 1  │
      └────┴────┴────┘
      """
    }
  }

  func testADraftUsesTheInferredDefaults() throws {
    assertInlineSnapshot(
      of: try run(
        #"""
        enum Kinds { enum Status: Int, QueryBindable { case todo, done } }
        @Table struct Job {
          let id: Int
          var title = "untitled"
          var status = Kinds.Status.done
          var score = -1
        }
        Job.insert { Job.Draft() }.returning { ($0.title, $0.status, $0.score) }
        """#, setup: [Self.jobs]), as: .lines
    ) {
      """
      INSERT INTO "jobs"
      ("id", "title", "status", "score")
      VALUES
      (NULL, 'untitled', 1, -1)
      RETURNING "title", "status", "score"
      ┌──────────┬────────┬───────┐
      │ title    │ status │ score │
      ├──────────┼────────┼───────┤
      │ untitled │ .done  │ -1    │
      └──────────┴────────┴───────┘
      """
    }
  }

  func testADefaultSwiftCannotTypeAloneNeedsItsTypeWritten() throws {
    assertInlineSnapshot(
      of: try run(
        #"""
        @Table struct Job {
          let id: Int
          var note = nil
        }
        """#), as: .lines
    ) {
      """
      error: 3:14: cannot tell the type of 'note' from its default; write it (var note: Type = …)
        var note = nil
                   ^~~
      """
    }
  }

  /// `#if` is decided for one build: a debug build for the iOS simulator (SwiftIfConfig), in a
  /// model's members and in app code alike.
  func testIfConfigIsDecidedForTheAppsDebugBuild() throws {
    assertInlineSnapshot(
      of: try run(
        #"""
        @Table struct Tag {
          let id: Int
          #if DEBUG || os(macOS)
          var title = ""
          #else
          var releaseTitle = ""
          #endif
        }
        #if os(Linux)
        Tag.count()
        #elseif canImport(UIKit) && DEBUG
        Tag.order(by: \.title).limit(2)
        #endif
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
      """
    }
  }
}

/// A default Swift computes at each use — `var id = UUID()`, a default argument
/// `id: UUID = UUID()`, `var createdAt = Date()` — gives each row its own value, as Swift calls it
/// afresh for each record: two inserts never share an id.
final class VolatileDefaultTests: SnapshotTestCase {
  func testEachRowGetsItsOwnUUIDFromADefault() throws {
    assertInlineSnapshot(
      of: try run(
        #"""
        @Table struct Item: Identifiable {
          var id: UUID = UUID()
          var title: String
        }
        @Table struct Note: Identifiable {
          let id: UUID
          var body: String
          init(id: UUID = UUID(), body: String) { self.id = id; self.body = body }
        }
        Item.insert { Item(title: "a") }
        Item.insert { Item(title: "b") }
        Note.insert { Note(body: "x") }
        Note.insert { Note(body: "y") }
        #sql("SELECT (SELECT count(DISTINCT id) FROM items) AS items, (SELECT count(DISTINCT id) FROM notes) AS notes", as: (Int, Int).self)
        """#,
        setup: [
          ".raw CREATE TABLE items (id TEXT PRIMARY KEY, title TEXT NOT NULL); CREATE TABLE notes (id TEXT PRIMARY KEY, body TEXT NOT NULL)"
        ]
      ).components(separatedBy: "\n").suffix(6).joined(separator: "\n"), as: .lines
    ) {
      """
      SELECT (SELECT count(DISTINCT id) FROM items) AS items, (SELECT count(DISTINCT id) FROM notes) AS notes
      ┌───────┬───────┐
      │ items │ notes │
      ├───────┼───────┤
      │ 2     │ 2     │
      └───────┴───────┘
      """
    }
  }
}

/// A record's fields read back from a value the input made: given or left to their defaults, each
/// of its declared type, and interpolated as Swift prints it. Expected values from swiftc
/// (a struct with the same fields and defaults, `print("\(r.isFlagged)|\(r.priority)|…")`):
/// `true|nil|nil|!|Optional(3)|0.5|0`.
final class RecordFieldTests: SnapshotTestCase {
  func testFieldsOfARecordAreSwiftValuesOfTheirDeclaredType() throws {
    assertInlineSnapshot(
      of: try run(
        #"""
        enum Level: Int, QueryBindable { case low = 1, medium, high }
        @Table struct Item: Identifiable {
          let id: Int
          var isFlagged = false
          var level: Level?
          var notes = ""
          var count: Int? = 3
          var ratio = 0.5
        }
        let r = Item.Draft(isFlagged: true)
        #sql("SELECT \("\(r.isFlagged)|\(r.level)|\(r.id)|\(r.notes)!|\(r.count)|\(r.ratio)|\(r.level?.rawValue ?? 0)") AS printed", as: String.self)
        """#,
        setup: [".raw CREATE TABLE items (id INTEGER PRIMARY KEY, isFlagged INTEGER, level INTEGER, notes TEXT, count INTEGER, ratio REAL)"]
      ).components(separatedBy: "\n").suffix(5).joined(separator: "\n"), as: .lines
    ) {
      """
      ┌──────────────────────────────────┐
      │ printed                          │
      ├──────────────────────────────────┤
      │ true|nil|nil|!|Optional(3)|0.5|0 │
      └──────────────────────────────────┘
      """
    }
  }

  /// A record's JSON column holds the array Swift holds, not the text SQLite stores: Quarry does
  /// not read the text back as the array, so `tags.count` is refused (Swift: 2), never the
  /// text's length (16). The record's other fields are Swift's as usual.
  func testAJSONColumnOfARecordIsNotItsText() throws {
    assertInlineSnapshot(
      of: try run(
        #"""
        @Table("docs") struct Doc {
          let id: Int
          @Column(as: [String].JSONRepresentation.self) var tags: [String] = []
          var title = ""
        }
        var d = Doc(id: 1, tags: ["a", "b"], title: "x")
        d.title += "!"
        Values(d.title, d.tags.count)
        """#
      ), as: .lines
    ) {
      """
      error: 8:17: an expression has no property 'count'; did you mean a method call like '.count()'?
      Values(d.title, d.tags.count)
                      ^~~~~~~~~~~~
      """
    }
  }

  /// Records in an array: a slice keeps its indices (`rest[1]` of `tags.dropFirst()` is the
  /// second tag; `rest[0]` traps), and optional chaining makes an optional. Expected values from
  /// swiftc (a struct with the same fields): `2 2 3 3 2 Optional("a") a`.
  func testASliceOfRecordsKeepsItsIndices() throws {
    assertInlineSnapshot(
      of: try run(
        #"""
        let tags = [Tag(id: 1, title: "a"), Tag(id: 2, title: "b"), Tag(id: 3, title: "c")]
        let rest = tags.dropFirst()
        Values(rest[1].id, rest.first!.id, tags.suffix(1)[2].id, rest.dropFirst()[2].id, rest.count, "\(tags.first?.title)", tags.first?.title ?? "none")
        Values(rest[0].id)
        """#
      ).components(separatedBy: "\n").suffix(8).joined(separator: "\n"), as: .lines
    ) {
      #"""
      ┌───┬───┬───┬───┬───┬─────────────────┬─────┐
      │ 2 │ 2 │ 3 │ 3 │ 2 │ 'Optional("a")' │ 'a' │
      ├───┼───┼───┼───┼───┼─────────────────┼─────┤
      │ 2 │ 2 │ 3 │ 3 │ 2 │ Optional("a")   │ a   │
      └───┴───┴───┴───┴───┴─────────────────┴─────┘
      error: 4:13: this Swift is computed before the query runs, but it reads index 0 of a slice whose indices are 1..<3 (the app would crash here)
      Values(rest[0].id)
                  ^
      """#
    }
  }

  /// A default made afresh (`UUID()`) is made once, when the draft is, and the draft keeps it;
  /// what Swift would print with the app's module name is refused at the field; a field with no
  /// default must be given, as the compiler says.
  func testWhatCannotBeKnownIsRefusedWhereItIsRead() throws {
    assertInlineSnapshot(
      of: try run(
        #"""
        @Table struct Entry: Identifiable {
          let id: UUID
          var stamp: UUID = UUID()
          var title: String
        }
        let e = Entry.Draft(title: "a")
        Entry.insert { e }
        Entry.where { $0.stamp.eq(e.stamp) }.count()
        let p = Reminder.Draft(isFlagged: true, priority: .high, remindersListID: 1, title: "x", updatedAt: Date())
        Tag.where { $0.title.eq("\(p.priority)") }
        Reminder.Draft(remindersListID: 1, title: "x")
        """#,
        setup: [".raw CREATE TABLE entries (id TEXT PRIMARY KEY, stamp TEXT, title TEXT)"]
      ).replacing(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/, with: "<one uuid>"), as: .lines
    ) {
      """
      INSERT INTO "entries"
      ("id", "stamp", "title")
      VALUES
      (NULL, '<one uuid>', 'a')
      SELECT count(*)
      FROM "entries"
      WHERE (("entries"."stamp") = ('<one uuid>'))
      ┌──────────┐
      │ count(*) │
      ├──────────┤
      │ 1        │
      └──────────┘
      error: 10:28: Quarry cannot tell what Swift prints here: this value prints a value of the input's own type inside a collection, an optional or a struct, which Swift names with the app's module (MyApp.Type.case); print its properties or rawValue instead
      Tag.where { $0.title.eq("\\(p.priority)") }
                                 ^~~~~~~~~~
      error: 11:46: missing argument for parameter 'updatedAt' in call
      Reminder.Draft(remindersListID: 1, title: "x")
                                                   ^
      """
    }
  }
}

/// A column group (`var counts: Counts`, a `@Selection` type flattened into its columns) is one
/// field of the memberwise initializer, as the compiler sees it: left out, the compiler names the
/// group, not one of its columns, and refuses a record without it (the columns were NULL); a
/// group's own default (`= Counts(seen: 2)`) gives its columns theirs (it was refused as missing).
/// The SQL is StructuredQueries 7cdc5c4's, and swiftc's message for `Gauge(id: 1)` (for
/// `Gauge.Draft()` swiftc names "parameter #1", the draft's copying initializer).
final class ColumnGroupFieldTests: SnapshotTestCase {
  func testAGroupIsOneFieldWithItsOwnDefault() throws {
    assertInlineSnapshot(
      of: try run(
        #"""
        @Selection struct Counts { var seen: Int; var missed: Int? }
        @Table struct Counter { let id: Int; var title = ""; var counts = Counts(seen: 2) }
        @Table struct Gauge { let id: Int; var counts: Counts }
        Counter.insert { Counter.Draft(title: "a") }
        Gauge.insert { Gauge.Draft() }
        Gauge.insert { Gauge(id: 1) }
        Gauge.insert { Gauge.Draft(counts: Counts(seen: 1)) }
        """#,
        setup: [
          ".raw CREATE TABLE counters (id INTEGER PRIMARY KEY, title TEXT, seen INTEGER, missed INTEGER)",
          ".raw CREATE TABLE gauges (id INTEGER PRIMARY KEY, seen INTEGER, missed INTEGER)",
        ]
      ), as: .lines
    ) {
      """
      INSERT INTO "counters"
      ("id", "title", "seen", "missed")
      VALUES
      (NULL, 'a', 2, NULL)
      error: 5:28: missing argument for parameter 'counts' in call
      Gauge.insert { Gauge.Draft() }
                                 ^
      error: 6:27: missing argument for parameter 'counts' in call
      Gauge.insert { Gauge(id: 1) }
                                ^
      INSERT INTO "gauges"
      ("id", "seen", "missed")
      VALUES
      (NULL, 1, NULL)
      """
    }
  }
}

/// A type name is looked up from where it is written, outward, as the compiler does: `Kind`
/// inside `extension Font` is `Font.Kind`, inside `extension Preset` it is `Preset.Kind`, and at
/// the top level, where two types nest one, it names neither.
final class NestedTypeLookupTests: SnapshotTestCase {
  func testABareNestedNameIsTheEnclosingTypes() throws {
    assertInlineSnapshot(
      of: try run(
        #"""
        @Table struct Font: Identifiable { let id: Int; var kind: Kind; enum Kind: Int, QueryBindable { case builtin, user } }
        @Table struct Preset: Identifiable { let id: Int; var kind: Kind; enum Kind: Int, QueryBindable { case user, builtin } }
        extension Font { static let builtins = Self.where { $0.kind.eq(Kind.builtin) } }
        extension Preset { static let builtins = Self.where { $0.kind.eq(Kind.builtin) } }
        Font.builtins.select(\.id)
        Preset.builtins.select(\.id)
        Font.where { $0.kind.eq(Kind.user) }
        """#,
        setup: [
          ".raw CREATE TABLE fonts (id INTEGER PRIMARY KEY, kind INTEGER); CREATE TABLE presets (id INTEGER PRIMARY KEY, kind INTEGER)"
        ]
      ).components(separatedBy: "\n").filter { !$0.hasPrefix("┌") && !$0.hasPrefix("├") && !$0.hasPrefix("└") && !$0.hasPrefix("│") }
        .joined(separator: "\n"), as: .lines
    ) {
      """
      SELECT "fonts"."id"
      FROM "fonts"
      WHERE (("fonts"."kind") = (0))
      SELECT "presets"."id"
      FROM "presets"
      WHERE (("presets"."kind") = (1))
      error: 7:25: unknown table or type 'Kind'
      Font.where { $0.kind.eq(Kind.user) }
                              ^~~~
      """
    }
  }
}
