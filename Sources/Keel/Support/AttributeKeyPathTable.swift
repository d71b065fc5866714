/// Attribute key paths by key: the cache behind per-attribute Observation, read on every
/// observed attribute read.
///
/// A dictionary holds one key path per attribute name. Keys are compared as Swift strings
/// (canonical equivalence), so `"\u{212A}"` (KELVIN SIGN) and `"K"` share a key path, as
/// they share an attribute. In front of it, ASCII keys (nearly all attribute names) are
/// cached in an open-addressing table hashed with FNV-1a over their bytes, from a random
/// per-process basis: for short keys a fraction of the cost of `Hasher`'s SipHash, which
/// dominated each lookup.
struct AttributeKeyPathTable {
    typealias Path = KeyPath<Model, JSONValue?>

    private static let basis = UInt64.random(in: .min ... .max) | 1

    private var paths: [String: Path] = [:]
    /// The ASCII keys looked up so far and their paths, in parallel arrays whose size is a
    /// power of two; at most half the slots are used.
    private var fastKeys = [String](repeating: "", count: 64)
    private var fastPaths = [Path?](repeating: nil, count: 64)
    private var fastCount = 0

    /// The key path for `key`, made with `make` the first time an equivalent key is seen.
    mutating func path(for key: String, make: () -> Path) -> Path {
        guard let hash = Self.asciiHash(key) else { return slowPath(for: key, make: make) }
        let mask = fastPaths.count - 1
        var index = hash & mask
        while let path = fastPaths[index] {
            if fastKeys[index] == key { return path }
            index = (index + 1) & mask
        }
        let path = slowPath(for: key, make: make)
        if 2 * (fastCount + 1) > fastPaths.count { grow() }
        place(key, path, hash: hash)
        fastCount += 1
        return path
    }

    private mutating func slowPath(for key: String, make: () -> Path) -> Path {
        if let path = paths[key] { return path }
        let path = make()
        paths[key] = path
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

    private mutating func place(_ key: String, _ path: Path, hash: Int) {
        let mask = fastPaths.count - 1
        var index = hash & mask
        while fastPaths[index] != nil { index = (index + 1) & mask }
        fastKeys[index] = key
        fastPaths[index] = path
    }

    private mutating func grow() {
        let (keys, paths) = (fastKeys, fastPaths)
        fastKeys = Array(repeating: "", count: keys.count * 2)
        fastPaths = Array(repeating: nil, count: paths.count * 2)
        for index in paths.indices {
            if let path = paths[index], let hash = Self.asciiHash(keys[index]) { place(keys[index], path, hash: hash) }
        }
    }
}
