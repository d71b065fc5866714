import Foundation
import Observation
import Testing

@testable import Keel

/// What the models a query loads keep once the load is over, where the cheaper load
/// (issue 29's `query_open`) could part from a plain one: the URL and backend of the
/// collection the load fetched through, which is released after it (its forwarder keeps
/// them for every model at once), and no Observation state from the query's own reads of
/// them (its filter's), while a view's reads still observe them.
@MainActor
struct LiveQueryLoadedModelTests {
    private func server() -> InMemorySync {
        InMemorySync(records: [
            "/todos": (1...6).map { ["id": .int($0), "title": .string("t\($0)"), "rank": .int(7 - $0)] }
        ])
    }

    private func rankBelowFour(_ store: Store) -> LiveQuery<StoreTodo> {
        store.query(
            StoreTodo.self,
            filter: QueryFilter { ($0[StoreTodo.rank] ?? .max) < 4 },
            sort: .attribute("rank")
        )
    }

    @Test func aLoadedModelSavesThroughTheStoreOnceTheLoadsCollectionIsReleased() async throws {
        let backend = server()
        let store = Store(sync: backend)
        let query = rankBelowFour(store)
        try await query.load()
        let model = try #require(query.models.first)
        #expect(model.collection == nil)
        #expect(try model.url() == "/todos/6")
        #expect(model.namesBackend)
        try await model.save(["title": "changed"])
        #expect(backend.requests.last?.method == .update)
        #expect(backend.requests.last?.path == "/todos/6")
    }

    @Test func aQuerysFilterGivesTheModelsItReadsNoRegistrar() async throws {
        let store = Store(sync: server())
        let query = rankBelowFour(store)
        try await query.load()
        // Checked before anything else reads them: reading an id is an observed read.
        #expect(store.models(StoreTodo.self).allSatisfy { !$0.hasRegistrar })
        #expect(query.models.map(\.id) == [6, 5, 4])
    }

    @Test func aViewsReadOfALoadedModelObservesItAndTheQueryFollowsTheChange() async throws {
        let store = Store(sync: server())
        let query = rankBelowFour(store)
        try await query.load()
        let model = try #require(query.models.first)
        let changes = Lock(0)
        withObservationTracking {
            _ = model[StoreTodo.rank]
        } onChange: {
            changes.withLock { $0 += 1 }
        }
        model[StoreTodo.rank] = 3
        #expect(changes.withLock { $0 } == 1)
        // Tied with 4 on rank 3, after it: the store came to hold 4 first.
        #expect(query.models.map(\.id) == [5, 4, 6])
        model[StoreTodo.rank] = 9
        #expect(query.models.map(\.id) == [5, 4])
    }

    @Test func aQuerysFilterReadsAreNoDependencyOfTheObservationAroundThem() async throws {
        let store = Store(sync: server())
        let query = rankBelowFour(store)
        let changes = Lock(0)
        var model: StoreTodo?
        withObservationTracking {
            model = store.identityMap.model(StoreTodo.self, collection: "/todos", attributes: ["id": 9, "rank": 1])
        } onChange: {
            changes.withLock { $0 += 1 }
        }
        let added = try #require(model)
        #expect(!added.hasRegistrar)
        #expect(query.models.map(\.id) == [9])
        added[StoreTodo.rank] = 2
        #expect(changes.withLock { $0 } == 0)
        #expect(query.models.map(\.id) == [9])
    }

    @Test func aModelAlreadyObservedIsStillObservedThroughTheQuerysReads() async throws {
        let store = Store(sync: server())
        let model = store.identityMap.model(StoreTodo.self, collection: "/todos", attributes: ["id": 9, "rank": 1])
        let changes = Lock(0)
        withObservationTracking {
            _ = model[StoreTodo.rank]
        } onChange: {
            changes.withLock { $0 += 1 }
        }
        let query = rankBelowFour(store)
        #expect(query.models.map(\.id) == [9])
        #expect(model.hasRegistrar)
        model[StoreTodo.rank] = 2
        #expect(changes.withLock { $0 } == 1)
    }
}
