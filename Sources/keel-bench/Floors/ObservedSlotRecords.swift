import Observation

/// The same-work floor of `coll_get`'s records: values by slot that report each read to an
/// `ObservationRegistrar`, as a model's read must (SwiftUI depends on it).
///
/// The registrar is made with the record, and the key path of each slot once per process:
/// the least a read can do and still tell Observation which attribute it read.
final class ObservedSlotRecord: Observable {
    /// The key path that stands for each slot of a short note (`id`, `title`, `done`, `rank`).
    nonisolated(unsafe) static let slotKeyPaths: ContiguousArray<KeyPath<ObservedSlotRecord, PlainValue>> =
        ContiguousArray((0..<4).map { slot in \ObservedSlotRecord.[slot: slot] })

    /// The values, by slot.
    @exclusivity(unchecked) private(set) var values: ContiguousArray<PlainValue>
    /// The record's registrar.
    @exclusivity(unchecked) private var registrar = ObservationRegistrar()

    init(_ values: ContiguousArray<PlainValue>) {
        self.values = values
    }

    /// The value in `slot`, without reporting the read: the identity of a slot's key path.
    subscript(slot slot: Int) -> PlainValue { values[slot] }

    /// The value in `slot`, reporting the read of that slot to the registrar.
    @inline(__always)
    func read(_ slot: Int) -> PlainValue {
        registrar.access(self, keyPath: Self.slotKeyPaths[slot])
        return values[slot]
    }
}

/// The same-work floor of `coll_get`'s collection: records in an array indexed by their dense
/// integer ids, and a registrar that each lookup reports a read of the models to, as a
/// collection's `get` does.
final class ObservedSlotCollection: Observable {
    /// The key path that stands for the records.
    nonisolated(unsafe) static let recordsKeyPath:
        KeyPath<ObservedSlotCollection, ContiguousArray<ObservedSlotRecord>> = \.byID

    /// The records, by id.
    let byID: ContiguousArray<ObservedSlotRecord>
    /// The collection's registrar.
    @exclusivity(unchecked) private var registrar = ObservationRegistrar()

    init(_ records: ContiguousArray<ObservedSlotRecord>) {
        byID = records
    }

    /// The record with this id, reporting the read of the records.
    @inline(__always)
    func get(_ id: Int) -> ObservedSlotRecord? {
        registrar.access(self, keyPath: Self.recordsKeyPath)
        return byID.indices.contains(id) ? byID[id] : nil
    }
}
