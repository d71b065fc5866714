/// One emitter's `listenTo` relationships, by the identity of the emitter at the other end.
///
/// An emitter usually listens to, or is listened to by, a handful of others, so the table
/// is an array searched by identity: a `listenTo` followed by `stopListening` hashed an
/// identity five times in two dictionaries. Past ``linearSearchLimit`` relationships the
/// table keeps a dictionary instead, and stays hashed.
struct ListeningTable {
    /// The most relationships kept in the array.
    static var linearSearchLimit: Int { 16 }

    private var pairs: ContiguousArray<(key: ObjectIdentifier, listening: Listening)> = []
    /// The relationships, once there are more than ``linearSearchLimit``.
    private var hashed: [ObjectIdentifier: Listening]?

    var count: Int { hashed?.count ?? pairs.count }

    var isEmpty: Bool { count == 0 }

    /// The relationships, as an array that stays the same while the table changes.
    var values: [Listening] {
        if let hashed { return Array(hashed.values) }
        return pairs.map(\.listening)
    }

    /// The only relationship, when there is exactly one.
    var single: Listening? {
        guard count == 1 else { return nil }
        return hashed?.first?.value ?? pairs.first?.listening
    }

    /// The relationship with the emitter of identity `key`; setting `nil` removes it.
    subscript(key: ObjectIdentifier) -> Listening? {
        get {
            if let hashed { return hashed[key] }
            for pair in pairs where pair.key == key { return pair.listening }
            return nil
        }
        set {
            if hashed != nil {
                hashed?[key] = newValue
            } else if let position = pairs.firstIndex(where: { $0.key == key }) {
                if let newValue { pairs[position].listening = newValue } else { pairs.remove(at: position) }
            } else if let newValue {
                pairs.append((key, newValue))
                if pairs.count > Self.linearSearchLimit {
                    hashed = Dictionary(uniqueKeysWithValues: pairs.lazy.map { ($0.key, $0.listening) })
                    pairs = []
                }
            }
        }
    }
}
