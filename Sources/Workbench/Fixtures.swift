import Foundation

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
    let fileManager = FileManager.default
    if let path = ProcessInfo.processInfo.environment["QUARRY_FIXTURES"], !path.isEmpty {
      return URL(fileURLWithPath: path)
    }
    var starts: [URL] = []
    let executable = URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath()
    starts.append(executable.deletingLastPathComponent())
    starts.append(URL(fileURLWithPath: fileManager.currentDirectoryPath))
    starts.append(URL(fileURLWithPath: #filePath).deletingLastPathComponent())
    for start in starts {
      var directory = start
      for _ in 0..<6 {
        let candidate = directory.appendingPathComponent("fixtures")
        if fileManager.fileExists(atPath: candidate.appendingPathComponent("reminders/schema.sql").path) {
          return candidate
        }
        directory = directory.deletingLastPathComponent()
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

/// A workbench failure that is the user's to fix (bad file, unknown fixture).
public struct WorkbenchError: Error, CustomStringConvertible, Sendable {
  public var message: String
  public init(_ message: String) { self.message = message }
  public var description: String { message }
}

func closest(_ name: String, _ candidates: [String]) -> String? {
  candidates.first { $0.lowercased().hasPrefix(name.lowercased().prefix(3)) }
}
