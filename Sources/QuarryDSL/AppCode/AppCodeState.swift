import SwiftSyntax

/// Runs pasted app code, statement by statement, in the compiler's context, and holds what one
/// input's app code has done: plumbing it skipped, set-up functions it ran, names bound to
/// values Quarry could not compute or to rows the app fetched.
///
/// ```swift
/// func setUp() throws { try migrator.migrate(database) }  // run where it is called
/// try database.write { db in try Reminder.delete().execute(db) }  // runs
/// ```
final class AppCodeRunner {
  unowned let compiler: Compiler

  init(compiler: Compiler) {
    self.compiler = compiler
  }

  /// App plumbing the last `compile` read and skipped (summed up in one note).
  var skipped: [String] = []
  /// Set-up functions that already ran (at their declaration, for their migrations).
  var functionsRun: Set<String> = []
  /// Functions app code called (`migrator.registerV1()` in `appDatabase()`): a set-up function
  /// among them has run where the app runs it, and is not run again on its own.
  var functionsCalled: Set<String> = []
  /// Names app code bound to values Quarry could not compute, with where they came from.
  var skippedValues: [String: String] = [:]
  /// Names declared with `let` (Swift refuses to assign them; `var` ones change as code runs).
  var constants: Set<String> = []
  /// Set-up functions declared in this input, run once all of it is read.
  var pendingSetUp: [String] = []
  /// The types the input being compiled declares at its top level (an extension of one of them
  /// extends a model even before it is read).
  var typesInInput: Set<String> = []
  /// Names app code bound to rows it fetched (`let rows = try ….fetchAll(db)`): Swift arrays
  /// in the app, whose values Quarry does not hold.
  var fetchedBindings: Set<String> = []
  /// Whether the input is compiled piece by piece (a failure is an item, the rest goes on).
  var recovering = false
  /// Functions app code declares, as written: Swift's own ones run in the evaluator
  /// (`func twice(_ x: inout Int)`, called as `twice(&count)`).
  var declaredFunctions: [String: SwiftEvaluator.DeclaredFunction] = [:]
  /// The blocks of app code being run, each with the `defer` bodies met directly in it (run,
  /// last first, when the block ends).
  var deferFrames: [(statements: CodeBlockItemListSyntax, bodies: [CodeBlockSyntax])] = []
  /// Closures app code names with a `let` (`let next = { (x: Int) -> Int in x + 1 }`).
  var declaredClosures: [String: (closure: ClosureExprSyntax, source: SourceUnit)] = [:]
}
