/// What a ``Store`` keeps for one model class: the models it holds and the live queries
/// over them, which it tells about every model that arrives, changes or goes.
final class StoredClass {
    /// A held model and the order in which the store came to hold it.
    struct Held {
        let model: Model
        let sequence: Int
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
    // The held models and the observers opt out of run-time exclusivity checks: no access
    // to them stays open across a call into a model, a query or the app (each check cost
    // every model a store came to hold).

    /// The held models, by client id number.
    @exclusivity(unchecked) private(set) var held: [Int: Held] = [:]
    /// The live queries of the class, in the order they were added.
    @exclusivity(unchecked) private var observers: [WeakObserver] = []
    /// How many ``forEachObserver(_:)`` calls are running: the observers are not compacted
    /// meanwhile.
    @exclusivity(unchecked) private var observerIterations = 0
    /// The models held during a batch (see ``Store/batchingHolds(expecting:_:)``), not yet shown to
    /// the live queries.
    @exclusivity(unchecked) private var batched: [Held] = []
    /// Whether a model left ``held`` since the running batch began: only then may a model of
    /// the batch be held no more (or held again, later), so that ``showBatch()`` looks up each.
    @exclusivity(unchecked) private var releasedDuringBatch = false

    /// The class's handlers, one per followed event, shared by every held model (see
    /// ``ModelFollowers``).
    private var followers = ModelFollowers()

    init(type: Model.Type, path: String) {
        self.type = type
        self.path = path
        followers = ModelFollowers(names: Self.followedEvents) { [weak self] event in
            guard let self, let model = event.model, self.held[model.cidNumber]?.model === model else { return }
            self.handle(event, of: model)
        } sync: { [weak self] event in
            // A destroy that does not wait emits its `sync` after the model left the store.
            self?.handleSync(event)
        }
    }

    deinit {
        for held in held.values { followers.remove(from: held.model) }
    }

    /// Holds a model and follows its changes until it is destroyed; in a batch, the live
    /// queries are shown it when the batch ends (``showBatch()``).
    ///
    /// - Returns: Whether the model is the first of a batch.
    @discardableResult
    func hold(_ model: Model, sequence: Int, isBatched: Bool = false) -> Bool {
        held[model.cidNumber] = Held(model: model, sequence: sequence)
        followers.add(to: model)
        if isBatched {
            batched.append(Held(model: model, sequence: sequence))
            return batched.count == 1
        }
        forEachObserver { $0.storeDidAdd(model, sequence: sequence) }
        return false
    }

    /// Shows the live queries the models held during a batch that are still held, all at
    /// once.
    func showBatch() {
        let batch =
            releasedDuringBatch ? batched.filter { held[$0.model.cidNumber]?.sequence == $0.sequence } : batched
        batched = []
        releasedDuringBatch = false
        guard !batch.isEmpty else { return }
        forEachObserver { $0.storeDidAdd(batch) }
    }

    /// Stops holding a model (it was destroyed) and takes it out of the live queries.
    func release(_ model: Model) {
        guard held.removeValue(forKey: model.cidNumber) != nil else { return }
        if !batched.isEmpty { releasedDuringBatch = true }
        // The `sync` handler stays: a destroy that does not wait emits its `sync` after.
        followers.remove(from: model, keeping: "sync")
        forEachObserver { $0.storeDidRemove(model) }
    }

    // MARK: - Following models

    /// The events of a held model that the class acts on.
    private static let followedEvents = ["change", "destroy", "sync", "error"]

    /// Acts on one of the ``followedEvents`` of a held model but `sync`.
    private func handle(_ event: Event, of model: Model) {
        switch event.name {
        case "change":
            forEachObserver { $0.storeDidChange(model) }
        case "destroy":
            release(model)
        default:
            guard let request = event.request, event.error is SyncError,
                request.method == .update || request.method == .patch
            else { return }
            if request.context[SyncOptions.rollbackKey]?.boolValue ?? rollsBackFailedSaves {
                model.revert()
            }
        }
    }

    /// Acts on the `sync` of a model the class holds or held.
    private func handleSync(_ event: Event) {
        if let response = event.response { onResponse?(response) }
        guard let method = event.request?.method, method != .read else { return }
        onWrite?()
    }

    /// The held models (client id numbers) that are not among `loaded`, the client id
    /// numbers of distinct models: the records a complete load no longer has.
    ///
    /// Counts the loaded models the class holds first: when they are all it holds, as after
    /// most loads, nothing is missing and no set is built.
    func heldModels(notIn loaded: [Int]) -> [Int] {
        var heldCount = 0
        for number in loaded where held[number] != nil { heldCount += 1 }
        guard heldCount < held.count else { return [] }
        let loadedSet = Set(loaded)
        return held.keys.filter { !loadedSet.contains($0) }
    }

    /// Destroys the held models among `numbers` (client id numbers) that are not new and
    /// have no unsaved changes: another process deleted their records. They leave the
    /// store, its queries and its collections as a destroyed model does.
    func forgetDeletedRecords(_ numbers: [Int]) {
        for number in numbers {
            guard let model = held[number]?.model, !model.isNew, model.unsavedChanges == nil else { continue }
            model.trigger(Event(name: "destroy", model: model, options: ChangeOptions()))
        }
    }

    /// Stops holding the models among `numbers` (client id numbers) that no live query
    /// shows, that have no unsaved changes and that are not new: their records were
    /// garbage-collected.
    func releaseUnused(_ numbers: Set<Int>) {
        for number in numbers {
            guard let model = held[number]?.model, !model.isNew, model.unsavedChanges == nil,
                !observers.contains(where: { $0.observer?.shows(model) ?? false })
            else { continue }
            held[number] = nil
            if !batched.isEmpty { releasedDuringBatch = true }
            followers.remove(from: model)
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
        if observerIterations == 0 { observers.removeAll { $0.observer == nil } }
        observers.append(WeakObserver(observer: observer))
    }

    /// Calls `body` with each observer still alive, in the order they were added, without
    /// copying them out first (a `change` of a held model reaches every query of its class).
    ///
    /// An observer added while `body` runs is not called; one released is skipped.
    private func forEachObserver(_ body: (any StoreObserver) -> Void) {
        observerIterations += 1
        defer { observerIterations -= 1 }
        for index in observers.indices {
            if let observer = observers[index].observer { body(observer) }
        }
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
