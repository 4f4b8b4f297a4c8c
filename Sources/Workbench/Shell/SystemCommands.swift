import FoundationEssentials
import QueryBuilder

/// The commands that reach outside the database, as sqlite3 has them: `.cd DIR` and
/// `.shell COMMAND` (also `.system`).
///
/// ```
/// quarry> .cd ~/exports
/// quarry> .shell ls *.csv
/// tags.csv
/// ```
enum SystemCommands {
  static var all: [MetaCommand] {
    let shellCommand = { (name: String) in
      MetaCommand(
        usage: "\(name) COMMAND", summary: "Run COMMAND with the shell (/bin/sh), on this terminal",
        details: "The command's output goes to the terminal, not into .output's file. A command that fails says its exit status."
      ) { shell, argument in
        guard !argument.isEmpty else { return shell.fail("usage: \(name) COMMAND") }
        shell.output.flush()
        guard let status = shell.terminalServices?.runShell(argument) else {
          return shell.fail("\(name) needs the quarry command's terminal (it cannot start a shell here)")
        }
        let exit = ChildExit(waitStatus: status)
        if exit.signal != 0 {
          shell.fail("\(name): the command was stopped by signal \(exit.signal)")
        } else if exit.code != 0 {
          shell.fail("\(name): the command exited with status \(exit.code)" + (exit.code == 127 ? " (not found)" : ""))
        }
      }
    }
    return [
      MetaCommand(
        usage: ".cd DIR", summary: "Change the working folder (where relative file names point)",
        details: "Relative paths given to .open, .read, .import, .output and .save are read from this folder from now on."
      ) { shell, argument in
        let folder = argument.trimmingScalars(in: ScalarSet(charactersIn: " \"'"))
        guard !folder.isEmpty else { return shell.fail("usage: .cd DIR") }
        let path = expandingTilde(folder)
        guard FileManager.default.changeCurrentDirectoryPath(path) else {
          return shell.fail("cannot change to '\(folder)': \(fileProblem(path))")
        }
      },
      shellCommand(".shell"),
      shellCommand(".system"),
    ]
  }
}
