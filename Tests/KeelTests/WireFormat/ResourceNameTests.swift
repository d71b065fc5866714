import Foundation
import Keel
import KeelTestServer
import Testing

/// NSRails' `remoteModelName` and `remoteControllerName`: one class-level resource name gives
/// a Rails model its root key, the owner's route parameter and, without a `urlRoot`, the
/// default URL `/<plural>`; both names can be overridden (`cacti`).
@MainActor
struct ResourceNameTests {
    enum Rails {
        final class Person: Model {
            override class var wireFormat: WireFormat { .rails }
        }

        final class Cactus: Model {
            override class var pluralResourceName: String { "cacti" }
            override class var wireFormat: WireFormat { .rails }
        }

        final class BlogEntry: Model {
            static let replies = HasMany<Reply>("replies")
            override class var relations: [any Relation] { [replies] }
            override class var resourceName: String { "post" }
            override class var wireFormat: WireFormat { .rails }
        }

        final class Reply: Model {
            override class var wireFormat: WireFormat { .rails }
            override class var routes: Routes { Routes("/posts/:post_id/replies/:id") }
        }
    }

    final class PlainNote: Model {}

    @Test func theNamesFollowTheClassWithRailsInflection() {
        #expect(Rails.Person.resourceName == "person")
        #expect(Rails.Person.pluralResourceName == "people")
        #expect(Rails.Cactus.resourceName == "cactus")
        #expect(Rails.Cactus.pluralResourceName == "cacti")
        #expect(Rails.BlogEntry.pluralResourceName == "posts")
        #expect(Model.resourceName == "model")
    }

    @Test func aRailsClassWithoutURLRootUsesItsPluralName() throws {
        #expect(try Rails.Person(["id": 4]).url() == "/people/4")
        #expect(try Rails.Person().url() == "/people")
        #expect(try Rails.Cactus(["id": 3]).url() == "/cacti/3")
        #expect(try Rails.BlogEntry(["id": 1]).url() == "/posts/1")
    }

    @Test func anOverriddenNameIsTheRootKey() async throws {
        let backend = ScriptedSync { _ in SyncResponse(status: 201, body: ["post": ["id": 9, "title": "Hi"]]) }
        let entry = Rails.BlogEntry(["title": "Hi"])
        entry.sync = backend
        try await entry.save()
        #expect(backend.requests.first?.body == ["post": ["title": "Hi"]])
        #expect(backend.requests.first?.path == "/posts")
        #expect(entry.id == 9)
    }

    @Test func anOwnersResourceNameFillsTheRouteParameter() throws {
        let entry = Rails.BlogEntry(["id": 5, "replies": [["id": 2]]])
        let reply = try #require(entry[Rails.BlogEntry.replies].first)
        #expect(try reply.requestURL(for: .read).absoluteString == "/posts/5/replies/2")
    }

    @Test func aPlainClassStillNeedsAURL() {
        #expect(throws: SyncError.self) { try PlainNote(["id": 1]).url() }
    }

    @Test func aRailsModelNeedsNoURLRootAgainstRealRails() async throws {
        let backend = RESTSync(baseURL: try await RailsTestServer.shared.baseURL)
        let person = Rails.Person(["name": "Ada"])
        person.sync = backend
        try await person.save()
        let id = try #require(person.id)
        #expect(person["createdAt"] != nil)

        let fetched = Rails.Person(["id": id])
        fetched.sync = backend
        try await fetched.fetch()
        #expect(fetched["name"] == "Ada")
        try await fetched.save(["name": "Ada L."])
        try await person.fetch()
        #expect(person["name"] == "Ada L.")
        try await person.destroy(wait: true)
        await #expect(throws: SyncError.httpStatus(404, body: ["error": "not found"])) { try await fetched.fetch() }
    }
}
