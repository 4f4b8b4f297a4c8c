import Glibc

/// Where a run of bytes first occurs in another, searched by hand: the standard library's
/// generic `firstRange(of:)` and `contains(_:)` instantiate the string-processing types on
/// their first call, a cost every process would pay at start-up.
///
///     ByteSearch.firstIndex(of: Array("INT".utf8), in: Array("BIGINT".utf8))  // 3
///     ByteSearch.contains("'subsec'", in: "datetime('now', 'subsec')")       // true
public enum ByteSearch {
  /// Where `needle` first occurs in `bytes`: the search the others run.
  public static func firstIndex(of needle: UnsafeBufferPointer<UInt8>, in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    var start = 0
    search: while start + needle.count <= bytes.count {
      for offset in 0..<needle.count where bytes[start + offset] != needle[offset] {
        start += 1
        continue search
      }
      return start
    }
    return nil
  }

  public static func firstIndex(of needle: [UInt8], in bytes: [UInt8]) -> Int? {
    needle.withUnsafeBufferPointer { needle in bytes.withUnsafeBufferPointer { firstIndex(of: needle, in: $0) } }
  }

  /// Whether `text` holds `needle`'s UTF-8 bytes (for ASCII needles: byte for byte is what a
  /// Character search finds too).
  public static func contains(_ needle: String, in text: String) -> Bool {
    var text = text
    var needle = needle
    return text.withUTF8 { text in needle.withUTF8 { firstIndex(of: $0, in: text) != nil } }
  }
}

extension StringProtocol {
  /// Where `byte` first occurs in the text's UTF-8 at or after `start`, found with `memchr`
  /// where the text is stored contiguously: a 100 MB line is searched at memory speed, not a
  /// byte at a time through the UTF-8 view.
  ///
  /// ```swift
  /// "SELECT 1;\nSELECT 2;".firstUTF8Index(of: UInt8(ascii: "\n"))  // the index of the newline
  /// ```
  public func firstUTF8Index(of byte: UInt8, from start: Index? = nil) -> Index? {
    let from = start ?? startIndex
    let skip = utf8.distance(from: startIndex, to: from)
    let found: Int?? = utf8.withContiguousStorageIfAvailable { buffer -> Int? in
      guard let base = buffer.baseAddress, skip < buffer.count,
        let hit = memchr(base + skip, Int32(byte), buffer.count - skip)
      else { return nil }
      return UnsafeRawPointer(hit) - UnsafeRawPointer(base)
    }
    if let found { return found.map { utf8.index(startIndex, offsetBy: $0) } }
    return utf8[from...].firstIndex(of: byte)
  }

  /// Whether the text's UTF-8 holds `byte` (see ``firstUTF8Index(of:from:)``).
  public func containsUTF8(_ byte: UInt8) -> Bool { firstUTF8Index(of: byte) != nil }
}

/// `joined(separator:)` for an array of strings, written out: the standard library's is
/// generic over the collection, and its first call in a process looks the array's conformances
/// up at run time (a scan of every conformance in the binary, a tenth of a millisecond). This
/// concrete one is chosen for every `[String]` in the modules that import QueryBuilder.
///
///     ["a", "b"].joined(separator: ", ")  // "a, b"
extension Array where Element == String {
  public func joined(separator: String = "") -> String {
    var length = separator.utf8.count * Swift.max(0, count - 1)
    for element in self { length += element.utf8.count }
    var result = ""
    result.reserveCapacity(length)
    for index in indices {
      if index > startIndex { result += separator }
      result += self[index]
    }
    return result
  }
}
