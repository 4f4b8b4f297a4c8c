// The tables of seansfkelley/MagicCardSearch (a SQLiteData app), written here from its column names:
// JSON-stored structs, optional Int64 ids, UUID keys.
import Foundation

struct Face: Codable, Hashable {
  let name: String
  let imageUris: [String: String]?
}

@Table
struct BookmarkedCard: Identifiable {
  var id: UUID
  var name: String
  var typeLine: String?
  @Column(as: Face.JSONRepresentation.self)
  var frontCardFace: Face
  @Column(as: Face?.JSONRepresentation.self)
  var backCardFace: Face?
  var setCode: String
  var collectorNumber: String
  var releasedAt: Date
  var bookmarkedAt: Date
}

@Table
struct SearchHistoryEntry: Identifiable {
  let id: Int64?
  let lastUsedAt: Date
  @Column(as: [String].JSONRepresentation.self)
  let filters: [String]
}

@Table
struct PinnedSearchEntry: Identifiable {
  let id: Int64?
  let pinnedAt: Date
  @Column(as: [String].JSONRepresentation.self)
  let filters: [String]
}

@Table
struct RecentlyViewedCard: Identifiable {
  let id: UUID
  let viewedAt: Date
  @Column(as: Face.JSONRepresentation.self)
  let frontCardFace: Face
}
