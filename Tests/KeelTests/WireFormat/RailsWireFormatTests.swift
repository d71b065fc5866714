import Foundation
import Keel
import Testing

/// The Rails preset: root-wrapped bodies, snake_case keys, read-only timestamps, PATCH updates,
/// for every verb and for collections (against a scripted backend; the real Rails app is
/// driven in `RailsIntegrationTests`).
@MainActor
struct RailsWireFormatTests {
    enum Rails {
        final class Note: Model {
            override class var urlRoot: String? { "/notes" }
            override class var wireFormat: WireFormat { .rails }
        }

        final class Person: Model {
            override class var urlRoot: String? { "/people" }
            override class var wireFormat: WireFormat { .rails }
        }
    }

    @Test func createWrapsTheBodyInTheRootAndSendsSnakeCaseWithoutReadOnlyAttributes() async throws {
        let backend = ScriptedSync { _ in
            SyncResponse(status: 201, body: ["id": 1, "title": "Milk", "due_at": "2026-11-23", "created_at": "2026"])
        }
        let note = Rails.Note(["title": "Milk", "dueAt": "2026-11-23", "createdAt": "local"])
        note.sync = backend
        try await note.save()
        let request = try #require(backend.requests.first)
        #expect(request.method == .create)
        #expect(request.body == ["note": ["title": "Milk", "due_at": "2026-11-23"]])
        #expect(note.attributes == ["title": "Milk", "dueAt": "2026-11-23", "createdAt": "2026", "id": 1])
    }

    @Test func aFullSaveIsAPatchWithTheWholeRecord() async throws {
        let backend = ScriptedSync { request in SyncResponse(body: request.body?["note"]) }
        let note = Rails.Note(["id": 4, "title": "Milk", "done": false])
        note.sync = backend
        try await note.save(["done": true])
        #expect(backend.requests.map(\.method) == [.patch])
        #expect(backend.requests.first?.body == ["note": ["title": "Milk", "done": true]])
        #expect(backend.requests.first?.url.absoluteString == "/notes/4")
    }

    @Test func aPatchSendsOnlyTheChangesThroughTheSamePipeline() async throws {
        let backend = ScriptedSync { _ in SyncResponse(body: ["id": 4, "due_at": "tomorrow", "title": "Milk"]) }
        let note = Rails.Note(["id": 4, "title": "Milk"])
        note.sync = backend
        try await note.save(["dueAt": "tomorrow"], patch: true)
        #expect(backend.requests.first?.method == .patch)
        #expect(backend.requests.first?.body == ["note": ["due_at": "tomorrow"]])
        #expect(note["dueAt"] == "tomorrow")
    }

    @Test func wrappedAndUnwrappedResponsesBothRead() async throws {
        for body: JSONValue in [["note": ["id": 2, "due_at": "x"]], ["id": 2, "due_at": "x"]] {
            let note = Rails.Note(["id": 2])
            note.sync = ScriptedSync(always: SyncResponse(body: body))
            try await note.fetch()
            #expect(note.attributes == ["id": 2, "dueAt": "x"])
        }
    }

    @Test func theRootIsNamedAfterTheClassWithRailsInflection() async throws {
        let backend = ScriptedSync { _ in SyncResponse(status: 201, body: ["person": ["id": 1, "first_name": "Ada"]]) }
        let person = Rails.Person(["firstName": "Ada"])
        person.sync = backend
        try await person.save()
        #expect(backend.requests.first?.body == ["person": ["first_name": "Ada"]])
        #expect(person["firstName"] == "Ada")
        #expect(person.id == 1)

        let people = Collection<Rails.Person>(
            url: "/people",
            sync: ScriptedSync(
                always: SyncResponse(body: [
                    "people": [["id": 1, "first_name": "Ada"], ["id": 2, "first_name": "Grace"]]
                ])
            )
        )
        try await people.fetch()
        #expect(people.pluck("firstName") == ["Ada", "Grace"])
    }

