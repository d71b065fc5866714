import Keel
import Observation
import Synchronization
import Testing

/// A sectioned live query groups its results by an attribute, sections in the order of its
/// values and the query's sort inside each, and keeps them right as models change section,
/// enter or leave the filter, or go.
struct LiveQuerySectionsTests {
    /// A store holding todos titled "t1"…, with the given groups and ranks.
    private func store(_ todos: [(group: Int?, rank: Int)]) -> Store {
        let store = Store.inMemory()
        for (index, todo) in todos.enumerated() {
            var attributes: Attributes = ["id": .int(index + 1), "title": .string("t\(index + 1)"), "rank": .int(todo.rank)]
            if let group = todo.group { attributes["group"] = .int(group) }
            _ = store.identityMap.model(StoreTodo.self, collection: "/todos", attributes: attributes)
        }
        return store
    }

    /// Each section as "key: titles".
    private func layout(_ query: LiveQuery<StoreTodo>) -> [String] {
        query.sections.map { section in
            "\(section.key.map { "\($0)" } ?? "nil"): " + section.models.map { $0[StoreTodo.title] ?? "" }.joined(separator: " ")
        }
    }

    @Test func sectionsFollowTheKeyThenTheSortAndModelsWithoutTheKeyComeLast() {
        let store = store([(2, 5), (nil, 1), (1, 9), (2, 3), (1, 4)])
        let query = store.query(StoreTodo.self, sort: .attribute("rank"), sectionedBy: "group")
        #expect(layout(query) == ["1: t5 t3", "2: t4 t1", "nil: t2"])
        #expect(query.models.map { $0[StoreTodo.title] } == ["t5", "t3", "t4", "t1", "t2"])
        #expect(query.sectionAttribute == "group")
        #expect(query.sections.map(\.id) == [1, 2, nil])
    }

    @Test func aQueryWithoutASectionAttributeHasOneSectionOrNone() {
        let store = store([(2, 5), (1, 1)])
        let query = store.query(StoreTodo.self, sort: .attribute("rank"))
        #expect(layout(query) == ["nil: t2 t1"])
        query.filter = .equals(StoreTodo.done, true)
        #expect(query.sections.isEmpty)
    }

    @Test func aModelMovesToItsNewSectionAndEmptySectionsGo() {
        let store = store([(1, 1), (1, 2), (2, 3)])
        let query = store.query(StoreTodo.self, sort: .attribute("rank"), sectionedBy: "group")
        let mirror = QueryMirror(query)
        store.peek(StoreTodo.self, id: 1)?[StoreTodo.group] = 3
        #expect(layout(query) == ["1: t2", "2: t3", "3: t1"])
        store.peek(StoreTodo.self, id: 2)?[StoreTodo.group] = 2
        #expect(layout(query) == ["2: t2 t3", "3: t1"])
        store.peek(StoreTodo.self, id: 3)?.unset("group")
        #expect(layout(query) == ["2: t2", "3: t1", "nil: t3"])
        #expect(mirror.models.map(\.cid) == query.models.map(\.cid))
    }

    @Test func modelsEnteringAndLeavingTheFilterOrGoingChangeTheirSection() {
        let store = store([(1, 1), (2, 2), (2, 3)])
        let query = store.query(
            StoreTodo.self,
            filter: .key(StoreTodo.rank) { ($0 ?? 0) < 10 },
            sort: .attribute("rank"),
            sectionedBy: "group"
        )
        store.peek(StoreTodo.self, id: 1)?[StoreTodo.rank] = 10
        #expect(layout(query) == ["2: t2 t3"])
        store.peek(StoreTodo.self, id: 1)?[StoreTodo.rank] = 4
        #expect(layout(query) == ["1: t1", "2: t2 t3"])
        _ = store.identityMap.model(StoreTodo.self, collection: "/todos", attributes: ["id": 4, "title": "t4", "rank": 0, "group": 2])
        #expect(layout(query) == ["1: t1", "2: t4 t2 t3"])
        let second = store.peek(StoreTodo.self, id: 2)
        second?.trigger(Event(name: "destroy", model: second))
        #expect(layout(query) == ["1: t1", "2: t4 t3"])
    }

    @Test func aWindowCutsTheSectionedResults() {
        let store = store([(1, 1), (1, 2), (2, 3), (2, 4)])
        let query = store.query(StoreTodo.self, sort: .attribute("rank"), sectionedBy: "group", offset: 1, limit: 2)
        #expect(layout(query) == ["1: t2", "2: t3"])
        store.peek(StoreTodo.self, id: 4)?[StoreTodo.group] = 0
        #expect(layout(query) == ["1: t1 t2"])
    }

    @Test func observersHearOfAModelThatChangesSectionWithoutMoving() {
        let store = store([(1, 1), (3, 2)])
        let query = store.query(StoreTodo.self, sort: .attribute("rank"), sectionedBy: "group")
        var events: [String] = []
        query.on("add remove sort reset") { events.append($0.name) }
        let changes = Mutex(0)
        withObservationTracking { _ = query.sections } onChange: { changes.withLock { $0 += 1 } }
        // The last of section 1 becomes the only one of section 2: same place, new section.
        store.peek(StoreTodo.self, id: 1)?[StoreTodo.group] = 2
        #expect(changes.withLock { $0 } == 1)
        #expect(events.isEmpty)
        #expect(layout(query) == ["2: t1", "3: t2"])
        // A change that leaves the sections as they were is not reported.
        withObservationTracking { _ = query.sections } onChange: { changes.withLock { $0 += 1 } }
        store.peek(StoreTodo.self, id: 1)?[StoreTodo.title] = "one"
        #expect(changes.withLock { $0 } == 1)
    }

    @Test(.timeLimit(.minutes(5))) func snapshotsWakeWhenTheSectionsChange() async {
        let store = store([(1, 1)])
        let query = store.query(StoreTodo.self, sectionedBy: "group")
        var snapshots = query.snapshots.makeAsyncIterator()
        _ = await snapshots.next()
        store.peek(StoreTodo.self, id: 1)?[StoreTodo.group] = 2
        _ = await snapshots.next()
        #expect(query.sections.map(\.key) == [2])
    }
}
