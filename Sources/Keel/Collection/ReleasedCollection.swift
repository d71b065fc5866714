/// What a released collection gave its models for syncing, kept once by its forwarding
/// handler (``EventHandler/releasedCollection``) rather than copied into each model.
final class ReleasedCollection {
    /// The collection's URL, base URL, backend and wire format when its deinit started.
    let context: CollectionSyncContext

    init(_ context: CollectionSyncContext) {
        self.context = context
    }
}
