import Keel
import Synchronization
import Testing

// Ports of Backbone's test/model.js cases about identity and class-level settings: cid,
// id, idAttribute, changeId, isNew, clone and defaults.

private final class MongoModel: Model {
    override class var idAttribute: String { "_id" }
}

private final class PrefixedModel: Model {
    override class var cidPrefix: String { "m" }
}

private final class Defaulted: Model {
    override class var defaults: Attributes { ["one": 1, "two": 2] }
}

/// Backbone's function-valued defaults: computed for every new model.
private final class ComputedDefaults: Model {
    static let serials = Atomic<Int>(0)

    override class var defaults: Attributes {
        ["one": 3, "two": 4, "serial": .int(serials.wrappingAdd(1, ordering: .relaxed).newValue)]
    }
}

private final class DefaultedKeyword: Model {
    override class var defaults: Attributes { ["hasOwnProperty": true] }
}

struct ModelIdentityTests {
    // MARK: - cid

    // Backbone: "setting an alternative cid prefix"
    @Test func cidUsesTheClassPrefix() throws {
        #expect(PrefixedModel().cid.first == "m")
        #expect(Model().cid.first == "c")

        let collection = Collection<PrefixedModel>([["id": "c5"], ["id": "c6"], ["id": "c7"]])
        let c6 = try #require(collection.get("c6"))
        #expect(c6.cid.first == "m")
        collection.set([["id": "c6", "value": "test"]], add: true, remove: false, merge: true)
        #expect(collection.get("c6")?.has("value") == true)
    }

    @Test func cidsAreUniqueAndStable() {
        let models = (0..<100).map { _ in Model() }
        #expect(Set(models.map(\.cid)).count == 100)
        let model = models[0]
        let cid = model.cid
        model.set(["id": 1])
        model.clear()
        #expect(model.cid == cid)
    }

    // MARK: - id and idAttribute

    // Backbone: "using a non-default id attribute."
    @Test func nonDefaultIDAttributeDrivesIDAndIsNew() {
        let model = MongoModel(["id": "eye-dee", "_id": 25, "title": "Model"])
        #expect(model.get("id") == "eye-dee")
        #expect(model.id == 25)
        #expect(model.isNew == false)
        #expect(model.idAttribute == "_id")
        model.unset("_id")
        #expect(model.id == nil)
        #expect(model.isNew == true)
    }

    @Test func idFollowsTheIDAttributeThroughSetUnsetAndClear() {
        let model = Model()
        #expect(model.id == nil)
        model.set(["id": 7])
        #expect(model.id == 7)
        model["id"] = "seven"
        #expect(model.id == "seven")
        model.unset("id")
        #expect(model.id == nil)
        model.set(["id": 8], silent: true)
        #expect(model.id == 8)
        model.clear()
        #expect(model.id == nil)
    }

    // Backbone: "#3778 - id will only be updated if it is set"
    // Adapted: `id` is read-only in Keel, so it cannot be set by hand; a `set` without the id
    // attribute leaves it alone, and a `set` with it updates it.
    @Test func idIsOnlyRefreshedWhenTheIDAttributeIsSet() {
        let model = Model(["id": 1])
        model.set(["foo": "bar"])
        #expect(model.id == 1)
        model.set(["id": 3])
        #expect(model.id == 3)
    }

    @Test func rejectedSetDoesNotChangeTheID() {
        final class Locked: Model {
            override func validate(_ attributes: Attributes, options: ChangeOptions) -> ValidationError? {
                attributes["id"] == 2 ? ValidationError("no") : nil
            }
        }
        let model = Locked(["id": 1])
        var changeIDs = 0
        model.on("changeId") { _ in changeIDs += 1 }
        #expect(model.set(["id": 2]) == false)
        #expect(model.id == 1)
        #expect(changeIDs == 0)
    }

    // MARK: - changeId

    // Backbone: "#4289 - Trigger "changeId" need to be generate only if the content id change"
    @Test func changeIDFiresOnlyWhenTheIDChanges() {
        let model = Model(["id": 1])
        var seen: [JSONValue?] = []
        model.on("changeId") { seen.append($0.model?.get("id")) }
        model.set(["id": 1])
        model.set(["id": 2])
        #expect(seen == [2])
    }

    // Keel decision: numbers compare by value, so 1 → 1.0 is not an id change.
    @Test func changeIDDoesNotFireForANumericallyEqualID() {
        let model = Model(["id": 1])
        var count = 0
        model.on("changeId") { _ in count += 1 }
        model.set(["id": 1.0])
        #expect(count == 0)
        #expect(model.id == 1)
    }

