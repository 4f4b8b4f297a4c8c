/// Path arithmetic on `/`-separated text, as `NSString`'s path methods do it.
///
///     PathText.lastComponent("lessons/04-joins.md")   // "04-joins.md"
///     PathText.parent("/home/ana/.quarry/history")    // "/home/ana/.quarry"
///     PathText.join("Sources", "App.swift")           // "Sources/App.swift"
enum PathText {
  static func lastComponent(_ path: String) -> String {
    let trimmed = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
    guard trimmed != "/" else { return "/" }
    return trimmed.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? trimmed
  }

  static func parent(_ path: String) -> String {
    let trimmed = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
    guard let slash = trimmed.lastIndex(of: "/") else { return "" }
    return slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
  }

  static func join(_ folder: String, _ name: String) -> String {
    folder.isEmpty ? name : folder.hasSuffix("/") ? folder + name : folder + "/" + name
  }

  /// `path` from the root, with `.`, `..` and repeated slashes resolved (links are not followed):
  /// `absolute("../App/./Model.swift", from: "/src/Tools")` is `/src/App/Model.swift`.
  static func absolute(_ path: String, from directory: String) -> String {
    let full = path.hasPrefix("/") ? path : join(directory, path)
    var parts: [Substring] = []
    for part in full.split(separator: "/") {
      switch part {
      case ".": continue
      case "..": _ = parts.popLast()
      default: parts.append(part)
      }
    }
    return "/" + parts.joined(separator: "/")
  }
}

extension String {
  /// A copy with `range` replaced by `replacement`.
  func replacingSubrange(_ range: Range<Index>, with replacement: String) -> String {
    var copy = self
    copy.replaceSubrange(range, with: replacement)
    return copy
  }
}
