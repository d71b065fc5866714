import Foundation
import Keel
import Testing

@testable import KeelSQLite

/// A second store opened on a file this process already has open leaves SQLite's locks on
/// it in place: another process that opens and closes the file does not take itself for
/// the last connection and delete the write-ahead log under this process's connections.
struct OpenStoreFileLockTests {
    @Test func anotherProcessDoesNotDeleteTheLogOfAFileThisProcessHasOpenTwice() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.appending(path: "store.sqlite")
            let first = try SQLiteSync(fileURL: file)
            defer { first.close() }
            _ = try await first.perform(SyncRequest(method: .create, url: URL(filePath: "/notes"), body: ["title": "a"]))
            let log = file.path(percentEncoded: false) + "-wal"
            #expect(FileManager.default.fileExists(atPath: log))

            let second = try SQLiteSync(fileURL: file)
            defer { second.close() }
            #expect(OpenStoreFiles.isOpen(file.path(percentEncoded: false)))
            // Python's sqlite3 closes its connection as the last one would if it could take
            // the exclusive lock: it checkpoints and deletes the log.
            let script = """
                import sqlite3, sys
                connection = sqlite3.connect(sys.argv[1])
                connection.execute("SELECT count(*) FROM sqlite_master").fetchall()
                connection.close()
                """
            #expect(try await onOwnThread { try Self.run("/usr/bin/env", "python3", "-c", script, file.path(percentEncoded: false)) })

            #expect(FileManager.default.fileExists(atPath: log), "the log of a file open here was deleted by another process")
            let notes = try await second.perform(SyncRequest(method: .read, url: URL(filePath: "/notes")))
            #expect(notes.body?.arrayValue?.count == 1)
        }
    }

    @Test func closingEveryConnectionForgetsTheFile() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.appending(path: "store.sqlite")
            let path = file.path(percentEncoded: false)
            let first = try SQLiteSync(fileURL: file)
            let second = try SQLiteSync(fileURL: file)
            first.close()
            #expect(OpenStoreFiles.isOpen(path))
            second.close()
            #expect(!OpenStoreFiles.isOpen(path))
        }
    }

    private static func run(_ tool: String, _ arguments: String...) throws -> Bool {
        let process = Process()
        process.executableURL = URL(filePath: tool)
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}
