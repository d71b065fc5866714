import Foundation
@testable import Keel
import Synchronization
import Testing

/// Loading a live query follows its cache policy, shares identical requests, keeps its
/// status, and loads again when its records are invalidated.
@MainActor
struct StoreLoadingTests {
    private func seededServer() -> InMemorySync {
        InMemorySync(records: ["/todos": [["id": 1, "title": "Milk", "done": false], ["id": 2, "title": "Eggs", "done": true]]])
    }

    private func reads(_ server: InMemorySync) -> Int {
        server.requests.filter { $0.method == .read }.count
    }

    @Test func cacheFirstSendsOneRequestUntilTheRecordsAreInvalidated() async throws {
        let server = seededServer()
        let store = Store(sync: server)
        let open = store.query(StoreTodo.self, filter: .equals(StoreTodo.done, false))
        #expect(open.isStale)
        try await open.load()
        try await open.load()
        #expect(reads(server) == 1)
        #expect(open.map { $0[StoreTodo.title] } == ["Milk"])
        #expect(!open.isStale && open.lastUpdated != nil)
        store.invalidate(StoreTodo.self)
        #expect(open.isStale)
        try await open.load()
        #expect(reads(server) == 2)
    }

    @Test func cacheOnlySendsNothingAndCacheAndNetworkAlwaysSends() async throws {
        let server = seededServer()
        let store = Store(sync: server)
        let cached = store.query(StoreTodo.self, policy: .cacheOnly)
        try await cached.load()
        #expect(reads(server) == 0)
        let fresh = store.query(StoreTodo.self, policy: .cacheAndNetwork)
        try await fresh.load()
        try await fresh.load()
        #expect(reads(server) == 2)
        #expect(cached.count == 2)
    }

    @Test func networkOnlyAsksACachingBackendForTheServersAnswer() async throws {
        let server = seededServer()
        let store = Store(sync: server)
        try await store.query(StoreTodo.self).load(policy: .networkOnly)
        #expect(server.requests.last?.context["keel.readPolicy"] == "remoteOnly")
    }

    @Test func theRemoteQueryGoesWithTheRequestAndTheStoreDefaultsApply() async throws {
        let server = seededServer()
        let store = Store(sync: server)
        store.defaultPolicy = .cacheAndNetwork
        let mine = store.query(StoreTodo.self, remoteQuery: ["done": "false"])
        #expect(mine.policy == .cacheAndNetwork)
        try await mine.load()
        #expect(server.requests.last?.query.map(\.name) == ["done"])
        store.register(StoreTodo.self, policy: .cacheOnly, staleTime: .seconds(5))
        let later = store.query(StoreTodo.self)
        #expect(later.policy == .cacheOnly && later.staleTime == .seconds(5))
    }

    @Test func identicalLoadsInFlightShareOneRequest() async throws {
        let server = HeldRequestSync(seededServer())
        let store = Store(sync: server)
        let first = store.query(StoreTodo.self, policy: .cacheAndNetwork)
        let second = store.query(StoreTodo.self, filter: .equals(StoreTodo.done, true), policy: .cacheAndNetwork)
        let one = Task { try await first.load() }
        while server.waiting == 0 { await Task.yield() }
        let two = Task { try await second.load() }
        while first.fetchState.waitingCount == 0 { await Task.yield() }
        #expect(first.isFetching && second.isFetching)
        server.open()
        try await one.value
        try await two.value
        #expect(server.performed == 1)
        #expect(second.map { $0[StoreTodo.title] } == ["Eggs"])
        #expect(!first.isFetching)
    }

    @Test func aFailedLoadKeepsTheLastResultsBesideTheError() async throws {
        let server = seededServer()
        let store = Store(sync: server)
        let all = store.query(StoreTodo.self, policy: .cacheAndNetwork)
        try await all.load()
        let loadedAt = all.lastUpdated
        server.failNext(with: .transport("offline"))
        await #expect(throws: SyncError.transport("offline")) { try await all.load() }
        #expect(all.count == 2)
        #expect(all.error == .transport("offline"))
        #expect(all.lastUpdated == loadedAt)
        try await all.load()
        #expect(all.error == nil)
    }

