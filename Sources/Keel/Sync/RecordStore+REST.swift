import Foundation

extension RecordStore {
    /// Answers one request the way a small REST server does, with this store's records.
    ///
    /// - The body is the request's ``SyncRequest/unwrappedBody``: a model whose format wraps
    ///   records (Rails' `{"note": {…}}`) has its record stored without the root key.
    ///   Answers carry records without it, which formats whose responses are
    ///   ``RootWrapping/Responses/optional`` (as `.rails`) or unwrapped accept; a format that
    ///   requires a root key in responses cannot read a store's answers.
    /// - `create` on `/notes` stores the body (a JSON object, else refused as
    ///   ``StoreRefusal/Reason/notAnObject``, status 400) and answers 201
    ///   with it. A record without an id gets the next integer id of the collection; an
    ///   explicit id is kept (422 `{"id": ["has already been taken"]}` when taken), and
    ///   numbering continues after an integer one. Ids are never reused after a delete.
    /// - `read` of `/notes/7` answers the record (refused as ``StoreRefusal/Reason/notFound``,
    ///   status 404, when `/notes` has no record 7); `read`
    ///   of `/notes` answers its records in insertion order, keeping those whose attributes
    ///   equal every query parameter (`?done=true`); an unknown collection is an empty list.
    ///   A path such as `/users/7/invites` is a collection of its own.
    /// - `update` replaces a record but keeps its id (200), or creates it under the id of
    ///   its path (201); `patch` merges the body into the record (404 when missing).
    /// - `delete` removes a record (204, or 404).
    /// - Versions, when the store keeps them (``version(of:in:)``): a response with one
    ///   record carries its version as a strong `ETag` (`"3"`). `update`, `patch` and
    ///   `delete` with an `If-Match` header change the record only while its version is one
    ///   of those listed (`*` matches any existing record); otherwise they change nothing and
    ///   are refused as ``StoreRefusal/Reason/versionMismatch(current:)`` with the current
    ///   version (or ``StoreRefusal/Reason/notFound`` when there is no record), status 412.
    ///   That is a compare-and-set: of two writers that read version 3, one succeeds and the
    ///   other is refused, so no update is lost.
    ///
    /// Refusals are thrown as ``SyncError/storeRefused(_:)``, worded as the store's, with the
    /// status a REST server would answer (``SyncError/status``); a taken id is
    /// ``SyncError/validationFailed(_:status:)`` with status 422, so a form shows it like any
    /// validation error. Every store reports them as ``InMemorySync`` does. ``RecordStoreSync`` calls this
    /// under its lock; a store with its own transactions calls it inside one, and rolls back
    /// when it throws.
    ///
    /// ```swift
    /// var store = DictionaryStore()
    /// let created = try respond(to: SyncRequest(method: .create, url: URL(string: "/notes")!, body: [:]))
    /// created.body?["id"]  // 1
    /// ```
    ///
    /// - Parameters:
    ///   - request: The operation; its method, URL, body and query are used.
    ///   - idAttribute: The attribute that holds record ids.
    /// - Returns: The record or list, with status 200, 201 or 204.
    /// - Throws: ``SyncError``: ``SyncError/storeRefused(_:)`` and a taken id as above, and
    ///   the store's own errors.
    public mutating func respond(to request: SyncRequest, idAttribute: String = "id") throws(SyncError)
        -> SyncResponse
    {
        try handle(request, idAttribute: idAttribute)
    }
}

// MARK: - The REST semantics over a store's few operations

// Written against `self`, not a copy, so that a value-type store mutates in place.
extension RecordStore {
    fileprivate mutating func handle(_ request: SyncRequest, idAttribute: String) throws(SyncError) -> SyncResponse {
        // By the request's path: a request built by path has its `URL` made only if asked.
        let resource = ResourcePath(request)
        switch request.method {
        case .create:
            guard let body = request.unwrappedBody?.objectValue else {
                throw .storeRefused(.init(.notAnObject, path: resource.path))
            }
            return try create(body, in: resource.path, idAttribute: idAttribute)
        case .read:
            return try read(resource, query: ResourcePath.queryItems(of: request))
        case .update, .patch:
            guard let body = request.unwrappedBody?.objectValue else {
                throw .storeRefused(.init(.notAnObject, path: resource.path))
            }
            guard let collection = resource.parent, let id = resource.lastSegment else {
                throw .storeRefused(.init(.notFound, path: resource.path))
            }
            try checkIfMatch(of: request, id: id, in: collection)
            return try write(
                body,
                id: id,
                in: collection,
                merging: request.method == .patch,
                idAttribute: idAttribute
            )
        case .delete:
            let conditional = RecordVersionTag.ifMatch(of: request) != nil
            guard let collection = resource.parent, let id = resource.lastSegment else {
                throw .storeRefused(.init(.notFound, path: resource.path, status: conditional ? 412 : 404))
            }
            // Without a condition the delete itself tells whether the record was there;
            // with one, its version is read first and compared.
            guard conditional else {
                guard try deleteIfPresent(id, in: collection) else {
                    throw .storeRefused(.init(.notFound, path: resource.path, status: 404))
                }
                return SyncResponse(status: 204)
            }
            guard try containsRecord(id, in: collection) else {
                throw .storeRefused(.init(.notFound, path: resource.path, status: 412))
            }
            try checkIfMatch(of: request, id: id, in: collection)
            try delete(id, in: collection)
            return SyncResponse(status: 204)
        }
    }

