import Foundation
import Keel
import KeelSQLite
import KeelTestServer
import Testing

/// The offline cache in front of the stock Rails app, with nothing but the `.rails` preset:
/// writes queued offline reach Rails' strong parameters under their root keys, and answers
/// with `include_root_in_json` are cached without theirs.
struct RailsOfflineTests {
    final class Note: Model {
        override class var urlRoot: String? { "/notes" }
        override class var wireFormat: WireFormat { .rails }
    }

    final class Person: Model {
        override class var urlRoot: String? { "/people" }
        override class var wireFormat: WireFormat { .rails }
    }

    private func makeRailsCache() async throws -> (CachingSync, RESTSync) {
        let rails = RESTSync(baseURL: try await RailsTestServer.shared.baseURL)
        var configuration = CachingSync.Configuration()
        configuration.sendsImmediately = false
        return (
            CachingSync(remote: rails, local: try SQLiteOfflineStore.inMemory(), configuration: configuration), rails
        )
    }

    @Test func queuedCreatesAndEditsReachRailsUnderTheirRootKeys() async throws {
        let (cache, rails) = try await makeRailsCache()
        let title = "Offline milk " + UUID().uuidString
        let note = Note(["title": .string(title), "body": "2 l"])
        note.sync = cache
        try await note.save()
        #expect(TemporaryID.isTemporary(note.id))
        let temporaryID = try #require(note.id?.stringValue)
        #expect(note.attributes == ["title": .string(title), "body": "2 l", "id": .string(temporaryID)])
        #expect(try await cache.local.record(temporaryID, in: "/notes")?["note"] == nil, "kept without its root")
        try await note.save(["done": true], patch: true)
        #expect(try await cache.queuedChanges().map(\.rootKey) == ["note", "note"])

        let report = try await cache.replay()
        #expect(report.failures.isEmpty)
        #expect(report.sent.count == 2)
        let created = try #require(report.sent.first?.response.body?["id"])

        let onServer = try await rails.perform(SyncRequest(method: .read, url: url("/notes/\(created)")))
        #expect(onServer.body?["title"] == .string(title))
        #expect(onServer.body?["body"] == "2 l")
        #expect(onServer.body?["done"] == true)
        let cached = try await cache.local.record(CachePathKey.of(created), in: "/notes")
        #expect(cached?["title"] == .string(title))
        #expect(cached?["done"] == true)
        #expect(cached?["created_at"] != nil, "the server's answer is what is cached")
    }

    @Test func recordsWrappedByIncludeRootInJSONAreCachedWithoutTheirRoot() async throws {
        let (cache, rails) = try await makeRailsCache()
        let name = "Ada " + UUID().uuidString
        let made = try await rails.perform(
            SyncRequest(method: .create, url: url("/people"), body: ["person": ["name": .string(name)]])
        )
        let id = try #require(made.body?["person"]?["id"])

        let person = Person(["id": id])
        person.sync = cache
        try await person.fetch()
        #expect(person["name"] == .string(name))
        let cached = try await cache.local.record(CachePathKey.of(id), in: "/people")
        #expect(cached?["name"] == .string(name))
        #expect(cached?["id"] == id)

        let people = Collection<Person>(url: "/people", sync: cache)
        try await people.fetch()
        #expect(people.get(id)?["name"] == .string(name))
        #expect(try await cache.local.record(CachePathKey.of(id), in: "/people")?["person"] == nil)
    }
}

/// The key a record id is stored under in the local copy: its text, without quotes.
private enum CachePathKey {
    static func of(_ id: JSONValue) -> String {
        id.stringValue ?? id.description
    }
}
