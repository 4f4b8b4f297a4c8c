import FoundationEssentials
import Glibc

/// Development aid: with `QUARRY_VOCABULARY_AUDIT=FILE`, each name the dispatch reached that the
/// vocabulary does not declare is appended to FILE (child processes of tests included).
enum VocabularyAudit {
  static let path = ProcessInfo.processInfo.environment["QUARRY_VOCABULARY_AUDIT"]

  static func record(_ kind: ReceiverKind, _ name: String) {
    guard let path, let file = fopen(path, "a") else { return }
    fputs("\(kind.rawValue) \(name)\n", file)
    fclose(file)
  }
}
