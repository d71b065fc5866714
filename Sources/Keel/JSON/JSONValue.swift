/// A JSON value: the type of every attribute a model holds.
///
/// `JSONValue` has a literal form for every JSON type, so attribute dictionaries read like
/// JSON:
///
/// ```swift
/// note.set(["title": "Hi", "tags": ["a", "b"], "author": ["id": 3], "draft": nil])
/// ```
///
/// Integers stay exact (``int(_:)`` holds a full 64-bit `Int`, so large ids survive a round
/// trip), and numbers compare by value: `.int(1) == .double(1.0)`, which is what change
/// detection uses. `NaN` equals `NaN` (as in Underscore's `isEqual`), and `0.0` equals
/// `-0.0` (unlike Underscore). Arrays compare element by element; objects compare by their
/// keys and values, in any order.
///
/// An array holds a ``JSONArray``, a collection of values; `.array([1, 2])` and
/// `.array(swiftArray)` both create one, and `case .array(let elements)` reads it like a
/// Swift array. Values are compared, hashed, described and freed without recursion, so a
/// value built in code and nested any number of levels deep is safe to use and to let go.
///
/// Backbone distinguishes three states for an attribute: absent, `null` and `undefined`.
/// Keel has two: an attribute is absent (the key is not in the ``JSONObject``) or it holds a
/// value, which may be ``null``. Backbone's `undefined` maps to *absent*: use
/// ``Model/unset(_:silent:validate:options:)`` to remove a key.
public enum JSONValue: Sendable {
    /// JSON `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// An integer, kept exact.
    case int(Int)
    /// A floating-point number.
    case double(Double)
    /// A string.
    case string(String)
    /// An ordered list of values.
    ///
    /// A Swift array of values converts too: `.array([1, 2])` and `.array(values)` both
    /// create this case (see ``array(_:)-swift.type.method``).
    case array(JSONArray)
    /// An object: keys in insertion order, mapped to values.
    case object(JSONObject)
}

// MARK: - Accessors

extension JSONValue {
    /// Whether the value is ``null``.
    ///
    /// ```swift
    /// JSONValue.null.isNull  // true
    /// ```
    @inlinable
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The string, when the value is a ``string(_:)``.
    ///
    /// ```swift
    /// JSONValue("Dune").stringValue  // "Dune"
    /// ```
    @inlinable
    public var stringValue: String? {
        if case .string(let string) = self { return string }
        return nil
    }

    /// The Boolean, when the value is a ``bool(_:)``.
    ///
    /// ```swift
    /// JSONValue(true).boolValue  // true
    /// ```
    @inlinable
    public var boolValue: Bool? {
        if case .bool(let bool) = self { return bool }
        return nil
    }

    /// The integer, when the value is an ``int(_:)`` or a ``double(_:)`` with an exact
    /// integer value.
    ///
    /// ```swift
    /// JSONValue(2.0).intValue  // 2
    /// JSONValue(2.5).intValue  // nil
    /// ```
    @inlinable
    public var intValue: Int? {
        // The integer is tested first and the double's conversion is out of line: inlined into
        // a handler that reads an event's value, the switch tested the double's case first
        // (two instructions a read in `trigger_10`'s handlers).
        if case .int(let int) = self { return int }
        return Self.exactInteger(of: self)
    }

    /// ``intValue`` of anything but an ``int(_:)``: the double's value when it is an exact
    /// integer.
    @usableFromInline
    @inline(never)
    static func exactInteger(of value: JSONValue) -> Int? {
        if case .double(let double) = value { return Int(exactly: double) }
        return nil
    }

    /// The number as a `Double`, when the value is an ``int(_:)`` or a ``double(_:)``.
    ///
    /// ```swift
    /// JSONValue(3).doubleValue  // 3.0
    /// ```
    @inlinable
    public var doubleValue: Double? {
        switch self {
        case .int(let int): return Double(int)
        case .double(let double): return double
        default: return nil
        }
    }

    /// The elements as a Swift array, when the value is an ``array(_:)-swift.enum.case``.
    ///
    /// ```swift
    /// JSONValue(["a", "b"]).arrayValue?.count  // 2
    /// ```
    ///
    /// To read the elements without copying them, match the case:
    /// `if case .array(let elements) = value { ... }`.
    ///
    /// - Complexity: O(*n*): the elements are copied into a new array.
    public var arrayValue: [JSONValue]? {
        if case .array(let array) = self { return Array(array) }
        return nil
    }

