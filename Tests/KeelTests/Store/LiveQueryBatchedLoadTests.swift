@testable import Keel
import Observation
import Synchronization
import Testing

/// The records one fetch brings enter a live query in one batch: one Observation change and
/// one snapshot, `add` (and, in a window, `remove`) events at the final indexes that replay
/// to the results, and models changed or destroyed during the fetch where a plain run puts
/// them.
@MainActor
struct LiveQueryBatchedLoadTests {
    private func server(ranks: [Int]) -> InMemorySync {
        let records: [Attributes] = ranks.enumerated().map { index, rank in
            ["id": .int(index + 1), "title": .string("t\(rank)"), "rank": .int(rank), "done": false]
        }
        return InMemorySync(records: ["/todos": records])
    }

    private func titles(_ models: [StoreTodo]) -> [String] {
        models.map { $0[StoreTodo.title] ?? "" }
    }

    @Test func aLoadPlacesItsRecordsAtOnceWithAddEventsAtTheirFinalIndexes() async throws {
        let store = Store(sync: server(ranks: [3, 1, 4, 2]))
        let query = store.query(StoreTodo.self, sort: .attribute("rank"))
        let mirror = QueryMirror(query)
        var events: [String] = []
        query.on("add remove sort reset") {
            events.append("\($0.name) \($0.model?[StoreTodo.title] ?? "-") \($0.index ?? -1)")
        }
        let changes = Mutex(0)
        withObservationTracking { _ = query.models } onChange: { changes.withLock { $0 += 1 } }
        let version = query.signal.version
        try await query.load()
        #expect(titles(query.models) == ["t1", "t2", "t3", "t4"])
        #expect(events == ["add t1 0", "add t2 1", "add t3 2", "add t4 3"])
        #expect(titles(mirror.models) == titles(query.models))
        #expect(query.signal.version == version + 1)
        #expect(changes.withLock { $0 } == 1)
    }

    @Test func aLoadIntoAWindowRemovesWhatItPushesOutAndAddsWhatItBringsIn() async throws {
        let store = Store(sync: server(ranks: [2, 6, 4, 1, 5]))
        for (id, rank) in [(10, 3), (11, 7), (12, 0)] {
            _ = store.identityMap.model(
                StoreTodo.self,
                collection: "/todos",
                attributes: ["id": .int(id), "title": .string("t\(rank)"), "rank": .int(rank), "done": false]
            )
        }
        let page = store.query(StoreTodo.self, sort: .attribute("rank"), offset: 1, limit: 3)
        #expect(titles(page.models) == ["t3", "t7"])
        let mirror = QueryMirror(page)
        var events: [String] = []
        page.on("add remove") { events.append("\($0.name) \($0.model?[StoreTodo.title] ?? "-") \($0.index ?? -1)") }
        try await page.load()
        #expect(titles(page.models) == ["t1", "t2", "t3"])
        #expect(events == ["remove t7 1", "add t1 0", "add t2 1"])
        #expect(titles(mirror.models) == titles(page.models))
        #expect(page.totalCount == 8)
    }

    @Test func aModelChangedOrDestroyedDuringTheLoadIsWhereAPlainRunPutsIt() async throws {
        // The server sends the new record 1 first, then 2, which the store holds already.
        let store = Store(sync: server(ranks: [1, 9]))
        let present = store.identityMap.model(
            StoreTodo.self,
            collection: "/todos",
            attributes: ["id": 2, "title": "t5", "rank": 5, "done": false]
        )
        let query = store.query(StoreTodo.self, filter: .equals(StoreTodo.done, false), sort: .attribute("rank"))
        let mirror = QueryMirror(query)
        // Merging record 2 changes the new record 1 while the fetch runs.
        present.on("change:rank") { _ in
            guard let arrived = store.peek(StoreTodo.self, id: 1) else { return }
            arrived[StoreTodo.rank] = 20
        }
        try await query.load()
        #expect(titles(query.models) == ["t9", "t1"])
        #expect(titles(mirror.models) == titles(query.models))

        let later = Store(sync: server(ranks: [1, 9]))
        let held = later.identityMap.model(
            StoreTodo.self,
            collection: "/todos",
            attributes: ["id": 2, "title": "t5", "rank": 5, "done": false]
        )
        let other = later.query(StoreTodo.self, sort: .attribute("rank"))
        held.on("change:rank") { _ in
            guard let arrived = later.peek(StoreTodo.self, id: 1) else { return }
            arrived.trigger(Event(name: "destroy", model: arrived))
        }
        try await other.load()
        #expect(titles(other.models) == ["t9"])
    }
}
