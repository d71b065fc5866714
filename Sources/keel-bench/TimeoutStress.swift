import Foundation
import Keel

/// The `timeout-stress` run: many requests at once against a listener that never answers
/// (``BlackHoleListener``), with time limits of 1 s, 2 s, 0.25 s and 1.5 s (a quarter of the
/// requests each, one ``RESTSync`` per limit), all of which must end with
/// ``SyncError/timedOut`` (issue 26).
///
///     TIMEOUT_STRESS=1000 keel-bench
///
/// Prints one JSON object: the number of requests, how many ended with `timedOut`, the
/// other outcomes by description, the latest end after a request's limit (`max_late_ms`) and
/// the whole run's time (`elapsed_ms`). Exits with status 1 unless every request timed out.
/// A request that hangs makes the run hang: run it under a time limit, as the test
/// `TimeoutStressTests` does.
struct TimeoutStress {
    /// The time limits, in the order they are handed out.
    static let limits: [Duration] = [.seconds(1), .seconds(2), .milliseconds(250), .milliseconds(1_500)]

    /// How many requests to send.
    let requests: Int

    /// The run the environment asks for, or `nil` without `TIMEOUT_STRESS`.
    init?(environment: [String: String]) {
        guard let text = environment["TIMEOUT_STRESS"], let requests = Int(text), requests > 0 else { return nil }
        self.requests = requests
    }

    /// Runs the requests and prints the report; returns the exit status.
    func runBlocking() -> Int32 {
        let run = self
        do {
            let report = try waitFor { try await run.measure() }
            print(try report.jsonString())
            return report["timed_out"] == .int(requests) ? 0 : 1
        } catch {
            log("timeout-stress FAILED: \(error)")
            return 1
        }
    }

    private func measure() async throws -> JSONValue {
        let blackHole = try BlackHoleListener()
        defer { blackHole.stop() }
        let backends = Self.limits.map { RESTSync(baseURL: blackHole.baseURL, timeout: $0) }
        let clock = ContinuousClock()
        let start = clock.now
        let outcomes = await withTaskGroup(of: (SyncError?, Duration).self) { group in
            for index in 0..<requests {
                let backend = backends[index % backends.count]
                group.addTask {
                    let sent = clock.now
                    let request = SyncRequest(method: .read, url: blackHole.baseURL.appending(path: "never/\(index)"))
                    do throws(SyncError) {
                        _ = try await backend.perform(request)
                        return (nil, clock.now - sent - backend.timeout)
                    } catch {
                        return (error, clock.now - sent - backend.timeout)
                    }
                }
            }
            var outcomes: [(SyncError?, Duration)] = []
            for await outcome in group { outcomes.append(outcome) }
            return outcomes
        }
        var others: [String: Int] = [:]
        for (error, _) in outcomes where error != .timedOut {
            others[error.map { "\($0)" } ?? "answered", default: 0] += 1
        }
        let latest = outcomes.map { $0.1 }.max() ?? .zero
        return [
            "requests": .int(requests),
            "timed_out": .int(outcomes.count { $0.0 == SyncError.timedOut }),
            "others": .object(JSONObject(others.mapValues { .int($0) })),
            "max_late_ms": .int(Int(latest / .milliseconds(1))),
            "elapsed_ms": .int(Int((clock.now - start) / .milliseconds(1))),
        ]
    }
}
