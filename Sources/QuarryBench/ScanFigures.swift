import Foundation

/// `quarry scan` on a generated app of 20,000 lines (the fixture app's models and migrations,
/// and 100 feature files of view models whose queries vary in shape and constants): median
/// seconds of three runs, beside sqlite3 explaining the same SQL (every query the scan
/// rendered, under EXPLAIN QUERY PLAN, in one script).
func scanFigures(quarry: String) {
  let folder = NSTemporaryDirectory() + "quarry-bench-scan-\(getpid())"
  defer { try? FileManager.default.removeItem(atPath: folder) }
  try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
  for name in ["Models.swift", "Schema.swift"] {
    try? FileManager.default.copyItem(atPath: "Tests/ScanApp/" + name, toPath: folder + "/" + name)
  }
  var lines = 0
  var file = 0
  while lines < 20_000 {
    let text = featureFile(file)
    lines += text.split(separator: "\n", omittingEmptySubsequences: false).count
    try? text.write(toFile: folder + "/Feature\(file).swift", atomically: true, encoding: .utf8)
    file += 1
  }
  var samples: [Double] = []
  for _ in 0..<3 { samples.append(measure([quarry, "scan", folder, "--format", "json"])) }
  // The reference: sqlite3 preparing and explaining every statement the scan rendered.
  let output = NSTemporaryDirectory() + "quarry-bench-scan-\(getpid()).json"
  defer { unlink(output) }
  shell("'\(quarry)' scan '\(folder)' --format json > '\(output)'")
  var script = ""
  var migrations = ""
  var queries = 0
  if let text = try? String(contentsOfFile: output, encoding: .utf8) {
    for line in text.split(separator: "\n") {
      guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { continue }
      if let sql = object["sql"] as? String, !sql.isEmpty, object["kind"] as? String == "query" {
        script += "EXPLAIN QUERY PLAN " + sql + ";\n"
        queries += 1
      } else if let sql = object["sql"] as? String, (object["kind"] as? String)?.hasPrefix("migration") == true, object["error"] is NSNull {
        migrations += sql + ";\n"
      }
    }
  }
  let scriptPath = NSTemporaryDirectory() + "quarry-bench-scan-\(getpid()).sql"
  defer { unlink(scriptPath) }
  try? (migrations + script).write(toFile: scriptPath, atomically: true, encoding: .utf8)
  var reference: [Double] = []
  for _ in 0..<3 { reference.append(measure(["sqlite3", ":memory:"], stdin: scriptPath)) }
  print("scan_20k_lines: \(lines) lines, \(file) files, \(queries) queries explained")
  report("scan_20k_lines_median_s", median(samples), digits: 2)
  report("scan_20k_sqlite3_explain_median_s", median(reference), digits: 3)
}

/// One feature file: a view model with `@FetchAll` properties and functions whose queries
/// filter, join, group, count and write, each with its own constants.
func featureFile(_ index: Int) -> String {
  var out = "import SQLiteData\nimport SwiftUI\n\n@Observable\nfinal class Feature\(index)Model {\n"
  out += "  @ObservationIgnored @FetchAll(Reminder.where { $0.title.eq(\"feature \(index)\") }.order(by: \\.title)) var reminders\n"
  out += "  @ObservationIgnored @FetchAll var lists: [RemindersList]\n"
  out += "  @ObservationIgnored @Dependency(\\.defaultDatabase) var database\n\n"
  for block in 0..<9 {
    let n = index * 10 + block
    out += """
          func reminders\(block)(in list: RemindersList) throws -> [Reminder] {
            try database.read { db in
              try Reminder.inList(list.id)
                .where { $0.title.like("%\(n)%") }
                .order(by: \\.title)
                .limit(\(n % 50 + 1))
                .fetchAll(db)
            }
          }

          func counts\(block)() throws -> [Int] {
            try database.read { db in
              try RemindersList
                .join(Reminder.all) { $0.id.eq($1.remindersListID) }
                .group { list, _ in list.id }
                .select { $1.id.count() }
                .fetchAll(db)
            }
          }

          func rename\(block)(_ reminder: Reminder, to title: String) throws {
            try database.write { db in
              try Reminder.find(reminder.id).update { $0.title = title }.execute(db)
              try Tag.where { $0.title.eq("tag \(n)") }.delete().execute(db)
            }
          }


      """
  }
  out += "}\n"
  return out
}
