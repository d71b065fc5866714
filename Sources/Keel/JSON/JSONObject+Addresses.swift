// MARK: - Keys and values where the object keeps them

extension JSONObject {
    /// The address of the key at `position`, which must be a valid position: valid while this
    /// object lives unchanged.
    ///
    /// Readers that compare keys in place use this (and ``valueAddress(at:)``) rather than
    /// assuming how the storage lays keys and values out: beside the values, or in the layout
    /// of a shaped object.
    @inline(__always)
    func keyAddress(at position: Int) -> UnsafePointer<String> {
        if storage.entries.storage.unsafelyUnwrapped.isShaped { return shapedKeyAddress(at: position) }
        // A tuple's first element lies at its start.
        return UnsafeRawPointer(entryAddress(at: position)).assumingMemoryBound(to: String.self)
    }

    /// The address of the value at `position`, which must be a valid position: valid while
    /// this object lives unchanged.
    ///
    /// The form is told by the storage's header, which lies in the line of the first values.
    @inline(__always)
    func valueAddress(at position: Int) -> UnsafePointer<JSONValue> {
        // `storage.count`, not `count`: an unoptimized build would measure the collection
        // through generic code on every read.
        assert(UInt(bitPattern: position) < UInt(bitPattern: storage.count), "Index out of range")
        if storage.entries.storage.unsafelyUnwrapped.isShaped {
            return UnsafePointer(
                unsafeDowncast(storage.entries.storage.unsafelyUnwrapped, to: ShapedStorage.self).values + position
            )
        }
        return UnsafePointer(Self.valueAddress(of: storage.entries.storage.unsafelyUnwrapped.elements + position))
    }

    /// The address of the entry at `position` of an object in the entries form, which must be
    /// a valid position: checked in debug builds only, as an `UnsafeBufferPointer`'s subscript
    /// checks it.
    ///
    /// Readers take their positions from ``index(forKey:)``, a layout's slots or a loop below
    /// ``count``; a check in release builds cost a `coll_get` lookup 5 instructions (its
    /// ``value(at:)``, which read through a buffer pointer unchecked before).
    @inline(__always)
    private func entryAddress(at position: Int) -> UnsafeMutablePointer<Element> {
        assert(UInt(bitPattern: position) < UInt(bitPattern: storage.count), "Index out of range")
        // As ``ElementBuffer/address(of:)`` reaches it: through the lent storage, a loop of
        // reads (a `set`'s slot scan) retained and released it around each.
        return storage.entries.storage.unsafelyUnwrapped.elements + position
    }

    /// The keys, where the object keeps them, lent to `body` without a reference count: the
    /// caller's object keeps them for the call.
    @inline(__always)
    func withUnsafeKeys<Result>(_ body: (UnsafeKeys) -> Result) -> Result {
        guard let storage = storage.unretainedEntries else { return body(UnsafeKeys(base: nil, count: 0)) }
        return storage._withUnsafeGuaranteedRef { storage in
            if storage.isShaped {
                let shaped = unsafeDowncast(storage, to: ShapedStorage.self)
                return body(
                    UnsafeKeys(
                        base: UnsafeRawPointer(shaped.keys),
                        count: shaped.valueCount,
                        stride: MemoryLayout<String>.stride
                    )
                )
            }
            return body(UnsafeKeys(base: UnsafeRawPointer(storage.elements), count: storage.elementCount))
        }
    }

    /// The keys of an object in position order, read where it keeps them: valid while that
    /// object lives unchanged.
    struct UnsafeKeys {
        /// The address of the first key.
        let base: UnsafeRawPointer?
        /// The number of keys.
        let count: Int
        /// The distance in bytes from one key to the next: an entry's, or a `String`'s in a
        /// shaped object's layout.
        var stride = MemoryLayout<Element>.stride

        /// The key at `position`, which must be below ``count``.
        @inline(__always)
        subscript(position: Int) -> String {
            address(at: position).pointee
        }

        /// The address of the key at `position`, which must be below ``count``.
        @inline(__always)
        func address(at position: Int) -> UnsafePointer<String> {
            (base.unsafelyUnwrapped + position * stride).assumingMemoryBound(to: String.self)
        }

        /// The position of `key`, compared with each key in order, bits first; `nil` when
        /// there is no such key.
        @inline(__always)
        func position(of key: String) -> Int? {
            for position in 0..<count where StringIdentity.equal(self[position], key) { return position }
            return nil
        }
    }

    /// The storage of an object, lent without a reference count (``lentStorage``).
    typealias LentStorage = Unmanaged<ElementStorage<Element>>

    /// The storage of the keys and values without a reference count, or `nil` when the object
    /// is empty: valid while this object keeps it, for ``assign(copying:settingValue:at:)``.
    @inline(__always)
    var lentStorage: LentStorage? { storage.unretainedEntries }

    /// Makes this object the one whose storage is `source` with `value` at `position`.
    ///
    /// `source` is a ``lentStorage``, which its object keeps for the call, and `position` a
    /// valid position in it. The result is written in this object's own storage when nothing
    /// else shares it (only the entries whose bits differ are written), else in a copy of
    /// `source`. A shaped `source` gives a shaped object.
    @inline(__always)
    mutating func assign(
        copying source: LentStorage,
        settingValue value: JSONValue,
        at position: Int
    ) {
        if source._withUnsafeGuaranteedRef({ $0.isShaped }) {
            assign(copyingShaped: Unmanaged.fromOpaque(source.toOpaque()), settingValue: value, at: position)
            return
        }
        // Entries are never written into shaped storage: it is let go of.
        if isShaped { storage = OrderedStringMap() }
        let (target, source, isInitialized) = storage.assign(copying: source, except: position)
        guard isInitialized else {
            target.initialize(to: (source.pointee.key, value))
            return
        }
        if !StringIdentity.haveSameBits(target.pointee.key, source.pointee.key) {
            target.pointee.key = source.pointee.key
        }
        JSONValue.assign(value, to: Self.valueAddress(of: target))
    }

    /// The address of the value of the entry at `entry`.
    ///
    /// A tuple's elements are laid out in order, each at its alignment: the value follows the
    /// key (a test checks the offset against `MemoryLayout.offset(of:)`, which is not a
    /// constant the compiler folds).
    @inline(__always)
    static func valueAddress(of entry: UnsafeMutablePointer<Element>) -> UnsafeMutablePointer<JSONValue> {
        (UnsafeMutableRawPointer(entry) + MemoryLayout<String>.stride).assumingMemoryBound(to: JSONValue.self)
    }

    /// Replaces the value of the object's only entry with `value` when its key is `key` by its
    /// bits and nothing else shares the storage: a model's `changed` after a run of `set`s of
    /// one attribute.
    ///
    /// - Returns: Whether the value was replaced.
    @inline(__always)
    mutating func replaceLoneValue(_ value: JSONValue, ifKeyIs key: String) -> Bool {
        guard !isShaped, let entry = storage.loneEntry(ifKeyIs: key) else { return false }
        JSONValue.assign(value, to: Self.valueAddress(of: entry))
        return true
    }

    /// Replaces the value at `position`, which must be a valid position, keeping its key.
    mutating func setValue(_ value: JSONValue, at position: Int) {
        if isShaped {
            precondition(UInt(bitPattern: position) < UInt(bitPattern: count), "Index out of range")
            uniqueShapedValues()[position] = value
            return
        }
        storage.modifyValue(at: position) { $0 = value }
    }
}
