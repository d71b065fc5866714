public import Foundation

/// Why a persistence operation failed.
///
/// Every backend throws these, and `error` events carry them, so code can handle a failure
/// the same way whichever backend is in use:
///
/// ```swift
/// do {
///     try await note.save()
/// } catch SyncError.validationFailed(let errors, _) {
///     show(errors["title"])
/// } catch SyncError.cancelled {
///     // the task was cancelled; the model is as it was
/// } catch {
///     print(error)
/// }
/// ```
public enum SyncError: Error, Sendable, Hashable {
    /// Neither the model, its collection nor the call gave a URL.
    case missingURL(String)
    /// A path segment would not address a record under its collection, so nothing was sent:
    /// an id that is empty, `.` or `..`, or a request URL with a `.` or `..` segment (also
    /// percent-encoded), which `URLSession` and servers resolve to another resource. The value
    /// is the segment.
    case unsafePathSegment(String)
    /// No backend is configured for the model or collection.
    case missingBackend
    /// The request could not be sent or the connection failed (refused, reset, DNS, TLS).
    case transport(String)
    /// A local store failed: the disk is full, the file is corrupt, unreadable or read-only.
    case storage(String)
    /// The request took longer than its timeout.
    case timedOut
    /// The calling task was cancelled; nothing was applied to the model.
    case cancelled
    /// The server answered with a non-success status that is not a validation error.
    case httpStatus(Int, body: JSONValue?)
    /// A local store (``InMemorySync``, `SQLiteSync`, any ``RecordStore``) refused the
    /// operation and changed nothing: the record is missing, its version does not match the
    /// request's `If-Match`, or the body is not a JSON object. ``status`` gives the HTTP status
    /// a REST server answers in the same case, so `error.status == 404` and ``isNotFound``
    /// work with every backend.
    case storeRefused(StoreRefusal)
    /// Validation failed: locally (status `nil`, nothing was sent) or on the server
    /// (a 422, or a 400 whose body lists errors per field).
    case validationFailed(ValidationError, status: Int?)
    /// A successful response's body cannot be decoded: no codec of ``RESTSync/codecs`` reads
    /// its `Content-Type` (a captive portal's `text/html`), or the codec for it failed (JSON
    /// that breaks off). The reason names the type; the text is the body's.
    case undecodableBody(status: Int, reason: String, text: String)
    /// The response is JSON, but not what the model or collection can use.
    case invalidResponse(String)
    /// The request body cannot be written as JSON, such as attributes nested deeper than
    /// ``JSONValue/maximumParsingDepth`` levels; nothing was sent or stored.
    case unencodableBody(JSONWriteError)
    /// A ``Route`` parameter has no value: the model has no such attribute (nor its owner an
    /// id for it), or a call's ``SyncOptions/routeParameters`` lack it. Nothing was sent.
    case missingRouteParameter(String, route: String)
    /// The response does not fit the model's ``WireFormat``: a required root key is missing, a
    /// record is not an object, a Drupal field is not a list of items, a created record has
    /// no id. `keyPath` names the
    /// place in the response, in wire names (`notes[2]`, `note`, `title[0]`); the model or
    /// collection is left as it was.
    case unmappableResponse(keyPath: String, reason: String)
    /// A file to upload (``FilePart/file(_:filename:mimeType:)``) is missing, is a directory
    /// or cannot be read; nothing was sent. The value is the file's URL.
    case unreadableFile(URL, reason: String)
    /// ``Paginator/loadPage(_:)`` was asked for a page it cannot load: a number below 1, or
    /// a page of a cursor or link style that has not been reached through its neighbours.
    /// Nothing was sent.
    case pageUnavailable(Int, reason: String)
    /// A request header cannot be sent as given, so nothing was sent: its name is not an
    /// RFC 9110 token (a line break in it would add headers), or its value has a control
    /// character other than a tab (a line break or NUL, which `URLSession` would drop the
    /// header for without a word). The value is never in the error, since it may be a
    /// credential.
    ///
    /// ```swift
    /// try await note.fetch(options: SyncOptions(headers: ["X-Token": "abc\n"]))
    /// // throws .invalidHeader(name: "X-Token", reason: "the value has a line feed (U+000A), …")
    /// ```
    case invalidHeader(name: String, reason: String)
    /// A file's MIME type (``FilePart/mimeType``) is not a media type (`type/subtype`, each an
    /// RFC 9110 token, then `; name=value` parameters), so nothing was sent: it is written
    /// into the part's header as it is, where a line break would add headers or replace the
    /// file's content. The value is the MIME type.
    case invalidMIMEType(String, reason: String)
    /// The response body is larger than the request's limit (``RESTSync/maximumResponseBytes``,
    /// or the call's ``SyncOptions/maximumResponseBytes``): its `Content-Length` says so, or
    /// more bytes than that arrived. The rest was not read, and nothing was applied to the
    /// model or collection. The value is the limit, in bytes.
    case responseTooLarge(limit: Int)
    /// The server refused the wire format's ``WireFormat/mediaType``: 406 when it cannot
    /// answer in it (`Accept`), 415 when it cannot read a body in it (`Content-Type`). Nothing
    /// changed on the server; the body is the server's explanation, if any.
    ///
    /// Thrown for formats that name a media type, such as ``WireFormat/jsonAPI``; with the
    /// others, these statuses stay ``httpStatus(_:body:)``.
    ///
    /// ```swift
    /// } catch SyncError.mediaTypeRefused(415, let mediaType, _) {
    ///     print("the server does not read \(mediaType)")
    /// }
    /// ```
    case mediaTypeRefused(status: Int, mediaType: String, body: JSONValue?)
    /// ``Model/fetch(options:)`` was called on a model with no id whose URL would be its
    /// collection's (`/notes` instead of `/notes/7`), so nothing was sent and nothing changed:
    /// NSRails' `NSRNullRemoteIDException`. The value is the model's class name.
    ///
    /// A model whose URL the call, ``Model/fetchURL``, a route or an overridden ``Model/url()``
    /// names (a singular resource such as `/settings`) is fetched without an id.
    ///
    /// ```swift
    /// do {
    ///     try await Note(["title": "Draft"]).fetch()
    /// } catch SyncError.missingID(let model) {
    ///     print("\(model) is not saved yet")
    /// }
    /// ```
    case missingID(model: String)
    /// A request body cannot be written in its media type (``RequestBody/encoded(_:mediaType:)``,
    /// ``BodyEncoding/mediaType(_:)``): no codec of ``RESTSync/codecs`` handles it, or the codec
    /// threw ``BodyCodecError``. Nothing was sent.
    ///
    /// ```swift
    /// } catch SyncError.unwritableBody(let mediaType, let reason) {
    ///     print("cannot send \(mediaType): \(reason)")
    /// }
    /// ```
    case unwritableBody(mediaType: String, reason: String)
    /// The models of one all-or-nothing call (``AtomicOperations/save(_:destroying:options:)``,
    /// ``Store/saveChanges(atomically:options:)``) resolve to different backends, or a model's
    /// URL is on another server than the atomic endpoint, so no one request or transaction
    /// can hold them all. Nothing was sent and nothing changed; save each backend's models
    /// in a call of their own. `model` is the class of the first model that differs.
    ///
    /// ```swift
    /// } catch SyncError.atomicBatchSpansBackends(let model, let reason) {
    ///     print("\(model): \(reason)")
    /// }
    /// ```
    case atomicBatchSpansBackends(model: String, reason: String)
    /// The server applied an atomic request (it answered with success, so every operation
    /// was committed), but some of its results cannot be mapped to the models sent: the wrong
    /// number of results, a resource of another type, one that is not an object or lacks an
    /// id. What could be mapped was applied; `unmapped` lists the ``Model/cid`` of each model
    /// that got no record. Such a new model stays without an id but is not pending any more;
    /// fetch its collection to get the server's record rather than saving it again, which
    /// would create it twice.
    ///
    /// ```swift
    /// } catch SyncError.atomicBatchCommitted(let unmapped, _) {
    ///     try await articles.fetch()   // the server has them; read them back
    /// }
    /// ```
    case atomicBatchCommitted(unmapped: [String], reason: String)
    /// A call that only creates (``Collection/bulkSave(_:options:)``) was given a model that
    /// already has an id, so creating it again would duplicate it on the server. Nothing was
    /// sent and nothing changed; save such a model on its own. `model` is its class name and
    /// `id` its id.
    ///
    /// ```swift
    /// } catch SyncError.notNew(let model, let id) {
    ///     print("\(model) \(id) is saved already")
    /// }
    /// ```
    case notNew(model: String, id: JSONValue)
    /// A read answered from a local copy (KeelSQLite's `CachingSync` offline) has a query
    /// parameter the copy cannot evaluate as the server would: a search (`search=`,
    /// `filter[search]=`), an operator (`filter[title][lt]=`), a path (`filter[author.name]=`),
    /// or a name that is no attribute or to-one relationship of the stored records. The copy
    /// answers equality on an attribute or a relationship's id (`filter[title]=`) and
    /// ignores only the parameters that shape a document (`include`, `fields[…]`, `sort`,
    /// `page[…]`); rather than answer a guess, it throws this. Nothing changed; read without
    /// the parameter and filter the models in the app, or read again online. `parameter` is
    /// the parameter's name as sent.
    ///
    /// ```swift
    /// } catch SyncError.unevaluableQuery(let parameter, let reason) {
    ///     print("\(parameter) needs the server: \(reason)")
    /// }
    /// ```
    case unevaluableQuery(parameter: String, reason: String)

