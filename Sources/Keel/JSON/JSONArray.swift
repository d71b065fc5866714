/// The elements of a JSON array: the payload of ``JSONValue/array(_:)-swift.enum.case``.
///
/// `JSONArray` is a random-access, mutable, range-replaceable collection of ``JSONValue``
/// with the value semantics of a Swift array (copies share storage until one of them
/// changes). It exists so that a value nested any number of levels deep can be freed: its
/// storage frees nested arrays and objects one after another rather than by recursion,
/// which the storage of a Swift `Array` cannot do.
///
/// Array literals, `for`-`in`, subscripts and the collection methods work as on an array:
///
/// ```swift
/// var tags: JSONArray = ["a", "b"]
/// tags.append("c")
/// let value = JSONValue.array(tags)
/// if case .array(let elements) = value {
///     elements.count                  // 3
///     elements.map(\.stringValue)     // ["a", "b", "c"]
///     Array(elements)                 // [JSONValue]
/// }
/// ```
///
/// Two arrays are equal when their elements are equal in order (numbers by value, as in
/// ``JSONValue``).
public struct JSONArray: Sendable {
    /// The elements.
    var elements: ElementBuffer<JSONValue>

    /// Creates an empty array.
    ///
    /// ```swift
    /// var tags = JSONArray()
    /// ```
    public init() {
        elements = ElementBuffer()
    }

    /// Creates an array of the elements of `values`, in order.
    ///
    /// ```swift
    /// let ranks = JSONArray((1...3).map { JSONValue($0) })
    /// ```
    ///
    /// - Parameter values: The elements.
    /// - Complexity: O(*n*).
    public init<S: Sequence>(_ values: S) where S.Element == JSONValue {
        elements = ElementBuffer(values)
    }

    /// Creates an array from elements already in storage.
    init(elements: ElementBuffer<JSONValue>) {
        self.elements = elements
    }

    /// Reserves room for `minimumCapacity` elements.
    ///
    /// ```swift
    /// var values = JSONArray()
    /// values.reserveCapacity(100)
    /// ```
    public mutating func reserveCapacity(_ minimumCapacity: Int) {
        elements.reserveCapacity(minimumCapacity)
    }

    /// Adds `element` at the end.
    ///
    /// ```swift
    /// var values: JSONArray = [1]
    /// values.append(2)  // [1, 2]
    /// ```
    ///
    /// - Complexity: Amortised O(1).
    public mutating func append(_ element: JSONValue) {
        elements.append(element)
    }

    /// Removes and returns the last element; the array must not be empty.
    ///
    /// ```swift
    /// var values: JSONArray = [1, 2]
    /// values.removeLast()  // 2
    /// ```
    @discardableResult
    public mutating func removeLast() -> JSONValue {
        elements.removeLast()
    }

    /// Removes and returns the element at `position`.
    ///
    /// ```swift
    /// var values: JSONArray = [1, 2, 3]
    /// values.remove(at: 0)  // 1; values is [2, 3]
    /// ```
    ///
    /// - Complexity: O(*n*).
    @discardableResult
    public mutating func remove(at position: Int) -> JSONValue {
        elements.remove(at: position)
    }

    /// Removes every element; `keepingCapacity` keeps the storage for reuse.
    ///
    /// ```swift
    /// var values: JSONArray = [1, 2]
    /// values.removeAll()
    /// ```
    public mutating func removeAll(keepingCapacity: Bool = false) {
        elements.removeAll(keepingCapacity: keepingCapacity)
    }
}

// MARK: - Collection conformance

extension JSONArray: RandomAccessCollection, MutableCollection {
    /// Always 0.
    public var startIndex: Int { 0 }

    /// The number of elements.
    public var endIndex: Int { elements.count }

    /// The element at `position`, which must be in range.
    ///
    /// ```swift
    /// var values: JSONArray = [1, 2]
    /// values[1] = "two"
    /// ```
    public subscript(position: Int) -> JSONValue {
        unsafeAddress { elements.address(of: position) }
        unsafeMutableAddress { elements.mutableAddress(of: position) }
    }

    /// Calls `body` with the elements in contiguous memory.
    ///
    /// ```swift
    /// let values: JSONArray = [1, 2]
    /// values.withContiguousStorageIfAvailable { $0.count }  // 2
    /// ```
    public func withContiguousStorageIfAvailable<Result>(
        _ body: (UnsafeBufferPointer<JSONValue>) throws -> Result
    ) rethrows -> Result? {
        try elements.withContiguousStorageIfAvailable(body)
    }
}

