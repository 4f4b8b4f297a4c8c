import FoundationEssentials

/// Several apps in one folder with no Xcode project to say which files each compiles (a
/// repository of demo apps built with XcodeGen): each `@main` type is an app, its files those of
/// the folder that holds it and no other app's `@main`; the files outside every such folder (a
/// shared package, tests) are read by every app. When two apps declare a table of one name, each
/// app is its own module, so their two `Session` tables do not meet. Apps that declare no table
/// twice stay one module: demo apps of a modular app's features (Tuist's `Modules/X/Demo`) read
/// each other's tables.
///
/// ```swift
/// // GroundTruthLogger/App.swift: @main struct …   SessionViewer/App.swift: @main struct …
/// AppEntryPoints.modules(of: files)?.map(\.name)  // ["GroundTruthLogger", "SessionViewer"]
/// ```
enum AppEntryPoints {
  /// One module per app when the files hold two `@main` types or more, each in its own folder;
  /// nil otherwise (one module).
  static func modules(of files: [String], named: [String], readText: (String) -> String?) -> [ScanModule]? {
    // Each file is read once, for its `@main` and then for its tables.
    var texts: [String: String] = [:]
    for file in files { texts[file] = readText(file) }
    let entries = files.filter { texts[$0].map(declaresMain) ?? false }
    guard entries.count >= 2 else { return nil }
    let common = commonFolder(of: files)
    var roots: [String] = []
    for entry in entries {
      // The widest folder around the entry that holds no other entry, below the common folder.
      var root = PathText.parent(entry)
      while root.count > common.count {
        let wider = PathText.parent(root)
        guard wider.count > common.count, !entries.contains(where: { $0 != entry && isInside($0, wider) }) else { break }
        root = wider
      }
      guard root.count > common.count, !roots.contains(root) else { return nil }
      roots.append(root)
    }
    // Split only where reading the apps together would make two tables of one name meet.
    var declaredIn: [String: String] = [:]
    var clash = false
    for file in files {
      guard let root = roots.first(where: { isInside(file, $0) }), let text = texts[file] else { continue }
      for name in tableNames(in: text) {
        if let other = declaredIn[name], other != root { clash = true }
        declaredIn[name] = root
      }
    }
    guard clash else { return nil }
    let shared = named + files.filter { file in !roots.contains { isInside(file, $0) } }
    var reported: Set<String> = []
    return roots.map { root in
      let own = files.filter { isInside($0, root) }
      let mine = Set(own + shared).subtracting(reported)
      reported.formUnion(mine)
      return ScanModule(name: PathText.lastComponent(root), files: shared + own, reported: mine)
    }
  }

  /// `@main struct App: App {`, `@main\nenum Tool {`: a line that starts with the attribute.
  static func declaresMain(_ text: String) -> Bool {
    text.split(separator: "\n", omittingEmptySubsequences: true).contains { line in
      let trimmed = line.drop { $0 == " " || $0 == "\t" }
      guard trimmed.hasPrefix("@main") else { return false }
      let after = trimmed.dropFirst(5).first
      return after == nil || after == " " || after == "\t" || after == "\r"
    }
  }

  /// `@Table struct Session`, `@Table("sessions")\npublic struct Session`: the tables a file declares.
  static func tableNames(in text: String) -> [String] {
    var names: [String] = []
    var afterTable = false
    for line in text.split(separator: "\n") {
      let trimmed = line.drop { $0 == " " || $0 == "\t" }
      if trimmed.hasPrefix("@Table") { afterTable = true }
      guard afterTable else { continue }
      let words = trimmed.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == ":" || $0 == "{" || $0 == "<" })
      if let index = words.firstIndex(where: { $0 == "struct" }), index + 1 < words.count {
        names.append(String(words[index + 1]))
        afterTable = false
      } else if !trimmed.hasPrefix("@") {
        afterTable = false
      }
    }
    return names
  }

  private static func isInside(_ file: String, _ folder: String) -> Bool {
    file.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/")
  }

  /// The deepest folder that holds every file ("" for relative paths with nothing in common).
  private static func commonFolder(of files: [String]) -> String {
    guard var common = files.first.map(PathText.parent) else { return "" }
    for file in files.dropFirst() {
      while !common.isEmpty, !isInside(file, common) {
        let wider = PathText.parent(common)
        if wider == common { return "" }
        common = wider
      }
    }
    return common
  }
}
