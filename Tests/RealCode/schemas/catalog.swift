// Models of the small examples in SQLiteData's documentation (a shop's items, a game's
// players, sports and their teams), written for Quarry's real-code collection.
import Foundation
import SQLiteData

@Table
struct Item: Identifiable {
  let id: Int
  var title = ""
  var name = ""
  var isInStock = true
  var price = 0.0
}

@Table
struct Player: Identifiable {
  let id: Int
  var name = ""
  var lastName = ""
  var score = 0
}

@Table
struct Sport: Identifiable {
  let id: Int
  var name = ""
}

@Table
struct Team: Identifiable {
  let id: Int
  var name = ""
  var sportID: Sport.ID
}

// MARK: Set-up

func appDatabase() throws -> any DatabaseWriter {
  let database = try DatabaseQueue()
  var migrator = DatabaseMigrator()
  migrator.registerMigration("Create tables") { db in
    try #sql("CREATE TABLE items (id INTEGER PRIMARY KEY, title TEXT NOT NULL DEFAULT '', name TEXT NOT NULL DEFAULT '', isInStock INTEGER NOT NULL DEFAULT 1, price REAL NOT NULL DEFAULT 0)").execute(db)
    try #sql("CREATE TABLE players (id INTEGER PRIMARY KEY, name TEXT NOT NULL DEFAULT '', lastName TEXT NOT NULL DEFAULT '', score INTEGER NOT NULL DEFAULT 0)").execute(db)
    try #sql("CREATE TABLE sports (id INTEGER PRIMARY KEY, name TEXT NOT NULL DEFAULT '')").execute(db)
    try #sql("CREATE TABLE teams (id INTEGER PRIMARY KEY, name TEXT NOT NULL DEFAULT '', sportID INTEGER NOT NULL REFERENCES sports(id))").execute(db)
  }
  try migrator.migrate(database)
  return database
}
