extension Model {
    // MARK: - Fetch

    /// Loads the model from its backend and sets the attributes the server returns.
    ///
    /// Emits `request`, then `change` events for what changed, then `sync`; on failure it
    /// emits `error` (or calls the options' ``SyncOptions/onFailure``) and throws. Runs on the
    /// caller's isolation; cancelling the task cancels the request and leaves the model
    /// as it was.
    ///
    /// ```swift
    /// let note = Note(["id": 7])
    /// try await note.fetch()
    /// ```
    ///
    /// A model without an id whose URL would be its collection's (`/notes`) is not fetched:
    /// that would read the list as the record. It throws ``SyncError/missingID(model:)``
    /// before anything is sent, with no events, as NSRails does. A URL given by the call,
    /// ``fetchURL``, a route or an overridden ``url()`` (a singular resource) is fetched.
    ///
    /// - Parameter options: Per-call URL, query, headers, timeout, `parse: false`, handlers.
    /// - Returns: The backend's response.
    /// - Throws: ``SyncError``; ``SyncError/missingID(model:)`` for a model without an id,
    ///   as above.
    @discardableResult
    public func fetch(options: SyncOptions = SyncOptions()) async throws(SyncError) -> SyncResponse {
        await syncGate.enter()
        defer { syncGate.leave() }
        try checkIdentifiedForFetch(options: options)
        let format = wireFormat(for: options)
        let (request, response) = try await send(.read, format: format, options: options)
        try applyResponse(response, request: request, waitedAttributes: nil, format: format, options: options)
        return response
    }

    // MARK: - Save

    /// Saves the model: creates it when it is new, updates it otherwise.
    ///
    /// The given attributes are validated first (an invalid model is never sent). Without
    /// `wait` they are set at once and the server's answer is set on top; with `wait` they
    /// are applied only when the server agrees. With `patch` only the given attributes (or,
    /// without any, the ``unsavedChanges``) are sent, with PATCH; when that is nothing, no
    /// request is sent and the save succeeds with an empty 204 response and no events.
    ///
    /// Saves, fetches and destroys of one model run one at a time in call order, so a
    /// second save of a new model waits for the first one's create and then updates it
    /// instead of creating a duplicate.
    ///
    /// ```swift
    /// try await note.save(["title": "Groceries"])
    /// try await note.save(["done": true], patch: true)
    /// try await note.save(["title": "Final"], wait: true)
    /// ```
    ///
    /// - Parameters:
    ///   - attributes: Attributes to change before saving, or `nil` to save as is.
    ///   - wait: Apply the attributes only after the server agrees.
    ///   - patch: Send only the changes, with PATCH.
    ///   - options: Per-call URL, body, headers, timeout, `validate: false`, handlers.
    /// - Returns: The backend's response.
    /// - Throws: ``SyncError``; ``SyncError/validationFailed(_:status:)`` with a `nil`
    ///   status when local validation failed and nothing was sent.
    @discardableResult
    public func save(
        _ attributes: Attributes? = nil,
        wait: Bool = false,
        patch: Bool = false,
        options: SyncOptions = SyncOptions()
    ) async throws(SyncError) -> SyncResponse {
        // The options are copied only to set a flag the call gives.
        guard (wait && !options.wait) || (patch && !options.patch) else {
            return try await save(attributes, options: options, yieldingFirst: true)
        }
        var options = options
        if wait { options.wait = true }
        if patch { options.patch = true }
        return try await save(attributes, options: options, yieldingFirst: true)
    }

