import Keel
import Testing

private final class MongoModel: Model {
    override class var idAttribute: String { "_id" }
}

private final class Circle: Model {}

/// A client-id prefix that ends in digits, so the number cannot be read off the end alone.
private final class Versioned: Model {
    override class var cidPrefix: String { "v2" }
}

private final class Square: Model {}

private final class MongoCircle: Model {
    override class var idAttribute: String { "_id" }
}

private final class MongoSquare: Model {
    override class var idAttribute: String { "_id" }
}

/// Ids are only unique per type: "a-1" and "b-1".
private final class TypedIDCollection: Collection<Model> {
    override func modelID(for attributes: Attributes, idAttribute: String) -> JSONValue? {
        guard let type = attributes["type"]?.stringValue, let id = attributes["id"] else { return nil }
        return .string("\(type)-\(id)")
    }
}

struct CollectionLookupTests {
    // MARK: - get and has

    // Backbone: "get"
    @Test func getFindsByIDCloneAttributesAndCID() throws {
        let fixture = LabelledCollectionFixture()
        let col = fixture.col
        #expect(col.get(0) === fixture.d)
        #expect(col.get(fixture.d.clone()) === fixture.d)
        #expect(col.get(2) === fixture.b)
        #expect(col.get(["id": 1]) === fixture.c)
        #expect(col.get(fixture.c.clone()) === fixture.c)
        let first = try #require(col.first)
        #expect(col.get(JSONValue(first.cid)) === first)
    }

    // Keel: client ids are looked up by their number; the class's prefix may end in digits.
    @Test func getByCIDWithAPrefixEndingInDigits() throws {
        let models = (0..<12).map { _ in Versioned() }
        let collection = Collection<Versioned>(models)
        for model in models {
            #expect(model.cid.hasPrefix("v2"))
            #expect(collection.get(JSONValue(model.cid)) === model)
        }
        let last = try #require(models.last)
        let number = try #require(Int(last.cid.dropFirst(2)))
        #expect(collection.get(JSONValue("v2\(number + 1000)")) == nil)
        #expect(collection.get(JSONValue("v20\(number)")) == nil)
        #expect(collection.get(JSONValue("c\(number)")) == nil)
        #expect(collection.get("v2") == nil)
        #expect(collection.get("") == nil)
    }

    // Backbone: "get with non-default ids"
    @Test func getWithCustomIDAttribute() throws {
        let model = MongoModel(["_id": 100])
        let collection = Collection<MongoModel>([model])
        #expect(collection.get(100) === model)
        #expect(collection.get(JSONValue(model.cid)) === model)
        #expect(collection.get(model) === model)
        #expect(collection.get(101) == nil)
        // Keel: an attributes object is looked up with the model class's id attribute.
        #expect(collection.get(["_id": 100]) === model)

        let collection2 = Collection<MongoModel>()
        collection2.add(model.attributes)
        let first = try #require(collection2.first)
        #expect(first !== model)
        #expect(collection2.get(model.clone()) === first)
    }

    // Backbone: "has"
    @Test func hasFindsByModelIDAndCIDButNotOutsiders() throws {
        let fixture = LabelledCollectionFixture()
        let col = fixture.col
        for model in [fixture.a, fixture.b, fixture.c, fixture.d] {
            #expect(col.has(model))
            #expect(col.has(try #require(model.id)))
            #expect(col.has(JSONValue(model.cid)))
        }
        let outsider = Model(["id": 4])
        #expect(!col.has(outsider))
        #expect(!col.has(try #require(outsider.id)))
        #expect(!col.has(JSONValue(outsider.cid)))
    }

    // Backbone: "#964 - collection.get return inconsistent"
    @Test func getNullReturnsNil() {
        let collection = Collection<Model>()
        #expect(collection.get(nil) == nil)
        // Keel: `get()` without an argument does not exist.
        let fixture = LabelledCollectionFixture()
        #expect(fixture.col.get(nil) == nil)
    }

    // Keel: ids are JSON values; `1` and `1.0` are the same id, `"1"` is another one.
    @Test func idsCompareAsJSONValues() {
        let model = Model(["id": 1])
        let collection = Collection<Model>([model])
        #expect(collection.get(1) === model)
        #expect(collection.get(1.0) === model)
        #expect(collection.get("1") == nil)
        #expect(collection.get(["id": 1.0]) === model)

        // Backbone keeps one model for `[{id: 1}, {id: "1"}]`; Keel keeps two.
        let mixed = Collection<Model>([["id": 1], ["id": "1"], ["id": 1.0]])
        #expect(mixed.count == 2)
        #expect(mixed.get("1")?.id == "1")
        #expect(mixed.get(1)?.id == 1)
    }