    /// The validation errors of a ``validationFailed(_:status:)``, local or from the server.
    ///
    /// ```swift
    /// error.validationError?["title"]  // ["can't be blank"]
    /// ```
    public var validationError: ValidationError? {
        if case .validationFailed(let errors, _) = self { return errors }
        return nil
    }

    /// The HTTP status of the failure, if there was a response; for a local store's refusal,
    /// the status a REST server answers in the same case (``StoreRefusal/status``).
    ///
    /// ```swift
    /// if error.status == 404 { print("gone") }
    /// ```
    public var status: Int? {
        switch self {
        case .httpStatus(let status, _): return status
        case .storeRefused(let refusal): return refusal.status
        case .validationFailed(_, let status): return status
        case .undecodableBody(let status, _, _): return status
        case .mediaTypeRefused(let status, _, _): return status
        default: return nil
        }
    }

    /// A one-line summary of the HTML page the server answered with, or `nil` when the error
    /// carries none: NSRails' `succinctErrorMessages`.
    ///
    /// A framework's debug or error page (Rails', Django's) or a proxy's is summarized by its
    /// first `<h1>` (else its `<title>`) and the first line of its first `<pre>`, where
    /// Django's debug page names the exception; tags are dropped, entities decoded, and the
    /// result is cut to 160 characters. ``description`` shows it instead of the markup; the
    /// whole page stays in the error (the body of ``httpStatus(_:body:)``, the text of
    /// ``undecodableBody(status:reason:text:)``).
    ///
    /// ```swift
    /// let error = SyncError.httpStatus(500, body: "<html><body><h1>Server Error (500)</h1></body></html>")
    /// error.errorPageSummary  // "Server Error (500)"
    /// print(error)            // The server answered 500: Server Error (500)
    /// ```
    public var errorPageSummary: String? {
        switch self {
        case .httpStatus(_, .string(let text)?), .mediaTypeRefused(_, _, .string(let text)?),
            .undecodableBody(_, _, let text):
            return ErrorPageSummary.summary(of: text)
        default: return nil
        }
    }

