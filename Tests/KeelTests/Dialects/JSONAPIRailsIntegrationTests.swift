import Foundation
import Keel
import KeelTestServer
import Testing

/// ``WireFormat/jsonAPI`` with dasherized names against Rails 6.1 with ActiveModelSerializers
/// 0.10's `:json_api` adapter as its guides set it up (Tests/RailsServer/app/controllers/jsonapi):
/// `render jsonapi:`, `jsonapi_parse!` for writes, `belongs_to`/`has_many` serializers with
/// `include`, Kaminari pages, and AMS's own quirks (`charset=utf-8` on the media type, every
/// error at `/data/attributes/<name>`).
@MainActor
struct JSONAPIRailsIntegrationTests {

    final class Author: Model {
        override class var urlRoot: String? { "/jsonapi/authors" }
        override class var wireFormat: WireFormat { .jsonAPI(keys: KeyMapping(.dasherized)) }
    }

    final class Comment: Model {
        static let article = BelongsTo<Article>("article")
        static let author = BelongsTo<Author>("author")
        override class var urlRoot: String? { "/jsonapi/comments" }
        override class var wireFormat: WireFormat { .jsonAPI(keys: KeyMapping(.dasherized)) }
        override class var relations: [any Relation] { [article, author] }
    }

    final class Article: Model {
        static let author = BelongsTo<Author>("author")
        static let comments = HasMany<Comment>("comments")
        override class var urlRoot: String? { "/jsonapi/articles" }
        override class var wireFormat: WireFormat { .jsonAPI(keys: KeyMapping(.dasherized)) }
        override class var relations: [any Relation] { [author, comments] }
    }

    private func api() async throws -> CountingSync {
        CountingSync(RESTSync(baseURL: try await RailsTestServer.shared.baseURL))
    }

    /// An author and an article by them with two comments, saved through `sync`.
    static func seed(_ sync: any Sync, title: String) async throws -> (Author, Article) {
        let author = Author(["name": "Ada", "email": "ada@example.com"])
        author.sync = sync
        try await author.save()
        let article = Article(["title": .string(title), "body": "Engines", "authorId": author.id ?? nil])
        article.sync = sync
        try await article.save()
        for body in ["First", "Second"] {
            let comment = Comment(["body": .string(body), "articleId": article.id ?? nil, "authorId": author.id ?? nil])
            comment.sync = sync
            try await comment.save()
        }
        return (author, article)
    }

    @Test func everyVerbTravelsAsAResourceObject() async throws {
        let sync = try await api()
        let author = Author(["name": "Grace"])
        author.sync = sync
        try await author.save()
        let authorID = try #require(author.id?.intValue)
        #expect(author["createdAt"]?.stringValue != nil)
        #expect(sync.lastRequest?.headers["Content-Type"] == "application/vnd.api+json")

        let article = Article(["title": "Compilers", "publishedAt": "2026-11-28T08:00:00.000Z", "authorId": .int(authorID)])
        article.sync = sync
        try await article.save()
        #expect(article.id?.intValue != nil)
        #expect(article["publishedAt"] == "2026-11-28T08:00:00.000Z")
        #expect(article["authorId"] == .int(authorID))
        #expect(article.resourceMeta?["comment-count"] == 0)

        let fetched = Article(["id": article.id ?? nil])
        fetched.sync = sync
        try await fetched.fetch()
        #expect(fetched["title"] == "Compilers")
        #expect(fetched["authorId"] == .int(authorID))
        #expect(fetched[Article.comments].length == 0)

        try await fetched.save(["title": "Compilers, 2nd ed."])
        #expect(sync.lastRequest?.method == .patch)
        try await fetched.save(["body": "Dragons"], patch: true)
        #expect(sync.lastRequest?.body?["data"]?["attributes"] == ["body": "Dragons"])
        try await article.fetch()
        #expect(article["title"] == "Compilers, 2nd ed.")
        #expect(article["body"] == "Dragons")

        let list = Collection<Article>(url: "/jsonapi/articles?filter[title]=Compilers", sync: sync)
        try await list.fetch()
        #expect(list.get(article.id ?? nil)?["body"] == "Dragons")

        try await article.destroy(wait: true)
        let gone = await #expect(throws: SyncError.self) { try await fetched.fetch() }
        #expect(gone?.status == 404)
        #expect(sync.count == 9)
    }

    @Test func plainJSONIsAcceptedAsAMSAcceptsIt() async throws {
        let sync = try await api()
        let author = Author(["name": "Plain"])
        author.sync = sync
        var plainJSON = SyncOptions()
        plainJSON.headers = ["Content-Type": "application/json", "Accept": "application/json"]
        try await author.save(options: plainJSON)
        #expect(author.id?.intValue != nil)
        #expect(author["name"] == "Plain")
    }

