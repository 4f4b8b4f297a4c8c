import SQLiteData

func appDatabase() throws -> any DatabaseWriter {
  let database = try DatabaseQueue()
  var migrator = DatabaseMigrator()
  migrator.registerMigration("Create lists and reminders") { db in
    try #sql(
      """
      CREATE TABLE "remindersLists" (
        "id" INTEGER PRIMARY KEY,
        "title" TEXT NOT NULL DEFAULT ''
      ) STRICT
      """
    )
    .execute(db)
    try #sql(
      """
      CREATE TABLE "reminders" (
        "id" INTEGER PRIMARY KEY,
        "title" TEXT NOT NULL DEFAULT '',
        "isCompleted" INTEGER NOT NULL DEFAULT 0,
        "priority" INTEGER,
        "remindersListID" INTEGER NOT NULL REFERENCES "remindersLists"("id") ON DELETE CASCADE
      ) STRICT
      """
    )
    .execute(db)
    try #sql(
      """
      CREATE INDEX "idx_reminders_remindersListID" ON "reminders"("remindersListID")
      """
    )
    .execute(db)
  }
  migrator.registerMigration("Create tags") { db in
    try #sql(
      """
      CREATE TABLE "tags" (
        "id" INTEGER PRIMARY KEY,
        "title" TEXT NOT NULL DEFAULT ''
      ) STRICT
      """
    )
    .execute(db)
    try #sql(
      """
      CREATE TABLE "remindersTags" (
        "reminderID" INTEGER NOT NULL REFERENCES "reminders"("id") ON DELETE CASCADE,
        "tagID" INTEGER NOT NULL REFERENCES "tags"("id") ON DELETE CASCADE
      ) STRICT
      """
    )
    .execute(db)
  }
  migrator.registerMigration("Seed") { db in
    try RemindersList.insert { RemindersList.Draft(title: "Home") }.execute(db)
    try Reminder.insert { Reminder.Draft(title: "Groceries", remindersListID: 7) }.execute(db)
  }
  try migrator.migrate(database)
  return database
}
