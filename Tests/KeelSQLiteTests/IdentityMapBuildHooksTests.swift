import Keel
import Testing

/// The hooks an identity map builds the models of classes with relations with: a model the
/// map built keeps the map alive and builds its related records through it, and options that
/// carry the hooks past the map's life build plain models.
@MainActor
struct IdentityMapBuildHooksTests {
    final class Author: Model {
        override class var urlRoot: String? { "/authors" }
    }

    /// A post that keeps the options it was built with, as an app's `initialize` may.
    final class Post: Model {
        static let author = BelongsTo<Author>("author", foreignKey: "authorId")
        override class var urlRoot: String? { "/posts" }
        override class var relations: [any Relation] { [author] }
        var keptOptions: ChangeOptions?
        override func initialize(_ attributes: Attributes, options: ChangeOptions) {
            keptOptions = options
        }
    }

    /// The post `id` with its embedded author, built through `map`.
    static func post(_ id: Int, author: Int, named name: String, in map: IdentityMap) -> Post {
        map.model(
            Post.self,
            collection: "/posts",
            attributes: [
                "id": .int(id), "authorId": .int(author), "author": ["id": .int(author), "name": .string(name)],
            ]
        )
    }

    @Test func aModelTheMapBuiltKeepsItAndBuildsItsRelatedRecordsThroughIt() throws {
        weak var weakMap: IdentityMap?
        var post: Post?
        do {
            let map = IdentityMap()
            weakMap = map
            post = Self.post(1, author: 7, named: "Ada", in: map)
        }
        do {
            let map = try #require(weakMap)
            let built = try #require(post)
            #expect(map.existing(Post.self, id: 1, in: "/posts") === built)
            #expect(map.existing(Author.self, id: 7, in: "/authors") === built[Post.author])
            // A record set later on the relation goes through the map too.
            built.set(["authorId": 8, "author": ["id": 8, "name": "Grace"]])
            let grace = try #require(built[Post.author])
            #expect(map.existing(Author.self, id: 8, in: "/authors") === grace)
            #expect(map.model(Author.self, collection: "/authors", attributes: ["id": 8]) === grace)
        }
        // The post alone kept the map.
        post = nil
        #expect(weakMap == nil)
    }

    /// The models hold the map through one shared object that goes with the last of them: a
    /// model built after the earlier ones went holds a new one, and the map goes with it.
    @Test func aModelBuiltAfterTheEarlierOnesWentKeepsTheMapToo() throws {
        weak var weakMap: IdentityMap?
        var second: Post?
        do {
            let map = IdentityMap()
            weakMap = map
            var first: Post? = Self.post(1, author: 7, named: "Ada", in: map)
            #expect(first?[Post.author]?["name"] == "Ada")
            first = nil
            second = Self.post(2, author: 8, named: "Grace", in: map)
            var third: Post? = Self.post(3, author: 8, named: "Grace", in: map)
            #expect(third?[Post.author] === second?[Post.author])
            third = nil
        }
        do {
            let map = try #require(weakMap)
            let built = try #require(second)
            built.set(["authorId": 9, "author": ["id": 9, "name": "Hopper"]])
            #expect(map.existing(Author.self, id: 9, in: "/authors") === built[Post.author])
        }
        second = nil
        #expect(weakMap == nil)
    }

    @Test func optionsKeptPastTheMapBuildPlainModels() throws {
        weak var weakMap: IdentityMap?
        var kept: ChangeOptions?
        do {
            let map = IdentityMap()
            weakMap = map
            let post = Self.post(1, author: 7, named: "Ada", in: map)
            kept = post.keptOptions
        }
        #expect(weakMap == nil)
        let options = try #require(kept)
        let again = Post(["id": 2, "authorId": 9, "author": ["id": 9, "name": "Grace"]], options: options)
        let author = try #require(again[Post.author])
        #expect(author["name"] == "Grace")
        again.set(["authorId": 10, "author": ["id": 10, "name": "Hopper"]])
        #expect(again[Post.author]?["name"] == "Hopper")
        #expect(again[Post.author] !== author)
    }
}
