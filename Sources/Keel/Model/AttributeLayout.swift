/// The keys of a model's attributes, in order, shared by every model with the same keys:
/// a *shape*, or hidden class, as JavaScript engines call it.
///
/// A model's ``Model/storage`` keeps its keys in the layout's order, so the position of a
/// key in the layout is the position of its value in the storage: its *slot*. What each
/// slot needs besides the value is built once per layout rather than once per read or
/// per `set`: the Observation key path that stands for the attribute, and the name of its
/// `change:<key>` event.
///
/// Layouts form a tree: the layout with one more key is found through a transition table,
/// so models built from the same literal, or parsed from records of the same kind, end up
/// with the same layout. The tree is process-wide and never shrinks, so it is bounded:
/// past ``maximumSharedKeys`` keys or ``maximumSharedLayouts`` layouts, a model gets a
/// layout of its own, which it keeps as long as its keys do not change.
///
/// Layouts are immutable once published, except for their transition tables, which a lock
/// guards; reading a layout takes no lock.
final class AttributeLayout: @unchecked Sendable {
    /// How many keys a shared layout may have; a model with more gets its own layout.
    static let maximumSharedKeys = 64
    /// How many shared layouts the process keeps at most.
    static let maximumSharedLayouts = 16_384

    /// The layout of a model without attributes: the root of the tree.
    static let empty = AttributeLayout()

    /// The transition tables and the number of shared layouts.
    private static let tree = Lock(0)

    /// The keys, in slot order.
    let keys: ContiguousArray<String>
    /// The Observation key path of each slot (``Model/keyPath(forAttribute:)``).
    let keyPaths: ContiguousArray<KeyPath<Model, JSONValue?>>
    /// The name of each slot's `change:<key>` event.
    let changeEventNames: ContiguousArray<String>
    /// The slot of each key, for layouts too large to search linearly.
    private let slots: [String: Int]?
    /// Whether the layout belongs to the tree, so that other models share it.
    let isShared: Bool
    /// The layouts with one more key, by that key; guarded by ``tree``.
    private var transitions: [String: AttributeLayout] = [:]

    private init() {
        keys = []
        keyPaths = []
        changeEventNames = []
        slots = nil
        isShared = true
    }

    private init(
        keys: ContiguousArray<String>,
        keyPaths: ContiguousArray<KeyPath<Model, JSONValue?>>,
        changeEventNames: ContiguousArray<String>,
        isShared: Bool
    ) {
        self.keys = keys
        self.keyPaths = keyPaths
        self.changeEventNames = changeEventNames
        self.isShared = isShared
        if keys.count > OrderedStringMap<JSONValue>.linearSearchLimit {
            var slots = [String: Int](minimumCapacity: keys.count)
            for (slot, key) in keys.enumerated() { slots[key] = slot }
            self.slots = slots
        } else {
            slots = nil
        }
    }

    /// The number of slots.
    var count: Int { keys.count }

    /// The slot of `key`, or `nil` when the layout does not have it.
    ///
    /// - Complexity: O(*n*) for up to a dozen keys, comparing the strings' bits before their
    ///   characters; O(1) on average past that.
    @inline(__always)
    func slot(of key: String) -> Int? {
        if let slots { return slots[key] }
        return keys.withUnsafeBufferPointer { StringIdentity.position(of: key, in: $0) }
    }

    /// The layout of `object`'s keys: this one when they are the same, a descendant when
    /// the object has keys added at the end, otherwise one found from the root.
    ///
    /// - Complexity: O(*n*) comparisons of keys when the keys are unchanged or only added.
    func matching(_ object: JSONObject) -> AttributeLayout {
        let entries = object.entries
        let shared =
            entries.count >= keys.count
            && entries.withUnsafeBufferPointer { entries in
                keys.withUnsafeBufferPointer { keys in
                    for slot in keys.indices where !StringIdentity.equal(keys[slot], entries[slot].key) { return false }
                    return true
                }
            }
        if shared && entries.count == keys.count { return self }
        let start = shared ? self : Self.empty
        return entries.withUnsafeBufferPointer { entries in
            start.extended(with: entries[(shared ? keys.count : 0)...].lazy.map(\.key))
        }
    }

