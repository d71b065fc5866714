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
    /// The held models, by client id number.
    private(set) var held: [Int: Held] = [:]
    private var observers: [WeakObserver] = []

    init(type: Model.Type, path: String) {
        self.type = type
        self.path = path
    }

    /// Holds a model and follows its changes until it is destroyed.
    func hold(_ model: Model, sequence: Int) {
        held[model.cidNumber] = Held(model: model, sequence: sequence)
        model.on("change", owner: self) { [weak self, weak model] _ in
            guard let self, let model else { return }
            for observer in self.liveObservers() { observer.storeDidChange(model) }
        }
        model.on("destroy", owner: self) { [weak self, weak model] _ in
            guard let self, let model else { return }
            self.release(model)
        }
        // Kept after a destroy, whose `sync` comes after its `destroy` when it does not wait.
        model.on("sync", owner: self) { [weak self] event in
            guard let self else { return }
            if let response = event.response { self.onResponse?(response) }
            guard let method = event.request?.method, method != .read else { return }
            self.onWrite?()
        }
        model.on("error", owner: self) { [weak self, weak model] event in
            guard let self, let model, let request = event.request, event.error is SyncError,
                request.method == .update || request.method == .patch
            else { return }
            if request.context[SyncOptions.rollbackKey]?.boolValue ?? self.rollsBackFailedSaves {
                model.revert()
            }
        }
        for observer in liveObservers() { observer.storeDidAdd(model, sequence: sequence) }
    }

    /// Stops holding a model (it was destroyed) and takes it out of the live queries.
    func release(_ model: Model) {
        guard held.removeValue(forKey: model.cidNumber) != nil else { return }
        model.off("change destroy error", owner: self)
        for observer in liveObservers() { observer.storeDidRemove(model) }
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
            held[number] = nil
            model.off(owner: self)
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
    /// A held model's attributes changed.
    func storeDidChange(_ model: Model)
    /// The store no longer holds a model (it was destroyed).
    func storeDidRemove(_ model: Model)
    /// Whether the observer shows the model.
    func shows(_ model: Model) -> Bool
}
