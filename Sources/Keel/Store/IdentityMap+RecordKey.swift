import Foundation

/// Where a record lives in an ``IdentityMap``: its collection path, by its number in the
/// map's ``CollectionPaths``, and its id.
///
/// Two integers for the common record (hashed and compared without touching a string), where
/// the map used to key by the path's and the id's text.
///
/// A key with an integer id is hashed by one multiply-xorshift mix of its two integers and the
/// table's seed, not through `Hasher`: SipHash's rounds for every lookup, insert and move of
/// a growing table cost a tenth of loading a record with a related one through the map. The
/// mix spreads its bits over the low ones a table's bucket takes; a text id goes through
/// `Hasher` as before.
struct RecordKey: Hashable {
    let collection: Int
    let id: RecordID

    func hash(into hasher: inout Hasher) {
        hasher.combine(_rawHashValue(seed: 0))
    }

    func _rawHashValue(seed: Int) -> Int {
        guard case .int(let int) = id else {
            var hasher = Hasher()
            hasher.combine(seed)
            hasher.combine(collection)
            hasher.combine(id)
            return hasher.finalize()
        }
        return Self.hash(collection: collection, intID: int, seed: seed)
    }

    /// The hash of the key whose collection is numbered `collection` and whose id is the
    /// integer `intID`, under `seed`: ``_rawHashValue(seed:)`` without the key, for a table that
    /// stores its keys' parts apart (``RecordTable``).
    @inline(__always)
    static func hash(collection: Int, intID: Int, seed: Int) -> Int {
        mix(
            UInt64(bitPattern: Int64(intID)) &+ UInt64(bitPattern: Int64(collection)) &* 0x9E37_79B9_7F4A_7C15,
            seed: seed
        )
    }

    /// `value` and `seed` through MurmurHash3's finalizer, so that consecutive ids spread over
    /// a table's buckets.
    @inline(__always)
    private static func mix(_ value: UInt64, seed: Int) -> Int {
        MurmurFinalizer.mix(value ^ UInt64(bitPattern: Int64(seed)))
    }
}

/// A record's id as the text it has in a URL, so that `7`, `"7"` and `7.0` are one record:
/// an integer when that text is an integer's canonical decimal form, else the text.
enum RecordID: Hashable {
    case int(Int)
    case text(String)

    init(_ id: JSONValue) {
        switch id {
        case .int(let int): self = .int(int)
        case .double(let double): self = Int(exactly: double).map(RecordID.int) ?? .text(String(double))
        case .string(let string): self = Self.canonicalInteger(string).map(RecordID.int) ?? .text(string)
        default: self = .text(ResourcePath.segment(for: id))
        }
    }

    /// The id's text (``ResourcePath/segment(for:)``), for errors.
    var text: String {
        switch self {
        case .int(let int): String(int)
        case .text(let text): text
        }
    }

    /// The integer whose decimal form `text` is exactly (`"7"`, `"-12"`; not `"07"`, `"+7"`,
    /// `"-0"` or `" 7"`), if any.
    private static func canonicalInteger(_ text: String) -> Int? {
        var utf8 = text.utf8[...]
        if utf8.first == UInt8(ascii: "-") { utf8 = utf8.dropFirst() }
        guard let first = utf8.first, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { return nil }
        if first == UInt8(ascii: "0") { return text == "0" ? 0 : nil }
        guard utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
        return Int(text)
    }
}

/// The collection paths of an identity map's keys: each normal form (`notes/` and `/notes`
/// are one collection) gets a number, and each path as written is normalized once.
///
/// The numbers no key uses any more are released and given to new paths (``release(keeping:)``),
/// so a map that met many nested collections (`/users/7/invites` for each user) keeps only
/// the paths of its live records.
struct CollectionPaths {
    /// The normal forms, by number; `nil` for a released number.
    private var names: [String?] = []
    /// The released numbers, to give to new paths.
    private var released: [Int] = []
    /// The number of each normal form.
    private var numbers: [String: Int] = [:]
    /// The number of each path as written.
    ///
    /// Parsing a path as a URL for every record cost more than the lookup. Cleared when it
    /// holds ``writtenLimit``.
    private var written: [String: Int] = [:]
    private static let writtenLimit = 256
    /// The two paths numbered last.
    ///
    /// A fetch's records share one, and their related records another. Each stays where it
    /// was remembered, and a flag names the one used last: swapping them on every lookup of
    /// the other cost a read that alternates between two paths (each article, then its
    /// author) about 25 instructions a lookup.
    private var first: (path: String, number: Int)?
    private var second: (path: String, number: Int)?
    /// Whether `second` was numbered or found after `first`.
    private var secondIsLatest = false

    /// The number of `path`'s normal form.
    mutating func number(of path: String) -> Int {
        // Compared by their bits first: `==` on two different small strings costs more than
        // the rest of the lookup, and a read alternates between two paths.
        if let first, StringIdentity.equal(first.path, path) {
            secondIsLatest = false
            return first.number
        }
        if let second, StringIdentity.equal(second.path, path) {
            secondIsLatest = true
            return second.number
        }
        let number: Int
        if let known = written[path] {
            number = known
        } else {
            if written.count >= Self.writtenLimit { written.removeAll(keepingCapacity: true) }
            let normal = Self.normalized(path)
            if let known = numbers[normal] {
                number = known
            } else if let free = released.popLast() {
                number = free
                names[free] = normal
                numbers[normal] = free
            } else {
                number = names.count
                names.append(normal)
                numbers[normal] = number
            }
            written[path] = number
        }
        // The one used least recently gives way.
        if secondIsLatest {
            first = (path, number)
        } else {
            second = (path, number)
        }
        secondIsLatest.toggle()
        return number
    }

    /// The normal form numbered `number`.
    func name(of number: Int) -> String { names[number] ?? "" }

    /// How many paths hold a number.
    var count: Int { names.count - released.count }

    /// Releases the numbers of the paths not in `used`, except the two numbered last (a
    /// caller may hold a key of them that it has not inserted yet).
    mutating func release(keeping used: Set<Int>) {
        written.removeAll(keepingCapacity: true)
        for number in names.indices where names[number] != nil && !used.contains(number) {
            guard number != first?.number, number != second?.number, let name = names[number] else { continue }
            numbers[name] = nil
            names[number] = nil
            released.append(number)
        }
    }

    /// The collection path that names one collection however it is written (`notes/` and
    /// `/notes` are one collection).
    private static func normalized(_ collection: String) -> String {
        ResourcePath(URL(string: collection) ?? URL(filePath: collection)).path
    }
}
