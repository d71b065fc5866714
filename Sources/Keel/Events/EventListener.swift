/// Backbone's `listenTo`, `listenToOnce` and `stopListening` for any object: keep one in a
/// property, and it stops listening when its owner is deallocated.
///
/// ``EventEmitter`` has these methods itself, so a class that already subclasses something
/// else — a view controller, a SwiftUI model, any class — holds an `EventListener` instead:
///
/// ```swift
/// final class NoteViewController: UIViewController {
///     let note: Note
///     let listener = EventListener()
///
///     init(note: Note) {
///         self.note = note
///         super.init(nibName: nil, bundle: nil)
///         listener.listenTo(note, .change(Note.title)) { [weak self] _ in self?.render() }
///         listener.listenToOnce(note, .destroy) { [weak self] _ in self?.dismiss(animated: true) }
///     }
///
///     func render() {}
/// }
/// ```
///
/// When the controller goes away, so does its listener, and every handler it registered is
/// removed from the notes it listened to: nothing more to write in `deinit`. The targets
/// never keep the listener alive. Capture `self` weakly in the handlers (as above), since
/// a target keeps its handlers until they are removed.
///
/// Handlers run synchronously on the isolation that triggers the event, as all handlers do;
/// like an emitter, a listener is not `Sendable`, so use it on the isolation of the
/// emitters it listens to.
public final class EventListener {
    /// The emitter whose `listenTo` bookkeeping this listener uses; it owns every handler,
    /// so the targets drop them all when it is deallocated with the listener.
    private let emitter = EventEmitter()

    /// Creates a listener that listens to nothing yet.
    ///
    /// ```swift
    /// let listener = EventListener()
    /// ```
    public init() {}

    // MARK: - Listening

    /// Listens to events of an emitter until ``stopListening(_:_:)-(_,String?)`` or until
    /// this listener is deallocated.
    ///
    /// ```swift
    /// listener.listenTo(notes, "add remove") { [weak self] _ in self?.updateCount() }
    /// ```
    ///
    /// - Parameters:
    ///   - target: The emitter to listen to.
    ///   - events: One name, or several separated by spaces; `"all"` receives every event.
    ///   - callback: The handler.
    /// - Returns: A token that removes the handler and its bookkeeping.
    @discardableResult
    public func listenTo(_ target: EventEmitter, _ events: String, _ callback: @escaping (Event) -> Void)
        -> Subscription
    {
        emitter.listenTo(target, events, callback)
    }

    /// Listens to typed events of an emitter.
    ///
    /// ```swift
    /// listener.listenTo(note, .change(Note.title)) { [weak self] _ in self?.render() }
    /// ```
    ///
    /// - Parameters:
    ///   - target: The emitter to listen to.
    ///   - events: The event, or several in an array.
    ///   - callback: The handler.
    /// - Returns: A token that removes the handler and its bookkeeping.
    @discardableResult
    public func listenTo(_ target: EventEmitter, _ events: EventName, _ callback: @escaping (Event) -> Void)
        -> Subscription
    {
        emitter.listenTo(target, events.rawValue, callback)
    }

    /// Listens to several events of an emitter at once, from an event map.
    ///
    /// ```swift
    /// listener.listenTo(note, ["change:title": { _ in }, "destroy": { _ in }])
    /// ```
    ///
    /// - Parameters:
    ///   - target: The emitter to listen to.
    ///   - map: Event names (each may list several names) and their handlers.
    /// - Returns: A token that removes all of them and their bookkeeping.
    @discardableResult
    public func listenTo(_ target: EventEmitter, _ map: KeyValuePairs<String, (Event) -> Void>) -> Subscription {
        emitter.listenTo(target, map)
    }

    /// Listens to events of an emitter until each named event has fired once.
    ///
    /// ```swift
    /// listener.listenToOnce(note, "sync") { _ in print("loaded") }
    /// ```
    ///
    /// - Parameters:
    ///   - target: The emitter to listen to.
    ///   - events: One name, or several separated by spaces; each fires once.
    ///   - callback: The handler.
    /// - Returns: A token that removes the handler and its bookkeeping.
    @discardableResult
    public func listenToOnce(_ target: EventEmitter, _ events: String, _ callback: @escaping (Event) -> Void)
        -> Subscription
    {
        emitter.listenToOnce(target, events, callback)
    }

    /// Listens to typed events of an emitter until each has fired once.
    ///
    /// ```swift
    /// listener.listenToOnce(note, .sync) { _ in print("loaded") }
    /// ```
    ///
    /// - Parameters:
    ///   - target: The emitter to listen to.
    ///   - events: The event, or several in an array; each fires once.
    ///   - callback: The handler.
    /// - Returns: A token that removes the handler and its bookkeeping.
    @discardableResult
    public func listenToOnce(_ target: EventEmitter, _ events: EventName, _ callback: @escaping (Event) -> Void)
        -> Subscription
    {
        emitter.listenToOnce(target, events.rawValue, callback)
    }

    /// Listens to several events of an emitter until each has fired once, from an event map.
    ///
    /// ```swift
    /// listener.listenToOnce(note, ["sync": { _ in }, "error": { _ in }])
    /// ```
    ///
    /// - Parameters:
    ///   - target: The emitter to listen to.
    ///   - map: Event names (each may list several names) and their handlers.
    /// - Returns: A token that removes the handlers that have not run yet.
    @discardableResult
    public func listenToOnce(_ target: EventEmitter, _ map: KeyValuePairs<String, (Event) -> Void>) -> Subscription {
        emitter.listenToOnce(target, map)
    }

    // MARK: - Stopping

    /// Removes handlers that this listener registered.
    ///
    /// ```swift
    /// listener.stopListening()                 // everything
    /// listener.stopListening(note)             // everything on `note`
    /// listener.stopListening(note, "change")   // only "change" on `note`
    /// ```
    ///
    /// - Parameters:
    ///   - target: One emitter, or `nil` for every emitter this listener listens to.
    ///   - events: Space-separated names, or `nil` for every name.
    public func stopListening(_ target: EventEmitter? = nil, _ events: String? = nil) {
        emitter.stopListening(target, events)
    }

    /// Removes the handlers of typed event names that this listener registered.
    ///
    /// ```swift
    /// listener.stopListening(note, .change)   // only "change" on `note`
    /// listener.stopListening(nil, .change)    // "change" on every target
    /// ```
    ///
    /// - Parameters:
    ///   - target: One emitter, or `nil` for every emitter this listener listens to.
    ///   - events: The event, or several in an array.
    public func stopListening(_ target: EventEmitter?, _ events: EventName) {
        emitter.stopListening(target, events.rawValue)
    }
}
