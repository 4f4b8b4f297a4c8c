/// A feature of StructuredQueries or SQLiteData an input used, recorded where the compiler
/// resolves it — not found by searching the input's text.
///
/// ```swift
/// compiler.features = []
/// _ = try compiler.compile("Reminder.incomplete.select(\\.title)")  // a scope the input declared
/// compiler.features  // [.scope("Reminder")]
/// ```
public enum LanguageFeature: Hashable, Sendable {
  /// A scope or `Where` extension of the type (a `static let`, `static func` or `func`).
  case scope(String)
  /// A computed column (`extension Reminder.TableColumns { var isUrgent … }`), by name.
  case computedColumn(String)
  /// A `@Selection` type's columns built in a query, by type.
  case selection(String)
  /// A `@CasePathable` enum column's case read in a query (`$0.kind.link`).
  case enumCase(String)
  /// `#sql` with an interpolated value bound as a parameter.
  case boundInterpolation
  /// `#sql` with text spliced into the SQL (`\(raw:)`).
  case rawSplice
  /// A `@DatabaseFunction` called in a query, by name.
  case databaseFunction(String)
  /// A fetch property wrapper (`@FetchAll`, `@FetchOne`, `@Fetch`), by name.
  case fetchWrapper(String)
  /// A migration that ran (`migrator.registerMigration("…")` then `migrate`), by name.
  case migration(String)
  /// A `database.write { … }` (or `transaction`) block: one transaction.
  case writeBlock
  /// A transaction unit whose code threw, so that it was rolled back.
  case thrownInTransaction
}
