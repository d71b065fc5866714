extension WireFormat {
    // MARK: - Encoding

    /// The body that carries attributes (app names) to the server for a model class: the sent
    /// roles only, wire names, Drupal items, the root key, or a JSON:API document.
    ///
    /// This is how every save builds its body, after ``Model/toJSON(options:)``.
    ///
    /// ```swift
    /// WireFormat.rails.encode(["title": "Milk", "dueAt": "2026-12-01"], for: Note.self)
    /// // ["note": ["title": "Milk", "due_at": "2026-12-01"]]
    /// ```
    ///
    /// - Parameters:
    ///   - attributes: The attributes, in app names; relations as their encoding gives them.
    ///   - modelType: The model class, for the root key and the JSON:API type.
    /// - Returns: The request body.
    public func encode(_ attributes: Attributes, for modelType: Model.Type) -> JSONValue {
        requestBody(attributes, for: modelType)
    }

    /// The body a model's save sends with a method, in this format (NSRails'
    /// `remoteDictionaryRepresentationWrapped:`).
    ///
    /// `.create` and `.update` carry the whole ``Model/toJSON(options:)`` with the relations
    /// encoded as they declare; `.patch` carries the ``Model/unsavedChanges`` and the
    /// ``AttributeRole/alwaysSent`` attributes (everything, for a new model, as a save of one
    /// does). `.read` and `.delete` carry no body. For the whole request, with the URL and
    /// the method a save picks, see ``Model/saveRequest(_:patch:options:)``.
    ///
    /// ```swift
    /// note["title"] = "Oat milk"
    /// WireFormat.rails.encode(note, for: .patch)   // ["note": ["title": "Oat milk"]]
    /// WireFormat.rails.encode(note, for: .update)  // the whole note, wrapped
    /// ```
    ///
    /// - Parameters:
    ///   - model: The model.
    ///   - method: The method of the request that would carry the body.
    /// - Returns: The body, or `nil` for `.read` and `.delete`.
    public func encode(_ model: Model, for method: SyncMethod) -> JSONValue? {
        switch method {
        case .read, .delete: return nil
        case .create, .update, .patch:
            return model.saveBody(nil, patch: method == .patch, format: self, options: ChangeOptions())
        }
    }

    // MARK: - Decoding

    /// The attributes (app names) of one record as the server sends it for a model class:
    /// the envelope and root key removed, wire names mapped, sent-only roles dropped, Drupal
    /// items unwrapped, a JSON:API resource read with its `included` records.
    ///
    /// This is what ``Model/fetch(options:)`` does with an answer before
    /// ``Model/parse(_:options:)``; the initializer and ``Model/set(_:silent:validate:options:)-(Attributes,_,_,_)``
    /// do the same with `parse: true`. The result is in app form: give it to a model without
    /// `parse`.
    ///
    /// ```swift
    /// let attributes = try WireFormat.rails.decode(["note": ["id": 1, "due_at": "2026-12-01"]], for: Note.self)
    /// // ["id": 1, "dueAt": "2026-12-01"]
    /// ```
    ///
    /// - Parameters:
    ///   - body: The record, as the server sends it.
    ///   - modelType: The model class, for the root key and the relations.
    /// - Returns: The record's attributes.
    /// - Throws: ``SyncError/unmappableResponse(keyPath:reason:)`` when the body does not fit
    ///   the format (a required root key is missing, a Drupal field is not a list of items, the
    ///   record is not an object).
    public func decode(_ body: JSONValue, for modelType: Model.Type) throws(SyncError) -> Attributes {
        let record = try record(from: body, for: modelType)
        guard let attributes = record.objectValue else {
            throw .unmappableResponse(
                keyPath: recordKeyPath ?? "",
                reason: "a record is an object, not \(record.debugDescription.prefix(100))"
            )
        }
        return attributes
    }

    /// The records (app names) of a list as the server sends it for a model class: the list
    /// found in its envelope (``listKeyPath``, the plural root key, a JSON:API document), then
    /// each record read as ``decode(_:for:)`` reads one.
    ///
    /// This is what ``Collection/fetch(reset:options:)`` does with an answer before
    /// ``Collection/parse(_:options:)``; ``Collection/set(parsing:add:remove:merge:silent:options:)``
    /// does the same.
    ///
    /// ```swift
    /// let records = try WireFormat.djangoREST.decodeList(["count": 1, "results": [["id": 1, "due_at": "x"]]], for: Note.self)
    /// // [["id": 1, "dueAt": "x"]]
    /// ```
    ///
    /// - Parameters:
    ///   - body: The list, as the server sends it.
    ///   - modelType: The model class, for the root keys and the relations.
    /// - Returns: The records' attributes, in order.
    /// - Throws: ``SyncError/unmappableResponse(keyPath:reason:)`` when the body does not fit
    ///   the format or is not a list of records.
    public func decodeList(_ body: JSONValue, for modelType: Model.Type) throws(SyncError) -> [Attributes] {
        let records = try records(from: body, for: modelType)
        guard let list = records.arrayValue else {
            throw .unmappableResponse(
                keyPath: listKeyPath ?? "",
                reason: "the response is not a list of records: \(records.debugDescription.prefix(100))"
            )
        }
        var result: [Attributes] = []
        result.reserveCapacity(list.count)
        for index in list.indices {
            guard let attributes = list[index].objectValue else {
                throw .unmappableResponse(
                    keyPath: "[\(index)]",
                    reason: "a record is an object, not \(list[index].debugDescription.prefix(100))"
                )
            }
            result.append(attributes)
        }
        return result
    }
}
