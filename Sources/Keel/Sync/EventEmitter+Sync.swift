import Foundation

/// Lets tasks started just before a server call run up to their first suspension before
/// the call emits anything.
///
/// The natural way to watch a call, `Task { for await e in notes.events("add") { … } }`
/// followed by `try await notes.create(…)`, creates the stream only when the task starts;
/// on the same actor, that is after the caller's next suspension. Every server call
/// suspends here first, so such a stream is listening before the call's first event.
///
/// A caller isolated to an actor waits behind the jobs already enqueued on that actor's
/// executor without leaving it: a task isolated to the same actor, enqueued after them,
/// resumes the caller. `Task.yield()` would hop to the global executor and back (it is
/// not isolated to the caller), which wakes two threads a call when the caller is the main
/// actor. A caller on the global executor yields there, as before.
///
/// The main actor's jobs are the main dispatch queue's, so there a block enqueued on that
/// queue resumes the caller behind them, as the task would: a block costs a fraction of a
/// task to make, run and free.
func yieldToTasksStartedBefore(isolation: isolated (any Actor)? = #isolation) async {
    // Not `guard let isolation`: the task must capture the isolated parameter itself to
    // run on its actor (a local copy of it isolates nothing), or it runs on the global
    // executor and wakes a thread there.
    guard isolation != nil else {
        await Task.yield()
        return
    }
    if isolation === MainActor.shared {
        await withUnsafeContinuation(isolation: isolation) { continuation in
            DispatchQueue.main.async { continuation.resume() }
        }
        return
    }
    await withUnsafeContinuation(isolation: isolation) { continuation in
        Task {
            _ = isolation
            continuation.resume()
        }
    }
}

extension EventEmitter {
    /// Builds the request value for one operation from the call's options.
    ///
    /// Headers and MIME types that could never be sent are refused here, before the request
    /// reaches any backend (an offline queue would otherwise keep a change it can never send).
    func makeRequest(
        _ method: SyncMethod,
        url: URL,
        body: JSONValue?,
        format: WireFormat,
        options: SyncOptions,
        rootKey: String? = nil
    ) throws(SyncError) -> SyncRequest {
        try makeRequest(method, target: .url(url), body: body, format: format, options: options, rootKey: rootKey)
    }

    /// ``makeRequest(_:url:body:format:options:rootKey:)`` for a target that may be a path
    /// whose `URL` is made only when a backend asks for it (``Model/requestTarget(for:options:)``).
    func makeRequest(
        _ method: SyncMethod,
        target: RequestTarget,
        body: JSONValue?,
        format: WireFormat,
        options: SyncOptions,
        rootKey: String? = nil
    ) throws(SyncError) -> SyncRequest {
        try HTTPHeaderSyntax.validate(options.headers)
        for file in options.files.values { try MIMEType.validate(file.mimeType) }
        if case .multipart(let form) = options.requestBody { try MIMEType.validate(form) }
        // Most requests have no query: the two lists are neither built nor joined then.
        let hasQuery = !format.query.isEmpty || !options.query.isEmpty || !options.resources.isEmpty
        var request = SyncRequest(
            method: method,
            target: target,
            query: hasQuery
                ? (format.queryItems(then: options.query) + format.resourceQueryItems(options.resources)).map {
                    URLQueryItem(name: $0.key, value: $0.value)
                } : []
        )
        request.body = body
        request.headers = format.headers(for: method, options: options)
        request.timeout = options.timeout
        request.emulateHTTP = options.emulateHTTP
        request.emulateJSON = options.emulateJSON
        request.context = options.custom
        request.requestBody = options.requestBody ?? format.encodedBody(body)
        request.maximumResponseBytes = options.maximumResponseBytes
        request.onUploadProgress = options.onUploadProgress
        request.rootKey = rootKey
        return request
    }

