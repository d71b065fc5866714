import Foundation
import Keel
import KeelSQLite
import Testing

/// The REST contract every backend honours, run against each of them.
struct SyncContractTests {
    // MARK: - Create

    @Test(arguments: Backend.allCases)
    func createAssignsSequentialIntegerIDsPerCollection(_ backend: Backend) async throws {
        try await backend.withSync { sync in
            let first = try await sync.send(.create, "/notes", body: ["title": "A"])
            let second = try await sync.send(.create, "/notes", body: ["title": "B"])
            let tag = try await sync.send(.create, "/tags", body: ["name": "x"])

            #expect(first.status == 201)
            #expect(first.body == ["title": "A", "id": 1])
            #expect(second.body?["id"] == .int(2))
            #expect(tag.body?["id"] == .int(1))
        }
    }

    @Test(arguments: Backend.allCases)
    func createKeepsAnExplicitIDAndContinuesNumberingAfterIt(_ backend: Backend) async throws {
        try await backend.withSync { sync in
            let explicit = try await sync.send(.create, "/notes", body: ["id": 10])
            let next = try await sync.send(.create, "/notes", body: [:])
            let named = try await sync.send(.create, "/notes", body: ["id": "abc"])

            #expect(explicit.body?["id"] == .int(10))
            #expect(next.body?["id"] == .int(11))
            #expect(named.body?["id"] == .string("abc"))
        }
    }

