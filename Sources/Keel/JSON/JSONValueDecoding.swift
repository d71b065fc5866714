import Foundation

/// The `Decoder` behind ``JSONValueDecoder``: reads one ``JSONValue`` at a coding path.
final class JSONValueDecoding: Decoder {
    let value: JSONValue
    let codingPath: [any CodingKey]
    let configuration: JSONValueDecoder

    var userInfo: [CodingUserInfoKey: Any] { configuration.userInfo }

    init(value: JSONValue, codingPath: [any CodingKey], configuration: JSONValueDecoder) {
        self.value = value
        self.codingPath = codingPath
        self.configuration = configuration
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let object) = value else {
            if value.isNull {
                throw DecodingError.valueNotFound(
                    KeyedDecodingContainer<Key>.self,
                    DecodingError.Context(
                        codingPath: codingPath,
                        debugDescription: "Cannot get keyed decoding container -- found null value instead"
                    )
                )
            }
            throw Self.typeMismatch([String: Any].self, found: value, at: codingPath)
        }
        return KeyedDecodingContainer(
            KeyedContainer<Key>(
                decoder: self,
                object: convertingKeys(of: object),
                codingPath: codingPath
            )
        )
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else {
            if value.isNull {
                throw DecodingError.valueNotFound(
                    (any UnkeyedDecodingContainer).self,
                    DecodingError.Context(
                        codingPath: codingPath,
                        debugDescription: "Cannot get unkeyed decoding container -- found null value instead"
                    )
                )
            }
            throw Self.typeMismatch([Any].self, found: value, at: codingPath)
        }
        return UnkeyedContainer(decoder: self, elements: elements, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleValueContainer(decoder: self)
    }

    /// A decoder for a value nested in this one.
    func nested(_ value: JSONValue, at codingPath: [any CodingKey]) -> JSONValueDecoding {
        JSONValueDecoding(value: value, codingPath: codingPath, configuration: configuration)
    }

    // MARK: - Keys

    /// The object with its keys converted by the key decoding strategy; when two keys
    /// convert to the same key, the first wins, as in Foundation's `JSONDecoder`.
    private func convertingKeys(of object: JSONObject) -> JSONObject {
        let convert: (String) -> String
        switch configuration.keyDecodingStrategy {
        case .useDefaultKeys:
            return object
        case .convertFromSnakeCase:
            convert = JSONKeyConversion.camelCase
        case .custom(let converter):
            convert = { [codingPath] key in converter(codingPath + [JSONCodingKey.string(key)]).stringValue }
        }
        var converted = JSONObject()
        for (key, value) in object {
            let newKey = convert(key)
            if !converted.contains(newKey) { converted[newKey] = value }
        }
        return converted
    }

    /// How a missing key is named in errors: `CodingKeys(stringValue: "createdAt", …)
    /// ("createdAt")`, plus the snake-case form that was looked for, if any.
    func describe(_ key: some CodingKey) -> String {
        var description = "\(key) (\"\(key.stringValue)\")"
        if case .convertFromSnakeCase = configuration.keyDecodingStrategy {
            let snakeCase = JSONKeyConversion.snakeCase(key.stringValue)
            if snakeCase != key.stringValue { description += ", converted to \(snakeCase)" }
        }
        return description
    }

    // MARK: - Unboxing values

