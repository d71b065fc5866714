public import Foundation

/// The one object of an app's data layer: it owns the backend, an ``IdentityMap`` and the
/// model classes, hands out collections and models wired to them, and keeps
/// ``LiveQuery``s up to date.
///
/// A store is a thin owner of pieces that work without it: the models it hands out are
/// ordinary ``Model``s and its collections ordinary ``Collection``s, wired to its backend and
/// built through its identity map, so one record is one instance however it was loaded.
/// Every model loaded or created through the store is **held** by it (strongly, as
/// SwiftData's context and WarpDrive's cache hold records) until it is destroyed, and
/// every held model's changes reach the store's live queries, wherever in the process the
/// change is made.
///
/// ```swift
/// final class Todo: Model {
///     override class var urlRoot: String? { "/todos" }
/// }
///
/// let store = Store.inMemory()
/// let milk = try await store.create(Todo.self, ["title": "Milk", "done": false])
/// let open = store.query(Todo.self, filter: .attribute("done", equals: false))
/// open.count          // 1
/// milk["done"] = true
/// open.count          // 0
/// ```
///
/// Like models, a store is not `Sendable`: create it in the isolation domain of the models
/// it hands out (usually the main actor). The backend may be shared by several stores.
public final class Store {
    /// The backend every request goes through: any `Sync` or decorator chain.
    ///
    /// ```swift
    /// let store = Store(sync: RetryingSync(RESTSync(baseURL: api)))
    /// store.sync
    /// ```
    public let sync: any Sync

    /// The identity map through which the store builds its models.
    ///
    /// ```swift
    /// store.identityMap.existing(Todo.self, id: 7, in: "/todos")
    /// ```
    public let identityMap: IdentityMap

    /// The held models and live queries of each registered class, by collection path.
    var classes: [String: StoredClass] = [:]
    /// The collection path of each registered class.
    var paths: [ObjectIdentifier: String] = [:]
    /// The state of the requests for each class path and query.
    var fetchStates: [FetchKey: FetchState] = [:]
    /// The versions of the server's changes applied so far, and the in-memory cursors.
    var changeLedger = ChangeLedger()
    /// The models inserted and deleted since the last ``saveChanges(atomically:options:)``.
    var pendingChanges = PendingChanges()

    /// The cache policy of queries whose class and call name none; ``CachePolicy/cacheFirst``
    /// unless set.
    ///
    /// ```swift
    /// store.defaultPolicy = .cacheAndNetwork
    /// ```
    public var defaultPolicy = CachePolicy.cacheFirst

    /// How long the records of a query stay in the store once no live query uses them, for
    /// queries whose class and call name none: five minutes unless set, as in TanStack Query.
    ///
    /// ```swift
    /// store.defaultGCTime = .seconds(60)
    /// ```
    public var defaultGCTime = Duration.seconds(300)

    /// How often a query kept loaded (``LiveQuery/keepLoaded()``) asks a backend that
    /// reports external changes (``ExternalChangeReporting``) whether another process
    /// changed its records: 250 milliseconds unless set.
    ///
    /// ```swift
    /// store.externalChangeInterval = .seconds(1)
    /// ```
    public var externalChangeInterval = Duration.milliseconds(250)

    /// The time `gcTime` is measured against.
    let clock = StoreClock()
    /// The backend's external change version at the last check.
    var externalVersion: Int?
    /// When a query kept loaded last asked the backend for its external change version.
    var lastExternalCheck: ContinuousClock.Instant?

    // The state of holding models opts out of run-time exclusivity checks, as the identity
    // map's does: no access to it stays open across a call into a model or the app.

    /// The number the next held model is given: models are kept in the order the store
    /// came to hold them, which is also how a query without a sort orders them.
    @exclusivity(unchecked) private var nextSequence = 0
    /// How many ``batchingHolds(expecting:_:)`` calls are running.
    @exclusivity(unchecked) var holdBatchDepth = 0
    /// The classes that held models in the running batch.
    @exclusivity(unchecked) var batchedClasses: [StoredClass] = []
    /// The collection path ``hold(_:in:)`` found a class for last, and the class: a fetch's
    /// models share one. (A path's class, once made, stays.)
    @exclusivity(unchecked) private var lastHeldClass: (collection: String, stored: StoredClass)?
    /// The class ``storedClass(for:path:)`` found last, and its record.
    ///
    /// A detail screen's reads and a query's loads ask for one class again and again.
    /// Forgotten when a class's path changes.
    @exclusivity(unchecked) private var lastFoundClass: (type: ObjectIdentifier, stored: StoredClass)?
    /// The rarely used state of a held model that names only the store's backend, shared by
    /// the held models that have no such state of their own (see ``wire(_:path:)``).
    private lazy var backendExtras: RareModelExtras = {
        let extras = RareModelExtras()
        extras.sync = sync
        return extras
    }()