    // Keel: integer ids are indexed in an array while they are dense; every mix of dense,
    // far, negative and non-integer ids, added and removed in any order, stays findable.
    @Test func lookupsStayExactForEveryMixOfIDs() {
        let collection = Collection<Model>()
        var expected: [JSONValue: Model] = [:]
        var seed: Int64 = 7
        func next() -> Int {
            seed = (seed * 48271) % 2_147_483_647
            return Int(seed)
        }
        func randomID() -> JSONValue {
            switch next() % 6 {
            case 0: return .int(next() % 64)
            case 1: return .int(-(next() % 8))
            case 2: return .int(1_000_000 + next() % 4)
            case 3: return .double(Double(next() % 64))
            case 4: return .string("s\(next() % 4)")
            default: return .int(next() % 300)
            }
        }
        for _ in 0..<2_000 {
            let id = randomID()
            if next() % 3 == 0 {
                collection.remove(id)
                expected[id] = nil
            } else if expected[id] == nil {
                let model = Model(["id": id])
                collection.add(model)
                expected[id] = model
            }
            if next() % 500 == 0 {
                collection.reset()
                expected = [:]
            }
        }
        #expect(collection.count == expected.count)
        for (id, model) in expected {
            #expect(collection.get(id) === model)
            #expect(collection.get(.string(model.cid)) === model)
        }
        for key in -10..<310 where expected[.int(key)] == nil {
            #expect(collection.get(.int(key)) == nil)
        }
    }

    // Keel: a string id does not shadow the client id of another model, and vice versa.
    @Test func getPrefersIDButFallsBackToClientID() throws {
        let plain = Model()
        let collection = Collection<Model>([plain])
        let namedLikeCID = Model(["id": JSONValue(plain.cid)])
        collection.add(namedLikeCID)
        #expect(collection.count == 2)
        // Backbone shares one key space (issue #3712); Keel looks up ids first.
        #expect(collection.get(JSONValue(plain.cid)) === namedLikeCID)
        #expect(collection.get(JSONValue(namedLikeCID.cid)) === namedLikeCID)
        #expect(collection.get(plain) === plain)
    }

    // MARK: - Re-indexing

    // Backbone: "update index when id changes"
    @Test func changingIDReindexesBeforeAttributeEvents() throws {
        let collection = Collection<Model>()
        collection.add([["id": 0, "name": "one"], ["id": 1, "name": "two"]])
        let one = try #require(collection.get(0))
        #expect(one["name"] == "one")
        var handlerRan = false
        collection.on("change:name") { event in
            handlerRan = true
            guard let model = event.model else {
                Issue.record("change:name without a model")
                return
            }
            #expect(collection.get(model) != nil)
            #expect(collection.get(101) === model)
            #expect(collection.get(0) == nil)
        }
        one.set(["name": "dalmatians", "id": 101])
        #expect(handlerRan)
        #expect(collection.get(0) == nil)
        #expect(collection.get(101)?["name"] == "dalmatians")
    }

    // Keel: a silent id change still re-indexes (Backbone fires `changeId` even when silent).
    @Test func silentIDChangeReindexes() {
        let model = Model(["id": 1])
        let collection = Collection<Model>([model])
        var changeEvents = 0
        collection.on("change") { _ in changeEvents += 1 }
        model.set(["id": 5], silent: true)
        #expect(collection.get(5) === model)
        #expect(collection.get(1) == nil)
        #expect(changeEvents == 0)
    }

    // Backbone: "null and undefined are invalid ids."
    @Test func nullAndRemovedIDsAreNotIndexed() {
        let model = Model(["id": 1])
        let collection = Collection<Model>([model])
        model.set(["id": nil])
        #expect(collection.get(nil) == nil)
        #expect(collection.get("null") == nil)
        #expect(collection.get(1) == nil)
        #expect(collection.get(model) === model)

        model.set(["id": 1])
        #expect(collection.get(1) === model)
        // Keel: Backbone's `undefined` id is an absent one.
        model.unset("id")
        #expect(collection.get(1) == nil)
        #expect(collection.get("undefined") == nil)
        #expect(collection.get(JSONValue(model.cid)) === model)
    }

    // Keel: re-indexing follows the model's own id attribute.
    @Test func changingCustomIDReindexes() {
        let model = MongoModel(["_id": "a"])
        let collection = Collection<MongoModel>([model])
        model.set(["_id": "b"])
        #expect(collection.get("a") == nil)
        #expect(collection.get("b") === model)
        model.set(["id": "c"])
        #expect(collection.get("c") == nil)
    }

