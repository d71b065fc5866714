import Testing

@testable import Keel

/// Keeps a value alive in a handler's closure, so that a handler freed while it runs would
/// read freed memory.
private final class Box {
    var log: [String] = []
}

/// A dispatch calls a list's handlers without retaining them or the list (``HandlerList/lent``):
/// changing the tables while it runs keeps them alive until the outermost dispatch ends, and
/// Backbone's rules still hold (a handler removed during a dispatch still runs in it, one
/// added does not).
struct LentHandlerDispatchTests {
    @Test func handlersAddedToAListOfSeveralDuringItsDispatchDoNotRunInIt() {
        let emitter = EventEmitter()
        var calls: [String] = []
        var added = false
        emitter.on("ping") { [unowned emitter] _ in
            calls.append("first")
            guard !added else { return }
            added = true
            // Enough to move a list changed in place to new storage, and then storage of the
            // old list's size given to other arrays: a dispatch still reading the old list
            // would call something that is not a handler.
            for index in 0..<64 { emitter.on("ping") { _ in calls.append("added \(index)") } }
            let reused = (0..<64).map { _ in [Box(), Box()] as [AnyObject] }
            #expect(reused.count == 64)
        }
        emitter.on("ping") { _ in calls.append("second") }
        emitter.trigger("ping", .int(1))
        #expect(calls == ["first", "second"])
        calls = []
        emitter.trigger("ping", .int(2))
        #expect(calls == ["first", "second"] + (0..<64).map { "added \($0)" })
        #expect(emitter.existingState?.retired.isEmpty == true)
    }

    @Test func aHandlerOfSeveralRemovedByAnEarlierOneStillRunsForThatEvent() {
        let emitter = EventEmitter()
        var calls: [String] = []
        var second: Subscription?
        emitter.on("ping") { _ in
            calls.append("first")
            second?.cancel()
        }
        second = emitter.on("ping") { _ in calls.append("second") }
        emitter.on("ping") { _ in calls.append("third") }
        emitter.trigger("ping", .int(1))
        #expect(calls == ["first", "second", "third"])
        calls = []
        emitter.trigger("ping", .int(2))
        #expect(calls == ["first", "third"])
    }

    @Test func allHandlersAddedDuringADispatchOfSeveralRunFromTheNextEvent() {
        let emitter = EventEmitter()
        var calls: [String] = []
        var added = false
        emitter.on("all") { _ in calls.append("all 1") }
        emitter.on("all") { _ in calls.append("all 2") }
        emitter.on("ping") { [unowned emitter] _ in
            calls.append("ping")
            guard !added else { return }
            added = true
            for index in 0..<16 { emitter.on("all") { _ in calls.append("all added \(index)") } }
        }
        emitter.trigger("ping", .int(1))
        // Backbone reads the `all` list before the event's own handlers run (#1282).
        #expect(calls == ["ping", "all 1", "all 2"])
        calls = []
        emitter.trigger("ping", .int(2))
        #expect(calls == ["ping", "all 1", "all 2"] + (0..<16).map { "all added \($0)" })
    }

    @Test func aLoneHandlerThatRemovesItselfFinishesAndDoesNotRunAgain() {
        let model = Model(["x": 0])
        var subscription: Subscription?
        do {
            let box = Box()
            subscription = model.on("change:x") { [box, unowned model] event in
                subscription?.cancel()
                subscription = nil
                // The closure's context must still be alive here.
                box.log.append("x=\(event.value?.intValue ?? -1)")
                model.trigger("seen", .string(box.log.joined()))
            }
        }
        var seen: [String] = []
        model.on("seen") { seen.append($0.value?.stringValue ?? "") }
        model.set(["x": 1])
        model.set(["x": 2])
        #expect(seen == ["x=1"])
        #expect(model.handlerCount == 1)
    }

    @Test func aLoneAllHandlerRemovedByAnEarlierHandlerStillRunsForThatEvent() {
        let model = Model(["x": 0])
        var calls: [String] = []
        var allSubscription: Subscription?
        model.on("change:x") { _ in
            calls.append("change:x")
            allSubscription?.cancel()
        }
        allSubscription = model.on("all") { calls.append("all \($0.name)") }
        model[AttributeKey<Int>("x")] = 1
        // Backbone reads the `all` list before the event's own handlers run (#1282).
        #expect(calls == ["change:x", "all change:x"])
        calls = []
        model[AttributeKey<Int>("x")] = 2
        #expect(calls == ["change:x"])
    }

    @Test func aHandlerAddedDuringADispatchRunsFromTheNextOne() {
        let model = Model(["x": 0])
        var calls: [String] = []
        var added = false
        model.on("change") { [unowned model] _ in
            calls.append("first")
            guard !added else { return }
            added = true
            model.on("change") { _ in calls.append("added") }
        }
        model[AttributeKey<Int>("x")] = 1
        #expect(calls == ["first"])
        model[AttributeKey<Int>("x")] = 2
        #expect(calls == ["first", "first", "added"])
    }

    @Test func aNestedSetInsideALoneHandlerFiresBackbonesPendingChange() {
        let model = Model(["x": 0, "y": 0])
        var changes: [String] = []
        model.on("change:x") { [unowned model] _ in model[AttributeKey<Int>("y")] = 1 }
        model.on("change") { [unowned model] event in
            changes.append(
                "change x=\(model["x"]?.intValue ?? -1) y=\(model["y"]?.intValue ?? -1) \(event.model === model)"
            )
        }
        model[AttributeKey<Int>("x")] = 1
        // Backbone: the nested `set` leaves its options pending and returns; the outer one
        // fires `change` once for both, with both attributes changed.
        #expect(changes == ["change x=1 y=1 true"])
        #expect(model.changed == ["x": 1, "y": 1])
        #expect(model.previousAttributes() == ["x": 0, "y": 0])
    }

    @Test func removingEveryHandlerDuringADispatchDropsThemAfterIt() {
        let model = Model(["x": 0])
        var calls = 0
        model.on("change:x") { [unowned model] _ in
            calls += 1
            model.off()
        }
        model.on("change") { _ in calls += 10 }
        model[AttributeKey<Int>("x")] = 1
        #expect(calls == 1)
        #expect(model.existingState?.retired.isEmpty == true)
        #expect(model.existingState?.dispatchDepth == 0)
        model[AttributeKey<Int>("x")] = 2
        #expect(calls == 1)
    }
}
