import FoundationEssentials
import Glibc
import QueryBuilder

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

  /// The `errno` of the first write that failed (`EPIPE`: the reader closed the pipe; `ENOSPC`:
  /// the disk is full). Once set, further output is dropped.
  public private(set) var writeError: Int32?

  /// What went wrong writing, for a message: `Broken pipe`, `No space left on device`.
  public var writeErrorDescription: String? {
    writeError.map { String(cString: strerror($0)) }
  }

  public func write(_ text: String) {
    var text = text
    text.withUTF8 { write(bytes: $0) }
  }

  public func write(bytes: UnsafeBufferPointer<UInt8>) {
    // A piece larger than the buffer (a 100 MB value) goes out as it is, never copied into it.
    if bytes.count >= capacity && captured == nil {
      flush()
      if let base = bytes.baseAddress { send(UnsafeRawBufferPointer(start: base, count: bytes.count)) }
      return
    }
    buffer.append(contentsOf: bytes)
    if buffer.count >= capacity { flush() }
  }

  /// Writes `text` as a JSON string literal, escaped straight into the buffer.
  public func writeJSONString(_ text: String) {
    writeJSONStringLiteral(text) { write(bytes: $0) }
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
      buffer.withUnsafeBytes { send($0) }
    }
    buffer.removeAll(keepingCapacity: true)
  }

  /// Writes every byte to the descriptor, unless a write failed before (then nothing is written).
  private func send(_ raw: UnsafeRawBufferPointer) {
    guard writeError == nil, let base = raw.baseAddress else { return }
    var offset = 0
    while offset < raw.count {
      let written = Glibc.write(descriptor, base + offset, raw.count - offset)
      if written < 0 && errno == EINTR { continue }
      if written <= 0 {
        writeError = written < 0 ? errno : EIO
        return
      }
      offset += written
    }
  }

  /// What a capturing stream has received.
  public var text: String {
    flush()
    return String(decoding: captured ?? [], as: UTF8.self)
  }
}

/// The whole contents of a file, read as `cat` reads it: a regular file, a FIFO or a device
/// (`.import /dev/stdin`, a named pipe), to its end. Nil when it cannot be opened or read, or
/// is a folder (``fileProblem(_:writing:)`` says why).
public func readWholeFile(_ path: String) -> [UInt8]? {
  let descriptor = open(path, O_RDONLY | O_CLOEXEC)
  guard descriptor >= 0 else { return nil }
  defer { close(descriptor) }
  var info = stat()
  guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT != S_IFDIR else { return nil }
  var bytes: [UInt8] = []
  if info.st_mode & S_IFMT == S_IFREG, info.st_size > 0 { bytes.reserveCapacity(Int(info.st_size)) }
  var chunk = [UInt8](repeating: 0, count: 1 << 16)
  while true {
    let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
    if count == 0 { return bytes }
    if count < 0 {
      if errno == EINTR { continue }
      return nil
    }
    bytes.append(contentsOf: chunk[0..<count])
  }
}

/// Why a file cannot be used, in a few words: `no such file`, `it is a folder`, ….
public func fileProblem(_ path: String, writing: Bool = false) -> String {
  let manager = FileManager.default
  if let kind = FileKind(path: path) {
    if kind == .folder { return "it is a folder" }
    if writing ? !manager.isWritableFile(atPath: path) : !manager.isReadableFile(atPath: path) { return "permission denied" }
    return writing ? "it cannot be opened for writing" : "it is not UTF-8 text"
  }
  let folder = PathText.parent(path)
  if writing, !folder.isEmpty, !manager.fileExists(atPath: folder) { return "no folder '\(folder)'" }
  return writing ? "permission denied" : "no such file"
}

/// Input text that is not valid UTF-8, with the offset of the first bad byte.
public struct InvalidUTF8: Error, CustomStringConvertible, Equatable {
  public var byteOffset: Int
  public var line: Int
  public var description: String {
    "invalid UTF-8 at byte \(byteOffset) (line \(line)); save the text as UTF-8"
  }
}

/// Decodes UTF-8 strictly: invalid bytes are an error naming where they are, never a silent U+FFFD.
///
/// ```swift
/// try decodeUTF8([0x61, 0xFF])  // throws InvalidUTF8(byteOffset: 1, line: 1)
/// ```
public func decodeUTF8(_ bytes: some Collection<UInt8>) throws(InvalidUTF8) -> String {
  // Valid text (nearly always) is checked and copied at once; only invalid text is walked
  // scalar by scalar, to find where it breaks.
  if let text = String(validating: bytes, as: UTF8.self) { return text }
  var decoder = UTF8()
  var iterator = bytes.makeIterator()
  var scalars = String.UnicodeScalarView()
  var offset = 0
  var line = 1
  // The decoder consumes whole scalars: count bytes by each scalar's encoded length.
  while true {
    switch decoder.decode(&iterator) {
    case .scalarValue(let scalar):
      scalars.append(scalar)
      offset += UTF8.width(scalar)
      if scalar == "\n" { line += 1 }
    case .emptyInput:
      return String(scalars)
    case .error:
      throw InvalidUTF8(byteOffset: offset, line: line)
    }
  }
}
