import Foundation

/// The `Encoder` behind ``JSONValueEncoder``.
///
/// Containers write into reference-type nodes, because a container handed out earlier (a
/// nested container, a super encoder) may still be written to after its parent moved on;
/// the nodes become a ``JSONValue`` once the value's `encode(to:)` returns.
final class JSONValueEncoding: Encoder {
    /// What has been encoded into this encoder so far.
    enum Storage {
        case empty
        case value(JSONValue)
        case array(ArrayNode)
        case object(ObjectNode)
    }

    /// An array being encoded.
    final class ArrayNode {
        var elements: [Slot] = []
    }

    /// An object being encoded; a key encoded twice keeps its first position.
    final class ObjectNode {
        var members = OrderedStringMap<Slot>()
    }

    /// One element or member of a node.
    enum Slot {
        case value(JSONValue)
        case array(ArrayNode)
        case object(ObjectNode)
        case encoder(JSONValueEncoding)

        var value: JSONValue {
            switch self {
            case .value(let value): return value
            case .array(let node): return node.value
            case .object(let node): return node.value
            // A super encoder that encoded nothing stands for an empty object, as in
            // Foundation's JSONEncoder.
            case .encoder(let encoder): return encoder.encodedValue ?? .object(JSONObject())
            }
        }
    }

    let configuration: JSONValueEncoder
    let codingPath: [any CodingKey]
    var storage: Storage = .empty

    var userInfo: [CodingUserInfoKey: Any] { configuration.userInfo }

    init(configuration: JSONValueEncoder, codingPath: [any CodingKey]) {
        self.configuration = configuration
        self.codingPath = codingPath
    }

