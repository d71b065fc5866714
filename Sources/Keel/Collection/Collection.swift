public import Foundation
public import Observation

/// An ordered set of models, indexed by id and client id: Backbone's `Collection`.
///
/// `import Keel` makes `Collection` mean this class; write `Swift.Collection` for the
/// standard library protocol. The class conforms to `RandomAccessCollection`, so `map`,
/// `filter`, `first(where:)` and `for … in` work as on an array.
///
/// ```swift
/// let notes = Collection<Note>(comparator: .attribute("rank"))
/// notes.on("add") { event in print("added", event.model?.cid ?? "") }
/// notes.add([["id": 1, "title": "Groceries", "rank": 2], ["id": 2, "title": "Taxes", "rank": 1]])
/// notes.get(1)?["title"]                 // "Groceries"
/// notes.map { $0["title"] }              // ["Taxes", "Groceries"]
/// ```
///
/// Code that the collection calls while it changes its models (a comparator; a `change`
/// or `remove` handler during `set`) cannot change the same collection: such a change is
/// rejected, and a sort in progress throws ``CollectionError/reentrantMutation``.
///
/// Subclass it to set a URL or override ``parse(_:options:)`` and
/// ``modelID(for:idAttribute:)``. Like ``Model``, a collection is not `Sendable` and lives
/// in the isolation domain that created it. It holds its models strongly; models do not
/// keep their collections alive.
open class Collection<M: Model>: EventEmitter, ModelCollection, RelatedCollection, Observable {
    /// The collection's client id, unique among all models and collections of the process.
    public let cid: String

    /// How the collection keeps its models in order; `nil` keeps insertion order.
    ///
    /// Setting it does not re-sort: call ``sort(silent:options:)``.
    public var comparator: ModelComparator<M>?

    /// Builds the model for new attributes, for polymorphic collections; `nil` uses `M`.
    public let factory: ((Attributes, ChangeOptions) -> M)?

    /// The resource path of the collection, such as `"/notes"`, unless an instance sets its
    /// own `url`.
    ///
    /// ```swift
    /// final class Notes: Collection<Note> {
    ///     override class var url: String? { "/notes" }
    /// }
    /// ```
    open class var url: String? { nil }

    /// The collection's resource path; its models' URLs are this plus their id.
    ///
    /// A related collection (``HasMany``) without one of its own is under its owner's URL, such as
    /// `/users/1/invites`.
    ///
    /// ```swift
    /// let notes = Collection<Note>(url: "/notes")
    /// ```
    public var url: String? {
        get { storedURL ?? relationOwner.flatMap { $0.nestedResourcePath(relationPath, key: relationKey) } }
        set { storedURL = newValue }
    }

    /// The base URL that the collection's and its models' relative URLs resolve against; a
    /// related collection without one of its own uses its owner's.
    ///
    /// ```swift
    /// notes.baseURL = URL(string: "https://api.example.com")
    /// ```
    public var baseURL: URL? {
        get { storedBaseURL ?? relationOwner?.resolvedBaseURL }
        set { storedBaseURL = newValue }
    }

    /// The backend the collection and its models use (unless a model has its own); a related
    /// collection without one of its own uses its owner's.
    ///
    /// ```swift
    /// let notes = Collection<Note>(url: "/notes", sync: InMemorySync())
    /// ```
    public var sync: (any Sync)? {
        get { storedSync ?? relationOwner?.resolvedSync }
        set { storedSync = newValue }
    }

    // Without run-time exclusivity checks: each access is a plain read or write (the store
    // asks the collection for its backend for every model a fetch brings).
    @exclusivity(unchecked) private var storedURL: String?
    @exclusivity(unchecked) private var storedBaseURL: URL?
    @exclusivity(unchecked) private var storedSync: (any Sync)?
    /// The model whose ``HasMany`` relation this collection is.
    weak var relationOwner: Model?
    /// The path of this collection under its owner's URL.
    var relationPath = ""
    /// The owner's attribute that this collection is the relation of.
    var relationKey = ""
    /// What each update runs inside, so that the models it builds reach their owner at once
    /// (a ``Store``'s collections report them to its live queries in one batch).
    weak var updateBatching: (any UpdateBatching)?

    // Without run-time exclusivity checks, as the stored URL and backend: every request of a
    // model in the collection reads it, through `ModelCollection` (two checks a create).

    /// The wire format of this collection's models, instead of their class's
    /// ``Model/wireFormat``; `nil` to use the class's.
    ///
    /// ```swift
    /// let drafts = Collection<Note>(url: "/drafts")
    /// drafts.wireFormat = .djangoREST
    /// ```
    @exclusivity(unchecked) public var wireFormat: WireFormat?

    /// The response of the last successful ``fetch(reset:options:)``: its status, headers
    /// (`link`, `x-total-count`, an `etag`) and body as the server sent it.
    ///
    /// ```swift
    /// try await notes.fetch()
    /// let total = notes.lastResponse?.headers["x-total-count"]
    /// ```
    public internal(set) var lastResponse: SyncResponse?

