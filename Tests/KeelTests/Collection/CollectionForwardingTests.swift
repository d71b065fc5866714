import Testing

@testable import Keel

/// A model forwards an event to its collection by looking at the collection's handlers first: an
/// event that the collection neither acts on nor has a handler for (nor an `all` handler) goes no
/// further.
///
/// These tests cover the events that skip the collection and those that must still reach it.
struct CollectionForwardingTests {
    // MARK: - Skipped

    @Test func anEventWithoutCollectionHandlersIsSkippedAndTheOthersStillArrive() throws {
        let collection = Collection<Model>([["id": 1, "title": "a"]])
        let model = try #require(collection.first)
        var titles: [JSONValue?] = []
        collection.on("change:title") { titles.append($0.value) }
        model.set(["title": "b"])
        model.set(["title": "c"])
        #expect(titles == ["b", "c"])
        #expect(collection.handlerCount == 1)
    }

    @Test func aCollectionWithoutHandlersStillKeepsItsModelsEvents() throws {
        let collection = Collection<Model>([["id": 1, "title": "a"]])
        let model = try #require(collection.first)
        var modelEvents: [String] = []
        model.on("all") { modelEvents.append($0.name) }
        model.set(["title": "b"])
        #expect(modelEvents == ["change:title", "change"])
        #expect(model["title"] == "b")
    }

    @Test func handlersRemovedFromTheCollectionStopReceivingForwardedEvents() throws {
        let collection = Collection<Model>([["id": 1, "title": "a"]])
        let model = try #require(collection.first)
        var count = 0
        collection.on("change") { _ in count += 1 }
        model.set(["title": "b"])
        collection.off("change")
        model.set(["title": "c"])
        #expect(count == 1)
    }

    // MARK: - Not skipped

    @Test func anAllHandlerOnTheCollectionReceivesEveryForwardedEvent() throws {
        let collection = Collection<Model>([["id": 1, "title": "a"]])
        let model = try #require(collection.first)
        let log = CollectionEventLog(collection)
        model.set(["title": "b"], options: ChangeOptions(custom: ["source": "form"]))
        #expect(log.names == ["change:title", "change"])
        #expect(log.events.allSatisfy { $0.model === model && $0.options["source"] == "form" })
        #expect(log.events.first?.value == "b")
    }

    @Test func aHandlerAddedToTheCollectionByTheModelsHandlerGetsTheSameSetsChange() throws {
        let collection = Collection<Model>([["id": 1, "title": "a"]])
        let model = try #require(collection.first)
        var changes = 0
        model.once("change:title") { _ in collection.on("change") { _ in changes += 1 } }
        model.set(["title": "b"])
        #expect(changes == 1)
    }

    @Test func aHandlerAddedByTheCollectionsOwnHandlerGetsTheNextEvent() throws {
        let collection = Collection<Model>([["id": 1, "title": "a"]])
        let model = try #require(collection.first)
        var log: [String] = []
        collection.once("change:title") { _ in
            log.append("change:title")
            collection.on("all") { log.append("all " + $0.name) }
        }
        model.set(["title": "b"])
        #expect(log == ["change:title", "all change"])
    }

    @Test func aModelInTwoCollectionsReachesTheOneWithHandlers() throws {
        let model = Model(["id": 1, "title": "a"])
        let quiet = Collection<Model>([model])
        let loud = Collection<Model>([model])
        var names: [String] = []
        loud.on("all") { names.append($0.name) }
        model.set(["title": "b"])
        #expect(names == ["change:title", "change"])
        #expect(quiet.handlerCount == 0)
    }

    @Test func aModelWithHandlersOfItsOwnStillForwards() throws {
        let collection = Collection<Model>([["id": 1, "title": "a"]])
        let model = try #require(collection.first)
        var log: [String] = []
        model.on("change:title") { _ in log.append("model") }
        collection.on("change:title") { _ in log.append("collection") }
        model.set(["title": "b"])
        #expect(log == ["model", "collection"])
    }

    @Test func aChangedIdIsReindexedByACollectionWithoutHandlers() throws {
        let collection = Collection<Model>([["id": 1, "title": "a"]])
        let model = try #require(collection.first)
        model.set(["id": 5])
        #expect(collection.get(5) === model)
        #expect(collection.get(1) == nil)
    }

    @Test func aDestroyedModelLeavesACollectionWithoutHandlers() throws {
        let collection = Collection<Model>([["id": 1], ["id": 2]])
        let model = try #require(collection.first)
        model.trigger(Event(name: "destroy", model: model))
        #expect(collection.count == 1)
        #expect(collection.get(1) == nil)
    }

    @Test func anotherCollectionsAddIsStillNotForwarded() {
        let model = Model(["id": 1])
        let first = Collection<Model>([model])
        let second = Collection<Model>()
        var names: [String] = []
        first.on("all") { names.append($0.name) }
        second.add(model)
        #expect(names.isEmpty)
    }

    // MARK: - Lifetime

    @Test func aModelOutlivingItsCollectionSetsWithoutForwarding() throws {
        var collection: Collection<Model>? = Collection<Model>([["id": 1, "title": "a"]])
        let model = try #require(collection?.first)
        collection = nil
        var names: [String] = []
        model.on("all") { names.append($0.name) }
        model.set(["title": "b"])
        #expect(names == ["change:title", "change"])
        #expect(model.handlerCount == 1)
    }

    @Test func aCollectionWhoseDeinitHasStartedReceivesNoForwardedEvent() {
        let model = Model(["id": 1, "title": "a"])
        var received = 0
        var collection: NotifyingCollection? = NotifyingCollection([model])
        collection?.on("change:title") { _ in received += 1 }
        collection?.onDeinit = { model.set(["title": "b"]) }
        collection = nil
        #expect(received == 0)
        #expect(model["title"] == "b")
        #expect(model.handlerCount == 0)
    }
}
