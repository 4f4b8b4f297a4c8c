/// SQL text interleaved with bound values: the unit every statement and expression renders to.
///
/// ```swift
/// var fragment: QueryFragment = "SELECT "
/// fragment.append(.integer(1))
/// fragment.sql(inlining: true)   // SELECT 1
/// fragment.sql(inlining: false)  // SELECT ?   (bindings: [1])
/// ```
public struct QueryFragment: Sendable, Hashable, ExpressibleByStringLiteral {
  public enum Segment: Sendable, Hashable {
    case sql(String)
    case binding(QueryBinding)
  }

  public private(set) var segments: [Segment] = []

  public init() {}

  public init(_ sql: String) {
    if !sql.isEmpty { segments = [.sql(sql)] }
  }

  public init(stringLiteral value: String) { self.init(value) }

  public init(binding: QueryBinding) { segments = [.binding(binding)] }

  public var isEmpty: Bool { segments.isEmpty }

  public mutating func append(_ sql: String) {
    guard !sql.isEmpty else { return }
    if case .sql(var last)? = segments.last {
      // Take the text out first so it is uniquely referenced and grows in place.
      segments[segments.count - 1] = .sql("")
      last += sql
      segments[segments.count - 1] = .sql(last)
    } else {
      segments.append(.sql(sql))
    }
  }

  public mutating func append(_ binding: QueryBinding) {
    segments.append(.binding(binding))
  }

  public mutating func append(_ other: QueryFragment) {
    for segment in other.segments {
      switch segment {
      case .sql(let text): append(text)
      case .binding(let binding): append(binding)
      }
    }
  }

  public static func + (lhs: QueryFragment, rhs: QueryFragment) -> QueryFragment {
    var out = lhs
    out.append(rhs)
    return out
  }

  /// Each line after the first indented by two spaces (for nested statements).
  public func indented() -> QueryFragment {
    guard QueryLayout.current == .pretty else { return self }
    var out = QueryFragment()
    for segment in segments {
      switch segment {
      case .sql(let text): out.append(text.replacingAll("\n", with: "\n  "))
      case .binding(let binding): out.append(binding)
      }
    }
    return out
  }

  /// The SQL text: with values inlined as literals (for display), or as `?` parameters.
  public func sql(inlining: Bool) -> String {
    var out = ""
    for segment in segments {
      switch segment {
      case .sql(let text): out += text
      case .binding(let binding): out += inlining ? binding.inlineSQL : "?"
      }
    }
    return out
  }

  /// The values bound to the `?` parameters of `sql(inlining: false)`, in order.
  public var bindings: [QueryBinding] {
    segments.compactMap { if case .binding(let b) = $0 { return b } else { return nil } }
  }
}

extension Array where Element == QueryFragment {
  /// The fragments joined with a separator: `a, b, c`.
  public func joined(separator: String) -> QueryFragment {
    var out = QueryFragment()
    for (index, fragment) in enumerated() {
      if index > 0 { out.append(separator) }
      out.append(fragment)
    }
    return out
  }
}
