import Foundation
import Keel
import KeelTestServer
import Testing

/// ``WireFormat/jsonAPI`` against djangorestframework-jsonapi as its documentation sets it up
/// (Tests/Server/keelserver/jsonapi): stock `ModelViewSet`s, `ResourceRelatedField`s,
/// `included_serializers` and `JsonApiPageNumberPagination`, snake_case member names and the
/// model names as types.
@MainActor
struct JSONAPIIntegrationTests {

    final class Author: Model {
        override class var urlRoot: String? { "/jsonapi/authors" }
        override class var wireFormat: WireFormat { .jsonAPI(keys: .snakeCase, typeNaming: .className) }
    }

    final class Comment: Model {
        static let article = BelongsTo<Article>("article")
        static let author = BelongsTo<Author>("author")
        override class var urlRoot: String? { "/jsonapi/comments" }
        override class var wireFormat: WireFormat { .jsonAPI(keys: .snakeCase, typeNaming: .className) }
        override class var relations: [any Relation] { [article, author] }
    }

    final class Article: Model {
        static let author = BelongsTo<Author>("author")
        static let comments = HasMany<Comment>("comments")
        override class var urlRoot: String? { "/jsonapi/articles" }
        override class var wireFormat: WireFormat { .jsonAPI(keys: .snakeCase, typeNaming: .className) }
        override class var relations: [any Relation] { [author, comments] }
    }

    private func api() async throws -> CountingSync {
        CountingSync(RESTSync(baseURL: try await TestServer.shared.baseURL))
    }

    /// An author and an article by them with two comments, saved through `sync`.
    private func seed(_ sync: CountingSync, title: String) async throws -> (Author, Article) {
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
        #expect(sync.lastRequest?.headers["Accept"] == "application/vnd.api+json")
        #expect(sync.lastRequest?.headers["Content-Type"] == "application/vnd.api+json")

        let article = Article(["title": "Compilers", "publishedAt": "2026-11-28T08:00:00Z", "authorId": .int(authorID)])
        article.sync = sync
        try await article.save()
        #expect(article.id?.intValue != nil)
        #expect(article["publishedAt"] == "2026-11-28T08:00:00Z")
        #expect(article["authorId"] == .int(authorID))

        let fetched = Article(["id": article.id ?? nil])
        fetched.sync = sync
        try await fetched.fetch()
        #expect(fetched["title"] == "Compilers")
        #expect(fetched["authorId"] == .int(authorID))
        #expect(fetched[Article.comments].length == 0)

        try await fetched.save(["title": "Compilers, 2nd ed."])
        #expect(sync.lastRequest?.method == .patch)
        try await fetched.save(["body": "Dragons"], patch: true)
        #expect(sync.lastRequest?.body?["data"]?["id"] == .string(String(fetched.id?.intValue ?? 0)))
        #expect(sync.lastRequest?.body?["data"]?["attributes"] == ["body": "Dragons"])
        try await article.fetch()
        #expect(article["title"] == "Compilers, 2nd ed.")
        #expect(article["body"] == "Dragons")

        try await fetched.save(["authorId": .null], patch: true)
        #expect(fetched["authorId"] == .null)

        try await article.destroy(wait: true)
        await #expect(throws: SyncError.self) { try await fetched.fetch() }
        #expect(sync.count == 9)
    }

    @Test func aCompoundDocumentFillsRelationsWithoutASecondRequest() async throws {
        let sync = try await api()
        let (author, seeded) = try await seed(sync, title: "Compound-\(UUID())")
        let before = sync.count

        let article = Article(["id": seeded.id ?? nil])
        article.sync = sync
        var options = SyncOptions()
        options.resources.include = ["author", "comments", "comments.author"]
        try await article.fetch(options: options)

        #expect(sync.count == before + 1)
        #expect(
            sync.lastRequest?.query.contains(URLQueryItem(name: "include", value: "author,comments,comments.author"))
                == true
        )
        #expect(article[Article.author]?["name"] == "Ada")
        #expect(article[Article.author]?.id == author.id)
        let comments = article[Article.comments]
        #expect(comments.pluck("body") == ["First", "Second"])
        // comments.author reaches the author included once for both; a comment's article is the
        // article being read (a cycle), so it gets its id alone.
        #expect(comments.map { $0[Comment.author]?["email"] } == ["ada@example.com", "ada@example.com"])
        #expect(comments.first?[Comment.article]?.id == article.id)
        #expect(comments.first?[Comment.article]?["title"] == nil)

