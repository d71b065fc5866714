import Foundation
import Keel
import Testing

@testable import KeelSQLite

/// A store whose write-ahead log still holds committed transactions (as after a crash) opens
/// with all of them; damage that would make SQLite drop some of them is refused, with a copy
/// kept aside and the files left as they were; the ordinary leftovers of a crash are not
/// damage.
///
/// Each test writes records with automatic checkpoints turned off, so every commit stays in
/// the log, and copies the database and its log while the writer is still open: the copy is
/// what a crash at that moment leaves behind.
struct WriteAheadLogTests {
    private static let pageSize = 4096
    private static let frameSize = WriteAheadLog.frameHeaderSize + pageSize

    // MARK: - Logs that are not damaged

    @Test func aPendingLogOpensWithEveryCommittedRecord() async throws {
        try await withTemporaryDirectory { directory in
            let file = try await crashedStore(in: directory, records: 30)
            #expect(try frameCount(file) > 30)
            #expect(try logBytes(file).header?.isValid == true, "the header and its checksum must decode")

            #expect(try opened(file) == Array(1...30))
            #expect(try keptCopies(in: directory).isEmpty)
        }
    }

    @Test func aLogCutOffInsideItsLastFrameIsAnOrdinaryCrash() async throws {
        try await withTemporaryDirectory { directory in
            let file = try await crashedStore(in: directory, records: 30)
            let log = logURL(file)
            let handle = try FileHandle(forWritingTo: log)
            try handle.truncate(atOffset: try handle.seekToEnd() - UInt64(Self.frameSize / 2))
            try handle.close()

            // The last commit frame is gone, so SQLite rightly drops that transaction.
            #expect(try opened(file) == Array(1...29))
            #expect(try keptCopies(in: directory).isEmpty)
        }
    }

    @Test func garbageInTheLastTransactionIsTreatedAsACommitCutShortByAPowerCut() async throws {
        try await withTemporaryDirectory { directory in
            let file = try await crashedStore(in: directory, records: 30)
            // The log's last frame is the last transaction's commit frame; damage the one
            // before it, which belongs to the same transaction.
            try scramble(logURL(file), at: frameOffset(try frameCount(file) - 1) + 100, count: 500)

            #expect(try opened(file) == Array(1...29))
            #expect(try keptCopies(in: directory).isEmpty)
        }
    }

    @Test func framesLeftFromAnEarlierPassThroughTheLogAreIgnored() async throws {
        try await withTemporaryDirectory { directory in
            let file = try await crashedStore(in: directory, records: 30, checkpointAfter: 25)
            // After the checkpoint the writer restarted the log at frame 1 with new salts, so
            // the frames of the first pass still follow the second pass's.
            let salts = try logBytes(file).salts
            let laterFrames = try (1...frameCount(file)).map { try logBytes(file).frameSalts($0) }
            #expect(laterFrames.first == salts)
            #expect(laterFrames.last != salts)

            #expect(try opened(file) == Array(1...30))
            #expect(try keptCopies(in: directory).isEmpty)
        }
    }

    @Test func aDamagedHeaderOnALogThatWasCheckpointedLosesNothing() async throws {
        try await withTemporaryDirectory { directory in
            let file = try await crashedStore(in: directory, records: 30, checkpointAfter: 30)
            try scramble(logURL(file), at: 0, count: WriteAheadLog.headerSize)

            #expect(try opened(file) == Array(1...30))
            #expect(try keptCopies(in: directory).isEmpty)
        }
    }

    // MARK: - Damage SQLite would make permanent

