extension WireFormat {
    // MARK: - Requests

    /// The body that carries a record's attributes (app names) to the server: the sent roles
    /// only, wire names, Drupal items, then the root key, and the ``bodyParameters`` beside
    /// them.
    func requestBody(_ attributes: Attributes, for modelType: Model.Type) -> JSONValue {
        requestBody(EncodedRecord(attributes: attributes), for: modelType)
    }

    /// ``requestBody(_:for:)`` for a model's record whose relations are encoded already: their
    /// entries go in under their wire names, with their values as the related classes' formats
    /// made them.
    func requestBody(_ record: EncodedRecord, for modelType: Model.Type) -> JSONValue {
        let body = recordBody(record, for: modelType)
        guard !bodyParameters.isEmpty, var object = body.objectValue else { return body }
        for (key, value) in bodyParameters where !object.contains(key) { object[key] = value }
        return .object(object)
    }

    private func recordBody(_ record: EncodedRecord, for modelType: Model.Type) -> JSONValue {
        guard !isPlain else {
            return .object(record.nested.isEmpty ? record.attributes : record.attributes.merging(record.nested))
        }
        let attributes = wireDates(record.attributes)
        if let jsonAPIFormat {
            return JSONAPIWriter(format: self, jsonAPI: jsonAPIFormat).document(
                attributes.merging(record.nested),
                for: modelType
            )
        }
        var sent = attributes
        if !roles.isEmpty {
            sent = attributes.filter { roles[$0.key]?.isSent ?? true }
        }
        var wire = keys.toWire(sent)
        for (key, value) in record.nested where roles[key]?.isSent ?? true { wire[keys.wireName(for: key)] = value }
        if let drupalFields { wire = drupalFields.wrap(wire) }
        guard let rootKey = requestRootKey(for: modelType) else { return .object(wire) }
        return .object([rootKey: .object(wire)])
    }

    /// The key that wraps a record in a request body, when the format wraps requests.
    func requestRootKey(for modelType: Model.Type) -> String? {
        root.wrapsRequests ? root.names(for: modelType).singular : nil
    }

    /// The attributes a PATCH sends besides the changed ones: those with the
    /// ``AttributeRole/alwaysSent`` role that the model has.
    func alwaysSentAttributes(of attributes: Attributes) -> Attributes {
        var result = Attributes()
        for (name, role) in roles where role == .alwaysSent {
            if let value = attributes[name] { result[name] = value }
        }
        return result
    }

    /// A resource path with the ``pathSuffix``, placed before any query or fragment.
    package func suffixed(_ path: String) -> String {
        guard !pathSuffix.isEmpty else { return path }
        let end = path.firstIndex { $0 == "?" || $0 == "#" } ?? path.endIndex
        let resource = path[..<end]
        guard !resource.hasSuffix(pathSuffix), !(pathSuffix != "/" && resource.hasSuffix("/")) else { return path }
        return resource + pathSuffix + path[end...]
    }

    /// The format's query parameters followed by a call's own.
    package func queryItems(then own: KeyValuePairs<String, String>) -> [(key: String, value: String)] {
        query.sorted { $0.key < $1.key }.map { ($0.key, $0.value) } + own.map { ($0.key, $0.value) }
    }

    // MARK: - Responses

    /// One record of a response in app form: root key removed, Drupal items unwrapped, app names,
    /// received roles only.
    ///
    /// A body that is not an object is returned as it is.
    ///
    /// - Throws: ``SyncError/unmappableResponse(keyPath:reason:)`` naming the key path that
    ///   does not fit the format.
    package func record(from body: JSONValue, for modelType: Model.Type) throws(SyncError) -> JSONValue {
        guard !isPlain else { return body }
        if jsonAPIFormat != nil, let document = body.objectValue {
            let record = try JSONAPIReader.record(from: document, as: modelType, format: self)
            guard !dateFormats.isEmpty, case .object(var object) = record else { return record }
            try appDates(in: &object, at: "data.attributes")
            return .object(object)
        }
        let (inner, path) = try Self.value(at: recordKeyPath, in: body)
        guard let object = inner.objectValue else { return inner }
        return .object(try record(object, at: path, rootKey: root.names(for: modelType).singular))
    }

    /// The value at a dot-separated key path of a response, and its path.
    private static func value(at keyPath: String?, in body: JSONValue) throws(SyncError) -> (JSONValue, String) {
        guard let keyPath, !keyPath.isEmpty else { return (body, "") }
        var value = body
        for key in keyPath.split(separator: ".") {
            guard let next = value[String(key)] else {
                throw .unmappableResponse(keyPath: keyPath, reason: "the response has nothing at \"\(keyPath)\"")
            }
            value = next
        }
        return (value, keyPath)
    }

