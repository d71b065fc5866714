import Testing

@testable import Keel

/// An emitter's handlers and `listenTo` bookkeeping live out of line, created by the first handler
/// or relationship; a model whose only handler is its collection's forwarder keeps that forwarder
/// inline.
///
/// Either way, dispatch keeps Backbone's order and snapshot rules.
struct EmitterStateTests {
    @Test func aModelNobodyListensToCarriesNoStateThroughSetsAndTriggers() {
        let model = Model(["a": 1])
        model.set("a", 2)
        model.trigger("ping", 1)
        model.stopListening()
        model.off()
        #expect(!model.hasEmitterState)
        #expect(model.handlerCount == 0)
    }

    @Test func aModelInOneCollectionKeepsItsForwarderInlineAndStillForwards() throws {
        let collection = Collection<Model>()
        let model = try #require(collection.add(["id": 1, "a": 1]))
        var names: [String] = []
        collection.on("all") { names.append($0.name) }
        model.set("a", 2)
        model.trigger("ping")
        #expect(names == ["change:a", "change", "ping"])
        #expect(!model.hasEmitterState)
        #expect(model.handlerCount == 1)
        collection.remove(model)
        #expect(model.handlerCount == 0)
    }

    @Test func aHandlerAddedToAForwardingModelRunsInBackboneOrder() throws {
        let collection = Collection<Model>()
        let model = try #require(collection.add(["id": 1, "a": 1]))
        var calls: [String] = []
        collection.on("change:a") { _ in calls.append("collection change:a") }
        model.on("all") { calls.append("model all \($0.name)") }
        model.on("change:a") { _ in calls.append("model change:a") }
        model.set("a", 2)
        #expect(
            calls == [
                "model change:a", "collection change:a", "model all change:a", "model all change",
            ]
        )
        #expect(model.hasEmitterState)
        #expect(model.handlerCount == 3)
    }

    @Test func aModelInTwoCollectionsForwardsToTheOneItStaysIn() throws {
        let first = Collection<Model>()
        let second = Collection<Model>()
        let model = try #require(first.add(["id": 1, "a": 1]))
        second.add(model)
        var seen: [String] = []
        first.on("change") { _ in seen.append("first") }
        second.on("change") { _ in seen.append("second") }
        first.remove(model)
        model.set("a", 2)
        #expect(seen == ["second"])
        #expect(model.handlerCount == 1)
    }

    @Test func aForwarderWhoseCollectionIsGoneIsDroppedByTheNextEvent() {
        let model = Model(["id": 1])
        do {
            let collection = Collection<Model>()
            collection.add(model)
            #expect(model.handlerCount == 1)
        }
        model.trigger("ping")
        #expect(model.handlerCount == 0)
    }

    @Test func listeningCreatesTheStateOfBothSidesAndStoppingEndsTheRelationship() {
        let listener = EventEmitter()
        let target = Model()
        var count = 0
        listener.listenTo(target, "ping") { _ in count += 1 }
        #expect(listener.hasEmitterState && target.hasEmitterState)
        target.trigger("ping")
        listener.stopListening()
        target.trigger("ping")
        #expect(count == 1)
        #expect(listener.listeningToCount == 0 && target.listenerCount == 0)
    }
}