    /// The layout with `newKeys` added after these keys, in order.
    private func extended<Keys: Sequence<String>>(with newKeys: Keys) -> AttributeLayout {
        var layout = self
        var rest = newKeys.makeIterator()
        while let key = rest.next() {
            guard layout.isShared, let next = layout.sharedTransition(adding: key) else {
                var keys = layout.keys
                keys.append(key)
                while let key = rest.next() { keys.append(key) }
                return Self.unshared(keys)
            }
            layout = next
        }
        return layout
    }

    /// The shared layout with `key` added, or `nil` when the tree is full.
    private func sharedTransition(adding key: String) -> AttributeLayout? {
        guard keys.count < Self.maximumSharedKeys else { return nil }
        return Self.tree.withLock { count -> AttributeLayout? in
            if let next = transitions[key] { return next }
            guard count < Self.maximumSharedLayouts else { return nil }
            count += 1
            let next = appending(key, isShared: true)
            transitions[key] = next
            return next
        }
    }

    /// A layout of `keys` that no other model shares.
    private static func unshared(_ keys: ContiguousArray<String>) -> AttributeLayout {
        AttributeLayout(
            keys: keys,
            keyPaths: ContiguousArray(keys.lazy.map { Model.keyPath(forAttribute: $0) }),
            changeEventNames: ContiguousArray(keys.lazy.map { "change:" + $0 }),
            isShared: false
        )
    }

    /// This layout with `key` added as the last slot.
    private func appending(_ key: String, isShared: Bool) -> AttributeLayout {
        var keys = keys
        var keyPaths = keyPaths
        var changeEventNames = changeEventNames
        keys.append(key)
        keyPaths.append(Model.keyPath(forAttribute: key))
        changeEventNames.append("change:" + key)
        return AttributeLayout(keys: keys, keyPaths: keyPaths, changeEventNames: changeEventNames, isShared: isShared)
    }
}

/// Comparing strings by their bits before their characters.
///
/// Two strings with the same bits are the same string: a small string holds its bytes in
/// them, a large one points to its storage. Attribute names are nearly always small ASCII
/// strings that are bit for bit the same as the key they are looked up by, so comparing
/// bits finds them in a couple of instructions per key, where `==` on two different
/// strings takes the slower path that checks canonical equivalence.
enum StringIdentity {
    /// Whether `a` and `b` are equal, checking their bits first.
    @inline(__always)
    static func equal(_ a: String, _ b: String) -> Bool {
        sameBits(a, b) || a == b
    }

    /// The position of the first element equal to `key`.
    @inline(__always)
    static func position(of key: String, in keys: UnsafeBufferPointer<String>) -> Int? {
        for position in keys.indices where sameBits(keys[position], key) { return position }
        return keys.firstIndex(of: key)
    }

    /// The position of the first entry whose key equals `key`.
    @inline(__always)
    static func position<Value>(of key: String, in entries: UnsafeBufferPointer<(key: String, value: Value)>) -> Int? {
        for position in entries.indices where sameBits(entries[position].key, key) { return position }
        return entries.firstIndex { $0.key == key }
    }

    /// Whether the two strings have the same bits.
    @inline(__always)
    static func sameBits(_ a: String, _ b: String) -> Bool {
        #if _pointerBitWidth(_64)
            let (a0, a1) = unsafeBitCast(a, to: (UInt64, UInt64).self)
            let (b0, b1) = unsafeBitCast(b, to: (UInt64, UInt64).self)
            return a0 == b0 && a1 == b1
        #else
            return false
        #endif
    }
}
