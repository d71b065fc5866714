import Foundation

/// A REST store in memory: for previews, tests and prototypes.
///
/// It behaves like a small REST server: `create` on `/notes` stores a record and assigns
/// the next integer id; `read` of `/notes` lists the records (filtered by query parameters
/// that equal attribute values) and `read` of `/notes/1` returns one or fails with 404;
/// `update` replaces (or creates) a record; `patch` merges; `delete` removes and answers 204.
/// Any path works without set-up: `/users/1/invites` is a collection of its own.
///
/// It also records every request and can inject failures, so apps can test their own
/// error handling without a server:
///
/// ```swift
/// let backend = InMemorySync()
/// let notes = Collection<Note>(url: "/notes", sync: backend)
/// let note = try await notes.create(["title": "Groceries"])   // id 1
///
/// backend.failNext(with: .httpStatus(500, body: nil))
/// await #expect(throws: SyncError.self) { try await note.save(["title": "x"]) }
/// backend.requests.map(\.method)  // [.create, .update]
/// ```
public final class InMemorySync: Sync {
    private struct State {
        var collections: [String: [Attributes]] = [:]
        var nextID: [String: Int] = [:]
        var requests: [SyncRequest] = []
        var queuedFailures: [SyncError] = []
    }

    private let state = Lock(State())
    private let idAttribute: String
    private let latency: Duration
    private let failureRule: (@Sendable (SyncRequest) -> SyncError?)?

    /// Creates a store.
    ///
    /// ```swift
    /// let backend = InMemorySync(records: ["/notes": [["id": 1, "title": "Seeded"]]])
    /// ```
    ///
    /// - Parameters:
    ///   - records: Initial records per collection path.
    ///   - idAttribute: The attribute that holds record ids.
    ///   - latency: How long each request takes, to test loading states and cancellation.
    ///   - failWhen: Decides, per request, to fail it with the returned error.
    public init(
        records: [String: [Attributes]] = [:],
        idAttribute: String = "id",
        latency: Duration = .zero,
        failWhen: (@Sendable (SyncRequest) -> SyncError?)? = nil
    ) {
        self.idAttribute = idAttribute
        self.latency = latency
        self.failureRule = failWhen
        state.withLock { state in
            for (path, list) in records {
                let key = ResourcePath(URL(string: path) ?? URL(filePath: path)).path
                state.collections[key] = list
                let highest = list.compactMap { $0[idAttribute]?.intValue }.max() ?? 0
                state.nextID[key] = highest + 1
            }
        }
    }

    /// Every request performed so far, in order.
    ///
    /// ```swift
    /// backend.requests.last?.body
    /// ```
    public var requests: [SyncRequest] { state.withLock { $0.requests } }

    /// The records of one collection, in insertion order.
    ///
    /// ```swift
    /// backend.records(at: "/notes").count
    /// ```
    ///
    /// - Parameter path: The collection path, such as `/notes`.
    public func records(at path: String) -> [Attributes] {
        let key = ResourcePath(URL(string: path) ?? URL(filePath: path)).path
        return state.withLock { $0.collections[key] ?? [] }
    }

    /// Makes the next request fail with `error` (requests are still recorded).
    ///
    /// ```swift
    /// backend.failNext(with: .transport("offline"))
    /// ```
    ///
    /// - Parameter error: The error to throw.
    public func failNext(with error: SyncError) {
        state.withLock { $0.queuedFailures.append(error) }
    }

    /// Forgets all records, requests and queued failures.
    ///
    /// ```swift
    /// backend.removeAll()
    /// ```
    public func removeAll() {
        state.withLock { $0 = State() }
    }

