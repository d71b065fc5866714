public import Foundation

/// JSON:API's Atomic Operations extension (<https://jsonapi.org/ext/atomic>): several
/// creates, updates and deletes of ``WireFormat/jsonAPI`` models in one ordered request that
/// the server applies all or nothing.
///
/// A new model goes as an `add` with its ``Model/cid`` as `lid`, and a model of the same
/// request that links to it (a ``BelongsTo`` parent, a ``HasOne`` or ``HasMany`` member)
/// names it by that `lid`, so a parent and its new children are created together. Models
/// are sent parents first, whatever their order in the call.
///
/// ```swift
/// let operations = AtomicOperations(endpoint: URL(string: "/operations"))
/// let author = Author(["name": "Ann"])
/// let article = Article(["title": "Hello"])
/// article[Article.author] = author
/// try await operations.save([article, author])   // one request: add author, add article
/// ```
///
/// When the server applies the request, each model gets the server's record (a new one its
/// id) and emits `sync`, each destroyed one `destroy` and `sync`. When it refuses it,
/// nothing changed on the server, and nothing changes locally: every model emits `error`,
/// the models an error object points to (`/atomic:operations/1/data/attributes/title`) get
/// their messages in ``Model/validationError`` and emit `invalid`, and the call throws the
/// first of those models' ``SyncError/validationFailed(_:status:)`` (the server's own error
/// when no error object names an operation).
///
/// A server that does not offer the extension (``endpoint`` is `nil`, or the endpoint
/// answers 404, 405, 406 or 415) gets one request per model instead, in the same order,
/// each child's foreign key set from its parent's new id. That fallback is not atomic: the
/// saves before a failed one stay saved.
///
/// Models whose backend is a ``TransactionalSync`` (`SQLiteSync`) go in one transaction of
/// that backend instead, all or nothing, each new child's foreign key given its new
/// parent's id inside the transaction; ``endpoint`` is not used.
///
/// Where Keel differs from the extension: an operation's `lid` is the model's `cid`; the
/// results of a server that leaves out those of removals (drf-json-api-atomic-operations)
/// are matched to the adds and updates in order.
public struct AtomicOperations: Sendable, Hashable {
    /// The media type of an atomic request and its answer:
    /// `application/vnd.api+json;ext="https://jsonapi.org/ext/atomic"`.
    ///
    /// ```swift
    /// request.headers["Accept"] = AtomicOperations.mediaType
    /// ```
    public static let mediaType = #"application/vnd.api+json;ext="https://jsonapi.org/ext/atomic""#

    /// The URL that takes atomic requests (`/operations`), resolved like a model's URL
    /// against the backend's base URL; `nil` when the server does not offer the extension.
    public var endpoint: URL?

    /// How a call's models reached the server.
    public enum Delivery: Sendable, Hashable {
        /// In one atomic request, with the server's answer.
        case atomically(SyncResponse)
        /// One request per model, because the server does not offer the extension.
        case oneByOne
        /// In one transaction of a backend that offers them (``TransactionalSync``), with
        /// one response per model.
        case inOneTransaction([SyncResponse])
    }

    /// Creates the extension's settings for one server.
    ///
    /// ```swift
    /// let operations = AtomicOperations(endpoint: URL(string: "/jsonapi/operations"))
    /// ```
    ///
    /// - Parameter endpoint: The URL that takes atomic requests; `nil` when there is none.
    public init(endpoint: URL?) {
        self.endpoint = endpoint
    }

    /// Saves `models` (creating the new ones) and destroys `destroying`, in one atomic request
    /// where the server offers the extension.
    ///
    /// Every model is validated first; an invalid one stops the call before anything is
    /// sent.
    ///
    /// One atomic request or one transaction goes to one backend, so when the call would
    /// send one, every model must resolve to the same backend (``Model/resolvedSync``: the
    /// same instance, or ``RESTSync`` values with the same base URL and headers) and every
    /// model's URL must be on the endpoint's server. Otherwise the call throws
    /// ``SyncError/atomicBatchSpansBackends(model:reason:)`` before anything is sent or
    /// changed: save each backend's models in a call of their own. When the models go one
    /// request each anyway (no ``endpoint``, or models that are not JSON:API), each goes to
    /// its own backend.
    ///
    /// When the server answered an atomic request with success, it committed every
    /// operation. Results that Keel cannot map to the models sent (the wrong number, a
    /// resource of another type, one without an id) do not undo that: each model whose
    /// result maps gets it, an update without one keeps what it sent as its server state,
    /// each removal is destroyed, and the call throws
    /// ``SyncError/atomicBatchCommitted(unmapped:reason:)`` naming the models that got no
    /// record. Results pair by position when there is one per operation or one per save;
    /// otherwise by the `lid` a result echoes, by `type` and `id` for an update, then by
    /// position among the saves of one type where the counts agree.
    ///
    /// ```swift
    /// try await operations.save([author, firstArticle, secondArticle], destroying: [draft])
    /// ```
    ///
    /// - Parameters:
    ///   - models: The models to create or update (their whole records, as a save sends them).
    ///   - destroying: The models to delete; new ones among them are only destroyed locally.
    ///   - options: Headers, timeout and handlers of the request.
    /// - Returns: Whether the models went in one request, in one transaction, or one by one.
    /// - Throws: ``SyncError``; nothing is applied on either side when an atomic request is
    ///   refused; ``SyncError/atomicBatchCommitted(unmapped:reason:)`` when it was committed
    ///   but not every result could be mapped.
    @discardableResult
    public func save(
        _ models: [Model],
        destroying: [Model] = [],
        options: SyncOptions = SyncOptions()
    ) async throws(SyncError) -> Delivery {
        let batch = AtomicBatch(saving: models, destroying: destroying)
        try batch.validate(options: options)
        let backends = try batch.backends()
        let atomicRequest = endpoint != nil && !batch.operations.isEmpty && batch.speaksJSONAPI(options: options)
        if backends.count > 1, atomicRequest || backends.contains(where: { $0.backend is any TransactionalSync }) {
            let first = String(describing: Swift.type(of: backends[0].model))
            throw .atomicBatchSpansBackends(
                model: String(describing: Swift.type(of: backends[1].model)),
                reason: "its backend is not the one of \(first), and one request or transaction goes to one backend"
            )
        }
        if let backend = backends.first?.backend as? any TransactionalSync {
            return .inOneTransaction(try await batch.send(through: backend, options: options))
        }
        guard let endpoint, atomicRequest else {
            try await batch.sendOneByOne(options: options)
            return .oneByOne
        }
        guard let response = try await batch.send(to: endpoint, options: options) else {
            try await batch.sendOneByOne(options: options)
            return .oneByOne
        }
        return .atomically(response)
    }
}
