import CKeelSQLite
import Foundation
import Keel
import Testing

@testable import KeelSQLite

/// Files the store cannot use are reported clearly and left exactly as they were.
struct SQLiteStoreErrorTests {
    // MARK: - Files that are not usable stores

    @Test func aTextFileIsNotADatabaseAndIsLeftUntouched() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.appending(path: "notes.sqlite")
            try Data(String(repeating: "These are my notes, not a database.\n", count: 200).utf8).write(to: file)
            let before = fileSnapshot(file)

            #expect(throws: SQLiteStoreError.notADatabase(path: file.path(percentEncoded: false))) {
                try SQLiteSync(fileURL: file)
            }
            #expect(fileSnapshot(file) == before)
        }
    }

    @Test func aDatabaseWithAGarbageHeaderIsNotADatabase() async throws {
        try await withTemporaryDirectory { directory in
            let file = try await makeStore(in: directory, records: 50)
            try overwrite(file, at: 0, count: 100)
            let before = fileSnapshot(file)

            #expect(throws: SQLiteStoreError.notADatabase(path: file.path(percentEncoded: false))) {
                try SQLiteSync(fileURL: file)
            }
            #expect(fileSnapshot(file) == before)
        }
    }

    @Test func aDatabaseWithGarbageInsideIsCorruptAndIsLeftUntouched() async throws {
        try await withTemporaryDirectory { directory in
            let file = try await makeStore(in: directory, records: 50)
            // Keep the header and the schema page; damage the b-tree pages after them.
            try overwrite(file, at: 2 * 4096, count: 3 * 4096)
            let before = fileSnapshot(file)

            let error = #expect(throws: SQLiteStoreError.self) { try SQLiteSync(fileURL: file) }
            guard case .corrupt(let path, let message) = error else {
                Issue.record("expected .corrupt, got \(String(describing: error))")
                return
            }
            #expect(path == file.path(percentEncoded: false))
            #expect(!message.isEmpty)
            #expect(fileSnapshot(file) == before)
        }
    }

    @Test func aTruncatedDatabaseIsCorruptAndIsLeftUntouched() async throws {
        try await withTemporaryDirectory { directory in
            let file = try await makeStore(in: directory, records: 50)
            let size = try #require(
                FileManager.default.attributesOfItem(atPath: file.path(percentEncoded: false))[.size] as? Int
            )
            let handle = try FileHandle(forWritingTo: file)
            try handle.truncate(atOffset: UInt64(size / 2))
            try handle.close()
            let before = fileSnapshot(file)

            let error = #expect(throws: SQLiteStoreError.self) { try SQLiteSync(fileURL: file) }
            guard case .corrupt = error else {
                Issue.record("expected .corrupt, got \(String(describing: error))")
                return
            }
            #expect(fileSnapshot(file) == before)
        }
    }

    @Test func aDatabaseFromANewerSchemaIsRefusedAndIsLeftUntouched() async throws {
        try await withTemporaryDirectory { directory in
            let file = try await makeStore(in: directory, records: 3)
            let newer = SQLiteSync.schemaVersion + 1
            try RawDatabase(path: file.path(percentEncoded: false)).execute("PRAGMA user_version = \(newer)")
            let before = fileSnapshot(file)

            #expect(throws: SQLiteStoreError.newerSchema(found: newer, supported: SQLiteSync.schemaVersion)) {
                try SQLiteSync(fileURL: file)
            }
            #expect(fileSnapshot(file) == before)
            #expect(
                try RawDatabase(path: file.path(percentEncoded: false)).column("SELECT count(*) FROM records") == ["3"]
            )
        }
    }

    @Test func anotherApplicationsDatabaseIsRefusedAndIsLeftUntouched() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.appending(path: "other.sqlite")
            let raw = RawDatabase(path: file.path(percentEncoded: false))
            try raw.execute("CREATE TABLE contacts(name TEXT); INSERT INTO contacts VALUES ('Ann')")
            let before = fileSnapshot(file)

            #expect(throws: SQLiteStoreError.foreignDatabase(path: file.path(percentEncoded: false))) {
                try SQLiteSync(fileURL: file)
            }
            #expect(fileSnapshot(file) == before)
        }
    }

    // MARK: - Paths that cannot be opened

    /// Tests run as root, which ignores file permissions (`chmod 000` does not stop it), so
    /// an unreadable path is made with a directory where the file should be, and with a
    /// regular file where a directory should be.
    @Test func aDirectoryCannotBeOpenedAsAStore() async throws {
        try await withTemporaryDirectory { directory in
            let error = #expect(throws: SQLiteStoreError.self) { try SQLiteSync(fileURL: directory) }
            guard case .cannotOpen(let path, _) = error else {
                Issue.record("expected .cannotOpen, got \(String(describing: error))")
                return
            }
            #expect(path == directory.path(percentEncoded: false))
        }
    }

    @Test func aPathBelowARegularFileCannotBeOpened() async throws {
        try await withTemporaryDirectory { directory in
            let blocker = directory.appending(path: "blocker")
            try Data("x".utf8).write(to: blocker)

            let error = #expect(throws: SQLiteStoreError.self) {
                try SQLiteSync(fileURL: blocker.appending(path: "store.sqlite"))
            }
            guard case .cannotOpen = error else {
                Issue.record("expected .cannotOpen, got \(String(describing: error))")
                return
            }
        }
    }

    /// Root can still be stopped by the immutable attribute (`chattr +i`), which makes the
    /// file system refuse writes: the store opens read-only, reads work, and a write fails
    /// with `.readOnly` instead of failing the open.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/chattr")))
    func anImmutableFileOpensReadOnly() async throws {
        try await withTemporaryDirectory { directory in
            let file = try await makeStore(in: directory, records: 1)
            let path = file.path(percentEncoded: false)
            guard try run("/usr/bin/chattr", "+i", path) else {
                // The file system or the sandbox does not support the attribute.
                return
            }
            defer { _ = try? run("/usr/bin/chattr", "-i", path) }
            let before = fileSnapshot(file)[""]

            let store = try SQLiteSync(fileURL: file)
            defer { store.close() }
            #expect(store.isReadOnly)
            let records = try store.records(at: "/notes")
            #expect(records.count == 1)
            await #expect(throws: SQLiteSync.syncError(.readOnly(path: path))) {
                try await store.send(.create, "/notes", body: ["body": "more"])
            }
            #expect(fileSnapshot(file)[""] == before)
        }
    }

    // MARK: - A full disk

    /// A full disk is simulated with `PRAGMA max_page_count`, which makes SQLite fail with
    /// `SQLITE_FULL` exactly as when the file system has no space left.
    @Test func aFullDiskFailsTheWriteAndKeepsEverythingElse() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.appending(path: "store.sqlite")
            let store = try SQLiteSync(fileURL: file)
            defer { store.close() }
            try await store.send(.create, "/notes", body: ["title": "kept"])
            let pages = try #require(store.execute("PRAGMA page_count").first?.first ?? nil)
            _ = try store.execute("PRAGMA max_page_count = \(pages)")

            let big = JSONValue.string(String(repeating: "x", count: 200_000))
            let error = await #expect(throws: SyncError.self) {
                try await store.send(.create, "/notes", body: ["title": "too big", "body": big])
            }
            #expect(error == .storage(SQLiteStoreError.diskFull(path: file.path(percentEncoded: false)).description))
            #expect(error?.description.contains("SQLITE_FULL") == true)
            #expect(try store.records(at: "/notes") == [["title": "kept", "id": 1]])

            _ = try store.execute("PRAGMA max_page_count = 1000000")
            let retried = try await store.send(.create, "/notes", body: ["title": "fits now", "body": big])
            #expect(retried.body?["id"] == .int(2))
        }
    }

    // MARK: - Error mapping

    @Test func sqliteResultCodesMapToStoreErrors() {
        func map(_ code: Int32) -> SQLiteStoreError {
            SQLiteConnection.error(code: code, message: "m", path: "/p", opening: false)
        }
        #expect(map(SQLITE_NOTADB) == .notADatabase(path: "/p"))
        #expect(map(SQLITE_CORRUPT) == .corrupt(path: "/p", message: "m"))
        #expect(map(SQLITE_FULL) == .diskFull(path: "/p"))
        #expect(map(SQLITE_READONLY) == .readOnly(path: "/p"))
        #expect(map(SQLITE_IOERR | (3 << 8)) == .ioError(path: "/p", message: "m"))
        #expect(map(SQLITE_BUSY) == .busy(path: "/p"))
        #expect(map(SQLITE_CANTOPEN) == .cannotOpen(path: "/p", message: "m"))
        #expect(map(SQLITE_MISUSE) == .sqlite(path: "/p", code: SQLITE_MISUSE, message: "m"))
    }

    @Test func everyErrorDescribesWhatHappened() {
        let errors: [SQLiteStoreError] = [
            .cannotOpen(path: "/p", message: "m"), .notADatabase(path: "/p"), .corrupt(path: "/p", message: "m"),
            .newerSchema(found: 3, supported: 1), .foreignDatabase(path: "/p"), .diskFull(path: "/p"),
            .readOnly(path: "/p"), .ioError(path: "/p", message: "m"), .busy(path: "/p"), .closed(path: "/p"),
            .sqlite(path: "/p", code: 1, message: "m"),
        ]
        for error in errors {
            #expect(!error.description.isEmpty)
        }
        #expect(SQLiteStoreError.newerSchema(found: 3, supported: 1).description.contains("newer version"))
        #expect(SQLiteStoreError.corrupt(path: "/p", message: "m").description.contains("left untouched"))
    }

    // MARK: - Helpers

    /// Creates a closed store with `records` notes (a few pages each) and returns its file.
    private func makeStore(in directory: URL, records: Int) async throws -> URL {
        let file = directory.appending(path: "store.sqlite")
        let store = try SQLiteSync(fileURL: file)
        for index in 0..<records {
            try await store.send(
                .create,
                "/notes",
                body: ["body": .string(String(repeating: "n\(index) ", count: 300))]
            )
        }
        store.close()
        return file
    }

    private func overwrite(_ file: URL, at offset: UInt64, count: Int) throws {
        let handle = try FileHandle(forWritingTo: file)
        try handle.seek(toOffset: offset)
        try handle.write(contentsOf: Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }))
        try handle.close()
    }

    private func run(_ tool: String, _ arguments: String...) throws -> Bool {
        let process = Process()
        process.executableURL = URL(filePath: tool)
        process.arguments = arguments
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}
