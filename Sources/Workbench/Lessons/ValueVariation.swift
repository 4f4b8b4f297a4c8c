import QuarryEngine
import QueryBuilder

/// Values changed by a seeded recipe, as the schema allows: NULLs in nullable columns, numbers on
/// their boundaries (0, negative, fractional, large), text in other letter case, empty, long,
/// holding `%`, `_` or a quote, sorting after 'z', in the plural; dates moved by a day, a month
/// or a year; a value copied from another row (ties, duplicates); a whole group's value NULL; a
/// parent copied with one of its children, a child moved under another parent, a tree made
/// deeper. Each change is its own statement: one the schema refuses (CHECK, NOT NULL, UNIQUE, a
/// foreign key) is left out, so every dataset is one the schema allows.
///
/// ```swift
/// try ValueVariation(seed: 7).apply(to: database, keeping: ["rui matos"])
/// // UPDATE "products" SET "price" = 0 WHERE rowid = 4
/// // UPDATE "customers" SET "email" = upper("email") WHERE rowid = 2
/// // UPDATE "orders" SET "orderedAt" = date("orderedAt", '+1 month') WHERE rowid = 5 …
/// ```
///
/// Values the exercise gives (`keeping`: the solution's string literals, compared without case)
/// are never changed and never copied into another row: the task names exactly those rows.
struct ValueVariation: Sendable, Hashable {
  var seed: UInt64
  /// The names the solution writes (lower-cased): columns among them get two changes in three,
  /// so the values an answer reads are the ones that vary (`notes` for a task about notes).
  var focus: Set<String> = []
  /// The ids the solution names rows by (`find(1)`, `$0.id.eq(1)`): every value of those rows
  /// may change, one time in two, so what the task says of that row is what an answer must
  /// handle (product 1 at price 0 goes through a view that keeps `price > 0` no more).
  var namedRows: Set<Int64> = []
  /// Whether the dataset also draws a line of descent on one of the solution's numbers
  /// (``drawLine(onOneOf:tables:integerKeys:given:random:database:)``): seeds above
  /// ``lineSeeds``'s start, which the search draws once the others leave a mutant alive.
  var linesOnBounds = false
  /// Seeds that draw a line on a bound: apart from the others, so the seeds a lesson keeps mean
  /// the rows they meant before.
  static let lineSeeds: ClosedRange<UInt64> = 1001...1999
  /// Texts an answer names that the solution does not and the rows hold (`'Aveiro'`), spread to
  /// more rows (``spreadValues(in:random:database:)``): for datasets drawn for that answer.
  var spread: [String] = []

  /// The words of a solution that may name columns (`$0.notes`, `"dueDate"`, `length(notes)`).
  static func focus(of solution: String) -> Set<String> {
    Set(solution.split { !($0.isLetter || $0.isNumber || $0 == "_") }.map { $0.lowercased() })
  }

  /// One column as the recipe sees it: what its values look like decides which changes fit.
  struct Column {
    var name: String
    var nullable: Bool
    var isKey: Bool
    /// The parent table, for a foreign key column.
    var parent: String?
    var kind: Kind
    var values: [DatabaseValue]
  }

  enum Kind { case integer, flag, real, date, label, text, other }

  /// `given`: the solution's string literals, lowercased; `bounds`: its numbers and dates, which
  /// values are also moved onto (a price of exactly 20 for `price < 20`).
  func apply(to database: Database, keeping given: Set<String>, bounds: [String] = []) throws {
    try apply(to: database, schema: database.schema(), keeping: given, bounds: bounds)
  }

