// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "Quarry",
  platforms: [.macOS(.v13)],
  products: [
    .executable(name: "quarry", targets: ["quarry"])
  ],
  dependencies: [
    .package(url: "https://github.com/swiftlang/swift-syntax", exact: "603.0.1"),
    .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
    .package(url: "https://github.com/pointfreeco/swift-snapshot-testing", exact: "1.19.7"),
  ],
  targets: [
    // System libraries.
    .systemLibrary(
      name: "CSQLite", pkgConfig: "sqlite3",
      providers: [.apt(["libsqlite3-dev"])]),
    .systemLibrary(
      name: "CEditLine", pkgConfig: "libedit",
      providers: [.apt(["libedit-dev"])]),

    // Stage 1: pure query builder (statements and expressions -> SQL text + bindings).
    .target(name: "QueryBuilder"),
    // Stage 2: DSL front end (swift-syntax tree -> builder values, with diagnostics).
    .target(
      name: "QuarryDSL",
      dependencies: [
        "QueryBuilder",
        .product(name: "SwiftParser", package: "swift-syntax"),
        .product(name: "SwiftSyntax", package: "swift-syntax"),
        .product(name: "SwiftOperators", package: "swift-syntax"),
        .product(name: "SwiftIfConfig", package: "swift-syntax"),
      ]),
    // Stage 3: SQLite I/O and schema introspection.
    .target(name: "QuarryEngine", dependencies: ["CSQLite", "QueryBuilder"]),
    // Stage 4: sessions, fixtures, lessons, output formatting.
    .target(
      name: "Workbench",
      dependencies: [
        "QueryBuilder", "QuarryDSL", "QuarryEngine",
        .product(name: "SwiftParser", package: "swift-syntax"),
        .product(name: "SwiftSyntax", package: "swift-syntax"),
      ]),
    // Stage 5: the command line and the terminal.
    .executableTarget(
      name: "quarry",
      dependencies: [
        "Workbench", "QuarryEngine", "QuarryDSL", "QueryBuilder", "CEditLine",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      linkerSettings: [
        // Start-up time (`make bench`: startup_ratio_vs_sqlite3): a position-dependent executable
        // has no 100,000 relocations to apply at load, and keeping its symbols out of the dynamic
        // symbol table (the static Swift runtime exports them) keeps symbol lookups short.
        // Release only, which is built with --static-swift-stdlib (`make bench`); against the
        // shared Swift runtime of debug builds the loader warns about a non-PIE executable.
        .unsafeFlags(
          ["-Xclang-linker", "-no-pie", "-Xlinker", "--no-export-dynamic"],
          .when(configuration: .release)),
        // A release build is one static executable: no dynamic loader at start-up (it spent
        // ~1.8 ms of a 4.4 ms point query resolving libstdc++'s, SQLite's and libedit's symbols;
        // `make bench`: point_query_ratio_vs_sqlite3). libedit's own dependencies come along.
        .unsafeFlags(["-static-executable"], .when(configuration: .release)),
        // The functions start-up runs, side by side (`make startup-order` lists them): a short
        // process faults its code in by 64 KB windows, and its ~1,000 functions lie spread over
        // ~150 of them. gold moves those with a section of their own (about a third: the rest
        // share their object's .text); that alone took 0.26–0.42 ms off a point query
        // (`make bench`: point_query_ratio_vs_sqlite3).
        .unsafeFlags(
          ["-Xlinker", "--section-ordering-file=\(Context.packageDirectory)/link/startup-order.txt"],
          .when(configuration: .release)),
        .linkedLibrary("tinfo", .when(configuration: .release)),
        .linkedLibrary("bsd", .when(configuration: .release)),
        .linkedLibrary("md", .when(configuration: .release)),
      ]),
    // Release-mode benchmark harness (`make bench`).
    .executableTarget(
      name: "QuarryBench",
      dependencies: [
        "Workbench", "QuarryDSL", "QueryBuilder",
        .product(name: "SwiftParser", package: "swift-syntax"),
      ]),

    .testTarget(
      name: "QueryBuilderTests",
      dependencies: ["QueryBuilder"]),
    .testTarget(
      name: "QuarryDSLTests",
      dependencies: [
        "QuarryDSL", "Workbench", "QuarryEngine", "QueryBuilder",
        .product(name: "InlineSnapshotTesting", package: "swift-snapshot-testing"),
        .product(name: "SwiftParser", package: "swift-syntax"),
        .product(name: "SwiftSyntax", package: "swift-syntax"),
      ],
      exclude: ["SwiftSemantics", "SwiftContexts"]),
    .testTarget(
      name: "WorkbenchTests",
      dependencies: [
        "Workbench",
        "QuarryDSL",
        .product(name: "InlineSnapshotTesting", package: "swift-snapshot-testing"),
      ]),
    .testTarget(
      name: "EndToEndTests",
      dependencies: ["Workbench"],
      exclude: ["conformance-baseline.txt"]),
  ]
)
