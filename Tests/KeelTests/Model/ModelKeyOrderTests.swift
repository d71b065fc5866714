import Testing

@testable import Keel

/// A `set` keeps the model's keys where they are, whatever order its input names them in, as
/// a JavaScript object keeps a key's first insertion order under Backbone's `set`; new keys
/// follow in input order.
struct ModelKeyOrderTests {
    @Test func anEqualRecordInAnotherOrderLeavesTheOrder() {
        let model = Model(["a": 1, "b": 2, "c": 3])
        model.set(["c": 3, "a": 1, "b": 2])
        #expect(Array(model.attributes.keys) == ["a", "b", "c"])
    }

    @Test func aChangingRecordInAnotherOrderLeavesTheOrder() {
        let model = Model(["a": 1, "b": 2, "c": 3])
        model.set(["c": 30, "b": 20, "a": 10])
        #expect(Array(model.attributes.keys) == ["a", "b", "c"])
        #expect(Array(model.changed.keys) == ["c", "b", "a"])
    }

    @Test func anEqualRecordInAnotherOrderWithOptionsLeavesTheOrder() {
        let model = Model(["a": 1, "b": 2, "c": 3])
        model.set(["c": 3, "a": 1, "b": 2], silent: true)
        #expect(Array(model.attributes.keys) == ["a", "b", "c"])
        model.set(["c": 3, "b": 2, "a": 1] as Attributes, options: ChangeOptions(parse: true))
        #expect(Array(model.attributes.keys) == ["a", "b", "c"])
    }

    @Test func aServerAnswerInAnotherOrderLeavesTheOrder() {
        let model = Model(["id": 1, "a": 1, "b": 2])
        model.set(["b": 2, "a": 1, "id": 1] as Attributes, options: ChangeOptions(parse: true))
        #expect(Array(model.attributes.keys) == ["id", "a", "b"])
    }

    @Test func aLargeRecordInAnotherOrderLeavesTheOrder() {
        var attributes = Attributes()
        for i in 0..<80 { attributes["k\(i)"] = .int(i) }
        let model = Model(attributes)
        var reversed = Attributes()
        for i in (0..<80).reversed() { reversed["k\(i)"] = .int(i == 3 ? 33 : i) }
        model.set(reversed)
        #expect(Array(model.attributes.keys) == (0..<80).map { "k\($0)" })
        #expect(model["k3"] == 33)
    }
}

/// The same through a collection's merge and a fetch's answer.
struct MergedKeyOrderTests {
    @Test func aCollectionMergeInAnotherOrderLeavesTheOrder() {
        let collection = Collection<Model>([["id": 1, "a": 1, "b": 2]])
        collection.set([["b": 2, "a": 1, "id": 1]])
        #expect(Array(collection.at(0)!.attributes.keys) == ["id", "a", "b"])
        collection.set([["b": 3, "a": 1, "id": 1]])
        #expect(Array(collection.at(0)!.attributes.keys) == ["id", "a", "b"])
        collection.add([["b": 3, "a": 1, "id": 1]], merge: true)
        #expect(Array(collection.at(0)!.attributes.keys) == ["id", "a", "b"])
    }

    @Test func aFetchAnswerInAnotherOrderLeavesTheOrder() async throws {
        let sync = InMemorySync()
        let stored = Collection<Model>(url: "/things", sync: sync)
        _ = try await stored.create(["b": 2, "a": 1])
        let model = Model(["id": 1, "a": 1, "b": 2])
        model.urlRoot = "/things"
        model.sync = sync
        try await model.fetch()
        #expect(Array(model.attributes.keys) == ["id", "a", "b"])
    }
}
