import QuarryEngine

/// Whether two scripts compile to the same SQLite programs, statement by statement: then no
/// database with this schema can tell them apart, and a mutant that compiles to its solution's
/// program is equivalent to it, proven by SQLite's own planner rather than declared by hand.
/// SQLite drops a DISTINCT whose rows are unique by a key, turns a LEFT JOIN into a JOIN when the
/// WHERE rejects the NULL row, and leaves out a join nothing reads.
///
/// ```swift
/// ProgramEquivalence.same(
///   ["SELECT id, title FROM reminders"], ["SELECT DISTINCT id, title FROM reminders"], fixture: "reminders")
/// // true: the DISTINCT's temporary index becomes a Noop (id is the primary key)
/// ```
///
/// Programs are compared instruction by instruction with `Noop`s left out, jump targets read as
/// the instructions they lead to and cursors numbered by first use, so a program one `Noop`
/// longer (and one cursor number further) is the same program.
enum ProgramEquivalence {
  struct Instruction: Equatable {
    var opcode: String
    var operands: [DatabaseValue]
  }

  /// Opcodes whose P2 is the address of an instruction (SQLite 3.40's jumps).
  static let jumps: Set<String> = [
    "Goto", "Gosub", "InitCoroutine", "Yield", "HaltIfNull", "Once", "If", "IfNot", "IsNull",
    "NotNull", "IfNullRow",
    "Eq", "Ne", "Lt", "Le", "Gt", "Ge", "ElseEq", "IfNoHope", "NoConflict", "NotFound", "Found",
    "SeekRowid",
    "NotExists", "SeekLT", "SeekLE", "SeekGE", "SeekGT", "SeekScan", "Last", "IfSmaller",
    "SorterSort", "Sort",
    "Rewind", "Prev", "Next", "SorterNext", "IdxLE", "IdxGT", "IdxLT", "IdxGE", "RowSetRead",
    "RowSetTest",
    "Program", "FkIfZero", "IfPos", "IfNotZero", "DecrJumpZero", "VFilter", "VNext", "Init",
    "Filter",
    "MustBeInt", "SequenceTest", "IfNotOpen", "IsTrue", "Jump",
  ]

  /// Opcodes whose P1 is a cursor: cursors are numbered by first use, so a cursor number a
  /// dropped DISTINCT's temporary index took does not tell two programs apart.
  static let cursorOperations: Set<String> = [
    "OpenRead", "OpenWrite", "OpenEphemeral", "OpenAutoindex", "OpenPseudo", "OpenDup",
    "SorterOpen", "ReopenIdx",
    "Close", "Rewind", "Last", "Next", "Prev", "Column", "Rowid", "SeekRowid", "NotExists",
    "SeekGE", "SeekGT", "SeekLE",
    "SeekLT", "SeekEnd", "SeekHit", "Found", "NotFound", "NoConflict", "IdxGE", "IdxGT", "IdxLE",
    "IdxLT", "IdxRowid",
    "IdxInsert", "IdxDelete", "Insert", "Delete", "NullRow", "IfNullRow", "RowData", "SorterData",
    "SorterInsert",
    "SorterSort", "SorterNext", "Sort", "SorterCompare", "DeferredSeek", "FinishSeek", "NewRowid",
    "ResetSorter",
    "Sequence", "SequenceTest", "ColumnsUsed", "IfNotOpen", "CursorHint", "RowCell", "Count",
    "VOpen", "VFilter",
    "VColumn", "VNext", "VUpdate", "IsNullRow", "IfNoHope", "CursorLock", "CursorUnlock",
  ]

  /// Whether `solution` and `mutant` (the same number of statements) compile to the same programs
  /// on the fixture's schema; each statement runs after it is compared, so a later statement sees
  /// the tables and views an earlier one made. False when any statement fails to compile.
  static func same(_ solution: [String], _ mutant: [String], fixture: String) -> Bool {
    // The fixture's schema is all EXPLAIN needs: no rows, no models to read.
    guard solution.count == mutant.count, !solution.isEmpty, let database = try? Database(path: ":memory:"),
      let schema = try? Fixture.named(fixture).schemaSQL, (try? database.execute(schema)) != nil
    else { return false }
    for (original, changed) in zip(solution, mutant) {
      guard let first = try? program(of: original, in: database),
        let second = try? program(of: changed, in: database),
        first == second
      else { return false }
      guard (try? database.execute(original)) != nil else { return false }
    }
    return true
  }

  /// The program of one statement, `Noop`s left out and jump targets renumbered to match.
  static func program(of statement: String, in database: Database) throws -> [Instruction] {
    let rows = try database.rows("EXPLAIN " + statement.trimmingTrailingSemicolons())
    // Old address → address once the Noops are gone.
    var addresses: [Int64: Int64] = [:]
    var kept: Int64 = 0
    for row in rows {
      guard row.count >= 7, case .integer(let address) = row[0] else { continue }
      addresses[address] = kept
      if row[1].textValue != "Noop" { kept += 1 }
    }
    var cursors: [Int64: Int64] = [:]
    func cursor(_ value: DatabaseValue) -> DatabaseValue {
      guard case .integer(let id) = value else { return value }
      if let known = cursors[id] { return .integer(known) }
      let number = Int64(cursors.count)
      cursors[id] = number
      return .integer(number)
    }
    return rows.compactMap { row -> Instruction? in
      guard row.count >= 7, let opcode = row[1].textValue, opcode != "Noop" else { return nil }
      var operands = Array(row[2...6])
      if cursorOperations.contains(opcode) { operands[0] = cursor(operands[0]) }
      if opcode == "DeferredSeek" { operands[2] = cursor(operands[2]) }
      if jumps.contains(opcode), case .integer(let target) = operands[1] {
        operands[1] = .integer(addresses[target] ?? target)
      }
      if opcode == "Jump" {
        for index in [0, 2] {
          if case .integer(let target) = operands[index] {
            operands[index] = .integer(addresses[target] ?? target)
          }
        }
      }
      return Instruction(opcode: opcode, operands: operands)
    }
  }
}
