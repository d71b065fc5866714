import Synchronization

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

    /// Recently found shared layouts, as the addresses of the objects: shared layouts live as
    /// long as the process, so an address read here always names a live layout.
    ///
    /// Two ways in each of ``hintSets`` sets, chosen by a hash of the keys (``hintSet(of:)``),
    /// the newer first: a model built from the same keys as one before finds its layout here
    /// without walking the tree, and two kinds of model built in turn (an article and its
    /// author) keep both their layouts when their keys fall in one set, where a single way
    /// made each evict the other.
    private nonisolated(unsafe) static let hints: UnsafeMutablePointer<Atomic<UInt>> = {
        let hints = UnsafeMutablePointer<Atomic<UInt>>.allocate(capacity: 2 * hintSets)
        for way in 0..<(2 * hintSets) { (hints + way).initialize(to: Atomic(0)) }
        return hints
    }()
    /// The shared layout that ``of(_:)`` found last, as the address of the object (zero
    /// before the first): an atomic word set before any model is built, which reads it
    /// without the one-time check that ``hints`` takes.
    private static let lastFound = Atomic<UInt>(0)
    /// How many sets of two hints there are, a power of two.
    private static let hintSets = 8

    /// The keys, in slot order.
    let keys: ContiguousArray<String>
    /// The Observation key path of each slot (``Model/keyPath(forAttribute:)``).
    let keyPaths: ContiguousArray<KeyPath<Model, JSONValue?>>
    /// The name of each slot's `change:<key>` event.
    let changeEventNames: ContiguousArray<String>
    /// The slots of a layout of four keys or more, found by the bits of their keys.
    private let index: SlotIndex?
    /// Whether the layout belongs to the tree, so that other models share it.
    let isShared: Bool
    /// The layouts with one more key, and that key; guarded by ``tree``.
    ///
    /// Most layouts have one or two, so they are searched linearly, comparing bits first.
    @exclusivity(unchecked) private var transitions: ContiguousArray<(key: String, value: AttributeLayout)> = []

    private init() {
        keys = []
        keyPaths = []
        changeEventNames = []
        index = nil
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
        index = SlotIndex(keys: keys)
    }

    /// The number of slots.
    var count: Int { keys.count }

    /// The slot of `key`, or `nil` when the layout does not have it.
    ///
    /// - Complexity: O(1) on average: in a layout of four keys or more, a small ASCII key is
    ///   found by its bits (``SlotIndex``); smaller layouts compare the key with each slot's,
    ///   bits before characters.
    @inline(__always)
    func slot(of key: String) -> Int? {
        keys.withUnsafeBufferPointer { keys in
            if let index { return index.slot(of: key, in: keys) }
            return StringIdentity.position(of: key, in: keys)
        }
    }

    /// The slot of a key with the same bits as `key`, found without comparing characters.
    ///
    /// No call is made. `nil` when the layout has no such key, though it may have an equal key
    /// with other bits. Two small ASCII strings, nearly every attribute name, are equal exactly
    /// when their bits are.
    @inline(__always)
    func slot(ofSameBitsAs key: String) -> Int? {
        keys.withUnsafeBufferPointer { keys in
            if let index { return index.slot(ofSameBitsAs: key, in: keys) }
            return StringIdentity.position(ofSameBitsAs: key, in: keys)
        }
    }

    /// Whether the key in `slot`, which must be a valid slot, has the same bits as `key`:
    /// is the same string, not only an equal one.
    @inline(__always)
    func hasKey(at slot: Int, withSameBitsAs key: String) -> Bool {
        keys.withUnsafeBufferPointer { StringIdentity.haveSameBits($0[slot], key) }
    }

    /// The layout of `object`'s keys: this one when they are the same, a descendant when
    /// the object has keys added at the end, otherwise one found from the root.
    ///
    /// - Complexity: O(*n*) comparisons of keys when the keys are unchanged or only added.
    func matching(_ object: JSONObject) -> AttributeLayout {
        object.withUnsafeKeys { matching($0) }
    }

    /// The layout of a new model's attributes: ``matching(_:)`` from the root, without
    /// reading the root when a recently found layout has the keys.
    ///
    /// Models are mostly built many of one kind in a row, so the layout the previous model
    /// found (``lastFound``) is tried first, comparing the keys' bits in place, before the
    /// hint sets are hashed and the tree is walked.
    ///
    /// - Complexity: O(*n*) comparisons of keys.
    @inline(__always)
    static func of(_ object: JSONObject) -> AttributeLayout {
        // A shaped object has its layout.
        if let shaped = object.lentShapedStorage {
            return shaped._withUnsafeGuaranteedRef { $0.lentLayout.takeUnretainedValue() }
        }
        // The keys are read without a retain: the caller's object keeps them for the call.
        return object.withUnsafeKeys { keys in
            guard keys.count > 0 else { return empty }
            if let pointer = UnsafeRawPointer(bitPattern: lastFound.load(ordering: .acquiring)) {
                // Compared without a retain, as a hint is (a shared layout lives as long as
                // the process).
                let last = Unmanaged<AttributeLayout>.fromOpaque(pointer)
                if last._withUnsafeGuaranteedRef({ $0.keys.count == keys.count && $0.isPrefix(of: keys) }) {
                    return last.takeUnretainedValue()
                }
            }
            return ofOtherKeys(keys)
        }
    }

    /// The shared layout that ``of(_:)`` found last, lent (a shared layout lives as long as
    /// the process); `nil` before the first.
    ///
    /// Only this hint is read, for ``JSONObject/shapedMerge(_:_:)``: the tree is neither walked
    /// nor extended, so objects with keys of any kind can ask without growing it.
    @inline(__always)
    static var lastFoundLayout: Unmanaged<AttributeLayout>? {
        guard let pointer = UnsafeRawPointer(bitPattern: lastFound.load(ordering: .acquiring)) else { return nil }
        return Unmanaged.fromOpaque(pointer)
    }

    /// The layout that ``of(_:)`` finds for keys other than ``lastFound``'s: from the hint
    /// sets or the tree; a shared one becomes ``lastFound``.
    @inline(never)
    private static func ofOtherKeys(_ objectKeys: JSONObject.UnsafeKeys) -> AttributeLayout {
        let set = hintSet(of: objectKeys)
        let layout =
            hint(in: set, matching: objectKeys) ?? empty.found(for: objectKeys, inHintSet: set, extending: true)
        if layout.isShared {
            lastFound.store(UInt(bitPattern: Unmanaged.passUnretained(layout).toOpaque()), ordering: .releasing)
        }
        return layout
    }

    /// ``matching(_:)`` for an object's keys.
    private func matching(_ objectKeys: JSONObject.UnsafeKeys) -> AttributeLayout {
        let extends = objectKeys.count >= keys.count && isPrefix(of: objectKeys)
        if extends && objectKeys.count == keys.count { return self }
        let set = Self.hintSet(of: objectKeys)
        if let hint = Self.hint(in: set, matching: objectKeys) { return hint }
        return found(for: objectKeys, inHintSet: set, extending: extends)
    }

    /// The layout of the keys of `objectKeys`, which no hint of `set` has, from the tree (this
    /// layout's descendants when `extends`, the root's otherwise); a shared one becomes the
    /// newer hint of `set`.
    @inline(never)
    private func found(
        for objectKeys: JSONObject.UnsafeKeys,
        inHintSet set: Int,
        extending extends: Bool
    ) -> AttributeLayout {
        let start = extends ? self : Self.empty
        let layout = start.extended(
            with: ((extends ? keys.count : 0)..<objectKeys.count).lazy.map { objectKeys[$0] },
            reusing: self
        )
        if layout.isShared { Self.recordHint(layout, in: set) }
        return layout
    }

    /// Whether the keys of `objectKeys` begin with these keys, in this order; `objectKeys` has at
    /// least as many.
    @inline(__always)
    private func isPrefix(of objectKeys: JSONObject.UnsafeKeys) -> Bool {
        keys.withUnsafeBufferPointer { keys in
            for slot in keys.indices where !StringIdentity.equal(keys[slot], objectKeys[slot]) { return false }
            return true
        }
    }

    /// The hint set for the keys of `objectKeys`: from their number and the bits of the first and
    /// last key.
    @inline(__always)
    private static func hintSet(of objectKeys: JSONObject.UnsafeKeys) -> Int {
        let count = objectKeys.count
        guard count > 0 else { return 0 }
        var hash = UInt(count) &* 0x9E37_79B9
        hash ^= StringIdentity.bitsHash(objectKeys[0]) &* 31
        hash ^= StringIdentity.bitsHash(objectKeys[count - 1])
        return Int(truncatingIfNeeded: (hash ^ (hash >> 17)) & UInt(hintSets - 1))
    }

    /// The shared layout of `set` whose keys are those of `objectKeys`, if either way holds it.
    @inline(__always)
    private static func hint(in set: Int, matching objectKeys: JSONObject.UnsafeKeys)
        -> AttributeLayout?
    {
        for way in (2 * set)...(2 * set + 1) {
            guard let pointer = UnsafeRawPointer(bitPattern: hints[way].load(ordering: .acquiring)) else { return nil }
            // Compared without a retain: only the layout returned is retained, not each one
            // probed (a shared layout lives as long as the process).
            let hint = Unmanaged<AttributeLayout>.fromOpaque(pointer)
            let matches = hint._withUnsafeGuaranteedRef {
                $0.keys.count == objectKeys.count && $0.isPrefix(of: objectKeys)
            }
            if matches { return hint.takeUnretainedValue() }
        }
        return nil
    }

    /// Records a shared layout as the newer way of `set`, the newer one before it becoming the
    /// older.
    private static func recordHint(_ layout: AttributeLayout, in set: Int) {
        let address = UInt(bitPattern: Unmanaged.passUnretained(layout).toOpaque())
        hints[2 * set + 1].store(hints[2 * set].load(ordering: .acquiring), ordering: .releasing)
        hints[2 * set].store(address, ordering: .releasing)
    }

    /// The layout with `newKeys` added after these keys, in order; a layout of its own takes
    /// what `source` built for the keys they have in common.
    private func extended<Keys: Sequence<String>>(with newKeys: Keys, reusing source: AttributeLayout)
        -> AttributeLayout
    {
        var layout = self
        var rest = newKeys.makeIterator()
        while let key = rest.next() {
            guard layout.isShared, let next = layout.sharedTransition(adding: key) else {
                var keys = layout.keys
                keys.append(key)
                while let key = rest.next() { keys.append(key) }
                return Self.unshared(keys, reusing: source)
            }
            layout = next
        }
        return layout
    }

    /// The shared layout with `key` added, or `nil` when the tree is full.
    private func sharedTransition(adding key: String) -> AttributeLayout? {
        guard keys.count < Self.maximumSharedKeys else { return nil }
        return Self.tree.withLock { count -> AttributeLayout? in
            let found = transitions.withUnsafeBufferPointer { transitions in
                StringIdentity.position(of: key, in: transitions)
            }
            if let found { return transitions[found].value }
            guard count < Self.maximumSharedLayouts else { return nil }
            count += 1
            let next = appending(key, isShared: true)
            transitions.append((key, next))
            return next
        }
    }

    /// A layout of `keys` that no other model shares, with the key paths and event names of
    /// `source` for the keys it has: a model of many attributes that loses or gains one builds
    /// only what is new (building a key path is a runtime call, microseconds each).
    private static func unshared(_ keys: ContiguousArray<String>, reusing source: AttributeLayout) -> AttributeLayout {
        var keyPaths = ContiguousArray<KeyPath<Model, JSONValue?>>()
        var changeEventNames = ContiguousArray<String>()
        keyPaths.reserveCapacity(keys.count)
        changeEventNames.reserveCapacity(keys.count)
        // Keys keep their order when one is removed or added, so the next key of `source`
        // is nearly always the one: compared by bits before being looked up.
        var next = 0
        for key in keys {
            let found =
                next < source.count && source.hasKey(at: next, withSameBitsAs: key) ? next : source.slot(of: key)
            if let slot = found {
                keyPaths.append(source.keyPaths[slot])
                changeEventNames.append(source.changeEventNames[slot])
                next = slot + 1
            } else {
                keyPaths.append(Model.keyPath(forAttribute: key))
                changeEventNames.append("change:" + key)
            }
        }
        return AttributeLayout(keys: keys, keyPaths: keyPaths, changeEventNames: changeEventNames, isShared: false)
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
