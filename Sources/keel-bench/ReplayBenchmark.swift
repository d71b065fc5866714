import Foundation
import Keel
import KeelSQLite

/// The `replay` run: the throughput of replaying queued writes to a real server (issue 15).
///
///     REPLAY_URL=http://127.0.0.1:8000 [REPLAY_WRITES=1000] [REPS=1] keel-bench
///
/// `Benchmarks/replay.sh` starts the test server (`Tests/Server/serve.py`) and runs it.
/// Each repetition queues `REPLAY_WRITES` creates of `/notes` offline in a new
/// `CachingSync` (a `SQLiteOfflineStore` in a temporary directory, `sendsImmediately`
/// off), then times `replay()`. Its floors send the same creates as POSTs directly through
/// one `RESTSync`, one at a time: first each with an `Idempotency-Key` (the server does what
/// it does for a replay: it looks the key up and stores the response), then without one.
/// The server's `/__creates` counts must grow by exactly `REPLAY_WRITES` creates and no
/// replays in each of the three. Prints one JSON object with the medians; exits with
/// status 1 when a count or a report is wrong.
///
/// `REPLAY_URL=loopback` runs against keel-bench's own server instead (``ReplayServer``),
/// which spends `REPLAY_SERVER_US` microseconds (default 1,000) on each create, so that the
/// replay's own cost shows beside a server of known speed.
struct ReplayBenchmark {
    /// The server's root URL; `nil` for keel-bench's own server.
    private(set) var baseURL: URL?
    /// How many creates each repetition queues and sends.
    let writes: Int
    /// How many times each of the three is measured.
    let repetitions: Int
    /// The work keel-bench's own server does per create.
    let serverWork: Duration

    /// The run the environment asks for, or `nil` without `REPLAY_URL`.
    init?(environment: [String: String]) {
        guard let target = environment["REPLAY_URL"] else { return nil }
        if target != "loopback" {
            guard let url = URL(string: target) else { return nil }
            baseURL = url
        }
        writes = environment["REPLAY_WRITES"].flatMap(Int.init) ?? 1_000
        repetitions = max(1, environment["REPS"].flatMap(Int.init) ?? 1)
        serverWork = .microseconds(environment["REPLAY_SERVER_US"].flatMap(Int.init) ?? 1_000)
    }

    /// Runs the measurement and prints the report; returns the exit status.
    func runBlocking() -> Int32 {
        var run = self
        do {
            let server = try baseURL == nil ? ReplayServer.start(work: serverWork) : nil
            defer { server?.stop() }
            run.baseURL = run.baseURL ?? server?.baseURL
            let measured = run
            print(try waitFor { try await measured.measure().jsonString(options: .prettyPrinted) })
            return 0
        } catch {
            log("replay FAILED: \(error)")
            return 1
        }
    }

    /// The server's root URL, once ``runBlocking()`` has one.
    private var root: URL { baseURL ?? URL(fileURLWithPath: "/") }

    private var notes: URL { root.appendingPathComponent("notes") }

    private func measure() async throws -> JSONValue {
        let remote = RESTSync(baseURL: root)
        let direct = RESTSync(baseURL: root)
        // One request each first, so that both start with an open connection.
        _ = try await creates(through: remote)
        _ = try await creates(through: direct)
        var queued: [Duration] = []
        var replayed: [Duration] = []
        var keyed: [Duration] = []
        var plain: [Duration] = []
        for repetition in 0..<repetitions {
            log("replay: repetition \(repetition + 1) of \(repetitions)")
            let (queueTime, replayTime) = try await replayQueue(repetition: repetition, remote: remote)
            queued.append(queueTime)
            replayed.append(replayTime)
            keyed.append(try await sendDirectly(repetition: repetition, through: direct, keyed: true))
            plain.append(try await sendDirectly(repetition: repetition, through: direct, keyed: false))
        }
        let replay = Self.median(replayed)
        let floor = Self.median(keyed)
        return [
            "writes": .int(writes),
            "reps": .int(repetitions),
            "queue_ms": .array(queued.map { .double($0.milliseconds) }),
            "replay_ms": .array(replayed.map { .double($0.milliseconds) }),
            "floor_keyed_ms": .array(keyed.map { .double($0.milliseconds) }),
            "floor_plain_ms": .array(plain.map { .double($0.milliseconds) }),
            "replay_writes_per_sec": .double(Double(writes) / replay * 1_000),
            "floor_keyed_writes_per_sec": .double(Double(writes) / floor * 1_000),
            "floor_plain_writes_per_sec": .double(Double(writes) / Self.median(plain) * 1_000),
            "replay_over_floor_keyed": .double(replay / floor),
        ]
    }

