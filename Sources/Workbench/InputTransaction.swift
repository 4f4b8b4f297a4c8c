import QuarryEngine

/// The savepoint an input's writes run in: all of them stay, or none. Ending it is checked —
/// a commit that fails ("database is locked": another connection is reading or writing) rolls
/// the input back and says so, and a rollback says how many rows it undid. Nothing is reported
/// saved that was not, and the session never goes on inside a transaction nobody opened.
///
/// ```
/// quarry> Tag.insert { Tag.Draft(title: "a") }; Tag.insert { Tag(id: 1, title: "b") }
/// 1 row changed
/// error: … UNIQUE constraint failed: tags.id
/// note: this input's changes were undone (1 row)
/// ```
struct InputTransaction {
  let database: Database
  let name: String
  /// Whether the savepoint began the transaction (its release is the commit).
  let beganTransaction: Bool
  let changesBefore: Int

  /// Opens the savepoint.
  init(_ database: Database, name: String) throws {
    self.database = database
    self.name = name
    beganTransaction = !database.isInTransaction
    changesBefore = database.totalChanges
    try database.execute("SAVEPOINT \(name)")
  }

  /// What ending the input's transaction did, to tell the user.
  enum Outcome {
    case saved
    /// The input failed part-way: its changes (this many rows) were undone.
    case undone(rows: Int)
    /// The commit itself failed: everything the input changed was undone.
    case notSaved(SQLiteError, rows: Int)
  }

  /// Releases the savepoint (the commit, when it began the transaction), or rolls it back when
  /// the input failed.
  func end(rollingBack: Bool) -> Outcome {
    let rows = max(0, database.totalChanges - changesBefore)
    if rollingBack {
      undo()
      return .undone(rows: rows)
    }
    do {
      try database.execute("RELEASE \(name)")
      return .saved
    } catch let error as SQLiteError {
      undo()
      return .notSaved(error, rows: rows)
    } catch {
      undo()
      return .notSaved(SQLiteError(code: 1, message: "\(error)"), rows: rows)
    }
  }

  private func undo() {
    if beganTransaction {
      // The whole transaction is this input's: end it, so the session is out of it again (a
      // RELEASE after ROLLBACK TO would try the same commit again).
      if (try? database.execute("ROLLBACK")) == nil {
        try? database.execute("ROLLBACK TO \(name)")
        try? database.execute("RELEASE \(name)")
      }
    } else {
      try? database.execute("ROLLBACK TO \(name)")
      try? database.execute("RELEASE \(name)")
    }
  }

  /// The message for an outcome the user must hear about (nil: saved, or nothing to undo).
  func message(for outcome: Outcome) -> (text: String, isError: Bool)? {
    switch outcome {
    case .saved:
      return nil
    case .undone(let rows):
      guard rows > 0 else { return nil }
      return ("this input's changes were undone (\(rows) row\(rows == 1 ? "" : "s")); the database is as it was before it", false)
    case .notSaved(let error, let rows):
      let busy = error.code & 0xFF == 5 || error.code & 0xFF == 6
      let why =
        busy
        ? "another connection holds the database (waited \(database.busyTimeout) ms; .timeout MS waits longer)"
        : error.description
      return ("the changes were not saved: \(why); this input's changes (\(rows) row\(rows == 1 ? "" : "s")) were undone", true)
    }
  }
}
