import FoundationEssentials
import Glibc
import QueryBuilder

/// A lesson: Markdown with front matter and fenced blocks Quarry understands.
///
/// ````markdown
/// ---
/// title: Basics
/// fixture: reminders
/// ---
/// Text, then runnable examples:
/// ```example
/// Reminder.where { !$0.isCompleted }
/// ```
/// ## Exercise: Flagged reminders
/// The prompt.
/// ```hint
/// Use .where(\.isFlagged).
/// ```
/// ```solution ordered
/// Reminder.where(\.isFlagged).order(by: \.title).select(\.title)
/// ```
/// ```wrong right rows, wrong order
/// Reminder.where(\.isFlagged).select(\.title)
/// ```
/// ````
public struct Lesson: Sendable {
  public var path: String
  public var title: String
  public var fixture: String
  public var steps: [Step]

  public struct Block: Sendable {
    public var kind: String
    public var info: String
    public var code: String
    public var line: Int
  }

  /// A section of the lesson: an introduction, or an exercise.
  public struct Step: Sendable {
    public var title: String
    public var text: String
    public var examples: [Block]
    public var exercise: Exercise?
    public var line: Int
  }

  public var exercises: [Exercise] { steps.compactMap(\.exercise) }
}

/// An exercise: a prompt, hints, a reference solution, and how answers are compared.
public struct Exercise: Sendable {
  public var title: String
  public var prompt: String
  public var hints: [String]
  public var solution: String
  /// Rows must come in the solution's order.
  public var ordered: Bool
  /// The result does not depend on the rows (a query plan, a schema): the lint does not ask
  /// the fixture and the variant to give different results.
  public var isStatic: Bool
  /// For write exercises: the tables compared after running the answer.
  public var checkedTables: [String]
  /// What the exercise teaches (``Technique`` names, `teaches=view,window`), checked on every
  /// answer whose result is right; `["none"]` when the rows alone decide, empty when undeclared.
  public var techniques: [String] = []
  /// Seeds of the value-varied datasets (``ValueVariation``) every answer also runs on: those the
  /// dataset search kept because they tell the solution from one of its mutants.
  public var datasetSeeds: [UInt64] = []
  /// Plausible wrong answers, each with (part of) the explanation it must get.
  public var wrongAnswers: [(code: String, expectation: String, line: Int)]
  /// Mutants of the solution the author shows cannot change its meaning on any data the schema
  /// allows (an ```equivalent block: one `kind: reason` per line), so the lint does not ask for rows
  /// that would tell them apart.
  public var equivalentMutants: [String: String]
  public var line: Int
  public var solutionLine: Int

  public init(
    title: String, prompt: String, hints: [String], solution: String, ordered: Bool, checkedTables: [String],
    wrongAnswers: [(code: String, expectation: String, line: Int)], equivalentMutants: [String: String] = [:],
    isStatic: Bool = false, line: Int, solutionLine: Int
  ) {
    self.equivalentMutants = equivalentMutants
    self.isStatic = isStatic
    self.title = title
    self.prompt = prompt
    self.hints = hints
    self.solution = solution
    self.ordered = ordered
    self.checkedTables = checkedTables
    self.wrongAnswers = wrongAnswers
    self.line = line
    self.solutionLine = solutionLine
  }
}

/// A problem found while reading or linting a lesson, with its line.
public struct LessonProblem: Error, CustomStringConvertible, Sendable {
  public var path: String
  public var line: Int
  public var message: String
  public var description: String { "\(path):\(line): \(message)" }
}

extension Lesson {
  /// `kind: reason` lines of ```equivalent blocks.
  static func equivalences(_ blocks: [String]) -> [String: String] {
    var result: [String: String] = [:]
    for line in blocks.flatMap({ $0.split(separator: "\n") }) {
      // A kind of the SQL space starts `sql: ` itself: its reason follows the next colon.
      let kindStart = line.hasPrefix("sql: ") ? line.index(line.startIndex, offsetBy: 5) : line.startIndex
      guard let colon = line[kindStart...].firstIndex(of: ":") else { continue }
      result[line[..<colon].trimmingScalars(in: .whitespaces)] = line[line.index(after: colon)...].trimmingScalars(in: .whitespaces)
    }
    return result
  }