  /// The same with the database's `schema` already read (it does not change while values do).
  func apply(to database: Database, schema: DatabaseSchema, keeping given: Set<String>, bounds: [String] = []) throws {
    // Started from a mixed state: streams of nearby seeds must not be shifts of one another.
    var mixer = SplitMix64(seed: seed)
    var random = SplitMix64(state: mixer.next() ^ 0x5EED_0F_DA7A)
    // The named rows' changes draw from a stream of their own: the other changes stay as they were.
    var named = SplitMix64(state: mixer.next() ^ 0x0A3E_D0_0005)
    // Whether this dataset's text goes beyond ASCII: a stream of its own too.
    var accents = SplitMix64(state: mixer.next() ^ 0x0ACC_E7_75ED)
    // Keys do not change while values do.
    let integerKeys = IntegerKeys(schema)
    let tables = try database.rows(
      "SELECT name FROM pragma_table_list WHERE schema = 'main' AND type = 'table' AND wr = 0 AND name NOT LIKE 'sqlite_%' ORDER BY name"
    ).compactMap { $0.first?.textValue }
    // FTS5 shadow tables and virtual tables are not edited: their triggers follow the content.
    let virtual = Set(
      try database.rows("SELECT name FROM sqlite_schema WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL%'").compactMap {
        $0.first?.textValue
      })
    let shadows = Set(try database.rows("SELECT name FROM pragma_table_list WHERE type = 'shadow'").compactMap { $0.first?.textValue })
    for table in tables where !virtual.contains(table) && !shadows.contains(table) {
      let columns = try Self.columns(of: table, in: database, schema: schema)
      let rowids = try database.rows("SELECT rowid FROM \(quoteIdentifier(table)) ORDER BY rowid").compactMap { row -> Int64? in
        if case .integer(let id)? = row.first { return id } else { return nil }
      }
      guard !rowids.isEmpty else { continue }
      let editable = columns.filter { !$0.isKey && $0.kind != .other }
      guard !editable.isEmpty else { continue }
      // As many changes as rows, at least four; most in the columns the solution reads.
      let focused = editable.filter { focus.contains($0.name.lowercased()) }
      let changes = max(4, rowids.count)
      for _ in 0..<changes {
        let rowid = rowids[random.index(rowids.count)]
        let column =
          !focused.isEmpty && random.index(3) != 0 ? focused[random.index(focused.count)] : editable[random.index(editable.count)]
        try change(
          column, ofRow: rowid, in: table, integerKeys: integerKeys, given: given, bounds: bounds, random: &random, database: database,
          schema: schema)
      }
      for rowid in rowids where namedRows.contains(rowid) && named.index(2) == 0 {
        for column in editable {
          try change(
            column, ofRow: rowid, in: table, integerKeys: integerKeys, given: given, bounds: bounds, random: &named, database: database,
            schema: schema)
        }
      }
      // A whole group's value NULL: every row sharing a parent, for one nullable column.
      if random.index(2) == 0, let parent = random.pick(columns.filter { $0.parent != nil && $0.parent != table }),
        let nullable = random.pick(editable.filter { $0.nullable && $0.parent == nil }),
        let group = random.pick(parent.values.filter { $0 != .null })
      {
        try attempt(
          database, schema,
          "UPDATE \(quoteIdentifier(table)) SET \(quoteIdentifier(nullable.name)) = NULL WHERE \(quoteIdentifier(parent.name)) = \(group.inlineSQL)"
        )
      }
      // Now and then a number positive on no row (every price 0 or below): what an answer that
      // keeps only positive ones (`WHERE price > 0`, in a CTE or a subquery) loses whole.
      if random.index(4) == 0, let number = random.pick(editable.filter { ($0.kind == .integer || $0.kind == .real) && $0.parent == nil }) {
        let name = quoteIdentifier(number.name)
        try attempt(database, schema, "UPDATE \(quoteIdentifier(table)) SET \(name) = -abs(\(name))")
      }
    }
    let edited = tables.filter { !virtual.contains($0) && !shadows.contains($0) }
    try varyFamilies(edited, integerKeys: integerKeys, given: given, random: &random, database: database, schema: schema)
    // One time in two, a row with children copied with its whole family (its children, theirs,
    // …): a second manager with the same name and the same team, a customer twin with the same
    // orders — identical in every count and sum, told apart only by the key.
    if random.index(2) == 0 {
      let parents = try edited.filter { try integerKeys.keys[$0] != nil && !schema.references(to: $0).isEmpty }
      if let table = random.pick(parents) {
        if let id = random.pick(try GeneratedRows.referencedIDs(in: table, schema: schema, database: database).sorted()) {
          try database.execute("SAVEPOINT quarry_family")
          var rows: [(table: String, key: Int64)] = []
          let copied = try? copyFamily(
            of: table, id: id, overrides: [:], integerKeys: integerKeys, given: given, depth: 0, copied: &rows, database: database,
            schema: schema)
          let broken = try !database.rows("PRAGMA foreign_key_check").isEmpty
          if copied == nil || broken {
            try database.execute("ROLLBACK TO quarry_family")
          }
          try database.execute("RELEASE quarry_family")
        }
      }
    }
    // One dataset in four has letters beyond ASCII in its text ('Tree' → 'Tréé': 4 characters,
    // 6 UTF-8 bytes; 'E' → 'É', which SQLite's lower() leaves as it is), all of it at once, so
    // values equal before stay equal: what tells characters from bytes (`utf8.count`,
    // `length(CAST(x AS BLOB))`) and Swift's case mapping from SQLite's.
    if accents.index(4) == 0 {
      for table in edited {
        for column in try Self.columns(of: table, in: database, schema: schema) where column.kind == .text && !column.isKey {
          let name = quoteIdentifier(column.name)
          let keep =
            given.isEmpty ? "" : " WHERE coalesce(lower(\(name)), '') NOT IN (\(given.sorted().map(quoteText).joined(separator: ", ")))"
          try attempt(
            database, schema, "UPDATE \(quoteIdentifier(table)) SET \(name) = replace(replace(\(name), 'e', 'é'), 'E', 'É')\(keep)")
        }
      }
    }
    // Now and then a table left empty (an aggregate over no rows), with the rows that refer to it.
    if random.index(4) == 0, let table = random.pick(edited) {
      try database.execute("SAVEPOINT quarry_empty")
      do {
        try empty(table, in: database, schema: schema, depth: 0, given: given)
        if !(try database.rows("PRAGMA foreign_key_check")).isEmpty { try database.execute("ROLLBACK TO quarry_empty") }
      } catch {
        try database.execute("ROLLBACK TO quarry_empty")
      }
      try database.execute("RELEASE quarry_empty")
    }
    if linesOnBounds {
      try drawLine(
        onOneOf: bounds.compactMap(Double.init), tables: edited, integerKeys: integerKeys, given: given, random: &random,
        database: database, schema: schema
      )
    }
    if !spread.isEmpty {
      var spreading = SplitMix64(state: mixer.next() ^ 0x5B2E_AD_0A1E)
      try spreadValues(in: edited, random: &spreading, database: database, schema: schema)
    }
  }

