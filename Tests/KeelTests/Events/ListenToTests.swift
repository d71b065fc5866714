import Testing

@testable import Keel

/// Backbone's test/events.js: `listenTo`, `listenToOnce` and `stopListening`, with the
/// bookkeeping that both sides of a relationship keep, read through the internal counts.
struct ListenToTests {
    /// The ways the listener can end one `listenTo` relationship.
    enum StopListening: CaseIterable, Sendable {
        /// `stopListening()`
        case everything
        /// `stopListening(target)`
        case target
        /// `stopListening(target, name)`
        case targetAndName
        /// Cancelling the token that `listenTo` returned (Backbone passes the callback).
        case token
    }

    /// The ways the target can remove a listener's handlers with `off`.
    enum TargetOff: CaseIterable, Sendable {
        /// `off()`
        case everything
        /// `off(name)`
        case name
        /// `off(token)` (Backbone: `off(null, callback)`)
        case token
        /// `off(owner: listener)` (Backbone: `off(null, null, listener)`)
        case owner
    }

    // MARK: - listenTo and stopListening

    // Backbone: "listenTo and stopListening"
    @Test func stopListeningRemovesEveryListenToHandler() {
        let a = EventEmitter()
        let b = EventEmitter()
        var calls = 0
        var unexpected = 0
        a.listenTo(b, "all") { _ in calls += 1 }
        b.trigger("anything")
        a.listenTo(b, "all") { _ in unexpected += 1 }
        a.stopListening()
        b.trigger("anything")
        #expect(calls == 1)
        #expect(unexpected == 0)
    }

    // Backbone: "listenTo and stopListening with event maps" (the first one)
    @Test func stopListeningToOneNameLeavesTheOtherNamesAndTheTargetsOwnHandlers() {
        let a = EventEmitter()
        let b = EventEmitter()
        var calls: [String] = []
        // Adapted: Keel's `listenTo` takes names, not event maps.
        a.listenTo(b, "event") { calls.append("a:" + $0.name) }
        b.trigger("event")
        a.listenTo(b, "event2") { calls.append("a:" + $0.name) }
        b.on("event2") { calls.append("b:" + $0.name) }
        a.stopListening(b, "event2")
        b.trigger("event event2")
        a.stopListening()
        b.trigger("event event2")
        #expect(calls == ["a:event", "a:event", "b:event2", "b:event2"])
    }

    // Backbone: "stopListening with omitted args"
    @Test func stopListeningWithoutTargetRemovesTheNameFromEveryTarget() {
        let a = EventEmitter()
        let b = EventEmitter()
        var calls: [String] = []
        a.listenTo(b, "event") { calls.append("a:" + $0.name) }
        b.on("event") { calls.append("b:" + $0.name) }
        a.listenTo(b, "event2") { calls.append("a:" + $0.name) }
        // Adapted: `stopListening(null, {event: cb})` becomes `stopListening(nil, "event")`.
        a.stopListening(nil, "event")
        b.trigger("event event2")
        #expect(calls == ["b:event", "a:event2"])

        b.off()
        a.listenTo(b, "event event2") { calls.append("a:" + $0.name) }
        a.stopListening(nil, "event")
        a.stopListening()
        b.trigger("event2")
        #expect(calls == ["b:event", "a:event2"])
    }

    @Test func stopListeningWithoutTargetCoversSeveralTargets() {
        let listener = EventEmitter()
        let b = EventEmitter()
        let c = EventEmitter()
        var calls: [String] = []
        listener.listenTo(b, "x y") { calls.append("b:" + $0.name) }
        listener.listenTo(c, "x y") { calls.append("c:" + $0.name) }
        listener.stopListening(nil, "x")
        b.trigger("x y")
        c.trigger("x y")
        #expect(calls == ["b:y", "c:y"])
        #expect(listener.listeningToCount == 2)
    }

    @Test func stopListeningToOneTargetKeepsListeningToOthers() {
        let listener = EventEmitter()
        let b = EventEmitter()
        let c = EventEmitter()
        var calls: [String] = []
        listener.listenTo(b, "x") { _ in calls.append("b") }
        listener.listenTo(c, "x") { _ in calls.append("c") }
        #expect(listener.listeningToCount == 2)
        listener.stopListening(b)
        b.trigger("x")
        c.trigger("x")
        #expect(calls == ["c"])
        #expect(listener.listeningToCount == 1)
        #expect(b.listenerCount == 0)
        #expect(c.listenerCount == 1)
    }

    // Backbone: "listenTo and stopListening with event maps" (the second one)
    @Test func stopListeningRemovesEveryHandlerForTheSameName() {
        let a = EventEmitter()
        let b = EventEmitter()
        var calls = 0
        var unexpected = 0
        // Adapted: `listenTo(b, {change: fn})` becomes `listenTo(b, "change", fn)`.
        a.listenTo(b, "change") { _ in calls += 1 }
        b.trigger("change")
        a.listenTo(b, "change") { _ in unexpected += 1 }
        a.stopListening()
        b.trigger("change")
        #expect(calls == 1)
        #expect(unexpected == 0)
    }

