/// One `listenTo` relationship as the listener records it (Backbone's `Listening`): the
/// target, and how many of the listener's handlers it holds.
///
/// A value in the listener's ``ListeningTable``, not an object: the handlers on the target
/// refer to the listener's ``EmitterLink`` instead, which exists once per emitter, so a
/// `listenTo` allocates nothing for its bookkeeping.
struct Listening {
    /// The identity of the target, the relationship's key.
    let targetKey: ObjectIdentifier
    /// Reaches the target while it lives (the target clears it when it is deallocated).
    let targetLink: EmitterLink
    /// How many of the listener's handlers the target holds.
    var count: Int
}

/// One emitter's `listenTo` relationships, by the identity of their targets.
///
/// A listener usually listens to one emitter, or a handful: a lone relationship is stored as
/// it is, without an array, so that a `listenTo` followed by `stopListening` stores and
/// clears one value; a few are an array searched by identity. Past ``linearSearchLimit``
/// relationships the table keeps a dictionary instead, and stays hashed.
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

    /// Records `count` more handlers on `target`, starting the relationship if there is none.
    ///
    /// The link is taken (`consuming`): a new relationship keeps it without a retain and a
    /// release of its own.
    mutating func add(_ count: Int, on target: EventEmitter, _ link: consuming EmitterLink) {
        let key = ObjectIdentifier(target)
        let targetLink = link
        switch storage {
        case .empty:
            storage = .one(Listening(targetKey: key, targetLink: targetLink, count: count))
        case .one(var only):
            if only.targetKey == key {
                only.count += count
                storage = .one(only)
            } else {
                storage = .few([only, Listening(targetKey: key, targetLink: targetLink, count: count)])
            }
        case .few(var listenings):
            storage = .empty
            if let position = listenings.firstIndex(where: { $0.targetKey == key }) {
                listenings[position].count += count
            } else {
                listenings.append(Listening(targetKey: key, targetLink: targetLink, count: count))
            }
            if listenings.count > Self.linearSearchLimit {
                storage = .hashed(Dictionary(uniqueKeysWithValues: listenings.lazy.map { ($0.targetKey, $0) }))
            } else {
                storage = .few(listenings)
            }
        case .hashed(var listenings):
            storage = .empty
            listenings[key, default: Listening(targetKey: key, targetLink: targetLink, count: 0)].count += count
            storage = .hashed(listenings)
        }
    }

    /// Records that the target of identity `key` dropped `count` of the handlers, ending the
    /// relationship with the last one.
    mutating func remove(_ count: Int, from key: ObjectIdentifier) {
        guard count > 0 else { return }
        switch storage {
        case .empty:
            return
        case .one(var only):
            guard only.targetKey == key else { return }
            only.count -= count
            storage = only.count <= 0 ? .empty : .one(only)
        case .few(var listenings):
            guard let position = listenings.firstIndex(where: { $0.targetKey == key }) else { return }
            storage = .empty
            listenings[position].count -= count
            if listenings[position].count <= 0 { listenings.remove(at: position) }
            storage = listenings.count == 1 ? .one(listenings[0]) : .few(listenings)
        case .hashed(var listenings):
            guard listenings[key] != nil else { return }
            storage = .empty
            listenings[key]?.count -= count
            if let left = listenings[key]?.count, left <= 0 { listenings[key] = nil }
            if !listenings.isEmpty { storage = .hashed(listenings) }
        }
    }

    /// Takes the only relationship out of the table, when there is exactly one stored as it is,
    /// leaving the table empty.
    ///
    /// Moved out rather than copied: ending the relationship retains nothing.
    mutating func takeSingle() -> Listening? {
        guard case .one = storage else { return nil }
        var taken = Storage.empty
        swap(&taken, &storage)
        guard case .one(let listening) = consume taken else { return nil }
        return listening
    }

    /// Ends the relationship with the target of identity `key`, whatever it holds.
    mutating func removeAll(from key: ObjectIdentifier) {
        switch storage {
        case .empty:
            return
        case .one(let only):
            if only.targetKey == key { storage = .empty }
        case .few(var listenings):
            guard let position = listenings.firstIndex(where: { $0.targetKey == key }) else { return }
            storage = .empty
            listenings.remove(at: position)
            storage = listenings.count == 1 ? .one(listenings[0]) : .few(listenings)
        case .hashed(var listenings):
            guard listenings[key] != nil else { return }
            storage = .empty
            listenings[key] = nil
            if !listenings.isEmpty { storage = .hashed(listenings) }
        }
    }
}
