/// An ordered JSON object: string keys in insertion order, each mapped to a ``JSONValue``.
///
/// A model's attributes are a `JSONObject` (``Attributes``). Keys keep the order in which
/// they were first inserted, because Backbone fires one `change:<key>` event per key in
/// that order. Replacing a value keeps the key's position; removing a key and adding it
/// again moves it to the end.
///
/// ```swift
/// var attributes: Attributes = ["title": "Dune", "year": 1965]
/// attributes["rank"] = 1
/// attributes.keys  // ["title", "year", "rank"]
/// ```
///
/// Two objects are equal when they have the same keys with equal values, in any order.
public struct JSONObject: Sendable {
    /// One key and its value.
    public typealias Element = (key: String, value: JSONValue)

    private var storage = OrderedStringMap<JSONValue>()

    /// Creates an empty object.
    ///
    /// ```swift
    /// var attributes = JSONObject()
    /// ```
    public init() {}

    /// Creates an object from entries whose keys the caller guarantees are distinct.
    init(uncheckedUniqueEntries entries: ElementBuffer<Element>) {
        storage = OrderedStringMap(uncheckedUniqueEntries: entries)
    }

    /// Creates an object from key-value pairs; a later duplicate key replaces the earlier
    /// value in the earlier position.
    ///
    /// ```swift
    /// let object = JSONObject(uniqueKeysWithLastValues: [("a", 1), ("b", 2), ("a", 3)])
    /// object["a"]  // 3
    /// ```
    ///
    /// - Parameter pairs: The keys and values, in order.
    public init<S: Sequence>(uniqueKeysWithLastValues pairs: S) where S.Element == (String, JSONValue) {
        self.init()
        storage.reserveCapacity(pairs.underestimatedCount)
        for (key, value) in pairs { self[key] = value }
    }

