/// What a ``Store`` keeps for one model class: the models it holds and the live queries
/// over them, which it tells about every model that arrives, changes or goes.
final class StoredClass {
    /// A held model and the order in which the store came to hold it.
    struct Held {
        let model: Model
        let sequence: Int
        /// The id of the class's handlers on the model.
        let followID: Int
    }

    /// A live query, held weakly: a query nobody uses any more stops being updated.
    private struct WeakObserver {
        weak var observer: (any StoreObserver)?
    }

    let type: Model.Type
    let path: String
    /// The cache policy of the class's queries, when the class has its own.
    var policy: CachePolicy?
    /// How long the class's loaded records stay fresh, when the class says.
    var staleTime: Duration?
    /// How long the class's loaded records stay once no live query uses them, when the
    /// class says.
    var gcTime: Duration?
    /// Whether a failed save of one of the class's models restores its server state.
    var rollsBackFailedSaves = true
    /// Called after the server accepted a create, save or destroy of a held model.
    var onWrite: (() -> Void)?
    /// Called with the answer of every successful sync of a held model.
    var onResponse: ((SyncResponse) -> Void)?
    /// The held models, by client id number.
    private(set) var held: [Int: Held] = [:]
    private var observers: [WeakObserver] = []
    /// The models held during a batch (see ``Store/batchingHolds(_:)``), not yet shown to
    /// the live queries.
    private var batched: [Held] = []

    init(type: Model.Type, path: String) {
        self.type = type
        self.path = path
    }

    deinit {
        for held in held.values {
            let followID = held.followID
            held.model.removeHandlers { $0.id == followID }
        }
    }

    /// Holds a model and follows its changes until it is destroyed; in a batch, the live
    /// queries are shown it when the batch ends (``showBatch()``).
    ///
    /// - Returns: Whether the model is the first of a batch.
    @discardableResult
    func hold(_ model: Model, sequence: Int, isBatched: Bool = false) -> Bool {
        let followID = EventEmitter.makeUniqueID()
        held[model.cidNumber] = Held(model: model, sequence: sequence, followID: followID)
        follow(model, id: followID)
        if isBatched {
            batched.append(Held(model: model, sequence: sequence, followID: followID))
            return batched.count == 1
        }
        for observer in liveObservers() { observer.storeDidAdd(model, sequence: sequence) }
        return false
    }

    /// Shows the live queries the models held during a batch that are still held, all at
    /// once.
    func showBatch() {
        let batch = batched.filter { held[$0.model.cidNumber]?.sequence == $0.sequence }
        batched = []
        guard !batch.isEmpty else { return }
        for observer in liveObservers() { observer.storeDidAdd(batch) }
    }

    /// Stops holding a model (it was destroyed) and takes it out of the live queries.
    func release(_ model: Model) {
        guard let released = held.removeValue(forKey: model.cidNumber) else { return }
        // The `sync` handler stays: a destroy that does not wait emits its `sync` after.
        model.removeHandlers { $0.id == released.followID && $0.name != "sync" }
        for observer in liveObservers() { observer.storeDidRemove(model) }
    }

    // MARK: - Following models

    /// The events of a held model that the class acts on.
    private static let followedEvents = ["change", "destroy", "sync", "error"]

    /// Registers one handler for the ``followedEvents`` of `model`, under one id and without
    /// an owner: one closure and no weak reference per model, where a handler per event
    /// with the class as owner cost four of each (``deinit`` removes them from the models
    /// that outlive the class).
    private func follow(_ model: Model, id: Int) {
        // The handler runs only in the model's own dispatch, so the model is alive.
        let handler: (Event) -> Void = { [weak self, unowned(unsafe) model] event in
            self?.handle(event, of: model)
        }
        let state = model.state
        for name in Self.followedEvents {
            model.register(name: name, id: id, callback: handler, owner: nil, isOnce: false, in: state)
        }
    }

    /// Acts on one of the ``followedEvents`` of a held model.
    private func handle(_ event: Event, of model: Model) {
        switch event.name {
        case "change":
            for observer in liveObservers() { observer.storeDidChange(model) }
        case "destroy":
            release(model)
        case "sync":
            if let response = event.response { onResponse?(response) }
            guard let method = event.request?.method, method != .read else { return }
            onWrite?()
        default:
            guard let request = event.request, event.error is SyncError,
                request.method == .update || request.method == .patch
            else { return }
            if request.context[SyncOptions.rollbackKey]?.boolValue ?? rollsBackFailedSaves {
                model.revert()
            }
        }
    }

    /// Destroys the held models among `numbers` (client id numbers) that are not new and
    /// have no unsaved changes: another process deleted their records. They leave the
    /// store, its queries and its collections as a destroyed model does.
    func forgetDeletedRecords(_ numbers: Set<Int>) {
        for number in numbers {
            guard let model = held[number]?.model, !model.isNew, model.unsavedChanges == nil else { continue }
            model.trigger(Event(name: "destroy", model: model, options: ChangeOptions()))
        }
    }

    /// Stops holding the models among `numbers` (client id numbers) that no live query
    /// shows, that have no unsaved changes and that are not new: their records were
    /// garbage-collected.
    func releaseUnused(_ numbers: Set<Int>) {
        let observers = liveObservers()
        for number in numbers {
            guard let model = held[number]?.model, !model.isNew, model.unsavedChanges == nil,
                !observers.contains(where: { $0.shows(model) })
            else { continue }
            let followID = held[number]?.followID
            held[number] = nil
            model.removeHandlers { $0.id == followID }
        }
    }

    /// The held models in the order the store came to hold them.
    ///
    /// - Complexity: O(*n* log *n*).
    func orderedHeld() -> [Held] {
        held.values.sorted { $0.sequence < $1.sequence }
    }

    /// The held models in the order the store came to hold them.
    func orderedModels() -> [Model] { orderedHeld().map(\.model) }

    /// Starts telling `observer` about the class's models.
    func addObserver(_ observer: any StoreObserver) {
        observers.removeAll { $0.observer == nil }
        observers.append(WeakObserver(observer: observer))
    }

    /// The observers still alive, in the order they were added.
    private func liveObservers() -> [any StoreObserver] {
        observers.compactMap(\.observer)
    }
}

/// What follows the models a store holds of one class: a live query.
protocol StoreObserver: AnyObject {
    /// The store holds a new model.
    func storeDidAdd(_ model: Model, sequence: Int)
    /// The store holds new models (a batch, in the order it came to hold them).
    func storeDidAdd(_ batch: [StoredClass.Held])
    /// A held model's attributes changed.
    func storeDidChange(_ model: Model)
    /// The store no longer holds a model (it was destroyed).
    func storeDidRemove(_ model: Model)
    /// Whether the observer shows the model.
    func shows(_ model: Model) -> Bool
}