  /// Each value of ``spread`` written into one more row of every column that has the name of a
  /// column holding it, in any table: 'Aveiro', a supplier's city, becomes a customer's city too.
  /// What an answer that names a value off the rows (`WHERE city <> 'Aveiro'` for "the cities
  /// with both") assumed stays where it was.
  ///
  /// ```
  /// UPDATE "customers" SET "city" = 'Aveiro' WHERE rowid = 3
  /// ```
  private func spreadValues(in tables: [String], random: inout SplitMix64, database: Database, schema: DatabaseSchema) throws {
    // Each table's columns read once: which hold a value is read off the rows as they were.
    let columns = try tables.map { (table: $0, columns: try Self.columns(of: $0, in: database, schema: schema)) }
    for value in spread {
      let names = Set(columns.flatMap { $0.columns.filter { $0.values.contains(.text(value)) }.map { $0.name.lowercased() } })
      for (table, tableColumns) in columns {
        for column in tableColumns where names.contains(column.name.lowercased()) && !column.isKey {
          let rowids = try database.rows(
            "SELECT rowid FROM \(quoteIdentifier(table)) WHERE \(quoteIdentifier(column.name)) IS NOT ? ORDER BY rowid",
            bindings: [.text(value)]
          ).compactMap { $0.first.flatMap(Self.integer) }
          guard let rowid = random.pick(rowids) else { continue }
          try attempt(
            database, schema,
            "UPDATE \(quoteIdentifier(table)) SET \(quoteIdentifier(column.name)) = \(quoteText(value)) WHERE rowid = \(rowid)")
        }
      }
    }
  }

  /// A line of descent on a bound, as a group of one row is drawn to meet an aggregate's bound: a
  /// row with children copied with one row of each table under it (a customer, one order, one
  /// item), the rows that line refers to outside it copied for it alone (the item's product),
  /// then one number on the line set on or just past a number the solution compares with and
  /// every other number on it 1. The group's sum, average, least and greatest are that number,
  /// and a product of it by ones too: for `total > 100`, a customer whose total is 100.25 or
  /// 100.5 (what `> 100.5` drops), or exactly 100 (what `>= 100` keeps).
  ///
  /// ```
  /// INSERT INTO "customers" … (a copy of customer 2, id 7); "orders" id 13 under it; "orderItems"
  /// id 41 under that; "products" id 15, a copy of 3, for it alone: quantity 1, price 100.5, stock 1
  /// ```
  private func drawLine(
    onOneOf numbers: [Double], tables: [String], integerKeys: IntegerKeys, given: Set<String>, random: inout SplitMix64,
    database: Database, schema: DatabaseSchema
  ) throws {
    guard let bound = random.pick(numbers) else { return }
    let roots = try tables.filter { table in
      try integerKeys.keys[table] != nil && schema.references(to: table).contains { $0.table != table }
    }
    guard let root = random.pick(roots),
      let id = random.pick(try GeneratedRows.referencedIDs(in: root, schema: schema, database: database).sorted())
    else {
      return
    }
    try database.execute("SAVEPOINT quarry_line")
    do {
      var line: [(table: String, key: Int64)] = []
      guard
        try copyFamily(
          of: root, id: id, overrides: [:], integerKeys: integerKeys, given: given, depth: 0, oneChild: true, copied: &line,
          database: database, schema: schema) != nil
      else { throw DatasetChangeRefused() }
      // The rows the line refers to outside it, each copied for the line alone (no children).
      let inLine = Set(line.map(\.table))
      var own: [(table: String, key: Int64)] = []
      for (table, key) in line {
        guard let tableKey = integerKeys.keys[table] else { continue }
        for link in schema.table(named: table)?.foreignKeys ?? [] {
          let (from, parent) = (link.fromColumn, link.table)
          guard !inLine.contains(parent), let parentKey = integerKeys.keys[parent], link.toColumn.map({ $0 == parentKey }) ?? true,
            let referred = try database.rows(
              "SELECT \(quoteIdentifier(from)) FROM \(quoteIdentifier(table)) WHERE \(quoteIdentifier(tableKey)) = \(key)"
            ).first?.first.flatMap(Self.integer)
          else { continue }
          var made: [(table: String, key: Int64)] = []
          guard
            let copy = try copyFamily(
              of: parent, id: referred, overrides: [:], integerKeys: integerKeys, given: given, depth: 3, copied: &made, database: database,
              schema: schema)
          else { continue }
          try database.execute(
            "UPDATE \(quoteIdentifier(table)) SET \(quoteIdentifier(from)) = \(copy) WHERE \(quoteIdentifier(tableKey)) = \(key)")
          own += made
        }
      }
      var numbers: [(table: String, key: String, id: Int64, column: Column)] = []
      for (table, id) in line + own {
        guard let key = integerKeys.keys[table] else { continue }
        for column in try Self.columns(of: table, in: database, schema: schema)
        where !column.isKey && column.parent == nil && (column.kind == .integer || column.kind == .real) {
          numbers.append((table, key, id, column))
        }
      }
      guard let carrier = random.pick(Array(numbers.indices)) else { throw DatasetChangeRefused() }
      let near =
        numbers[carrier].column.kind == .real
        ? [bound - 0.5, bound - 0.25, bound, bound + 0.25, bound + 0.5].map { String($0) }
        : (bound == bound.rounded() ? [bound - 1, bound, bound + 1] : [bound.rounded(.down), bound.rounded(.up)]).compactMap {
          Int64(exactly: $0).map(String.init)
        }
      guard let value = random.pick(near) else { throw DatasetChangeRefused() }
      for (index, cell) in numbers.enumerated() {
        let one = cell.column.kind == .real ? "1.0" : "1"
        try attempt(
          database, schema,
          "UPDATE \(quoteIdentifier(cell.table)) SET \(quoteIdentifier(cell.column.name)) = \(index == carrier ? value : one) WHERE \(quoteIdentifier(cell.key)) = \(cell.id)"
        )
      }
      if try !database.rows("PRAGMA foreign_key_check").isEmpty { throw DatasetChangeRefused() }
    } catch {
      try database.execute("ROLLBACK TO quarry_line")
    }
    try database.execute("RELEASE quarry_line")
  }

