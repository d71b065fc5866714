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

extension JSONValueDecoder {
    /// Whether object keys are matched as they are.
    var usesDefaultKeys: Bool {
        if case .useDefaultKeys = keyDecodingStrategy { return true }
        return false
    }
}