    @Test(arguments: Backend.allCases)
    func createWithATakenIDFailsWith422(_ backend: Backend) async throws {
        try await backend.withSync { sync in
            try await sync.send(.create, "/notes", body: ["id": 1, "title": "A"])

            let error = await #expect(throws: SyncError.self) {
                try await sync.send(.create, "/notes", body: ["id": 1, "title": "B"])
            }
            guard case .validationFailed(let errors, let status) = error else {
                Issue.record("expected a validation failure, got \(String(describing: error))")
                return
            }
            #expect(status == 422)
            #expect(errors["id"] == ["has already been taken"])
            let stored = try await sync.send(.read, "/notes/1")
            #expect(stored.body?["title"] == "A")
        }
    }

    @Test(arguments: Backend.allCases)
    func createRejectsABodyThatIsNotAnObject(_ backend: Backend) async throws {
        try await backend.withSync { sync in
            let error = await #expect(throws: SyncError.self) {
                try await sync.send(.create, "/notes", body: [1, 2])
            }
            #expect(error?.status == 400)
        }
    }

    // MARK: - Read

    @Test(arguments: Backend.allCases)
    func readListsRecordsInInsertionOrder(_ backend: Backend) async throws {
        try await backend.withSync { sync in
            for title in ["C", "A", "B"] {
                try await sync.send(.create, "/notes", body: ["title": .string(title)])
            }
            let list = try await sync.send(.read, "/notes")
            #expect(list.status == 200)
            #expect(list.body?.arrayValue?.compactMap { $0["title"]?.stringValue } == ["C", "A", "B"])
        }
    }

    @Test(arguments: Backend.allCases)
    func readFiltersByQueryParameters(_ backend: Backend) async throws {
        try await backend.withSync { sync in
            try await sync.send(.create, "/notes", body: ["done": true, "tag": "a"])
            try await sync.send(.create, "/notes", body: ["done": false, "tag": "a"])
            try await sync.send(.create, "/notes", body: ["done": true, "tag": "b"])

            let done = try await sync.send(.read, "/notes", query: [URLQueryItem(name: "done", value: "true")])
            let both = try await sync.send(.read, "/notes?tag=a", query: [URLQueryItem(name: "done", value: "true")])
            #expect(done.body?.arrayValue?.compactMap { $0["id"]?.intValue } == [1, 3])
            #expect(both.body?.arrayValue?.compactMap { $0["id"]?.intValue } == [1])
        }
    }

    @Test(arguments: Backend.allCases)
    func readOfAMissingRecordIs404(_ backend: Backend) async throws {
        try await backend.withSync { sync in
            try await sync.send(.create, "/notes", body: ["title": "A"])

            let error = await #expect(throws: SyncError.self) {
                try await sync.send(.read, "/notes/99")
            }
            #expect(error?.status == 404)
        }
    }

    @Test(arguments: Backend.allCases)
    func readOfAnUnknownCollectionIsAnEmptyList(_ backend: Backend) async throws {
        try await backend.withSync { sync in
            let list = try await sync.send(.read, "/nothing")
            #expect(list.status == 200)
            #expect(list.body == [])
        }
    }

    @Test(arguments: Backend.allCases)
    func nestedPathsAreCollectionsOfTheirOwn(_ backend: Backend) async throws {
        try await backend.withSync { sync in
            try await sync.send(.create, "/users", body: ["name": "Ann"])
            let invite = try await sync.send(.create, "/users/1/invites", body: ["to": "Bob"])
            let invites = try await sync.send(.read, "/users/1/invites")
            let user = try await sync.send(.read, "/users/1")

            #expect(invite.body?["id"] == .int(1))
            #expect(invites.body == [["to": "Bob", "id": 1]])
            #expect(user.body?["name"] == "Ann")
        }
    }

    @Test(arguments: Backend.allCases)
    func percentEncodedIDsNameOneSegment(_ backend: Backend) async throws {
        try await backend.withSync { sync in
            try await sync.send(.create, "/files", body: ["id": "a/b", "size": 3])
            let file = try await sync.send(.read, "/files/a%2Fb")
            #expect(file.body?["size"] == .int(3))
        }
    }

    @Test(arguments: Backend.allCases)
    func idsWithReservedAndNonASCIICharactersRoundTrip(_ backend: Backend) async throws {
        try await backend.withSync { sync in
            let id = "contract/é? #1"
            let segment = try #require(id.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
            let created = try await sync.send(.create, "/users", body: ["id": .string(id), "name": "Ada"])
            let read = try await sync.send(.read, "/users/" + segment)
            let patched = try await sync.send(.patch, "/users/" + segment, body: ["name": "Grace"])
            let deleted = try await sync.send(.delete, "/users/" + segment)

            #expect(created.body?["id"] == .string(id))
            #expect(read.body == ["id": .string(id), "name": "Ada"])
            #expect(patched.body == ["id": .string(id), "name": "Grace"])
            #expect(deleted.status == 204)
            await #expect(throws: SyncError.storeRefused(StoreRefusal(.notFound, path: "users/" + segment))) {
                try await sync.send(.read, "/users/" + segment)
            }
        }
    }

    // MARK: - Update and patch

    @Test(arguments: Backend.allCases)
    func updateReplacesTheRecordAndKeepsItsID(_ backend: Backend) async throws {
        try await backend.withSync { sync in
            try await sync.send(.create, "/notes", body: ["title": "A", "done": false])

            let updated = try await sync.send(.update, "/notes/1", body: ["title": "B", "id": 5])
            let stored = try await sync.send(.read, "/notes/1")

            #expect(updated.status == 200)
            #expect(updated.body == ["title": "B", "id": 1])
            #expect(stored.body == ["title": "B", "id": 1])
        }
    }

    @Test(arguments: Backend.allCases)
    func updateOfAMissingRecordCreatesIt(_ backend: Backend) async throws {
        try await backend.withSync { sync in
            let numbered = try await sync.send(.update, "/notes/7", body: ["title": "A"])
            let named = try await sync.send(.update, "/notes/intro", body: ["title": "B"])
            let list = try await sync.send(.read, "/notes")

            #expect(numbered.status == 201)
            #expect(numbered.body == ["title": "A", "id": 7])
            #expect(named.body?["id"] == .string("intro"))
            #expect(list.body?.arrayValue?.count == 2)
        }
    }

    @Test(arguments: Backend.allCases)
    func patchMergesIntoTheRecord(_ backend: Backend) async throws {
        try await backend.withSync { sync in
            try await sync.send(.create, "/notes", body: ["title": "A", "done": false])

            let patched = try await sync.send(.patch, "/notes/1", body: ["done": true])

            #expect(patched.status == 200)
            #expect(patched.body == ["title": "A", "done": true, "id": 1])
        }
    }

    @Test(arguments: Backend.allCases)
    func patchOfAMissingRecordIs404(_ backend: Backend) async throws {
        try await backend.withSync { sync in
            let error = await #expect(throws: SyncError.self) {
                try await sync.send(.patch, "/notes/1", body: ["done": true])
            }
            #expect(error?.status == 404)
            let list = try await sync.send(.read, "/notes")
            #expect(list.body == [])
        }
    }

    // MARK: - Delete

    @Test(arguments: Backend.allCases)
    func deleteAnswers204AndTheRecordIsGone(_ backend: Backend) async throws {
        try await backend.withSync { sync in
            try await sync.send(.create, "/notes", body: ["title": "A"])
            try await sync.send(.create, "/notes", body: ["title": "B"])

            let deleted = try await sync.send(.delete, "/notes/1")
            let again = await #expect(throws: SyncError.self) {
                try await sync.send(.delete, "/notes/1")
            }
            let read = await #expect(throws: SyncError.self) {
                try await sync.send(.read, "/notes/1")
            }
            let list = try await sync.send(.read, "/notes")

            #expect(deleted.status == 204)
            #expect(deleted.body == nil)
            #expect(again?.status == 404)
            #expect(read?.status == 404)
            #expect(list.body == [["title": "B", "id": 2]])
        }
    }

    @Test(arguments: Backend.allCases)
    func idsAreNotReusedAfterADelete(_ backend: Backend) async throws {
        try await backend.withSync { sync in
            try await sync.send(.create, "/notes", body: [:])
            try await sync.send(.delete, "/notes/1")
            let next = try await sync.send(.create, "/notes", body: [:])
            #expect(next.body?["id"] == .int(2))
        }
    }

    // MARK: - Values and cancellation

    @Test(arguments: Backend.allCases)
    func everyJSONTypeRoundTrips(_ backend: Backend) async throws {
        let record: Attributes = [
            "text": "naïve \"quoted\" \\ line\nbreak 🚀",
            "int": .int(9_007_199_254_740_993),
            "negative": -4,
            "double": 2.5,
            "bool": false,
            "null": nil,
            "array": [1, "two", [3.5], ["k": true]],
            "object": ["nested": ["deep": [nil]]],
        ]
        try await backend.withSync { sync in
            let created = try await sync.send(.create, "/values", body: .object(record))
            let read = try await sync.send(.read, "/values/1")

            var expected = record
            expected["id"] = 1
            #expect(created.body == .object(expected))
            #expect(read.body == .object(expected))
            #expect(read.body?["int"] == .int(9_007_199_254_740_993))
            #expect(read.body?.objectValue?.keys == expected.keys)
        }
    }

    @Test(arguments: Backend.allCases)
    func aCancelledTaskChangesNothing(_ backend: Backend) async throws {
        try await backend.withSync { sync in
            let task = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return try await sync.send(.create, "/notes", body: ["title": "A"])
            }
            let error = await #expect(throws: SyncError.self) { try await task.value }
            #expect(error == .cancelled)
            let list = try await sync.send(.read, "/notes")
            #expect(list.body == [])
        }
    }

    // MARK: - Through Model and Collection

    @Test(arguments: Backend.allCases)
    func collectionAndModelOperationsFollowTheContract(_ backend: Backend) async throws {
        try await backend.withSync { sync in
            let notes = Collection<Note>(url: "/notes", sync: sync)
            let groceries = try await notes.create(["title": "Groceries"])
            let taxes = try await notes.create(["title": "Taxes"], wait: true)
            #expect(groceries.id == 1)
            #expect(taxes.id == 2)

            let reloaded = Collection<Note>(url: "/notes", sync: sync)
            try await reloaded.fetch()
            #expect(reloaded.models.map { $0["title"] } == ["Groceries", "Taxes"])

            try await groceries.save(["title": "Weekly groceries"])
            try await groceries.save(["done": true], patch: true)
            let copy = Note(["id": 1])
            copy.sync = sync
            try await copy.fetch()
            #expect(copy.attributes == ["id": 1, "title": "Weekly groceries", "done": true])

            try await taxes.destroy(wait: true)
            #expect(notes.count == 1)
            let gone = Note(["id": 2])
            gone.sync = sync
            let error = await #expect(throws: SyncError.self) { try await gone.fetch() }
            #expect(error?.status == 404)

            try await reloaded.fetch()
            #expect(reloaded.models.map(\.id) == [1])
        }
    }

    @Test(arguments: Backend.allCases)
    func aNewModelSavesWithCreateAndAFilteredFetchUsesTheQuery(_ backend: Backend) async throws {
        try await backend.withSync { sync in
            let first = Note(["title": "A", "done": true])
            first.sync = sync
            try await first.save()
            let second = Note(["title": "B", "done": false])
            second.sync = sync
            try await second.save()
            #expect(second.id == 2)

            let done = Collection<Note>(url: "/notes", sync: sync)
            try await done.fetch(options: SyncOptions(query: ["done": "true"]))
            #expect(done.models.map(\.id) == [1])
        }
    }
}

