/// A growable, copy-on-write list of elements: the storage of ``JSONArray`` and of the
/// entries of ``OrderedStringMap``.
///
/// It behaves like `ContiguousArray`, in one allocation per non-empty list, but its storage
/// is an ``ElementStorage``, which frees nested JSON arrays and objects without recursion.
struct ElementBuffer<Element> {
    /// The storage; `nil` until the first element is added.
    private(set) var storage: ElementStorage<Element>?

    /// Creates an empty buffer, without allocating.
    init() {}

    /// Whether no other buffer shares the storage (an empty buffer has none, and is not).
    mutating func hasUniqueStorage() -> Bool {
        isKnownUniquelyReferenced(&storage)
    }

    /// Creates a buffer that owns `storage`, whose initialized elements are its contents; no
    /// one else may hold `storage`.
    init(adopting storage: ElementStorage<Element>) {
        self.storage = storage
    }

    /// Creates an empty buffer with room for `minimumCapacity` elements.
    init(minimumCapacity: Int) {
        if minimumCapacity > 0 { storage = .make(capacity: minimumCapacity) }
    }

    /// Creates a buffer holding the elements of `elements`, in order.
    init<S: Sequence>(_ elements: S) where S.Element == Element {
        let copied = elements.withContiguousStorageIfAvailable { source -> ElementStorage<Element>? in
            guard let base = source.baseAddress, !source.isEmpty else { return nil }
            let storage = ElementStorage<Element>.make(capacity: source.count)
            Self.copy(source.count, from: base, to: storage.elements)
            storage.elementCount = source.count
            return storage
        }
        if let copied {
            storage = copied
        } else {
            reserveCapacity(elements.underestimatedCount)
            for element in elements { append(element) }
        }
    }

    /// The number of elements.
    var count: Int {
        guard let storage else { return 0 }
        return storage.elementCount
    }

    /// How many elements fit before the storage grows.
    var capacity: Int {
        guard let storage else { return 0 }
        return storage.elementCapacity
    }

    /// Makes the storage unshared with room for `minimumCapacity` elements, growing it
    /// geometrically when it is too small.
    @inline(__always)
    private mutating func makeUnique(minimumCapacity: Int) {
        if isKnownUniquelyReferenced(&storage), storage.unsafelyUnwrapped.elementCapacity >= minimumCapacity { return }
        let capacity = self.capacity
        reallocate(capacity: minimumCapacity > capacity ? Swift.max(minimumCapacity, 2 * capacity) : capacity)
    }

    /// Moves (or, when shared, copies) the elements and the hash index into new
    /// storage for `capacity` elements.
    private mutating func reallocate(capacity: Int) {
        let isUnique = isKnownUniquelyReferenced(&storage)
        let new = ElementStorage<Element>.make(capacity: Swift.max(capacity, 1))
        if let old = storage {
            let count = old.elementCount
            if isUnique {
                new.elements.moveInitialize(from: old.elements, count: count)
                old.elementCount = 0
            } else {
                Self.copy(count, from: old.elements, to: new.elements)
            }
            new.elementCount = count
            if let keyStamps = old.keyStamps { new.keyStamps = keyStamps }
        }
        storage = new
    }

    /// The hash index of the map whose entries these are, kept in the storage after the
    /// elements (``ManagedBuffer/keyStamps``); `nil` without storage.
    var keyStamps: KeyStamps? { storage?.keyStamps }

    /// Whether the storage has a hash index, read without a reference count.
    @inline(__always)
    var hasKeyStamps: Bool { storage?.hasKeyStamps ?? false }

    /// Sets the hash index, making the storage unshared first; without storage there are no
    /// entries to index, and `keyStamps` must be `nil`.
    mutating func setKeyStamps(_ keyStamps: KeyStamps?) {
        guard storage != nil else { return }
        makeUnique(minimumCapacity: count)
        storage.unsafelyUnwrapped.keyStamps = keyStamps
    }

    /// The hash index, copied first if other storage shares it; the storage must have one.
    mutating func uniqueKeyStamps() -> KeyStamps {
        makeUnique(minimumCapacity: count)
        unowned(unsafe) let storage = self.storage.unsafelyUnwrapped
        if !storage.hasUniqueKeyStamps { storage.keyStamps = storage.keyStamps.unsafelyUnwrapped.copy() }
        return storage.keyStamps.unsafelyUnwrapped
    }

