import Keel
import Testing

/// A collection with a helper its comparator uses (Backbone's comparator bound to `this`).
private final class NegatingCollection: Collection<Model> {
    func negative(_ model: Model) -> Int { -(model.id?.intValue ?? 0) }
}

private func intValue(_ model: Model, _ key: String) -> Int { model[key]?.intValue ?? 0 }

private func intRank(_ attributes: Attributes) -> Int { attributes["rank"]?.intValue ?? 0 }

struct CollectionSortTests {
    // MARK: - Comparators

    // Backbone: "new and sort"
    @Test func sortUsesTheCurrentComparatorAndFiresSort() throws {
        let fixture = LabelledCollectionFixture()
        let col = fixture.col
        var counter = 0
        col.on("sort") { _ in counter += 1 }
        #expect(col.pluck("label") == ["a", "b", "c", "d"])
        col.comparator = .ordered { intValue($0, "id") > intValue($1, "id") }
        try col.sort()
        #expect(counter == 1)
        #expect(col.pluck("label") == ["a", "b", "c", "d"])
        col.comparator = .value { $0.id }
        try col.sort()
        #expect(counter == 2)
        #expect(col.pluck("label") == ["d", "c", "b", "a"])
        #expect(col.count == 4)
    }

    // Backbone: "String comparator."
    @Test func attributeComparatorSortsOnConstruction() {
        let collection = Collection<Model>([["id": 3], ["id": 1], ["id": 2]], comparator: .attribute("id"))
        #expect(collection.pluck("id") == [1, 2, 3])
    }

    // Backbone: "add model to collection with sort()-style comparator"
    @Test func orderedComparatorPlacesEachAddedModel() {
        let collection = Collection<Model>()
        collection.comparator = .ordered { ($0["name"]?.stringValue ?? "") < ($1["name"]?.stringValue ?? "") }
        let tom = Model(["name": "Tom"])
        let rob = Model(["name": "Rob"])
        let tim = Model(["name": "Tim"])
        collection.add(tom)
        collection.add(rob)
        collection.add(tim)
        #expect(collection.firstIndex { $0 === rob } == 0)
        #expect(collection.firstIndex { $0 === tim } == 1)
        #expect(collection.firstIndex { $0 === tom } == 2)
    }

    // Backbone: "comparator that depends on `this`"
    @Test func comparatorCanUseTheCollection() throws {
        // Keel: closures capture the collection instead of being bound to `this`.
        let collection = NegatingCollection()
        collection.comparator = .key { [unowned collection] in collection.negative($0) }
        collection.add([["id": 1], ["id": 2], ["id": 3]])
        #expect(collection.pluck("id") == [3, 2, 1])
        collection.comparator = .ordered { [unowned collection] in
            collection.negative($1) < collection.negative($0)
        }
        try collection.sort()
        #expect(collection.pluck("id") == [1, 2, 3])
    }

    // Backbone: "falsy comparator"
    @Test func aNilComparatorKeepsInsertionOrder() {
        // Keel: there is no class-level comparator to disable; `nil` (the default) means none.
        let sorted = Collection<Model>([["id": 2], ["id": 1]], comparator: .value { $0.id })
        let unsorted = Collection<Model>([["id": 2], ["id": 1]], comparator: nil)
        #expect(sorted.comparator != nil)
        #expect(unsorted.comparator == nil)
        #expect(sorted.pluck("id") == [1, 2])
        #expect(unsorted.pluck("id") == [2, 1])
        sorted.comparator = nil
        sorted.add(["id": 0])
        #expect(sorted.pluck("id") == [1, 2, 0])
    }

    // MARK: - When sorting happens

    // Backbone: "#1448 - add sorts collection after merge."
    @Test func mergeThatChangesTheKeyResorts() {
        let collection = Collection<Model>([["id": 1, "x": 1], ["id": 2, "x": 2]])
        collection.comparator = .value { $0["x"] }
        collection.add(["id": 1, "x": 3], merge: true)
        #expect(collection.pluck("id") == [2, 1])
    }