    /// Decodes a `T` from `value`, found at `codingPath` plus `key`.
    func unbox<T: Decodable>(
        _ value: JSONValue,
        as type: T.Type,
        at codingPath: [any CodingKey],
        key: (any CodingKey)? = nil
    ) throws -> T {
        // Common and special types first, by identity, which is cheaper than casting.
        if T.self == String.self, let string = try unboxString(value, at: codingPath, key: key) as? T {
            return string
        }
        if T.self == Int.self, let int = try unboxInteger(value, as: Int.self, at: codingPath, key: key) as? T {
            return int
        }
        if T.self == Bool.self, let bool = try unboxBool(value, at: codingPath, key: key) as? T { return bool }
        if T.self == Double.self,
            let double = try unboxFloatingPoint(value, as: Double.self, at: codingPath, key: key) as? T
        {
            return double
        }
        if T.self == JSONValue.self, let json = value as? T { return json }
        if T.self == JSONObject.self {
            guard case .object(let object) = value else {
                throw Self.mismatchOrNotFound(T.self, found: value, at: Self.path(codingPath, key))
            }
            if let object = object as? T { return object }
        }
        if T.self == Date.self, let date = try unboxDate(value, at: codingPath, key: key) as? T { return date }
        if T.self == Data.self, let data = try unboxData(value, at: codingPath, key: key) as? T { return data }
        if T.self == URL.self, let url = try unboxURL(value, at: codingPath, key: key) as? T { return url }
        if T.self == Decimal.self, let decimal = try unboxDecimal(value, at: codingPath, key: key) as? T {
            return decimal
        }
        if case .array(let elements) = value, let array = try unboxArray(elements, as: T.self, at: codingPath, key: key)
        {
            return array
        }
        // With converted keys, a dictionary's own keys must be spared the conversion.
        if !configuration.usesDefaultKeys, let dictionaryType = T.self as? any DecodableStringKeyedDictionary.Type {
            let path = Self.path(codingPath, key)
            guard case .object(let object) = value else {
                throw Self.mismatchOrNotFound(T.self, found: value, at: path)
            }
            if let dictionary = try dictionaryType.init(decodingMembersOf: object, using: self, at: path) as? T {
                return dictionary
            }
        }
        return try T(from: nested(value, at: Self.path(codingPath, key)))
    }

    /// `elements` as a `T` when `T` is an array, without the nested `Decoder` and unkeyed
    /// container that `Array.init(from:)` would ask for; `nil` when `T` is not an array.
    private func unboxArray<T: Decodable>(
        _ elements: JSONArray,
        as type: T.Type,
        at codingPath: [any CodingKey],
        key: (any CodingKey)?
    ) throws -> T? {
        if T.self == [Double].self {
            return try unboxScalars(elements, at: codingPath, key: key, read: { $0.doubleValue }) as? T
        }
        if T.self == [Int].self {
            return try unboxScalars(elements, at: codingPath, key: key, read: { $0.intValue }) as? T
        }
        if T.self == [String].self {
            return try unboxScalars(elements, at: codingPath, key: key, read: { $0.stringValue }) as? T
        }
        if T.self == [Bool].self {
            return try unboxScalars(elements, at: codingPath, key: key, read: { $0.boolValue }) as? T
        }
        guard let arrayType = T.self as? any DecodableJSONArray.Type else { return nil }
        return try arrayType.init(decodingElementsOf: elements, using: self, at: Self.path(codingPath, key)) as? T
    }

    /// The elements of an array of numbers, strings or Booleans: each is taken by `read` when
    /// it is of the expected kind, and otherwise goes through ``unbox(_:as:at:key:)`` at its
    /// full coding path, which converts it or throws what `JSONDecoder` would.
    private func unboxScalars<S: Decodable>(
        _ elements: JSONArray,
        at codingPath: [any CodingKey],
        key: (any CodingKey)?,
        read: (JSONValue) -> S?
    ) throws -> [S] {
        var scalars: [S] = []
        scalars.reserveCapacity(elements.count)
        for index in elements.indices {
            if let scalar = read(elements[index]) {
                scalars.append(scalar)
            } else {
                let path = Self.path(codingPath, key)
                scalars.append(try unbox(elements[index], as: S.self, at: path, key: JSONCodingKey.index(index)))
            }
        }
        return scalars
    }

    func unboxString(_ value: JSONValue, at codingPath: [any CodingKey], key: (any CodingKey)?) throws -> String {
        guard case .string(let string) = value else {
            throw Self.mismatchOrNotFound(String.self, found: value, at: Self.path(codingPath, key))
        }
        return string
    }

    func unboxBool(_ value: JSONValue, at codingPath: [any CodingKey], key: (any CodingKey)?) throws -> Bool {
        guard case .bool(let bool) = value else {
            throw Self.mismatchOrNotFound(Bool.self, found: value, at: Self.path(codingPath, key))
        }
        return bool
    }

