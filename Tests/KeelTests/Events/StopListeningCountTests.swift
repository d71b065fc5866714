import Testing

@testable import Keel

/// `stopListening` ends a relationship once, from the number of handlers the target removed,
/// instead of counting each handler off the listener's table: every argument form keeps
/// Backbone's behaviour and leaves both sides' bookkeeping exact.
struct StopListeningCountTests {
    @Test func stoppingSomeNamesOfATargetCountsOffOnlyThoseHandlers() {
        let listener = EventEmitter()
        let target = EventEmitter()
        var calls: [String] = []
        listener.listenTo(target, "a b c") { calls.append($0.name) }
        listener.stopListening(target, "a b")
        #expect(listener.listeningToCount == 1 && target.handlerCount == 1)
        target.trigger("a b c")
        #expect(calls == ["c"])
        listener.stopListening(target, "c")
        #expect(listener.listeningToCount == 0 && target.handlerCount == 0 && target.listenerCount == 0)
    }

    @Test func stoppingANameOnEveryTargetKeepsEachRelationshipWithHandlersLeft() {
        let listener = EventEmitter()
        let first = EventEmitter()
        let second = EventEmitter()
        let third = EventEmitter()
        var calls: [String] = []
        listener.listenTo(first, "x y") { _ in calls.append("first") }
        listener.listenTo(second, "x") { _ in calls.append("second") }
        listener.listenTo(third, "y") { _ in calls.append("third") }
        listener.stopListening(nil, "x")
        #expect(listener.listeningToCount == 2)
        #expect(first.handlerCount == 1 && second.handlerCount == 0 && third.handlerCount == 1)
        for target in [first, second, third] { target.trigger("x y") }
        #expect(calls == ["first", "third"])
        listener.stopListening(nil, "y")
        #expect(listener.listeningToCount == 0)
        #expect(first.listenerCount == 0 && third.listenerCount == 0)
    }

    @Test func stoppingEverythingLeavesTheTargetsOwnHandlersInOrder() {
        let listener = EventEmitter()
        let target = EventEmitter()
        var calls: [String] = []
        target.on("x") { _ in calls.append("before") }
        listener.listenTo(target, "x all") { _ in calls.append("listener") }
        target.on("x") { _ in calls.append("after") }
        target.on("all") { _ in calls.append("all") }
        listener.stopListening()
        target.trigger("x")
        #expect(calls == ["before", "after", "all"])
        #expect(listener.listeningToCount == 0 && target.listenerCount == 0 && target.handlerCount == 3)
    }

    @Test func stoppingEverythingEndsSeveralRelationshipsAtOnce() {
        let listener = EventEmitter()
        let targets = [EventEmitter(), EventEmitter(), EventEmitter()]
        var calls = 0
        for target in targets { listener.listenTo(target, "x y") { _ in calls += 1 } }
        listener.stopListening()
        for target in targets { target.trigger("x y") }
        #expect(calls == 0 && listener.listeningToCount == 0)
        #expect(targets.allSatisfy { $0.handlerCount == 0 && $0.listenerCount == 0 })
    }

    @Test func aListenToOnceThatHasFiredLeavesNothingForStopListening() {
        let listener = EventEmitter()
        let target = EventEmitter()
        var calls = 0
        listener.listenToOnce(target, "x y") { _ in calls += 1 }
        target.trigger("x")
        #expect(listener.listeningToCount == 1 && target.handlerCount == 1)
        listener.stopListening()
        target.trigger("x y")
        #expect(calls == 1 && listener.listeningToCount == 0 && target.handlerCount == 0)
        listener.listenTo(target, "x") { _ in calls += 1 }
        target.trigger("x")
        #expect(calls == 2 && listener.listeningToCount == 1)
    }

    @Test func aTokenCancelledAfterStopListeningChangesNothing() {
        let listener = EventEmitter()
        let target = EventEmitter()
        let token = listener.listenTo(target, "x") { _ in }
        listener.stopListening()
        listener.listenTo(target, "x") { _ in }
        token.cancel()
        #expect(listener.listeningToCount == 1 && target.handlerCount == 1)
    }

    @Test func aHandlerThatStopsItsOwnRelationshipRunsOnceAndLeavesNoBookkeeping() {
        let listener = EventEmitter()
        let target = EventEmitter()
        var calls = 0
        listener.listenTo(target, "x") { _ in
            calls += 1
            listener.stopListening(target)
        }
        target.trigger("x")
        target.trigger("x")
        #expect(calls == 1)
        #expect(listener.listeningToCount == 0 && target.handlerCount == 0)
    }

    @Test func aTargetKeptAliveOnlyByTheRemovedHandlerIsDeallocatedAfterStopListening() {
        let listener = EventEmitter()
        weak var gone: EventEmitter?
        do {
            let target = EventEmitter()
            gone = target
            // The handler keeps its target: removing it releases the target's last reference.
            listener.listenTo(target, "x") { [target] _ in _ = target }
        }
        #expect(gone != nil)
        listener.stopListening()
        #expect(gone == nil)
        #expect(listener.listeningToCount == 0)
    }

    @Test func aListenerDeallocatedWithSeveralTargetsLeavesNoHandlerOnThem() {
        let first = EventEmitter()
        let second = EventEmitter()
        weak var gone: EventEmitter?
        do {
            let listener = EventEmitter()
            gone = listener
            listener.listenTo(first, "x y") { _ in }
            listener.listenTo(second, "x") { _ in }
        }
        #expect(gone == nil)
        #expect(first.handlerCount == 0 && second.handlerCount == 0)
        #expect(first.listenerCount == 0 && second.listenerCount == 0)
    }

    @Test func listeningToItselfAndAnotherIsUndoneByStopListening() {
        let emitter = EventEmitter()
        let other = EventEmitter()
        var calls = 0
        emitter.listenTo(emitter, "x") { _ in calls += 1 }
        emitter.listenTo(other, "x") { _ in calls += 1 }
        emitter.stopListening(nil, "x")
        emitter.trigger("x")
        other.trigger("x")
        #expect(calls == 0)
        #expect(emitter.listeningToCount == 0 && emitter.handlerCount == 0 && other.handlerCount == 0)
    }

    @Test func offOfTheTargetsOnlyNameCountsOffEachListenerOfIt() {
        let first = EventEmitter()
        let second = EventEmitter()
        let target = EventEmitter()
        first.listenTo(target, "x") { _ in }
        first.listenTo(target, "x") { _ in }
        second.listenTo(target, "x") { _ in }
        #expect(first.listeningToCount == 1 && second.listeningToCount == 1 && target.handlerCount == 3)
        target.off("x")
        #expect(first.listeningToCount == 0 && second.listeningToCount == 0)
        #expect(target.handlerCount == 0 && target.listenerCount == 0)
    }

    @Test func stoppingANameWithSeveralHandlersOfTheListenerEndsTheRelationship() {
        let listener = EventEmitter()
        let target = EventEmitter()
        var calls = 0
        listener.listenTo(target, "x") { _ in calls += 1 }
        listener.listenToOnce(target, "x") { _ in calls += 1 }
        listener.stopListening(target, "x")
        target.trigger("x")
        #expect(calls == 0 && listener.listeningToCount == 0 && target.handlerCount == 0)
    }
}
