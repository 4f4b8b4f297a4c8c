import Glibc

/// Text formatted by C's `printf` rules, as `String(format:)` does for numbers.
///
///     cFormat("%.2f s", 1.5)   // "1.50 s"
///     cFormat("%2d", 7)        // " 7"
func cFormat(_ format: String, _ arguments: any CVarArg...) -> String {
  withVaList(arguments) { list in
    var buffer = [CChar](repeating: 0, count: 128)
    let needed = Int(vsnprintf(&buffer, buffer.count, format, list))
    guard needed >= buffer.count else { return String(decoding: buffer.prefix(max(0, needed)).map(UInt8.init(bitPattern:)), as: UTF8.self) }
    buffer = [CChar](repeating: 0, count: needed + 1)
    return withVaList(arguments) { again in
      _ = vsnprintf(&buffer, buffer.count, format, again)
      return String(decoding: buffer.prefix(needed).map(UInt8.init(bitPattern:)), as: UTF8.self)
    }
  }
}