    @Test func changeIDCarriesThePreviousID() {
        let model = MongoModel(["_id": "a"])
        var received: [(JSONValue?, JSONValue?)] = []
        model.on("changeId") { received.append(($0.previousID, $0.model?.id)) }
        model.set(["_id": "b"])
        model.unset("_id")
        model.set(["id": "just data"])
        #expect(received.count == 2)
        #expect(received.map(\.0) == ["a", "b"])
        #expect(received.map(\.1) == ["b", nil])
    }

    // MARK: - isNew

    // Backbone: "isNew"
    @Test func isNewIsTrueOnlyWithoutAnID() {
        #expect(Model(["foo": 1, "bar": 2, "baz": 3]).isNew)
        #expect(Model(["foo": 1, "bar": 2, "baz": 3, "id": -5]).isNew == false)
        #expect(Model(["foo": 1, "bar": 2, "baz": 3, "id": 0]).isNew == false)
        #expect(Model().isNew)
        #expect(Model(["id": 2]).isNew == false)
        #expect(Model(["id": -5]).isNew == false)
    }

    // Backbone semantics §2.2: any non-null id counts, and a null id is new.
    @Test func isNewTreatsNullAsNoIDAndFalsyValuesAsIDs() {
        #expect(Model(["id": nil]).isNew)
        #expect(Model(["id": ""]).isNew == false)
        #expect(Model(["id": false]).isNew == false)
    }

    // MARK: - clone

    // Backbone: "clone"
    // Adapted: `set(attrs, {unset: true})` is an `unset` of each key in Keel.
    @Test func cloneIsIndependentOfTheOriginal() {
        let a = Model(["foo": 1, "bar": 2, "baz": 3])
        let b = a.clone()
        #expect(a.get("foo") == 1)
        #expect(a.get("bar") == 2)
        #expect(a.get("baz") == 3)
        #expect(b.get("foo") == a.get("foo"))
        #expect(b.get("bar") == a.get("bar"))
        #expect(b.get("baz") == a.get("baz"))
        a.set(["foo": 100])
        #expect(a.get("foo") == 100)
        #expect(b.get("foo") == 1)

        let foo = Model(["p": 1])
        let bar = Model(["p": 2])
        for key in foo.clone().attributes.keys { bar.unset(key) }
        #expect(foo.get("p") == 1)
        #expect(bar.get("p") == nil)
    }

    @Test func cloneHasTheSameClassANewCIDAndNoCollection() throws {
        let collection = Collection<MongoModel>([["_id": 1, "title": "x"]])
        let original = try #require(collection.first)
        let copy = original.clone()
        #expect(type(of: copy) == MongoModel.self)
        #expect(copy.cid != original.cid)
        #expect(copy.collection == nil)
        #expect(copy.id == 1)
        #expect(copy.attributes == original.attributes)
        #expect(copy.hasChanged() == false)
    }

    // MARK: - defaults

    // Backbone: "defaults"
    // Adapted: Backbone's explicit `undefined` is an absent key in Keel; defaults are class
    // properties, computed for each model (Backbone's function form).
    @Test func defaultsFillAbsentKeysAndYieldToExplicitValues() {
        var model = Defaulted([:])
        #expect(model.get("one") == 1)
        #expect(model.get("two") == 2)
        model = Defaulted(["two": 3])
        #expect(model.get("one") == 1)
        #expect(model.get("two") == 3)

        let computed = ComputedDefaults()
        #expect(computed.get("one") == 3)
        #expect(computed.get("two") == 4)

        var keyword = DefaultedKeyword()
        #expect(keyword.get("hasOwnProperty") == true)
        keyword = DefaultedKeyword([:])
        #expect(keyword.get("hasOwnProperty") == true)
        keyword = DefaultedKeyword(["hasOwnProperty": false])
        #expect(keyword.get("hasOwnProperty") == false)
    }

    // Backbone semantics §0.2: defaults fill absent keys but not keys holding null.
    @Test func defaultsDoNotReplaceAnExplicitNull() {
        let model = Defaulted(["two": nil])
        #expect(model.get("two") == .null)
        #expect(model.has("two") == false)
    }

    // Backbone semantics §2.1 step 6: the defaults' keys come first, then the new keys.
    @Test func defaultKeysComeBeforeNewKeys() {
        let model = Defaulted(["three": 3, "two": 22])
        #expect(model.attributes.keys == ["one", "two", "three"])
        #expect(model.attributes == ["one": 1, "two": 22, "three": 3])
    }

    @Test func defaultsAreEvaluatedForEachModel() {
        let first = ComputedDefaults()
        let second = ComputedDefaults()
        #expect(first.has("serial"))
        #expect(first.get("serial") != second.get("serial"))
    }

    @Test func defaultsDoNotCountAsChanges() {
        let model = Defaulted()
        #expect(model.hasChanged() == false)
        #expect(model.changedAttributes() == nil)
    }
}