    /// Runs this collection's fetches one at a time, in call order.
    lazy var syncGate = SyncGate()

    /// The `all` handler that forwards a model's events to this collection; every model of
    /// the collection shares it, and a model refers to its ``Model/collection`` through it.
    var forwardingHandler: EventHandler {
        if let handler = createdForwardingHandler { return handler }
        let handler = EventHandler.forwarding(to: self, isSubclass: !isBaseCollection)
        createdForwardingHandler = handler
        return handler
    }

    /// ``forwardingHandler`` without a reference count, for a call that uses it while the
    /// collection, which keeps it from its creation on, is alive.
    var unretainedForwardingHandler: Unmanaged<EventHandler> {
        if let handler = createdForwardingHandler { return Unmanaged.passUnretained(handler) }
        return Unmanaged.passUnretained(forwardingHandler)
    }

    /// ``forwardingHandler`` once it has been created.
    private var createdForwardingHandler: EventHandler?

    /// Whether the collection is an instance of `Collection` itself rather than of a subclass.
    ///
    /// Its ``modelID(for:idAttribute:)`` is then the default one, which for a model's
    /// attributes is the model's cached id (``Model/id``): the indexes read that instead of
    /// searching the attributes for the id.
    final let isBaseCollection: Bool

    // The models and their indexes opt out of run-time exclusivity checks: every mutation
    // is a short internal step that never calls user code (sorting happens on a copy).

    /// The models, in order, unless ``slots`` holds them.
    @exclusivity(unchecked) final var packed: [M] = []
    /// The models after removals from the middle, until something needs them as an array.
    @exclusivity(unchecked) final var slots: ModelSlots?
    /// The models by id and by client id number, typed as `Model` so that the indexes are concrete:
    /// across modules, generic code runs unspecialized, and a `[JSONValue: M]` insert cost several
    /// times a concrete one.
    ///
    /// Only `M`s are ever stored.
    @exclusivity(unchecked) final var byID = ModelIDIndex()
    @exclusivity(unchecked) final var byCID = IntKeyedModels()
    /// Tracks reads and changes of the models for Observation; created on the first read.
    var observation: ModelsObservation?
    /// Whether user code is running in the middle of an update of the models and indexes
    /// (a comparator, a merge's `change` events); the collection then rejects mutations.
    final var isUpdating = false
    /// Whether a mutation was rejected since the outermost sort started.
    final var rejectedMutation = false

    /// Creates a collection of models, sorting them if there is a comparator.
    ///
    /// No events fire during construction.
    ///
    /// ```swift
    /// let notes = Collection<Note>([groceries, taxes], comparator: .attribute("rank"))
    /// let shapes = Collection<Shape>(factory: { attributes, options in
    ///     attributes["sides"] == 3 ? Triangle(attributes, options: options) : Shape(attributes, options: options)
    /// })
    /// ```
    ///
    /// - Parameters:
    ///   - models: The initial models.
    ///   - comparator: How to order the models.
    ///   - factory: Builds models from attributes; `nil` uses `M`.
    ///   - url: The resource path; `nil` uses the class's `url`.
    ///   - sync: The backend for the collection and its models.
    ///   - options: Options for adding the initial models.
    public required init(
        _ models: [M] = [],
        comparator: ModelComparator<M>? = nil,
        factory: ((Attributes, ChangeOptions) -> M)? = nil,
        url: String? = nil,
        sync: (any Sync)? = nil,
        options: UpdateOptions = UpdateOptions()
    ) {
        cid = "col" + String(EventEmitter.makeUniqueID())
        isBaseCollection = Self.self == Collection<M>.self
        self.comparator = comparator
        self.factory = factory
        storedURL = url ?? Self.url
        storedSync = sync
        super.init()
        var options = options
        var inputs = CollectionInputs.models(Self.upcast(models))
        var sent: SentRecords?
        if let attributes = options.initialAttributes {
            let read = self.inputs(from: attributes, options: options)
            inputs = inputs.appending(read.inputs)
            sent = read.sent
            options.initialAttributes = nil
        }
        if !inputs.isEmpty {
            var resetOptions = options
            resetOptions.silent = true
            sent.give(to: reset(inputs: inputs, options: resetOptions))
        }
        initialize(options: options)
    }

    /// Creates a collection from attributes, building one model for each.
    ///
    /// ```swift
    /// let notes = Collection<Note>([["id": 1, "title": "Groceries"]])
    /// ```
    ///
    /// - Parameters:
    ///   - attributes: The attributes of the initial models.
    ///   - comparator: How to order the models.
    ///   - factory: Builds models from attributes; `nil` uses `M`.
    ///   - url: The resource path; `nil` uses the class's `url`.
    ///   - sync: The backend for the collection and its models.
    ///   - options: Options for building the models (`parse`, `validate`).
    public convenience init(
        _ attributes: [Attributes],
        comparator: ModelComparator<M>? = nil,
        factory: ((Attributes, ChangeOptions) -> M)? = nil,
        url: String? = nil,
        sync: (any Sync)? = nil,
        options: UpdateOptions = UpdateOptions()
    ) {
        var options = options
        options.initialAttributes = attributes
        self.init([M](), comparator: comparator, factory: factory, url: url, sync: sync, options: options)
    }

