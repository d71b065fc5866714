import Testing

@testable import Keel

/// An event keeps its collection and index inline, or with its rarer properties out of line,
/// and every combination reads back as it was given; the options of a `change` move into the
/// event, and a trigger's name and value reach every handler on each of its paths.
struct EventContextTests {
    @Test func anEventWithNeitherCollectionNorIndexReportsNeither() {
        let model = Model(["a": 1])
        let event = Event(name: "change", model: model)
        #expect(event.model === model)
        #expect(event.collection == nil)
        #expect(event.index == nil)
        #expect(event.changes == nil)
    }

    @Test func aCollectionAndAnIndexAloneAreKept() {
        let collection = Collection<Model>()
        let model = Model(["a": 1])
        let event = Event(name: "add", model: model, collection: collection, index: 2)
        #expect(event.collection === collection)
        #expect(event.index == 2)
        #expect(event.model === model)
        #expect(event.error == nil)
    }

    @Test func anIndexWithoutACollectionIsKept() {
        let event = Event(name: "remove", index: 1)
        #expect(event.index == 1)
        #expect(event.collection == nil)
    }

    @Test func aCollectionAndIndexWithARarerPropertyAreAllKept() {
        let collection = Collection<Model>()
        let added = Model(["a": 1])
        let changes = CollectionChanges(added: [added], removed: [], merged: [])
        let event = Event(name: "update", collection: collection, index: 3, changes: changes)
        #expect(event.collection === collection)
        #expect(event.index == 3)
        #expect(event.changes?.added.first === added)
        let error = Event(name: "invalid", collection: collection, error: ValidationError("bad"))
        #expect(error.collection === collection)
        #expect(error.index == nil)
        #expect(error.validationError?.messages == ["bad"])
    }

    @Test func collectionEventsCarryTheirCollectionAndIndex() {
        let collection = Collection<Model>([["id": 1], ["id": 2]])
        var events: [Event] = []
        collection.on("add remove update") { events.append($0) }
        _ = collection.add(Model(["id": 3]), at: 1)
        _ = collection.remove(collection[0])
        #expect(events.map(\.name) == ["add", "update", "remove", "update"])
        #expect(events.allSatisfy { $0.collection === collection })
        #expect(events.map(\.index) == [1, nil, 0, nil])
        #expect(events[1].changes?.added.count == 1)
        #expect(events[3].changes?.removed.count == 1)
    }

    @Test func eachPendingChangeCarriesTheOptionsOfItsSet() {
        let model = Model(["a": 1])
        var outer = ChangeOptions()
        outer.custom["call"] = "outer"
        var inner = ChangeOptions()
        inner.custom["call"] = "inner"
        var calls: [JSONValue?] = []
        model.on("change:a") { _ in _ = model.set(["b": 2], options: inner) }
        model.on("change") { event in calls.append(event.options.custom["call"]) }
        _ = model.set(["a": 2], options: outer)
        #expect(calls == ["inner"])
        #expect(model["b"] == 2)
        // The nested set changes nothing now, so the outer set's options stay pending.
        _ = model.set(["a": 3], options: outer)
        #expect(calls == ["inner", "outer"])
        _ = model.set(["b": 5], options: outer)
        #expect(calls == ["inner", "outer", "outer"])
    }

    @Test func aTriggeredValueReachesTheHandlersOnEveryPath() {
        let emitter = EventEmitter()
        var seen: [String] = []
        emitter.on("all") { event in seen.append("all \(event.name) \(event.value?.intValue ?? -1)") }
        emitter.on("ping") { event in seen.append("ping \(event.value?.stringValue ?? "")") }
        let name = "ping"
        let value: JSONValue = "shared"
        emitter.trigger(name, value)
        emitter.trigger("ping pong", 4)
        emitter.trigger("pong", 5)
        #expect(name == "ping" && value == "shared")
        #expect(
            seen == [
                "ping shared", "all ping -1", "ping ", "all ping 4", "all pong 4", "all pong 5",
            ]
        )
    }
}