    /// The records of a list response in app form: the plural root key removed, and each record
    /// mapped as ``record(from:for:)`` does.
    ///
    /// A body that is neither a list nor an object with the plural root key is returned as it is
    /// (for the collection's `parse`), unless the format requires a root. Without
    /// ``requiresListKeyPath``, a body with nothing at ``listKeyPath`` is read as if the
    /// format had none.
    ///
    /// - Throws: ``SyncError/unmappableResponse(keyPath:reason:)`` naming the key path that
    ///   does not fit the format.
    func records(from body: JSONValue, for modelType: Model.Type) throws(SyncError) -> JSONValue {
        guard !isPlain else { return body }
        if jsonAPIFormat != nil, let document = body.objectValue {
            let records = try JSONAPIReader.records(from: document, as: modelType, format: self)
            guard !dateFormats.isEmpty, var list = records.arrayValue else { return records }
            for index in list.indices {
                guard case .object(var object) = list[index] else { continue }
                try appDates(in: &object, at: "data[\(index)].attributes")
                list[index] = .object(object)
            }
            return .array(list)
        }
        guard let found = try sentList(in: body, for: modelType) else { return body }
        var list = found.list
        let path = found.path
        let rootKey = root.names(for: modelType).singular
        for index in list.indices {
            let elementPath = "\(path)[\(index)]"
            guard let object = list[index].objectValue else {
                throw .unmappableResponse(
                    keyPath: elementPath,
                    reason: "a record is an object, not \(list[index].debugDescription)"
                )
            }
            list[index] = .object(try record(object, at: elementPath, rootKey: rootKey))
        }
        return .array(list)
    }

    /// The records of a list response as the server sent them, in the order of
    /// ``records(from:for:)``'s, or `nil` when the body holds no list this format finds (it
    /// then goes to the collection's `parse` as it is).
    func sentRecords(in body: JSONValue, for modelType: Model.Type) -> [JSONValue]? {
        guard !isPlain else { return body.arrayValue }
        if jsonAPIFormat != nil, let document = body.objectValue { return document["data"]?.arrayValue }
        return (try? sentList(in: body, for: modelType))?.list
    }

    /// The list of a list response, found in its envelope (``listKeyPath``) and under its
    /// plural root key, with its key path; `nil` when the body is left to the collection's
    /// `parse`.
    private func sentList(
        in body: JSONValue,
        for modelType: Model.Type
    ) throws(SyncError) -> (list: [JSONValue], path: String)? {
        let names = root.names(for: modelType)
        let (body, envelopePath) =
            requiresListKeyPath
            ? try Self.value(at: listKeyPath, in: body) : (try? Self.value(at: listKeyPath, in: body)) ?? (body, "")
        if let array = body.arrayValue { return (array, envelopePath) }
        if root.responses != .unwrapped, let object = body.objectValue, let array = object[names.plural]?.arrayValue {
            return (array, envelopePath.isEmpty ? names.plural : "\(envelopePath).\(names.plural)")
        }
        if root.responses == .required {
            throw .unmappableResponse(
                keyPath: names.plural,
                reason: "the list is not under its root key \"\(names.plural)\""
            )
        }
        return nil
    }

    /// A validation error from the server with app names in its attribute paths.
    func appErrors(_ errors: ValidationError) -> ValidationError {
        guard !isPlain else { return errors }
        var result = ValidationError(messages: errors.messages)
        for (path, messages) in errors.attributes {
            result.attributes[keys.appPath(for: path), default: []] += messages
        }
        return result
    }

    private func record(_ object: JSONObject, at path: String, rootKey: String) throws(SyncError) -> JSONObject {
        var record = object
        var recordPath = path
        if root.responses != .unwrapped, object.count == 1, let wrapped = object[rootKey]?.objectValue {
            record = wrapped
            recordPath = path.isEmpty ? rootKey : "\(path).\(rootKey)"
        } else if root.responses == .required {
            throw .unmappableResponse(
                keyPath: path.isEmpty ? rootKey : "\(path).\(rootKey)",
                reason: "the record is not under its root key \"\(rootKey)\""
            )
        }
        if let drupalFields { record = try drupalFields.unwrap(record, at: recordPath) }
        record = keys.toApp(record)
        if !roles.isEmpty {
            record = record.filter { roles[$0.key]?.isReceived ?? true }
        }
        try appDates(in: &record, at: recordPath)
        return record
    }
}
