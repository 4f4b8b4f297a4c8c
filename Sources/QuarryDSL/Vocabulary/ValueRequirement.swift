/// What a method of StructuredQueries asks of its receiver's value type, written as the
/// library's own `where` clause at the end of the entry's declaration.
///
/// ```swift
/// // sum(distinct: Bool = false, …) -> Self? where QueryValue.Wrapped: Numeric
/// Reminder.select { $0.title.sum() }
/// // error: referencing instance method 'sum(distinct:filter:)' on 'QueryExpression'
/// //        requires that 'String' conform to 'Numeric'
/// ```
public struct ValueRequirement: Sendable, Hashable, CustomStringConvertible {
  public enum Kind: Sendable, Hashable {
    /// `QueryValue: Numeric`
    case conforms(String)
    /// `QueryValue == String`
    case equals(String)
  }

  public var kind: Kind
  /// `QueryValue.Wrapped` (the library's `_OptionalPromotable`): an optional receiver is taken
  /// too, and the requirement is on what it wraps.
  public var promotesOptional: Bool

  /// Reads `QueryValue: Numeric`, `QueryValue.Wrapped == String`; nil for anything else.
  init?(clause: String) {
    let text = MethodSignature.words(clause)
    guard text.count == 3 || (text.count == 2 && text[0].hasSuffix(":")) else { return nil }
    let subject: Substring
    if text.count == 3, text[1] == "==" {
      subject = text[0]
      kind = .equals(String(text[2]))
    } else if text.count == 2 {
      subject = text[0].dropLast()
      kind = .conforms(String(text[1]))
    } else {
      return nil
    }
    switch subject {
    case "QueryValue": promotesOptional = false
    case "QueryValue.Wrapped": promotesOptional = true
    default: return nil
    }
  }

  public var description: String {
    let subject = promotesOptional ? "QueryValue.Wrapped" : "QueryValue"
    switch kind {
    case .conforms(let name): return "\(subject): \(name)"
    case .equals(let name): return "\(subject) == \(name)"
    }
  }

  /// Whether a receiver of `type` meets the requirement: nil when Quarry cannot tell (a type
  /// it does not know the conformances of).
  public func isSatisfied(by type: SwiftType, isEnum: Bool) -> Bool? {
    if type.isOptional && !promotesOptional { return false }
    let subject = type.wrapped
    guard subject.hasKnownConformances || isEnum, subject.representation == nil else { return nil }
    switch kind {
    case .equals(let name): return subject.name == name
    case .conforms(let name): return isEnum ? false : subject.conforms(to: name)
    }
  }
}

extension SwiftType {
  /// Standard and Foundation value types, whose conformances Quarry knows as Swift does.
  static let knownValueTypes: Set<String> = [
    "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64",
    "Double", "Float", "String", "Bool", "Date", "UUID", "[UInt8]", "Data", "URL",
  ]

  /// Whether Quarry knows this type's conformances (a standard type without a representation).
  var hasKnownConformances: Bool { Self.knownValueTypes.contains(name) && representation == nil }

  /// Swift's answer to `Self: P` for the protocols StructuredQueries constrains on; nil for a
  /// protocol Quarry does not model.
  func conforms(to protocolName: String) -> Bool? {
    switch protocolName {
    case "Numeric": return isNumeric
    case "FloatingPoint": return name == "Double" || name == "Float"
    case "BinaryInteger": return isInteger
    case "Collection": return name == "String" || name == "[UInt8]" || name == "Data"
    default: return nil
    }
  }
}
