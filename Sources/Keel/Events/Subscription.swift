/// A token for one event registration; cancel it to remove the handler.
///
/// Swift closures cannot be compared, so where Backbone's `off(name, callback)` finds a
/// handler by its function, Keel finds it by the token that `on`, `once` and `listenTo`
/// return. Dropping the token does **not** remove the handler (as in Backbone, a handler
/// stays until it is turned off), so the result can be ignored.
///
/// ```swift
/// let subscription = note.on("change") { _ in print("changed") }
/// subscription.cancel()
/// ```
public struct Subscription: Hashable {
    /// The handler's identifier, unique for the process.
    public let id: Int
    private weak var emitter: EventEmitter?

    init(id: Int, emitter: EventEmitter) {
        self.id = id
        self.emitter = emitter
    }

    /// Removes the handler; does nothing when it is already gone.
    ///
    /// ```swift
    /// subscription.cancel()
    /// ```
    public func cancel() {
        emitter?.off(self)
    }

    /// Whether two tokens refer to the same registration.
    ///
    /// ```swift
    /// let same = subscription == subscription  // true
    /// ```
    public static func == (lhs: Subscription, rhs: Subscription) -> Bool { lhs.id == rhs.id }

    /// Hashes the registration's identifier.
    ///
    /// ```swift
    /// var tokens: Set<Subscription> = [subscription]
    /// ```
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}
