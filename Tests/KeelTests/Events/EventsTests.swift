import Testing

@testable import Keel

/// An object that owns handlers: Backbone's `context`.
private final class Owner {}

/// Backbone's test/events.js: `on`, `off`, `trigger`, `once`, `all`, space-separated names,
/// event maps and the dispatch snapshot rules (`listenTo` is in ``ListenToTests``).
struct EventsTests {
    // MARK: - on and trigger

    // Backbone: "on and trigger"
    @Test func handlerRunsOnEveryTrigger() {
        let emitter = EventEmitter()
        var counter = 0
        emitter.on("event") { _ in counter += 1 }
        emitter.trigger("event")
        #expect(counter == 1)
        emitter.trigger("event")
        emitter.trigger("event")
        emitter.trigger("event")
        emitter.trigger("event")
        #expect(counter == 5)
    }

    // Backbone: "binding and triggering multiple events"
    @Test func spaceSeparatedNamesRegisterTriggerAndRemoveEachName() {
        let emitter = EventEmitter()
        var counter = 0
        emitter.on("a b c") { _ in counter += 1 }

        emitter.trigger("a")
        #expect(counter == 1)

        emitter.trigger("a b")
        #expect(counter == 3)

        emitter.trigger("c")
        #expect(counter == 4)

        emitter.off("a c")
        emitter.trigger("a b c")
        #expect(counter == 5)
    }

    @Test func namesAreSplitOnAnyWhitespace() {
        let emitter = EventEmitter()
        var names: [String] = []
        emitter.on("a  b\tc\nd") { names.append($0.name) }
        emitter.trigger("d \t c\r\nb a")
        #expect(names == ["d", "c", "b", "a"])
    }

    // Backbone: "binding and triggering with event maps"
    @Test func eventMapRegistersEachHandlerAndOffRemovesByNameAndOwner() {
        let emitter = EventEmitter()
        let owner = Owner()
        var counter = 0
        let increment: (Event) -> Void = { _ in counter += 1 }
        emitter.on(["a": increment, "b": increment, "c": increment], owner: owner)

        emitter.trigger("a")
        #expect(counter == 1)

        emitter.trigger("a b")
        #expect(counter == 3)

        emitter.trigger("c")
        #expect(counter == 4)

        // Adapted: `off({a: increment, c: increment}, obj)` becomes `off("a c", owner:)`.
        emitter.off("a c", owner: owner)
        emitter.trigger("a b c")
        #expect(counter == 5)
    }

    // Backbone: "binding and triggering multiple event names with event maps"
    @Test func eventMapKeysMayListSeveralNames() {
        let emitter = EventEmitter()
        var counter = 0
        emitter.on(["a b c": { _ in counter += 1 }])

        emitter.trigger("a")
        #expect(counter == 1)

        emitter.trigger("a b")
        #expect(counter == 3)

        emitter.trigger("c")
        #expect(counter == 4)

        // Adapted: `off({'a c': increment})` becomes `off("a c")` (closures have no identity).
        emitter.off("a c")
        emitter.trigger("a b c")
        #expect(counter == 5)
    }

    @Test func cancellingAnEventMapTokenRemovesEveryHandlerOfTheMap() {
        let emitter = EventEmitter()
        var names: [String] = []
        let token = emitter.on(["a": { names.append($0.name) }, "b c": { names.append($0.name) }])
        emitter.on("a") { _ in names.append("other") }
        token.cancel()
        emitter.trigger("a b c")
        #expect(names == ["other"])
        #expect(emitter.handlerCount == 1)
    }

    // Backbone: "trigger all for each event"
    @Test func allHandlerRunsOncePerNameOfASpaceSeparatedTrigger() {
        let emitter = EventEmitter()
        var names: [String] = []
        emitter.on("all") { names.append($0.name) }
        emitter.trigger("a b")
        #expect(names == ["a", "b"])
    }

    @Test func allHandlersRunAfterTheSpecificHandlersEvenWhenRegisteredFirst() {
        let emitter = EventEmitter()
        var calls: [String] = []
        emitter.on("all") { calls.append("all:" + $0.name) }
        emitter.on("x") { _ in calls.append("x1") }
        emitter.on("x") { _ in calls.append("x2") }
        emitter.trigger("x y")
        #expect(calls == ["x1", "x2", "all:x", "all:y"])
    }

