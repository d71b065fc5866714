import Foundation
import Keel
import KeelTestServer
import Testing

/// A body fetched raw from the real Rails and Django servers (a built request sent with
/// `RESTSync.perform`) and then read by a model, a collection or the format's `decode` gives
/// what a model or collection fetch gives.
@MainActor
struct ServerDataIntegrationTests {
    final class Note: Model {
        override class var urlRoot: String? { "/notes" }
        override class var wireFormat: WireFormat { .rails }
    }

    final class Article: Model {
        override class var urlRoot: String? { "/drf/articles" }
        override class var wireFormat: WireFormat { .djangoREST }
    }

    @Test func aRawRailsBodyReadsAsAFetch() async throws {
        let rails = RESTSync(baseURL: try await RailsTestServer.shared.baseURL)
        let note = Note(["title": "Raw milk", "dueAt": "2026-12-01T09:30:00.250Z"])
        note.sync = rails
        try await note.save()
        let id = try #require(note.id)
        try await note.fetch()

        let record = try #require(try await rails.perform(note.fetchRequest()).body)
        #expect(record.objectValue?["due_at"] != nil || record.objectValue?["note"] != nil)
        let built = Note(try #require(record.objectValue), options: ChangeOptions(parse: true))
        #expect(built.attributes == note.attributes)
        #expect(built["dueAt"] != nil)
        #expect(Note(try WireFormat.rails.decode(record, for: Note.self)).attributes == note.attributes)
        let reread = Note()
        reread.set(try #require(record.objectValue), options: ChangeOptions(parse: true))
        #expect(reread.attributes == note.attributes)

        let listURL = try #require(URL(string: "/notes"))
        let list = try #require(try await rails.perform(SyncRequest(method: .read, url: listURL)).body)
        let parsed = try Collection<Note>().set(parsing: list)
        let notes = Collection<Note>(url: "/notes", sync: rails)
        try await notes.fetch()
        #expect(parsed.first { $0.id == id }?.attributes == notes.get(id)?.attributes)
        #expect(parsed.first { $0.id == id }?.attributes == note.attributes)
        try await note.destroy(wait: true)
    }

    @Test func aRawDjangoBodyReadsAsAFetch() async throws {
        let server = try await TestServer.shared
        let django = RESTSync(baseURL: server.baseURL)
        let article = Article(["title": "Raw", "body": "Spice", "publishedAt": "2026-11-23T21:57:13.123456Z"])
        article.sync = django
        try await article.save()
        let id = try #require(article.id)
        try await article.fetch()

        let request = try article.fetchRequest()
        #expect(request.url.absoluteString.contains("/drf/articles/") && request.url.absoluteString.hasSuffix("/"))
        let record = try #require(try await django.perform(request).body)
        #expect(record.objectValue?["published_at"] != nil)
        let built = Article(try #require(record.objectValue), options: ChangeOptions(parse: true))
        #expect(built.attributes == article.attributes)
        #expect(built["publishedAt"] != nil)
        let map = IdentityMap()
        let mapped = map.model(
            Article.self,
            collection: "/drf/articles",
            attributes: try #require(record.objectValue),
            options: ChangeOptions(parse: true)
        )
        #expect(mapped.attributes == article.attributes)

        let listURL = try #require(URL(string: "/drf/articles/"))
        let list = try #require(try await django.perform(SyncRequest(method: .read, url: listURL)).body)
        let parsed = try Collection<Article>().set(parsing: list)
        let articles = Collection<Article>(url: "/drf/articles", sync: django)
        try await articles.fetch()
        #expect(parsed.first { $0.id == id }?.attributes == articles.get(id)?.attributes)
        #expect(parsed.first { $0.id == id }?.attributes == article.attributes)
        try await article.destroy(wait: true)
    }
}
