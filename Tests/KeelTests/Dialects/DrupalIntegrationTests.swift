import Foundation
import Keel
import KeelTestServer
import Testing

/// The Drupal presets and `DrupalSession` against the test server's Drupal 8+ core REST and
/// Drupal 7 Services endpoints: login, CSRF tokens, field items, every verb.
@MainActor
struct DrupalIntegrationTests {
    final class Article: Model {
        override class var urlRoot: String? { "/node" }
        override class var wireFormat: WireFormat {
            var format = WireFormat.drupal
            format.drupalFields?.itemKeys["field_tags"] = "target_id"
            format.drupalFields?.multiValued.insert("field_tags")
            return format
        }
    }

    final class Story: Model {
        override class var urlRoot: String? { "/d7/node" }
        override class var wireFormat: WireFormat {
            var format = WireFormat.drupal7
            format.drupalFields?.itemKeys["field_tags"] = "tid"
            return format
        }
    }

    private func session(_ version: DrupalSession.Version = .drupal8) async throws -> DrupalSession {
        let server = try await TestServer.dedicated(to: "drupal")
        let drupal = DrupalSession(RESTSync(baseURL: server.baseURL), version: version)
        try await drupal.login(name: "admin", password: "admin")
        return drupal
    }

    @Test func drupal8NodesThroughEveryVerb() async throws {
        let drupal = try await session()
        let article = Article(["type": "article", "title": "Hello", "body": "<p>Hi</p>", "fieldTags": [3, 4]])
        article.sync = drupal
        try await article.save()
        let id = try #require(article.id)
        #expect(article["title"] == "Hello")
        #expect(article["fieldTags"] == [3, 4])
        #expect(article["uid"] == 1)

        try await article.save(["title": "Hello again"], patch: true)
        try await article.save(["fieldTags": [5]])
        let fetched = Article(["id": id])
        fetched.sync = drupal
        try await fetched.fetch()
        #expect(fetched["title"] == "Hello again")
        #expect(fetched["fieldTags"] == [5])

        let list = Collection<Article>(url: "/api/articles", sync: drupal)
        try await list.fetch()
        #expect(list.get(id)?["title"] == "Hello again")

        try await article.destroy(wait: true)
        await #expect(throws: SyncError.self) { try await fetched.fetch() }
    }

    @Test func drupal8ValidationMessagesBecomeFieldErrors() async throws {
        let drupal = try await session()
        let article = Article(["type": "article", "title": ""])
        article.sync = drupal
        await #expect(throws: SyncError.self) { try await article.save() }
        #expect(article.validationError?["title"] == ["This value should not be null."])
    }

    @Test func drupal8AnonymousWritesAreRefused() async throws {
        let server = try await TestServer.dedicated(to: "drupal")
        let article = Article(["type": "article", "title": "Nope"])
        article.sync = DrupalSession(RESTSync(baseURL: server.baseURL))
        let error = await #expect(throws: SyncError.self) { try await article.save() }
        #expect(error?.status == 403)
        #expect(article.isNew)
    }

    @Test func drupal7NodesThroughServices() async throws {
        let drupal = try await session(.drupal7(endpoint: "/d7"))
        let story = Story(["type": "article", "title": "Hi", "body": "Text", "fieldTags": "3"])
        story.sync = drupal
        try await story.save()
        let id = try #require(story.id)
        try await story.fetch()
        #expect(story["body"] == "Text")
        #expect(story["fieldTags"] == "3")
        try await story.save(["title": "Hi again"])
        let fetched = Story(["id": id])
        fetched.sync = drupal
        try await fetched.fetch()
        #expect(fetched["title"] == "Hi again")
        let list = Collection<Story>(url: "/d7/node", sync: drupal)
        try await list.fetch()
        #expect(list.get(id)?["title"] == "Hi again")
        try await story.destroy(wait: true)
    }

    @Test func drupal7FormErrorsAreValidationErrors() async throws {
        let drupal = try await session(.drupal7(endpoint: "/d7"))
        let story = Story(["type": "article", "title": ""])
        story.sync = drupal
        await #expect(throws: SyncError.self) { try await story.save() }
        #expect(story.validationError?["title"] == ["Title field is required."])
    }

    @Test(arguments: [DrupalSession.Version.drupal8, .drupal7(endpoint: "/d7")])
    func afterLogoutNoRequestSendsTheSessionCookie(version: DrupalSession.Version) async throws {
        let drupal = try await session(version)
        let before = try await drupal.perform(SyncRequest(method: .read, url: URL(string: "/echo")!))
        #expect(before.body?["headers"]?["cookie"] != nil)
        try await drupal.logout()
        let after = try await drupal.perform(SyncRequest(method: .read, url: URL(string: "/echo")!))
        #expect(after.body?["headers"]?["cookie"] == nil)
    }
}
