import Foundation
import StructuredQueries

  @Table struct Address: Identifiable {
    let id: UUID; var civicNumber: Int? = nil; var civicRangeFrom: Int? = nil; var civicRangeTo: Int? = nil; var suite: String? = nil
    var street = ""; var occupantName: String? = nil; var doorLatitude: Double? = nil; var doorLongitude: Double? = nil
    var postalCode: String? = nil; var notes = ""
  }
  @Table struct DeliveryPoint: Identifiable {
    let id: UUID; var stopID: Stop.ID; var moduleID: Module.ID? = nil; var kind = "roadsideBox"; var label = ""
    var isParcelLocker = false; var status = "active"; var notes = ""
  }
  @Table struct DeliveryPointAddress: Identifiable { let id: UUID; var deliveryPointID: DeliveryPoint.ID; var addressID: Address.ID }
  @Table struct AddressTag: Identifiable { let id: UUID; var addressID: Address.ID; var tagID: Tag.ID }
  @Table struct Module: Identifiable { let id: UUID; var stopID: Stop.ID; var name = ""; var sortIndex = 0.0 }
  @Table struct Route: Identifiable { let id: UUID; var name = ""; var rtaFSA = "" }
  @Table struct Stop: Identifiable {
    let id: UUID; var routeID: Route.ID; var tieOut = ""; var sortIndex = 0.0; var kind = "pointOfCall"; var displayName = ""
    var officialSiteID: String? = nil; var locationText: String? = nil; var sharesLocationWith: String? = nil
    var latitude: Double? = nil; var longitude: Double? = nil; var notes = ""
  }
  @Table struct Tag: Identifiable { let id: UUID; var name = ""; var isWarning = false }
  