// Quarry's benchmark harness (`make bench`, release build). Prints `name: value` lines.
//
//   compile_median_us              parse → SQL text in process, median over reference queries
//   compile_to_parse_ratio         per query, compile over swift-syntax's parse alone (same input,
//                                  same rounds); the median: steadier than µs on a drifting machine
//   point_query_ratio_vs_sqlite3   whole `quarry DB -e … --format csv` vs `sqlite3 -csv` (medians)
//   point_query_sql_ratio_*        the same query given to quarry as SQL (no DSL front end)
//   point_query_floor_ratio_*      that, plus a cold SwiftParser parse of the DSL query (spawned
//                                  `QuarryBench --parse-only` minus `--exit`): the least a DSL
//                                  point query costs while every process parses it
//   csv_1m_ratio_vs_sqlite3        all rows of a 1,000,000-row table as CSV, vs `sqlite3 -csv`
//   csv_1m_peak_rss_kb             peak resident memory of that export (quarry, and sqlite3)
//   line_1m_peak_rss_kb            the same table in `--format line` (records streamed)
//   startup_ratio_vs_sqlite3       spawn → first prompt on a pseudo-terminal, vs `sqlite3` (medians)
//   keystroke_echo_*_median_us     a typed character until the terminal shows it, at the prompt
//   completion_median_us           Tab completion on the default fixture, in process
//   prompt_1m_maxrows_*_peak_rss_kb  peak memory of a prompt session showing 1,000,000 rows, for
//                                  .maxrows auto, 100 and 0 (every row streamed), beside an
//                                  empty session's
//   binary_size_mb                 the release binary's size
//   huge_sql_line_25mb_*           a 25 MB SQL line as a script, quarry and sqlite3 (medians)
//   huge_dsl_literal_12mb_*        a 12 MB DSL string literal as a script
//   huge_sql_line_100mb_{box,json}_*  a 100 MB SQL string literal, drawn (SQL echoed) and as JSON
//   box_1m_ratio_vs_sqlite3        all rows of that table as a box table into a file, vs `sqlite3 -box`
//   box_1m_peak_rss_kb             its peak memory (quarry streams past the first thousand rows)
//   import_1m_ratio_vs_sqlite3     `.import` of those rows as CSV into a new file, vs sqlite3's
//   import_1m_peak_rss_kb          its peak memory (the file is read a chunk at a time)
//   lesson_check_median_s          `quarry lessons --check N.K -- ANSWER`, whole process (and _max_s)
//   scan_20k_lines_median_s        `quarry scan` of a generated 20,000-line app, beside sqlite3
//                                  explaining the SQL it found (scan_20k_sqlite3_explain_median_s)
//   to_dsl_answer_median_ms        `.dsl` on eight statements, in process (and _max_ms), beside
//                                  SQLite preparing them (to_dsl_sqlite_prepare_median_ms);
//                                  `--to-dsl-only` prints just these
import Foundation
import QuarryDSL
import SwiftParser
import Workbench

#if canImport(Glibc)
  import Glibc
#endif

// `QuarryBench --exit` exits at once; `QuarryBench --parse-only TEXT` parses TEXT with SwiftParser
// and exits. Spawned, the difference of the two is what a fresh process pays to parse a DSL
// query cold (the point query's floor: quarry parses the DSL with swift-syntax in every process).
if CommandLine.arguments.count > 1, CommandLine.arguments[1] == "--exit" { exit(0) }
if CommandLine.arguments.count > 1, CommandLine.arguments[1] == "--to-dsl-only" {
  toDSLFigures()
  exit(0)
}
if CommandLine.arguments.count > 2, CommandLine.arguments[1] == "--parse-only" {
  _ = Parser.parse(source: CommandLine.arguments[2])
  exit(0)
}

func median(_ values: [Double]) -> Double {
  let sorted = values.sorted()
  guard !sorted.isEmpty else { return .nan }
  return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

/// Peak resident memory (KiB) of a command, measured by GNU time (`/usr/bin/time -f %M`).
///
/// Not `wait4`'s `ru_maxrss`: `posix_spawn` starts the child in this process's address space,
/// and Linux carries that space's high-water mark across `exec`, so every child would report
/// at least the harness's own size. GNU time forks from its own small process instead.
func peakRSS(_ arguments: [String]) -> Int? {
  guard FileManager.default.isExecutableFile(atPath: "/usr/bin/time") else { return nil }
  let report = NSTemporaryDirectory() + "quarry-bench-rss-\(getpid())"
  defer { unlink(report) }
  measure(["/usr/bin/time", "-f", "%M", "-o", report] + arguments)
  guard let text = try? String(contentsOfFile: report, encoding: .utf8) else { return nil }
  return Int(text.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "\n").last ?? "")
}