  /// Deletes every row of a table, after the rows of other tables that refer to one of them;
  /// never a row a value the task gives names (the task's 'Sofia Lopes' is there to be asked
  /// about): then it throws and the caller rolls back.
  private func empty(_ table: String, in database: Database, schema: DatabaseSchema, depth: Int, given: Set<String>) throws {
    guard depth < 4 else { return }
    for child in Set(schema.references(to: table).map(\.table)).sorted() where child != table {
      try empty(child, in: database, schema: schema, depth: depth + 1, given: given)
    }
    for column in try Self.columns(of: table, in: database, schema: schema) where Self.namesRows(column.name) {
      let held = column.values.compactMap { $0.textValue?.lowercased() }
      if held.contains(where: given.contains) { throw DatasetChangeRefused() }
    }
    try database.execute("DELETE FROM \(quoteIdentifier(table))")
  }

  struct DatasetChangeRefused: Error {}

  /// One change to one cell, chosen by the column's kind; nothing when it would touch a given value.
  private func change(
    _ column: Column, ofRow rowid: Int64, in table: String, integerKeys: IntegerKeys, given: Set<String>, bounds: [String],
    random: inout SplitMix64, database: Database, schema: DatabaseSchema
  ) throws {
    let name = quoteIdentifier(column.name)
    let current =
      try database.rowsReusing("SELECT \(name) FROM \(quoteIdentifier(table)) WHERE rowid = ?", bindings: [.integer(rowid)]).first?.first
      ?? .null
    if let text = current.textValue, given.contains(text.lowercased()) { return }
    // A given value in a column that names a row (a name, a title, an e-mail) stays on that row
    // alone; one in a column of attributes (a city, a status) may be copied to other rows: two
    // suppliers in Braga are what "the suppliers in Braga" must find.
    let names = Self.namesRows(column.name)
    let others = column.values.filter { value in
      guard value != current, value != .null else { return false }
      if names, let text = value.textValue, given.contains(text.lowercased()) { return false }
      return true
    }
    var choices: [String] = []
    if column.nullable { choices.append("NULL") }
    if let copy = random.pick(others) { choices.append(copy.inlineSQL) }
    // A given value of an attribute column, copied to this row: more rows that the task's
    // condition keeps (a second supplier in Braga), drawn as often as the other changes together.
    if !names, let value = random.pick(others.filter { $0.textValue.map { given.contains($0.lowercased()) } ?? false }) {
      choices += Array(repeating: value.inlineSQL, count: 4)
    }
    // Near-misses of a value the task gives, on another row ('Braga' → 'Bragas', 'xBraga',
    // 'Bxraga'): what an answer that matches it loosely (`LIKE 'B%'`, `LIKE '%raga%'`) takes too.
    let givenHere = Set(column.values.compactMap(\.textValue).filter { given.contains($0.lowercased()) }).sorted()
    if let value = random.pick(givenHere) {
      let nearMisses = [value + "s", "x" + value, String(value.prefix(1)) + "x" + String(value.dropFirst())]
      choices.append(quoteText(nearMisses[random.index(nearMisses.count)]))
    }
    let numbers = bounds.filter { Double($0) != nil }
    switch column.kind {
    case .flag:
      choices += ["1 - \(name)"]
    case .integer where column.parent != nil:
      // Another parent: a parent left without children, another with more.
      if column.parent != table, let parent = column.parent, let other = random.pick(try integerKeys.ids(of: parent, in: database)) {
        choices.append(String(other))
      }
    case .integer:
      // On the solution's own numbers, and one either side of them.
      let near = numbers.compactMap { Double($0) }.filter { $0 == $0.rounded() }.flatMap { [$0 - 1, $0, $0 + 1] }.map { String(Int64($0)) }
      choices += ["0", "-\(name)", "\(name) + 1", "\(name) - 1", "\(name) * 1000 + 7"] + near
    case .real:
      // A hair either side too: `> 19.99` for `>= 20` differs only on a price between them.
      let near = numbers.compactMap { Double($0) }.flatMap { [$0 - 0.5, $0 - 0.005, $0, $0 + 0.005, $0 + 0.5] }.map { String($0) }
      choices += ["0", "-\(name)", "\(name) + 0.5", "\(name) * 1000", "round(\(name)) + 0.25"] + near
    case .date:
      let shifts = [
        "+1 day", "-1 day", "+1 month", "-1 month", "+1 year", "-1 year", "start of month", "start of year",
        "+1 month', 'start of month', '-1 day",
      ]
      let shift = shifts[random.index(shifts.count)]
      choices += [Self.moved(name, by: shift)]
      // A date the solution compares with, on the day and a day either side (its time kept where
      // it has one): `< '2026-03-06'` and `<= '2026-03-05'` differ on the 5th after midnight.
      for bound in bounds where Self.isDate(bound) {
        let day = quoteText(String(bound.prefix(10)))
        choices += [
          day, "\(day) || substr(\(name), 11)", "date(\(day), '-1 day') || substr(\(name), 11)",
          "date(\(day), '+1 day') || substr(\(name), 11)",
        ]
      }
    case .label:
      // A value no row has yet: a status the fixture never shows; or the row's own in another
      // letter case ('Stationery', 'DELIVERED'): a category is not its lower-cased name.
      choices += ["'other'", "upper(substr(\(name), 1, 1)) || substr(\(name), 2)", "upper(\(name))"]
    case .text:
      // The value of the row's parent in its own table (an employee named as their manager):
      // a name that repeats along a chain, which a DISTINCT or a GROUP BY name would merge.
      for link in schema.table(named: table)?.foreignKeys ?? [] where link.table == table {
        let from = link.fromColumn
        let key = link.toColumn ?? integerKeys.keys[table] ?? "rowid"
        let parentValue =
          "coalesce((SELECT p.\(name) FROM \(quoteIdentifier(table)) AS p WHERE p.\(quoteIdentifier(key)) = \(quoteIdentifier(table)).\(quoteIdentifier(from))), \(name))"
        choices += Array(repeating: parentValue, count: 3)
      }
      choices += [
        "upper(\(name))", "lower(\(name))", "''", "''", "\(name) || ' ' || substr(replace(hex(zeroblob(60)), '0', 'ab'), 1, 110)",
        "'~' || \(name)", "\(name) || 's'", "replace(\(name), ' ', '%')", "replace(\(name), ' ', '_')", "\(name) || ''''",
        "upper(substr(\(name), 1, 1)) || lower(substr(\(name), 2))", "' ' || \(name) || ' '",
        // The last word alone ('Desk lamp' → 'lamp': a name that starts with a searched word).
        "replace(\(name), rtrim(\(name), replace(\(name), ' ', '')), '')",
        // A letter after the '@' (or in front): another domain that ends the same (gmail.example).
        "substr(\(name), 1, instr(\(name), '@')) || 'g' || substr(\(name), instr(\(name), '@') + 1)",
      ]
      // A word the task searches for, with an ending ('ask' → 'asks', 'asking'): what a prefix
      // search (`'ask*'`) or a stemming tokenizer finds too, and the word itself does not.
      let words = Set(given.flatMap { $0.split(whereSeparator: { !$0.isLetter }).filter { $0.count >= 2 } }).sorted()
      if let word = random.pick(words) {
        choices += ["\(name) || ' \(word)s'", "'\(word)ing ' || \(name)"]
      }
    case .other:
      return
    }
    guard !choices.isEmpty else { return }
    let value = choices[random.index(choices.count)]
    // A value the change computes must not become a given one (a copy of 'Rui Matos' elsewhere).
    let guardGiven =
      given.isEmpty || !names ? "" : " AND coalesce(lower(\(value)), '') NOT IN (\(given.sorted().map(quoteText).joined(separator: ", ")))"
    try attempt(database, schema, "UPDATE \(quoteIdentifier(table)) SET \(name) = \(value) WHERE rowid = \(rowid)\(guardGiven)")
  }

