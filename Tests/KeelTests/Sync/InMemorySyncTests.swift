import Foundation
import Keel
import KeelTestServer
import Testing

private func request(
    _ method: SyncMethod,
    _ path: String,
    body: JSONValue? = nil,
    query: [URLQueryItem] = []
) -> SyncRequest {
    SyncRequest(method: method, url: SyncFixture.url(path), body: body, query: query)
}

struct InMemorySyncTests {
    // MARK: - A REST store

    @Test func createAssignsIncreasingIDsPerCollection() async throws {
        let backend = InMemorySync()
        let first = try await backend.perform(request(.create, "/notes", body: ["title": "a"]))
        let second = try await backend.perform(request(.create, "/notes", body: ["title": "b"]))
        let other = try await backend.perform(request(.create, "/users/1/invites", body: ["to": "x"]))
        #expect(first.status == 201)
        #expect(first.body == ["title": "a", "id": 1])
        #expect(second.body?["id"] == 2)
        #expect(other.body?["id"] == 1)
        #expect(backend.records(at: "/notes").map { $0["title"] } == ["a", "b"])
        #expect(backend.records(at: "/users/1/invites") == [["to": "x", "id": 1]])
    }

    @Test func createKeepsAClientIDAndRejectsDuplicates() async throws {
        let backend = InMemorySync()
        let created = try await backend.perform(request(.create, "/users", body: ["id": "ada", "name": "Ada"]))
        #expect(created.body == ["id": "ada", "name": "Ada"])
        await #expect(throws: SyncError.validationFailed(["id": ["has already been taken"]], status: 422)) {
            try await backend.perform(request(.create, "/users", body: ["id": "ada", "name": "Other"]))
        }
        #expect(backend.records(at: "/users").count == 1)
    }

    @Test func createAfterAnExplicitIntegerIDContinuesAboveIt() async throws {
        let backend = InMemorySync()
        _ = try await backend.perform(request(.create, "/notes", body: ["id": 10]))
        let next = try await backend.perform(request(.create, "/notes", body: ["title": "n"]))
        #expect(next.body?["id"] == 11)
    }

    @Test func createWithoutAnObjectBodyIs400() async {
        let backend = InMemorySync()
        await #expect(throws: SyncError.self) { try await backend.perform(request(.create, "/notes", body: [1, 2])) }
        await #expect(throws: SyncError.self) { try await backend.perform(request(.create, "/notes")) }
        #expect(backend.records(at: "/notes").isEmpty)
    }

    @Test func seededRecordsAreReadableAndIDsContinue() async throws {
        let backend = InMemorySync(records: ["/notes": [["id": 3, "title": "c"], ["id": 7, "title": "g"]]])
        let list = try await backend.perform(request(.read, "/notes"))
        #expect(list.body == [["id": 3, "title": "c"], ["id": 7, "title": "g"]])
        let one = try await backend.perform(request(.read, "/notes/7"))
        #expect(one.status == 200)
        #expect(one.body == ["id": 7, "title": "g"])
        let created = try await backend.perform(request(.create, "/notes", body: ["title": "h"]))
        #expect(created.body?["id"] == 8)
    }

    @Test func readFiltersByQueryParameters() async throws {
        let backend = InMemorySync(records: [
            "/notes": [
                ["id": 1, "done": true, "tag": "a"], ["id": 2, "done": false, "tag": "a"], ["id": 3, "done": true],
            ]
        ])
        let done = try await backend.perform(
            request(.read, "/notes", query: [URLQueryItem(name: "done", value: "true")])
        )
        #expect(done.body?.arrayValue?.map { $0["id"] } == [1, 3])
        let both = try await backend.perform(
            request(.read, "/notes?tag=a", query: [URLQueryItem(name: "done", value: "true")])
        )
        #expect(both.body?.arrayValue?.map { $0["id"] } == [1])
    }

    @Test func readOfAnUnknownCollectionIsAnEmptyList() async throws {
        let response = try await InMemorySync().perform(request(.read, "/nothing"))
        #expect(response.status == 200)
        #expect(response.body == [])
    }

    @Test func missingRecordsAre404ForEveryMethod() async {
        let backend = InMemorySync(records: ["/notes": [["id": 1]]])
        let notFound = SyncError.storeRefused(StoreRefusal(.notFound, path: "notes/2"))
        await #expect(throws: notFound) { try await backend.perform(request(.read, "/notes/2")) }
        await #expect(throws: notFound) { try await backend.perform(request(.patch, "/notes/2", body: ["a": 1])) }
        await #expect(throws: notFound) { try await backend.perform(request(.delete, "/notes/2")) }
        await #expect(throws: SyncError.storeRefused(StoreRefusal(.notFound, path: "other/2"))) {
            try await backend.perform(request(.delete, "/other/2"))
        }
    }

    @Test func updateReplacesTheRecordAndKeepsItsID() async throws {
        let backend = InMemorySync(records: ["/notes": [["id": 1, "title": "a", "done": true]]])
        let response = try await backend.perform(request(.update, "/notes/1", body: ["id": 99, "title": "b"]))
        #expect(response.status == 200)
        #expect(response.body == ["id": 1, "title": "b"])
        #expect(backend.records(at: "/notes") == [["id": 1, "title": "b"]])
    }

    @Test func updateOfAMissingRecordCreatesItAtThatID() async throws {
        let backend = InMemorySync(records: ["/notes": [["id": 1]]])
        let response = try await backend.perform(request(.update, "/notes/5", body: ["title": "e"]))
        #expect(response.status == 201)
        #expect(response.body == ["title": "e", "id": 5])
        let fetched = try await backend.perform(request(.read, "/notes/5"))
        #expect(fetched.body?["title"] == "e")
    }

    @Test func patchMergesIntoTheRecord() async throws {
        let backend = InMemorySync(records: ["/notes": [["id": 1, "title": "a", "done": false]]])
        let response = try await backend.perform(request(.patch, "/notes/1", body: ["done": true]))
        #expect(response.body == ["id": 1, "title": "a", "done": true])
        #expect(backend.records(at: "/notes") == [["id": 1, "title": "a", "done": true]])
    }

    @Test func deleteRemovesTheRecordAndAnswers204WithoutBody() async throws {
        let backend = InMemorySync(records: ["/notes": [["id": 1], ["id": 2]]])
        let response = try await backend.perform(request(.delete, "/notes/1"))
        #expect(response.status == 204)
        #expect(response.body == nil)
        #expect(backend.records(at: "/notes") == [["id": 2]])
        await #expect(throws: SyncError.storeRefused(StoreRefusal(.notFound, path: "notes/1"))) {
            try await backend.perform(request(.read, "/notes/1"))
        }
    }

    @Test(arguments: ["a/b", "?x", "é", "100%", "a b+c"])
    func idsThatNeedPercentEncoding(id: String) async throws {
        let backend = InMemorySync()
        let users = Collection<Model>(url: "/users", sync: backend)
        _ = try await backend.perform(request(.create, "/users", body: ["id": .string(id), "name": "N"]))

        let user = Model(["id": .string(id)])
        users.add(user)
        try await user.fetch()
        #expect(user["name"] == "N")
        try await user.save(["name": "M"])
        #expect(backend.records(at: "/users") == [["id": .string(id), "name": "M"]])
        try await user.destroy()
        #expect(backend.records(at: "/users").isEmpty)
        #expect(backend.requests.dropFirst().allSatisfy { !$0.path.hasSuffix("/users") })
    }

    @Test func customIDAttribute() async throws {
        final class Mongo: Model {
            override class var idAttribute: String { "_id" }
            override class var urlRoot: String? { "/docs" }
        }
        let backend = InMemorySync(idAttribute: "_id")
        let doc = Mongo(["title": "a"])
        doc.sync = backend
        try await doc.save()
        #expect(doc.id == 1)
        #expect(doc["_id"] == 1)
        try await doc.save(["title": "b"])
        #expect(backend.records(at: "/docs") == [["title": "b", "_id": 1]])
        #expect(backend.requests.last?.path == "/docs/1")
    }

    @Test func absoluteURLsUseTheirPath() async throws {
        let backend = InMemorySync()
        _ = try await backend.perform(request(.create, "https://api.example.com/notes", body: ["title": "a"]))
        let one = try await backend.perform(request(.read, "https://api.example.com/notes/1"))
        #expect(one.body?["title"] == "a")
        #expect(backend.records(at: "/notes").count == 1)
    }

    // MARK: - Recording and failure injection

    @Test func requestsAreRecordedInOrderAndRemoveAllForgetsEverything() async throws {
        let backend = InMemorySync()
        _ = try await backend.perform(request(.create, "/notes", body: ["title": "a"]))
        _ = try? await backend.perform(request(.read, "/notes/9"))
        _ = try await backend.perform(request(.read, "/notes"))
        #expect(backend.requests.map(\.method) == [.create, .read, .read])
        #expect(backend.requests.map(\.path) == ["/notes", "/notes/9", "/notes"])
        #expect(backend.requests.first?.body == ["title": "a"])

        backend.failNext(with: .timedOut)
        backend.removeAll()
        #expect(backend.requests.isEmpty)
        #expect(backend.records(at: "/notes").isEmpty)
        let created = try await backend.perform(request(.create, "/notes", body: ["title": "b"]))
        #expect(created.body?["id"] == 1)
    }

    @Test func failNextFailsOnlyTheNextRequestAndStillRecordsIt() async throws {
        let backend = InMemorySync()
        backend.failNext(with: .transport("offline"))
        backend.failNext(with: .httpStatus(503, body: nil))
        await #expect(throws: SyncError.transport("offline")) {
            try await backend.perform(request(.create, "/notes", body: ["title": "a"]))
        }
        await #expect(throws: SyncError.httpStatus(503, body: nil)) {
            try await backend.perform(request(.create, "/notes", body: ["title": "a"]))
        }
        let created = try await backend.perform(request(.create, "/notes", body: ["title": "a"]))
        #expect(created.body?["id"] == 1)
        #expect(backend.requests.count == 3)
        #expect(backend.records(at: "/notes").count == 1)
    }

    @Test func failWhenDecidesPerRequest() async throws {
        let backend = InMemorySync(records: ["/notes": [["id": 1], ["id": 2]]]) { request in
            request.method == .delete && request.path == "/notes/2"
                ? .httpStatus(403, body: ["error": "forbidden"]) : nil
        }
        _ = try await backend.perform(request(.delete, "/notes/1"))
        await #expect(throws: SyncError.httpStatus(403, body: ["error": "forbidden"])) {
            try await backend.perform(request(.delete, "/notes/2"))
        }
        #expect(backend.records(at: "/notes") == [["id": 2]])
    }

    @Test func injectedFailuresReachModelsAsErrors() async throws {
        let backend = InMemorySync()
        let notes = Collection<Model>(url: "/notes", sync: backend)
        let note = try await notes.create(["title": "Groceries"])
        backend.failNext(with: .validationFailed(["title": ["is taken"]], status: 422))
        let log = SyncEventLog()
        log.watch(note, events: "error")
        await #expect(throws: SyncError.validationFailed(["title": ["is taken"]], status: 422)) {
            try await note.save(["title": "x"])
        }
        #expect(log.events.first?.syncError == .validationFailed(["title": ["is taken"]], status: 422))
        #expect(backend.requests.map(\.method) == [.create, .update])
    }

    @Test func latencyIsCancellable() async throws {
        let backend = InMemorySync(latency: .seconds(30))
        let task = Task { try await backend.perform(request(.create, "/notes", body: ["title": "a"])) }
        while backend.requests.isEmpty { await Task.yield() }
        task.cancel()
        await #expect(throws: SyncError.cancelled) { try await task.value }
        #expect(backend.records(at: "/notes").isEmpty)
    }

    @Test func cancelledBeforeItRunsThrowsCancelled() async throws {
        let backend = InMemorySync()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await backend.perform(request(.create, "/notes", body: ["title": "a"]))
        }
        await #expect(throws: SyncError.cancelled) { try await task.value }
        #expect(backend.records(at: "/notes").isEmpty)
    }
}

