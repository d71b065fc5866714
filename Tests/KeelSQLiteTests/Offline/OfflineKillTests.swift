import Dispatch
import Foundation
import Keel
import KeelSQLite
import KeelTestServer
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A process killed with SIGKILL at a random point while it writes through `CachingSync`,
/// or while it replays the queue, loses no acknowledged write, and no create reaches the
/// server twice (the server counts them).
///
/// As in `DurabilityTests`, the test runner starts itself again to run only
/// ``offlineChildProcess()``; the parent kills it after a random delay, in many rounds,
/// then replays what is left and checks the server. Each test runs
/// `KEEL_OFFLINE_KILL_ROUNDS` rounds (100 by default, about 45 seconds);
/// `Scripts/offline-kill-test.sh` runs them alone. Linux only (see `DurabilityTests`).
struct OfflineKillTests {
    private static let modeVariable = "KEEL_OFFLINE_CHILD_MODE"
    private static let databaseVariable = "KEEL_OFFLINE_CHILD_DATABASE"
    private static let serverVariable = "KEEL_OFFLINE_CHILD_SERVER"
    private static let startVariable = "KEEL_OFFLINE_CHILD_START"

    // MARK: - The child

    /// The writer or replayer (only enabled in a child started by the tests below).
    @Test(.enabled(if: ProcessInfo.processInfo.environment[modeVariable] != nil))
    func offlineChildProcess() async throws {
        let environment = ProcessInfo.processInfo.environment
        let cache = CachingSync(
            remote: RESTSync(baseURL: URL(string: try #require(environment[Self.serverVariable]))),
            local: try SQLiteOfflineStore(fileURL: URL(filePath: try #require(environment[Self.databaseVariable])))
        )
        Self.report("READY")
        if environment[Self.modeVariable] == "replay" {
            try await cache.replay()
            Self.report("DONE")
            return
        }
        let start = environment[Self.startVariable].flatMap { Int($0) } ?? 1
        // Bounded so that an orphaned child cannot run forever.
        for n in start..<(start + 2_000) {
            _ = try await cache.perform(
                SyncRequest(method: .create, url: url("/notes"), body: ["title": .string("n\(n)")])
            )
            Self.report("ACK \(n)")
        }
    }

    private static func report(_ line: String) {
        FileHandle.standardOutput.write(Data("KEEL-CHILD \(line)\n".utf8))
    }

    // MARK: - The tests

    #if os(Linux)
        private static var rounds: Int {
            ProcessInfo.processInfo.environment["KEEL_OFFLINE_KILL_ROUNDS"].flatMap { Int($0) } ?? 100
        }

        @Test func killingAWriterAtRandomPointsLosesNoAcknowledgedWriteAndCreatesNothingTwice() async throws {
            try await withTemporaryDirectory { directory in
                let server = try await TestServer.start()
                defer { server.stop() }
                let database = directory.appending(path: "cache.sqlite")
                var acknowledged: Set<Int> = []
                var next = 1
                for _ in 0..<Self.rounds {
                    let run = try await runChild(mode: "write", database: database, server: server.baseURL, start: next)
                    acknowledged.formUnion(run.acknowledged)
                    next += 100
                }
                try await verify(server: server, database: database) { titles in
                    for n in acknowledged { #expect(titles.contains("n\(n)"), "acknowledged write \(n) was lost") }
                }
            }
        }

        @Test func killingAReplayAtRandomPointsCreatesEachQueuedRecordOnce() async throws {
            try await withTemporaryDirectory { directory in
                let server = try await TestServer.start()
                defer { server.stop() }
                let database = directory.appending(path: "cache.sqlite")
                var configuration = CachingSync.Configuration()
                configuration.sendsImmediately = false
                let queued = CachingSync(
                    remote: RESTSync(baseURL: server.baseURL),
                    local: try SQLiteOfflineStore(fileURL: database),
                    configuration: configuration
                )
                // Every round kills a replay; when one finished before its kill, the next
                // batch is queued, so each round has changes to send.
                var queuedCount = 0
                func enqueue(_ batch: Int) async throws {
                    for n in (queuedCount + 1)...(queuedCount + batch) {
                        _ = try await queued.perform(
                            SyncRequest(method: .create, url: url("/notes"), body: ["title": .string("n\(n)")])
                        )
                    }
                    queuedCount += batch
                }
                try await enqueue(100)
                var interrupted = 0
                for _ in 0..<Self.rounds {
                    let run = try await runChild(mode: "replay", database: database, server: server.baseURL, start: 0)
                    if run.finished {
                        try await enqueue(40)
                    } else {
                        interrupted += 1
                    }
                }
                #expect(interrupted > Self.rounds / 2, "only \(interrupted) replays were killed midway")
                let count = queuedCount
                try await verify(server: server, database: database) { titles in
                    #expect(Set(titles) == Set((1...count).map { "n\($0)" }))
                }
            }
        }

        /// Replays what the children left, then checks that no title is on the server twice
        /// and that the server's create count matches its records.
        private func verify(server: TestServer, database: URL, _ check: ([String]) -> Void) async throws {
            let cache = CachingSync(
                remote: RESTSync(baseURL: server.baseURL),
                local: try SQLiteOfflineStore(fileURL: database)
            )
            let report = try await cache.replay()
            #expect(report.remaining == 0 && report.stoppedBy == nil)
            let rest = RESTSync(baseURL: server.baseURL)
            let notes = try await rest.perform(SyncRequest(method: .read, url: url("/notes")))
            let titles = notes.body?.arrayValue?.compactMap { $0["title"]?.stringValue } ?? []
            #expect(titles.count == Set(titles).count, "a create reached the server twice")
            let counts = try await rest.perform(SyncRequest(method: .read, url: url("/__creates")))
            #expect(counts.body?["/notes"]?["creates"]?.intValue == titles.count)
            check(titles)
        }

        private struct ChildRun {
            var acknowledged: Set<Int> = []
            var finished = false
        }

        /// Runs one child on a thread of its own (see `onOwnThread(_:)`).
        private func runChild(mode: String, database: URL, server: URL, start: Int) async throws -> ChildRun {
            try await onOwnThread {
                try Self.runChildBlocking(mode: mode, database: database, server: server, start: start)
            }
        }

        /// Starts a child and SIGKILLs it after a random delay once it is ready.
        private static func runChildBlocking(mode: String, database: URL, server: URL, start: Int) throws -> ChildRun {
            let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
            let process = Process()
            process.executableURL = URL(filePath: executable)
            process.arguments = ["--testing-library", "swift-testing", "--filter", "offlineChildProcess"]
            var environment = ProcessInfo.processInfo.environment
            environment[Self.modeVariable] = mode
            environment[Self.databaseVariable] = database.path(percentEncoded: false)
            environment[Self.serverVariable] = server.absoluteString
            environment[Self.startVariable] = String(start)
            process.environment = environment
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()

            var run = ChildRun()
            var buffer = Data()
            var killed = false
            let reader = output.fileHandleForReading
            while true {
                let chunk = reader.availableData
                if chunk.isEmpty { break }
                buffer.append(chunk)
                while let newline = buffer.firstIndex(of: 0x0A) {
                    let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                    buffer.removeSubrange(buffer.startIndex...newline)
                    let words = line.split(separator: " ")
                    guard words.first == "KEEL-CHILD", words.count >= 2 else { continue }
                    switch words[1] {
                    case "ACK": if words.count == 3, let n = Int(words[2]) { run.acknowledged.insert(n) }
                    case "DONE": run.finished = true
                    case "READY" where !killed:
                        killed = true
                        let pid = process.processIdentifier
                        let delay = Int.random(in: 0...(mode == "write" ? 80 : 300))
                        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(delay)) {
                            // A child that has already exited and been reaped may have left its
                            // pid to another process, or to a thread of this one.
                            if process.isRunning { kill(pid, SIGKILL) }
                        }
                    default: break
                    }
                }
            }
            process.waitUntilExit()
            try? reader.close()
            return run
        }
    #endif
}
