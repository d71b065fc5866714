// MARK: - The shaped form

extension JSONObject {
    /// The ``ShapedStorage``, lent without a reference count, or `nil` for an object in the
    /// entries form: valid while this object keeps it.
    @inline(__always)
    var lentShapedStorage: Unmanaged<ShapedStorage>? {
        guard let storage = storage.unretainedEntries, storage._withUnsafeGuaranteedRef({ $0.isShaped }) else {
            return nil
        }
        return Unmanaged.fromOpaque(storage.toOpaque())
    }

    /// Whether the object keeps its values alone, its keys in a shared ``AttributeLayout``.
    ///
    /// Both forms behave alike: only memory and the speed of some operations differ.
    @inline(__always)
    var isShaped: Bool { storage.entries.storage?.isShaped ?? false }

    /// The layout holding the keys of a shaped object; `nil` for the entries form.
    var shapedLayout: AttributeLayout? {
        lentShapedStorage?._withUnsafeGuaranteedRef { $0.lentLayout.takeUnretainedValue() }
    }

    /// The address of the key at `position` of a shaped object, in its layout.
    @inline(never)
    func shapedKeyAddress(at position: Int) -> UnsafePointer<String> {
        precondition(UInt(bitPattern: position) < UInt(bitPattern: count), "Index out of range")
        return lentShapedStorage.unsafelyUnwrapped._withUnsafeGuaranteedRef { $0.keys } + position
    }

    /// Puts the object in the entries form, with room for `extra` more entries; an object in
    /// that form stays as it is.
    ///
    /// Every change but a value's by position (``setValue(_:at:)``,
    /// ``assign(copying:settingValue:at:)``) is made in the entries form: keys added or
    /// removed no longer match the layout.
    @inline(__always)
    mutating func makeEntries(reserving extra: Int = 0) {
        if isShaped { makeEntries(fromShapedReserving: extra) }
    }

    /// ``makeEntries(reserving:)`` for a shaped object.
    @inline(never)
    private mutating func makeEntries(fromShapedReserving extra: Int) {
        let lent = lentShapedStorage.unsafelyUnwrapped
        let count = self.count
        let entries = ElementStorage<Element>.make(capacity: count + extra)
        let target = entries.elements
        let isUnique = storage.hasUniqueStorage()
        lent._withUnsafeGuaranteedRef { shaped in
            let keys = shaped.keys
            let values = shaped.values
            if isUnique {
                shaped.forgetValues()
                for position in 0..<count {
                    (target + position).initialize(to: (keys[position], (values + position).move()))
                }
            } else {
                for position in 0..<count { (target + position).initialize(to: (keys[position], values[position])) }
            }
        }
        entries.elementCount = count
        storage = OrderedStringMap(uncheckedUniqueEntries: ElementBuffer(adopting: entries))
    }

    /// The values of a shaped object, in storage nothing else shares: copied first when shared.
    mutating func uniqueShapedValues() -> UnsafeMutablePointer<JSONValue> {
        if !storage.hasUniqueStorage(), let lent = lentShapedStorage {
            storage = OrderedStringMap(holding: lent._withUnsafeGuaranteedRef { $0.copy() })
        }
        return lentShapedStorage.unsafelyUnwrapped._withUnsafeGuaranteedRef { $0.values }
    }

    /// ``assign(copying:settingValue:at:)`` for a shaped `source`: the values of `source` with
    /// `value` at `position`, written over this object's own shaped storage of the same layout
    /// when nothing else shares it (only the values whose bits differ), else in a copy.
    @inline(never)
    mutating func assign(
        copyingShaped source: Unmanaged<ShapedStorage>,
        settingValue value: JSONValue,
        at position: Int
    ) {
        let (sourceValues, count, layout) = source._withUnsafeGuaranteedRef {
            ($0.values, $0.valueCount, $0.lentLayout.toOpaque())
        }
        precondition(UInt(bitPattern: position) < UInt(bitPattern: count), "Index out of range")
        guard let lent = lentShapedStorage,
            lent._withUnsafeGuaranteedRef({ $0.lentLayout.toOpaque() == layout }),
            storage.hasUniqueStorage()
        else {
            let copy = source._withUnsafeGuaranteedRef { $0.copy() }
            storage = OrderedStringMap(holding: copy)
            JSONValue.assign(value, to: copy.values + position)
            return
        }
        let targetValues = lent._withUnsafeGuaranteedRef { $0.values }
        for offset in 0..<count
        where offset != position
            && !SameBits.compare(targetValues + offset, sourceValues + offset, size: MemoryLayout<JSONValue>.size)
        {
            targetValues[offset] = sourceValues[offset]
        }
        JSONValue.assign(value, to: targetValues + position)
    }

