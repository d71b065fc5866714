import Testing

@testable import Keel

/// A to-one link takes the model it links in without retaining it again, and its owner's
/// relations are found and merged through borrowed references: each model must still live
/// exactly as long as something holds it.
@MainActor
struct RelationLinkOwnershipTests {
    final class Author: Model {
        override class var urlRoot: String? { "/authors" }
    }

    final class Post: Model {
        static let author = BelongsTo<Author>("author", foreignKey: "authorId")
        override class var urlRoot: String? { "/posts" }
        override class var relations: [any Relation] { [author] }
    }

    final class Shelf: Model {
        static let books = HasMany<Author>("books")
        override class var relations: [any Relation] { [books] }
    }

    final class Profile: Model {}

    final class User: Model {
        static let profile = HasOne<Profile>("profile")
        override class var relations: [any Relation] { [profile] }
    }

    @Test func aLinkedModelLivesAsLongAsItsOwnerAndNoLonger() throws {
        var post: Post? = Post(["id": 1, "author": ["id": 7, "name": "Ada"]])
        weak let author = post?[Post.author]
        #expect(author?["name"] == "Ada")
        post = nil
        #expect(author == nil)
    }

    @Test func aModelAMapLinksLivesWhileAnyOwnerHoldsIt() throws {
        let map = IdentityMap()
        let posts = Collection<Post>(factory: map.factory(for: Post.self, collection: "/posts"))
        posts.add([
            ["id": 1, "authorId": 7, "author": ["id": 7, "name": "Ada"]],
            ["id": 2, "authorId": 7, "author": ["id": 7, "name": "Ada"]],
        ])
        weak let author = posts.get(1)?[Post.author]
        #expect(author != nil)
        #expect(posts.get(2)?[Post.author] === author)
        _ = posts.remove(1)
        #expect(author?["name"] == "Ada")
        posts.reset()
        #expect(author == nil)
        #expect(map.existing(Author.self, id: 7, in: "/authors") == nil)
    }

    @Test func aReplacedModelGoesAndTheNewOneStays() throws {
        let user = User(["id": 1, "profile": ["bio": "a"]])
        weak let first = user[User.profile]
        user.set(["profile": ["id": 2, "bio": "b"]])
        weak let second = user[User.profile]
        #expect(first == nil)
        #expect(second?["bio"] == "b")
        #expect(second?.storedExtras?.hasOneOwner === user)
        user[User.profile] = nil
        #expect(second == nil)
    }

    @Test func eachLinkFindsItsAttributeWhereItLies() throws {
        let post = Post(["id": 1])
        let shelf = Shelf(["id": 2])
        let postLink = try #require(post.relationLinks?["author"])
        let shelfLink = try #require(shelf.relationLinks?["books"])
        let record: Attributes = ["id": 3, "title": "t", "books": [], "author": ["id": 7]]
        #expect(postLink.position(in: record) == 3)
        #expect(shelfLink.position(in: record) == 2)
        #expect(postLink.position(in: ["id": 3]) == nil)
        #expect(shelfLink.position(in: [:]) == nil)
    }

    /// The map remembers the relations of the two classes it built last, without a reference
    /// count, and keeps every class's: a third class between them finds its own.
    @Test func aMapBuildingThreeClassesInTurnGivesEachItsRelations() throws {
        let map = IdentityMap()
        for id in 1...3 {
            let post = map.model(Post.self, collection: "/posts", attributes: ["id": .int(id), "author": ["id": 7]])
            let shelf = map.model(
                Shelf.self,
                collection: "/shelves",
                attributes: ["id": .int(id), "books": [["id": 8]]]
            )
            let user = map.model(
                User.self,
                collection: "/users",
                attributes: ["id": .int(id), "profile": ["bio": "b"]]
            )
            #expect(post[Post.author] === map.existing(Author.self, id: 7, in: "/authors"))
            #expect(shelf[Shelf.books].first === map.existing(Author.self, id: 8, in: "/authors"))
            #expect(user[User.profile]?["bio"] == "b")
        }
    }
}
