import InlineSnapshotTesting
import QuarryDSL
import Workbench
import XCTest

/// The SQL of a column follows how its type is stored (`@Column(as: …)`): JSON text, Unix time,
/// Julian days; defaults written as enum cases or `Date()` are used by drafts.
final class StorageRepresentationTests: SnapshotTestCase {
  static let docs = [
    ".raw CREATE TABLE docs (id INTEGER PRIMARY KEY, tags TEXT NOT NULL DEFAULT '[]', address TEXT)",
    #".raw INSERT INTO docs (tags, address) VALUES ('["a","b","c"]', '{"city":"Oslo","zip":"0150"}')"#,
    """
    @Selection struct Address: Codable {
      var city = ""
      var zip = ""
    }
    @Table struct Doc {
      let id: Int
      @Column(as: [String].JSONRepresentation.self)
      var tags: [String] = []
      @Column(as: Address?.JSONRepresentation.self)
      var address: Address?
    }
    """,
  ]

  func testJSONPathFunctionsChainAsTheLibraryRendersThem() throws {
    assertInlineSnapshot(
      of: try run(
        #"""
        Doc.update { $0.tags = $0.tags.jsonSet(\.[0], "z").jsonSet(\.[1], "y").jsonRemove(\.[2]) }.returning(\.tags)
        """#, setup: Self.docs), as: .lines
    ) {
      """
      UPDATE "docs"
      SET "tags" = json_remove(json_set("docs"."tags", '$[0]', 'z', '$[1]', 'y'), '$[2]')
      RETURNING "tags"
      ┌───────────┐
      │ tags      │
      ├───────────┤
      │ ["z","y"] │
      └───────────┘
      """
    }
  }

  func testJSONAppendAndExtract() throws {
    assertInlineSnapshot(
      of: try run(
        #"""
        Doc.select { ($0.tags.jsonAppend("d").jsonAppend("e"), $0.tags.jsonExtract(\.[-1]), $0.address.jsonExtract(\.city)) }
        """#, setup: Self.docs), as: .lines
    ) {
      """
      SELECT json_insert("docs"."tags", '$[#]', 'd', '$[#]', 'e'), json_extract("docs"."tags", '$[#-1]'), json_extract("docs"."address", '$."city"')
      FROM "docs"
      ┌──────────────────────────────────────────────────────┬───────────────────────────────────────┬────────────────────────────────────────────┐
      │ json_insert("docs"."tags", '$[#]', 'd', '$[#]', 'e') │ json_extract("docs"."tags", '$[#-1]') │ json_extract("docs"."address", '$."city"') │
      ├──────────────────────────────────────────────────────┼───────────────────────────────────────┼────────────────────────────────────────────┤
      │ ["a","b","c","d","e"]                                │ c                                     │ Oslo                                       │
      └──────────────────────────────────────────────────────┴───────────────────────────────────────┴────────────────────────────────────────────┘
      """
    }
  }

  func testAJSONStoredStructIsOneColumnOfJSONText() throws {
    assertInlineSnapshot(
      of: try run(
        #"""
        Doc.insert { Doc.Draft(tags: ["x"], address: Address(city: "Bergen", zip: "5003")) }.returning(\.address)
        """#, setup: Self.docs), as: .lines
    ) {
      """
      INSERT INTO "docs"
      ("id", "tags", "address")
      VALUES
      (NULL, '[
        "x"
      ]', '{
        "city" : "Bergen",
        "zip" : "5003"
      }')
      RETURNING "address"
      ┌───────────────────────────────────────────┐
      │ address                                   │
      ├───────────────────────────────────────────┤
      │ {↵  "city" : "Bergen",↵  "zip" : "5003"↵} │
      └───────────────────────────────────────────┘
      """
    }
  }

  func testJSONPathFunctionsNeedAJSONColumn() throws {
    assertInlineSnapshot(
      of: try run(
        #"""
        Doc.select { $0.id.jsonExtract(\.[0]) }
        """#, setup: Self.docs), as: .lines
    ) {
      #"""
      error: 1:20: 'jsonExtract' works on a JSON-stored value (a column declared with @Column(as: ….JSONRepresentation.self)), not on a value of type Int
      Doc.select { $0.id.jsonExtract(\.[0]) }
                         ^~~~~~~~~~~
      """#
    }
  }

  static let events = [
    ".raw CREATE TABLE events (id INTEGER PRIMARY KEY, startsAt INTEGER NOT NULL, day REAL NOT NULL, kind TEXT NOT NULL)",
    ".raw INSERT INTO events VALUES (1, 100, 2440587.5, 'talk'), (2, 86400, 2440588.5, 'workshop')",
    """
    enum Kind: String, QueryBindable { case talk, workshop }
    @Table struct Event {
      let id: Int
      @Column(as: Date.UnixTimeRepresentation.self)
      var startsAt: Date
      @Column(as: Date.JulianDayRepresentation.self)
      var day = Date(timeIntervalSince1970: 0)
      var kind: Kind = .workshop
    }
    """,
  ]

  func testDatesTakeTheColumnsStorage() throws {
    assertInlineSnapshot(
      of: try run(
        #"""
        Event.where { $0.startsAt > Date(timeIntervalSince1970: 50) && $0.day.lt(Date(timeIntervalSince1970: 86400)) }.select(\.id)
        """#, setup: Self.events), as: .lines
    ) {
      """
      SELECT "events"."id"
      FROM "events"
      WHERE ((("events"."startsAt") > (50)) AND (("events"."day") < (2440588.5)))
      ┌────┐
      │ id │
      ├────┤
      │ 1  │
      └────┘
      """
    }
  }

  func testDraftsUseDefaultsWrittenAsEnumCasesAndDates() throws {
    assertInlineSnapshot(
      of: try run(
        #"""
        Event.insert { Event.Draft(startsAt: Date(timeIntervalSince1970: 3600)) }.returning { ($0.startsAt, $0.day, $0.kind) }
        """#, setup: Self.events), as: .lines
    ) {
      """
      INSERT INTO "events"
      ("id", "startsAt", "day", "kind")
      VALUES
      (NULL, 3600, 2440587.5, 'workshop')
      RETURNING "startsAt", "day", "kind"
      ┌─────────────────────────┬─────────────────────────┬───────────┐
      │ startsAt                │ day                     │ kind      │
      ├─────────────────────────┼─────────────────────────┼───────────┤
      │ 1970-01-01 01:00:00.000 │ 1970-01-01 00:00:00.000 │ .workshop │
      └─────────────────────────┴─────────────────────────┴───────────┘
      """
    }
  }

  static let items = [
    ".raw CREATE TABLE items (id TEXT PRIMARY KEY, status INTEGER NOT NULL, token BLOB NOT NULL)",
    """
    @Table struct Item {
      enum Status: Int, QueryBindable { case open = 1, closed }
      @Column(as: UUID.UppercasedRepresentation.self)
      let id: UUID
      var status: Status = .open
      @Column(as: UUID.BytesRepresentation.self)
      var token: UUID
    }
    """,
  ]

  func testUUIDsTakeTheColumnsStorageAndNestedEnumsResolve() throws {
    assertInlineSnapshot(
      of: try run(
        #"""
        Item.insert { Item.Draft(id: UUID(uuidString: "deadbeef-0000-4000-8000-00000000000a")!, status: Item.Status.closed, token: UUID(10)) }
          .returning { ($0.id, $0.status, $0.token) }
        """#, setup: Self.items), as: .lines
    ) {
      """
      INSERT INTO "items"
      ("id", "status", "token")
      VALUES
      ('DEADBEEF-0000-4000-8000-00000000000A', 2, X'0000000000000000000000000000000A')
      RETURNING "id", "status", "token"
      ┌──────────────────────────────────────┬─────────┬──────────────────────────────────────┐
      │ id                                   │ status  │ token                                │
      ├──────────────────────────────────────┼─────────┼──────────────────────────────────────┤
      │ DEADBEEF-0000-4000-8000-00000000000A │ .closed │ 00000000-0000-0000-0000-00000000000a │
      └──────────────────────────────────────┴─────────┴──────────────────────────────────────┘
      """
    }
  }

  /// JSONB needs SQLite 3.45 (this machine has 3.40): the SQL is checked without running it.
  func testJSONBColumnsAreWrittenWithJSONBAndReadAsJSON() throws {
    let session = try Session.fixture("reminders")
    let compiler = Compiler(catalog: session.catalog)
    _ = try compiler.compile(
      """
      @Table struct Note {
        let id: Int
        @Column(as: [String].JSONBRepresentation.self)
        var tags: [String] = []
      }
      """)
    let sql = try ["Note.all", "Note.select(\\.tags)", "Note.insert { Note.Draft(tags: [\"x\"]) }"].map { input -> String in
      guard case .statement(let statement)? = try compiler.compile(input).last else { return "" }
      return statement.displaySQL
    }
    XCTAssertEqual(
      sql,
      [
        "SELECT \"notes\".\"id\", json(\"notes\".\"tags\")\nFROM \"notes\"",
        "SELECT json(\"notes\".\"tags\")\nFROM \"notes\"",
        "INSERT INTO \"notes\"\n(\"id\", \"tags\")\nVALUES\n(NULL, jsonb('[\n  \"x\"\n]'))",
      ])
  }

  func testJSONEachTurnsAnArrayIntoRows() throws {
    assertInlineSnapshot(
      of: try run(
        #"""
        Trip.select { ($0.title, $0.geofence.jsonEach().count(), $0.geofence.jsonEach().select { $0.value.jsonExtract(\.latitude).max() }) }
          .where { !$0.geofence.jsonEach().where { $0.value.jsonExtract(\.latitude) < 0 }.exists() }
        """#,
        setup: [
          ".raw CREATE TABLE trips (id INTEGER PRIMARY KEY, title TEXT NOT NULL, geofence TEXT NOT NULL)",
          #".raw INSERT INTO trips VALUES (1, 'Northern', '[{"latitude":60,"longitude":10,"label":"a"},{"latitude":70,"longitude":20,"label":"b"}]'), (2, 'Mixed', '[{"latitude":-5,"longitude":1,"label":"c"}]')"#,
          """
          @Selection struct Coordinate: Codable {
            var latitude = 0.0
            var longitude = 0.0
            var label = ""
          }
          @Table struct Trip {
            let id: Int
            var title = ""
            @Column(as: [Coordinate].JSONRepresentation.self)
            var geofence: [Coordinate] = []
          }
          """,
        ]), as: .lines
    ) {
      """
      SELECT "trips"."title", (
        SELECT count(*)
        FROM json_each("trips"."geofence")
      ), (
        SELECT max(json_extract("json_each"."value", '$."latitude"'))
        FROM json_each("trips"."geofence")
      )
      FROM "trips"
      WHERE (NOT (EXISTS (
        SELECT "json_each"."key", "json_each"."value"
        FROM json_each("trips"."geofence")
        WHERE ((json_extract("json_each"."value", '$."latitude"')) < (0))
      )))
      ┌──────────┬────────────────────────────────────────────────────────────┬──────────────────────────────────────────────────────────────┐
      │ title    │ (↵  SELECT count(*)↵  FROM json_each("trips"."geofence")↵) │ (↵  SELECT max(json_extract("json_each"."value", '$."latitu… │
      ├──────────┼────────────────────────────────────────────────────────────┼──────────────────────────────────────────────────────────────┤
      │ Northern │ 2                                                          │ 70                                                           │
      └──────────┴────────────────────────────────────────────────────────────┴──────────────────────────────────────────────────────────────┘
      """
    }
  }
}
