/// The floor of Keel's `Collection`: an ordered list of records in plain Swift.
///
/// The records are indexed by integer id. The collection hears its records' changes and
/// passes them to its own observers.
final class PlainCollection {
    private(set) var records: [PlainRecord] = []
    private var byID: [Int: PlainRecord] = [:]
    /// Attributes every new record starts with, unless its input has them.
    private let defaults: PlainAttributes

    var attributeObservers: [(PlainRecord, String, PlainValue) -> Void] = []
    var changeObservers: [(PlainRecord) -> Void] = []
    var addObservers: [(PlainRecord) -> Void] = []
    var removeObservers: [(PlainRecord) -> Void] = []
    /// Told of each record removed one at a time, with the index it had.
    var removalObservers: [(PlainRecord, Int) -> Void] = []
    var sortObservers: [() -> Void] = []
    var resetObservers: [() -> Void] = []
    var updateObservers: [(PlainChanges) -> Void] = []

    init(defaults: PlainAttributes = [:], _ inputs: [PlainAttributes] = []) {
        self.defaults = defaults
        for input in inputs where isAbsent(input) { records.append(adopt(input)) }
    }

    /// The record with this id.
    func get(_ id: Int) -> PlainRecord? { byID[id] }

    /// Makes the collection hold exactly the inputs, in their order: merges into present
    /// records, removes the missing ones in one pass, adds the new ones, then reports.
    @discardableResult
    func set(_ inputs: [PlainAttributes]) -> [PlainRecord] {
        var order: [PlainRecord] = []
        order.reserveCapacity(inputs.count)
        var added: [PlainRecord] = []
        var merged: [PlainRecord] = []
        var kept = Set<ObjectIdentifier>(minimumCapacity: inputs.count)
        for input in inputs {
            let record: PlainRecord
            if let id = input["id"]?.intValue, let existing = byID[id] {
                existing.set(input)
                merged.append(existing)
                record = existing
            } else {
                record = adopt(input)
                added.append(record)
            }
            kept.insert(ObjectIdentifier(record))
            order.append(record)
        }
        let removed = records.filter { !kept.contains(ObjectIdentifier($0)) }
        for record in removed {
            if let id = record.id { byID[id] = nil }
            record.collection = nil
        }
        let orderChanged = records.count != order.count || zip(records, order).contains { $0 !== $1 }
        records = order
        for record in removed { for observer in removeObservers { observer(record) } }
        if orderChanged { for observer in sortObservers { observer() } }
        report(PlainChanges(added: added, removed: removed, merged: merged))
        return order
    }

    /// Replaces every record with new ones built from the inputs, then reports one reset.
    @discardableResult
    func reset(_ inputs: [PlainAttributes]) -> [PlainRecord] {
        for record in records { record.collection = nil }
        byID = [:]
        records = []
        records.reserveCapacity(inputs.count)
        for input in inputs where isAbsent(input) { records.append(adopt(input)) }
        for observer in resetObservers { observer() }
        return records
    }

    /// Removes the record with this id and reports it with the index it had.
    @discardableResult
    func remove(id: Int) -> PlainRecord? {
        guard let record = byID[id], let index = records.firstIndex(where: { $0 === record }) else { return nil }
        return remove(at: index)
    }

    /// Removes the last record and reports it.
    @discardableResult
    func pop() -> PlainRecord? {
        records.isEmpty ? nil : remove(at: records.count - 1)
    }

    /// Removes the first record and reports it.
    @discardableResult
    func shift() -> PlainRecord? {
        records.isEmpty ? nil : remove(at: 0)
    }

    private func remove(at index: Int) -> PlainRecord {
        let record = records.remove(at: index)
        if let id = record.id { byID[id] = nil }
        record.collection = nil
        for observer in removalObservers { observer(record, index) }
        return record
    }

    /// Sorts the records stably by an integer attribute, ascending, then reports the sort.
    func sort(by key: String) {
        let keys = records.map { $0.attributes[key]?.intValue ?? .max }
        let order = records.indices.sorted { keys[$0] != keys[$1] ? keys[$0] < keys[$1] : $0 < $1 }
        records = order.map { records[$0] }
        for observer in sortObservers { observer() }
    }

    /// Passes on a record's attribute change.
    func recordDidChange(_ record: PlainRecord, key: String, value: PlainValue) {
        for observer in attributeObservers { observer(record, key, value) }
    }

    /// Passes on a record's change.
    func recordDidChange(_ record: PlainRecord) {
        for observer in changeObservers { observer(record) }
    }

    /// Whether no record has the input's id yet.
    private func isAbsent(_ input: PlainAttributes) -> Bool {
        input["id"]?.intValue.map { byID[$0] == nil } ?? true
    }

    /// Builds the record for new attributes, with the defaults filled in, and indexes it.
    private func adopt(_ input: PlainAttributes) -> PlainRecord {
        let record = PlainRecord(defaults.isEmpty ? input : defaults.merging(input) { _, new in new })
        record.collection = self
        if let id = record.id { byID[id] = record }
        return record
    }

    /// Reports each added record, then one update.
    private func report(_ changes: PlainChanges) {
        for record in changes.added { for observer in addObservers { observer(record) } }
        for observer in updateObservers { observer(changes) }
    }
}

/// What one plain `add` or `set` added, removed and merged.
struct PlainChanges {
    let added: [PlainRecord]
    let removed: [PlainRecord]
    let merged: [PlainRecord]
}
