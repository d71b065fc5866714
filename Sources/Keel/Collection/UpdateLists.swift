/// The lists that one `set` builds as it walks its inputs: the models for the result, the
/// added and merged ones, and the input's order.
///
/// Not generic: the lists are of `Model`, a concrete type (appending to an `[M]` goes
/// through the unspecialized generic `Array.append` wherever `M` is not known at compile
/// time), and only the collection's `M`s are ever stored.
///
/// While every input so far made a new model, the added models and the input's order are
/// the result itself: a large `add` into a collection builds one list instead of three,
/// and retains each model once for them instead of three times. The first input that names
/// a present model gives the other lists their own copies.
struct UpdateLists {
    /// The models that correspond to the inputs, in input order.
    private(set) var result: [Model] = []
    /// The added models, once they differ from ``result``.
    private var separateAdded: [Model] = []
    /// The models merged into, in input order.
    private(set) var merged: [Model] = []
    /// The models of the input, each once, in order, once they differ from ``result``; kept
    /// only when ``tracksOrder``.
    private var separateOrder: [Model] = []
    /// The models of the input, for finding the ones left out; kept only when ``tracksOrder``.
    private(set) var seen: IdentityTable
    /// Whether the order and membership of the input are kept (a `set` that removes).
    let tracksOrder: Bool
    /// Whether every input so far made a new model, so that ``result`` is also the list of
    /// added models and the input's order.
    private var onlyAdded = true
    /// How many inputs there are: the capacity of each list.
    private let capacity: Int

    /// Empty lists for `capacity` inputs.
    init(capacity: Int, tracksOrder: Bool) {
        self.capacity = capacity
        self.tracksOrder = tracksOrder
        seen = IdentityTable(capacity: tracksOrder ? capacity : 0)
        result.reserveCapacity(capacity)
    }

    /// The added models, in input order.
    var added: [Model] { onlyAdded ? result : separateAdded }

    /// The models of the input, each once, in input order (empty unless ``tracksOrder``).
    var order: [Model] { !tracksOrder ? [] : onlyAdded ? result : separateOrder }

    /// Records a new model made (or adopted) for the next input.
    ///
    /// The model is taken, so that a model just built moves into the result without a retain
    /// of its own and a release by the caller.
    @inline(__always)
    mutating func add(_ model: consuming Model) {
        if tracksOrder { seen.insert(model) }
        if onlyAdded {
            result.append(consume model)
            return
        }
        result.append(copy model)
        if tracksOrder { separateOrder.append(copy model) }
        separateAdded.append(consume model)
    }

    /// Records a present model that the next input names.
    ///
    /// The model is taken, so that the caller's reference moves into the result.
    mutating func find(_ model: consuming Model) {
        if onlyAdded { separate() }
        if tracksOrder && seen.insert(model) { separateOrder.append(copy model) }
        result.append(consume model)
    }

    /// Records a present model that an input was merged into.
    mutating func merge(_ model: Model) {
        merged.append(model)
    }

    /// Gives the added models and the order lists of their own, equal to the result so far.
    private mutating func separate() {
        onlyAdded = false
        separateAdded = result
        if tracksOrder {
            separateOrder = result
            separateOrder.reserveCapacity(capacity)
        }
        // Copied now, at full capacity, rather than by the next append.
        result.reserveCapacity(capacity)
    }
}
