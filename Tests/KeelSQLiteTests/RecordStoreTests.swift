import Foundation
import Keel
import Testing

/// A store whose medium fails on the n-th write.
private struct FailingStore: RecordStore {
    var base = DictionaryStore()
    var writesBeforeFailure: Int

    func records(in collection: String) -> [Attributes]? { base.records(in: collection) }
    func record(_ id: String, in collection: String) -> Attributes? { base.record(id, in: collection) }
    mutating func insert(_ record: Attributes, id: String, in collection: String) throws(SyncError) {
        try write()
        base.insert(record, id: id, in: collection)
    }
    mutating func replace(_ record: Attributes, id: String, in collection: String) throws(SyncError) {
        try write()
        base.replace(record, id: id, in: collection)
    }
    mutating func delete(_ id: String, in collection: String) throws(SyncError) {
        try write()
        base.delete(id, in: collection)
    }
    func nextID(in collection: String) -> Int { base.nextID(in: collection) }
    mutating func setNextID(_ id: Int, in collection: String) { base.setNextID(id, in: collection) }

    private mutating func write() throws(SyncError) {
        guard writesBeforeFailure > 0 else { throw .storage("disk full") }
        writesBeforeFailure -= 1
    }
}

private final class Chore: Model {
    override class var urlRoot: String? { "/chores" }
}

/// `RecordStore` and `RecordStoreSync`: a custom backend from a few storage operations.
struct RecordStoreTests {
    @Test func theDocumentedDictionaryStoreServesModelsAndCollections() async throws {
        let backend = RecordStoreSync(DictionaryStore())
        let notes = Collection<Model>(url: "/notes", sync: backend)

        let groceries = try await notes.create(["title": "Groceries"])
        let taxes = try await notes.create(["title": "Taxes"], wait: true)
        try await groceries.save(["done": true], patch: true)
        try await taxes.destroy(wait: true)
        let reloaded = Collection<Model>(url: "/notes", sync: backend)
        try await reloaded.fetch()

        #expect(groceries.id == 1)
        #expect(taxes.id == 2)
        #expect(reloaded.models.map(\.attributes) == [["title": "Groceries", "id": 1, "done": true]])
        #expect(backend.withStore { $0.nextIDs["/notes"] } == 3)
    }

    @Test func respondWorksOnAStoreValueWithoutABackend() throws {
        var store = DictionaryStore()
        let created = try store.respond(to: SyncRequest(method: .create, url: url("/notes"), body: ["title": "A"]))
        let read = try store.respond(to: SyncRequest(method: .read, url: url("/notes/1")))

        #expect(created.status == 201)
        #expect(read.body == ["title": "A", "id": 1])
        #expect(store.tables["/notes"]?.map(\.id) == ["1"])
        #expect(throws: SyncError.storeRefused(StoreRefusal(.notFound, path: "notes/2"))) {
            try store.respond(to: SyncRequest(method: .delete, url: url("/notes/2")))
        }
    }

    @Test func aCustomIDAttributeIsAssignedAndKept() async throws {
        let backend = RecordStoreSync(DictionaryStore(), idAttribute: "_id")
        let created = try await backend.perform(SyncRequest(method: .create, url: url("/notes"), body: [:]))
        let updated = try await backend.perform(
            SyncRequest(method: .update, url: url("/notes/1"), body: ["_id": 9, "title": "B"])
        )

        #expect(backend.idAttribute == "_id")
        #expect(created.body == ["_id": 1])
        #expect(updated.body == ["_id": 1, "title": "B"])
    }

    @Test func aStoreFailureIsThrownAsTheStoresError() async throws {
        let backend = RecordStoreSync(FailingStore(writesBeforeFailure: 1))
        let chore = Chore()
        chore.sync = backend
        try await chore.save(["title": "A"])

        await #expect(throws: SyncError.storage("disk full")) { try await chore.save(["title": "B"]) }
        let stored = backend.withStore { $0.base.record("1", in: "/chores") }
        #expect(stored == ["title": "A", "id": 1])
    }

    @Test func aCancelledTaskThrowsCancelledAndChangesNothing() async throws {
        let backend = RecordStoreSync(DictionaryStore())
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await backend.perform(SyncRequest(method: .create, url: url("/notes"), body: [:]))
        }

        await #expect(throws: SyncError.cancelled) { try await task.value }
        #expect(backend.withStore { $0.tables.isEmpty })
    }

    @Test func concurrentCreatesGetDistinctIDs() async throws {
        let backend = RecordStoreSync(DictionaryStore())
        let ids = try await withThrowingTaskGroup(of: Int?.self) { group in
            for _ in 0..<50 {
                group.addTask {
                    let response = try await backend.perform(
                        SyncRequest(method: .create, url: url("/notes"), body: [:])
                    )
                    return response.body?["id"]?.intValue
                }
            }
            return try await group.reduce(into: Set<Int>()) { ids, id in if let id { ids.insert(id) } }
        }
        #expect(ids == Set(1...50))
    }
}
