import Observation

/// The same-work floor of `coll_remove`'s collection: what Keel's `pop()`, `shift()` and
/// `remove(id)` observably do, one model a call, through an API of the same shape.
///
/// Beyond the machine floor (``SlotRemovalList``):
/// - the records are ``NamedRecord``s made from the workload's attribute maps, each with a
///   client id; a collection's `get` finds a model by id or by client id, so a removal takes
///   the record out of both indexes (a `pop` or `shift` reads the record's id by name);
/// - `remove` takes the id as a JSON value, as Keel's `remove(_:)` takes a `JSONValue`;
/// - the `remove` handlers are found by name and given an event with the record and the
///   index it had (Backbone's `options.index`);
/// - the record's link to the list is cleared (a removed Keel model's `collection` is `nil`
///   and its events no longer reach the collection);
/// - the `update` handlers are then looked up by name, as Keel and Backbone fire `update`
///   after a removal (the workload registers none: one lookup, and, as in Keel, no event);
/// - once the records have been read (``records``, ``get(id:)``), each removal is reported to
///   the list's `ObservationRegistrar`. Before that no observer can be tracking them, so
///   there is nothing to tell (Keel's collection makes its Observation object on the first
///   read of its models, and reports nothing before it either).
///
/// The algorithm is the machine floor's (and Keel's): records in slots that a removal leaves
/// empty, a Fenwick tree of the emptied slots for each index. The indexes store slots
/// (``DensePositions``), so a lookup by id or client id is an offset. The list holds its
/// records in slots from the start: that Keel's collection moves its models into slots on
/// the first removal from the middle is its own bookkeeping, not something its API shows.
final class NamedRemovalList: Observable {
    /// The key path that stands for the records in Observation's reports.
    nonisolated(unsafe) static let recordsKeyPath: KeyPath<NamedRemovalList, [NamedRecord]> = \.records

    /// The records in order; a removed record leaves its slot empty.
    @exclusivity(unchecked) private var slots: ContiguousArray<NamedRecord?>
    /// The slots by id.
    @exclusivity(unchecked) private var byID = DensePositions()
    /// The slots by client id.
    @exclusivity(unchecked) private var byCID = DensePositions()
    /// A Fenwick tree over the slots: 1 for each emptied slot.
    @exclusivity(unchecked) private var emptied: EmptiedSlots
    /// The first slot that may hold a record.
    @exclusivity(unchecked) private var start = 0
    /// One past the last slot that may hold a record.
    @exclusivity(unchecked) private var end: Int
    /// The handlers by event name.
    @exclusivity(unchecked) private var handlers = NamedHandlers<NamedCollection.Handler>()
    @exclusivity(unchecked) private var registrar = ObservationRegistrar()
    /// Whether the records have been read, so that Observation may be tracking them.
    @exclusivity(unchecked) private var isObserved = false

    /// A list of records made from these attribute maps, in order, without reporting anything.
    init(_ inputs: [PlainPairs]) {
        slots = ContiguousArray(inputs.map { NamedRecord($0) })
        emptied = EmptiedSlots(count: inputs.count)
        end = inputs.count
        for slot in slots.indices {
            guard let record = slots[slot] else { continue }
            record.list = self
            if let id = record.id { byID.insert(slot, at: id) }
            byCID.insert(slot, at: record.cid)
        }
    }

    /// Registers `call` for the event `name`.
    func on(_ name: String, _ call: @escaping (NamedEvent) -> Void) {
        handlers.on(name, NamedCollection.Handler(call))
    }

    /// The records left, in order; the read is reported to Observation.
    var records: [NamedRecord] {
        observe()
        return slots[start..<end].compactMap { $0 }
    }

    /// The record with this id; the read is reported to Observation.
    func get(id: Int) -> NamedRecord? {
        observe()
        return byID[id].flatMap { slots[$0] }
    }

    /// The record with this client id; the read is reported to Observation.
    func get(cid: Int) -> NamedRecord? {
        observe()
        return byCID[cid].flatMap { slots[$0] }
    }

    /// Removes the record with this id (an integer) and reports it.
    @discardableResult
    func remove(_ id: PlainValue) -> NamedRecord? {
        guard let key = id.intValue, let slot = byID[key] else { return nil }
        return remove(slot: slot)
    }

    /// Removes the last record and reports it.
    @discardableResult
    func pop() -> NamedRecord? {
        while end > start, slots[end - 1] == nil { end -= 1 }
        return end > start ? remove(slot: end - 1) : nil
    }

    /// Removes the first record and reports it.
    @discardableResult
    func shift() -> NamedRecord? {
        while start < end, slots[start] == nil { start += 1 }
        return start < end ? remove(slot: start) : nil
    }

    /// Empties `slot`, takes its record out of both indexes, fires `remove` with the index it
    /// had, lets the record go, then fires `update`.
    private func remove(slot: Int) -> NamedRecord? {
        guard let record = slots[slot] else { return nil }
        let index = slot - emptied.count(before: slot)
        if isObserved {
            registrar.withMutation(of: self, keyPath: Self.recordsKeyPath) { empty(slot) }
        } else {
            empty(slot)
        }
        if let id = record.id { byID.remove(at: id) }
        byCID.remove(at: record.cid)
        if let position = handlers.position(of: "remove") {
            let event = NamedEvent(name: "remove", record: record, index: index)
            handlers.dispatch(at: position) { $0.call(event) }
        }
        record.list = nil
        if let position = handlers.position(of: "update") {
            let event = NamedEvent(name: "update", changes: NamedChanges(added: [], removed: [record], merged: []))
            handlers.dispatch(at: position) { $0.call(event) }
        }
        return record
    }

    /// Reports a read of the records to Observation.
    private func observe() {
        isObserved = true
        registrar.access(self, keyPath: Self.recordsKeyPath)
    }

    /// Empties `slot` and counts it in the tree.
    private func empty(_ slot: Int) {
        slots[slot] = nil
        emptied.markEmptied(slot)
    }
}
