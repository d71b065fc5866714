import Foundation
import Keel
import Testing

/// Counts collection `parse` calls and unwraps `{"items": [...]}`.
private final class CountingParseCollection: Collection<Model> {
    var parses = 0

    override func parse(_ response: JSONValue, options: UpdateOptions) -> [Attributes]? {
        parses += 1
        return super.parse(response["items"] ?? response, options: options)
    }
}

/// Records what the model-level `parse` receives.
private final class ParsedItem: Model {
    nonisolated(unsafe) static var received: [JSONValue] = []

    override func parse(_ response: JSONValue, options: ChangeOptions) -> Attributes? {
        Self.received.append(response)
        var attributes = response.objectValue ?? [:]
        attributes["parsed"] = true
        return attributes
    }
}

// MARK: - Fetch

@MainActor
struct CollectionFetchTests {
    // Backbone collection.js "fetch".
    @Test func fetchReadsTheCollectionURL() async throws {
        let backend = ScriptedSync(always: SyncResponse(body: []))
        let collection = Collection<Model>(url: "/test", sync: backend)
        try await collection.fetch()
        #expect(backend.requests.map(\.method) == [.read])
        #expect(backend.requests.first?.path == "/test")
        #expect(backend.requests.first?.body == nil)
    }

    @Test func fetchAddsModelsAndEmitsRequestAddUpdateSync() async throws {
        let backend = InMemorySync(records: ["/notes": [["id": 1, "title": "a"], ["id": 2, "title": "b"]]])
        let notes = Collection<Model>(url: "/notes", sync: backend)
        let log = SyncEventLog()
        log.watch(notes)
        let models = try await notes.fetch(options: SyncOptions(onSuccess: { _ in log.note("onSuccess") }))
        #expect(models.map(\.id) == [1, 2])
        #expect(notes.map { $0["title"] } == ["a", "b"])
        // Backbone: a smart `set` that adds into an unsorted collection also fires `sort`.
        #expect(log.entries == ["request", "add", "add", "sort", "update", "onSuccess", "sync"])
        #expect(log.events(named: "sync").first?.collection === notes)
        #expect(log.events(named: "request").first?.model == nil)
    }

    @Test func fetchMergesByIDAndRemovesMissingModels() async throws {
        let backend = InMemorySync(records: ["/notes": [["id": 1, "title": "a2"], ["id": 3, "title": "c"]]])
        let notes = Collection<Model>(
            [["id": 1, "title": "a"], ["id": 2, "title": "b"]],
            url: "/notes",
            sync: backend
        )
        let first = try #require(notes.get(1))
        let log = SyncEventLog()
        log.watch(notes)

        try await notes.fetch()

        #expect(notes.get(1) === first)
        #expect(first["title"] == "a2")
        #expect(notes.map(\.id) == [1, 3])
        #expect(log.entries == ["request", "change:title", "change", "remove", "add", "sort", "update", "sync"])
        let changes = try #require(log.events(named: "update").first?.changes)
        #expect(changes.added.map(\.id) == [3])
        #expect(changes.removed.map(\.id) == [2])
        #expect(changes.merged.map(\.id) == [1])
    }

    @Test func fetchWithAddRemoveMergeFlags() async throws {
        let backend = InMemorySync(records: ["/notes": [["id": 1, "title": "a2"], ["id": 3, "title": "c"]]])
        let notes = Collection<Model>(
            [["id": 1, "title": "a"], ["id": 2, "title": "b"]],
            url: "/notes",
            sync: backend
        )
        try await notes.fetch(options: SyncOptions(remove: false, merge: false))
        #expect(notes.map(\.id) == [1, 2, 3])
        #expect(notes.get(1)?["title"] == "a")
    }

    // Backbone collection.js: fetch({reset: true}) replaces the models with one `reset`.
    @Test func fetchWithResetFiresReset() async throws {
        let backend = InMemorySync(records: ["/notes": [["id": 1, "title": "a2"], ["id": 3, "title": "c"]]])
        let notes = Collection<Model>(
            [["id": 1, "title": "a"], ["id": 2, "title": "b"]],
            url: "/notes",
            sync: backend
        )
        let previous = notes.models
        let log = SyncEventLog()
        log.watch(notes)

        try await notes.fetch(reset: true)

        #expect(log.entries == ["request", "reset", "sync"])
        #expect(notes.map(\.id) == [1, 3])
        #expect(notes.get(1) !== previous[0])
        let previousModels = try #require(log.events(named: "reset").first?.previousModels)
        #expect(previousModels.map(\.cid) == previous.map(\.cid))
    }

