import Keel

// MARK: - jsonapi_compound

/// How many articles `jsonapi_compound`'s document carries; each has its own author, so the
/// document's `included` holds as many authors.
let compoundArticles = 1_000

/// How many models `jsonapi_compound` builds: an article and its author each.
///
/// Its goal is per model against `parse_reset`, so a `parse_reset` of this many notes is timed
/// beside it, repetition by repetition.
let compoundModels = 2 * compoundArticles

/// The author of `jsonapi_compound`: a JSON:API `people` resource, one instance per id
/// through the identity map.
final class CompoundAuthor: Model {
    override class var urlRoot: String? { "/people" }
    override class var wireFormat: WireFormat { .jsonAPI(type: "people") }
}

/// The article of `jsonapi_compound`: an `articles` resource whose `author` relationship
/// links to a ``CompoundAuthor``.
final class CompoundArticle: Model {
    static let author = BelongsTo<CompoundAuthor>("author", foreignKey: "authorId")
    override class var urlRoot: String? { "/articles" }
    override class var wireFormat: WireFormat { .jsonAPI(type: "articles") }
    override class var relations: [any Relation] { [author] }
}

/// `jsonapi_compound`'s JSON text: article `i` (`title`, `words`) by author `i` (`name`,
/// `email`), the authors under `included`, after the articles.
func compoundDocumentJSON() -> String {
    let articles: [JSONValue] = (0..<compoundArticles).map { i in
        [
            "type": "articles", "id": .string(String(i)),
            "attributes": ["title": .string("article \(i)"), "words": .int(i * 10)],
            "relationships": ["author": ["data": ["type": "people", "id": .string(String(i))]]],
        ]
    }
    let authors: [JSONValue] = (0..<compoundArticles).map { i in
        [
            "type": "people", "id": .string(String(i)),
            "attributes": ["name": .string("author \(i)"), "email": .string("author\(i)@example.com")],
        ]
    }
    return JSONValue.object(["data": .array(articles), "included": .array(authors)]).description
}

/// The check value of `jsonapi_compound`: the order checksum of the article ids plus,
/// article by article, the id of the author object it links to, plus the number of distinct
/// author objects, modulo 2³².
func compoundChecksum(articleIDs: [Int], authorIDs: [Int], distinctAuthors: Int) -> Int {
    (orderChecksum(articleIDs) + authorIDs.reduce(0, +) + distinctAuthors) % (1 << 32)
}

extension KeelTrials {
    /// `jsonapi_compound`'s state: the document's text, an identity map, and a collection of
    /// articles that builds its models through it.
    struct CompoundDocumentState {
        let json = compoundDocumentJSON()
        let map = IdentityMap()
        let articles: Collection<CompoundArticle>

        init() {
            articles = Collection<CompoundArticle>(
                factory: map.factory(for: CompoundArticle.self, collection: "/articles")
            )
            try? map.registerResourceType(for: CompoundAuthor.self, collection: "/people")
        }
    }

    /// `jsonapi_compound`: parse the document, read it into the collection through the
    /// identity map (each article's `author` linked to its included author by `(type, id)`),
    /// then merge the included resources of known types into the map, as a `Store` does after
    /// a fetch.
    static func compoundDocument() -> Trial {
        Trial(
            setup: { CompoundDocumentState() },
            body: { state in
                let document = try JSONValue(parsing: state.json)
                let articles = try state.articles.reset(parsing: document)
                return (articles, try state.map.mergeIncluded(from: document))
            },
            verify: { state in
                let articles = state.articles.models
                try expect(articles.count == compoundArticles, "\(articles.count) articles")
                let authors = try articles.map {
                    try unwrap($0[CompoundArticle.author], "article \($0.intID) has no author")
                }
                for author in authors {
                    try expect(
                        state.map.existing(CompoundAuthor.self, id: author.id ?? nil, in: "/people") === author,
                        "author \(author.intID) is not the map's"
                    )
                }
                let last = try unwrap(authors.last, "no authors")
                try expect(last["email"] == "author999@example.com", "the last author's email")
                try expect(articles.last?["words"] == 9_990, "the last article's words")
                return compoundChecksum(
                    articleIDs: articles.map(\.intID),
                    authorIDs: authors.map(\.intID),
                    distinctAuthors: Set(authors.map(ObjectIdentifier.init)).count
                )
            }
        )
    }
}