    @Test func garbageInAMiddleFrameIsRefusedAndKeptAside() async throws {
        try await withTemporaryDirectory { directory in
            let file = try await crashedStore(in: directory, records: 30)
            let damaged = try frameCount(file) / 2
            try scramble(logURL(file), at: frameOffset(damaged) + 200, count: 1000)
            let before = fileSnapshot(file)

            let error = #expect(throws: SQLiteStoreError.self) { try SQLiteSync(fileURL: file) }
            guard case .damagedLog(let path, let copy, let message) = error else {
                Issue.record("expected .damagedLog, got \(String(describing: error))")
                return
            }
            #expect(path == file.path(percentEncoded: false))
            #expect(message.contains("at frame \(damaged)"))
            #expect(fileSnapshot(file) == before, "the damaged files must stay exactly as they were")
            try expectCopy(at: copy, of: file, before: before, in: directory)
            #expect(error?.description.contains(copy) == true)

            // Trying again keeps the files and reuses the copy.
            #expect(throws: SQLiteStoreError.damagedLog(path: path, copy: copy, message: message)) {
                try SQLiteSync(fileURL: file)
            }
            #expect(fileSnapshot(file) == before)
            #expect(try keptCopies(in: directory).count == 1)

            // What the check prevents: SQLite itself opens a copy and quietly loses records.
            let scratch = directory.appending(path: "scratch.sqlite")
            try FileManager.default.copyItem(at: file, to: scratch)
            try FileManager.default.copyItem(at: logURL(file), to: logURL(scratch))
            let count = try RawDatabase(path: scratch.path(percentEncoded: false)).column(
                "SELECT count(*) FROM records"
            )
            #expect(count.first.flatMap { Int($0) }.map { $0 < 30 } == true, "SQLite kept \(count) records")
        }
    }

    @Test func aGarbageLogHeaderIsRefusedAndKeptAside() async throws {
        try await withTemporaryDirectory { directory in
            let file = try await crashedStore(in: directory, records: 30)
            try scramble(logURL(file), at: 0, count: WriteAheadLog.headerSize)
            let before = fileSnapshot(file)

            let error = #expect(throws: SQLiteStoreError.self) { try SQLiteSync(fileURL: file) }
            guard case .damagedLog(_, let copy, let message) = error else {
                Issue.record("expected .damagedLog, got \(String(describing: error))")
                return
            }
            #expect(message.contains("header"))
            #expect(fileSnapshot(file) == before)
            try expectCopy(at: copy, of: file, before: before, in: directory)
        }
    }

    @Test func theDamageMessageSaysWhatWasKeptAndWhatIsSafe() {
        let damage = WriteAheadLogDamage(frame: 17, droppedCommits: 12)
        let error = SQLiteStoreError.damagedLog(
            path: "/d/s.sqlite",
            copy: "/d/s.sqlite.damaged-log-1",
            message: "\(damage)"
        )
        #expect(
            error.description
                == "The write-ahead log of /d/s.sqlite is damaged: SQLite would stop replaying it at frame 17 and drop "
                + "the 12 committed transactions after that. The store was not opened and its files were left "
                + "untouched; a copy of the database and its log is in /d/s.sqlite.damaged-log-1. Restore the store "
                + "from a backup, or keep the copy: opening the store with another SQLite tool keeps only the changes "
                + "made before the damage"
        )
        #expect(WriteAheadLogDamage(frame: 0, droppedCommits: 1).description.contains("damaged header"))
    }

    // MARK: - Helpers

    /// Writes `records` records (`n` = 1, 2, …, one transaction each, a page or more each) with
    /// automatic checkpoints off, then copies the database and its log as a crash would leave them,
    /// and returns the copy.
    ///
    /// A checkpoint after record `checkpointAfter` copies the log into the database without
    /// truncating it.
    private func crashedStore(in directory: URL, records: Int, checkpointAfter: Int? = nil) async throws -> URL {
        let source = directory.appending(path: "source.sqlite")
        let store = try SQLiteSync(fileURL: source)
        defer { store.close() }
        _ = try store.execute("PRAGMA wal_autocheckpoint = 0")
        for n in 1...records {
            let body = String(repeating: "record \(n) ", count: 400)
            try await store.send(.create, "/records", body: ["n": .int(n), "body": .string(body)])
            if n == checkpointAfter {
                let result = try store.execute("PRAGMA wal_checkpoint(PASSIVE)")
                #expect(result.first?.first == "0", "the checkpoint was not complete: \(result)")
            }
        }
        let copy = directory.appending(path: "store.sqlite")
        try FileManager.default.copyItem(at: source, to: copy)
        try FileManager.default.copyItem(at: logURL(source), to: logURL(copy))
        return copy
    }

    /// Opens the store and returns the `n` of every record.
    private func opened(_ file: URL) throws -> [Int] {
        let store = try SQLiteSync(fileURL: file)
        defer { store.close() }
        return try store.records(at: "/records").compactMap { $0["n"]?.intValue }
    }

    private func expectCopy(at copy: String, of file: URL, before: [String: Data], in directory: URL) throws {
        let name = file.lastPathComponent
        #expect(try keptCopies(in: directory) == [URL(filePath: copy).lastPathComponent])
        #expect(FileManager.default.contents(atPath: copy + "/" + name) == before[""])
        #expect(FileManager.default.contents(atPath: copy + "/" + name + "-wal") == before["-wal"])
    }

    private func keptCopies(in directory: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path(percentEncoded: false))
            .filter { $0.contains(".damaged-log-") }
    }

    private func logURL(_ file: URL) -> URL {
        URL(filePath: file.path(percentEncoded: false) + "-wal")
    }

    private func logBytes(_ file: URL) throws -> WriteAheadLog {
        WriteAheadLog(bytes: [UInt8](try Data(contentsOf: logURL(file))))
    }

    private func frameCount(_ file: URL) throws -> Int {
        try logBytes(file).frameCount(pageSize: Self.pageSize)
    }

    /// Where frame `index` (1-based) starts in the log.
    private func frameOffset(_ index: Int) -> UInt64 {
        UInt64(WriteAheadLog.headerSize + (index - 1) * Self.frameSize)
    }

    private func scramble(_ file: URL, at offset: UInt64, count: Int) throws {
        let handle = try FileHandle(forWritingTo: file)
        try handle.seek(toOffset: offset)
        try handle.write(contentsOf: Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 17) }))
        try handle.close()
    }
}

extension WriteAheadLog {
    /// The salts in the header.
    fileprivate var salts: UInt64? { header?.salts }

    fileprivate func frameSalts(_ index: Int) -> UInt64 {
        frame(index, pageSize: 4096).salts
    }
}
