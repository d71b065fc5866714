/// A ``PushSource`` in the process, for tests, previews and playgrounds: what you
/// ``send(_:)`` reaches every listener, numbered `1`, `2`, … as event ids, and a listener
/// that starts after an id gets the changes sent after it first.
///
/// ```swift
/// let pushes = InMemoryPushSource()
/// let listening = Task { @MainActor in try await store.listen(Todo.self, to: pushes) }
/// pushes.send(RemoteChange(.created, id: 1, attributes: ["id": 1, "title": "Milk"]))
/// ```
public final class InMemoryPushSource: PushSource {
    private struct State {
        var history: [RemoteChange] = []
        var listeners: [Int: AsyncThrowingStream<PushedChange, any Error>.Continuation] = [:]
        var nextListener = 0
    }

    private let state = Lock(State())

    /// Creates a source with no changes sent yet.
    ///
    /// ```swift
    /// let pushes = InMemoryPushSource()
    /// ```
    public init() {}

    /// Whether a listener is reading the changes (``changes(after:)`` was called and its
    /// stream is still consumed).
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
        let (listeners, id) = state.withLock { state in
            state.history.append(change)
            return (Array(state.listeners.values), state.history.count)
        }
        for listener in listeners { listener.yield(PushedChange(change, eventID: String(id))) }
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
        AsyncThrowingStream { continuation in
            let listener = state.withLock { state in
                let start = lastEventID.flatMap(Int.init).map { max(0, min($0, state.history.count)) } ?? state.history.count
                for (offset, change) in state.history.enumerated().dropFirst(start) {
                    continuation.yield(PushedChange(change, eventID: String(offset + 1)))
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
}
