import Dispatch
import Foundation
import Keel
import Testing

@testable import KeelSQLite

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A writer killed with SIGKILL loses nothing it acknowledged and leaves no half-written
/// record.
///
/// The writer must be a separate process that really dies mid-write. `fork()` is unsafe in
/// a multithreaded test runner (the child inherits locks held by other threads, including
/// SQLite's and the Swift runtime's), and the `sqlite3` tool would not exercise this store.
/// So the test runner starts **itself** again, through `posix_spawn` (`Process`), running
/// only ``childWriterProcess()``, which is enabled by an environment variable. That child
/// opens the store and creates records in a loop, printing a line for each one `perform`
/// acknowledged; the parent reads those lines, kills the child with SIGKILL while it is
/// writing, reopens the file and checks every record.
///
/// Re-running the test binary with `--testing-library swift-testing --filter` is how
/// SwiftPM runs Swift Testing on Linux; other platforms start tests differently, so these
/// tests run on Linux only.
struct DurabilityTests {
    private static let databaseVariable = "KEEL_SQLITE_CHILD_DATABASE"
    private static let startVariable = "KEEL_SQLITE_CHILD_START"
    private static let pauseVariable = "KEEL_SQLITE_CHILD_PAUSE_AT"
    private static let inPlaceVariable = "KEEL_SQLITE_CHILD_WRITES_ON_CALLING_THREAD"
    private static let collection = "/records"

    // MARK: - The child

    /// The writer process (only enabled in a child started by the tests below).
    @Test(.enabled(if: ProcessInfo.processInfo.environment[databaseVariable] != nil))
    func childWriterProcess() async throws {
        let environment = ProcessInfo.processInfo.environment
        let path = try #require(environment[Self.databaseVariable])
        let start = environment[Self.startVariable].flatMap { Int($0) } ?? 1
        let pauseAt = environment[Self.pauseVariable].flatMap { Int($0) }
        let store = try SQLiteSync(
            fileURL: URL(filePath: path),
            writesOnCallingThread: environment[Self.inPlaceVariable] != nil,
            beforeCommit: { request in
                let n = request.body?["n"]?.intValue ?? -1
                guard n == pauseAt else {
                    // About to COMMIT: writing the WAL frames and syncing them takes a while,
                    // so a parent that kills on this line kills during the commit.
                    Self.report("COMMITTING \(n)")
                    return
                }
                // Inside the write transaction, with the record inserted but not committed:
                // tell the parent, then wait for its SIGKILL. The timeout only ends an orphan.
                Self.report("INSIDE \(n)")
                _ = DispatchSemaphore(value: 0).wait(timeout: .now() + 120)
                exit(3)
            }
        )
        // Bounded so that an orphaned child cannot run forever.
        for n in start..<(start + 20_000) {
            let response = try await store.send(.create, Self.collection, body: .object(Self.record(n)))
            Self.report("ACK \(n) \(response.body?["id"]?.intValue ?? -1)")
        }
    }

    private static func report(_ line: String) {
        FileHandle.standardOutput.write(Data("KEEL-CHILD \(line)\n".utf8))
    }

    /// Record `n`: its payload (8–32 KB, several pages) can be checked without the writer.
    static func record(_ n: Int) -> Attributes {
        let letter = Character(Unicode.Scalar(UInt8(97 + n % 26)))
        return ["n": .int(n), "payload": .string(String(repeating: letter, count: 8_000 + (n &* 7_919) % 24_000))]
    }

    // MARK: - The tests

    #if os(Linux)
        /// With `writesOnCallingThread` the writer commits on the thread that acknowledges,
        /// not on the store's queue; what it acknowledged must survive the kill all the same.
        @Test(arguments: [false, true])
        func killingAWriterMidWriteLosesNoAcknowledgedRecord(writesOnCallingThread: Bool) async throws {
            try await withTemporaryDirectory { directory in
                let file = directory.appending(path: "durable.sqlite")
                var acknowledged: [Int: Int] = [:]  // n -> id
                var next = 1
                // Each round kills the writer at another point: just after an acknowledgement
                // (as the next transaction begins) or while a COMMIT writes and syncs the WAL.
                let rounds: [Kill] = [
                    .afterAcknowledgements(3), .duringCommit(17), .afterAcknowledgements(8),
                    .duringCommit(30), .duringCommit(1), .afterAcknowledgements(12),
                ]
                for kill in rounds {
                    let run = try await runChild(
                        database: file,
                        start: next,
                        kill: kill,
                        writesOnCallingThread: writesOnCallingThread
                    )
                    acknowledged.merge(run.acknowledged) { $1 }

                    let stored = try verify(file)
                    for (n, id) in acknowledged {
                        #expect(stored[n] == id, "acknowledged record \(n) (id \(id)) is missing after the kill")
                    }
                    // Only the write in flight may have committed without its acknowledgement.
                    #expect(stored.count <= acknowledged.count + 1)
                    next = (stored.keys.max() ?? 0) + 1
                    for (n, id) in stored { acknowledged[n] = id }
                }
            }
        }