    /// Queues the creates offline, then times one `replay()` that sends them all.
    private func replayQueue(repetition: Int, remote: RESTSync) async throws -> (queue: Duration, replay: Duration) {
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        let local = try SQLiteOfflineStore(fileURL: directory.databaseFile)
        defer { local.close() }
        var configuration = CachingSync.Configuration()
        configuration.sendsImmediately = false
        let cache = CachingSync(remote: remote, local: local, configuration: configuration)
        let clock = ContinuousClock()
        let queueStart = clock.now
        for i in 0..<writes {
            _ = try await cache.perform(SyncRequest(method: .create, url: notes, body: body(repetition, i, "replay")))
        }
        let queueTime = queueStart.duration(to: clock.now)
        try expect(try await cache.queuedChanges().count == writes, "not every create was queued")

        let before = try await creates(through: remote)
        let start = clock.now
        let report = try await cache.replay()
        let replayTime = start.duration(to: clock.now)
        try expect(report.stoppedBy == nil, "the replay stopped: \(String(describing: report.stoppedBy))")
        try expect(report.sent.count == writes && report.failures.isEmpty, "the replay sent \(report.sent.count)")
        try expect(report.remaining == 0, "\(report.remaining) changes are still queued")
        try await expectCreates(since: before, through: remote, what: "the replay")
        return (queueTime, replayTime)
    }

    /// Times the same creates sent one by one as POSTs, with or without idempotency keys.
    private func sendDirectly(repetition: Int, through sync: RESTSync, keyed: Bool) async throws -> Duration {
        let before = try await creates(through: sync)
        let clock = ContinuousClock()
        let start = clock.now
        for i in 0..<writes {
            let headers = keyed ? [CachingSync.idempotencyKeyHeader: UUID().uuidString] : [:]
            _ = try await sync.perform(
                SyncRequest(method: .create, url: notes, body: body(repetition, i, "direct"), headers: headers)
            )
        }
        let elapsed = start.duration(to: clock.now)
        try await expectCreates(since: before, through: sync, what: keyed ? "the keyed floor" : "the plain floor")
        return elapsed
    }

    private func body(_ repetition: Int, _ i: Int, _ kind: String) -> JSONValue {
        ["title": .string("\(kind) \(repetition)-\(i)"), "done": .bool(i % 2 == 0)]
    }

    /// The server's counts for `/notes`: creates that ran, and creates answered from a
    /// stored idempotency key.
    private func creates(through sync: RESTSync) async throws -> (creates: Int, replays: Int) {
        let response = try await sync.perform(
            SyncRequest(method: .read, url: root.appendingPathComponent("__creates"))
        )
        let counts = response.body?["/notes"]
        return (counts?["creates"]?.intValue ?? 0, counts?["replays"]?.intValue ?? 0)
    }

    private func expectCreates(
        since before: (creates: Int, replays: Int),
        through sync: RESTSync,
        what: String
    ) async throws {
        let after = try await creates(through: sync)
        try expect(
            after.creates - before.creates == writes && after.replays == before.replays,
            "\(what): the server counted \(after.creates - before.creates) creates and "
                + "\(after.replays - before.replays) replays, expected \(writes) and 0"
        )
    }

    private static func median(_ times: [Duration]) -> Double {
        let sorted = times.map(\.milliseconds).sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}