    // Keel: changing the id twice inside one outer `set` leaves only the final id indexed.
    @Test func nestedIDChangesLeaveOnlyTheFinalIDIndexed() {
        let model = Model(["id": 1])
        let collection = Collection<Model>([model])
        model.once("change:id") { _ in model.set(["id": 3]) }
        model.set(["id": 2])
        #expect(model.id == 3)
        #expect(collection.get(3) === model)
        #expect(collection.get(1) == nil)
        // Backbone leaves the intermediate key behind (§3.6); Keel should not.
        #expect(collection.get(2) == nil)
    }

    // MARK: - Positions

    // Backbone: "at"
    @Test func atAcceptsNegativeIndexes() {
        let fixture = LabelledCollectionFixture()
        #expect(fixture.col.at(2) === fixture.c)
        #expect(fixture.col.at(-2) === fixture.c)
        #expect(fixture.col.at(4) == nil)
        #expect(fixture.col.at(-5) == nil)
    }

    // Backbone: "slice"
    @Test func sliceReturnsAnArrayOfModels() {
        let collection = Collection<Model>([["a": "a"], ["b": "b"], ["c": "c"]])
        let array = collection.slice(1, 3)
        #expect(array.count == 2)
        #expect(array.first?["b"] == "b")
        #expect(collection.slice(-2).count == 2)
        #expect(collection.slice(0, -1).map { $0["c"] } == [nil, nil])
        #expect(collection.slice(2, 1).isEmpty)
        #expect(collection.slice().count == 3)
    }

    // Backbone: "pluck"
    @Test func pluckReadsOneAttributeOfEveryModel() {
        let fixture = LabelledCollectionFixture()
        #expect(fixture.col.pluck("label") == ["a", "b", "c", "d"])
        #expect(fixture.col.pluck("missing") == [nil, nil, nil, nil])
    }

    // MARK: - Queries

    // Backbone: "where and findWhere"
    @Test func whereAndFindWhereMatchAttributes() {
        let model = Model(["a": 1])
        // Keel: one call takes models or attributes, so the model goes first.
        let coll = Collection<Model>([model])
        coll.add([["a": 1], ["a": 1, "b": 2], ["a": 2, "b": 2], ["a": 3]])
        #expect(coll.where(["a": 1]).count == 3)
        #expect(coll.where(["a": 2]).count == 1)
        #expect(coll.where(["a": 3]).count == 1)
        #expect(coll.where(["b": 1]).isEmpty)
        #expect(coll.where(["b": 2]).count == 2)
        #expect(coll.where(["a": 1, "b": 2]).count == 1)
        #expect(coll.findWhere(["a": 1]) === model)
        #expect(coll.findWhere(["a": 4]) == nil)
        // `where({})` matches every model (verified against Backbone 1.6.1).
        #expect(coll.where([:]).count == 5)
    }

    // Backbone: "toJSON"
    @Test func toJSONListsEveryModelsAttributes() {
        let fixture = LabelledCollectionFixture()
        let expected: [Attributes] = [
            ["id": 3, "label": "a"], ["id": 2, "label": "b"], ["id": 1, "label": "c"], ["id": 0, "label": "d"],
        ]
        #expect(fixture.col.toJSON() == expected)
    }

    // MARK: - modelID and polymorphic collections

    // Backbone: "modelId"
    @Test func modelIDReadsTheGivenIDAttribute() {
        let collection = Collection<Model>()
        #expect(collection.modelID(for: ["id": 1], idAttribute: "id") == 1)
        let model = MongoModel(["_id": 1])
        #expect(collection.modelID(for: model.attributes, idAttribute: model.idAttribute) == 1)
        // Keel: the collection passes its model class's id attribute explicitly.
        let mongo = Collection<MongoModel>()
        #expect(mongo.modelID(for: ["_id": 1], idAttribute: MongoModel.idAttribute) == 1)
        #expect(collection.modelID(for: ["id": nil], idAttribute: "id") == nil)
        #expect(collection.modelID(for: [:], idAttribute: "id") == nil)
    }

    // Backbone: "Polymorphic models work with \"simple\" constructors"
    @Test func factoryBuildsPolymorphicModels() throws {
        let collection = Collection<Model>(
            [["id": 1, "type": "a"], ["id": 2, "type": "b"]],
            factory: { attributes, options in
                attributes["type"] == "a" ? Circle(attributes, options: options) : Square(attributes, options: options)
            }
        )
        #expect(collection.count == 2)
        let first = try #require(collection.at(0))
        let second = try #require(collection.at(1))
        #expect(first is Circle)
        #expect(first.id == 1)
        #expect(second is Square)
        #expect(second.id == 2)
        // Models added later go through the factory too.
        let added = try #require(collection.add(["id": 3, "type": "a"]))
        #expect(added is Circle)
        #expect(added.collection === collection)
    }