    @Test func registeringTheSameClosureTwiceRunsItTwice() {
        let emitter = EventEmitter()
        var counter = 0
        let handler: (Event) -> Void = { _ in counter += 1 }
        emitter.on("x", handler)
        emitter.on("x", handler)
        emitter.trigger("x")
        #expect(counter == 2)
    }

    // MARK: - Arguments

    @Test func triggerPassesItsArgumentsToTheHandlers() throws {
        let emitter = EventEmitter()
        var received: [Event] = []
        emitter.on("x") { received.append($0) }
        emitter.trigger("x", 1, "two")
        let event = try #require(received.first)
        #expect(event.name == "x")
        #expect(event.value == 1)
        #expect(event.arguments == [1, "two"])
    }

    @Test func triggerWithOneArgumentListsItInArguments() throws {
        let emitter = EventEmitter()
        var received: [Event] = []
        emitter.on("x") { received.append($0) }
        let answer: JSONValue = 42
        emitter.trigger("x", answer)
        emitter.trigger("x", 42)
        #expect(received.map(\.value) == [42, 42])
        let listsTheArgument = received.map { $0.arguments == [42] }
        #expect(listsTheArgument == [true, true])
    }

    @Test func triggerWithoutArgumentsDeliversNoValue() throws {
        let emitter = EventEmitter()
        var received: [Event] = []
        emitter.on("x") { received.append($0) }
        emitter.trigger("x")
        let event = try #require(received.first)
        #expect(event.value == nil)
        #expect(event.arguments.isEmpty)
    }

    @Test func preparedEventIsDeliveredAsIs() throws {
        let emitter = EventEmitter()
        let note = Model(["title": "a"])
        var received: [Event] = []
        emitter.on("highlight") { received.append($0) }
        emitter.on("all") { received.append($0) }
        emitter.trigger(Event(name: "highlight", model: note, options: ChangeOptions(custom: ["source": "test"])))
        #expect(received.map(\.name) == ["highlight", "highlight"])
        let event = try #require(received.first)
        #expect(event.model === note)
        #expect(event.options["source"] == "test")
    }

    // MARK: - off

    // Backbone: "on, then unbind all functions"
    @Test func offByNameRemovesEveryHandlerOfThatName() {
        let emitter = EventEmitter()
        var counter = 0
        emitter.on("event") { _ in counter += 1 }
        emitter.trigger("event")
        emitter.off("event")
        emitter.trigger("event")
        #expect(counter == 1)
    }

    // Backbone: "bind two callbacks, unbind only one"
    @Test func cancellingOneTokenKeepsTheOtherHandlers() {
        let emitter = EventEmitter()
        var counterA = 0
        var counterB = 0
        let tokenA = emitter.on("event") { _ in counterA += 1 }
        emitter.on("event") { _ in counterB += 1 }
        emitter.trigger("event")
        // Adapted: `off('event', callback)` becomes `off(token)`.
        emitter.off(tokenA)
        emitter.trigger("event")
        #expect(counterA == 1)
        #expect(counterB == 2)
    }

    // Backbone: "remove all events for a specific context"
    @Test func offByOwnerRemovesOnlyThatOwnersHandlers() {
        let emitter = EventEmitter()
        let owner = Owner()
        var kept = 0
        var removed = 0
        emitter.on("x y all") { _ in kept += 1 }
        emitter.on("x y all", owner: owner) { _ in removed += 1 }
        // Adapted: `off(null, null, obj)` becomes `off(owner:)`.
        emitter.off(owner: owner)
        emitter.trigger("x y")
        #expect(kept == 4)
        #expect(removed == 0)
    }

    // Backbone: "remove all events for a specific callback"
    @Test func cancellingATokenRemovesItsHandlerFromEveryName() {
        let emitter = EventEmitter()
        var successes = 0
        var failures = 0
        emitter.on("x y all") { _ in successes += 1 }
        let fail = emitter.on("x y all") { _ in failures += 1 }
        // Adapted: `off(null, fail)` becomes `off(token)`.
        emitter.off(fail)
        emitter.trigger("x y")
        #expect(successes == 4)
        #expect(failures == 0)
    }

    // Backbone: "#1310 - off does not skip consecutive events"
    @Test func offByOwnerRemovesConsecutiveHandlers() {
        let emitter = EventEmitter()
        let owner = Owner()
        var counter = 0
        emitter.on("event", owner: owner) { _ in counter += 1 }
        emitter.on("event", owner: owner) { _ in counter += 1 }
        // Adapted: context becomes `owner:`.
        emitter.off(owner: owner)
        emitter.trigger("event")
        #expect(counter == 0)
        #expect(emitter.handlerCount == 0)
    }