    @Test func aCompoundDocumentFillsRelationsWithoutASecondRequest() async throws {
        let sync = try await api()
        let (author, seeded) = try await Self.seed(sync, title: "Compound-\(UUID())")
        let before = sync.count

        let article = Article(["id": seeded.id ?? nil])
        article.sync = sync
        var options = SyncOptions()
        options.resources.include = ["author", "comments.author"]
        try await article.fetch(options: options)

        #expect(sync.count == before + 1)
        #expect(sync.lastRequest?.query.contains(URLQueryItem(name: "include", value: "author,comments.author")) == true)
        #expect(article[Article.author]?["name"] == "Ada")
        #expect(article[Article.author]?.id == author.id)
        let comments = article[Article.comments]
        #expect(comments.pluck("body") == ["First", "Second"])
        #expect(comments.map { $0[Comment.author]?["email"] } == ["ada@example.com", "ada@example.com"])
        #expect(comments.first?[Comment.article]?.id == article.id)
    }

    @Test func aSparseFieldsetSetsOnlyTheFieldsItCarries() async throws {
        let sync = try await api()
        let (_, article) = try await Self.seed(sync, title: "Sparse-\(UUID())")
        try await article.fetch()
        let comments = article[Article.comments]
        #expect(comments.length == 2)
        let commentInstances = comments.map { $0 }

        var options = SyncOptions()
        options.resources.fields = ["articles": ["title", "publishedAt"]]
        try await article.fetch(options: options)

        #expect(
            sync.lastRequest?.query.contains(URLQueryItem(name: "fields[articles]", value: "title,published-at"))
                == true
        )
        #expect(article.remoteAttributes?["data"]?["attributes"]?["body"] == nil)
        #expect(article.remoteAttributes?["data"]?["relationships"] == nil)
        #expect(article["body"] == "Engines")
        #expect(article["authorId"] != nil)
        #expect(comments.map { $0 }.elementsEqual(commentInstances, by: ===))
    }

    @Test func errorPointersReachInvalidUnderAppNames() async throws {
        let sync = try await api()
        let article = Article(["title": "", "publishedAt": "2026-11-28T08:00:00Z"])
        article.sync = sync
        var invalid: [ValidationError] = []
        article.on("invalid") { event in if let error = event.validationError { invalid.append(error) } }

        let error = await #expect(throws: SyncError.self) { try await article.save() }
        #expect(error?.status == 422)
        #expect(article.validationError?["title"] == ["can't be blank"])
        #expect(article.validationError?["author"] == ["must exist"])
        #expect(invalid.count == 1)

        let author = Author(["name": "", "email": ""])
        author.sync = sync
        await #expect(throws: SyncError.self) { try await author.save() }
        #expect(author.validationError?.messages == ["An author needs a name or an email"])
        #expect(author.validationError?.attributes.isEmpty == true)
    }

    @Test func pagesFollowTheDocumentLinksToTheEnd() async throws {
        let sync = try await api()
        let (author, _) = try await Self.seed(sync, title: "Seed-\(UUID())")
        let tag = "Paged-\(UUID().uuidString.prefix(8))"
        for number in 1...5 {
            let article = Article(["title": "\(tag) \(number)", "authorId": author.id ?? nil])
            article.sync = sync
            try await article.save()
        }
        let articles = Collection<Article>(url: "/jsonapi/articles?filter[title]=\(tag)", sync: sync)
        let pages = Paginator(articles, style: .jsonAPI(totalKeyPath: nil), pageSize: 2)
        try await pages.loadFirstPage()
        #expect(pages.pageLinks["last"]?.contains("page%5Bnumber%5D=3") == true)
        var loaded = 1
        while pages.hasNextPage {
            try await pages.loadNextPage()
            loaded += 1
        }
        #expect(loaded == 3)
        #expect(articles.pluck("title") == (1...5).map { .string("\(tag) \($0)") })
        #expect(pages.hasPreviousPage)
    }

    @Test func everyPageAsksForTheSelectionAndKeepsEachRecordsMeta() async throws {
        let sync = try await api()
        let (author, _) = try await Self.seed(sync, title: "Seed-\(UUID())")
        let tag = "Included-\(UUID().uuidString.prefix(8))"
        for number in 1...3 {
            let article = Article(["title": "\(tag) \(number)", "authorId": author.id ?? nil])
            article.sync = sync
            try await article.save()
        }
        let articles = Collection<Article>(url: "/jsonapi/articles?filter[title]=\(tag)", sync: sync)
        let pages = Paginator(
            articles,
            style: .jsonAPI(totalKeyPath: nil),
            pageSize: 2,
            resources: ResourceSelection(include: ["author"], fields: ["authors": ["name"]])
        )
        var requests: [SyncRequest] = []
        try await pages.loadFirstPage()
        requests.append(try #require(sync.lastRequest))
        while pages.hasNextPage {
            try await pages.loadNextPage()
            requests.append(try #require(sync.lastRequest))
        }

        #expect(requests.count == 2)
        for request in requests {
            let query = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems ?? []
            let items = query + request.query
            #expect(items.filter { $0.name == "include" }.map(\.value) == ["author"])
            #expect(items.filter { $0.name == "fields[authors]" }.map(\.value) == ["name"])
        }
        #expect(articles.length == 3)
        #expect(articles.map { $0[Article.author]?["name"] } == Array(repeating: "Ada", count: 3))
        #expect(articles.map { $0[Article.author]?["email"] } == Array(repeating: nil, count: 3))
        #expect(articles.map { $0.resourceMeta?["comment-count"] } == [0, 0, 0])
    }
}