    /// Emits `request`, runs `afterRequest`, then awaits the backend.
    ///
    /// A failure is reported (to the options' failure handler, else as an `error` event) and
    /// thrown, a server's
    /// validation errors with the app's attribute names (``WireFormat/jsonAPI`` error objects
    /// among them), a refused media type as ``SyncError/mediaTypeRefused(status:mediaType:body:)``.
    /// A failure whose status a response mapping reads (the model's class's, else `mappings`)
    /// is read by that mapping.
    func performSync(
        _ request: SyncRequest,
        with backend: any Sync,
        model: Model?,
        collection: (any ModelCollection)?,
        format: WireFormat,
        options: SyncOptions,
        mappings: ResponseMappings? = nil,
        baseURL: URL? = nil,
        afterRequest: () -> Void = {}
    ) async throws(SyncError) -> SyncResponse {
        if Task.isCancelled { throw .cancelled }
        dispatchIfHeard("request") {
            Event(name: "request", model: model, collection: collection, request: request, options: options.change)
        }
        afterRequest()
        do {
            return try await backend.perform(request)
        } catch {
            let failure: SyncError
            if Task.isCancelled {
                failure = .cancelled
            } else if let mappings = mappings ?? model.map({ type(of: $0).responseMappings }) {
                failure = mappings.appFailure(
                    error,
                    to: request,
                    format: format,
                    baseURL: baseURL ?? model?.resolvedBaseURL
                )
            } else {
                failure = format.appFailure(error)
            }
            if let model, backend.backend(as: (any SyncStateReporting).self) != nil, failure != .cancelled {
                model.setSyncState(.failed(failure), options: options.change)
            }
            reportSyncFailure(failure, request: request, model: model, collection: collection, options: options)
            throw failure
        }
    }

    /// Reports a failed operation: to the options' failure handler, else as `error`.
    ///
    /// A model whose server rejected it with validation errors (a 422, a 400 per field)
    /// first reports them as local validation does: ``Model/validationError`` is set and
    /// `invalid` fires (or the options' validation-error handler runs).
    func reportSyncFailure(
        _ error: SyncError,
        request: SyncRequest?,
        model: Model?,
        collection: (any ModelCollection)?,
        options: SyncOptions
    ) {
        if let model, case .validationFailed(let errors, status: .some) = error {
            model.reportInvalid(errors, options: options.change, emitsError: false)
        }
        if let onFailure = options.onFailure {
            onFailure(error)
        } else {
            dispatch(
                Event(
                    name: "error",
                    model: model,
                    collection: collection,
                    error: error,
                    request: request,
                    options: options.change
                )
            )
        }
    }

    /// Reports a successful operation: the options' success handler, then `sync`.
    func reportSyncSuccess(
        _ response: SyncResponse,
        request: SyncRequest,
        model: Model?,
        collection: (any ModelCollection)?,
        options: SyncOptions
    ) {
        reportSyncSuccess(
            response,
            request: request,
            model: model,
            collection: collection,
            change: options.change,
            onSuccess: options.onSuccess
        )
    }

    /// ``reportSyncSuccess(_:request:model:collection:options:)`` with the two parts of the
    /// options it reads, for a caller that has them without a whole `SyncOptions`.
    func reportSyncSuccess(
        _ response: SyncResponse,
        request: SyncRequest,
        model: Model?,
        collection: (any ModelCollection)?,
        change: ChangeOptions,
        onSuccess: ((SyncResponse) -> Void)?
    ) {
        model?.setSyncState(SyncState(response: response), options: change)
        onSuccess?(response)
        dispatchIfHeard("sync") {
            Event(
                name: "sync",
                model: model,
                collection: collection,
                request: request,
                response: response,
                options: change
            )
        }
    }

    /// Dispatches the event that `makeEvent` builds, named `name`, building it only when a
    /// handler will receive it: a `request` or `sync` event copies the request, the response
    /// and the options, which no one reads when neither this emitter nor the collection
    /// forwarding its events listens.
    ///
    /// Only for events that collections re-emit without acting on them
    /// (``Event/isActedOnByCollections`` is `false`), as ``changeEventTarget(named:)`` requires;
    /// the target is found right before the event is built, with no handler run between.
    @inline(__always)
    final func dispatchIfHeard(_ name: String, _ makeEvent: () -> Event) {
        let target = changeEventTarget(named: name)
        if case .nowhere = target { return }
        dispatch(makeEvent(), to: target)
    }
}