    /// Merges `overrides` into `base` as ``init(merging:with:)`` does, into a new shaped
    /// storage when the merged keys are, in order, those of the layout that the last model
    /// found (``AttributeLayout/lastFoundLayout``); `nil`, leaving both as they are, otherwise.
    ///
    /// Both objects must be in the entries form, neither empty. Each override's key is searched
    /// among the base's once, as the entries' merge does; a new key must be the layout's next.
    /// The values of storage that nothing else shares are moved, not copied.
    static func shapedMerge(_ base: inout JSONObject, _ overrides: inout JSONObject) -> ShapedStorage? {
        guard let layout = AttributeLayout.lastFoundLayout else { return nil }
        let baseCount = base.count
        let overrideCount = overrides.count
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: overrideCount) { slots -> ShapedStorage? in
            // The slot of each override: a base key's position, or the layout's next new key.
            let isLayout = layout._withUnsafeGuaranteedRef { layout in
                layout.keys.withUnsafeBufferPointer { keys in
                    guard keys.count >= baseCount, keys.count <= baseCount + overrideCount else { return false }
                    return base.withUnsafeKeys { baseKeys in
                        for slot in 0..<baseCount where !StringIdentity.equal(keys[slot], baseKeys[slot]) {
                            return false
                        }
                        return overrides.withUnsafeKeys { overrideKeys in
                            var next = baseCount
                            for offset in 0..<overrideCount {
                                let key = overrideKeys.address(at: offset)
                                // A key with the bits of the layout's next new key is new: the
                                // layout's keys are distinct, so no base key has them.
                                if next < keys.count, StringIdentity.haveSameBits(keys[next], key.pointee) {
                                    slots.initializeElement(at: offset, to: next)
                                    next += 1
                                    continue
                                }
                                if let match = baseKeys.position(of: key.pointee) {
                                    slots.initializeElement(at: offset, to: match)
                                    continue
                                }
                                guard next < keys.count, StringIdentity.equal(keys[next], key.pointee) else {
                                    return false
                                }
                                slots.initializeElement(at: offset, to: next)
                                next += 1
                            }
                            return next == keys.count
                        }
                    }
                }
            }
            guard isLayout else { return nil }
            let shaped = ShapedStorage.make(layout: layout)
            let values = shaped.values
            base.takeValues { position, value in (values + position).initialize(to: value) }
            overrides.takeValues { position, value in
                let slot = slots[position]
                if slot < baseCount {
                    values[slot] = value
                } else {
                    (values + slot).initialize(to: value)
                }
            }
            return shaped
        }
    }

    /// Hands each value to `body` with its position, in order, and leaves the object empty;
    /// the object must be in the entries form.
    ///
    /// Storage that nothing else shares gives its values up, moved out, and its keys are
    /// dropped without a call when they hold no reference (a small ASCII key, nearly every
    /// attribute name); shared storage is copied from.
    @inline(__always)
    private mutating func takeValues(_ body: (_ position: Int, _ value: consuming JSONValue) -> Void) {
        guard storage.hasUniqueStorage(), let lent = storage.unretainedEntries else {
            var entries = storage.entries
            storage = OrderedStringMap()
            entries.drain { position, entry in body(position, entry.value) }
            return
        }
        lent._withUnsafeGuaranteedRef { entries in
            let count = entries.elementCount
            entries.elementCount = 0
            let elements = entries.elements
            for position in 0..<count {
                let key = UnsafeMutableRawPointer(elements + position).assumingMemoryBound(to: String.self)
                if !StringIdentity.isSmallASCII(key.pointee) { key.deinitialize(count: 1) }
                body(position, Self.valueAddress(of: elements + position).move())
            }
        }
        storage = OrderedStringMap()
    }
}