extension JSONArray: RangeReplaceableCollection {
    /// Replaces the elements in `subrange` with `newElements`.
    ///
    /// ```swift
    /// var values: JSONArray = [1, 2, 3]
    /// values.replaceSubrange(0..<2, with: [0])  // [0, 3]
    /// ```
    ///
    /// - Complexity: O(*n* + *m*), where *m* is the number of new elements.
    public mutating func replaceSubrange<C: Swift.Collection>(_ subrange: Range<Int>, with newElements: C)
    where C.Element == JSONValue {
        elements.replaceSubrange(subrange, with: newElements)
    }
}

// MARK: - Literals, equality, description

extension JSONArray: ExpressibleByArrayLiteral {
    /// Creates an array from a literal.
    ///
    /// ```swift
    /// let tags: JSONArray = ["a", "b"]
    /// ```
    public init(arrayLiteral elements: JSONValue...) {
        self.init(literal: elements)
    }

    /// Creates an array from the elements of a literal, moved out of the literal's array
    /// when nothing else holds it (see ``Swift/Array/isHeldAlone()``), copied otherwise.
    init(literal elements: consuming [JSONValue]) {
        var elements = elements
        guard !elements.isEmpty, elements.isHeldAlone() else {
            self.init(elements)
            return
        }
        let count = elements.count
        let storage = ElementStorage<JSONValue>.make(capacity: count)
        let target = storage.elements
        var position = count
        while let element = elements.popLast() {
            position -= 1
            (target + position).initialize(to: element)
        }
        storage.elementCount = count
        self.init(elements: ElementBuffer(adopting: storage))
    }
}

extension JSONArray: Hashable {
    /// Whether both arrays have equal elements in the same order.
    ///
    /// ```swift
    /// ([1, "a"] as JSONArray) == [1.0, "a"]  // true
    /// ```
    ///
    /// - Complexity: O(*n*) in the size of the arrays, at any depth.
    public static func == (lhs: JSONArray, rhs: JSONArray) -> Bool {
        JSONValue.array(lhs) == JSONValue.array(rhs)
    }

    /// Hashes the elements in order, as ``JSONValue/array(_:)-swift.enum.case`` hashes them.
    ///
    /// ```swift
    /// let set: Set<JSONArray> = [[1], [1.0]]  // one element
    /// ```
    ///
    /// - Complexity: O(*n*) in the size of the array, at any depth.
    public func hash(into hasher: inout Hasher) {
        JSONValue.array(self).hash(into: &hasher)
    }
}

extension JSONArray: CustomStringConvertible {
    /// The array as compact JSON text, however deeply it nests.
    ///
    /// ```swift
    /// print(JSONArray([1, "a"]))  // [1,"a"]
    /// ```
    public var description: String { JSONValue.array(self).unlimitedJSONString }
}

extension JSONArray: Codable {
    /// Decodes an array of values.
    ///
    /// ```swift
    /// let values = try JSONDecoder().decode(JSONArray.self, from: Data("[1,2]".utf8))
    /// ```
    ///
    /// - Parameter decoder: The decoder to read from.
    /// - Throws: `DecodingError.typeMismatch` when the decoder does not hold an array.
    public init(from decoder: any Decoder) throws {
        guard case .array(let array) = try JSONValue(from: decoder) else {
            throw DecodingError.typeMismatch(
                JSONArray.self,
                DecodingError.Context(codingPath: decoder.codingPath, debugDescription: "Expected an array.")
            )
        }
        self = array
    }

    /// Encodes the elements in an unkeyed container, in order.
    ///
    /// ```swift
    /// let data = try JSONEncoder().encode(["a", 1] as JSONArray)
    /// ```
    ///
    /// - Parameter encoder: The encoder to write to.
    /// - Throws: Whatever the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        try JSONValue.array(self).encode(to: encoder)
    }
}

extension JSONArray: JSONRepresentable {
    /// The elements of a ``JSONValue/array(_:)-swift.enum.case``.
    ///
    /// ```swift
    /// JSONArray(json: [1, 2])?.count  // 2
    /// ```
    public init?(json: JSONValue) {
        guard case .array(let array) = json else { return nil }
        self = array
    }

    /// The array as JSON.
    ///
    /// ```swift
    /// (["a"] as JSONArray).json
    /// ```
    public var json: JSONValue { .array(self) }
}