    /// Calls `body` with the elements in contiguous memory, valid only inside `body`.
    @inline(__always)
    func withUnsafeBufferPointer<Result>(_ body: (UnsafeBufferPointer<Element>) throws -> Result) rethrows -> Result {
        guard let storage else { return try body(UnsafeBufferPointer(start: nil, count: 0)) }
        return try withExtendedLifetime(storage) {
            try body(UnsafeBufferPointer(start: storage.elements, count: storage.elementCount))
        }
    }

    /// Copies `count` elements from `source` into uninitialized memory at `target`.
    ///
    /// One element at a time, which the compiler specializes for the element type; the
    /// bulk `initialize(from:count:)` goes through the runtime's generic copy.
    @inline(__always)
    private static func copy(
        _ count: Int,
        from source: UnsafePointer<Element>,
        to target: UnsafeMutablePointer<Element>
    ) {
        for offset in 0..<count { (target + offset).initialize(to: source[offset]) }
    }

    /// Deinitializes `count` elements at `elements`, one at a time (see ``copy(_:from:to:)``).
    ///
    /// Each is moved out and dropped: deinitializing a tuple in memory goes through the
    /// runtime's generic tuple witness.
    @inline(__always)
    private static func destroy(_ count: Int, at elements: UnsafeMutablePointer<Element>) {
        for offset in 0..<count { _ = (elements + offset).move() }
    }

    /// Traps unless `position` is the position of an element.
    @inline(__always)
    private func checkIndex(_ position: Int) {
        precondition(UInt(bitPattern: position) < UInt(bitPattern: count), "Index out of range")
    }

    /// Makes room for `minimumCapacity` elements, without growing geometrically.
    mutating func reserveCapacity(_ minimumCapacity: Int) {
        if isKnownUniquelyReferenced(&storage), storage.unsafelyUnwrapped.elementCapacity >= minimumCapacity { return }
        guard minimumCapacity > 0 || storage != nil else { return }
        reallocate(capacity: Swift.max(minimumCapacity, count))
    }

    /// Adds `element` at the end.
    ///
    /// - Complexity: Amortised O(1).
    @inline(__always)
    mutating func append(_ element: Element) {
        if isKnownUniquelyReferenced(&storage) {
            unowned(unsafe) let storage = self.storage.unsafelyUnwrapped
            let count = storage.elementCount
            if count < storage.elementCapacity {
                (storage.elements + count).initialize(to: element)
                storage.elementCount = count + 1
                return
            }
        }
        appendAfterGrowing(element)
    }

    /// Adds `element` at the end after making the storage unshared and larger.
    @inline(never)
    private mutating func appendAfterGrowing(_ element: Element) {
        let count = self.count
        makeUnique(minimumCapacity: count + 1)
        unowned(unsafe) let storage = self.storage.unsafelyUnwrapped
        (storage.elements + count).initialize(to: element)
        storage.elementCount = count + 1
    }

    /// Removes and returns the last element, which must exist.
    @discardableResult
    mutating func removeLast() -> Element {
        let count = self.count
        precondition(count > 0, "Can't remove the last element of an empty collection")
        makeUnique(minimumCapacity: count)
        unowned(unsafe) let storage = self.storage.unsafelyUnwrapped
        storage.elementCount = count - 1
        return (storage.elements + count - 1).move()
    }

    /// Removes and returns the element at `position`, closing the gap.
    ///
    /// - Complexity: O(*n*).
    @discardableResult
    mutating func remove(at position: Int) -> Element {
        checkIndex(position)
        let count = self.count
        makeUnique(minimumCapacity: count)
        unowned(unsafe) let storage = self.storage.unsafelyUnwrapped
        let removed = (storage.elements + position).move()
        (storage.elements + position).moveInitialize(from: storage.elements + position + 1, count: count - position - 1)
        storage.elementCount = count - 1
        return removed
    }

