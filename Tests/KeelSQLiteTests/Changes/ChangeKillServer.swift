import Foundation
import Keel
import KeelSQLite
import KeelTestServer
import Testing

/// The Django test app's tasks as the kill tests change them: every change is counted, so
/// that the server's history (its outbox, read back over the event stream) can be read
/// whole, and replayed to say what a local copy must hold at any cursor.
@MainActor
final class ChangeKillServer {
    static let collection = "/changes/tasks"
    static let streamPath = "/changes/tasks/stream"

    /// Local changes stay queued: the kill tests check that no pull or push loses them.
    static var queueingConfiguration: CachingSync.Configuration {
        var configuration = CachingSync.Configuration()
        configuration.sendsImmediately = false
        return configuration
    }

    let server: TestServer
    private let other: OtherClient
    private var changesMade = 0

    init(_ server: TestServer) {
        self.server = server
        other = OtherClient.django(server)
    }

    /// Creates `count` tasks, each in its own save (one event each).
    func create(_ count: Int, round: Int) async throws {
        try await other.post("bulk", ["titles": .array((0..<count).map { .string("r\(round)-\($0)") })])
        changesMade += count
    }

    /// Renames and deletes some of the kept tasks, chosen by `round` (one event each).
    func churn(renaming renames: [String], deleting deletions: [String], round: Int) async throws {
        for id in renames {
            try await other.rename(try #require(Int(id)), to: "renamed \(id) in \(round)")
            changesMade += 1
        }
        for id in deletions {
            try await other.delete(try #require(Int(id)))
            changesMade += 1
        }
    }

    /// Picks `count` of the kept tasks at random (seeded by `round`), none of `excluded`.
    static func pick(_ count: Int, of kept: [String: Attributes], excluding excluded: Set<String>, round: Int) -> [String] {
        var random = SeededRandom(seed: UInt64(31 + round))
        return Array(kept.keys.sorted().filter { !excluded.contains($0) }.shuffled(using: &random).prefix(count))
    }

    /// Renames the tasks in the local copy only: the changes stay queued. Returns the local titles.
    static func queueRenames(of ids: [String], in cache: CachingSync) async throws -> [String: String] {
        var titles: [String: String] = [:]
        for id in ids {
            titles[id] = "local \(id)"
            let body: JSONValue = ["title": .string("local \(id)")]
            _ = try await cache.perform(SyncRequest(method: .patch, url: URL(string: "\(collection)/\(id)/")!, body: body))
        }
        return titles
    }

    /// What the app's first run left: its local copy pulled, three tasks renamed offline.
    struct FirstRun {
        var history: ServerHistory
        var queuedTitles: [String: String]
        var queue: [QueuedChange]
        var pullCursor: String?
    }

    /// The app's first run: it pulls the tasks into `database`, then renames three offline
    /// (queued). Its store is closed on return, so that one process at a time has the file open.
    func firstRun(database: URL) async throws -> FirstRun {
        let cache = CachingSync(
            remote: RESTSync(baseURL: server.baseURL),
            local: try SQLiteOfflineStore(fileURL: database),
            configuration: Self.queueingConfiguration
        )
        try await Store(sync: cache).pull(DjangoTask.self, using: .djangoREST)
        let history = try await history()
        let titles = try await Self.queueRenames(of: Self.pick(3, of: history.state(through: .max), excluding: [], round: -1), in: cache)
        let queue = try await cache.local.queuedChanges()
        #expect(queue.count == titles.count)
        return FirstRun(history: history, queuedTitles: titles, queue: queue, pullCursor: try await cache.cursor(for: "pull:\(Self.collection)"))
    }

    /// Every change made so far, in the server's order, read from the start of its stream.
    func history() async throws -> ServerHistory {
        var events: [PushedChange] = []
        let source = ServerSentEventSource(path: Self.streamPath, sync: RESTSync(baseURL: server.baseURL))
        if changesMade > 0 {
            for try await pushed in source.changes(after: "0") {
                events.append(pushed)
                if events.count == changesMade { break }
            }
        }
        return ServerHistory(events: events)
    }
}

/// The server's changes in order, and what a local copy holds after applying a prefix of them.
struct ServerHistory {
    let events: [PushedChange]

    /// The event ids, in order.
    var eventIDs: [Int] { events.compactMap { $0.eventID.flatMap(Int.init) } }

    /// The newest version (`updated_at`) of any change: where a complete pull's cursor ends.
    var newestVersion: String? { events.compactMap(\.change.version).max() }

    /// The kept tasks after the events up to `eventID`, by id.
    func state(through eventID: Int) -> [String: Attributes] {
        replay(events.filter { ($0.eventID.flatMap(Int.init) ?? .max) <= eventID })
    }

    /// The kept tasks after the changes whose version is at most `cursor` (a pull's cursor).
    func state(updatedThrough cursor: String?) -> [String: Attributes] {
        guard let cursor else { return [:] }
        return replay(events.filter { ($0.change.version ?? "") <= cursor })
    }

    /// The ids of the tasks changed after `start` and up to `end` (pull cursors).
    func changed(after start: String?, through end: String?) -> [String: PushedChange] {
        var last: [String: PushedChange] = [:]
        for event in events {
            let version = event.change.version ?? ""
            guard start.map({ version > $0 }) ?? true, end.map({ version <= $0 }) ?? false else { continue }
            last[Self.key(event.change.id)] = event
        }
        return last
    }

    private func replay(_ prefix: [PushedChange]) -> [String: Attributes] {
        var kept: [String: Attributes] = [:]
        for event in prefix {
            let key = Self.key(event.change.id)
            kept[key] = event.change.kind == .deleted ? nil : event.change.attributes
        }
        return kept
    }

    static func key(_ id: JSONValue) -> String { id.intValue.map(String.init) ?? id.description }
}

/// What an offline store file holds: a feed's cursor, the tasks and the queue.
struct LocalCopy {
    var cursor: String?
    var records: [String: Attributes]
    var queue: [QueuedChange]

    static func read(_ database: URL, feed: String) async throws -> LocalCopy {
        let local = try SQLiteOfflineStore(fileURL: database)
        let list = try await local.read(SyncRequest(method: .read, url: URL(string: ChangeKillServer.collection)!))
        var records: [String: Attributes] = [:]
        for record in list.body?.arrayValue?.compactMap(\.objectValue) ?? [] {
            records[ServerHistory.key(record["id"] ?? .null)] = record
        }
        return LocalCopy(cursor: try await local.cursor(for: feed), records: records, queue: try await local.queuedChanges())
    }

    /// Expects the tasks to be `expected`, except those with a queued local rename, which
    /// keep the local title.
    func expectHolds(_ expected: [String: Attributes], queuedTitles: [String: String], _ context: String) {
        let missing = Set(expected.keys).subtracting(records.keys).subtracting(queuedTitles.keys)
        let extra = Set(records.keys).subtracting(expected.keys).subtracting(queuedTitles.keys)
        #expect(missing.isEmpty, "\(context): tasks missing from the local copy: \(missing.sorted())")
        #expect(extra.isEmpty, "\(context): tasks the local copy should not hold: \(extra.sorted())")
        let stale = expected.keys.filter { id in
            guard queuedTitles[id] == nil, let record = records[id], let server = expected[id] else { return false }
            return record["title"] != server["title"] || record["updated_at"] != server["updated_at"]
        }
        #expect(stale.isEmpty, "\(context): tasks that differ from the server's history: \(stale.sorted())")
        for (id, title) in queuedTitles {
            #expect(records[id]?["title"]?.stringValue == title, "\(context): the queued rename of \(id) was lost")
        }
    }
}
