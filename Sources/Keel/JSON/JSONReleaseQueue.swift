/// Frees the arrays and objects nested in a value one after another, instead of by
/// recursion, so that a value nested any number of levels deep is freed with constant stack.
///
/// When the storage of an array or object is freed (see ``ElementStorage``), its elements
/// are released here. An element that is an array or object held nowhere else, and that
/// itself holds arrays or objects, is not freed on the spot (which would free its own
/// elements from inside this call, one call deeper per level): it is queued, and its elements
/// are moved out and released in a loop. Storage that other values still share is only
/// released, which frees nothing; storage holding only scalars is freed directly, one level
/// deep. Freeing a shallow value queues nothing and allocates nothing.
struct JSONReleaseQueue {
    /// Unshared array storage whose elements are still to be released.
    private var arrays: [ElementStorage<JSONValue>] = []
    /// Unshared object storage whose entries are still to be released.
    private var objects: [ElementStorage<JSONObject.Element>] = []

    /// Deinitializes the `count` values at `values`.
    ///
    /// Scalars (a model's attributes, a `set`'s input) are moved out and released in one
    /// pass: nothing nests, nothing queues. The values from the first array or object on go
    /// through a queue.
    static func release(_ values: UnsafeMutablePointer<JSONValue>, count: Int) {
        for offset in 0..<count {
            guard !values[offset].isContainer else {
                var queue = JSONReleaseQueue()
                queue.take(values + offset, count: count - offset)
                queue.drain()
                return
            }
            // Moved out one by one: `deinitialize(count:)` destroys through value witnesses.
            _ = (values + offset).move()
        }
    }

    /// Deinitializes the `count` keys and values at `entries`, in one pass while they hold
    /// scalars, as the values' `release(_:count:)` does.
    static func release(_ entries: UnsafeMutablePointer<JSONObject.Element>, count: Int) {
        for offset in 0..<count {
            guard !entries[offset].value.isContainer else {
                var queue = JSONReleaseQueue()
                queue.take(entries + offset, count: count - offset)
                queue.drain()
                return
            }
            // A small ASCII key and a scalar other than a string hold no reference (nearly
            // every entry of a `set`'s literal input): there is nothing to release.
            if Self.ownsNothing(entries + offset) { continue }
            _ = (entries + offset).move()
        }
    }

    /// Whether the entry at `entry` holds no reference: a small ASCII key (held in its own
    /// bits) and a null, Boolean or number.
    @inline(__always)
    private static func ownsNothing(_ entry: UnsafeMutablePointer<JSONObject.Element>) -> Bool {
        guard StringIdentity.isSmallASCII(entry.pointee.key) else { return false }
        switch entry.pointee.value {
        case .null, .bool, .int, .double: return true
        case .string, .array, .object: return false
        }
    }

    /// Moves out and releases the `count` values at `values`, queueing the storage that
    /// would free arrays or objects in turn.
    private mutating func take(_ values: UnsafeMutablePointer<JSONValue>, count: Int) {
        for offset in 0..<count {
            var value = (values + offset).move()
            enqueue(&value)
        }
    }

    /// Moves out and releases the `count` keys and values at `entries`, queueing the
    /// storage that would free arrays or objects in turn.
    private mutating func take(_ entries: UnsafeMutablePointer<JSONObject.Element>, count: Int) {
        for offset in 0..<count {
            var value = (entries + offset).move().value
            enqueue(&value)
        }
    }

    /// Releases `value`, or queues its storage when freeing it would free arrays or objects.
    ///
    /// The storage is moved out of the value before it is checked: a copy bound by a
    /// pattern would hold a second reference.
    @inline(__always)
    private mutating func enqueue(_ value: inout JSONValue) {
        if var storage = value.takeArrayStorage() {
            if isKnownUniquelyReferenced(&storage), Self.holdsContainers(storage.elements, count: storage.elementCount)
            {
                arrays.append(storage)
            }
        } else if var storage = value.takeObjectStorage() {
            guard isKnownUniquelyReferenced(&storage) else { return }
            if storage.isShaped {
                // A shaped object's values lie alone, as an array's do.
                let shaped = unsafeDowncast(storage, to: ShapedStorage.self)
                if Self.holdsContainers(shaped.values, count: shaped.valueCount) { objects.append(storage) }
            } else if Self.holdsContainers(storage.elements, count: storage.elementCount) {
                objects.append(storage)
            }
        }
    }

    /// Empties the queued storage until none is left; each is freed, empty, as the loop
    /// lets go of it.
    private mutating func drain() {
        while true {
            if let storage = arrays.popLast() {
                let count = storage.elementCount
                storage.elementCount = 0
                take(storage.elements, count: count)
            } else if let storage = objects.popLast() {
                if storage.isShaped {
                    let shaped = unsafeDowncast(storage, to: ShapedStorage.self)
                    let count = shaped.valueCount
                    shaped.forgetValues()
                    take(shaped.values, count: count)
                } else {
                    let count = storage.elementCount
                    storage.elementCount = 0
                    take(storage.elements, count: count)
                }
            } else {
                return
            }
        }
    }

    /// Whether any of the `count` values at `values` is an array or object.
    private static func holdsContainers(_ values: UnsafeMutablePointer<JSONValue>, count: Int) -> Bool {
        for offset in 0..<count where values[offset].isContainer { return true }
        return false
    }

    /// Whether any of the `count` values at `entries` is an array or object.
    private static func holdsContainers(_ entries: UnsafeMutablePointer<JSONObject.Element>, count: Int) -> Bool {
        for offset in 0..<count where entries[offset].value.isContainer { return true }
        return false
    }
}

extension JSONValue {
    /// Whether the value is an array or object.
    fileprivate var isContainer: Bool {
        switch self {
        case .array, .object: return true
        default: return false
        }
    }

    /// The storage of an array, moved out of the value, which becomes ``null``; `nil`
    /// when the value is not a non-empty array.
    fileprivate mutating func takeArrayStorage() -> ElementStorage<JSONValue>? {
        guard case .array(let array) = self else { return nil }
        self = .null
        return array.elements.storage
    }

    /// The storage of an object (its entries, or a ``ShapedStorage``), moved out of the value,
    /// which becomes ``null``; `nil` when the value is not a non-empty object.
    fileprivate mutating func takeObjectStorage() -> ElementStorage<JSONObject.Element>? {
        guard case .object(let object) = self else { return nil }
        self = .null
        return object.entryStorage
    }
}
