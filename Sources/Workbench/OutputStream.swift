import Foundation

/// Buffered output to a file descriptor (stdout by default): large results are written in big
/// chunks rather than line by line.
///
/// ```swift
/// let out = OutputStream.standardOutput
/// out.write("hello\n")
/// out.flush()
/// ```
public final class OutputStream: @unchecked Sendable {
  private var buffer: [UInt8] = []
  private let descriptor: Int32
  private let capacity = 1 << 16
  /// Collects everything written instead (tests, `.once`).
  private var captured: [UInt8]?

  public init(descriptor: Int32) {
    self.descriptor = descriptor
    buffer.reserveCapacity(capacity)
  }

  /// A stream that keeps what is written, for tests and exact-output checks.
  public static func capturing() -> OutputStream {
    let stream = OutputStream(descriptor: -1)
    stream.captured = []
    return stream
  }

  public static let standardOutput = OutputStream(descriptor: 1)
  public static let standardError = OutputStream(descriptor: 2)

  public var isTerminal: Bool { descriptor >= 0 && isatty(descriptor) == 1 }

  public func write(_ text: String) {
    var text = text
    text.withUTF8 { write(bytes: $0) }
  }

  public func write(bytes: UnsafeBufferPointer<UInt8>) {
    buffer.append(contentsOf: bytes)
    if buffer.count >= capacity { flush() }
  }

  public func write(byte: UInt8) {
    buffer.append(byte)
    if buffer.count >= capacity { flush() }
  }

  public func flush() {
    guard !buffer.isEmpty else { return }
    if captured != nil {
      captured!.append(contentsOf: buffer)
    } else {
      var offset = 0
      buffer.withUnsafeBytes { raw in
        while offset < raw.count {
          let written = Foundation.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
          if written <= 0 { break }
          offset += written
        }
      }
    }
    buffer.removeAll(keepingCapacity: true)
  }

  /// What a capturing stream has received.
  public var text: String {
    flush()
    return String(decoding: captured ?? [], as: UTF8.self)
  }
}

/// Why a file cannot be used, in a few words: `no such file`, `it is a folder`, ….
public func fileProblem(_ path: String, writing: Bool = false) -> String {
  var isDirectory: ObjCBool = false
  let manager = FileManager.default
  if manager.fileExists(atPath: path, isDirectory: &isDirectory) {
    if isDirectory.boolValue { return "it is a folder" }
    if writing ? !manager.isWritableFile(atPath: path) : !manager.isReadableFile(atPath: path) { return "permission denied" }
    return writing ? "it cannot be opened for writing" : "it is not UTF-8 text"
  }
  let folder = (path as NSString).deletingLastPathComponent
  if writing, !folder.isEmpty, !manager.fileExists(atPath: folder) { return "no folder '\(folder)'" }
  return writing ? "permission denied" : "no such file"
}