    /// ``save(_:wait:patch:options:)`` with `wait` and `patch` in `options`; a caller that has
    /// just let earlier tasks run (`Collection.create`) passes `yieldingFirst: false`.
    @discardableResult
    func save(_ attributes: Attributes?, options: SyncOptions, yieldingFirst: Bool) async throws(SyncError)
        -> SyncResponse
    {
        await syncGate.enter(yieldingFirst: yieldingFirst)
        defer { syncGate.leave() }
        if Task.isCancelled { throw .cancelled }
        let backend = try requireBackend()

        // The attributes before an optimistic save set its own, read back only if the save is
        // undone: listing the values it replaced on every save cost about 450 instructions.
        var before: Attributes?
        if let attributes, !options.wait {
            var setOptions = options.change
            if setOptions.validate == nil { setOptions.validate = true }
            let previous = storage
            guard apply(attributes, options: setOptions) else {
                throw .validationFailed(storedValidationError ?? ValidationError(), status: nil)
            }
            before = previous
        } else if options.validate != false {
            let prospective = attributes.map { storage.merging($0) } ?? storage
            if let error = validationFailure(for: prospective, options: options.change) {
                reportInvalid(error, options: options.change)
                throw .validationFailed(error, status: nil)
            }
            setValidationError(nil)
        }

        // A patch with nothing to send succeeds without a request (Rails answers `PATCH {}`
        // with 400). Unsaved changes that send nothing (a related record destroyed on its own)
        // are then as good as saved.
        if savesNothing(attributes, options: options) {
            if attributes == nil && unsavedChanges != nil { markSynced() }
            let response = SyncResponse(status: 204)
            options.onSuccess?(response)
            return response
        }
        let format = wireFormat(for: options)
        let request: SyncRequest
        do {
            // After the call's first suspension no Observation tracking is under way: the
            // request's reads of the model (`isNew`, `url()`, `toJSON`) are not reported, which
            // would give every saved model a registrar for nothing.
            request = try readingUnobserved { () throws(SyncError) in
                try makeSaveRequest(attributes, format: format, options: options)
            }
        } catch {
            restore(before, savedAttributes: attributes)
            throw error
        }
        let response: SyncResponse
        do {
            response = try await performSync(
                request,
                with: backend,
                model: self,
                collection: nil,
                format: format,
                options: options
            )
        } catch {
            if error == .cancelled { restore(before, savedAttributes: attributes) }
            throw error
        }
        try applyResponse(
            response,
            request: request,
            waitedAttributes: options.wait ? attributes : nil,
            format: format,
            options: options
        )
        return response
    }

    /// Saves the model together with files, in one multipart request: Rails'
    /// `has_one_attached`, Django's `FileField`.
    ///
    /// The attributes go as form fields, mapped by the wire format as in a JSON save (names,
    /// roles, root key) and named in its ``WireFormat/formNotation``: `user[name]` and
    /// `user[avatar]` for ``WireFormat/rails``, `name` and `avatar` for
    /// ``WireFormat/djangoREST``. Each file goes beside them under its attribute's wire name,
    /// streamed from disk. Everything else is as in ``save(_:wait:patch:options:)``: events,
    /// validation, `wait`, `patch` (which sends the files with the changed attributes).
    ///
    /// ```swift
    /// try await user.save(["name": "Ann"], files: ["avatar": .file(avatarURL, mimeType: "image/png")])
    /// ```
    ///
    /// Track the upload with ``SyncOptions/onUploadProgress``; cancelling the task cancels it.
    ///
    /// - Parameters:
    ///   - attributes: Attributes to change before saving, or `nil` to save as is.
    ///   - files: The files, keyed by attribute name (app names).
    ///   - wait: Apply the attributes only after the server agrees.
    ///   - patch: Send only the changes, with PATCH.
    ///   - options: Per-call URL, headers, timeout, progress handler, handlers.
    /// - Returns: The backend's response.
    /// - Throws: ``SyncError``; ``SyncError/unreadableFile(_:reason:)`` when a file cannot be
    ///   read, before anything is sent.
    @discardableResult
    public func save(
        _ attributes: Attributes? = nil,
        files: [String: FilePart],
        wait: Bool = false,
        patch: Bool = false,
        options: SyncOptions = SyncOptions()
    ) async throws(SyncError) -> SyncResponse {
        var options = options
        options.files.merge(files) { _, given in given }
        return try await save(attributes, wait: wait, patch: patch, options: options)
    }

    /// The attributes that differ from the last successful fetch or save (all of them when
    /// the model has never been synced), or `nil` when there is nothing to save.
    ///
    /// A removed attribute appears with the value ``JSONValue/null``.
    ///
    /// ```swift
    /// note["title"] = "New"
    /// note.unsavedChanges  // ["title": "New"]
    /// ```
    public var unsavedChanges: Attributes? {
        guard let synced = syncedStorage else { return storage.isEmpty ? nil : storage }
        var changes = storage.filter { key, value in synced[key] != value }
        for (key, _) in synced where !storage.contains(key) { changes[key] = .null }
        return changes.isEmpty ? nil : changes
    }

