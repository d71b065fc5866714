import Keel
import Testing

/// A live query sorted by a value keeps each model's sort value and compares those: a model
/// whose value changes moves, with `sort`; a change of another attribute leaves the order and
/// emits no `sort`; and after every change the results equal a plain sort of the models.
@MainActor
struct LiveQuerySortValueTests {
    private func store(ranks: [Int]) -> Store {
        let store = Store.inMemory()
        for (index, rank) in ranks.enumerated() {
            _ = store.identityMap.model(
                StoreTodo.self,
                collection: "/todos",
                attributes: ["id": .int(index + 1), "title": .string("t\(index + 1)"), "rank": .int(rank)]
            )
        }
        return store
    }

    private func titles(_ query: LiveQuery<StoreTodo>) -> [String] {
        query.models.map { $0[StoreTodo.title] ?? "" }
    }

    /// The titles a stable sort of every held todo by `key` gives, as a plain re-run would.
    private func plainSort(_ store: Store, by key: (StoreTodo) -> Int) -> [String] {
        let todos = (1...4).compactMap { store.identityMap.existing(StoreTodo.self, id: .int($0), in: "/todos") }
        return todos.enumerated().sorted { lhs, rhs in
            key(lhs.element) != key(rhs.element) ? key(lhs.element) < key(rhs.element) : lhs.offset < rhs.offset
        }.map { $0.element[StoreTodo.title] ?? "" }
    }

    /// `.attribute("rank")` ascending, or `.value` of the negated rank (descending).
    @Test(arguments: ["attribute", "value"])
    func aChangedSortValueMovesTheModelAndOtherChangesDoNot(form: String) {
        let isDescending = form == "value"
        let sort: ModelComparator<StoreTodo> =
            isDescending ? .value { $0["rank"].map { .int(-($0.intValue ?? 0)) } } : .attribute("rank")
        let key: (StoreTodo) -> Int = { todo in
            let rank = todo["rank"]?.intValue ?? 0
            return isDescending ? -rank : rank
        }
        let store = store(ranks: [3, 1, 4, 2])
        let query = store.query(StoreTodo.self, sort: sort)
        #expect(titles(query) == plainSort(store, by: key))
        var sorts = 0
        query.on("sort") { _ in sorts += 1 }
        let first = store.identityMap.existing(StoreTodo.self, id: 1, in: "/todos")

        first?["title"] = "renamed"
        #expect(sorts == 0)
        #expect(titles(query) == plainSort(store, by: key))

        first?["rank"] = 9
        #expect(sorts == 1)
        #expect(titles(query) == plainSort(store, by: key))

        first?["rank"] = 0
        #expect(sorts == 2)
        #expect(titles(query) == plainSort(store, by: key))

        first?["rank"] = 0
        #expect(sorts == 2)
    }
}
