import Foundation

/// The state of a model that most models never use (the server snapshot, the sync queue, the
/// relations' live sides), kept out of line so that a model that only holds attributes stays
/// small.
///
/// Created on first write. What even a synced model rarely has (its own URL settings and
/// backend, a validation error, a released collection's context, a `HasOne` owner) is in a
/// second box, ``RareModelExtras``, made when one of them is first set: a fetched model's
/// extras (its last synced attributes) take one small allocation, not room for all of them.
///
/// Subclassed by ``OneLink`` alone: the link of a class's only relation, when it is a has-one
/// or belongs-to, is its owner's extras too (``Model/makeRelationLinks(_:)``), so that such an
/// owner (a post and its author) costs one object fewer.
class ModelExtras {
    /// The attributes as of the last successful fetch or save.
    var syncedStorage: Attributes?
    /// The body of the last successful fetch or save response, before `parse`.
    var remoteAttributes: JSONValue? {
        get { syncRecords?.remoteBody }
        set {
            if let syncRecords {
                syncRecords.remoteBody = newValue
            } else if let newValue {
                syncRecords = SyncRecords(remoteBody: newValue)
            }
        }
    }
    /// Runs the model's sync operations one at a time, in call order.
    var syncGate: SyncGate {
        if let syncRecords { return syncRecords.gate }
        let made = SyncRecords(remoteBody: nil)
        syncRecords = made
        return made.gate
    }
    /// ``remoteAttributes`` and ``syncGate`` in a box of their own, one word: held in place,
    /// the body took 24 bytes of every model's extras, a post's link to its author among them,
    /// and the gate another 8, where only a model that synced, or one whose class keeps what
    /// the server sent, has either.
    private var syncRecords: SyncRecords?
    /// The live sides of the class's relations.
    var relationLinks: RelationLinks?
    /// The case of ``syncState``: one byte, in the padding after ``relationLinks``, where a
    /// ``SyncState`` stored whole took 48 bytes of every model's extras (the room of
    /// ``SyncError``'s largest case) for an error that only a failed sync has.
    private var syncStateCase = SyncStateCase.synced
    /// ``DependentLink/isMerging``, for the extras that are a link: declared here, in the
    /// padding after ``syncStateCase``, where the subclass's own fields took a word more of
    /// every post's link to its author.
    final var linkIsMerging = false
    /// ``DependentLink/dependentIndex`` in 32 bits, beside ``linkIsMerging``.
    final var linkDependentIndex: Int32 = 0

    /// The cases of ``SyncState``, without the error of `failed`.
    private enum SyncStateCase: UInt8 {
        case synced, pending, failed, conflict
    }
    /// What builds the related models: the factory the model was created with, or the
    /// identity map that built it (its anchor, which keeps the map alive: the factory a map
    /// shares among its models holds the map without a reference count, until the map's deinit).
    var relatedModelBuilder: RelatedModelBuilder?
    /// The factory the model builds its related models with, if any.
    var relatedModelFactory: RelatedModelFactory? { relatedModelBuilder?.factory }
    /// The identity map that built the model: related models are built through it directly,
    /// without the factory's call through a closure.
    var relatedModelSource: IdentityMap? { relatedModelBuilder?.map }
    /// ``relatedModelSource`` without a reference count, for a call that the model keeps it
    /// alive through.
    ///
    /// A map is held weakly by its handlers, so it has a side table, and each retain and
    /// release of it takes the runtime's slow path (75 and 95 instructions where another
    /// object's take 22 and 18): reading it retained cost every related model two of them.
    @inline(__always)
    var unretainedRelatedModelSource: Unmanaged<IdentityMap>? {
        guard let relatedModelBuilder, let map = relatedModelBuilder.map else { return nil }
        return Unmanaged.passUnretained(map)
    }
    /// The rarely used state, made when first set; possibly shared with other models
    /// (``shareRare(_:)``) until one of them writes to it.
    private var rare: RareModelExtras?

    /// The rarely used state, made now, or copied from a shared one, if need be.
    private var rareForWriting: RareModelExtras {
        if isKnownUniquelyReferenced(&rare), let rare { return rare }
        let made = rare?.copy() ?? RareModelExtras()
        rare = made
        return made
    }

    /// Takes `shared` as the rarely used state, when the model has none: a store gives every
    /// model it holds one box naming its backend, instead of a box each.
    ///
    /// The box is copied before any write (``rareForWriting``), so a model that later sets its
    /// own URL root, backend or validation error changes only itself.
    ///
    /// - Returns: Whether the model took it.
    func shareRare(_ shared: RareModelExtras) -> Bool {
        guard rare == nil else { return false }
        rare = shared
        return true
    }

