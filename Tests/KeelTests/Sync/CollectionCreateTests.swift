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

/// Always invalid.
private final class Rejected: Model {
    override func validate(_ attributes: Attributes, options: ChangeOptions) -> ValidationError? {
        ValidationError("fail")
    }
}

/// Leaves `draft` out of the body.
private final class Trimmed: Model {
    override func toJSON(options: ChangeOptions) -> Attributes {
        super.toJSON(options: options).filter { $0.key != "draft" }
    }
}

/// Remembers the collection it saw in `initialize`.
private final class Aware: Model {
    weak var collectionAtInitialize: (any ModelCollection)?

    override func initialize(_ attributes: Attributes, options: ChangeOptions) {
        collectionAtInitialize = collection
    }
}

// MARK: - Create

@MainActor
struct CollectionCreateTests {
    @Test func createAddsAtOnceThenSaves() async throws {
        let backend = InMemorySync()
        let notes = Collection<Model>(url: "/notes", sync: backend)
        let log = SyncEventLog()
        log.watch(notes)

        let note = try await notes.create(["title": "Groceries"])

        #expect(note.id == 1)
        #expect(notes.get(1) === note)
        #expect(note.collection === notes)
        #expect(backend.requests.map(\.method) == [.create])
        #expect(backend.requests.first?.path == "/notes")
        #expect(backend.records(at: "/notes") == [["title": "Groceries", "id": 1]])
        // Backbone §3.7, without wait: add, update, request, changeId, change:id, change, sync.
        #expect(log.entries == ["add", "update", "request", "changeId", "change:id", "change", "sync"])
    }

    // Backbone collection.js #1412 "Trigger 'request' and 'sync' events".
    @Test func requestAndSyncEventsReachTheCollection() async throws {
        let notes = Collection<Model>(url: "/test", sync: ScriptedSync(always: SyncResponse(body: [])))
        var seen: [String] = []
        notes.on("request sync") { event in
            seen.append("\(event.name) \(event.model == nil && event.collection === notes ? "collection" : "model")")
        }
        try await notes.fetch()
        notes.off()

        notes.sync = ScriptedSync(always: SyncResponse(body: ["id": 1]))
        notes.on("request sync") { event in
            seen.append("\(event.name) \(event.model === notes.get(1) ? "model 1" : "other")")
        }
        try await notes.create(["id": 1])
        #expect(seen == ["request collection", "sync collection", "request model 1", "sync model 1"])
    }

    // Backbone collection.js "create" and #3028: with wait, the model knows its collection
    // while it is being saved.
    @Test func createWithWaitSavesWithTheCollectionSet() async throws {
        let backend = ScriptedSync()
        let collection = Collection<Model>(url: "/test", sync: backend)
        var collectionDuringRequest: (any ModelCollection)?
        var lengthDuringRequest: Int?
        let model = Model(["label": "f"])
        model.on("request") { _ in
            collectionDuringRequest = model.collection
            lengthDuringRequest = collection.count
        }
        let created = try await collection.create(model, wait: true)
        #expect(created === model)
        #expect(backend.requests.map(\.method) == [.create])
        #expect(backend.requests.first?.path == "/test")
        #expect(collectionDuringRequest === collection)
        #expect(lengthDuringRequest == 0)
        #expect(model["label"] == "f")
        #expect(model.collection === collection)
        #expect(collection.count == 1)
    }