    @Test func theLastSuccessfulAnswerIsKeptWithItsHeaders() async throws {
        let server = NumberedAnswerSync(seededServer())
        let store = Store(sync: server)
        let all = store.query(StoreTodo.self, policy: .cacheAndNetwork)
        #expect(all.lastResponse == nil)
        try await all.load()
        #expect(all.lastResponse?.headers["x-answer"] == "1")
        server.backend.failNext(with: .transport("offline"))
        await #expect(throws: SyncError.transport("offline")) { try await all.load() }
        #expect(all.lastResponse?.headers["x-answer"] == "1")
        try await all.load()
        #expect(all.lastResponse?.headers["x-answer"] == "3")
        #expect(all.lastResponse?.status == 200)
    }

    // Waits on snapshots: a broken invalidation fails at the time limit instead of hanging.
    @Test(.timeLimit(.minutes(5))) func aCreateThroughTheStoreRevalidatesAQueryThatIsKeptLoaded() async throws {
        let server = seededServer()
        let store = Store(sync: server)
        let all = store.query(StoreTodo.self)
        var snapshots = all.snapshots.makeAsyncIterator()
        let keeper = Task { await all.keepLoaded() }
        while let snapshot = await snapshots.next(), snapshot.count != 2 {}
        // Another client adds a record; then this app creates one, which invalidates.
        _ = try await server.perform(SyncRequest(method: .create, url: URL(filePath: "/todos"), body: ["title": "Bread"]))
        try await store.create(StoreTodo.self, ["title": "Jam"])
        while let snapshot = await snapshots.next(), snapshot.count != 4 {}
        #expect(Set(all.map { $0[StoreTodo.title] ?? "" }) == ["Milk", "Eggs", "Bread", "Jam"])
        keeper.cancel()
        await keeper.value
    }

    @Test func aCreateThatWaitsForTheServerInvalidatesLikeOtherWrites() async throws {
        let server = seededServer()
        let store = Store(sync: server)
        let all = store.query(StoreTodo.self)
        try await all.load()
        #expect(!all.isStale)
        try await store.create(StoreTodo.self, ["title": "Tea"], wait: true)
        #expect(all.isStale)
        #expect(all.count == 3)
    }

    @Test func invalidatingByTagOrPathPrefixMarksOnlyThoseRecordsStale() async throws {
        let server = seededServer()
        let store = Store(sync: server)
        let inbox = store.query(StoreTodo.self, tags: ["inbox"])
        let tags = store.query(StoreTag.self)
        try await inbox.load()
        try await tags.load()
        store.invalidate(tag: "inbox")
        #expect(inbox.isStale && !tags.isStale)
        try await inbox.load()
        store.invalidate(pathPrefix: "/ta")
        #expect(!inbox.isStale && tags.isStale)
    }
}

/// A backend whose requests (or only those of some methods) wait until the test opens the
/// gate, so that two callers are certainly in flight together, or a test can look at a query
/// while its request certainly is.
final class HeldRequestSync: Sync {
    private struct State {
        var isOpen = false
        var waiters: [CheckedContinuation<Void, Never>] = []
        var performed = 0
    }

    private let backend: any Sync
    private let held: Set<SyncMethod>
    private let state = Mutex(State())

    init(_ backend: any Sync, holding held: Set<SyncMethod> = Set(SyncMethod.allCases)) {
        self.backend = backend
        self.held = held
    }

    var waiting: Int { state.withLock { $0.waiters.count } }
    var performed: Int { state.withLock { $0.performed } }

    func open() {
        let waiters = state.withLock { state in
            state.isOpen = true
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    func perform(_ request: SyncRequest) async throws(SyncError) -> SyncResponse {
        guard held.contains(request.method) else { return try await backend.perform(request) }
        await withCheckedContinuation { continuation in
            let isOpen = state.withLock { state in
                state.performed += 1
                if !state.isOpen { state.waiters.append(continuation) }
                return state.isOpen
            }
            if isOpen { continuation.resume() }
        }
        return try await backend.perform(request)
    }
}

/// A backend that numbers its answers in an `x-answer` header.
final class NumberedAnswerSync: Sync {
    let backend: InMemorySync
    private let count = Mutex(0)

    init(_ backend: InMemorySync) {
        self.backend = backend
    }

    func perform(_ request: SyncRequest) async throws(SyncError) -> SyncResponse {
        let number = count.withLock { count in
            count += 1
            return count
        }
        var response = try await backend.perform(request)
        response.headers["x-answer"] = String(number)
        return response
    }
}
