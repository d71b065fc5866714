/// The two most recent answers of a lookup, the latest first: what an ``IdentityMap`` asks
/// before hashing into its tables.
///
/// A read builds models of one class, or of two that alternate (each article, then the
/// author it links to); one remembered answer missed on every model of such a read.
struct RecentPair<Key: Equatable, Value> {
    private var latest: (key: Key, value: Value)?
    private var earlier: (key: Key, value: Value)?

    /// The remembered value for `key`, if it is one of the two; a hit on the earlier one
    /// makes it the latest.
    mutating func value(for key: Key) -> Value? {
        value(for: key, matching: ==)
    }

    /// ``value(for:)``, with keys compared by `same`.
    @inline(__always)
    mutating func value(for key: Key, matching same: (Key, Key) -> Bool) -> Value? {
        if let latest, same(latest.key, key) { return latest.value }
        guard let earlier, same(earlier.key, key) else { return nil }
        swap(&self.latest, &self.earlier)
        return earlier.value
    }

    /// Remembers `value` for `key` as the latest, forgetting the earlier one.
    mutating func remember(_ value: Value, for key: Key) {
        earlier = latest
        latest = (key, value)
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
