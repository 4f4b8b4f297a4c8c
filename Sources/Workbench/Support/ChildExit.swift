/// How a child process ended, read from `waitpid`'s status: the signal that stopped it, or its
/// exit code.
///
/// ```swift
/// ChildExit(waitStatus: 3 << 8)  // code 3, signal 0
/// ```
public struct ChildExit: Equatable {
  public var signal: Int32
  public var code: Int32

  public init(waitStatus status: Int32) {
    signal = status & 0x7F
    code = (status >> 8) & 0xFF
  }
}
