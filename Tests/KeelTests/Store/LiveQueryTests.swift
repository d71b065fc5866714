import Keel
import Observation
import Synchronization
import Testing

/// A live query keeps its results, events, Observation and snapshots in step with the
/// models the store holds.
struct LiveQueryTests {
    /// A store holding todos with ranks 1…n, titled "t1"…, none done.
    private func store(ranks: [Int]) -> Store {
        let store = Store.inMemory()
        for (index, rank) in ranks.enumerated() {
            _ = store.identityMap.model(
                StoreTodo.self,
                collection: "/todos",
                attributes: ["id": .int(index + 1), "title": .string("t\(rank)"), "rank": .int(rank), "done": false]
            )
        }
        return store
    }

    private func titles(_ query: LiveQuery<StoreTodo>) -> [String] {
        query.map { $0[StoreTodo.title] ?? "" }
    }

    @Test func startsWithTheHeldModelsThatPassTheFilterInSortOrderAndWindow() {
        let store = store(ranks: [5, 3, 9, 1, 7])
        let query = store.query(StoreTodo.self, filter: .key(StoreTodo.rank) { ($0 ?? 0) > 1 }, sort: .attribute("rank"), offset: 1, limit: 2)
        #expect(titles(query) == ["t5", "t7"])
        #expect(query.totalCount == 4)
    }

    @Test func aChangeIntoTheFilterEmitsAddWithTheIndex() {
        let store = store(ranks: [1, 2, 3])
        let query = store.query(StoreTodo.self, filter: .equals(StoreTodo.done, true), sort: .attribute("rank"))
        var events: [String] = []
        query.on("add remove sort") { events.append("\($0.name) \($0.model?[StoreTodo.title] ?? "-") \($0.index ?? -1)") }
        store.peek(StoreTodo.self, id: 3)?[StoreTodo.done] = true
        store.peek(StoreTodo.self, id: 1)?[StoreTodo.done] = true
        store.peek(StoreTodo.self, id: 3)?[StoreTodo.done] = false
        #expect(events == ["add t3 0", "add t1 0", "remove t3 1"])
        #expect(titles(query) == ["t1"])
    }

    @Test func aSortKeyChangeInsideTheResultsEmitsSort() {
        let store = store(ranks: [1, 2, 3])
        let query = store.query(StoreTodo.self, sort: .attribute("rank"))
        var events: [String] = []
        query.on("add remove sort") { events.append($0.name) }
        store.peek(StoreTodo.self, id: 1)?[StoreTodo.rank] = 10
        #expect(events == ["sort"])
        #expect(titles(query) == ["t2", "t3", "t1"])
        store.peek(StoreTodo.self, id: 2)?[StoreTodo.title] = "two"
        #expect(events == ["sort"])
    }

    @Test func aChangeBeforeAWindowShiftsItWithOneRemoveAndOneAdd() {
        let store = store(ranks: [1, 2, 3, 4, 5])
        let page = store.query(StoreTodo.self, sort: .attribute("rank"), offset: 1, limit: 2)
        #expect(titles(page) == ["t2", "t3"])
        var events: [String] = []
        page.on("add remove") { events.append("\($0.name) \($0.model?[StoreTodo.title] ?? "-")") }
        store.peek(StoreTodo.self, id: 1)?[StoreTodo.rank] = 10
        #expect(titles(page) == ["t3", "t4"])
        #expect(events == ["remove t2", "add t4"])
    }

    @Test func changingTheFilterRebuildsTheResultsAndEmitsReset() {
        let store = store(ranks: [1, 2, 3])
        let query = store.query(StoreTodo.self, sort: .attribute("rank"))
        var previous: [Model]?
        query.on("reset") { previous = $0.previousModels }
        query.filter = .key(StoreTodo.rank) { ($0 ?? 0) >= 2 }
        #expect(titles(query) == ["t2", "t3"])
        #expect(previous?.count == 3)
        query.filter = !query.filter.unsafelyUnwrapped
        #expect(titles(query) == ["t1"])
    }

    @Test func filtersCombineWithAndOrAndNot() {
        let store = store(ranks: [1, 2, 3, 4])
        let low: QueryFilter<StoreTodo> = .key(StoreTodo.rank) { ($0 ?? 0) <= 2 }
        let four: QueryFilter<StoreTodo> = .attribute("rank", equals: 4)
        let named: QueryFilter<StoreTodo> = .matching(["title": "t1", "done": false])
        #expect(titles(store.query(StoreTodo.self, filter: low || four, sort: .attribute("rank"))) == ["t1", "t2", "t4"])
        #expect(titles(store.query(StoreTodo.self, filter: low && !named, sort: .attribute("rank"))) == ["t2"])
    }

    @Test func observationReportsAChangeOfTheResultsOnlyToTheQueryWhoseResultsChanged() {
        let store = store(ranks: [1, 2, 3])
        let done = store.query(StoreTodo.self, filter: .equals(StoreTodo.done, true))
        let all = store.query(StoreTodo.self)
        let doneChanges = Mutex(0)
        let allChanges = Mutex(0)
        withObservationTracking { _ = done.models } onChange: { doneChanges.withLock { $0 += 1 } }
        withObservationTracking { _ = all.models } onChange: { allChanges.withLock { $0 += 1 } }
        store.peek(StoreTodo.self, id: 2)?[StoreTodo.done] = true
        #expect(doneChanges.withLock { $0 } == 1)
        #expect(allChanges.withLock { $0 } == 0)
    }

    @Test func snapshotsStartWithTheResultsAndCoalesceABurstOfChanges() async {
        let store = store(ranks: [1, 2, 3])
        let query = store.query(StoreTodo.self, filter: .equals(StoreTodo.done, false), sort: .attribute("rank"))
        var snapshots = query.snapshots.makeAsyncIterator()
        #expect(await snapshots.next()?.count == 3)
        for id in 1...3 { store.peek(StoreTodo.self, id: .int(id))?[StoreTodo.done] = true }
        #expect(await snapshots.next()?.count == 0)
        store.peek(StoreTodo.self, id: 2)?[StoreTodo.done] = false
        #expect(await snapshots.next()?.map { $0[StoreTodo.title] } == ["t2"])
    }

    @Test func snapshotsEndWhenTheTaskIsCancelled() async {
        let store = store(ranks: [1])
        let query = store.query(StoreTodo.self)
        let task = Task {
            var count = 0
            for await _ in query.snapshots { count += 1 }
            return count
        }
        task.cancel()
        #expect(await task.value <= 1)
    }

    @Test func aReleasedQueryStopsFollowingTheStore() {
        let store = store(ranks: [1])
        weak var released: LiveQuery<StoreTodo>?
        do {
            let query = store.query(StoreTodo.self)
            released = query
        }
        #expect(released == nil)
        store.peek(StoreTodo.self, id: 1)?[StoreTodo.rank] = 5
    }
}
