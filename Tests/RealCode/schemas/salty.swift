// The tables of RMoRobert/salty (a SQLiteData recipe manager), written here from its column
// names and types: JSON-stored arrays and structs, Int-backed enums, optional dates and ids.
import Foundation

@Table("recipe")
struct Recipe: Codable, Hashable, Identifiable {
  var id: String
  var name: String = ""
  var createdDate: Date = Date(timeIntervalSince1970: 0)
  var lastPrepared: Date?
  var difficulty: Difficulty = .notSet
  var rating: Rating = .notSet
  var imageFilename: String?
  var isFavorite: Bool = false
  var servings: Int?
  var courseId: String?
  @Column(as: [Step].JSONRepresentation.self)
  var steps: [Step] = []
  @Column(as: Nutrition?.JSONRepresentation.self)
  var nutrition: Nutrition? = nil
}

struct Step: Codable, Hashable {
  var id: String
  var isHeading: Bool?
  var text: String
}

struct Nutrition: Codable, Hashable {
  var calories: Double? = nil
  var servingSize: String? = nil
}

@Table("course")
struct Course: Codable, Identifiable, Hashable {
  var id: String
  var name: String
}

@Table("category")
struct Category: Hashable, Identifiable, Codable {
  var id: String
  var name: String
}

@Table("tag")
struct Tag: Hashable, Identifiable, Codable {
  var id: String
  var name: String
}

@Table("recipeTag")
struct RecipeTag: Hashable, Identifiable, Codable {
  var id: String
  var recipeId: String
  var tagId: String
}

@Table("recipeCategory")
struct RecipeCategory: Hashable, Identifiable, Codable {
  var id: String
  var recipeId: String
  var categoryId: String
}

enum Difficulty: Int, Codable, CaseIterable, QueryBindable {
  case notSet = 0, easy, somewhatEasy, medium, slightlyDifficult, difficult
}

enum Rating: Int, CaseIterable, Identifiable, Codable, QueryBindable {
  case notSet = 0, one, two, three, four, five
  var id: Int { rawValue }
}
