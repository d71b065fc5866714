//: # Custom backend
//: A backend that keeps records somewhere of its own conforms to `RecordStore`: it only
//: loads and saves records by collection path and id. `RecordStoreSync` does the REST part
//: (ids, statuses, patches, errors) exactly as `InMemorySync` and `SQLiteSync` do.
import Foundation
import Keel

struct DictionaryStore: RecordStore {
    var tables: [String: [(id: String, record: Attributes)]] = [:]
    var nextIDs: [String: Int] = [:]

    func records(in collection: String) -> [Attributes]? { tables[collection]?.map(\.record) }
    func record(_ id: String, in collection: String) -> Attributes? {
        tables[collection]?.first { $0.id == id }?.record
    }
    mutating func insert(_ record: Attributes, id: String, in collection: String) {
        tables[collection, default: []].append((id, record))
    }
    mutating func replace(_ record: Attributes, id: String, in collection: String) {
        tables[collection] = tables[collection]?.map { $0.id == id ? (id, record) : $0 }
    }
    mutating func delete(_ id: String, in collection: String) { tables[collection]?.removeAll { $0.id == id } }
    func nextID(in collection: String) -> Int { nextIDs[collection] ?? 1 }
    mutating func setNextID(_ id: Int, in collection: String) { nextIDs[collection] = id }
}
//: Models and collections use it like any other backend; new records get integer ids.
let backend = RecordStoreSync(DictionaryStore())
let notes = Collection<Note>(url: "/notes", sync: backend)
let groceries = try await notes.create(["title": "Groceries"])
let taxes = try await notes.create(["title": "Taxes"])
precondition(groceries.id == 1 && taxes.id == 2)
//: A patch is merged into the stored record.
try await groceries.save(["done": true], patch: true)
let stored = backend.withStore { $0.record("1", in: "/notes") }
precondition(stored == ["title": "Groceries", "done": true, "id": 1])
//: A missing record is a 404 `SyncError`, and a deleted id is never handed out again.
try await taxes.destroy()
let gone = Note(["id": 2])
gone.sync = backend
do {
    try await gone.fetch()
    preconditionFailure("the record was deleted")
} catch {
    precondition(error.status == 404)
}
let milk = try await notes.create(["title": "Milk"])
precondition(milk.id == 3)
//: Creating a record under a taken id fails with 422 and a validation error.
do {
    _ = try await backend.perform(SyncRequest(method: .create, url: URL(filePath: "/notes"), body: ["id": 1]))
    preconditionFailure("id 1 is taken")
} catch {
    guard case .validationFailed(let errors, let status) = error else { preconditionFailure("\(error)") }
    precondition(status == 422 && errors["id"] == ["has already been taken"])
}
//: [Next](@next)
