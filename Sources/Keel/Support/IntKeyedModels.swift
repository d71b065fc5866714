/// Models indexed by integer keys: a collection's client-id numbers, and its ids when they
/// are integers.
///
/// Such keys are usually dense (database ids count up from 1; a collection's models are
/// made one after another), so they live in an array of slots starting at a base key,
/// like a JavaScript engine's array "elements": a lookup is an index, not a hash. Keys
/// that would leave the slots too sparse, or that lie below the base, go to a dictionary.
/// When the slots later grow over such a key, it stays in the dictionary until it is
/// stored again: a key lives in one place only, and an empty slot defers to the dictionary.
///
/// Not copyable, as its slots are not (``ModelSlotBuffer``).
struct IntKeyedModels: ~Copyable {
    /// `slots[i]` holds the model whose key is `base + i`.
    ///
    /// A ``ModelSlotBuffer``, whose append is inlined here (`ContiguousArray`'s calls into the
    /// standard library's pre-specialized entry points, about 50 instructions per append, and
    /// a collection appends twice per added model, once per index), and which grows in place.
    private var slots = ModelSlotBuffer()
    private var base = 0
    /// How many slots hold a model.
    private var slotCount = 0
    private var sparse: [Int: Model] = [:]

    /// How many models are indexed.
    var count: Int { slotCount + sparse.count }

    /// The offset of `key` in the slots, if it lies in their range.
    private func offset(of key: Int) -> Int? {
        let (offset, overflow) = key.subtractingReportingOverflow(base)
        guard !overflow, offset >= 0, offset < slots.count else { return nil }
        return offset
    }

    /// The model under `key`: inlined into a lookup, with the dictionary's search out of line.
    subscript(key: Int) -> Model? {
        @inline(__always) get {
            if let model = slotted(key) { return model }
            return sparse.isEmpty ? nil : sparseModel(forKey: key)
        }
    }

    /// The model under `key` in the dictionary of keys outside the slots.
    @inline(never)
    private func sparseModel(forKey key: Int) -> Model? {
        sparse[key]
    }

    /// The model in the slot of `key`, if it lies in their range: one range check, against
    /// the storage's count read once.
    @inline(__always)
    private func slotted(_ key: Int) -> Model? {
        let offset = key &- base
        // Overflow makes the sign of the difference wrong; such a key lies outside the slots.
        // Without slots the count is 0, and no offset lies below it.
        guard UInt(bitPattern: offset) < UInt(bitPattern: slots.count),
            !key.subtractingReportingOverflow(base).overflow
        else { return nil }
        return slots.elements.unsafelyUnwrapped[offset]
    }

    /// Whether the slot of `key` holds `model`: its address is compared, without a retain.
    @inline(__always)
    private func slotHolds(_ model: Model, forKey key: Int) -> Bool {
        let offset = key &- base
        guard UInt(bitPattern: offset) < UInt(bitPattern: slots.count),
            !key.subtractingReportingOverflow(base).overflow
        else { return false }
        let address = UnsafeRawPointer(slots.elements.unsafelyUnwrapped + offset).load(as: UnsafeRawPointer?.self)
        return address == UnsafeRawPointer(Unmanaged.passUnretained(model).toOpaque())
    }

    /// Makes room for `capacity` models in total without reallocating the slots.
    ///
    /// Grows the slots at least twofold, so that adding models one call at a time
    /// reallocates them a logarithmic number of times, not on every call; in place where the
    /// allocator can (``ModelSlotBuffer``).
    mutating func reserveCapacity(_ capacity: Int) {
        let current = slots.capacity
        if capacity > current { slots.reserveCapacity(Swift.max(capacity, 2 * current)) }
    }

    /// Indexes `model` under `key`, replacing any model there.
    ///
    /// The common case is inlined into the caller: the key after the last slot, with every
    /// slot in use (ids counting up, client ids of models made one after another).
    @inline(__always)
    mutating func insert(_ model: Model, forKey key: Int) {
        let (next, nextOverflows) = key.subtractingReportingOverflow(base)
        if !nextOverflows && next == slotCount && next == slots.count && next > 0 {
            slots.append(model)
            slotCount += 1
            if !sparse.isEmpty { sparse[key] = nil }
            return
        }
        insertElsewhere(model, forKey: key)
    }

    /// ``insert(_:forKey:)`` for a key that is not the next one.
    @inline(never)
    private mutating func insertElsewhere(_ model: Model, forKey key: Int) {
        if let offset = offset(of: key) {
            if slots[offset] == nil {
                slotCount += 1
                if !sparse.isEmpty { sparse[key] = nil }
            }
            slots[offset] = model
            return
        }
        if slotCount == 0 {
            slots.removeAll(keepingCapacity: true)
            base = key
        }
        let (offset, overflow) = key.subtractingReportingOverflow(base)
        // Grow the slots only while at least about half of them stay in use.
        guard !overflow, offset >= 0, offset < 2 * (count + 8) else {
            sparse[key] = model
            return
        }
        if offset > slots.count { slots.appendNil(count: offset - slots.count) }
        slots.append(model)
        slotCount += 1
        if !sparse.isEmpty { sparse[key] = nil }
    }

    /// Removes the model under `key`, only if it is `model`.
    mutating func remove(_ model: Model, forKey key: Int) {
        if slotHolds(model, forKey: key) {
            slots.address(of: key &- base).pointee = nil
            slotCount -= 1
            if slotCount == 0 { slots.removeAll() }
        } else if !sparse.isEmpty, let index = sparse.index(forKey: key), sparse.values[index] === model {
            sparse.remove(at: index)
        }
    }

    mutating func removeAll() {
        slots.removeAll()
        slotCount = 0
        sparse = [:]
    }
}