    /// Whether the record does not exist: the server answered 404, or a local store has no
    /// such record (also when the request was conditional).
    ///
    /// ```swift
    /// do {
    ///     try await note.fetch()
    /// } catch {
    ///     if error.isNotFound { collection.remove(note) }
    /// }
    /// ```
    public var isNotFound: Bool {
        switch self {
        case .httpStatus(404, _): return true
        case .storeRefused(let refusal): return refusal.reason == .notFound
        default: return false
        }
    }

    /// The error a backend throws for a non-success response: validation errors for a 422 or
    /// 400 whose JSON body lists errors (per field or model-wide), and for Drupal 7's 406 with
    /// `form_errors`; otherwise
    /// ``httpStatus(_:body:)``, for instance for a plain-text 422 or Django REST framework's
    /// `{"detail": "…"}`.
    ///
    /// ```swift
    /// let error = SyncError(failing: SyncResponse(status: 422, body: ["title": ["can't be blank"]]))
    /// ```
    ///
    /// - Parameter response: A response whose status is not 2xx.
    public init(failing response: SyncResponse) {
        if response.status == 422 || response.status == 400 || Self.isDrupal7FormError(response),
            let body = response.body,
            body.objectValue != nil || body.arrayValue != nil,
            let errors = ValidationError(json: body)
        {
            self = .validationFailed(errors, status: response.status)
        } else {
            self = .httpStatus(response.status, body: response.body)
        }
    }

