import Foundation

extension RecordStore {
    /// Answers one request the way a small REST server does, with this store's records.
    ///
    /// - `create` on `/notes` stores the body (a JSON object, else 400) and answers 201
    ///   with it. A record without an id gets the next integer id of the collection; an
    ///   explicit id is kept (422 `{"id": ["has already been taken"]}` when taken), and
    ///   numbering continues after an integer one. Ids are never reused after a delete.
    /// - `read` of `/notes/7` answers the record (404 when `/notes` has no record 7); `read`
    ///   of `/notes` answers its records in insertion order, keeping those whose attributes
    ///   equal every query parameter (`?done=true`); an unknown collection is an empty list.
    ///   A path such as `/users/7/invites` is a collection of its own.
    /// - `update` replaces a record but keeps its id (200), or creates it under the id of
    ///   its path (201); `patch` merges the body into the record (404 when missing).
    /// - `delete` removes a record (204, or 404).
    ///
    /// Failures are thrown as ``SyncError/init(failing:)`` builds them from the status, so
    /// every store reports them as ``InMemorySync`` does. ``RecordStoreSync`` calls this
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
    /// - Throws: ``SyncError``: 400, 404 and 422 as above, and the store's own errors.
    public mutating func respond(to request: SyncRequest, idAttribute: String = "id") throws(SyncError)
        -> SyncResponse
    {
        let response = try handle(request, idAttribute: idAttribute)
        guard response.isSuccess else { throw SyncError(failing: response) }
        return response
    }
}

// MARK: - The REST semantics over a store's few operations

// Written against `self`, not a copy, so that a value-type store mutates in place.
extension RecordStore {
    fileprivate mutating func handle(_ request: SyncRequest, idAttribute: String) throws(SyncError) -> SyncResponse {
        let resource = ResourcePath(request.url)
        switch request.method {
        case .create:
            guard let body = request.body?.objectValue else { return RecordStoreResponses.badRequest }
            return try create(body, in: resource.path, idAttribute: idAttribute)
        case .read:
            return try read(resource, query: ResourcePath.queryItems(of: request))
        case .update, .patch:
            guard let body = request.body?.objectValue else { return RecordStoreResponses.badRequest }
            guard let collection = resource.parent, let id = resource.lastSegment else {
                return RecordStoreResponses.notFound
            }
            return try write(
                body,
                id: id,
                in: collection,
                merging: request.method == .patch,
                idAttribute: idAttribute
            )
        case .delete:
            guard let collection = resource.parent, let id = resource.lastSegment,
                try containsRecord(id, in: collection)
            else { return RecordStoreResponses.notFound }
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
            if try containsRecord(key, in: collection) { return RecordStoreResponses.taken(idAttribute) }
            if let int = id.intValue { next = max(next, int &+ 1) }
        } else {
            // Skip ids taken by records stored under explicit ids (an upsert with `update`).
            var id = next
            while try containsRecord(String(id), in: collection) { id += 1 }
            record[idAttribute] = .int(id)
            key = String(id)
            next = id + 1
        }
        try setNextID(next, in: collection)
        try insert(record, id: key, in: collection)
        return SyncResponse(status: 201, body: .object(record))
    }

    private func read(_ resource: ResourcePath, query: [URLQueryItem]) throws(SyncError) -> SyncResponse {
        if let collection = resource.parent, let id = resource.lastSegment,
            let record = try self.record(id, in: collection)
        {
            return SyncResponse(status: 200, body: .object(record))
        }
        if let list = try records(in: resource.path) {
            let matching = list.filter { ResourcePath.matches($0, query: query) }
            return SyncResponse(status: 200, body: .array(matching.map(JSONValue.object)))
        }
        if let collection = resource.parent, try containsCollection(collection) { return RecordStoreResponses.notFound }
        return SyncResponse(status: 200, body: [])
    }

    private mutating func write(
        _ body: Attributes,
        id: String,
        in collection: String,
        merging: Bool,
        idAttribute: String
    ) throws(SyncError) -> SyncResponse {
        if let existing = try self.record(id, in: collection) {
            var stored = merging ? existing.merging(body) : body
            stored[idAttribute] = existing[idAttribute]
            try replace(stored, id: id, in: collection)
            return SyncResponse(status: 200, body: .object(stored))
        }
        guard !merging else { return RecordStoreResponses.notFound }
        var record = body
        let recordID = body[idAttribute] ?? Int(id).map(JSONValue.int) ?? .string(id)
        record[idAttribute] = recordID
        let key = ResourcePath.segment(for: recordID)
        if key != id, try containsRecord(key, in: collection) { return RecordStoreResponses.taken(idAttribute) }
        try insert(record, id: key, in: collection)
        return SyncResponse(status: 201, body: .object(record))
    }
}

/// The failure responses of the REST semantics, before they become ``SyncError``s.
private enum RecordStoreResponses {
    static func taken(_ idAttribute: String) -> SyncResponse {
        SyncResponse(status: 422, body: [idAttribute: ["has already been taken"]])
    }

    static let notFound = SyncResponse(status: 404, body: ["error": "not found"])

    static let badRequest = SyncResponse(status: 400, body: ["error": "expected a JSON object"])
}
