import QuarryDSL
import QuarryEngine

/// The rows of each dataset an ``AnswerChecker`` runs on, made once and copied for every run:
/// the solution's, the answer's and the tie probes' runs on one dataset start from the same rows,
/// and value-varied rows (``ValueVariation``) cost more to make than the queries cost to run.
///
/// ```swift
/// let rows = try checker.preparedRows.rows(of: dataset, fixture: "shop")  // made
/// let again = try checker.preparedRows.rows(of: dataset, fixture: "shop")  // the same rows, kept
/// ```
final class PreparedRows {
  /// What decides a dataset's rows (not how a run reads them: reversed, ties moved).
  struct Key: Hashable {
    var fixture: String
    var variant: Bool
    var idShift: Int64
    var generated: GeneratedRows?
    var permutesIDs: Bool
    var keeping: Set<String>
    var bounds: [String]
  }

  private var made: [Key: Database] = [:]
  /// The schema objects read before and after each run, by the schema's text.
  let schemas = SchemaObjects.Cache()
  /// Each fixture's models as loaded once, when loading them changed nothing in the database:
  /// every later session gets a copy (parsing and reading the models again is most of a run).
  private var models: [String: Catalog] = [:]

  /// A session on a copy of `dataset`'s rows with the fixture's models.
  func session(of dataset: AnswerChecker.Dataset, fixture: String) throws -> Session {
    let rows = try rows(of: dataset, fixture: fixture)
    if let loaded = models[fixture] { return try Session(database: rows.freshCopy(), catalog: loaded.copy()) }
    // Models that run statements (a seed, a trigger) load in every session: kept only when
    // loading them changed no row and no schema.
    let session = try Session(database: rows.freshCopy())
    func state() -> [DatabaseValue?] {
      ["PRAGMA schema_version", "SELECT total_changes()"].map { try? session.database.rows($0).first?.first }
    }
    let before = state()
    try session.loadFixtureModels(fixture)
    if state() == before { models[fixture] = session.catalog.copy() }
    return session
  }

  /// The rows of `dataset` on `fixture`, made the first time they are asked for. Never run a
  /// statement on them: copy them (``Session/fixture(_:copying:)``).
  func rows(of dataset: AnswerChecker.Dataset, fixture: String) throws -> Database {
    let key = Key(
      fixture: fixture, variant: dataset.variant, idShift: dataset.idShift, generated: dataset.generated,
      permutesIDs: dataset.permutesIDs, keeping: dataset.keeping, bounds: dataset.bounds)
    if let rows = made[key] { return rows }
    let rows = try Session.fixtureRows(fixture, variant: dataset.variant, shiftingIDs: dataset.idShift) { database in
      try dataset.generated?.apply(to: database, permutingIDs: dataset.permutesIDs, keeping: dataset.keeping, bounds: dataset.bounds)
    }
    made[key] = rows
    return rows
  }
}
