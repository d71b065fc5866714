import Foundation
import Keel
import Testing

@testable import KeelSQLite

/// A store this process can read but not write opens read-only: reads work, writes fail
/// with `SQLiteStoreError.readOnly` and change nothing; a store it cannot read fails to
/// open with `.permissionDenied`.
///
/// Each case runs the probe in a child process that permissions apply to, also when the
/// tests run as root (see ``UnprivilegedChild``), on a real file system.
struct ReadOnlyStoreTests {
    // MARK: - The child

    /// The probe (only enabled in a child started by the tests below).
    @Test(.enabled(if: ProcessInfo.processInfo.environment[UnprivilegedChild.pathVariable] != nil))
    func unprivilegedProbe() async throws {
        let path = try #require(ProcessInfo.processInfo.environment[UnprivilegedChild.pathVariable])
        guard UnprivilegedChild.dropPrivileges() else {
            UnprivilegedChild.report("cannot drop privileges")
            return
        }
        let file = URL(filePath: path)
        do {
            let store = try SQLiteSync(fileURL: file)
            defer { store.close() }
            UnprivilegedChild.report("sync: \(store.isReadOnly ? "read-only" : "read-write")")
            UnprivilegedChild.report("sync records: \(try store.records(at: "/notes").count)")
            do {
                try await store.send(.create, "/notes", body: ["title": "written by the child"])
                UnprivilegedChild.report("sync write: accepted")
            } catch {
                UnprivilegedChild.report("sync write: refused (\(error))")
            }
        } catch {
            UnprivilegedChild.report("sync: failed (\(error))")
        }
        do {
            let local = try SQLiteOfflineStore(fileURL: file)
            defer { local.close() }
            UnprivilegedChild.report("offline: \(local.isReadOnly ? "read-only" : "read-write")")
            UnprivilegedChild.report("offline queue: \(try await local.queuedChanges().count)")
            do {
                let create = SyncRequest(method: .create, url: url("/todos"), body: ["title": "queued by the child"])
                _ = try await local.write(create, idempotencyKey: "child", versionCheck: .none)
                UnprivilegedChild.report("offline write: accepted")
            } catch {
                UnprivilegedChild.report("offline write: refused (\(error))")
            }
        } catch {
            UnprivilegedChild.report("offline: failed (\(error))")
        }
    }

    // MARK: - The tests

    #if os(Linux)
        @Test func aFileThatCannotBeWrittenOpensReadOnlyAndRefusesWrites() async throws {
            try await withTemporaryDirectory { directory in
                let file = try await makeStores(in: directory)
                let path = file.path(percentEncoded: false)
                try UnprivilegedChild.chmod(path, 0o444)
                try UnprivilegedChild.chmod(directory.path(percentEncoded: false), UnprivilegedChild.writable)
                let before = fileSnapshot(file)[""]

                let lines = try await UnprivilegedChild.probe(path)
                expectReadOnly(lines, path: path, records: 2)
                #expect(fileSnapshot(file)[""] == before)
            }
        }

        /// Without write access to the directory SQLite cannot create the `-shm` index that
        /// reading a write-ahead-logged file needs, so the file, which no writer has open
        /// (it has no `-wal`), is read as immutable.
        @Test func aStoreInADirectoryThatCannotBeWrittenOpensReadOnly() async throws {
            try await withTemporaryDirectory { directory in
                let file = try await makeStores(in: directory)
                let path = file.path(percentEncoded: false)
                try UnprivilegedChild.chmod(path, 0o444)
                try UnprivilegedChild.chmod(directory.path(percentEncoded: false), UnprivilegedChild.searchOnly)
                defer { try? UnprivilegedChild.chmod(directory.path(percentEncoded: false), 0o755) }
                let before = fileSnapshot(file)

                let lines = try await UnprivilegedChild.probe(path)
                expectReadOnly(lines, path: path, records: 2)
                #expect(fileSnapshot(file) == before)
            }
        }