    // Backbone: "Polymorphic models work with \"advanced\" constructors"
    @Test func polymorphicModelsUseTheirOwnIDAttributeAndModelIDOverride() throws {
        // Keel: a factory replaces a constructor that returns another class.
        let factory: (Attributes, ChangeOptions) -> Model = { attributes, options in
            attributes["type"] == "a"
                ? MongoCircle(attributes, options: options) : MongoSquare(attributes, options: options)
        }
        let collection = Collection<Model>([["_id": 1, "type": "a"], ["_id": 2, "type": "b"]], factory: factory)
        #expect(collection.count == 2)
        #expect(collection.at(0) is MongoCircle)
        #expect(collection.at(0) === collection.get(1))
        #expect(collection.at(1) is MongoSquare)
        #expect(collection.at(1) === collection.get(2))

        let typed = TypedIDCollection(
            [["id": 1, "type": "a"], ["id": 1, "type": "b"]],
            factory: { attributes, options in
                attributes["type"] == "a" ? Circle(attributes, options: options) : Square(attributes, options: options)
            }
        )
        #expect(typed.count == 2)
        #expect(typed.at(0) is Circle)
        #expect(typed.at(0) === typed.get("a-1"))
        #expect(typed.at(1) is Square)
        #expect(typed.at(1) === typed.get("b-1"))
        #expect(typed.get(1) == nil)
    }

    // Backbone: "Collection with polymorphic models receives id from modelId using model instance idAttribute"
    @Test func polymorphicIDsUseTheInstancesIDAttribute() throws {
        let c1 = Collection<Model>([["id": 1]], factory: { attributes, options in Model(attributes, options: options) })
        #expect(c1.get(1)?.id == 1)
        #expect(c1.modelID(for: ["id": 1], idAttribute: Model.idAttribute) == 1)

        let c2 = Collection<Model>(
            [["_id": 1]],
            factory: { attributes, options in
                MongoModel(attributes, options: options)
            }
        )
        let first = try #require(c2.at(0))
        #expect(c2.get(1) === first)
        #expect(c2.modelID(for: first.attributes, idAttribute: first.idAttribute) == 1)
        let m = MongoModel(["_id": 2])
        c2.add(m)
        #expect(c2.get(2) === m)
        #expect(c2.modelID(for: m.attributes, idAttribute: m.idAttribute) == 2)
    }

    // MARK: - Iteration

    // Backbone: "Collection implements Iterable, values is default iterator function"
    @Test func emptyCollectionIteratesNothing() {
        let collection = Collection<Model>()
        var iterator = collection.makeIterator()
        #expect(iterator.next() == nil)
        #expect(collection.isEmpty)
    }

    // Backbone: "Collection.values iterates models in sorted order"
    @Test func iterationYieldsModelsInOrder() {
        let one = Model(["id": 1])
        let two = Model(["id": 2])
        let three = Model(["id": 3])
        let collection = Collection<Model>([one, two, three])
        var iterator = collection.makeIterator()
        #expect(iterator.next() === one)
        #expect(iterator.next() === two)
        #expect(iterator.next() === three)
        #expect(iterator.next() == nil)
    }

    // Backbone: "Collection.keys iterates ids in sorted order"
    @Test func idsInOrder() {
        let collection = Collection<Model>([Model(["id": 1]), Model(["id": 2]), Model(["id": 3])])
        // Keel: `keys()` is `map(\.id)`.
        #expect(collection.map(\.id) == [1, 2, 3])
    }

    // Backbone: "Collection.entries iterates ids and models in sorted order"
    @Test func idAndModelPairsInOrder() {
        let one = Model(["id": 1])
        let two = Model(["id": 2])
        let three = Model(["id": 3])
        let collection = Collection<Model>([one, two, three])
        // Keel: `entries()` is `map { ($0.id, $0) }`.
        let entries = collection.map { ($0.id, $0) }
        #expect(entries.map { $0.0 } == [1, 2, 3])
        #expect(entries.map { $0.1.cid } == [one.cid, two.cid, three.cid])
    }

    // MARK: - Clone

    // Backbone: "clone preserves model and comparator"
    @Test func clonePreservesModelClassComparatorAndInstances() throws {
        let original = Collection<MongoModel>([["_id": 1]], comparator: .value { $0.id })
        let collection = original.clone()
        #expect(collection !== original)
        #expect(collection.first === original.first)
        collection.add(["_id": 2])
        collection.add(["_id": 0])
        #expect(collection.map(\.id) == [0, 1, 2])
        #expect(original.count == 1)
        // The clone does not take the models over: they still belong to the original.
        #expect(original.first?.collection === original)
    }
}
