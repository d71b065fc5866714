/// The two most recent answers of a lookup: what an ``IdentityMap`` asks before hashing
/// into its tables.
///
/// A read builds models of one class, or of two that alternate (each article, then the
/// author it links to); one remembered answer missed on every model of such a read.
struct RecentPair<Key: Equatable, Value> {
    // Each answer stays where it was remembered, and a flag names the one used last: moving
    // the found one first retained and released both keys and values on every miss of the
    // first, which a read alternating between two answers does on every model.
    private var first: (key: Key, value: Value)?
    private var second: (key: Key, value: Value)?
    /// Whether `second` was remembered or found after `first`.
    private var secondIsLatest = false

    /// The remembered value for `key`, if it is one of the two; a hit makes it the latest.
    mutating func value(for key: Key) -> Value? {
        value(for: key, matching: ==)
    }

    /// ``value(for:)``, with keys compared by `same`.
    @inline(__always)
    mutating func value(for key: Key, matching same: (Key, Key) -> Bool) -> Value? {
        if let first, same(first.key, key) {
            secondIsLatest = false
            return first.value
        }
        guard let second, same(second.key, key) else { return nil }
        secondIsLatest = true
        return second.value
    }

    /// Remembers `value` for `key` as the latest, forgetting the earlier one.
    mutating func remember(_ value: Value, for key: Key) {
        if secondIsLatest {
            first = (key, value)
        } else {
            second = (key, value)
        }
        secondIsLatest.toggle()
    }
}

extension RecentPair where Key == String {
    /// The remembered value for the path `key`, compared by its bits first: a read that
    /// alternates between two paths tells them apart on every model, and `==` on two
    /// different small strings cost more than the rest of the lookup.
    mutating func value(for key: String) -> Value? {
        value(for: key, matching: StringIdentity.equal)
    }
}
