import Foundation

/// Validates a lesson: its format, that every example runs, that every solution passes its own
/// check on the fixture and its variant, and that every wrong answer fails as the lesson says.
///
/// ```swift
/// LessonLinter().lint(path: "lessons/01-basics.md")  // [] when the lesson is sound
/// ```
public struct LessonLinter {
  public init() {}

  public func lint(path: String) -> [LessonProblem] {
    let lesson: Lesson
    do {
      lesson = try Lesson.load(path: path)
    } catch let problem as LessonProblem {
      return [problem]
    } catch {
      return [LessonProblem(path: path, line: 1, message: "\(error)")]
    }
    var problems: [LessonProblem] = []
    func problem(_ line: Int, _ message: String) { problems.append(LessonProblem(path: path, line: line, message: message)) }
    guard (try? Fixture.named(lesson.fixture)) != nil else {
      problem(2, "no fixture named '\(lesson.fixture)' (available: \(Fixture.available().joined(separator: ", ")))")
      return problems
    }
    if lesson.exercises.count < 4 { problem(1, "a lesson needs at least 4 exercises; this one has \(lesson.exercises.count)") }
    let checker = AnswerChecker()
    for step in lesson.steps {
      for example in step.examples {
        if let error = runError(example.code, fixture: lesson.fixture) {
          problem(example.line, "example fails: \(error)")
        }
      }
      guard let exercise = step.exercise else { continue }
      if exercise.prompt.isEmpty { problem(exercise.line, "'\(exercise.title)' has no prompt") }
      if exercise.hints.isEmpty { problem(exercise.line, "'\(exercise.title)' has no hint") }
      do {
        if case .wrong(let why) = try checker.check(exercise.solution, against: exercise, fixture: lesson.fixture) {
          problem(exercise.solutionLine, "the solution does not pass its own check: \(why)")
        }
      } catch let failure as LessonProblem {
        problem(exercise.solutionLine, failure.message)
        continue
      } catch {
        problem(exercise.solutionLine, "\(error)")
        continue
      }
      if exercise.wrongAnswers.isEmpty { problem(exercise.line, "'\(exercise.title)' has no plausible wrong answer (a ```wrong block)") }
      for wrong in exercise.wrongAnswers {
        switch try? checker.check(wrong.code, against: exercise, fixture: lesson.fixture) {
        case .wrong(let why)?:
          if !why.contains(wrong.expectation) {
            problem(wrong.line, "the wrong answer fails with \"\(why)\", not \"\(wrong.expectation)\"")
          }
        default:
          problem(wrong.line, "the wrong answer passes the check")
        }
      }
    }
    return problems
  }

  /// An example's first error on a fresh copy of the fixture, if any.
  func runError(_ code: String, fixture: String) -> String? {
    guard let session = try? Session.fixture(fixture) else { return "cannot load fixture '\(fixture)'" }
    let collector = ResultCollector()
    session.run(code, sink: collector)
    return collector.error
  }
}
