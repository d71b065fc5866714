import Keel

// MARK: - bulk_relations

/// How many posts `bulk_relations` loads, and how many distinct authors they belong to.
let bulkPosts = 100_000, bulkAuthors = 1_000

/// The author of `bulk_relations`'s posts: one instance per id through the identity map.
final class BulkAuthor: Model {
    override class var urlRoot: String? { "/authors" }
}

/// The post of `bulk_relations`: it belongs to a ``BulkAuthor``, which the server embeds.
final class BulkPost: Model {
    static let author = BelongsTo<BulkAuthor>("author", foreignKey: "authorId")
    override class var relations: [any Relation] { [author] }
}

/// Post `i` as the server sends it: its author (`i % 1,000`) embedded beside the foreign key.
func bulkPostAttributes(_ i: Int) -> Attributes {
    let author = i % bulkAuthors
    return [
        "id": .int(i), "title": .string("post \(i)"), "authorId": .int(author),
        "author": ["id": .int(author), "name": .string("author \(author)")],
    ]
}

/// The check value of `bulk_relations`: the order checksum of the post ids plus, post by
/// post, the id of the author instance it links to, plus the number of distinct author
/// instances, modulo 2³².
func bulkRelationsChecksum(postIDs: [Int], authorIDs: [Int], distinctAuthors: Int) -> Int {
    (orderChecksum(postIDs) + authorIDs.reduce(0, +) + distinctAuthors) % (1 << 32)
}

extension KeelTrials {
    /// `bulk_relations`'s state: an identity map, a collection of posts that builds its
    /// models through it, and the records, built untimed.
    struct BulkRelationsState {
        let map = IdentityMap()
        let posts: Collection<BulkPost>
        let input = (0..<bulkPosts).map(bulkPostAttributes)

        init() {
            posts = Collection<BulkPost>(factory: map.factory(for: BulkPost.self, collection: "/posts"))
        }
    }

    /// `bulk_relations`: one `add` of 100,000 posts, each built through the identity map with
    /// its embedded author, which the map makes one instance per author id.
    static func bulkRelations() -> Trial {
        Trial(
            setup: { BulkRelationsState() },
            body: { state in state.posts.add(state.input) },
            verify: { state in
                let posts = state.posts.models
                try expect(posts.count == bulkPosts, "\(posts.count) posts")
                let authors = try posts.map { try unwrap($0[BulkPost.author], "post \($0.intID) has no author") }
                for author in authors.prefix(bulkAuthors) {
                    try expect(state.map.existing(BulkAuthor.self, id: author.id ?? nil, in: "/authors") === author, "author \(author.intID) is not the map's")
                }
                let distinct = Set(authors.map(ObjectIdentifier.init)).count
                return bulkRelationsChecksum(postIDs: posts.map(\.intID), authorIDs: authors.map(\.intID), distinctAuthors: distinct)
            }
        )
    }
}
