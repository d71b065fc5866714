import Synchronization

/// Which models a smart `set` found or added (``UpdateLists``), for the removal of those it
/// left out and for telling an input that names a model again.
///
/// A mark on each model (``Model/isMarkedSeen``) rather than a table: the set writes it where
/// it touches the model anyway, and the removal reads and clears it as it walks the models,
/// so nothing is zeroed, hashed or probed. Only one `set` in the process marks at a time: one
/// that begins while another is under way (a nested `set` from an event handler, on another
/// collection that may share models) keeps an ``IdentitySet`` instead.
///
/// Models made during the set are not marked: a collection cannot hold such a model at the
/// start, so finding one means an earlier input added it. A model made before the set and
/// added by it (a model given as input, or one from an identity map) is marked, and its mark
/// is cleared by ``finish()``, as the removal never walks it. A model marked as found is still
/// held when the removal walks the collection: the collection rejects any change while it
/// updates (a `change` handler's `remove`, a nested `set` or `reset` of it), so no mark
/// outlives its `set`.
///
/// ```swift
/// var seen = SeenModels(tracking: true)
/// seen.insertAdded(model)
/// let wasSeen = seen.takeMark(of: model)  // true
/// seen.finish()
/// ```
struct SeenModels {
    /// How many sets that track their models are under way in the process.
    private static let passes = Atomic<Int>(0)

    /// The identities, for a set that began while another was under way; `nil` while marking.
    private var table: IdentitySet?
    /// Whether this set began a pass that must be finished.
    private let isTracking: Bool
    /// The least client-id number of a model made during the set.
    private let firstNewID: Int
    /// The models made before the set that it marked as added: their marks outlive the removal.
    private var markedAdded: [Model] = []

    /// Begins tracking the models of one `set` (nothing, unless `tracking`), with room for
    /// `capacity` models should it need a table.
    init(tracking: Bool, capacity: Int = 0) {
        isTracking = tracking
        firstNewID = EventEmitter.nextUniqueID
        guard tracking else { return }
        if Self.passes.wrappingAdd(1, ordering: .relaxed).oldValue != 0 {
            table = IdentitySet(capacity: capacity)
        }
    }

    /// Records a model added for an input.
    @inline(__always)
    mutating func insertAdded(_ model: Model) {
        if table != nil {
            table?.insert(model)
        } else if model.cidNumber < firstNewID {
            model.isMarkedSeen = true
            markedAdded.append(model)
        }
    }

    /// Records a present model that an input names.
    ///
    /// - Returns: `true` when no earlier input named it.
    @inline(__always)
    mutating func insertFound(_ model: Model) -> Bool {
        if table != nil { return table?.insert(model) ?? false }
        if model.cidNumber >= firstNewID || model.isMarkedSeen { return false }
        model.isMarkedSeen = true
        return true
    }

    /// Whether the set found `model`, one of the models the collection held before it; clears
    /// its mark.
    @inline(__always)
    func takeMark(of model: Model) -> Bool {
        if let table { return table.contains(model) }
        guard model.isMarkedSeen else { return false }
        model.isMarkedSeen = false
        return true
    }

    /// Ends the set's tracking, after the removal has taken the marks of the models the
    /// collection held: clears those of the models it added.
    func finish() {
        guard isTracking else { return }
        if table == nil {
            for index in markedAdded.indices { markedAdded[index].isMarkedSeen = false }
        }
        Self.passes.wrappingSubtract(1, ordering: .relaxed)
    }
}