    /// The encoded value, or `nil` when nothing was encoded.
    var encodedValue: JSONValue? {
        switch storage {
        case .empty: return nil
        case .value(let value): return value
        case .array(let node): return node.value
        case .object(let node): return node.value
        }
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let node: ObjectNode
        if case .object(let existing) = storage {
            node = existing
        } else {
            node = ObjectNode()
            storage = .object(node)
        }
        return KeyedEncodingContainer(KeyedContainer<Key>(encoder: self, node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let node: ArrayNode
        if case .array(let existing) = storage {
            node = existing
        } else {
            node = ArrayNode()
            storage = .array(node)
        }
        return UnkeyedContainer(encoder: self, node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValueContainer(encoder: self)
    }

    // MARK: - Boxing values

    /// Encodes `value` found at `codingPath` plus `key`, or returns `nil` when it encodes
    /// nothing.
    func boxIfEncoded<T: Encodable>(
        _ value: T,
        at codingPath: [any CodingKey],
        key: (any CodingKey)? = nil
    ) throws -> JSONValue? {
        // Common and special types first, by identity, which is cheaper than casting.
        if T.self == String.self, let string = value as? String { return .string(string) }
        if T.self == Int.self, let int = value as? Int { return .int(int) }
        if T.self == Bool.self, let bool = value as? Bool { return .bool(bool) }
        if T.self == Double.self, let double = value as? Double { return .double(double) }
        if T.self == JSONValue.self, let json = value as? JSONValue { return json }
        if T.self == JSONObject.self, let object = value as? JSONObject { return .object(object) }
        if T.self == Date.self, let date = value as? Date {
            return try box(date, at: path(codingPath, key))
        }
        if T.self == Data.self, let data = value as? Data { return .string(data.base64EncodedString()) }
        if T.self == URL.self, let url = value as? URL { return .string(url.absoluteString) }
        if T.self == Decimal.self, let decimal = value as? Decimal { return Self.box(decimal) }
        if T.self is any EncodableStringKeyedDictionary.Type,
            let dictionary = value as? any EncodableStringKeyedDictionary
        {
            return .object(try dictionary.encodedObject(using: self, at: path(codingPath, key)))
        }
        let encoder = JSONValueEncoding(configuration: configuration, codingPath: path(codingPath, key))
        try value.encode(to: encoder)
        return encoder.encodedValue
    }

    /// Encodes `value` found at `codingPath` plus `key`; a value that encodes nothing
    /// becomes an empty object.
    func box<T: Encodable>(_ value: T, at codingPath: [any CodingKey], key: (any CodingKey)? = nil) throws -> JSONValue
    {
        try boxIfEncoded(value, at: codingPath, key: key) ?? .object(JSONObject())
    }

    /// An integer as ``JSONValue/int(_:)``, or an error when it does not fit in `Int`.
    func box<T: BinaryInteger>(integer value: T, at codingPath: [any CodingKey], key: (any CodingKey)?) throws
        -> JSONValue
    {
        guard let int = Int(exactly: value) else {
            throw EncodingError.invalidValue(
                value,
                EncodingError.Context(
                    codingPath: path(codingPath, key),
                    debugDescription:
                        "\(T.self) value \(value) does not fit in Int, so JSONValue cannot hold it exactly."
                )
            )
        }
        return .int(int)
    }

    /// A float as the double with the same shortest decimal form (`0.1` stays `0.1`).
    static func box(_ float: Float) -> JSONValue {
        guard float.isFinite else { return .double(Double(float)) }
        return .double(Double(float.description) ?? Double(float))
    }

    private static func box(_ decimal: Decimal) -> JSONValue {
        let text = decimal.description
        if let int = Int(text) { return .int(int) }
        return .double(Double(text) ?? NSDecimalNumber(decimal: decimal).doubleValue)
    }

    private func box(_ date: Date, at codingPath: [any CodingKey]) throws -> JSONValue {
        switch configuration.dateEncodingStrategy {
        case .iso8601:
            return .string(ISO8601Timestamp.string(from: date))
        case .secondsSince1970:
            return .double(date.timeIntervalSince1970)
        case .millisecondsSince1970:
            return .double(date.timeIntervalSince1970 * 1000)
        case .deferredToDate:
            let encoder = JSONValueEncoding(configuration: configuration, codingPath: codingPath)
            try date.encode(to: encoder)
            return encoder.encodedValue ?? .object(JSONObject())
        }
    }

    // MARK: - Keys and paths

    /// The object key for `key`, converted by the key encoding strategy.
    func convertedKey(_ key: some CodingKey, in codingPath: [any CodingKey]) -> String {
        switch configuration.keyEncodingStrategy {
        case .useDefaultKeys:
            return key.stringValue
        case .convertToSnakeCase:
            return JSONKeyConversion.snakeCase(key.stringValue)
        case .custom(let convert):
            return convert(codingPath + [key]).stringValue
        }
    }

    private func path(_ codingPath: [any CodingKey], _ key: (any CodingKey)?) -> [any CodingKey] {
        guard let key else { return codingPath }
        return codingPath + [key]
    }
}

extension JSONValueEncoding.ArrayNode {
    var value: JSONValue { .array(JSONArray(elements.lazy.map(\.value))) }
}

extension JSONValueEncoding.ObjectNode {
    var value: JSONValue {
        .object(JSONObject(uniqueKeysWithLastValues: members.entries.lazy.map { ($0.key, $0.value.value) }))
    }
}

// MARK: - Containers

extension JSONValueEncoding {
    struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let encoder: JSONValueEncoding
        let node: ObjectNode
        let codingPath: [any CodingKey]

        private func set(_ value: JSONValue, forKey key: Key) {
            node.members.updateValue(.value(value), forKey: encoder.convertedKey(key, in: codingPath))
        }

        mutating func encodeNil(forKey key: Key) throws { set(.null, forKey: key) }
        mutating func encode(_ value: Bool, forKey key: Key) throws { set(.bool(value), forKey: key) }
        mutating func encode(_ value: String, forKey key: Key) throws { set(.string(value), forKey: key) }
        mutating func encode(_ value: Double, forKey key: Key) throws { set(.double(value), forKey: key) }
        mutating func encode(_ value: Float, forKey key: Key) throws { set(JSONValueEncoding.box(value), forKey: key) }
        mutating func encode(_ value: Int, forKey key: Key) throws { set(.int(value), forKey: key) }
        mutating func encode(_ value: Int8, forKey key: Key) throws { set(.int(Int(value)), forKey: key) }
        mutating func encode(_ value: Int16, forKey key: Key) throws { set(.int(Int(value)), forKey: key) }
        mutating func encode(_ value: Int32, forKey key: Key) throws { set(.int(Int(value)), forKey: key) }
        mutating func encode(_ value: Int64, forKey key: Key) throws { try encodeInteger(value, forKey: key) }
        mutating func encode(_ value: UInt, forKey key: Key) throws { try encodeInteger(value, forKey: key) }
        mutating func encode(_ value: UInt8, forKey key: Key) throws { set(.int(Int(value)), forKey: key) }
        mutating func encode(_ value: UInt16, forKey key: Key) throws { set(.int(Int(value)), forKey: key) }
        mutating func encode(_ value: UInt32, forKey key: Key) throws { try encodeInteger(value, forKey: key) }
        mutating func encode(_ value: UInt64, forKey key: Key) throws { try encodeInteger(value, forKey: key) }

        private func encodeInteger(_ value: some BinaryInteger, forKey key: Key) throws {
            set(try encoder.box(integer: value, at: codingPath, key: key), forKey: key)
        }

        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            set(try encoder.box(value, at: codingPath, key: key), forKey: key)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy keyType: NestedKey.Type,
            forKey key: Key
        ) -> KeyedEncodingContainer<NestedKey> {
            let name = encoder.convertedKey(key, in: codingPath)
            let nested: ObjectNode
            if case .object(let existing)? = node.members[name] {
                nested = existing
            } else {
                nested = ObjectNode()
                node.members.updateValue(.object(nested), forKey: name)
            }
            return KeyedEncodingContainer(
                KeyedContainer<NestedKey>(
                    encoder: encoder,
                    node: nested,
                    codingPath: codingPath + [key]
                )
            )
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            let name = encoder.convertedKey(key, in: codingPath)
            let nested: ArrayNode
            if case .array(let existing)? = node.members[name] {
                nested = existing
            } else {
                nested = ArrayNode()
                node.members.updateValue(.array(nested), forKey: name)
            }
            return UnkeyedContainer(encoder: encoder, node: nested, codingPath: codingPath + [key])
        }

        mutating func superEncoder() -> any Encoder {
            superEncoder(named: JSONCodingKey.super.stringValue, key: JSONCodingKey.super)
        }

        mutating func superEncoder(forKey key: Key) -> any Encoder {
            superEncoder(named: encoder.convertedKey(key, in: codingPath), key: key)
        }

        private func superEncoder(named name: String, key: any CodingKey) -> any Encoder {
            let superEncoder = JSONValueEncoding(configuration: encoder.configuration, codingPath: codingPath + [key])
            node.members.updateValue(.encoder(superEncoder), forKey: name)
            return superEncoder
        }
    }

    struct UnkeyedContainer: UnkeyedEncodingContainer {
        let encoder: JSONValueEncoding
        let node: ArrayNode
        let codingPath: [any CodingKey]

        var count: Int { node.elements.count }

        private func append(_ value: JSONValue) { node.elements.append(.value(value)) }

        mutating func encodeNil() throws { append(.null) }
        mutating func encode(_ value: Bool) throws { append(.bool(value)) }
        mutating func encode(_ value: String) throws { append(.string(value)) }
        mutating func encode(_ value: Double) throws { append(.double(value)) }
        mutating func encode(_ value: Float) throws { append(JSONValueEncoding.box(value)) }
        mutating func encode(_ value: Int) throws { append(.int(value)) }
        mutating func encode(_ value: Int8) throws { append(.int(Int(value))) }
        mutating func encode(_ value: Int16) throws { append(.int(Int(value))) }
        mutating func encode(_ value: Int32) throws { append(.int(Int(value))) }
        mutating func encode(_ value: Int64) throws { try encodeInteger(value) }
        mutating func encode(_ value: UInt) throws { try encodeInteger(value) }
        mutating func encode(_ value: UInt8) throws { append(.int(Int(value))) }
        mutating func encode(_ value: UInt16) throws { append(.int(Int(value))) }
        mutating func encode(_ value: UInt32) throws { try encodeInteger(value) }
        mutating func encode(_ value: UInt64) throws { try encodeInteger(value) }

        private func encodeInteger(_ value: some BinaryInteger) throws {
            append(try encoder.box(integer: value, at: codingPath, key: JSONCodingKey.index(count)))
        }

        mutating func encode<T: Encodable>(_ value: T) throws {
            append(try encoder.box(value, at: codingPath, key: JSONCodingKey.index(count)))
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<
            NestedKey
        > {
            let nested = ObjectNode()
            let path = codingPath + [JSONCodingKey.index(count)]
            node.elements.append(.object(nested))
            return KeyedEncodingContainer(KeyedContainer<NestedKey>(encoder: encoder, node: nested, codingPath: path))
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            let nested = ArrayNode()
            let path = codingPath + [JSONCodingKey.index(count)]
            node.elements.append(.array(nested))
            return UnkeyedContainer(encoder: encoder, node: nested, codingPath: path)
        }

        mutating func superEncoder() -> any Encoder {
            let superEncoder = JSONValueEncoding(
                configuration: encoder.configuration,
                codingPath: codingPath + [JSONCodingKey.index(count)]
            )
            node.elements.append(.encoder(superEncoder))
            return superEncoder
        }
    }

    struct SingleValueContainer: SingleValueEncodingContainer {
        let encoder: JSONValueEncoding

        var codingPath: [any CodingKey] { encoder.codingPath }

        private func store(_ value: JSONValue) { encoder.storage = .value(value) }

        mutating func encodeNil() throws { store(.null) }
        mutating func encode(_ value: Bool) throws { store(.bool(value)) }
        mutating func encode(_ value: String) throws { store(.string(value)) }
        mutating func encode(_ value: Double) throws { store(.double(value)) }
        mutating func encode(_ value: Float) throws { store(JSONValueEncoding.box(value)) }
        mutating func encode(_ value: Int) throws { store(.int(value)) }
        mutating func encode(_ value: Int8) throws { store(.int(Int(value))) }
        mutating func encode(_ value: Int16) throws { store(.int(Int(value))) }
        mutating func encode(_ value: Int32) throws { store(.int(Int(value))) }
        mutating func encode(_ value: Int64) throws { try encodeInteger(value) }
        mutating func encode(_ value: UInt) throws { try encodeInteger(value) }
        mutating func encode(_ value: UInt8) throws { store(.int(Int(value))) }
        mutating func encode(_ value: UInt16) throws { store(.int(Int(value))) }
        mutating func encode(_ value: UInt32) throws { try encodeInteger(value) }
        mutating func encode(_ value: UInt64) throws { try encodeInteger(value) }

        private func encodeInteger(_ value: some BinaryInteger) throws {
            store(try encoder.box(integer: value, at: codingPath, key: nil))
        }

        mutating func encode<T: Encodable>(_ value: T) throws {
            store(try encoder.box(value, at: codingPath))
        }
    }
}

// MARK: - String-keyed dictionaries

/// A `[String: Value]` dictionary, which is encoded with sorted keys that the key encoding
/// strategy leaves alone (as Foundation's `JSONEncoder` leaves them alone).
protocol EncodableStringKeyedDictionary {
    func encodedObject(using encoder: JSONValueEncoding, at codingPath: [any CodingKey]) throws -> JSONObject
}

extension Dictionary: EncodableStringKeyedDictionary where Key == String, Value: Encodable {
    func encodedObject(using encoder: JSONValueEncoding, at codingPath: [any CodingKey]) throws -> JSONObject {
        let members = try sorted { $0.key < $1.key }.map { member in
            (member.key, try encoder.box(member.value, at: codingPath, key: JSONCodingKey.string(member.key)))
        }
        return JSONObject(uniqueKeysWithLastValues: members)
    }
}
