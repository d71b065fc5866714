import Observation

/// The same-work floor of `coll_add`'s, `coll_set_merge`'s and `coll_sort`'s collection: what
/// Keel's `add` and `set` of attribute maps and `sort()` observably do, through an API of the
/// same shape.
///
/// Beyond the machine floor (``SlotCollection``): the input is the workload's attribute
/// maps, which the records adopt (``NamedRecord``), each id read by name; each new record has
/// a client id and is indexed by it as well as by id (a collection's `get` finds a model by
/// either); handlers are registered and found by event name (`update`, `add`, `remove`,
/// `sort`, `change`, and `change:<attribute>` looked up by the changed attribute's name); a
/// change of the model list is reported to the collection's `ObservationRegistrar`, as
/// `models` must be (SwiftUI depends on it); and a sort by an attribute (`coll_sort`, Keel's
/// `comparator: .attribute("rank")`) reads each record's key by the attribute's name. The
/// indexes are ``DenseIndex``es.
final class NamedCollection: Observable {
    /// One registered closure, in an object so that a call borrows it.
    final class Handler {
        let call: (NamedEvent) -> Void

        init(_ call: @escaping (NamedEvent) -> Void) {
            self.call = call
        }
    }

    /// The key path that stands for the records in Observation's reports.
    nonisolated(unsafe) static let recordsKeyPath: KeyPath<NamedCollection, ContiguousArray<NamedRecord>> =
        \.records

    @exclusivity(unchecked) private(set) var records: ContiguousArray<NamedRecord> = []
    @exclusivity(unchecked) private var byID = DenseIndex<NamedRecord>()
    @exclusivity(unchecked) private var byCID = DenseIndex<NamedRecord>()
    /// The handlers by event name, but for `change:<attribute>`.
    @exclusivity(unchecked) private var handlers = NamedHandlers<Handler>()
    /// The `change:<attribute>` handlers, by the attribute's name.
    @exclusivity(unchecked) private var attributeHandlers = NamedHandlers<Handler>()
    @exclusivity(unchecked) private var registrar = ObservationRegistrar()

    /// Registers `call` for the event `name`.
    func on(_ name: String, _ call: @escaping (NamedEvent) -> Void) {
        let prefix = "change:"
        if name.hasPrefix(prefix) {
            attributeHandlers.on(name, key: String(name.dropFirst(prefix.count)), Handler(call))
        } else {
            handlers.on(name, Handler(call))
        }
    }

    /// The record with this id.
    @inline(__always)
    func get(id: Int) -> NamedRecord? { byID[id] }

    /// The record with this client id.
    @inline(__always)
    func get(cid: Int) -> NamedRecord? { byCID[cid] }

    /// Appends a record for each map whose id is not present yet, then reports each (`add`)
    /// and one `update`.
    @discardableResult
    func add(_ inputs: [PlainPairs]) -> ContiguousArray<NamedRecord> {
        var added: ContiguousArray<NamedRecord> = []
        added.reserveCapacity(inputs.count)
        byID.reserveCapacity(inputs.count)
        byCID.reserveCapacity(inputs.count)
        for attributes in inputs {
            let record = NamedRecord(attributes)
            if let id = record.id, byID[id] != nil { continue }
            adopt(record)
            added.append(record)
        }
        registrar.withMutation(of: self, keyPath: Self.recordsKeyPath) {
            // An empty collection takes the array itself, as Keel's does.
            if records.isEmpty {
                records = added
            } else {
                records.append(contentsOf: added)
            }
        }
        report(NamedChanges(added: added, removed: [], merged: []))
        return added
    }

