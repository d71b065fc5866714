/// Equality and hashing, safe at any depth.
///
/// Values usually nest a few levels, and are compared and hashed by recursion, which is
/// fastest. Past 64 levels the work continues on an explicit stack, so that a
/// value built in code and nested any number of levels deep is compared and hashed without
/// exhausting the call stack.
extension JSONValue: Hashable {
    /// Whether two values are deeply equal; numbers compare by value.
    ///
    /// ```swift
    /// JSONValue(1) == JSONValue(1.0)  // true
    /// JSONValue(1) == JSONValue("1")  // false
    /// ```
    ///
    /// - Complexity: O(*n*) in the size of the values, at any depth.
    @inline(__always)
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        // Two integers, nearly every id a model or an identity map compares, are compared
        // where the call is: no call and no switch over both cases.
        if case .int(let a) = lhs, case .int(let b) = rhs { return a == b }
        return valuesEqual(lhs, rhs)
    }

    /// ``==(_:_:)`` for values that are not both integers.
    @inline(never)
    private static func valuesEqual(_ lhs: JSONValue, _ rhs: JSONValue) -> Bool {
        switch lhs {
        case .array, .object:
            return equal(lhs, rhs, levelsLeft: recursionLimit) ?? equalIteratively(lhs, rhs)
        default:
            return scalarsEqual(lhs, rhs)
        }
    }

    /// Hashes the value so that equal values (including `1` and `1.0`) hash alike.
    ///
    /// ```swift
    /// let ids: Set<JSONValue> = [1, 1.0, "1"]  // two elements
    /// ```
    ///
    /// - Complexity: O(*n*) in the size of the value, at any depth.
    public func hash(into hasher: inout Hasher) {
        hash(into: &hasher, levelsLeft: Self.recursionLimit)
    }
}

extension JSONObject: Hashable {
    /// Whether both objects have the same keys with equal values, in any order.
    ///
    /// ```swift
    /// (["a": 1, "b": 2] as JSONObject) == ["b": 2, "a": 1]  // true
    /// ```
    ///
    /// - Complexity: O(*n*) in the size of the objects, at any depth.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        equal(lhs, rhs, levelsLeft: JSONValue.recursionLimit)
            ?? JSONValue.equalIteratively(.object(lhs), .object(rhs))
    }

    /// Hashes the keys and values independently of their order.
    ///
    /// ```swift
    /// let set: Set<JSONObject> = [["a": 1, "b": 2], ["b": 2, "a": 1]]  // one element
    /// ```
    ///
    /// - Complexity: O(*n*) in the size of the object, at any depth.
    public func hash(into hasher: inout Hasher) {
        hashMembers(into: &hasher, levelsLeft: JSONValue.recursionLimit)
    }
}

// MARK: - Recursion for shallow values

extension JSONValue {
    /// How many levels of arrays and objects ``==(_:_:)`` and ``hash(into:)`` handle by
    /// recursion before continuing on an explicit stack.
    static var recursionLimit: Int { 64 }

    /// Whether `lhs` and `rhs` are equal, or `nil` when an array or object more than
    /// `levelsLeft` levels down has to be compared to decide.
    static func equal(_ lhs: JSONValue, _ rhs: JSONValue, levelsLeft: Int) -> Bool? {
        switch (lhs, rhs) {
        case (.array(let a), .array(let b)):
            guard a.count == b.count else { return false }
            if a.isEmpty { return true }
            guard levelsLeft > 0 else { return nil }
            for index in a.indices {
                guard let equal = equal(a[index], b[index], levelsLeft: levelsLeft - 1) else { return nil }
                if !equal { return false }
            }
            return true
        case (.object(let a), .object(let b)):
            return JSONObject.equal(a, b, levelsLeft: levelsLeft)
        default:
            return scalarsEqual(lhs, rhs)
        }
    }

    /// Whether two values that are not both arrays or both objects are equal.
    ///
    /// It switches on each value in turn rather than on a tuple of both, which would copy
    /// them.
    @inline(__always)
    private static func scalarsEqual(_ lhs: JSONValue, _ rhs: JSONValue) -> Bool {
        switch lhs {
        case .null:
            if case .null = rhs { return true }
        case .bool(let a):
            if case .bool(let b) = rhs { return a == b }
        case .int(let a):
            if case .int(let b) = rhs { return a == b }
            if case .double(let b) = rhs { return Int(exactly: b) == a }
        case .double(let a):
            if case .double(let b) = rhs { return a == b || (a.isNaN && b.isNaN) }
            if case .int(let b) = rhs { return Int(exactly: a) == b }
        case .string(let a):
            if case .string(let b) = rhs { return a == b }
        case .array, .object:
            break
        }
        return false
    }

    /// Hashes the value, continuing on an explicit stack for an array or object more than
    /// `levelsLeft` levels down.
    ///
    /// Whether a part of a value is hashed by recursion or on the stack depends only on how
    /// deep it is, so equal values always hash alike.
    func hash(into hasher: inout Hasher, levelsLeft: Int) {
        switch self {
        case .null:
            hasher.combine(0 as UInt8)
        case .bool(let bool):
            hasher.combine(1 as UInt8)
            hasher.combine(bool)
        case .int(let int):
            hasher.combine(2 as UInt8)
            hasher.combine(int)
        case .double(let double):
            if let int = Int(exactly: double) {
                hasher.combine(2 as UInt8)
                hasher.combine(int)
            } else {
                hasher.combine(3 as UInt8)
                hasher.combine(double.isNaN ? Double.nan.bitPattern : double.bitPattern)
            }
        case .string(let string):
            hasher.combine(4 as UInt8)
            hasher.combine(string)
        case .array(let array):
            hasher.combine(5 as UInt8)
            guard levelsLeft > 0 || array.isEmpty else {
                hasher.combine(HashStack.hash(of: self))
                return
            }
            hasher.combine(array.count)
            for element in array { element.hash(into: &hasher, levelsLeft: levelsLeft - 1) }
        case .object(let object):
            hasher.combine(6 as UInt8)
            guard levelsLeft > 0 || object.isEmpty else {
                hasher.combine(HashStack.hash(of: self))
                return
            }
            object.hashMembers(into: &hasher, levelsLeft: levelsLeft)
        }
    }
}

