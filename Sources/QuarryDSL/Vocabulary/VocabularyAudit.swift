import Foundation

/// Development aid: with `QUARRY_VOCABULARY_AUDIT=FILE`, each name the dispatch reached that the
/// vocabulary does not declare is appended to FILE (child processes of tests included).
enum VocabularyAudit {
  static let path = ProcessInfo.processInfo.environment["QUARRY_VOCABULARY_AUDIT"]

  static func record(_ kind: ReceiverKind, _ name: String) {
    guard let path, let handle = FileHandle(forWritingAtPath: path) ?? {
      FileManager.default.createFile(atPath: path, contents: nil)
      return FileHandle(forWritingAtPath: path)
    }() else { return }
    handle.seekToEndOfFile()
    handle.write(Data("\(kind.rawValue) \(name)\n".utf8))
    try? handle.close()
  }
}
