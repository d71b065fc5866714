import Foundation
import Testing

@testable import Keel

/// Where the cheaper load of a query (issue 29's `query_open`) could part from a plain run:
/// entries ordered by a comparator of any kind, loads into queries that hold models
/// already, sections and windows, handler tables shared between models the store follows,
/// and `add` events skipped when no handler would run.
@MainActor
struct LiveQueryFastLoadTests {
    private static let ranks: [JSONValue] = [3, 1.5, "b", 2, .null, 1, "a", 2.0, 7, 0]

    private func server() -> InMemorySync {
        let records: [Attributes] = Self.ranks.enumerated().map { index, rank in
            var record: Attributes = [
                "id": .int(index + 1), "title": .string("t\(index + 1)"), "done": .bool(index % 3 == 0),
            ]
            if !rank.isNull { record["rank"] = rank }
            return record
        }
        return InMemorySync(records: ["/todos": records])
    }

    private func titles(_ models: [StoreTodo]) -> [String] {
        models.map { $0[StoreTodo.title] ?? "" }
    }

    /// The store's models in a plain stable sort by `rank` (what a query run from scratch
    /// gives), optionally only those that `include`.
    private func plainRun(_ store: Store, include: (StoreTodo) -> Bool = { _ in true }) -> [String] {
        let models = store.models(StoreTodo.self).filter(include)
        let sorted = models.enumerated().sorted { lhs, rhs in
            let (left, right) = (lhs.element["rank"], rhs.element["rank"])
            if ModelComparator<StoreTodo>.valueSortsBefore(left, right) { return true }
            if ModelComparator<StoreTodo>.valueSortsBefore(right, left) { return false }
            return lhs.offset < rhs.offset
        }
        return titles(sorted.map(\.element))
    }

    @Test func aLoadOrdersMixedKeysAsAPlainRunDoes() async throws {
        let store = Store(sync: server())
        let byValue = store.query(StoreTodo.self, sort: .attribute("rank"))
        let byClosure = store.query(
            StoreTodo.self,
            sort: .ordered { ModelComparator<StoreTodo>.valueSortsBefore($0["rank"], $1["rank"]) }
        )
        try await byValue.load()
        #expect(titles(byValue.models) == plainRun(store))
        #expect(titles(byClosure.models) == plainRun(store))
        #expect(titles(byValue.models).first == "t10")
    }

    @Test func aLoadIntoAQueryThatHoldsModelsMergesAsAPlainRunDoes() async throws {
        let store = Store(sync: server())
        let held = store.identityMap.model(
            StoreTodo.self,
            collection: "/todos",
            attributes: ["id": 4, "title": "t4", "rank": 9, "done": false]
        )
        _ = store.identityMap.model(
            StoreTodo.self,
            collection: "/todos",
            attributes: ["id": 40, "title": "t40", "rank": 1, "done": false]
        )
        let open = store.query(StoreTodo.self, filter: .equals(StoreTodo.done, false), sort: .attribute("rank"))
        let page = store.query(StoreTodo.self, sort: .attribute("rank"), offset: 2, limit: 4)
        let sectioned = store.query(StoreTodo.self, sort: .attribute("rank"), sectionedBy: "done")
        let mirrors = (QueryMirror(open), QueryMirror(page), QueryMirror(sectioned))
        #expect(titles(open.models) == ["t40", "t4"])
        try await open.load()
        // The record the store held is one instance, merged with the server's rank.
        #expect(store.peek(StoreTodo.self, id: 4) === held)
        #expect(held[StoreTodo.rank] == 2)
        let notDone = plainRun(store) { $0[StoreTodo.done] == false }
        #expect(titles(open.models) == notDone)
        #expect(titles(page.models) == Array(plainRun(store)[2..<6]))
        let done = plainRun(store) { $0[StoreTodo.done] == true }
        #expect(sectioned.sections.map { titles($0.models) } == [notDone, done])
        #expect(titles(mirrors.0.models) == titles(open.models))
        #expect(titles(mirrors.1.models) == titles(page.models))
        #expect(titles(mirrors.2.models) == titles(sectioned.models))
    }

    @Test func modelsLoadedTogetherKeepTheirOwnHandlers() async throws {
        let store = Store(sync: server())
        let open = store.query(StoreTodo.self, sort: .attribute("rank"))
        try await open.load()
        let (first, second) = try (
            #require(store.peek(StoreTodo.self, id: 1)), #require(store.peek(StoreTodo.self, id: 4))
        )
        var heard: [String] = []
        first.on("change") { _ in
            // The store's handler, registered before this one, has moved the model already.
            heard.append("first at \(open.models.firstIndex { $0 === first } ?? -1)")
        }
        second[StoreTodo.rank] = -1
        #expect(heard.isEmpty)
        #expect(open.models.first === second)
        first[StoreTodo.rank] = -2
        #expect(heard == ["first at 0"])
        // Both are still followed: destroying one takes it out of the query.
        second.trigger(Event(name: "destroy", model: second))
        #expect(!open.models.contains { $0 === second })
        #expect(open.count == Self.ranks.count - 1)
    }

    @Test func aHeldModelOrACollectionWithAnAddHandlerHearsItsAdd() async throws {
        let store = Store(sync: server())
        try await store.query(StoreTodo.self).load()
        let model = try #require(store.peek(StoreTodo.self, id: 2))
        var heard: [String] = []
        model.on("add") { event in heard.append("model \(event.model?.id?.intValue ?? -1)") }
        let list = store.collection(StoreTodo.self)
        list.add(model)
        #expect(heard == ["model 2"])

        let other = try #require(store.peek(StoreTodo.self, id: 3))
        let listened = store.collection(StoreTodo.self)
        listened.on("add") { event in heard.append("collection \(event.model?.id?.intValue ?? -1)") }
        listened.add(other)
        #expect(heard == ["model 2", "collection 3"])
    }
}
