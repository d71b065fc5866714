import Testing

@testable import Keel

/// Keeps a value alive in a handler's closure, so that a handler freed while it runs would
/// read freed memory.
private final class Box {
    var log: [String] = []
}

/// A dispatch calls a list's lone handler without retaining it (``HandlerList/lent``):
/// removing handlers while it runs keeps them alive until the outermost dispatch ends, and
/// Backbone's rules still hold (a handler removed during a dispatch still runs in it, one
/// added does not).
struct LentHandlerDispatchTests {
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