    // Backbone: "#1638 - `sort` during `add` triggers correctly."
    @Test func sortingInsideAnAddHandlerWorks() {
        let collection = Collection<Model>()
        collection.comparator = .value { $0["x"] }
        var added: [JSONValue?] = []
        collection.on("add") { event in
            event.model?.set(["x": 3])
            #expect(throws: Never.self) { try collection.sort() }
            added.append(event.model?.id)
        }
        collection.add([["id": 1, "x": 1], ["id": 2, "x": 2]])
        #expect(added == [1, 2])
    }

    // Backbone: "`sort` shouldn't always fire on `add`"
    @Test func addSortsOnlyForNewModels() {
        // Keel: `sort()` cannot be overridden to count calls, so this counts `sort` events.
        let collection = Collection<Model>([["id": 1], ["id": 2], ["id": 3]], comparator: .attribute("id"))
        var sorts = 0
        collection.on("sort") { _ in sorts += 1 }
        collection.add([Attributes]())
        collection.add(["id": 1])
        collection.add([["id": 2], ["id": 3]])
        #expect(sorts == 0)
        collection.add(["id": 4])
        #expect(sorts == 1)
    }

    // Backbone: "#1894 - `sort` can optionally be turned off"
    @Test func sortFalseKeepsInsertionOrder() {
        let collection = Collection<Model>([["id": 3]], comparator: .attribute("id"))
        var sorts = 0
        collection.on("sort") { _ in sorts += 1 }
        collection.add(["id": 1], options: UpdateOptions(sort: false))
        #expect(sorts == 0)
        #expect(collection.pluck("id") == [3, 1])
    }

    // Backbone: "`add` only `sort`s when necessary"
    @Test func attributeComparatorResortsOnlyWhenItsAttributeChanges() {
        let collection = Collection<Model>([["id": 1], ["id": 2], ["id": 3]], comparator: .attribute("a"))
        var sorts = 0
        collection.on("sort") { _ in sorts += 1 }
        collection.add(["id": 4])  // sorts: new model
        #expect(sorts == 1)
        collection.add(["id": 1, "a": 1], merge: true)  // sorts: the comparator's attribute changed
        #expect(sorts == 2)
        collection.add(["id": 1, "b": 1], merge: true)  // no sort: another attribute changed
        collection.add(["id": 1, "a": 1], merge: true)  // no sort: nothing changed
        collection.add(collection.models)  // no sort: nothing new
        collection.add(collection.models, merge: true)  // no sort: the same instances
        #expect(sorts == 2)
    }

    // Backbone: "`add` only `sort`s when necessary with comparator function"
    @Test func functionComparatorResortsOnAnyChange() {
        let collection = Collection<Model>(
            [["id": 1], ["id": 2], ["id": 3]],
            comparator: .ordered { intValue($0, "a") < intValue($1, "a") }
        )
        var sorts = 0
        collection.on("sort") { _ in sorts += 1 }
        collection.add(["id": 4])  // sorts: new model
        collection.add(["id": 1, "a": 1], merge: true)  // sorts: the model changed
        collection.add(["id": 1, "b": 1], merge: true)  // sorts: the model changed
        #expect(sorts == 3)
        collection.add(["id": 1, "a": 1], merge: true)  // no sort: nothing changed
        collection.add(collection.models)  // no sort: nothing new
        collection.add(collection.models, merge: true)  // no sort: the same instances
        #expect(sorts == 3)
    }

    // Backbone: "#3199 - Order changing should trigger a sort"
    @Test func setThatReordersFiresSortWithoutAComparator() {
        let collection = Collection<Model>([Model(["id": 1]), Model(["id": 2]), Model(["id": 3])])
        var sorts = 0
        collection.on("sort") { _ in sorts += 1 }
        collection.set([["id": 3], ["id": 2], ["id": 1]])
        #expect(sorts == 1)
    }

