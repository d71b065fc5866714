import Testing

@testable import Keel

#if canImport(Glibc)
    import Glibc
#endif

/// The links of one has-one or belongs-to share its key, encoding and foreign key
/// (``OneLinkSettings``), so that the link of each owner (a post's, to its author) stays small.
struct OneLinkSettingsTests {
    final class Author: Model {
        override class var urlRoot: String? { "/authors" }
    }

    final class Post: Model {
        static let author = BelongsTo<Author>("author", foreignKey: "authorId", encoding: .nestedAttributes)
        override class var relations: [any Relation] { [author] }
    }

    final class Profile: Model {}

    final class User: Model {
        static let profile = HasOne<Profile>("profile")
        override class var relations: [any Relation] { [profile] }
    }

    @Test func theLinksOfABelongsToShareItsSettings() throws {
        let first = Post(["id": 1, "author": ["id": 7]])
        let second = Post(["id": 2, "author": ["id": 8]])
        let firstLink = try #require(first.storedExtras as? OneLink<Author>)
        let secondLink = try #require(second.storedExtras as? OneLink<Author>)
        #expect(firstLink.settings === secondLink.settings)
        #expect(firstLink.key == "author")
        #expect(firstLink.foreignKey == "authorId")
        #expect(firstLink.encoding == .nestedAttributes)
        #expect(first[Post.author]?.id == 7)
        #expect(second[Post.author]?.id == 8)
    }

    @Test func aHasOneLinkHasNoForeignKey() throws {
        let user = User(["id": 1, "profile": ["bio": "Engineer"]])
        let link = try #require(user.storedExtras as? OneLink<Profile>)
        #expect(link.key == "profile")
        #expect(link.foreignKey == nil)
        #expect(link.encoding == .embedded)
        #expect(user[User.profile]?["bio"] == "Engineer")
    }

    @Test func theIDKeptForDestroyLivesInTheRarelyUsedStateAndClearingNoneMakesNoBox() throws {
        let post = Post(["id": 1, "author": ["id": 7]])
        let link = try #require(post.storedExtras as? OneLink<Author>)
        link.removedLinkID = nil
        // Still without a box of its own: it takes a shared one.
        #expect(link.shareRare(RareModelExtras()))
        let other = Post(["id": 2, "author": ["id": 8]])
        let shared = RareModelExtras()
        #expect(other.extras.shareRare(shared))
        link.removedLinkID = 3
        let copied = try #require(post.storedExtras)
        #expect(copied.removedLinkID == 3)
        // Written over a shared box, the id stays with its own link.
        other.extras.removedLinkID = 4
        #expect(shared.removedLinkID == nil)
        #expect(other.extras.removedLinkID == 4)
    }

    #if canImport(Glibc)
        /// A post's link, which is its extras too, takes a heap chunk of 112 bytes, 104 of them
        /// usable (malloc gave it 264 usable bytes, of which a sync state's room for an error and
        /// its relation's settings took about 80; then 168, of which the id kept for `_destroy`,
        /// which only a nested-attributes relation has, took 16; then 152, of which the factory
        /// and the map's anchor, now one reference, took 16; then 136, of which the server's
        /// last record, now boxed, took 16; then 120, of which the sync gate, now in the server
        /// record's box, took 8 and the link's index and flag, now in its extras' padding, 8).
        ///
        /// malloc may hand a request a larger free chunk than it needs (when splitting it would
        /// leave too small a remainder), and other tests running beside this one leave such
        /// chunks about: of several links alive at once, the smallest chunk is the request's.
        @Test func aLinkTakesAHeapChunkOf112Bytes() throws {
            // glibc's `malloc_usable_size`, which its Swift module does not import (malloc.h).
            typealias UsableSize = @convention(c) (UnsafeMutableRawPointer?) -> Int
            let symbol = try #require(dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_usable_size"))
            let usableSize = unsafeBitCast(symbol, to: UsableSize.self)
            let posts = (0..<32).map { Post(["id": .int($0), "author": ["id": 7]]) }
            let links = try posts.map { try #require($0.storedExtras) }
            #expect(links.map { usableSize(Unmanaged.passUnretained($0).toOpaque()) }.min() ?? .max <= 104)
            let map = IdentityMap()
            let built = (0..<32).map {
                map.model(Post.self, collection: "/posts", attributes: ["id": .int(100 + $0), "author": ["id": 8]])
            }
            let builtLinks = try built.map { try #require($0.storedExtras) }
            #expect(builtLinks.map { usableSize(Unmanaged.passUnretained($0).toOpaque()) }.min() ?? .max <= 104)
        }
    #endif
}
