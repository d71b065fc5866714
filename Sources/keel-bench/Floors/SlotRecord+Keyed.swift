/// The same-work floor of a model's API: a record that takes its attributes by name, as a
/// model does, where the machine floor (``SlotRecord/set(_:_:)``) takes slot numbers.
///
/// A `set` of Keel (and of Backbone) takes an attribute literal, so this floor builds the
/// same literal, as `KeyValuePairs` (an array of pairs, no hashing), and finds each key's
/// slot by name in the layout's keys before it compares and stores by slot.
extension SlotRecord {
    /// The slot of `key` in `keys`, the record's layout.
    @inline(__always)
    static func slot(of key: String, in keys: [String]) -> Int? {
        keys.firstIndex(of: key)
    }

    /// Stores each value of `attributes` that differs, by the slot of its key in `keys`,
    /// reporting each, then reports one change if there was any; a key outside the layout is
    /// ignored (the workloads name only keys the record has).
    ///
    /// Not inlined, as ``set(_:_:)``: a loop setting the same literal would be folded away.
    @inline(never)
    func set(_ attributes: KeyValuePairs<String, PlainValue>, keys: [String]) {
        var changed = false
        for (key, value) in attributes {
            guard let slot = Self.slot(of: key, in: keys), values[slot] != value else { continue }
            store(slot, value)
            changed = true
            didChange(slot, value)
        }
        if changed { didChange() }
    }

    /// Stores `value` under the attribute named `key` when it differs, then reports the
    /// attribute and the change: the same-work floor of a one-attribute `set` by name or by
    /// typed key.
    @inline(never)
    func set(named key: String, _ value: PlainValue, keys: [String]) {
        guard let slot = Self.slot(of: key, in: keys) else { return }
        set(slot, value)
    }

    /// A record of `layout` from an attribute literal: the layout's defaults with each
    /// input value in the slot of its key.
    convenience init(_ attributes: KeyValuePairs<String, PlainValue>, layout: SlotLayout) {
        var values = layout.defaults
        for (key, value) in attributes {
            if let slot = Self.slot(of: key, in: layout.keys) { values[slot] = value }
        }
        self.init(values)
    }
}