    /// Creates a store over a backend.
    ///
    /// ```swift
    /// let store = Store(sync: RESTSync(baseURL: URL(string: "https://api.example.com")!))
    /// ```
    ///
    /// - Parameters:
    ///   - sync: The backend: a `RESTSync`, an `InMemorySync`, a caching backend, or any
    ///     decorator chain.
    ///   - identityMap: The identity map to build models through; a new one by default.
    ///     The store holds every model the map builds from now on.
    public init(sync: any Sync, identityMap: IdentityMap = IdentityMap()) {
        self.sync = sync
        self.identityMap = identityMap
        // Weak: the map, and the collections built through it, may outlive the store.
        identityMap.didAdopt = { [weak self] model, collection in
            self?.hold(model, in: collection)
        }
        // The backend learns the classes as they are registered (`ModelRegistrationReceiving`),
        // and those the app registered in the map before the store was made.
        identityMap.didRegister = { registration in sync.forwardRegistration(registration) }
        for registration in identityMap.resourceTypes.registrations { sync.forwardRegistration(registration) }
    }

    /// A store over an ``InMemorySync``, for previews, tests and apps without a server.
    ///
    /// ```swift
    /// let store = Store.inMemory()
    /// ```
    ///
    /// - Returns: A store with a new, empty in-memory backend.
    public static func inMemory() -> Store {
        Store(sync: InMemorySync())
    }

    /// A store over a REST server.
    ///
    /// ```swift
    /// let store = Store.rest(baseURL: URL(string: "https://api.example.com")!)
    /// ```
    ///
    /// - Parameters:
    ///   - baseURL: The server's base URL; model paths resolve against it.
    ///   - headers: Headers for every request (an `Authorization` header, for example).
    /// - Returns: A store with a ``RESTSync`` backend.
    public static func rest(baseURL: URL, headers: [String: String] = [:]) -> Store {
        Store(sync: RESTSync(baseURL: baseURL, headers: headers))
    }

    // MARK: - Classes

    /// Registers a model class under a collection path, with its cache settings.
    ///
    /// A class with a `urlRoot` is registered under it on first use, with the store's
    /// defaults, so registering is needed only for classes without one, to use another
    /// path, or to change the defaults.
    ///
    /// ```swift
    /// store.register(Todo.self, path: "/lists/1/todos", policy: .cacheAndNetwork, staleTime: .seconds(30), gcTime: .seconds(60))
    /// ```
    ///
    /// - Parameters:
    ///   - type: The model class.
    ///   - path: Its collection path; the class's `urlRoot` when `nil`.
    ///   - policy: The cache policy of its queries; the store's ``defaultPolicy`` when `nil`.
    ///   - staleTime: How long a loaded answer stays fresh; `nil` keeps it fresh until it is
    ///     invalidated.
    ///   - gcTime: How long its queries' records stay once no live query uses them (see
    ///     ``collectGarbage()``); the store's ``defaultGCTime`` when `nil`.
    ///   - rollsBackFailedSaves: Whether a failed save of one of its models restores the
    ///     model's last server state (see ``SyncOptions/rollsBackOnFailure``).
    /// - Precondition: The class has a `urlRoot` or a path is given, and the path is not
    ///   registered for another class.
    public func register<M: Model>(
        _ type: M.Type,
        path: String? = nil,
        policy: CachePolicy? = nil,
        staleTime: Duration? = nil,
        gcTime: Duration? = nil,
        rollsBackFailedSaves: Bool = true
    ) {
        guard let path = path ?? M.urlRoot else {
            preconditionFailure("Store: \(M.self) has no urlRoot; register it with a path")
        }
        let stored = storedClass(for: type, path: path)
        stored.policy = policy
        stored.staleTime = staleTime
        stored.gcTime = gcTime
        stored.rollsBackFailedSaves = rollsBackFailedSaves
    }

    /// The collection path of a class, registering it under its `urlRoot` on first use.
    func path<M: Model>(for type: M.Type) -> String {
        if let path = paths[ObjectIdentifier(type)] { return path }
        guard let path = M.urlRoot else {
            preconditionFailure("Store: \(M.self) has no urlRoot; register it with a path")
        }
        return storedClass(for: type, path: path).path
    }

