/// Where a run of bytes first occurs in another, searched by hand: the standard library's
/// generic `firstRange(of:)` and `contains(_:)` instantiate the string-processing types on
/// their first call, a cost every process would pay at start-up.
///
///     ByteSearch.firstIndex(of: Array("INT".utf8), in: Array("BIGINT".utf8))  // 3
///     ByteSearch.contains("'subsec'", in: "datetime('now', 'subsec')")       // true
public enum ByteSearch {
  public static func firstIndex(of needle: [UInt8], in bytes: [UInt8]) -> Int? {
    guard bytes.count >= needle.count else { return nil }
    return (0...(bytes.count - needle.count)).first { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
  }

  /// Whether `text` holds `needle`'s UTF-8 bytes (for ASCII needles: byte for byte is what a
  /// Character search finds too).
  public static func contains(_ needle: String, in text: String) -> Bool {
    var text = text, needle = needle
    return text.withUTF8 { bytes in
      needle.withUTF8 { needle in
        guard needle.count <= bytes.count else { return false }
        guard let first = needle.first else { return true }
        var start = 0
        while start + needle.count <= bytes.count {
          if bytes[start] == first, (1..<needle.count).allSatisfy({ bytes[start + $0] == needle[$0] }) { return true }
          start += 1
        }
        return false
      }
    }
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
