extension JSONAPIReader {
    /// The identities of the resources being read around the one being read: a relationship
    /// that links back to one of them gets the id alone, which ends a cycle.
    ///
    /// A small identity is kept as its plain words, which are copied, compared and removed
    /// without reference counting. A list of ``ResourceKey``s, each holding a reference for an
    /// identity that is not small, destroyed every key it removed through an outlined call.
    struct Ancestors {
        /// The small identities, innermost last.
        private var small: [(type: JSONAPIResourceIndex.Words, id: JSONAPIResourceIndex.Words)] = []
        /// The other identities, innermost last.
        private var others: [ResourceKey] = []

        /// Which list an identity went to.
        enum Kind {
            case small
            case other
        }

        /// Adds the identity of `resource` (whose members are `members`), a resource whose
        /// relationships are read next, and tells which list it went to: `nil` for a resource
        /// without an identity, which no relationship can link back to.
        mutating func push(identityOf resource: JSONObject, members: JSONAPIResourceMembers) -> Kind? {
            if let words = members.smallIdentityWords(in: resource) {
                small.append(words)
                return .small
            }
            guard let key = members.key(in: resource) else { return nil }
            // An ASCII identity not held as small strings has the small key of its text.
            if let words = key.smallWords {
                small.append(words)
                return .small
            }
            others.append(key)
            return .other
        }

        /// Removes the identity that the matching ``push(identityOf:members:)`` added, once the
        /// resource's relationships are read.
        mutating func pop(_ kind: Kind) {
            switch kind {
            case .small: small.removeLast()
            case .other: others.removeLast()
            }
        }

        /// Whether a resource with the identity `key` is being read around this point.
        func contains(_ key: ResourceKey) -> Bool {
            guard let words = key.smallWords else { return others.contains(key) }
            return contains(words)
        }

        /// Whether a resource with the small identity of these words is being read around this
        /// point.
        func contains(_ words: (type: JSONAPIResourceIndex.Words, id: JSONAPIResourceIndex.Words)) -> Bool {
            small.contains { $0.id == words.id && $0.type == words.type }
        }
    }
}