    @Test func offByNameAndOwnerRemovesOnlyHandlersMatchingBoth() {
        let emitter = EventEmitter()
        let owner = Owner()
        var calls: [String] = []
        emitter.on("a b", owner: owner) { calls.append("owned:" + $0.name) }
        emitter.on("a") { _ in calls.append("free:a") }
        emitter.off("a", owner: owner)
        emitter.trigger("a b")
        #expect(calls == ["free:a", "owned:b"])
    }

    @Test func offWithoutArgumentsRemovesEveryHandler() {
        let emitter = EventEmitter()
        var counter = 0
        emitter.on("a b all") { _ in counter += 1 }
        emitter.once("c") { _ in counter += 1 }
        emitter.off()
        emitter.trigger("a b c")
        #expect(counter == 0)
        #expect(emitter.handlerCount == 0)
    }

    @Test func offAndTriggerWithNothingRegisteredDoNothing() {
        let emitter = EventEmitter()
        emitter.trigger("nothing")
        emitter.off("nothing")
        emitter.off(owner: Owner())
        emitter.off()
        #expect(emitter.handlerCount == 0)
    }

    @Test func cancellingATokenTwiceIsHarmless() {
        let emitter = EventEmitter()
        var counter = 0
        let token = emitter.on("x") { _ in counter += 1 }
        emitter.on("x") { _ in counter += 10 }
        token.cancel()
        token.cancel()
        emitter.off(token)
        emitter.trigger("x")
        #expect(counter == 10)
    }

    @Test func eachRegistrationHasItsOwnToken() {
        let emitter = EventEmitter()
        let first = emitter.on("x") { _ in }
        let second = emitter.on("x") { _ in }
        let third = emitter.once("x") { _ in }
        #expect(Set([first, second, third]).count == 3)
        #expect(first == first)
    }

    // Keel differs: `off()` removes the handlers users registered, not the link that makes a
    // collection re-emit its models' events (Backbone's `off()` would cut that link too).
    @Test func offLeavesCollectionForwardingAlone() {
        let note = Model(["title": "a"])
        let notes = Collection<Model>([note])
        var names: [String] = []
        notes.on("all") { names.append($0.name) }
        note.on("change") { _ in names.append("own") }
        note.off()
        note["title"] = "b"
        #expect(names == ["change:title", "change"])
    }

    // MARK: - Removal during dispatch

    // Backbone: "unbind a callback in the midst of it firing"
    @Test func handlerThatRemovesItselfRunsOnlyOnce() {
        let emitter = EventEmitter()
        var counter = 0
        var token: Subscription?
        token = emitter.on("event") { _ in
            counter += 1
            token?.cancel()
        }
        emitter.trigger("event")
        emitter.trigger("event")
        emitter.trigger("event")
        #expect(counter == 1)
    }

    // Backbone: "two binds that unbind themeselves"
    @Test func twoHandlersThatRemoveThemselvesEachRunOnce() {
        let emitter = EventEmitter()
        var counterA = 0
        var counterB = 0
        var tokenA: Subscription?
        var tokenB: Subscription?
        tokenA = emitter.on("event") { _ in
            counterA += 1
            tokenA?.cancel()
        }
        tokenB = emitter.on("event") { _ in
            counterB += 1
            tokenB?.cancel()
        }
        emitter.trigger("event")
        emitter.trigger("event")
        emitter.trigger("event")
        #expect(counterA == 1)
        #expect(counterB == 1)
    }

    // Backbone: "nested trigger with unbind"
    @Test func nestedTriggerAfterSelfRemovalRunsTheRemainingHandlers() {
        let emitter = EventEmitter()
        var counter = 0
        var first: Subscription?
        first = emitter.on("event") { _ in
            counter += 1
            first?.cancel()
            emitter.trigger("event")
        }
        emitter.on("event") { _ in counter += 1 }
        emitter.trigger("event")
        #expect(counter == 3)
    }

    // Backbone: "callback list is not altered during trigger" (the `on` half)
    @Test func handlerAddedDuringDispatchDoesNotRunInThatDispatch() {
        let emitter = EventEmitter()
        var counter = 0
        emitter.on("event all") { _ in
            emitter.on("event all") { _ in counter += 1 }
        }
        emitter.trigger("event")
        #expect(counter == 0)
    }