    /// The object, when the value is an ``object(_:)``.
    ///
    /// ```swift
    /// let author: JSONValue = ["id": 3]
    /// author.objectValue?["id"]  // 3
    /// ```
    @inlinable
    public var objectValue: JSONObject? {
        if case .object(let object) = self { return object }
        return nil
    }

    /// The value stored under `key`, when this value is an object that has it.
    ///
    /// ```swift
    /// let author: JSONValue = ["name": "Ann"]
    /// author["name"]  // "Ann"
    /// ```
    public subscript(key: String) -> JSONValue? {
        objectValue?[key]
    }

    /// The element at `index`, when this value is an array and the index is in range.
    ///
    /// ```swift
    /// let tags: JSONValue = ["a", "b"]
    /// tags[1]  // "b"
    /// tags[5]  // nil
    /// ```
    public subscript(index: Int) -> JSONValue? {
        guard case .array(let array) = self, array.indices.contains(index) else { return nil }
        return array[index]
    }
}

// MARK: - Initializers

extension JSONValue {
    /// Creates a string value.
    ///
    /// ```swift
    /// let title = JSONValue("Dune")
    /// ```
    public init(_ string: String) { self = .string(string) }

    /// Creates a Boolean value.
    ///
    /// ```swift
    /// let done = JSONValue(false)
    /// ```
    public init(_ bool: Bool) { self = .bool(bool) }

    /// Creates an exact integer value.
    ///
    /// ```swift
    /// let id = JSONValue(9_007_199_254_740_993)
    /// ```
    public init(_ int: Int) { self = .int(int) }

    /// Creates a floating-point value.
    ///
    /// ```swift
    /// let price = JSONValue(9.99)
    /// ```
    public init(_ double: Double) { self = .double(double) }

    /// Creates an array value.
    ///
    /// ```swift
    /// let tags = JSONValue([JSONValue("a"), JSONValue("b")])
    /// ```
    ///
    /// - Complexity: O(*n*): the elements are copied.
    public init(_ array: [JSONValue]) { self = .array(JSONArray(array)) }

    /// Creates an array value from a ``JSONArray``.
    ///
    /// ```swift
    /// let tags = JSONValue(["a", "b"] as JSONArray)
    /// ```
    public init(_ array: JSONArray) { self = .array(array) }

    /// Creates an array value from a Swift array of values.
    ///
    /// ```swift
    /// let names = ["a", "b"].map { JSONValue($0) }
    /// let tags = JSONValue.array(names)
    /// ```
    ///
    /// - Parameter values: The elements.
    /// - Complexity: O(*n*): the elements are copied into a ``JSONArray``.
    public static func array(_ values: [JSONValue]) -> JSONValue { .array(JSONArray(values)) }

    /// Creates an object value.
    ///
    /// ```swift
    /// let author = JSONValue(JSONObject(["id": 3]))
    /// ```
    public init(_ object: JSONObject) { self = .object(object) }
}

// MARK: - Ordering

extension JSONValue {
    /// The rank of each kind of value when values of different kinds are sorted together.
    private var kindRank: Int {
        switch self {
        case .null: return 0
        case .bool: return 1
        case .int, .double: return 2
        case .string: return 3
        case .array: return 4
        case .object: return 5
        }
    }

