import Foundation
import StructuredQueries
@Table("categories") struct Category: Identifiable {
  var id: String = "x"; var name: String; var createdAt: Date = .init(); var updatedAt: Date = .init(); var deletedAt: Date?
}
@Table("plant_category_relations") struct PlantCategoryRelation: Identifiable {
  var id: String = "y"; var plantId: String; var categoryId: Category.ID; var createdAt: Date = .init()
}
@Table("plant_care_records") struct PlantCareRecord: Identifiable {
  var id: String = "z"; var plantId: String; var careActionId: String; var performedAt: Date = .init(); var note: String?
  var createdAt: Date = .init(); var updatedAt: Date = .init(); var deletedAt: Date? = nil
  static let all = Self.where { $0.isNotDeleted }
}
enum Projections {
  @Selection struct CategoryWithCount: Identifiable {
    let category: Category
    let plantCount: Int
    var id: String { category.id }
  }
}
extension PlantCareRecord.TableColumns {
  var isNotDeleted: some QueryExpression<Bool> { deletedAt.is(nil) }
}
