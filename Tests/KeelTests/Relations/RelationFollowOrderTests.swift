import Testing

@testable import Keel

/// When and in which order the owners of a related model hear of its `change`: at the place
/// among the related model's handlers where the first owner linked, for every `change` it
/// dispatches (a manual `trigger` included), and, once `off()` removed that place, not for the
/// owners linked before it, but still for the dispatch in progress.
@MainActor
struct RelationFollowOrderTests {
    final class Author: Model {
        override class var urlRoot: String? { "/authors" }
    }

    final class Post: Model {
        static let author = BelongsTo<Author>("author", foreignKey: "authorId")
        override class var relations: [any Relation] { [author] }
    }

    final class Profile: Model {}

    final class Member: Model {
        static let profile = HasOne<Profile>("profile")
        override class var relations: [any Relation] { [profile] }
    }

    private func post(_ id: Int, author: Int, named name: String = "Ada", in map: IdentityMap) -> Post {
        map.model(
            Post.self,
            collection: "/posts",
            attributes: [
                "id": .int(id), "authorId": .int(author), "author": ["id": .int(author), "name": .string(name)],
            ]
        )
    }

    @Test func anAppHandlerAddedBeforeTheFirstLinkRunsBeforeTheOwnersAndOneAddedAfterRunsAfter() throws {
        let map = IdentityMap()
        let author = map.model(Author.self, collection: "/authors", attributes: ["id": 5, "name": "Ada"])
        var first: Post?
        var seen: [JSONValue?] = []
        author.on("change") { _ in seen.append(first?["author"]) }
        first = post(1, author: 5, in: map)
        author.on("change") { _ in seen.append(first?["author"]) }
        _ = post(2, author: 5, in: map)

        author.set(["name": "Grace"])
        #expect(seen == [["id": 5, "name": "Ada"], ["id": 5, "name": "Grace"]])
    }

    @Test func theOwnersHearTheirRelatedModelsManualChangeTrigger() throws {
        let map = IdentityMap()
        let post = post(1, author: 5, in: map)
        let author = try #require(post[Post.author])
        var changes: [String] = []
        post.on("change:author") { event in changes.append(event.name) }

        author.set(["name": "Grace"], silent: true)
        #expect(post["author"] == ["id": 5, "name": "Ada"])
        author.trigger("change")
        #expect(post["author"] == ["id": 5, "name": "Grace"])
        #expect(changes == ["change:author"])
    }

    @Test func aHasOneOwnerHearsItsModelsManualChangeTriggerWithoutAMap() throws {
        let member = Member(["id": 1, "profile": ["id": 2, "bio": "Engineer"]])
        let profile = try #require(member[Member.profile])

        profile.set(["bio": "Poet"], silent: true)
        profile.trigger("change")
        #expect(member["profile"] == ["id": 2, "bio": "Poet"])
    }

    @Test func removingTheOwnersPlaceDuringADispatchStillTellsTheOwnersOfThatDispatchOnly() throws {
        let map = IdentityMap()
        let author = map.model(Author.self, collection: "/authors", attributes: ["id": 5, "name": "Ada"])
        var second: Post?
        // Runs before the owners' place: removes it (and itself), then links another owner.
        author.on("change") { [self] _ in
            author.off("change")
            second = post(2, author: 5, named: "Grace", in: map)
        }
        let first = post(1, author: 5, in: map)

        author.set(["name": "Grace"])
        #expect(first["author"] == ["id": 5, "name": "Grace"])
        let linked = try #require(second)
        #expect(linked["author"] == ["id": 5, "name": "Grace"])

        author.set(["name": "Hopper"])
        #expect(first["author"] == ["id": 5, "name": "Grace"])
        #expect(linked["author"] == ["id": 5, "name": "Hopper"])
    }

    @Test func removingOneRelatedModelsHandlersLeavesTheOwnersOfAnotherFollowing() throws {
        let map = IdentityMap()
        let first = post(1, author: 5, in: map)
        let second = post(2, author: 6, in: map)
        let firstAuthor = try #require(first[Post.author])
        let secondAuthor = try #require(second[Post.author])

        firstAuthor.off()
        firstAuthor.set(["name": "Grace"])
        secondAuthor.set(["name": "Hopper"])
        #expect(first["author"] == ["id": 5, "name": "Ada"])
        #expect(second["author"] == ["id": 6, "name": "Hopper"])
    }

    @Test func theOwnersPlaceCountsAsOneHandlerUntilOffRemovesIt() throws {
        let map = IdentityMap()
        let author = map.model(Author.self, collection: "/authors", attributes: ["id": 5, "name": "Ada"])
        let before = author.handlerCount
        let first = post(1, author: 5, in: map)
        let second = post(2, author: 5, in: map)
        #expect(author.handlerCount == before + 1)
        #expect(!author.hasNoHandlers(named: "change"))

        author.off("change")
        #expect(author.handlerCount == before)
        #expect(author.hasNoHandlers(named: "change"))
        _ = (first, second)
    }
}
