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
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        .target(name: "KeelSQLite", dependencies: ["Keel", "CSQLite"]),
        .executableTarget(name: "todos", dependencies: ["Keel", "KeelSQLite"]),
        .executableTarget(name: "keel-bench", dependencies: ["Keel", "KeelSQLite", "CSQLite"]),
        .target(name: "KeelTestServer", path: "Tests/KeelTestServer"),
        .testTarget(name: "KeelTests", dependencies: ["Keel", "KeelTestServer"]),
        .testTarget(name: "KeelSQLiteTests", dependencies: ["KeelSQLite", "Keel", "KeelTestServer"]),
        .testTarget(name: "TodosTests", dependencies: ["todos", "KeelTestServer"]),
    ],
    swiftLanguageModes: [.v6]
)

for target in package.targets where target.type != .system {
    var settings = target.swiftSettings ?? []
    settings.append(contentsOf: [
        .enableUpcomingFeature("ExistentialAny"),
        .enableUpcomingFeature("MemberImportVisibility"),
        .enableUpcomingFeature("InternalImportsByDefault"),
        .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
    ])
    target.swiftSettings = settings
}
