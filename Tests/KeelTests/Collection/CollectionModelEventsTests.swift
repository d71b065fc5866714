import Testing

@testable import Keel

/// Valid only with `valid: true`.
private final class FlaggedValid: Model {
    override func validate(_ attributes: Attributes, options: ChangeOptions) -> ValidationError? {
        attributes["valid"] == true ? nil : ValidationError("invalid")
    }
}

struct CollectionModelEventsTests {
    // MARK: - Proxying

    // Backbone: "trigger custom events on models"
    @Test func customModelEventsReachTheModelAndItsCollection() {
        let fixture = LabelledCollectionFixture()
        var fired = false
        var forwarded: [Event] = []
        fixture.a.on("custom") { _ in fired = true }
        fixture.col.on("custom") { forwarded.append($0) }
        fixture.a.trigger("custom", 1, "two")
        #expect(fired)
        #expect(forwarded.count == 1)
        #expect(forwarded.first?.arguments == [1, "two"])
    }

    // Backbone: "#3662 - triggering change without model will not error"
    @Test func changeTriggeredWithoutAModelIsForwarded() throws {
        let collection = Collection<Model>([["id": 1]])
        let model = try #require(collection.first)
        var events: [Event] = []
        collection.on("change") { events.append($0) }
        model.trigger("change")
        #expect(events.count == 1)
        #expect(events.first?.model == nil)
    }

