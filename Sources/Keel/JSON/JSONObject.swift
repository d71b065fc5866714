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

    /// The keys and values, or a ``ShapedStorage`` held in the map's place (the map is then
    /// never used as one): read by this type's own extensions only.
    var storage = OrderedStringMap<JSONValue>()

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
        if isShaped {
            makeEntries(reserving: Swift.max(0, capacity - count))
            return
        }
        storage.reserveCapacity(capacity)
    }

    /// The keys, in insertion order.
    ///
    /// ```swift
    /// let object: JSONObject = ["a": 1, "b": 2]
    /// object.keys  // ["a", "b"]
    /// ```
    public var keys: [String] {
        if isShaped { return indices.map { keyAddress(at: $0).pointee } }
        return storage.entries.map(\.key)
    }

    /// The values, in key order.
    ///
    /// ```swift
    /// let object: JSONObject = ["a": 1, "b": 2]
    /// object.values  // [1, 2]
    /// ```
    public var values: [JSONValue] {
        if isShaped { return indices.map { valueAddress(at: $0).pointee } }
        return storage.entries.map(\.value)
    }

    /// The position of `key`, or `nil` when the object does not have it.
    ///
    /// ```swift
    /// let object: JSONObject = ["a": 1, "b": 2]
    /// object.index(forKey: "b")  // 1
    /// ```
    ///
    /// - Complexity: O(1) on average for large objects; O(*n*) for small ones.
    public func index(forKey key: String) -> Int? {
        if let shaped = lentShapedStorage {
            return shaped._withUnsafeGuaranteedRef { $0.lentLayout._withUnsafeGuaranteedRef { $0.slot(of: key) } }
        }
        return storage.index(forKey: key)
    }

    /// The value at `position`, which must be a valid position.
    ///
    /// An integer is returned as it is read: copying any other value calls out to test its
    /// case (a tenth of a `coll_get` lookup's own work).
    @inline(__always)
    func value(at position: Int) -> JSONValue {
        let value = valueAddress(at: position)
        if case .int(let integer) = value.pointee { return .int(integer) }
        return value.pointee
    }

    /// The storage, for ``JSONReleaseQueue``: the entries, or a ``ShapedStorage``; `nil` when
    /// the object has never had any.
    var entryStorage: ElementStorage<Element>? { storage.entries.storage }

    /// Whether both objects share their storage, so that they are equal without comparing.
    func isIdentical(to other: JSONObject) -> Bool {
        storage.isIdentical(to: other.storage)
    }

    /// Adds `key` with `value` at the end; the caller guarantees that the object does not
    /// have `key`, so it is not searched for.
    mutating func appendUnchecked(_ key: String, _ value: JSONValue) {
        if isShaped { makeEntries(reserving: 1) }
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
        get {
            guard isShaped else { return storage[key] }
            guard let position = index(forKey: key) else { return nil }
            return value(at: position)
        }
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
        if isShaped {
            if let position = index(forKey: key) {
                let values = uniqueShapedValues()
                let old = values[position]
                values[position] = value
                return old
            }
            makeEntries(reserving: 1)
        }
        return storage.updateValue(value, forKey: key)
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
        if isShaped {
            guard index(forKey: key) != nil else { return nil }
            makeEntries()
        }
        return storage.removeValue(forKey: key)
    }

    /// Removes every key.
    ///
    /// ```swift
    /// var object: JSONObject = ["a": 1]
    /// object.removeAll()
    /// ```
    public mutating func removeAll() { storage = OrderedStringMap() }

    /// Removes every key, keeping the storage for reuse when it is not shared.
    mutating func removeAll(keepingCapacity: Bool) {
        // Shaped storage holds no entries to keep: it is let go of.
        if isShaped {
            storage = OrderedStringMap()
            return
        }
        storage.removeAll(keepingCapacity: keepingCapacity)
    }

    /// Returns this object with the keys of `other` added or replaced.
    ///
    /// ```swift
    /// let merged = (["a": 1] as JSONObject).merging(["b": 2])  // ["a": 1, "b": 2]
    /// ```
    ///
    /// - Parameter other: The keys and values that win.
    public func merging(_ other: JSONObject) -> JSONObject {
        var result = self
        result.makeEntries()
        var other = other
        other.makeEntries()
        result.storage.merge(other.storage)
        return result
    }

    /// `base` with the keys of `overrides` added or replaced, as `base.merging(overrides)`,
    /// moving the entries of either object that nothing else shares instead of copying them.
    ///
    /// The result is shaped (``ShapedStorage``) when its keys are those of the layout the last
    /// model found: a model's `defaults` merged with the attributes it is built with, written
    /// into a fresh storage here anyway.
    init(merging base: consuming JSONObject, with overrides: consuming JSONObject) {
        base.makeEntries()
        overrides.makeEntries()
        if !base.isEmpty, !overrides.isEmpty, let shaped = Self.shapedMerge(&base, &overrides) {
            storage = OrderedStringMap(holding: shaped)
            return
        }
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
        for entry in self where try isIncluded(entry) { result[entry.key] = entry.value }
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
    public subscript(position: Int) -> Element {
        if isShaped { return (keyAddress(at: position).pointee, valueAddress(at: position).pointee) }
        return storage.entries[position]
    }
}

extension JSONObject: CustomStringConvertible {
    /// The object as compact JSON text, however deeply it nests.
    ///
    /// ```swift
    /// print(JSONObject(["a": 1]))  // {"a":1}
    /// ```
    public var description: String { JSONValue.object(self).unlimitedJSONString }
}