    /// The record of a class, created (and the class registered) on first use.
    func storedClass<M: Model>(for type: M.Type, path: String? = nil) -> StoredClass {
        let identifier = ObjectIdentifier(type)
        if path == nil, let last = lastFoundClass, last.type == identifier { return last.stored }
        if let known = paths[identifier], path == nil || path == known, let stored = classes[known] {
            lastFoundClass = (identifier, stored)
            return stored
        }
        let path = path ?? self.path(for: type)
        if let stored = classes[path] {
            precondition(
                stored.type == type,
                "Store: \(path) is registered for \(stored.type), not \(M.self)"
            )
            paths[identifier] = path
            lastFoundClass = nil
            return stored
        }
        return makeStoredClass(type: type, path: path)
    }

    /// Records a new class, whose successful writes invalidate its queries' records.
    private func makeStoredClass(type: Model.Type, path: String) -> StoredClass {
        let stored = StoredClass(type: type, path: path)
        stored.onWrite = { [weak self] in self?.invalidate(path: path) }
        stored.onResponse = { [weak self] response in self?.mergeIncluded(of: response) }
        identityMap.registerIfUnknown(type, collection: path)
        classes[path] = stored
        paths[ObjectIdentifier(type)] = path
        lastFoundClass = nil
        return stored
    }

    // MARK: - Holding models

    /// Starts holding a model the identity map built or registered, and shows it to the
    /// live queries of its class.
    func hold(_ model: Model, in collection: String) {
        let stored: StoredClass
        if let last = lastHeldClass, last.collection == collection {
            stored = last.stored
        } else if let known = classes[collection] {
            stored = known
            lastHeldClass = (collection, known)
        } else if let registered = paths[ObjectIdentifier(type(of: model))], let known = classes[registered] {
            stored = known
        } else {
            stored = makeStoredClass(type: type(of: model), path: collection)
        }
        guard stored.held[model.cidNumber] == nil else { return }
        wire(model, path: stored.path)
        nextSequence += 1
        if stored.hold(model, sequence: nextSequence, isBatched: holdBatchDepth > 0) {
            batchedClasses.append(stored)
        }
    }

    /// The models of a class the store holds, in the order it came to hold them.
    ///
    /// ```swift
    /// let everything = store.models(Todo.self)
    /// ```
    ///
    /// - Parameter type: The model class.
    /// - Returns: The held models.
    /// - Complexity: O(*n* log *n*) for *n* held models.
    public func models<M: Model>(_ type: M.Type) -> [M] {
        storedClass(for: type).orderedModels().compactMap { $0 as? M }
    }

    /// The held model of a class with this id, without a request.
    ///
    /// ```swift
    /// let cached = store.peek(Todo.self, id: 7)
    /// ```
    ///
    /// - Parameters:
    ///   - type: The model class.
    ///   - id: The record's id.
    /// - Returns: The model, or `nil` when the store holds none with this id.
    /// - Complexity: O(1) on average.
    public func peek<M: Model>(_ type: M.Type, id: JSONValue) -> M? {
        identityMap.existing(type, id: id, in: path(for: type))
    }

    /// Gives a model the store's path (unless a collection gives it one) and backend
    /// (unless it, its collection or its class names one), so that it saves and destroys
    /// through the store.
    func wire(_ model: Model, path: String) {
        if model.collection == nil && model.urlRoot != path { model.urlRoot = path }
        guard !model.namesBackend else { return }
        // The models share one box that names the backend, until one of them writes to it:
        // setting `sync` on each made a box and copied the backend into it.
        if !model.extras.shareRare(backendExtras) { model.sync = sync }
    }
}

extension Model {
    /// Whether the model, its collection or its class names a backend (the shared store's
    /// does not count).
    ///
    /// Asks the collection for its backend alone: the whole ``collectionContext`` (URL,
    /// base URL, wire format) cost a tenth of holding a loaded model.
    var namesBackend: Bool {
        // The extras are read in place, by flags: `sync` and ``releasedCollectionContext`` copy
        // out a backend and a whole context to compare them with `nil`, and each optional such
        // a test makes is destroyed after it, a call even when it is `nil`.
        let extras = storedExtras
        if let extras, extras.namesSync { return true }
        if Self.sync != nil { return true }
        if let collection { return collection.sync != nil }
        if let extras, extras.hasReleasedCollection { return extras.releasedCollection?.context.sync != nil }
        guard let forwarder = collectionForwarder else { return false }
        return forwarder.releasedCollection?.context.sync != nil
    }
}
