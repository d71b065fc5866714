import Testing

@testable import Keel

/// A model's `change` event is built only when a handler will receive it, and handlers without
/// owner, `once` or forwarding run after one test: the events that are delivered, and to whom,
/// stay those of Backbone.
struct ChangeEventTargetTests {
    @Test func aCollectionAllHandlerSeesTheChangeEventsOfAModelWithoutHandlers() throws {
        let notes = Collection<Model>([["id": 1, "title": "a"]])
        let note = try #require(notes.first)
        var names: [String] = []
        notes.on("all") { event in names.append(event.name) }
        note.set(["title": "b"])
        #expect(names == ["change:title", "change"])
    }

    @Test func aCollectionChangeHandlerReceivesTheModelAndTheOptions() throws {
        let notes = Collection<Model>([["id": 1, "title": "a"]])
        let note = try #require(notes.first)
        var received: [Event] = []
        notes.on("change") { event in received.append(event) }
        note.set(["title": "b"], options: ChangeOptions(custom: ["source": "form"]))
        let event = try #require(received.first)
        #expect(received.count == 1)
        #expect(event.name == "change" && event.model === note && event.value == nil)
        #expect(event.options["source"] == "form")
    }

    @Test func aChangeEventKeptByAHandlerStaysReadableAfterLaterSets() {
        let note = Model(["title": "a"])
        var kept: [Event] = []
        note.on("change:title change") { event in kept.append(event) }
        note.set(["title": "b"])
        note.set(["title": "c"])
        note.unset("title")
        #expect(kept.map(\.name) == ["change:title", "change", "change:title", "change", "change:title", "change"])
        #expect(kept.map(\.value) == ["b", nil, "c", nil, nil, nil])
        #expect(kept.allSatisfy { $0.model === note })
    }

    @Test func aCollectionHandlerAddedDuringAnAttributeEventReceivesTheChangeEvent() throws {
        let notes = Collection<Model>([["id": 1, "title": "a"]])
        let note = try #require(notes.first)
        var changes = 0
        notes.on("change:title") { _ in
            if changes == 0 { notes.on("change") { _ in changes += 1 } }
        }
        note.set(["title": "b"])
        #expect(changes == 1)
    }

    @Test func aCollectionHandlerRemovedDuringAnAttributeEventMissesTheChangeEvent() throws {
        let notes = Collection<Model>([["id": 1, "title": "a"]])
        let note = try #require(notes.first)
        var changes = 0
        let subscription = notes.on("change") { _ in changes += 1 }
        notes.on("change:title") { _ in notes.off(subscription) }
        note.set(["title": "b"])
        #expect(changes == 0)
    }

    @Test func aNestedSetInACollectionChangeHandlerFiresChangeAgain() throws {
        let notes = Collection<Model>([["id": 1, "title": "a"]])
        let note = try #require(notes.first)
        var titles: [String] = []
        notes.on("change") { event in
            titles.append(event.model?["title"]?.stringValue ?? "")
            if titles.count == 1 { note.set(["title": "c"]) }
        }
        note.set(["title": "b"])
        #expect(titles == ["b", "c"])
        #expect(note.previous("title") == "a")
        #expect(note.changedAttributes() == ["title": "c"])
    }

    @Test func aSilentSetBuildsNoEventForTheCollection() throws {
        let notes = Collection<Model>([["id": 1, "title": "a"]])
        let note = try #require(notes.first)
        var names: [String] = []
        notes.on("all") { event in names.append(event.name) }
        note.set(["title": "b"], silent: true)
        #expect(names.isEmpty)
        #expect(note["title"] == "b")
    }

    @Test func aModelOfAGoneCollectionStillChangesAndDropsTheForwarder() {
        let note = Model(["id": 1, "title": "a"])
        do {
            let notes = Collection<Model>()
            notes.add(note)
            #expect(note.handlerCount == 1)
        }
        note.set(["title": "b"])
        #expect(note["title"] == "b")
        #expect(note.handlerCount == 0)
    }

    @Test func onceAndOwnedHandlersKeepTheirRulesBesidePlainOnes() {
        let emitter = EventEmitter()
        var calls: [String] = []
        emitter.on("ping") { _ in calls.append("plain") }
        emitter.once("ping") { _ in calls.append("once") }
        var owner: EventEmitter? = EventEmitter()
        emitter.on("ping", owner: owner) { _ in calls.append("owned") }
        emitter.trigger("ping", 1)
        owner = nil
        emitter.trigger("ping", 2)
        #expect(calls == ["plain", "once", "owned", "plain"])
        #expect(emitter.handlerCount == 1)
    }

    @Test func aPlainHandlerAddedDuringATriggerRunsFromTheNextOne() {
        let emitter = EventEmitter()
        var calls: [String] = []
        emitter.on("ping") { _ in
            calls.append("first")
            if calls.count == 1 { emitter.on("ping") { _ in calls.append("added") } }
        }
        emitter.trigger("ping", 1)
        emitter.trigger("ping", 2)
        #expect(calls == ["first", "first", "added"])
    }
}
