import Foundation
import Keel
import KeelTestServer
import Testing

/// ``AtomicOperations`` against drf-json-api-atomic-operations as its documentation sets it up
/// (`POST /jsonapi/operations` in Tests/Server/keelserver/jsonapi): one serializer per
/// operation and type, the whole request in one database transaction.
@MainActor
struct AtomicOperationsIntegrationTests {
    typealias Author = JSONAPIIntegrationTests.Author
    typealias Article = JSONAPIIntegrationTests.Article

    private let operations = AtomicOperations(endpoint: URL(string: "/jsonapi/operations"))

    private func api() async throws -> CountingSync {
        CountingSync(RESTSync(baseURL: try await TestServer.shared.baseURL))
    }

    /// How another client sees a record.
    private func serverCopy<Record: Model>(_ model: Record, _ sync: CountingSync) async throws -> Record {
        let copy = Record(["id": model.id ?? nil])
        copy.sync = sync
        try await copy.fetch()
        return copy
    }

    @Test func aNewAuthorAndTwoNewArticlesByThemAreCreatedInOneRequest() async throws {
        let sync = try await api()
        let author = Author(["name": "Ann-\(UUID())"])
        author.sync = sync
        let articles = ["First", "Second"].map { title in
            let article = Article(["title": .string(title)])
            article.sync = sync
            article[Article.author] = author
            return article
        }
        var synced: [String] = []
        for model in [author] + articles { model.on("sync") { event in synced.append(event.model?.cid ?? "") } }

        let delivery = try await operations.save(articles + [author])

        guard case .atomically(let response) = delivery else {
            Issue.record("sent one by one: \(delivery)")
            return
        }
        #expect(response.status == 200)
        #expect(sync.count == 1)
        #expect(sync.lastRequest?.headers["Content-Type"] == AtomicOperations.mediaType)
        let sent = sync.lastRequest?.body?["atomic:operations"]?.arrayValue ?? []
        #expect(sent.map { $0["data"]?["type"] } == ["Author", "Article", "Article"])
        #expect(sent[1]["data"]?["relationships"]?["author"]?["data"]?["lid"] == .string(author.cid))
        let authorID = try #require(author.id)
        #expect(!author.isNew && articles.allSatisfy { !$0.isNew })
        #expect(articles.map { $0["authorId"] } == [authorID, authorID])
        #expect(synced == [author.cid] + articles.map(\.cid))
        #expect(author.unsavedChanges == nil)

        let stored = try await serverCopy(articles[1], sync)
        #expect(stored["title"] == "Second")
        #expect(stored["authorId"] == authorID)
    }

    @Test func aRefusedBatchLeavesEverythingAsItWasOnBothSides() async throws {
        let sync = try await api()
        let author = Author(["name": "Before"])
        author.sync = sync
        try await author.save()
        author["name"] = "After"
        let article = Article(["title": ""])
        article.sync = sync
        article[Article.author] = author
        var errors: [String] = []
        for model in [author, article] { model.on("error") { event in errors.append(event.model?.cid ?? "") } }

        // The package answers with its first error only, without a pointer: model-wide.
        await #expect(throws: SyncError.validationFailed(ValidationError("This field may not be blank."), status: 400)) {
            try await operations.save([author, article])
        }

        #expect(article.isNew)
        #expect(author.unsavedChanges == ["name": "After"])
        #expect(Set(errors) == [author.cid, article.cid])
        #expect(try await serverCopy(author, sync)["name"] == "Before")
    }

    @Test func anUpdateAndADeleteGoTogether() async throws {
        let sync = try await api()
        let author = Author(["name": "Kept"])
        author.sync = sync
        try await author.save()
        let doomed = Article(["title": "Doomed", "authorId": author.id ?? nil])
        doomed.sync = sync
        try await doomed.save()
        var destroyed = false
        doomed.on("destroy") { _ in destroyed = true }
        author["name"] = "Renamed"
        let before = sync.count

        try await operations.save([author], destroying: [doomed])

        #expect(sync.count == before + 1)
        #expect(destroyed)
        #expect(author.unsavedChanges == nil)
        await #expect(throws: SyncError.self) { _ = try await serverCopy(doomed, sync) }
        #expect(try await serverCopy(author, sync)["name"] == "Renamed")
    }

    @Test func withoutTheExtensionEachModelGoesOnItsOwnParentsFirst() async throws {
        let sync = try await api()
        for endpoint in [nil, URL(string: "/jsonapi/no-operations-here")] {
            let author = Author(["name": "Solo"])
            author.sync = sync
            let article = Article(["title": "Alone"])
            article.sync = sync
            article[Article.author] = author
            let before = sync.count

            let delivery = try await AtomicOperations(endpoint: endpoint).save([article, author])

            #expect(delivery == .oneByOne)
            #expect(sync.count == before + (endpoint == nil ? 2 : 3))
            #expect(article["authorId"] == author.id)
            #expect(try await serverCopy(article, sync)["authorId"] == author.id)
        }
    }
}