    /// An integer of type `T`, from an ``JSONValue/int(_:)`` or an integral
    /// ``JSONValue/double(_:)`` within `T`'s range.
    func unboxInteger<T: FixedWidthInteger>(
        _ value: JSONValue,
        as type: T.Type,
        at codingPath: [any CodingKey],
        key: (any CodingKey)?
    ) throws -> T {
        switch value {
        case .int(let int):
            if let result = T(exactly: int) { return result }
        case .double(let double):
            if let result = T(exactly: double) { return result }
        default:
            throw Self.mismatchOrNotFound(T.self, found: value, at: Self.path(codingPath, key))
        }
        throw DecodingError.dataCorrupted(
            DecodingError.Context(
                codingPath: Self.path(codingPath, key),
                debugDescription: "Number \(value) does not fit in \(T.self)."
            )
        )
    }

    /// A floating-point number of type `T`, from any number whose magnitude `T` can hold.
    func unboxFloatingPoint<T: BinaryFloatingPoint>(
        _ value: JSONValue,
        as type: T.Type,
        at codingPath: [any CodingKey],
        key: (any CodingKey)?
    ) throws -> T {
        switch value {
        case .int(let int):
            return T(int)
        case .double(let double):
            let result = T(double)
            if result.isInfinite, double.isFinite {
                throw DecodingError.dataCorrupted(
                    DecodingError.Context(
                        codingPath: Self.path(codingPath, key),
                        debugDescription: "Number \(value) does not fit in \(T.self)."
                    )
                )
            }
            return result
        default:
            throw Self.mismatchOrNotFound(T.self, found: value, at: Self.path(codingPath, key))
        }
    }

    private func unboxDate(_ value: JSONValue, at codingPath: [any CodingKey], key: (any CodingKey)?) throws -> Date {
        switch configuration.dateDecodingStrategy {
        case .iso8601:
            let string = try unboxString(value, at: codingPath, key: key)
            guard let date = ISO8601Timestamp.date(from: string) else {
                throw DecodingError.dataCorrupted(
                    DecodingError.Context(
                        codingPath: Self.path(codingPath, key),
                        debugDescription: "Expected date string to be ISO8601-formatted."
                    )
                )
            }
            return date
        case .secondsSince1970:
            return Date(timeIntervalSince1970: try unboxFloatingPoint(value, as: Double.self, at: codingPath, key: key))
        case .millisecondsSince1970:
            let milliseconds = try unboxFloatingPoint(value, as: Double.self, at: codingPath, key: key)
            return Date(timeIntervalSince1970: milliseconds / 1000)
        case .deferredToDate:
            return try Date(from: nested(value, at: Self.path(codingPath, key)))
        }
    }

    private func unboxData(_ value: JSONValue, at codingPath: [any CodingKey], key: (any CodingKey)?) throws -> Data {
        let string = try unboxString(value, at: codingPath, key: key)
        guard let data = Data(base64Encoded: string) else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: Self.path(codingPath, key),
                    debugDescription: "Encountered Data is not valid Base64."
                )
            )
        }
        return data
    }

    private func unboxURL(_ value: JSONValue, at codingPath: [any CodingKey], key: (any CodingKey)?) throws -> URL {
        let string = try unboxString(value, at: codingPath, key: key)
        guard let url = URL(string: string) else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: Self.path(codingPath, key),
                    debugDescription: "Invalid URL string."
                )
            )
        }
        return url
    }

    private func unboxDecimal(_ value: JSONValue, at codingPath: [any CodingKey], key: (any CodingKey)?) throws
        -> Decimal
    {
        switch value {
        case .int(let int):
            return Decimal(int)
        case .double(let double):
            // The shortest decimal form, so that 0.1 becomes 0.1 and not 0.1000000000000000055…
            guard double.isFinite, let decimal = Decimal(string: double.description) else {
                throw DecodingError.dataCorrupted(
                    DecodingError.Context(
                        codingPath: Self.path(codingPath, key),
                        debugDescription: "Number \(value) does not fit in Decimal."
                    )
                )
            }
            return decimal
        default:
            throw Self.mismatchOrNotFound(Decimal.self, found: value, at: Self.path(codingPath, key))
        }
    }

    // MARK: - Errors

    static func path(_ codingPath: [any CodingKey], _ key: (any CodingKey)?) -> [any CodingKey] {
        guard let key else { return codingPath }
        return codingPath + [key]
    }

    /// `valueNotFound` when `value` is `null`, `typeMismatch` otherwise.
    static func mismatchOrNotFound(_ type: Any.Type, found value: JSONValue, at codingPath: [any CodingKey])
        -> DecodingError
    {
        guard !value.isNull else {
            return DecodingError.valueNotFound(
                type,
                DecodingError.Context(
                    codingPath: codingPath,
                    debugDescription: "Cannot get value of type \(type) -- found null value instead"
                )
            )
        }
        return typeMismatch(type, found: value, at: codingPath)
    }

    static func typeMismatch(_ type: Any.Type, found value: JSONValue, at codingPath: [any CodingKey]) -> DecodingError
    {
        let found: String
        switch value {
        case .null: found = "null"
        case .bool: found = "a Boolean"
        case .int, .double: found = "a number"
        case .string: found = "a string"
        case .array: found = "an array"
        case .object: found = "an object"
        }
        return DecodingError.typeMismatch(
            type,
            DecodingError.Context(
                codingPath: codingPath,
                debugDescription: "Expected to decode \(type) but found \(found) instead."
            )
        )
    }
}

