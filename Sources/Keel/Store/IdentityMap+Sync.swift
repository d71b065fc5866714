import Foundation

extension IdentityMap {
    /// A model factory for a `Collection` that builds models through the map, so a
    /// fetch returns the instances already loaded and registers the new ones.
    ///
    /// Models the collection creates (`Collection.create(_:wait:options:)`)
    /// are registered as soon as the backend assigns their id.
    ///
    /// ```swift
    /// let notes = Collection<Note>(factory: map.factory(for: Note.self, collection: "/notes"), url: "/notes", sync: store)
    /// try await notes.fetch()
    /// ```
    ///
    /// - Parameters:
    ///   - type: The model class.
    ///   - collection: The collection path the records belong to, such as `/notes`.
    /// - Returns: A closure for the collection's `factory` parameter. It keeps the map alive.
    public func factory<M: Model>(for type: M.Type, collection: String) -> (Attributes, ChangeOptions) -> M {
        { attributes, options in
            self.model(type, collection: collection, attributes: attributes, options: options)
        }
    }

    /// Loads one record through a backend and returns its one instance: the live model,
    /// updated with what was loaded, or a new registered model.
    ///
    /// A new model gets `collection` as its `urlRoot` and `sync` as its backend (unless its
    /// class provides them), so it can be saved and destroyed right away. The request and
    /// the response follow the class's `Model.wireFormat` and its `Model.responseMappings`, and
    /// the model's `parse` gets the `ResponseContext` of the read.
    ///
    /// ```swift
    /// let note = try await map.find(Note.self, id: 7, in: "/notes", from: store)
    /// note === notes.get(7)  // true when the collection has loaded it through the map
    /// ```
    ///
    /// - Parameters:
    ///   - type: The model class.
    ///   - id: The record's id.
    ///   - collection: The collection path, such as `/notes`.
    ///   - sync: The backend to read from.
    /// - Returns: The model, or `nil` when the backend answers 404.
    /// - Throws: `SyncError` for any other failure, `SyncError.invalidResponse(_:)` when the
    ///   answer is not a JSON object, and `SyncError.unmappableResponse(keyPath:reason:)` when
    ///   it does not fit the wire format.
    public func find<M: Model>(
        _ type: M.Type,
        id: JSONValue,
        in collection: String,
        from sync: any Sync
    ) async throws(SyncError) -> M? {
        let format = M.wireFormat
        let (request, path) = try SyncRequest.recordRead(collection: collection, id: id, format: format)
        let response: SyncResponse
        do {
            response = try await sync.perform(request)
        } catch let error where error.isNotFound {
            return nil
        }
        // `ResponseMappings.reading` without a route or base URL, unrolled: the class's format
        // is read in place, not copied into a mapped response and out again, unless a
        // mapping matches.
        let found =
            ResponseMappings.anyRegistered
            ? M.responseMappings.match(url: request.url, status: response.status, baseURL: nil) : nil
        let sentBody = response.body
        // Moved into the context, not copied: neither is read again.
        let context = ResponseContext(
            request: consume request,
            response: consume response,
            route: found?.mapping.route,
            routeParameters: found?.parameters ?? [:]
        )
        let body = sentBody ?? .null
        let record: JSONValue
        if let found, let mappedFormat = found.mapping.format(over: format) {
            record = try mappedFormat.record(from: body, for: M.self)
        } else {
            record = try format.record(from: body, for: M.self)
        }
        guard let attributes = record.objectValue else {
            throw .invalidResponse("expected a JSON object for \(path), got \(body.debugDescription)")
        }
        var options = ChangeOptions(parse: true)
        options.wireFormatApplied = true
        options.responseContext = context
        let (built, isNew) = findOrInsert(type, collection: collection, attributes: attributes, options: options)
        guard let model = built as? M else {
            preconditionFailure(
                "IdentityMap: \(collection)/\(id) is loaded as \(Swift.type(of: built)), which is not \(M.self)"
            )
        }
        if isNew {
            if model.urlRoot == nil && model.collection == nil { model.urlRoot = collection }
            if !model.namesBackend { model.sync = sync }
        }
        model.markSynced()
        model.extras.remoteAttributes = sentBody
        // The record read without error, so an unreadable included resource is left in the body.
        _ = try? mergeIncluded(from: body)
        return model
    }

    /// `collection/id`, with the id encoded as one path segment (as `Model.url()` does).
    static func recordPath(collection: String, id: JSONValue) -> String {
        URLPath.join(collection, URLPath.encodeComponent(id))
    }
}