// MARK: - One contract for every backend

/// The backends the contract runs against.
enum ContractBackend: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case inMemory
    case restOnDjango

    var testDescription: String { rawValue }

    /// A backend and the collection path to use, `/users` (client-chosen string ids).
    func make() async throws -> any Sync {
        switch self {
        case .inMemory:
            return InMemorySync()
        case .restOnDjango:
            let server = try await TestServer.shared
            return RESTSync(baseURL: server.baseURL, timeout: .seconds(60))
        }
    }
}

struct SyncContractTests {
    @Test(arguments: ContractBackend.allCases)
    func createReadPatchDeleteAndMissingRecords(backend kind: ContractBackend) async throws {
        let backend = try await kind.make()
        let id = SyncFixture.unique("contract/é?")
        let path = "/users/" + SyncFixture.segment(id)

        let created = try await backend.perform(request(.create, "/users", body: ["id": .string(id), "name": "Ada"]))
        #expect(created.status == 201)
        #expect(created.body?["id"] == .string(id))
        #expect(created.body?["name"] == "Ada")

        let read = try await backend.perform(request(.read, path))
        #expect(read.status == 200)
        #expect(read.body?["name"] == "Ada")

        let patched = try await backend.perform(request(.patch, path, body: ["name": "Grace"]))
        #expect(patched.status == 200)
        #expect(patched.body?["name"] == "Grace")
        #expect(patched.body?["id"] == .string(id))

        let deleted = try await backend.perform(request(.delete, path))
        #expect(deleted.status == 204)
        #expect(deleted.body == nil)

        await #expect { try await backend.perform(request(.read, path)) } throws: {
            ($0 as? SyncError)?.isNotFound == true
        }
        await #expect { try await backend.perform(request(.delete, path)) } throws: {
            ($0 as? SyncError)?.isNotFound == true
        }
    }

    @Test(arguments: ContractBackend.allCases)
    func modelLifecycle(backend kind: ContractBackend) async throws {
        let users = Collection<Model>(url: "/users", sync: try await kind.make())
        let id = SyncFixture.unique("a/b")
        let user = Model(["id": .string(id), "name": "Ada"])
        users.add(user)
        _ = try await users.sync?.perform(request(.create, "/users", body: ["id": .string(id), "name": "Ada"]))

        try await user.save(["name": "Grace"])
        user["name"] = "local"
        try await user.fetch()
        #expect(user["name"] == "Grace")
        try await user.destroy(wait: true)
        #expect(users.isEmpty)
        let gone = try #require(users.add(["id": .string(id)]))
        await #expect { try await gone.fetch() } throws: { ($0 as? SyncError)?.isNotFound == true }
    }
}
