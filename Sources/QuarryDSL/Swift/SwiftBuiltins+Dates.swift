/// Foundation's `Date`: made from an interval, moved by seconds, compared; bound as its column
/// stores it. The clock (`Date()`, `Date.now`) is read when the input runs, as the app reads it.
///
/// ```swift
/// let weekAgo = Date(timeIntervalSince1970: 1_767_225_600) - 604800
/// #sql("\($0.completedAt) < \(weekAgo)")   // … < '2025-12-25 00:00:00.000' (bound)
/// ```
extension SwiftBuiltins {
  static let dates: [SwiftBuiltin] = [
    SwiftBuiltin("", "Date(timeIntervalSince1970 interval: Double) -> Date", example: "Date(timeIntervalSince1970: 86400)") { call in
      .date(try call.double(0))
    },
    SwiftBuiltin("", "Date(timeIntervalSinceReferenceDate interval: Double) -> Date", example: "Date(timeIntervalSinceReferenceDate: 0)") {
      call in
      .date(try call.double(0) + 978_307_200)
    },
    SwiftBuiltin("Date", "timeIntervalSince1970: Double", example: "Date(timeIntervalSince1970: 90).timeIntervalSince1970") { call in
      guard case .date(let seconds) = call.base else { return .none }
      return .double(seconds)
    },
    SwiftBuiltin(
      "Date", "timeIntervalSinceReferenceDate: Double", example: "Date(timeIntervalSince1970: 978307200).timeIntervalSinceReferenceDate"
    ) { call in
      guard case .date(let seconds) = call.base else { return .none }
      return .double(seconds - 978_307_200)
    },
    SwiftBuiltin(
      "Date", "addingTimeInterval(_ interval: Double) -> Date", example: "Date(timeIntervalSince1970: 0).addingTimeInterval(-3600)"
    ) { call in
      guard case .date(let seconds) = call.base else { return .none }
      return .date(seconds + (try call.double(0)))
    },
    SwiftBuiltin(
      "Date", "timeIntervalSince(_ date: Date) -> Double",
      example: "Date(timeIntervalSince1970: 100).timeIntervalSince(Date(timeIntervalSince1970: 40))"
    ) { call in
      guard case .date(let seconds) = call.base, case .date(let other) = try call.value(0) else {
        throw call.evaluator.failure("'timeIntervalSince' needs a Date", at: call.node)
      }
      return .double(seconds - other)
    },
    SwiftBuiltin("", "UUID() -> UUID", example: "UUID().uuidString.count") { call in
      if call.evaluator.valuesTheAppMakesWhenItRuns {
        var error = call.evaluator.failure("makes a UUID the app has only when it runs", at: call.node)
        error.appStaticValue = "UUID()"
        throw error
      }
      // A random (version 4) UUID, as the app makes one each time this runs.
      return .uuid(FunctionMethods.randomUUIDText().uppercased())
    },
    SwiftBuiltin(
      "", "UUID(uuidString string: String) -> UUID?", example: #"UUID(uuidString: "e621e1f8-c36c-495a-93fc-0c247a3e6e5f")?.uuidString"#
    ) { call in
      let text = try call.string(0)
      return SwiftValue.isUUIDText(text) ? .some(.uuid(text.uppercased())) : .none
    },
    SwiftBuiltin("UUID", "uuidString: String", example: #"UUID(uuidString: "00000000-0000-0000-0000-00000000000a")!.uuidString"#) { call in
      guard case .uuid(let text) = call.base else { return .none }
      return .string(text)
    },
    SwiftBuiltin("", "Data(_ bytes: Sequence) -> Data", example: #"Data("hé".utf8).count"#) { call in
      let value = try call.value(0)
      guard let elements = value.orderedElements(limit: 100_000_000) else {
        throw call.evaluator.failure("needs bytes here, not \(value.typeName)", at: call.node)
      }
      var bytes: [UInt8] = []
      bytes.reserveCapacity(elements.count)
      for element in elements {
        let number: Int64?
        switch element {
        case .int(let literal): number = literal
        case .fixedWidth(let byte, .uint8): number = byte
        default: number = nil
        }
        guard let number, let byte = UInt8(exactly: number) else {
          throw call.evaluator.failure("needs bytes (UInt8) here, not \(element.typeName)", at: call.node)
        }
        bytes.append(byte)
      }
      return .data(bytes)
    },
    SwiftBuiltin("", "Data() -> Data", example: "Data().isEmpty") { _ in .data([]) },
    SwiftBuiltin("Data", "count: Int", example: #"Data("abc".utf8).count"#) { call in
      guard case .data(let bytes) = call.base else { return .none }
      return .int(Int64(bytes.count))
    },
    SwiftBuiltin("Data", "isEmpty: Bool", example: #"Data("a".utf8).isEmpty"#) { call in
      guard case .data(let bytes) = call.base else { return .none }
      return .bool(bytes.isEmpty)
    },
    SwiftBuiltin("Data", "base64EncodedString() -> String", example: #"Data("hé".utf8).base64EncodedString()"#) { call in
      guard case .data(let bytes) = call.base else { return .none }
      return .string(SwiftValue.base64(bytes))
    },
    SwiftBuiltin("", "URL(string: String) -> URL?", example: #"URL(string: "https://example.org/a?b=1#c")?.absoluteString"#) { call in
      let text = try call.string(0)
      guard !text.isEmpty else { return .none }
      // Characters a URL holds as they are; anything else Foundation percent-encodes (or,
      // on older systems, refuses), which Quarry does not model.
      let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:/?#[]@!$&'()*+,;=%".unicodeScalars)
      guard text.unicodeScalars.allSatisfy({ allowed.contains($0) }) else {
        throw call.evaluator.failure(
          "makes a URL of text with characters URL(string:) percent-encodes or refuses, \(SwiftEvaluator.outsideSubset)", at: call.node)
      }
      return .some(.url(text))
    },
    SwiftBuiltin("URL", "absoluteString: String", example: #"URL(string: "https://example.org/x")!.absoluteString"#) { call in
      guard case .url(let text) = call.base else { return .none }
      return .string(text)
    },
    SwiftBuiltin("Date", "distantPast: Date", isStatic: true, example: "Date.distantPast.timeIntervalSince1970") { _ in
      .date(-62_135_769_600)
    },
    SwiftBuiltin("Date", "distantFuture: Date", isStatic: true, example: "Date.distantFuture.timeIntervalSince1970") { _ in
      .date(64_092_211_200)
    },
  ]
}