/// Prints one `name: value` line with `digits` decimals.
func report(_ name: String, _ value: Double, digits: Int) {
  print("\(name): \(String(format: "%.\(digits)f", value))")
}

/// Runs a command with stdout to /dev/null; returns wall seconds.
@discardableResult
func measure(_ arguments: [String], stdin: String? = nil) -> Double {
  var actions = posix_spawn_file_actions_t()
  posix_spawn_file_actions_init(&actions)
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
  if let stdin { posix_spawn_file_actions_addopen(&actions, 0, stdin, O_RDONLY, 0) }
  defer { posix_spawn_file_actions_destroy(&actions) }
  var pid: pid_t = 0
  let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
  defer { for pointer in argv { free(pointer) } }
  let start = DispatchTime.now().uptimeNanoseconds
  guard posix_spawnp(&pid, arguments[0], &actions, nil, argv, environ) == 0 else {
    fatalError("cannot run \(arguments[0])")  // the harness's own set-up, not user input
  }
  var status: Int32 = 0
  waitpid(pid, &status, 0)
  let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
  return seconds
}

/// Spawns a command on a new pseudo-terminal (120×40): the seconds until `prompt` appears in its
/// output, then, for each character of `keys` typed one at a time, the seconds until the
/// terminal shows it (keystroke to redraw). Nil if it never prompts within 10 s.
func promptTimings(
  _ arguments: [String], prompt: String, home: String, keys: String = "",
  setup: [String] = [], environment extra: [String] = [],
  line: (text: String, until: String)? = nil, quitsAfterLine: Bool = false, timeout: Double = 10
)
  -> (startup: Double, keystrokes: [Double], line: Double?)?
{
  var master: Int32 = -1
  var slave: Int32 = -1
  var size = winsize(ws_row: 40, ws_col: 120, ws_xpixel: 0, ws_ypixel: 0)
  guard openpty(&master, &slave, nil, nil, &size) == 0 else { return nil }
  defer { close(master) }
  var actions = posix_spawn_file_actions_t()
  posix_spawn_file_actions_init(&actions)
  defer { posix_spawn_file_actions_destroy(&actions) }
  for fd: Int32 in [0, 1, 2] { posix_spawn_file_actions_adddup2(&actions, slave, fd) }
  posix_spawn_file_actions_addclose(&actions, master)
  posix_spawn_file_actions_addclose(&actions, slave)
  let environment =
    [
      "HOME=\(home)", "XDG_STATE_HOME=\(home)/state", "TERM=xterm", "PATH=/usr/bin:/bin",
      "QUARRY_FIXTURES=\(FileManager.default.currentDirectoryPath)/fixtures",
    ] + extra
  let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup($0) } + [nil]
  let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
  defer { for pointer in argv + envp { free(pointer) } }
  var pid: pid_t = 0
  let start = DispatchTime.now().uptimeNanoseconds
  let spawned = posix_spawnp(&pid, arguments[0], &actions, nil, argv, envp)
  close(slave)
  guard spawned == 0 else { return nil }
  var quitQuietly = false
  defer {
    var status: Int32 = 0
    if quitQuietly {
      // Ctrl-D at the prompt: the process (and a wrapping `time`) ends on its own.
      _ = write(master, [4], 1)
      for _ in 0..<100 where waitpid(pid, &status, WNOHANG) == 0 { usleep(50_000) }
    }
    kill(pid, SIGKILL)
    waitpid(pid, &status, 0)
  }
  var buffer = [UInt8](repeating: 0, count: 4096)
  /// Reads output until it contains `text`; the time that took, or nil.
  func wait(for text: String, since: UInt64) -> Double? {
    var seen: [UInt8] = []
    let target = Array(text.utf8)
    while DispatchTime.now().uptimeNanoseconds - since < UInt64(timeout * 1e9) {
      var poller = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
      guard poll(&poller, 1, 100) > 0 else { continue }
      let count = read(master, &buffer, buffer.count)
      guard count > 0 else { return nil }
      seen += buffer[..<count]
      // Only the new bytes (and the target's length before them) can complete a match; older
      // output is dropped, so a long stream is read in linear time.
      if seen.count > count + target.count { seen.removeFirst(seen.count - count - target.count) }
      if seen.count >= target.count,
        (0...(seen.count - target.count)).contains(where: { seen[$0..<($0 + target.count)].elementsEqual(target) })
      {
        return Double(DispatchTime.now().uptimeNanoseconds - since) / 1e9
      }
    }
    return nil
  }
  guard let startup = wait(for: prompt, since: start) else { return nil }
  var keystrokes: [Double] = []
  for key in keys {
    let typed = Array(String(key).utf8)
    let sent = DispatchTime.now().uptimeNanoseconds
    guard write(master, typed, typed.count) == typed.count, let echoed = wait(for: String(key), since: sent) else { break }
    keystrokes.append(echoed)
  }
  // Settings typed first (`.maxrows 0`), each answered by a new prompt.
  for command in setup {
    let typed = Array((command + "\r").utf8)
    guard write(master, typed, typed.count) == typed.count, wait(for: prompt, since: DispatchTime.now().uptimeNanoseconds) != nil else {
      return nil
    }
  }
  var lineTime: Double?
  if let line {
    let typed = Array((line.text + "\r").utf8)
    let sent = DispatchTime.now().uptimeNanoseconds
    if write(master, typed, typed.count) == typed.count { lineTime = wait(for: line.until, since: sent) }
    if quitsAfterLine {
      _ = wait(for: prompt, since: DispatchTime.now().uptimeNanoseconds)
      quitQuietly = true
    }
  }
  return (startup, keystrokes, lineTime)
}

