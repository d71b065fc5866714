extension Model {
    /// Reads the attributes as a `Decodable` value.
    ///
    /// ```swift
    /// struct NoteFields: Codable { var title: String; var done: Bool }
    /// let fields = try note.decode(NoteFields.self)
    /// ```
    ///
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - decoder: The decoder, for key and date strategies.
    /// - Returns: The decoded value.
    /// - Throws: `DecodingError` when the attributes do not fit the type.
    public func decode<T: Decodable>(_ type: T.Type = T.self, decoder: JSONValueDecoder = JSONValueDecoder()) throws
        -> T
    {
        try decoder.decode(type, from: .object(attributes))
    }

    /// Sets the attributes from an `Encodable` value, with the usual events and validation.
    ///
    /// The value must encode to an object; its keys become attributes (other attributes
    /// are left alone).
    ///
    /// ```swift
    /// try note.set(encoding: NoteFields(title: "Groceries", done: false))
    /// ```
    ///
    /// - Parameters:
    ///   - value: The value to encode.
    ///   - encoder: The encoder, for key and date strategies.
    ///   - silent: Suppresses events and error reporting.
    ///   - validate: `false` skips validation for this call.
    ///   - options: Further options.
    /// - Returns: `false` when validation rejected the change.
    /// - Throws: `EncodingError` when the value cannot be encoded or is not an object.
    @discardableResult
    public func set<T: Encodable>(
        encoding value: T,
        encoder: JSONValueEncoder = JSONValueEncoder(),
        silent: Bool = false,
        validate: Bool? = nil,
        options: ChangeOptions = ChangeOptions()
    ) throws -> Bool {
        let encoded = try encoder.encode(value)
        guard let attributes = encoded.objectValue else {
            throw EncodingError.invalidValue(
                value,
                EncodingError.Context(codingPath: [], debugDescription: "\(T.self) does not encode to a JSON object")
            )
        }
        return set(attributes, silent: silent, validate: validate, options: options)
    }
}
