/// The floor of a Keel model with a has-many relation: a record whose attribute ``key``
/// mirrors a plain collection of child records, merged into by id.
final class PlainOwner {
    let record: PlainRecord
    let children: PlainCollection
    /// The attribute that holds the children.
    let key: String

    init(_ attributes: PlainAttributes, key: String) {
        let children = PlainCollection()
        self.key = key
        self.children = children
        record = PlainRecord(Self.merging(attributes, into: children, key: key))
    }

    /// The integer id, when the record has one.
    var id: Int? { record.id }

    /// Merges the children in the changes by id, then sets the changes with the children's
    /// mirror in their place.
    func set(_ changes: PlainAttributes) {
        record.set(Self.merging(changes, into: children, key: key))
    }

    /// `attributes` after merging the children under `key` into `children`, with the
    /// children's attributes in their place.
    private static func merging(_ attributes: PlainAttributes, into children: PlainCollection, key: String)
        -> PlainAttributes
    {
        guard let value = attributes[key] else { return attributes }
        children.set(value.arrayValue?.compactMap(\.objectValue) ?? [])
        var result = attributes
        result[key] = .array(children.records.map { .object($0.attributes) })
        return result
    }
}

/// The floor of a Keel collection of models with a has-many relation: owners indexed by
/// integer id, merged into by id.
final class PlainOwnerCollection {
    private(set) var owners: [PlainOwner] = []
    private var byID: [Int: PlainOwner] = [:]
    /// The owners' attribute that holds their children.
    let key: String

    init(key: String, _ inputs: [PlainAttributes] = []) {
        self.key = key
        set(inputs)
    }

    /// The owner with this id.
    func get(_ id: Int) -> PlainOwner? { byID[id] }

    /// Makes the collection hold exactly the inputs, in their order: merges into present
    /// owners (and their children), builds the new ones and drops the missing ones.
    func set(_ inputs: [PlainAttributes]) {
        var order: [PlainOwner] = []
        order.reserveCapacity(inputs.count)
        var kept = Set<ObjectIdentifier>(minimumCapacity: inputs.count)
        for input in inputs {
            let owner: PlainOwner
            if let id = input["id"]?.intValue, let existing = byID[id] {
                existing.set(input)
                owner = existing
            } else {
                owner = PlainOwner(input, key: key)
                if let id = owner.id { byID[id] = owner }
            }
            kept.insert(ObjectIdentifier(owner))
            order.append(owner)
        }
        for owner in owners where !kept.contains(ObjectIdentifier(owner)) {
            if let id = owner.id { byID[id] = nil }
        }
        owners = order
    }
}
