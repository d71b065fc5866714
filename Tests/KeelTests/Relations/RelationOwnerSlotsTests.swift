import Keel
import Testing

/// The owners that embed one model are told of its changes from one list, whose first owner
/// is held apart from the others: owners released before, during and after a dispatch, first
/// or not, leave the others told in the same order, each once.
struct RelationOwnerSlotsTests {
    final class Author: Model {
        override class var urlRoot: String? { "/authors" }
    }

    final class Post: Model {
        static let author = BelongsTo<Author>("author", foreignKey: "authorId")
        override class var relations: [any Relation] { [author] }
    }

    /// Records which posts updated their mirror, in order.
    final class Log {
        var updated: [Int] = []
    }

    private func post(_ id: Int, in map: IdentityMap, log: Log) -> Post {
        let post = map.model(
            Post.self,
            collection: "/posts",
            attributes: ["id": .int(id), "authorId": 5, "author": ["id": 5, "name": "Ada"]]
        )
        post.on("change:author") { [log] _ in log.updated.append(id) }
        return post
    }

    @Test func aSingleOwnerIsToldAndStopsWhenReleased() throws {
        let map = IdentityMap(), log = Log()
        var only: Post? = post(1, in: map, log: log)
        let author = try #require(only?[Post.author])

        author.set(["name": "Grace"])
        #expect(log.updated == [1])
        #expect(only?["author"] == ["id": 5, "name": "Grace"])

        only = nil
        author.set(["name": "Hopper"])
        #expect(log.updated == [1])

        let next = post(2, in: map, log: log)
        author.set(["name": "Lovelace"])
        #expect(log.updated == [1, 2])
        #expect(next["author"] == ["id": 5, "name": "Lovelace"])
    }

    @Test func releasingTheFirstOwnerLeavesTheOthersInTheirOrder() throws {
        let map = IdentityMap(), log = Log()
        var first: Post? = post(1, in: map, log: log)
        let second = post(2, in: map, log: log), third = post(3, in: map, log: log)
        let author = try #require(second[Post.author])

        first = nil
        author.set(["name": "Grace"])

        #expect(first == nil)
        #expect(log.updated == [2, 3])
        #expect(second["author"] == ["id": 5, "name": "Grace"])
        #expect(third["author"] == ["id": 5, "name": "Grace"])
    }

    @Test func ownersReleasedDuringADispatchAreDroppedAndTheRestKeepTheirOrder() throws {
        let map = IdentityMap(), log = Log()
        var first: Post? = post(1, in: map, log: log)
        let second = post(2, in: map, log: log)
        var third: Post? = post(3, in: map, log: log)
        let fourth = post(4, in: map, log: log)
        let author = try #require(second[Post.author])
        // The second owner's update releases the first (told already) and the third (not yet).
        second.on("change:author") { _ in
            first = nil
            third = nil
        }

        author.set(["name": "Grace"])
        #expect(first == nil && third == nil)
        #expect(log.updated == [1, 2, 4])

        log.updated = []
        author.set(["name": "Hopper"])
        #expect(log.updated == [2, 4])
        #expect(fourth["author"] == ["id": 5, "name": "Hopper"])

        // The positions were renumbered: a new owner joins after the others.
        let fifth = post(5, in: map, log: log)
        log.updated = []
        author.set(["name": "Lovelace"])
        #expect(log.updated == [2, 4, 5])
        #expect(fifth["author"] == ["id": 5, "name": "Lovelace"])
    }

    /// Owners released one by one outside a dispatch, first, in the middle and last, leave
    /// the others told in the order they linked, as their own handlers on the author would
    /// run (Backbone's `off` keeps the rest of a handler list in order).
    @Test func ownersReleasedOneByOneLeaveTheRestInTheOrderTheyLinked() throws {
        let map = IdentityMap(), log = Log()
        var posts: [Post?] = (1...10).map { post($0, in: map, log: log) }
        let author = try #require(posts[1]?[Post.author])

        for released in [1, 3, 5, 7] { posts[released - 1] = nil }
        author.set(["name": "Grace"])
        #expect(log.updated == [2, 4, 6, 8, 9, 10])

        for released in [10, 9, 2] { posts[released - 1] = nil }
        log.updated = []
        author.set(["name": "Hopper"])
        #expect(log.updated == [4, 6, 8])

        let eleventh = post(11, in: map, log: log)
        posts[5] = nil
        log.updated = []
        author.set(["name": "Lovelace"])
        #expect(log.updated == [4, 8, 11])
        #expect(eleventh["author"] == ["id": 5, "name": "Lovelace"])
    }

    /// An author of many posts keeps their slots in a buffer that grows as they link (3, 7,
    /// 15, 31, 63 slots after the first): the owners are told in order across each growth,
    /// after removals that drop and compact slots, and as more link after those.
    @Test func manyOwnersAreToldInTheOrderTheyLinkedAcrossTheListsGrowth() throws {
        let map = IdentityMap(), log = Log()
        var posts: [Post?] = (1...40).map { post($0, in: map, log: log) }
        let author = try #require(posts[0]?[Post.author])

        author.set(["name": "Grace"])
        #expect(log.updated == Array(1...40))

        // Every odd post goes, the last one among them, and then the last even one.
        for released in stride(from: 39, through: 1, by: -2) { posts[released - 1] = nil }
        posts[39] = nil
        log.updated = []
        author.set(["name": "Hopper"])
        #expect(log.updated == Array(stride(from: 2, through: 38, by: 2)))

        let later = (41...80).map { post($0, in: map, log: log) }
        log.updated = []
        author.set(["name": "Lovelace"])
        #expect(log.updated == Array(stride(from: 2, through: 38, by: 2)) + Array(41...80))
        #expect(later.allSatisfy { $0["author"] == ["id": 5, "name": "Lovelace"] })
    }
}
