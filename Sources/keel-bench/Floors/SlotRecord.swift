/// The fastest floor of a model whose keys are known: values by slot, no dictionary.
///
/// A record of a fixed layout keeps its values in an array indexed by the slot of each
/// key, and its observers in arrays of closures, called in order: what a model must do at
/// the least to store a value, tell its listeners and read it back, without hashing a key
/// or looking up an event name. The slot numbers are the layout; callers name them with
/// constants. A record in a ``SlotCollection`` also tells the collection, as a model
/// bubbles its events to its collection.
final class SlotRecord {
    /// The values, by slot.
    ///
    /// Without run-time exclusivity checks, as the floor of a model that opts out of them (Keel's
    /// models do).
    @exclusivity(unchecked) private(set) var values: ContiguousArray<PlainValue>
    /// Called with the slot and new value of each attribute that changes.
    @exclusivity(unchecked) var attributeObservers: ContiguousArray<(Int, PlainValue) -> Void> = []
    /// Called once for each `set` that changed something.
    @exclusivity(unchecked) var changeObservers: ContiguousArray<() -> Void> = []
    /// The collection holding the record.
    ///
    /// Not counted: the collection holds the record and clears this link when it lets the record
    /// go, so the link never outlives it.
    @exclusivity(unchecked) unowned(unsafe) var collection: SlotCollection?

    init(_ values: ContiguousArray<PlainValue>) {
        self.values = values
    }

    /// The value in `slot` as an integer, or `nil`.
    @inline(__always)
    func int(at slot: Int) -> Int? {
        values.withUnsafeBufferPointer { $0[slot].intValue }
    }

    /// Stores `value` in `slot` when it differs, then reports the attribute and the change.
    ///
    /// Not inlined: a loop that sets the same value would otherwise be folded away, where a
    /// model's `set` compares on every call.
    @inline(never)
    func set(_ slot: Int, _ value: PlainValue) {
        guard values[slot] != value else { return }
        values[slot] = value
        didChange(slot, value)
        didChange()
    }

    /// Stores `value` in `slot` without reporting anything.
    func store(_ slot: Int, _ value: PlainValue) {
        values[slot] = value
    }

    /// Stores every value of `newValues` (one per slot) that differs, reporting each, then
    /// reports one change if there was any.
    func merge(_ newValues: ContiguousArray<PlainValue>) {
        var changed = false
        for slot in newValues.indices where values[slot] != newValues[slot] {
            values[slot] = newValues[slot]
            changed = true
            didChange(slot, newValues[slot])
        }
        if changed { didChange() }
    }

    /// Reports a changed attribute to the observers and the collection.
    func didChange(_ slot: Int, _ value: PlainValue) {
        for observer in attributeObservers { observer(slot, value) }
        collection?.recordDidChange(self, slot: slot, value: value)
    }

    /// Reports one change to the observers and the collection.
    func didChange() {
        for observer in changeObservers { observer() }
        collection?.recordDidChange(self)
    }
}
