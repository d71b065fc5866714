import Testing

@testable import Keel

struct EventMapTests {
    @Test func onceWithAMapFiresEachHandlerOnce() {
        let bus = EventEmitter()
        var calls: [String] = []
        bus.once(["a b": { calls.append("ab:" + $0.name) }, "c": { calls.append("c:" + $0.name) }])
        bus.trigger("a b c a b c")
        #expect(calls == ["ab:a", "ab:b", "c:c"])
        #expect(bus.handlerCount == 0)
    }

    @Test func listenToWithAMapRegistersEveryHandlerAndStopsTogether() {
        let listener = EventEmitter()
        let target = EventEmitter()
        var calls: [String] = []
        listener.listenTo(target, ["a": { calls.append($0.name) }, "b c": { calls.append($0.name) }])
        target.trigger("a b c")
        #expect(calls == ["a", "b", "c"])
        listener.stopListening(target)
        target.trigger("a b c")
        #expect(calls.count == 3)
        #expect(listener.listeningToCount == 0)
        #expect(target.listenerCount == 0)
    }

    @Test func listenToOnceWithAMapCleansUpAfterEveryHandlerFired() {
        let listener = EventEmitter()
        let target = EventEmitter()
        var calls = 0
        listener.listenToOnce(target, ["a": { _ in calls += 1 }, "b": { _ in calls += 1 }])
        target.trigger("a")
        #expect(listener.listeningToCount == 1)
        target.trigger("a b b")
        #expect(calls == 2)
        #expect(listener.listeningToCount == 0)
        #expect(target.handlerCount == 0)
    }

    @Test func cancellingTheTokenOfAMapRemovesEveryHandler() {
        let listener = EventEmitter()
        let target = EventEmitter()
        var calls = 0
        let token = listener.listenTo(target, ["a": { _ in calls += 1 }, "b": { _ in calls += 1 }])
        token.cancel()
        target.trigger("a b")
        #expect(calls == 0)
        #expect(listener.listeningToCount == 0)
    }
}
