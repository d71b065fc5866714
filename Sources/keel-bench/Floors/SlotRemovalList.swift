/// The fastest floor of a collection that removes one record at a time: ``SlotRecord``s in
/// an array of slots that a removal leaves empty, each record's slot in an array indexed by
/// id, and a Fenwick tree of the emptied slots that gives a record's index.
///
/// The same algorithm as Keel's `Collection`: O(1) to find and empty the slot, O(log *n*)
/// for the index that the observers are told, no shifting of the array.
final class SlotRemovalList {
    /// The records in order; a removed record leaves its slot empty.
    @exclusivity(unchecked) private var slots: ContiguousArray<SlotRecord?>
    /// The slot of the record with id `i` at position `i`, or -1.
    @exclusivity(unchecked) private var slotByID: ContiguousArray<Int>
    /// A Fenwick tree over the slots: 1 for each emptied slot.
    @exclusivity(unchecked) private var emptied: EmptiedSlots
    /// The first slot that may hold a record.
    @exclusivity(unchecked) private var start = 0
    /// One past the last slot that may hold a record.
    @exclusivity(unchecked) private var end: Int

    /// Told of each record removed, with the index it had.
    @exclusivity(unchecked) var removalObservers: ContiguousArray<(SlotRecord, Int) -> Void> = []

    /// Creates a list of records with these values, whose ids are dense non-negative integers.
    init(_ inputs: [ContiguousArray<PlainValue>]) {
        slots = ContiguousArray(inputs.map { SlotRecord($0) })
        slotByID = ContiguousArray(repeating: -1, count: inputs.count)
        for (slot, input) in inputs.enumerated() {
            if let id = input[SlotCollection.idSlot].intValue, slotByID.indices.contains(id) { slotByID[id] = slot }
        }
        emptied = EmptiedSlots(count: inputs.count)
        end = inputs.count
    }

    /// The records left, in order.
    var records: [SlotRecord] { slots[start..<end].compactMap { $0 } }

    /// Removes the record with this id and reports it with the index it had.
    @discardableResult
    func remove(id: Int) -> SlotRecord? {
        guard slotByID.indices.contains(id), slotByID[id] >= 0 else { return nil }
        return remove(slot: slotByID[id])
    }

    /// Removes the last record and reports it.
    @discardableResult
    func pop() -> SlotRecord? {
        while end > start, slots[end - 1] == nil { end -= 1 }
        return end > start ? remove(slot: end - 1) : nil
    }

    /// Removes the first record and reports it.
    @discardableResult
    func shift() -> SlotRecord? {
        while start < end, slots[start] == nil { start += 1 }
        return start < end ? remove(slot: start) : nil
    }

    private func remove(slot: Int) -> SlotRecord? {
        guard let record = slots[slot] else { return nil }
        let index = slot - emptied.count(before: slot)
        slots[slot] = nil
        emptied.markEmptied(slot)
        if let id = record.int(at: SlotCollection.idSlot) { slotByID[id] = -1 }
        for observer in removalObservers { observer(record, index) }
        return record
    }
}
