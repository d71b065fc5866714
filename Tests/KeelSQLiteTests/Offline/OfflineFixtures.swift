import Keel
import KeelSQLite
import Synchronization

/// A remote for the caching tests: an `InMemorySync` that can be switched off (it then
/// fails like a network without a connection), records what it receives, and replays a
/// stored answer for a repeated `Idempotency-Key`, as a server that honours the header.
final class SwitchableRemote: Sync {
    private let server = InMemorySync()
    private let state = Mutex(State())

    private struct State {
        var isOnline = true
        var received: [SyncRequest] = []
        var answers: [String: SyncResponse] = [:]
    }

    var isOnline: Bool {
        get { state.withLock { $0.isOnline } }
        set { state.withLock { $0.isOnline = newValue } }
    }

    /// Every request that reached the server, in order.
    var received: [SyncRequest] { state.withLock { $0.received } }

    /// The creates that reached the server's storage (idempotent replays not counted).
    var creates: [SyncRequest] { received.filter { $0.method == .create } }

    func perform(_ request: SyncRequest) async throws(SyncError) -> SyncResponse {
        let answered: SyncResponse? = try state.withLock { (state) throws(SyncError) -> SyncResponse? in
            guard state.isOnline else { throw .transport("Could not connect to the server.") }
            if request.method == .create, let key = request.headers["Idempotency-Key"], let answer = state.answers[key]
            {
                return answer
            }
            state.received.append(request)
            return nil
        }
        if let answered { return answered }
        let response = try await server.perform(request)
        if request.method == .create, let key = request.headers["Idempotency-Key"] {
            state.withLock { $0.answers[key] = response }
        }
        return response
    }

    /// Changes a record on the server directly, as another client would.
    func serverWrite(_ method: SyncMethod, _ path: String, body: JSONValue? = nil) async throws -> SyncResponse {
        try await server.perform(SyncRequest(method: method, url: url(path), body: body))
    }
}

/// A comment that belongs to a note through `note_id`.
final class Comment: Model {
    static let note = BelongsTo<Note>("note", foreignKey: "note_id")
    override class var urlRoot: String? { "/comments" }
    override class var relations: [any Relation] { [note] }
}

/// A caching backend over a switchable remote and an in-memory local store.
func makeCache(
    remote: SwitchableRemote = SwitchableRemote(),
    local: (any OfflineStore)? = nil,
    configure: (inout CachingSync.Configuration) -> Void = { _ in }
) throws -> (CachingSync, SwitchableRemote) {
    var configuration = CachingSync.Configuration()
    configuration.register(Comment.self)
    configure(&configuration)
    let store = try local ?? SQLiteOfflineStore.inMemory()
    return (CachingSync(remote: remote, local: store, configuration: configuration), remote)
}