    @Test func handlersRemovedByTheFirstOneStillRunWithTheirCapturesAlive() {
        final class Tag {
            let value: Int
            init(_ value: Int) { self.value = value }
        }
        let emitter = EventEmitter()
        var seen: [Int] = []
        for index in 0..<3 {
            let tag = Tag(index)
            emitter.on("event") { [unowned emitter, tag] _ in
                emitter.off()
                seen.append(tag.value)
            }
        }
        emitter.trigger("event")
        #expect(seen == [0, 1, 2])
        emitter.trigger("event")
        #expect(seen == [0, 1, 2])
    }

    // Backbone: "callback list is not altered during trigger" (the `off` half)
    @Test func handlerRemovedDuringDispatchStillRunsInThatDispatch() {
        let emitter = EventEmitter()
        var counter = 0
        var increment: Subscription?
        emitter.on("event") { _ in increment?.cancel() }
        increment = emitter.on("event all") { _ in counter += 1 }
        emitter.trigger("event")
        #expect(counter == 2)
        emitter.trigger("event")
        #expect(counter == 2)
    }

    @Test func laterHandlerRemovedByAnEarlierOneStillRunsOnlyInThatDispatch() {
        let emitter = EventEmitter()
        var calls: [String] = []
        var second: Subscription?
        emitter.on("x") { _ in
            calls.append("first")
            second?.cancel()
        }
        second = emitter.on("x") { _ in calls.append("second") }
        emitter.trigger("x")
        emitter.trigger("x")
        #expect(calls == ["first", "second", "first"])
    }

    @Test func offByNameDuringDispatchStillRunsTheRemainingHandlersOnce() {
        let emitter = EventEmitter()
        var calls: [String] = []
        emitter.on("x") { _ in
            calls.append("first")
            emitter.off("x")
        }
        emitter.on("x") { _ in calls.append("second") }
        emitter.trigger("x")
        emitter.trigger("x")
        #expect(calls == ["first", "second"])
    }

    // Backbone: "#1282 - 'all' callback list is retrieved after each event."
    @Test func allListIsReadAgainForEachEventName() {
        let emitter = EventEmitter()
        var counter = 0
        emitter.on("x") { _ in
            emitter.on("y") { _ in counter += 1 }
            emitter.on("all") { _ in counter += 1 }
        }
        emitter.trigger("x y")
        #expect(counter == 2)
    }

    // MARK: - once

    // Backbone: "once"
    @Test func onceHandlersDoNotRunAgainFromANestedTrigger() {
        let emitter = EventEmitter()
        var counterA = 0
        var counterB = 0
        emitter.once("event") { _ in
            counterA += 1
            emitter.trigger("event")
        }
        emitter.once("event") { _ in counterB += 1 }
        emitter.trigger("event")
        #expect(counterA == 1)
        #expect(counterB == 1)
    }

    // Backbone: "once variant one"
    @Test func onceOnOneEmitterDoesNotAffectAnother() {
        var counter = 0
        let handler: (Event) -> Void = { _ in counter += 1 }
        let a = EventEmitter()
        let b = EventEmitter()
        a.once("event", handler)
        b.on("event", handler)

        a.trigger("event")
        b.trigger("event")
        b.trigger("event")
        #expect(counter == 3)
    }

    // Backbone: "once variant two"
    @Test func onceAndOnWithTheSameClosureAreIndependent() {
        var counter = 0
        let handler: (Event) -> Void = { _ in counter += 1 }
        let emitter = EventEmitter()
        emitter.once("event", handler)
        emitter.on("event", handler)
        emitter.trigger("event")
        emitter.trigger("event")
        #expect(counter == 3)
    }

    // Backbone: "once with off"
    @Test func cancellingAOnceTokenBeforeTheEventPreventsIt() {
        let emitter = EventEmitter()
        var counter = 0
        let token = emitter.once("event") { _ in counter += 1 }
        // Adapted: `off('event', f)` with the original callback becomes `off(token)`.
        emitter.off(token)
        emitter.trigger("event")
        #expect(counter == 0)
        #expect(emitter.handlerCount == 0)
    }

    @Test func offByNameRemovesAOnceHandler() {
        let emitter = EventEmitter()
        var counter = 0
        emitter.once("event") { _ in counter += 1 }
        emitter.off("event")
        emitter.trigger("event")
        #expect(counter == 0)
    }

