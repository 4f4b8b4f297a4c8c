/// StructuredQueries' naming rules, and their inverse for tables found only in the database.
///
/// ```swift
/// Inflection.tableName(forType: "RemindersList")  // "remindersLists"
/// Inflection.tableName(forType: "Category")       // "categories"
/// Inflection.typeName(forTable: "remindersLists") // "RemindersList"
/// ```
public enum Inflection {
  /// `Reminder` → `reminders`, `RT` → `rTs`, `Match` → `matches`.
  public static func tableName(forType name: String) -> String {
    pluralized(lowerCamelCased(name))
  }

  /// Leading capitals lowercased, keeping the last of a run as the start of the next word.
  public static func lowerCamelCased(_ name: String) -> String {
    let capitals = name.prefix(while: \.isUppercase)
    let count = capitals.count > 1 ? capitals.count - 1 : capitals.count
    return name.prefix(count).lowercased() + name.dropFirst(count)
  }

  /// StructuredQueries' rule: `ch`, `sh`, `s`, `x`, `z` take `es` (`Box` → `boxes`, `Counts` →
  /// `countses`); a `y` after a consonant becomes `ies` (`Category` → `categories`), after a
  /// vowel takes `s` (`Day` → `days`); anything else takes `s`.
  public static func pluralized(_ word: String) -> String {
    if word.hasSuffix("ch") || word.hasSuffix("sh") || word.hasSuffix("s") || word.hasSuffix("x") || word.hasSuffix("z") {
      return word + "es"
    }
    if word.hasSuffix("y") {
      let before = word.dropLast().last
      if let before, "aeiouy".contains(before) { return word + "s" }
      return word.dropLast() + "ies"
    }
    return word + "s"
  }

  /// The type name a table is known by when no model declares it: singular UpperCamelCase.
  public static func typeName(forTable table: String) -> String {
    var word = table
    if word.hasSuffix("ies") {
      word = word.dropLast(3) + "y"
    } else if word.hasSuffix("ches") || word.hasSuffix("shes") || word.hasSuffix("sses") || word.hasSuffix("xes") || word.hasSuffix("zes") {
      word = String(word.dropLast(2))
    } else if word.hasSuffix("s") && !word.hasSuffix("ss") {
      word = String(word.dropLast())
    }
    var result = ""
    var upperNext = true
    for character in word {
      if character == "_" || character == " " || character == "-" {
        upperNext = true
        continue
      }
      result.append(upperNext ? Character(character.uppercased()) : character)
      upperNext = false
    }
    return result
  }
}
