/// A property list in the old (OpenStep) text format, as an Xcode project's `project.pbxproj`
/// is written: dictionaries `{ key = value; }`, arrays `( a, b, )`, quoted or bare strings,
/// and `/* … */` or `// …` comments.
///
/// ```swift
/// let list = try OldStylePropertyList.parse("{ isa = PBXGroup; children = (A1, B2, ); }")
/// list["children"]?.array?.count  // 2
/// ```
enum OldStylePropertyList: Equatable {
  case string(String)
  case array([OldStylePropertyList])
  case dictionary([String: OldStylePropertyList])

  var string: String? {
    if case .string(let text) = self { return text }
    return nil
  }

  var array: [OldStylePropertyList]? {
    if case .array(let items) = self { return items }
    return nil
  }

  var dictionary: [String: OldStylePropertyList]? {
    if case .dictionary(let entries) = self { return entries }
    return nil
  }

  subscript(key: String) -> OldStylePropertyList? { dictionary?[key] }

  /// The strings of an array value (`children = (A1, B2, );`); empty when it is not one.
  var strings: [String] { array?.compactMap(\.string) ?? [] }

  struct SyntaxError: Error, Equatable {
    var message: String
    var offset: Int
  }

  static func parse(_ text: String) throws -> OldStylePropertyList {
    var reader = Reader(bytes: Array(text.utf8))
    let value = try reader.value()
    reader.skipSpace()
    guard reader.index == reader.bytes.count else { throw SyntaxError(message: "text after the top-level value", offset: reader.index) }
    return value
  }

  private struct Reader {
    let bytes: [UInt8]
    var index = 0

    mutating func skipSpace() {
      while index < bytes.count {
        let byte = bytes[index]
        if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
          index += 1
        } else if byte == 0x2F, index + 1 < bytes.count, bytes[index + 1] == 0x2A {
          // `/* … */`
          index += 2
          while index + 1 < bytes.count, !(bytes[index] == 0x2A && bytes[index + 1] == 0x2F) { index += 1 }
          index = min(index + 2, bytes.count)
        } else if byte == 0x2F, index + 1 < bytes.count, bytes[index + 1] == 0x2F {
          // `// …` to the end of the line
          while index < bytes.count, bytes[index] != 0x0A { index += 1 }
        } else {
          return
        }
      }
    }

    mutating func expect(_ byte: UInt8, _ what: String) throws {
      skipSpace()
      guard index < bytes.count, bytes[index] == byte else { throw SyntaxError(message: "expected \(what)", offset: index) }
      index += 1
    }

    mutating func value() throws -> OldStylePropertyList {
      skipSpace()
      guard index < bytes.count else { throw SyntaxError(message: "expected a value", offset: index) }
      switch bytes[index] {
      case 0x7B:  // {
        index += 1
        var entries: [String: OldStylePropertyList] = [:]
        while true {
          skipSpace()
          if index < bytes.count, bytes[index] == 0x7D {
            index += 1
            return .dictionary(entries)
          }
          guard case .string(let key) = try value() else { throw SyntaxError(message: "expected a key", offset: index) }
          try expect(0x3D, "'='")
          entries[key] = try value()
          try expect(0x3B, "';'")
        }
      case 0x28:  // (
        index += 1
        var items: [OldStylePropertyList] = []
        while true {
          skipSpace()
          if index < bytes.count, bytes[index] == 0x29 {
            index += 1
            return .array(items)
          }
          items.append(try value())
          skipSpace()
          if index < bytes.count, bytes[index] == 0x2C { index += 1 }
        }
      case 0x22:  // "
        return .string(try quoted())
      case 0x3C:  // <hex data>, kept as its text
        let start = index
        while index < bytes.count, bytes[index] != 0x3E { index += 1 }
        index = min(index + 1, bytes.count)
        return .string(String(decoding: bytes[start..<index], as: UTF8.self))
      default:
        let start = index
        while index < bytes.count, Self.isBare(bytes[index]) { index += 1 }
        guard index > start else { throw SyntaxError(message: "unexpected character", offset: index) }
        return .string(String(decoding: bytes[start..<index], as: UTF8.self))
      }
    }

    static func isBare(_ byte: UInt8) -> Bool {
      switch byte {
      case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x5F, 0x24, 0x2B, 0x2F, 0x3A, 0x2E, 0x2D: return true
      default: return byte >= 0x80
      }
    }

    mutating func quoted() throws -> String {
      index += 1
      var out: [UInt8] = []
      while index < bytes.count {
        let byte = bytes[index]
        index += 1
        if byte == 0x22 { return String(decoding: out, as: UTF8.self) }
        guard byte == 0x5C, index < bytes.count else {
          out.append(byte)
          continue
        }
        let escaped = bytes[index]
        index += 1
        switch escaped {
        case 0x6E: out.append(0x0A)
        case 0x74: out.append(0x09)
        case 0x72: out.append(0x0D)
        default: out.append(escaped)
        }
      }
      throw SyntaxError(message: "unterminated string", offset: index)
    }
  }
}
