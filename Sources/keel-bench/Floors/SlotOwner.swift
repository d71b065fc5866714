/// The floor of a Keel model with a has-many relation: a ``SlotRecord`` whose slot
/// ``childrenSlot`` mirrors a ``SlotCollection`` of child records, merged into by id.
///
/// The slot holds the children's rows as arrays of values by slot, as
/// ``PlainJSONParser/parseRows(_:layout:)`` reads them; the mirror holds each child's
/// values in the same form.
final class SlotOwner {
    let record: SlotRecord
    let children = SlotCollection()
    /// The slot that holds the children.
    let childrenSlot: Int

    init(_ values: ContiguousArray<PlainValue>, childrenSlot: Int) {
        self.childrenSlot = childrenSlot
        record = SlotRecord(Self.merging(values, into: children, slot: childrenSlot))
    }

    /// The integer id, when the record has one.
    var id: Int? { record.int(at: SlotCollection.idSlot) }

    /// Merges the children in `values` by id, then merges `values` with the children's
    /// mirror in their place.
    func set(_ values: ContiguousArray<PlainValue>) {
        record.merge(Self.merging(values, into: children, slot: childrenSlot))
    }

    /// `values` after merging the children's rows in `slot` into `children`, with the
    /// children's mirror in their place.
    private static func merging(_ values: ContiguousArray<PlainValue>, into children: SlotCollection, slot: Int)
        -> ContiguousArray<PlainValue>
    {
        let rows = values[slot].arrayValue ?? []
        let inputs = rows.map { ContiguousArray($0.arrayValue ?? []) }
        if !children.mergeInPlace(inputs) { children.set(inputs) }
        var result = values
        result[slot] = .array(children.records.map { .array(Array($0.values)) })
        return result
    }
}

/// The floor of a Keel collection of models with a has-many relation: ``SlotOwner``s in
/// an array, indexed by integer id in an array, merged into by id.
final class SlotOwnerCollection {
    private(set) var owners: ContiguousArray<SlotOwner> = []
    /// The owners by id: the owner with id `i` at position `i`.
    private var byID: ContiguousArray<SlotOwner?> = []
    /// The owners' slot that holds their children.
    let childrenSlot: Int

    init(childrenSlot: Int, _ rows: [ContiguousArray<PlainValue>] = []) {
        self.childrenSlot = childrenSlot
        set(rows)
    }

    /// The owner with this id.
    func get(_ id: Int) -> SlotOwner? {
        byID.indices.contains(id) ? byID[id] : nil
    }

    /// Makes the collection hold exactly the rows, in their order: merges into present
    /// owners (and their children), builds the new ones and drops the missing ones.
    func set(_ rows: [ContiguousArray<PlainValue>]) {
        var order: ContiguousArray<SlotOwner> = []
        order.reserveCapacity(rows.count)
        var kept = ContiguousArray(repeating: false, count: byID.count)
        for values in rows {
            let owner: SlotOwner
            if let id = values[SlotCollection.idSlot].intValue, let existing = get(id) {
                existing.set(values)
                kept[id] = true
                owner = existing
            } else {
                owner = SlotOwner(values, childrenSlot: childrenSlot)
                if let id = owner.id, id >= 0 {
                    if id >= byID.count { byID.append(contentsOf: repeatElement(nil, count: id + 1 - byID.count)) }
                    byID[id] = owner
                }
            }
            order.append(owner)
        }
        for owner in owners {
            guard let id = owner.id, id < kept.count, !kept[id] else { continue }
            byID[id] = nil
        }
        owners = order
    }
}
