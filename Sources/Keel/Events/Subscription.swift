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
    /// Reaches the emitter while it lives.
    ///
    /// Not a `weak` reference: a weak reference would give the emitter a side table and slow down
    /// every retain and release of it.
    private let link: EmitterLink

    init(id: Int, emitter: EventEmitter) {
        self.init(id: id, link: emitter.link)
    }

    init(id: Int, link: EmitterLink) {
        self.id = id
        self.link = link
    }

    /// Removes the handler; does nothing when it is already gone.
    ///
    /// ```swift
    /// subscription.cancel()
    /// ```
    public func cancel() {
        link.emitter?.off(self)
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

/// An emitter's stand-in for its ``Subscription`` tokens: the emitter clears it when it is
/// deallocated, so a token never keeps the emitter alive and never reaches a dead one.
final class EmitterLink {
    unowned(unsafe) var emitter: EventEmitter?

    init(_ emitter: EventEmitter) {
        self.emitter = emitter
    }
}
