import Testing

@testable import Keel

/// An object that a test follows through a weak reference.
private final class Tracked {}

/// A one-attribute `set` lends its change events to the model's own handlers.
///
/// When the value holds no reference (``Event/lendingChange(named:model:value:context:to:)``),
/// the event's name, model, value and options are not retained for the dispatch. A handler that
/// keeps such an event keeps a copy, which retains them: it still sees its name, model, value and
/// options after the dispatch, after the model's handlers and layout changed, and after the
/// model's other references went; and what the set did not retain it does not release.
struct LentChangeEventTests {
    @Test func eventsKeptFromLentChangesKeepTheirNamesModelAndValues() {
        var kept: [Event] = []
        weak var released: Model?
        do {
            let model = Model(["x": 0])
            released = model
            model.on("change:x change") { event in kept.append(event) }
            let x = AttributeKey<Int>("x")
            model[x] = 1
            model.set("x", 2.5)
            model.set("x", true)
            model.set("x", .null)
            model.set(["x": -1])
        }
        #expect(released != nil)
        #expect(kept.count == 10)
        #expect(kept.map(\.name) == Array(repeating: ["change:x", "change"], count: 5).flatMap { $0 })
        #expect(kept.map(\.value) == [1, nil, 2.5, nil, true, nil, .null, nil, -1, nil])
        #expect(kept.allSatisfy { $0.model === released })
        #expect(released?["x"] == -1)
        kept.removeAll()
        #expect(released == nil)
    }

    @Test func aKeptEventKeepsALongNameAfterTheHandlersAndTheLayoutChange() throws {
        let attribute = "a_name_longer_than_a_small_string"
        var kept: Event?
        do {
            let model = Model([attribute: 0])
            model.on("change:" + attribute) { [unowned model] event in
                kept = event
                // Dropping every handler and moving the model to another layout frees the tables
                // and the layout that held the name once the dispatch ends.
                model.off()
                model.set("added", 1)
            }
            model.set(attribute, 1)
            #expect(model.handlerCount == 0)
        }
        let event = try #require(kept)
        #expect(event.name == "change:" + attribute)
        #expect(event.value == 1)
        #expect(event.model?[attribute] == 1)
    }

    @Test func setsInsideAHandlerLeaveTheLentEventItHandlesAsItWas() {
        let model = Model(["x": 0])
        var seen: [JSONValue?] = []
        model.on("change:x") { [unowned model] event in
            // Three nested sets reuse every storage the model rotates through.
            if event.value == 1 { for value in 2...4 { model.set("x", .int(value)) } }
            seen.append(event.value)
        }
        model.set("x", 1)
        #expect(seen == [2, 3, 4, 1])
        #expect(model["x"] == 4)
    }

    @Test func aKeptEventKeepsItsOptionsAndReleasesThemWithTheLastCopy() {
        var kept: [Event] = []
        weak var tracked: Tracked?
        let model = Model(["x": 0])
        model.on("change:x change") { event in kept.append(event) }
        do {
            let captured = Tracked()
            tracked = captured
            let options = ChangeOptions(custom: ["step": 1], onValidationError: { _, _, _ in _ = captured })
            model.set("x", 1, options: options)
        }
        #expect(tracked != nil)
        #expect(kept.map { $0.options["step"] } == [1, 1])
        #expect(kept.allSatisfy { $0.options.onValidationError != nil })
        kept.removeAll()
        #expect(tracked == nil)
    }

    @Test func aModelAndOptionsThatNoHandlerKeptAreFreedAfterManyLentChanges() {
        weak var released: Model?
        weak var tracked: Tracked?
        var changes = 0
        do {
            let model = Model(["x": 0])
            released = model
            model.on("change:x") { _ in changes += 1 }
            model.on("change") { _ in changes += 1 }
            let captured = Tracked()
            tracked = captured
            let options = ChangeOptions(onValidationError: { _, _, _ in _ = captured })
            for value in 1...1_000 {
                model.set("x", .int(value), options: value.isMultiple(of: 2) ? options : ChangeOptions())
            }
        }
        #expect(changes == 2_000)
        #expect(released == nil)
        #expect(tracked == nil)
    }

    @Test func theChangeEventAfterANestedSetKeepsTheOptionsThatSetMadePending() {
        let model = Model(["x": 0, "y": 0])
        var kept: [Event] = []
        model.on("change:x") { [unowned model] event in
            kept.append(event)
            model.set("y", 1, options: ChangeOptions(custom: ["by": "handler"]))
        }
        model.on("change") { event in kept.append(event) }
        model.set("x", 1, options: ChangeOptions(custom: ["by": "caller"]))
        // As Backbone's `_pending`: the nested set's options replace the caller's for `change`.
        #expect(kept.map(\.name) == ["change:x", "change"])
        #expect(kept.map { $0.options["by"] } == ["caller", "handler"])
        #expect(kept.allSatisfy { $0.model === model })
    }
}
