import Foundation

/// The state of a model that most models never use (their own URL settings and backend, the server
/// snapshot, the sync queue, a validation error), kept out of line so that a model that only holds
/// attributes stays small.
///
/// Created on first write.
final class ModelExtras {
    /// The model's own `urlRoot`: `.none` until assigned, then the assigned value (which
    /// may be `nil`, hiding the class's).
    var urlRoot: String?? = .none
    var baseURL: URL?
    var sync: (any Sync)?
    /// The attributes as of the last successful fetch or save.
    var syncedStorage: Attributes?
    /// The body of the last successful fetch or save response, before `parse`.
    var remoteAttributes: JSONValue?
    /// The model's JSON:API resource object in the last list document that carried it (its
    /// `meta` and `links`); `nil` once the model syncs on its own.
    var resourceObject: JSONValue?
    /// Runs the model's sync operations one at a time, in call order.
    lazy var syncGate = SyncGate()
    var validationError: ValidationError?
    /// Where the model stands with its server (``Model/syncState``).
    var syncState: SyncState = .synced
    /// What the released collection this model belonged to gave it for syncing.
    var releasedCollection: CollectionSyncContext?
    /// The live sides of the class's relations.
    var relationLinks: RelationLinks?
    /// Builds the related models, when an identity map does.
    var relatedModelFactory: RelatedModelFactory?
    /// What ``relatedModelFactory`` builds through (an identity map), kept alive by the model:
    /// the factory a map shares among its models holds the map weakly.
    var relatedModelSource: AnyObject?
    /// The relation links (``OneLink``) that embed this model, told of its changes.
    var dependentLinks: DependentLinks?
    /// The owner whose ``HasOne`` this model is, and the relation's path under its URL.
    weak var hasOneOwner: Model?
    var hasOnePath: String?
    /// Whether the model is sent as `_destroy` when nested (``Model/isMarkedForDestruction``).
    var isMarkedForDestruction = false
}

/// What a collection gives its models for syncing: the URL their own URLs start with, the
/// base URL, and the backend.
struct CollectionSyncContext {
    let url: String?
    let baseURL: URL?
    let sync: (any Sync)?
    let wireFormat: WireFormat?

    init(url: String?, baseURL: URL?, sync: (any Sync)?, wireFormat: WireFormat?) {
        self.url = url
        self.baseURL = baseURL
        self.sync = sync
        self.wireFormat = wireFormat
    }

    init(_ collection: any ModelCollection) {
        self.init(
            url: collection.url,
            baseURL: collection.baseURL,
            sync: collection.sync,
            wireFormat: collection.wireFormat
        )
    }
}
