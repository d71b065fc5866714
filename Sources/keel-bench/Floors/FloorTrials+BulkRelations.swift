// MARK: - bulk_relations

/// An author of `bulk_relations`'s floor: a plain object, one per id.
final class PlainAuthor {
    let id: Int
    var name: String

    init(id: Int, name: String) {
        self.id = id
        self.name = name
    }
}

/// A post of `bulk_relations`'s floor, linked to its author by reference.
final class PlainPost {
    let id: Int
    let title: String
    let authorID: Int
    let author: PlainAuthor

    init(id: Int, title: String, authorID: Int, author: PlainAuthor) {
        self.id = id
        self.title = title
        self.authorID = authorID
        self.author = author
    }
}

extension FloorTrials {
    /// The floor of `bulk_relations`'s state: the same records as plain dictionaries, and
    /// what the last run built: the posts in order, indexed by id, and the authors by id.
    final class BulkRelationsState {
        let input = (0..<bulkPosts).map(plainPost)
        var posts: [PlainPost] = []
        var postsByID: [Int: PlainPost] = [:]
        var authors: [Int: PlainAuthor] = [:]

        static func plainPost(_ i: Int) -> PlainAttributes {
            let author = i % bulkAuthors
            return [
                "id": .int(i), "title": .string("post \(i)"), "authorId": .int(author),
                "author": .object(["id": .int(author), "name": .string("author \(author)")]),
            ]
        }
    }

    /// The floor of `bulk_relations`: each record read into a plain post whose author is the
    /// one object for its id (found in a dictionary and given the embedded record's name, or
    /// made from the embedded record), the
    /// posts kept in order and indexed by id.
    static func bulkRelations() -> Trial {
        Trial(
            setup: { BulkRelationsState() },
            body: { state in
                var posts: [PlainPost] = []
                posts.reserveCapacity(state.input.count)
                var postsByID: [Int: PlainPost] = [:]
                var authors: [Int: PlainAuthor] = [:]
                for record in state.input {
                    guard case .int(let id) = record["id"], case .string(let title) = record["title"],
                        case .int(let authorID) = record["authorId"], case .object(let embedded) = record["author"]
                    else { throw VerificationFailure(description: "a malformed post") }
                    guard case .string(let name) = embedded["name"] else {
                        throw VerificationFailure(description: "a malformed author")
                    }
                    // The embedded record is the latest: a known author takes its values.
                    let author: PlainAuthor
                    if let known = authors[authorID] {
                        if known.name != name { known.name = name }
                        author = known
                    } else {
                        author = PlainAuthor(id: authorID, name: name)
                        authors[authorID] = author
                    }
                    let post = PlainPost(id: id, title: title, authorID: authorID, author: author)
                    posts.append(post)
                    postsByID[id] = post
                }
                (state.posts, state.postsByID, state.authors) = (posts, postsByID, authors)
                return posts
            },
            verify: { state in
                try expect(state.postsByID.count == bulkPosts, "\(state.postsByID.count) posts")
                let distinct = Set(state.posts.map { ObjectIdentifier($0.author) }).count
                return bulkRelationsChecksum(
                    postIDs: state.posts.map(\.id),
                    authorIDs: state.posts.map(\.author.id),
                    distinctAuthors: distinct
                )
            }
        )
    }
}
