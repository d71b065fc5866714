import Foundation
import Keel
import KeelTestServer
import Testing

/// A record class of one of the real test servers, with what the store's checks need to
/// know about that server.
protocol StoreServerRecord: Model {
    /// A backend on the shared server; a server that cannot start fails the test.
    static func backend() async throws -> RESTSync
    /// The collection's URL, for requests that bypass the store.
    static var collectionURL: URL { get }
    /// A record's URL, for requests that bypass the store.
    static func recordURL(_ id: Int) -> URL
    /// What the server answers to a blank title.
    static var blankTitleError: SyncError { get }
}

/// An article of the Django test server's stock DRF `ModelViewSet` (`/drf/articles/`,
/// 400 with field errors).
final class StoreDRFArticle: Model, StoreServerRecord {
    override class var urlRoot: String? { "/drf/articles" }
    override class var wireFormat: WireFormat { .djangoREST }

    static func backend() async throws -> RESTSync {
        RESTSync(baseURL: try await TestServer.shared.baseURL)
    }

    static var collectionURL: URL { URL(string: "/drf/articles/")! }

    static func recordURL(_ id: Int) -> URL { URL(string: "/drf/articles/\(id)/")! }

    static var blankTitleError: SyncError {
        .validationFailed(["title": ["This field may not be blank."]], status: 400)
    }
}

/// A note of the Rails test app's scaffold resource (`/notes`, 422 with field errors).
final class StoreRailsNote: Model, StoreServerRecord {
    override class var urlRoot: String? { "/notes" }
    override class var wireFormat: WireFormat {
        var format = WireFormat.rails
        format.root.singular = "note"  // what the controller's `params.require(:note)` reads
        return format
    }

    static func backend() async throws -> RESTSync {
        RESTSync(baseURL: try await RailsTestServer.shared.baseURL)
    }

    static var collectionURL: URL { URL(string: "/notes")! }

    static func recordURL(_ id: Int) -> URL { URL(string: "/notes/\(id)")! }

    static var blankTitleError: SyncError {
        .validationFailed(["title": ["can't be blank"]], status: 422)
    }
}

/// A store over the real Django and Rails servers: `cacheAndNetwork` shows the held
/// records, then the server's; a create refetches an observed query; a rejected save rolls
/// back. The servers are shared, so each check marks its records with a body of its own and
/// queries only those.
@MainActor
enum StoreRealServerChecks {
    /// A body no other record on the server has.
    private static func batch() -> JSONValue {
        .string("store-\(UUID().uuidString)")
    }

    /// The titles of a query's results, in order.
    private static func titles<M: Model>(_ query: LiveQuery<M>) -> [String] {
        query.map { $0["title"]?.stringValue ?? "-" }
    }

    /// Creates a record on the server directly, as another client would.
    private static func createOnServer<M: StoreServerRecord>(
        _ type: M.Type,
        through backend: RESTSync,
        _ record: JSONValue
    ) async throws {
        _ = try await backend.perform(SyncRequest(method: .create, url: M.collectionURL, body: record))
    }

    static func cacheAndNetworkShowsTheHeldRecordsThenTheServers<M: StoreServerRecord>(_ type: M.Type) async throws {
        let backend = try await M.backend()
        let gate = HeldRequestSync(backend, holding: [.read])
        let store = Store(sync: gate)
        let batch = batch()
        let first = try await store.create(M.self, ["title": "First", "body": batch])
        let id = try #require(first.id?.intValue)
        // Another client adds a record the store has not seen.
        try await createOnServer(M.self, through: backend, ["title": "Second", "body": batch])

        let query = store.query(
            M.self,
            filter: .attribute("body", equals: batch),
            sort: .attribute("title"),
            policy: .cacheAndNetwork
        )
        #expect(titles(query) == ["First"])
        #expect(!query.isFetching && query.lastUpdated == nil)
        let load = Task { try await query.load() }
        while gate.waiting == 0 { await Task.yield() }
        #expect(query.isFetching)
        #expect(titles(query) == ["First"])
        gate.open()
        try await load.value
        #expect(!query.isFetching)
        #expect(query.error == nil)
        let loadedAt = try #require(query.lastUpdated)
        #expect(titles(query) == ["First", "Second"])

        // The answer is fresh, yet the policy asks again, and the server's rename shows.
        _ = try await backend.perform(SyncRequest(method: .patch, url: M.recordURL(id), body: ["title": "Renamed"]))
        #expect(!query.isStale)
        try await query.load()
        #expect(titles(query) == ["Renamed", "Second"])
        #expect(query.first === first)
        #expect(try #require(query.lastUpdated) >= loadedAt)
    }

