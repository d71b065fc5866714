import Foundation
import Keel
import Testing

@testable import KeelSQLite

/// A damaged record is reported with its file, collection and id, skipped by reads, and
/// can be removed or repaired; a record without an id gets the one it is stored under.
struct DamagedRecordTests {
    /// A store whose `/notes/2` holds `text` instead of a JSON object.
    private func storeWithDamagedRecord(_ text: String = "{\"title\": ") async throws -> SQLiteSync {
        let store = try SQLiteSync.inMemory()
        for title in ["A", "B", "C"] { try await store.send(.create, "/notes", body: ["title": .string(title)]) }
        _ = try store.execute("UPDATE records SET json = '\(text)' WHERE id = '2'")
        return store
    }

    @Test func aListSkipsTheDamagedRecordAndSaysSo() async throws {
        let store = try await storeWithDamagedRecord()
        let list = try await store.send(.read, "/notes")
        #expect(list.body == [["title": "A", "id": 1], ["title": "C", "id": 3]])
        #expect(list.headers[SQLiteSync.damagedRecordsHeader] == "1")
        #expect(try await store.send(.read, "/other").headers[SQLiteSync.damagedRecordsHeader] == nil)
        #expect(try store.records(at: "/notes").count == 2)

        let notes = Collection<Note>(url: "/notes", sync: store)
        try await notes.fetch()
        #expect(notes.count == 2)
        #expect(notes.lastResponse?.headers[SQLiteSync.damagedRecordsHeader] == "1")
    }

    @Test(arguments: ["{\"title\": ", "[1, 2]", "not json at all"])
    func damagedRecordsAreListedWithTheirPath(_ text: String) async throws {
        let store = try await storeWithDamagedRecord(text)
        let damaged = try await store.damagedRecords()
        #expect(damaged.count == 1)
        let record = try #require(damaged.first)
        #expect(record.file == ":memory:")
        #expect(record.collection == "/notes")
        #expect(record.id == "2")
        #expect(record.path == "/notes/2")
        #expect(record.storedText == text)
        #expect(record.description.hasPrefix("The record /notes/2 in :memory: is damaged: "))

        let error = await #expect(throws: SyncError.self) { try await store.send(.read, "/notes/2") }
        #expect(error == .storage(SQLiteStoreError.damagedRecord(record).description))
    }

    @Test func aDamagedRecordCanBeRemoved() async throws {
        let store = try await storeWithDamagedRecord()
        try await store.removeRecord(at: "/notes/2")
        #expect(try await store.damagedRecords().isEmpty)
        #expect(try await store.send(.read, "/notes").headers[SQLiteSync.damagedRecordsHeader] == nil)
        await #expect(throws: SQLiteStoreError.recordNotFound(path: ":memory:", record: "/notes/2")) {
            try await store.removeRecord(at: "/notes/2")
        }
    }

    @Test func aDamagedRecordCanAlsoBeDeletedThroughTheSyncAPI() async throws {
        let store = try await storeWithDamagedRecord()
        try await store.send(.delete, "/notes/2")
        #expect(try await store.damagedRecords().isEmpty)
    }

    @Test func aDamagedRecordCanBeRepairedInPlace() async throws {
        let store = try await storeWithDamagedRecord()
        let repaired = try await store.repairRecord(at: "/notes/2", with: ["title": "B again"])
        #expect(repaired == ["title": "B again", "id": 2])
        #expect(try await store.damagedRecords().isEmpty)
        let list = try await store.send(.read, "/notes").body?.arrayValue?.compactMap { $0["title"]?.stringValue }
        #expect(list == ["A", "B again", "C"])
        #expect(try await store.send(.read, "/notes/2").headers["etag"] == "\"2\"")
        await #expect(throws: SQLiteStoreError.recordNotFound(path: ":memory:", record: "/notes/9")) {
            try await store.repairRecord(at: "/notes/9", with: [:])
        }
    }

    @Test func aRecordWithoutAnIDGetsTheIDItIsStoredUnder() async throws {
        let store = try SQLiteSync.inMemory()
        try await store.send(.create, "/notes", body: ["title": "A"])
        try await store.send(.create, "/notes", body: ["title": "B"])
        _ = try store.execute("UPDATE records SET json = '{\"title\":\"A\"}' WHERE id = '1'")
        _ = try store.execute("UPDATE records SET json = '{\"title\":\"B\",\"id\":7}' WHERE id = '2'")

        let list = try await store.send(.read, "/notes").body
        #expect(list == [["title": "A", "id": 1], ["title": "B", "id": 2]])
        #expect(try await store.send(.read, "/notes/1").body == ["title": "A", "id": 1])

        // Saving it changes the stored record instead of creating a second one.
        try await store.send(.patch, "/notes/1", body: ["done": true])
        #expect(try store.records(at: "/notes") == [["title": "A", "id": 1, "done": true], ["title": "B", "id": 2]])
    }
}
