import FoundationEssentials
import Glibc
import QuarryEngine

/// A database file the app ships and opens instead of building its schema:
/// `Bundle.main.path(forResource: "pokeapi", ofType: "db")`, `url(forResource:withExtension:)`.
/// When the app's set-up creates no table and the scanned folders hold that resource (a SQLite
/// file, by its header), the scan takes its schema from it, as `--db` would.
///
/// ```swift
/// // try DatabaseQueue(path: Bundle.module.path(forResource: "pokeapi", ofType: "db")!)
/// BundledDatabase.find(in: sourceText, under: ["."])?.path  // "./Resources/pokeapi.db"
/// ```
struct BundledDatabase: Equatable {
  /// The file, as found under a scanned folder.
  var path: String
  /// The resource as the code names it (`pokeapi.db`).
  var resource: String
  /// The line of the scanned text (counted from 1 over all files) where the code names it: the
  /// place of findings about the schema the app ships.
  var line = 1

  /// The first resource the code opens that is a SQLite file under the scanned folders.
  static func find(in text: String, under paths: [String]) -> BundledDatabase? {
    let folders = paths.filter { FileKind(path: $0) == .folder }
    guard !folders.isEmpty else { return nil }
    var tried: Set<String> = []
    for (name, offset) in resourceNames(in: text) where tried.insert(name).inserted {
      for folder in folders {
        for relative in FileKind.files(under: folder, endingWith: name).sorted() where PathText.lastComponent(relative) == name {
          let path = PathText.join(folder, relative)
          if isSQLiteFile(path) {
            let line = text.unicodeScalars.prefix(offset).reduce(1) { $1 == "\n" ? $0 + 1 : $0 }
            return BundledDatabase(path: path, resource: name, line: line)
          }
        }
      }
    }
    return nil
  }

  /// The file names of the resources the code asks a bundle for, in the order they appear:
  /// `forResource: "pokeapi", ofType: "db"` and `forResource: "seed", withExtension: "sqlite"`
  /// give `pokeapi.db` and `seed.sqlite`; a name with no type (`ofType: nil`) is taken whole.
  /// Each with the offset, in Unicode scalars, of its `forResource:`.
  static func resourceNames(in text: String) -> [(name: String, offset: Int)] {
    var names: [(name: String, offset: Int)] = []
    var rest = Substring(text)
    while let range = rest.firstRange(of: "forResource:") {
      let offset = text.unicodeScalars.distance(from: text.startIndex, to: range.lowerBound)
      rest = rest[range.upperBound...]
      guard let name = Self.stringLiteral(at: &rest) else { continue }
      var tail = rest.drop { $0 == " " || $0 == "\n" || $0 == "\t" }
      guard tail.first == "," else {
        names.append((name, offset))
        continue
      }
      tail = tail.dropFirst().drop { $0 == " " || $0 == "\n" || $0 == "\t" }
      var typed: String?
      for label in ["ofType:", "withExtension:"] where tail.hasPrefix(label) {
        var after = tail.dropFirst(label.count)
        typed = Self.stringLiteral(at: &after)
      }
      names.append((typed.flatMap { $0.isEmpty ? nil : name + "." + $0 } ?? name, offset))
    }
    return names.filter { !$0.name.isEmpty && !$0.name.contains("/") && !$0.name.contains("\\") }
  }

  /// A plain string literal (`"pokeapi"`) after optional spaces, moving past it.
  private static func stringLiteral(at text: inout Substring) -> String? {
    let trimmed = text.drop { $0 == " " || $0 == "\n" || $0 == "\t" }
    guard trimmed.first == "\"" else { return nil }
    let body = trimmed.dropFirst()
    guard let end = body.firstIndex(where: { $0 == "\"" || $0 == "\\" || $0 == "\n" }), body[end] == "\"" else { return nil }
    text = body[body.index(after: end)...]
    return String(body[..<end])
  }

  /// Whether the file starts with SQLite's header ("SQLite format 3" and a zero byte).
  static func isSQLiteFile(_ path: String) -> Bool {
    guard let file = fopen(path, "rb") else { return false }
    defer { fclose(file) }
    var header = [UInt8](repeating: 0, count: 16)
    guard fread(&header, 1, 16, file) == 16 else { return false }
    return header == Array("SQLite format 3".utf8) + [0]
  }
}
