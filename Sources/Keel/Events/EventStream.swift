extension EventEmitter {
    /// The given events as an asynchronous sequence.
    ///
    /// Iterate it on the same isolation as the emitter (the sequence, like the emitter, is
    /// not `Sendable`). Events are buffered from the moment this method returns, so none
    /// is lost between creating the sequence and awaiting it. The sequence ends when the
    /// emitter is deallocated or the iterating task is cancelled; its handler is removed
    /// with the next event after the iteration stops.
    ///
    /// Create the sequence before the changes you want to see, then iterate it in a task:
    ///
    /// ```swift
    /// let titles = note.events("change:title")
    /// Task {
    ///     for await event in titles { print("title is now", event.value ?? .null) }
    /// }
    /// note["title"] = "Groceries"   // seen: the sequence already listens
    /// ```
    ///
    /// Creating it inside the task (`Task { for await e in note.events("add") { … } }`)
    /// listens only once the task starts. Server calls (`fetch`, `save`, `destroy`,
    /// `create`) let such a task start before they emit anything, so it sees all of their
    /// events; a synchronous change made right after `Task { … }` happens before the task
    /// starts and is not seen.
    ///
    /// - Parameter names: One name, or several separated by spaces; `"all"` for every event.
    /// - Returns: A sequence of the events, in the order they were triggered.
    public final func events(_ names: String) -> EventStream {
        let buffer = EventStream.Buffer()
        let sink = EventStream.Sink(buffer: buffer)
        var subscription: Subscription?
        subscription = on(names) { [sink] event in
            if !sink.buffer.push(event) { subscription?.cancel() }
        }
        return EventStream(lifetime: EventStream.Lifetime(buffer: buffer))
    }
}

/// An asynchronous sequence of an emitter's events; see ``EventEmitter/events(_:)-(String)``.
///
/// ```swift
/// for await event in notes.events("add remove") { print(event.name) }
/// ```
public struct EventStream: AsyncSequence {
    /// The events the sequence produces.
    public typealias Element = Event
    /// The sequence never throws.
    public typealias Failure = Never

    fileprivate let lifetime: Lifetime

    /// Creates the iterator.
    ///
    /// ```swift
    /// var iterator = note.events("change").makeAsyncIterator()
    /// ```
    public func makeAsyncIterator() -> Iterator { Iterator(lifetime: lifetime) }

    /// The iterator of an ``EventStream``.
    public struct Iterator: AsyncIteratorProtocol {
        fileprivate let lifetime: Lifetime

        fileprivate init(lifetime: Lifetime) {
            self.lifetime = lifetime
        }

        /// Waits for the next event; `nil` when the emitter is gone or the task is cancelled.
        ///
        /// ```swift
        /// let event = await iterator.next()
        /// ```
        public mutating func next() async -> Event? {
            await lifetime.buffer.next()
        }

        /// Waits for the next event on the caller's isolation.
        ///
        /// ```swift
        /// let event = await iterator.next(isolation: #isolation)
        /// ```
        ///
        /// - Parameter actor: The caller's isolation.
        public mutating func next(isolation actor: isolated (any Actor)?) async -> Event? {
            await lifetime.buffer.next()
        }
    }

    /// Events move between the emitter's handler and the iterator, which always share one
    /// isolation domain (neither is `Sendable`); the lock only guards the hand-off against
    /// the cancellation handler, which may run anywhere.
    fileprivate final class Buffer: @unchecked Sendable {
        private struct State {
            var events: [Transfer] = []
            var waiter: CheckedContinuation<Transfer?, Never>?
            var isFinished = false
        }

        /// Carries an event to the waiting iterator in the same isolation domain.
        struct Transfer: @unchecked Sendable {
            let event: Event
        }

        private let state = Lock(State())

        /// Delivers an event; `false` once nobody will read any more.
        func push(_ event: Event) -> Bool {
            let transfer = Transfer(event: event)
            let waiter: CheckedContinuation<Transfer?, Never>? = state.withLock { state in
                if state.isFinished { return nil }
                if let waiter = state.waiter {
                    state.waiter = nil
                    return waiter
                }
                state.events.append(transfer)
                return nil
            }
            waiter?.resume(returning: transfer)
            return !state.withLock { $0.isFinished }
        }

        /// Ends the sequence; events already buffered are still delivered unless discarded.
        func finish(discardingBuffered: Bool) {
            let waiter = state.withLock { state in
                state.isFinished = true
                if discardingBuffered { state.events.removeAll() }
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume(returning: nil)
        }

        func next() async -> Event? {
            let transfer: Transfer? = await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in
                    let ready: Transfer?? = state.withLock { state in
                        if !state.events.isEmpty { return .some(state.events.removeFirst()) }
                        if state.isFinished || Task.isCancelled { return .some(nil) }
                        state.waiter = continuation
                        return .none
                    }
                    if let ready { continuation.resume(returning: ready) }
                }
            } onCancel: {
                self.finish(discardingBuffered: true)
            }
            return transfer?.event
        }
    }

    /// Ends the sequence when the emitter drops its handler (the emitter is gone), after
    /// the events already buffered.
    fileprivate final class Sink {
        let buffer: Buffer
        init(buffer: Buffer) { self.buffer = buffer }
        deinit { buffer.finish(discardingBuffered: false) }
    }

    /// Tells the handler to remove itself once the sequence and its iterators are gone.
    fileprivate final class Lifetime {
        let buffer: Buffer
        init(buffer: Buffer) { self.buffer = buffer }
        deinit { buffer.finish(discardingBuffered: true) }
    }
}
