import Keel
import KeelTestServer
import Testing

/// A marked invite destroyed through its user while the others stay (`allow_destroy: true`), and
/// an add-only relation that sends only its new invites, against the stock Rails app.
@MainActor
struct RailsMarkedAndAddOnlyIntegrationTests {
    typealias Invite = RailsUsers.Invite
    typealias User = RailsUsers.User

    /// The same users, with invites that are only ever added to.
    final class Inviter: Model {
        static let invites = HasMany<Invite>("invites", encoding: .nestedAttributes, mode: .addOnly)
        override class var urlRoot: String? { "/users" }
        override class var resourceName: String { "user" }
        override class var wireFormat: WireFormat { .rails }
        override class var relations: [any Relation] { [invites] }
    }

    private func rails() async throws -> RESTSync { try await RailsUsers.rails() }

    private func reloaded(_ user: Model) async throws -> User { try await RailsUsers.reloaded(user) }

    @Test func aMarkedInviteIsDestroyedWhileTheOthersStay() async throws {
        let user = User(["name": "Grace", "invites": [["email": "a@example.com"], ["email": "b@example.com"]]])
        user.sync = try await rails()
        try await user.save()
        let invites = user[User.invites]
        let doomed = try #require(invites.first { $0["email"] == "a@example.com" })
        doomed.markForDestruction()
        #expect(invites.count == 2)
        try await user.save()
        #expect(invites.pluck("email") == ["b@example.com"])
        #expect(try await reloaded(user)[User.invites].pluck("email") == ["b@example.com"])
    }

    @Test func anAddOnlyRelationSendsOnlyItsNewInvites() async throws {
        let user = Inviter(["name": "Hedy", "invites": [["email": "a@example.com"], ["email": "b@example.com"]]])
        user.sync = try await rails()
        try await user.save()
        let invites = user[Inviter.invites]
        invites.first?.set(["email": "changed@example.com"])
        invites.remove(try #require(invites.last))
        invites.add(Invite(["email": "c@example.com"]))
        var sent: JSONValue?
        user.on("request") { event in sent = event.request?.body }
        try await user.save()
        #expect(sent?["user"]?["invites_attributes"] == [["email": "c@example.com"]])
        #expect(
            try await reloaded(user)[User.invites].pluck("email") == ["a@example.com", "b@example.com", "c@example.com"]
        )
        #expect(invites.count == 3)
    }
}