    deinit {
        // First of all: the models reach this collection through its forwarding handler,
        // without a reference count, and must stop before its memory goes away.
        let forwarder = createdForwardingHandler
        forwarder?.forwarderWillDeinit()
        let keepsContext = url != nil || baseURL != nil || sync != nil || wireFormat != nil
        let released =
            keepsContext
            ? ReleasedCollection(CollectionSyncContext(url: url, baseURL: baseURL, sync: sync, wireFormat: wireFormat))
            : nil
        // Kept once, by the forwarder: the models whose `collection` this was keep that
        // forwarder and read the context through it (a copy in each cost a loaded model a
        // twentieth of its load).
        forwarder?.releasedCollection = released
        // A model's `collection` reads `nil` once the collection's deinit has started, so the
        // models whose `collection` was this one are among those that have none now; the
        // others without one (their collection removed them here) are given a copy.
        func release(_ model: Model) {
            model.removeDeadForwarders()
            if let released, forwarder == nil || model.collectionForwarder !== forwarder, model.collection == nil {
                model.keepSyncContext(of: released)
            }
        }
        if let slots {
            for case let model? in slots.slots { release(model) }
        }
        for model in packed { release(model) }
    }

    /// Runs at the end of construction; override it instead of an initializer.
    ///
    /// ```swift
    /// override func initialize(options: UpdateOptions) {
    ///     on("add") { _ in print("added") }
    /// }
    /// ```
    ///
    /// - Parameter options: The options passed to the initializer.
    open func initialize(options: UpdateOptions) {}

    // MARK: - Hooks

    /// Converts a server response into the attributes of models.
    ///
    /// The default accepts an array of objects and returns `nil` for anything else.
    ///
    /// ```swift
    /// override func parse(_ response: JSONValue, options: UpdateOptions) -> [Attributes]? {
    ///     response["results"]?.arrayValue?.compactMap(\.objectValue)
    /// }
    /// ```
    ///
    /// Reading a fetch's answer, the options carry its ``UpdateOptions/responseContext``: the
    /// request, the response and the route's parameters.
    ///
    /// - Parameters:
    ///   - response: The response body.
    ///   - options: The options of the call.
    /// - Returns: One attributes object per model, or `nil` when the response has none.
    open func parse(_ response: JSONValue, options: UpdateOptions) -> [Attributes]? {
        guard case .array(let values) = response else { return nil }
        var result: [Attributes] = []
        result.reserveCapacity(values.count)
        for value in values {
            guard let object = value.objectValue else { return nil }
            result.append(object)
        }
        return result
    }

    /// The value that identifies a model with these attributes in the collection.
    ///
    /// The default is the value of the id attribute (`nil` when absent or `null`). Override
    /// it when ids are only unique per type, for example:
    ///
    /// ```swift
    /// override func modelID(for attributes: Attributes, idAttribute: String) -> JSONValue? {
    ///     guard let type = attributes["type"]?.stringValue, let id = attributes["id"] else { return nil }
    ///     return "\(type)-\(id)"
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - attributes: A model's attributes.
    ///   - idAttribute: The id attribute of the model's class.
    open func modelID(for attributes: Attributes, idAttribute: String) -> JSONValue? {
        guard let id = attributes[idAttribute], !id.isNull else { return nil }
        return id
    }

    // MARK: - Observation

    @inline(__always)
    func observeModels() {
        // Lent to the call, not retained: the collection holds it.
        if let observation = observation.map(Unmanaged.passUnretained) {
            observation._withUnsafeGuaranteedRef { $0.access() }
        } else {
            makeModelsObservation().access()
        }
    }

    /// Creates the object that stands for the models in Observation: out of line, so that
    /// the reads that find it stay small.
    @inline(never)
    private func makeModelsObservation() -> ModelsObservation {
        let observation = ModelsObservation()
        self.observation = observation
        return observation
    }

    /// Changes the model array, telling Observation.
    func mutateModels(_ body: (inout [M]) -> Void) {
        packModels()
        guard let observation else {
            body(&packed)
            return
        }
        observation.willSet()
        body(&packed)
        observation.didSet()
    }
}

// MARK: - RandomAccessCollection

extension Collection: Swift.RandomAccessCollection {
    /// The position of the first model.
    public var startIndex: Int { 0 }

    /// The position after the last model.
    public var endIndex: Int {
        observeModels()
        return modelCount
    }

    /// The model at `position`.
    ///
    /// ```swift
    /// let first = notes[0]
    /// ```
    ///
    /// - Complexity: O(1); O(log *n*) after removals from the middle, until the collection
    ///   packs its models again.
    public subscript(position: Int) -> M {
        observeModels()
        return model(at: position)
    }
}