    // Backbone: "once with event maps"
    @Test func onceWithSeveralNamesRunsOncePerName() {
        let emitter = EventEmitter()
        var counter = 0
        // Adapted: Keel has no `once` overload for event maps; a space-separated name list
        // registers one once-handler per name, as the map did.
        emitter.once("a b c") { _ in counter += 1 }

        emitter.trigger("a")
        #expect(counter == 1)

        emitter.trigger("a b")
        #expect(counter == 2)

        emitter.trigger("c")
        #expect(counter == 3)

        emitter.trigger("a b c")
        #expect(counter == 3)
    }

    // Backbone: "once with off only by context"
    @Test func offByOwnerRemovesAOnceHandler() {
        let emitter = EventEmitter()
        let owner = Owner()
        var counter = 0
        emitter.once("event", owner: owner) { _ in counter += 1 }
        // Adapted: context becomes `owner:`.
        emitter.off(owner: owner)
        emitter.trigger("event")
        #expect(counter == 0)
    }

    // Backbone: "once with multiple events."
    @Test func onceWithTwoNamesRunsForEachNameOfOneTrigger() {
        let emitter = EventEmitter()
        var names: [String] = []
        emitter.once("x y") { names.append($0.name) }
        emitter.trigger("x y")
        emitter.trigger("x y")
        #expect(names == ["x", "y"])
    }

    @Test func cancellingAOnceTokenRemovesTheNamesThatHaveNotFired() {
        let emitter = EventEmitter()
        var names: [String] = []
        let token = emitter.once("x y") { names.append($0.name) }
        emitter.trigger("x")
        token.cancel()
        emitter.trigger("x y")
        #expect(names == ["x"])
        #expect(emitter.handlerCount == 0)
    }

    @Test func onceHandlerIsRemovedAfterItRuns() {
        let emitter = EventEmitter()
        emitter.once("x") { _ in }
        #expect(emitter.handlerCount == 1)
        emitter.trigger("x")
        #expect(emitter.handlerCount == 0)
    }

    // Backbone: "Off during iteration with once."
    @Test func selfRemovalDuringDispatchDoesNotSkipOnceOrLaterHandlers() {
        let emitter = EventEmitter()
        var counter = 0
        var selfRemoving: Subscription?
        selfRemoving = emitter.on("event") { _ in selfRemoving?.cancel() }
        emitter.once("event") { _ in }
        emitter.on("event") { _ in counter += 1 }

        emitter.trigger("event")
        emitter.trigger("event")
        #expect(counter == 2)
    }

    // Backbone: "`once` on `all` should work as expected"
    @Test func onceOnAllDoesNotLoopWhenItTriggersAll() {
        // Adapted: the global `Backbone` bus becomes a bare emitter.
        let bus = EventEmitter()
        var counter = 0
        bus.once("all") { _ in
            counter += 1
            bus.trigger("all")
        }
        bus.trigger("all")
        #expect(counter == 1)
    }

    // MARK: - Emitters

    // Backbone: "Backbone object inherits Events"
    @Test func anyEmitterCanServeAsAnEventBus() {
        // Adapted: there is no global bus object; a bare `EventEmitter` (or a subclass) is one,
        // and models and collections are emitters too.
        final class AppBus: EventEmitter {}
        let emitters: [EventEmitter] = [EventEmitter(), AppBus(), Model(), Collection<Model>()]
        var counter = 0
        for emitter in emitters {
            emitter.on("ping") { _ in counter += 1 }
            emitter.trigger("ping")
        }
        #expect(counter == 4)
    }

    // Backbone: "event functions are chainable"
    @Test func registrationResultsCanBeIgnored() {
        // Adapted: Keel does not chain; `on`, `once`, `listenTo` and `listenToOnce` return a
        // `@discardableResult` token, and the other calls return nothing. This compiles without
        // warnings, and every call succeeds on an emitter with no handlers.
        let emitter = EventEmitter()
        let other = EventEmitter()
        emitter.trigger("noeventssetyet")
        emitter.off("noeventssetyet")
        emitter.stopListening(nil, "noeventssetyet")
        emitter.on("a") { _ in }
        emitter.once("c") { _ in }
        emitter.trigger("a")
        emitter.listenTo(other, "a") { _ in }
        emitter.listenToOnce(other, "b") { _ in }
        emitter.off("a c")
        emitter.stopListening(other, "a")
        emitter.stopListening()
        #expect(emitter.handlerCount == 0)
        #expect(other.handlerCount == 0)
        #expect(emitter.listeningToCount == 0)
    }
}