    /// The last record the server sent for this model, exactly as it sent it (before the wire
    /// format and ``parse(_:options:)``, unknown keys included): NSRails' `remoteAttributes`.
    ///
    /// Whichever way the record arrived, the last one counts:
    /// - the body of the model's own successful ``fetch(options:)`` or
    ///   ``save(_:wait:patch:options:)`` (`nil` after a response without a body), and
    ///   ``Findable/find(_:options:)``;
    ///
    /// and, when the class's ``keepsRemoteAttributes`` is `true`:
    /// - its element of a list that ``Collection/fetch(reset:options:)``, ``Findable/all(query:options:)``,
    ///   ``Collection/set(parsing:add:remove:merge:silent:options:)``, ``Collection/reset(parsing:silent:options:)``
    ///   or `add`, `set` and `reset` with `parse: true` read it from (for JSON:API, its resource
    ///   object);
    /// - the attributes given with `parse: true` to the initializer or
    ///   ``set(_:silent:validate:options:)-(Attributes,_,_,_)``, and to ``IdentityMap``'s `model` and `find`.
    ///
    /// `nil` for a model that never received one.
    ///
    /// ```swift
    /// try await note.fetch()
    /// note.remoteAttributes?["note"]?["updated_at"]  // what the server sent
    /// let notes = try await Note.all()
    /// notes[0].remoteAttributes?["legacy_flag"]       // a key the app does not map
    /// ```
    public var remoteAttributes: JSONValue? { storedExtras?.remoteAttributes }

    /// Records the current attributes as the server's, so ``unsavedChanges`` starts empty
    /// (for backends and identity maps that load models outside `fetch`).
    package func markSynced() {
        syncedStorage = storage
        guard let links = relationLinks else { return }
        var visited: Set<ObjectIdentifier> = [ObjectIdentifier(self)]
        for link in links.values { link.markSynced(visited: &visited) }
    }

    /// ``markSynced()`` for a related model, once: related records can link back to this one
    /// (a comment's article is the article whose comments it is, in an identity map).
    func markSynced(visited: inout Set<ObjectIdentifier>) {
        guard visited.insert(ObjectIdentifier(self)).inserted else { return }
        syncedStorage = storage
        isMarkedForDestruction = false
        if let links = relationLinks { for link in links.values { link.markSynced(visited: &visited) } }
    }

    /// Undoes an optimistic `save` whose request was cancelled, where the attributes still
    /// hold the values it set: each of them goes back to its value in `before`, the attributes
    /// the save started from.
    private func restore(_ before: Attributes?, savedAttributes: Attributes?) {
        guard let before, let savedAttributes else { return }
        var restored = Attributes()
        var removed: [String] = []
        for (key, saved) in savedAttributes where storage[key] == saved {
            if let value = before[key] { restored[key] = value } else { removed.append(key) }
        }
        if !restored.isEmpty { apply(restored, options: ChangeOptions(validate: false)) }
        for key in removed { unset(key, validate: false) }
    }

    // MARK: - Destroy

    /// Deletes the model on its backend and emits `destroy`, which removes it from its
    /// collections.
    ///
    /// Without `wait`, `destroy` fires as soon as the request is sent (after `request`);
    /// with `wait`, only after the server agrees. A new model is destroyed locally without
    /// a request (the options' ``SyncOptions/onSuccess`` then receives an empty 204 response,
    /// and no `sync` event fires). A destroy waits for the model's earlier operations, so
    /// destroying a model whose create is in flight deletes the created record.
    ///
    /// ```swift
    /// try await note.destroy()
    /// try await note.destroy(wait: true)
    /// ```
    ///
    /// - Parameters:
    ///   - wait: Emit `destroy` only after the server agrees.
    ///   - options: Per-call URL, headers, timeout, handlers.
    /// - Returns: The backend's response, or `nil` for a new model.
    /// - Throws: ``SyncError``. Without `wait` the model stays destroyed locally when the
    ///   request fails.
    @discardableResult
    public func destroy(wait: Bool = false, options: SyncOptions = SyncOptions()) async throws(SyncError)
        -> SyncResponse?
    {
        // `wait` is read only here: the options go on as they are, without a copy.
        let waiting = wait || options.wait
        await syncGate.enter()
        defer { syncGate.leave() }
        if Task.isCancelled { throw .cancelled }
        // Read without reporting to Observation, as a save's request is.
        if readingUnobserved({ isNew }) {
            emitDestroy(options: options)
            options.onSuccess?(SyncResponse(status: 204))
            return nil
        }
        let (request, response) = try await send(.delete, format: wireFormat(for: options), options: options) {
            if !waiting { emitDestroy(options: options) }
        }
        if waiting { emitDestroy(options: options) }
        syncedStorage = nil
        reportSyncSuccess(response, request: request, model: self, collection: nil, options: options)
        return response
    }

