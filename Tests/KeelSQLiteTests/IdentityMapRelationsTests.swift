import Foundation
import Keel
import KeelSQLite
import Testing

/// Related records get one instance through the identity map too, whether they arrive inside
/// their owner or on their own.
@MainActor
struct IdentityMapRelationsTests {
    final class Organization: Model {
        override class var urlRoot: String? { "/organizations" }
    }

    final class Invite: Model {
        override class var urlRoot: String? { "/invites" }
    }

    final class User: Model {
        static let invites = HasMany<Invite>("invites")
        static let organization = BelongsTo<Organization>("organization")
        override class var urlRoot: String? { "/users" }
        override class var relations: [any Relation] { [invites, organization] }
    }

    @Test func aRelatedRecordHasOneInstanceHoweverItIsLoaded() throws {
        let map = IdentityMap()
        let ada = map.model(
            User.self,
            collection: "/users",
            attributes: [
                "id": 1, "invites": [["id": 7, "email": "a@x"]], "organization": ["id": 9, "name": "Acme"],
            ]
        )
        let grace = map.model(
            User.self,
            collection: "/users",
            attributes: [
                "id": 2, "invites": [["id": 7, "email": "a@x"]], "organization": ["id": 9, "name": "Acme Inc."],
            ]
        )
        let invite = try #require(ada[User.invites].get(7))
        #expect(grace[User.invites].get(7) === invite)
        #expect(ada[User.organization] === grace[User.organization])
        #expect(ada[User.organization]?["name"] == "Acme Inc.")

        let invites = Collection<Invite>(factory: map.factory(for: Invite.self, collection: "/invites"))
        invites.set([["id": 7, "email": "b@x"]])
        #expect(invites.get(7) === invite)
        #expect(ada["invites"] == [["id": 7, "email": "b@x"]])
        #expect(map.existing(Organization.self, id: 9, in: "/organizations") === ada[User.organization])
    }

    @Test func findFollowsTheClassesWireFormat() async throws {
        final class Post: Model {
            override class var wireFormat: WireFormat { .rails }
        }
        struct RailsAnswer: Sync {
            func perform(_ request: SyncRequest) async throws(SyncError) -> SyncResponse {
                SyncResponse(body: ["post": ["id": 4, "published_at": .string(request.url.absoluteString)]])
            }
        }
        let post = try #require(try await IdentityMap().find(Post.self, id: 4, in: "/posts", from: RailsAnswer()))
        #expect(post["publishedAt"] == "/posts/4")
        #expect(post.id == 4)
    }
}
