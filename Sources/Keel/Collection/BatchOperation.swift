/// What ``Collection/performAll(_:_:options:maxConcurrent:progress:isolation:)`` does to each
/// model: RestKit's batch of object request operations, as Backbone calls them.
///
/// ```swift
/// let outcomes = await notes.performAll(.fetch, maxConcurrent: 4)
/// ```
public enum BatchOperation: Sendable, Hashable {
    /// Loads each model with ``Model/fetch(options:)``. By default the models that have an id.
    case fetch
    /// Saves each model with ``Model/save(_:wait:patch:options:)``. By default the new models and
    /// those with unsaved changes.
    case save
    /// Destroys each model with ``Model/destroy(wait:options:)``, which removes it from its
    /// collections. By default every model of the collection.
    case destroy
}
