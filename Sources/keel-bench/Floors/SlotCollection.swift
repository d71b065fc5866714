/// The fastest floor of a collection of records of one layout: ``SlotRecord``s in an
/// array, indexed by integer id in an array, observers in arrays of closures.
///
/// The ids are the dense integers the workloads use, so the index is an array slot per
/// id, without hashing; the record's id is in slot ``idSlot`` of every layout. A record's
/// changes reach the collection's observers, as a model's events bubble to its
/// collection. Its records and index opt out of run-time exclusivity checks, as Keel's
/// collections do.
final class SlotCollection {
    /// The slot of the id in every record's layout.
    static let idSlot = 0

    @exclusivity(unchecked) private(set) var records: ContiguousArray<SlotRecord> = []
    /// The records by id: the record with id `i` at position `i - firstID`, so that a
    /// collection whose ids start far from 0 (a user's invites) holds no slots below them.
    @exclusivity(unchecked) private var byID: ContiguousArray<SlotRecord?> = []
    /// The id of the record at position 0 of ``byID``.
    @exclusivity(unchecked) private var firstID = 0

    /// Called with the record, slot and new value of each attribute of a record that changes.
    @exclusivity(unchecked) var attributeObservers: ContiguousArray<(SlotRecord, Int, PlainValue) -> Void> = []
    /// Called once for each `set` of a record that changed something.
    @exclusivity(unchecked) var changeObservers: ContiguousArray<(SlotRecord) -> Void> = []
    @exclusivity(unchecked) var addObservers: ContiguousArray<(SlotRecord) -> Void> = []
    @exclusivity(unchecked) var removeObservers: ContiguousArray<(SlotRecord) -> Void> = []
    @exclusivity(unchecked) var resetObservers: ContiguousArray<() -> Void> = []
    @exclusivity(unchecked) var sortObservers: ContiguousArray<() -> Void> = []
    @exclusivity(unchecked) var updateObservers: ContiguousArray<(SlotChanges) -> Void> = []

    /// Creates a collection of records with these values, without reporting anything.
    init(_ inputs: [ContiguousArray<PlainValue>] = []) {
        records.reserveCapacity(inputs.count)
        for input in inputs where isAbsent(input) { records.append(adopt(input)) }
    }

    /// The record with this id.
    @inline(__always)
    func get(_ id: Int) -> SlotRecord? {
        let position = id &- firstID
        return byID.indices.contains(position) ? byID[position] : nil
    }

    /// Appends a record for each input whose id is not present yet, then reports each and
    /// one update.
    @discardableResult
    func add(_ inputs: [ContiguousArray<PlainValue>]) -> ContiguousArray<SlotRecord> {
        var added: ContiguousArray<SlotRecord> = []
        added.reserveCapacity(inputs.count)
        for input in inputs where isAbsent(input) { added.append(adopt(input)) }
        // An empty collection takes the array itself, as Keel's does.
        if records.isEmpty {
            records = added
        } else {
            records.append(contentsOf: added)
        }
        report(SlotChanges(added: added, removed: [], merged: []))
        return added
    }

    /// Makes the collection hold exactly the inputs, in their order: merges into present
    /// records, removes the missing ones in one pass, adds the new ones, then reports.
    @discardableResult
    func set(_ inputs: [ContiguousArray<PlainValue>]) -> ContiguousArray<SlotRecord> {
        var order: ContiguousArray<SlotRecord> = []
        order.reserveCapacity(inputs.count)
        var added: ContiguousArray<SlotRecord> = []
        var merged: ContiguousArray<SlotRecord> = []
        var kept = ContiguousArray(repeating: false, count: byID.count)
        for input in inputs {
            let record: SlotRecord
            if let id = input[Self.idSlot].intValue, let existing = get(id) {
                existing.merge(input)
                merged.append(existing)
                kept[id - firstID] = true
                record = existing
            } else {
                record = adopt(input)
                added.append(record)
            }
            order.append(record)
        }
        var removed: ContiguousArray<SlotRecord> = []
        for record in records {
            guard let id = record.int(at: Self.idSlot), kept.indices.contains(id - firstID), !kept[id - firstID]
            else { continue }
            removed.append(record)
            byID[id - firstID] = nil
            record.collection = nil
        }
        let orderChanged = records.count != order.count || zip(records, order).contains { $0 !== $1 }
        records = order
        for record in removed { for observer in removeObservers { observer(record) } }
        if orderChanged { for observer in sortObservers { observer() } }
        report(SlotChanges(added: added, removed: removed, merged: merged))
        return order
    }

