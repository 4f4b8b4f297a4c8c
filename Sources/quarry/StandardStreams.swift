import FoundationEssentials
import Glibc

/// The process's standard streams, written and read with the system calls themselves.
enum StandardStreams {
  /// Writes all of `text` to standard error (a failed write has nowhere left to be reported).
  static func error(_ text: String) { write(text, to: 2) }

  /// Writes all of `text` to standard output.
  static func output(_ text: String) { write(text, to: 1) }

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

  private static func write(_ text: String, to descriptor: Int32) {
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
      let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
      if written < 0 && errno == EINTR { continue }
      guard written > 0 else { return }
      bytes = bytes.dropFirst(written)
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