    static func aCreateRefetchesAnObservedQuery<M: StoreServerRecord>(_ type: M.Type) async throws {
        let backend = try await M.backend()
        let store = Store(sync: backend)
        let batch = batch()
        try await createOnServer(M.self, through: backend, ["title": "Existing", "body": batch])
        let query = store.query(M.self, filter: .attribute("body", equals: batch), sort: .attribute("title"))
        var snapshots = query.snapshots.makeAsyncIterator()
        let keeper = Task { await query.keepLoaded() }
        while let snapshot = await snapshots.next(), snapshot.count != 1 {}
        #expect(titles(query) == ["Existing"])

        // Another client adds a record: only a refetch can bring it.
        try await createOnServer(M.self, through: backend, ["title": "Other client", "body": batch])
        let mine = try await store.create(M.self, ["title": "Mine", "body": batch])
        let id = try #require(mine.id?.intValue)
        while let snapshot = await snapshots.next(), snapshot.count != 3 {}
        #expect(titles(query) == ["Existing", "Mine", "Other client"])
        #expect(query.first { $0.id?.intValue == id } === mine)
        let stored = try await backend.perform(SyncRequest(method: .read, url: M.recordURL(id)))
        #expect(stored.body?["title"] == "Mine")
        keeper.cancel()
        await keeper.value
    }

    static func aRejectedSaveRollsBackWithEventsAndKeepsTheServersErrors<M: StoreServerRecord>(
        _ type: M.Type
    ) async throws {
        let backend = try await M.backend()
        let store = Store(sync: backend)
        let batch = batch()
        let record = try await store.create(M.self, ["title": "Draft", "body": batch])
        try await record.save(["title": "Kept"])
        let id = try #require(record.id?.intValue)
        let kept = store.query(M.self, filter: .attribute("body", equals: batch) && .attribute("title", equals: "Kept"))
        var titles: [String] = []
        record.on("change:title") { titles.append($0.value?.stringValue ?? "-") }
        var queryEvents: [String] = []
        kept.on("add remove") { queryEvents.append($0.name) }

        await #expect(throws: M.blankTitleError) { try await record.save(["title": ""]) }
        #expect(record["title"] == "Kept")
        #expect(titles == ["", "Kept"])
        #expect(queryEvents == ["remove", "add"])
        #expect(kept.first === record)
        #expect(record.validationError == M.blankTitleError.validationError)
        #expect(record.unsavedChanges == nil)
        let stored = try await backend.perform(SyncRequest(method: .read, url: M.recordURL(id)))
        #expect(stored.body?["title"] == "Kept")
    }
}

@MainActor
@Suite(.timeLimit(.minutes(5)))
struct StoreRealServerDjangoTests {
    @Test func cacheAndNetworkShowsTheHeldRecordsThenTheServers() async throws {
        try await StoreRealServerChecks.cacheAndNetworkShowsTheHeldRecordsThenTheServers(StoreDRFArticle.self)
    }

    @Test func aCreateRefetchesAnObservedQuery() async throws {
        try await StoreRealServerChecks.aCreateRefetchesAnObservedQuery(StoreDRFArticle.self)
    }

    @Test func aRejectedSaveRollsBackWithEventsAndKeepsTheServersErrors() async throws {
        try await StoreRealServerChecks.aRejectedSaveRollsBackWithEventsAndKeepsTheServersErrors(StoreDRFArticle.self)
    }
}

@MainActor
@Suite(.timeLimit(.minutes(5)))
struct StoreRealServerRailsTests {
    @Test func cacheAndNetworkShowsTheHeldRecordsThenTheServers() async throws {
        try await StoreRealServerChecks.cacheAndNetworkShowsTheHeldRecordsThenTheServers(StoreRailsNote.self)
    }

    @Test func aCreateRefetchesAnObservedQuery() async throws {
        try await StoreRealServerChecks.aCreateRefetchesAnObservedQuery(StoreRailsNote.self)
    }

    @Test func aRejectedSaveRollsBackWithEventsAndKeepsTheServersErrors() async throws {
        try await StoreRealServerChecks.aRejectedSaveRollsBackWithEventsAndKeepsTheServersErrors(StoreRailsNote.self)
    }
}
