import Foundation
import Keel
import Testing

/// Has-one and belongs-to relations: one embedded model, merged while its id stays, replaced
/// when it changes; a belongs-to keeps its foreign key and sends only that by default.
@MainActor
struct HasOneAndBelongsToTests {
    typealias User = Relations.User

    @Test func aHasOneMergesIntoTheSameModelAndBubblesItsChanges() throws {
        let user = User(["id": 1, "profile": ["id": 5, "bio": "Engineer"]])
        let profile = try #require(user[User.profile])
        user.set(["profile": ["id": 5, "bio": "Mathematician"]])
        #expect(user[User.profile] === profile)
        #expect(profile["bio"] == "Mathematician")
        var paths: [String] = []
        user.on("change:profile") { event in paths.append(event.nestedPath ?? "") }
        profile.set(["bio": "Poet"])
        #expect(paths == ["profile"])
        #expect(user["profile"] == ["id": 5, "bio": "Poet"])
        user.set(["profile": ["id": 6, "bio": "New"]])
        #expect(user[User.profile] !== profile)
        user.set(["profile": nil])
        #expect(user[User.profile] == nil)
    }

    @Test func assigningAHasOneStoresItsMirror() {
        let user = User(["id": 1])
        var changes = 0
        user.on("change:profile") { _ in changes += 1 }
        user[User.profile] = Relations.Profile(["bio": "Engineer"])
        #expect(user["profile"] == ["bio": "Engineer"])
        #expect(changes == 1)
    }

    @Test func aBelongsToSetsItsForeignKeyAndSendsOnlyThat() async throws {
        let backend = ScriptedSync { _ in SyncResponse(body: ["id": 1, "organization_id": 9]) }
        let user = User(["id": 1, "name": "Ada"])
        user.sync = backend
        user[User.organization] = Relations.Organization(["id": 9, "name": "Acme"])
        #expect(user["organizationId"] == 9)
        #expect(user["organization"] == ["id": 9, "name": "Acme"])
        try await user.save()
        #expect(backend.requests.first?.body == ["user": ["name": "Ada", "organization_id": 9]])
    }

    @Test func anEmbeddedParentFromTheServerIsALiveModel() {
        let user = User(["id": 1, "organizationId": 9, "organization": ["id": 9, "name": "Acme"]])
        #expect(user[User.organization]?["name"] == "Acme")
        user[User.organization] = nil
        #expect(user["organizationId"] == .null)
    }

    @Test func anOwnerCanValidateWithItsRelatedModelsErrors() {
        let team = Team(["id": 1, "members": [["email": "a@x"], ["email": ""]], "lead": ["email": ""]])
        #expect(!team.isValid())
        #expect(
            team.validationError?.attributes == [
                "members[1].email": ["can't be blank"], "lead.email": ["can't be blank"],
            ]
        )
    }
}

/// A team whose validity includes its members' and its lead's.
private final class Team: Model {
    final class Member: Model {
        override func validate(_ attributes: Attributes, options: ChangeOptions) -> ValidationError? {
            attributes["email"]?.stringValue?.isEmpty == false ? nil : ["email": ["can't be blank"]]
        }
    }

    static let members = HasMany<Member>("members")
    static let lead = HasOne<Member>("lead")
    override class var relations: [any Relation] { [members, lead] }

    override func validate(_ attributes: Attributes, options: ChangeOptions) -> ValidationError? {
        relatedValidationErrors(options: options)
    }
}

/// Related models on their own find their URL through their owner or parent.
@MainActor
struct StandaloneRelatedURLTests {
    final class Post: Model {
        override class var urlRoot: String? { "/posts" }
    }

    final class Comment: Model {
        static let post = BelongsTo<Post>("post", nestsURL: true)
        override class var relations: [any Relation] { [post] }
    }

    @Test func aHasOneModelIsASingularResourceUnderItsOwner() async throws {
        let backend = ScriptedSync { _ in SyncResponse(body: ["bio": "Poet"]) }
        let user = Relations.User(["id": 1, "profile": ["bio": "Engineer"]])
        user.sync = backend
        let profile = try #require(user[Relations.User.profile])
        #expect(try profile.url() == "/users/1/profile")
        profile.sync = backend
        try await profile.fetch()
        #expect(backend.requests.first?.url.absoluteString == "/users/1/profile")
        user[Relations.User.profile] = nil
        #expect(throws: SyncError.self) { try profile.url() }
    }

    @Test func aBelongsToThatNestsURLsPutsTheModelUnderItsParent() throws {
        #expect(try Comment(["postId": 3]).url() == "/posts/3/comments")
        #expect(try Comment(["postId": 3, "id": 9]).url() == "/posts/3/comments/9")
        #expect(throws: SyncError.self) { try Comment(["id": 9]).url() }
    }
}