    @Test func listenToDeliversTheTargetsEvents() throws {
        let view = EventEmitter()
        let note = Model(["title": "a"])
        var received: [Event] = []
        view.listenTo(note, "change:title") { received.append($0) }
        note["title"] = "b"
        let event = try #require(received.first)
        #expect(received.count == 1)
        #expect(event.model === note)
        #expect(event.value == "b")
    }

    @Test func cancellingAListenToTokenRemovesItsHandlersAndBookkeeping() {
        let a = EventEmitter()
        let b = EventEmitter()
        var calls = 0
        let token = a.listenTo(b, "x y") { _ in calls += 1 }
        #expect(b.handlerCount == 2)
        token.cancel()
        b.trigger("x y")
        #expect(calls == 0)
        #expect(b.handlerCount == 0)
        #expect(a.listeningToCount == 0)
        #expect(b.listenerCount == 0)
    }

    @Test func listenToAndListenToOnceShareOneRelationshipPerTarget() {
        let a = EventEmitter()
        let b = EventEmitter()
        a.listenTo(b, "x") { _ in }
        a.listenToOnce(b, "y") { _ in }
        a.listenTo(b, "z w") { _ in }
        #expect(a.listeningToCount == 1)
        #expect(b.listenerCount == 1)
        #expect(b.handlerCount == 4)
        b.trigger("y")
        #expect(a.listeningToCount == 1)
        #expect(b.handlerCount == 3)
    }

    @Test func stopListeningToANameNotListenedToChangesNothing() {
        let a = EventEmitter()
        let b = EventEmitter()
        var calls = 0
        a.listenTo(b, "x") { _ in calls += 1 }
        a.stopListening(b, "other")
        a.stopListening(EventEmitter())
        b.trigger("x")
        #expect(calls == 1)
        #expect(a.listeningToCount == 1)
        #expect(b.listenerCount == 1)
    }

    // MARK: - listenToOnce

    // Backbone: "listenToOnce"
    @Test func listenToOnceHandlersRunOnceDespiteANestedTrigger() {
        let emitter = EventEmitter()
        var counterA = 0
        var counterB = 0
        emitter.listenToOnce(emitter, "event") { _ in
            counterA += 1
            emitter.trigger("event")
        }
        emitter.listenToOnce(emitter, "event") { _ in counterB += 1 }
        emitter.trigger("event")
        #expect(counterA == 1)
        #expect(counterB == 1)
    }

    // Backbone: "listenToOnce and stopListening"
    @Test func stopListeningRemovesPendingListenToOnceHandlers() {
        let a = EventEmitter()
        let b = EventEmitter()
        var calls = 0
        var unexpected = 0
        a.listenToOnce(b, "all") { _ in calls += 1 }
        b.trigger("anything")
        b.trigger("anything")
        a.listenToOnce(b, "all") { _ in unexpected += 1 }
        a.stopListening()
        b.trigger("anything")
        #expect(calls == 1)
        #expect(unexpected == 0)
    }

    // Backbone: "listenTo, listenToOnce and stopListening"
    @Test func stopListeningAfterAListenToOnceHasFiredRemovesLaterListenTo() {
        let a = EventEmitter()
        let b = EventEmitter()
        var calls = 0
        var unexpected = 0
        a.listenToOnce(b, "all") { _ in calls += 1 }
        b.trigger("anything")
        b.trigger("anything")
        a.listenTo(b, "all") { _ in unexpected += 1 }
        a.stopListening()
        b.trigger("anything")
        #expect(calls == 1)
        #expect(unexpected == 0)
    }

    // Backbone: "#3448 - listenToOnce with space-separated events"
    @Test func listenToOnceWithSpaceSeparatedNamesRunsOncePerName() {
        let one = EventEmitter()
        let two = EventEmitter()
        var values: [JSONValue?] = []
        one.listenToOnce(two, "x y") { values.append($0.value) }
        two.trigger("x", 1)
        two.trigger("x", 1)
        two.trigger("y", 2)
        two.trigger("y", 2)
        #expect(values == [1, 2])
        #expect(one.listeningToCount == 0)
    }

    // MARK: - Listening to yourself

    // Backbone: "listenTo yourself"
    @Test func emitterCanListenToItself() {
        let emitter = EventEmitter()
        var calls = 0
        emitter.listenTo(emitter, "foo") { _ in calls += 1 }
        emitter.trigger("foo")
        #expect(calls == 1)
    }

    // Backbone: "listenTo yourself cleans yourself up with stopListening"
    @Test func listeningToItselfIsUndoneByStopListening() {
        let emitter = EventEmitter()
        var calls = 0
        emitter.listenTo(emitter, "foo") { _ in calls += 1 }
        emitter.trigger("foo")
        emitter.stopListening()
        emitter.trigger("foo")
        #expect(calls == 1)
        #expect(emitter.listeningToCount == 0)
        #expect(emitter.listenerCount == 0)
        #expect(emitter.handlerCount == 0)
    }

    // MARK: - Bookkeeping cleanup

