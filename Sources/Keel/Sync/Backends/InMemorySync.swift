import Foundation

/// A REST store in memory: for previews, tests and prototypes.
///
/// It behaves like a small REST server: `create` on `/notes` stores a record and assigns
/// the next integer id; `read` of `/notes` lists the records (filtered by query parameters
/// that equal attribute values) and `read` of `/notes/1` returns one or fails with 404;
/// `update` replaces (or creates) a record; `patch` merges; `delete` removes and answers 204.
/// Any path works without set-up: `/users/1/invites` is a collection of its own. These are
/// the rules of ``RecordStore/respond(to:idAttribute:)``, which every store built on
/// ``RecordStore`` shares.
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
        var records: Records
        var requests: [SyncRequest] = []
        var queuedFailures: [SyncError] = []
    }

    private let state: Lock<State>
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
        var seeded = Records(idAttribute: idAttribute)
        for (path, list) in records {
            let key = ResourcePath(URL(string: path) ?? URL(filePath: path)).path
            seeded.collections[key] = list
            let highest = list.compactMap { $0[idAttribute]?.intValue }.max() ?? 0
            seeded.nextIDs[key] = highest + 1
        }
        self.state = Lock(State(records: seeded))
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
        return state.withLock { $0.records.collections[key] ?? [] }
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
        state.withLock { $0 = State(records: Records(idAttribute: idAttribute)) }
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
        return try state.withLock { (state) throws(SyncError) -> SyncResponse in
            try state.records.respond(to: request, idAttribute: idAttribute)
        }
    }
}

/// The records of an ``InMemorySync``: lists in insertion order, found by id with a scan.
private struct Records: RecordStore {
    let idAttribute: String
    var collections: [String: [Attributes]] = [:]
    var nextIDs: [String: Int] = [:]
    /// Versions of records that were replaced; every other record is at version 1.
    var versions: [String: [String: Int]] = [:]

    init(idAttribute: String) {
        self.idAttribute = idAttribute
    }

    func records(in collection: String) -> [Attributes]? {
        collections[collection]
    }

    func record(_ id: String, in collection: String) -> Attributes? {
        index(of: id, in: collection).flatMap { collections[collection]?[$0] }
    }

    func containsCollection(_ collection: String) -> Bool {
        collections[collection] != nil
    }

    func containsRecord(_ id: String, in collection: String) -> Bool {
        index(of: id, in: collection) != nil
    }

    mutating func insert(_ record: Attributes, id: String, in collection: String) {
        collections[collection, default: []].append(record)
    }

    mutating func replace(_ record: Attributes, id: String, in collection: String) {
        guard let index = index(of: id, in: collection) else { return }
        collections[collection]?[index] = record
        versions[collection, default: [:]][id, default: 1] += 1
    }

    mutating func delete(_ id: String, in collection: String) {
        guard let index = index(of: id, in: collection) else { return }
        collections[collection]?.remove(at: index)
        versions[collection]?[id] = nil
    }

    func version(of id: String, in collection: String) -> Int? {
        containsRecord(id, in: collection) ? versions[collection]?[id] ?? 1 : nil
    }

    func nextID(in collection: String) -> Int {
        nextIDs[collection] ?? 1
    }

    mutating func setNextID(_ id: Int, in collection: String) {
        nextIDs[collection] = id
    }

    /// The position of the record whose id, written as a path segment, is `id`.
    private func index(of id: String, in collection: String) -> Int? {
        collections[collection]?.firstIndex { $0[idAttribute].map(ResourcePath.segment(for:)) == id }
    }
}
