import Foundation
public import Keel

/// A `Sync` that joins a remote backend and a local store, so an app keeps working without
/// a network and catches up afterwards.
///
/// **Reads** follow a ``ReadPolicy`` (per call, per collection, or the default
/// ``ReadPolicy/remoteFirst``). What the remote answers is stored locally: a single record
/// is merged, and a whole list (a read without query parameters whose answer names no next
/// page) is reconciled: records the server no longer returns are removed locally (orphan
/// deletion), except those with queued changes, which keep their local state. A page of a
/// list (DRF's `{"count", "next", "previous", "results"}` envelope, found through the
/// request's `SyncRequest.listKeyPath`, or a list with a `Link` header) is merged. A list
/// answered locally is filtered, ordered and cut into pages as its query asks (see *Working
/// Offline*), in the shape the server answers.
///
/// **Writes** go to the local store at once and, in the same transaction, into a durable
/// queue (``SQLiteOfflineStore`` keeps both in one SQLite file). When the remote is
/// reachable the queue is sent in order; every queued change carries an `Idempotency-Key`
/// header that stays the same on every attempt, so a replay after a crash never creates a
/// record twice on a server that honours it. A create made offline gets a
/// ``TemporaryID`` that is replaced by the server's id on replay, in the record, in the
/// ``ForeignKey``s of records that point to it and in later queued changes.
///
/// **Conflicts** are found before a queued update or delete is sent, by comparing the
/// server's version (``VersionCheck``) with the one the change was based on; a
/// ``ConflictPolicy`` decides, and a conflict for a person stays in ``conflicts()``.
///
/// Models show where they stand in `Model.syncState` (`pending` while a change waits).
///
/// ```swift
/// let local = try SQLiteOfflineStore(fileURL: cacheURL)
/// let cache = CachingSync(remote: RESTSync(baseURL: api), local: local)
/// let notes = Collection<Note>(url: "/notes", sync: cache)
/// try await notes.fetch()                                   // from the server, stored locally
/// let note = try await notes.create(["title": "On the train"])  // offline: id "local-1", pending
/// // … back online:
/// let report = try await cache.replay()                     // sent; note gets its server id
/// ```
public final class CachingSync: SyncStateReporting {
    /// The backend the queue is sent to and reads go to.
    ///
    /// ```swift
    /// cache.remote
    /// ```
    public let remote: any Sync

    /// The local copy and queue.
    ///
    /// ```swift
    /// try await cache.local.queuedChanges().count
    /// ```
    public let local: any OfflineStore

    /// The policies and foreign keys.
    ///
    /// ```swift
    /// cache.configuration.defaultReadPolicy  // .remoteFirst
    /// ```
    public let configuration: Configuration

    /// The header each queued change is sent with.
    ///
    /// ```swift
    /// CachingSync.idempotencyKeyHeader  // "Idempotency-Key"
    /// ```
    public static let idempotencyKeyHeader = "Idempotency-Key"

    let gate = ReplayGate()
    /// What the cache learned from the classes a `Store` registered (``register(_:)``).
    let learned = Lock(LearnedClasses())

    /// Joins a remote and a local store.
    ///
    /// ```swift
    /// let cache = CachingSync(remote: RESTSync(baseURL: api), local: try SQLiteOfflineStore(fileURL: url))
    /// ```
    ///
    /// - Parameters:
    ///   - remote: The server's backend (usually a `RESTSync`, possibly wrapped in
    ///     decorators).
    ///   - local: The local copy and queue.
    ///   - configuration: Policies and foreign keys.
    public init(remote: any Sync, local: any OfflineStore, configuration: Configuration = Configuration()) {
        self.remote = remote
        self.local = local
        self.configuration = configuration
    }

    /// Performs a read by its ``ReadPolicy``, or stores a write locally, queues it and
    /// sends the queue when the remote is reachable.
    ///
    /// A write's response is the server's when the change could be sent at once, and the
    /// local one otherwise, with `SyncState.headerName` set to `pending`.
    ///
    /// ```swift
    /// let response = try await cache.perform(SyncRequest(method: .read, url: URL(string: "/notes")!))
    /// ```
    ///
    /// - Parameter request: The operation.
    /// - Returns: The remote's or the local answer.
    /// - Throws: `SyncError`: the remote's error for a read it could not answer from the
    ///   local copy, the local store's REST errors (404, 422) for a write, a server's
    ///   rejection of a write sent at once (the write is then undone locally), and
    ///   `SyncError.storage(_:)`.
    public func perform(_ request: SyncRequest) async throws(SyncError) -> SyncResponse {
        if request.method == .read { return try await read(request) }
        return try await write(request)
    }

    // MARK: - Reads

