/// One emitter's `listenTo` relationships, by the identity of their targets.
///
/// A listener usually listens to one emitter, or a handful: a lone relationship is stored as
/// it is, without an array, so that a `listenTo` followed by `stopListening` only swaps one
/// reference in and out; a few are an array searched by identity. Past
/// ``linearSearchLimit`` relationships the table keeps a dictionary instead, and stays hashed.
struct ListeningTable {
    /// The most relationships kept in the array.
    static var linearSearchLimit: Int { 16 }

    private enum Storage {
        case empty
        case one(Listening)
        /// Two to ``linearSearchLimit`` relationships.
        case few(ContiguousArray<Listening>)
        case hashed([ObjectIdentifier: Listening])
    }

    private var storage = Storage.empty

    var count: Int {
        switch storage {
        case .empty: return 0
        case .one: return 1
        case .few(let listenings): return listenings.count
        case .hashed(let listenings): return listenings.count
        }
    }

    var isEmpty: Bool {
        if case .empty = storage { return true }
        return false
    }

    /// The relationships, as an array that stays the same while the table changes.
    var values: [Listening] {
        switch storage {
        case .empty: return []
        case .one(let listening): return [listening]
        case .few(let listenings): return Array(listenings)
        case .hashed(let listenings): return Array(listenings.values)
        }
    }

    /// The only relationship, when there is exactly one.
    var single: Listening? {
        switch storage {
        case .one(let listening): return listening
        case .hashed(let listenings) where listenings.count == 1: return listenings.first?.value
        default: return nil
        }
    }

    /// The relationship with the emitter of identity `key`.
    subscript(key: ObjectIdentifier) -> Listening? {
        switch storage {
        case .empty:
            return nil
        case .one(let listening):
            return listening.targetKey == key ? listening : nil
        case .few(let listenings):
            for listening in listenings where listening.targetKey == key { return listening }
            return nil
        case .hashed(let listenings):
            return listenings[key]
        }
    }

    /// Adds a relationship with a target that the table does not have yet.
    mutating func insert(_ listening: Listening) {
        switch storage {
        case .empty:
            storage = .one(listening)
        case .one(let first):
            storage = .few([first, listening])
        case .few(var listenings):
            storage = .empty
            listenings.append(listening)
            if listenings.count > Self.linearSearchLimit {
                storage = .hashed(Dictionary(uniqueKeysWithValues: listenings.lazy.map { ($0.targetKey, $0) }))
            } else {
                storage = .few(listenings)
            }
        case .hashed(var listenings):
            storage = .empty
            listenings[listening.targetKey] = listening
            storage = .hashed(listenings)
        }
    }

    /// Removes `listening` itself; does nothing when the table does not hold it.
    mutating func remove(_ listening: Listening) {
        switch storage {
        case .empty:
            return
        case .one(let only):
            if only === listening { storage = .empty }
        case .few(var listenings):
            guard let position = listenings.firstIndex(where: { $0 === listening }) else { return }
            storage = .empty
            listenings.remove(at: position)
            storage = listenings.count == 1 ? .one(listenings[0]) : .few(listenings)
        case .hashed(var listenings):
            guard listenings[listening.targetKey] === listening else { return }
            storage = .empty
            listenings[listening.targetKey] = nil
            if !listenings.isEmpty { storage = .hashed(listenings) }
        }
    }
}
