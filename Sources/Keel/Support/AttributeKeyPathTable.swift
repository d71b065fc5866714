/// Attribute key paths by key: a bounded cache in front of building them, read on every
/// observed attribute read.
///
/// Building a subscript key path is a runtime call and an allocation, so each is kept for
/// reuse. The cache is only that: Observation compares key paths by value (two key paths
/// `\Model.[observing: key]` with equal keys are equal and hash alike), so a key path built
/// again after eviction tracks the same attribute as the one it replaces. Keys are Swift
/// strings compared by canonical equivalence, so `"\u{212A}"` (KELVIN SIGN) and `"K"` name
/// the same attribute with equal key paths, cached or not.
///
/// The cache holds two generations of at most ``capacity`` key paths each. New key paths
/// go into the current generation; when it is full it becomes the previous one and the
/// older one is dropped. A key found only in the previous generation moves into the current
/// one, so keys in steady use stay cached while a stream of distinct names (a million
/// attributes read once) holds at most twice the capacity.
///
/// Within a generation, ASCII keys (nearly all attribute names) are cached in an
/// open-addressing table hashed with FNV-1a over their bytes, from a random per-process
/// basis: for short keys a fraction of the cost of `Hasher`'s SipHash. Other keys go to a
/// dictionary.
struct AttributeKeyPathTable {
    typealias Path = KeyPath<Model, JSONValue?>

    /// The default number of key paths in one generation.
    static let defaultCapacity = 4096

    private static let basis = UInt64.random(in: .min ... .max) | 1

    /// How many key paths one generation holds.
    let capacity: Int
    private var current = Generation()
    private var previous = Generation()

    /// Creates an empty cache.
    ///
    /// - Parameter capacity: How many key paths one generation holds; at least 1.
    init(capacity: Int = Self.defaultCapacity) {
        self.capacity = Swift.max(1, capacity)
    }

    /// How many key paths are cached: at most twice ``capacity``.
    var count: Int { current.count + previous.count }

    /// The key path for `key`, made with `make` unless one is cached.
    mutating func path(for key: String, make: () -> Path) -> Path {
        let hash = Self.asciiHash(key)
        if let path = current.path(for: key, hash: hash) { return path }
        let path = previous.path(for: key, hash: hash) ?? make()
        if current.count >= capacity {
            previous = current
            current = Generation()
        }
        current.insert(path, for: key, hash: hash)
        return path
    }

    /// FNV-1a of the key's bytes, or `nil` when the key is not ASCII.
    private static func asciiHash(_ key: String) -> Int? {
        // Over the contiguous bytes: stepping a small string's `UTF8View` costs tens of
        // instructions per byte.
        var key = key
        return key.withUTF8 { bytes in
            var hash = basis
            for byte in bytes {
                guard byte < 0x80 else { return nil }
                hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            }
            return Int(truncatingIfNeeded: hash ^ (hash >> 29))
        }
    }
}

extension AttributeKeyPathTable {
    /// One generation of the cache.
    private struct Generation {
        /// The ASCII keys and their paths, in parallel arrays whose size is a power of two;
        /// at most half the slots are used.
        private var keys = [String](repeating: "", count: 64)
        private var paths = [Path?](repeating: nil, count: 64)
        private var asciiCount = 0
        /// The other keys.
        private var others: [String: Path] = [:]

        var count: Int { asciiCount + others.count }

        /// The cached path; `hash` is the key's ASCII hash, `nil` for other keys.
        func path(for key: String, hash: Int?) -> Path? {
            guard let hash else { return others.isEmpty ? nil : others[key] }
            let mask = paths.count - 1
            var index = hash & mask
            while let path = paths[index] {
                if keys[index] == key { return path }
                index = (index + 1) & mask
            }
            return nil
        }

        /// Caches `path` for a key that is not cached yet.
        mutating func insert(_ path: Path, for key: String, hash: Int?) {
            guard let hash else {
                others[key] = path
                return
            }
            if 2 * (asciiCount + 1) > paths.count { grow() }
            place(path, for: key, hash: hash)
            asciiCount += 1
        }

        private mutating func place(_ path: Path, for key: String, hash: Int) {
            let mask = paths.count - 1
            var index = hash & mask
            while paths[index] != nil { index = (index + 1) & mask }
            keys[index] = key
            paths[index] = path
        }

        private mutating func grow() {
            let (oldKeys, oldPaths) = (keys, paths)
            keys = Array(repeating: "", count: oldKeys.count * 2)
            paths = Array(repeating: nil, count: oldPaths.count * 2)
            for index in oldPaths.indices {
                if let path = oldPaths[index], let hash = AttributeKeyPathTable.asciiHash(oldKeys[index]) {
                    place(path, for: oldKeys[index], hash: hash)
                }
            }
        }
    }
}
