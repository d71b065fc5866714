/// A ``PushSource`` in the process, for tests, previews and playgrounds: what you
/// ``send(_:)-(RemoteChange)`` reaches every listener, numbered `1`, `2`, … as event ids, and a listener
/// that starts after an id gets the changes sent after it first, as one batch.
///
/// Changes sent together (``send(_:)-([RemoteChange])``) reach a listener as one batch
/// (``batches(after:)``), as the events of one read from a connection do.
///
/// ```swift
/// let pushes = InMemoryPushSource()
/// let listening = Task { @MainActor in try await store.listen(Todo.self, to: pushes) }
/// pushes.send(RemoteChange(.created, id: 1, attributes: ["id": 1, "title": "Milk"]))
/// ```
public final class InMemoryPushSource: PushSource {
    private struct State {
        var history: [RemoteChange] = []
        var listeners: [Int: AsyncThrowingStream<[PushedChange], any Error>.Continuation] = [:]
        var nextListener = 0
    }

    private let state = Lock(State())

    /// Creates a source with no changes sent yet.
    ///
    /// ```swift
    /// let pushes = InMemoryPushSource()
    /// ```
    public init() {}

    /// Whether a listener is reading the changes (``changes(after:)`` or
    /// ``batches(after:)`` was called and its stream is still consumed).
    ///
    /// ```swift
    /// while !pushes.hasListeners { await Task.yield() }
    /// ```
    public var hasListeners: Bool { state.withLock { !$0.listeners.isEmpty } }

    /// Sends a change to every listener.
    ///
    /// ```swift
    /// pushes.send(RemoteChange(.deleted, id: 1))
    /// ```
    ///
    /// - Parameter change: The change; its event id is the number of changes sent so far.
    public func send(_ change: RemoteChange) {
        send([change])
    }

    /// Sends changes to every listener together, as one batch.
    ///
    /// ```swift
    /// pushes.send([RemoteChange(.deleted, id: 1), RemoteChange(.deleted, id: 2)])
    /// ```
    ///
    /// - Parameter changes: The changes, oldest first; they are numbered on from the
    ///   changes sent before. Sending none does nothing.
    public func send(_ changes: [RemoteChange]) {
        guard !changes.isEmpty else { return }
        state.withLock { state in
            let batch = Self.numbered(changes, from: state.history.count + 1)
            state.history += changes
            // Inside the lock, so that changes sent from several threads keep their numbers' order.
            for listener in state.listeners.values { listener.yield(batch) }
        }
    }

    /// The changes sent after `lastEventID`, then each one sent from now on.
    ///
    /// ```swift
    /// for try await pushed in pushes.changes(after: "3") { print(pushed.change.id) }
    /// ```
    ///
    /// - Parameter lastEventID: The id of the last change applied, or `nil` to start with
    ///   the next one sent.
    /// - Returns: The changes; the stream never throws.
    public func changes(after lastEventID: String?) -> AsyncThrowingStream<PushedChange, any Error> {
        Self.changes(in: batches(after: lastEventID))
    }

    /// The changes sent after `lastEventID` as one batch, then the changes of each
    /// ``send(_:)-([RemoteChange])`` from now on as one batch.
    ///
    /// ```swift
    /// for try await batch in pushes.batches(after: "3") { print(batch.map(\.change.id)) }
    /// ```
    ///
    /// - Parameter lastEventID: The id of the last change applied, or `nil` to start with
    ///   the next one sent.
    /// - Returns: The batches; the stream never throws.
    public func batches(after lastEventID: String?) -> AsyncThrowingStream<[PushedChange], any Error> {
        AsyncThrowingStream { continuation in
            let listener = state.withLock { state in
                let start = lastEventID.flatMap(Int.init).map { max(0, min($0, state.history.count)) } ?? state.history.count
                if start < state.history.count {
                    continuation.yield(Self.numbered(Array(state.history[start...]), from: start + 1))
                }
                state.nextListener += 1
                state.listeners[state.nextListener] = continuation
                return state.nextListener
            }
            continuation.onTermination = { [weak self] _ in
                _ = self?.state.withLock { $0.listeners.removeValue(forKey: listener) }
            }
        }
    }

    /// The changes as pushed changes whose event ids count on from `first`.
    private static func numbered(_ changes: [RemoteChange], from first: Int) -> [PushedChange] {
        changes.enumerated().map { PushedChange($0.element, eventID: String(first + $0.offset)) }
    }
}