    // Backbone: "#3199 - Adding a model should trigger a sort"
    @Test func setThatAddsFiresSortWithoutAComparator() {
        let collection = Collection<Model>([Model(["id": 1]), Model(["id": 2]), Model(["id": 3])])
        var sorts = 0
        collection.on("sort") { _ in sorts += 1 }
        collection.set([["id": 1], ["id": 2], ["id": 3], ["id": 0]])
        #expect(sorts == 1)
    }

    // Backbone: "#3199 - Order not changing should not trigger a sort"
    @Test func setThatKeepsTheOrderFiresNoSort() {
        let collection = Collection<Model>([Model(["id": 1]), Model(["id": 2]), Model(["id": 3])])
        var sorts = 0
        collection.on("sort") { _ in sorts += 1 }
        collection.set([["id": 1], ["id": 2], ["id": 3]])
        #expect(sorts == 0)
    }

    // MARK: - Keel's sorting contract

    // Keel: `sort()` without a comparator throws (Backbone throws an Error too).
    @Test func sortWithoutAComparatorThrows() {
        let collection = Collection<Model>([["id": 2], ["id": 1]])
        var sorts = 0
        collection.on("sort") { _ in sorts += 1 }
        #expect(throws: CollectionError.noComparator) { try collection.sort() }
        #expect(sorts == 0)
        #expect(collection.pluck("id") == [2, 1])
    }

    // Keel: `sort(silent: true)` sorts without an event; the event carries the call's options.
    @Test func sortEventCarriesOptionsAndCanBeSilenced() throws {
        let collection = Collection<Model>([["id": 2], ["id": 1]])
        collection.comparator = .attribute("id")
        let log = CollectionEventLog(collection)
        try collection.sort(silent: true)
        #expect(log.names.isEmpty)
        #expect(collection.pluck("id") == [1, 2])
        collection.comparator = .ordered { intValue($0, "id") > intValue($1, "id") }
        try collection.sort(options: UpdateOptions(custom: ["why": "test"]))
        #expect(log.names == ["sort"])
        #expect(log.events.first?.collection === collection)
        #expect(log.events.first?.options["why"] == "test")
        #expect(collection.pluck("id") == [2, 1])
    }

    // Keel: collections do not re-sort when a model attribute changes (as Backbone).
    @Test func changingAnAttributeDoesNotResort() throws {
        let collection = Collection<Model>(
            [["id": 1, "rank": 1], ["id": 2, "rank": 2]],
            comparator: .attribute("rank")
        )
        collection.get(1)?.set(["rank": 3])
        #expect(collection.pluck("id") == [1, 2])
        try collection.sort()
        #expect(collection.pluck("id") == [2, 1])
    }

    // Keel: every comparator form is stable.
    @Test func everyComparatorFormIsStable() throws {
        let inputs: [Attributes] = (0..<40).map { ["id": .int($0), "rank": .int($0 % 3)] }
        let expected = inputs.sorted { ($0["rank"]?.intValue ?? 0) < ($1["rank"]?.intValue ?? 0) }.map { $0["id"] }
        let comparators: [ModelComparator<Model>] = [
            .attribute("rank"),
            .value { $0["rank"] },
            .key { intValue($0, "rank") },
            .ordered { intValue($0, "rank") < intValue($1, "rank") },
        ]
        for comparator in comparators {
            let collection = Collection<Model>(inputs, comparator: comparator)
            #expect(collection.pluck("id") == expected)
            try collection.sort()
            #expect(collection.pluck("id") == expected)
        }
    }

    // Keel: integer keys take a faster path; it keeps full 64-bit order and stability.
    @Test func integerKeysSortStablyAcrossTheWholeRange() throws {
        let ranks: [Int] = [.max, -1, 0, .min, 7, -1, .max, 0, 7, .min, 1 << 53 + 1, 1 << 53]
        let inputs: [Attributes] = ranks.enumerated().map { ["id": .int($0.offset), "rank": .int($0.element)] }
        let expected = ranks.enumerated().sorted { ($0.element, $0.offset) < ($1.element, $1.offset) }.map {
            JSONValue.int($0.offset)
        }
        let collection = Collection<Model>(inputs, comparator: .attribute("rank"))
        #expect(collection.pluck("id") == expected)
        try collection.sort()
        #expect(collection.pluck("id") == expected)
    }

