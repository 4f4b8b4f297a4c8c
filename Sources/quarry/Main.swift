import ArgumentParser
import FoundationEssentials
import Glibc
import Workbench

/// The entry point: the everyday `quarry [DATABASE] [options]` shapes start at once; anything
/// else (help, subcommands, mistakes) goes through ArgumentParser.
@main
enum Main {
  static func main() {
    // A closed pipe or pager is an error to report (EPIPE), not a signal that ends the session.
    signal(SIGPIPE, SIG_IGN)
    // Swift repairs invalid UTF-8 in arguments with U+FFFD: refuse it instead, naming where.
    for index in 1..<Int(CommandLine.argc) {
      // The common case (valid UTF-8) is checked without generic decoding: start-up time.
      guard let pointer = CommandLine.unsafeArgv[index], String(validatingCString: pointer) == nil else { continue }
      let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self), count: strlen(pointer))
      do { _ = try decodeUTF8(bytes) } catch {
        StandardStreams.error("quarry: error: argument \(index): \(error)\n")
        exit(1)
      }
    }
    do {
      if let options = QueryOptions(commonArguments: Array(CommandLine.arguments.dropFirst())) {
        try options.run()
      } else {
        var command = try Quarry.parseAsRoot()
        try command.run()
      }
    } catch {
      finish(with: error)
    }
  }

  /// Help and `--version` exit 0; every failure a user caused (a usage mistake, a file that
  /// cannot be opened, a failed statement) exits 1 with its message on stderr.
  static func finish(with error: any Error) -> Never {
    if Quarry.exitCode(for: error) == .success { Quarry.exit(withError: error) }
    // A command's own status (`lessons --check`: 1 not accepted, 2 no such exercise), its
    // message already printed.
    if let code = error as? ExitCode { exit(code.rawValue) }
    let message = Quarry.fullMessage(for: error)
    if !message.isEmpty { StandardStreams.error((message + "\n")) }
    exit(1)
  }
}
