import FoundationEssentials
import Glibc

/// The datasets in `fixtures/`: each a folder with `schema.sql` (schema and rows), `models.swift`
/// (the matching Swift models) and optionally `variant.sql` (other rows, for checking answers).
///
/// ```swift
/// try Fixture.named("reminders").schemaSQL  // CREATE TABLE "remindersLists" …
/// ```
public struct Fixture: Sendable {
  public var name: String
  public var directory: URL

  public var schemaURL: URL { directory.appendingPathComponent("schema.sql") }
  public var modelsURL: URL { directory.appendingPathComponent("models.swift") }
  public var variantURL: URL { directory.appendingPathComponent("variant.sql") }

  public var schemaSQL: String { get throws { try String(contentsOf: schemaURL, encoding: .utf8) } }
  public var modelsSource: String? { try? String(contentsOf: modelsURL, encoding: .utf8) }

  public static let defaultName = "reminders"

  /// Where fixtures live: `$QUARRY_FIXTURES`, else a `fixtures/` folder above the executable or
  /// the working directory.
  public static func root() -> URL? { cachedRoot }

  /// Found once per process: every session, check and lint would otherwise search again.
  private static let cachedRoot: URL? = findRoot()

  private static func findRoot() -> URL? {
    if let path = environmentValue("QUARRY_FIXTURES") { return URL(fileURLWithPath: path) }
    // Plain path strings and libc calls: this runs before the first prompt.
    var starts: [String] = []
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let length = readlink("/proc/self/exe", &buffer, Int(PATH_MAX))
    if length > 0 {
      starts.append(parentPath(String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)))
    } else if let first = CommandLine.arguments.first, let resolved = realpath(first, nil) {
      starts.append(parentPath(String(cString: resolved)))
      free(resolved)
    }
    if let cwd = getcwd(&buffer, buffer.count) { starts.append(String(cString: cwd)) }
    starts.append(parentPath(#filePath))
    for start in starts {
      var directory = start
      for _ in 0..<6 {
        let candidate = (directory == "/" ? "" : directory) + "/fixtures"
        if access(candidate + "/reminders/schema.sql", F_OK) == 0 { return URL(fileURLWithPath: candidate) }
        directory = parentPath(directory)
      }
    }
    return nil
  }

  public static func available() -> [String] {
    guard let root = root(),
      let names = try? FileManager.default.contentsOfDirectory(atPath: root.path)
    else { return [] }
    return names.filter {
      FileManager.default.fileExists(atPath: root.appendingPathComponent("\($0)/schema.sql").path)
    }.sorted()
  }

  public static func named(_ name: String) throws -> Fixture {
    guard let root = root() else {
      throw WorkbenchError("cannot find the fixtures folder; set QUARRY_FIXTURES to its path")
    }
    let directory = root.appendingPathComponent(name)
    guard FileManager.default.fileExists(atPath: directory.appendingPathComponent("schema.sql").path) else {
      let suggestion = closest(name, available())
      throw WorkbenchError(
        "no fixture named '\(name)'" + (suggestion.map { "; did you mean '\($0)'?" } ?? "")
          + " (available: \(available().joined(separator: ", ")))")
    }
    return Fixture(name: name, directory: directory)
  }
}

/// `/a/b/c` → `/a/b`; `/a` → `/`.
func parentPath(_ path: String) -> String {
  guard let slash = path.lastIndex(of: "/") else { return "." }
  return slash == path.startIndex ? "/" : String(path[..<slash])
}

/// An environment variable's value, if set and not empty (without copying the whole environment,
/// as `ProcessInfo` does: this runs before the first prompt).
/// A path with a leading `~/` (or `~` alone) in the home folder, `$HOME` first, as a shell reads it.
///
/// ```swift
/// expandingTilde("~/data.sqlite")  // "/home/me/data.sqlite"
/// ```
public func expandingTilde(_ path: String) -> String {
  guard path == "~" || path.hasPrefix("~/") else { return path }
  let home = homeDirectory()
  return home + path.dropFirst()
}

/// The user's home folder: `$HOME`, else the password database's entry.
func homeDirectory() -> String {
  if let home = environmentValue("HOME") { return home }
  guard let entry = getpwuid(getuid()), let folder = entry.pointee.pw_dir else { return "/" }
  return String(cString: folder)
}

public func environmentValue(_ name: String) -> String? {
  guard let value = getenv(name), value.pointee != 0 else { return nil }
  return String(cString: value)
}

/// Creates a directory and any missing parents (`mkdir -p`), private to the user; true if it
/// exists afterwards.
@discardableResult
public func createDirectories(atPath path: String) -> Bool {
  var info = stat()
  if stat(path, &info) == 0 { return (info.st_mode & S_IFMT) == S_IFDIR }
  var partial = path.hasPrefix("/") ? "" : "."
  for component in path.split(separator: "/") {
    partial += "/" + component
    if mkdir(partial, 0o700) != 0 && errno != EEXIST { return false }
  }
  return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
}

/// A workbench failure that is the user's to fix (bad file, unknown fixture).
public struct WorkbenchError: Error, CustomStringConvertible, Sendable {
  public var message: String
  public init(_ message: String) { self.message = message }
  public var description: String { message }
}

func closest(_ name: String, _ candidates: [String]) -> String? {
  candidates.first { $0.lowercased().hasPrefix(name.lowercased().prefix(3)) }
}
