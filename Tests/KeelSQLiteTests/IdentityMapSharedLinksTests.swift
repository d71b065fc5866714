import Keel
import Testing

/// Models a map builds share its hooks, and the links to one related model share one handler
/// on it: each owner still follows its related model as when it had a handler of its own.
@MainActor
struct IdentityMapSharedLinksTests {
    final class Author: Model {
        override class var urlRoot: String? { "/authors" }
    }

    final class Post: Model {
        static let author = BelongsTo<Author>("author", foreignKey: "authorId")
        override class var relations: [any Relation] { [author] }
    }

    private func post(_ id: Int, author: Int, in map: IdentityMap) -> Post {
        map.model(
            Post.self,
            collection: "/posts",
            attributes: ["id": .int(id), "authorId": .int(author), "author": ["id": .int(author), "name": "Ada"]]
        )
    }

    @Test func aRelationObservedAfterItsModelsWereBuiltGetsTheRelatedModelsChanges() throws {
        let map = IdentityMap()
        let posts = Collection<Post>(factory: map.factory(for: Post.self, collection: "/posts"))
        posts.add([
            ["id": 1, "authorId": 5, "author": ["id": 5, "name": "Ada"]],
            ["id": 2, "authorId": 5, "author": ["id": 5, "name": "Ada"]],
        ])
        let first = try #require(posts.get(1)), second = try #require(posts.get(2))
        let author = try #require(first[Post.author])
        #expect(second[Post.author] === author)

        var changes: [String] = []
        first.on("change:author") { event in changes.append(event.name) }
        author.set(["name": "Grace"])

        #expect(changes == ["change:author"])
        #expect(first["author"] == ["id": 5, "name": "Grace"])
        #expect(second["author"] == ["id": 5, "name": "Grace"])
    }

    @Test func anOwnerReleasedEvenDuringADispatchStopsFollowing() throws {
        let map = IdentityMap()
        let first = post(1, author: 5, in: map)
        var second: Post? = post(2, author: 5, in: map)
        let third = post(3, author: 5, in: map)
        let author = try #require(first[Post.author])
        weak let released = second
        // The first owner's update releases the second while the author's change is dispatched.
        first.on("change:author") { _ in second = nil }

        author.set(["name": "Grace"])
        #expect(released == nil)
        #expect(third["author"] == ["id": 5, "name": "Grace"])

        do { _ = post(4, author: 5, in: map) }
        author.set(["name": "Hopper"])
        #expect(first["author"] == ["id": 5, "name": "Hopper"])
        #expect(third["author"] == ["id": 5, "name": "Hopper"])
    }

    @Test func anOwnerThatChangesItsRelatedModelFollowsOnlyTheNewOne() throws {
        let map = IdentityMap()
        let first = post(1, author: 5, in: map)
        let old = try #require(first[Post.author])
        first.set(["authorId": 6, "author": ["id": 6, "name": "Grace"]])
        let new = try #require(first[Post.author])
        #expect(new !== old)

        old.set(["name": "Ada Lovelace"])
        #expect(first["author"] == ["id": 6, "name": "Grace"])
        new.set(["name": "Grace Hopper"])
        #expect(first["author"] == ["id": 6, "name": "Grace Hopper"])
    }

    @Test func removingTheRelatedModelsHandlersStopsOnlyTheLinksMadeBefore() throws {
        let map = IdentityMap()
        let first = post(1, author: 5, in: map)
        let author = try #require(first[Post.author])
        author.off()
        let second = post(2, author: 5, in: map)

        author.set(["name": "Grace"])
        #expect(first["author"] == ["id": 5, "name": "Ada"])
        #expect(second["author"] == ["id": 5, "name": "Grace"])
    }

    @Test func aModelKeepsItsMapAliveForTheRecordsItBuildsLater() throws {
        var map: IdentityMap? = IdentityMap()
        weak let released = map
        let first = post(1, author: 5, in: try #require(map))
        let second = post(2, author: 6, in: try #require(map))
        map = nil

        #expect(released != nil)
        second.set(["authorId": 5, "author": ["id": 5, "name": "Ada"]])
        #expect(second[Post.author] === first[Post.author])
    }

    @Test func idsWithTheSameURLTextAreOneRecordAndOthersAreNot() throws {
        final class Note: Model {}
        let map = IdentityMap()
        let seven = map.model(Note.self, collection: "/notes", attributes: ["id": "7"])
        let negative = map.model(Note.self, collection: "/notes", attributes: ["id": -3])
        let text = map.model(Note.self, collection: "/notes", attributes: ["id": "a/b"])

        #expect(map.existing(Note.self, id: 7, in: "/notes") === seven)
        #expect(map.existing(Note.self, id: 7.0, in: "notes/") === seven)
        #expect(map.existing(Note.self, id: "-3", in: "/notes") === negative)
        #expect(map.existing(Note.self, id: "a/b", in: "/notes") === text)
        for other: JSONValue in ["07", "+7", " 7", "-0", "7.5", "99999999999999999999"] {
            #expect(map.existing(Note.self, id: other, in: "/notes") == nil)
        }
        #expect(throws: IdentityMapError.conflict(collection: "/notes", id: "a/b", existingType: "Note")) {
            try map.register(Note(["id": "a/b"]), collection: "notes/")
        }
        #expect(throws: IdentityMapError.conflict(collection: "/notes", id: "7", existingType: "Note")) {
            try map.register(Note(["id": 7.0]), collection: "/notes/")
        }
    }
}
