/// The fastest floor of a model whose keys are known: values by slot, no dictionary.
///
/// A record of a fixed layout keeps its values in an array indexed by the slot of each
/// key, and its observers in arrays of closures, called in order: what a model must do at
/// the least to store a value, tell its listeners and read it back, without hashing a key
/// or looking up an event name. The slot numbers are the layout; callers name them with
/// constants.
final class SlotRecord {
    /// The values, by slot.
    private(set) var values: ContiguousArray<PlainValue>
    /// Called with the slot and new value of each attribute that changes.
    var attributeObservers: ContiguousArray<(Int, PlainValue) -> Void> = []
    /// Called once for each `set` that changed something.
    var changeObservers: ContiguousArray<() -> Void> = []

    init(_ values: ContiguousArray<PlainValue>) {
        self.values = values
    }

    /// Stores `value` in `slot` when it differs, then reports the attribute and the change.
    ///
    /// Not inlined: a loop that sets the same value would otherwise be folded away, where a
    /// model's `set` compares on every call.
    @inline(never)
    func set(_ slot: Int, _ value: PlainValue) {
        guard values[slot] != value else { return }
        values[slot] = value
        for observer in attributeObservers { observer(slot, value) }
        for observer in changeObservers { observer() }
    }
}
