import Testing

@testable import Keel

/// The listener's record of its `listenTo` relationships: a lone one stored inline, a few in an
/// array, many hashed, each counting the handlers that its target holds, and handlers that reach
/// their listener through its link.
///
/// Every shape keeps Backbone's behaviour.
struct ListeningBookkeepingTests {
    @Test func aSecondRelationshipJoinsTheFirstAndEitherStopsOnItsOwn() {
        let listener = EventEmitter()
        let first = EventEmitter()
        let second = EventEmitter()
        var calls: [String] = []
        listener.listenTo(first, "x") { _ in calls.append("first") }
        #expect(listener.listeningToCount == 1)
        listener.listenTo(second, "x") { _ in calls.append("second") }
        #expect(listener.listeningToCount == 2)
        listener.stopListening(first)
        #expect(listener.listeningToCount == 1)
        first.trigger("x")
        second.trigger("x")
        #expect(calls == ["second"])
        listener.listenTo(first, "x") { _ in calls.append("first again") }
        listener.stopListening(second)
        first.trigger("x")
        second.trigger("x")
        #expect(calls == ["second", "first again"])
        listener.stopListening()
        #expect(listener.listeningToCount == 0)
        #expect(first.handlerCount == 0 && second.handlerCount == 0)
    }

    @Test func aRelationshipCountsEachHandlerUntilTheLastIsGone() {
        let listener = EventEmitter()
        let target = EventEmitter()
        listener.listenTo(target, "a b") { _ in }
        let token = listener.listenTo(target, "c") { _ in }
        #expect(listener.listeningToCount == 1 && target.listenerCount == 1)
        token.cancel()
        target.off("a")
        #expect(listener.listeningToCount == 1)
        target.off("b")
        #expect(listener.listeningToCount == 0 && target.listenerCount == 0)
    }

    @Test func anEventMapWithoutNamesStartsNoRelationship() {
        let listener = EventEmitter()
        let target = EventEmitter()
        let empty: KeyValuePairs<String, (Event) -> Void> = [:]
        listener.listenTo(target, empty)
        listener.listenToOnce(target, empty)
        #expect(listener.listeningToCount == 0 && target.listenerCount == 0)
    }

    @Test func aHandlerAddedByListenToDuringATriggerRunsFromTheNextOne() {
        let listener = EventEmitter()
        let target = EventEmitter()
        var calls = 0
        target.once("x") { _ in listener.listenTo(target, "x") { _ in calls += 1 } }
        target.trigger("x")
        #expect(calls == 0)
        target.trigger("x")
        #expect(calls == 1)
        listener.stopListening()
        #expect(target.handlerCount == 0 && listener.listeningToCount == 0)
    }

    @Test func aListenerThatStopsDuringATriggerStillRunsInThatTrigger() {
        let stopper = EventEmitter()
        let listener = EventEmitter()
        let target = EventEmitter()
        var calls = 0
        stopper.listenTo(target, "x") { _ in listener.stopListening() }
        listener.listenTo(target, "x") { _ in calls += 1 }
        target.trigger("x")
        #expect(calls == 1)
        #expect(listener.listeningToCount == 0 && target.listenerCount == 1)
        target.trigger("x")
        #expect(calls == 1)
    }

    @Test func aListenerDeallocatedDuringATriggerRunsNoMoreHandlers() {
        let target = EventEmitter()
        var listener: EventEmitter? = EventEmitter()
        var calls = 0
        target.on("x") { _ in listener = nil }
        listener?.listenTo(target, "x") { _ in calls += 1 }
        target.trigger("x")
        #expect(calls == 0)
        #expect(target.handlerCount == 1 && target.listenerCount == 0)
    }

    @Test func aTargetDeallocatedFromAmongSeveralLeavesTheOthersListenedTo() {
        let listener = EventEmitter()
        let other = EventEmitter()
        weak var gone: EventEmitter?
        var calls = 0
        listener.listenTo(other, "x") { _ in calls += 1 }
        do {
            let target = EventEmitter()
            gone = target
            listener.listenTo(target, "x") { _ in calls += 1 }
            #expect(listener.listeningToCount == 2)
        }
        #expect(gone == nil)
        #expect(listener.listeningToCount == 1)
        other.trigger("x")
        #expect(calls == 1)
        listener.stopListening()
        #expect(listener.listeningToCount == 0 && other.handlerCount == 0)
    }

    @Test func aTargetDeallocatedLeavesEachOfItsListenersWithoutIt() {
        let listeners = [EventEmitter(), EventEmitter(), EventEmitter()]
        weak var gone: EventEmitter?
        do {
            let target = EventEmitter()
            gone = target
            for listener in listeners { listener.listenTo(target, "x y") { _ in } }
            #expect(target.listenerCount == 3)
        }
        #expect(gone == nil)
        #expect(listeners.allSatisfy { $0.listeningToCount == 0 })
    }

    @Test func aHashedTableFindsEachTargetAsItShrinks() {
        let listener = EventEmitter()
        let targets = (0..<(ListeningTable.linearSearchLimit + 4)).map { _ in EventEmitter() }
        var calls = 0
        for target in targets { listener.listenTo(target, "x") { _ in calls += 1 } }
        for (stopped, target) in targets.enumerated() {
            listener.stopListening(target)
            #expect(listener.listeningToCount == targets.count - stopped - 1)
            #expect(target.handlerCount == 0)
        }
        for target in targets { target.trigger("x") }
        #expect(calls == 0)
        listener.listenTo(targets[0], "x") { _ in calls += 1 }
        targets[0].trigger("x")
        #expect(calls == 1 && listener.listeningToCount == 1)
    }

    @Test func listenToOnceHandlersOfTwoTargetsEachEndTheirOwnRelationship() {
        let listener = EventEmitter()
        let first = EventEmitter()
        let second = EventEmitter()
        var calls = 0
        listener.listenToOnce(first, "x") { _ in calls += 1 }
        listener.listenToOnce(second, "x") { _ in calls += 1 }
        first.trigger("x")
        first.trigger("x")
        #expect(calls == 1 && listener.listeningToCount == 1)
        second.trigger("x")
        #expect(calls == 2 && listener.listeningToCount == 0)
    }

    @Test func aTargetWhoseOnlyNameIsEmptiedDuringItsTriggerFinishesItAndTakesNewHandlers() {
        let listener = EventEmitter()
        let target = EventEmitter()
        var calls: [String] = []
        listener.listenTo(target, "x") { _ in
            calls.append("listener")
            listener.stopListening()
        }
        listener.listenTo(target, "x") { _ in calls.append("second") }
        target.trigger("x")
        #expect(calls == ["listener", "second"])
        #expect(target.handlerCount == 0 && listener.listeningToCount == 0)
        target.on("x") { _ in calls.append("new") }
        target.trigger("x")
        #expect(calls == ["listener", "second", "new"])
    }
}
