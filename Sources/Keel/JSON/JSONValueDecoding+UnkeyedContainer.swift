import Foundation

extension JSONValueDecoding {
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
}
