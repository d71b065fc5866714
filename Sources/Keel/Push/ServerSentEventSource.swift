public import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A ``PushSource`` that reads a server's changes from Server-Sent Events
/// (`text/event-stream`), the push that stock Rails (`ActionController::Live`) and Django
/// (`StreamingHttpResponse`) can serve and that passes through HTTP proxies.
///
/// Each event of type `created`, `updated` or `deleted` whose `data:` is a JSON object is
/// one change: the record, or just its id (the store then reads the record). Other events
/// (and comments, which servers send as heartbeats) are skipped; ``decode`` can read
/// another format.
///
/// The source connects with the credentials and origin rules of the ``RESTSync`` it is
/// given: its ``RESTSync/headers`` go only to the origin of its ``RESTSync/baseURL``, and a
/// redirect to another origin drops them. When the connection drops, ends or stays quiet
/// for ``readTimeout`` (nothing at all arrived, not even a heartbeat), it reconnects after
/// the server's `retry:` time, or ``reconnectDelay``, doubled after each failed attempt up
/// to ``maximumReconnectDelay``, sending `Last-Event-ID` so the server resumes after the
/// last event received. A server that answers with a client error (400–499 but 408 and
/// 429) or with something other than an event stream ends the changes with
/// `SyncError.httpStatus(_:body:)`.
///
/// ```swift
/// let api = RESTSync(baseURL: URL(string: "https://api.example.com")!, headers: ["Authorization": "Bearer …"])
/// let pushes = ServerSentEventSource(path: "/todos/stream", sync: api)
/// let listening = Task { @MainActor in try await store.listen(Todo.self, to: pushes) }
/// ```
public struct ServerSentEventSource: PushSource {
    /// The stream's URL: absolute, or relative to the ``sync``'s base URL.
    public var url: URL
    /// The backend whose base URL, headers and origin rules the connection uses.
    public var sync: RESTSync
    /// How long the stream may stay silent (no event, no comment) before the source
    /// reconnects: 45 seconds unless set, enough for servers that send a heartbeat every 15
    /// to 30 seconds.
    public var readTimeout: Duration
    /// The first wait before reconnecting when the server sets no `retry:`.
    public var reconnectDelay: Duration
    /// The longest wait between reconnection attempts.
    public var maximumReconnectDelay: Duration
    /// The attribute that holds the record's id.
    public var idAttribute: String
    /// The attribute that holds the record's version, which orders the changes of a record.
    public var versionAttribute: String?
    /// Reads a change from an event; `nil` skips the event. The default reads `created`,
    /// `updated` and `deleted` events whose data is a JSON object (the record, or `{"id": …}`).
    public var decode: @Sendable (ServerSentEvent) -> RemoteChange?

    /// Creates a source for a stream.
    ///
    /// ```swift
    /// let pushes = ServerSentEventSource(path: "/todos/stream", sync: api, readTimeout: .seconds(60))
    /// ```
    ///
    /// - Parameters:
    ///   - path: The stream's URL, absolute or relative to the backend's base URL.
    ///   - sync: The backend whose base URL, headers and origin rules apply.
    ///   - readTimeout: How long the stream may stay silent.
    ///   - reconnectDelay: The first wait before reconnecting.
    ///   - maximumReconnectDelay: The longest wait.
    ///   - idAttribute: The attribute that holds record ids.
    ///   - versionAttribute: The attribute that holds record versions.
    public init(
        path: String,
        sync: RESTSync,
        readTimeout: Duration = .seconds(45),
        reconnectDelay: Duration = .seconds(1),
        maximumReconnectDelay: Duration = .seconds(30),
        idAttribute: String = "id",
        versionAttribute: String? = "updated_at"
    ) {
        self.url = URL(string: path) ?? URL(filePath: path)
        self.sync = sync
        self.readTimeout = readTimeout
        self.reconnectDelay = reconnectDelay
        self.maximumReconnectDelay = maximumReconnectDelay
        self.idAttribute = idAttribute
        self.versionAttribute = versionAttribute
        self.decode = { [idAttribute, versionAttribute] event in
            Self.change(in: event, idAttribute: idAttribute, versionAttribute: versionAttribute)
        }
    }

