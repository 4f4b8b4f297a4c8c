import QuarryEngine
import QueryBuilder

/// Rows made from a fixture's variant rows by a seeded, reproducible recipe, so an answer fitted
/// to the rows it was tried on meets rows it was not: some rows copied under new ids (duplicate
/// names and titles, ties, duplicates a DISTINCT must remove, parents with no children), some
/// rows' dates moved to other years, and every integer id permuted (foreign keys with them, so
/// the rows also sit in another physical order).
///
/// ```swift
/// try GeneratedRows(seed: 2).apply(to: database, permutingIDs: true, keeping: ["Rui Matos"])
/// // employees: two rows copied under new ids (never Rui Matos's); every other row's hiredAt a
/// // year earlier ('2013-05-20' → '2012-05-20'); ids 1, 2, 3… → 302…341, shuffled (managerID follows)
/// ```
struct GeneratedRows: Sendable, Hashable {
  var seed: UInt64
  /// Whether rows are copied. Not for an exercise that asks for an order: a copy ties with its
  /// original on every sort key, and tied rows may come in either order.
  var copiesRows = true
  /// Values changed as the schema allows (``ValueVariation``), after the copies and the dates.
  var values: ValueVariation? = nil

  /// What the recipe does, for a message: "generated rows (seed 2: …)".
  var description: String {
    "generated rows, seed \(seed): \(copiesRows ? "some rows copied under new ids, " : "")some dates moved \(yearShift > 0 ? "+" : "")\(yearShift) year\(abs(yearShift) == 1 ? "" : "s")"
      + (values.map { ", values changed (seed \($0.seed)): NULLs, boundaries, letter case, ties, families" } ?? "")
  }

  /// Years the chosen rows' dates move by: −1, +1, −2 … by seed (its last three digits: seed 1001,
  /// which draws a line on a bound, moves them as seed 1 does).
  var yearShift: Int { (seed % 2 == 0 ? -1 : 1) * Int((seed % 1000 + 1) / 2) }

  /// Applies the recipe. Rows holding a value in `keeping` (a name or title the exercise gives,
  /// compared without case) are never copied: the task names exactly one of them. With
  /// `permutingIDs` false (the exercise names an id), ids stay.
  func apply(to database: Database, permutingIDs: Bool, keeping: Set<String>, bounds: [String] = []) throws {
    var random = SplitMix64(seed: seed)
    let kept = Set(keeping.map { $0.lowercased() })
    // The schema does not change while the rows do: read once.
    let schema = try database.schema()
    let integerKeys = IntegerKeys(schema)
    for table in integerKeys.tables {
      guard let key = integerKeys.keys[table] else { continue }
      let columns = schema.columnNames(of: table)
      if copiesRows { try copyRows(of: table, key: key, columns: columns, keeping: kept, random: &random, in: database) }
      try moveDates(of: table, columns: columns, in: database)
    }
    try values?.apply(to: database, schema: schema, keeping: kept, bounds: bounds)
    if permutingIDs { try permuteIDs(integerKeys, schema: schema, random: &random, in: database) }
  }

  /// Two rows (chosen by the seed) copied under new ids: `INSERT OR IGNORE`, so a UNIQUE column
  /// keeps the copy out rather than failing.
  private func copyRows(
    of table: String, key: String, columns: [String], keeping kept: Set<String>, random: inout SplitMix64, in database: Database
  ) throws {
    let quoted = quoteIdentifier(table)
    let rows = try database.rows("SELECT * FROM \(quoted) ORDER BY \(quoteIdentifier(key))")
    let candidates = rows.filter { row in !row.contains { $0.textValue.map { kept.contains($0.lowercased()) } ?? false } }
    guard !candidates.isEmpty else { return }
    let others = columns.filter { $0 != key }
    for _ in 0..<min(2, candidates.count) {
      let row = candidates[Int(random.next() % UInt64(candidates.count))]
      guard let index = columns.firstIndex(of: key), case .integer(let id) = row[index] else { continue }
      let list = others.map(quoteIdentifier).joined(separator: ", ")
      try database.execute(
        "INSERT OR IGNORE INTO \(quoted) (\(list)) SELECT \(list) FROM \(quoted) WHERE \(quoteIdentifier(key)) = \(id)")
      // With values varied, a copy a UNIQUE name refused comes in under another name (a sixth
      // tag where the fixture has five): more rows than the fixture, whatever its constraints.
      if values != nil, database.changes == 0 {
        let renamed = others.map { ValueVariation.namesRows($0) ? "\(quoteIdentifier($0)) || ' 2'" : quoteIdentifier($0) }.joined(
          separator: ", ")
        try database.execute(
          "INSERT OR IGNORE INTO \(quoted) (\(list)) SELECT \(renamed) FROM \(quoted) WHERE \(quoteIdentifier(key)) = \(id)")
      }
    }
  }