    /// Merges inputs into the records at their positions, as ``set(_:)`` would.
    ///
    /// For inputs whose ids name the records already at their positions, as Keel's has-many
    /// merges a response with the same children in the same order: merges each input into
    /// its record, then reports them as merged. Returns `false`, having changed
    /// nothing, when the inputs do not match the records so.
    func mergeInPlace(_ inputs: [ContiguousArray<PlainValue>]) -> Bool {
        guard inputs.count == records.count else { return false }
        for index in inputs.indices {
            guard let id = inputs[index][Self.idSlot].intValue, get(id) === records[index] else { return false }
        }
        for index in inputs.indices { records[index].merge(inputs[index]) }
        if !inputs.isEmpty && !updateObservers.isEmpty {
            report(SlotChanges(added: [], removed: [], merged: records))
        }
        return true
    }

    /// Replaces every record with new ones of these values, then reports one reset.
    @discardableResult
    func reset(_ inputs: [ContiguousArray<PlainValue>]) -> ContiguousArray<SlotRecord> {
        for record in records { record.collection = nil }
        byID = []
        firstID = 0
        records = []
        records.reserveCapacity(inputs.count)
        for input in inputs where isAbsent(input) { records.append(adopt(input)) }
        for observer in resetObservers { observer() }
        return records
    }

    /// Sorts the records stably by the integer in `slot`, ascending (records without one
    /// last), then reports the sort.
    ///
    /// - Complexity: O(*n*) per 11-bit digit of the keys' range (a radix sort).
    func sort(bySlot slot: Int) {
        var keys = [Int]()
        keys.reserveCapacity(records.count)
        records.withUnsafeBufferPointer { records in
            for index in records.indices {
                keys.append(
                    Unmanaged.passUnretained(records[index])._withUnsafeGuaranteedRef { $0.int(at: slot) } ?? .max
                )
            }
        }
        var order = keys.withUnsafeBufferPointer(RadixOrder.positions(sortedBy:))
        // The records move into their new places along the permutation's cycles, in place,
        // without a retain or release each.
        InPlacePermutation.apply(&order, to: &records)
        for observer in sortObservers { observer() }
    }

    /// Passes on a record's attribute change.
    func recordDidChange(_ record: SlotRecord, slot: Int, value: PlainValue) {
        for observer in attributeObservers { observer(record, slot, value) }
    }

    /// Passes on a record's change.
    func recordDidChange(_ record: SlotRecord) {
        for observer in changeObservers { observer(record) }
    }

    /// Whether no record has the input's id yet.
    private func isAbsent(_ input: ContiguousArray<PlainValue>) -> Bool {
        input[Self.idSlot].intValue.map { get($0) == nil } ?? true
    }

    /// Builds the record for new values and indexes it.
    private func adopt(_ input: ContiguousArray<PlainValue>) -> SlotRecord {
        let record = SlotRecord(input)
        record.collection = self
        if let id = input[Self.idSlot].intValue, id >= 0 {
            if byID.isEmpty {
                firstID = id
            } else if id < firstID {
                byID.insert(contentsOf: repeatElement(nil, count: firstID - id), at: 0)
                firstID = id
            }
            let position = id - firstID
            if position == byID.count {
                byID.append(record)
                return record
            }
            if position > byID.count { byID.append(contentsOf: repeatElement(nil, count: position + 1 - byID.count)) }
            byID[position] = record
        }
        return record
    }

    /// Reports each added record, then one update.
    private func report(_ changes: SlotChanges) {
        for record in changes.added { for observer in addObservers { observer(record) } }
        for observer in updateObservers { observer(changes) }
    }
}

/// What one slot `add` or `set` added, removed and merged.
struct SlotChanges {
    let added: ContiguousArray<SlotRecord>
    let removed: ContiguousArray<SlotRecord>
    let merged: ContiguousArray<SlotRecord>
}
