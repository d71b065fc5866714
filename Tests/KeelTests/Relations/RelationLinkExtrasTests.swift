import Testing

@testable import Keel

/// The link of a class's only relation, a has-one or belongs-to, is its owner's extras
/// (``OneLink/asOwnerExtras()``): one object for both, which must behave as the two did.
@MainActor
struct RelationLinkExtrasTests {
    final class Author: Model {
        override class var urlRoot: String? { "/authors" }
    }

    final class Post: Model {
        static let author = BelongsTo<Author>("author", foreignKey: "authorId")
        override class var urlRoot: String? { "/posts" }
        override class var relations: [any Relation] { [author] }
    }

    /// A post that keeps the records it was parsed from: its extras exist before its links.
    final class KeptPost: Model {
        static let author = BelongsTo<Author>("author", foreignKey: "authorId")
        override class var keepsRemoteAttributes: Bool { true }
        override class var relations: [any Relation] { [author] }
    }

    final class Shelf: Model {
        static let books = HasMany<Author>("books")
        override class var relations: [any Relation] { [books] }
    }

    @Test func theOnlyToOneLinkIsTheOwnersExtras() throws {
        let post = Post(["id": 1, "author": ["id": 7, "name": "Ada"]])
        let extras = try #require(post.storedExtras)
        #expect(extras is OneLink<Author>)
        #expect(post.relationLinks?.count == 1)
        #expect(post.relationLinks?["author"] === extras)
        var only: (any RelationLink)?
        #expect(post.relationLinks?.withOnlyLink { only = $0 } == true)
        #expect(only === extras)
        #expect(post.relationLinks?.values.count == 1)
        #expect(post[Post.author]?["name"] == "Ada")
    }

    @Test func theSameHoldsThroughAnIdentityMap() throws {
        let map = IdentityMap()
        let post = map.model(Post.self, collection: "/posts", attributes: ["id": 1, "author": ["id": 7]])
        #expect(post.storedExtras is OneLink<Author>)
        #expect(post.storedExtras?.relatedModelSource === map)
        let author = try #require(post[Post.author])
        #expect(map.existing(Author.self, id: 7, in: "/authors") === author)
    }

    /// A class's one relation is handed over where its link lies, whichever way the links hold
    /// it; a class with several hands over none.
    @Test func onlyTheLinkOfAClassWithOneRelationIsHandedOver() throws {
        let shelf = Shelf(["books": [["id": 1]]])
        var only: (any RelationLink)?
        #expect(shelf.relationLinks?.withOnlyLink { only = $0 } == true)
        #expect(only?.key == "books")
        let user = Relations.User(["id": 1, "organization": ["id": 2]])
        var called = false
        #expect(user.relationLinks?.withOnlyLink { _ in called = true } == false)
        #expect(!called)
        #expect(RelationLinks([]).withOnlyLink { _ in called = true } == false)
        #expect(!called)
    }

    /// The link holds its owner without a reference count: an owner that its last holder lets
    /// go from its own `change:author` handler, which its author's change fires through the
    /// link, lives until the link's call returns, and then goes.
    @Test func anOwnerLetGoByItsHandlerDuringItsAuthorsChangeOutlivesTheCall() throws {
        let author = Author(["id": 7, "name": "Ada"])
        var held: Post? = Post(["id": 1])
        held?[Post.author] = author
        weak let released = held
        var seen: [JSONValue?] = []
        held?.on("change:author") { event in
            seen.append(event.value)
            held = nil
        }
        author.set(["name": "Grace"])
        #expect(seen == [["id": 7, "name": "Grace"]])
        #expect(released == nil)
        author.set(["name": "Hopper"])
        #expect(seen.count == 1)
    }

    @Test func otherRelationsKeepExtrasOfTheirOwn() throws {
        let user = Relations.User(["id": 1, "organization": ["id": 2]])
        let userExtras = try #require(user.storedExtras)
        #expect(!(userExtras is OneLink<Relations.Organization>))
        #expect(user.relationLinks?.count == 3)
        let shelf = Shelf(["books": [["id": 1]]])
        #expect(shelf.storedExtras.map { $0 is OneLink<Author> } == false)
        #expect(shelf[Shelf.books].count == 1)
    }

    @Test func anOwnerWithExtrasBeforeItsLinksKeepsThemApart() throws {
        let post = KeptPost(["id": 1, "author": ["id": 7, "name": "Ada"]], options: ChangeOptions(parse: true))
        let extras = try #require(post.storedExtras)
        #expect(!(extras is OneLink<Author>))
        #expect(extras.remoteAttributes == ["id": 1, "author": ["id": 7, "name": "Ada"]])
        #expect(post[KeptPost.author]?["name"] == "Ada")
    }

    @Test func theExtrasStateLivesBesideTheLink() async throws {
        let post = Post(["title": "a", "author": ["id": 7, "name": "Ada"]])
        post.sync = InMemorySync()
        post.urlRoot = "/drafts"
        try await post.save()
        #expect(post.syncState == .synced)
        #expect(post.syncedStorage?["title"] == "a")
        #expect(post.urlRoot == "/drafts")
        let author = try #require(post[Post.author])
        var changes: [JSONValue?] = []
        post.on("change:author") { event in changes.append(event.value) }
        author.set(["name": "Grace"])
        #expect(changes == [["id": 7, "name": "Grace"]])
        #expect(post["author"] == ["id": 7, "name": "Grace"])
    }

    @Test func aReleasedOwnerStopsFollowingItsParent() throws {
        let author = Author(["id": 7, "name": "Ada"])
        let kept = Post(["id": 1])
        kept[Post.author] = author
        var gone: Post? = Post(["id": 2])
        gone?[Post.author] = author
        weak let released = gone
        gone = nil
        #expect(released == nil)

        var changes = 0
        kept.on("change:author") { _ in changes += 1 }
        author.set(["name": "Grace"])
        #expect(changes == 1)
        #expect(kept["author"] == ["id": 7, "name": "Grace"])
    }

    @Test func replacingTheParentMovesTheFollowing() throws {
        let ada = Author(["id": 7, "name": "Ada"])
        let grace = Author(["id": 8, "name": "Grace"])
        let post = Post(["id": 1, "authorId": 7])
        post[Post.author] = ada
        post[Post.author] = grace
        #expect(post["authorId"] == 8)
        var changes = 0
        post.on("change:author") { _ in changes += 1 }
        ada.set(["name": "Ada L."])
        #expect(changes == 0)
        grace.set(["name": "Grace H."])
        #expect(changes == 1)
    }
}
