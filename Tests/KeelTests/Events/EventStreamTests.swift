import Testing

@testable import Keel

/// `EventEmitter.events(_:)`: events as an `AsyncSequence`.
struct EventStreamTests {
    @Test func streamDeliversTheNamedEventsInOrder() async {
        let emitter = EventEmitter()
        let stream = emitter.events("a b")
        emitter.trigger("a", 1)
        emitter.trigger("c", 2)
        emitter.trigger("b", 3)
        emitter.trigger("a b", 4)
        var received: [String] = []
        for await event in stream {
            received.append(event.name + ":" + (event.value?.intValue.map(String.init) ?? "-"))
            if received.count == 4 { break }
        }
        #expect(received == ["a:1", "b:3", "a:4", "b:4"])
    }

    @Test func eventsTriggeredBeforeIterationAreBuffered() async {
        let note = Model()
        let stream = note.events("change:title")
        note["title"] = "one"
        note["title"] = "two"
        note["title"] = "three"
        var values: [JSONValue?] = []
        for await event in stream {
            values.append(event.value)
            if values.count == 3 { break }
        }
        #expect(values == ["one", "two", "three"])
    }

    @Test func allStreamReceivesEveryEventOfAModel() async {
        let note = Model()
        let stream = note.events("all")
        note.set(["title": "a", "done": true])
        var names: [String] = []
        for await event in stream {
            names.append(event.name)
            if event.name == "change" { break }
        }
        #expect(names == ["change:title", "change:done", "change"])
    }

    @Test func everyStreamReceivesEveryEvent() async {
        let emitter = EventEmitter()
        let first = emitter.events("x")
        let second = emitter.events("x")
        emitter.trigger("x", 1)
        var firstIterator = first.makeAsyncIterator()
        var secondIterator = second.makeAsyncIterator()
        let fromFirst = await firstIterator.next()
        let fromSecond = await secondIterator.next()
        #expect(fromFirst?.value == 1)
        #expect(fromSecond?.value == 1)
    }

    @Test func streamEndsWhenTheEmitterIsDeallocated() async {
        weak var weakEmitter: EventEmitter?
        let stream: EventStream
        do {
            let emitter = EventEmitter()
            weakEmitter = emitter
            stream = emitter.events("x")
        }
        #expect(weakEmitter == nil)
        var iterator = stream.makeAsyncIterator()
        let next = await iterator.next()
        #expect(next == nil)
    }

    @Test func bufferedEventsAreDeliveredBeforeTheStreamEndsWithItsEmitter() async {
        let stream: EventStream
        do {
            let emitter = EventEmitter()
            stream = emitter.events("x")
            emitter.trigger("x", 1)
        }
        var iterator = stream.makeAsyncIterator()
        let first = await iterator.next()
        let deliveredTheBufferedEvent = first?.value == 1
        #expect(deliveredTheBufferedEvent)
        let end = await iterator.next()
        #expect(end == nil)
    }

    @MainActor
    @Test func streamEndsWhileWaitingWhenTheEmitterIsDeallocated() async {
        var emitter: EventEmitter? = EventEmitter()
        guard let stream = emitter?.events("x") else { return }
        let (received, signal) = AsyncStream.makeStream(of: Void.self)
        let iteration = Task { @MainActor in
            var count = 0
            for await _ in stream {
                count += 1
                signal.yield()
            }
            return count
        }
        emitter?.trigger("x")
        for await _ in received { break }
        emitter = nil
        #expect(await iteration.value == 1)
    }

    @MainActor
    @Test func streamEndsWhenTheIteratingTaskIsCancelled() async {
        let emitter = EventEmitter()
        let stream = emitter.events("x")
        let (received, signal) = AsyncStream.makeStream(of: Void.self)
        let iteration = Task { @MainActor in
            var count = 0
            for await _ in stream {
                count += 1
                signal.yield()
            }
            return count
        }
        emitter.trigger("x")
        for await _ in received { break }
        iteration.cancel()
        #expect(await iteration.value == 1)
        // The handler goes with the next event after the iteration has stopped.
        emitter.trigger("x")
        #expect(emitter.handlerCount == 0)
    }

    @Test func streamOfACancelledTaskEndsAtOnce() async {
        let emitter = EventEmitter()
        let stream = emitter.events("x")
        emitter.trigger("x")
        let count = await Task {
            withUnsafeCurrentTask { $0?.cancel() }
            var count = 0
            for await _ in stream { count += 1 }
            return count
        }.value
        #expect(count == 0)
    }

    @Test func handlerIsRemovedWithTheNextEventAfterTheIterationStops() async {
        let emitter = EventEmitter()
        do {
            let stream = emitter.events("x")
            emitter.trigger("x")
            var iterator = stream.makeAsyncIterator()
            let first = await iterator.next()
            #expect(first?.name == "x")
        }
        #expect(emitter.handlerCount == 1)
        emitter.trigger("x")
        #expect(emitter.handlerCount == 0)
    }

    @Test func streamDoesNotKeepItsEmitterAlive() {
        weak var weakNote: Model?
        var streams: [EventStream] = []
        do {
            let note = Model()
            weakNote = note
            streams.append(note.events("change"))
        }
        #expect(weakNote == nil)
        #expect(streams.count == 1)
    }
}
