import Foundation
import Keel
import Testing

/// Rejects `admin: true`, like the validators of Backbone's model tests, and counts its calls.
private final class AdminGuarded: Model {
    override class var urlRoot: String? { "/test" }
    var validatedAttributes: [Attributes] = []

    override func validate(_ attributes: Attributes, options: ChangeOptions) -> ValidationError? {
        validatedAttributes.append(attributes)
        return attributes["admin"] == true ? ValidationError("Can't change admin status.") : nil
    }
}

/// Records the attributes `toJSON` and `url()` see, and leaves out `localOnly`.
private final class Recorded: Model {
    override class var urlRoot: String? { "/test" }
    var toJSONSaw: [Attributes] = []
    var urlSaw: [Attributes] = []

    override func toJSON(options: ChangeOptions) -> Attributes {
        let attributes = super.toJSON(options: options)
        toJSONSaw.append(attributes)
        return attributes.filter { $0.key != "localOnly" }
    }

    override func url() throws(SyncError) -> String {
        urlSaw.append(toJSONAttributes)
        return try super.url()
    }

    private var toJSONAttributes: Attributes { super.toJSON(options: ChangeOptions()) }
}

// MARK: - Save

@MainActor
struct ModelSaveTests {
    // Backbone model.js "save".
    @Test func savingASavedModelUpdates() async throws {
        let backend = ScriptedSync()
        let (doc, collection) = makeTempestFixture(sync: backend)
        defer { withExtendedLifetime(collection) {} }
        try await doc.save(["title": "Henry V"])
        #expect(backend.requests.map(\.method) == [.update])
        #expect(backend.requests.first?.path == "/collection/1-the-tempest")
        #expect(doc["title"] == "Henry V")
    }

    @Test func savingANewModelCreatesAndTakesTheAssignedID() async throws {
        let backend = InMemorySync()
        let note = Model(["title": "Groceries"])
        note.urlRoot = "/notes"
        note.sync = backend
        let response = try await note.save()
        #expect(response.status == 201)
        #expect(note.id == 1)
        #expect(!note.isNew)
        #expect(backend.records(at: "/notes") == [["title": "Groceries", "id": 1]])
        #expect(backend.requests.first?.body == ["title": "Groceries"])
    }