  /// Half the rows (which half, by the seed) get every date in them (`YYYY-MM-DD…` text) moved by
  /// `yearShift` years, together, so a row's own dates keep their order.
  private func moveDates(of table: String, columns: [String], in database: Database) throws {
    let quoted = quoteIdentifier(table)
    let pattern = "'[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]*'"
    // Which columns hold a date on some row: one statement for the table.
    let holds = columns.map { column in
      "EXISTS (SELECT 1 FROM \(quoted) WHERE typeof(\(quoteIdentifier(column))) = 'text' AND \(quoteIdentifier(column)) GLOB \(pattern))"
    }
    let found = columns.isEmpty ? [] : try database.rows("SELECT \(holds.joined(separator: ", "))").first ?? []
    let dated = columns.indices.filter { found.indices.contains($0) && found[$0] == .integer(1) }.map { columns[$0] }
    guard !dated.isEmpty else { return }
    let rowids = try database.rows("SELECT rowid FROM \(quoted) ORDER BY rowid").compactMap { row -> Int64? in
      if case .integer(let id)? = row.first { return id } else { return nil }
    }
    // Every other row, the other half for the next seed: over two seeds every row's dates move.
    let chosen = rowids.enumerated().filter { (index, _) in (index + Int(seed % 2)) % 2 == 0 }.map(\.element)
    guard !chosen.isEmpty else { return }
    let assignments = dated.map { column in
      let name = quoteIdentifier(column)
      // Not a 29 February: the same day exists in every year.
      return
        "\(name) = CASE WHEN typeof(\(name)) = 'text' AND \(name) GLOB \(pattern) AND substr(\(name), 6, 5) <> '02-29' THEN printf('%04d', CAST(substr(\(name), 1, 4) AS INTEGER) + \(yearShift)) || substr(\(name), 5) ELSE \(name) END"
    }
    try database.execute(
      "UPDATE \(quoted) SET \(assignments.joined(separator: ", ")) WHERE rowid IN (\(chosen.map(String.init).joined(separator: ", ")))")
  }

  /// The ids of a table's rows that a foreign key of some table refers to.
  static func referencedIDs(in table: String, schema: DatabaseSchema, database: Database) throws -> Set<Int64> {
    var ids: Set<Int64> = []
    for (child, column) in schema.references(to: table) {
      for row in try database.rows("SELECT DISTINCT \(quoteIdentifier(column)) FROM \(quoteIdentifier(child))") {
        if case .integer(let id)? = row.first { ids.insert(id) }
      }
    }
    return ids
  }

  /// Every integer primary key mapped to a shuffled, sparse set of new ids, and every foreign
  /// key that refers to one mapped with it.
  private func permuteIDs(_ integerKeys: IntegerKeys, schema: DatabaseSchema, random: inout SplitMix64, in database: Database) throws {
    var maps: [String: [Int64: Int64]] = [:]
    for table in integerKeys.tables where integerKeys.keys[table] != nil {
      let ids = try integerKeys.ids(of: table, in: database)
      var targets = (0..<ids.count).map { Int64(300 + 3 * $0) + Int64(seed) }
      random.shuffle(&targets)
      // With values varied, one row no other row refers to gets id 0: an answer that uses 0 for
      // "none" (`coalesce(managerID, 0)`) meets a real row it must not take for one.
      let referencedIDs = values == nil ? [] : try Self.referencedIDs(in: table, schema: schema, database: database)
      if values != nil, let unreferenced = ids.firstIndex(where: { !referencedIDs.contains($0) }) {
        targets[unreferenced] = 0
      }
      // And now and then a row other rows refer to gets a negative id: an answer that reads
      // "not positive" as "none" (`CASE WHEN userID > 0 …`) meets a real row.
      if values != nil, random.index(2) == 0,
        let referenced = ids.firstIndex(where: { referencedIDs.contains($0) }), targets[referenced] != 0
      {
        targets[referenced] = -targets[referenced]
      }
      maps[table] = Dictionary(uniqueKeysWithValues: zip(ids, targets))
    }
    try integerKeys.remap(in: database) { table, id in maps[table]?[id] ?? id }
  }
}

/// A small, fast generator with a fixed sequence per seed (SplitMix64), so a dataset made from
/// a seed is the same on every machine and every run (and a fuzz test's failure reproduces).
public struct SplitMix64: RandomNumberGenerator {
  private var state: UInt64
  /// Starts from `state` as given.
  public init(state: UInt64) { self.state = state }
  /// Starts from a state mixed from `seed`, so small seeds (1, 2, 3) start far apart.
  init(seed: UInt64) { state = seed &* 0x9E37_79B9_7F4A_7C15 &+ 0x2545_F491_4F6C_DD1D }

  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// Fisher–Yates with this generator's own draws (the standard library's shuffle may change
  /// between Swift versions; a dataset must not).
  mutating func shuffle<T>(_ values: inout [T]) {
    guard values.count > 1 else { return }
    for index in stride(from: values.count - 1, to: 0, by: -1) {
      values.swapAt(index, Int(next() % UInt64(index + 1)))
    }
  }
}
