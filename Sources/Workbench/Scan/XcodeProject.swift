import FoundationEssentials

/// Which Swift files an Xcode project compiles: those its targets list in their Sources build
/// phase, and those in the folders a target keeps in sync with the disk (Xcode 16's
/// `PBXFileSystemSynchronizedRootGroup`), less the target's membership exceptions.
///
/// A scan reads the files the compiler reads: a file that sits in the project's folder but no
/// target compiles (an old `World.swift` left on disk) declares nothing the app sees.
///
/// ```swift
/// let project = try XcodeProject(contentsOf: "App.xcodeproj/project.pbxproj", directory: "/src")
/// project.compiles("/src/App/Model.swift")  // true
/// project.compiles("/src/App/World.swift")  // false: in no target
/// ```
struct XcodeProject {
  /// One target: a module the compiler builds from its own files.
  struct Target {
    var id: String
    var name: String
    var productType: String
    /// Files its Sources phase lists, from the root.
    var listed: Set<String> = []
    /// Folders it keeps in sync, each with the paths (relative to it) it leaves out.
    var synchronized: [(folder: String, excluded: [String])] = []
    /// Files of a synchronized folder it does not keep, added to it one by one.
    var added: Set<String> = []
    /// The targets it depends on, by id.
    var dependencies: [String] = []

    /// A test bundle: scanned after the app.
    var isTestBundle: Bool { productType.hasPrefix("com.apple.product-type.bundle.") && productType.contains("test") }
    /// A unit-test bundle sees the code of the targets it tests (`@testable import App`); a UI
    /// test bundle drives the app from outside and sees none of it.
    var importsTested: Bool { productType == "com.apple.product-type.bundle.unit-test" }
    /// A framework or library is imported by the targets that depend on it.
    var isLibrary: Bool { productType.contains("framework") || productType.contains("library") }

    func compiles(_ file: String) -> Bool {
      if listed.contains(file) || added.contains(file) { return true }
      return synchronized.contains { folder, excluded in
        guard file.hasPrefix(folder + "/") else { return false }
        let relative = String(file.dropFirst(folder.count + 1))
        return !excluded.contains { relative == $0 || relative.hasPrefix($0 + "/") }
      }
    }
  }

  /// The folder the project's paths start from (the one holding the `.xcodeproj`).
  let directory: String
  private(set) var targets: [Target] = []

  var isEmpty: Bool { !targets.contains { !$0.listed.isEmpty || !$0.synchronized.isEmpty || !$0.added.isEmpty } }

  /// Reads `project.pbxproj`; `directory` is the absolute folder that holds the `.xcodeproj`.
  init(contentsOf path: String, directory: String) throws {
    guard let data = FileManager.default.contents(atPath: path) else { throw WorkbenchError("\(path): cannot read this file") }
    try self.init(text: String(decoding: data, as: UTF8.self), directory: directory)
  }