        /// A writer has the store open, and its last commit is still only in the `-wal`
        /// file: the read-only reader, which cannot write the `-shm` index, sees it.
        @Test func aReadOnlyStoreSeesWhatAnOpenWriterCommitted() async throws {
            try await withTemporaryDirectory { directory in
                let file = try await makeStores(in: directory)
                let path = file.path(percentEncoded: false)
                let writer = try SQLiteSync(fileURL: file)
                defer { writer.close() }
                try await writer.send(.create, "/notes", body: ["title": "in the log"])
                #expect(FileManager.default.fileExists(atPath: path + "-wal"))
                try UnprivilegedChild.chmod(path, 0o444)
                try UnprivilegedChild.chmod(directory.path(percentEncoded: false), UnprivilegedChild.searchOnly)
                defer { try? UnprivilegedChild.chmod(directory.path(percentEncoded: false), 0o755) }

                let lines = try await UnprivilegedChild.probe(path)
                expectReadOnly(lines, path: path, records: 3)
                let written = try writer.records(at: "/notes")
                #expect(written.count == 3)
            }
        }

        @Test func anUnreadableFileFailsToOpenWithPermissionDenied() async throws {
            try await withTemporaryDirectory { directory in
                let file = try await makeStores(in: directory)
                let path = file.path(percentEncoded: false)
                try UnprivilegedChild.chmod(path, 0o200)
                defer { try? UnprivilegedChild.chmod(path, 0o644) }
                let denied = SQLiteStoreError.permissionDenied(
                    path: path,
                    message: "the file cannot be read (permission denied)"
                )

                let lines = try await UnprivilegedChild.probe(path)
                #expect(lines == ["sync: failed (\(denied))", "offline: failed (\(denied))"])
            }
        }

        @Test func aDirectoryThatCannotBeCreatedFailsWithPermissionDenied() async throws {
            try await withTemporaryDirectory { directory in
                let locked = directory.appending(path: "locked")
                try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: false)
                let lockedPath = SQLiteFileAccess.displayPath(locked)
                try UnprivilegedChild.chmod(lockedPath, UnprivilegedChild.searchOnly)
                defer { try? UnprivilegedChild.chmod(lockedPath, 0o755) }
                let denied = SQLiteStoreError.permissionDenied(
                    path: lockedPath,
                    message: "the directory \(lockedPath)/sub cannot be created in it (permission denied)"
                )

                let lines = try await UnprivilegedChild.probe(locked.appending(path: "sub/store.sqlite").path())
                #expect(lines == ["sync: failed (\(denied))", "offline: failed (\(denied))"])
                #expect(!FileManager.default.fileExists(atPath: lockedPath + "/sub"))
            }
        }
    #endif

    @Test func anImmutableConnectionOpensAPathWithURICharacters() async throws {
        #expect(SQLiteConnection.immutableURI("/a b/?#%é.sqlite") == "file:/a%20b/%3F%23%25%C3%A9.sqlite?immutable=1")
        try await withTemporaryDirectory { directory in
            let file = directory.appending(path: "a ?#%&= b/store.sqlite")
            let store = try SQLiteSync(fileURL: file)
            try await store.send(.create, "/notes", body: ["title": "one"])
            store.close()

            let connection = try SQLiteConnection(path: file.path(percentEncoded: false), mode: .immutable)
            defer { connection.close() }
            #expect(connection.isReadOnly)
            let count = try connection.rows("SELECT count(*) FROM records")
            #expect(count == [["1"]])
        }
    }

    // MARK: - Helpers

    /// A store file with two notes (`SQLiteSync`) and one queued change
    /// (`SQLiteOfflineStore`), closed.
    private func makeStores(in directory: URL) async throws -> URL {
        let file = directory.appending(path: "store.sqlite")
        let store = try SQLiteSync(fileURL: file)
        try await store.send(.create, "/notes", body: ["title": "one"])
        try await store.send(.create, "/notes", body: ["title": "two"])
        store.close()
        let local = try SQLiteOfflineStore(fileURL: file)
        let create = SyncRequest(method: .create, url: url("/todos"), body: ["title": "queued"])
        _ = try await local.write(create, idempotencyKey: "parent", versionCheck: .none)
        local.close()
        return file
    }

    private func expectReadOnly(_ lines: [String], path: String, records: Int) {
        let refusal = SQLiteSync.syncError(.readOnly(path: path))
        #expect(
            lines == [
                "sync: read-only", "sync records: \(records)", "sync write: refused (\(refusal))",
                "offline: read-only", "offline queue: 1", "offline write: refused (\(refusal))",
            ]
        )
    }
}
