// The SyncUps example app's schema (SQLiteData's Examples/SyncUps), written for Quarry's
// real-code collection.
import Foundation
import SQLiteData

@Table
nonisolated struct SyncUp: Hashable, Identifiable {
  let id: UUID
  var seconds: Int = 60 * 5
  var theme: Theme = .bubblegum
  var title = ""
}

@Table
nonisolated struct Attendee: Hashable, Identifiable {
  let id: UUID
  var name = ""
  var syncUpID: SyncUp.ID
}

@Table
nonisolated struct Meeting: Hashable, Identifiable {
  let id: UUID
  var date: Date
  var syncUpID: SyncUp.ID
  var transcript: String
}

enum Theme: String, CaseIterable, Hashable, QueryBindable {
  case bubblegum
  case buttercup
  case lavender
  case navy
  case oxblood
}

// MARK: Set-up

extension DependencyValues {
  mutating func bootstrapDatabase() throws {
    defaultDatabase = try appDatabase()
  }
}

func appDatabase() throws -> any DatabaseWriter {
  let database = try SQLiteData.defaultDatabase()
  var migrator = DatabaseMigrator()
  migrator.registerMigration("Create initial tables") { db in
    try #sql(
      """
      CREATE TABLE "syncUps" (
        "id" TEXT PRIMARY KEY NOT NULL ON CONFLICT REPLACE DEFAULT (uuid()),
        "seconds" INTEGER NOT NULL ON CONFLICT REPLACE DEFAULT 300,
        "theme" TEXT NOT NULL ON CONFLICT REPLACE DEFAULT \(raw: Theme.bubblegum.rawValue),
        "title" TEXT NOT NULL ON CONFLICT REPLACE DEFAULT ''
      ) STRICT
      """
    )
    .execute(db)
    try #sql(
      """
      CREATE TABLE "attendees" (
        "id" TEXT PRIMARY KEY NOT NULL ON CONFLICT REPLACE DEFAULT (uuid()),
        "name" TEXT NOT NULL ON CONFLICT REPLACE DEFAULT '',
        "syncUpID" TEXT NOT NULL REFERENCES "syncUps"("id") ON DELETE CASCADE
      ) STRICT
      """
    )
    .execute(db)
    try #sql(
      """
      CREATE TABLE "meetings" (
        "id" TEXT PRIMARY KEY NOT NULL ON CONFLICT REPLACE DEFAULT (uuid()),
        "date" TEXT NOT NULL UNIQUE DEFAULT CURRENT_TIMESTAMP,
        "syncUpID" TEXT NOT NULL REFERENCES "syncUps"("id") ON DELETE CASCADE,
        "transcript" TEXT NOT NULL
      ) STRICT
      """
    )
    .execute(db)
  }
  try migrator.migrate(database)
  return database
}