    // Keel: the collection re-emits its models' events right after the model's handlers that
    // were registered before it joined (verified in Backbone).
    @Test func forwardedEventsInterleaveWithTheModelsHandlers() {
        let model = Model(["id": 1])
        var log: [String] = []
        model.on("change:t") { _ in log.append("model change:t") }
        model.on("all") { log.append("model all:" + $0.name) }
        let collection = Collection<Model>([model])
        collection.on("change:t") { _ in log.append("collection change:t") }
        collection.on("all") { log.append("collection all:" + $0.name) }
        model.on("all") { log.append("model late all:" + $0.name) }
        model.set(["t": 1])
        #expect(
            log == [
                "model change:t", "model all:change:t", "collection change:t", "collection all:change:t",
                "model late all:change:t", "model all:change", "collection all:change", "model late all:change",
            ]
        )
    }

    // Keel: forwarded events keep their payload: the model, value and options.
    @Test func forwardedChangeCarriesTheModelValueAndOptions() throws {
        let fixture = LabelledCollectionFixture()
        var events: [Event] = []
        fixture.col.on("change:label") { events.append($0) }
        fixture.b.set(["label": "B"], options: ChangeOptions(custom: ["source": "form"]))
        let event = try #require(events.first)
        #expect(event.model === fixture.b)
        #expect(event.value == "B")
        #expect(event.options["source"] == "form")
    }

    // Keel: `add` and `remove` from another collection are not re-emitted (as Backbone).
    @Test func anotherCollectionsAddAndRemoveAreNotForwarded() {
        let model = Model(["id": 1])
        let col1 = Collection<Model>([model])
        let col2 = Collection<Model>()
        let log = CollectionEventLog(col1)
        col2.add(model)
        col2.remove(model)
        #expect(log.names.isEmpty)
        #expect(col1.count == 1)
    }

    // Keel: a model's `invalid` and `error` reach its collection.
    @Test func validationFailuresAreForwarded() {
        let model = FlaggedValid(["id": 1, "valid": true])
        let collection = Collection<FlaggedValid>([model])
        let log = CollectionEventLog(collection)
        model.set(["valid": false])
        #expect(log.names == ["invalid", "error"])
        #expect(log.events.allSatisfy { $0.model === model })
        #expect(log.events.first?.validationError == ValidationError("invalid"))
    }

    // MARK: - destroy

    // Backbone: "model destroy removes from all collections"
    @Test func destroyRemovesAPersistedModelFromEveryCollection() {
        // Keel: `destroy()` needs sync (deferred), so the test triggers its `destroy` event.
        let m = Model(["id": 5, "title": "Othello"])
        let col1 = Collection<Model>([m])
        let col2 = Collection<Model>([m])
        m.trigger(Event(name: "destroy", model: m))
        #expect(col1.isEmpty)
        #expect(col2.isEmpty)
        #expect(m.collection == nil)
        #expect(m.handlerCount == 0)
    }

    // Backbone: "Collection: non-persisted model destroy removes from all collections"
    @Test func destroyRemovesANewModelFromEveryCollection() {
        // Keel: `destroy()` needs sync (deferred), so the test triggers its `destroy` event.
        let m = Model(["title": "Othello"])
        let col1 = Collection<Model>([m])
        let col2 = Collection<Model>([m])
        m.trigger(Event(name: "destroy", model: m))
        #expect(col1.isEmpty)
        #expect(col2.isEmpty)
        #expect(m.collection == nil)
    }

    // Keel: a destroyed model's collection fires `remove`, `update`, then re-emits `destroy`.
    @Test func destroyFiresRemoveAndUpdateBeforeTheForwardedDestroy() {
        let fixture = LabelledCollectionFixture()
        let log = CollectionEventLog(fixture.col)
        fixture.c.trigger(Event(name: "destroy", model: fixture.c))
        #expect(log.names == ["remove", "update", "destroy"])
        #expect(log.events.first?.index == 2)
        #expect(fixture.col.pluck("label") == ["a", "b", "d"])
    }

    // Backbone: "#1604 - Removal during iteration."
    @Test func destroyingAModelInsideAnAddHandler() throws {
        // Keel: `destroy()` needs sync (deferred), so the handler triggers its `destroy` event.
        let collection = Collection<Model>([Attributes(), Attributes()])
        var added: Model?
        collection.on("add") { event in
            added = event.model
            if let first = collection.at(0) { first.trigger(Event(name: "destroy", model: first)) }
        }
        collection.add(Attributes(), at: 0)
        let model = try #require(added)
        #expect(collection.count == 2)
        #expect(!collection.has(model))
        #expect(model.collection == nil)
    }

    // MARK: - Unbinding

    // Backbone: "events are unbound on remove"
    @Test func resetUnbindsTheRemovedModels() {
        var counter = 0
        let dj = Model()
        let emcees = Collection<Model>([dj])
        emcees.on("change") { _ in counter += 1 }
        dj.set(["name": "Kool"])
        #expect(counter == 1)
        emcees.reset()
        #expect(dj.collection == nil)
        dj.set(["name": "Shadow"])
        #expect(counter == 1)
        #expect(dj.handlerCount == 0)
    }

    // Backbone: "_addReference binds all collection events & adds to the lookup hashes"
    @Test func addingBindsOneForwarderAndRemovingUnbindsIt() throws {
        // Keel: `_addReference` is not overridable; the test checks its effects instead.
        let collection = Collection<Model>()
        let model = try #require(collection.add(["id": 1]))
        #expect(collection.get(1) === model)
        #expect(collection.get(JSONValue(model.cid)) === model)
        #expect(model.handlerCount == 1)
        collection.remove(model)
        #expect(collection.get(1) == nil)
        #expect(collection.get(JSONValue(model.cid)) == nil)
        #expect(model.collection == nil)
        #expect(model.handlerCount == 0)
    }

    // Keel: adding a present model again, merging it or keeping it across a reset never binds
    // a second forwarder.
    @Test func aModelIsForwardedOncePerCollection() {
        let model = Model(["id": 1])
        let collection = Collection<Model>([model])
        collection.add(model)
        collection.add(model, merge: true)
        collection.set([model])
        collection.add(Model(["id": 1]), merge: true)
        collection.reset([model])
        #expect(model.handlerCount == 1)
        let other = Collection<Model>([model])
        #expect(model.handlerCount == 2)
        other.remove(model)
        #expect(model.handlerCount == 1)
        #expect(model.collection === collection)
    }

    // Keel: `set` unbinds the models it removes.
    @Test func setUnbindsRemovedModels() throws {
        let collection = Collection<Model>([["id": 1], ["id": 2]])
        let removed = try #require(collection.get(1))
        var changes = 0
        collection.on("change") { _ in changes += 1 }
        collection.set([["id": 2]])
        removed.set(["t": 1])
        #expect(changes == 0)
        #expect(removed.handlerCount == 0)
        #expect(removed.collection == nil)
    }

    // MARK: - Lifetime

    // Keel: a model that outlives its collection is left with no collection and no forwarder.
    @Test func modelOutlivingItsCollectionKeepsNoForwarder() {
        let model = Model(["id": 1])
        weak var weakCollection: Collection<Model>?
        do {
            let collection = Collection<Model>([model])
            weakCollection = collection
            #expect(model.handlerCount == 1)
            #expect(model.collection === collection)
        }
        #expect(weakCollection == nil)
        #expect(model.collection == nil)
        #expect(model.handlerCount == 0)
        // Events of the orphaned model reach nothing and do not crash.
        model.set(["t": 1])
        model.trigger(Event(name: "destroy", model: model))
    }

    // Keel: the same holds for models the collection built from attributes.
    @Test func builtModelOutlivingItsCollectionKeepsNoForwarder() throws {
        var model: Model?
        weak var weakCollection: Collection<Model>?
        do {
            let collection = Collection<Model>([["id": 1], ["id": 2]], comparator: .attribute("id"))
            weakCollection = collection
            model = collection.get(2)
        }
        let survivor = try #require(model)
        #expect(weakCollection == nil)
        #expect(survivor.collection == nil)
        #expect(survivor.handlerCount == 0)
    }

    // Keel: when one of two collections goes away, the model keeps forwarding to the other.
    @Test func deallocatingOneCollectionLeavesTheOtherForwarding() {
        let model = Model(["id": 1])
        let survivor = Collection<Model>()
        weak var weakCollection: Collection<Model>?
        do {
            let first = Collection<Model>([model])
            weakCollection = first
            survivor.add(model)
            #expect(model.handlerCount == 2)
            #expect(model.collection === first)
        }
        #expect(weakCollection == nil)
        #expect(model.handlerCount == 1)
        #expect(model.collection == nil)
        var changes = 0
        survivor.on("change") { _ in changes += 1 }
        model.set(["t": 1])
        #expect(changes == 1)
    }

    // Keel: a collection that only listens to its models is not kept alive by them.
    @Test func modelsDoNotKeepTheirCollectionAlive() {
        let models = (0..<10).map { Model(["id": .int($0)]) }
        weak var weakCollection: Collection<Model>?
        do {
            let collection = Collection<Model>(models)
            collection.on("change") { _ in }
            weakCollection = collection
        }
        #expect(weakCollection == nil)
        #expect(models.allSatisfy { $0.collection == nil && $0.handlerCount == 0 })
    }
}
