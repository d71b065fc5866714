import Foundation

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
}