    /// The change a `created`, `updated` or `deleted` event with a JSON object carries.
    ///
    /// ```swift
    /// ServerSentEventSource.change(in: ServerSentEvent(id: "1", event: "deleted", data: #"{"id": 7}"#))
    /// ```
    ///
    /// - Parameters:
    ///   - event: The event.
    ///   - idAttribute: The attribute that holds the id.
    ///   - versionAttribute: The attribute that holds the version.
    /// - Returns: The change, or `nil` for another event.
    public static func change(
        in event: ServerSentEvent,
        idAttribute: String = "id",
        versionAttribute: String? = "updated_at"
    ) -> RemoteChange? {
        guard let kind = RemoteChange.Kind(rawValue: event.event),
            let record = try? JSONValue(parsing: Data(event.data.utf8)).objectValue,
            let id = record[idAttribute], !id.isNull
        else { return nil }
        let version = versionAttribute.flatMap { record[$0] }.flatMap { $0.isNull ? nil : ($0.stringValue ?? $0.description) }
        return RemoteChange(kind, id: id, attributes: kind == .deleted ? nil : record, version: version)
    }

    /// The changes from `lastEventID` on, reconnecting as needed (see the type's discussion).
    ///
    /// ```swift
    /// for try await pushed in pushes.changes(after: "41") { print(pushed.eventID ?? "") }
    /// ```
    ///
    /// - Parameter lastEventID: The id of the last event applied, or `nil`.
    /// - Returns: The changes; the stream throws `SyncError` when the server refuses the
    ///   stream or the request cannot be built.
    public func changes(after lastEventID: String?) -> AsyncThrowingStream<PushedChange, any Error> {
        Self.changes(in: batches(after: lastEventID))
    }

    /// The changes from `lastEventID` on, the changes of the events parsed from one read
    /// from the connection as one batch, reconnecting as needed (see the type's discussion).
    ///
    /// A read that completes no event with a change (a heartbeat, part of an event, an
    /// event ``decode`` skips) makes no batch.
    ///
    /// ```swift
    /// for try await batch in pushes.batches(after: "41") { print(batch.count, "events in one read") }
    /// ```
    ///
    /// - Parameter lastEventID: The id of the last event applied, or `nil`.
    /// - Returns: The batches; the stream throws `SyncError` when the server refuses the
    ///   stream or the request cannot be built.
    public func batches(after lastEventID: String?) -> AsyncThrowingStream<[PushedChange], any Error> {
        AsyncThrowingStream { continuation in
            let reading = Task { await run(after: lastEventID, into: continuation) }
            continuation.onTermination = { _ in reading.cancel() }
        }
    }

    private func run(
        after lastEventID: String?,
        into continuation: AsyncThrowingStream<[PushedChange], any Error>.Continuation
    ) async {
        var lastID = lastEventID
        var delay = reconnectDelay
        while !Task.isCancelled {
            let request: URLRequest
            do {
                request = try streamRequest(after: lastID)
            } catch {
                continuation.finish(throwing: error)
                return
            }
            let (connection, events) = EventStreamConnection.open(request, lastEventID: lastID, readTimeout: readTimeout)
            do {
                for try await read in events {
                    delay = reconnectDelay
                    lastID = read.last?.id ?? lastID
                    let batch = read.compactMap { event in decode(event).map { PushedChange($0, eventID: event.id) } }
                    if !batch.isEmpty { continuation.yield(batch) }
                }
            } catch EventStreamConnection.Failure.refused(let status, let contentType) where Self.isFinal(status) {
                let reason = "\(status) \(contentType ?? "without a Content-Type") is not an event stream"
                continuation.finish(throwing: SyncError.httpStatus(status, body: .string(reason)))
                return
            } catch {}
            if let retry = connection.retry { delay = .milliseconds(retry) }
            try? await Task.sleep(for: delay)
            delay = min(delay * 2, maximumReconnectDelay)
        }
        continuation.finish()
    }

    /// Whether a refusal is final: a client error but 408 and 429, a success that is not a
    /// stream (a 204 says "stop"), a redirect that was not followed.
    private static func isFinal(_ status: Int) -> Bool {
        (200..<500).contains(status) && status != 408 && status != 429
    }

    /// The GET the stream is opened with, through ``sync``'s rules for URLs and headers.
    private func streamRequest(after lastEventID: String?) throws(SyncError) -> URLRequest {
        var headers = ["Accept": "text/event-stream", "Cache-Control": "no-cache"]
        if let lastEventID, !lastEventID.isEmpty { headers["Last-Event-ID"] = lastEventID }
        var request = try sync.urlRequest(for: SyncRequest(method: .read, url: url, headers: headers))
        request.timeoutInterval = EventStreamConnection.noTimeLimit
        return request
    }
}
