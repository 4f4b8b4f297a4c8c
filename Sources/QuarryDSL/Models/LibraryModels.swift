import QueryBuilder
import SwiftParser
import SwiftSyntax

/// Tables the libraries declare, so an app's queries of them compile as the app's do: SQLiteData's
/// `SyncMetadata` (its CloudKit synchronization metadata), declared here with the columns and
/// column helpers SQLiteData gives it, and read when an input names it without declaring it.
///
/// ```swift
/// RemindersList.leftJoin(SyncMetadata.all) { $0.syncMetadataID.eq($1.id) }
/// // … LEFT JOIN "sqlitedata_icloud_metadata" ON ("remindersLists"."id", ?) = ("sqlitedata_icloud_metadata"."recordPrimaryKey", "sqlitedata_icloud_metadata"."recordType")
/// ```
enum LibraryModels {
  /// SQLiteData's `SyncMetadata` (its `CKRecord`/`CKShare` columns stored as their archived bytes).
  static let syncMetadata = #"""
    @Table("sqlitedata_icloud_metadata")
    struct SyncMetadata: Hashable, Identifiable {
      @Selection struct ID: Hashable {
        let recordPrimaryKey: String
        let recordType: String
      }
      let id: ID
      let zoneName: String
      let ownerName: String
      @Column(generated: .virtual)
      let recordName: String
      @Selection struct ParentID: Hashable {
        let parentRecordPrimaryKey: String
        let parentRecordType: String
      }
      let parentRecordID: ParentID?
      @Column(generated: .virtual)
      let parentRecordName: String?
      let lastKnownServerRecord: Data?
      let _lastKnownServerRecordAllFields: Data?
      let share: Data?
      let _isDeleted: Bool
      @Column("hasLastKnownServerRecord", generated: .virtual)
      let _hasLastKnownServerRecord: Bool
      @Column("isShared", generated: .virtual)
      let _isShared: Bool
      let userModificationTime: Int64
    }
    extension SyncMetadata.TableColumns {
      var recordPrimaryKey: TableColumn<SyncMetadata, String> { id.recordPrimaryKey }
      var recordType: TableColumn<SyncMetadata, String> { id.recordType }
      var parentRecordPrimaryKey: TableColumn<SyncMetadata, String?> { parentRecordID.parentRecordPrimaryKey }
      var parentRecordType: TableColumn<SyncMetadata, String?> { parentRecordID.parentRecordType }
      var hasLastKnownServerRecord: some QueryExpression<Bool> {
        #sql("((\(self._hasLastKnownServerRecord) = 1) AND (\(self.lastKnownServerRecord) OR 1))")
      }
      var isShared: some QueryExpression<Bool> {
        #sql("((\(self._isShared) = 1) AND (\(self.share) OR 1))")
      }
    }
    """#

  /// The table SQLiteData's sync engine keeps the metadata in (in a database of its own that it
  /// attaches; here a temporary table, so queries of it prepare and run).
  static let syncMetadataTable = """
    CREATE TEMP TABLE IF NOT EXISTS "sqlitedata_icloud_metadata" ("recordPrimaryKey" TEXT NOT NULL, "recordType" TEXT NOT NULL, \
    "recordName" TEXT NOT NULL AS ("recordPrimaryKey" || ':' || "recordType"), "zoneName" TEXT NOT NULL, "ownerName" TEXT NOT NULL, \
    "parentRecordPrimaryKey" TEXT, "parentRecordType" TEXT, "parentRecordName" TEXT AS ("parentRecordPrimaryKey" || ':' || "parentRecordType"), \
    "lastKnownServerRecord" BLOB, "_lastKnownServerRecordAllFields" BLOB, "share" BLOB, \
    "hasLastKnownServerRecord" INTEGER NOT NULL AS ("lastKnownServerRecord" IS NOT NULL), "isShared" INTEGER NOT NULL AS ("share" IS NOT NULL), \
    "userModificationTime" INTEGER NOT NULL DEFAULT 0, "_isDeleted" INTEGER NOT NULL DEFAULT 0, \
    PRIMARY KEY ("recordPrimaryKey", "recordType"), UNIQUE ("recordName"))
    """

  /// Whether `text` names `SyncMetadata`: a byte search, on every input (the standard
  /// library's `contains` would instantiate string processing on the first one).
  static func mentionsSyncMetadata(_ text: String) -> Bool {
    ByteSearch.contains("SyncMetadata", in: text)
  }
}

extension Compiler {
  /// Declares SQLiteData's `SyncMetadata` (for an input that names it without declaring it)
  /// unless an earlier input declared one; its table is made (temporary) by the statement this
  /// returns.
  func declareLibraryModels() -> String? {
    guard catalog.table(forType: "SyncMetadata") == nil else { return nil }
    let tree = Parser.parse(source: LibraryModels.syncMetadata)
    let unit = SourceUnit(text: LibraryModels.syncMetadata, tree: tree)
    let reader = DeclarationReader(catalog: catalog, source: unit)
    for item in tree.statements {
      guard case .decl(let decl) = item.item else { continue }
      do { try reader.read(decl) } catch { return nil }
    }
    return LibraryModels.syncMetadataTable
  }

  /// `$0.syncMetadataID` of a table with a primary key: SQLiteData's
  /// `#sql("\(primaryKey), \(bind: tableName)")`, compared with `SyncMetadata.id`.
  func syncMetadataID(of table: TableInstance) -> Value? {
    guard catalog.table(forType: "SyncMetadata") != nil, let key = table.model.primaryKey else { return nil }
    return .expression(
      TypedExpression(
        Expression(.sql([.expression(table.column(key).expression), .text(", "), .expression(.value(.text(table.model.tableName)))])),
        type: SwiftType("SyncMetadata.ID")))
  }
}
