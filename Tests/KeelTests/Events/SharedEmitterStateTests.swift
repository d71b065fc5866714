import Testing

@testable import Keel

/// The models an identity map builds into one collection have the same handlers (the map's
/// followers and the collection's forwarder), so they share one handler state; a model copies it
/// before anything changes its handlers, so each behaves as if it had a state of its own.
struct SharedEmitterStateTests {
    final class Item: Model {
        override class var urlRoot: String? { "/items" }
    }

    private func items(_ map: IdentityMap) -> Collection<Item> {
        Collection<Item>(factory: map.factory(for: Item.self, collection: "/items"))
    }

    @Test func modelsAMapBuiltIntoOneCollectionShareOneState() throws {
        let map = IdentityMap()
        let collection = items(map)
        let models = collection.add([["id": 1], ["id": 2]])
        let first = try #require(models.first?.existingState)
        let second = try #require(models.last?.existingState)

        #expect(first === second)
        #expect(first.isShared)
        #expect(models.allSatisfy { $0.handlerCount == 3 })
    }

    @Test func aHandlerAddedToOneModelRunsForItAloneAndTheMapStillFollowsBoth() throws {
        let map = IdentityMap()
        let collection = items(map)
        let models = collection.add([["id": 1, "title": "a"], ["id": 2, "title": "b"]])
        let first = try #require(models.first)
        let second = try #require(models.last)
        var own: [Int] = []
        var forwarded: [Int] = []
        first.on("change:title") { _ in own.append(1) }
        collection.on("change:title") { event in forwarded.append(event.model?["id"]?.intValue ?? 0) }

        first["title"] = "A"
        second["title"] = "B"
        first["id"] = 10
        second["id"] = 20

        #expect(own == [1])
        #expect(forwarded == [1, 2])
        #expect(first.existingState !== second.existingState)
        #expect(second.existingState?.isShared == true)
        #expect(map.existing(Item.self, id: 10, in: "/items") === first)
        #expect(map.existing(Item.self, id: 20, in: "/items") === second)
        #expect(map.existing(Item.self, id: 1, in: "/items") == nil)
    }

    @Test func aModelRemovedFromTheCollectionStopsForwardingAndStaysFollowed() throws {
        let map = IdentityMap()
        let collection = items(map)
        let models = collection.add([["id": 1, "title": "a"], ["id": 2, "title": "b"]])
        let first = try #require(models.first)
        let second = try #require(models.last)
        var forwarded: [Int] = []
        collection.on("change:title") { event in forwarded.append(event.model?["id"]?.intValue ?? 0) }

        collection.remove(first)
        first["title"] = "A"
        second["title"] = "B"
        first["id"] = 10

        #expect(forwarded == [2])
        #expect(first.handlerCount == 2)
        #expect(second.handlerCount == 3)
        #expect(first.existingState?.isShared == true)
        #expect(map.existing(Item.self, id: 10, in: "/items") === first)
    }

    @Test func aHandlerAddedDuringADispatchRunsFromTheNextEventOnThatModelOnly() throws {
        let map = IdentityMap()
        let collection = items(map)
        let models = collection.add([["id": 1, "n": 0], ["id": 2, "n": 0]])
        let first = try #require(models.first)
        let second = try #require(models.last)
        var added = false
        var calls = 0
        collection.on("change:n") { event in
            guard !added, event.model === first else { return }
            added = true
            first.on("change:n") { _ in calls += 1 }
        }

        first["n"] = 1
        #expect(calls == 0)
        first["n"] = 2
        second["n"] = 1
        #expect(calls == 1)
    }

    @Test func aModelThatLeavesAStateOnlyItHeldDuringADispatchKeepsItUntilTheDispatchEnds() throws {
        let map = IdentityMap()
        let older = items(map)
        let newer = items(map)
        let first = try #require(older.add(["id": 1, "n": 0]))
        // The map's shared state now names the newer collection's forwarder: the first model's
        // state, with the older one's, is held by that model alone.
        newer.add(["id": 2, "n": 0])
        var runs = 0
        older.on("change:n") { _ in
            first.on("change:n") { _ in runs += 1 }
            map.unregister(first)
        }

        first["n"] = 1
        first["n"] = 2

        #expect(runs == 1)
        #expect(map.existing(Item.self, id: 1, in: "/items") == nil)
        #expect(map.existing(Item.self, id: 2, in: "/items") != nil)
    }

    @Test func aReleasedCollectionLeavesItsModelsTheMapsSharedState() throws {
        let map = IdentityMap()
        let kept = map.model(Item.self, collection: "/items", attributes: ["id": 3])
        var model: Item?
        do {
            let collection = items(map)
            model = collection.add(["id": 1])
        }
        let first = try #require(model)

        #expect(first.handlerCount == 2)
        #expect(first.existingState === kept.existingState)
        first["id"] = 10
        #expect(map.existing(Item.self, id: 10, in: "/items") === first)
    }

    @Test func theSharedStatesGoWithTheMapTheCollectionAndTheModels() throws {
        weak var shared: EmitterState?
        weak var root: EmitterState?
        do {
            let map = IdentityMap()
            let collection = items(map)
            let model = try #require(collection.add(["id": 1]))
            shared = model.existingState
            root = shared?.sharing?.base
            #expect(root != nil)
        }
        #expect(shared == nil)
        #expect(root == nil)
    }
}
