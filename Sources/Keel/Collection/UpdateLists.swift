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
/// a present model gives the added models a list of their own; the input's order stays the
/// result until an input names a model that an earlier one named.
struct UpdateLists {
    /// The models that correspond to the inputs, in input order.
    private(set) var result: [Model] = []
    /// The added models, once they differ from ``result``.
    private var separateAdded: [Model] = []
    /// The models merged into, in input order.
    private(set) var merged: [Model] = []
    /// The models of the input, each once, in order, once they differ from ``result`` (an
    /// input named a model again); kept only when ``tracksOrder``.
    private var separateOrder: [Model] = []
    /// Whether an input named a model that an earlier input named, so that the input's order
    /// is ``separateOrder`` rather than ``result``; tracked only when ``tracksOrder``.
    private var hasRepeats = false
    /// How many distinct present models the inputs named; counted only when ``tracksOrder``.
    private(set) var foundCount = 0
    /// The models of the input, for finding the ones left out; kept only when ``tracksOrder``.
    private(set) var seen: SeenModels
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
        seen = SeenModels(tracking: tracksOrder, capacity: capacity)
        result.reserveCapacity(capacity)
    }

    /// The added models, in input order.
    var added: [Model] { onlyAdded ? result : separateAdded }

    /// The models of the input, each once, in input order (empty unless ``tracksOrder``).
    var order: [Model] { !tracksOrder ? [] : hasRepeats ? separateOrder : result }

    /// Records a new model made (or adopted) for the next input.
    ///
    /// The model is taken, so that a model just built moves into the result without a retain
    /// of its own and a release by the caller.
    @inline(__always)
    mutating func add(_ model: consuming Model) {
        if tracksOrder { seen.insertAdded(model) }
        if onlyAdded {
            result.append(consume model)
            return
        }
        result.append(copy model)
        if hasRepeats { separateOrder.append(copy model) }
        separateAdded.append(consume model)
    }

    /// Records a present model that the next input names.
    ///
    /// The model is taken, so that the caller's reference moves into the result.
    mutating func find(_ model: consuming Model) {
        if onlyAdded { separate() }
        if tracksOrder {
            if seen.insertFound(model) {
                foundCount += 1
                if hasRepeats { separateOrder.append(copy model) }
            } else if !hasRepeats {
                // The order so far is the result so far, which does not hold this input yet.
                hasRepeats = true
                separateOrder = result
                separateOrder.reserveCapacity(capacity)
            }
        }
        result.append(consume model)
    }

    /// Records a present model that an input was merged into.
    ///
    /// The first one reserves room for one model an input left (this one's included), so
    /// that the list never grows by copying.
    mutating func merge(_ model: Model) {
        if merged.isEmpty { merged.reserveCapacity(capacity - result.count) }
        merged.append(model)
    }

    /// Gives the added models a list of their own, equal to the result so far.
    private mutating func separate() {
        onlyAdded = false
        separateAdded = result
        // Copied now, at full capacity, rather than by the next append.
        result.reserveCapacity(capacity)
    }
}
