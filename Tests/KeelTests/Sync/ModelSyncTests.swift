import Foundation
import Keel
import Testing

/// Unwraps `{"note": {...}}` envelopes and counts `parse` calls.
private final class EnvelopedNote: Model {
    override class var urlRoot: String? { "/notes" }
    var parsed: [JSONValue] = []

    override func parse(_ response: JSONValue, options: ChangeOptions) -> Attributes? {
        parsed.append(response)
        return response["note"]?.objectValue ?? response.objectValue
    }
}

// MARK: - Fetch

@MainActor
struct ModelFetchTests {
    // Backbone model.js "fetch".
    @Test func fetchReadsTheModelURL() async throws {
        let backend = ScriptedSync(always: SyncResponse(body: ["id": "1-the-tempest", "title": "The Tempest"]))
        let (doc, collection) = makeTempestFixture(sync: backend)
        defer { withExtendedLifetime(collection) {} }
        try await doc.fetch()
        #expect(backend.requests.map(\.method) == [.read])
        #expect(backend.requests.first?.path == "/collection/1-the-tempest")
        #expect(backend.requests.first?.body == nil)
    }

    @Test func fetchSetsServerAttributesThenReportsSuccess() async throws {
        let backend = InMemorySync(records: ["/notes": [["id": 1, "title": "new", "done": true]]])
        let note = Model(["id": 1, "title": "old"])
        note.urlRoot = "/notes"
        note.sync = backend
        let log = SyncEventLog()
        log.watch(note)

        let response = try await note.fetch(
            options: SyncOptions(onSuccess: { response in
                log.note("onSuccess")
                #expect(response.body?["title"] == "new")
                #expect(note["title"] == "new")
            })
        )

        #expect(log.entries == ["request", "change:title", "change:done", "change", "onSuccess", "sync"])
        #expect(note.attributes == ["id": 1, "title": "new", "done": true])
        #expect(response.status == 200)
        #expect(log.events(named: "sync").first?.response?.body?["title"] == "new")
        #expect(log.events(named: "request").first?.request?.method == .read)
    }

    @Test func fetchPassesQueryHeadersAndTimeoutToTheBackend() async throws {
        let backend = ScriptedSync(always: SyncResponse(body: ["id": 1]))
        let note = Model(["id": 1])
        note.urlRoot = "/notes"
        note.sync = backend
        try await note.fetch(
            options: SyncOptions(query: ["expand": "author"], headers: ["X-Trace": "abc"], timeout: .seconds(3))
        )
        let request = try #require(backend.requests.first)
        #expect(request.query == [URLQueryItem(name: "expand", value: "author")])
        #expect(request.headers == ["X-Trace": "abc"])
        #expect(request.timeout == .seconds(3))
    }

    @Test func fetchOfAMissingRecordThrows404AndEmitsError() async throws {
        let note = Model(["id": 99, "title": "kept"])
        note.urlRoot = "/notes"
        note.sync = InMemorySync(records: ["/notes": [["id": 1]]])
        let log = SyncEventLog()
        log.watch(note)

        await #expect(throws: SyncError.storeRefused(StoreRefusal(.notFound, path: "notes/99"))) {
            try await note.fetch()
        }
        #expect(log.entries == ["request", "error"])
        #expect(log.events(named: "error").first?.syncError == .storeRefused(StoreRefusal(.notFound, path: "notes/99")))
        #expect(note["title"] == "kept")
    }

    // Backbone model.js #3470 "save and fetch with parse false".
    @Test func parseFalseSkipsParse() async throws {
        let backend = ScriptedSync { request in
            SyncResponse(body: ["i": request.method == .read ? 1 : 2])
        }
        let note = EnvelopedNote(["id": 1])
        note.sync = backend
        try await note.fetch(options: SyncOptions(parse: false))
        #expect(note["i"] == 1)
        try await note.save(nil, options: SyncOptions(parse: false))
        #expect(note["i"] == 2)
        #expect(note.parsed.isEmpty)
    }

    @Test func parseRunsOnEveryResponse() async throws {
        let backend = ScriptedSync { request in
            switch request.method {
            case .create: return SyncResponse(status: 201, body: ["note": ["id": 5, "title": "created"]])
            case .read: return SyncResponse(body: ["note": ["id": 5, "title": "fetched"]])
            default: return SyncResponse(body: ["note": ["id": 5, "title": "updated"]])
            }
        }
        let note = EnvelopedNote(["title": "draft"])
        note.sync = backend

        try await note.save()
        #expect(note.attributes == ["id": 5, "title": "created"])
        try await note.fetch()
        #expect(note["title"] == "fetched")
        try await note.save(["title": "x"])
        #expect(note["title"] == "updated")
        try await note.save(["title": "y"], patch: true)
        #expect(note.parsed.count == 4)
        #expect(note.parsed.first == ["note": ["id": 5, "title": "created"]])
    }

    @Test func fetchResponseThatIsNotAnObjectChangesNothing() async throws {
        let note = Model(["id": 1, "title": "kept"])
        note.urlRoot = "/notes"
        note.sync = ScriptedSync(always: SyncResponse(body: [1, 2, 3]))
        let log = SyncEventLog()
        log.watch(note)
        try await note.fetch()
        #expect(note["title"] == "kept")
        #expect(log.entries == ["request", "sync"])
    }
}

// MARK: - Handlers and events