  /// Families across foreign keys: a parent copied with one or all of its children (a copied
  /// parent with children; under another name when its name is UNIQUE), a child moved under a
  /// leaf of its own table (a deeper tree).
  private func varyFamilies(
    _ tables: [String], integerKeys: IntegerKeys, given: Set<String>, random: inout SplitMix64, database: Database, schema: DatabaseSchema
  )
    throws
  {
    for table in tables {
      for foreignKey in schema.table(named: table)?.foreignKeys ?? [] {
        let (column, parent) = (foreignKey.fromColumn, foreignKey.table)
        guard let parentKey = integerKeys.keys[parent], let childKey = integerKeys.keys[table], random.index(2) == 0
        else { continue }
        let child = quoteIdentifier(table)
        let fk = quoteIdentifier(column)
        let childColumns = schema.columnNames(of: table).filter { $0 != childKey }
        if parent == table {
          // A deeper tree: a row copied as the child of a row that has no children.
          let leaves = try database.rows(
            "SELECT \(quoteIdentifier(childKey)) FROM \(child) AS a WHERE NOT EXISTS (SELECT 1 FROM \(child) AS b WHERE b.\(fk) = a.\(quoteIdentifier(childKey))) ORDER BY 1"
          ).compactMap { $0.first.flatMap(Self.integer) }
          guard let leaf = random.pick(leaves) else { continue }
          let list = childColumns.map(quoteIdentifier).joined(separator: ", ")
          let values = childColumns.map { $0 == column ? String(leaf) : quoteIdentifier($0) }.joined(separator: ", ")
          try attempt(
            database, schema,
            "INSERT INTO \(child) (\(list)) SELECT \(values) FROM \(child) WHERE \(quoteIdentifier(childKey)) = \(leaf)\(Self.notGiven(childColumns, given))"
          )
          continue
        }
        // A parent that has children, copied under a new id, and one child copied under it.
        let parents = try database.rows("SELECT DISTINCT \(fk) FROM \(child) WHERE \(fk) IS NOT NULL ORDER BY 1").compactMap {
          $0.first.flatMap(Self.integer)
        }
        guard let original = random.pick(parents) else { continue }
        let parentName = quoteIdentifier(parent)
        let parentColumns = schema.columnNames(of: parent).filter { $0 != parentKey }
        let parentList = parentColumns.map(quoteIdentifier).joined(separator: ", ")
        let before =
          try database.rows("SELECT max(\(quoteIdentifier(parentKey))) FROM \(parentName)").first?.first.flatMap(Self.integer) ?? 0
        let copy =
          "INSERT INTO \(parentName) (\(parentList)) SELECT %@ FROM \(parentName) WHERE \(quoteIdentifier(parentKey)) = \(original)\(Self.notGiven(parentColumns, given))"
        try attempt(database, schema, copy.replacing("%@", with: parentList))
        var after =
          try database.rows("SELECT max(\(quoteIdentifier(parentKey))) FROM \(parentName)").first?.first.flatMap(Self.integer) ?? 0
        if after <= before {
          // A UNIQUE name refused the copy: the parent copied under another name (a second list,
          // its reminders with it), so a result has more groups than the fixture's.
          let renamed = parentColumns.map { Self.namesRows($0) ? "\(quoteIdentifier($0)) || ' 2'" : quoteIdentifier($0) }.joined(
            separator: ", ")
          try attempt(database, schema, copy.replacing("%@", with: renamed))
          after = try database.rows("SELECT max(\(quoteIdentifier(parentKey))) FROM \(parentName)").first?.first.flatMap(Self.integer) ?? 0
        }
        guard after > before else { continue }
        let list = childColumns.map(quoteIdentifier).joined(separator: ", ")
        let values = childColumns.map { $0 == column ? String(after) : quoteIdentifier($0) }.joined(separator: ", ")
        // One child, or (one time in three) every child: a copied parent identical in its counts.
        let limit = random.index(3) == 0 ? "" : " LIMIT 1"
        try attempt(
          database, schema,
          "INSERT INTO \(child) (\(list)) SELECT \(values) FROM \(child) WHERE \(fk) = \(original)\(Self.notGiven(childColumns, given)) ORDER BY rowid\(limit)"
        )
      }
    }
  }