    // Backbone §2.11: the event order of a save without wait, with a response {id: 7, b: 2}.
    @Test func saveEventOrderWithoutWait() async throws {
        let backend = ScriptedSync(always: SyncResponse(status: 201, body: ["id": 7, "b": 2]))
        let model = Model()
        model.urlRoot = "/things"
        model.sync = backend
        let log = SyncEventLog()
        log.watch(model)

        try await model.save(["a": 1], options: SyncOptions(onSuccess: { _ in log.note("onSuccess") }))

        #expect(
            log.entries == [
                "change:a", "change", "request", "changeId", "change:id", "change:b", "change", "onSuccess", "sync",
            ]
        )
        #expect(model.attributes == ["a": 1, "id": 7, "b": 2])
    }

    @Test func saveUsesToJSONForTheBody() async throws {
        let backend = ScriptedSync()
        let model = Recorded(["title": "x", "localOnly": true])
        model.sync = backend
        try await model.save()
        #expect(backend.requests.first?.body == ["title": "x"])
    }

    // Backbone model.js "save with PATCH".
    @Test func patchSendsOnlyTheGivenAttributes() async throws {
        let backend = ScriptedSync()
        let (doc, collection) = makeTempestFixture(sync: backend)
        defer { withExtendedLifetime(collection) {} }
        doc.clear()
        doc.set(["id": 1, "a": 1, "b": 2, "c": 3, "d": 4])

        try await doc.save()
        #expect(backend.requests.last?.method == .update)
        #expect(backend.requests.last?.body == ["id": 1, "a": 1, "b": 2, "c": 3, "d": 4])

        try await doc.save(["b": 2, "d": 4], patch: true)
        #expect(backend.requests.last?.method == .patch)
        #expect(backend.requests.last?.body == ["b": 2, "d": 4])
        #expect(backend.requests.last?.path == "/collection/1")
    }

    // Backbone model.js "save with PATCH and different attrs" (options.attrs is SyncSyncOptions.body).
    @Test func explicitBodyOverridesTheAttributesSent() async throws {
        let backend = ScriptedSync()
        let (doc, collection) = makeTempestFixture(sync: backend)
        defer { withExtendedLifetime(collection) {} }
        doc.clear()
        try await doc.save(["b": 2, "d": 4], patch: true, options: SyncOptions(body: ["B": 1, "D": 3]))
        #expect(backend.requests.last?.body == ["B": 1, "D": 3])
        #expect(doc.attributes == ["b": 2, "d": 4])
    }

    @Test func patchOfANewModelStillCreatesWithTheWholeModel() async throws {
        let backend = ScriptedSync(always: SyncResponse(status: 201, body: ["id": 3]))
        let model = Model(["a": 1])
        model.urlRoot = "/things"
        model.sync = backend
        try await model.save(["b": 2], patch: true)
        #expect(backend.requests.first?.method == .create)
        #expect(backend.requests.first?.body == ["a": 1, "b": 2])
    }

    // Keel: patch without attributes sends the unsaved changes (Backbone sends the whole model).
    @Test func patchWithoutAttributesSendsTheUnsavedChanges() async throws {
        let backend = InMemorySync()
        let note = Model(["title": "a", "done": false, "due": "today"])
        note.urlRoot = "/notes"
        note.sync = backend
        try await note.save()
        #expect(note.unsavedChanges == nil)

        note["title"] = "b"
        note.unset("due")
        #expect(note.unsavedChanges == ["title": "b", "due": nil])
        try await note.save(patch: true)
        #expect(backend.requests.last?.method == .patch)
        #expect(backend.requests.last?.body == ["title": "b", "due": nil])
        #expect(note.unsavedChanges == nil)
    }

    // Backbone model.js "save with non-object success response".
    @Test(arguments: [JSONValue.string(""), JSONValue.null])
    func nonObjectSuccessResponseLeavesTheAttributes(body: JSONValue) async throws {
        let model = Model()
        model.urlRoot = "/test"
        model.sync = ScriptedSync(always: SyncResponse(body: body))
        var succeeded = false
        try await model.save(
            ["testing": "empty"],
            options: SyncOptions(onSuccess: { _ in
                succeeded = true
                #expect(model.attributes == ["testing": "empty"])
            })
        )
        #expect(succeeded)
        #expect(model.attributes == ["testing": "empty"])
    }

    @Test func emptyResponseKeepsTheSavedAttributes() async throws {
        let model = Model(["id": 1, "title": "a"])
        model.urlRoot = "/test"
        model.sync = ScriptedSync(always: SyncResponse(status: 204))
        let log = SyncEventLog()
        log.watch(model)
        try await model.save(["title": "b"])
        #expect(model.attributes == ["id": 1, "title": "b"])
        #expect(log.entries == ["change:title", "change", "request", "sync"])
    }

    // Backbone model.js "validate after save".
    @Test func serverAnswerIsValidatedLikeAnyChange() async throws {
        let model = AdminGuarded()
        model.sync = ScriptedSync(always: SyncResponse(body: ["admin": true]))
        let log = SyncEventLog()
        log.watch(model)

        await #expect(throws: SyncError.validationFailed(ValidationError("Can't change admin status."), status: 200)) {
            try await model.save()
        }
        #expect(model.validationError == ValidationError("Can't change admin status."))
        #expect(log.count("invalid") == 1)
        #expect(log.events(named: "invalid").first?.validationError == ValidationError("Can't change admin status."))
        #expect(model["admin"] == nil)
        #expect(log.count("sync") == 0)
    }

    // Backbone model.js "save within change event".
    @Test func saveWithinAChangeHandler() async throws {
        let backend = ScriptedSync()
        let model = Model(["firstName": "Taylor", "lastName": "Swift"])
        model.urlRoot = "/test"
        model.sync = backend
        var pending: Task<Void, any Error>?
        model.once("change") { _ in
            pending = Task { try await model.save() }
        }
        model.set(["lastName": "Hicks"])
        try await #require(pending).value
        #expect(backend.requests.count == 1)
        #expect(backend.requests.first?.body?["lastName"] == "Hicks")
    }
}

// MARK: - Save with wait

@MainActor
struct ModelSaveWaitTests {
    // Backbone model.js "`save` with `wait` sends correct attributes".
    @Test func waitSendsMergedAttributesAndAppliesThemOnSuccess() async throws {
        let backend = ScriptedSync(always: SyncResponse(body: [:]))
        let model = Model(["x": 1, "y": 2])
        model.urlRoot = "/test"
        model.sync = backend
        var changes = 0
        model.on("change:x") { _ in changes += 1 }
        model.on("request") { event in
            #expect(event.request?.body == ["x": 3, "y": 2])
            #expect(model["x"] == 1)
            #expect(changes == 0)
        }

        try await model.save(["x": 3], wait: true)

        #expect(model["x"] == 3)
        #expect(changes == 1)
    }