    // Backbone: "stopListening cleans up references"
    @Test(arguments: StopListening.allCases)
    func stopListeningLeavesNoBookkeeping(_ removal: StopListening) {
        let a = EventEmitter()
        let b = EventEmitter()
        b.on("event") { _ in }
        let token = a.listenTo(b, "event") { _ in }
        #expect(a.listeningToCount == 1)
        #expect(b.listenerCount == 1)
        end(removal, a: a, b: b, token: token)
        #expect(a.listeningToCount == 0)
        #expect(b.handlerCount == 1)
        #expect(b.listenerCount == 0)
    }

    // Backbone: "stopListening cleans up references from listenToOnce"
    @Test(arguments: StopListening.allCases)
    func stopListeningLeavesNoBookkeepingForListenToOnce(_ removal: StopListening) {
        let a = EventEmitter()
        let b = EventEmitter()
        b.on("event") { _ in }
        let token = a.listenToOnce(b, "event") { _ in }
        end(removal, a: a, b: b, token: token)
        #expect(a.listeningToCount == 0)
        #expect(b.handlerCount == 1)
        #expect(b.listenerCount == 0)
    }

    // Backbone: "listenTo and off cleaning up references"
    @Test(arguments: TargetOff.allCases)
    func offOnTheTargetAlsoClearsTheListenersBookkeeping(_ removal: TargetOff) {
        let a = EventEmitter()
        let b = EventEmitter()
        let token = a.listenTo(b, "event") { _ in }
        // Adapted: Backbone's `off(null, fn)` and `off(null, null, a)` become `off(token)`
        // and `off(owner: a)`.
        switch removal {
        case .everything: b.off()
        case .name: b.off("event")
        case .token: b.off(token)
        case .owner: b.off(owner: a)
        }
        #expect(a.listeningToCount == 0)
        #expect(b.listenerCount == 0)
        #expect(b.handlerCount == 0)
    }

    @Test func offOnTheTargetKeepsBookkeepingWhileOtherHandlersRemain() {
        let a = EventEmitter()
        let b = EventEmitter()
        a.listenTo(b, "event other") { _ in }
        b.off("event")
        #expect(a.listeningToCount == 1)
        #expect(b.listenerCount == 1)
        b.off("other")
        #expect(a.listeningToCount == 0)
        #expect(b.listenerCount == 0)
    }

    // Backbone: "listenTo and stopListening cleaning up references"
    @Test func stoppingEachNameInTurnEmptiesTheBookkeeping() {
        let a = EventEmitter()
        let b = EventEmitter()
        var calls = 0
        var unexpected = 0
        a.listenTo(b, "all") { _ in calls += 1 }
        b.trigger("anything")
        a.listenTo(b, "other") { _ in unexpected += 1 }
        a.stopListening(b, "other")
        #expect(a.listeningToCount == 1)
        a.stopListening(b, "all")
        #expect(calls == 1)
        #expect(unexpected == 0)
        #expect(a.listeningToCount == 0)
        #expect(b.listenerCount == 0)
    }

    // Backbone: "listenToOnce without context cleans up references after the event has fired"
    @Test func listenToOnceClearsTheBookkeepingOnceItHasFired() {
        let a = EventEmitter()
        let b = EventEmitter()
        var calls = 0
        a.listenToOnce(b, "all") { _ in calls += 1 }
        b.trigger("anything")
        #expect(calls == 1)
        #expect(a.listeningToCount == 0)
        #expect(b.listenerCount == 0)
        #expect(b.handlerCount == 0)
    }

    // Backbone: "listenToOnce with event maps cleans up references"
    @Test func listenToOnceKeepsTheBookkeepingWhileANameHasNotFired() {
        let a = EventEmitter()
        let b = EventEmitter()
        var calls = 0
        var unexpected = 0
        // Adapted: the event map `{one: …, two: …}` becomes two `listenToOnce` calls.
        a.listenToOnce(b, "one") { _ in calls += 1 }
        a.listenToOnce(b, "two") { _ in unexpected += 1 }
        b.trigger("one")
        #expect(calls == 1)
        #expect(unexpected == 0)
        #expect(a.listeningToCount == 1)
        #expect(b.handlerCount == 1)
    }

    @Test func listenToOnceWithTwoNamesKeepsTheBookkeepingUntilBothFire() {
        let a = EventEmitter()
        let b = EventEmitter()
        a.listenToOnce(b, "one two") { _ in }
        b.trigger("one")
        #expect(a.listeningToCount == 1)
        b.trigger("two")
        #expect(a.listeningToCount == 0)
        #expect(b.listenerCount == 0)
    }

    // MARK: - Helpers

    private func end(_ removal: StopListening, a: EventEmitter, b: EventEmitter, token: Subscription) {
        switch removal {
        case .everything: a.stopListening()
        case .target: a.stopListening(b)
        case .targetAndName: a.stopListening(b, "event")
        // Adapted: `stopListening(b, 'event', fn)` becomes cancelling the token.
        case .token: token.cancel()
        }
    }
}
