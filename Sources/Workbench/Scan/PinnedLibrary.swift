import FoundationEssentials

/// The version of StructuredQueries an app pins in its `Package.resolved` (SwiftPM's, or the
/// one inside an Xcode project), which decides what its code means: before 0.31, `==` and `!=`
/// on columns were the library's operators (`=`/`<>`, `IS`/`IS NOT` on an optional left side);
/// since, they are unavailable. Quarry renders the library as of 0.37 (sq@7cdc5c4), and an app
/// that pins an older one gets those operators as its version renders them
/// (`Compiler.columnEqualityLibrary`, derived from `Compiler.pinnedLibrary`).
///
/// ```swift
/// PinnedLibrary.version(in: ["Salty"])  // "0.23.1"
/// ```
enum PinnedLibrary {
  /// The pinned `swift-structured-queries` version found under (or above, up to three levels, in
  /// the folder itself or its Xcode project) the scanned paths; nil when no `Package.resolved` pins
  /// it.
  static func version(in paths: [String]) -> String? {
    var candidates: [String] = []
    for path in paths {
      if FileKind(path: path) == .folder {
        candidates += FileKind.files(under: path, endingWith: "Package.resolved").sorted().map { PathText.join(path, $0) }
      }
      var folder = path
      for _ in 0..<3 {
        folder = PathText.parent(folder)
        candidates.append(PathText.join(folder, "Package.resolved"))
        // An Xcode project beside the scanned folder keeps its file inside the project.
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder)) ?? []
        for name in names.sorted() where name.hasSuffix(".xcodeproj") || name.hasSuffix(".xcworkspace") {
          let workspace = name.hasSuffix(".xcodeproj") ? PathText.join(name, "project.xcworkspace") : name
          candidates.append(PathText.join(folder, PathText.join(workspace, "xcshareddata/swiftpm/Package.resolved")))
        }
      }
    }
    for candidate in candidates {
      guard let data = FileManager.default.contents(atPath: candidate),
        let file = try? JSONDecoder().decode(ResolvedFile.self, from: data)
      else { continue }
      // Version 2 and 3 files list `pins` at the top; version 1 under `object`.
      for pin in file.pins ?? file.object?.pins ?? [] {
        let identity = pin.identity ?? pin.package?.lowercased() ?? ""
        if identity == "swift-structured-queries", let version = pin.state?.version { return version }
      }
    }
    return nil
  }

  /// What Quarry reads of a `Package.resolved` file.
  private struct ResolvedFile: Decodable {
    struct Pin: Decodable {
      struct State: Decodable { var version: String? }
      var identity: String?
      var package: String?
      var state: State?
    }
    struct Object: Decodable { var pins: [Pin]? }
    var pins: [Pin]?
    var object: Object?
  }
}
