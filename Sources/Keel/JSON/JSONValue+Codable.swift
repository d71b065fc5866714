/// `Codable` support, so that JSON values can be properties of `Codable` types and be read
/// and written by any encoder or decoder.
///
/// With ``JSONValueEncoder`` and ``JSONValueDecoder`` a value is stored and read as it is,
/// keys in order and unconverted. Other coders see the value as the matching container or
/// single value; whether they keep the order of object keys is up to them (Foundation's
/// `JSONDecoder` does not), and their key strategies apply to the keys of objects.
extension JSONValue: Codable {
    /// Decodes whatever JSON value the decoder holds.
    ///
    /// A single value is tried as, in order, `nil`, `Bool`, `Int`, `Double` and `String`,
    /// so `true` stays a Boolean and `1` an integer; otherwise an array, then an object.
    ///
    /// ```swift
    /// let value = try JSONDecoder().decode(JSONValue.self, from: data)
    /// ```
    ///
    /// - Parameter decoder: The decoder to read from.
    /// - Throws: `DecodingError.dataCorrupted` when the decoder holds none of these.
    public init(from decoder: any Decoder) throws {
        if let decoder = decoder as? JSONValueDecoding {
            self = decoder.value
            return
        }
        if let container = try? decoder.singleValueContainer() {
            if container.decodeNil() {
                self = .null
                return
            }
            if let bool = try? container.decode(Bool.self) {
                self = .bool(bool)
                return
            }
            if let int = try? container.decode(Int.self) {
                self = .int(int)
                return
            }
            if let double = try? container.decode(Double.self) {
                self = .double(double)
                return
            }
            if let string = try? container.decode(String.self) {
                self = .string(string)
                return
            }
        }
        if var container = try? decoder.unkeyedContainer() {
            var elements = JSONArray()
            if let count = container.count { elements.reserveCapacity(count) }
            while !container.isAtEnd { elements.append(try container.decode(JSONValue.self)) }
            self = .array(elements)
            return
        }
        if let container = try? decoder.container(keyedBy: JSONCodingKey.self) {
            self = .object(try JSONObject(decodingMembersOf: container))
            return
        }
        throw DecodingError.dataCorrupted(
            DecodingError.Context(
                codingPath: decoder.codingPath,
                debugDescription: "Expected a JSON value: null, a Boolean, a number, a string, an array or an object."
            )
        )
    }

    /// Encodes the value as the matching single value or container.
    ///
    /// ```swift
    /// let data = try JSONEncoder().encode(JSONValue(["a": 1]))
    /// ```
    ///
    /// - Parameter encoder: The encoder to write to.
    /// - Throws: Whatever the encoder throws, such as `EncodingError.invalidValue` for `NaN`
    ///   with Foundation's `JSONEncoder`.
    public func encode(to encoder: any Encoder) throws {
        if let encoder = encoder as? JSONValueEncoding {
            encoder.storage = .value(self)
            return
        }
        switch self {
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .bool(let bool):
            var container = encoder.singleValueContainer()
            try container.encode(bool)
        case .int(let int):
            var container = encoder.singleValueContainer()
            try container.encode(int)
        case .double(let double):
            var container = encoder.singleValueContainer()
            try container.encode(double)
        case .string(let string):
            var container = encoder.singleValueContainer()
            try container.encode(string)
        case .array(let array):
            var container = encoder.unkeyedContainer()
            for element in array { try container.encode(element) }
        case .object(let object):
            try object.encode(to: encoder)
        }
    }
}

extension JSONObject: Codable {
    /// Decodes an object, keeping its keys in the order the decoder lists them.
    ///
    /// ```swift
    /// let attributes = try JSONDecoder().decode(JSONObject.self, from: data)
    /// ```
    ///
    /// - Parameter decoder: The decoder to read from.
    /// - Throws: `DecodingError.typeMismatch` when the decoder does not hold an object.
    public init(from decoder: any Decoder) throws {
        if let decoder = decoder as? JSONValueDecoding {
            guard case .object(let object) = decoder.value else {
                throw JSONValueDecoding.mismatchOrNotFound(
                    JSONObject.self,
                    found: decoder.value,
                    at: decoder.codingPath
                )
            }
            self = object
            return
        }
        try self.init(decodingMembersOf: decoder.container(keyedBy: JSONCodingKey.self))
    }

    /// Decodes every member of a keyed container, in the order of its `allKeys`.
    fileprivate init(decodingMembersOf container: KeyedDecodingContainer<JSONCodingKey>) throws {
        self.init()
        for key in container.allKeys {
            self[key.stringValue] = try container.decode(JSONValue.self, forKey: key)
        }
    }

    /// Encodes the object as a keyed container, keys in order.
    ///
    /// ```swift
    /// let data = try JSONEncoder().encode(JSONObject(["a": 1]))
    /// ```
    ///
    /// - Parameter encoder: The encoder to write to.
    /// - Throws: Whatever the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        if let encoder = encoder as? JSONValueEncoding {
            encoder.storage = .value(.object(self))
            return
        }
        var container = encoder.container(keyedBy: JSONCodingKey.self)
        for (key, value) in self {
            try container.encode(value, forKey: .string(key))
        }
    }
}