    /// Creates an object from a dictionary, ordering the keys alphabetically so the result
    /// is deterministic.
    ///
    /// ```swift
    /// let object = JSONObject(["b": 2, "a": 1] as [String: JSONValue])
    /// object.keys  // ["a", "b"]
    /// ```
    ///
    /// - Parameter dictionary: The keys and values.
    public init(_ dictionary: [String: JSONValue]) {
        self.init(uniqueKeysWithLastValues: dictionary.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
    }

    /// Makes room for `capacity` members in storage of this object's own, copying shared
    /// storage once, so that adding members up to that count grows nothing.
    mutating func reserveCapacity(_ capacity: Int) {
        storage.reserveCapacity(capacity)
    }

    /// The keys, in insertion order.
    ///
    /// ```swift
    /// let object: JSONObject = ["a": 1, "b": 2]
    /// object.keys  // ["a", "b"]
    /// ```
    public var keys: [String] { storage.entries.map(\.key) }

    /// The values, in key order.
    ///
    /// ```swift
    /// let object: JSONObject = ["a": 1, "b": 2]
    /// object.values  // [1, 2]
    /// ```
    public var values: [JSONValue] { storage.entries.map(\.value) }

    /// The keys and values, in key order.
    var entries: ElementBuffer<Element> { storage.entries }

    /// The storage of the keys and values; `nil` when the object has never had any.
    var entryStorage: ElementStorage<Element>? { storage.entries.storage }

    /// The position of `key`, or `nil` when the object does not have it.
    ///
    /// ```swift
    /// let object: JSONObject = ["a": 1, "b": 2]
    /// object.index(forKey: "b")  // 1
    /// ```
    ///
    /// - Complexity: O(1) on average for large objects; O(*n*) for small ones.
    public func index(forKey key: String) -> Int? { storage.index(forKey: key) }

    /// The value at `position`, which must be a valid position.
    ///
    /// An integer is returned as it is read: copying any other value calls out to test its
    /// case (a tenth of a `coll_get` lookup's own work).
    func value(at position: Int) -> JSONValue {
        storage.entries.withUnsafeBufferPointer { entries in
            if case .int(let integer) = entries[position].value { return .int(integer) }
            return entries[position].value
        }
    }

    /// The storage of the entries without a reference count, or `nil` when the object is
    /// empty: valid while this object keeps it, for ``assign(copying:settingValue:at:)``.
    @inline(__always)
    var unretainedEntries: Unmanaged<ElementStorage<Element>>? { storage.unretainedEntries }

    /// Makes this object the one whose entries are `source` (``unretainedEntries``, which that
    /// object keeps for the call) with `value` at `position`, a valid position in it: in its
    /// own storage when nothing else shares it (only the entries whose bits differ are
    /// written), else in a copy of `source`.
    @inline(__always)
    mutating func assign(
        copying source: Unmanaged<ElementStorage<Element>>,
        settingValue value: JSONValue,
        at position: Int
    ) {
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
    @inline(__always)
    private static func valueAddress(of entry: UnsafeMutablePointer<Element>) -> UnsafeMutablePointer<JSONValue> {
        (UnsafeMutableRawPointer(entry) + valueOffset).assumingMemoryBound(to: JSONValue.self)
    }

    /// Replaces the value of the object's only entry with `value` when its key is `key` by its
    /// bits and nothing else shares the storage: a model's `changed` after a run of `set`s of
    /// one attribute.
    ///
    /// - Returns: Whether the value was replaced.
    @inline(__always)
    mutating func replaceLoneValue(_ value: JSONValue, ifKeyIs key: String) -> Bool {
        guard let entry = storage.loneEntry(ifKeyIs: key) else { return false }
        JSONValue.assign(value, to: Self.valueAddress(of: entry))
        return true
    }

    /// Replaces the value at `position`, which must be a valid position, keeping its key.
    mutating func setValue(_ value: JSONValue, at position: Int) {
        storage.modifyValue(at: position) { $0 = value }
    }

    /// How the value at `position` compares with the value at `otherPosition` in `other`;
    /// both must be valid positions.
    ///
    /// Values with the same bits are equal (the same case with the same payload: the same
    /// number, the same string, the same array or object storage), so those are decided
    /// without copying either value out, and so are two integers; others are compared
    /// with `==`.
    @inline(__always)
    func match(ofValueAt position: Int, withValueAt otherPosition: Int, in other: JSONObject) -> ValueMatch {
        let entry = storage.entries.address(of: position)
        let otherEntry = other.storage.entries.address(of: otherPosition)
        if JSONValue.haveSameBits(
            UnsafeRawPointer(entry) + Self.valueOffset,
            UnsafeRawPointer(otherEntry) + Self.valueOffset
        ) {
            return .sameBits
        }
        // Two integers with other bits differ: decided without copying the values out.
        if case .int = entry.pointee.value, case .int = otherEntry.pointee.value { return .different }
        return Self.matchOutOfLine(entry, otherEntry)
    }

    /// How the value at `position`, which must be a valid position, compares with `value`:
    /// as ``match(ofValueAt:withValueAt:in:)``, without copying either value out.
    ///
    /// Two integers are compared here; other values out of line, where their bits are compared
    /// in memory: taking the address of `value` would give the caller a stack protector.
    @inline(__always)
    func match(ofValueAt position: Int, with value: JSONValue) -> ValueMatch {
        let entry = storage.entries.address(of: position)
        if case .int(let new) = value, case .int(let old) = entry.pointee.value {
            return new == old ? .equal : .different
        }
        return matchInMemory(ofValueAt: position, with: value)
    }

    /// Whether the value at `position`, which must be a valid position, is the integer
    /// `integer`, tested in place: what a `set` of an integer that changes nothing needs,
    /// without a call.
    @inline(__always)
    func hasInteger(at position: Int, equalTo integer: Int) -> Bool {
        let value = UnsafeRawPointer(storage.entries.address(of: position)) + Self.valueOffset
        // The case is tested in place; binding the payload copied the value through a call.
        guard case .int = value.assumingMemoryBound(to: JSONValue.self).pointee else { return false }
        // A multi-payload enum keeps each case's payload at offset zero (docs/ABI/TypeLayout.rst).
        return value.load(as: Int.self) == integer
    }

    /// ``match(ofValueAt:with:)`` for values that are not both integers.
    @inline(never)
    private func matchInMemory(ofValueAt position: Int, with value: JSONValue) -> ValueMatch {
        let entry = storage.entries.address(of: position)
        let match = withUnsafePointer(to: value) { value in
            Self.matchInPlace(UnsafeRawPointer(entry) + Self.valueOffset, UnsafeRawPointer(value))
        }
        if let match { return match }
        return entry.pointee.value == value ? .equal : .different
    }

    /// How the two values at these addresses compare when that is decided where they lie:
    /// the same bits, or two strings; `nil` for anything else.
    ///
    /// Comparing two strings as `JSONValue`s copies both out, retaining and releasing them.
    /// The cases are tested in place, and a multi-payload enum keeps each case's payload at
    /// offset zero (docs/ABI/TypeLayout.rst).
    @inline(__always)
    private static func matchInPlace(_ old: UnsafeRawPointer, _ new: UnsafeRawPointer) -> ValueMatch? {
        if JSONValue.haveSameBits(old, new) { return .sameBits }
        guard case .string = old.assumingMemoryBound(to: JSONValue.self).pointee,
            case .string = new.assumingMemoryBound(to: JSONValue.self).pointee
        else { return nil }
        let equal = old.assumingMemoryBound(to: String.self).pointee == new.assumingMemoryBound(to: String.self).pointee
        return equal ? .equal : .different
    }

    /// ``match(ofValueAt:withValueAt:in:)`` for values with other bits that are not both
    /// integers.
    @inline(never)
    private static func matchOutOfLine(_ entry: UnsafePointer<Element>, _ other: UnsafePointer<Element>) -> ValueMatch {
        let match = matchInPlace(UnsafeRawPointer(entry) + valueOffset, UnsafeRawPointer(other) + valueOffset)
        if let match { return match }
        return entry.pointee.value == other.pointee.value ? .equal : .different
    }

    /// How two values compare: see ``match(ofValueAt:withValueAt:in:)``.
    enum ValueMatch {
        /// The same bits, so equal without a comparison.
        case sameBits
        /// Equal by `==`, with other bits (such as `1` and `1.0`) or not compared by bits (two
        /// equal integers).
        case equal
        /// Not equal.
        case different
    }

    /// Where the value lies in an entry: after the key, a tuple's elements being laid out
    /// in order, each at its alignment (a test checks it against `MemoryLayout.offset(of:)`,
    /// which is not a constant the compiler folds).
    static var valueOffset: Int {
        @inline(__always) get { MemoryLayout<String>.stride }
    }

    /// The address of the entry at `position`, which must be a valid position: valid while
    /// this object lives unchanged.
    @inline(__always)
    func entryAddress(at position: Int) -> UnsafePointer<Element> {
        storage.entries.address(of: position)
    }

    /// Whether both objects share their storage, so that they are equal without comparing.
    func isIdentical(to other: JSONObject) -> Bool {
        storage.isIdentical(to: other.storage)
    }

    /// Adds `key` with `value` at the end; the caller guarantees that the object does not
    /// have `key`, so it is not searched for.
    mutating func appendUnchecked(_ key: String, _ value: JSONValue) {
        storage.appendUnchecked(key, value)
    }

    /// Whether the object has `key` (with any value, including ``JSONValue/null``).
    ///
    /// ```swift
    /// let object: JSONObject = ["a": nil]
    /// object.contains("a")  // true
    /// ```
    public func contains(_ key: String) -> Bool { index(forKey: key) != nil }

    /// The value for `key`; assigning `nil` removes the key.
    ///
    /// To store JSON `null`, assign ``JSONValue/null``.
    ///
    /// ```swift
    /// var object: JSONObject = ["a": 1]
    /// object["a"] = nil        // removes "a"
    /// object["b"] = .null      // stores null
    /// ```
    public subscript(key: String) -> JSONValue? {
        get { storage[key] }
        set {
            if let newValue {
                updateValue(newValue, forKey: key)
            } else {
                removeValue(forKey: key)
            }
        }
    }

    /// Stores `value` under `key`, keeping the key's position if it exists.
    ///
    /// ```swift
    /// var object: JSONObject = ["a": 1]
    /// object.updateValue(2, forKey: "a")  // returns 1
    /// ```
    ///
    /// - Returns: The value that was replaced, or `nil` when the key is new.
    @discardableResult
    public mutating func updateValue(_ value: JSONValue, forKey key: String) -> JSONValue? {
        storage.updateValue(value, forKey: key)
    }

    /// Removes `key` and returns its value.
    ///
    /// ```swift
    /// var object: JSONObject = ["a": 1, "b": 2]
    /// object.removeValue(forKey: "a")  // 1; keys are now ["b"]
    /// ```
    ///
    /// - Complexity: O(*n*).
    @discardableResult
    public mutating func removeValue(forKey key: String) -> JSONValue? {
        storage.removeValue(forKey: key)
    }

    /// Removes every key.
    ///
    /// ```swift
    /// var object: JSONObject = ["a": 1]
    /// object.removeAll()
    /// ```
    public mutating func removeAll() { storage.removeAll() }

    /// Removes every key, keeping the storage for reuse when it is not shared.
    mutating func removeAll(keepingCapacity: Bool) { storage.removeAll(keepingCapacity: keepingCapacity) }

    /// Returns this object with the keys of `other` added or replaced.
    ///
    /// ```swift
    /// let merged = (["a": 1] as JSONObject).merging(["b": 2])  // ["a": 1, "b": 2]
    /// ```
    ///
    /// - Parameter other: The keys and values that win.
    public func merging(_ other: JSONObject) -> JSONObject {
        var result = self
        result.storage.merge(other.storage)
        return result
    }

    /// `base` with the keys of `overrides` added or replaced, as `base.merging(overrides)`,
    /// moving the entries of either object that nothing else shares instead of copying them.
    init(merging base: consuming JSONObject, with overrides: consuming JSONObject) {
        storage = OrderedStringMap.merging(emptying: &base.storage, &overrides.storage)
    }

    /// Returns the object with only the keys for which `isIncluded` returns `true`.
    ///
    /// ```swift
    /// let object: JSONObject = ["a": 1, "b": 2]
    /// object.filter { $0.key == "a" }  // ["a": 1]
    /// ```
    ///
    /// - Parameter isIncluded: The test for each key and value.
    public func filter(_ isIncluded: (Element) throws -> Bool) rethrows -> JSONObject {
        var result = JSONObject()
        for entry in storage.entries where try isIncluded(entry) { result[entry.key] = entry.value }
        return result
    }
}

/// The attributes of a model: an ordered ``JSONObject``.
///
/// ```swift
/// let attributes: Attributes = ["title": "Dune", "done": false]
/// ```
public typealias Attributes = JSONObject

// MARK: - Collection conformance

extension JSONObject: Swift.RandomAccessCollection {
    /// The position of the first entry.
    public var startIndex: Int { 0 }

    /// The position after the last entry.
    public var endIndex: Int { storage.count }

    /// The key and value at `position`.
    ///
    /// ```swift
    /// let object: JSONObject = ["a": 1]
    /// object[0].key  // "a"
    /// ```
    public subscript(position: Int) -> Element { storage.entries[position] }
}

extension JSONObject: CustomStringConvertible {
    /// The object as compact JSON text, however deeply it nests.
    ///
    /// ```swift
    /// print(JSONObject(["a": 1]))  // {"a":1}
    /// ```
    public var description: String { JSONValue.object(self).unlimitedJSONString }
}