    @Test func waitEventOrder() async throws {
        let model = Model(["id": 1, "x": 1])
        model.urlRoot = "/test"
        model.sync = ScriptedSync(always: SyncResponse(body: ["id": 1, "x": 3, "y": 9]))
        let log = SyncEventLog()
        log.watch(model)
        try await model.save(["x": 3], wait: true, options: SyncOptions(onSuccess: { _ in log.note("onSuccess") }))
        #expect(log.entries == ["request", "change:x", "change:y", "change", "onSuccess", "sync"])
    }

    // Backbone model.js "a failed `save` with `wait` doesn't leave attributes behind".
    @Test func failedWaitSaveLeavesNothingBehind() async throws {
        let model = Model()
        model.urlRoot = "/test"
        model.sync = ScriptedSync(failing: .httpStatus(500, body: nil))
        let log = SyncEventLog()
        log.watch(model)
        await #expect(throws: SyncError.httpStatus(500, body: nil)) {
            try await model.save(["x": 1], wait: true)
        }
        #expect(model["x"] == nil)
        #expect(model.attributes.isEmpty)
        // Backbone model.js "failing save with wait:true triggers error event (#4262)".
        #expect(log.entries == ["request", "error"])
    }

    // Backbone model.js #1030.
    @Test func waitSaveWithAnEmptyResponseAppliesTheAttributes() async throws {
        let model = Model(["x": 1, "y": 2])
        model.urlRoot = "/test"
        model.sync = ScriptedSync(always: SyncResponse(status: 204))
        var changes = 0
        model.on("change:x") { _ in changes += 1 }
        try await model.save(["x": 3], wait: true)
        #expect(model["x"] == 3)
        #expect(changes == 1)
    }

    // Backbone model.js "save with wait and supplied id".
    @Test func waitSaveWithSuppliedIDUpdatesAtThatID() async throws {
        let backend = ScriptedSync()
        let model = Model()
        model.urlRoot = "/collection"
        model.sync = backend
        try await model.save(["id": 42], wait: true)
        #expect(backend.requests.first?.method == .update)
        #expect(backend.requests.first?.path == "/collection/42")
        #expect(model.id == 42)
    }

    // Backbone model.js "toJSON receives attrs during save(..., {wait: true})".
    @Test func toJSONAndURLSeeTheTemporaryAttributes() async throws {
        let backend = ScriptedSync()
        let model = Recorded()
        model.sync = backend
        try await model.save(["x": 1, "id": 5], wait: true)
        #expect(model.toJSONSaw.first == ["x": 1, "id": 5])
        #expect(model.urlSaw.first == ["x": 1, "id": 5])
        #expect(backend.requests.first?.path == "/test/5")
    }

    @Test func temporaryAttributesAreGoneWhileTheRequestIsInFlight() async throws {
        let backend = GatedSync()
        let model = Model(["title": "a"])
        model.urlRoot = "/notes"
        model.sync = backend
        let task = await startInFlight({ try await model.save(["title": "b"], wait: true) }) {
            backend.waitingCount == 1
        }
        #expect(model["title"] == "a")
        #expect(model.isNew)
        backend.release()
        _ = try await task.value
        #expect(model["title"] == "b")
        #expect(model.id == 1)
    }

    // Backbone model.js #1478.
    @Test func waitSaveWithoutChangesFiresNoChange() async throws {
        let model = Model(["x": true])
        model.urlRoot = "/test"
        model.sync = ScriptedSync(always: SyncResponse(status: 200))
        model.on("change:x") { _ in Issue.record("change:x must not fire") }
        try await model.save(nil, wait: true)
    }

    // Backbone model.js "save with wait validates attributes".
    @Test func waitSaveValidatesBeforeSending() async throws {
        let backend = ScriptedSync()
        let model = AdminGuarded()
        model.sync = backend
        try await model.save(["x": 1], wait: true)
        #expect(model.validatedAttributes.first == ["x": 1])

        await #expect(throws: SyncError.validationFailed(ValidationError("Can't change admin status."), status: nil)) {
            try await model.save(["admin": true], wait: true)
        }
        #expect(backend.requests.count == 1)
        #expect(model["admin"] == nil)
    }

    // Backbone model.js "save with `wait` succeeds without `validate`".
    @Test func waitSaveWithoutValidatorIsSent() async throws {
        let backend = ScriptedSync()
        let model = Model()
        model.urlRoot = "/test"
        model.sync = backend
        try await model.save(["x": 1], wait: true)
        #expect(backend.requests.count == 1)
    }
}
