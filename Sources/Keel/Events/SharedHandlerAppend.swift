/// Appends one shared handler to the handler tables of many emitters built alike, handing each
/// the table the last one got instead of copying it again.
///
/// Models built alike (by one identity map, followed by its shared handlers) share one handler
/// table, copy-on-write, until something is added to one of them; adding the same shared handler
/// gives each the same new table. The append remembers the last table it was given and the table
/// that gave, and hands an emitter with that very table (the same storage) the same result. Only
/// a table no emitter holds alone is remembered (none, or a shared one): an emitter's own table
/// may hold the app's handlers, which must not be kept alive here once the emitter is gone.
final class SharedHandlerAppend {
    private let handler: EventHandler
    private let name: String
    // Kept, so that their storage cannot be freed and reused by another table while compared.
    private var before: OrderedStringMap<HandlerList>?
    private var after: OrderedStringMap<HandlerList>?

    /// An append of `handler`, registered for `name`.
    init(_ handler: EventHandler, named name: String) {
        self.handler = handler
        self.name = name
    }

    /// Adds the handler at the end of `emitter`'s handlers of the name; `state` is its state.
    func append(to emitter: EventEmitter, in state: EmitterState) {
        if let before, let after, state.handlers.isIdentical(to: before) {
            // A dispatch in progress iterates the lists of the table replaced (``HandlerList/lent``).
            state.retireIfDispatching()
            state.handlers = after
            return
        }
        // A table that a running dispatch retired is shared with it, not with emitters built alike.
        guard state.dispatchDepth == 0, state.handlers.isEmpty || !state.handlers.hasUniqueStorage() else {
            emitter.add(handler, named: name, in: state)
            return
        }
        let original = state.handlers
        emitter.add(handler, named: name, in: state)
        before = original
        after = state.handlers
    }
}