    private func read(_ request: SyncRequest) async throws(SyncError) -> SyncResponse {
        let scoped = ScopedRead(request, lists: configuration.scopedLists)
        switch request.readPolicy ?? configuration.readPolicy(for: scoped?.list.collection ?? request.path) {
        case .localOnly:
            return try await answerLocally(request, scoped: scoped)
        case .remoteOnly:
            return try await fetchRemote(request, scoped: scoped)
        case .localThenRemote:
            if try await holdsLocal(request, scoped: scoped) { return try await answerLocally(request, scoped: scoped) }
            return try await fetchRemote(request, scoped: scoped)
        case .remoteFirst:
            do {
                return try await fetchRemote(request, scoped: scoped)
            } catch  where Self.isTemporary(error) {
                guard try await holdsLocal(request, scoped: scoped) else { throw error }
                return try await answerLocally(request, scoped: scoped)
            }
        }
    }

    /// The local answer: a JSON:API document for a read that asks for JSON:API.
    private func answerLocally(_ request: SyncRequest, scoped: ScopedRead?) async throws(SyncError) -> SyncResponse {
        guard Self.asksForJSONAPI(request) else { return try await readLocalList(request, scoped: scoped) }
        return try await readLocalDocument(request, scoped: scoped)
    }

    /// Reads from the remote and stores the answer: a list is reconciled, a record merged;
    /// a scoped list's records go to its collection.
    private func fetchRemote(_ request: SyncRequest, scoped: ScopedRead?) async throws(SyncError) -> SyncResponse {
        let response = try await remote.perform(request)
        // An empty success that is not JSON (a captive portal's empty `200 text/html`) does not
        // answer a read; a body that is not JSON already made `RESTSync` throw.
        if response.body == nil, let error = Self.unexpectedAnswer(response) { throw error }
        if let document = Self.jsonAPIDocument(response, answering: request) {
            return try await storeDocument(document, answering: response, to: request, scoped: scoped)
        }
        let resource = ResourcePath(request.url)
        let check = configuration.versionCheck(for: request.path)
        if let list = Self.list(in: response.body, at: request.listKeyPath), list.allSatisfy({ $0.objectValue != nil })
        {
            let isComplete = ResourcePath.queryItems(of: request).isEmpty && Self.isWholeList(response)
            let records = list.compactMap { Self.record(in: $0, rootKey: request.rootKey) }.map {
                RemoteRecord(attributes: $0, version: Self.version(of: $0, headers: [:], check: check))
            }
            var merged: SyncResponse
            if let scoped {
                merged = try await storeScoped(records, answering: response, scoped: scoped, isComplete: isComplete)
            } else {
                try await local.store(records, in: resource.path, isComplete: isComplete)
                guard isComplete else { return response }
                merged = response
                merged.body = try await local.read(request).body
            }
            merged.body = Self.replacingList(in: response.body, at: request.listKeyPath, with: merged.body)
            return merged
        }
        if let record = Self.record(in: response.body, rootKey: request.rootKey), let id = record[local.idAttribute],
            !id.isNull,
            let parent = resource.parent
        {
            let version = Self.version(of: record, headers: response.headers, check: check)
            try await local.store([RemoteRecord(attributes: record, version: version)], in: parent, isComplete: false)
            let queued = try await local.queuedChanges().filter {
                $0.collection == CachePath.normalized(parent) && $0.recordID == CachePath.key(id)
            }
            if !queued.isEmpty { return try await local.read(request) }
        }
        return response
    }

    // MARK: - Writes

    private func write(_ original: SyncRequest) async throws(SyncError) -> SyncResponse {
        let request = Self.unwrappingResource(original)
        let key = request.headers[Self.idempotencyKeyHeader] ?? UUID().uuidString
        let target = CachePath.target(of: request)
        let before = try await target.id.asyncMap { (id) async throws(SyncError) in
            try await local.record(id, in: target.collection)
        }
        let response = try await local.write(
            request,
            idempotencyKey: key,
            versionCheck: configuration.versionCheck(for: request.path)
        )
        guard configuration.sendsImmediately else { return Self.rewrapping(response, like: request) }
        let report = try await replay()
        if let sent = report.sent.first(where: { $0.change.idempotencyKey == key }) {
            return sent.response
        }
        if let failure = report.failures.first(where: { $0.change.idempotencyKey == key }) {
            // Rejected at once: undo the local write and report the server's answer.
            let server = before.flatMap { $0 }.map { RemoteRecord(attributes: $0, version: nil) }
            try await local.discard(failure.change, serverRecord: server)
            throw failure.error
        }
        return Self.rewrapping(response, like: request)
    }

    /// A JSON:API write (`{"data": {"type": …}}`) with `data` as its root key, so the local
    /// copy keeps the resource object, whose `id` is where a temporary id goes.
    private static func unwrappingResource(_ request: SyncRequest) -> SyncRequest {
        guard request.rootKey == nil, let object = request.body?.objectValue, object.count == 1,
            object["data"]?["type"]?.stringValue != nil
        else { return request }
        var unwrapping = request
        unwrapping.rootKey = "data"
        return unwrapping
    }

