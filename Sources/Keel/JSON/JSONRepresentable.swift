/// A Swift type that converts to and from a ``JSONValue``, for typed attribute access.
///
/// `String`, `Bool`, `Int`, `Double`, `JSONValue`, `JSONObject`, arrays of representable
/// types, and Foundation's `Date` (an ISO 8601 string, to the microsecond), `Decimal` (a
/// string, every digit kept), `UUID` and `URL` conform, so `AttributeKey<Date>("created_at")`
/// reads a Rails or Django timestamp. Conform your own types (an enum with a raw value, say):
///
/// ```swift
/// enum Priority: String, JSONRepresentable {
///     case low, high
///     init?(json: JSONValue) { self.init(rawValue: json.stringValue ?? "") }
///     var json: JSONValue { .string(rawValue) }
/// }
/// ```
public protocol JSONRepresentable {
    /// Creates a value from JSON, or returns `nil` when the JSON has another shape.
    ///
    /// ```swift
    /// Int(json: 3)  // 3
    /// ```
    init?(json: JSONValue)

    /// The value as JSON.
    ///
    /// ```swift
    /// 3.json  // .int(3)
    /// ```
    var json: JSONValue { get }
}

extension String: JSONRepresentable {
    /// The string of a ``JSONValue/string(_:)``.
    ///
    /// ```swift
    /// String(json: "a")  // "a"
    /// ```
    public init?(json: JSONValue) {
        guard let string = json.stringValue else { return nil }
        self = string
    }

    /// The string as JSON.
    ///
    /// ```swift
    /// "a".json  // .string("a")
    /// ```
    public var json: JSONValue { .string(self) }
}

extension Bool: JSONRepresentable {
    /// The Boolean of a ``JSONValue/bool(_:)``.
    ///
    /// ```swift
    /// Bool(json: true)  // true
    /// ```
    public init?(json: JSONValue) {
        guard let bool = json.boolValue else { return nil }
        self = bool
    }

    /// The Boolean as JSON.
    ///
    /// ```swift
    /// true.json  // .bool(true)
    /// ```
    public var json: JSONValue { .bool(self) }
}

extension Int: JSONRepresentable {
    /// The integer of a number with an exact integer value.
    ///
    /// ```swift
    /// Int(json: 2.0)  // 2
    /// ```
    public init?(json: JSONValue) {
        guard let int = json.intValue else { return nil }
        self = int
    }

    /// The integer as JSON.
    ///
    /// ```swift
    /// 2.json  // .int(2)
    /// ```
    public var json: JSONValue { .int(self) }
}

extension Double: JSONRepresentable {
    /// The number as a `Double`.
    ///
    /// ```swift
    /// Double(json: 2)  // 2.0
    /// ```
    public init?(json: JSONValue) {
        guard let double = json.doubleValue else { return nil }
        self = double
    }

    /// The number as JSON.
    ///
    /// ```swift
    /// 2.5.json  // .double(2.5)
    /// ```
    public var json: JSONValue { .double(self) }
}

extension JSONValue: JSONRepresentable {
    /// The value itself.
    ///
    /// ```swift
    /// JSONValue(json: nil)  // .null
    /// ```
    public init?(json: JSONValue) { self = json }

    /// The value itself.
    ///
    /// ```swift
    /// JSONValue.null.json  // .null
    /// ```
    public var json: JSONValue { self }
}

extension JSONObject: JSONRepresentable {
    /// The object of a ``JSONValue/object(_:)``.
    ///
    /// ```swift
    /// JSONObject(json: ["id": 3])?["id"]  // 3
    /// ```
    public init?(json: JSONValue) {
        guard let object = json.objectValue else { return nil }
        self = object
    }

    /// The object as JSON.
    ///
    /// ```swift
    /// JSONObject(["id": 3]).json
    /// ```
    public var json: JSONValue { .object(self) }
}

extension Array: JSONRepresentable where Element: JSONRepresentable {
    /// The elements of an array whose every element converts.
    ///
    /// ```swift
    /// [String](json: ["a", "b"])  // ["a", "b"]
    /// ```
    public init?(json: JSONValue) {
        guard case .array(let values) = json else { return nil }
        var result: [Element] = []
        result.reserveCapacity(values.count)
        for value in values {
            guard let element = Element(json: value) else { return nil }
            result.append(element)
        }
        self = result
    }

    /// The elements as a JSON array.
    ///
    /// ```swift
    /// ["a", "b"].json
    /// ```
    public var json: JSONValue { .array(JSONArray(lazy.map(\.json))) }
}