  init(text: String, directory: String) throws {
    self.directory = directory
    let root = try OldStylePropertyList.parse(text)
    guard let objects = root["objects"]?.dictionary, let projectID = root["rootObject"]?.string, let project = objects[projectID]
    else { return }
    var parents: [String: String] = [:]
    for (id, object) in objects {
      for child in object["children"]?.strings ?? [] { parents[child] = id }
    }
    let projectFolder = PathText.absolute(project["projectDirPath"]?.string ?? "", from: directory)
    let mainGroup = project["mainGroup"]?.string

    // The folder an element's path is relative to, following `sourceTree` up the groups.
    var resolved: [String: String] = [:]
    func location(of id: String, depth: Int = 0) -> String? {
      if let known = resolved[id] { return known }
      guard depth < 64, let element = objects[id] else { return nil }
      let path = element["path"]?.string
      let base: String
      switch element["sourceTree"]?.string ?? "<group>" {
      case "<group>":
        if id == mainGroup {
          base = projectFolder
        } else if let parent = parents[id] {
          guard let parentLocation = location(of: parent, depth: depth + 1) else { return nil }
          base = parentLocation
        } else {
          base = projectFolder
        }
      case "SOURCE_ROOT": base = projectFolder
      case "<absolute>": base = "/"
      default: return nil  // built products, the SDK, a developer folder: not the app's sources
      }
      let result = path.map { PathText.absolute($0, from: base) } ?? base
      resolved[id] = result
      return result
    }

    var synchronizedBy: [String: Set<String>] = [:]
    for (targetID, target) in objects where ["PBXNativeTarget", "PBXLegacyTarget"].contains(target["isa"]?.string) {
      for groupID in target["fileSystemSynchronizedGroups"]?.strings ?? [] { synchronizedBy[groupID, default: []].insert(targetID) }
    }
    for (targetID, object) in objects.sorted(by: { $0.key < $1.key })
    where ["PBXNativeTarget", "PBXLegacyTarget"].contains(object["isa"]?.string) {
      var target = Target(
        id: targetID, name: object["name"]?.string ?? targetID, productType: object["productType"]?.string ?? "")
      for phaseID in object["buildPhases"]?.strings ?? [] {
        guard let phase = objects[phaseID], phase["isa"]?.string == "PBXSourcesBuildPhase" else { continue }
        for buildFileID in phase["files"]?.strings ?? [] {
          guard let reference = objects[buildFileID]?["fileRef"]?.string, let file = location(of: reference) else { continue }
          target.listed.insert(file)
        }
      }
      for groupID in object["fileSystemSynchronizedGroups"]?.strings ?? [] {
        guard let group = objects[groupID], let folder = location(of: groupID) else { continue }
        var excluded: [String] = []
        for exceptionID in group["exceptions"]?.strings ?? [] {
          guard let exception = objects[exceptionID], exception["isa"]?.string == "PBXFileSystemSynchronizedBuildFileExceptionSet",
            exception["target"]?.string == targetID
          else { continue }
          excluded += exception["membershipExceptions"]?.strings ?? []
        }
        target.synchronized.append((folder, excluded))
      }
      // An exception set naming this target, in a folder it does not keep, adds those files.
      for (groupID, group) in objects
      where group["isa"]?.string == "PBXFileSystemSynchronizedRootGroup" && !(synchronizedBy[groupID]?.contains(targetID) ?? false) {
        guard let folder = location(of: groupID) else { continue }
        for exceptionID in group["exceptions"]?.strings ?? [] {
          guard let exception = objects[exceptionID], exception["isa"]?.string == "PBXFileSystemSynchronizedBuildFileExceptionSet",
            exception["target"]?.string == targetID
          else { continue }
          for relative in exception["membershipExceptions"]?.strings ?? [] {
            target.added.insert(PathText.absolute(relative, from: folder))
          }
        }
      }
      for dependencyID in object["dependencies"]?.strings ?? [] {
        if let dependency = objects[dependencyID]?["target"]?.string { target.dependencies.append(dependency) }
      }
      targets.append(target)
    }
  }

  /// Whether some target compiles the file at this absolute path.
  func compiles(_ file: String) -> Bool { targets.contains { $0.compiles(file) } }

  /// The files a target's code sees: its own, and those of the targets it imports (a test
  /// bundle's tested app, a framework it depends on), transitively.
  func visibleTargets(from target: Target) -> [Target] {
    var seen: Set<String> = [target.id]
    var out: [Target] = [target]
    var pending = [target]
    while let current = pending.popLast() {
      for id in current.dependencies where !seen.contains(id) {
        guard let dependency = targets.first(where: { $0.id == id }), current.importsTested || dependency.isLibrary else { continue }
        seen.insert(id)
        out.append(dependency)
        pending.append(dependency)
      }
    }
    return out
  }