  /// Copies row `id` of `table` under a new key (`overrides`: columns set to other values, the
  /// foreign key to a copied parent), then every row that refers to it, under the copy, three
  /// levels down at most. A UNIQUE name refuses the same name: the copy is named `… 2` then.
  /// The new key, or nil when nothing was copied (a row holding a given value is not).
  /// With `oneChild`, one row of each table that refers to it (a line of descent, not a family);
  /// `copied` gathers every row made, by table and new key.
  @discardableResult
  private func copyFamily(
    of table: String, id: Int64, overrides: [String: String], integerKeys: IntegerKeys, given: Set<String>, depth: Int,
    oneChild: Bool = false, copied: inout [(table: String, key: Int64)], database: Database, schema: DatabaseSchema
  ) throws -> Int64? {
    guard let key = integerKeys.keys[table] else { return nil }
    let quoted = quoteIdentifier(table)
    let columns = schema.columnNames(of: table).filter { $0 != key }
    let list = columns.map(quoteIdentifier).joined(separator: ", ")
    func values(renaming: Bool) -> String {
      columns.map { overrides[$0] ?? (renaming && Self.namesRows($0) ? "\(quoteIdentifier($0)) || ' 2'" : quoteIdentifier($0)) }.joined(
        separator: ", ")
    }
    let highest = "SELECT max(\(quoteIdentifier(key))) FROM \(quoted)"
    let before = try database.rows(highest).first?.first.flatMap(Self.integer) ?? 0
    let copy =
      "INSERT OR IGNORE INTO \(quoted) (\(list)) SELECT %@ FROM \(quoted) WHERE \(quoteIdentifier(key)) = \(id)\(Self.notGiven(columns, given))"
    try database.execute(copy.replacing("%@", with: values(renaming: false)))
    var after = try database.rows(highest).first?.first.flatMap(Self.integer) ?? 0
    if after <= before {
      try database.execute(copy.replacing("%@", with: values(renaming: true)))
      after = try database.rows(highest).first?.first.flatMap(Self.integer) ?? 0
    }
    guard after > before else { return nil }
    copied.append((table, after))
    guard depth < 3 else { return after }
    for (child, column) in schema.references(to: table) {
      if let childKey = integerKeys.keys[child] {
        let children = try database.rows(
          "SELECT \(quoteIdentifier(childKey)) FROM \(quoteIdentifier(child)) WHERE \(quoteIdentifier(column)) = \(id) AND \(quoteIdentifier(childKey)) <> \(after) ORDER BY 1 LIMIT \(oneChild ? 1 : 20)"
        ).compactMap { $0.first.flatMap(Self.integer) }
        for row in children {
          try copyFamily(
            of: child, id: row, overrides: [column: String(after)], integerKeys: integerKeys, given: given, depth: depth + 1,
            oneChild: oneChild, copied: &copied, database: database, schema: schema)
        }
      } else {
        // A link table without an integer key: its rows copied as they are, pointing at the copy.
        let childColumns = schema.columnNames(of: child)
        let childList = childColumns.map(quoteIdentifier).joined(separator: ", ")
        let childValues = childColumns.map { $0 == column ? String(after) : quoteIdentifier($0) }.joined(separator: ", ")
        try database.execute(
          "INSERT OR IGNORE INTO \(quoteIdentifier(child)) (\(childList)) SELECT \(childValues) FROM \(quoteIdentifier(child)) WHERE \(quoteIdentifier(column)) = \(id)"
        )
      }
    }
    return after
  }