@MainActor
struct ModelSyncCallbackTests {
    // Backbone model.js "save, fetch, destroy triggers error event when an error occurs".
    @Test func saveFetchAndDestroyEmitErrorAndThrow() async throws {
        let failure = SyncError.httpStatus(500, body: nil)
        let model = Model()
        model.urlRoot = "/test"
        model.sync = ScriptedSync(failing: failure)
        let log = SyncEventLog()
        log.watch(model, events: "error")

        await #expect(throws: failure) { try await model.save(["data": 2, "id": 1]) }
        await #expect(throws: failure) { try await model.fetch() }
        await #expect(throws: failure) { try await model.destroy() }

        #expect(log.count("error") == 3)
        #expect(log.events.allSatisfy { $0.syncError == failure && $0.model === model })
        #expect(log.events.map { $0.request?.method } == [.update, .read, .delete])
    }

    // Backbone model.js #1355, "save/fetch/destroy will pass extra options to success callback", #3283.
    @Test func successHandlerRunsForSaveFetchAndDestroy() async throws {
        let model = Model()
        model.urlRoot = "/test"
        model.sync = ScriptedSync(always: SyncResponse(body: ["id": 1]))
        let log = SyncEventLog()
        log.watch(model, events: "sync")
        let options = SyncOptions(onSuccess: { response in log.note("onSuccess \(response.status)") })

        try await model.save(["id": 1], options: options)
        try await model.fetch(options: options)
        try await model.destroy(options: options)

        #expect(log.entries == Array(repeating: ["onSuccess 200", "sync"], count: 3).flatMap { $0 })
    }

    // Backbone model.js "save/fetch/destroy will pass extra options to success callback" and
    // collection.js "create will pass extra options to success callback": a call's options
    // (with custom values) reach every event the call causes.
    @Test func callOptionsReachTheEventsOfTheCall() async throws {
        let notes = Collection<Model>(url: "/test", sync: ScriptedSync(always: SyncResponse(body: ["id": 1])))
        var seen: [String] = []
        notes.on("request sync error") { event in
            seen.append(event.name + (event.options["specialSync"] == true ? " special" : " plain"))
        }
        let options = SyncOptions(custom: ["specialSync": true])
        let model = try await notes.create([:], options: options)
        try await model.fetch(options: options)
        try await model.save(options: options)
        notes.sync = ScriptedSync(failing: .timedOut)
        await #expect(throws: SyncError.timedOut) { try await model.destroy(wait: true, options: options) }
        let expected: [String] =
            Array(repeating: ["request special", "sync special"], count: 3).flatMap { $0 }
            + ["request special", "error special"]
        #expect(seen == expected)
    }

    // ISModel: a failure handler replaces the `error` event.
    @Test func failureHandlerReplacesTheErrorEvent() async throws {
        let failure = SyncError.transport("offline")
        let model = Model(["id": 1])
        model.urlRoot = "/test"
        model.sync = ScriptedSync(failing: failure)
        let log = SyncEventLog()
        log.watch(model, events: "error")
        var handled: [SyncError] = []
        let options = SyncOptions(onFailure: { handled.append($0) })

        await #expect(throws: failure) { try await model.save(["a": 1], options: options) }
        await #expect(throws: failure) { try await model.fetch(options: options) }
        await #expect(throws: failure) { try await model.destroy(options: options) }

        #expect(handled == [failure, failure, failure])
        #expect(log.entries.isEmpty)
    }

    // Backbone model.js #1412 "Trigger 'sync' event".
    @Test func syncEventForFetchSaveAndDestroy() async throws {
        let model = Model(["id": 1])
        model.urlRoot = "/test"
        model.sync = ScriptedSync()
        let log = SyncEventLog()
        log.watch(model, events: "sync")
        try await model.fetch()
        try await model.save()
        try await model.destroy()
        #expect(log.events.map { $0.request?.method } == [.read, .update, .delete])
    }

    @Test func requestEventCarriesTheRequestBeforeTheBackendRuns() async throws {
        let backend = InMemorySync()
        let model = Model(["title": "t"])
        model.urlRoot = "/notes"
        model.sync = backend
        var recordedBeforeRequest: Int?
        model.on("request") { _ in recordedBeforeRequest = backend.requests.count }
        try await model.save()
        #expect(recordedBeforeRequest == 0)
    }

    @Test func missingBackendThrows() async throws {
        let model = Model(["id": 1])
        model.urlRoot = "/test"
        await #expect(throws: SyncError.missingBackend) { try await model.fetch() }
        await #expect(throws: SyncError.missingBackend) { try await model.save() }
        await #expect(throws: SyncError.missingBackend) { try await model.destroy() }
    }

    @Test func missingURLThrowsAndRollsBackTheOptimisticSave() async throws {
        let backend = ScriptedSync()
        let model = Model(["title": "a"])
        model.sync = backend
        await #expect {
            try await model.save(["title": "b"])
        } throws: { error in
            guard case SyncError.missingURL = error else { return false }
            return true
        }
        #expect(model["title"] == "a")
        #expect(backend.requests.isEmpty)
    }

    @Test func optimisticSaveKeepsItsAttributesWhenTheServerFails() async throws {
        let model = Model(["id": 1, "title": "a"])
        model.urlRoot = "/test"
        model.sync = ScriptedSync(failing: .httpStatus(503, body: nil))
        await #expect(throws: SyncError.httpStatus(503, body: nil)) { try await model.save(["title": "b"]) }
        #expect(model["title"] == "b")
        #expect(model.unsavedChanges == ["id": 1, "title": "b"])
    }
}
