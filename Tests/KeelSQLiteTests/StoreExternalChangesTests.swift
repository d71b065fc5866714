import Foundation
import KeelSQLite
import Testing

@testable import Keel

/// A live query over a SQLite file sees what another connection commits to the file, and
/// reads nothing again while nothing changed.
///
/// The other writer is a second `SQLiteSync` on the same file: SQLite's `data_version`
/// changes for commits of any other connection, whether in this process or another (the
/// `todos watch` tests run two processes).
@MainActor
struct StoreExternalChangesTests {
    @Test func aCommitOfAnotherConnectionReachesAQueryKeptLoaded() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.appending(path: "notes.sqlite")
            let store = try Store.sqlite(fileURL: file)
            store.externalChangeInterval = .milliseconds(20)
            let other = try SQLiteSync(fileURL: file)
            _ = try await other.perform(SyncRequest(method: .create, url: url("/notes"), body: ["title": "Milk"]))
            let notes = store.query(Note.self, sort: .attribute("title"))
            var snapshots = notes.snapshots.makeAsyncIterator()
            let keeper = Task { await notes.keepLoaded() }
            while let snapshot = await snapshots.next(), snapshot.count != 1 {}
            _ = try await other.perform(SyncRequest(method: .create, url: url("/notes"), body: ["title": "Eggs"]))
            while let snapshot = await snapshots.next(), snapshot.count != 2 {}
            #expect(notes.map { $0["title"] } == ["Eggs", "Milk"])
            // A snapshot comes when the results change: a new title that moves the note.
            _ = try await other.perform(SyncRequest(method: .patch, url: url("/notes/1"), body: ["title": "Apples"]))
            while let snapshot = await snapshots.next(), snapshot.first?["title"] != "Apples" {}
            _ = try await other.perform(SyncRequest(method: .delete, url: url("/notes/2")))
            while let snapshot = await snapshots.next(), snapshot.count != 1 {}
            #expect(notes.map { $0["title"] } == ["Apples"])
            keeper.cancel()
            await keeper.value
        }
    }

    @Test func nothingIsReadAgainWhileNothingChanged() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.appending(path: "notes.sqlite")
            let store = try Store.sqlite(fileURL: file)
            let notes = store.query(Note.self)
            await store.checkForExternalChanges(force: true)
            try await notes.load()
            try await store.create(Note.self, ["title": "Milk"])
            try await notes.load()
            for _ in 1...3 { await store.checkForExternalChanges(force: true) }
            #expect(!notes.isStale)
            let other = try SQLiteSync(fileURL: file)
            _ = try await other.perform(SyncRequest(method: .create, url: url("/notes"), body: ["title": "Eggs"]))
            await store.checkForExternalChanges(force: true)
            #expect(notes.isStale)
        }
    }

    @Test func aStoreFindsTheReportingBackendUnderDecorators() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.appending(path: "notes.sqlite")
            let store = Store(sync: RetryingSync(LoggingSync(try SQLiteSync(fileURL: file)) { _ in }))
            let notes = store.query(Note.self)
            await store.checkForExternalChanges(force: true)
            try await notes.load()
            let other = try SQLiteSync(fileURL: file)
            _ = try await other.perform(SyncRequest(method: .create, url: url("/notes"), body: ["title": "Eggs"]))
            await store.checkForExternalChanges(force: true)
            #expect(notes.isStale)
        }
    }

    @Test func theVersionChangesOnlyForOtherConnections() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.appending(path: "notes.sqlite")
            let mine = try SQLiteSync(fileURL: file)
            let other = try SQLiteSync(fileURL: file)
            let start = try await mine.externalChangeVersion()
            _ = try await mine.perform(SyncRequest(method: .create, url: url("/notes"), body: ["title": "Milk"]))
            #expect(try await mine.externalChangeVersion() == start)
            _ = try await other.perform(SyncRequest(method: .create, url: url("/notes"), body: ["title": "Eggs"]))
            #expect(try await mine.externalChangeVersion() != start)
            mine.close()
            await #expect(throws: SyncError.self) { try await mine.externalChangeVersion() }
        }
    }
}