    @Test func listsWrappedPerRecordReadAndARefetchKeepsTheInstances() async throws {
        let responses = Lock<[JSONValue]>([
            [["note": ["id": 1, "title": "a"]], ["note": ["id": 2, "title": "b"]]],
            [["note": ["id": 1, "title": "A"]], ["note": ["id": 2, "title": "b"]]],
        ])
        let backend = ScriptedSync { _ in SyncResponse(body: responses.withLock { $0.removeFirst() }) }
        let notes = Collection<Rails.Note>(url: "/notes", sync: backend)
        try await notes.fetch()
        let first = try #require(notes.get(1))
        var changes: [String] = []
        first.on("change:title") { _ in changes.append("title") }
        try await notes.fetch()
        #expect(notes.get(1) === first)
        #expect(first["title"] == "A")
        #expect(changes == ["title"])
    }

    @Test func serverValidationErrorsUseTheAppNames() async throws {
        let backend = ScriptedSync(
            failing: SyncError(
                failing: SyncResponse(
                    status: 422,
                    body: [
                        "due_at": ["can't be in the past"], "base": ["Note is locked"],
                    ]
                )
            )
        )
        let note = Rails.Note(["id": 3, "dueAt": "yesterday"])
        note.sync = backend
        var invalid = 0
        note.on("invalid") { _ in invalid += 1 }
        await #expect(throws: SyncError.self) { try await note.save(wait: true) }
        #expect(note.validationError?["dueAt"] == ["can't be in the past"])
        #expect(note.validationError?.messages == ["Note is locked"])
        #expect(invalid == 1)
    }

    @Test func theRolesDecideWhatTravels() async throws {
        var format = WireFormat.rails
        format.roles["password"] = .sendOnly
        format.roles["isExpanded"] = .localOnly
        let backend = ScriptedSync { _ in
            SyncResponse(body: ["id": 5, "password": "from-server", "is_expanded": false, "name": "n"])
        }
        let note = Rails.Note(["id": 5, "password": "secret", "isExpanded": true, "name": "n"])
        note.sync = backend
        try await note.save(options: SyncOptions(wireFormat: format))
        #expect(backend.requests.first?.body == ["note": ["password": "secret", "name": "n"]])
        #expect(note["password"] == "secret")
        #expect(note["isExpanded"] == true)
    }

    @Test func aRequiredRootThatIsMissingThrowsNamingItAndLeavesTheModelAlone() async throws {
        var format = WireFormat.rails
        format.root.responses = .required
        let note = Rails.Note(["id": 9, "title": "kept"])
        note.sync = ScriptedSync(always: SyncResponse(body: ["id": 9, "title": "lost"]))
        var errors: [any Error] = []
        note.on("error") { event in if let error = event.error { errors.append(error) } }
        await #expect(
            throws: SyncError.unmappableResponse(
                keyPath: "note",
                reason: "the record is not under its root key \"note\""
            )
        ) {
            try await note.fetch(options: SyncOptions(wireFormat: format))
        }
        #expect(note["title"] == "kept")
        #expect(errors.count == 1)
    }

    @Test func aCreatedRecordWithoutItsIDThrowsNamingTheIDAndStaysNew() async throws {
        let note = Rails.Note(["title": "Milk"])
        note.sync = ScriptedSync(always: SyncResponse(status: 201, body: ["note": ["title": "Milk!"]]))
        await #expect(throws: SyncError.unmappableResponse(keyPath: "id", reason: "the created record has no id")) {
            try await note.save()
        }
        #expect(note.isNew)
        #expect(note["title"] == "Milk")
    }

    @Test func aListWithARecordThatIsNotAnObjectThrowsNamingItsPath() async throws {
        let notes = Collection<Rails.Note>(
            url: "/notes",
            sync: ScriptedSync(
                always: SyncResponse(body: [
                    "notes": [["id": 1], 7]
                ])
            )
        )
        notes.add(Rails.Note(["id": 3]))
        await #expect(throws: SyncError.unmappableResponse(keyPath: "notes[1]", reason: "a record is an object, not 7"))
        {
            _ = try await notes.fetch()
        }
        #expect(notes.pluck("id") == [3])
    }
}
