import Dispatch
import Foundation
import Keel
import Testing

@testable import KeelSQLite

/// Behaviour specific to the SQLite store: persistence, the file format and its settings.
struct SQLiteSyncTests {
    @Test func recordsSurviveClosingAndReopening() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.appending(path: "notes.sqlite")
            let store = try SQLiteSync(fileURL: file)
            try await store.send(.create, "/notes", body: ["title": "A"])
            try await store.send(.create, "/notes", body: ["title": "B"])
            try await store.send(.delete, "/notes/2")
            store.close()

            let reopened = try SQLiteSync(fileURL: file)
            defer { reopened.close() }
            let next = try await reopened.send(.create, "/notes", body: ["title": "C"])
            #expect(next.body?["id"] == .int(3))
            #expect(try reopened.records(at: "/notes") == [["title": "A", "id": 1], ["title": "C", "id": 3]])
        }
    }

    @Test func openingCreatesMissingDirectories() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.appending(path: "a/b/c/store.sqlite")
            let store = try SQLiteSync(fileURL: file)
            defer { store.close() }
            try await store.send(.create, "/notes", body: [:])
            #expect(FileManager.default.fileExists(atPath: file.path(percentEncoded: false)))
        }
    }

    @Test func aNewFileUsesWriteAheadLoggingAndRecordsItsSchemaVersion() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.appending(path: "store.sqlite")
            let store = try SQLiteSync(fileURL: file)
            #expect(try store.execute("PRAGMA journal_mode") == [["wal"]])
            #expect(try store.execute("PRAGMA synchronous") == [["2"]])  // FULL
            #expect(try store.execute("PRAGMA foreign_keys") == [["1"]])
            store.close()

            let raw = RawDatabase(path: file.path(percentEncoded: false))
            #expect(try raw.column("PRAGMA user_version") == [String(SQLiteSync.schemaVersion)])
            #expect(try raw.column("PRAGMA application_id") == [String(SQLiteSchema.applicationID)])
        }
    }

    @Test func idsAreStoredAsTheirURLTextWhileTheJSONKeepsTheirType() async throws {
        let store = try SQLiteSync.inMemory()
        try await store.send(.create, "/notes", body: ["title": "A"])
        try await store.send(.create, "/notes", body: ["id": "x7"])
        try await store.send(.create, "/notes", body: ["id": 2.0])

        let rows = try store.execute("SELECT id, json FROM records ORDER BY seq")
        #expect(rows.map { $0[0] } == ["1", "x7", "2"])
        #expect(try await store.send(.read, "/notes/1").body?["id"] == .int(1))
        #expect(try await store.send(.read, "/notes/x7").body?["id"] == .string("x7"))
    }

    @Test func anUpdateUnderATakenIDIsRejectedInsteadOfDuplicatingIt() async throws {
        let store = try SQLiteSync.inMemory()
        try await store.send(.create, "/notes", body: ["id": 7])

        let error = await #expect(throws: SyncError.self) {
            try await store.send(.update, "/notes/5", body: ["id": 7])
        }
        #expect(error?.status == 422)
        #expect(try store.records(at: "/notes").count == 1)
    }

    @Test func assignedIDsSkipIDsTakenByUpserts() async throws {
        let store = try SQLiteSync.inMemory()
        try await store.send(.update, "/notes/1", body: ["title": "upserted"])
        let created = try await store.send(.create, "/notes", body: ["title": "new"])
        #expect(created.body?["id"] == .int(2))
    }

    @Test func aClosedStoreFailsClearly() async throws {
        let store = try SQLiteSync.inMemory()
        store.close()

        #expect(store.isClosed)
        let error = await #expect(throws: SyncError.self) { try await store.send(.read, "/notes") }
        #expect(error == .storage(SQLiteStoreError.closed(path: ":memory:").description))
        #expect(throws: SQLiteStoreError.closed(path: ":memory:")) { try store.records(at: "/notes") }
    }

    @Test func aRecordThatIsNotJSONIsReportedAsCorruption() async throws {
        let store = try SQLiteSync.inMemory()
        try await store.send(.create, "/notes", body: ["title": "A"])
        _ = try store.execute("UPDATE records SET json = '{\"title\": ' WHERE id = '1'")

        let error = await #expect(throws: SyncError.self) { try await store.send(.read, "/notes/1") }
        guard case .storage(let message) = error else {
            Issue.record("expected a storage failure, got \(String(describing: error))")
            return
        }
        #expect(message.contains("The record /notes/1 in :memory: is damaged: not valid JSON"))
    }

    @Test func aFailedOperationRollsBackEverything() async throws {
        let store = try SQLiteSync.inMemory()
        await #expect(throws: SyncError.self) {
            try await store.send(.create, "/notes", body: "not an object")
        }
        // The failed create left no trace, not even the collection: reading a record of it
        // is not a 404 but an empty list, as for a collection that never existed.
        #expect(try await store.send(.read, "/notes/1").body == [])
        #expect(try store.execute("SELECT count(*) FROM collections") == [["0"]])
    }

    @Test func aTaskCancelledWhileWaitingForItsTurnChangesNothing() async throws {
        // The first create stops inside its transaction until released, so the second one
        // is still waiting for its turn when its task is cancelled.
        let (entered, enteredContinuation) = AsyncStream.makeStream(of: Void.self)
        let release = DispatchSemaphore(value: 0)
        let store = try SQLiteSync(
            fileURL: FileManager.default.temporaryDirectory.appending(path: "keel-\(UUID().uuidString).sqlite"),
            beforeCommit: { request in
                guard request.body?["title"] == "first" else { return }
                enteredContinuation.yield()
                release.wait()
            }
        )
        defer {
            store.close()
            if let path = store.fileURL?.path(percentEncoded: false) {
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            }
        }

        let first = Task { try await store.send(.create, "/notes", body: ["title": "first"]) }
        var iterator = entered.makeAsyncIterator()
        await iterator.next()
        let second = Task { try await store.send(.create, "/notes", body: ["title": "second"]) }
        second.cancel()
        release.signal()

        #expect(try await first.value.body?["id"] == .int(1))
        let error = await #expect(throws: SyncError.self) { try await second.value }
        #expect(error == .cancelled)
        #expect(try store.records(at: "/notes") == [["title": "first", "id": 1]])
    }

    @Test func aCancelledTaskChangesNothingInAnInMemoryStore() async throws {
        // In memory, an operation runs on the calling thread: a task cancelled before it
        // calls the store still runs nothing.
        let store = try SQLiteSync.inMemory()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await store.send(.create, "/notes", body: ["title": "never"])
        }
        let error = await #expect(throws: SyncError.self) { try await task.value }
        #expect(error == .cancelled)
        #expect(try store.records(at: "/notes") == [])
    }

    @Test func anInMemoryStoreAnswersWithoutSuspendingItsCaller() async throws {
        // A trip through a queue suspends the caller and resumes it on its executor; in
        // memory the operations run on the calling thread, so the task is never re-enqueued.
        let store = try SQLiteSync.inMemory()
        let executor = CountingTaskExecutor()
        let (resumptions, id) = try await Task(executorPreference: executor) {
            let before = executor.jobCount
            let created = try await store.perform(
                SyncRequest(method: .create, url: URL(string: "/notes")!, body: ["title": "here"])
            )
            let read = try await store.perform(SyncRequest(method: .read, url: URL(string: "/notes/1")!))
            #expect(read.body?["title"] == "here")
            return (executor.jobCount - before, created.body?["id"])
        }.value
        #expect(resumptions == 0)
        #expect(id == 1)
    }

    @Test func aFileStoreSuspendsItsCallerWhileItsQueueWorks() async throws {
        try await withTemporaryDirectory { directory in
            let store = try SQLiteSync(fileURL: directory.appending(path: "store.sqlite"))
            defer { store.close() }
            let executor = CountingTaskExecutor()
            let resumptions = try await Task(executorPreference: executor) {
                let before = executor.jobCount
                try await store.send(.create, "/notes", body: ["title": "queued"])
                return executor.jobCount - before
            }.value
            #expect(resumptions >= 1)
        }
    }
}
