/// The resource objects of a JSON:API document by identity, `(type, id)`: where a
/// ``JSONAPIReader`` finds the resource a relationship links to.
///
/// Nearly every type and id of a document is a small ASCII string, held in the string's own
/// two words; such an identity is its four words (``Key/small(type:id:)``), hashed by one
/// multiply-xorshift mix and compared as integers in an open-addressing table. Keeping two
/// strings per key and hashing their bytes one by one cost a compound document's reader
/// more than reading a resource. Other identities go to a dictionary, since Swift compares
/// strings by canonical equivalence, which bits alone do not follow.
struct JSONAPIResourceIndex {
    /// A resource's identity in a document.
    enum Key: Hashable {
        /// A type and an id that are both ASCII and at most 15 bytes: the words of their small
        /// strings, which are equal exactly when the strings are.
        case small(type: Words, id: Words)
        /// Any other type and id.
        case text(type: String, id: String)

        /// The identity of a resource of type `type` with id `id`.
        ///
        /// An ASCII string of up to 15 bytes that is not held as a small string (one built by
        /// appending to reserved storage) is read as the small string it equals, so that one
        /// identity has one key however its strings are held.
        init(type: String, id: String) {
            guard let typeWords = Words(type), let idWords = Words(id) else {
                self = .text(type: type, id: id)
                return
            }
            self = .small(type: typeWords, id: idWords)
        }

        /// The type, as a string.
        var type: String {
            switch self {
            case .small(let type, _): type.text
            case .text(let type, _): type
            }
        }
    }

    /// The two words of a small ASCII string.
    struct Words: Hashable {
        let low: UInt64
        let high: UInt64

        /// The words of `text` as a small ASCII string, or `nil` when it is longer than 15
        /// bytes or not ASCII.
        @inline(__always)
        init?(_ text: String) {
            #if _pointerBitWidth(_64)
                if StringIdentity.isSmallASCII(text) {
                    (low, high) = unsafeBitCast(text, to: (UInt64, UInt64).self)
                    return
                }
                guard let small = Self.smallForm(of: text) else { return nil }
                (low, high) = unsafeBitCast(small, to: (UInt64, UInt64).self)
            #else
                return nil
            #endif
        }

        /// The small string these are the words of.
        var text: String {
            #if _pointerBitWidth(_64)
                unsafeBitCast((low, high), to: String.self)
            #else
                ""
            #endif
        }

        /// `text` made again from its bytes, which makes it a small string when it fits one.
        private static func smallForm(of text: String) -> String? {
            guard text.utf8.count <= 15 else { return nil }
            var text = text
            let small = text.withUTF8 { String(decoding: $0, as: UTF8.self) }
            return StringIdentity.isSmallASCII(small) ? small : nil
        }
    }

    private static let seed = UInt64.random(in: .min ... .max)

    /// The small identities and their resources, in insertion order.
    private var keys: [(type: Words, id: Words)] = []
    private var resources: [JSONObject] = []
    /// Positions in ``keys`` plus one, by hash.
    ///
    /// `0` marks an empty slot; a power of two in size, at most half full.
    private var slots: [Int32]
    /// The resources of the other identities.
    private var others: [Key: JSONObject] = [:]

    /// An empty index with room for `capacity` small identities.
    init(capacity: Int) {
        var size = 16
        while size < 2 * capacity { size *= 2 }
        slots = [Int32](repeating: 0, count: size)
        keys.reserveCapacity(capacity)
        resources.reserveCapacity(capacity)
    }

    /// The resource with this identity, if the document has one.
    func resource(for key: Key) -> JSONObject? {
        guard case .small(let type, let id) = key else { return others[key] }
        guard let position = position(of: type, id, hash: Self.hash(type, id)) else { return nil }
        return resources[position]
    }

    /// Adds a resource; a second one with the same identity is merged into the first with
    /// `merge`.
    mutating func add(_ resource: JSONObject, for key: Key, merge: (JSONObject, JSONObject) -> JSONObject) {
        guard case .small(let type, let id) = key else {
            if let earlier = others.updateValue(resource, forKey: key) { others[key] = merge(earlier, resource) }
            return
        }
        let hash = Self.hash(type, id)
        if let position = position(of: type, id, hash: hash) {
            resources[position] = merge(resources[position], resource)
            return
        }
        if 2 * (keys.count + 1) > slots.count { grow() }
        keys.append((type, id))
        resources.append(resource)
        place(Int32(keys.count), hash: hash)
    }

    private func position(of type: Words, _ id: Words, hash: Int) -> Int? {
        slots.withUnsafeBufferPointer { slots in
            keys.withUnsafeBufferPointer { keys in
                let mask = slots.count - 1
                var slot = hash & mask
                while slots[slot] != 0 {
                    let position = Int(slots[slot]) - 1
                    if keys[position].id == id && keys[position].type == type { return position }
                    slot = (slot + 1) & mask
                }
                return nil
            }
        }
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
            place(Int32(position + 1), hash: Self.hash(keys[position].type, keys[position].id))
        }
    }

    /// The four words mixed with the per-process seed, then MurmurHash3's 64-bit finalizer,
    /// so that ids a byte apart spread over the table's low bits.
    @inline(__always)
    private static func hash(_ type: Words, _ id: Words) -> Int {
        var bits = seed ^ type.low
        bits = (bits &* 0x9E37_79B9_7F4A_7C15) ^ type.high
        bits = (bits &* 0x9E37_79B9_7F4A_7C15) ^ id.low
        bits = (bits &* 0x9E37_79B9_7F4A_7C15) ^ id.high
        bits ^= bits >> 33
        bits &*= 0xFF51_AFD7_ED55_8CCD
        bits ^= bits >> 33
        bits &*= 0xC4CE_B9FE_1A85_EC53
        bits ^= bits >> 33
        return Int(truncatingIfNeeded: bits)
    }
}