  public static func load(path: String) throws -> Lesson {
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
      throw LessonProblem(path: path, line: 1, message: "cannot read the lesson file")
    }
    return try parse(text, path: path)
  }

  public static func parse(_ text: String, path: String) throws -> Lesson {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    var index = 0
    var metadata: [String: String] = [:]
    guard lines.first == "---" else {
      throw LessonProblem(path: path, line: 1, message: "a lesson starts with front matter: ---, title: …, fixture: …, ---")
    }
    index = 1
    while index < lines.count, lines[index] != "---" {
      let parts = lines[index].split(separator: ":", maxSplits: 1).map { $0.trimmingScalars(in: .whitespaces) }
      if parts.count == 2 { metadata[parts[0]] = parts[1] }
      index += 1
    }
    guard index < lines.count else { throw LessonProblem(path: path, line: 1, message: "the front matter has no closing ---") }
    index += 1
    guard let title = metadata["title"], !title.isEmpty else {
      throw LessonProblem(path: path, line: 2, message: "the front matter needs a title")
    }
    guard let fixture = metadata["fixture"], !fixture.isEmpty else {
      throw LessonProblem(path: path, line: 2, message: "the front matter needs a fixture")
    }

    var steps: [Step] = []
    var current = Step(title: title, text: "", examples: [], exercise: nil, line: index + 1)
    var blocks: [Block] = []
    func finish() throws {
      current.examples = blocks.filter { $0.kind == "example" }
      let solutions = blocks.filter { $0.kind == "solution" }
      if solutions.count > 1 {
        throw LessonProblem(path: path, line: solutions[1].line, message: "an exercise has one solution block")
      }
      if let solution = solutions.first {
        let options = solution.info.split(separator: " ").map(String.init)
        let checks = options.first { $0.hasPrefix("checks=") }.map { String($0.dropFirst(7)).split(separator: ",").map(String.init) } ?? []
        let teaches =
          options.first { $0.hasPrefix("teaches=") }.map { String($0.dropFirst(8)).split(separator: ",").map(String.init) } ?? []
        current.exercise = Exercise(
          title: current.title, prompt: current.text.trimmingScalars(in: .whitespacesAndNewlines),
          hints: blocks.filter { $0.kind == "hint" }.map(\.code), solution: solution.code,
          ordered: options.contains("ordered"), checkedTables: checks,
          wrongAnswers: blocks.filter { $0.kind == "wrong" }.map { ($0.code, $0.info, $0.line) },
          equivalentMutants: Self.equivalences(blocks.filter { $0.kind == "equivalent" }.map(\.code)),
          isStatic: options.contains("static"), line: current.line, solutionLine: solution.line)
        current.exercise?.techniques = teaches
        // `datasets=4,11`: the value-varied datasets the search kept (`quarry lessons --search-datasets`).
        if let list = options.first(where: { $0.hasPrefix("datasets=") }) {
          let seeds = list.dropFirst(9).split(separator: ",").map { UInt64($0) }
          guard seeds.allSatisfy({ $0 != nil }) else {
            throw LessonProblem(
              path: path, line: solution.line,
              message: "datasets= takes seeds separated by commas (datasets=3,17), not '\(list.dropFirst(9))'")
          }
          current.exercise?.datasetSeeds = seeds.compactMap { $0 }
        }
      } else if blocks.contains(where: { $0.kind == "hint" || $0.kind == "wrong" || $0.kind == "equivalent" }) {
        throw LessonProblem(path: path, line: current.line, message: "'\(current.title)' has hints but no solution block")
      }
      if !current.text.allSatisfy(\.isWhitespace) || !blocks.isEmpty { steps.append(current) }
      blocks = []
    }
    while index < lines.count {
      let line = lines[index]
      if line.hasPrefix("## ") {
        try finish()
        current = Step(
          title: String(line.dropFirst(3)).trimmingScalars(in: .whitespaces), text: "", examples: [], exercise: nil, line: index + 1)
        index += 1
        continue
      }
      if line.hasPrefix("```") {
        let header = line.dropFirst(3).trimmingScalars(in: .whitespaces)
        let kind = String(header.prefix { !$0.isWhitespace })
        let info = header.dropFirst(kind.count).trimmingScalars(in: .whitespaces)
        let start = index + 2  // the block's first line of code, 1-based
        var code: [String] = []
        index += 1
        while index < lines.count, !lines[index].hasPrefix("```") {
          code.append(lines[index])
          index += 1
        }
        guard index < lines.count else {
          throw LessonProblem(path: path, line: start - 1, message: "this ``` block is never closed")
        }
        index += 1
        let body = code.joined(separator: "\n")
        if ["example", "hint", "solution", "wrong", "equivalent"].contains(kind) {
          blocks.append(Block(kind: kind, info: info, code: body, line: start))
          if kind == "example" { current.text += "```\n" + body + "\n```\n" }
        } else {
          current.text += "```\(header)\n" + body + "\n```\n"
        }
        continue
      }
      current.text += line + "\n"
      index += 1
    }
    try finish()
    return Lesson(path: path, title: title, fixture: fixture, steps: steps)
  }

  /// The lessons in a folder, in file-name order (`01-basics.md`, `02-…`).
  public static func all(in directory: String) -> [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    return names.filter { $0.hasSuffix(".md") && $0 != "README.md" }.sorted().map { directory + "/" + $0 }
  }

  /// `lessons/` beside `fixtures/`.
  public static func directory() -> String? {
    if let path = environmentValue("QUARRY_LESSONS") { return path }
    guard let fixtures = Fixture.root() else { return nil }
    let lessons = parentPath(fixtures.path) + "/lessons"
    return access(lessons, F_OK) == 0 ? lessons : nil
  }
}
