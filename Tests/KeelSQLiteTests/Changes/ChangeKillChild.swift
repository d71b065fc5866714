import Dispatch
import Foundation
import Keel
@testable import KeelSQLite
import KeelTestServer
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The child process of ``PullKillTests`` and ``PushKillTests``: the test runner started
/// again to run only ``changeKillChildProcess()``, as `OfflineKillTests` does. It opens the
/// SQLite offline store, then pulls the Django test app's tasks once, or listens to their
/// Server-Sent Events until it has stored the event ``lastVariable`` names, and reports each
/// batch on standard output before and after it is stored (`KEEL-CHILD APPLYING <count>`,
/// `KEEL-CHILD APPLIED <cursor> <shown>`) and each change written inside the batch's
/// transaction (`KEEL-CHILD WRITTEN <n>`), so that the parent can kill it at a counted point.
struct ChangeKillChild {
    static let modeVariable = "KEEL_CHANGE_KILL_MODE"
    static let databaseVariable = "KEEL_CHANGE_KILL_DATABASE"
    static let serverVariable = "KEEL_CHANGE_KILL_SERVER"
    static let lastVariable = "KEEL_CHANGE_KILL_LAST"
    static let startVariable = "KEEL_CHANGE_KILL_START"

    /// The puller or listener (only enabled in a child started by the kill tests).
    @Test(.enabled(if: ProcessInfo.processInfo.environment[modeVariable] != nil))
    @MainActor
    func changeKillChildProcess() async throws {
        let environment = ProcessInfo.processInfo.environment
        let remote = RESTSync(baseURL: URL(string: try #require(environment[Self.serverVariable])))
        let cache = CachingSync(
            remote: remote,
            local: try SQLiteOfflineStore(fileURL: URL(filePath: try #require(environment[Self.databaseVariable]))),
            configuration: ChangeKillServer.queueingConfiguration
        )
        let last = environment[Self.lastVariable]
        let (finished, finish) = AsyncStream<Void>.makeStream()
        let receiver = ReportingReceiver(base: cache) { batch, shown in
            Self.report("APPLIED \(batch.cursor ?? "-") \(shown.count)")
            if batch.cursor == last { finish.finish() }
        }
        let store = Store(sync: receiver)
        Self.report("READY")
        ServerChangeTables.changeWritten.withLock { $0 = { Self.report("WRITTEN \($0)") } }
        if environment[Self.modeVariable] == "pull" {
            try await store.pull(DjangoTask.self, using: .djangoREST)
        } else {
            let source = StartingAt(base: ServerSentEventSource(path: ChangeKillServer.streamPath, sync: remote), eventID: environment[Self.startVariable] ?? "0")
            let listening = Task { @MainActor in try await store.listen(DjangoTask.self, to: source) }
            for await _ in finished {}
            listening.cancel()
        }
        Self.report("DONE")
    }

    static func report(_ line: String) {
        FileHandle.standardOutput.write(Data("KEEL-CHILD \(line)\n".utf8))
    }
}

/// A `CachingSync` that says what it is about to store, and what it stored, around each batch.
struct ReportingReceiver: ChangeReceiving {
    let base: CachingSync
    let stored: @Sendable (ChangeBatch, [RemoteChange]) -> Void

    var changeSource: any Sync { base.changeSource }

    func perform(_ request: SyncRequest) async throws(SyncError) -> SyncResponse { try await base.perform(request) }

    func cursor(for feed: String) async throws(SyncError) -> String? { try await base.cursor(for: feed) }

    func receive(_ batch: ChangeBatch) async throws(SyncError) -> [RemoteChange] {
        ChangeKillChild.report("APPLYING \(batch.changes.count)")
        let shown = try await base.receive(batch)
        stored(batch, shown)
        return shown
    }
}

#if os(Linux)
    extension ChangeKillChild {
        /// What the parent saw of one child.
        struct Run: Sendable {
            /// The words of each `KEEL-CHILD` line, in order.
            var lines: [[String]] = []
            var wasKilled = false

            var finished: Bool { lines.contains { $0.first == "DONE" } }

            /// The cursors of the batches the child reported stored.
            var storedCursors: [String] { lines.filter { $0.first == "APPLIED" && $0.count == 3 }.map { $0[1] } }
        }

        /// Starts a child and SIGKILLs it as soon as `killsAfter` holds for the lines it has
        /// reported (checked after each line); waits until it exits.
        static func run(
            mode: String,
            database: URL,
            server: URL,
            last: String? = nil,
            start: String? = nil,
            killsAfter: @escaping @Sendable ([[String]]) -> Bool
        ) async throws -> Run {
            try await onOwnThread {
                try runBlocking(mode: mode, database: database, server: server, last: last, start: start, killsAfter: killsAfter)
            }
        }

        private static func runBlocking(
            mode: String,
            database: URL,
            server: URL,
            last: String?,
            start: String?,
            killsAfter: ([[String]]) -> Bool
        ) throws -> Run {
            let process = Process()
            process.executableURL = URL(filePath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            process.arguments = ["--testing-library", "swift-testing", "--filter", "changeKillChildProcess"]
            var environment = ProcessInfo.processInfo.environment
            environment[modeVariable] = mode
            environment[databaseVariable] = database.path(percentEncoded: false)
            environment[serverVariable] = server.absoluteString
            environment[lastVariable] = last
            environment[startVariable] = start
            process.environment = environment
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            let pid = process.processIdentifier
            // Only a guard against a child that hangs; the test's kills are counted, not timed.
            DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(300)) {
                if process.isRunning { kill(pid, SIGKILL) }
            }

            var run = Run()
            var buffer = Data()
            let reader = output.fileHandleForReading
            while true {
                let chunk = reader.availableData
                if chunk.isEmpty { break }
                buffer.append(chunk)
                while let newline = buffer.firstIndex(of: 0x0A) {
                    let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                    buffer.removeSubrange(buffer.startIndex...newline)
                    let words = line.split(separator: " ").map(String.init)
                    guard words.first == "KEEL-CHILD", words.count >= 2 else { continue }
                    run.lines.append(Array(words.dropFirst()))
                    if !run.wasKilled && killsAfter(run.lines) {
                        run.wasKilled = true
                        // A child that has exited and been reaped may have left its pid to another process.
                        if process.isRunning { kill(pid, SIGKILL) }
                    }
                }
            }
            process.waitUntilExit()
            try? reader.close()
            return run
        }
    }
#endif
