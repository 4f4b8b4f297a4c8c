/// Where a run of bytes first occurs in another, searched by hand: the standard library's
/// generic `firstRange(of:)` instantiates the string-processing types on its first call, a cost
/// every process would pay at start-up.
///
///     ByteSearch.firstIndex(of: Array("INT".utf8), in: Array("BIGINT".utf8))  // 3
public enum ByteSearch {
  public static func firstIndex(of needle: [UInt8], in bytes: [UInt8]) -> Int? {
    guard bytes.count >= needle.count else { return nil }
    return (0...(bytes.count - needle.count)).first { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
  }
}