// MARK: - Containers

extension JSONValueDecoding {
    struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let decoder: JSONValueDecoding
        /// The object, its keys converted by the key decoding strategy.
        let object: JSONObject
        let codingPath: [any CodingKey]

        var allKeys: [Key] { object.keys.compactMap { Key(stringValue: $0) } }

        func contains(_ key: Key) -> Bool { object.contains(key.stringValue) }

        private func value(for key: Key) throws -> JSONValue {
            guard let value = object[key.stringValue] else {
                throw DecodingError.keyNotFound(
                    key,
                    DecodingError.Context(
                        codingPath: codingPath,
                        debugDescription: "No value associated with key \(decoder.describe(key))."
                    )
                )
            }
            return value
        }

        /// The value for `key`, or `nil` when the key is missing or `null`.
        private func presentValue(for key: Key) -> JSONValue? {
            guard let value = object[key.stringValue], !value.isNull else { return nil }
            return value
        }

        func decodeNil(forKey key: Key) throws -> Bool { try value(for: key).isNull }

        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
            try decoder.unboxBool(value(for: key), at: codingPath, key: key)
        }

        func decode(_ type: String.Type, forKey key: Key) throws -> String {
            try decoder.unboxString(value(for: key), at: codingPath, key: key)
        }

        func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decodeFloatingPoint(key) }
        func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decodeFloatingPoint(key) }
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decodeInteger(key) }
        func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decodeInteger(key) }
        func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decodeInteger(key) }
        func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decodeInteger(key) }
        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decodeInteger(key) }
        func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decodeInteger(key) }
        func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decodeInteger(key) }
        func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decodeInteger(key) }
        func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decodeInteger(key) }
        func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decodeInteger(key) }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            try decoder.unbox(value(for: key), as: T.self, at: codingPath, key: key)
        }

        private func decodeInteger<T: FixedWidthInteger>(_ key: Key) throws -> T {
            try decoder.unboxInteger(value(for: key), as: T.self, at: codingPath, key: key)
        }

        private func decodeFloatingPoint<T: BinaryFloatingPoint>(_ key: Key) throws -> T {
            try decoder.unboxFloatingPoint(value(for: key), as: T.self, at: codingPath, key: key)
        }

        // One lookup instead of the three of the default `decodeIfPresent`.

        func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
            try presentValue(for: key).map { try decoder.unboxBool($0, at: codingPath, key: key) }
        }

        func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
            try presentValue(for: key).map { try decoder.unboxString($0, at: codingPath, key: key) }
        }

        func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
            try presentValue(for: key).map { try decoder.unboxFloatingPoint($0, as: type, at: codingPath, key: key) }
        }

        func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
            try presentValue(for: key).map { try decoder.unboxInteger($0, as: type, at: codingPath, key: key) }
        }

        func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
            try presentValue(for: key).map { try decoder.unbox($0, as: type, at: codingPath, key: key) }
        }

        func nestedContainer<NestedKey: CodingKey>(
            keyedBy type: NestedKey.Type,
            forKey key: Key
        ) throws -> KeyedDecodingContainer<NestedKey> {
            try decoder.nested(value(for: key), at: codingPath + [key]).container(keyedBy: type)
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            try decoder.nested(value(for: key), at: codingPath + [key]).unkeyedContainer()
        }

        func superDecoder() throws -> any Decoder {
            decoder.nested(object[JSONCodingKey.super.stringValue] ?? .null, at: codingPath + [JSONCodingKey.super])
        }

        func superDecoder(forKey key: Key) throws -> any Decoder {
            decoder.nested(object[key.stringValue] ?? .null, at: codingPath + [key])
        }
    }

    struct UnkeyedContainer: UnkeyedDecodingContainer {
        let decoder: JSONValueDecoding
        let elements: JSONArray
        let codingPath: [any CodingKey]
        private(set) var currentIndex = 0

        init(decoder: JSONValueDecoding, elements: JSONArray, codingPath: [any CodingKey]) {
            self.decoder = decoder
            self.elements = elements
            self.codingPath = codingPath
        }

        var count: Int? { elements.count }

        var isAtEnd: Bool { currentIndex >= elements.count }

        private var currentKey: JSONCodingKey { .index(currentIndex) }

        /// The current element, or an error naming what was expected when there is none.
        private func current(_ type: Any.Type, _ message: String = "Unkeyed container is at end.") throws -> JSONValue {
            guard currentIndex < elements.count else {
                throw DecodingError.valueNotFound(
                    type,
                    DecodingError.Context(
                        codingPath: codingPath + [currentKey],
                        debugDescription: message
                    )
                )
            }
            return elements[currentIndex]
        }

        mutating func decodeNil() throws -> Bool {
            guard try current(Never?.self).isNull else { return false }
            currentIndex += 1
            return true
        }

        mutating func decode(_ type: Bool.Type) throws -> Bool {
            let result = try decoder.unboxBool(current(type), at: codingPath, key: currentKey)
            currentIndex += 1
            return result
        }

        mutating func decode(_ type: String.Type) throws -> String {
            let result = try decoder.unboxString(current(type), at: codingPath, key: currentKey)
            currentIndex += 1
            return result
        }

        mutating func decode(_ type: Double.Type) throws -> Double { try decodeFloatingPoint() }
        mutating func decode(_ type: Float.Type) throws -> Float { try decodeFloatingPoint() }
        mutating func decode(_ type: Int.Type) throws -> Int { try decodeInteger() }
        mutating func decode(_ type: Int8.Type) throws -> Int8 { try decodeInteger() }
        mutating func decode(_ type: Int16.Type) throws -> Int16 { try decodeInteger() }
        mutating func decode(_ type: Int32.Type) throws -> Int32 { try decodeInteger() }
        mutating func decode(_ type: Int64.Type) throws -> Int64 { try decodeInteger() }
        mutating func decode(_ type: UInt.Type) throws -> UInt { try decodeInteger() }
        mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try decodeInteger() }
        mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try decodeInteger() }
        mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try decodeInteger() }
        mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try decodeInteger() }

        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
            let result = try decoder.unbox(current(type), as: type, at: codingPath, key: currentKey)
            currentIndex += 1
            return result
        }

        private mutating func decodeInteger<T: FixedWidthInteger>() throws -> T {
            let result = try decoder.unboxInteger(current(T.self), as: T.self, at: codingPath, key: currentKey)
            currentIndex += 1
            return result
        }

        private mutating func decodeFloatingPoint<T: BinaryFloatingPoint>() throws -> T {
            let result = try decoder.unboxFloatingPoint(current(T.self), as: T.self, at: codingPath, key: currentKey)
            currentIndex += 1
            return result
        }

        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy type: NestedKey.Type
        ) throws -> KeyedDecodingContainer<NestedKey> {
            let value = try current(
                KeyedDecodingContainer<NestedKey>.self,
                "Cannot get nested keyed container -- unkeyed container is at end."
            )
            let container = try decoder.nested(value, at: codingPath + [currentKey]).container(keyedBy: type)
            currentIndex += 1
            return container
        }

        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
            let value = try current(
                (any UnkeyedDecodingContainer).self,
                "Cannot get nested unkeyed container -- unkeyed container is at end."
            )
            let container = try decoder.nested(value, at: codingPath + [currentKey]).unkeyedContainer()
            currentIndex += 1
            return container
        }

        mutating func superDecoder() throws -> any Decoder {
            let value = try current((any Decoder).self, "Cannot get superDecoder() -- unkeyed container is at end.")
            let superDecoder = decoder.nested(value, at: codingPath + [currentKey])
            currentIndex += 1
            return superDecoder
        }
    }

    struct SingleValueContainer: SingleValueDecodingContainer {
        let decoder: JSONValueDecoding

        var codingPath: [any CodingKey] { decoder.codingPath }

        func decodeNil() -> Bool { decoder.value.isNull }

        func decode(_ type: Bool.Type) throws -> Bool {
            try decoder.unboxBool(decoder.value, at: codingPath, key: nil)
        }

        func decode(_ type: String.Type) throws -> String {
            try decoder.unboxString(decoder.value, at: codingPath, key: nil)
        }

        func decode(_ type: Double.Type) throws -> Double { try decodeFloatingPoint() }
        func decode(_ type: Float.Type) throws -> Float { try decodeFloatingPoint() }
        func decode(_ type: Int.Type) throws -> Int { try decodeInteger() }
        func decode(_ type: Int8.Type) throws -> Int8 { try decodeInteger() }
        func decode(_ type: Int16.Type) throws -> Int16 { try decodeInteger() }
        func decode(_ type: Int32.Type) throws -> Int32 { try decodeInteger() }
        func decode(_ type: Int64.Type) throws -> Int64 { try decodeInteger() }
        func decode(_ type: UInt.Type) throws -> UInt { try decodeInteger() }
        func decode(_ type: UInt8.Type) throws -> UInt8 { try decodeInteger() }
        func decode(_ type: UInt16.Type) throws -> UInt16 { try decodeInteger() }
        func decode(_ type: UInt32.Type) throws -> UInt32 { try decodeInteger() }
        func decode(_ type: UInt64.Type) throws -> UInt64 { try decodeInteger() }

        func decode<T: Decodable>(_ type: T.Type) throws -> T {
            try decoder.unbox(decoder.value, as: type, at: codingPath)
        }

        private func decodeInteger<T: FixedWidthInteger>() throws -> T {
            try decoder.unboxInteger(decoder.value, as: T.self, at: codingPath, key: nil)
        }

        private func decodeFloatingPoint<T: BinaryFloatingPoint>() throws -> T {
            try decoder.unboxFloatingPoint(decoder.value, as: T.self, at: codingPath, key: nil)
        }
    }
}