    /// Whether `lhs` sorts before `rhs` in a collection comparator.
    ///
    /// Numbers order by value, strings by their Unicode scalars, Booleans `false` first.
    /// Values of different kinds order null < bool < number < string < array < object;
    /// arrays order lexicographically, objects are equal to each other for sorting.
    ///
    /// ```swift
    /// JSONValue.sortsBefore(1, 2.5)  // true
    /// ```
    ///
    /// - Complexity: O(1) for scalars; O(*n*) for arrays, nested to any depth.
    public static func sortsBefore(_ lhs: JSONValue, _ rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.int(let a), .int(let b)): return a < b
        case (.string(let a), .string(let b)): return a.unicodeScalars.lexicographicallyPrecedes(b.unicodeScalars)
        case (.bool(let a), .bool(let b)): return !a && b
        case (.int, .double), (.double, .int), (.double, .double):
            // Exact integers compare as integers; otherwise compare as doubles, NaN last.
            if let a = lhs.intValue, let b = rhs.intValue { return a < b }
            let a = lhs.doubleValue ?? 0
            let b = rhs.doubleValue ?? 0
            if a.isNaN { return false }
            if b.isNaN { return true }
            return a < b
        case (.array(let a), .array(let b)):
            return arraySortsBefore(a, b)
        default:
            return lhs.kindRank < rhs.kindRank
        }
    }

    /// Whether array `lhs` sorts before array `rhs`: lexicographically, with nested arrays
    /// compared on an explicit stack rather than by recursion, so any depth is safe.
    private static func arraySortsBefore(_ lhs: JSONArray, _ rhs: JSONArray) -> Bool {
        // The pairs of arrays being compared, outermost first, and how many elements of
        // each pair have compared equal.
        var pairs: [(lhs: JSONArray, rhs: JSONArray, equalCount: Int)] = [(lhs, rhs, 0)]
        while let top = pairs.indices.last {
            let position = pairs[top].equalCount
            guard position < pairs[top].lhs.count, position < pairs[top].rhs.count else {
                // One array is a prefix of the other: the shorter sorts first, and equal
                // arrays compare equal within the arrays that hold them.
                if pairs[top].lhs.count != pairs[top].rhs.count { return pairs[top].lhs.count < pairs[top].rhs.count }
                pairs.removeLast()
                if let parent = pairs.indices.last { pairs[parent].equalCount += 1 }
                continue
            }
            let left = pairs[top].lhs[position]
            let right = pairs[top].rhs[position]
            if case .array(let a) = left, case .array(let b) = right {
                pairs.append((a, b, 0))
            } else if sortsBefore(left, right) {
                return true
            } else if sortsBefore(right, left) {
                return false
            } else {
                pairs[top].equalCount += 1
            }
        }
        return false
    }
}

// MARK: - Description

extension JSONValue: CustomStringConvertible, CustomDebugStringConvertible {
    /// The value as a person reads it: a string's text as it is, any other value as compact
    /// JSON text.
    ///
    /// This is what `print` and string interpolation show, so a title prints as `Dune`, not
    /// as `"Dune"`. Inside arrays and objects strings keep their quotes (the whole value is
    /// JSON text), as Swift prints `["Dune"]` for an array of strings. For JSON text of any
    /// value, strings included, use ``debugDescription`` (what `debugPrint`, `dump` and
    /// collections of values show) or ``jsonString(options:)``.
    ///
    /// ```swift
    /// print(JSONValue("Dune"))              // Dune
    /// print(JSONValue(["a": [1, true]]))    // {"a":[1,true]}
    /// print("Added \(note["title"] ?? "")")  // Added Dune
    /// ```
    ///
    /// Unlike ``jsonString(options:)``, the description has no depth limit: it describes a
    /// value nested any number of levels deep.
    public var description: String {
        if case .string(let string) = self { return string }
        return unlimitedJSONString
    }

    /// The value as compact JSON text, a string in quotes: what `debugPrint`, `dump`,
    /// Swift Testing's failure messages and printed arrays and optionals show.
    ///
    /// ```swift
    /// debugPrint(JSONValue("Dune"))      // "Dune"
    /// print([JSONValue("Dune"), 1])      // ["Dune", 1]
    /// ```
    ///
    /// Like ``description``, it has no depth limit.
    public var debugDescription: String { unlimitedJSONString }
}

extension JSONValue {
    /// Stores `value` at `target`, an initialized value: an integer over an integer is written
    /// without the calls that copy the new value and destroy the old one, which an integer
    /// does not need.
    @inline(__always)
    static func assign(_ value: JSONValue, to target: UnsafeMutablePointer<JSONValue>) {
        if case .int(let new) = value, target.pointee.isInt {
            // The old value is an integer: nothing to destroy.
            target.initialize(to: .int(new))
        } else {
            target.pointee = value
        }
    }

    /// Whether the value is an integer, tested in place.
    @inline(__always)
    var isInt: Bool {
        if case .int = self { return true }
        return false
    }

    /// Whether the values at `a` and `b` have the same bits: then they are equal, being the same
    /// case with the same payload.
    ///
    /// Values with different bits may still be equal.
    @inline(__always)
    static func haveSameBits(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer) -> Bool {
        SameBits.compare(a, b, size: MemoryLayout<JSONValue>.size)
    }
}