extension JSONObject {
    /// Whether `lhs` and `rhs` are equal, or `nil` when an array or object more than
    /// `levelsLeft` levels down has to be compared to decide.
    static func equal(_ lhs: JSONObject, _ rhs: JSONObject, levelsLeft: Int) -> Bool? {
        guard lhs.count == rhs.count else { return false }
        if lhs.isEmpty { return true }
        guard levelsLeft > 0 else { return nil }
        for (position, entry) in lhs.enumerated() {
            // Same order is the common case; fall back to a keyed lookup otherwise.
            let other = rhs[position]
            let otherValue: JSONValue
            if other.key == entry.key {
                otherValue = other.value
            } else if let value = rhs[entry.key] {
                otherValue = value
            } else {
                return false
            }
            guard let equal = JSONValue.equal(entry.value, otherValue, levelsLeft: levelsLeft - 1) else { return nil }
            if !equal { return false }
        }
        return true
    }

    /// Hashes the count and the members, independently of their order.
    func hashMembers(into hasher: inout Hasher, levelsLeft: Int) {
        var combined = 0
        for entry in self {
            var entryHasher = Hasher()
            entryHasher.combine(entry.key)
            entry.value.hash(into: &entryHasher, levelsLeft: levelsLeft - 1)
            combined ^= entryHasher.finalize()
        }
        hasher.combine(count)
        hasher.combine(combined)
    }
}

// MARK: - Explicit stacks for deep values

extension JSONValue {
    /// Whether `lhs` and `rhs` are equal, comparing nested arrays and objects on an explicit
    /// stack.
    static func equalIteratively(_ lhs: JSONValue, _ rhs: JSONValue) -> Bool {
        var pending: [(JSONValue, JSONValue)] = [(lhs, rhs)]
        while let (left, right) = pending.popLast() {
            switch (left, right) {
            case (.array(let a), .array(let b)):
                guard a.count == b.count else { return false }
                pending.append(contentsOf: zip(a, b))
            case (.object(let a), .object(let b)):
                guard a.count == b.count else { return false }
                for (position, entry) in a.enumerated() {
                    let other = b[position]
                    if other.key == entry.key {
                        pending.append((entry.value, other.value))
                    } else if let value = b[entry.key] {
                        pending.append((entry.value, value))
                    } else {
                        return false
                    }
                }
            default:
                guard scalarsEqual(left, right) else { return false }
            }
        }
        return true
    }
}

/// Hashes an array or object with its nested arrays and objects on an explicit stack.
///
/// Each array or object is reduced to one hash, from its kind, its count and the hashes of
/// its elements in order (an array) or of its keys and values in any order (an object);
/// scalars hash as ``JSONValue/hash(into:)`` hashes them.
private enum HashStack {
    /// An array or object whose elements or members are being hashed.
    private struct Frame {
        /// The elements of an array; empty for an object.
        let elements: JSONArray
        /// The object, or `nil` for an array.
        let object: JSONObject?
        /// How many elements or members have been started.
        var started = 0
        /// For an array: its kind, count and the hashes of the elements so far.
        var hasher = Hasher()
        /// For an object: the combined hashes of the members so far.
        var combined = 0

        var count: Int { object?.count ?? elements.count }

        /// The hash of the finished array or object.
        func finalize() -> Int {
            guard let object else { return hasher.finalize() }
            var hasher = Hasher()
            hasher.combine(6 as UInt8)
            hasher.combine(object.count)
            hasher.combine(combined)
            return hasher.finalize()
        }
    }

    /// The hash of `root`.
    static func hash(of root: JSONValue) -> Int {
        var frames: [Frame] = []
        var finished = open(root, on: &frames)
        while true {
            if let hash = finished {
                guard let top = frames.indices.last else { return hash }
                if let object = frames[top].object {
                    var member = Hasher()
                    member.combine(object[frames[top].started - 1].key)
                    member.combine(hash)
                    frames[top].combined ^= member.finalize()
                } else {
                    frames[top].hasher.combine(hash)
                }
            }
            let top = frames.count - 1
            let started = frames[top].started
            if started < frames[top].count {
                frames[top].started = started + 1
                let child = frames[top].object?[started].value ?? frames[top].elements[started]
                finished = open(child, on: &frames)
            } else {
                finished = frames.removeLast().finalize()
            }
        }
    }

    /// The hash of `value` when it is a scalar or empty; otherwise pushes a frame for it and
    /// returns `nil`.
    private static func open(_ value: JSONValue, on frames: inout [Frame]) -> Int? {
        switch value {
        case .array(let elements) where !elements.isEmpty:
            var frame = Frame(elements: elements, object: nil)
            frame.hasher.combine(5 as UInt8)
            frame.hasher.combine(elements.count)
            frames.append(frame)
            return nil
        case .object(let object) where !object.isEmpty:
            frames.append(Frame(elements: JSONArray(), object: object))
            return nil
        default:
            var hasher = Hasher()
            value.hash(into: &hasher, levelsLeft: 0)
            return hasher.finalize()
        }
    }
}