        @Test(arguments: [false, true])
        func killingAWriterInsideItsTransactionLeavesNoTrace(writesOnCallingThread: Bool) async throws {
            try await withTemporaryDirectory { directory in
                let file = directory.appending(path: "durable.sqlite")
                let run = try await runChild(
                    database: file,
                    start: 1,
                    kill: .insideTransaction(6),
                    writesOnCallingThread: writesOnCallingThread
                )
                #expect(run.acknowledged.count == 5)
                #expect(run.sawInside)

                let stored = try verify(file)
                #expect(stored == [1: 1, 2: 2, 3: 3, 4: 4, 5: 5])
                let store = try SQLiteSync(fileURL: file)
                defer { store.close() }
                let next = try await store.send(.create, Self.collection, body: .object(Self.record(6)))
                #expect(next.body?["id"] == .int(6))
            }
        }
    #endif

    // MARK: - Running and checking

    private struct ChildRun {
        var acknowledged: [Int: Int] = [:]
        var sawInside = false
    }

    /// When the parent kills the writer.
    private enum Kill {
        /// Once `count` records have been acknowledged in this run.
        case afterAcknowledgements(Int)
        /// When the writer starts committing its `offset`-th record of this run (1-based).
        case duringCommit(Int)
        /// While the writer holds the transaction of its `offset`-th record open.
        case insideTransaction(Int)
    }

    /// Starts the writer at record `start` and SIGKILLs it at the given point, on a thread of
    /// its own (see `onOwnThread(_:)`).
    private func runChild(
        database: URL,
        start: Int,
        kill point: Kill,
        writesOnCallingThread: Bool
    ) async throws -> ChildRun {
        try await onOwnThread {
            try Self.runChildBlocking(
                database: database,
                start: start,
                kill: point,
                writesOnCallingThread: writesOnCallingThread
            )
        }
    }

    private static func runChildBlocking(
        database: URL,
        start: Int,
        kill point: Kill,
        writesOnCallingThread: Bool
    ) throws -> ChildRun {
        var pauseAt: Int?
        if case .insideTransaction(let offset) = point { pauseAt = start + offset - 1 }
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let process = Process()
        process.executableURL = URL(filePath: executable)
        process.arguments = ["--testing-library", "swift-testing", "--filter", "childWriterProcess"]
        var environment = ProcessInfo.processInfo.environment
        environment[Self.databaseVariable] = database.path(percentEncoded: false)
        environment[Self.startVariable] = String(start)
        environment[Self.pauseVariable] = pauseAt.map(String.init)
        environment[Self.inPlaceVariable] = writesOnCallingThread ? "1" : nil
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()

        var run = ChildRun()
        var transcript = ""
        var buffer = Data()
        var killed = false
        let reader = output.fileHandleForReading
        // Reads to the end, also after the kill: acknowledgements the writer printed before
        // the signal landed may still be in the pipe, and they count as acknowledged.
        while true {
            let chunk = reader.availableData  // blocks until the child writes or exits
            if chunk.isEmpty { break }
            buffer.append(chunk)
            while let newline = buffer.firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                buffer.removeSubrange(buffer.startIndex...newline)
                transcript += line + "\n"
                let words = line.split(separator: " ")
                guard words.first == "KEEL-CHILD", words.count >= 2 else { continue }
                var killsNow = false
                switch (words[1], point) {
                case ("ACK", .afterAcknowledgements(let count)) where words.count == 4:
                    run.acknowledged[Int(words[2]) ?? -1] = Int(words[3]) ?? -1
                    killsNow = run.acknowledged.count >= count
                case ("ACK", _) where words.count == 4:
                    run.acknowledged[Int(words[2]) ?? -1] = Int(words[3]) ?? -1
                case ("COMMITTING", .duringCommit(let offset)):
                    killsNow = words.count == 3 && Int(words[2]) == start + offset - 1
                case ("INSIDE", _):
                    run.sawInside = true
                    killsNow = true
                default:
                    break
                }
                if killsNow && !killed {
                    kill(process.processIdentifier, SIGKILL)
                    killed = true
                }
            }
        }
        process.waitUntilExit()
        try? reader.close()
        guard killed, process.terminationReason == .uncaughtSignal, process.terminationStatus == SIGKILL else {
            throw ChildFailure(description: "the writer was not killed mid-write:\n\(transcript)")
        }
        return run
    }

    /// Reopens the file (which runs the integrity check) and returns each record's `n` and
    /// id, checking that every record is complete.
    private func verify(_ file: URL) throws -> [Int: Int] {
        #expect(try RawDatabase(path: file.path(percentEncoded: false)).column("PRAGMA integrity_check") == ["ok"])
        let store = try SQLiteSync(fileURL: file)
        defer { store.close() }
        var stored: [Int: Int] = [:]
        for record in try store.records(at: Self.collection) {
            let n = try #require(record["n"]?.intValue)
            let id = try #require(record["id"]?.intValue)
            var expected = Self.record(n)
            expected["id"] = .int(id)
            #expect(record == expected, "record \(n) is not intact")
            #expect(stored[n] == nil, "record \(n) is stored twice")
            stored[n] = id
        }
        return stored
    }

    private struct ChildFailure: Error, CustomStringConvertible {
        let description: String
    }
}