  /// ` AND lower(col) NOT IN (given…)` for every text column: a row holding a given value is not copied.
  private static func notGiven(_ columns: [String], _ given: Set<String>) -> String {
    guard !given.isEmpty else { return "" }
    let list = given.sorted().map(quoteText).joined(separator: ", ")
    return columns.map { " AND coalesce(lower(\(quoteIdentifier($0))), '') NOT IN (\(list))" }.joined()
  }

  /// A change the schema refuses is left out; a savepoint keeps its half-done trigger work out too.
  private func attempt(_ database: Database, _ schema: DatabaseSchema, _ sql: String) throws {
    // Hundreds of changes a dataset: the statements around each are compiled once.
    _ = try database.rowsReusing("SAVEPOINT quarry_variation")
    do {
      try database.execute(sql)
      // Deferred keys, or keys not enforced: checked here, before the change is kept; and no
      // row made its own ancestor.
      let broken = try !database.rowsReusing("PRAGMA foreign_key_check").isEmpty
      if try broken || Self.hasCycle(in: database, schema: schema) {
        _ = try database.rowsReusing("ROLLBACK TO quarry_variation")
      }
    } catch {
      _ = try database.rowsReusing("ROLLBACK TO quarry_variation")
    }
    _ = try database.rowsReusing("RELEASE quarry_variation")
  }

  /// Whether a row of a table that refers to itself is its own ancestor (a manager who reports
  /// to someone in their own team): a cycle no tree has, where a walk up never ends.
  static func hasCycle(in database: Database, schema: DatabaseSchema) throws -> Bool {
    let links = schema.tables.filter { !$0.isTemporary && $0.kind != .view }.flatMap { table in
      table.foreignKeys.filter { $0.table == table.name }.map { (table: table.name, from: $0.fromColumn, to: $0.toColumn ?? "rowid") }
    }
    for (table, from, to) in links {
      let (t, child, parent) = (quoteIdentifier(table), quoteIdentifier(from), quoteIdentifier(to))
      let count = try database.rowsReusing("SELECT count(*) FROM \(t)").first?.first.flatMap(Self.integer) ?? 0
      let walk = try database.rowsReusing(
        "WITH RECURSIVE up(next, steps) AS (SELECT \(child), 0 FROM \(t) UNION ALL SELECT t.\(child), up.steps + 1 FROM up "
          + "JOIN \(t) AS t ON t.\(parent) = up.next WHERE up.steps <= ?1) SELECT 1 FROM up WHERE up.steps > ?1 LIMIT 1",
        bindings: [.integer(count)])
      if !walk.isEmpty { return true }
    }
    return false
  }

