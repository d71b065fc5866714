import Foundation
import Keel
import KeelTestServer
import Testing

/// Issue 14's done-when criterion: a 50 MB upload's peak memory is under 20 MB.
///
/// The upload streams from disk with progress, and its peak memory stays under 20 MB above
/// the baseline. Measured in a `keel-bench` child
/// process (see `Sources/keel-bench/UploadBenchmark.swift`), since the tests running in
/// parallel in this process would blur the numbers.
struct UploadMemoryTests {
    @Test func aFiftyMegabyteUploadStreamsFromDiskWithinTwentyMegabytes() async throws {
        let server = try await TestServer.shared
        let fixtures = try UploadFixtures()
        let size = 50 * 1024 * 1024
        let file = try fixtures.file(named: "large.bin", size: size, seed: 50)

        let result = try await BuiltProduct.run(
            "keel-bench",
            environment: ["UPLOAD_URL": server.url("drf/attachments/").absoluteString, "UPLOAD_FILE": file.path]
        )

        try #require(result.status == 0, "\(result)")
        let line = try #require(result.stdout.split(separator: "\n").last)
        let report = try JSONValue(parsing: Data(line.utf8))
        #expect(report["bytes"] == .int(size))
        #expect(report["server_size"] == .int(size))
        #expect(report["server_sha256"] == .string(try UploadFixtures.sha256(of: file)))
        let delta = try #require(report["peak_delta_kb"]?.intValue)
        #expect(delta < 20 * 1024, "peak memory rose by \(delta) KiB: \(line)")
        #expect(report["progress_last"] == report["progress_total"])
        #expect((report["progress_events"]?.intValue ?? 0) > 10)
    }
}