  /// The scanned files as the compiler reads them: one module per target of the Xcode projects
  /// here (its own files and those it imports), each file reported by the first module that owns
  /// it, and the files no target compiles left out. A file counts as a project's when it lies in
  /// the project's folder and no Swift package (`Package.swift`) sits between the two; a file
  /// outside every project, or in such a package, is read by every module.
  ///
  /// The projects are those under the scanned folders and beside them, up to three levels up.
  /// Without one, each `@main` app in its own folder is a module (``AppEntryPoints``), or all
  /// files are one.
  static func modules(of found: [String], named: [String], scanning paths: [String]) -> (modules: [ScanModule], leftOut: [String]) {
    let here = FileManager.default.currentDirectoryPath
    let projects = projects(near: paths, from: here)
    var shared: [String] = []
    var leftOut: [String] = []
    var owned: [String: [String]] = [:]  // "project#target" → files
    var order: [String] = []
    var packageFolders: [String: Bool] = [:]
    func holdsPackage(_ folder: String) -> Bool {
      if let known = packageFolders[folder] { return known }
      let found = FileKind(path: PathText.join(folder, "Package.swift")) == .file
      packageFolders[folder] = found
      return found
    }
    for file in found {
      let absolute = PathText.absolute(file, from: here)
      let owners = projects.indices.filter { absolute.hasPrefix(projects[$0].directory == "/" ? "/" : projects[$0].directory + "/") }
      let targets = owners.flatMap { index in projects[index].targets.filter { $0.compiles(absolute) }.map { "\(index)#\($0.id)" } }
      if !targets.isEmpty {
        for key in targets {
          if owned[key] == nil { order.append(key) }
          owned[key, default: []].append(file)
        }
        continue
      }
      guard let nearest = owners.map({ projects[$0].directory }).max(by: { $0.count < $1.count }) else {
        shared.append(file)
        continue
      }
      // A Swift package inside the project's folder compiles its own files.
      var folder = PathText.parent(absolute)
      var inPackage = false
      while folder.count > nearest.count {
        if holdsPackage(folder) {
          inPackage = true
          break
        }
        folder = PathText.parent(folder)
      }
      if inPackage { shared.append(file) } else { leftOut.append(file) }
    }
    let all = named + shared
    guard !owned.isEmpty else {
      // No project says which files each app compiles: several `@main` apps in their own folders
      // are each a module.
      let apps = AppEntryPoints.modules(of: shared, named: named) { file in
        FileManager.default.contents(atPath: file).map { String(decoding: $0, as: UTF8.self) }
      }
      return (apps ?? [ScanModule(name: nil, files: all, reported: Set(all))], leftOut)
    }

    func target(_ key: String) -> (project: XcodeProject, target: XcodeProject.Target)? {
      let parts = key.split(separator: "#", maxSplits: 1)
      guard parts.count == 2, let index = Int(parts[0]), projects.indices.contains(index),
        let target = projects[index].targets.first(where: { $0.id == parts[1] })
      else { return nil }
      return (projects[index], target)
    }
    // Apps and libraries first, then the test bundles that see them.
    let keys = order.filter { !(target($0)?.target.isTestBundle ?? false) } + order.filter { target($0)?.target.isTestBundle ?? false }
    let position = Dictionary(found.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
    var modules: [ScanModule] = []
    var reported: Set<String> = []
    for key in keys {
      guard let (project, own) = target(key) else { continue }
      var files = Set(all)
      for visible in project.visibleTargets(from: own) {
        let index = key.split(separator: "#").first.map(String.init) ?? ""
        files.formUnion(owned[index + "#" + visible.id] ?? [])
      }
      let sorted = named + files.subtracting(named).sorted { (position[$0] ?? Int.max) < (position[$1] ?? Int.max) }
      let mine = Set((owned[key] ?? []) + all).subtracting(reported)
      reported.formUnion(mine)
      if let same = modules.firstIndex(where: { $0.files == sorted }) {
        modules[same].reported.formUnion(mine)
        modules[same].name = modules[same].name.map { $0 + ", " + own.name }
        continue
      }
      guard !mine.isEmpty else { continue }
      modules.append(ScanModule(name: own.name, files: sorted, reported: mine))
    }
    return (modules, leftOut)
  }

  /// The Xcode projects under the scanned folders and beside them, up to three levels up.
  private static func projects(near paths: [String], from here: String) -> [XcodeProject] {
    var projectFiles: [String] = []
    for path in paths {
      if FileKind(path: path) == .folder {
        projectFiles += FileKind.files(under: path, endingWith: "project.pbxproj").sorted().map { PathText.join(path, $0) }
      }
      var folder = PathText.absolute(path, from: here)
      for _ in 0..<3 {
        folder = PathText.parent(folder)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? "/" : folder)) ?? []
        for name in names.sorted() where name.hasSuffix(".xcodeproj") {
          projectFiles.append(PathText.join(folder, name + "/project.pbxproj"))
        }
        if folder == "/" { break }
      }
    }
    var projects: [XcodeProject] = []
    var seen: Set<String> = []
    for file in projectFiles {
      let absolute = PathText.absolute(file, from: here)
      guard PathText.lastComponent(PathText.parent(absolute)).hasSuffix(".xcodeproj"), seen.insert(absolute).inserted,
        let project = try? XcodeProject(contentsOf: absolute, directory: PathText.parent(PathText.parent(absolute))), !project.isEmpty
      else { continue }
      projects.append(project)
    }
    return projects
  }
}

/// The files one part of a scan reads together, as the compiler reads one module, and those of
/// them whose queries it reports (a file two targets compile is reported once).
public struct ScanModule: Equatable {
  /// The target's name; nil when the scanned folders hold no Xcode project.
  public var name: String?
  public var files: [String]
  public var reported: Set<String>
}
