#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The slots of an ``IntKeyedModels``: optional models in memory of their own, grown by
/// `realloc`.
///
/// A model reference moves with its bits, so the slots can move with their memory: a large
/// buffer grows without a copy where the allocator extends or remaps it in place (glibc
/// remaps the pages of an allocation large enough to have pages of its own), where a
/// `ContiguousArray` or an ``ElementBuffer`` moves every slot into new memory. A `set` that
/// grows a collection of 100,000 models copied 800 KB for each of its two indexes that way.
/// Memory that the allocator keeps among other chunks is still copied when what follows it is
/// in use (glibc places 800 KB there once a process has freed an allocation of its own pages
/// that large, as it then raises its threshold for them).
///
/// Not copyable: the memory has one owner, which releases the models and frees it; so a
/// lookup reads the address and count from the owner's fields, with no storage object between.
///
/// ```swift
/// var slots = ModelSlotBuffer()
/// slots.append(model)
/// slots.appendNil(count: 2)
/// slots[2] = model
/// ```
struct ModelSlotBuffer: ~Copyable {
    /// The first slot; `nil` until the first one is added, and whenever ``capacity`` is 0.
    private(set) var elements: UnsafeMutablePointer<Model?>?
    /// How many slots are initialized (each holds a model or `nil`).
    private(set) var count = 0
    /// How many slots fit in the memory.
    private(set) var capacity = 0

    /// An empty buffer, without memory.
    init() {}

    deinit {
        guard let elements else { return }
        Self.release(count, at: elements)
        free(elements)
    }

    /// Releases the models in `count` slots at `elements`, one at a time: the loop is
    /// specialized for `Model?`, where a bulk deinitialization may go through the runtime.
    @inline(__always)
    private static func release(_ count: Int, at elements: UnsafeMutablePointer<Model?>) {
        for offset in 0..<count { _ = (elements + offset).move() }
    }

    /// The slot at `position`, which must be below ``count``.
    subscript(position: Int) -> Model? {
        @inline(__always) get { address(of: position).pointee }
        @inline(__always) set { address(of: position).pointee = newValue }
    }

    /// The address of the slot at `position`, which must be below ``count``; valid until the
    /// buffer next grows.
    @inline(__always)
    func address(of position: Int) -> UnsafeMutablePointer<Model?> {
        precondition(UInt(bitPattern: position) < UInt(bitPattern: count), "Index out of range")
        return elements.unsafelyUnwrapped + position
    }

    /// Adds a slot holding `model` at the end.
    ///
    /// - Complexity: Amortised O(1).
    @inline(__always)
    mutating func append(_ model: Model) {
        if count == capacity { grow(minimumCapacity: count + 1) }
        (elements.unsafelyUnwrapped + count).initialize(to: model)
        count += 1
    }

    /// Adds `count` empty slots at the end.
    mutating func appendNil(count added: Int) {
        guard added > 0 else { return }
        if count + added > capacity { grow(minimumCapacity: count + added) }
        (elements.unsafelyUnwrapped + count).initialize(repeating: nil, count: added)
        count += added
    }

    /// Makes room for `minimumCapacity` slots, without growing geometrically.
    mutating func reserveCapacity(_ minimumCapacity: Int) {
        if minimumCapacity > capacity { reallocate(capacity: minimumCapacity) }
    }

    /// Grows the memory to at least `minimumCapacity` slots, and at least twofold.
    @inline(never)
    private mutating func grow(minimumCapacity: Int) {
        reallocate(capacity: Swift.max(minimumCapacity, 2 * capacity))
    }

    /// Moves the slots into memory for `newCapacity` of them (at least ``count``), in place
    /// where the allocator can.
    private mutating func reallocate(capacity newCapacity: Int) {
        let (bytes, overflow) = newCapacity.multipliedReportingOverflow(by: MemoryLayout<Model?>.stride)
        precondition(!overflow && newCapacity >= count, "Invalid capacity")
        guard let memory = realloc(elements, bytes) else { fatalError("Out of memory for \(newCapacity) slots") }
        elements = memory.bindMemory(to: Model?.self, capacity: newCapacity)
        capacity = newCapacity
    }

    /// Empties every slot; `keepingCapacity` keeps the memory for reuse.
    mutating func removeAll(keepingCapacity: Bool = false) {
        guard let elements else { return }
        let count = self.count
        self.count = 0
        Self.release(count, at: elements)
        if !keepingCapacity {
            free(elements)
            self.elements = nil
            capacity = 0
        }
    }
}
