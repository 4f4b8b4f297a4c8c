/// How statements are laid out: a clause per line (`pretty`, as StructuredQueries' own tests
/// show SQL, and as Quarry shows it), or on one line (`compact`, the SQL an app built outside
/// its tests prepares: StructuredQueries breaks lines only while testing).
///
/// ```swift
/// QueryLayout.$current.withValue(.compact) { Statement.select(select).fragment.sql(inlining: false) }
/// // SELECT "tags"."id", "tags"."title" FROM "tags" WHERE ("tags"."title") = (?)
/// ```
public enum QueryLayout: Sendable {
  case pretty
  case compact

  @TaskLocal public static var current: QueryLayout = .pretty

  /// Between clauses: a line break, or a space.
  static var newlineOrSpace: String { current == .pretty ? "\n" : " " }
  /// Where a parenthesised statement opens: a line break and an indent, or nothing.
  static var openBlock: String { current == .pretty ? "\n  " : "" }
  /// Where it closes: a line break, or nothing.
  static var closeBlock: String { current == .pretty ? "\n" : "" }
}
