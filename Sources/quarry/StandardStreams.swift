import FoundationEssentials
import Glibc
import Workbench

/// The process's standard streams: writes go through Workbench's streams (flushed at once),
/// the rest of standard input is read with the system call itself.
enum StandardStreams {
  static func error(_ text: String) {
    Workbench.OutputStream.standardError.write(text)
    Workbench.OutputStream.standardError.flush()
  }

  static func output(_ text: String) {
    Workbench.OutputStream.standardOutput.write(text)
    Workbench.OutputStream.standardOutput.flush()
  }

  /// Everything left on standard input.
  static func readInput() -> Data {
    var data = Data()
    var chunk = [UInt8](repeating: 0, count: 65_536)
    while true {
      let count = chunk.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { return data }
      data.append(contentsOf: chunk[..<count])
    }
  }
}

/// Runs `command` with `/bin/sh -c`, `argument` as its `$0`, in this terminal's process group, and
/// waits for it; signals Quarry handles or ignores are back at their defaults in the child.
/// Returns its exit status, or nil when it could not start.
func runShellCommand(_ command: String, argument: String) -> Int32? {
  var attributes = posix_spawnattr_t()
  posix_spawnattr_init(&attributes)
  defer { posix_spawnattr_destroy(&attributes) }
  var defaults = sigset_t()
  sigfillset(&defaults)
  var empty = sigset_t()
  sigemptyset(&empty)
  posix_spawnattr_setsigdefault(&attributes, &defaults)
  posix_spawnattr_setsigmask(&attributes, &empty)
  posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
  let arguments = ["/bin/sh", "-c", command, argument]
  var pointers: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
  defer { for pointer in pointers { free(pointer) } }
  var child: pid_t = 0
  guard posix_spawn(&child, "/bin/sh", nil, &attributes, &pointers, environ) == 0 else { return nil }
  var status: Int32 = 0
  while waitpid(child, &status, 0) < 0 {
    guard errno == EINTR else { return nil }
  }
  return status
}
