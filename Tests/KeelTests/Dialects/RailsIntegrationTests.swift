import Foundation
import Keel
import KeelTestServer
import Testing

/// The Rails preset against a stock Rails 6.1 API app: root keys in and out (scaffold,
/// `include_root_in_json`, explicit roots), snake_case, PATCH updates, datetimes, decimals and
/// 422 errors, through every verb, with no glue code.
@MainActor
struct RailsIntegrationTests {
    final class Note: Model {
        static let dueAt = AttributeKey<Date>("dueAt")
        static let priority = AttributeKey<Decimal>("priority")
        override class var urlRoot: String? { "/notes" }
        override class var wireFormat: WireFormat { .rails }
    }

    final class Person: Model {
        override class var urlRoot: String? { "/people" }
        override class var wireFormat: WireFormat { .rails }
    }

    final class Category: Model {
        override class var urlRoot: String? { "/categories" }
        override class var wireFormat: WireFormat { .rails }
    }

    private func rails() async throws -> RESTSync {
        RESTSync(baseURL: try await RailsTestServer.shared.baseURL)
    }

    @Test func notesThroughEveryVerb() async throws {
        let notes = Collection<Note>(url: "/notes", sync: try await rails())
        let due = try #require(Date(json: "2026-12-01T09:30:00.250Z"))
        let note = try await notes.create(["title": "Milk", "dueAt": due.json, "priority": "12.5"])
        let id = try #require(note.id)
        #expect(note[Note.dueAt] == due)
        #expect(note[Note.priority] == Decimal(string: "12.5"))
        #expect(note["done"] == false)
        #expect(note["createdAt"] != nil)

        var methods: [SyncMethod] = []
        note.on("request") { event in if let method = event.request?.method { methods.append(method) } }
        var put = WireFormat.rails
        put.updateVerb = .put
        try await note.save(["done": false], options: SyncOptions(wireFormat: put))
        try await note.save(["done": true])
        try await note.save(["title": "Oat milk"], patch: true)
        try await note.save(patch: true)
        #expect(methods == [.update, .patch, .patch])
        let fetched = Note(["id": id])
        fetched.sync = notes.sync
        try await fetched.fetch()
        #expect(fetched["title"] == "Oat milk")
        #expect(fetched["done"] == true)
        #expect(fetched[Note.dueAt] == due)

        try await notes.fetch()
        #expect(notes.get(id) === note)
        try await note.destroy(wait: true)
        await #expect(throws: SyncError.httpStatus(404, body: ["error": "not found"])) { try await fetched.fetch() }
    }

    @Test func scaffoldValidationErrorsReachTheModel() async throws {
        let note = Note(["title": "Draft"])
        note.sync = try await rails()
        try await note.save()
        var events: [String] = []
        note.on("invalid") { _ in events.append("invalid") }
        note.on("error") { event in events.append("error \(event.validationError?["title"] ?? [])") }
        await #expect(throws: SyncError.validationFailed(["title": ["can't be blank"]], status: 422)) {
            try await note.save(["title": ""], wait: true)
        }
        #expect(note["title"] == "Draft")
        #expect(events == ["invalid", #"error ["can\'t be blank"]"#])
        try await note.destroy()
    }

    @Test func rootsFromIncludeRootInJSONAreReadPerRecord() async throws {
        let backend = try await rails()
        let person = Person(["name": "Ada", "email": "ada@example.com"])
        person.sync = backend
        try await person.save()
        #expect(person.id != nil)
        #expect(person["email"] == "ada@example.com")
        let people = Collection<Person>(url: "/people", sync: backend)
        try await people.fetch()
        #expect(people.get(person.id ?? nil)?["name"] == "Ada")
        await #expect(throws: SyncError.validationFailed(["name": ["can't be blank"]], status: 422)) {
            try await person.save(["name": ""], wait: true)
        }
    }

    @Test func explicitRootsAndWrappedErrorsAreRead() async throws {
        let backend = try await rails()
        let name = "Books \(UUID().uuidString.prefix(8))"
        let category = Category(["name": .string(name)])
        category.sync = backend
        try await category.save()
        let categories = Collection<Category>(url: "/categories", sync: backend)
        try await categories.fetch()
        #expect(categories.get(category.id ?? nil)?["name"] == .string(name))
        let duplicate = Category(["name": .string(name)])
        duplicate.sync = backend
        await #expect(throws: SyncError.self) { try await duplicate.save() }
        #expect(duplicate.validationError?["name"] == ["has already been taken"])
    }
}

/// Request management against the stock Rails app: Rack's `ETag` and `ConditionalGet`
/// middleware, which every Rails app has, answer a repeated GET with 304.
@MainActor
struct RailsRequestManagementTests {
    @Test func aRepeatedFetchIsAnswered304AndLeavesTheModelAsItIs() async throws {
        let base = RESTSync(baseURL: try await RailsTestServer.shared.baseURL)
        let notes = Collection<RailsIntegrationTests.Note>(url: "/notes", sync: base)
        let created = try await notes.create(["title": "Cached"])
        let id = try #require(created.id)

        let statuses = Lock<[Int]>([])
        let conditional = ConditionalSync(StatusRecorder(base, into: statuses))
        let note = RailsIntegrationTests.Note(["id": id])
        note.sync = conditional
        try await note.fetch()
        var changes = 0
        var syncs = 0
        note.on("change") { _ in changes += 1 }
        note.on("sync") { _ in syncs += 1 }
        try await note.fetch()

        #expect(statuses.withLock { $0 } == [200, 304])
        #expect(note["title"] == "Cached")
        #expect(changes == 0)
        #expect(syncs == 1)
        try await created.destroy(wait: true)
    }
}

/// Records the status of every answer its base gives, including a 304 thrown as an error.
private final class StatusRecorder: Sync {
    private let base: any Sync
    private let statuses: Lock<[Int]>

    init(_ base: any Sync, into statuses: Lock<[Int]>) {
        self.base = base
        self.statuses = statuses
    }

    func perform(_ request: SyncRequest) async throws(SyncError) -> SyncResponse {
        do {
            let response = try await base.perform(request)
            statuses.withLock { $0.append(response.status) }
            return response
        } catch {
            statuses.withLock { $0.append(error.status ?? 0) }
            throw error
        }
    }
}
