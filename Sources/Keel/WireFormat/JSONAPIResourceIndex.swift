/// The resource objects of a JSON:API document by identity, `(type, id)`: where a
/// ``JSONAPIReader`` finds the resource a relationship links to.
///
/// ASCII identities (nearly all) sit in an open-addressing table hashed with FNV-1a over
/// their bytes, from a random per-process basis, as ``AttributeKeyPathTable`` keeps its keys:
/// hashing a type and an id with `Hasher` and keeping two strings per key in a `Dictionary`
/// cost a compound document's reader more than reading a resource. Other identities go to
/// a dictionary, since Swift compares strings by canonical equivalence, which bytes alone
/// do not follow.
struct JSONAPIResourceIndex {
    /// A resource's identity in a document.
    struct Key: Hashable {
        let type: String
        let id: String
    }

    private static let basis = UInt64.random(in: .min ... .max) | 1

    /// The ASCII identities and their resources, in insertion order.
    private var keys: [Key] = []
    private var resources: [JSONObject] = []
    /// Positions in ``keys`` plus one, by hash.
    ///
    /// `0` marks an empty slot; a power of two in size, at most half full.
    private var slots: [Int32]
    /// The resources of the other identities.
    private var others: [Key: JSONObject] = [:]

    /// An empty index with room for `capacity` ASCII identities.
    init(capacity: Int) {
        var size = 16
        while size < 2 * capacity { size *= 2 }
        slots = [Int32](repeating: 0, count: size)
        keys.reserveCapacity(capacity)
        resources.reserveCapacity(capacity)
    }

    /// The resource with this identity, if the document has one.
    func resource(for key: Key) -> JSONObject? {
        guard let hash = Self.hash(key) else { return others[key] }
        guard let position = position(of: key, hash: hash) else { return nil }
        return resources[position]
    }

    /// Adds a resource; a second one with the same identity is merged into the first with
    /// `merge`.
    mutating func add(_ resource: JSONObject, for key: Key, merge: (JSONObject, JSONObject) -> JSONObject) {
        guard let hash = Self.hash(key) else {
            if let earlier = others.updateValue(resource, forKey: key) { others[key] = merge(earlier, resource) }
            return
        }
        if let position = position(of: key, hash: hash) {
            resources[position] = merge(resources[position], resource)
            return
        }
        if 2 * (keys.count + 1) > slots.count { grow() }
        keys.append(key)
        resources.append(resource)
        place(Int32(keys.count), hash: hash)
    }

    private func position(of key: Key, hash: Int) -> Int? {
        let mask = slots.count - 1
        var slot = hash & mask
        while slots[slot] != 0 {
            let position = Int(slots[slot]) - 1
            if keys[position] == key { return position }
            slot = (slot + 1) & mask
        }
        return nil
    }

    private mutating func place(_ entry: Int32, hash: Int) {
        let mask = slots.count - 1
        var slot = hash & mask
        while slots[slot] != 0 { slot = (slot + 1) & mask }
        slots[slot] = entry
    }

    private mutating func grow() {
        slots = [Int32](repeating: 0, count: slots.count * 2)
        for position in keys.indices {
            // Every key placed was hashed; ASCII stays ASCII.
            place(Int32(position + 1), hash: Self.hash(keys[position]) ?? 0)
        }
    }

    /// FNV-1a of the type's bytes, a separator, then the id's; `nil` when either is not ASCII.
    private static func hash(_ key: Key) -> Int? {
        guard var hash = mix(key.type, into: basis) else { return nil }
        // A byte no ASCII text has, so that `("ab", "c")` and `("a", "bc")` hash apart.
        hash = (hash ^ 0xFF) &* 0x0000_0100_0000_01b3
        guard let mixed = mix(key.id, into: hash) else { return nil }
        return Int(truncatingIfNeeded: mixed ^ (mixed >> 29))
    }

    private static func mix(_ text: String, into hash: UInt64) -> UInt64? {
        // Over the contiguous bytes: stepping a small string's `UTF8View` costs tens of
        // instructions per byte.
        JSONAPIIdentityText.withBytes(of: text) { bytes in
            var hash = hash
            for byte in bytes {
                guard byte < 0x80 else { return nil }
                hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            }
            return hash
        }
    }
}
