import Glibc
import SwiftSyntax

/// Foundation's `String(format:_:)`: printf's conversions, as an app on a 64-bit device gets
/// them (`%d` reads 32 bits of an `Int`; `%ld` all 64), with `.` for the decimal point whatever
/// the locale.
///
/// ```swift
/// String(format: "%.2f|%5d|%@|%x", 3.14159, 42, "hi", 255)  // "3.14|   42|hi|ff"
/// String(format: "%d", Int.max)                          // "-1"
/// ```
extension SwiftBuiltins {
  static let format: [SwiftBuiltin] = [
    SwiftBuiltin(
      "", "String(format: String, _ arguments: CVarArg...) -> String",
      example: #"String(format: "%.2f|%5d|%-4d|%@|%X|%+.1e|%g|%03ld|%%|%d", 3.14159, 42, 7, "hi", 255, 1234.5, 0.0001, 9, Int.max)"#
    ) { call in
      let format = try call.string(0)
      var values: [SwiftValue] = []
      for index in 1..<max(1, call.count) { values.append(try call.value(index)) }
      return .string(try PrintfFormat(format, evaluator: call.evaluator, node: call.node).render(values))
    }
  ]
}

/// A printf format string read into its pieces: text, and conversions each with its argument.
struct PrintfFormat {
  enum Piece {
    case text(String)
    /// `%[flags][width][.precision][length]conversion`, as written.
    case conversion(spec: String, flags: String, length: String, kind: Character)
  }

  let pieces: [Piece]
  let evaluator: SwiftEvaluator
  let node: Syntax

  /// Every conversion's width and precision stays below this (a `%99999999d` is refused).
  static let widest = 4096

  init(_ format: String, evaluator: SwiftEvaluator, node: Syntax) throws {
    self.evaluator = evaluator
    self.node = node
    var pieces: [Piece] = []
    var text = ""
    var scalars = Array(format.unicodeScalars)[...]
    while let scalar = scalars.popFirst() {
      guard scalar == "%" else {
        text.unicodeScalars.append(scalar)
        continue
      }
      var flags = ""
      while let next = scalars.first, "-+ #0".unicodeScalars.contains(next) {
        flags.unicodeScalars.append(next)
        scalars.removeFirst()
      }
      var width = ""
      while let next = scalars.first, ("0"..."9").contains(next) {
        width.unicodeScalars.append(next)
        scalars.removeFirst()
      }
      var precision: String?
      if scalars.first == "." {
        scalars.removeFirst()
        var digits = ""
        while let next = scalars.first, ("0"..."9").contains(next) {
          digits.unicodeScalars.append(next)
          scalars.removeFirst()
        }
        precision = digits
      }
      var length = ""
      while let next = scalars.first, "hlqLzjt".unicodeScalars.contains(next) {
        length.unicodeScalars.append(next)
        scalars.removeFirst()
      }
      guard let conversion = scalars.popFirst() else {
        throw evaluator.unsupported(node, "a format that ends inside a conversion")
      }
      for number in [width, precision ?? ""] where number.count > 4 || (Int(number) ?? 0) > Self.widest {
        throw evaluator.unsupported(node, "a format width or precision over \(Self.widest)")
      }
      let kind = Character(conversion)
      if kind == "%" {
        guard flags.isEmpty, width.isEmpty, precision == nil, length.isEmpty else {
          throw evaluator.unsupported(node, "'%%' with flags or a width")
        }
        text += "%"
        continue
      }
      guard "diuxXofFeEgGaA@".contains(kind) else {
        throw evaluator.unsupported(node, "the format conversion '%\(kind)' (Quarry formats %d %i %u %x %X %o %f %e %g %a %@)")
      }
      if !text.isEmpty { pieces.append(.text(text)) }
      text = ""
      let spec = "%" + flags + width + (precision.map { "." + $0 } ?? "")
      pieces.append(.conversion(spec: spec, flags: flags, length: length, kind: kind))
    }
    if !text.isEmpty { pieces.append(.text(text)) }
    self.pieces = pieces
  }

  /// The text Foundation makes of `values`; extra values are ignored, as Foundation ignores
  /// them; a missing one is refused (printf would read whatever lies there).
  func render(_ values: [SwiftValue]) throws -> String {
    var result = ""
    var next = values.makeIterator()
    for piece in pieces {
      switch piece {
      case .text(let text): result += text
      case .conversion(let spec, let flags, let length, let kind):
        guard let value = next.next() else { throw evaluator.unsupported(node, "a format with more conversions than values") }
        result += try convert(value, spec: spec, flags: flags, length: length, kind: kind)
      }
    }
    try evaluator.budget.allocate(result.utf8.count)
    return result
  }

  private func convert(_ value: SwiftValue, spec: String, flags: String, length: String, kind: Character) throws -> String {
    switch kind {
    case "@":
      guard case .string(let text) = value, spec == "%" else {
        throw evaluator.unsupported(node, "'%@' of \(value.typeName), or with a width (Quarry formats a String alone)")
      }
      return text
    case "d", "i", "u", "x", "X", "o":
      guard case .int(let number) = value else {
        throw evaluator.unsupported(
          node, "'%\(kind)' given a value of type \(value.typeName) (printf would read an integer that is not there)")
      }
      let signed = kind == "d" || kind == "i"
      switch length {
      case "":
        // 32 bits of the value, as printf reads a `%d` of a 64-bit Int.
        return signed
          ? Self.printf(spec + String(kind), Int32(truncatingIfNeeded: number))
          : Self.printf(spec + String(kind), UInt32(truncatingIfNeeded: number))
      case "l", "ll", "q", "z", "j", "t":
        return signed
          ? Self.printf(spec + "ll" + String(kind), number) : Self.printf(spec + "ll" + String(kind), UInt64(bitPattern: number))
      default:
        throw evaluator.unsupported(node, "the length '\(length)' in '%\(length)\(kind)'")
      }
    default:
      guard case .double(let number) = value, length.isEmpty || length == "l" else {
        throw evaluator.unsupported(
          node, "'%\(kind)' given a value of type \(value.typeName) (printf would read a Double that is not there)")
      }
      return Self.printf(spec + String(kind), number)
    }
  }

  /// The C library's own formatting of one value, in the "C" locale (a `.` decimal point).
  private static func printf(_ spec: String, _ value: some CVarArg) -> String {
    let locale = newlocale(LC_NUMERIC_MASK, "C", nil)
    let previous = locale.map { uselocale($0) }
    defer {
      if let previous { uselocale(previous) }
      if let locale { freelocale(locale) }
    }
    var buffer = [CChar](repeating: 0, count: 2 * Self.widest + 400)
    let written = withVaList([value]) { list in
      buffer.withUnsafeMutableBufferPointer { vsnprintf($0.baseAddress, $0.count, spec, list) }
    }
    guard written >= 0 else { return "" }
    let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
    return String(decoding: bytes, as: UTF8.self)
  }
}