    // Backbone collection.js "fetch" (parse: false) and "ensure fetch only parses once".
    @Test func fetchParsesOnceAndParseFalseSkipsIt() async throws {
        let backend = ScriptedSync { request in
            SyncResponse(body: request.query.isEmpty ? ["items": [["id": 1]]] : [["id": 2]])
        }
        let collection = CountingParseCollection(url: "/test", sync: backend)
        try await collection.fetch()
        #expect(collection.parses == 1)
        #expect(collection.map(\.id) == [1])

        try await collection.fetch(options: SyncOptions(query: ["raw": "1"], parse: false))
        #expect(collection.parses == 1)
        #expect(collection.map(\.id) == [2])
    }

    // Backbone collection.js "fetch parses models by default".
    @Test func fetchParsesEachModel() async throws {
        ParsedItem.received = []
        let backend = ScriptedSync(always: SyncResponse(body: [["id": 1, "title": "x"]]))
        let collection = Collection<ParsedItem>(url: "/test", sync: backend)
        try await collection.fetch()
        #expect(ParsedItem.received == [["id": 1, "title": "x"]])
        #expect(collection.first?["parsed"] == true)
    }

    // Backbone collection.js "fetch with an error response triggers an error event".
    @Test func fetchFailureEmitsErrorAndThrows() async throws {
        let failure = SyncError.httpStatus(500, body: "<h1>Server Error</h1>")
        let notes = Collection<Model>([["id": 1]], url: "/notes", sync: ScriptedSync(failing: failure))
        let log = SyncEventLog()
        log.watch(notes)
        await #expect(throws: failure) { _ = try await notes.fetch() }
        #expect(log.entries == ["request", "error"])
        #expect(log.events(named: "error").first?.syncError == failure)
        #expect(log.events(named: "error").first?.collection === notes)
        #expect(notes.map(\.id) == [1])
    }

    @Test func fetchFailureHandlerReplacesTheErrorEvent() async throws {
        let failure = SyncError.transport("offline")
        let notes = Collection<Model>(url: "/notes", sync: ScriptedSync(failing: failure))
        let log = SyncEventLog()
        log.watch(notes)
        var handled: [SyncError] = []
        await #expect(throws: failure) {
            _ = try await notes.fetch(options: SyncOptions(onFailure: { handled.append($0) }))
        }
        #expect(handled == [failure])
        #expect(log.entries == ["request"])
    }

    @Test func fetchOfANonListLeavesTheCollectionAndThrowsInvalidResponse() async throws {
        let notes = Collection<Model>(
            [["id": 1]],
            url: "/notes",
            sync: ScriptedSync(always: SyncResponse(body: ["id": 9]))
        )
        let log = SyncEventLog()
        log.watch(notes)
        await #expect {
            _ = try await notes.fetch()
        } throws: { error in
            guard case SyncError.invalidResponse = error else { return false }
            return true
        }
        #expect(notes.map(\.id) == [1])
        #expect(log.entries == ["request", "error"])
    }

    // Backbone collection.js #1355, "fetch will pass extra options to success callback".
    @Test func fetchSuccessHandlerReceivesTheResponse() async throws {
        let notes = Collection<Model>(url: "/notes", sync: ScriptedSync(always: SyncResponse(body: [["id": 1]])))
        var received: [SyncResponse] = []
        try await notes.fetch(options: SyncOptions(onSuccess: { received.append($0) }))
        #expect(received.map(\.body) == [[["id": 1]]])
    }

    // Backbone sync.js "passing data": query parameters reach the backend.
    @Test func fetchPassesQueryParameters() async throws {
        let backend = InMemorySync(records: ["/notes": [["id": 1, "done": true], ["id": 2, "done": false]]])
        let notes = Collection<Model>(url: "/notes", sync: backend)
        try await notes.fetch(options: SyncOptions(query: ["done": "true"]))
        #expect(notes.map(\.id) == [1])
        #expect(backend.requests.first?.query == [URLQueryItem(name: "done", value: "true")])
    }

    @Test func fetchWithOptionsURL() async throws {
        let backend = ScriptedSync(always: SyncResponse(body: []))
        let notes = Collection<Model>(url: "/notes", sync: backend)
        try await notes.fetch(options: SyncOptions(url: "/archive/notes"))
        #expect(backend.requests.first?.path == "/archive/notes")
    }

    @Test func fetchWithoutBackendThrows() async {
        let notes = Collection<Model>(url: "/notes")
        await #expect(throws: SyncError.missingBackend) { _ = try await notes.fetch() }
    }
}
