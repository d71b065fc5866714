/// A collection's models after removals from the middle: every model keeps its slot, and a
/// removed model leaves an empty slot instead of moving every model after it.
///
/// A ``FenwickTree`` that marks the empty slots turns a slot into a position among the
/// models and back in O(log *n*), so removing one model, finding a model's position and
/// reading the model at a position all cost O(log *n*), where closing the gap in an array
/// costs O(*n*). Removing the last model costs O(1). The collection packs the slots back
/// into an array when it needs one (for `models`, a sort or an insertion before the end),
/// and when empty slots outnumber models, which bounds the memory and keeps the packing
/// amortised O(1) per removal.
///
/// A model's slot is found from the model's ``Model/slotHint``, which the slots write when
/// they take the model in, and which is right when the slot holds that model. A model can be
/// in several collections, and another one's slots may have written it since: the first
/// hint that misses builds a table of every slot (``IdentityTable``, O(*n*) once), kept from
/// then on. Moving 100,000 models into slots writes their hints instead of filling the table
/// (about 90 instructions per model less, and no table of 4 MB to clear).
///
/// Not generic: stored as `Model`, only the collection's `M`s.
struct ModelSlots {
    /// The models by slot; `nil` marks the slot of a removed model.
    ///
    /// The last slot, if any, holds a model.
    private(set) var slots: ContiguousArray<Model?> = []
    /// The slot of each model, once a model's hint has missed; `nil` until then.
    private var slotOf: IdentityTable?
    /// Marks the empty slots; covers at least every slot.
    private var holes = FenwickTree(count: 0)
    /// How many slots are empty.
    private(set) var holeCount = 0
    /// How many models the slots hold.
    private(set) var count = 0
    /// The slot of the first model (every slot before it is empty), or `0` when there is none:
    /// the first model is found without the tree, as a `shift` needs it.
    private var firstSlot = 0

    /// Puts each model in the slot of its position, in O(*n*).
    init<M: Model>(_ models: [M]) {
        slots = models.withUnsafeBufferPointer { models in
            ContiguousArray(unsafeUninitializedCapacity: models.count) { slots, initialized in
                for index in models.indices {
                    let model = models[index]
                    model.slotHint = Int32(truncatingIfNeeded: index)
                    (slots.baseAddress.unsafelyUnwrapped + index).initialize(to: model)
                }
                initialized = models.count
            }
        }
        count = models.count
        holes = FenwickTree(count: models.count)
    }

    /// Whether the slots should be packed: empty slots outnumber models.
    var isMostlyEmpty: Bool { holeCount > count }

    /// The model at `position`, which must be below ``count``.
    func model(at position: Int) -> Model {
        let slot = holeCount == 0 || position == 0 ? firstSlot + position : holes.unmarked(rank: position)
        // An empty slot is never found: the tree skips it.
        return slots[slot].unsafelyUnwrapped
    }

    /// The position of `model`, or `nil` when the slots do not hold it.
    ///
    /// - Complexity: O(log *n*), after the O(*n*) table the first missed hint builds.
    mutating func position(of model: Model) -> Int? {
        slot(of: model).map(position(ofSlot:))
    }

    /// The slot of `model`, or `nil` when the slots do not hold it: its hint when that slot
    /// holds it, else the table, built the first time a hint misses.
    private mutating func slot(of model: Model) -> Int? {
        let hint = Int(model.slotHint)
        if hint >= 0 && hint < slots.count && slots[hint] === model { return hint }
        if slotOf == nil { slotOf = tableOfSlots() }
        return slotOf?[ObjectIdentifier(model)]
    }

    /// A table of the slot of every model the slots hold, in O(*n*).
    @inline(never)
    private func tableOfSlots() -> IdentityTable {
        var table = IdentityTable(capacity: count)
        for slot in slots.indices {
            if let model = slots[slot] { table.updateValue(slot, for: ObjectIdentifier(model)) }
        }
        return table
    }

    private func position(ofSlot slot: Int) -> Int {
        holeCount == 0 ? slot : slot - holes.prefixSum(upTo: slot)
    }

    /// The last model.
    var last: Model? { slots.last ?? nil }

    /// Removes `model` and returns the position it had, or `nil` when the slots do not hold it.
    ///
    /// - Complexity: O(log *n*); amortised O(1) for the last model.
    mutating func remove(_ model: Model) -> Int? {
        guard let slot = slot(of: model) else { return nil }
        _ = slotOf?.removeValue(for: ObjectIdentifier(model))
        let isLast = slot == slots.count - 1
        let position = isLast ? count - 1 : position(ofSlot: slot)
        count -= 1
        if isLast {
            slots.removeLast()
            // Drop the empty slots the removal exposed, so that the last slot holds a model.
            while let last = slots.last, last == nil {
                slots.removeLast()
                holes.decrement(at: slots.count)
                holeCount -= 1
            }
            if count == 0 { firstSlot = 0 }
        } else {
            slots[slot] = nil
            holes.increment(at: slot)
            holeCount += 1
            // The last slot holds a model, so the search ends there at the latest.
            while slots[firstSlot] == nil { firstSlot += 1 }
        }
        return position
    }

    /// Adds `model` after the last one.
    ///
    /// - Complexity: Amortised O(1).
    mutating func append(_ model: Model) {
        model.slotHint = Int32(truncatingIfNeeded: slots.count)
        slotOf?.updateValue(slots.count, for: ObjectIdentifier(model))
        slots.append(model)
        count += 1
        if slots.count > holes.count {
            // Grow the tree by doubling, so that rebuilding it costs amortised O(1) per slot.
            let slots = slots
            holes = FenwickTree(count: 2 * slots.count) { $0 < slots.count && slots[$0] == nil }
        }
    }

    /// The models, in order, in an array.
    ///
    /// - Complexity: O(*n*).
    func packed<M: Model>(as type: M.Type) -> [M] {
        [M](unsafeUninitializedCapacity: count) { buffer, initialized in
            initialized = 0
            for slot in slots.indices {
                guard let model = slots[slot] else { continue }
                (buffer.baseAddress.unsafelyUnwrapped + initialized).initialize(to: unsafeDowncast(model, to: M.self))
                initialized += 1
            }
        }
    }
}