    /// Builds a bodiless request (a fetch or a destroy) for this model and sends it through
    /// its backend, emitting `request` and, on failure, `error`.
    private func send(
        _ method: SyncMethod,
        format: WireFormat,
        options: SyncOptions,
        afterRequest: () -> Void = {}
    ) async throws(SyncError) -> (SyncRequest, SyncResponse) {
        let backend = try requireBackend()
        // Read without reporting to Observation, as a save's request is.
        let request = try readingUnobserved { () throws(SyncError) in
            try makeBodilessRequest(method, format: format, options: options)
        }
        let response = try await performSync(
            request,
            with: backend,
            model: self,
            collection: nil,
            format: format,
            options: options,
            afterRequest: afterRequest
        )
        return (request, response)
    }

    func emitDestroy(options: SyncOptions) {
        stopListening()
        dispatch(Event(name: "destroy", model: self, collection: collection, options: options.change))
    }

    // MARK: - Responses

    func requireBackend() throws(SyncError) -> any Sync {
        guard let backend = resolvedSync else { throw .missingBackend }
        return backend
    }

    /// Parses and sets the server's attributes, then reports success.
    ///
    /// The class's ``responseMappings`` choose how the body is read; `parse` and the `change`
    /// events get the ``ResponseContext``, whose route is `route`, else the one that built
    /// the URL.
    func applyResponse(
        _ response: SyncResponse,
        request: SyncRequest,
        waitedAttributes: Attributes?,
        format callFormat: WireFormat,
        options callOptions: SyncOptions,
        route: Route? = nil
    ) throws(SyncError) {
        let mapped = ResponseMappings.reading(
            response,
            to: request,
            of: Self.self,
            format: callFormat,
            route: route ?? (try? routeInUse(for: request.method, options: callOptions)),
            baseURL: resolvedBaseURL
        )
        // The call's change options with the context; the whole `SyncOptions` is copied only
        // to report a failure.
        var change = callOptions.change
        change.responseContext = mapped.context
        func reportFailure(_ error: SyncError) {
            var options = callOptions
            options.change = change
            reportSyncFailure(error, request: request, model: self, collection: nil, options: options)
        }
        // A body that is not an object, or a `parse` that returns `nil`, carries no
        // attributes: the call succeeds and changes nothing (Backbone's "parse can return
        // null" and #2606). Neither does one that a mapping says carries no record.
        var serverAttributes: Attributes?
        if let format = mapped.format, let body = response.body, body != .null, body != "" {
            do {
                serverAttributes = try self.serverAttributes(from: body, format: format, options: change)
            } catch {
                reportFailure(error)
                throw error
            }
            // A server that answers a create with the record must give it its id, or the
            // next save would create it again.
            if request.method == .create, !format.isPlain, let created = serverAttributes, !created.isEmpty,
                created[idAttribute] == nil, isNew
            {
                let error = SyncError.unmappableResponse(
                    keyPath: format.keys.wireName(for: idAttribute),
                    reason: "the created record has no id"
                )
                reportFailure(error)
                throw error
            }
        }
        if let waitedAttributes { serverAttributes = waitedAttributes.merging(serverAttributes ?? [:]) }
        if let serverAttributes, !serverAttributes.isEmpty {
            var setOptions = change
            setOptions.wireFormatApplied = true
            if setOptions.validate == nil && request.method != .read { setOptions.validate = true }
            guard apply(serverAttributes, options: setOptions) else {
                throw .validationFailed(storedValidationError ?? ValidationError(), status: response.status)
            }
        }
        markSynced()
        if mapped.format != nil {
            extras.remoteAttributes = response.body
            // Written only to clear one: the rarely used part of the extras is made on write.
            if extras.resourceObject != nil { extras.resourceObject = nil }
        }
        callOptions.afterSave?()
        reportSyncSuccess(
            response,
            request: request,
            model: self,
            collection: nil,
            change: change,
            onSuccess: callOptions.onSuccess
        )
    }
}
