import Testing

@testable import Keel

/// Counts the deinitializers that have run.
private final class DeinitCounter {
    var count = 0
}

/// An emitter that reports its deinitialization.
private final class TrackedEmitter: EventEmitter {
    let deinits: DeinitCounter

    init(_ deinits: DeinitCounter) {
        self.deinits = deinits
        super.init()
    }

    deinit { deinits.count += 1 }
}

/// A plain object that reports its deinitialization: an owner, or something a handler captures.
private final class Tracked {
    let deinits: DeinitCounter

    init(_ deinits: DeinitCounter) { self.deinits = deinits }

    deinit { deinits.count += 1 }
}

/// A view-like listener that captures itself weakly, as the documentation advises.
private final class Badge: EventEmitter {
    let deinits: DeinitCounter
    var refreshes = 0

    init(inbox: EventEmitter, deinits: DeinitCounter) {
        self.deinits = deinits
        super.init()
        listenTo(inbox, "add remove") { [weak self] _ in self?.refreshes += 1 }
    }

    deinit { deinits.count += 1 }
}

/// Memory behaviour of events: no emitter keeps its listeners or owners alive, handlers go
/// away with their owners, and nothing is left behind in either side's bookkeeping.
struct EventLifetimeTests {
    // MARK: - Listeners

    @Test func targetDoesNotKeepItsListenerAlive() {
        let target = EventEmitter()
        let deinits = DeinitCounter()
        weak var weakBadge: Badge?
        do {
            let badge = Badge(inbox: target, deinits: deinits)
            weakBadge = badge
            target.trigger("add")
            #expect(badge.refreshes == 1)
            #expect(target.listenerCount == 1)
        }
        #expect(weakBadge == nil)
        #expect(deinits.count == 1)
    }

    @Test func deallocatedListenerStopsListeningByItself() {
        let target = EventEmitter()
        let deinits = DeinitCounter()
        var calls = 0
        do {
            let listener = TrackedEmitter(deinits)
            listener.listenTo(target, "x y") { _ in calls += 1 }
            listener.listenToOnce(target, "z") { _ in calls += 1 }
        }
        #expect(deinits.count == 1)
        #expect(target.handlerCount == 0)
        #expect(target.listenerCount == 0)
        target.trigger("x y z")
        #expect(calls == 0)
    }

    @Test func deallocatedTargetClearsTheListenersBookkeeping() {
        let listener = EventEmitter()
        let deinits = DeinitCounter()
        do {
            let target = TrackedEmitter(deinits)
            listener.listenTo(target, "x") { _ in }
            #expect(listener.listeningToCount == 1)
        }
        #expect(deinits.count == 1)
        #expect(listener.listeningToCount == 0)
        listener.stopListening()
        #expect(listener.listeningToCount == 0)
    }

    @Test func stopListeningWorksOnATargetThatReplacedADeallocatedOne() {
        let listener = EventEmitter()
        var calls = 0
        var leftoverHandlers = 0
        // A new emitter often takes the address (and so the identifier) of one just freed.
        for _ in 0..<10 {
            do {
                let earlier = EventEmitter()
                listener.listenTo(earlier, "x") { _ in }
            }
            let target = EventEmitter()
            listener.listenTo(target, "x") { _ in calls += 1 }
            listener.stopListening(target)
            target.trigger("x")
            leftoverHandlers += target.handlerCount
        }
        #expect(leftoverHandlers == 0)
        #expect(calls == 0)
    }

    @Test func stopListeningLeavesNoBookkeepingOnEitherSide() {
        let listener = EventEmitter()
        let targets = [EventEmitter(), EventEmitter(), Model()]
        for target in targets {
            listener.listenTo(target, "a b") { _ in }
            listener.listenToOnce(target, "c all") { _ in }
        }
        #expect(listener.listeningToCount == 3)
        listener.stopListening()
        #expect(listener.listeningToCount == 0)
        for target in targets {
            #expect(target.listenerCount == 0)
            #expect(target.handlerCount == 0)
        }
    }

    @Test func listenersReleaseTheirClosuresWhenTheyStopListening() {
        let target = EventEmitter()
        let listener = EventEmitter()
        let deinits = DeinitCounter()
        do {
            let captured = Tracked(deinits)
            listener.listenTo(target, "x") { _ in _ = captured }
        }
        #expect(deinits.count == 0)
        listener.stopListening(target)
        #expect(deinits.count == 1)
    }

    // MARK: - Owners

