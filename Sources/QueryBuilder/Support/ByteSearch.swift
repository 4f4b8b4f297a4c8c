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
    var text = text, needle = needle
    return text.withUTF8 { text in needle.withUTF8 { firstIndex(of: $0, in: text) != nil } }
  }
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