    /// Performs one operation on the in-memory records.
    ///
    /// ```swift
    /// let response = try await backend.perform(SyncRequest(method: .read, url: URL(string: "/notes")!))
    /// ```
    ///
    /// - Parameter request: The operation.
    /// - Returns: The record or list, with REST status codes.
    /// - Throws: ``SyncError`` for missing records (404), invalid bodies (400), duplicate
    ///   ids (422), injected failures, and cancellation.
    public func perform(_ request: SyncRequest) async throws(SyncError) -> SyncResponse {
        let queued: SyncError? = state.withLock { state in
            state.requests.append(request)
            return state.queuedFailures.isEmpty ? nil : state.queuedFailures.removeFirst()
        }
        if latency > .zero {
            do {
                try await Task.sleep(for: latency)
            } catch {
                throw .cancelled
            }
        }
        if Task.isCancelled { throw .cancelled }
        if let failure = queued ?? failureRule?(request) { throw failure }
        let response = state.withLock { state in handle(request, in: &state) }
        guard response.isSuccess else { throw SyncError(failing: response) }
        return response
    }

    private func handle(_ request: SyncRequest, in state: inout State) -> SyncResponse {
        let resource = ResourcePath(request.url)
        switch request.method {
        case .create:
            guard let body = request.body?.objectValue else { return Self.badRequest("expected a JSON object") }
            var record = body
            var list = state.collections[resource.path] ?? []
            if let id = record[idAttribute], !id.isNull {
                if list.contains(where: { $0[idAttribute] == id }) {
                    return SyncResponse(status: 422, body: [idAttribute: ["has already been taken"]])
                }
                if let int = id.intValue {
                    state.nextID[resource.path] = max(state.nextID[resource.path] ?? 1, int + 1)
                }
            } else {
                let id = state.nextID[resource.path] ?? 1
                state.nextID[resource.path] = id + 1
                record[idAttribute] = .int(id)
            }
            list.append(record)
            state.collections[resource.path] = list
            return SyncResponse(status: 201, body: .object(record))
        case .read:
            if let (_, index) = locate(resource, in: state), let parent = resource.parent,
                let record = state.collections[parent]?[index]
            {
                return SyncResponse(status: 200, body: .object(record))
            }
            if let list = state.collections[resource.path] {
                let query = ResourcePath.queryItems(of: request)
                return SyncResponse(
                    status: 200,
                    body: .array(list.filter { ResourcePath.matches($0, query: query) }.map(JSONValue.object))
                )
            }
            if let parent = resource.parent, state.collections[parent] != nil { return Self.notFound }
            return SyncResponse(status: 200, body: [])
        case .update, .patch:
            guard let body = request.body?.objectValue else { return Self.badRequest("expected a JSON object") }
            guard let parent = resource.parent, let segment = resource.lastSegment else { return Self.notFound }
            var list = state.collections[parent] ?? []
            if let (_, index) = locate(resource, in: state) {
                let record = request.method == .patch ? list[index].merging(body) : body
                var stored = record
                stored[idAttribute] = list[index][idAttribute]
                list[index] = stored
                state.collections[parent] = list
                return SyncResponse(status: 200, body: .object(stored))
            }
            guard request.method == .update else { return Self.notFound }
            var record = body
            record[idAttribute] = body[idAttribute] ?? Int(segment).map(JSONValue.int) ?? .string(segment)
            list.append(record)
            state.collections[parent] = list
            return SyncResponse(status: 201, body: .object(record))
        case .delete:
            guard let parent = resource.parent, let (_, index) = locate(resource, in: state) else {
                return Self.notFound
            }
            state.collections[parent]?.remove(at: index)
            return SyncResponse(status: 204)
        }
    }

    /// Finds the record a path names: the last segment matched against the parent's ids.
    private func locate(_ resource: ResourcePath, in state: State) -> (String, Int)? {
        guard let parent = resource.parent, let segment = resource.lastSegment,
            let list = state.collections[parent],
            let index = list.firstIndex(where: { $0[idAttribute].map(ResourcePath.segment(for:)) == segment })
        else { return nil }
        return (parent, index)
    }

    private static let notFound = SyncResponse(status: 404, body: ["error": "not found"])

    private static func badRequest(_ message: String) -> SyncResponse {
        SyncResponse(status: 400, body: ["error": .string(message)])
    }
}
