import SwiftSyntax

/// Finds the first syntax error in a parsed tree: a token the parser had to invent (missing),
/// or text it could not place (unexpected).
///
/// ```swift
/// // Reminder.where { $0.id.eq(1)
/// // syntax error: expected '}' to end closure expression
/// ```
enum SyntaxErrorFinder {
  struct Found {
    var position: AbsolutePosition
    var message: String
    var length: Int
    /// For a missing closing bracket: where the bracket it would close opens.
    var opener: (position: AbsolutePosition, text: String)?
  }

  static func firstError(in tree: some SyntaxProtocol) -> Found? {
    let visitor = Visitor(viewMode: .all)
    visitor.walk(tree)
    return visitor.found
  }

  private final class Visitor: SyntaxVisitor {
    var found: Found?

    override func visit(_ node: UnexpectedNodesSyntax) -> SyntaxVisitorContinueKind {
      guard found == nil else { return .skipChildren }
      let text = node.trimmedDescription
      let shown = text.count > 30 ? String(text.prefix(30)) + "…" : text
      found = Found(
        position: node.positionAfterSkippingLeadingTrivia,
        message: "unexpected '\(shown)' here", length: max(1, min(text.count, 80)))
      return .skipChildren
    }

    override func visit(_ token: TokenSyntax) -> SyntaxVisitorContinueKind {
      guard found == nil, token.presence == .missing else { return .skipChildren }
      let text = token.text
      let what: String
      if text.isEmpty {
        what = describe(token.tokenKind)
      } else if text.hasPrefix("<#"), text.hasSuffix("#>") {
        // swift-syntax's placeholder for a missing node (`<#expression#>`): said in words.
        let name = text.dropFirst(2).dropLast(2)
        what = ("aeiou".contains(name.first ?? "x") ? "an " : "a ") + name
      } else {
        what = "'\(text)'"
      }
      var message = "expected \(what)"
      var opener: (AbsolutePosition, String)?
      if ["}", ")", "]"].contains(text), let parent = token.parent {
        message += " to end \(kindName(parent))"
        let open = ["}": "{", ")": "(", "]": "["][text] ?? ""
        if let start = parent.tokens(viewMode: .sourceAccurate).first(where: { $0.text == open && $0.presence == .present }) {
          opener = (start.positionAfterSkippingLeadingTrivia, open)
        }
      } else if let previous = token.previousToken(viewMode: .sourceAccurate), !previous.text.isEmpty {
        message += " after '\(previous.text)'"
      } else if let parent = token.parent {
        message += " in \(kindName(parent))"
      }
      found = Found(position: token.position, message: message, length: 1, opener: opener)
      return .skipChildren
    }

    private func describe(_ kind: TokenKind) -> String {
      switch kind {
      case .identifier: return "a name"
      case .integerLiteral, .floatLiteral: return "a number"
      case .stringSegment: return "text"
      default: return "more input"
      }
    }
  }
}