  /// A date moved, in the format it is written in (`YYYY-MM-DD`, with a time or not).
  static func moved(_ name: String, by shift: String) -> String {
    "CASE WHEN length(\(name)) = 10 THEN date(\(name), '\(shift)') "
      + "WHEN length(\(name)) = 19 AND substr(\(name), 11, 1) = ' ' THEN datetime(\(name), '\(shift)') "
      + "WHEN length(\(name)) = 19 AND substr(\(name), 11, 1) = 'T' THEN strftime('%Y-%m-%dT%H:%M:%S', \(name), '\(shift)') "
      + "ELSE \(name) END"
  }

  static func integer(_ value: DatabaseValue) -> Int64? {
    if case .integer(let id) = value { return id } else { return nil }
  }

  /// The columns of a table with what their values look like.
  static func columns(of table: String, in database: Database, schema: DatabaseSchema) throws -> [Column] {
    guard let declaration = schema.table(named: table) else { return [] }
    var parents: [String: String] = [:]
    for foreignKey in declaration.foreignKeys { parents[foreignKey.fromColumn] = foreignKey.table }
    // Every column's count of values in one statement.
    let counts =
      declaration.columns.isEmpty
      ? []
      : try database.rowsReusing(
        "SELECT \(declaration.columns.map { "count(\(quoteIdentifier($0.name)))" }.joined(separator: ", ")) FROM \(quoteIdentifier(table))"
      ).first ?? []
    return try declaration.columns.enumerated().map { index, column in
      let name = column.name
      let isKey = column.primaryKeyIndex > 0
      let values = try database.rowsReusing("SELECT DISTINCT \(quoteIdentifier(name)) FROM \(quoteIdentifier(table)) ORDER BY 1")
        .compactMap(
          \.first)
      let count = counts.indices.contains(index) ? Self.integer(counts[index]) ?? 0 : 0
      return Column(
        name: name, nullable: !column.isNotNull && !isKey, isKey: isKey, parent: parents[name],
        kind: kind(declared: column.declaredType.uppercased(), values: values.filter { $0 != .null }, rows: Int(count)), values: values)
    }
  }

  /// What a column holds, read off its declared type and its values.
  static func kind(declared: String, values: [DatabaseValue], rows: Int) -> Kind {
    let texts = values.compactMap { value -> String? in if case .text(let text) = value { text } else { nil } }
    if values.isEmpty {
      if declared.contains("INT") || declared.contains("BOOL") { return .integer }
      if declared.contains("REAL") || declared.contains("FLOA") || declared.contains("DOUB") { return .real }
      if declared.contains("TEXT") || declared.contains("CHAR") { return .text }
      return .other
    }
    if values.allSatisfy({ if case .integer(let v) = $0 { return v == 0 || v == 1 } else { return false } }) {
      return declared.contains("BOOL") || values.count == 2 ? .flag : .integer
    }
    if values.allSatisfy({ if case .integer = $0 { return true } else { return false } }) { return .integer }
    if values.allSatisfy({ if case .text = $0 { false } else { $0.doubleValue != nil } }) { return .real }
    guard texts.count == values.count else { return .other }
    if texts.allSatisfy(isDate) { return .date }
    // JSON, and text that is not words, stay as they are.
    if texts.contains(where: { $0.hasPrefix("[") || $0.hasPrefix("{") }) { return .other }
    // A few lower-case words that repeat: a status, a category.
    if texts.count <= 5, rows >= texts.count + 2, texts.allSatisfy({ $0.allSatisfy { $0.isLowercase || $0 == "_" || $0 == "-" } }) {
      return .label
    }
    return .text
  }

  /// Whether a column's values name rows (a name, a title, an e-mail, a username).
  static func namesRows(_ column: String) -> Bool {
    let lower = column.lowercased()
    return ["name", "title", "email", "mail", "username", "login", "handle"].contains { lower == $0 || lower.hasSuffix($0) }
  }

  static func isDate(_ text: String) -> Bool {
    let bytes = Array(text.utf8)
    guard bytes.count >= 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return false }
    return [0, 1, 2, 3, 5, 6, 8, 9].allSatisfy { bytes[$0] >= UInt8(ascii: "0") && bytes[$0] <= UInt8(ascii: "9") }
  }
}

extension SplitMix64 {
  /// A draw in `0..<count` (count > 0).
  mutating func index(_ count: Int) -> Int { Int(next() % UInt64(max(count, 1))) }

  /// An element drawn with this generator's own draws (nil when there is none).
  mutating func pick<T>(_ values: [T]) -> T? { values.isEmpty ? nil : values[index(values.count)] }
}