/// The first screen of a 1,000,000-row result at the prompt (box mode): seconds from Enter
/// until the result's last line is drawn, and the session's peak memory then (GNU time), next
/// to an empty session's; sqlite3's reference is the time until its box output shows the
/// first row of the same query.
@MainActor func firstScreenFigures() {
  let home = directory.appendingPathComponent("home").path
  let rssFile = directory.appendingPathComponent("rss.txt").path
  var quarryTimes: [Double] = []
  var sqliteTimes: [Double] = []
  var peak = 0
  var emptyPeak = 0
  for round in 0..<5 {
    let timed = ["/usr/bin/time", "-f", "%M", "-o", rssFile, quarry, database]
    if let run = promptTimings(timed, prompt: "quarry> ", home: home, line: ("Item.all", "rows ("), quitsAfterLine: true),
      let seconds = run.line
    {
      quarryTimes.append(seconds)
      peak = max(
        peak, Int((try? String(contentsOfFile: rssFile, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? 0)
    }
    if round < 2, promptTimings(timed, prompt: "quarry> ", home: home, line: (".tables", "items"), quitsAfterLine: true) != nil {
      emptyPeak = max(
        emptyPeak, Int((try? String(contentsOfFile: rssFile, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? 0)
    }
    if let run = promptTimings(
      ["sqlite3", "-box", database], prompt: "sqlite> ", home: home,
      line: (#"SELECT * FROM items;"#, "item 1 ")), let seconds = run.line
    {
      sqliteTimes.append(seconds)
    }
  }
  report("first_screen_1m_quarry_median_ms", median(quarryTimes) * 1000, digits: 1)
  report("first_screen_1m_sqlite3_first_row_median_ms", median(sqliteTimes) * 1000, digits: 1)
  print("first_screen_1m_peak_rss_kb: quarry \(peak), empty session \(emptyPeak)")
  report("first_screen_1m_rss_ratio_vs_empty", Double(peak) / Double(max(1, emptyPeak)), digits: 2)
}

/// Peak memory of a session at the prompt that shows a 1,000,000-row result, for each
/// `.maxrows` setting (every row streams through the terminal with `0`; `PAGER=cat`), next to an
/// empty session's; and the seconds until the whole result was drawn.
@MainActor func promptMemoryFigures() {
  let home = directory.appendingPathComponent("home").path
  let rssFile = directory.appendingPathComponent("rss-maxrows.txt").path
  func peak() -> Int {
    Int((try? String(contentsOfFile: rssFile, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? 0
  }
  let timed = ["/usr/bin/time", "-f", "%M", "-o", rssFile, quarry, database]
  _ = promptTimings(timed, prompt: "quarry> ", home: home, line: (".tables", "items"), quitsAfterLine: true)
  let empty = peak()
  for setting in ["auto", "100", "0"] {
    guard
      let run = promptTimings(
        timed, prompt: "quarry> ", home: home, setup: [".maxrows \(setting)"], environment: ["PAGER=cat"],
        line: ("Item.all", "1,000,000 rows"), quitsAfterLine: true, timeout: 180), let seconds = run.line
    else {
      print("prompt_1m_maxrows_\(setting)_peak_rss_kb: (no result)")
      continue
    }
    print("prompt_1m_maxrows_\(setting)_peak_rss_kb: \(peak())")
    report("prompt_1m_maxrows_\(setting)_seconds", seconds, digits: 2)
  }
  print("prompt_empty_session_peak_rss_kb: \(empty)")
  // The reference for every row at the prompt: sqlite3 drawing the same table in the same
  // terminal, until its last row.
  if let run = promptTimings(
    ["sqlite3", "-box", database], prompt: "sqlite> ", home: home,
    line: ("SELECT * FROM items;", "item 1000000 "), timeout: 180), let seconds = run.line
  {
    report("prompt_1m_all_rows_sqlite3_seconds", seconds, digits: 2)
  }
}

/// Huge inputs as scripts: a 25 MB SQL line (one string literal) against sqlite3 on the same
/// file, and a 12 MB DSL string literal; medians of three runs. Both must grow linearly.
@MainActor func hugeInputFigures() {
  let sqlFile = directory.appendingPathComponent("huge.sql").path
  let dslFile = directory.appendingPathComponent("huge.swift").path
  let text = String(repeating: "abcdefghij", count: 2_500_000)
  try? "SELECT length('\(text)');\n".write(toFile: sqlFile, atomically: true, encoding: .utf8)
  try? "Tag.where { $0.title.eq(\"\(text.prefix(12_000_000))\") }.count()\n".write(toFile: dslFile, atomically: true, encoding: .utf8)
  let quarrySQL = median((0..<3).map { _ in measure([quarry, "--format", "csv"], stdin: sqlFile) })
  let sqliteSQL = median((0..<3).map { _ in measure(["sqlite3", "-csv"], stdin: sqlFile) })
  let quarryDSL = median((0..<3).map { _ in measure([quarry, "--format", "csv"], stdin: dslFile) })
  report("huge_sql_line_25mb_quarry_seconds", quarrySQL, digits: 2)
  report("huge_sql_line_25mb_sqlite3_seconds", sqliteSQL, digits: 2)
  report("huge_sql_line_25mb_ratio_vs_sqlite3", quarrySQL / max(sqliteSQL, 1e-6), digits: 1)
  report("huge_dsl_literal_12mb_quarry_seconds", quarryDSL, digits: 2)
  // 100 MB in the default (box) format, its SQL echoed, and in JSON: the sizes of issue reports.
  let bigFile = directory.appendingPathComponent("huge100.sql").path
  try? "SELECT '\(String(repeating: text, count: 4))' AS v;\n".write(toFile: bigFile, atomically: true, encoding: .utf8)
  for (name, quarryFormat, sqliteFormat) in [("box", [String](), ["-box"]), ("json", ["--format", "json"], ["-json"])] {
    let quarrySeconds = median((0..<3).map { _ in measure([quarry] + quarryFormat, stdin: bigFile) })
    let sqliteSeconds = median((0..<3).map { _ in measure(["sqlite3"] + sqliteFormat, stdin: bigFile) })
    report("huge_sql_line_100mb_\(name)_quarry_seconds", quarrySeconds, digits: 2)
    report("huge_sql_line_100mb_\(name)_sqlite3_seconds", sqliteSeconds, digits: 2)
    report("huge_sql_line_100mb_\(name)_ratio_vs_sqlite3", quarrySeconds / max(sqliteSeconds, 1e-6), digits: 1)
  }
  try? FileManager.default.removeItem(atPath: bigFile)
}

func shell(_ command: String) {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/bin/sh")
  process.arguments = ["-c", command]
  try? process.run()
  process.waitUntilExit()
}

var quarry = ".build/release/quarry"
var startupOnly = false
var compileOnly = false
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
  if argument == "--quarry", let path = arguments.popFirst() { quarry = path }
  if argument == "--startup-only" { startupOnly = true }
  if argument == "--compile-only" { compileOnly = true }
  if argument == "--scan-only" {
    scanFigures(quarry: quarry)
    exit(0)
  }
}

// Generated databases: 1,000,000 rows and 100,000 rows.
let directory = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-bench")
try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
let database = directory.appendingPathComponent("items.sqlite").path
let small = directory.appendingPathComponent("items-100k.sqlite").path
for (path, count) in [(database, 1_000_000), (small, 100_000)] where !FileManager.default.fileExists(atPath: path) {
  shell(
    """
    sqlite3 '\(path)' "CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL, price REAL NOT NULL, note TEXT);
    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(count))
    INSERT INTO items SELECT i, 'item ' || i, round(i * 0.37, 2), CASE WHEN i % 7 = 0 THEN NULL ELSE 'note, with comma' END FROM n;"
    """)
}

/// Start-up to the first prompt, in a pseudo-terminal: from spawning the process until its
/// prompt has been written (`quarry> `, `sqlite> `), on the same database, with an empty state
/// directory and home (no history, no ~/.sqliterc). Also without a terminal (stdin /dev/null).
/// Prints the medians; returns the two ratios.
@MainActor func startupFigures() -> (prompt: Double, script: Double) {
  let home = directory.appendingPathComponent("home").path
  try? FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
  var quarryPrompt: [Double] = []
  var sqlitePrompt: [Double] = []
  var quarryKeys: [Double] = []
  var sqliteKeys: [Double] = []
  let keys = "Reminder.where"
  for _ in 0..<31 {
    if let timings = promptTimings([quarry, small], prompt: "quarry> ", home: home, keys: keys) {
      quarryPrompt.append(timings.startup)
      quarryKeys += timings.keystrokes
    }
    if let timings = promptTimings(["sqlite3", small], prompt: "sqlite> ", home: home, keys: keys) {
      sqlitePrompt.append(timings.startup)
      sqliteKeys += timings.keystrokes
    }
  }
  var quarryStart: [Double] = []
  var sqliteStart: [Double] = []
  for _ in 0..<31 {
    quarryStart.append(measure([quarry, small], stdin: "/dev/null"))
    sqliteStart.append(measure(["sqlite3", small], stdin: "/dev/null"))
  }
  report("startup_prompt_quarry_median_ms", median(quarryPrompt) * 1000, digits: 2)
  report("startup_prompt_sqlite3_median_ms", median(sqlitePrompt) * 1000, digits: 2)
  report("keystroke_echo_quarry_median_us", median(quarryKeys) * 1e6, digits: 0)
  report("keystroke_echo_sqlite3_median_us", median(sqliteKeys) * 1e6, digits: 0)
  report("startup_script_quarry_median_ms", median(quarryStart) * 1000, digits: 2)
  report("startup_script_sqlite3_median_ms", median(sqliteStart) * 1000, digits: 2)
  return (median(quarryPrompt) / median(sqlitePrompt), median(quarryStart) / median(sqliteStart))
}

func reportStartupRatios(_ startup: (prompt: Double, script: Double)) {
  report("startup_ratio_vs_sqlite3", startup.prompt, digits: 2)
  report("startup_script_ratio_vs_sqlite3", startup.script, digits: 2)
}

if startupOnly {
  reportStartupRatios(startupFigures())
  exit(0)
}

// Compile time, in process.
let session = try Session.fixture("reminders")
var queries = [
  "Reminder.all",
  #"Reminder.where { !$0.isCompleted }.order(by: \.title).limit(10)"#,
  "Reminder.join(RemindersList.all) { $0.remindersListID.eq($1.id) }.select { ($0.title, $1.title) }",
  "RemindersList.group(by: \\.id).join(Reminder.all) { $0.id.eq($1.remindersListID) }.having { $1.count() > 2 }.select { ($0.title, $1.count()) }",
  #"Reminder.leftJoin(User.all) { $0.assignedUserID.eq($1.id) }.select { ($0.title, $1.name ?? "nobody") }"#,
]
let visible = URL(fileURLWithPath: "../shared/conformance/visible.jsonl")
if let text = try? String(contentsOf: visible, encoding: .utf8) {
  for line in text.split(separator: "\n") {
    if let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
      let expr = object["expr"] as? String, (object["decls"] as? String ?? "").isEmpty
    {
      queries.append(expr)
    }
  }
}
let compiler = Compiler(catalog: session.catalog)
// Rounds interleave the queries, so a slow stretch of the machine touches every query alike
// rather than a few of them; each query's figure is the median of its 200 samples.
let compilable = queries.filter { (try? compiler.compile($0)) != nil }
let compiledCount = compilable.count
var compileSamples = Array(repeating: [Double](), count: compilable.count)
var parseSamples = Array(repeating: [Double](), count: compilable.count)
for _ in 0..<10 {
  for (index, query) in compilable.enumerated() {
    for _ in 0..<20 {
      let start = DispatchTime.now().uptimeNanoseconds
      if let items = try? compiler.compile(query) {
        for case .statement(let statement) in items { _ = statement.displaySQL }
      }
      compileSamples[index].append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1000)
    }
    for _ in 0..<20 {
      let start = DispatchTime.now().uptimeNanoseconds
      _ = Parser.parse(source: query)
      parseSamples[index].append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1000)
    }
  }
}
let perQuery = compileSamples.map(median)
let parseOnly = parseSamples.map(median)
// Each query's compile median over its own parse median (measured in the same rounds), then
// the median of those ratios: steady when the machine's speed drifts during the run.
let compileToParse = median(zip(perQuery, parseOnly).map { $0 / $1 })
// Tab completion, in process, on the default fixture.
let completer = Completer(catalog: session.catalog, metaCommands: Shell(session: session).commandNames)
var completionSamples: [Double] = []
for line in ["Reminder.where { $0.ti", "Reminder.wh", "Rem", "Reminder.join(User.all) { $0.assignedUserID.eq($1.na", ".sch"] {
  for _ in 0..<200 {
    let start = DispatchTime.now().uptimeNanoseconds
    _ = completer.completions(for: line)
    completionSamples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1000)
  }
}
report("parse_only_median_us", median(parseOnly), digits: 1)
print("compile_queries: \(compiledCount)")
report("compile_reference_median_us", median(Array(perQuery.prefix(5))), digits: 1)
func reportCompileFigures() {
  report("compile_to_parse_ratio", compileToParse, digits: 2)
  report("compile_median_us", median(perQuery), digits: 1)
}
if compileOnly {
  report("completion_median_us", median(completionSamples), digits: 1)
  reportCompileFigures()
  exit(0)
}

let pointDSL = "Item.where { $0.id.eq(424242) }"
let pointSQL = #"SELECT "items"."id", "items"."name", "items"."price", "items"."note" FROM "items" WHERE (("items"."id") = (424242))"#
var quarryPoint: [Double] = []
var sqlitePoint: [Double] = []
var quarrySQLPoint: [Double] = []
var benchExit: [Double] = []
var benchParse: [Double] = []
let bench = CommandLine.arguments[0]
for _ in 0..<21 {
  quarryPoint.append(measure([quarry, database, "-e", pointDSL, "--format", "csv"]))
  sqlitePoint.append(measure(["sqlite3", "-csv", database, pointSQL]))
  quarrySQLPoint.append(measure([quarry, database, "-e", pointSQL, "--format", "csv"]))
  benchExit.append(measure([bench, "--exit"]))
  benchParse.append(measure([bench, "--parse-only", pointDSL]))
}
let allSQL = #"SELECT "items"."id", "items"."name", "items"."price", "items"."note" FROM "items""#
var quarryCSV: [Double] = []
var sqliteCSV: [Double] = []
var quarryRSS = 0
var sqliteRSS = 0
var quarrySmallRSS = 0
for _ in 0..<5 {
  quarryCSV.append(measure([quarry, database, "-e", "Item.all", "--format", "csv"]))
  sqliteCSV.append(measure(["sqlite3", "-csv", database, allSQL]))
}
for _ in 0..<3 {
  quarryRSS = max(quarryRSS, peakRSS([quarry, database, "-e", "Item.all", "--format", "csv"]) ?? 0)
  sqliteRSS = max(sqliteRSS, peakRSS(["sqlite3", "-csv", database, allSQL]) ?? 0)
  quarrySmallRSS = max(quarrySmallRSS, peakRSS([quarry, small, "-e", "Item.all", "--format", "csv"]) ?? 0)
}
report("point_query_quarry_median_ms", median(quarryPoint) * 1000, digits: 2)
report("point_query_sqlite3_median_ms", median(sqlitePoint) * 1000, digits: 2)
report("csv_1m_quarry_median_s", median(quarryCSV), digits: 3)
report("csv_1m_sqlite3_median_s", median(sqliteCSV), digits: 3)
print("csv_100k_peak_rss_kb: \(quarrySmallRSS)")
let startup = startupFigures()
firstScreenFigures()
promptMemoryFigures()
hugeInputFigures()
if let attributes = try? FileManager.default.attributesOfItem(atPath: quarry), let size = attributes[.size] as? Int {
  report("binary_size_mb", Double(size) / 1_048_576, digits: 1)
}
report("completion_median_us", median(completionSamples), digits: 1)
reportStartupRatios(startup)
reportCompileFigures()
report("point_query_ratio_vs_sqlite3", median(quarryPoint) / median(sqlitePoint), digits: 2)
// The same query given as SQL (no DSL front end), and the cold parse alone: their sum is the
// floor a DSL point query cannot go under while each process parses it with swift-syntax.
report("point_query_sql_ratio_vs_sqlite3", median(quarrySQLPoint) / median(sqlitePoint), digits: 2)
let coldParse = max(0, median(benchParse) - median(benchExit))
report("point_query_cold_parse_ms", coldParse * 1000, digits: 2)
report("point_query_floor_ratio_vs_sqlite3", (median(quarrySQLPoint) + coldParse) / median(sqlitePoint), digits: 2)
report("csv_1m_ratio_vs_sqlite3", median(quarryCSV) / median(sqliteCSV), digits: 2)
print("csv_1m_peak_rss_kb: quarry \(quarryRSS), sqlite3 \(sqliteRSS)")
// `.line` records stream as they arrive: memory stays flat in the row count.
let lineRSS = peakRSS([quarry, database, "-e", "Item.all", "--format", "line"]) ?? 0
let sqliteLineRSS = peakRSS(["sqlite3", "-line", database, allSQL]) ?? 0
print("line_1m_peak_rss_kb: quarry \(lineRSS), sqlite3 \(sqliteLineRSS)")
scanFigures(quarry: quarry)
importAndBoxFigures()
lessonCheckFigures()
toDSLFigures()

/// `.dsl`: an answer (read, spell, compile back, compare trees or rows), in process on the
/// reminders fixture, per statement the median of 20; the issue's goal is under 50 ms. Beside
/// it, SQLite preparing the same statements (the part of the work sqlite3 itself does).
@MainActor func toDSLFigures() {
  guard let session = try? Session.fixture("reminders") else { return }
  let statements = [
    "SELECT title FROM reminders WHERE priority >= 2 ORDER BY title",
    "SELECT r.title, l.title FROM reminders r JOIN remindersLists l ON r.remindersListID = l.id WHERE l.title = 'Work'",
    "SELECT l.title, count(r.id) FROM remindersLists l LEFT JOIN reminders r ON r.remindersListID = l.id GROUP BY l.id ORDER BY 2 DESC",
    "SELECT title FROM reminders WHERE title LIKE '%milk%' OR priority IN (1, 3) LIMIT 3 OFFSET 1",
    "UPDATE reminders SET isFlagged = 1 WHERE priority = 3",
    "SELECT l.title FROM remindersLists l WHERE NOT EXISTS (SELECT 1 FROM reminders WHERE remindersListID = l.id AND NOT isCompleted)",
    "WITH late AS (SELECT title, dueDate FROM reminders WHERE dueDate IS NOT NULL) SELECT title FROM late ORDER BY dueDate DESC",
    "SELECT title, count(*) FROM reminders GROUP BY title HAVING count(*) > 1",
  ]
  var answers: [Double] = []
  var prepares: [Double] = []
  for sql in statements {
    var samples: [Double] = []
    var prepareSamples: [Double] = []
    for _ in 0..<20 {
      let start = DispatchTime.now().uptimeNanoseconds
      _ = SQLToDSL(session: session).answer(sql)
      samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
      let prepared = DispatchTime.now().uptimeNanoseconds
      _ = try? session.database.prepare(sql)
      prepareSamples.append(Double(DispatchTime.now().uptimeNanoseconds - prepared) / 1e6)
    }
    answers.append(median(samples))
    prepares.append(median(prepareSamples))
  }
  report("to_dsl_answer_median_ms", median(answers), digits: 2)
  report("to_dsl_answer_max_ms", answers.max() ?? 0, digits: 2)
  report("to_dsl_sqlite_prepare_median_ms", median(prepares), digits: 3)
}

/// A box table of 1,000,000 rows written to a file (widths from the first thousand, streamed)
/// against `sqlite3 -box`; and `.import` of the same rows as CSV against sqlite3's `.import`.
@MainActor func importAndBoxFigures() {
  var quarryBox: [Double] = []
  var sqliteBox: [Double] = []
  for _ in 0..<3 {
    quarryBox.append(measure([quarry, database, "-e", "Item.all"]))
    sqliteBox.append(measure(["sqlite3", "-box", database, allSQL]))
  }
  report("box_1m_ratio_vs_sqlite3", median(quarryBox) / median(sqliteBox), digits: 2)
  print(
    "box_1m_peak_rss_kb: quarry \(peakRSS([quarry, database, "-e", "Item.all"]) ?? 0), sqlite3 \(peakRSS(["sqlite3", "-box", database, allSQL]) ?? 0)"
  )
  let csv = NSTemporaryDirectory() + "quarry-bench-items-\(getpid()).csv"
  defer { unlink(csv) }
  shell("sqlite3 -csv -header '\(database)' 'SELECT * FROM items' > '\(csv)'")
  var quarryImport: [Double] = []
  var sqliteImport: [Double] = []
  var quarryPeak = 0
  var sqlitePeak = 0
  for round in 0..<3 {
    let target = NSTemporaryDirectory() + "quarry-bench-import-\(getpid())-\(round).sqlite"
    let other = target + "-sqlite3"
    defer {
      unlink(target)
      unlink(other)
    }
    quarryImport.append(measure([quarry, target, "-e", ".import \(csv) items"]))
    sqliteImport.append(measure(["sqlite3", other, ".import --csv \(csv) items"]))
    unlink(target)
    unlink(other)
    quarryPeak = max(quarryPeak, peakRSS([quarry, target, "-e", ".import \(csv) items"]) ?? 0)
    sqlitePeak = max(sqlitePeak, peakRSS(["sqlite3", other, ".import --csv \(csv) items"]) ?? 0)
  }
  report("import_1m_ratio_vs_sqlite3", median(quarryImport) / median(sqliteImport), digits: 2)
  print("import_1m_peak_rss_kb: quarry \(quarryPeak), sqlite3 \(sqlitePeak)")
}

/// `quarry lessons --check` of a correct answer to exercises of several kinds (a query, a join
/// with searched datasets, a write, outer joins, an answer with a value of its own): the whole
/// process, medians.
@MainActor func lessonCheckFigures() {
  let answers = [
    ("3.2", "SELECT remindersListID, count(*) FROM reminders GROUP BY remindersListID"),
    ("5.4", "SELECT m.name, count(*) FROM employees e JOIN employees m ON e.managerID = m.id GROUP BY m.id ORDER BY 2 DESC, m.name"),
    ("11.2", "UPDATE reminders SET isFlagged = 1 WHERE NOT isCompleted AND dueDate < '2026-03-06'"),
    (
      "17.5",
      "SELECT c.name, count(DISTINCT o.id), count(i.id) FROM customers c JOIN orders o ON o.customerID = c.id LEFT JOIN orderItems i ON i.orderID = o.id GROUP BY c.id"
    ),
    // A number the solution does not write: the datasets drawn for the answer's own values too.
    ("17.4", "SELECT name FROM customers c WHERE (SELECT count(*) FROM orders WHERE customerID = c.id) = 0"),
  ]
  var samples: [Double] = []
  for (exercise, answer) in answers {
    for _ in 0..<3 { samples.append(measure([quarry, "lessons", "--check", exercise, "--", answer])) }
  }
  report("lesson_check_median_s", median(samples), digits: 3)
  report("lesson_check_max_s", samples.max() ?? .nan, digits: 3)
}