    private mutating func create(_ body: Attributes, in collection: String, idAttribute: String) throws(SyncError)
        -> SyncResponse
    {
        var record = body
        var next = try nextID(in: collection)
        let key: String
        if let id = record[idAttribute], !id.isNull {
            key = ResourcePath.segment(for: id)
            if try containsRecord(key, in: collection) { throw Self.taken(idAttribute) }
            if let int = id.intValue { next = max(next, int &+ 1) }
        } else {
            // Skip ids taken by records stored under explicit ids (an upsert with `update`).
            // The free id's text is its key: made once, not again after the search.
            var id = next
            var text = URLPath.decimalText(id)
            while try containsRecord(text, in: collection) {
                id += 1
                text = URLPath.decimalText(id)
            }
            record[idAttribute] = .int(id)
            key = text
            next = id + 1
        }
        try setNextID(next, in: collection)
        try insert(record, id: key, in: collection)
        return try versioned(SyncResponse(status: 201, body: .object(record)), id: key, in: collection)
    }

    private func read(_ resource: ResourcePath, query: [URLQueryItem]) throws(SyncError) -> SyncResponse {
        if let collection = resource.parent, let id = resource.lastSegment,
            let record = try self.record(id, in: collection)
        {
            return try versioned(SyncResponse(status: 200, body: .object(record)), id: id, in: collection)
        }
        if let list = try records(in: resource.path) {
            let matching = list.filter { ResourcePath.matches($0, query: query) }
            return SyncResponse(status: 200, body: .array(matching.map(JSONValue.object)))
        }
        if let collection = resource.parent, try containsCollection(collection) {
            throw .storeRefused(.init(.notFound, path: resource.path))
        }
        return SyncResponse(status: 200, body: [])
    }

    private mutating func write(
        _ body: Attributes,
        id: String,
        in collection: String,
        merging: Bool,
        idAttribute: String
    ) throws(SyncError) -> SyncResponse {
        // An update keeps only the stored id attribute, which a store may read without the
        // rest of the record; a patch merges with the whole record.
        let existing =
            merging
            ? try self.record(id, in: collection)
            : try recordForReplacing(id, in: collection, idAttribute: idAttribute)
        if let existing {
            var stored = merging ? existing.merging(body) : body
            stored[idAttribute] = existing[idAttribute]
            try replace(stored, id: id, in: collection)
            return try versioned(SyncResponse(status: 200, body: .object(stored)), id: id, in: collection)
        }
        guard !merging else { throw .storeRefused(.init(.notFound, path: collection + "/" + id)) }
        var record = body
        let recordID = body[idAttribute] ?? Int(id).map(JSONValue.int) ?? .string(id)
        record[idAttribute] = recordID
        let key = ResourcePath.segment(for: recordID)
        if key != id, try containsRecord(key, in: collection) { throw Self.taken(idAttribute) }
        try insert(record, id: key, in: collection)
        return try versioned(SyncResponse(status: 201, body: .object(record)), id: key, in: collection)
    }

    /// The response with the record's version as its `ETag`, when the store keeps versions.
    private func versioned(_ response: SyncResponse, id: String, in collection: String) throws(SyncError)
        -> SyncResponse
    {
        guard let version = try version(of: id, in: collection) else { return response }
        var tagged = response
        // Set whole when there is no other header: a shared dictionary for the first versions
        // (every created record is at 1) instead of the tag's text and a new dictionary.
        if tagged.headers.isEmpty {
            tagged.headers = RecordVersionTag.headers(version)
        } else {
            tagged.headers["etag"] = RecordVersionTag.etag(version)
        }
        return tagged
    }

    /// Refuses the request (status 412) when its `If-Match` does not match the record.
    private func checkIfMatch(of request: SyncRequest, id: String, in collection: String) throws(SyncError) {
        guard let condition = RecordVersionTag.ifMatch(of: request) else { return }
        let path = collection + "/" + id
        guard try containsRecord(id, in: collection) else {
            throw .storeRefused(.init(.notFound, path: path, status: 412))
        }
        let version = try version(of: id, in: collection)
        if RecordVersionTag.matches(condition, version: version) { return }
        throw .storeRefused(.init(.versionMismatch(current: version), path: path))
    }

    /// The validation failure of a create or update whose id another record has.
    private static func taken(_ idAttribute: String) -> SyncError {
        .validationFailed(
            ValidationError(messages: [], attributes: [idAttribute: ["has already been taken"]]),
            status: 422
        )
    }
}

/// Record versions as entity tags: `"3"` for version 3.
package enum RecordVersionTag {
    /// The strong entity tag of a version.
    package static func etag(_ version: Int) -> String { "\"\(version)\"" }

    /// The headers of a response about a record at `version`, its tag alone: shared for the
    /// first versions, which most records have (every record starts at 1), so that an answer
    /// copies a reference instead of making the tag's text and a dictionary.
    package static func headers(_ version: Int) -> [String: String] {
        guard sharedHeaders.indices.contains(version) else { return ["etag": etag(version)] }
        return sharedHeaders[version]
    }

    /// The headers of versions 0 to 63, made on first use.
    private static let sharedHeaders: [[String: String]] = (0..<64).map { ["etag": etag($0)] }

    /// The request's `If-Match` value (the header name in any case), if it has one.
    static func ifMatch(of request: SyncRequest) -> String? {
        request.headers.first { $0.key.lowercased() == "if-match" }?.value
    }

    /// Whether an `If-Match` value matches an existing record's version: `*`, or a list of
    /// entity tags compared strongly (a weak `W/"3"` never matches).
    static func matches(_ condition: String, version: Int?) -> Bool {
        let trimmed = condition.trimmingCharacters(in: .whitespaces)
        if trimmed == "*" { return true }
        guard let version else { return false }
        return trimmed.split(separator: ",").contains {
            $0.trimmingCharacters(in: .whitespaces) == etag(version)
        }
    }
}
