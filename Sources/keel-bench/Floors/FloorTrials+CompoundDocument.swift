// MARK: - jsonapi_compound

/// An author of `jsonapi_compound`'s floor: a plain object, one per `(type, id)`.
final class PlainCompoundAuthor {
    let id: Int
    let name: String
    let email: String

    init(id: Int, name: String, email: String) {
        self.id = id
        self.name = name
        self.email = email
    }
}

/// An article of `jsonapi_compound`'s floor, linked to its author by reference.
final class PlainCompoundArticle {
    let id: Int
    let title: String
    let words: Int
    let author: PlainCompoundAuthor

    init(id: Int, title: String, words: Int, author: PlainCompoundAuthor) {
        self.id = id
        self.title = title
        self.words = words
        self.author = author
    }
}

/// A resource's identity in a JSON:API document.
private struct PlainResourceKey: Hashable {
    let type: String
    let id: String
}

extension FloorTrials {
    /// The floor of `jsonapi_compound`'s state: the document's text, and what the last run
    /// built: the articles in order and the authors by `(type, id)`.
    final class CompoundDocumentState {
        let json = compoundDocumentJSON()
        var articles: [PlainCompoundArticle] = []
        fileprivate var authors: [PlainResourceKey: PlainCompoundAuthor] = [:]
    }

    /// The floor of `jsonapi_compound`: the hand-written parser, then one plain author per
    /// included resource, indexed by `(type, id)`, then one plain article per resource of
    /// `data`, linked by reference to the author its `relationships.author.data` names.
    static func compoundDocument() -> Trial {
        Trial(
            setup: { CompoundDocumentState() },
            body: { state in
                guard case .object(let document) = try PlainJSONParser.parse(state.json),
                    case .array(let data) = document["data"], case .array(let included) = document["included"]
                else { throw VerificationFailure(description: "a malformed document") }
                var authors: [PlainResourceKey: PlainCompoundAuthor] = [:]
                authors.reserveCapacity(included.count)
                for value in included {
                    guard case .object(let resource) = value, case .string(let type) = resource["type"],
                        case .string(let id) = resource["id"], let number = Int(id),
                        case .object(let attributes) = resource["attributes"],
                        case .string(let name) = attributes["name"], case .string(let email) = attributes["email"]
                    else { throw VerificationFailure(description: "a malformed author") }
                    authors[PlainResourceKey(type: type, id: id)] = PlainCompoundAuthor(id: number, name: name, email: email)
                }
                var articles: [PlainCompoundArticle] = []
                articles.reserveCapacity(data.count)
                for value in data {
                    guard case .object(let resource) = value, case .string(let id) = resource["id"],
                        let number = Int(id), case .object(let attributes) = resource["attributes"],
                        case .string(let title) = attributes["title"], case .int(let words) = attributes["words"],
                        case .object(let relationships) = resource["relationships"],
                        case .object(let author) = relationships["author"], case .object(let linkage) = author["data"],
                        case .string(let authorType) = linkage["type"], case .string(let authorID) = linkage["id"],
                        let linked = authors[PlainResourceKey(type: authorType, id: authorID)]
                    else { throw VerificationFailure(description: "a malformed article") }
                    articles.append(PlainCompoundArticle(id: number, title: title, words: words, author: linked))
                }
                (state.articles, state.authors) = (articles, authors)
                return articles
            },
            verify: { state in
                try expect(state.articles.count == compoundArticles, "\(state.articles.count) articles")
                try expect(state.authors.count == compoundArticles, "\(state.authors.count) authors")
                try expect(state.articles.last?.author.email == "author999@example.com", "the last author's email")
                return compoundChecksum(
                    articleIDs: state.articles.map(\.id),
                    authorIDs: state.articles.map(\.author.id),
                    distinctAuthors: Set(state.articles.map { ObjectIdentifier($0.author) }).count
                )
            }
        )
    }
}