    /// Hands each element to `body` with its position, in order, and leaves the buffer empty.
    ///
    /// Unshared storage gives its elements up (moved out, not copied, and freed without
    /// releasing them again); shared storage is copied from, as it stays with the others.
    @inline(__always)
    mutating func drain(_ body: (_ position: Int, _ element: consuming Element) -> Void) {
        guard storage != nil else { return }
        if isKnownUniquelyReferenced(&storage) {
            unowned(unsafe) let storage = self.storage.unsafelyUnwrapped
            let count = storage.elementCount
            storage.elementCount = 0
            let elements = storage.elements
            for position in 0..<count { body(position, (elements + position).move()) }
        } else {
            withUnsafeBufferPointer { elements in
                for position in elements.indices { body(position, elements[position]) }
            }
        }
        storage = nil
    }

    /// The storage without a reference count, or `nil` when there is none: valid while this
    /// buffer keeps it, for ``assign(copying:except:)``.
    @inline(__always)
    var unretainedStorage: Unmanaged<ElementStorage<Element>>? {
        guard let storage else { return nil }
        return Unmanaged.passUnretained(storage)
    }

    /// Makes the elements those of `source` (the storage of another buffer, which keeps it for
    /// the call), in storage no other buffer shares, except the one at `position` (a valid
    /// position in `source`), which the caller then sets from `source`'s: this buffer's own
    /// storage when nothing else shares it and it has room, else a copy of `source`.
    ///
    /// Reusing the storage overwrites only the elements whose bits differ from `source`'s (the
    /// same bits hold the same references, so they are left as they are); it allocates and
    /// frees nothing. A model's `set` builds its new attributes this way in the storage that
    /// its attributes before last had (``ChangeRecord/spare``). `source` is lent, so that the
    /// caller reads it from the model without a reference count.
    ///
    /// - Returns: The target element at `position`, `source`'s, and whether the target is
    ///   initialized (else the caller must initialize it). Both addresses are valid until
    ///   either storage next changes.
    /// - Complexity: O(*n*) comparisons of bits; copies only the elements that differ.
    @inline(__always)
    mutating func assign(
        copying source: Unmanaged<ElementStorage<Element>>,
        except position: Int
    ) -> (target: UnsafeMutablePointer<Element>, source: UnsafePointer<Element>, isInitialized: Bool) {
        let (sourceElements, count) = source._withUnsafeGuaranteedRef { ($0.elements, $0.elementCount) }
        precondition(UInt(bitPattern: position) < UInt(bitPattern: count), "Index out of range")
        // Unshared storage is never `source`, which its own buffer holds.
        guard isKnownUniquelyReferenced(&storage), storage.unsafelyUnwrapped.elementCapacity >= count else {
            return copy(of: source, at: position)
        }
        unowned(unsafe) let target = storage.unsafelyUnwrapped
        let targetElements = target.elements
        let oldCount = target.elementCount
        for offset in 0..<Swift.min(oldCount, count)
        where offset != position && !Self.haveSameBits(targetElements + offset, sourceElements + offset) {
            (targetElements + offset).pointee = sourceElements[offset]
        }
        if oldCount > count {
            Self.destroy(oldCount - count, at: targetElements + count)
        } else {
            for offset in oldCount..<count where offset != position {
                (targetElements + offset).initialize(to: sourceElements[offset])
            }
        }
        // Through the header's and the slot's addresses: reading them through the lent
        // reference retained it.
        let header = target.withUnsafeMutablePointerToHeader { $0 }
        header.pointee.count = Int32(truncatingIfNeeded: count)
        // Smaller storage has no slot, and `source`, no larger a map, no hash index.
        let capacity = Int(header.pointee.capacity)
        if capacity > ElementStorageHeader.smallCapacity {
            let slot = ElementStorage<Element>.stampSlot(after: targetElements, capacity: capacity)
            if slot.pointee != nil || source._withUnsafeGuaranteedRef({ $0.hasKeyStamps }) {
                slot.pointee = source._withUnsafeGuaranteedRef { $0.keyStamps }
            }
        }
        return (targetElements + position, UnsafePointer(sourceElements + position), position < oldCount)
    }

    /// ``assign(copying:except:)`` when this buffer's storage is shared or too small: the
    /// elements become a copy of `source`'s, in storage of their own.
    @inline(never)
    private mutating func copy(
        of source: Unmanaged<ElementStorage<Element>>,
        at position: Int
    ) -> (target: UnsafeMutablePointer<Element>, source: UnsafePointer<Element>, isInitialized: Bool) {
        storage = source.takeUnretainedValue()
        makeUnique(minimumCapacity: count)
        let element = storage.unsafelyUnwrapped.elements + position
        return (element, UnsafePointer(element), true)
    }

