import Foundation
import Testing

@testable import Keel

/// The fast paths of triggering and listening keep Backbone's behaviour: a name with
/// handlers of its own is dispatched without splitting, a string of several names is still
/// split, events built for `trigger` carry their arguments, and an emitter's `listenTo`
/// bookkeeping works past the size where it switches from an array to a dictionary.
struct CheapEventsTests {
    @Test func aNameWithHandlersRunsThemThenTheAllHandlers() {
        let emitter = EventEmitter()
        var calls: [String] = []
        emitter.on("all") { event in calls.append("all \(event.name)") }
        emitter.on("ping") { event in calls.append("ping \(event.value?.intValue ?? -1)") }
        emitter.trigger("ping", 7)
        #expect(calls == ["ping 7", "all ping"])
    }

    @Test func severalNamesAreSplitWhenOneOfThemHasHandlers() {
        let emitter = EventEmitter()
        var names: [String] = []
        emitter.on("a") { event in names.append(event.name) }
        emitter.on("b") { event in names.append(event.name) }
        emitter.trigger("a b", 1)
        emitter.trigger("a\tb")
        #expect(names == ["a", "b", "a", "b"])
    }

    @Test func aNameWithoutHandlersStillReachesTheAllHandlers() {
        let emitter = EventEmitter()
        var names: [String] = []
        emitter.on("all") { event in names.append(event.name) }
        emitter.on("other") { _ in names.append("other") }
        emitter.trigger("ping pong", 1)
        #expect(names == ["ping", "pong"])
    }

    @Test func triggeredEventsCarryTheirArguments() {
        let emitter = EventEmitter()
        var events: [Event] = []
        emitter.on("ping") { events.append($0) }
        emitter.trigger("ping")
        emitter.trigger("ping", 1)
        emitter.trigger("ping", 1, "two")
        #expect(events.map(\.value) == [nil, 1, 1])
        #expect(events.map(\.arguments) == [[], [1], [1, "two"]])
        #expect(events.allSatisfy { $0.model == nil && $0.collection == nil && $0.index == nil })
        #expect(events.allSatisfy { !$0.options.silent && $0.options.custom.isEmpty })
    }

    @Test func thePublicInitializerKeepsEachRarelySetProperty() {
        let request = SyncRequest(method: .read, url: URL(string: "http://127.0.0.1/notes")!)
        let event = Event(name: "request", request: request)
        #expect(event.request?.url.path == "/notes")
        #expect(Event(name: "changeId", previousID: 3).previousID == 3)
        #expect(Event(name: "reset", previousModels: []).previousModels?.isEmpty == true)
        #expect(Event(name: "plain").request == nil)
    }

    @Test func aListenerOfManyEmittersStopsListeningToAll() {
        let listener = EventEmitter()
        let targets = (0..<40).map { _ in EventEmitter() }
        var calls = 0
        for target in targets { listener.listenTo(target, "change") { _ in calls += 1 } }
        #expect(listener.listeningToCount == 40)
        for target in targets { target.trigger("change") }
        #expect(calls == 40)
        listener.stopListening(targets[3])
        #expect(listener.listeningToCount == 39)
        listener.stopListening()
        #expect(listener.listeningToCount == 0)
        #expect(targets.allSatisfy { $0.listenerCount == 0 && $0.handlerCount == 0 })
        for target in targets { target.trigger("change") }
        #expect(calls == 40)
    }

    @Test func anEmitterListenedToByManyForgetsEachListenerThatStops() {
        let target = EventEmitter()
        let listeners = (0..<40).map { _ in EventEmitter() }
        for listener in listeners { listener.listenTo(target, "change") { _ in } }
        #expect(target.listenerCount == 40)
        for listener in listeners.prefix(30) { listener.stopListening() }
        #expect(target.listenerCount == 10)
        #expect(target.handlerCount == 10)
    }
}