    // Backbone collection.js #1447 "create with wait adds model", #4262 "successful create with
    // wait:true triggers success event", and §3.7's order: request, add, update, success, sync.
    @Test func createWithWaitAddsOnSuccessAndTheCollectionSeesSync() async throws {
        let backend = ScriptedSync(always: SyncResponse(status: 201, body: ["id": 1, "label": "f"]))
        let collection = Collection<Model>(url: "/test", sync: backend)
        let log = SyncEventLog()
        log.watch(collection, label: "collection")
        let model = Model(["label": "f"])
        log.watch(model, label: "model", events: "request sync error")

        try await collection.create(model, wait: true, options: SyncOptions(onSuccess: { _ in log.note("onSuccess") }))

        #expect(log.count("add") == 1)
        #expect(log.count("update") == 1)
        #expect(
            log.entries == [
                "model:request", "collection:add", "collection:update", "onSuccess", "model:sync", "collection:sync",
            ]
        )
    }

    @Test func createWithWaitIsNotAddedBeforeTheServerAgrees() async throws {
        let backend = GatedSync()
        let collection = Collection<Model>(url: "/notes", sync: backend)
        let task = await startInFlight({ _ = try await collection.create(["title": "a"], wait: true) }) {
            backend.waitingCount == 1
        }
        #expect(collection.isEmpty)
        backend.release()
        try await task.value
        #expect(collection.count == 1)
        #expect(collection.first?.id == 1)
    }

    // Backbone collection.js "failing create with wait:true triggers error event (#4262)".
    @Test func failingCreateWithWaitIsNotAddedAndErrorReachesModelAndCollection() async throws {
        let failure = SyncError.httpStatus(500, body: nil)
        let collection = Collection<Model>(url: "/test", sync: ScriptedSync(failing: failure))
        let model = Model(["id": "1"])
        let log = SyncEventLog()
        log.watch(collection, label: "collection", events: "error add")
        log.watch(model, label: "model", events: "error")

        await #expect(throws: failure) { _ = try await collection.create(model, wait: true) }

        #expect(log.entries.sorted() == ["collection:error", "model:error"])
        #expect(log.events(named: "error").allSatisfy { $0.syncError == failure })
        #expect(collection.isEmpty)
        #expect(model.collection == nil)
    }

    // Backbone collection.js "successful create with wait:true drops special error listener (#4284)".
    @Test func afterASuccessfulCreateWithWaitErrorsAreForwardedOnce() async throws {
        let collection = Collection<Model>(url: "/test", sync: ScriptedSync())
        var errors = 0
        collection.on("error") { _ in errors += 1 }
        let model = try await collection.create(["id": "1"], wait: true)
        model.trigger("error")
        #expect(errors == 1)
    }

    // Backbone collection.js "failing create pre-existing with wait:true triggers once (#4262)".
    @Test func failingCreateOfAPresentModelWithWaitReportsOnce() async throws {
        let failure = SyncError.httpStatus(500, body: nil)
        let model = Model()
        let collection = Collection<Model>([model], url: "/test", sync: ScriptedSync(failing: failure))
        var errors = 0
        collection.on("error") { _ in errors += 1 }
        await #expect(throws: failure) { _ = try await collection.create(model, wait: true) }
        #expect(errors == 1)
        #expect(model.collection === collection)
        #expect(collection.count == 1)
    }

    // Backbone collection.js "successful create pre-existing with wait:true preserves other error
    // bindings (#4262)".
    @Test func successfulCreateOfAPresentModelKeepsOtherErrorHandlers() async throws {
        let model = Model()
        let collection = Collection<Model>([model], url: "/test", sync: ScriptedSync())
        var errors = 0
        model.on("error") { _ in errors += 1 }
        try await collection.create(model, wait: true)
        model.trigger("error")
        #expect(errors == 1)
        #expect(collection.count == 1)
    }

    @Test func failingCreateWithoutWaitStaysAddedAndErrorBubblesOnce() async throws {
        let failure = SyncError.transport("offline")
        let collection = Collection<Model>(url: "/test", sync: ScriptedSync(failing: failure))
        var errors = 0
        collection.on("error") { _ in errors += 1 }
        await #expect(throws: failure) { _ = try await collection.create(["title": "a"]) }
        #expect(collection.count == 1)
        #expect(errors == 1)
    }

    // Backbone collection.js "create with validate:true enforces validation".
    @Test func createWithValidateTrueEnforcesValidation() async throws {
        let backend = ScriptedSync()
        let collection = Collection<Rejected>(url: "/test", sync: backend)
        let log = SyncEventLog()
        log.watch(collection)
        await #expect(throws: SyncError.validationFailed(ValidationError("fail"), status: nil)) {
            _ = try await collection.create(["foo": "bar"], options: SyncOptions(validate: true))
        }
        #expect(log.entries == ["invalid"])
        #expect(log.events.first?.validationError == ValidationError("fail"))
        #expect(collection.isEmpty)
        #expect(backend.requests.isEmpty)
    }

    // Backbone collection.js "a failing create returns model with errors".
    // Keel: the error carries the model's errors, and the model is removed again.
    @Test func failingCreateReportsTheModelsErrorsAndRemovesIt() async throws {
        let backend = ScriptedSync()
        let collection = Collection<Rejected>(url: "/test", sync: backend)
        var invalid: [Model] = []
        collection.on("invalid") { event in invalid.append(event.model ?? Model()) }
        await #expect(throws: SyncError.validationFailed(ValidationError("fail"), status: nil)) {
            _ = try await collection.create(["foo": "bar"])
        }
        #expect(collection.isEmpty)
        #expect(invalid.first?.validationError == ValidationError("fail"))
        #expect(backend.requests.isEmpty)
    }

    // Backbone collection.js "create with wait:true should not call collection.parse".
    @Test func createDoesNotCallCollectionParse() async throws {
        let collection = CountingParseCollection(
            url: "/test",
            sync: ScriptedSync(always: SyncResponse(status: 201, body: ["id": 3]))
        )
        let model = try await collection.create([:], wait: true)
        #expect(collection.parses == 0)
        #expect(model.id == 3)
    }

    // Backbone collection.js #2606 "Collection#create, success arguments" and #1355.
    @Test func createSuccessHandlerReceivesTheRawResponse() async throws {
        let collection = Collection<Model>(
            url: "test",
            sync: ScriptedSync(always: SyncResponse(status: 201, headers: ["X-Raw": "yes"], body: ["id": 4]))
        )
        var responses: [SyncResponse] = []
        try await collection.create([:], options: SyncOptions(onSuccess: { responses.append($0) }))
        #expect(responses == [SyncResponse(status: 201, headers: ["x-raw": "yes"], body: ["id": 4])])
    }

    @Test func createSendsToJSON() async throws {
        let backend = ScriptedSync()
        let collection = Collection<Trimmed>(url: "/test", sync: backend)
        try await collection.create(["title": "a", "draft": true])
        #expect(backend.requests.first?.body == ["title": "a"])
    }

    // Backbone collection.js #714 "access `model.collection` in a brand new model".
    @Test func newModelKnowsItsCollectionFromInitialize() async throws {
        let collection = Collection<Aware>(url: "/test", sync: ScriptedSync())
        let model = try await collection.create(["prop": "value"])
        #expect(model.collectionAtInitialize === collection)
        #expect(model["prop"] == "value")
    }

    @Test func createFailureHandlerReplacesTheCollectionError() async throws {
        let failure = SyncError.httpStatus(500, body: nil)
        let collection = Collection<Model>(url: "/test", sync: ScriptedSync(failing: failure))
        var collectionErrors = 0
        collection.on("error") { _ in collectionErrors += 1 }
        var handled: [SyncError] = []
        await #expect(throws: failure) {
            _ = try await collection.create(
                ["a": 1],
                wait: true,
                options: SyncOptions(onFailure: { handled.append($0) })
            )
        }
        #expect(handled == [failure])
        #expect(collectionErrors == 0)
    }
}
