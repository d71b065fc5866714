import Keel
import KeelTestServer
import Testing

/// Relations against the stock Rails app: a user's invites through
/// `accepts_nested_attributes_for` (add, change, `_destroy`), the same instances after a
/// refetch, and the invites' nested routes.
@MainActor
struct RailsRelationsIntegrationTests {
    final class Invite: Model {
        static let user = BelongsTo<User>("user", nestsURL: true)
        override class var wireFormat: WireFormat { .rails }
        override class var relations: [any Relation] { [user] }
    }

    final class Organization: Model {
        override class var urlRoot: String? { "/organizations" }
        override class var wireFormat: WireFormat { .rails }
    }

    final class User: Model {
        static let invites = HasMany<Invite>("invites", encoding: .nestedAttributes)
        static let organization = BelongsTo<Organization>("organization")
        override class var urlRoot: String? { "/users" }
        override class var wireFormat: WireFormat { .rails }
        override class var relations: [any Relation] { [invites, organization] }
    }

    @Test func aUserWithInvitesAndAnOrganizationInAHandfulOfLines() async throws {
        let rails = RESTSync(baseURL: try await RailsTestServer.shared.baseURL)
        let acme = Organization(["name": "Acme"])
        acme.sync = rails
        try await acme.save()
        let created = User(["name": "Ada", "invites": [["email": "a@example.com"], ["email": "b@example.com"]]])
        created.sync = rails
        created[User.organization] = acme
        try await created.save()

        let user = User(["id": created.id ?? nil])
        user.sync = rails
        try await user.fetch()
        #expect(user[User.organization]?["name"] == "Acme")
        let invites = user[User.invites]
        let kept = try #require(invites.first { $0["email"] == "b@example.com" })
        var events: [String] = []
        user.on("change:invites") { event in events.append(event.nestedPath ?? "") }
        invites.add(Invite(["email": "c@example.com"]))
        kept.set(["email": "B@example.com"])
        let dropped = try #require(invites.first { $0["email"] == "a@example.com" })
        invites.remove(dropped)
        #expect(events == ["invites[2]", "invites[1]", "invites"])
        var sent: JSONValue?
        user.on("request") { event in sent = event.request?.body }
        try await user.save()
        let expected: JSONValue = [
            ["email": "B@example.com", "id": kept.id ?? nil],
            ["email": "c@example.com"],
            ["id": dropped.id ?? nil, "_destroy": true],
        ]
        #expect(sent?["user"]?["invites_attributes"] == expected)
        try await user.fetch()
        #expect(invites.pluck("email") == ["B@example.com", "c@example.com"])
        #expect(invites.get(kept.id ?? nil) === kept)
        #expect(user["organizationId"] == acme.id)
    }

    @Test func addChangeAndRemoveInvitesInOneSave() async throws {
        let user = User(["name": "Ada"])
        user.sync = RESTSync(baseURL: try await RailsTestServer.shared.baseURL)
        let invites = user[User.invites]
        let first = Invite(["email": "one@example.com"])
        let second = Invite(["email": "two@example.com"])
        invites.add([first, second])
        try await user.save()
        let userID = try #require(user.id)
        #expect(first.id != nil && second.id != nil)
        #expect(invites.models.map(ObjectIdentifier.init) == [first, second].map(ObjectIdentifier.init))

        second.set(["email": "deux@example.com"])
        invites.remove(first)
        let third = Invite(["email": "three@example.com"])
        invites.add(third)
        try await user.save()
        #expect(third.id != nil)

        let fetched = User(["id": userID])
        fetched.sync = user.sync
        try await fetched.fetch()
        #expect(fetched[User.invites].pluck("email") == ["deux@example.com", "three@example.com"])

        try await user.fetch()
        #expect(invites.models.map(ObjectIdentifier.init) == [second, third].map(ObjectIdentifier.init))
        #expect(user.unsavedChanges == nil)
    }

    @Test func anInviteOnItsOwnSavesUnderItsUser() async throws {
        let rails = RESTSync(baseURL: try await RailsTestServer.shared.baseURL)
        let user = User(["name": "Hedy"])
        user.sync = rails
        try await user.save()
        let invite = Invite(["userId": user.id ?? nil, "email": "solo@example.com"])
        invite.sync = rails
        try await invite.save()
        #expect(invite.id != nil)
        #expect(try invite.url() == "/users/\(user.id?.intValue ?? 0)/invites/\(invite.id?.intValue ?? 0)")
        try await user.fetch()
        #expect(user[User.invites].pluck("email") == ["solo@example.com"])
    }

    @Test func anInviteSavesThroughTheNestedRoute() async throws {
        let user = User(["name": "Grace", "invites": [["email": "a@example.com"]]])
        user.sync = RESTSync(baseURL: try await RailsTestServer.shared.baseURL)
        try await user.save()
        let invite = try #require(user[User.invites].first)
        let userID = try #require(user.id?.intValue)
        #expect(user[User.invites].url == "/users/\(userID)/invites")
        try await invite.save(["email": "b@example.com"], patch: true)
        let created = try await user[User.invites].create(["email": "c@example.com"])
        #expect(created.id != nil)
        try await user.fetch()
        #expect(user[User.invites].pluck("email") == ["b@example.com", "c@example.com"])
        #expect(user[User.invites].get(invite.id ?? nil) === invite)
    }
}