    /// Where the model stands with its server (``Model/syncState``): its case here, the error of
    /// ``SyncState/failed(_:)`` in the rarely used state.
    var syncState: SyncState {
        get {
            switch syncStateCase {
            case .synced: .synced
            case .pending: .pending
            case .conflict: .conflict
            case .failed: rare?.syncFailure.map(SyncState.failed) ?? .synced
            }
        }
        set {
            switch newValue {
            case .failed(let error):
                rareForWriting.syncFailure = error
                syncStateCase = .failed
                return
            case .synced: syncStateCase = .synced
            case .pending: syncStateCase = .pending
            case .conflict: syncStateCase = .conflict
            }
            // The error goes with the state that had it; a shared box is left as it is.
            if rare?.syncFailure != nil { rareForWriting.syncFailure = nil }
        }
    }

    /// The model's own `urlRoot`: `.none` until assigned, then the assigned value (which
    /// may be `nil`, hiding the class's).
    var urlRoot: String?? {
        get { rare.map(\.urlRoot) ?? .none }
        set { rareForWriting.urlRoot = newValue }
    }
    var baseURL: URL? {
        get { rare?.baseURL }
        set { rareForWriting.baseURL = newValue }
    }
    var sync: (any Sync)? {
        get { rare?.sync }
        set { rareForWriting.sync = newValue }
    }
    /// Whether ``sync`` is set, without copying the backend out.
    var namesSync: Bool { rare?.namesSync ?? false }
    /// Whether ``releasedCollection`` is set, without copying the context out.
    var hasReleasedCollection: Bool { rare?.hasReleasedCollection ?? false }
    /// The model's JSON:API resource object in the last list document that carried it (its
    /// `meta` and `links`); `nil` once the model syncs on its own.
    var resourceObject: JSONValue? {
        get { rare?.resourceObject }
        set { rareForWriting.resourceObject = newValue }
    }
    var validationError: ValidationError? {
        get { rare?.validationError }
        set { rareForWriting.validationError = newValue }
    }
    /// What the released collection this model belonged to gave it for syncing.
    var releasedCollection: ReleasedCollection? {
        get { rare?.releasedCollection }
        set { rareForWriting.releasedCollection = newValue }
    }
    /// The owner whose ``HasOne`` this model is.
    var hasOneOwner: Model? {
        get { rare?.hasOneOwner }
        set { rareForWriting.hasOneOwner = newValue }
    }
    /// The relation's path under its owner's URL, for the model of a ``HasOne``.
    var hasOnePath: String? {
        get { rare?.hasOnePath }
        set { rareForWriting.hasOnePath = newValue }
    }
    /// The id a ``OneLink`` keeps for Rails' `_destroy` (its owner cleared or replaced a saved
    /// model), in the rarely used state of the link's own extras: only a nested-attributes
    /// relation has one, and held in the link it made every link 16 bytes larger.
    ///
    /// Clearing an id that is not there (each sync of the owner does) makes no box.
    var removedLinkID: JSONValue? {
        get { rare?.removedLinkID }
        set {
            guard newValue != nil || rare?.removedLinkID != nil else { return }
            rareForWriting.removedLinkID = newValue
        }
    }
    /// Whether the model is sent as `_destroy` when nested (``Model/isMarkedForDestruction``).
    var isMarkedForDestruction: Bool {
        get { rare?.isMarkedForDestruction ?? false }
        set { rareForWriting.isMarkedForDestruction = newValue }
    }
}

/// What ``ModelExtras`` holds for the few models that have it: their own URL settings and
/// backend, a JSON:API resource object, a validation error, a released collection's context,
/// a `HasOne` owner.
final class RareModelExtras {
    var urlRoot: String?? = .none
    var baseURL: URL?
    var sync: (any Sync)? {
        didSet { namesSync = sync != nil }
    }
    private(set) var namesSync = false
    var resourceObject: JSONValue?
    var validationError: ValidationError?
    var releasedCollection: ReleasedCollection? {
        didSet { hasReleasedCollection = releasedCollection != nil }
    }
    private(set) var hasReleasedCollection = false
    weak var hasOneOwner: Model?
    var hasOnePath: String?
    var isMarkedForDestruction = false
    /// The id of ``ModelExtras/removedLinkID``.
    var removedLinkID: JSONValue?
    /// The error of a model whose ``ModelExtras/syncState`` is ``SyncState/failed(_:)``.
    var syncFailure: SyncError?

    /// A box with the same values, for a model that writes to a box it shares.
    func copy() -> RareModelExtras {
        let copy = RareModelExtras()
        copy.urlRoot = urlRoot
        copy.baseURL = baseURL
        copy.sync = sync
        copy.resourceObject = resourceObject
        copy.validationError = validationError
        copy.releasedCollection = releasedCollection
        copy.hasOneOwner = hasOneOwner
        copy.hasOnePath = hasOnePath
        copy.isMarkedForDestruction = isMarkedForDestruction
        copy.removedLinkID = removedLinkID
        copy.syncFailure = syncFailure
        return copy
    }
}

/// The body a model's server last sent (``ModelExtras/remoteAttributes``) and the gate its
/// syncs go through (``ModelExtras/syncGate``), boxed: a model that has one of them most
/// often has the other.
private final class SyncRecords {
    var remoteBody: JSONValue?
    /// Made with the first sync that asks for it.
    lazy var gate = SyncGate()

    init(remoteBody: JSONValue?) {
        self.remoteBody = remoteBody
    }
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
