// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Keel",
    products: [
        .library(name: "Keel", targets: ["Keel"]),
        .library(name: "KeelSQLite", targets: ["KeelSQLite"]),
        .executable(name: "todos", targets: ["todos"]),
        .executable(name: "keel-bench", targets: ["keel-bench"]),
    ],
    targets: [
        .target(name: "Keel"),
        // SQLite's C interface without its development files: the SDK's library on Apple
        // platforms, the system's libsqlite3.so.0 loaded at run time elsewhere (see
        // Sources/CKeelSQLite/include/CKeelSQLite.h), so building needs nothing installed.
        .target(
            name: "CKeelSQLite",
            linkerSettings: [
                .linkedLibrary("sqlite3", .when(platforms: [.macOS, .iOS, .tvOS, .watchOS, .visionOS, .macCatalyst])),
                .linkedLibrary("dl", .when(platforms: [.linux, .android])),
            ]
        ),
        .target(name: "KeelSQLite", dependencies: ["Keel", "CKeelSQLite"]),
        .executableTarget(name: "todos", dependencies: ["Keel", "KeelSQLite"]),
        .executableTarget(name: "keel-bench", dependencies: ["Keel", "KeelSQLite", "CKeelSQLite"]),
        .target(name: "KeelTestServer", path: "Tests/KeelTestServer"),
        .testTarget(name: "KeelTests", dependencies: ["Keel", "KeelTestServer"]),
        .testTarget(name: "KeelSQLiteTests", dependencies: ["KeelSQLite", "Keel", "CKeelSQLite", "KeelTestServer"]),
        .testTarget(name: "TodosTests", dependencies: ["todos", "KeelTestServer"]),
        .testTarget(name: "KeelBenchTests", dependencies: ["keel-bench", "Keel"]),
    ],
    swiftLanguageModes: [.v6]
)

for target in package.targets where target.name != "CKeelSQLite" {
    var settings = target.swiftSettings ?? []
    settings.append(contentsOf: [
        .enableUpcomingFeature("ExistentialAny"),
        .enableUpcomingFeature("MemberImportVisibility"),
        .enableUpcomingFeature("InternalImportsByDefault"),
        .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
    ])
    target.swiftSettings = settings
}
