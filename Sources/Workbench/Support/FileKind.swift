import FoundationEssentials
import Glibc

/// What a path names on disk, read with `stat` (links followed) or `lstat` (not followed).
enum FileKind: Equatable {
  case file, folder, link, other

  init?(path: String, followingLinks: Bool = true) {
    var info = stat()
    guard (followingLinks ? stat(path, &info) : lstat(path, &info)) == 0 else { return nil }
    switch info.st_mode & S_IFMT {
    case S_IFREG: self = .file
    case S_IFDIR: self = .folder
    case S_IFLNK: self = .link
    default: self = .other
    }
  }

  /// The files under `folder` whose names end in `suffix`, relative to it, in no set order; hidden
  /// names and `build` folders are passed over, and links to folders are not followed.
  static func files(under folder: String, endingWith suffix: String) -> [String] {
    var found: [String] = []
    var pending = [""]
    while let relative = pending.popLast() {
      let path = relative.isEmpty ? folder : PathText.join(folder, relative)
      guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { continue }
      for name in names where !name.hasPrefix(".") {
        let child = relative.isEmpty ? name : relative + "/" + name
        switch FileKind(path: PathText.join(folder, child), followingLinks: false) {
        case .folder where name != "build": pending.append(child)
        case .file, .link: if name.hasSuffix(suffix) { found.append(child) }
        default: break
        }
      }
    }
    return found
  }
}