    // Keel: a large collection sorts its integer keys by radix; the order is a stable sort's.
    @Test func largeCollectionsSortIntegerKeysStably() throws {
        var state = 42
        let inputs: [Attributes] = (0..<3_000).map { id in
            state = state * 48_271 % 2_147_483_647
            return ["id": .int(id), "rank": .int(state % 500 - 250)]
        }
        let expected = inputs.enumerated().sorted {
            (intRank($0.element), $0.offset) < (intRank($1.element), $1.offset)
        }.map { $0.element["id"] }
        for comparator: ModelComparator<Model> in [.attribute("rank"), .value { $0["rank"] }] {
            let collection = Collection<Model>(inputs.reversed(), comparator: comparator)
            try collection.sort()
            let reversedExpected = inputs.reversed().enumerated().sorted {
                (intRank($0.element), $0.offset) < (intRank($1.element), $1.offset)
            }.map { $0.element["id"] }
            #expect(collection.pluck("id") == reversedExpected)
            collection.reset(inputs)
            #expect(collection.pluck("id") == expected)
        }
    }

    // Keel: the attribute comparator finds the attribute in every model's own layout, so
    // models whose keys differ in number or order sort by the same attribute.
    @Test func attributeComparatorReadsEachLayout() throws {
        let inputs: [Attributes] = (0..<600).map { id in
            switch id % 3 {
            case 0: ["id": .int(id), "rank": .int(id % 7)]
            case 1: ["rank": .int(id % 7), "id": .int(id)]
            default: ["id": .int(id), "title": "t", "done": false, "rank": .int(id % 7)]
            }
        }
        let expected = inputs.enumerated().sorted {
            (intRank($0.element), $0.offset) < (intRank($1.element), $1.offset)
        }.map { $0.element["id"] }
        let collection = Collection<Model>(inputs, comparator: .attribute("rank"))
        #expect(collection.pluck("id") == expected)
    }

    // Keel: one model without an integer key sends the whole sort to JSON order: missing
    // values last, doubles among the integers.
    @Test func oneNonIntegerKeyInALargeCollectionSortsByJSONOrder() throws {
        var inputs: [Attributes] = (0..<400).map { ["id": .int($0), "rank": .int(400 - $0)] }
        inputs.append(["id": 1_000, "rank": 0.5])
        inputs.append(["id": 1_001])
        let collection = Collection<Model>(inputs, comparator: .attribute("rank"))
        let ids = collection.pluck("id")
        #expect(ids.first == 1_000)
        #expect(ids.last == 1_001)
        #expect(ids[1] == 399)
    }

    // Keel: an attribute comparator puts `null` first and missing values last; numbers
    // compare by value across integers and doubles.
    @Test func attributeComparatorOrdersNullAndMissingValues() {
        let collection = Collection<Model>(
            [["id": "two", "rank": 2], ["id": "none"], ["id": "null", "rank": nil], ["id": "half", "rank": 0.5]],
            comparator: .attribute("rank")
        )
        #expect(collection.pluck("id") == ["null", "half", "two", "none"])
    }

    // Keel: a value comparator sorts `nil` keys last.
    @Test func valueComparatorSortsNilLast() {
        let collection = Collection<Model>(
            [["id": 1], ["id": 2, "name": "b"], ["id": 3, "name": "a"]],
            comparator: .value { $0["name"] }
        )
        #expect(collection.pluck("id") == [3, 2, 1])
    }

    // Keel: adding with a comparator inserts new models in sorted position and fires one `sort`.
    @Test func addingSeveralModelsSortsOnce() {
        let collection = Collection<Model>([["id": 5]], comparator: .attribute("id"))
        let log = CollectionEventLog(collection, "sort")
        collection.add([["id": 9], ["id": 1], ["id": 7]])
        #expect(collection.pluck("id") == [1, 5, 7, 9])
        #expect(log.events.count == 1)
    }
}