// MARK: - String-keyed dictionaries

/// A `[String: Value]` dictionary, which is decoded with its keys as they are, whatever
/// the key decoding strategy (as Foundation's `JSONDecoder` does).
protocol DecodableStringKeyedDictionary {
    init(decodingMembersOf object: JSONObject, using decoder: JSONValueDecoding, at codingPath: [any CodingKey]) throws
}

extension Dictionary: DecodableStringKeyedDictionary where Key == String, Value: Decodable {
    init(decodingMembersOf object: JSONObject, using decoder: JSONValueDecoding, at codingPath: [any CodingKey]) throws
    {
        self.init(minimumCapacity: object.count)
        for (key, value) in object {
            self[key] = try decoder.unbox(value, as: Value.self, at: codingPath, key: JSONCodingKey.string(key))
        }
    }
}

// MARK: - Arrays

/// An array decoded element by element straight from a ``JSONArray``.
///
/// `Array.init(from:)` would ask for a nested `Decoder` and an unkeyed container per array,
/// which for nested arrays (a GeoJSON `[[[Double]]]`) costs more than the numbers; the
/// elements, errors and coding paths are the same.
protocol DecodableJSONArray {
    init(decodingElementsOf elements: JSONArray, using decoder: JSONValueDecoding, at codingPath: [any CodingKey])
        throws
}

extension Array: DecodableJSONArray where Element: Decodable {
    init(decodingElementsOf elements: JSONArray, using decoder: JSONValueDecoding, at codingPath: [any CodingKey])
        throws
    {
        self.init()
        reserveCapacity(elements.count)
        for index in elements.indices {
            append(
                try decoder.unbox(elements[index], as: Element.self, at: codingPath, key: JSONCodingKey.index(index))
            )
        }
    }
}

extension JSONValueDecoder {
    /// Whether object keys are matched as they are.
    var usesDefaultKeys: Bool {
        if case .useDefaultKeys = keyDecodingStrategy { return true }
        return false
    }
}
