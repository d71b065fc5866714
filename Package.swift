// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Keel",
    products: [
        .library(name: "Keel", targets: ["Keel"])
    ],
    targets: [
        .target(name: "Keel"),
        .testTarget(name: "KeelTests", dependencies: ["Keel"]),
    ],
    swiftLanguageModes: [.v6]
)

for target in package.targets {
    var settings = target.swiftSettings ?? []
    settings.append(contentsOf: [
        .enableUpcomingFeature("ExistentialAny"),
        .enableUpcomingFeature("MemberImportVisibility"),
        .enableUpcomingFeature("InternalImportsByDefault"),
        .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
    ])
    target.swiftSettings = settings
}
