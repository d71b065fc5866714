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

/// Always invalid.
private final class AlwaysInvalid: Model {
    override class var urlRoot: String? { "/test" }
    var validations = 0

    override func validate(_ attributes: Attributes, options: ChangeOptions) -> ValidationError? {
        validations += 1
        return ValidationError("invalid")
    }
}

/// Counts validations and accepts everything.
private final class CountingValidator: Model {
    override class var urlRoot: String? { "/test" }
    var validations = 0

    override func validate(_ attributes: Attributes, options: ChangeOptions) -> ValidationError? {
        validations += 1
        return nil
    }
}

// MARK: - Validation before save

@MainActor
struct ModelSaveValidationTests {
    // Backbone model.js "save without `wait` doesn't set invalid attributes".
    @Test func invalidAttributesAreNotSetNorSent() async throws {
        let backend = ScriptedSync()
        let model = AlwaysInvalid()
        model.sync = backend
        await #expect(throws: SyncError.validationFailed(ValidationError("invalid"), status: nil)) {
            try await model.save(["a": 1])
        }
        #expect(model["a"] == nil)
        #expect(backend.requests.isEmpty)
    }

    // Backbone model.js "save doesn't validate twice".
    @Test func saveValidatesOnce() async throws {
        let model = CountingValidator()
        model.sync = ScriptedSync(always: SyncResponse(status: 204))
        try await model.save([:])
        #expect(model.validations == 1)
    }

    // Backbone model.js #1433 "Save: An invalid model cannot be persisted".
    @Test func invalidModelIsNeverSent() async throws {
        let backend = ScriptedSync()
        let model = AlwaysInvalid()
        model.sync = backend
        await #expect(throws: SyncError.validationFailed(ValidationError("invalid"), status: nil)) {
            try await model.save()
        }
        #expect(backend.requests.isEmpty)
    }

    // Backbone model.js #1377 "Save without attrs triggers 'error'" (it checks `invalid`).
    @Test func saveWithoutAttributesReportsInvalidAndError() async throws {
        let model = AlwaysInvalid(["id": 1])
        model.sync = ScriptedSync()
        let log = SyncEventLog()
        log.watch(model)
        await #expect(throws: SyncError.self) { try await model.save() }
        #expect(log.entries == ["invalid", "error"])
        #expect(model.validationError == ValidationError("invalid"))
    }

    // ISModel's ValidationErrorHandler.
    @Test func validationErrorHandlerReplacesTheEvents() async throws {
        let backend = ScriptedSync()
        let model = AdminGuarded()
        model.sync = backend
        let log = SyncEventLog()
        log.watch(model)
        var handled: [ValidationError] = []
        let options = SyncOptions(onValidationError: { origin, errors, _ in
            #expect(origin === model)
            handled.append(errors)
        })

        await #expect(throws: SyncError.validationFailed(ValidationError("Can't change admin status."), status: nil)) {
            try await model.save(["admin": true], options: options)
        }
        await #expect(throws: SyncError.self) {
            try await model.save(["admin": true], wait: true, options: options)
        }
        #expect(
            handled == [ValidationError("Can't change admin status."), ValidationError("Can't change admin status.")]
        )
        #expect(log.entries.isEmpty)
        #expect(backend.requests.isEmpty)
    }

    @Test func validateFalseSkipsValidation() async throws {
        let backend = ScriptedSync()
        let model = AlwaysInvalid()
        model.sync = backend
        try await model.save(["a": 1], options: SyncOptions(validate: false))
        #expect(backend.requests.count == 1)
    }

    @Test func serverValidationErrorsReachErrorObservers() async throws {
        let errors: ValidationError = ["title": ["can't be blank"]]
        let backend = ScriptedSync { _ throws(SyncError) in
            throw SyncError(failing: SyncResponse(status: 422, body: ["title": ["can't be blank"]]))
        }
        let note = Model(["title": ""])
        note.urlRoot = "/notes"
        note.sync = backend
        let log = SyncEventLog()
        log.watch(note)

        await #expect(throws: SyncError.validationFailed(errors, status: 422)) { try await note.save() }
        #expect(log.entries == ["request", "invalid", "error"])
        #expect(log.events(named: "error").first?.syncError == .validationFailed(errors, status: 422))
        #expect(log.events(named: "error").first?.validationError == errors)
        #expect(log.events(named: "invalid").first?.validationError == errors)
        #expect(note.validationError == errors)
    }

    @Test func serverValidationErrorsGoToTheValidationHandlerInsteadOfInvalid() async throws {
        let errors: ValidationError = ["title": ["is taken"]]
        let backend = InMemorySync()
        backend.failNext(with: .validationFailed(errors, status: 422))
        let note = Model(["title": "Dune"])
        note.urlRoot = "/notes"
        note.sync = backend
        let log = SyncEventLog()
        log.watch(note)
        var handled: [ValidationError] = []

        await #expect(throws: SyncError.self) {
            try await note.save(options: SyncOptions(onValidationError: { _, errors, _ in handled.append(errors) }))
        }

        #expect(handled == [errors])
        #expect(log.entries == ["request", "error"])
        #expect(note.validationError == errors)
    }

    @Test func serverValidationErrorsUnderWaitLeaveTheModelUnchanged() async throws {
        let backend = InMemorySync()
        let note = Model(["title": "Dune"])
        note.urlRoot = "/notes"
        note.sync = backend
        try await note.save()
        backend.failNext(with: .validationFailed(["title": ["is taken"]], status: 422))
        let log = SyncEventLog()
        log.watch(note)

        await #expect(throws: SyncError.self) { try await note.save(["title": "Taken"], wait: true) }

        #expect(note["title"] == "Dune")
        #expect(note.validationError == ["title": ["is taken"]])
        #expect(log.entries == ["request", "invalid", "error"])
    }

    @Test func aSuccessfulSaveClearsTheServersValidationErrors() async throws {
        let backend = InMemorySync()
        let note = Model(["title": "Dune"])
        note.urlRoot = "/notes"
        note.sync = backend
        backend.failNext(with: .validationFailed(["title": ["is taken"]], status: 422))
        await #expect(throws: SyncError.self) { try await note.save() }
        try await note.save(["title": "Dune Messiah"])
        #expect(note.validationError == nil)
    }
}