    /// Makes the collection hold exactly the maps, in their order: merges each into the
    /// record with its id (found by name in the map), removes the missing records in one
    /// pass, adds the new ones, then reports.
    @discardableResult
    func set(_ inputs: [PlainPairs]) -> ContiguousArray<NamedRecord> {
        var order: ContiguousArray<NamedRecord> = []
        order.reserveCapacity(inputs.count)
        var added: ContiguousArray<NamedRecord> = []
        var merged: ContiguousArray<NamedRecord> = []
        for attributes in inputs {
            if let id = NamedRecord.id(in: attributes), let existing = byID[id], !existing.isKept {
                existing.merge(attributes)
                existing.isKept = true
                merged.append(existing)
                order.append(existing)
            } else {
                let record = NamedRecord(attributes)
                adopt(record)
                record.isKept = true
                added.append(record)
                order.append(record)
            }
        }
        var removed: ContiguousArray<NamedRecord> = []
        for record in records where !record.isKept {
            removed.append(record)
            if let id = record.id { byID.remove(at: id) }
            byCID.remove(at: record.cid)
            record.collection = nil
        }
        for record in order { record.isKept = false }
        let orderChanged = records.count != order.count || zip(records, order).contains { $0 !== $1 }
        registrar.withMutation(of: self, keyPath: Self.recordsKeyPath) { records = order }
        if let position = handlers.position(of: "remove") {
            for record in removed {
                let event = NamedEvent(name: "remove", record: record)
                handlers.dispatch(at: position) { $0.call(event) }
            }
        }
        if orderChanged, let position = handlers.position(of: "sort") {
            let event = NamedEvent(name: "sort")
            handlers.dispatch(at: position) { $0.call(event) }
        }
        report(NamedChanges(added: added, removed: removed, merged: merged))
        return order
    }

    /// Sorts the records stably by the integer under the attribute `name`, read by name from
    /// each record (records without one last), reports the change of the list to
    /// Observation, then calls the `sort` handlers, found by name.
    ///
    /// - Complexity: O(*n*) per 11-bit digit of the keys' range (a radix sort).
    func sort(byAttribute name: String) {
        var keys = [Int]()
        keys.reserveCapacity(records.count)
        var position = 0
        records.withUnsafeBufferPointer { records in
            for index in records.indices {
                keys.append(
                    Unmanaged.passUnretained(records[index])._withUnsafeGuaranteedRef {
                        $0.int(named: name, from: &position)
                    } ?? .max
                )
            }
        }
        var order = keys.withUnsafeBufferPointer(RadixOrder.positions(sortedBy:))
        registrar.withMutation(of: self, keyPath: Self.recordsKeyPath) {
            InPlacePermutation.apply(&order, to: &records)
        }
        if let position = handlers.position(of: "sort") {
            let event = NamedEvent(name: "sort")
            handlers.dispatch(at: position) { $0.call(event) }
        }
    }

    /// Passes on a record's change of `attribute` to the `change:<attribute>` handlers.
    func recordDidChange(_ record: NamedRecord, attribute: String, value: PlainValue) {
        guard let position = attributeHandlers.position(of: attribute) else { return }
        let event = NamedEvent(name: attributeHandlers.eventName(at: position), record: record, value: value)
        attributeHandlers.dispatch(at: position) { $0.call(event) }
    }

    /// Passes on a record's change to the `change` handlers.
    func recordDidChange(_ record: NamedRecord) {
        if let position = handlers.position(of: "change") {
            let event = NamedEvent(name: "change", record: record)
            handlers.dispatch(at: position) { $0.call(event) }
        }
    }

    /// Indexes a new record by id and client id, and links it to the collection.
    private func adopt(_ record: NamedRecord) {
        record.collection = self
        if let id = record.id { byID.insert(record, at: id) }
        byCID.insert(record, at: record.cid)
    }

    /// Reports each added record (`add`), then one `update`.
    private func report(_ changes: NamedChanges) {
        if let position = handlers.position(of: "add") {
            for record in changes.added {
                let event = NamedEvent(name: "add", record: record)
                handlers.dispatch(at: position) { $0.call(event) }
            }
        }
        if let position = handlers.position(of: "update") {
            let event = NamedEvent(name: "update", changes: changes)
            handlers.dispatch(at: position) { $0.call(event) }
        }
    }
}

/// What one ``NamedCollection`` `add` or `set` added, removed and merged.
struct NamedChanges {
    let added: ContiguousArray<NamedRecord>
    let removed: ContiguousArray<NamedRecord>
    let merged: ContiguousArray<NamedRecord>
}