    /// The local answer to a JSON:API write as a JSON:API document, `{"data": resource}`.
    private static func rewrapping(_ response: SyncResponse, like request: SyncRequest) -> SyncResponse {
        guard request.rootKey == "data", let body = response.body, body["data"] == nil else { return response }
        var wrapped = response
        wrapped.body = ["data": body]
        return wrapped
    }

    // MARK: - Helpers

    /// Whether an error means "try again later" (no connection, a timeout, a 5xx, 429 or
    /// 408, an answer over the size limit, which says nothing about the write) rather than a
    /// rejection: the errors a replay stops at and a read falls back on.
    ///
    /// A 2xx answer whose body is not JSON (`SyncError.undecodableBody(status:reason:text:)`
    /// with a 2xx status) is temporary: under HTTP a success is never a rejection, and such
    /// an answer usually comes from a captive portal (hotel or airport Wi-Fi answering every
    /// request with its sign-in page, `200 text/html`) or a proxy, not from the server.
    ///
    /// ```swift
    /// CachingSync.isTemporary(.transport("offline"))        // true
    /// CachingSync.isTemporary(.undecodableBody(status: 200, reason: "text/html", text: "<html>"))  // true
    /// CachingSync.isTemporary(.httpStatus(422, body: nil))  // false
    /// ```
    ///
    /// - Parameter error: A backend's error.
    /// - Returns: `true` when the same request may succeed later.
    public static func isTemporary(_ error: SyncError) -> Bool {
        switch error {
        case .transport, .timedOut, .cancelled, .responseTooLarge: return true
        case .httpStatus(let status, _): return status >= 500 || status == 429 || status == 408
        case .undecodableBody(let status, _, _): return (200..<300).contains(status)
        default: return false
        }
    }

    /// The error for a success that is not the API's answer to a queued change (or, when
    /// empty, to a read): a 2xx other than 204 whose `Content-Type` is not JSON (an empty
    /// `200 text/html` from a captive portal, or a plain-text page); `nil` for an answer the
    /// cache can take.
    static func unexpectedAnswer(_ response: SyncResponse) -> SyncError? {
        guard (200..<300).contains(response.status), response.status != 204,
            let contentType = response.headers["content-type"],
            !JSONMediaType.matches(contentType)
        else { return nil }
        return .undecodableBody(
            status: response.status,
            reason: "its Content-Type is \(contentType), not JSON",
            text: response.body?.stringValue ?? ""
        )
    }

    /// The record of a server's answer: the object, or the object under `rootKey` when the
    /// answer is wrapped in it (Rails with `include_root_in_json`, or JSON:API's `data`, which
    /// a document may accompany with `included`, `meta`, `links` and `jsonapi`).
    static func record(in body: JSONValue?, rootKey: String?) -> Attributes? {
        guard let object = body?.objectValue else { return nil }
        if let rootKey, let record = object[rootKey]?.objectValue,
            object.count == 1 || (rootKey == "data" && object.keys.allSatisfy(jsonAPITopLevel.contains))
        {
            return record
        }
        return object
    }

    /// The members a JSON:API document may have beside its primary `data`.
    static let jsonAPITopLevel: Set<String> = ["data", "included", "meta", "links", "jsonapi"]

    /// The server's record of a queued change, read again; `nil` when it cannot be read.
    func serverRecord(of change: QueuedChange) async -> Attributes? {
        var read = SyncRequest(method: .read, url: change.url)
        read.rootKey = change.rootKey
        return Self.record(in: try? await remote.perform(read).body, rootKey: change.rootKey)
    }

    /// The version of a record: the ETag header, or the version attribute's value (for a
    /// JSON:API resource object, the member of its `attributes`, else of its `meta`).
    static func version(of record: Attributes?, headers: [String: String], check: VersionCheck) -> String? {
        switch check {
        case .none: return nil
        case .etag: return headers["etag"]
        case .attribute(let name):
            let resource = record.flatMap { JSONAPIResource.isResource($0) ? $0 : nil }
            let member = resource.map { $0["attributes"]?[name] ?? $0["meta"]?[name] } ?? record?[name]
            guard let value = member, !value.isNull else { return nil }
            return value.stringValue ?? value.description
        }
    }
}

extension Optional {
    /// `map` with an async, throwing transform.
    fileprivate func asyncMap<T>(_ transform: (Wrapped) async throws(SyncError) -> T) async throws(SyncError) -> T? {
        guard let self else { return nil }
        return try await transform(self)
    }
}

/// Runs replays one at a time in this process (other processes are kept from sending a
/// change twice by the store's transactions and the idempotency keys).
actor ReplayGate {
    private var isRunning = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func enter() async {
        guard isRunning else {
            isRunning = true
            return
        }
        await withCheckedContinuation { waiters.append($0) }
    }

    func leave() {
        if waiters.isEmpty {
            isRunning = false
        } else {
            waiters.removeFirst().resume()
        }
    }
}