    /// Whether the elements at `a` and `b` have the same bits (which makes them the same
    /// value; different bits may still be equal values).
    @inline(__always)
    private static func haveSameBits(_ a: UnsafePointer<Element>, _ b: UnsafePointer<Element>) -> Bool {
        SameBits.compare(a, b, size: MemoryLayout<Element>.size)
    }

    /// Removes every element; `keepingCapacity` keeps unshared storage for reuse.
    mutating func removeAll(keepingCapacity: Bool = false) {
        guard keepingCapacity, storage != nil else {
            storage = nil
            return
        }
        if isKnownUniquelyReferenced(&storage) {
            unowned(unsafe) let storage = self.storage.unsafelyUnwrapped
            let count = storage.elementCount
            storage.elementCount = 0
            Self.destroy(count, at: storage.elements)
        } else {
            storage = .make(capacity: capacity)
        }
    }
}

extension ElementBuffer: RandomAccessCollection, MutableCollection {
    /// Always 0.
    var startIndex: Int { 0 }

    /// The number of elements.
    var endIndex: Int { count }

    /// The element at `position`, read and changed in place.
    subscript(position: Int) -> Element {
        @inline(__always) get { address(of: position).pointee }
        unsafeMutableAddress { mutableAddress(of: position) }
    }

    /// The address of the element at `position`, valid until the buffer next changes.
    @inline(__always)
    func address(of position: Int) -> UnsafePointer<Element> {
        checkIndex(position)
        return UnsafePointer(storage.unsafelyUnwrapped.elements + position)
    }

    /// The address of the only element, when the buffer holds exactly one in storage that no
    /// other buffer shares; valid until the buffer next changes.
    @inline(__always)
    mutating func addressOfLoneElement() -> UnsafeMutablePointer<Element>? {
        guard isKnownUniquelyReferenced(&storage) else { return nil }
        unowned(unsafe) let storage = self.storage.unsafelyUnwrapped
        return storage.elementCount == 1 ? storage.elements : nil
    }

    /// The address of the element at `position` in unshared storage, valid until the
    /// buffer next changes.
    @inline(__always)
    mutating func mutableAddress(of position: Int) -> UnsafeMutablePointer<Element> {
        checkIndex(position)
        makeUnique(minimumCapacity: count)
        unowned(unsafe) let storage = self.storage.unsafelyUnwrapped
        return storage.elements + position
    }

    /// Calls `body` with the elements in contiguous memory.
    func withContiguousStorageIfAvailable<Result>(
        _ body: (UnsafeBufferPointer<Element>) throws -> Result
    ) rethrows -> Result? {
        try withUnsafeBufferPointer(body)
    }
}

extension ElementBuffer: RangeReplaceableCollection {
    /// Replaces the elements in `subrange` with `newElements`.
    ///
    /// - Complexity: O(*n* + *m*), where *m* is the number of new elements.
    mutating func replaceSubrange<C: Swift.Collection>(_ subrange: Range<Int>, with newElements: C)
    where C.Element == Element {
        let oldCount = count
        precondition(subrange.lowerBound >= 0 && subrange.upperBound <= oldCount, "Range out of bounds")
        let inserted = newElements.count
        let newCount = oldCount - subrange.count + inserted
        guard newCount > 0 || storage != nil else { return }
        makeUnique(minimumCapacity: newCount)
        unowned(unsafe) let storage = self.storage.unsafelyUnwrapped
        let base = storage.elements
        Self.destroy(subrange.count, at: base + subrange.lowerBound)
        (base + subrange.lowerBound + inserted).moveInitialize(
            from: base + subrange.upperBound,
            count: oldCount - subrange.upperBound
        )
        var position = subrange.lowerBound
        for element in newElements {
            (base + position).initialize(to: element)
            position += 1
        }
        storage.elementCount = newCount
    }
}

/// The elements are copied before any change when the storage is shared, as in an `Array`.
extension ElementBuffer: @unchecked Sendable where Element: Sendable {}
