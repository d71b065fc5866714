import Foundation
import Keel
import KeelTestServer
import Testing

/// Creating several models with one request: the list of their records in the wire format,
/// the answer applied by position, and a refusal that changes no model but reports each
/// record's errors.
@MainActor
struct CollectionBulkSaveTests {
    final class Article: Model {
        override class var urlRoot: String? { "/drf/bulk-articles" }
        override class var wireFormat: WireFormat { .djangoREST }
    }

    private func articles() async throws -> Collection<Article> {
        let server = try await TestServer.shared
        return Collection<Article>(url: "/drf/bulk-articles", sync: RESTSync(baseURL: server.baseURL))
    }

    @Test func oneRequestCreatesEveryArticleOnDjangoRESTFramework() async throws {
        let articles = try await articles()
        let marker = UUID().uuidString
        articles.add([
            Article(["title": .string("One \(marker)"), "publishedAt": "2026-11-23T21:57:13Z"]),
            Article(["title": .string("Two \(marker)")]),
        ])
        var synced = 0
        articles.on("sync") { _ in synced += 1 }
        let response = try await articles.bulkSave()
        #expect(response.status == 201)
        #expect(articles.models.allSatisfy { !$0.isNew && $0.unsavedChanges == nil })
        #expect(articles.models.map { $0["title"] } == [.string("One \(marker)"), .string("Two \(marker)")])
        #expect(articles.models[0]["createdAt"] != nil)
        #expect(synced == 2)

        let stored = try await self.articles()
        try await stored.fetch()
        for article in articles.models {
            #expect(stored.get(article.id ?? nil)?["title"] == article["title"])
        }
    }

    @Test func aRefusedBatchChangesNoModelAndReportsEachRecordsErrors() async throws {
        let articles = try await articles()
        let marker = UUID().uuidString
        let good = Article(["title": .string("Fine \(marker)")])
        let bad = Article(["title": "", "body": "text"])
        articles.add([good, bad])
        var invalid: [String] = []
        for article in [good, bad] { article.on("invalid") { _ in invalid.append(article.cid) } }
        await #expect(throws: SyncError.self) { try await articles.bulkSave() }
        #expect(good.isNew && bad.isNew)
        #expect(good.validationError == nil)
        #expect(bad.validationError?["title"] == ["This field may not be blank."])
        #expect(invalid == [bad.cid])

        let stored = try await self.articles()
        try await stored.fetch()
        #expect(!stored.models.contains { $0["title"] == .string("Fine \(marker)") })
    }

    @Test func railsCreatesTheNotesUnderThePluralRootOrRefusesThemAll() async throws {
        final class Note: Model {
            override class var wireFormat: WireFormat { .rails }
        }
        let rails = RESTSync(baseURL: try await RailsTestServer.shared.baseURL)
        let notes = Collection<Note>(url: "/notes", sync: rails)
        notes.add([Note(["title": "one", "dueOn": "2026-12-24"]), Note(["title": "two"])])
        try await notes.bulkSave(options: SyncOptions(url: "/notes/bulk"))
        #expect(notes.models.allSatisfy { !$0.isNew })
        #expect(notes.models.first?["dueOn"] == "2026-12-24")

        let refused = Collection<Note>(url: "/notes", sync: rails)
        refused.add([Note(["title": "three"]), Note(["title": ""])])
        await #expect(throws: SyncError.self) { try await refused.bulkSave(options: SyncOptions(url: "/notes/bulk")) }
        #expect(refused.models.allSatisfy { $0.isNew })
        #expect(refused.models[0].validationError == nil)
        #expect(refused.models[1].validationError?["title"] == ["can't be blank"])
    }

    @Test func anAnswerOfAnotherLengthLeavesEveryModelAsItWas() async throws {
        let backend = ScriptedSync { _ in SyncResponse(status: 201, body: [["id": 1, "title": "only one"]]) }
        let notes = Collection<Model>(url: "/notes", sync: backend)
        notes.add([Model(["title": "a"]), Model(["title": "b"])])
        await #expect(
            throws: SyncError.invalidResponse(
                "a bulk create of 2 records was not answered with a list of 2 records"
            )
        ) { try await notes.bulkSave() }
        #expect(notes.models.map { $0["title"] } == ["a", "b"])
        #expect(notes.models.allSatisfy { $0.isNew })
    }

    @Test func anInvalidModelStopsTheBatchBeforeAnythingIsSent() async throws {
        final class Titled: Model {
            override func validate(_ attributes: Attributes, options: ChangeOptions) -> ValidationError? {
                attributes["title"] == "" ? ["title": ["can't be blank"]] : nil
            }
        }
        let backend = ScriptedSync()
        let notes = Collection<Titled>(url: "/notes", sync: backend)
        notes.add([Titled(["title": "a"]), Titled(["title": ""])])
        await #expect(throws: SyncError.validationFailed(["title": ["can't be blank"]], status: nil)) {
            try await notes.bulkSave()
        }
        #expect(backend.requests.isEmpty)
    }

    @Test func aSavedModelInTheBatchIsATypedErrorAndNothingIsSent() async throws {
        let backend = ScriptedSync()
        let notes = Collection<Model>(url: "/notes", sync: backend)
        let saved = Model(["id": 7, "title": "saved"])
        notes.add([Model(["title": "new"]), saved])
        await #expect(throws: SyncError.notNew(model: "Model", id: 7)) {
            try await notes.bulkSave(notes.models)
        }
        #expect(backend.requests.isEmpty)
        #expect(saved["title"] == "saved" && notes.models[0].isNew)
    }

    @Test func aWrappingFormatSendsTheRecordsUnderThePluralRootKey() async throws {
        final class Note: Model {
            override class var wireFormat: WireFormat { .rails }
        }
        let backend = ScriptedSync { request in
            SyncResponse(status: 201, body: ["notes": [["id": 7, "due_at": "2026-01-01"], ["id": 8]]])
        }
        let notes = Collection<Note>(url: "/notes", sync: backend)
        notes.add([Note(["dueAt": "2026-01-01"]), Note(["title": "b"])])
        try await notes.bulkSave()
        #expect(backend.requests.first?.body == ["notes": [["due_at": "2026-01-01"], ["title": "b"]]])
        #expect(backend.requests.first?.method == .create)
        #expect(notes.models.map(\.id) == [7, 8])
        #expect(notes.models.first?["dueAt"] == "2026-01-01")
    }
}