extension SyncContractTests {
    // MARK: - Ids written by update

    @Test(arguments: Backend.allCases)
    func createSkipsIDsThatAnUpdateStored(_ backend: Backend) async throws {
        try await backend.withSync { sync in
            try await sync.send(.update, "/notes/1", body: ["title": "A"])
            let next = try await sync.send(.create, "/notes", body: ["title": "B"])
            let list = try await sync.send(.read, "/notes")

            #expect(next.body?["id"] == .int(2))
            #expect(list.body?.arrayValue?.compactMap { $0["id"]?.intValue } == [1, 2])
        }
    }

    @Test(arguments: Backend.allCases)
    func updateCreatingARecordUnderATakenIDFailsWith422(_ backend: Backend) async throws {
        try await backend.withSync { sync in
            try await sync.send(.create, "/notes", body: ["title": "A"])

            let error = await #expect(throws: SyncError.self) {
                try await sync.send(.update, "/notes/5", body: ["id": 1, "title": "B"])
            }
            let list = try await sync.send(.read, "/notes")

            #expect(error?.status == 422)
            #expect(list.body == [["title": "A", "id": 1]])
        }
    }
}

/// The dictionary store of the documentation (ImplementingASyncBackend.md and the "Custom
/// backend" playground page), line for line, run through the contract as a `RecordStoreSync`.
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
