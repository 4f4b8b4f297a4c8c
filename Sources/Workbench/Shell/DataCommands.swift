import FoundationEssentials
import QuarryEngine
import QueryBuilder

/// The commands sqlite3 users reach for to move data in and out: `.dump`, `.import`, `.indexes`.
enum DataCommands {
  static var all: [MetaCommand] {
    [
      MetaCommand(
        usage: ".dump [TABLE…]", summary: "SQL text that recreates the database (or the named tables)",
        details: """
          The schema in the order it was made, each table's rows as INSERT statements, then indexes,
          triggers and views, in one transaction, as sqlite3's .dump writes it. sqlite3 (or .read)
          loads it back: .output FILE first to keep it in a file.
          """
      ) { shell, argument in
        let names = argument.split(separator: " ").map { $0.trimmingScalars(in: ScalarSet(charactersIn: "\"'")).lowercased() }
        do {
          try DatabaseDump(database: shell.session.database).write(to: shell.output, only: names.isEmpty ? nil : Set(names))
        } catch {
          shell.fail("cannot dump the database: \(error)")
        }
      },
      MetaCommand(
        usage: ".import FILE TABLE", summary: "Import a CSV (or .tsv) file into TABLE, all rows or none",
        details: """
          Fields are separated by commas (tabs in a .tsv file); quoted fields may hold commas, quotes
          ("" for one) and newlines, as .mode csv writes them. A new TABLE takes its column names from
          the first line (every column TEXT). An existing table takes every line, except a first
          line that names its columns. A line with the wrong number of fields, or a row the table
          refuses (a constraint), is an error at its line, and nothing is imported.
          """,
        reachesFiles: true
      ) { shell, argument in
        let parts = argument.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        guard parts.count == 2 else { return shell.fail("usage: .import FILE TABLE") }
        let path = expandingTilde(parts[0])
        guard let reader = ByteReader(path: path) else {
          return shell.fail("cannot read '\(parts[0])': \(fileProblem(path))")
        }
        // A long import says how far it is, on a terminal, on one line it then clears.
        let interactive = shell.terminal.isInteractive
        var shown = false
        let progress: (Int) -> Void = { count in
          guard interactive else { return }
          shell.output.write("\r\u{1B}[2K… \(ReplFormatter.grouped(count)) rows so far · Ctrl-C stops")
          shell.output.flush()
          shown = true
        }
        func clearProgress() {
          if shown { shell.output.write("\r\u{1B}[2K") }
          shell.output.flush()
        }
        do {
          let message = try TableImport(database: shell.session.database).run(
            path: parts[0], table: parts[1], reader: reader, progress: progress)
          clearProgress()
          try? shell.session.refreshSchema()
          shell.output.write(message + "\n")
        } catch let error as TableImport.Failure {
          clearProgress()
          shell.fail(error.description)
        } catch {
          clearProgress()
          shell.fail("\(parts[0]): \(error)")
        }
      },
      MetaCommand(
        usage: ".indexes [TABLE]", summary: "List the indexes (of TABLE), with their columns"
      ) { shell, argument in
        let table = argument.trimmingScalars(in: ScalarSet(charactersIn: " \"'"))
        do {
          let rows = try shell.session.database.rows(
            "SELECT name, tbl_name FROM sqlite_schema WHERE type = 'index'" + (table.isEmpty ? "" : " AND tbl_name = ? COLLATE NOCASE")
              + " ORDER BY tbl_name, name",
            bindings: table.isEmpty ? [] : [.text(table)])
          if rows.isEmpty { shell.output.write(table.isEmpty ? "(no indexes)\n" : "(no indexes on \(table))\n") }
          for row in rows {
            guard row.count == 2, case .text(let name) = row[0], case .text(let owner) = row[1] else { continue }
            let columns =
              (try? shell.session.database.rows("SELECT name FROM pragma_index_info(?) ORDER BY seqno", bindings: [.text(name)]))?
              .compactMap { column -> String? in if case .text(let text)? = column.first { return text } else { return nil } } ?? []
            shell.output.write("\(name)  on \(owner)(\(columns.joined(separator: ", ")))\n")
          }
        } catch {
          shell.fail("\(error)")
        }
      },
    ]
  }
}
