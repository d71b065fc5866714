//: # Working offline
//: `CachingSync` joins a remote backend and a local store: reads fall back on the local
//: copy, writes queue up durably while the network is gone, and a replay sends them in
//: order, each with its `Idempotency-Key`. Here an `InMemorySync` behind a switch stands in
//: for the server.
import Foundation
import Keel
import KeelSQLite
import Synchronization

final class Network: Sync {
    let server = InMemorySync()
    let isUp = Mutex(true)

    func perform(_ request: SyncRequest) async throws(SyncError) -> SyncResponse {
        guard isUp.withLock({ $0 }) else { throw .transport("The network connection was lost.") }
        return try await server.perform(request)
    }
}

let folder = FileManager.default.temporaryDirectory.appendingPathComponent("keel-playground-\(UUID().uuidString)")
defer { try? FileManager.default.removeItem(at: folder) }
let network = Network()
let cache = CachingSync(
    remote: network,
    local: try SQLiteOfflineStore(fileURL: folder.appendingPathComponent("cache.sqlite"))
)
let map = IdentityMap()
let notes = Collection<Note>(factory: map.factory(for: Note.self, collection: "/notes"), url: "/notes", sync: cache)
//: Online, a write goes straight to the server.
let groceries = try await notes.create(["title": "Groceries"])
precondition(groceries.id == 1 && groceries.syncState == .synced)
//: Offline, writes are stored locally and queued; a new record gets a temporary id, and
//: reads answer from the local copy.
network.isUp.withLock { $0 = false }
let trip = try await notes.create(["title": "Trip"])
try await groceries.save(["done": true])
precondition(TemporaryID.isTemporary(trip.id) && trip.syncState == .pending)
try await notes.fetch()
precondition(notes.count == 2)
let waiting = try await cache.queuedChanges()
precondition(waiting.map(\.method) == [.create, .update])
//: Back online, a replay sends the queue in order; the report brings live models up to
//: date, with the server's id for the new note.
network.isUp.withLock { $0 = true }
let report = try await cache.replay()
map.apply(report)
precondition(report.sent.count == 2 && trip.id == 2 && trip.syncState == .synced)
let onServer = try await network.server.perform(SyncRequest(method: .read, url: URL(filePath: "/notes")))
precondition(onServer.body?.arrayValue?.count == 2)
//: [Next](@next)
