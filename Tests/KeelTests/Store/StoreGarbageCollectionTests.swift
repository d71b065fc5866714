@testable import Keel
import Testing

/// The records of a query nobody uses are released after its `gcTime`; a query that is
/// alive keeps them. The store's clock is moved forward instead of waiting.
@MainActor
struct StoreGarbageCollectionTests {
    private func seededStore() -> Store {
        Store(sync: InMemorySync(records: ["/todos": [["id": 1, "title": "Milk"], ["id": 2, "title": "Eggs"]]]))
    }

    /// Loads every todo through a query that is released when this returns.
    private func loadThroughAReleasedQuery(_ store: Store, gcTime: Duration? = nil) async throws {
        let all = store.query(StoreTodo.self, gcTime: gcTime)
        try await all.load()
        #expect(all.count == 2)
    }

    @Test func anUnobservedQuerysRecordsAreReleasedAfterTheDefaultGCTime() async throws {
        let store = seededStore()
        try await loadThroughAReleasedQuery(store)
        store.clock.advance(by: .seconds(299))
        store.collectGarbage()
        #expect(store.models(StoreTodo.self).count == 2)
        store.clock.advance(by: .seconds(1))
        store.collectGarbage()
        #expect(store.models(StoreTodo.self).isEmpty)
        #expect(store.query(StoreTodo.self).isStale)
    }

    @Test func anObservedQueryKeepsItsRecords() async throws {
        let store = seededStore()
        let all = store.query(StoreTodo.self, gcTime: .seconds(1))
        try await all.load()
        store.clock.advance(by: .seconds(3600))
        store.collectGarbage()
        #expect(all.count == 2 && store.models(StoreTodo.self).count == 2)
        #expect(!all.isStale)
    }

    @Test func theGCTimeComesFromTheQueryTheClassOrTheStore() async throws {
        let store = seededStore()
        #expect(store.query(StoreTodo.self).gcTime == .seconds(300))
        store.defaultGCTime = .seconds(60)
        #expect(store.query(StoreTodo.self).gcTime == .seconds(60))
        store.register(StoreTodo.self, gcTime: .seconds(10))
        #expect(store.query(StoreTodo.self).gcTime == .seconds(10))
        #expect(store.query(StoreTodo.self, gcTime: .seconds(5)).gcTime == .seconds(5))
    }

    @Test func recordsAreKeptForTheLongestGCTimeOfTheQueriesThatLoadedThem() async throws {
        let store = seededStore()
        try await loadThroughAReleasedQuery(store, gcTime: .seconds(5))
        store.clock.advance(by: .seconds(5))
        store.collectGarbage()
        #expect(store.models(StoreTodo.self).isEmpty)
        try await loadThroughAReleasedQuery(store, gcTime: .seconds(5))
        _ = store.query(StoreTodo.self, gcTime: .seconds(60))
        store.clock.advance(by: .seconds(59))
        store.collectGarbage()
        #expect(store.models(StoreTodo.self).count == 2)
    }

    @Test func recordsAnotherQueryShowsOrWithUnsavedChangesStay() async throws {
        let store = seededStore()
        try await loadThroughAReleasedQuery(store)
        let milkOnly = store.query(StoreTodo.self, filter: .attribute("title", equals: "Milk"))
        let eggs = try #require(store.peek(StoreTodo.self, id: 2))
        eggs[StoreTodo.title] = "Brown eggs"
        store.clock.advance(by: .seconds(300))
        store.collectGarbage()
        #expect(Set(store.models(StoreTodo.self).map { $0[StoreTodo.title] }) == ["Milk", "Brown eggs"])
        #expect(milkOnly.count == 1)
    }

    @Test func aReleasedModelTheAppKeptIsHeldAgainByTheNextLoad() async throws {
        let store = seededStore()
        try await loadThroughAReleasedQuery(store)
        let milk = try #require(store.peek(StoreTodo.self, id: 1))
        store.clock.advance(by: .seconds(300))
        store.collectGarbage()
        #expect(store.models(StoreTodo.self).isEmpty)
        let all = store.query(StoreTodo.self)
        try await all.load()
        #expect(all.contains { $0 === milk })
        let oat = store.query(StoreTodo.self, filter: .attribute("title", equals: "Oat milk"))
        milk[StoreTodo.title] = "Oat milk"
        #expect(oat.count == 1)
    }
}