    @Test func emitterDoesNotKeepAHandlersOwnerAlive() {
        let emitter = EventEmitter()
        let deinits = DeinitCounter()
        weak var weakOwner: Tracked?
        do {
            let owner = Tracked(deinits)
            weakOwner = owner
            emitter.on("x", owner: owner) { [weak owner] _ in _ = owner }
        }
        #expect(weakOwner == nil)
        #expect(deinits.count == 1)
    }

    @Test func ownerHeldHandlersDieWithTheOwner() {
        let emitter = EventEmitter()
        var calls: [String] = []
        do {
            let owner = Tracked(DeinitCounter())
            emitter.on("x all", owner: owner) { _ in calls.append("owned") }
            emitter.once("y", owner: owner) { _ in calls.append("owned once") }
        }
        emitter.on("x") { _ in calls.append("free") }
        emitter.trigger("x y")
        #expect(calls == ["free"])
        #expect(emitter.handlerCount == 1)
    }

    @Test func handlersOfADeadOwnerReleaseTheirClosures() {
        let emitter = EventEmitter()
        let captures = DeinitCounter()
        do {
            let owner = Tracked(DeinitCounter())
            let captured = Tracked(captures)
            emitter.on("x", owner: owner) { _ in _ = captured }
        }
        // The emitter notices the dead owner at the next dispatch.
        emitter.trigger("x")
        #expect(captures.count == 1)
    }

    // MARK: - Handlers

    @Test func offReleasesTheHandlerClosures() {
        let emitter = EventEmitter()
        let deinits = DeinitCounter()
        do {
            let captured = Tracked(deinits)
            emitter.on("a b all") { _ in _ = captured }
        }
        emitter.off("a")
        #expect(deinits.count == 0)
        emitter.off()
        #expect(deinits.count == 1)
    }

    @Test func onceHandlerReleasesItsClosureAfterRunning() {
        let emitter = EventEmitter()
        let deinits = DeinitCounter()
        do {
            let captured = Tracked(deinits)
            emitter.once("x") { _ in _ = captured }
        }
        #expect(deinits.count == 0)
        emitter.trigger("x")
        #expect(deinits.count == 1)
    }

    @Test func emitterReleasesItsHandlersWhenDeallocated() {
        let deinits = DeinitCounter()
        let captures = DeinitCounter()
        do {
            let emitter = TrackedEmitter(deinits)
            let captured = Tracked(captures)
            emitter.on("x") { _ in _ = captured }
        }
        #expect(deinits.count == 1)
        #expect(captures.count == 1)
    }

    @Test func subscriptionDoesNotKeepItsEmitterAlive() {
        let deinits = DeinitCounter()
        let token: Subscription
        do {
            let emitter = TrackedEmitter(deinits)
            token = emitter.on("x") { _ in }
        }
        #expect(deinits.count == 1)
        token.cancel()
    }

    // MARK: - Models and collections

    @Test func modelDoesNotKeepItsCollectionAlive() {
        let note = Model(["id": 1])
        weak var weakNotes: Collection<Model>?
        do {
            let notes = Collection<Model>([note])
            weakNotes = notes
            #expect(note.collection === notes)
            #expect(note.handlerCount == 1)
        }
        #expect(weakNotes == nil)
        #expect(note.collection == nil)
        #expect(note.handlerCount == 0)
        note["title"] = "still works"
        #expect(note["title"] == "still works")
    }

    @Test func removingAModelFromItsCollectionStopsForwarding() {
        let note = Model(["id": 1])
        let notes = Collection<Model>([note])
        var names: [String] = []
        notes.on("all") { names.append($0.name) }
        notes.remove(note)
        note["title"] = "x"
        #expect(names == ["remove", "update"])
        #expect(note.handlerCount == 0)
        #expect(note.collection == nil)
    }

    @Test func collectionListeningToItsModelsLeavesNoBookkeepingAfterStopListening() {
        let notes = Collection<Model>([["id": 1], ["id": 2]])
        var titles: [JSONValue?] = []
        for note in notes {
            notes.listenTo(note, "change:title") { titles.append($0.value) }
        }
        notes[0]["title"] = "a"
        #expect(titles == ["a"])
        #expect(notes.listeningToCount == 2)
        notes.stopListening()
        #expect(notes.listeningToCount == 0)
        for note in notes {
            #expect(note.listenerCount == 0)
            // Only the collection's own forwarding remains.
            #expect(note.handlerCount == 1)
        }
    }
}
