import FoundationEssentials

/// Which exercises a learner has solved, in `$XDG_STATE_HOME/quarry/progress.json`.
public final class Progress {
  let path: String
  /// Read on first use, so starting the prompt does not wait for it.
  private lazy var solved: [String: [String]] = {
    guard let data = FileManager.default.contents(atPath: path),
      let object = try? JSONDecoder().decode([String: [String]].self, from: data)
    else { return [:] }
    return object
  }()

  public init(path: String = Shell.stateDirectory + "/progress.json") {
    self.path = path
  }

  static func key(_ lesson: Lesson) -> String { PathText.lastComponent(lesson.path) }

  public func isSolved(_ exercise: Exercise, in lesson: Lesson) -> Bool {
    solved[Self.key(lesson)]?.contains(exercise.title) ?? false
  }

  public func solvedCount(in lesson: Lesson) -> Int {
    lesson.exercises.filter { isSolved($0, in: lesson) }.count
  }

  public func markSolved(_ exercise: Exercise, in lesson: Lesson) {
    var list = solved[Self.key(lesson)] ?? []
    guard !list.contains(exercise.title) else { return }
    list.append(exercise.title)
    solved[Self.key(lesson)] = list
    try? FileManager.default.createDirectory(atPath: PathText.parent(path), withIntermediateDirectories: true)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    if let data = try? encoder.encode(solved) {
      _ = FileManager.default.createFile(atPath: path, contents: data, attributes: [.posixPermissions: 0o600])
    }
  }
}
