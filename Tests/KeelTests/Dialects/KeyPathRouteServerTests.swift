import Foundation
import Keel
import KeelTestServer
import Testing

/// Key-path route parameters against the stock Rails app: an invite's nested route filled
/// from the user it belongs to (`/users/:user.id/invites`).
@MainActor
struct KeyPathRouteServerTests {
    final class User: Model {
        override class var urlRoot: String? { "/users" }
        override class var wireFormat: WireFormat { .rails }
    }

    final class Invite: Model {
        static let user = BelongsTo<User>("user")
        override class var wireFormat: WireFormat { .rails }
        override class var relations: [any Relation] { [user] }
        override class var routes: Routes {
            Routes("/users/:user.id/invites/:id", methods: [.create: "/users/:user.id/invites"])
        }
    }

    @Test func anInviteIsCreatedUpdatedAndFetchedUnderItsUsersID() async throws {
        let rails = RESTSync(baseURL: try await RailsTestServer.shared.baseURL)
        let user = User(["name": "Ada"])
        user.sync = rails
        try await user.save()
        let invite = Invite(["email": "a@example.com"])
        invite.sync = rails
        invite[Invite.user] = user
        var paths: [String] = []
        invite.on("request") { event in if let url = event.request?.url { paths.append(url.path) } }

        try await invite.save()
        try await invite.save(["email": "b@example.com"])
        let userID = try #require(user.id?.intValue)
        let inviteID = try #require(invite.id?.intValue)
        invite["email"] = "changed locally"
        try await invite.fetch()

        #expect(invite["email"] == "b@example.com")
        #expect(
            paths == [
                "/users/\(userID)/invites", "/users/\(userID)/invites/\(inviteID)",
                "/users/\(userID)/invites/\(inviteID)",
            ]
        )
    }
}
