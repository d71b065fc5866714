import Foundation
import Keel
import KeelTestServer
import Testing

/// Issue 26, item 1: a time limit ends a request with `SyncError.timedOut` every time,
/// whatever its value. Whole seconds used to hang on Linux, when Foundation's own timer and
/// Keel's fired together.
///
/// A thousand requests, with limits of 1 s, 2 s, 0.25 s and 1.5 s, go at once to a listener
/// that accepts and never answers, in a `keel-bench` child process (see
/// `Sources/keel-bench/TimeoutStress.swift`) that is killed if it outlives its limit: a
/// request that hangs fails this test instead of hanging the suite.
struct TimeoutStressTests {
    @Test func aThousandRequestsToAListenerThatNeverAnswersAllTimeOut() async throws {
        let result = try await BuiltProduct.run(
            "keel-bench",
            environment: ["TIMEOUT_STRESS": "1000"],
            limit: .seconds(30)
        )

        try #require(result.status == 0, "\(result)")
        let line = try #require(result.stdout.split(separator: "\n").last)
        let report = try JSONValue(parsing: Data(line.utf8))
        #expect(report["requests"] == 1000)
        #expect(report["timed_out"] == 1000, "\(line)")
        #expect(report["others"] == [:], "\(line)")
    }
}