    /// Drupal 7's Services module answers form validation errors with 406 and
    /// `{"form_errors": {...}}`.
    private static func isDrupal7FormError(_ response: SyncResponse) -> Bool {
        response.status == 406 && response.body?["form_errors"]?.objectValue != nil
    }
}

extension SyncError: CustomStringConvertible {
    /// A sentence describing the failure.
    ///
    /// ```swift
    /// print(SyncError.timedOut)  // The request timed out
    /// ```
    public var description: String {
        switch self {
        case .missingURL(let what): return "A URL must be specified: \(what)"
        case .unsafePathSegment(let segment):
            return "The path segment \"\(segment)\" does not address a record: an empty, \".\" or \"..\" "
                + "segment leads to another resource, so nothing was sent"
        case .missingBackend: return "No Sync backend is configured"
        case .transport(let message): return "The request failed: \(message)"
        case .storage(let message): return "The local store failed: \(message)"
        case .timedOut: return "The request timed out"
        case .cancelled: return "The request was cancelled"
        case .httpStatus(let status, let body):
            if let summary = errorPageSummary { return "The server answered \(status): \(summary)" }
            return "The server answered \(status)" + (body.map { ": \($0.debugDescription.prefix(200))" } ?? "")
        case .storeRefused(let refusal): return refusal.description
        case .validationFailed(let errors, let status):
            return (status.map { "The record was rejected (\($0))" } ?? "Validation failed") + ": \(errors)"
        case .undecodableBody(let status, let reason, _):
            return "The response (\(status)) cannot be decoded: \(reason)" + (errorPageSummary.map { " (\($0))" } ?? "")
        case .invalidResponse(let reason): return "The response cannot be used: \(reason)"
        case .unencodableBody(let error): return "The request body cannot be sent: \(error)"
        case .missingRouteParameter(let name, let route):
            return "The route \(route) needs a value for :\(name)"
        case .unmappableResponse(let keyPath, let reason):
            return
                "The response does not fit the wire format at \(keyPath.isEmpty ? "its top level" : keyPath): \(reason)"
        case .unreadableFile(let url, let reason):
            return "The file \(url.path) cannot be uploaded: \(reason); nothing was sent"
        case .pageUnavailable(let page, let reason): return "Page \(page) cannot be loaded: \(reason)"
        case .invalidHeader(let name, let reason):
            return "The header \(name.debugDescription) cannot be sent: \(reason); nothing was sent"
        case .mediaTypeRefused(let status, let mediaType, _):
            return status == 415
                ? "The server does not accept request bodies in \(mediaType) (HTTP 415)"
                : "The server cannot answer in \(mediaType) (HTTP \(status))"
        case .invalidMIMEType(let type, let reason):
            return "The MIME type \(type.debugDescription) is not a media type: \(reason); nothing was sent"
        case .responseTooLarge(let limit):
            return "The response is larger than the limit of \(limit) bytes; the rest was not read"
        case .missingID(let model):
            return "\(model) has no id, so it cannot be fetched: its URL would be its collection's; nothing was sent"
        case .unwritableBody(let mediaType, let reason):
            return "The request body cannot be written as \(mediaType): \(reason); nothing was sent"
        case .atomicBatchSpansBackends(let model, let reason):
            return "\(model) cannot be in this atomic batch: \(reason); nothing was sent"
        case .atomicBatchCommitted(let unmapped, let reason):
            return
                "The server committed the atomic batch, but \(unmapped.count) of its results cannot be mapped: \(reason)"
        case .notNew(let model, let id):
            return "\(model) \(id) has an id already, so it cannot be created again; nothing was sent"
        case .unevaluableQuery(let parameter, let reason):
            return "The local copy cannot answer the query parameter \(parameter) as the server would: \(reason)"
        }
    }
}
