extension JSONValue: ExpressibleByNilLiteral {
    /// Creates ``null`` from `nil`.
    ///
    /// ```swift
    /// let nothing: JSONValue = nil
    /// ```
    public init(nilLiteral: ()) { self = .null }
}

extension JSONValue: ExpressibleByBooleanLiteral {
    /// Creates a Boolean value from a literal.
    ///
    /// ```swift
    /// let done: JSONValue = true
    /// ```
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension JSONValue: ExpressibleByIntegerLiteral {
    /// Creates an integer value from a literal.
    ///
    /// ```swift
    /// let id: JSONValue = 42
    /// ```
    public init(integerLiteral value: Int) { self = .int(value) }
}

extension JSONValue: ExpressibleByFloatLiteral {
    /// Creates a floating-point value from a literal.
    ///
    /// ```swift
    /// let price: JSONValue = 9.99
    /// ```
    public init(floatLiteral value: Double) { self = .double(value) }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByStringInterpolation {
    /// Creates a string value from a literal.
    ///
    /// ```swift
    /// let title: JSONValue = "note \(7)"
    /// ```
    public init(stringLiteral value: String) { self = .string(value) }
}

extension JSONValue: ExpressibleByArrayLiteral {
    /// Creates an array value from a literal.
    ///
    /// ```swift
    /// let tags: JSONValue = ["a", "b"]
    /// ```
    public init(arrayLiteral elements: JSONValue...) { self = .array(JSONArray(literal: elements)) }
}

extension JSONValue: ExpressibleByDictionaryLiteral {
    /// Creates an object value from a literal, keeping the keys in the order written.
    ///
    /// ```swift
    /// let author: JSONValue = ["name": "x", "id": 3]
    /// ```
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(JSONObject(literal: elements))
    }
}
