import SwiftIfConfig
import SwiftSyntax

/// The one build of the app Quarry reads `#if` for: a **debug build for the iOS simulator on
/// arm64** (Swift 6, language mode 6). `DEBUG` is set; `os(iOS)`, `arch(arm64)`,
/// `targetEnvironment(simulator)` and `_runtime(_ObjC)` hold; `canImport` holds for Apple's
/// frameworks and the libraries SQLiteData apps use. Conditions are decided by swift-syntax's
/// `SwiftIfConfig`, as the compiler decides them.
///
/// ```swift
/// #if DEBUG || os(macOS)   // taken
/// #if os(Linux)            // not taken: #else
/// ```
struct AppBuildConfiguration: BuildConfiguration {
  static let shared = AppBuildConfiguration()

  /// Modules `canImport` finds.
  static let importable: Set<String> = [
    "Swift", "Foundation", "SwiftUI", "UIKit", "Combine", "Observation", "CloudKit", "CoreData", "os", "OSLog",
    "Darwin", "Dispatch", "MapKit", "CoreLocation", "Charts", "UniformTypeIdentifiers", "AppIntents", "WidgetKit",
    "SQLiteData", "SharingGRDB", "GRDB", "StructuredQueries", "StructuredQueriesCore", "StructuredQueriesSQLite",
    "Dependencies", "DependenciesMacros", "Sharing", "IssueReporting", "CasePaths", "IdentifiedCollections",
    "Perception", "SwiftNavigation", "SwiftUINavigation", "UIKitNavigation", "Tagged", "ComposableArchitecture",
    "CustomDump", "InlineSnapshotTesting", "SnapshotTesting", "XCTest", "Testing", "Synchronization",
  ]

  func isCustomConditionSet(name: String) throws -> Bool { name == "DEBUG" }
  func hasFeature(name: String) throws -> Bool { false }
  func hasAttribute(name: String) throws -> Bool { true }
  func canImport(importPath: [(TokenSyntax, String)], version: CanImportVersion) throws -> Bool {
    guard let first = importPath.first?.1 else { return false }
    return Self.importable.contains(first)
  }
  func isActiveTargetOS(name: String) throws -> Bool { name == "iOS" }
  func isActiveTargetArchitecture(name: String) throws -> Bool { name == "arm64" }
  func isActiveTargetEnvironment(name: String) throws -> Bool { name == "simulator" }
  func isActiveTargetRuntime(name: String) throws -> Bool { name == "_ObjC" || name == "_Native" }
  func isActiveTargetPointerAuthentication(name: String) throws -> Bool { false }
  func isActiveTargetObjectFormat(name: String) throws -> Bool { name == "MachO" }
  var targetPointerBitWidth: Int { 64 }
  var targetAtomicBitWidths: [Int] { [32, 64, 128] }
  var endianness: Endianness { .little }
  var languageVersion: VersionTuple { VersionTuple(6, 0) }
  var compilerVersion: VersionTuple { VersionTuple(6, 1) }

  /// The clause of `#if` this build compiles (nil: none).
  static func activeClause(of conditional: IfConfigDeclSyntax) -> IfConfigClauseSyntax? {
    conditional.activeClause(in: shared).clause
  }
}

extension MemberBlockSyntax {
  /// The members the app's build compiles: `#if` blocks among them replaced by their active
  /// clause's members (``AppBuildConfiguration``), nested `#if`s too.
  ///
  /// ```swift
  /// @Table struct Note {
  ///   let id: Int
  ///   #if DEBUG
  ///   var debugInfo = ""   // a column: the build is a debug build
  ///   #endif
  /// }
  /// ```
  var activeMembers: [MemberBlockItemSyntax] {
    var out: [MemberBlockItemSyntax] = []
    func add(_ items: MemberBlockItemListSyntax) {
      for item in items {
        guard let conditional = item.decl.as(IfConfigDeclSyntax.self) else {
          out.append(item)
          continue
        }
        if case .decls(let members)? = AppBuildConfiguration.activeClause(of: conditional)?.elements { add(members) }
      }
    }
    add(members)
    return out
  }
}
