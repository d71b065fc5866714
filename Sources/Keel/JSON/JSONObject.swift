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
        let value = valueAddress(at: position)
        if case .int(let integer) = value.pointee { return .int(integer) }
        return value.pointee
    }

    /// The storage of the keys and values, for ``JSONReleaseQueue``; `nil` when the object has
    /// never had any.
    var entryStorage: ElementStorage<Element>? { storage.entries.storage }

    // MARK: - Keys and values where the object keeps them

    /// The address of the key at `position`, which must be a valid position: valid while this
    /// object lives unchanged.
    ///
    /// Readers that compare keys in place use this (and ``valueAddress(at:)``) rather than
    /// assuming how the storage lays keys and values out.
    @inline(__always)
    func keyAddress(at position: Int) -> UnsafePointer<String> {
        // A tuple's first element lies at its start.
        UnsafeRawPointer(entryAddress(at: position)).assumingMemoryBound(to: String.self)
    }

    /// The address of the value at `position`, which must be a valid position: valid while
    /// this object lives unchanged.
    @inline(__always)
    func valueAddress(at position: Int) -> UnsafePointer<JSONValue> {
        UnsafePointer(Self.valueAddress(of: entryAddress(at: position)))
    }

    /// The address of the entry at `position`, which must be a valid position: checked in
    /// debug builds only, as an `UnsafeBufferPointer`'s subscript checks it.
    ///
    /// Readers take their positions from ``index(forKey:)``, a layout's slots or a loop below
    /// ``count``; a check in release builds cost a `coll_get` lookup 5 instructions (its
    /// ``value(at:)``, which read through a buffer pointer unchecked before).
    @inline(__always)
    private func entryAddress(at position: Int) -> UnsafeMutablePointer<Element> {
        assert(UInt(bitPattern: position) < UInt(bitPattern: count), "Index out of range")
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
            body(UnsafeKeys(base: UnsafeRawPointer(storage.elements), count: storage.elementCount))
        }
    }

    /// The keys of an object in position order, read where it keeps them: valid while that
    /// object lives unchanged.
    struct UnsafeKeys {
        /// The address of the first key.
        let base: UnsafeRawPointer?
        /// The number of keys.
        let count: Int

        /// The key at `position`, which must be below ``count``.
        @inline(__always)
        subscript(position: Int) -> String {
            address(at: position).pointee
        }

        /// The address of the key at `position`, which must be below ``count``.
        @inline(__always)
        func address(at position: Int) -> UnsafePointer<String> {
            (base.unsafelyUnwrapped + position * MemoryLayout<Element>.stride).assumingMemoryBound(to: String.self)
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

    /// Makes this object the one whose storage is `source` (``lentStorage``, which that object
    /// keeps for the call) with `value` at `position`, a valid position in it: in its own
    /// storage when nothing else shares it (only the entries whose bits differ are written),
    /// else in a copy of `source`.
    @inline(__always)
    mutating func assign(
        copying source: LentStorage,
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
    ///
    /// A tuple's elements are laid out in order, each at its alignment: the value follows the
    /// key (a test checks the offset against `MemoryLayout.offset(of:)`, which is not a
    /// constant the compiler folds).
    @inline(__always)
    private static func valueAddress(of entry: UnsafeMutablePointer<Element>) -> UnsafeMutablePointer<JSONValue> {
        (UnsafeMutableRawPointer(entry) + MemoryLayout<String>.stride).assumingMemoryBound(to: JSONValue.self)
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
