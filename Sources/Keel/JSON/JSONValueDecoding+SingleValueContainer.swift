import Foundation

extension JSONValueDecoding {
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