        let list = Collection<Article>(
            url: "/jsonapi/articles?search=\(seeded["title"]?.stringValue ?? "")",
            sync: sync
        )
        var listOptions = SyncOptions()
        listOptions.resources.include = ["comments"]
        try await list.fetch(options: listOptions)
        #expect(list.first?[Article.comments].pluck("body") == ["First", "Second"])
        #expect(sync.count == before + 2)
    }

    @Test func aSparseFieldsetSetsOnlyTheFieldsItCarries() async throws {
        let sync = try await api()
        let (_, article) = try await seed(sync, title: "Sparse-\(UUID())")
        let comments = article[Article.comments]
        try await article.fetch()
        #expect(comments.length == 2)
        let commentInstances = comments.map { $0 }

        var options = SyncOptions()
        options.resources.fields = ["Article": ["title", "publishedAt"]]
        try await article.fetch(options: options)

        #expect(
            sync.lastRequest?.query.contains(URLQueryItem(name: "fields[Article]", value: "title,published_at")) == true
        )
        #expect(article.remoteAttributes?["data"]?["attributes"]?["body"] == nil)
        #expect(article["body"] == "Engines")
        #expect(article["authorId"] != nil)
        #expect(comments.map { $0 }.elementsEqual(commentInstances, by: ===))
    }

    @Test func errorObjectsReachValidationErrorUnderAppNames() async throws {
        let sync = try await api()
        let article = Article(["title": "", "publishedAt": "soon", "authorId": 987_654_321])
        article.sync = sync
        var invalid: [ValidationError] = []
        article.on("invalid") { event in if let error = event.validationError { invalid.append(error) } }

        let error = await #expect(throws: SyncError.self) { try await article.save() }
        #expect(error?.status == 400)
        #expect(article.validationError?["title"] == ["This field may not be blank."])
        #expect(article.validationError?["publishedAt"].first?.hasPrefix("Datetime has wrong format") == true)
        #expect(article.validationError?["author"] == [#"Invalid pk "987654321" - object does not exist."#])
        #expect(article.validationError?.messages == [])
        #expect(invalid.count == 1)
    }

    @Test func aWrongTypeIsAConflictReportedModelWide() async throws {
        let sync = try await api()
        let (_, article) = try await seed(sync, title: "Conflict-\(UUID())")
        var options = SyncOptions()
        options.wireFormat = .jsonAPI(type: "Articles", keys: .snakeCase, typeNaming: .className)
        let error = await #expect(throws: SyncError.self) { try await article.save(["title": "x"], options: options) }
        #expect(error?.status == 409)
        #expect(article.validationError?.messages.first?.contains("(Articles)") == true)
    }

    @Test func refusedMediaTypesAreTypedErrors() async throws {
        let sync = try await api()
        let article = Article(["title": "Media"])
        article.sync = sync
        var plainJSON = SyncOptions()
        plainJSON.headers = ["content-type": "application/json"]
        let refused = await #expect(throws: SyncError.self) { try await article.save(options: plainJSON) }
        guard case .mediaTypeRefused(415, "application/vnd.api+json", _) = refused else {
            Issue.record("expected a refused media type, got \(String(describing: refused))")
            return
        }
        #expect(
            sync.lastRequest?.headers == ["Accept": "application/vnd.api+json", "content-type": "application/json"]
        )

        var csv = SyncOptions()
        csv.headers = ["Accept": "text/csv"]
        let list = Collection<Article>(url: "/jsonapi/articles", sync: sync)
        let notAcceptable = await #expect(throws: SyncError.self) { _ = try await list.fetch(options: csv) }
        #expect(notAcceptable?.status == 406)
        guard case .mediaTypeRefused = notAcceptable else {
            Issue.record("expected a refused media type, got \(String(describing: notAcceptable))")
            return
        }
    }

    @Test func pagesFollowTheDocumentLinksToTheEnd() async throws {
        let sync = try await api()
        let tag = "Paged-\(UUID().uuidString.prefix(8))"
        for number in 1...5 {
            let article = Article(["title": "\(tag) \(number)"])
            article.sync = sync
            try await article.save()
        }
        let articles = Collection<Article>(url: "/jsonapi/articles?search=\(tag)", sync: sync)
        let pages = Paginator(articles, style: .jsonAPI(), pageSize: 2)
        try await pages.loadFirstPage()
        #expect(pages.totalCount == 5)
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
}
