import SwiftSyntax

extension TokenSyntax {
  /// The name a declaration gives, as its callers spell it: ``func `for`(…)`` declares `for`
  /// (called `.for(schedule:)`), without the backticks that let a keyword be a name.
  ///
  /// ```swift
  /// extension Where<Performance> { func `for`(schedule id: Int) -> Self { self.where { $0.scheduleID.eq(id) } } }
  /// Performance.all.for(schedule: 3)
  /// // SELECT … FROM "performances" WHERE ("performances"."scheduleID" = 3)
  /// ```
  var declaredName: String {
    let text = self.text
    guard text.count > 2, text.hasPrefix("`"), text.hasSuffix("`") else { return text }
    return String(text.dropFirst().dropLast())
  }
}
