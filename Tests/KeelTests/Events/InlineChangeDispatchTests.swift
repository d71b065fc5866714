import Testing

@testable import Keel

/// A change event whose name has one plain handler and no `all` handler runs that handler inline
/// (``EventEmitter/dispatchInline(_:in:at:)``): the dispatch keeps its bookkeeping (the depth
/// that retires changed tables, Backbone's snapshot of the `all` list), and any other handler
/// takes the general dispatch.
struct InlineChangeDispatchTests {
    @Test func aLoneHandlerRunsInsideADispatchOfItsEmitter() {
        let model = Model(["x": 0])
        var depths: [Int32] = []
        model.on("change:x") { [unowned model] _ in depths.append(model.existingState?.dispatchDepth ?? -1) }
        model.on("change") { [unowned model] _ in depths.append(model.existingState?.dispatchDepth ?? -1) }
        model[AttributeKey<Int>("x")] = 1
        #expect(depths == [1, 1])
        #expect(model.existingState?.dispatchDepth == 0)
    }

    @Test func aLoneHandlerThatRemovesItselfRunsOnceAndItsTablesAreDropped() {
        let model = Model(["x": 0])
        var values: [JSONValue?] = []
        var subscription: Subscription?
        subscription = model.on("change:x") { event in
            values.append(event.value)
            subscription?.cancel()
        }
        model["x"] = 1
        model["x"] = 2
        #expect(values == [1])
        #expect(model.existingState?.retired.isEmpty == true)
    }

    @Test func anAllHandlerAddedByALoneHandlerMissesThatEventAndGetsTheNext() {
        let model = Model(["x": 0])
        var names: [String] = []
        var added = false
        model.on("change:x") { [unowned model] _ in
            guard !added else { return }
            added = true
            model.on("all") { event in names.append(event.name) }
        }
        model["x"] = 1
        #expect(names == ["change"])
        model["x"] = 2
        #expect(names == ["change", "change:x", "change"])
    }

    @Test func aHandlerAddedByALoneHandlerForItsNameRunsFromTheNextEvent() {
        let model = Model(["x": 0])
        var calls: [String] = []
        model.on("change:x") { [unowned model] _ in
            calls.append("first")
            if calls.count == 1 { model.on("change:x") { _ in calls.append("second") } }
        }
        model["x"] = 1
        #expect(calls == ["first"])
        model["x"] = 2
        #expect(calls == ["first", "first", "second"])
    }

    @Test func aLoneOnceHandlerRunsForTheFirstChangeOnly() {
        let model = Model(["x": 0])
        var values: [JSONValue?] = []
        model.once("change:x") { event in values.append(event.value) }
        model["x"] = 1
        model["x"] = 2
        #expect(values == [1])
        #expect(model.handlerCount == 0)
    }

    @Test func aLoneHandlerWhoseOwnerWentAwayDoesNotRun() {
        let model = Model(["x": 0])
        var calls = 0
        do {
            let owner = Model()
            model.on("change:x", owner: owner) { _ in calls += 1 }
        }
        model["x"] = 1
        #expect(calls == 0)
        #expect(model.handlerCount == 0)
    }
}
