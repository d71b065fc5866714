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
