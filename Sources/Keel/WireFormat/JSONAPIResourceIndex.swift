/// The resource objects of a JSON:API document by identity, `(type, id)`: where a
/// ``JSONAPIReader`` finds the resource a relationship links to.
///
/// Nearly every type and id of a document is a small ASCII string, held in the string's own
/// two words; such an identity is its four words (``Key/isSmall``), hashed by one
/// multiply-xorshift mix and compared as integers in an open-addressing table. Keeping two
/// strings per key and hashing their bytes one by one cost a compound document's reader
/// more than reading a resource. Other identities go to a dictionary, since Swift compares
/// strings by canonical equivalence, which bits alone do not follow.
struct JSONAPIResourceIndex {
    /// A resource's identity in a document.
    ///
    /// Plain words, and a reference to the strings of an identity that is not small: a key
    /// with string fields (an enum with a string payload per kind, or a struct of words and
    /// two strings) was copied and destroyed through its type's value witnesses, an indirect
    /// call of about 60 to 120 instructions, several times per resource read.
    struct Key: Hashable {
        /// The words of the type's small string; ``Words/zero`` for an identity that is not
        /// small.
        fileprivate let typeWords: Words
        /// The words of the id's small string; ``Words/zero`` for an identity that is not small.
        fileprivate let idWords: Words
        /// The strings of an identity that is not small; `nil` for a small one.
        private let text: Text?

        /// The type and id of an identity that is not small.
        private final class Text {
            let type: String
            let id: String

            init(type: String, id: String) {
                (self.type, self.id) = (type, id)
            }
        }

        /// The identity of a resource of type `type` with id `id`.
        ///
        /// A type and an id that are both ASCII and at most 15 bytes are the words of their
        /// small strings, which are equal exactly when the strings are. An ASCII string of up
        /// to 15 bytes that is not held as a small string (one built by appending to reserved
        /// storage) is read as the small string it equals, so that one identity has one key
        /// however its strings are held.
        @inline(__always)
        init(type: String, id: String) {
            guard let typeWords = Words(type), let idWords = Words(id) else {
                (self.typeWords, self.idWords, text) = (.zero, .zero, Text(type: type, id: id))
                return
            }
            (self.typeWords, self.idWords, text) = (typeWords, idWords, nil)
        }

        /// The identity of a type and an id given as the two words of each string, or `nil`
        /// unless both are small ASCII strings.
        @inline(__always)
        init?(smallTypeWords type: (UInt64, UInt64), idWords id: (UInt64, UInt64)) {
            // The top three bits of a string's second word are all set for a small ASCII
            // string (immortal, ASCII, small), as ``StringIdentity`` reads them.
            guard (type.1 & id.1) >> 61 == 0b111 else { return nil }
            (typeWords, idWords, text) = (Words(words: type), Words(words: id), nil)
        }

        /// Whether the type and id are small strings, held in ``typeWords`` and ``idWords``.
        var isSmall: Bool { text == nil }

        /// The words of a small identity's type and id; `nil` for an identity that is not small.
        var smallWords: (type: Words, id: Words)? { text == nil ? (typeWords, idWords) : nil }

        /// The type, as a string.
        var type: String { text?.type ?? typeWords.text }

        static func == (lhs: Key, rhs: Key) -> Bool {
            guard let left = lhs.text, let right = rhs.text else {
                // A small identity's words are never zero, so a small key and another differ
                // in their words.
                return lhs.idWords == rhs.idWords && lhs.typeWords == rhs.typeWords
            }
            return left.type == right.type && left.id == right.id
        }

        func hash(into hasher: inout Hasher) {
            if let text {
                hasher.combine(text.type)
                hasher.combine(text.id)
            } else {
                hasher.combine(typeWords)
                hasher.combine(idWords)
            }
        }
    }

    /// The two words of a small ASCII string.
    struct Words: Hashable {
        let low: UInt64
        let high: UInt64

        /// No string's words: those of a key that is not small.
        static let zero = Words(words: (0, 0))

        /// The words of a small ASCII string, as they are.
        init(words: (UInt64, UInt64)) {
            (low, high) = words
        }

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
        guard key.isSmall else { return others[key] }
        return resource(forSmall: (key.typeWords, key.idWords))
    }

    /// The resource with the small identity of these words, if the document has one.
    func resource(forSmall words: (type: Words, id: Words)) -> JSONObject? {
        guard let position = position(of: words.type, words.id, hash: Self.hash(words.type, words.id)) else {
            return nil
        }
        return resources[position]
    }

    /// Adds a resource; a second one with the same identity is merged into the first with
    /// `merge`.
    mutating func add(_ resource: JSONObject, for key: Key, merge: (JSONObject, JSONObject) -> JSONObject) {
        guard key.isSmall else {
            if let earlier = others.updateValue(resource, forKey: key) { others[key] = merge(earlier, resource) }
            return
        }
        add(resource, forSmall: (key.typeWords, key.idWords), merge: merge)
    }

    /// ``add(_:for:merge:)`` for a small identity, by its words.
    mutating func add(
        _ resource: JSONObject,
        forSmall words: (type: Words, id: Words),
        merge: (JSONObject, JSONObject) -> JSONObject
    ) {
        let (type, id) = words
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
        return MurmurFinalizer.mix(bits)
    }
}
